//! The `tictactoe` binary: parse the command line, run, map the result to an exit status.

use clap::Parser;
use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;
use tictactoe::cli::{self, Cli};
use tictactoe::error::Error;

/// sysexits.h: EX_DATAERR, EX_NOINPUT, EX_IOERR.
const DATA_ERROR: u8 = 65;
const NO_INPUT: u8 = 66;
const IO_ERROR: u8 = 74;
/// The argument parser's status for a usage error.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let run = match cli::plain_solve(&args) {
        Some(config) => cli::run(config),
        None => Cli::parse().into_config().and_then(cli::run),
    };
    match run {
        Ok(status) => ExitCode::from(status),
        // A reader that stopped listening (`| head`) is not a failure.
        Err(Error::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            let status = match error {
                Error::Data { .. } | Error::NoSuchCase { .. } => DATA_ERROR,
                Error::Open { .. } => NO_INPUT,
                Error::Read { .. } | Error::CreateOutput { .. } | Error::Write(_) => IO_ERROR,
                Error::Usage(_) => USAGE,
            };
            // Nowhere is left to report a failure to write to standard error.
            let _ = writeln!(io::stderr(), "error: {error}");
            ExitCode::from(status)
        }
    }
}
