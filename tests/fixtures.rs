//! Runs every fixture under `fixtures/` through the binary.
//!
//! A fixture is a set of sibling files sharing a name: `NAME.in` goes to
//! standard input; `NAME.args` holds the arguments, one per line; `NAME.out`
//! is the exact expected standard output; `NAME.code` the exit status (0 when
//! absent); `NAME.err`, when present, the exact expected standard error.
//! Arguments may name files relative to the repository root. A fixture
//! whose arguments name a Unix device (`/dev/stdin`, to pass its input as a
//! judge's output file) runs on Unix only.

mod common;

use assert_cmd::Command;
use std::fs;
use std::path::Path;

fn sibling(input: &Path, ext: &str) -> Option<Vec<u8>> {
    fs::read(input.with_extension(ext)).ok()
}

#[test]
fn every_fixture_gives_its_expected_output_status_and_message() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inputs = common::fixture_inputs(&root.join("fixtures"));
    assert!(
        inputs.len() >= 30,
        "fixtures went missing: {}",
        inputs.len()
    );

    let mut failures = Vec::new();
    for input in &inputs {
        let args: Vec<String> = sibling(input, "args")
            .map(|bytes| {
                String::from_utf8(bytes)
                    .expect("args are UTF-8")
                    .lines()
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if cfg!(not(unix)) && args.iter().any(|arg| arg.starts_with("/dev/")) {
            continue;
        }
        let expected_out = sibling(input, "out").unwrap_or_default();
        let expected_code: i32 = sibling(input, "code")
            .map(|bytes| {
                String::from_utf8(bytes)
                    .expect("code is UTF-8")
                    .trim()
                    .parse()
                    .expect("code is a number")
            })
            .unwrap_or(0);
        let output = Command::cargo_bin("tictactoe")
            .expect("binary is built")
            .current_dir(root)
            .args(&args)
            .pipe_stdin(input)
            .expect("input is readable")
            .output()
            .expect("binary runs");
        let name = input.strip_prefix(root).unwrap_or(input).display();
        if output.status.code() != Some(expected_code) {
            failures.push(format!(
                "{name}: exit {:?}, expected {expected_code}; stderr: {}",
                output.status.code(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        if output.stdout != expected_out {
            failures.push(format!(
                "{name}: stdout {:?}, expected {:?}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&expected_out)
            ));
        }
        match sibling(input, "err") {
            Some(expected_err) if output.stderr != expected_err => failures.push(format!(
                "{name}: stderr {:?}, expected {:?}",
                String::from_utf8_lossy(&output.stderr),
                String::from_utf8_lossy(&expected_err)
            )),
            None if !output.stderr.is_empty() && expected_code == 0 => failures.push(format!(
                "{name}: unexpected stderr {:?}",
                String::from_utf8_lossy(&output.stderr)
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
