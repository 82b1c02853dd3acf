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
