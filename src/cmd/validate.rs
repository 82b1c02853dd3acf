//! `validate`: check an input file against the statement and answer in a judge's convention.
//!
//! The format is detected as `solve --format auto` does: a file whose first
//! non-whitespace byte is `[` is a LeetCode transcript.

use crate::config::InputFormat;
use crate::config::{ValidateConfig, ValidateProtocol};
use crate::error::{Error, InputName};
use crate::files;
use crate::format::cases::{self, Detected};
use crate::judging::validate::leetcode::validate_leetcode;
use crate::judging::validate::{Report, validate_split};
use crate::pipeline::parallel::Split;
use std::io::{BufWriter, Write};

/// Validates the input and writes the report: each violation on its own
/// line, then a verdict line. Returns the protocol's status for the verdict.
pub fn run(config: &ValidateConfig, output: impl Write, errors: impl Write) -> Result<u8, Error> {
    let (reader, name) = files::open(&config.input)?;
    let (format, reader) = cases::resolve(reader, &name, InputFormat::Auto)?;
    let report = match format {
        Detected::CodingNinjas => {
            let split = Split {
                workers: config.threads,
                ..Split::default()
            };
            validate_split(reader, &config.limits, config.max_errors, split)
        }
        Detected::Leetcode => validate_leetcode(reader, &config.limits, config.max_errors),
    }
    .map_err(|source| Error::Read {
        input: name.clone(),
        source,
    })?;
    match write_report(&report, &name, config, output, errors) {
        // A reader that stopped listening (`| head`) must not turn an
        // invalid file's status into success.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(error) => return Err(Error::Write(error)),
        Ok(()) => {}
    }
    Ok(status(config.protocol, report.is_valid()))
}

/// The exit status each protocol gives a verdict.
pub fn status(protocol: ValidateProtocol, valid: bool) -> u8 {
    match (protocol, valid) {
        (ValidateProtocol::Plain | ValidateProtocol::Testlib, true) => 0,
        (ValidateProtocol::Plain, false) => 1,
        (ValidateProtocol::Testlib, false) => 3,
        (ValidateProtocol::Kattis, true) => 42,
        (ValidateProtocol::Kattis, false) => 43,
    }
}

fn write_report(
    report: &Report,
    name: &InputName,
    config: &ValidateConfig,
    output: impl Write,
    mut errors: impl Write,
) -> std::io::Result<()> {
    let prefix = match name {
        InputName::Stdin => String::new(),
        InputName::Path(path) => format!("{}: ", path.display()),
    };
    let mut out = BufWriter::new(output);
    for violation in &report.violations {
        writeln!(out, "{prefix}{violation}")?;
    }
    let count = report.violations.len();
    let violations = if count == 1 {
        "violation"
    } else {
        "violations"
    };
    if report.is_valid() {
        writeln!(out, "valid: {}", report.summary)?;
    } else if report.capped {
        writeln!(
            out,
            "invalid: stopped after {count} {violations} (--max-errors {})",
            config.max_errors
        )?;
    } else {
        writeln!(out, "invalid: {count} {violations}")?;
    }
    out.flush()?;
    if let (ValidateProtocol::Testlib, Some(first)) = (config.protocol, report.violations.first()) {
        // testlib's validators end with one `FAIL` line on standard error.
        let more = match count {
            1 => String::new(),
            _ if report.capped => format!(" (and more: {count} shown on standard output)"),
            _ => format!(" (and {} more on standard output)", count - 1),
        };
        writeln!(errors, "FAIL {prefix}{first}{more}")?;
    }
    Ok(())
}
