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

/// problemtools' own default output validator: the program a Kattis judge
/// compares with when a problem has no validator of its own.
fn kattis_default_validator() -> PathBuf {
    let path = common::judge_path();
    let bin = std::env::split_paths(&path)
        .find(|folder| folder.join("verifyproblem").is_file())
        .expect("verifyproblem on PATH: run `bash .ci/judge-tools`");
    let output = Command::new(bin.join("python3"))
        .args([
            "-c",
            "import os, problemtools; \
             print(os.path.join(os.path.dirname(problemtools.__file__), 'support', 'default_validator'))",
        ])
        .output()
        .expect("the tools' Python runs");
    let validator = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    assert!(validator.is_file(), "{}", describe(&output));
    validator
}

/// Runs a Kattis output validator on `output` the way the judge does:
/// `IN ANS FEEDBACK_DIR [flags] < output`.
fn kattis_status(validator: &Command, dir: &Path, flags: &[&str], output: &[u8]) -> Option<i32> {
    let feedback = tempfile::tempdir_in(dir).expect("feedback folder");
    let team = dir.join("team.out");
    fs::write(&team, output).expect("output written");
    let mut command = Command::new(validator.get_program());
    command
        .args(validator.get_args())
        .arg(dir.join("case.in"))
        .arg(dir.join("case.ans"))
        .arg(feedback.path())
        .args(flags)
        .stdin(fs::File::open(&team).expect("output opens"));
    command.output().expect("validator runs").status.code()
}

/// An output in many layouts, right and wrong, made from `answer`.
fn layouts(answer: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let text = String::from_utf8(answer.to_vec()).expect("an answer is text");
    let lines: Vec<&str> = text.lines().collect();
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let last_digit = answer
        .iter()
        .rposition(u8::is_ascii_digit)
        .expect("a result");
    let mut wrong = answer.to_vec();
    wrong[last_digit] = if wrong[last_digit] == b'0' {
        b'1'
    } else {
        b'0'
    };
    let mut missing = answer.to_vec();
    missing.drain(last_digit - 1..=last_digit);
    vec![
        ("the answer", answer.to_vec()),
        ("CRLF line ends", text.replace('\n', "\r\n").into_bytes()),
        (
            "a space ending each line",
            text.replace('\n', " \n").into_bytes(),
        ),
        ("no final line feed", text.trim_end().as_bytes().to_vec()),
        ("an empty line after", format!("{text}\n").into_bytes()),
        (
            "spaces after the last line",
            format!("{text}  ").into_bytes(),
        ),
        ("a space first", format!(" {text}").into_bytes()),
        (
            "two spaces between results",
            text.replace(' ', "  ").into_bytes(),
        ),
        ("tabs between results", text.replace(' ', "\t").into_bytes()),
        (
            "every result on one line",
            format!("{}\n", tokens.join(" ")).into_bytes(),
        ),
        (
            "a result a line",
            format!("{}\n", tokens.join("\n")).into_bytes(),
        ),
        (
            "the lines joined by blank lines",
            format!("{}\n", lines.join("\n\n")).into_bytes(),
        ),
        ("a wrong result", wrong),
        ("the last result missing", missing),
        ("an extra result", format!("{text}0\n").into_bytes()),
        (
            "a result written 00",
            text.replacen('0', "00", 1).into_bytes(),
        ),
        (
            "a result written +1",
            text.replacen('1', "+1", 1).into_bytes(),
        ),
        ("nothing", Vec::new()),
        ("a line feed only", b"\n".to_vec()),
        (
            "a byte order mark first",
            [&b"\xEF\xBB\xBF"[..], answer].concat(),
        ),
        (
            "form feeds between results",
            text.replace(' ', "\x0c").into_bytes(),
        ),
        (
            "vertical tabs ending lines",
            text.replace('\n', "\x0b").into_bytes(),
        ),
        ("CRs ending lines", text.replace('\n', "\r").into_bytes()),
    ]
}

#[test]
fn check_judges_every_layout_as_kattis_default_validator_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = tictactoe(&[
        "gen",
        "--seed",
        "7",
        "--cases",
        "3",
        "--max-n",
        "4",
        "--max-moves",
        "8",
    ]);
    fs::write(dir.path().join("case.in"), &input).expect("input written");
    let answer = tictactoe(&[dir.path().join("case.in").to_str().expect("UTF-8 path")]);
    // A judge's answer may be laid out otherwise: under
    // space_change_sensitive its layout is the one asked for.
    let text = String::from_utf8(answer.clone()).expect("an answer is text");
    let odd_answer = format!(
        "  {}",
        text.replacen('\n', "\n\n", 1)
            .replace('\n', "\r\n")
            .replacen(' ', "\x0c", 1)
    );
    let default_validator = Command::new(kattis_default_validator());
    let mut check = Command::new(common::binary());
    check.args(["check", "--protocol", "kattis"]);
    let flag_sets: [&[&str]; 4] = [
        &[],
        &["space_change_sensitive"],
        &["case_sensitive"],
        &["case_sensitive", "space_change_sensitive"],
    ];
    let mut disagreements = Vec::new();
    for answer in [answer, odd_answer.into_bytes()] {
        fs::write(dir.path().join("case.ans"), &answer).expect("answer written");
        for flags in flag_sets {
            for (layout, output) in layouts(&answer) {
                let kattis = kattis_status(&default_validator, dir.path(), flags, &output);
                let ours = kattis_status(&check, dir.path(), flags, &output);
                assert!(
                    matches!(kattis, Some(42 | 43)),
                    "{layout} {flags:?}: the default validator exited {kattis:?}"
                );
                if ours != kattis {
                    disagreements.push(format!(
                        "{layout} {flags:?} on {:?}: default validator {kattis:?}, check {ours:?}",
                        String::from_utf8_lossy(&answer[..12])
                    ));
                }
            }
        }
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}
