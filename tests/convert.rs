//! `convert`: every bundled fixture survives the round trip to the other
//! format and back, and means the same in both formats under each policy.

mod common;

use common::tictactoe;

use std::fs;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    CodingNinjas,
    Leetcode,
}

impl Format {
    fn of(text: &[u8]) -> Format {
        match text.iter().find(|byte| !byte.is_ascii_whitespace()) {
            Some(b'[') => Format::Leetcode,
            _ => Format::CodingNinjas,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::CodingNinjas => "coding-ninjas",
            Format::Leetcode => "leetcode",
        }
    }

    fn other(self) -> Format {
        match self {
            Format::CodingNinjas => Format::Leetcode,
            Format::Leetcode => Format::CodingNinjas,
        }
    }
}

/// A fixture's format: the one its arguments name, else the one detected.
fn format_of(input: &Path, text: &[u8]) -> Format {
    let args = fs::read_to_string(input.with_extension("args")).unwrap_or_default();
    let args: Vec<&str> = args.lines().collect();
    // The formats' whitespace (no form feed), within detection's first MiB.
    let blank = text.len() < 1 << 20 && text.iter().all(|byte| b" \t\r\n".contains(byte));
    match args
        .windows(2)
        .find(|pair| pair[0] == "--format" || pair[0] == "--to")
    {
        Some(["--format", "leetcode"]) => Format::Leetcode,
        Some(["--format", "coding-ninjas"]) => Format::CodingNinjas,
        // convert reads an input of only whitespace in the other format.
        Some(["--to", "leetcode"]) if blank => Format::CodingNinjas,
        Some(["--to", "coding-ninjas"]) if blank => Format::Leetcode,
        _ => Format::of(text),
    }
}

fn fixture_inputs() -> Vec<PathBuf> {
    // The fixtures whose inputs are problem files. (check's are solutions'
    // outputs, gen's are empty, and validate's are broken for the strict
    // validator on purpose.)
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    ["convert", "leetcode", "solve", "trace"]
        .iter()
        .flat_map(|dir| common::fixture_inputs(&root.join(dir)))
        .collect()
}

/// Runs the binary on `input`: exit status, standard output, standard error.
fn run(args: &[&str], input: &[u8]) -> (i32, Vec<u8>, String) {
    let output = tictactoe()
        .args(args)
        .write_stdin(input)
        .output()
        .expect("binary runs");
    (
        output.status.code().unwrap_or(-1),
        output.stdout,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Converts `text`, read as the other format than `to`, to `to`: named, so
/// that a fixture in the wrong format is refused rather than detected.
fn convert(text: &[u8], to: Format) -> (i32, Vec<u8>, String) {
    run(
        &["convert", "--from", to.other().name(), "--to", to.name()],
        text,
    )
}

/// The canonical Coding Ninjas form, written here independently of the
/// binary: the same integers, laid out as in the problem statement.
fn canonical_coding_ninjas(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let mut tokens = text.split_ascii_whitespace().map(|token| {
        token
            .parse::<i64>()
            .expect("a converted file holds integers")
    });
    let mut next = || tokens.next().expect("a converted file is complete");
    let cases = next();
    let mut out = format!("{cases}\n");
    for _ in 0..cases {
        let (n, q) = (next(), next());
        out.push_str(&format!("{n}\n{q}\n"));
        for _ in 0..q {
            let (row, col, player) = (next(), next(), next());
            out.push_str(&format!("{row} {col} {player}\n"));
        }
    }
    out
}

/// The canonical LeetCode form, written here with serde_json's value type:
/// two compact lines per test case, a blank line between test cases. JSON's
/// `-0` is the integer 0.
fn canonical_leetcode(text: &[u8]) -> String {
    let mut values: Vec<serde_json::Value> = serde_json::Deserializer::from_slice(text)
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("a converted file is JSON");
    fn zero_for_minus_zero(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Number(number) if number.as_f64() == Some(0.0) => {
                *value = serde_json::Value::from(0);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(zero_for_minus_zero),
            _ => {}
        }
    }
    values.iter_mut().for_each(zero_for_minus_zero);
    values
        .chunks(2)
        .map(|case| format!("{}\n{}\n", case[0], case[1]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn canonical(text: &[u8], format: Format) -> String {
    match format {
        Format::CodingNinjas => canonical_coding_ninjas(text),
        Format::Leetcode => canonical_leetcode(text),
    }
}

#[test]
fn every_bundled_fixture_in_a_valid_format_survives_the_round_trip() {
    let mut survived = 0;
    let mut refused = 0;
    let mut failures = Vec::new();
    for input in fixture_inputs() {
        let mut text = fs::read(&input).expect("fixture is readable");
        // A byte order mark is dropped on reading; the canonical forms have none.
        if text.starts_with(b"\xEF\xBB\xBF") {
            text.drain(..3);
        }
        let format = format_of(&input, &text);
        let name = input.display();
        let (code, there, stderr) = convert(&text, format.other());
        if code != 0 {
            // Only a fixture made to break the format may be refused, and
            // the solver refuses it with the same words.
            let made_to_fail = input
                .file_name()
                .is_some_and(|file| file.to_string_lossy().starts_with("err-"));
            if !made_to_fail {
                failures.push(format!("{name}: refused, but it is not an err- fixture"));
            }
            let (solve_code, _, solve_stderr) = run(&["--format", format.name()], &text);
            if (code, &stderr) != (65, &solve_stderr) || solve_code != 65 {
                failures.push(format!(
                    "{name}: convert exit {code} {stderr:?}, solve exit {solve_code} {solve_stderr:?}"
                ));
            }
            refused += 1;
            continue;
        }
        let (code, back, stderr) = convert(&there, format);
        if code != 0 {
            failures.push(format!("{name}: converting back exits {code}: {stderr}"));
            continue;
        }
        let expected = canonical(&text, format);
        if String::from_utf8_lossy(&back) != expected {
            failures.push(format!(
                "{name}: round trip gives {:?}, expected {expected:?}",
                String::from_utf8_lossy(&back)
            ));
        }
        // The converted file is itself in canonical form.
        if String::from_utf8_lossy(&there) != canonical(&there, format.other()) {
            failures.push(format!("{name}: converted form is not canonical"));
        }
        survived += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(survived >= 30, "only {survived} fixtures round-tripped");
    assert!(refused > 0, "the format-error fixtures went missing");
}

/// An error message without its line and column, which differ between formats.
fn without_position(stderr: &str) -> String {
    match stderr.split_once(", column ") {
        Some((_, rest)) => rest
            .split_once(": ")
            .map_or(rest.to_owned(), |(_, why)| why.to_owned()),
        None => stderr.to_owned(),
    }
}

#[test]
fn every_fixture_case_gives_the_same_answers_in_both_formats_under_each_policy() {
    let mut compared = 0;
    let mut failures = Vec::new();
    for input in fixture_inputs() {
        let mut text = fs::read(&input).expect("fixture is readable");
        // A byte order mark is dropped on reading; the canonical forms have none.
        if text.starts_with(b"\xEF\xBB\xBF") {
            text.drain(..3);
        }
        let format = format_of(&input, &text);
        let (code, converted, _) = convert(&text, format.other());
        if code != 0 {
            continue;
        }
        let (coding_ninjas, leetcode) = match format {
            Format::CodingNinjas => (text, converted),
            Format::Leetcode => (converted, text),
        };
        for policy in ["error", "continue", "leetcode"] {
            // Named formats: an empty LeetCode file (no test cases) would
            // read as an empty Coding Ninjas file under `auto`.
            let args = |format: Format| ["--after-win", policy, "--format", format.name()];
            let (cn_code, cn_out, cn_err) = run(&args(Format::CodingNinjas), &coding_ninjas);
            let (lc_code, lc_out, lc_err) = run(&args(Format::Leetcode), &leetcode);
            let expected: Vec<String> = String::from_utf8_lossy(&cn_out)
                .lines()
                .map(common::as_leetcode_line)
                .collect();
            let found: Vec<String> = String::from_utf8_lossy(&lc_out)
                .lines()
                .map(str::to_owned)
                .collect();
            let name = input.display();
            if (lc_code, &found) != (cn_code, &expected) {
                failures.push(format!(
                    "{name} --after-win {policy}: LeetCode exit {lc_code} {found:?}, \
                     Coding Ninjas exit {cn_code} {expected:?}"
                ));
            }
            if without_position(&lc_err) != without_position(&cn_err) {
                failures.push(format!(
                    "{name} --after-win {policy}: LeetCode says {lc_err:?}, Coding Ninjas {cn_err:?}"
                ));
            }
            compared += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared >= 90, "only {compared} comparisons");
}

#[test]
fn the_issue_example_converts_to_the_coding_ninjas_example() {
    tictactoe()
        .args([
            "convert",
            "--to",
            "coding-ninjas",
            "fixtures/leetcode/example.in",
        ])
        .assert()
        .success()
        .stdout(
            fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/solve/leetcode-example.in"),
            )
            .expect("fixture is readable"),
        );
}

#[test]
fn converting_to_leetcode_writes_two_compact_lines_per_case() {
    tictactoe()
        .args(["convert", "--to", "leetcode"])
        .write_stdin("2\n2 1\n0 0 1\n1 0\n")
        .assert()
        .success()
        .stdout("[\"TicTacToe\",\"move\"]\n[[2],[0,0,1]]\n\n[\"TicTacToe\"]\n[[1]]\n");
}

#[test]
fn moves_the_solver_refuses_are_carried_over_unchanged() {
    tictactoe()
        .args(["convert", "--to", "leetcode"])
        .write_stdin("1 3 2 0 0 7 0 0 1")
        .assert()
        .success()
        .stdout("[\"TicTacToe\",\"move\",\"move\"]\n[[3],[0,0,7],[0,0,1]]\n");
}

#[test]
fn a_file_already_in_the_target_format_is_canonicalised_with_from_auto() {
    tictactoe()
        .args(["convert", "--to", "leetcode", "--from", "auto"])
        .write_stdin("[\"TicTacToe\" , \"move\"]\n\n[ [1] , [0, 0, 2] ]")
        .assert()
        .success()
        .stdout("[\"TicTacToe\",\"move\"]\n[[1],[0,0,2]]\n");
}

#[test]
fn a_format_error_exits_65_and_converting_to_coding_ninjas_writes_nothing() {
    tictactoe()
        .args(["convert", "--to", "coding-ninjas"])
        .write_stdin("[\"TicTacToe\"]\n[[3]]\n[\"TicTacToe\",\"jump\"]\n[[3],[0,0,1]]\n")
        .assert()
        .code(65)
        .stdout("")
        .stderr(
            "error: line 3, column 14: case 2, move 1: unknown method \"jump\": after \
             \"TicTacToe\" every method must be \"move\"\n",
        );
}

#[test]
fn a_format_error_keeps_the_completed_leetcode_cases() {
    tictactoe()
        .args(["convert", "--to", "leetcode"])
        .write_stdin("2 1 1 0 0 1 3 1 0 x 1")
        .assert()
        .code(65)
        .stdout("[\"TicTacToe\",\"move\"]\n[[1],[0,0,1]]\n")
        .stderr("error: line 1, column 19: case 2, move 1: expected an integer, found \"x\"\n");
}
