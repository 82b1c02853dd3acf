//! Peak memory of the solver, measured with getrusage on its own child
//! processes. This file holds one test so that no other child can raise the
//! high-water mark it reads.

// Unix only: peak memory comes from getrusage.
#![cfg(unix)]

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn solve_streamed(cases: usize, case: &str, header: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut block = String::new();
    for _ in 0..1000 {
        block.push_str(case);
    }
    stdin.write_all(header.as_bytes()).expect("solver reads");
    for _ in 0..cases / 1000 {
        stdin.write_all(block.as_bytes()).expect("solver reads");
    }
    drop(stdin);
    assert!(child.wait().expect("binary finishes").success());
}

#[test]
fn memory_does_not_grow_with_the_input_or_the_board_size() {
    let case = "100\n5\n0 0 1\n1 1 2\n2 2 1\n3 3 2\n99 99 1\n";
    // About 4 MB, then about 40 MB of the same cases: both long enough to
    // be split and solved on every core, so the same buffers are in use.
    solve_streamed(100_000, case, "100000\n");
    let small = common::children_peak_kib();
    solve_streamed(1_000_000, case, "1000000\n");
    let large = common::children_peak_kib();
    assert!(large < 16 * 1024, "peak RSS {large} KiB");
    assert!(
        large - small <= 1024,
        "peak RSS grew from {small} to {large} KiB"
    );

    // N = 10^9 with a handful of moves costs no more. (The figure read is
    // the peak over every run so far, so it cannot fall below `large`.)
    let huge = "1000000000\n4\n999999999 999999999 1\n0 0 2\n0 999999999 1\n999999999 0 2\n";
    solve_streamed(10_000, huge, "10000\n");
    let peak = common::children_peak_kib();
    assert!(peak - large <= 1024, "peak RSS {peak} KiB with N = 10^9");
}
