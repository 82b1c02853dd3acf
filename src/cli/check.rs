//! `check`: judge a solution's output against the expected answer, in a judge's own protocol.
//!
//! With the input at hand the expected answer is recomputed from it, so a
//! wrong answer file is caught and reported as a judge failure rather than
//! blamed on the solution, and a wrong result is explained with the move
//! and a picture of the board around it.

use super::{RulesArgs, ThreadsArgs, usage_error};
use crate::error::Error;
use crate::files::InputSource;
use crate::judging::check::{CheckFiles, judge};
use crate::judging::{Protocol, Verdict, VerdictKind};
use clap::{Args, ValueEnum};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub(super) const CHECK_HELP: &str = "\
Arguments by protocol:
  plain    EXPECTED [OUTPUT]          OUTPUT defaults to standard input
  testlib  IN OUT ANS [REPORT]        the verdict line goes to REPORT if given
  kattis   IN ANS FEEDBACK_DIR [...]  output on standard input; extra arguments ignored
  oj       IN OUTPUT [EXPECTED]       as `oj test --judge-command` calls it

Results are compared as tokens with any spacing, one line per case. Whenever
the input is known (--input, or IN) the expected answer is recomputed from it:
an answer file that disagrees is a judge failure, and a wrong result is shown
with its move and the board around it.

Example:
  tictactoe check --input fixtures/check/example.input fixtures/check/example.answer \\
      fixtures/check/example-wrong.output
    prints: wrong answer: case 1, move 7: expected 1, found 0
            the move: row 2, column 1, player 1 (X); it completes row 2, ...

Exit status:
  plain    0 same, 1 different, 3 judge failure
  testlib  0 ok, 1 wrong answer, 2 wrong output format, 3 judge failure (FAIL)
  kattis   42 accepted, 43 wrong answer, 3 judge failure (to Kattis, any status
           but 42 and 43 is a judge error)
  oj       0 accepted, 1 not, 3 judge failure";

#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    /// The files, in the protocol's order (see below).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Whose calling convention to follow.
    #[arg(long, value_enum, default_value_t = ProtocolArg::Plain)]
    protocol: ProtocolArg,
    /// The input the answers are for (plain protocol; the others name it themselves).
    #[arg(long, value_name = "IN")]
    input: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    threads: ThreadsArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum ProtocolArg {
    /// EXPECTED [OUTPUT]: exit 0 same, 1 different.
    Plain,
    /// testlib checkers: IN OUT ANS; exit 0 ok, 1 wrong answer, 2 presentation error, 3 fail.
    Testlib,
    /// Kattis / DOMjudge output validators: IN ANS FEEDBACK_DIR < OUTPUT; exit 42 or 43.
    Kattis,
    /// online-judge-tools' --judge-command: IN OUTPUT [EXPECTED]; exit 0 accepted.
    Oj,
}

impl CheckArgs {
    pub(super) fn into_config(self) -> Result<CheckConfig, Error> {
        let count = self.files.len();
        let (low, high, order) = match self.protocol {
            ProtocolArg::Plain => (1, 2, "EXPECTED [OUTPUT]"),
            ProtocolArg::Testlib => (3, 4, "IN OUT ANS [REPORT]"),
            ProtocolArg::Kattis => (3, usize::MAX, "IN ANS FEEDBACK_DIR"),
            ProtocolArg::Oj => (2, 3, "IN OUTPUT [EXPECTED]"),
        };
        if !(low..=high).contains(&count) {
            return Err(usage_error(&format!(
                "this protocol takes the arguments {order}, but {count} were given"
            )));
        }
        if self.input.is_some() && self.protocol != ProtocolArg::Plain {
            return Err(usage_error(
                "--input is for the plain protocol; the others name the input themselves",
            ));
        }
        let mut files = self.files.into_iter();
        let mut next = || files.next();
        let mut config = CheckConfig {
            protocol: Protocol::Plain,
            files: CheckFiles {
                input: None,
                expected: None,
                output: InputSource::Stdin,
                rules: self.rules.into_rules(),
                threads: self.threads.count(),
            },
            feedback_dir: None,
            report: None,
        };
        match self.protocol {
            ProtocolArg::Plain => {
                config.files.input = self.input;
                config.files.expected = next();
                config.files.output = next().map_or(InputSource::Stdin, InputSource::from_arg);
            }
            ProtocolArg::Testlib => {
                config.protocol = Protocol::Testlib;
                config.files.input = next();
                config.files.output = next().map_or(InputSource::Stdin, InputSource::Path);
                config.files.expected = next();
                config.report = next();
            }
            ProtocolArg::Kattis => {
                config.protocol = Protocol::Kattis;
                config.files.input = next();
                config.files.expected = next();
                config.feedback_dir = next();
            }
            ProtocolArg::Oj => {
                config.protocol = Protocol::Oj;
                config.files.input = next();
                config.files.output = next().map_or(InputSource::Stdin, InputSource::Path);
                config.files.expected = next();
            }
        }
        Ok(config)
    }
}

/// Settings for `check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckConfig {
    /// The convention for arguments, statuses and messages.
    pub protocol: Protocol,
    /// The input, the expected answer and the output, and the rules.
    pub files: CheckFiles,
    /// Kattis's feedback directory.
    pub feedback_dir: Option<PathBuf>,
    /// testlib's optional report file, which takes the verdict instead of
    /// standard error.
    pub report: Option<PathBuf>,
}

/// Checks the output and reports the verdict the protocol's way. Returns
/// the protocol's exit status for it.
pub fn run(config: &CheckConfig, stdout: impl Write, stderr: impl Write) -> Result<u8, Error> {
    let verdict = match judge(&config.files) {
        Ok(verdict) => verdict,
        // testlib has a status for a checker that cannot do its work.
        Err(error) if config.protocol == Protocol::Testlib => {
            Verdict::new(VerdictKind::JudgeFailure, error.to_string())
        }
        Err(error) => return Err(error),
    };
    match deliver(config, &verdict, stdout, stderr) {
        // A reader that stopped listening must not change the verdict's status.
        Err(Error::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(error) => return Err(error),
        Ok(()) => {}
    }
    Ok(config.protocol.check_status(verdict.kind))
}

/// Writes the verdict where the protocol wants it.
fn deliver(
    config: &CheckConfig,
    verdict: &Verdict,
    stdout: impl Write,
    stderr: impl Write,
) -> Result<(), Error> {
    let label = verdict.kind.label();
    let with_colon = format!("{label}: {}\n{}", verdict.message, verdict.details);
    match config.protocol {
        Protocol::Plain | Protocol::Oj => write_all(stdout, &with_colon),
        Protocol::Testlib => {
            // testlib's verdict line: the verdict word, a space, the message.
            let line = format!("{label} {}\n{}", verdict.message, verdict.details);
            match &config.report {
                Some(path) => write_file(path, &line)?,
                None => write_all(stderr, &line)?,
            }
            Ok(())
        }
        Protocol::Kattis => {
            let directory = config
                .feedback_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("."));
            write_file(&directory.join("judgemessage.txt"), &with_colon)?;
            if verdict.kind == VerdictKind::JudgeFailure {
                write_all(stderr, &with_colon)?;
            }
            Ok(())
        }
    }
}

fn write_all(mut out: impl Write, text: &str) -> Result<(), Error> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::Write)
}

fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    let file = File::create(path).map_err(|source| Error::CreateOutput {
        path: path.to_path_buf(),
        source,
    })?;
    write_all(file, text)
}
