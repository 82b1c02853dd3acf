//! The judges' own tools, run on problem packages that use `tictactoe` as
//! input validator and output validator the way the README says to:
//! problemtools' `verifyproblem` (Kattis), BAPCtools' `bt` (the ICPC
//! package format 2025-09) and online-judge-tools' `oj`.
//!
//! The tools come from PyPI: `bash .ci/judge-tools` installs them (CI does)
//! and prints the folder to put on PATH. Without them these tests fail, and
//! say so.

// Unix only: the judges' tools run on Unix.
#![cfg(unix)]

mod common;

use common::{describe, tool};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("folder made");
    for entry in fs::read_dir(from).expect("fixture folder") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            // fs::copy keeps the run bits the validators' scripts need.
            fs::copy(entry.path(), &target).expect("file copied");
        }
    }
}

/// Runs the binary under test.
fn tictactoe(args: &[&str]) -> Vec<u8> {
    let output = Command::new(common::binary())
        .args(args)
        .output()
        .expect("binary runs");
    assert!(output.status.success(), "{args:?}: {output:?}");
    output.stdout
}

/// Writes `NAME.in` and `NAME.ans` under `data`: the bundled example as a
/// sample, and generated secret tests with games that end every way (wins
/// on every kind of line, on odd and even boards), the answers by
/// `tictactoe` itself.
fn write_data(data: &Path) {
    let sample = data.join("sample");
    let secret = data.join("secret");
    fs::create_dir_all(&sample).expect("folder made");
    fs::create_dir_all(&secret).expect("folder made");
    let example = fs::read("fixtures/check/example.input").expect("example");
    fs::write(sample.join("1.in"), &example).expect("sample written");
    let answer = tictactoe(&["fixtures/check/example.input"]);
    fs::write(sample.join("1.ans"), answer).expect("answer written");
    let generated: [&[&str]; 3] = [
        &[
            "--cases",
            "40",
            "--min-n",
            "3",
            "--max-n",
            "8",
            "--outcome",
            "win",
        ],
        &[
            "--cases",
            "30",
            "--min-n",
            "3",
            "--max-n",
            "30",
            "--outcome",
            "mixed",
        ],
        &[
            "--cases",
            "5",
            "--min-n",
            "90",
            "--max-n",
            "100",
            "--outcome",
            "mixed",
        ],
    ];
    for (index, settings) in generated.iter().enumerate() {
        let seed = (index + 1).to_string();
        let mut args = vec!["gen", "--seed", &seed];
        args.extend_from_slice(settings);
        let input = secret.join(format!("{}.in", index + 1));
        fs::write(&input, tictactoe(&args)).expect("input written");
        let answer = tictactoe(&[input.to_str().expect("UTF-8 path")]);
        fs::write(secret.join(format!("{}.ans", index + 1)), answer).expect("answer written");
    }
}

/// The submissions, in the package's `submissions` folder: the counter
/// solution and the one that forgets the anti-diagonal, the sources
/// `tictactoe package` ships.
fn write_submissions(problem: &Path) {
    for (source, verdict) in [(COUNTERS, "accepted"), (NO_ANTI_DIAGONAL, "wrong_answer")] {
        let folder = problem.join("submissions").join(verdict);
        fs::create_dir_all(&folder).expect("folder made");
        let name = Path::new(source).file_name().expect("a file name");
        fs::copy(source, folder.join(name)).expect("submission copied");
    }
}

/// The package's accepted C++ submission.
const COUNTERS: &str = "src/judging/package/submissions/counters.cpp";
/// The package's C++ submission that forgets the anti-diagonal.
const NO_ANTI_DIAGONAL: &str = "src/judging/package/submissions/no_anti_diagonal.cpp";

#[test]
fn verifyproblem_finds_no_error_in_the_kattis_package() {
    let dir = tempfile::tempdir().expect("temp dir");
    let problem = dir.path().join("tictactoe");
    copy_tree(Path::new("fixtures/judges/kattis"), &problem);
    write_data(&problem.join("data"));
    write_submissions(&problem);
    let (output, stdout) = common::verified_without_errors(&problem);
    // Each submission got the verdict its folder names.
    assert!(
        stdout.contains("accepted/counters.cpp"),
        "{}",
        describe(&output)
    );
    assert!(
        stdout.contains("wrong_answer/no_anti_diagonal.cpp"),
        "{}",
        describe(&output)
    );
}

#[test]
fn bapctools_validates_and_runs_the_icpc_package() {
    let dir = tempfile::tempdir().expect("temp dir");
    let contest = dir.path().join("contest");
    copy_tree(Path::new("fixtures/judges/bapc"), &contest);
    let problem = contest.join("tictactoe");
    write_data(&problem.join("data"));
    write_submissions(&problem);
    // `bt validate` also feeds the output validator the answers with their
    // whitespace changed (all on one line, one token a line), which a
    // token comparison must accept.
    let report = common::bt_validated_and_run(&contest);
    assert!(report.contains("counters.cpp"), "{report}");
    assert!(report.contains("no_anti_diagonal.cpp"), "{report}");
}

/// Compiles a submission into `dir`.
fn compiled(source: &str, dir: &Path) -> PathBuf {
    let name = Path::new(source).file_stem().expect("a file name");
    let binary = dir.join(name);
    let status = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(source)
        .status()
        .expect("g++ runs");
    assert!(status.success());
    binary
}

#[test]
fn oj_test_judges_with_tictactoe_check() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    write_data(&data);
    // oj's layout: NAME.in and NAME.out in one folder.
    let tests = dir.path().join("test");
    fs::create_dir_all(&tests).expect("folder made");
    for group in ["sample", "secret"] {
        for entry in fs::read_dir(data.join(group)).expect("data") {
            let path = entry.expect("entry").path();
            let stem = path
                .file_stem()
                .and_then(|stem| stem.to_str())
                .expect("name");
            let name = match path.extension().and_then(|ext| ext.to_str()) {
                Some("in") => format!("{group}-{stem}.in"),
                _ => format!("{group}-{stem}.out"),
            };
            fs::copy(&path, tests.join(name)).expect("test copied");
        }
    }
    for (source, expected) in [(COUNTERS, 0), (NO_ANTI_DIAGONAL, 1)] {
        let binary = compiled(source, dir.path());
        let output = tool("oj", dir.path())
            .args([
                "test",
                "-d",
                "test",
                "--judge-command",
                "tictactoe check --protocol oj",
                "-c",
            ])
            .arg(&binary)
            .output()
            .expect("oj runs");
        assert_eq!(
            output.status.code(),
            Some(expected),
            "{source}: {}",
            describe(&output)
        );
        let report = String::from_utf8_lossy(&output.stdout);
        let verdict = if expected == 0 { "test success" } else { "WA" };
        assert!(report.contains(verdict), "{source}: {}", describe(&output));
    }
}
