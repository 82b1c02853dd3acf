//! LeetCode's transcript format as its users meet it: detection, LeetCode's
//! own outputs, errors, and the same answers as the Coding Ninjas format.

mod common;

use common::{Pieces, tictactoe};

use predicates::prelude::*;
use proptest::prelude::*;
use tictactoe::error::InputName;
use tictactoe::format::Format;
use tictactoe::game::{AfterWin, EngineKind, Rules};
use tictactoe::pipeline::run_stream_as;

const EXAMPLE: &str = "fixtures/leetcode/example.in";

#[test]
fn the_issue_example_with_spaces_prints_leetcodes_answer_line() {
    tictactoe()
        .arg(EXAMPLE)
        .assert()
        .success()
        .stdout("[null,0,0,0,0,0,0,1]\n");
}

#[test]
fn the_two_grader_outputs_reproduce_in_leetcode_format() {
    tictactoe()
        .args(["--after-win", "leetcode"])
        .write_stdin("[\"TicTacToe\",\"move\",\"move\",\"move\",\"move\"]\n[[2],[0,0,1],[0,1,2],[1,0,1],[1,1,2]]\n")
        .assert()
        .success()
        .stdout("[null,0,0,1,2]\n");
    tictactoe()
        .args([
            "--after-win",
            "leetcode",
            "fixtures/leetcode/after-win-leetcode-n3.in",
        ])
        .assert()
        .success()
        .stdout("[null,0,0,0,0,0,2,1,1,2]\n");
}

#[test]
fn auto_detection_lets_both_formats_share_one_command_line() {
    tictactoe()
        .args([EXAMPLE, "fixtures/solve/leetcode-example.in", EXAMPLE])
        .assert()
        .success()
        .stdout("[null,0,0,0,0,0,0,1]\n0 0 0 0 0 0 1\n[null,0,0,0,0,0,0,1]\n");
}

#[test]
fn a_named_format_is_not_second_guessed() {
    tictactoe()
        .args(["--format", "coding-ninjas", EXAMPLE])
        .assert()
        .code(65)
        .stderr(predicate::str::contains("expected an integer"));
    tictactoe()
        .args(["--format", "leetcode", "fixtures/solve/leetcode-example.in"])
        .assert()
        .code(65)
        .stderr(predicate::str::contains(
            "expected the array of method names, found 1",
        ));
}

#[test]
fn an_error_keeps_every_completed_test_case_and_names_the_file() {
    tictactoe()
        .args([EXAMPLE, "fixtures/leetcode/err-cell-taken.in"])
        .assert()
        .code(65)
        .stdout("[null,0,0,0,0,0,0,1]\n[null,0]\n")
        .stderr(
            "error: fixtures/leetcode/err-cell-taken.in: line 5, column 23: case 2, move 3: \
             cell (0, 0) is already taken\n",
        );
}

/// Linux only: `/dev/full` is Linux's.
#[cfg(target_os = "linux")]
#[test]
fn output_into_a_full_disk_exits_74() {
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg(EXAMPLE)
        .stdout(full)
        .output()
        .expect("binary runs");
    assert_eq!(output.status.code(), Some(74));
}

/// An error message without its line and column, which differ between formats.
fn without_position(message: &str) -> String {
    match message.split_once(": ") {
        Some((position, rest)) if position.starts_with("line ") => rest.to_owned(),
        _ => message.to_owned(),
    }
}

/// A board size and the moves played on it.
type Case = (i64, Vec<(i64, i64, i64)>);

/// Random cases on boards of size 1 to 5: moves mostly on the board, some
/// off it, some by a player that does not exist, with repeats so that taken
/// cells and moves after a win come up.
fn cases() -> impl Strategy<Value = Vec<Case>> {
    let case = (1i64..=5).prop_flat_map(|n| {
        let coordinate = prop_oneof![30 => 0..n, 1 => -1..=n];
        let player = prop_oneof![30 => 1i64..=2, 1 => 0i64..=3];
        let play = (coordinate.clone(), coordinate, player);
        (Just(n), prop::collection::vec(play, 0..=(n * n) as usize))
    });
    prop::collection::vec(case, 0..4)
}

fn coding_ninjas_text(cases: &[Case]) -> String {
    let mut text = format!("{}\n", cases.len());
    for (n, moves) in cases {
        text.push_str(&format!("{n}\n{}\n", moves.len()));
        for (row, col, player) in moves {
            text.push_str(&format!("{row} {col} {player}\n"));
        }
    }
    text
}

fn leetcode_text(cases: &[Case]) -> String {
    let mut text = String::new();
    for (n, moves) in cases {
        let names: String = moves.iter().map(|_| ", \"move\"").collect();
        let arguments: String = moves
            .iter()
            .map(|(row, col, player)| format!(", [{row}, {col}, {player}]"))
            .collect();
        text.push_str(&format!("[\"TicTacToe\"{names}]\n[[{n}]{arguments}]\n\n"));
    }
    text
}

fn solve(text: &str, format: Option<Format>, rules: Rules) -> (String, Option<String>) {
    let mut out = Vec::new();
    let result = run_stream_as(text.as_bytes(), InputName::Stdin, format, rules, &mut out);
    (
        String::from_utf8(out).expect("results are ASCII"),
        result
            .err()
            .map(|error| without_position(&error.to_string())),
    )
}

proptest! {
    #[test]
    fn every_leetcode_case_gives_the_coding_ninjas_answers_under_each_policy(cases in cases()) {
        let coding_ninjas = coding_ninjas_text(&cases);
        let leetcode = leetcode_text(&cases);
        // Detection needs a first byte: a file of no test cases is empty.
        let format = if cases.is_empty() { Some(Format::Leetcode) } else { None };
        for after_win in [AfterWin::Error, AfterWin::Continue, AfterWin::Leetcode] {
            for engine in [EngineKind::Counter, EngineKind::Scan] {
                let rules = Rules { after_win, engine };
                let (cn_out, cn_error) = solve(&coding_ninjas, Some(Format::CodingNinjas), rules);
                let (lc_out, lc_error) = solve(&leetcode, format, rules);
                let expected: Vec<String> = cn_out.lines().map(common::as_leetcode_line).collect();
                let found: Vec<&str> = lc_out.lines().collect();
                prop_assert_eq!(found, expected, "{:?}", rules);
                prop_assert_eq!(lc_error, cn_error, "{:?}", rules);
            }
        }
    }
}

/// A transcript of `cases` with the whitespace `spaces` gives (cycling)
/// between every two tokens: none at all, mostly, so the one-word reader
/// of `,[R,C,P]` takes most moves.
fn spaced_leetcode_text(cases: &[Case], spaces: &[&str]) -> String {
    let mut space = spaces.iter().cycle();
    let mut text = String::new();
    let mut put = |token: &str, text: &mut String| {
        text.push_str(token);
        text.push_str(space.next().expect("cycles"));
    };
    for (n, moves) in cases {
        put("[", &mut text);
        put("\"TicTacToe\"", &mut text);
        for _ in moves {
            put(",", &mut text);
            put("\"move\"", &mut text);
        }
        put("]", &mut text);
        put("[", &mut text);
        put(&format!("[{n}]"), &mut text);
        for (row, col, player) in moves {
            for token in [
                ",",
                "[",
                &row.to_string(),
                ",",
                &col.to_string(),
                ",",
                &player.to_string(),
                "]",
            ] {
                put(token, &mut text);
            }
        }
        put("]", &mut text);
    }
    text
}

proptest! {
    // Read whole, most moves are read a word at a time; read a few bytes at
    // a time, the reader reads past what it has let go of, and must still
    // place every error where it is.
    #[test]
    fn transcripts_read_the_same_however_spaced_and_however_the_reads_fall(
        cases in cases(),
        spaces in prop::collection::vec(
            prop_oneof![12 => Just(""), 1 => Just(" "), 1 => Just("\n"), 1 => Just(" \r\n\t ")],
            1..40,
        ),
        sizes in prop::collection::vec(1usize..40, 1..8),
    ) {
        let compact = spaced_leetcode_text(&cases, &[""]);
        let spaced = spaced_leetcode_text(&cases, &spaces);
        let rules = Rules::default();
        let format = Some(Format::Leetcode);
        let (compact_out, compact_error) = solve(&compact, format, rules);
        let (spaced_out, spaced_error) = solve(&spaced, format, rules);
        prop_assert_eq!(&spaced_out, &compact_out);
        prop_assert_eq!(&spaced_error, &compact_error);
        let mut out = Vec::new();
        let pieces = Pieces { data: spaced.as_bytes(), sizes, next: 0 };
        let result = run_stream_as(pieces, InputName::Stdin, format, rules, &mut out);
        let mut whole_out = Vec::new();
        let whole = run_stream_as(spaced.as_bytes(), InputName::Stdin, format, rules, &mut whole_out);
        prop_assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&whole_out));
        prop_assert_eq!(
            result.err().map(|error| error.to_string()),
            whole.err().map(|error| error.to_string())
        );
    }
}
