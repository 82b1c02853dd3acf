//! Peak memory of short cases padded with runs of space to about a MB each, on
//! eight threads as on a machine of eight cores: the parts in flight hold
//! at most a few MiB whatever the threads. Measured with getrusage on the
//! solver's own child processes; this file holds one test so that no other
//! child can raise the high-water mark it reads.

// Unix only: peak memory comes from getrusage.
#![cfg(unix)]

mod common;

use std::io::Write as _;
use std::process::Command;

#[test]
fn cases_padded_to_a_megabyte_take_less_than_16_mib_on_eight_threads() {
    // Two parts a worker, on eight workers, held 33 MiB of these. Written
    // to a file a case at a time: the test's own memory is counted in a
    // child's peak when it starts.
    let cases = 30;
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    let padding = vec![b' '; 1_000_000];
    writeln!(file, "{cases}").expect("write");
    for _ in 0..cases {
        file.write_all(b"1000\n1\n0 0 1\n").expect("write");
        file.write_all(&padding).expect("write");
    }
    drop(padding);
    let output = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["solve", "--threads", "8"])
        .arg(file.path())
        .output()
        .expect("binary runs");
    assert!(output.status.success(), "{:?}", output.status);
    assert_eq!(output.stdout, b"0\n".repeat(cases));
    let peak = common::children_peak_kib();
    assert!(peak < 16 * 1024, "peak RSS {peak} KiB");
}
