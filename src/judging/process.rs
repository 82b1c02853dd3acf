//! Runs a solution on one input under its limits and gives the verdict.
//!
//! The solution runs under a supervisor, this binary's hidden `supervise`
//! command (see [`super::supervise`]), which holds the solution's whole
//! process tree to the time and memory limits and measures it. This side
//! feeds the input, drains the output pipes on threads of their own (so a
//! chatty solution cannot block, and more than its allowance ends the run),
//! and keeps a watchdog on the supervisor itself: a solution that stops or
//! kills its supervisor is still stopped [`GRACE`] after its limit, and what
//! it started comes to this process, a reaper too, which ends it.

use super::supervise::{self, Ending, Report};
use super::{Verdict, VerdictKind};
use crate::format::answers::{Mode, compare};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Mutex, Once};
use std::thread;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// How many lines of a crashed solution's standard error a verdict quotes.
const STDERR_LINES: usize = 3;

/// Bytes of a quoted standard error line shown; the rest is cut.
pub const STDERR_LINE_BYTES: usize = 200;

/// Standard error kept from a run: its start is what a verdict quotes; the
/// rest is read and dropped, so that a flood neither stops the solution
/// nor fills memory.
pub const STDERR_KEPT: usize = 64 * 1024;

/// How long after the time limit a verdict comes at the latest: the
/// supervisor kills at the limit; the watchdog kills the supervisor this
/// much later, when the solution stopped it (SIGSTOP) or it could not run.
pub const GRACE: Duration = Duration::from_secs(1);

/// What a solution's standard error says when an allocation failed: how a
/// failed run under a memory limit is told from any other crash.
const OUT_OF_MEMORY_MARKERS: [&str; 7] = [
    "std::bad_alloc",
    "MemoryError",
    "memory allocation of",
    "OutOfMemoryError",
    "out of memory",
    "Cannot allocate memory",
    "Out of memory",
];

/// Standard output a run may write: twice the expected answer and 1 MiB
/// more, past which it is stopped with an output-limit verdict. So the
/// runner's memory is bounded whatever the solution prints.
pub fn output_cap(expected: &[u8]) -> usize {
    expected.len().saturating_mul(2).saturating_add(1024 * 1024)
}

/// The limits a solution runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall time, for the whole process tree.
    pub time: Duration,
    /// Address space of each process, in bytes, if limited.
    pub memory: Option<u64>,
}

impl Limits {
    /// `{"time_seconds": .., "memory_bytes": .. or null}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "time_seconds": self.time.as_secs_f64(),
            "memory_bytes": self.memory,
        })
    }
}

/// What one run of a solution cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Wall time until it ended or was killed.
    pub wall: Duration,
    /// CPU time (user and system) of all its processes.
    pub cpu: Duration,
    /// The largest peak resident memory of any one of its processes, in KiB.
    pub peak_kib: u64,
}

impl Usage {
    /// `{"wall_seconds": .., "cpu_seconds": .., "peak_memory_kib": ..}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "wall_seconds": self.wall.as_secs_f64(),
            "cpu_seconds": self.cpu.as_secs_f64(),
            "peak_memory_kib": self.peak_kib,
        })
    }

    /// The larger of each measure of two usages.
    pub fn max(self, other: Usage) -> Usage {
        Usage {
            wall: self.wall.max(other.wall),
            cpu: self.cpu.max(other.cpu),
            peak_kib: self.peak_kib.max(other.peak_kib),
        }
    }

    /// `0.12s cpu 0.10s 3.4 MiB`: how `test` and `stress` show it.
    pub fn describe(&self) -> String {
        format!(
            "{:.2}s cpu {:.2}s {:.1} MiB",
            self.wall.as_secs_f64(),
            self.cpu.as_secs_f64(),
            self.peak_kib as f64 / 1024.0
        )
    }
}

/// A finished run of a solution.
#[derive(Debug)]
pub struct Run {
    /// How it ended, as its supervisor saw it; `Err` says why the supervisor
    /// gave no report (the watchdog stopped it, or the solution killed it).
    pub ending: Result<Ending, String>,
    /// What it cost.
    pub usage: Usage,
    /// Its standard output.
    pub stdout: Vec<u8>,
    /// Its standard error, its first [`STDERR_KEPT`] bytes.
    pub stderr: Vec<u8>,
    /// Whether it wrote more standard output than it was allowed.
    pub output_limit: bool,
    /// The limits it ran under.
    pub limits: Limits,
}

/// The supervisors this process has running: every other child it has is
/// something a solution left when its supervisor died, and is ended.
static SUPERVISORS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Makes this process the reaper of its descendants' orphans, once.
fn become_reaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Without it, what escapes a killed supervisor goes to init: the
        // supervisor's own sweep still covers every run that ends normally.
        let _ = nix::sys::prctl::set_child_subreaper(true);
    });
}

/// Ends every child of this process that is not a running supervisor.
fn end_orphans() {
    let live = SUPERVISORS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    supervise::end_children(|pid| {
        u32::try_from(pid.as_raw()).is_ok_and(|pid| live.contains(&pid))
    });
}

/// Runs `command` (program and arguments) with `input` as standard input
/// under `limits`, through a supervisor.
pub fn run(command: &[String], input: &Path, limits: Limits, output_cap: usize) -> io::Result<Run> {
    if command.is_empty() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty command"));
    }
    become_reaper();
    let exe = std::env::current_exe()?;
    let report_file = tempfile::NamedTempFile::new()?;
    let mut supervisor = Command::new(exe);
    supervisor
        .arg("supervise")
        .arg("--time-limit")
        .arg(limits.time.as_secs_f64().to_string())
        .arg("--report")
        .arg(report_file.path());
    if let Some(bytes) = limits.memory {
        supervisor.arg("--memory-limit").arg(bytes.to_string());
    }
    supervisor
        .arg("--")
        .args(command)
        .stdin(File::open(input)?)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = {
        // Held while spawning, so that a sweep cannot take the new
        // supervisor for an orphan.
        let mut live = SUPERVISORS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let child = supervisor.spawn()?;
        live.push(child.id());
        child
    };
    let forget = |pid: u32| {
        let mut live = SUPERVISORS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        live.retain(|&running| running != pid);
    };
    // Both pipes are drained at once, or a child filling one would wait
    // forever on it: a thread each. Threads the system refuses (a process
    // limit) end the run with an error, never a panic.
    let drained = drain(child.stdout.take(), Some(output_cap))
        .and_then(|stdout| Ok((stdout, drain(child.stderr.take(), None)?)));
    let (stdout, stderr) = match drained {
        Ok(handles) => handles,
        Err(error) => {
            let _ = child.kill();
            let _ = child.wait();
            forget(child.id());
            end_orphans();
            return Err(error);
        }
    };
    let status = child.wait_timeout(limits.time + GRACE);
    let status = match status {
        Ok(Some(status)) => Ok(status),
        Ok(None) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(format!(
                "still running {:.1}s after the time limit (stopped?)",
                GRACE.as_secs_f64()
            ))
        }
        Err(error) => {
            let _ = child.kill();
            let _ = child.wait();
            Err(format!("cannot wait for the supervisor: {error}"))
        }
    };
    forget(child.id());
    let report = std::fs::read_to_string(report_file.path())
        .ok()
        .and_then(|line| Report::parse(&line));
    if report.is_none() {
        // The supervisor died without its sweep: what the solution started
        // came here.
        end_orphans();
    }
    let (stdout, output_limit) = stdout.join().unwrap_or_default();
    let (stderr, _) = stderr.join().unwrap_or_default();
    let (ending, usage) = match (report, status) {
        (Some(report), _) => (
            Ok(report.ending),
            Usage {
                wall: report.wall,
                cpu: report.cpu,
                peak_kib: report.peak_kib,
            },
        ),
        (None, Err(why)) => (
            Err(why),
            Usage {
                wall: limits.time + GRACE,
                ..Usage::default()
            },
        ),
        (None, Ok(status)) => (
            Err(format!(
                "its supervisor ended without a report ({status}): did the solution kill its parent?"
            )),
            Usage {
                wall: started.elapsed(),
                ..Usage::default()
            },
        ),
    };
    Ok(Run {
        ending,
        usage,
        stdout,
        stderr,
        output_limit,
        limits,
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

/// A verdict and what the run cost.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The verdict.
    pub verdict: Verdict,
    /// What the run cost; zero when it did not run.
    pub usage: Usage,
}

/// Runs `command` on `input` and judges its output against `expected`.
pub fn judge(command: &[String], input: &Path, expected: &[u8], limits: Limits) -> Judged {
    match run(command, input, limits, output_cap(expected)) {
        Ok(run) => Judged {
            verdict: verdict_of(&run, expected),
            usage: run.usage,
        },
        Err(error) => Judged {
            verdict: Verdict::new(
                VerdictKind::RuntimeError,
                format!("cannot run {}: {error}", shell_words::join(command)),
            ),
            usage: Usage::default(),
        },
    }
}

/// The first lines of a solution's standard error, escaped and cut: its
/// bytes must not drive the terminal they are shown on.
pub fn quoted_stderr(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .take(STDERR_LINES)
        .map(|line| {
            let shown: String = line.chars().take(STDERR_LINE_BYTES).collect();
            // Control bytes, backslashes and invisible characters escaped;
            // quotes left as they are, being harmless.
            let escaped: String = shown
                .chars()
                .map(|c| match c {
                    '"' | '\'' => c.to_string(),
                    c => c.escape_debug().to_string(),
                })
                .collect();
            if shown.len() < line.len() {
                escaped + "..."
            } else {
                escaped
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
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
    let ending = match &run.ending {
        Ok(ending) => *ending,
        Err(why) if why.starts_with("still running") => {
            return Verdict::new(VerdictKind::TimeLimit, why.clone());
        }
        Err(why) => return Verdict::new(VerdictKind::RuntimeError, why.clone()),
    };
    let status = match ending {
        Ending::TimedOut => return Verdict::new(VerdictKind::TimeLimit, ""),
        Ending::Exited(0) => None,
        Ending::Exited(code) => Some(format!("exit status {code}")),
        Ending::Signaled(signal) => Some(format!("killed by signal {signal}")),
    };
    if let Some(status) = status {
        let kind = if out_of_memory(run) {
            VerdictKind::MemoryLimit
        } else {
            VerdictKind::RuntimeError
        };
        let mut verdict = Verdict::new(kind, status);
        verdict.details = quoted_stderr(&run.stderr);
        return verdict;
    }
    match compare(expected, &run.stdout[..], Mode::Lines) {
        Ok(comparison) => Verdict::of_comparison(&comparison),
        // Both are in memory: reading them cannot fail.
        Err(_) => Verdict::new(VerdictKind::JudgeFailure, "the output could not be read"),
    }
}

/// Whether a failed run failed for memory: under a memory limit, its peak
/// reached the limit or its standard error says an allocation failed.
fn out_of_memory(run: &Run) -> bool {
    let Some(limit) = run.limits.memory else {
        return false;
    };
    let stderr = String::from_utf8_lossy(&run.stderr);
    run.usage.peak_kib.saturating_mul(1024) >= limit
        || OUT_OF_MEMORY_MARKERS
            .iter()
            .any(|marker| stderr.contains(marker))
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
