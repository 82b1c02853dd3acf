//! Under a memory limit too small for the input, a run fails cleanly: exit
//! status 71 (EX_OSERR) and a message naming the move it could not hold,
//! never an abort. The limit is an address-space cap, as `prlimit --as`
//! and judges' sandboxes set it.
//!
//! Unix only: the caps are `prlimit`'s.
#![cfg(unix)]

mod common;

use std::io::{BufWriter, Write};
use std::process::{Command, Output, Stdio};
use std::thread;

/// Moves on a board of 10^9: every played cell must be remembered, in a
/// table of 8 bytes a cell at most 3/4 full (16 MiB for these), which
/// outgrows the cap below long before the last move.
const MOVES: u64 = 2_000_000;
const N: u64 = 1_000_000_000;

/// The address space each run may use.
const CAP: usize = 24 * 1024 * 1024;

fn coding_ninjas(out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "1\n{N}\n{MOVES}")?;
    for k in 0..MOVES {
        writeln!(out, "{k} {} {}", (k * 7919) % N, 1 + k % 2)?;
    }
    Ok(())
}

fn leetcode(out: &mut impl Write) -> std::io::Result<()> {
    out.write_all(b"[\"TicTacToe\"")?;
    for _ in 0..MOVES {
        out.write_all(b",\"move\"")?;
    }
    write!(out, "]\n[[{N}]")?;
    for k in 0..MOVES {
        write!(out, ",[{k},{},{}]", (k * 7919) % N, 1 + k % 2)?;
    }
    out.write_all(b"]\n")
}

/// Writes an input into the run's standard input.
type Input = fn(&mut BufWriter<std::process::ChildStdin>) -> std::io::Result<()>;

fn run_capped(args: &[&str], input: Input) -> Output {
    let mut child = Command::new("prlimit")
        .arg(format!("--as={CAP}"))
        .arg(common::binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("prlimit runs");
    let stdin = child.stdin.take().expect("stdin is piped");
    let writer = thread::spawn(move || {
        let mut out = BufWriter::new(stdin);
        // The run stops reading at its error: a closed pipe is expected.
        let _ = input(&mut out).and_then(|()| out.flush());
    });
    let output = child.wait_with_output().expect("binary finishes");
    writer.join().expect("writer thread");
    output
}

#[test]
fn a_board_too_large_for_the_memory_given_fails_with_status_71() {
    let bounds = ["--max-n", "1000000000", "--max-q", "2000000"];
    let runs: [(Vec<&str>, Input); 4] = [
        (vec![], coding_ninjas),
        (vec!["--threads", "1"], coding_ninjas),
        (vec![], leetcode),
        ([&["validate"][..], &bounds].concat(), leetcode),
    ];
    for (args, input) in runs {
        let output = run_capped(&args, input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(71), "{args:?}: {stderr}");
        assert!(
            stderr.contains("out of memory: no room to hold the board's")
                && stderr.contains("case 1, move "),
            "{args:?}: {stderr}"
        );
    }
}

/// `check` solves the input to know the answer: memory that runs out there
/// is the limit's fault, 71 as for `solve`, not a judge failure of the
/// input's (which a script reads as "the test data is broken"); testlib's
/// checkers have one status for both, FAIL.
#[test]
fn a_check_whose_input_needs_more_memory_than_given_fails_with_status_71() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("huge.in");
    let answer = dir.path().join("huge.ans");
    let feedback = dir.path().join("feedback");
    std::fs::create_dir(&feedback).expect("feedback folder");
    coding_ninjas(&mut BufWriter::new(
        std::fs::File::create(&input).expect("input"),
    ))
    .expect("input written");
    std::fs::write(&answer, "0\n").expect("answer written");
    let (input, answer, feedback) = (
        input.to_str().expect("a UTF-8 path"),
        answer.to_str().expect("a UTF-8 path"),
        feedback.to_str().expect("a UTF-8 path"),
    );
    let runs: [(&[&str], i32); 4] = [
        (&["check", "--input", input, answer, answer], 71),
        (&["check", "--protocol", "oj", input, answer, answer], 71),
        (
            &["check", "--protocol", "kattis", input, answer, feedback],
            71,
        ),
        (
            &["check", "--protocol", "testlib", input, answer, answer],
            3,
        ),
    ];
    for (args, status) in runs {
        let output = Command::new("prlimit")
            .arg(format!("--as={CAP}"))
            .arg(common::binary())
            .args(args)
            .stdin(std::fs::File::open(answer).expect("answer"))
            .output()
            .expect("prlimit runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(status), "{args:?}: {stderr}");
        assert!(
            stderr.contains("out of memory: no room to hold the board's"),
            "{args:?}: {stderr}"
        );
    }
}

/// Just above the least memory the binary can start in, every command gives
/// its usual result or 71, never an abort: the engine's board, the reader's
/// buffer and the writer's each once aborted (134, "memory allocation of
/// 73728 bytes failed") at caps of 10.5 to 13.5 MiB. The floor, where the
/// loader itself fails, is the host's; the caps start half a MiB above it.
#[test]
fn caps_just_above_the_least_the_binary_starts_in_give_the_answer_or_71() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("mid.in");
    let generated = Command::new(common::binary())
        .args([
            "gen", "--seed", "3", "-t", "100", "--max-n", "200", "--limits", "relaxed",
        ])
        .output()
        .expect("gen runs");
    assert!(generated.status.success());
    std::fs::write(&input, &generated.stdout).expect("input written");
    let answer = Command::new(common::binary())
        .arg(&input)
        .output()
        .expect("solve runs")
        .stdout;
    let answer_path = dir.path().join("mid.ans");
    std::fs::write(&answer_path, &answer).expect("answer written");
    let capped = |kib: u64, args: &[&std::ffi::OsStr]| {
        Command::new("prlimit")
            .arg(format!("--as={}", kib * 1024))
            .arg(common::binary())
            .args(args)
            .stdin(std::fs::File::open(&answer_path).expect("answer"))
            .output()
            .expect("prlimit runs")
    };
    let floor = (4096..65536)
        .step_by(128)
        .find(|&kib| capped(kib, &["--version".as_ref()]).status.success())
        .expect("the binary starts under 64 MiB");
    let input = input.as_os_str();
    let commands: [(&[&std::ffi::OsStr], Option<&[u8]>); 4] = [
        (&[input], Some(&answer)),
        (&["--threads".as_ref(), "1".as_ref(), input], Some(&answer)),
        (
            &[
                "check".as_ref(),
                "--input".as_ref(),
                input,
                answer_path.as_os_str(),
            ],
            None,
        ),
        (
            &[
                "validate".as_ref(),
                "--max-n".as_ref(),
                "200".as_ref(),
                "--max-t".as_ref(),
                "100".as_ref(),
                "--max-q".as_ref(),
                "40000".as_ref(),
                input,
            ],
            None,
        ),
    ];
    let roomy = floor + 8192;
    for kib in (floor + 512..floor + 4096).step_by(128).chain([roomy]) {
        for (args, expected) in &commands {
            let output = capped(kib, args);
            let stderr = String::from_utf8_lossy(&output.stderr);
            let status = output.status.code();
            // With room, the usual result: the caps below are not all 71.
            let allowed: &[Option<i32>] = if kib == roomy {
                &[Some(0)]
            } else {
                &[Some(0), Some(71)]
            };
            assert!(
                allowed.contains(&status),
                "{kib} KiB (floor {floor}), {args:?}: {status:?} {stderr}"
            );
            if let (Some(0), Some(expected)) = (status, expected) {
                assert_eq!(&output.stdout, expected, "{kib} KiB, {args:?}");
            }
        }
    }
}
