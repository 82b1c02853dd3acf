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

#[cfg(unix)]
use super::supervise;
use super::{Verdict, VerdictKind};
use crate::format::answers::{Mode, compare};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
#[cfg(unix)]
use std::os::unix::process::CommandExt;
#[cfg(unix)]
use std::process::{Command, Stdio};
#[cfg(unix)]
use std::sync::{Arc, Mutex, Once, mpsc};
#[cfg(unix)]
use std::thread;
use std::time::Duration;
#[cfg(unix)]
use std::time::Instant;
#[cfg(unix)]
use wait_timeout::ChildExt;

/// Why `test` and `stress` do not run elsewhere than on Unix.
const UNIX_ONLY: &str = "test and stress run solutions under Unix process control \
                         (Linux, macOS); on Windows, run them in WSL";

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
#[cfg_attr(not(unix), allow(dead_code))]
pub const GRACE: Duration = Duration::from_secs(1);

/// What a solution says (on standard error, or the JVM on standard output)
/// when an allocation failed, in lower case: how a failed run under a
/// memory limit is told from any other crash. C++, Python, PyPy (its
/// nursery, at start, or its heap), Rust, Java and .NET, Go, C's perror,
/// gnulib's xalloc (sort, grep), the dynamic loader (a library it could not
/// map), V8, GHC.
const OUT_OF_MEMORY_MARKERS: [&str; 16] = [
    "std::bad_alloc",
    // A thread's stack is address space too: under the limit (and no cap
    // on processes, which runs do not get) a thread that cannot start
    // had no memory. Python, Go, Rust.
    "can't start new thread",
    "failed to create new os thread",
    "failed to spawn thread",
    "memoryerror",
    "cannot allocate nursery",
    "trying to allocate some memory",
    "memory allocation of",
    "outofmemory",
    "out of memory",
    "cannot allocate memory",
    "memory exhausted",
    "failed to map segment from shared object",
    "could not reserve enough space",
    "fatal process oom",
    "heap exhausted",
];

/// Whether `output` says an allocation failed.
fn says_out_of_memory(output: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&output[..output.len().min(STDERR_KEPT)]).to_lowercase();
    OUT_OF_MEMORY_MARKERS.iter().any(|marker| text.contains(marker))
}

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
    pub fn to_json(self) -> serde_json::Value {
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
    pub fn to_json(self) -> serde_json::Value {
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

/// How a supervised run ended.
// Made by the supervisor, which is Unix's.
#[cfg_attr(not(unix), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The solution exited with this status.
    Exited(i32),
    /// The solution was killed by this signal (not at the time limit).
    Signaled(i32),
    /// The solution was still running at the time limit and was killed.
    TimedOut,
}

/// What the supervisor measured.
#[cfg_attr(not(unix), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// How the solution's first process ended.
    pub ending: Ending,
    /// Wall time from the start until it ended or was killed.
    pub wall: Duration,
    /// User and system CPU time of every process of the tree.
    pub cpu: Duration,
    /// The largest peak resident memory of any one process of the tree, in KiB.
    pub peak_kib: u64,
}

#[cfg_attr(not(unix), allow(dead_code))]
impl Report {
    /// The report as the one line the supervisor writes.
    pub fn to_line(self) -> String {
        let (ending, value) = match self.ending {
            Ending::Exited(code) => ("exited", code),
            Ending::Signaled(signal) => ("signaled", signal),
            Ending::TimedOut => ("timed-out", 0),
        };
        format!(
            "{ending} {value} {} {} {}\n",
            self.wall.as_micros(),
            self.cpu.as_micros(),
            self.peak_kib
        )
    }

    /// The report a supervisor wrote, if it wrote one whole.
    pub fn parse(line: &str) -> Option<Report> {
        let mut words = line.split_whitespace();
        let ending = words.next()?;
        let value: i32 = words.next()?.parse().ok()?;
        let mut number = || -> Option<u64> { words.next()?.parse().ok() };
        let (wall, cpu, peak_kib) = (number()?, number()?, number()?);
        let ending = match ending {
            "exited" => Ending::Exited(value),
            "signaled" => Ending::Signaled(value),
            "timed-out" => Ending::TimedOut,
            _ => return None,
        };
        Some(Report {
            ending,
            wall: Duration::from_micros(wall),
            cpu: Duration::from_micros(cpu),
            peak_kib,
        })
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
    /// Whether standard error went on past [`STDERR_KEPT`] bytes.
    pub stderr_cut: bool,
    /// Whether it wrote more standard output than it was allowed.
    pub output_limit: bool,
    /// The limits it ran under.
    pub limits: Limits,
}

#[cfg(unix)]
/// The supervisors this process has running: every other child it has is
/// something a solution left when its supervisor died, and is ended.
static SUPERVISORS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

#[cfg(unix)]
/// Makes this process the reaper of its descendants' orphans, once.
fn become_reaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Without it, what escapes a killed supervisor goes to init: the
        // supervisor's own sweep still covers every run that ends normally.
        let _ = supervise::become_reaper();
    });
}

#[cfg(unix)]
/// Ends every child of this process that is not a running supervisor.
fn end_orphans() {
    let live = SUPERVISORS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    supervise::end_children(|pid| {
        u32::try_from(pid.as_raw()).is_ok_and(|pid| live.contains(&pid))
    });
}

/// Runs `command`: on this system, no supervisor can hold a solution's
/// process tree, so it is refused (see [`startable`]).
#[cfg(not(unix))]
pub fn run(command: &[String], input: &File, limits: Limits, output_cap: usize) -> io::Result<Run> {
    let _ = (command, input, limits, output_cap);
    Err(io::Error::new(io::ErrorKind::Unsupported, UNIX_ONLY))
}

/// A handle on `input` at its start, for one run's standard input. The
/// input is an open file: a test's input, opened once and checked to be a
/// regular file, or a scratch file with no name, which nothing can leave
/// behind (`stress`, stopped by Ctrl-C, once left its folder).
#[cfg(unix)]
fn rewound(input: &File) -> io::Result<File> {
    use std::io::Seek;
    let mut handle = input.try_clone()?;
    handle.rewind()?;
    Ok(handle)
}

#[cfg(unix)]
/// Runs `command` (program and arguments) with `input` as standard input
/// under `limits`, through a supervisor.
///
/// An error is this tool's, never the solution's: the input unreadable, no
/// temporary file, no process or thread to be had. The last, a process
/// limit that another run's solution holds (a fork bomb on a parallel job),
/// is waited out as long as that run can last, and tried again.
pub fn run(command: &[String], input: &File, limits: Limits, output_cap: usize) -> io::Result<Run> {
    let patience = Instant::now() + limits.time + GRACE + GRACE;
    let mut pause = Duration::from_millis(5);
    let mut starved = false;
    let result = loop {
        // A run waiting for a process goes first: the job whose bomb was
        // just swept would otherwise start its next test, and its next
        // bomb, in the gap, round after round.
        while !starved && STARVED.load(std::sync::atomic::Ordering::Acquire) > 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
        match run_once(command, input, limits, output_cap) {
            Err(error) if error.kind() == io::ErrorKind::WouldBlock && Instant::now() < patience => {
                if !starved {
                    starved = true;
                    STARVED.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            result => break result,
        }
    };
    if starved {
        STARVED.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
    result
}

#[cfg(unix)]
/// Runs waiting for a process the system refused them ([`run`]).
static STARVED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[cfg(unix)]
/// One try of [`run`].
fn run_once(command: &[String], input: &File, limits: Limits, output_cap: usize) -> io::Result<Run> {
    if command.is_empty() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty command"));
    }
    let stdin = rewound(input)?;
    become_reaper();
    let exe = this_binary()?;
    // Read back through this handle: the supervisor unlinks the path.
    let mut report_file = tempfile::NamedTempFile::new().map_err(|error| {
        io::Error::new(error.kind(), format!("cannot make the run's report file: {error}"))
    })?;
    // The supervisor opens it by name to write: a umask without the owner's
    // write bit (0200) made it read-only, and every run an RE.
    let owner_only = <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o600);
    report_file.as_file().set_permissions(owner_only).map_err(|error| {
        io::Error::new(error.kind(), format!("cannot make the run's report file: {error}"))
    })?;
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
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A group of its own: a solution that signals this tool's group, or
        // a Ctrl-C, does not stop the supervisor's sweep.
        .process_group(0);
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
    let (done, finished) = mpsc::channel();
    let drained = Drain::start(child.stdout.take(), Some(output_cap), done.clone())
        .and_then(|stdout| Ok((stdout, Drain::start(child.stderr.take(), None, done)?)));
    let (stdout, stderr) = match drained {
        Ok(drains) => drains,
        Err(error) => {
            let _ = child.kill();
            let _ = child.wait();
            forget(child.id());
            end_orphans();
            return Err(error);
        }
    };
    let status = match child.wait_timeout(limits.time + GRACE) {
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
    // Whatever a supervisor that died early left, and anything else that
    // reached this process, ends here.
    end_orphans();
    // A report counts only from a supervisor that finished its work: one
    // the solution stopped or killed may have a report the solution wrote.
    let report = match &status {
        Ok(status) if status.success() => read_report(report_file.as_file_mut()),
        _ => None,
    };
    if report.is_none()
        && matches!(&status, Ok(status) if status.code() == Some(i32::from(supervise::NO_PROCESS)))
    {
        return Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            "no process for the solution: a process limit is reached",
        ));
    }
    // The pipes close once every writer is gone, which the sweeps saw to;
    // should one still be held, the run's output is what came so far.
    let deadline = Instant::now() + GRACE;
    for _ in 0..2 {
        if finished.recv_timeout(deadline.saturating_duration_since(Instant::now())).is_err() {
            break;
        }
    }
    let (stdout, output_limit) = stdout.take();
    let (stderr, stderr_cut) = stderr.take();
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
                "its supervisor ended without a report ({status}): did the solution kill or \
                 stop its parent?"
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
        stderr_cut,
        output_limit,
        limits,
    })
}

#[cfg(unix)]
/// The supervisor's report, read through the runner's own handle, at most
/// a line's worth.
fn read_report(file: &mut File) -> Option<Report> {
    use std::io::Seek;
    file.rewind().ok()?;
    let mut line = String::new();
    file.take(256).read_to_string(&mut line).ok()?;
    Report::parse(&line)
}

#[cfg(unix)]
/// A pipe of the child's read on a thread of its own into a buffer the
/// runner can take at any time.
struct Drain {
    /// What was read, and whether the cap was passed.
    read: Arc<Mutex<(Vec<u8>, bool)>>,
}

#[cfg(unix)]
impl Drain {
    /// Starts reading. With a `cap`, more than `cap` bytes close the pipe
    /// (the writer then dies of SIGPIPE, or stops at the time limit) and
    /// mark the cap passed; without one, the first [`STDERR_KEPT`] bytes are
    /// kept and the rest read and dropped (and marked so). `done` hears when the pipe ends.
    fn start(
        pipe: Option<impl Read + Send + 'static>,
        cap: Option<usize>,
        done: mpsc::Sender<()>,
    ) -> io::Result<Drain> {
        let read = Arc::new(Mutex::new((Vec::new(), false)));
        let shared = Arc::clone(&read);
        thread::Builder::new().spawn(move || {
            let Some(mut pipe) = pipe else {
                let _ = done.send(());
                return;
            };
            let mut chunk = vec![0; 64 * 1024];
            loop {
                // A read error leaves what was read: the verdict works with that.
                let count = match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(count) => count,
                };
                let mut kept = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let (bytes, passed) = &mut *kept;
                match cap {
                    Some(cap) if bytes.len() + count > cap => {
                        *passed = true;
                        break;
                    }
                    Some(_) => bytes.extend_from_slice(&chunk[..count]),
                    None => {
                        let room = STDERR_KEPT.saturating_sub(bytes.len());
                        bytes.extend_from_slice(&chunk[..count.min(room)]);
                        *passed |= count > room;
                    }
                }
            }
            let _ = done.send(());
        })?;
        Ok(Drain { read })
    }

    /// What was read so far, and whether the cap was passed.
    fn take(self) -> (Vec<u8>, bool) {
        let mut read = self.read.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        std::mem::take(&mut *read)
    }
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
pub fn judge(command: &[String], input: &File, expected: &[u8], limits: Limits) -> Judged {
    match run(command, input, limits, output_cap(expected)) {
        Ok(run) => Judged {
            verdict: verdict_of(&run, expected),
            usage: run.usage,
        },
        // This tool's failure, not the solution's (see `run`).
        Err(error) => Judged {
            verdict: Verdict::new(
                VerdictKind::JudgeFailure,
                format!("cannot run {}: {error}", shell_words::join(command)),
            ),
            usage: Usage::default(),
        },
    }
}

/// A signal's name as a verdict adds it to the number: ` (SIGXCPU)`.
fn signal_name(signal: i32) -> String {
    #[cfg(unix)]
    if let Ok(known) = nix::sys::signal::Signal::try_from(signal) {
        return format!(" ({})", known.as_str());
    }
    let _ = signal;
    String::new()
}

/// The first lines of a solution's standard error, escaped and cut: its
/// bytes must not drive the terminal they are shown on.
pub fn quoted_stderr(stderr: &[u8], cut: bool) -> String {
    let text = String::from_utf8_lossy(stderr);
    let mut lines: Vec<&str> = text.lines().collect();
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    // The start says where a crash began, the end what it was: a Python
    // traceback names its exception on its last line. Of a standard error
    // cut short the end is not known.
    let left_out = if cut {
        format!("... (standard error goes on past {} KiB)", STDERR_KEPT / 1024)
    } else {
        format!("... ({} lines left out)", lines.len().saturating_sub(STDERR_LINES))
    };
    let quoted: Vec<&str> = if cut {
        let mut start = lines[..lines.len().min(STDERR_LINES)].to_vec();
        start.push(&left_out);
        start
    } else if lines.len() <= STDERR_LINES + 1 {
        lines
    } else {
        let mut ends = lines[..STDERR_LINES - 1].to_vec();
        ends.push(&left_out);
        ends.extend(lines.last());
        ends
    };
    quoted
        .into_iter()
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
        Ending::Signaled(signal) => Some(format!("killed by signal {signal}{}", signal_name(signal))),
    };
    if let Some(status) = status {
        let kind = if out_of_memory(run) {
            VerdictKind::MemoryLimit
        } else {
            VerdictKind::RuntimeError
        };
        let mut verdict = Verdict::new(kind, status);
        verdict.details = quoted_stderr(&run.stderr, run.stderr_cut);
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
    run.usage.peak_kib.saturating_mul(1024) >= limit
        || says_out_of_memory(&run.stderr)
        || says_out_of_memory(&run.stdout)
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

/// Whether solutions can run on this platform at all, the built-in solver's
/// runs included (they are supervised like any other): asked before any
/// test runs, so that Windows gets one message, not one failure per test.
pub fn runs_solutions_here() -> Result<(), String> {
    if cfg!(unix) {
        Ok(())
    } else {
        Err(UNIX_ONLY.to_owned())
    }
}

/// Whether `program` can be started: a path to an executable file, or a
/// name found as one on PATH, as the system looks it up. Asked before any
/// test runs, so that a mistyped command is a usage error, not a runtime
/// error on every test.
pub fn startable(program: &str) -> Result<(), String> {
    runs_solutions_here()?;
    let executable = |path: &Path| {
        path.metadata().is_ok_and(|metadata| {
            #[cfg(unix)]
            let runs = std::os::unix::fs::PermissionsExt::mode(&metadata.permissions()) & 0o111 != 0;
            #[cfg(not(unix))]
            let runs = true;
            metadata.is_file() && runs
        })
    };
    // Without PATH (`env -i`) the C library looks in its default path, and
    // the solution starts from there: so does the look here.
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
    let found = if program.contains('/') {
        match Path::new(program).metadata() {
            Err(error) => return Err(format!("cannot start {program}: {error}")),
            Ok(_) if executable(Path::new(program)) => Path::new(program).to_path_buf(),
            Ok(_) => return Err(format!("cannot start {program}: not an executable file")),
        }
    } else {
        match std::env::split_paths(&path)
            .map(|folder| folder.join(program))
            .find(|candidate| executable(candidate))
        {
            Some(found) => found,
            None => return Err(format!("cannot start {program}: no such command on PATH")),
        }
    };
    // A script whose `#!` names a missing interpreter cannot start either;
    // nor one saved with Windows line ends, whose CR the kernel takes for
    // part of the interpreter's name or of its argument (`python3\r`).
    let Some(line) = shebang(&found) else {
        return Ok(());
    };
    if line.ends_with('\r') {
        return Err(format!(
            "cannot start {program}: its #! line ends in a CR (Windows line ends): \
             convert the script to LF line ends"
        ));
    }
    match line.split([' ', '\t']).find(|word| !word.is_empty()) {
        Some(interpreter) if !executable(Path::new(interpreter)) => Err(format!(
            "cannot start {program}: its interpreter {} is not an executable file",
            interpreter.escape_debug()
        )),
        _ => Ok(()),
    }
}

/// A script's `#!` line, if it has one, after the `#!` and before its LF:
/// the kernel reads the interpreter up to the first space or tab.
fn shebang(script: &Path) -> Option<String> {
    let mut start = [0u8; 256];
    let read = File::open(script).ok()?.read(&mut start).ok()?;
    let line = start[..read].strip_prefix(b"#!")?;
    let line = line.split(|&b| b == b'\n').next()?;
    Some(String::from_utf8_lossy(line).into_owned())
}

/// This very binary, to start again (the supervisor, the built-in solver):
/// on Linux `/proc/self/exe`, which stays this file when the path it was
/// started by is replaced or removed while runs go on (a `cargo install`
/// over it); once, the runs after that failed as "cannot run" the
/// solution. Elsewhere its path.
pub fn this_binary() -> io::Result<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        let link = Path::new("/proc/self/exe");
        if link.exists() {
            return Ok(link.to_path_buf());
        }
    }
    std::env::current_exe()
}

/// The built-in solver as a command: this very binary's `solve`.
pub fn builtin_solver(after_win: &str) -> io::Result<Vec<String>> {
    let exe = this_binary()?;
    Ok(vec![
        exe.to_string_lossy().into_owned(),
        "solve".to_owned(),
        "--after-win".to_owned(),
        after_win.to_owned(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_back_as_written() {
        for ending in [Ending::Exited(3), Ending::Signaled(9), Ending::TimedOut] {
            let report = Report {
                ending,
                wall: Duration::from_micros(1_234_567),
                cpu: Duration::from_micros(890),
                peak_kib: 4096,
            };
            assert_eq!(Report::parse(&report.to_line()), Some(report));
        }
        assert_eq!(Report::parse("exited 0 12"), None);
    }

    #[test]
    fn a_long_standard_error_is_quoted_by_its_start_and_its_last_line() {
        assert_eq!(quoted_stderr(b"a\nb\nc\nd\n\n", false), "a\nb\nc\nd");
        assert_eq!(
            quoted_stderr(b"Traceback\n1\n2\n3\n4\nValueError: x\n", false),
            "Traceback\n1\n... (3 lines left out)\nValueError: x"
        );
        // Cut short, its end is unknown: no half line is taken for it.
        assert_eq!(
            quoted_stderr(b"a\nb\nc\nd\nhalf a li", true),
            "a\nb\nc\n... (standard error goes on past 64 KiB)"
        );
    }

    #[test]
    fn each_runtimes_words_for_a_failed_allocation_are_known() {
        let said = [
            "terminate called after throwing an instance of 'std::bad_alloc'",
            "MemoryError",
            "RPython traceback:\ncannot allocate nursery",
            "Got an unexpected error trying to allocate some memory",
            "memory allocation of 1073741824 bytes failed",
            "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
            "Unhandled exception. System.OutOfMemoryException",
            "fatal error: runtime: out of memory",
            "fatal error: runtime: cannot allocate memory",
            "sort: memory exhausted",
            "./a.out: error while loading shared libraries: libstdc++.so.6: \
             failed to map segment from shared object",
            "Error: Could not reserve enough space for object heap",
            "Fatal process OOM in Failed to reserve virtual memory for CodeRange",
            "a.out: Heap exhausted;",
            "RuntimeError: can't start new thread",
            "runtime: failed to create new OS thread (have 5 already; errno=11)",
            "thread 'main' panicked at library/std/src/thread/mod.rs: failed to spawn thread",
        ];
        for words in said {
            assert!(says_out_of_memory(words.as_bytes()), "{words}");
        }
        for words in ["Segmentation fault", "IndexError: list index out of range", ""] {
            assert!(!says_out_of_memory(words.as_bytes()), "{words}");
        }
    }
}
