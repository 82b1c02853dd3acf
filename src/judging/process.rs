//! Runs a solution on one input under a time limit and gives the verdict.
//!
//! The solution runs in a process group of its own, so that a time limit
//! kills a shell script together with whatever it started, and its output
//! pipes are drained by threads, so that a chatty solution cannot block.

use crate::compare::compare;
use std::fmt;
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

/// What happened to a solution on one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted: the output is the expected answer.
    Accepted,
    /// Wrong answer, with the checker's explanation.
    WrongAnswer(String),
    /// The solution failed: how it ended and the first lines of its standard error.
    RuntimeError {
        /// "exit status 1", "killed by signal 11", or why it could not start.
        status: String,
        /// The first lines of standard error.
        stderr: String,
    },
    /// Killed at the time limit.
    TimeLimit,
    /// The test itself is broken: no answer could be had for it.
    Fail(String),
}

impl Verdict {
    /// The short name judges use: AC, WA, RE, TLE, FAIL.
    pub fn code(&self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer(_) => "WA",
            Verdict::RuntimeError { .. } => "RE",
            Verdict::TimeLimit => "TLE",
            Verdict::Fail(_) => "FAIL",
        }
    }

    /// Whether the verdict is of the same kind as `other`, whatever the details.
    pub fn same_kind(&self, other: &Verdict) -> bool {
        self.code() == other.code()
    }
}

impl Verdict {
    /// What follows the code: `: ` and the explanation, with a crashed
    /// solution's stderr lines indented below; empty for AC and TLE.
    pub fn details(&self) -> String {
        match self {
            Verdict::Accepted | Verdict::TimeLimit => String::new(),
            Verdict::WrongAnswer(why) | Verdict::Fail(why) => format!(": {why}"),
            Verdict::RuntimeError { status, stderr } => {
                let mut text = format!(": {status}");
                for line in stderr.lines() {
                    text.push_str("\n    ");
                    text.push_str(line);
                }
                text
            }
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.code(), self.details())
    }
}

/// A finished run of a solution.
#[derive(Debug)]
pub struct Run {
    /// How it ended; `None` when it was killed at the time limit.
    pub status: Option<ExitStatus>,
    /// Its standard output.
    pub stdout: Vec<u8>,
    /// Its standard error.
    pub stderr: Vec<u8>,
    /// Wall time until it ended or was killed.
    pub elapsed: Duration,
}

/// Runs `command` (program and arguments) with `input` as standard input,
/// killing it and everything it started at `limit`.
pub fn run(command: &[String], input: &Path, limit: Duration) -> io::Result<Run> {
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
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
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
    Ok(Run {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        elapsed,
    })
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            // A read error leaves what was read: the verdict works with that.
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group the
        // child leads; it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
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
    let run = match run(command, input, limit) {
        Ok(run) => run,
        Err(error) => {
            let status = format!("cannot run {}: {error}", shell_words::join(command));
            let verdict = Verdict::RuntimeError {
                status,
                stderr: String::new(),
            };
            return (verdict, Duration::ZERO);
        }
    };
    (verdict_of(&run, expected), run.elapsed)
}

/// The verdict on a finished run.
pub fn verdict_of(run: &Run, expected: &[u8]) -> Verdict {
    let Some(status) = run.status else {
        return Verdict::TimeLimit;
    };
    if !status.success() {
        let status = match (status.code(), status.signal()) {
            (Some(code), _) => format!("exit status {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            (None, None) => status.to_string(),
        };
        let stderr = String::from_utf8_lossy(&run.stderr)
            .lines()
            .take(STDERR_LINES)
            .collect::<Vec<_>>()
            .join("\n");
        return Verdict::RuntimeError { status, stderr };
    }
    match compare(expected, &run.stdout) {
        Ok(()) => Verdict::Accepted,
        Err(mismatch) => Verdict::WrongAnswer(mismatch.to_string()),
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
