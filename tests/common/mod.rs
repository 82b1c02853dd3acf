//! Helpers shared by the integration tests.

// Each test crate compiles this module and uses only part of it.
#![allow(dead_code)]

use assert_cmd::Command;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The binary under test, run from the repository's root so that arguments
/// may name files under `fixtures/`, with none of the variables that decide
/// colour, and stopped if it hangs.
pub fn tictactoe() -> Command {
    let mut command = Command::cargo_bin("tictactoe").expect("binary is built");
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    for variable in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
        command.env_remove(variable);
    }
    command.timeout(std::time::Duration::from_secs(120));
    command
}

/// Where the binary under test is, for commands that run it themselves.
pub fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("tictactoe")
}

/// Every `NAME.in` below `dir`, in sorted order: the fixtures there.
pub fn fixture_inputs(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    walk(dir, &mut found);
    found
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("fixtures directory is readable")
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "in") {
            found.push(path);
        }
    }
}

/// A Coding Ninjas answer line as LeetCode prints it.
pub fn as_leetcode_line(line: &str) -> String {
    let results: String = line
        .split(' ')
        .filter(|result| !result.is_empty())
        .map(|result| format!(",{result}"))
        .collect();
    format!("[null{results}]")
}

/// Peak resident set of the largest child process waited for so far, in
/// KiB (bytes on macOS): how the memory tests measure the binary.
#[cfg(unix)]
pub fn children_peak_kib() -> i64 {
    use nix::sys::resource::{UsageWho, getrusage};
    getrusage(UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage")
        .max_rss()
}

/// A reader that hands out its data in pieces of the given sizes, cycling:
/// where reads split an input must not matter.
pub struct Pieces<'a> {
    /// What is left to hand out.
    pub data: &'a [u8],
    /// The sizes of the reads, in turn.
    pub sizes: Vec<usize>,
    /// Reads made so far.
    pub next: usize,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let size = self.sizes[self.next % self.sizes.len()];
        self.next += 1;
        let count = size.min(buf.len()).min(self.data.len());
        buf[..count].copy_from_slice(&self.data[..count]);
        self.data = &self.data[count..];
        Ok(count)
    }
}

/// PATH with the binary under test first, as a judge host with `tictactoe`
/// installed has it, then the judge tools.
pub fn judge_path() -> OsString {
    let binary_dir = binary()
        .parent()
        .expect("the binary is in a folder")
        .to_path_buf();
    let mut folders = vec![binary_dir];
    folders.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(folders).expect("PATH joins")
}

/// A judge tool, run with the judge PATH in `dir`.
pub fn tool(name: &str, dir: &Path) -> std::process::Command {
    let path = judge_path();
    let found = std::env::split_paths(&path).any(|folder| folder.join(name).is_file());
    assert!(
        found,
        "{name} is not on PATH: run `bash .ci/judge-tools` and put the folder it prints on PATH"
    );
    let mut command = std::process::Command::new(name);
    command.current_dir(dir).env("PATH", path);
    command
}

/// A finished command's status and output, for assertion messages.
pub fn describe(output: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// problemtools' `verifyproblem` on the Kattis package at `problem`, which
/// must report 0 errors and 0 warnings: its output and its standard output
/// as text. The statement part is left out (it needs LaTeX); everything else
/// is checked, warnings as errors (-e): configuration, data against the
/// input validator, submissions against the output validator, and the
/// validators themselves against junk.
pub fn verified_without_errors(problem: &Path) -> (Output, String) {
    let folder = problem.parent().expect("the problem is in a folder");
    let output = tool("verifyproblem", folder)
        .args([
            "-e",
            "-p",
            "config",
            "data",
            "submissions",
            "validators",
            "--",
        ])
        .arg(problem)
        .output()
        .expect("verifyproblem runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{}", describe(&output));
    assert!(
        stdout.contains("tested: 0 errors, 0 warnings"),
        "{}",
        describe(&output)
    );
    (output, stdout)
}

/// BAPCtools on the problem `tictactoe` of the contest folder `contest`:
/// `bt validate` and `bt run` must pass; the run's report, without the
/// colour codes bt writes under CI. `contest` must sit directly in a
/// temporary folder of the test's own, which takes bt's builds.
pub fn bt_validated_and_run(contest: &Path) -> String {
    // bt keeps its builds in `$TMPDIR/bapctools_<hash>` and never removes
    // them (8 MiB a run); the contest's own temporary folder takes them.
    let scratch = contest.parent().expect("the contest sits in a temp dir");
    // bt records each problem's uuid and folder in `$XDG_CONFIG_HOME` and
    // fails on a uuid another folder on the machine still holds: a package
    // written with the same settings elsewhere once failed this test.
    let config = scratch.join("bt-config");
    let validated = tool("bt", contest)
        .env("TMPDIR", scratch)
        .env("XDG_CONFIG_HOME", &config)
        .args(["validate", "--problem", "tictactoe", "-B", "-j", "2"])
        .output()
        .expect("bt runs");
    assert!(validated.status.success(), "{}", describe(&validated));
    let run = tool("bt", contest)
        .env("TMPDIR", scratch)
        .env("XDG_CONFIG_HOME", &config)
        .args(["run", "--problem", "tictactoe", "-B"])
        .output()
        .expect("bt runs");
    assert!(run.status.success(), "{}", describe(&run));
    let kept_in_scratch = std::fs::read_dir(scratch)
        .expect("scratch listed")
        .flatten()
        .any(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with("bapctools_")
        });
    assert!(
        kept_in_scratch,
        "bt left its builds outside the test's folder"
    );
    without_colour(&format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    ))
}

/// `text` without the terminal's colour codes, which bt writes under CI.
fn without_colour(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // `ESC [ ... m`: up to the letter that ends it.
            for end in chars.by_ref() {
                if end.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}
