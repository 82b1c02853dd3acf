//! The supervisor: a process of this binary's own between the runner and a
//! solution, which holds the solution's whole process tree to its limits.
//!
//! A solution may start processes that leave its process group and session
//! (`setsid`, a double fork). The supervisor makes itself their reaper
//! (`PR_SET_CHILD_SUBREAPER`): whatever the solution leaves behind becomes
//! the supervisor's child, and when the solution ends or its time is up the
//! supervisor stops its whole tree, then kills and reaps it, round after
//! round, until none is left. Then the tree's CPU time and peak memory are the
//! supervisor's reaped children's (`getrusage(RUSAGE_CHILDREN)`). While the
//! solution runs, a thread reaps what it leaves as soon as it ends, so
//! that no pile of zombies fills the system's process table.
//!
//! The solution itself is started through `supervise --exec`, which sets the
//! memory limit (`RLIMIT_AS`, per process, as BAPCtools and most judges set
//! it), no core files, and a parent-death signal, and then becomes the
//! solution (`exec`). So a solution that kills the supervisor dies with it;
//! what it started goes to the runner, which is a reaper too and sweeps it.
//!
//! Process control is [`nix`]'s: the one well-kept crate with safe calls for
//! the reaper attribute, the parent-death signal, resource limits and usage.
//! The reaper and the parent-death signal are Linux's; on other Unix systems
//! the solution's process group is what is ended.

use super::process::{Ending, Report};
use nix::sys::resource::{Resource, UsageWho, getrusage, setrlimit};
use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use std::collections::HashSet;
use std::fs;
use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// ru_maxrss is in KiB on Linux, in bytes on macOS.
#[cfg(target_os = "macos")]
const MAX_RSS_UNITS_PER_KIB: u64 = 1024;
#[cfg(not(target_os = "macos"))]
const MAX_RSS_UNITS_PER_KIB: u64 = 1;

/// Makes this process the reaper of its descendants' orphans, where the
/// system has such a thing (Linux). Elsewhere what escapes the solution's
/// process group (`setsid`) is not found: the process group is all the
/// supervisor ends.
pub fn become_reaper() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    nix::sys::prctl::set_child_subreaper(true).map_err(io::Error::from)?;
    Ok(())
}

/// Asks for SIGKILL when the parent (the supervisor) dies, where the
/// system offers it (Linux).
fn die_with_parent() -> Result<(), io::Error> {
    #[cfg(target_os = "linux")]
    nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(io::Error::from)?;
    Ok(())
}

/// The supervisor's exit status when the system had no process for the
/// solution (a process limit reached, EAGAIN): nothing ran, and the runner
/// tries again ([`crate::judging::process::run`]). A solution cannot make
/// its supervisor exit so: it exits only on its own.
pub const NO_PROCESS: u8 = 75;

/// How often the supervisor looks whether the runner still lives.
const PARENT_CHECK: Duration = Duration::from_millis(100);

/// The supervisor's work: runs `command` through `exe supervise --exec`,
/// kills it at `time_limit`, ends every process it left, measures, and
/// writes the report to `report_path`. The runner made that file; it is
/// opened and unlinked before the solution starts (so that swapping the
/// path for another file changes nothing, and a runner killed from then
/// on leaves no file; one killed while this starts still leaves it), and
/// overwritten at the end (so that what the solution wrote there, through
/// `/proc`, is lost). If the runner dies (Ctrl-C, or killed), the
/// solution's tree is ended at once.
pub fn supervise(
    exe: &Path,
    command: &[String],
    time_limit: Duration,
    memory_limit: Option<u64>,
    report_path: &Path,
) -> io::Result<()> {
    become_reaper()?;
    let mut report = fs::OpenOptions::new().write(true).open(report_path)?;
    if !report.metadata()?.is_file() {
        return Err(io::Error::other("the report is not a regular file"));
    }
    // Both ends now hold the file open: with its name gone, a runner that
    // is killed (by its solution, or by Ctrl-C) leaves no file behind.
    // The runner reads it through its own handle and ignores the name's
    // absence when it drops it. A name that cannot go costs only the file,
    // not the run.
    let _ = fs::remove_file(report_path);
    let runner = nix::unistd::getppid();
    let mut solution = Command::new(exe);
    solution.args(["supervise", "--exec"]);
    if let Some(bytes) = memory_limit {
        solution.arg("--memory-limit").arg(bytes.to_string());
    }
    solution.arg("--").args(command).process_group(0);
    // A process's peak memory survives its exec: the kernel keeps the
    // larger of the old and the new. Spawned the usual way (a vfork), the
    // child starts in this process's memory and would carry all of it into
    // the solution's peak. Asking for our own user id, which changes
    // nothing but (as root) drops supplementary groups, makes the standard
    // library fork instead: the child then counts only the pages it copies.
    solution.uid(nix::unistd::getuid().as_raw());
    // Started before the solution, so that a process limit already reached
    // refuses the thread before anything runs (the runner tries again).
    let mut reaper = Reaper::start()?;
    let start = Instant::now();
    let mut child = solution.spawn()?;
    reaper.watch(child.id());
    let status = loop {
        let left = time_limit.saturating_sub(start.elapsed());
        let waited = child.wait_timeout(left.min(PARENT_CHECK));
        match waited {
            Ok(Some(status)) => break Some(status),
            Ok(None) if nix::unistd::getppid() != runner => {
                // Nobody is left to report to: end everything now.
                reaper.stop();
                let _ = child.kill();
                let _ = child.wait();
                end_children(|_| false);
                return Err(io::Error::other("the runner is gone"));
            }
            Ok(None) if left.is_zero() => break None,
            Ok(None) => {}
            Err(error) => {
                reaper.stop();
                let _ = child.kill();
                let _ = child.wait();
                end_children(|_| false);
                return Err(error);
            }
        }
    };
    let wall = start.elapsed();
    // Before the sweep: a process it lists must stay listed (a zombie
    // until it reaps it), or its id could be another's by the time it is
    // stopped or killed. The sweep reaps all it ends.
    reaper.stop();
    if let Ok(group) = i32::try_from(child.id()).map(Pid::from_raw) {
        // The group may be gone already; the sweep below finds the rest.
        let _ = killpg(group, Signal::SIGKILL);
    }
    let ending = match status {
        Some(status) => ending_of(status, wall, time_limit),
        None => {
            let _ = child.kill();
            child.wait()?;
            Ending::TimedOut
        }
    };
    end_children(|_| false);
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).map_err(io::Error::from)?;
    let micros = |time: nix::sys::time::TimeVal| {
        u64::try_from(time.tv_sec()).unwrap_or(0) * 1_000_000
            + u64::try_from(time.tv_usec()).unwrap_or(0)
    };
    let measured = Report {
        ending,
        wall,
        cpu: Duration::from_micros(micros(usage.user_time()) + micros(usage.system_time())),
        peak_kib: u64::try_from(usage.max_rss()).unwrap_or(0) / MAX_RSS_UNITS_PER_KIB,
    };
    use std::io::{Seek, Write};
    report.set_len(0)?;
    report.rewind()?;
    report.write_all(measured.to_line().as_bytes())
}

/// How a solution that ended by itself ended, as judged: past its limit is
/// a time-out whatever its status. The wait may return a moment after the
/// limit, and the verdict would then hang on which came first; the measured
/// time decides, as the report shows it.
fn ending_of(status: ExitStatus, wall: Duration, time_limit: Duration) -> Ending {
    match (status.code(), status.signal()) {
        _ if wall > time_limit => Ending::TimedOut,
        (Some(code), _) => Ending::Exited(code),
        (None, Some(signal)) => Ending::Signaled(signal),
        (None, None) => Ending::Exited(-1),
    }
}

/// How long the reaper waits between looks for ended orphans. A solution
/// that forks and exits in a loop leaves a few thousand a second at most.
const REAP_EVERY: Duration = Duration::from_millis(5);

/// A thread that reaps, while the solution runs, every process the
/// solution's tree leaves to this one (a reaper) once it ends. Left to the
/// final sweep, a solution forking and exiting in a loop filled the
/// system's process table with zombies, tens of thousands, and each of the
/// sweep's passes over `/proc` then took so long that the sweep could not
/// catch up. The solution itself is left to its own wait, which reads any
/// ending (a signal unknown to `nix` included).
struct Reaper {
    stop: Arc<AtomicBool>,
    thread: thread::JoinHandle<()>,
    /// Gives the thread the solution's id; dropped unsent, the thread ends.
    solution: Option<mpsc::Sender<Pid>>,
}

impl Reaper {
    /// Starts the thread; it begins reaping once told the solution's id by
    /// [`watch`](Self::watch), and ends if never told.
    fn start() -> io::Result<Reaper> {
        let stop = Arc::new(AtomicBool::new(false));
        let (started, solution) = mpsc::channel::<Pid>();
        let stopped = Arc::clone(&stop);
        let thread = thread::Builder::new()
            .name("reaper".into())
            .spawn(move || {
                let Ok(solution) = solution.recv() else {
                    return;
                };
                while !stopped.load(Ordering::Relaxed) {
                    for orphan in children().into_iter().filter(|&pid| pid != solution) {
                        // Running ones answer at once; an ending that
                        // `nix` cannot name is still reaped.
                        let _ = waitpid(orphan, Some(WaitPidFlag::WNOHANG));
                    }
                    thread::sleep(REAP_EVERY);
                }
            })?;
        Ok(Reaper {
            stop,
            thread,
            solution: Some(started),
        })
    }

    /// Starts reaping around the solution, process `id`.
    fn watch(&mut self, id: u32) {
        if let (Some(started), Ok(id)) = (self.solution.take(), i32::try_from(id)) {
            let _ = started.send(Pid::from_raw(id));
        }
    }

    /// Stops the thread and waits for it.
    fn stop(mut self) {
        // A thread never told the solution's id ends with this.
        self.solution = None;
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }
}

/// Becomes `command` with the solution's limits set: the address space
/// limit if one is given, no core files, and death when the supervisor dies.
/// Returns only if the command cannot be started.
pub fn exec_limited(command: &[String], memory_limit: Option<u64>) -> io::Error {
    let Some((program, args)) = command.split_first() else {
        return io::Error::new(io::ErrorKind::InvalidInput, "empty command");
    };
    if let Err(error) = die_with_parent() {
        return error;
    }
    let _ = setrlimit(Resource::RLIMIT_CORE, 0, 0);
    if let Some(bytes) = memory_limit
        && let Err(error) = setrlimit(Resource::RLIMIT_AS, bytes, bytes)
    {
        return error.into();
    }
    Command::new(program).args(args).exec()
}

/// Ends every descendant of this process but those under the children
/// `keep` names, and reaps the children among them.
///
/// The tree is frozen before anything in it is killed: each pass finds the
/// descendants by their parents (`setsid` changes a process's session, not
/// its parent) and stops them all (SIGSTOP), and passes repeat until one
/// finds no process the others had not. Only then is every stopped process
/// killed. A process stopped cannot fork, and a kill frees no place under a
/// process limit while anything in the tree still runs, so a fork bomb gets
/// no refill however slowly this process is scheduled; killing while
/// listing let the children forked in between restart the bomb, round after
/// round, for as long as the machine was loaded. What a kill hands to this
/// process (a reaper) is found in the next round, until none is left.
pub fn end_children(keep: impl Fn(Pid) -> bool) {
    loop {
        // Every process the passes found, and those of them still alive.
        let mut seen: HashSet<Pid> = HashSet::new();
        let mut frozen: HashSet<Pid> = HashSet::new();
        let roots = loop {
            let mut roots: Vec<Pid> = children().into_iter().filter(|&pid| !keep(pid)).collect();
            // The children first, while the list is fresh: the scan of all
            // of `/proc` below takes long enough that a process forking
            // and exiting in a loop was always gone by its end, its orphan
            // in its place, pass after pass.
            for &pid in &roots {
                let _ = kill(pid, Signal::SIGSTOP);
            }
            // Those that ended are reaped now, not at the round's end: such
            // a loop leaves one each time, and left for the round they piled
            // up faster than the passes could list them. Only the unreaped
            // are signalled later, so no id is reused under the sweep.
            let mut reaped = Vec::new();
            roots.retain(|&pid| {
                let alive = matches!(
                    waitpid(pid, Some(WaitPidFlag::WNOHANG)),
                    Ok(WaitStatus::StillAlive)
                );
                if !alive {
                    reaped.push(pid);
                }
                alive
            });
            let doomed = descendants_of(&roots);
            for &pid in &doomed {
                // Again for those stopped already: a sibling may have
                // continued them.
                let _ = kill(pid, Signal::SIGSTOP);
            }
            for pid in &reaped {
                frozen.remove(pid);
            }
            let known = seen.len();
            seen.extend(reaped);
            seen.extend(doomed.iter().copied());
            frozen.extend(doomed);
            if seen.len() == known {
                break roots;
            }
        };
        if frozen.is_empty() {
            return;
        }
        for &pid in &frozen {
            let _ = kill(pid, Signal::SIGKILL);
        }
        for &child in &roots {
            // Reaped elsewhere already, or not ours: either way it is gone.
            let _ = waitpid(child, None);
        }
    }
}

/// `roots` and every process below them, by the parents `/proc` names.
fn descendants_of(roots: &[Pid]) -> Vec<Pid> {
    let mut found: Vec<Pid> = roots.to_vec();
    let parents = parent_map();
    let mut next = 0;
    while next < found.len() {
        let parent = found[next].as_raw();
        found.extend(
            parents
                .iter()
                .filter(|&&(_, of)| of == parent)
                .map(|&(pid, _)| Pid::from_raw(pid)),
        );
        next += 1;
    }
    found
}

/// Every process with its parent, from `/proc/*/stat`.
fn parent_map() -> Vec<(i32, i32)> {
    let Ok(processes) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    processes
        .flatten()
        .filter_map(|process| {
            let pid: i32 = process.file_name().to_str()?.parse().ok()?;
            let stat = fs::read_to_string(process.path().join("stat")).ok()?;
            // `pid (name) state ppid ...`: the name may hold spaces and parentheses.
            let end = stat.rfind(')')?;
            let parent = stat[end + 1..].split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, parent))
        })
        .collect()
}

/// This process's children, from `/proc/self/task/*/children` (each
/// thread's), or from every process's parent where the kernel lacks that file.
fn children() -> Vec<Pid> {
    let mut found = Vec::new();
    let mut listed = false;
    if let Ok(tasks) = fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            if let Ok(text) = fs::read_to_string(task.path().join("children")) {
                listed = true;
                found.extend(
                    text.split_whitespace()
                        .filter_map(|pid| pid.parse().ok())
                        .map(Pid::from_raw),
                );
            }
        }
    }
    if listed {
        return found;
    }
    let me = nix::unistd::getpid().as_raw();
    parent_map()
        .into_iter()
        .filter(|&(_, parent)| parent == me)
        .map(|(pid, _)| Pid::from_raw(pid))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ending_past_the_limit_is_a_time_out_whatever_the_status() {
        let limit = Duration::from_millis(460);
        let exited = |code: i32| ExitStatus::from_raw(code << 8);
        let just_past = Duration::from_micros(460_099);
        assert_eq!(ending_of(exited(0), limit, limit), Ending::Exited(0));
        assert_eq!(ending_of(exited(0), just_past, limit), Ending::TimedOut);
        assert_eq!(ending_of(exited(3), just_past, limit), Ending::TimedOut);
        assert_eq!(
            ending_of(ExitStatus::from_raw(9), limit / 2, limit),
            Ending::Signaled(9)
        );
        assert_eq!(ending_of(exited(3), limit / 2, limit), Ending::Exited(3));
    }
}
