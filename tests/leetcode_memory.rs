//! Peak memory on a LeetCode transcript of ten million moves: the readers
//! stream it, so memory stays within a small constant however long the
//! transcript. Measured with getrusage on the test's own children; this
//! file holds one test so that no other child can raise the high-water
//! mark it reads.

// Unix only: peak memory comes from getrusage.
#![cfg(unix)]

mod common;

use std::io::{BufWriter, Write};
use std::process::{Command, Stdio};
use std::thread;

/// Moves in the transcript.
const MOVES: u64 = 10_000_000;

/// The board: large enough that filling rows in order, players taking
/// turns, completes no line in ten million moves.
const N: u64 = 4096;

/// Writes the transcript: one test case, `MOVES` moves.
fn write_transcript(out: impl Write) -> std::io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 20, out);
    out.write_all(b"[\"TicTacToe\"")?;
    for _ in 0..MOVES {
        out.write_all(b",\"move\"")?;
    }
    write!(out, "]\n[[{N}]")?;
    for k in 0..MOVES {
        write!(out, ",[{},{},{}]", k / N, k % N, 1 + k % 2)?;
    }
    out.write_all(b"]\n")?;
    out.flush()
}

/// Runs the binary with `args` on the transcript through a pipe; its
/// standard output is counted, not kept.
fn run_on_transcript(args: &[&str]) -> (bool, u64) {
    let mut child = Command::new(common::binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let stdin = child.stdin.take().expect("stdin is piped");
    let writer = thread::spawn(move || write_transcript(stdin));
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let counted = std::io::copy(&mut stdout, &mut std::io::sink()).expect("output read");
    let status = child.wait().expect("binary finishes");
    writer
        .join()
        .expect("writer thread")
        .expect("transcript written");
    (status.success(), counted)
}

#[test]
fn ten_million_moves_in_one_transcript_take_less_than_16_mib() {
    // `[null` and `]\n`, and `,0` for each move.
    let (solved, output_bytes) = run_on_transcript(&[]);
    assert!(solved);
    assert_eq!(output_bytes, 5 + 2 * MOVES + 2);
    let (converted, _) = run_on_transcript(&["convert", "--to", "coding-ninjas"]);
    assert!(converted);
    // Valid under bounds that allow it (the statement's allow N up to 100).
    let (valid, _) = run_on_transcript(&["validate", "--max-n", "4096", "--max-q", "10000000"]);
    assert!(valid);
    let peak = common::children_peak_kib();
    assert!(peak < 16 * 1024, "peak RSS {peak} KiB");
}
