//! `supervise` (hidden): the process `test` and `stress` put between
//! themselves and a solution; see [`crate::judging::supervise`].

use super::parse_seconds;
use crate::error::Error;
#[cfg(unix)]
use crate::judging::supervise;
use clap::Args;
#[cfg(unix)]
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The status of a supervisor that could not start its solution, as a
/// shell gives a command it cannot run.
#[cfg(unix)]
const CANNOT_START: u8 = 127;

#[derive(Debug, Args)]
pub(super) struct SuperviseArgs {
    /// Become the solution with its limits set, rather than supervise it.
    #[arg(long)]
    exec: bool,
    /// Seconds the solution may run.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Bytes of address space each process of the solution may map.
    #[arg(long, value_name = "BYTES")]
    memory_limit: Option<u64>,
    /// Where the report goes: one line, how the solution ended and what it
    /// cost. The file must exist; its name is removed once it is open.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// The solution's program and arguments.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// Settings for `supervise`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuperviseConfig {
    /// `None` to become the solution; else how long it may run and where
    /// the report goes.
    pub supervise: Option<(Duration, PathBuf)>,
    /// The address space limit, per process.
    pub memory_limit: Option<u64>,
    /// The solution.
    pub command: Vec<String>,
}

/// Supervises the solution and writes the report, or becomes the solution.
#[cfg(not(unix))]
pub fn run(_config: &SuperviseConfig) -> Result<u8, Error> {
    Err(Error::Usage(
        "supervise needs Unix process control (Linux, macOS)".into(),
    ))
}

/// Supervises the solution and writes the report, or becomes the solution.
#[cfg(unix)]
pub fn run(config: &SuperviseConfig) -> Result<u8, Error> {
    let Some((time_limit, report)) = &config.supervise else {
        let error = supervise::exec_limited(&config.command, config.memory_limit);
        let program = config.command.first().map_or("", String::as_str);
        // Standard error is the solution's: the verdict quotes this line.
        let _ = writeln!(std::io::stderr(), "cannot start {program}: {error}");
        return Ok(CANNOT_START);
    };
    let process = |what| move |source| Error::Process { what, source };
    let exe = crate::judging::process::this_binary().map_err(process("find this binary"))?;
    match supervise::supervise(&exe, &config.command, *time_limit, config.memory_limit, report) {
        Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => Ok(supervise::NO_PROCESS),
        result => result.map(|()| 0).map_err(process("supervise the solution")),
    }
}

/// Becomes the solution when `args` are the line `test` and `stress`'s
/// supervisor starts one with, read without the argument parser; `None`
/// for any other line. Cold: it has no business in the solving path's frame.
#[cfg(unix)]
#[inline(never)]
#[cold]
pub(super) fn become_solution(args: &[std::ffi::OsString]) -> Option<Result<u8, Error>> {
    exec_line(args).map(|config| run(&config))
}

/// The line `test` and `stress`'s supervisor starts a solution with,
/// `supervise --exec [--memory-limit BYTES] -- COMMAND...`; `None` for any
/// other line.
#[cfg(unix)]
fn exec_line(args: &[std::ffi::OsString]) -> Option<SuperviseConfig> {
    let mut words = args.iter().map(|word| word.to_str());
    if words.next()? != Some("supervise") || words.next()? != Some("--exec") {
        return None;
    }
    let memory_limit = match words.next()? {
        Some("--") => None,
        Some("--memory-limit") => {
            let bytes = words.next()??.parse().ok()?;
            (words.next()? == Some("--")).then_some(())?;
            Some(bytes)
        }
        _ => return None,
    };
    let command = words.map(|word| word.map(str::to_owned)).collect::<Option<Vec<_>>>()?;
    (!command.is_empty()).then_some(SuperviseConfig {
        supervise: None,
        memory_limit,
        command,
    })
}

impl SuperviseArgs {
    pub(super) fn into_config(self) -> Result<SuperviseConfig, Error> {
        let supervise = match (self.exec, self.time_limit, self.report) {
            (true, _, _) => None,
            (false, Some(time), Some(report)) => Some((time, report)),
            _ => {
                return Err(Error::Usage(
                    "supervise needs --exec, or --time-limit and --report".into(),
                ));
            }
        };
        Ok(SuperviseConfig {
            supervise,
            memory_limit: self.memory_limit,
            command: self.command,
        })
    }
}
