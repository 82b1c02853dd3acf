//! The tool where judges run it: inside sandboxes that allow one process
//! and little memory, and handed pipes and FIFOs for files.
//!
//! One process: `prlimit --nproc=1` as isolate and DOMjudge's runguard set
//! it, run as `nobody` (the kernel does not hold root to the limit). Every
//! command must give exactly what it gives without the limit, on a small
//! input and on a 40 MB one that is split into parts. Little memory: under
//! a 16 MiB address-space cap the answer is right or the error is clean
//! (exit 71), never an abort. FIFOs: each file a check reads gives the
//! verdict the regular file gives, read once.

// Unix only: the sandboxes are Linux rlimits under setpriv.
#![cfg(unix)]

mod common;

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread;

/// A folder every user may read, holding a copy of the binary and the
/// inputs: `small.in` (the bundled example) and `large.in` (40 MB), with
/// their answers and a wrong output for each.
struct Place {
    _dir: tempfile::TempDir,
    root: PathBuf,
    binary: PathBuf,
}

/// The shared [`Place`], made again when no test holds it: a static one
/// would never be dropped, and would leave its 64 MB in the temp folder
/// after every run.
fn place() -> Arc<Place> {
    static PLACE: Mutex<Weak<Place>> = Mutex::new(Weak::new());
    let mut shared = PLACE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(place) = shared.upgrade() {
        return place;
    }
    let place = Arc::new(placed());
    *shared = Arc::downgrade(&place);
    place
}

/// Makes a [`Place`].
fn placed() -> Place {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().to_path_buf();
    let open = |path: &Path, mode| {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod")
    };
    open(&root, 0o755);
    let binary = root.join("tictactoe");
    fs::copy(common::binary(), &binary).expect("binary copied");
    open(&binary, 0o755);
    fs::copy("fixtures/check/example.input", root.join("small.in")).expect("example");
    let generated = Command::new(&binary)
        .args(["gen", "--seed", "7", "--cases", "2300", "--min-n", "3"])
        .args(["--max-n", "100", "--limits", "relaxed"])
        .output()
        .expect("gen runs");
    assert!(generated.status.success());
    fs::write(root.join("large.in"), &generated.stdout).expect("large input");
    for size in ["small", "large"] {
        let input = root.join(format!("{size}.in"));
        let answer = Command::new(&binary).arg(&input).output().expect("solve");
        assert!(answer.status.success());
        fs::write(root.join(format!("{size}.ans")), &answer.stdout).expect("answer");
        // The first result of the first case turned from 0 to 1.
        let text = String::from_utf8(answer.stdout).expect("ASCII");
        let wrong = text.replacen('0', "1", 1);
        fs::write(root.join(format!("{size}.wrong")), wrong).expect("wrong output");
        for name in ["in", "ans", "wrong"] {
            open(&root.join(format!("{size}.{name}")), 0o644);
        }
    }
    Place {
        _dir: dir,
        root,
        binary,
    }
}

/// How a run is confined.
#[derive(Clone, Copy, Debug)]
enum Limit {
    None,
    /// One process, as `nobody` when the tests run as root.
    OneProcess,
    /// An address space of this many MiB.
    Memory(u64),
}

/// The address space of a small sandbox.
const SIXTEEN_MIB: Limit = Limit::Memory(16);

/// Runs the placed binary with `args` (`@NAME` names a placed file) under
/// `limit`, in the placed folder, with `stdin` as standard input.
fn run(place: &Place, limit: Limit, args: &[&str], stdin: Option<&str>) -> Output {
    let mut command = match limit {
        Limit::None => Command::new(&place.binary),
        Limit::OneProcess => {
            // SAFETY: geteuid has no preconditions.
            let root = nix::unistd::geteuid().is_root();
            let mut command = Command::new(if root { "setpriv" } else { "prlimit" });
            if root {
                command.args([
                    "--reuid=nobody",
                    "--regid=nogroup",
                    "--clear-groups",
                    "prlimit",
                ]);
            }
            command.arg("--nproc=1").arg(&place.binary);
            command
        }
        Limit::Memory(mib) => {
            let mut command = Command::new("prlimit");
            command
                .arg(format!("--as={}", mib << 20))
                .arg(&place.binary);
            command
        }
    };
    // Kattis's feedback folder: a new one each run, writable by `nobody`.
    let feedback = tempfile::tempdir_in(&place.root).expect("feedback dir");
    fs::set_permissions(feedback.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
    for arg in args {
        match arg.strip_prefix('@') {
            Some(name) => command.arg(place.root.join(name)),
            None if *arg == FEEDBACK => command.arg(feedback.path()),
            None => command.arg(arg),
        };
    }
    command.current_dir(&place.root);
    command.stdin(match stdin {
        Some(name) => Stdio::from(fs::File::open(place.root.join(name)).expect("stdin file")),
        None => Stdio::null(),
    });
    command.output().expect("runs")
}

/// Stands for Kattis's feedback folder in arguments.
const FEEDBACK: &str = "FEEDBACK";

/// Each command a judge runs, on `size`: its arguments and standard input.
fn judge_commands(size: &str) -> Vec<(Vec<String>, Option<String>)> {
    let at = |name: &str| format!("@{size}.{name}");
    let mut commands = vec![(vec![at("in")], None)];
    for protocol in ["plain", "testlib", "kattis"] {
        let validate = ["validate", "--protocol", protocol, "--max-t", "100000"];
        let mut args: Vec<String> = validate.iter().map(|&arg| arg.to_owned()).collect();
        args.push(at("in"));
        commands.push((args, None));
    }
    for output in ["ans", "wrong"] {
        let check = |protocol: &str, files: Vec<String>| {
            let mut args = vec!["check".to_owned(), "--protocol".into(), protocol.into()];
            args.extend(files);
            args
        };
        commands.push((
            check(
                "plain",
                vec!["--input".into(), at("in"), at("ans"), at(output)],
            ),
            None,
        ));
        commands.push((
            check("testlib", vec![at("in"), at(output), at("ans")]),
            None,
        ));
        commands.push((check("oj", vec![at("in"), at(output), at("ans")]), None));
        commands.push((
            check("kattis", vec![at("in"), at("ans"), FEEDBACK.into()]),
            Some(format!("{size}.{output}")),
        ));
    }
    commands
}

fn as_strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn one_process_gives_every_command_its_usual_result() {
    let place = place();
    for size in ["small", "large"] {
        for (args, stdin) in judge_commands(size) {
            let args = as_strs(&args);
            let free = run(&place, Limit::None, &args, stdin.as_deref());
            let confined = run(&place, Limit::OneProcess, &args, stdin.as_deref());
            let stderr = String::from_utf8_lossy(&confined.stderr);
            assert_eq!(
                confined.status.code(),
                free.status.code(),
                "{args:?}: {stderr}"
            );
            assert_eq!(confined.stdout, free.stdout, "{args:?}");
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn sixteen_mib_of_memory_gives_the_answer_or_exit_71() {
    let place = place();
    for size in ["small", "large"] {
        for (args, stdin) in judge_commands(size) {
            let args = as_strs(&args);
            let free = run(&place, Limit::None, &args, stdin.as_deref());
            let confined = run(&place, SIXTEEN_MIB, &args, stdin.as_deref());
            let stderr = String::from_utf8_lossy(&confined.stderr);
            if confined.status.code() == Some(71) {
                assert!(stderr.contains("out of memory"), "{args:?}: {stderr}");
                continue;
            }
            assert_eq!(
                confined.status.code(),
                free.status.code(),
                "{args:?}: {stderr}"
            );
            assert_eq!(confined.stdout, free.stdout, "{args:?}");
        }
    }
}

#[test]
fn caps_that_hold_the_threads_arenas_and_little_else_give_the_usual_result() {
    let place = place();
    // glibc reserves 64 MiB of address space for each thread's arena
    // (128 while it makes it). Just above what two, three or four
    // workers' arenas take, runs aborted where an allocation that cannot
    // fail failed, or stopped with "out of memory" on an input one thread
    // solves in a few MiB; more rarely just above 64 MiB a thread plus
    // 64 MiB (334, 398 and 594 MiB, about 1 run in 25).
    let tries = [
        (None, [138, 140, 142, 334]),
        (Some("3"), [202, 204, 206, 398]),
        (Some("4"), [266, 268, 270, 334]),
        (Some("16"), [138, 398, 594, 598]),
    ];
    for (args, stdin) in judge_commands("large") {
        let free = run(&place, Limit::None, &as_strs(&args), stdin.as_deref());
        for (threads, caps) in tries {
            let mut args = args.clone();
            if let Some(threads) = threads {
                // After the subcommand's name, before the files.
                let at = usize::from(!args[0].starts_with('@'));
                args.splice(at..at, ["--threads".to_owned(), threads.to_owned()]);
            }
            let args = as_strs(&args);
            for cap in caps {
                let confined = run(&place, Limit::Memory(cap), &args, stdin.as_deref());
                let stderr = String::from_utf8_lossy(&confined.stderr);
                let context = format!("{args:?} under {cap} MiB: {stderr}");
                assert_eq!(confined.status.code(), free.status.code(), "{context}");
                assert!(confined.stdout == free.stdout, "{context}");
            }
        }
    }
}

#[test]
fn threads_asked_for_under_sixteen_mib_give_the_answer_not_an_abort() {
    // 3 MB of short games in both formats: parts to cut, and before, with
    // `--threads 2` or 3, an abort where a buffer on a worker doubled.
    let place = place();
    let dir = tempfile::tempdir_in(&place.root).expect("temp dir");
    let short = dir.path().join("short.in");
    let generated = Command::new(&place.binary)
        .args([
            "gen", "--seed", "9", "--limits", "relaxed", "--cases", "50000",
        ])
        .args(["--min-n", "3", "--max-n", "4"])
        .output()
        .expect("gen runs");
    assert!(generated.status.success());
    fs::write(&short, &generated.stdout).expect("short games");
    let transcript = dir.path().join("short.leetcode");
    let converted = Command::new(&place.binary)
        .args(["convert", "--to", "leetcode"])
        .arg(&short)
        .output()
        .expect("convert runs");
    assert!(converted.status.success());
    fs::write(&transcript, &converted.stdout).expect("transcript");
    for input in [&short, &transcript] {
        let input = input.to_str().expect("a UTF-8 path");
        let free = run(&place, Limit::None, &["--threads", "1", input], None);
        assert_eq!(free.status.code(), Some(0));
        for threads in ["2", "3", "8"] {
            let args = ["--threads", threads, input];
            let confined = run(&place, SIXTEEN_MIB, &args, None);
            let stderr = String::from_utf8_lossy(&confined.stderr);
            assert_eq!(confined.status.code(), Some(0), "{args:?}: {stderr}");
            assert!(confined.stdout == free.stdout, "{args:?}");
        }
    }
}

/// Makes a FIFO in `dir` and feeds it `content` from a thread.
fn fifo(dir: &Path, name: &str, content: Vec<u8>) -> (PathBuf, thread::JoinHandle<()>) {
    let path = dir.join(name);
    let made = Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let writer_path = path.clone();
    let writer = thread::spawn(move || {
        let mut fifo = fs::OpenOptions::new()
            .write(true)
            .open(writer_path)
            .expect("FIFO opens");
        // A check that stops reading early closes its end: that is fine.
        let _ = fifo.write_all(&content);
    });
    (path, writer)
}

#[test]
fn files_given_as_fifos_get_the_verdicts_regular_files_get() {
    let place = place();
    for output in ["ans", "wrong"] {
        // Protocol, then the files in its order: I input, A answer, O output
        // (Kattis takes the output on standard input).
        let protocols: [(&str, &[char]); 4] = [
            ("plain", &['A', 'O']),
            ("testlib", &['I', 'O', 'A']),
            ("oj", &['I', 'O', 'A']),
            ("kattis", &['I', 'A']),
        ];
        for (protocol, order) in protocols {
            let file = |role: char| match role {
                'I' => "small.in".to_owned(),
                'A' => "small.ans".to_owned(),
                _ => format!("small.{output}"),
            };
            let mut regular: Vec<String> =
                vec!["check".into(), "--protocol".into(), protocol.into()];
            if protocol == "plain" {
                regular.extend(["--input".to_owned(), "@small.in".into()]);
            }
            let mut piped = regular.clone();
            let dir = tempfile::tempdir().expect("temp dir");
            let mut writers = Vec::new();
            if protocol == "plain" {
                // The input, too, as a FIFO.
                let content = fs::read(place.root.join("small.in")).expect("input");
                let (path, writer) = fifo(dir.path(), "input", content);
                piped[4] = path.display().to_string();
                writers.push(writer);
            }
            for &role in order {
                regular.push(format!("@{}", file(role)));
                let content = fs::read(place.root.join(file(role))).expect("placed file");
                let (path, writer) = fifo(dir.path(), &format!("{role}"), content);
                piped.push(path.display().to_string());
                writers.push(writer);
            }
            if protocol == "kattis" {
                regular.push(FEEDBACK.into());
                piped.push(FEEDBACK.into());
            }
            let stdin = (protocol == "kattis").then(|| format!("small.{output}"));
            let expected = run(&place, Limit::None, &as_strs(&regular), stdin.as_deref());
            let found = run(&place, Limit::None, &as_strs(&piped), stdin.as_deref());
            for writer in writers {
                writer.join().expect("FIFO writer");
            }
            assert_eq!(
                found.status.code(),
                expected.status.code(),
                "{protocol} {output}"
            );
            assert_eq!(
                String::from_utf8_lossy(&found.stdout),
                String::from_utf8_lossy(&expected.stdout).replace(
                    &place.root.join("small.in").display().to_string(),
                    &dir.path().join("input").display().to_string()
                ),
                "{protocol} {output}"
            );
        }
    }
}
