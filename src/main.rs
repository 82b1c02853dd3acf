//! The `tictactoe` binary: run the command line, and map its result to an exit status.

use std::io::Write;
use std::process::ExitCode;
use tictactoe::{FailureKind, run_command_line};

/// sysexits.h: EX_DATAERR, EX_NOINPUT, EX_OSERR (the system could not
/// give a resource: here, memory), EX_IOERR.
const DATA_ERROR: u8 = 65;
const NO_INPUT: u8 = 66;
const NO_MEMORY: u8 = 71;
const IO_ERROR: u8 = 74;
/// testlib's FAIL.
const TESTLIB_FAIL: u8 = 3;
/// The argument parser's status for a usage error.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let failure = match run_command_line(std::env::args_os().skip(1).collect()) {
        Ok(status) => return ExitCode::from(status),
        Err(failure) => failure,
    };
    let status = match failure.kind() {
        // A reader that stopped listening (`| head`) is not a failure.
        FailureKind::ClosedOutput => return ExitCode::SUCCESS,
        // `--help` and `--version` go to standard output, as asked.
        FailureKind::HelpAsked => 0,
        FailureKind::Usage => USAGE,
        FailureKind::Data => DATA_ERROR,
        FailureKind::NoInput => NO_INPUT,
        FailureKind::Io => IO_ERROR,
        FailureKind::NoMemory => NO_MEMORY,
        FailureKind::TestlibFail => TESTLIB_FAIL,
    };
    match failure.report() {
        // Help that a reader stopped reading (`--help | head`) was heard.
        Err(error) if status == 0 && error.kind() != std::io::ErrorKind::BrokenPipe => {
            let _ = writeln!(std::io::stderr(), "error: cannot write the output: {error}");
            ExitCode::from(IO_ERROR)
        }
        _ => ExitCode::from(status),
    }
}
