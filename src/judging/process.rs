//! Runs a solution on one input under a time limit and gives the verdict.
//!
//! The solution runs in a process group of its own, so that a time limit
//! kills a shell script together with whatever it started, and its output
//! pipes are drained by threads, so that a chatty solution cannot block.

use super::{Verdict, VerdictKind};
use crate::format::answers::{Mode, compare};
use rustix::process::{Pid, Signal, kill_process_group};
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// How many lines of a crashed solution's standard error a verdict quotes.
const STDERR_LINES: usize = 3;

/// Bytes of a quoted standard error line shown; the rest is cut.
const STDERR_LINE_BYTES: usize = 200;

/// Standard error kept from a run: its start is what a verdict quotes; the
/// rest is read and dropped, so that a flood neither stops the solution
/// nor fills memory.
const STDERR_KEPT: usize = 64 * 1024;

/// Standard output a run may write: twice the expected answer and 1 MiB
/// more, past which it is stopped with an output-limit verdict. So the
/// runner's memory is bounded whatever the solution prints.
pub fn output_cap(expected: &[u8]) -> usize {
    expected.len().saturating_mul(2).saturating_add(1024 * 1024)
}

/// A finished run of a solution.
#[derive(Debug)]
pub struct Run {
    /// How it ended; `None` when it was killed at the time limit.
    pub status: Option<ExitStatus>,
    /// Its standard output.
    pub stdout: Vec<u8>,
    /// Its standard error, its first [`STDERR_KEPT`] bytes.
    pub stderr: Vec<u8>,
    /// Whether it wrote more standard output than it was allowed.
    pub output_limit: bool,
    /// Wall time until it ended or was killed.
    pub elapsed: Duration,
}

/// Runs `command` (program and arguments) with `input` as standard input,
/// killing it and everything it started at `limit`.
pub fn run(command: &[String], input: &Path, limit: Duration, output_cap: usize) -> io::Result<Run> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
    let stdin = File::open(input)?;
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    // Both pipes are drained at once, or a child filling one would wait
    // forever on it: a thread each. Threads the system refuses (a process
    // limit) end the run with an error, never a panic.
    let drained = drain(child.stdout.take(), Some(output_cap))
        .and_then(|stdout| Ok((stdout, drain(child.stderr.take(), None)?)));
    let (stdout, stderr) = match drained {
        Ok(handles) => handles,
        Err(error) => {
            kill_group(&mut child);
            return Err(error);
        }
    };
    let status = match child.wait_timeout(limit) {
        Ok(Some(status)) => Some(status),
        Ok(None) => None,
        Err(error) => {
            kill_group(&mut child);
            return Err(error);
        }
    };
    let elapsed = start.elapsed();
    // Also ends what a finished script left running, which would hold the
    // pipes open. The group keeps the child's pid while any member lives, and
    // pids are handed out in sequence, so the signal cannot reach a stranger.
    kill_group(&mut child);
    let (stdout, output_limit) = stdout.join().unwrap_or_default();
    let (stderr, _) = stderr.join().unwrap_or_default();
    Ok(Run {
        status,
        stdout,
        stderr,
        output_limit,
        elapsed,
    })
}

/// Reads a pipe of the child's on a thread of its own. With a `cap`, more
/// than `cap` bytes close the pipe (the writer then dies of SIGPIPE, or
/// stops at the time limit) and report `true`; without one, the first
/// [`STDERR_KEPT`] bytes are kept and the rest read and dropped.
fn drain(
    pipe: Option<impl Read + Send + 'static>,
    cap: Option<usize>,
) -> io::Result<thread::JoinHandle<(Vec<u8>, bool)>> {
    thread::Builder::new().spawn(move || {
        let mut bytes = Vec::new();
        let Some(mut pipe) = pipe else {
            return (bytes, false);
        };
        let mut chunk = vec![0; 64 * 1024];
        loop {
            // A read error leaves what was read: the verdict works with that.
            let read = match pipe.read(&mut chunk) {
                Ok(0) | Err(_) => return (bytes, false),
                Ok(read) => read,
            };
            match cap {
                Some(cap) if bytes.len() + read > cap => return (bytes, true),
                Some(_) => bytes.extend_from_slice(&chunk[..read]),
                None => {
                    let room = STDERR_KEPT.saturating_sub(bytes.len());
                    bytes.extend_from_slice(&chunk[..read.min(room)]);
                }
            }
        }
    })
}

fn kill_group(child: &mut Child) {
    let group = i32::try_from(child.id()).ok().and_then(Pid::from_raw);
    if let Some(group) = group {
        // The group may be gone already: nothing is left to stop then.
        let _ = kill_process_group(group, Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Runs `command` on `input` and judges its output against `expected`.
pub fn judge(
    command: &[String],
    input: &Path,
    expected: &[u8],
    limit: Duration,
) -> (Verdict, Duration) {
    let run = match run(command, input, limit, output_cap(expected)) {
        Ok(run) => run,
        Err(error) => {
            let status = format!("cannot run {}: {error}", shell_words::join(command));
            return (
                Verdict::new(VerdictKind::RuntimeError, status),
                Duration::ZERO,
            );
        }
    };
    (verdict_of(&run, expected), run.elapsed)
}

/// The verdict on a finished run: how it ended, and then its output
/// compared with `expected` the way `check` compares it.
pub fn verdict_of(run: &Run, expected: &[u8]) -> Verdict {
    if run.output_limit {
        let message = format!(
            "more than {} bytes of output (twice the answer and 1 MiB)",
            output_cap(expected)
        );
        return Verdict::new(VerdictKind::OutputLimit, message);
    }
    let Some(status) = run.status else {
        return Verdict::new(VerdictKind::TimeLimit, "");
    };
    if !status.success() {
        let status = match (status.code(), status.signal()) {
            (Some(code), _) => format!("exit status {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            (None, None) => status.to_string(),
        };
        let mut verdict = Verdict::new(VerdictKind::RuntimeError, status);
        // The solution's bytes, escaped and cut: they must not drive the
        // terminal they are shown on.
        verdict.details = String::from_utf8_lossy(&run.stderr)
            .lines()
            .take(STDERR_LINES)
            .map(|line| {
                let shown: String = line.chars().take(STDERR_LINE_BYTES).collect();
                let escaped = shown.escape_debug().to_string();
                if shown.len() < line.len() {
                    escaped + "..."
                } else {
                    escaped
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        return verdict;
    }
    match compare(expected, &run.stdout[..], Mode::Lines) {
        Ok(comparison) => Verdict::of_comparison(&comparison),
        // Both are in memory: reading them cannot fail.
        Err(_) => Verdict::new(VerdictKind::JudgeFailure, "the output could not be read"),
    }
}

/// A progress bar on standard error, drawn only when that is a terminal;
/// without a length, a counter.
pub fn progress_bar(len: Option<u64>, what: &str) -> indicatif::ProgressBar {
    let bar =
        indicatif::ProgressBar::with_draw_target(len, indicatif::ProgressDrawTarget::stderr());
    let template = if len.is_some() {
        "{bar:40} {pos}/{len} {msg} [{elapsed}]"
    } else {
        "{spinner} {pos} {msg} [{elapsed}]"
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_message(what.to_owned());
    bar
}

/// Whether `program` can be started: a path to an executable file, or a
/// name found as one on PATH, as the system looks it up. Asked before any
/// test runs, so that a mistyped command is a usage error, not a runtime
/// error on every test.
pub fn startable(program: &str) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |path: &Path| {
        path.metadata()
            .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return match Path::new(program).metadata() {
            Err(error) => Err(format!("cannot start {program}: {error}")),
            Ok(_) if executable(Path::new(program)) => Ok(()),
            Ok(_) => Err(format!("cannot start {program}: not an executable file")),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|folder| executable(&folder.join(program))) {
        Ok(())
    } else {
        Err(format!("cannot start {program}: no such command on PATH"))
    }
}

/// The built-in solver as a command: this very binary's `solve`.
pub fn builtin_solver(after_win: &str) -> io::Result<Vec<String>> {
    let exe = std::env::current_exe()?;
    Ok(vec![
        exe.to_string_lossy().into_owned(),
        "solve".to_owned(),
        "--after-win".to_owned(),
        after_win.to_owned(),
    ])
}
