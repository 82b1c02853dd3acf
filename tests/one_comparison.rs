//! One comparison: `check`, `test` and `stress` give the same verdict on the
//! same output, for a corpus of reshaped answers in both formats.
//!
//! `fixtures/solutions/variant.py NAME` prints the reference's answer
//! reshaped as NAME says; each variant is judged by all three commands on
//! the same input (the one `stress` generated, which the script saves), and
//! the verdicts must agree with each other and with the rule written here.

// Unix only: `test` and `stress` supervise solutions on Unix only.
#![cfg(unix)]

mod common;

use common::{binary, tictactoe};
use std::fs;
use std::path::Path;

/// Each variant and the verdict every command must give it.
const VARIANTS: [(&str, &str); 21] = [
    ("same", "AC"),
    ("trailing-blank-line", "AC"),
    ("trailing-blank-lines-with-spaces", "AC"),
    ("crlf", "AC"),
    ("tabs", "AC"),
    ("double-spaces", "AC"),
    ("spaces-before-line-ends", "AC"),
    ("no-final-newline", "AC"),
    ("empty-lines-left-out-at-the-end", "AC"),
    // Only space, tab, CR and LF are whitespace, as in testlib.
    ("vertical-tabs", "PE"),
    ("form-feeds", "PE"),
    // A byte order mark is dropped, as testlib drops one before the output.
    ("bom", "AC"),
    ("leading-blank-line", "PE"),
    ("last-line-missing", "PE"),
    ("extra-line", "PE"),
    ("garbage-line", "PE"),
    ("garbage-bytes", "PE"),
    ("all-on-one-line", "PE"),
    ("first-result-wrong", "WA"),
    // An integer out of range is wrong, as testlib's readInt(0, 2) says.
    ("first-result-out-of-range", "WA"),
    ("empty", "PE"),
];

fn variant_command(name: &str, save: Option<&Path>) -> String {
    let mut command = format!(
        "python3 fixtures/solutions/variant.py {name} '{}'",
        binary().display()
    );
    if let Some(save) = save {
        command.push_str(&format!(" '{}'", save.display()));
    }
    command
}

/// `check --protocol testlib`, whose statuses tell WA from PE, comparing
/// lines as `test` and `stress` do.
fn check_verdict(input: &Path, answer: &Path, output: &Path) -> String {
    let status = tictactoe()
        .args(["check", "--protocol", "testlib", "--compare", "lines"])
        .args([input, output, answer])
        .output()
        .expect("check runs")
        .status
        .code();
    match status {
        Some(0) => "AC",
        Some(1) => "WA",
        Some(2) => "PE",
        other => panic!("check exited {other:?}"),
    }
    .to_owned()
}

/// `test` on a folder of one test, `01.in` with `01.ans`.
fn test_verdict(dir: &Path, solution: &str) -> String {
    let output = tictactoe()
        .arg("test")
        .arg(dir)
        .args(["-c", solution, "--time-limit", "20"])
        .output()
        .expect("test runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let line = stdout.lines().next().expect("a verdict line");
    line.split(' ').nth(1).expect("a verdict code").to_owned()
}

/// `stress` on its first input only; the verdict it found, or AC.
fn stress_verdict(solution: &str, save_dir: &Path) -> String {
    let output = tictactoe()
        .args(["stress", "-c", solution, "--iterations", "1", "--seed", "7"])
        .args(["--min-n", "3", "--max-n", "4", "--time-limit", "20"])
        .arg("--save-dir")
        .arg(save_dir)
        .output()
        .expect("stress runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if stdout.starts_with("no difference") {
        return "AC".to_owned();
    }
    // `input 1 (seed 7, stream 0): WA: ...`
    let verdict = stdout.split("): ").nth(1).expect("a verdict");
    verdict[..verdict.find([':', '\n']).unwrap_or(verdict.len())].to_owned()
}

/// Judges `variant` with check and test on `input`, its answer computed by the reference.
fn check_and_test(dir: &Path, input: &Path, variant: &str) -> (String, String) {
    let folder = dir.join("tests");
    fs::create_dir_all(&folder).expect("folder");
    fs::copy(input, folder.join("01.in")).expect("copy input");
    let answer = folder.join("01.ans");
    let solved = tictactoe().arg(input).output().expect("solve runs");
    fs::write(&answer, solved.stdout).expect("answer");
    let solution = variant_command(variant, None);
    let printed = std::process::Command::new("sh")
        .args(["-c", &format!("{solution} < '{}'", input.display())])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the variant runs");
    let output = dir.join("output");
    fs::write(&output, printed.stdout).expect("output");
    (
        check_verdict(input, &answer, &output),
        test_verdict(&folder, &solution),
    )
}

#[test]
fn check_test_and_stress_give_every_variant_the_same_verdict() {
    let mut disagreements = Vec::new();
    for (variant, expected) in VARIANTS {
        let dir = tempfile::tempdir().expect("temp dir");
        let input = dir.path().join("stress.in");
        let stress = stress_verdict(&variant_command(variant, Some(&input)), dir.path());
        let (check, test) = check_and_test(dir.path(), &input, variant);
        // Stress's first input is one case: on one line already.
        let expected = match variant {
            "all-on-one-line" => "AC",
            _ => expected,
        };
        if [&stress, &check, &test]
            .iter()
            .any(|verdict| *verdict != expected)
        {
            disagreements.push(format!(
                "{variant}: expected {expected}, stress {stress}, check {check}, test {test}"
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// Three cases, the last with no moves, so that its empty line can be left
/// out, in both formats.
const INPUT: &str =
    "3\n3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n2\n2\n0 0 1\n1 1 2\n3\n0\n";

#[test]
fn check_and_test_agree_on_both_formats_including_a_case_with_no_moves() {
    let mut disagreements = Vec::new();
    for leetcode in [false, true] {
        for (variant, expected) in VARIANTS {
            let dir = tempfile::tempdir().expect("temp dir");
            let input = dir.path().join("case.in");
            fs::write(&input, INPUT).expect("input");
            if leetcode {
                let converted = tictactoe()
                    .args(["convert", "--to", "leetcode"])
                    .arg(&input)
                    .output()
                    .expect("convert runs");
                fs::write(&input, converted.stdout).expect("LeetCode input");
            }
            let (check, test) = check_and_test(dir.path(), &input, variant);
            // LeetCode lines hold no spaces and no empty lines, so the
            // variants that change those change nothing there.
            let expected = match (leetcode, variant) {
                // The last case has no moves: its empty line may be left out,
                // but not LeetCode's `[null]`, which is text.
                (false, "last-line-missing") => "AC",
                // LeetCode's lines are test cases; blank lines stand for none.
                (true, "leading-blank-line") => "AC",
                (true, "vertical-tabs" | "form-feeds") => "AC",
                (true, "empty-lines-left-out-at-the-end") => "AC",
                _ => expected,
            };
            if check != test || check != expected {
                disagreements.push(format!(
                    "{} {variant}: expected {expected}, check {check}, test {test}",
                    if leetcode {
                        "LeetCode"
                    } else {
                        "Coding Ninjas"
                    }
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
