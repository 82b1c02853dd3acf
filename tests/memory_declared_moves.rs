//! Peak memory of a case that declares far more moves than it holds (a
//! truncated or lying test file), measured with getrusage on the solver's
//! own child processes. This file holds one test so that no other child can
//! raise the high-water mark it reads.

// Unix only: peak memory comes from getrusage.
#![cfg(unix)]

mod common;

use std::fmt::Write as _;

#[test]
fn a_case_declaring_a_million_moves_and_holding_forty_thousand_takes_memory_for_those_it_holds() {
    // The cells' table once made for the declared moves before any was
    // read: 16 MiB here, each of the moves present touching a random page
    // of it. Grown as moves come, it holds what they need.
    let mut input = String::from("1\n1000000000\n1048576\n");
    for i in 0..40_000u64 {
        let _ = writeln!(input, "{} {} {}", i * 7919 % 1_000_000_000, i, 1 + i % 2);
    }
    for threads in [&["--threads", "1"][..], &[]] {
        // Through a pipe, the way a judge feeds it.
        let output = common::tictactoe()
            .arg("solve")
            .args(threads)
            .write_stdin(input.as_bytes())
            .output()
            .expect("binary runs");
        assert_eq!(output.status.code(), Some(65), "{threads:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("case 1, move 40001: input ends early"),
            "{stderr}"
        );
        assert!(output.stdout.is_empty(), "{threads:?}: no case completed");
    }
    // The table made for the declared moves took 16 MiB more than this;
    // the rest (the threads' buffers, the binary) is about 9.5 MiB, and
    // 10 MiB once left too little room (10,292 KiB in a checked build).
    let peak = common::children_peak_kib();
    assert!(peak < 12 * 1024, "peak RSS {peak} KiB");
}
