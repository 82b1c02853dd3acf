//! Peak memory of long games on boards between the flat arrays' and the
//! hash tables' sizes (1025 to 8192), measured with getrusage on the
//! solver's own child processes. This file holds one test so that no other
//! child can raise the high-water mark it reads.

// Unix only: peak memory comes from getrusage.
#![cfg(unix)]

mod common;

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// Cases of `moves` distinct random cells each on an `n` x `n` board, the
/// players taking turns: too few marks to fill a line, so every answer is 0.
fn random_games(cases: usize, n: u64, moves: usize) -> String {
    let mut input = format!("{cases}\n");
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..cases {
        let _ = write!(input, "{n}\n{moves}\n");
        let mut taken = std::collections::HashSet::new();
        while taken.len() < moves {
            // A 64-bit LCG (Knuth's MMIX constants): deterministic.
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let cell = (state >> 20) % (n * n);
            if taken.insert(cell) {
                let player = 1 + taken.len() % 2;
                let _ = writeln!(input, "{} {} {player}", cell / n, cell % n);
            }
        }
    }
    input
}

#[test]
fn long_games_on_a_board_of_eight_thousand_take_less_than_16_mib() {
    // 200,000 moves a case: in the bitmaps of N = 8000, cleared row by row
    // at each reset, these took 21 MiB; the sparse store holds them in a
    // few.
    let cases = 3;
    let input = random_games(cases, 8000, 200_000);
    // Eight threads as on a machine of eight cores: the slices of these
    // long games in flight are as many whatever the threads.
    for threads in [&["--threads", "1"][..], &[], &["--threads", "8"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .arg("solve")
            .args(threads)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("binary runs");
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let input = input.as_bytes();
        let writer = std::thread::scope(|scope| {
            let writing = scope.spawn(move || stdin.write_all(input));
            let output = child.wait_with_output().expect("binary finishes");
            (writing.join(), output)
        });
        let (written, output) = writer;
        written.expect("writer thread").expect("solver reads");
        assert!(output.status.success(), "{threads:?}: {:?}", output.status);
        let stdout = String::from_utf8(output.stdout).expect("ASCII output");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), cases, "{threads:?}");
        for line in lines {
            assert!(line.split(' ').all(|answer| answer == "0"));
            assert_eq!(line.split(' ').count(), 200_000);
        }
    }
    let peak = common::children_peak_kib();
    assert!(peak < 16 * 1024, "peak RSS {peak} KiB");
}
