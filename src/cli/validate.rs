//! `validate`: check an input file against the statement and answer in a judge's convention.
//!
//! The format is detected as `solve --format auto` does: a file whose first
//! non-whitespace byte is `[` is a LeetCode transcript.

use super::{FormatArg, ThreadsArgs};
use crate::error::{DataError, Error, InputName};
use crate::files::{self, InputSource, OutputTarget};
use crate::format::Format;
use crate::format::cases::{self};
use crate::game::{Limits, MoveError};
use crate::judging::Protocol;
use crate::judging::validate::leetcode::validate_leetcode_split;
use crate::judging::validate::{Report, Rule, validate_split};
use crate::pipeline::parallel::Split;
use clap::{Args, ValueEnum};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub(super) const VALIDATE_HELP: &str = "\
Layout: T alone on line 1; per case N and Q each alone on a line, then Q lines
`ROW COL PLAYER` separated by single spaces; LF line endings and a final LF;
no blank lines, trailing spaces, tabs or CR; integers without sign or leading
zeros. Constraints (the statement's by default): 1 <= T <= 100, 1 <= N <= 100,
5 <= Q <= N x N, 0 <= ROW, COL < N, PLAYER 1 or 2. Guarantees: every move goes
to an empty cell, players alternate, no move follows a win.

Examples (they work in any folder):
  tictactoe gen --seed 1 > in.txt && tictactoe validate in.txt    # valid: 10 cases, ...
  tictactoe validate --protocol kattis --max-n 50 < in.txt; test $? = 42

Exit status: plain 0 valid, 1 invalid; testlib 0 valid, 3 invalid (with a
FAIL line on standard error); kattis 42 valid, 43 invalid. 2 usage error (3,
FAIL, under testlib, as its validators fail on a command line they cannot
work with), 66 the file cannot be opened, 71 a memory limit too small for the
board (in every protocol: the limit is at fault, not the input), 74 an I/O
error.";

#[derive(Debug, Args)]
pub(super) struct ValidateArgs {
    /// The input to validate; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Whose exit statuses to use.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Plain)]
    protocol: ProtocolArg,
    /// Report at most this many violations, then stop.
    #[arg(long, value_name = "COUNT", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    max_errors: u64,
    #[command(flatten)]
    threads: ThreadsArgs,
    /// Fewest test cases T.
    #[arg(long, value_name = "T", default_value_t = Limits::STATEMENT.min_t)]
    min_t: u64,
    /// Most test cases T.
    #[arg(long, value_name = "T", default_value_t = Limits::STATEMENT.max_t)]
    max_t: u64,
    /// Smallest board size N.
    #[arg(long, value_name = "N", default_value_t = Limits::STATEMENT.min_n)]
    min_n: u64,
    /// Largest board size N.
    #[arg(long, value_name = "N", default_value_t = Limits::STATEMENT.max_n)]
    max_n: u64,
    /// Fewest moves Q in a case.
    #[arg(long, value_name = "Q", default_value_t = Limits::STATEMENT.min_q)]
    min_q: u64,
    /// Most moves Q in a case (Q <= N x N always holds).
    #[arg(long, value_name = "Q")]
    max_q: Option<u64>,
    /// Which format the file must be in: auto accepts either.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// testlib's test set name: accepted, as testlib validators accept it.
    #[arg(long, value_name = "T")]
    testset: Option<String>,
    /// testlib's test group name: accepted, as testlib validators accept it.
    #[arg(long, value_name = "G")]
    group: Option<String>,
    /// testlib's overview log: for a valid file, which bounds of T, N and Q
    /// it hits, written to this file (`stdout` and `stderr` name those).
    #[arg(long = "testOverviewLogFileName", value_name = "FILE")]
    test_overview_log: Option<PathBuf>,
    /// testlib's markup file: accepted; no markup is written.
    #[arg(long = "testMarkupFileName", value_name = "FILE")]
    test_markup: Option<PathBuf>,
    /// testlib's test case to extract: accepted; nothing is extracted.
    #[arg(long = "testCase", value_name = "N")]
    test_case: Option<u64>,
    /// testlib's file for the extracted test case: accepted; nothing is written.
    #[arg(long = "testCaseFileName", value_name = "FILE")]
    test_case_file: Option<PathBuf>,
    /// Print the report as one JSON document on standard output instead of
    /// lines (docs/JSON.md).
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum ProtocolArg {
    /// Exit 0 valid, 1 invalid.
    Plain,
    /// testlib: exit 0 valid, 3 invalid, with a `FAIL ...` line on standard error.
    Testlib,
    /// Kattis / ICPC problem packages / DOMjudge: exit 42 valid, 43 invalid.
    Kattis,
}

impl ValidateArgs {
    pub(super) fn into_config(self) -> Result<ValidateConfig, Error> {
        let limits = Limits {
            min_t: self.min_t,
            max_t: self.max_t,
            min_n: self.min_n,
            max_n: self.max_n,
            min_q: self.min_q,
            max_q: self.max_q,
        };
        limits.check().map_err(Error::Usage)?;
        // testlib: "Expected non-empty testset after --testset".
        if self.testset.as_deref() == Some("") {
            return Err(Error::Usage("--testset needs a non-empty value".into()));
        }
        Ok(ValidateConfig {
            input: self.file.map_or(InputSource::Stdin, InputSource::from_arg),
            protocol: match self.protocol {
                ProtocolArg::Plain => Protocol::Plain,
                ProtocolArg::Testlib => Protocol::Testlib,
                ProtocolArg::Kattis => Protocol::Kattis,
            },
            limits,
            max_errors: usize::try_from(self.max_errors).unwrap_or(usize::MAX),
            threads: self.threads.count(),
            format: self.format.into_format(),
            overview_log: self.test_overview_log,
            json: self.json,
        })
    }
}

/// Settings for `validate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidateConfig {
    /// The file to validate.
    pub input: InputSource,
    /// Exit statuses and messages.
    pub protocol: Protocol,
    /// The bounds the file must keep.
    pub limits: Limits,
    /// Violations reported before giving up.
    pub max_errors: usize,
    /// Threads to validate a long input on: 1 reads it as one stream, 0
    /// lets the validator choose.
    pub threads: usize,
    /// The format the file must be in; `None` accepts either.
    pub format: Option<Format>,
    /// Where testlib's overview log goes, for a valid file.
    pub overview_log: Option<PathBuf>,
    /// The report as one JSON document.
    pub json: bool,
}

/// A missing file under Kattis's protocol is most likely a word among the
/// problem's `input_validator_flags` (`small`): the judge gives the input on
/// standard input and its flags as arguments, so the message says so.
fn judge_flag_hint(error: Error, config: &ValidateConfig) -> Error {
    error.with_missing_file_hint(|_| {
        (config.protocol == Protocol::Kattis).then(|| {
            "under --protocol kattis the input comes on standard input, so a word among \
             input_validator_flags is taken for this file: give this validator's options \
             there instead (such as --max-n 50)"
                .to_owned()
        })
    })
}

/// Validates the input and writes the report: each violation on its own
/// line, then a verdict line. Returns the protocol's status for the verdict.
pub fn run(config: &ValidateConfig, output: impl Write, errors: impl Write) -> Result<u8, Error> {
    // A log file that names the input is refused before anything is read,
    // as `-o` is; it is made only for a valid file, as testlib makes it.
    if let Some(log) = &config.overview_log
        && !matches!(log.to_str(), Some("stdout" | "stderr"))
    {
        files::refuse_an_input(log, std::slice::from_ref(&config.input))?;
    }
    files::refuse_stdout_on(std::slice::from_ref(&config.input))?;
    let (reader, name) = files::open(&config.input).map_err(|error| judge_flag_hint(error, config))?;
    let (format, marked, reader) = cases::resolve(reader, &name, config.format)?;
    let split = Split {
        workers: config.threads,
        ..Split::default()
    };
    let mut report = match format {
        Format::CodingNinjas => validate_split(reader, &config.limits, config.max_errors, split)
            .map_err(|source| Error::Read {
                input: name.clone(),
                source,
            })?,
        Format::Leetcode => {
            validate_leetcode_split(reader, name.clone(), &config.limits, config.max_errors, split)?
        }
    };
    let out_of_memory = report.violations.iter().find_map(|violation| match violation.rule {
        Rule::Move(why @ MoveError::NoRoom { .. }) => Some((violation.position, why)),
        _ => None,
    });
    if let Some((position, why)) = out_of_memory {
        // Not the file's fault: the validator cannot judge it here.
        let error = DataError {
            position,
            kind: why.into(),
        };
        return Err(Error::Data { input: name, error });
    }
    if marked {
        // The mark is dropped before reading, so that the rest is judged as
        // it would be without it; the file still is not canonical.
        report.note_byte_order_mark(config.max_errors);
    }
    // testlib writes nothing else on standard output: asked for the
    // overview log there (`stdout`), the report goes to standard error.
    let log_on_stdout = config.overview_log.as_deref().and_then(Path::to_str) == Some("stdout");
    let mut stdout = output;
    let mut stderr = Unchecked {
        inner: errors,
        unchecked: config.protocol == Protocol::Testlib,
    };
    let written = if log_on_stdout {
        let mut fail_line = Vec::new();
        write_report(&report, &name, config, ("standard error", &mut stderr), &mut fail_line)
            .and_then(|()| stderr.write_all(&fail_line))
    } else {
        write_report(&report, &name, config, ("standard output", &mut stdout), &mut stderr)
    };
    match written {
        // A reader that stopped listening (`| head`) must not turn an
        // invalid file's status into success.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(error) => return Err(Error::Write(error)),
        Ok(()) => {}
    }
    if let (Some(log), true) = (&config.overview_log, report.is_valid()) {
        write_overview(log, &report.summary.overview(&config.limits))?;
    }
    Ok(config.protocol.validate_status(report.is_valid()))
}

/// Writes testlib's overview log where it was asked for: a file, or
/// standard output or error by testlib's special names.
fn write_overview(log: &Path, overview: &str) -> Result<(), Error> {
    match log.to_str() {
        Some("stdout") => std::io::stdout().write_all(overview.as_bytes()),
        Some("stderr") => std::io::stderr().write_all(overview.as_bytes()),
        _ => {
            let mut file = files::Output::create(&OutputTarget::Path(log.to_path_buf()), &[])?;
            file.write_all(overview.as_bytes())
                .map_err(|source| Error::CreateOutput {
                    path: log.to_path_buf(),
                    source,
                })?;
            return file.finish();
        }
    }
    .map_err(Error::Write)
}

/// The report as lines: each violation, then the verdict.
fn write_lines(
    report: &Report,
    prefix: &str,
    config: &ValidateConfig,
    out: &mut impl Write,
) -> std::io::Result<()> {
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
    Ok(())
}

/// The report as JSON: validity, each violation with its place, and what a
/// valid file holds (docs/JSON.md).
fn report_json(report: &Report, name: &InputName, config: &ValidateConfig) -> serde_json::Value {
    let violations: Vec<serde_json::Value> = report
        .violations
        .iter()
        .map(|violation| {
            let at = violation.position;
            serde_json::json!({
                "line": at.line,
                "column": at.column,
                "case": at.case,
                "move": at.r#move,
                "message": violation.rule.to_string(),
            })
        })
        .collect();
    let summary = &report.summary;
    serde_json::json!({
        "schema": 1,
        "command": "validate",
        "input": match name {
            InputName::Stdin => None,
            InputName::Path(path) => Some(path.to_string_lossy()),
        },
        "valid": report.is_valid(),
        "status": config.protocol.validate_status(report.is_valid()),
        "stopped_at_max_errors": report.capped,
        "violations": violations,
        "summary": report.is_valid().then(|| serde_json::json!({
            "cases": summary.cases,
            // Sizes and lengths of no case at all are null, not zero.
            "min_n": (summary.cases > 0).then_some(summary.min_n),
            "max_n": (summary.cases > 0).then_some(summary.max_n),
            "moves": summary.moves,
            "min_q": (summary.cases > 0).then_some(summary.min_q),
            "max_q": (summary.cases > 0).then_some(summary.max_q),
            "won_by_player_1": summary.won_by[0],
            "won_by_player_2": summary.won_by[1],
            "drawn": summary.drawn,
            "unfinished": summary.unfinished,
            "full_boards": summary.full,
        })),
    })
}

/// Writes the report to `output` (named, for testlib's `FAIL` line), and
/// that line, under testlib's protocol, to `errors`.
fn write_report(
    report: &Report,
    name: &InputName,
    config: &ValidateConfig,
    (output_name, output): (&str, impl Write),
    mut errors: impl Write,
) -> std::io::Result<()> {
    let prefix = match name {
        InputName::Stdin => String::new(),
        InputName::Path(path) => format!("{}: ", path.display()),
    };
    let mut out = BufWriter::new(output);
    let reported = if config.json {
        serde_json::to_writer_pretty(&mut out, &report_json(report, name, config))
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
            .and_then(|()| out.flush())
    } else {
        write_lines(report, &prefix, config, &mut out)
    };
    // The FAIL line is written even when the report could not be.
    if let (Protocol::Testlib, Some(first)) = (config.protocol, report.violations.first()) {
        // testlib's validators end with one `FAIL` line on standard error.
        let count = report.violations.len();
        let more = match count {
            1 => String::new(),
            _ if report.capped => format!(" (and more: {count} shown on {output_name})"),
            _ => format!(" (and {} more on {output_name})", count - 1),
        };
        writeln!(errors, "FAIL {prefix}{first}{more}")?;
    }
    reported
}

/// Standard error as testlib writes it under its protocol: with fprintf,
/// whose failure nobody looks at, so that the exit status stays the
/// verdict when standard error is full or closed.
struct Unchecked<W> {
    inner: W,
    unchecked: bool,
}

impl<W: Write> Write for Unchecked<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.inner.write(bytes) {
            Err(_) if self.unchecked => Ok(bytes.len()),
            written => written,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.inner.flush() {
            Err(_) if self.unchecked => Ok(()),
            flushed => flushed,
        }
    }
}
