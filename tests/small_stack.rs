//! A solve fits a small main-thread stack, in the newer build and the
//! baseline one alike: the loop's frame (a short-case run's 16 KB of
//! tokens in it) is on the stack once, not once per build.
//!
//! A stack limit is set as `prlimit --stack` (and `ulimit -s`) sets it; the
//! environment is cleared, since it lies on the same stack.
//!
//! Unix only: the stack limit is `prlimit`'s.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::Command;

/// The main thread's stack a solve may use. Solving took 56 to 60 KiB here
/// when this was written, and 72 KiB when the baseline build's frame sat
/// under the newer build's (`simd::run_baseline` keeps them apart).
const STACK_KIB: u64 = 66;

/// Inputs that take the short cases' runs and the long games' stream, with
/// the answers they must get.
const INPUTS: [&str; 2] = [
    "short-cases-of-every-shape-between-others",
    "long-games-padded-spaced-and-nine-digit-between-short-ones",
];

#[test]
fn a_solve_fits_a_small_stack_in_either_build() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/solve");
    for name in INPUTS {
        let input = fixtures.join(format!("{name}.in"));
        let expected =
            std::fs::read(fixtures.join(format!("{name}.out"))).expect("the fixture's answers");
        for cpu in [None, Some("baseline")] {
            let mut command = Command::new("prlimit");
            command
                .arg(format!("--stack={}", STACK_KIB * 1024))
                .arg(common::binary())
                .args(["solve", "--threads", "1"])
                .arg(&input)
                .env_clear();
            if let Some(cpu) = cpu {
                command.env("TICTACTOE_CPU", cpu);
            }
            let output = command.output().expect("prlimit runs");
            assert!(
                output.status.success(),
                "{name}, cpu {cpu:?}: {}",
                common::describe(&output)
            );
            assert!(
                output.stdout == expected,
                "{name}, cpu {cpu:?}: other answers"
            );
        }
    }
}
