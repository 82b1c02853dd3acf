//! `tictactoe validate` as a judge meets it: statuses, reports, and a file at the statement's limits.

mod common;

use common::tictactoe;

use predicates::prelude::*;

const VALID: &str = "fixtures/validate/valid.in";
const N: usize = 100;

/// A game's moves: row, column, player.
type Game = Vec<(usize, usize, u8)>;

/// The cells of a 100 x 100 board in an order that never completes a line:
/// a checkerboard (player 1 on even r + c) with two swaps in row 0 that
/// break both diagonals, played alternately from player 1.
fn drawn_game() -> Game {
    let owner = |r: usize, c: usize| -> u8 {
        let swapped = match (r, c) {
            (0, 0) => (0, 1),
            (0, 1) => (0, 0),
            (0, 98) => (0, 99),
            (0, 99) => (0, 98),
            other => other,
        };
        if (swapped.0 + swapped.1) % 2 == 0 {
            1
        } else {
            2
        }
    };
    let cells = |player| {
        (0..N)
            .flat_map(move |r| (0..N).map(move |c| (r, c)))
            .filter(move |&(r, c)| owner(r, c) == player)
    };
    cells(1)
        .zip(cells(2))
        .flat_map(|((r1, c1), (r2, c2))| [(r1, c1, 1), (r2, c2, 2)])
        .collect()
}

/// `winner` takes a whole line, moving first; the other player answers on
/// cells off it. The winner's last move is move 199.
fn won_game(kind: usize, winner: u8) -> Game {
    let k = kind * 7 % N;
    let line: Vec<(usize, usize)> = match kind % 4 {
        0 => (0..N).map(|i| (k, i)).collect(),
        1 => (0..N).map(|i| (i, k)).collect(),
        2 => (0..N).map(|i| (i, i)).collect(),
        _ => (0..N).map(|i| (i, N - 1 - i)).collect(),
    };
    let answer = |(r, c): (usize, usize)| match kind % 4 {
        0 => ((r + 1) % N, c),
        1 => (r, (c + 1) % N),
        _ => (r, (c + 1 + usize::from(r + c + 2 == N)) % N),
    };
    let loser = 3 - winner;
    let mut moves = Vec::new();
    for (i, &cell) in line.iter().enumerate() {
        moves.push((cell.0, cell.1, winner));
        if i + 1 < N {
            let (r, c) = answer(cell);
            moves.push((r, c, loser));
        }
    }
    moves
}

/// 100 cases: one drawn 100 x 100 board (Q = 10000), 60 unfinished games,
/// 38 games won on a row, column or diagonal, and the LeetCode example.
fn file_at_the_limits() -> (String, String) {
    let mut cases: Vec<(usize, Game)> = Vec::new();
    let drawn = drawn_game();
    cases.push((N, drawn.clone()));
    for i in 0..60 {
        let q = 5 + (i * 163 + 4000) % 5000;
        cases.push((N, drawn[..q].to_vec()));
    }
    for kind in 0..30 {
        cases.push((N, won_game(kind, 1)));
    }
    for kind in 0..8 {
        cases.push((N, won_game(kind, 2)));
    }
    let example = [
        (0, 0, 1),
        (0, 2, 2),
        (2, 2, 1),
        (1, 1, 2),
        (2, 0, 1),
        (1, 0, 2),
        (2, 1, 1),
    ];
    cases.push((3, example.to_vec()));

    let mut text = format!("{}\n", cases.len());
    let mut moves = 0;
    for (n, game) in &cases {
        text.push_str(&format!("{n}\n{}\n", game.len()));
        for (r, c, p) in game {
            text.push_str(&format!("{r} {c} {p}\n"));
        }
        moves += game.len();
    }
    let summary = format!(
        "valid: 100 cases, N 3..100, {moves} moves; 31 won by 1, 8 by 2, 1 drawn, 60 unfinished\n"
    );
    (text, summary)
}

#[test]
fn a_file_at_the_statements_limits_is_valid_and_summarised() {
    let (text, summary) = file_at_the_limits();
    assert!(text.contains("\n10000\n"), "a case has Q = N x N = 10000");
    tictactoe()
        .arg("validate")
        .write_stdin(text)
        .assert()
        .success()
        .stdout(summary)
        .stderr("");
}

#[test]
fn every_mutation_deep_in_a_large_file_is_found_at_its_line_and_column() {
    let (text, _) = file_at_the_limits();
    let lines: Vec<&str> = text.lines().collect();
    // Far past the first read, so positions must survive refills.
    let target = 100_000;
    let line = lines[target - 1];
    assert_eq!(
        line.split(' ').count(),
        3,
        "line {target} is a move: {line:?}"
    );
    let first_space = line.find(' ').expect("a move has spaces") + 1;
    let mutations: [(String, usize, usize, &str); 7] = [
        (
            line.replacen(' ', "  ", 1),
            target,
            first_space + 1,
            "two spaces in a row",
        ),
        (format!("{line} "), target, line.len() + 1, "trailing space"),
        (format!("{line}\n"), target + 1, 1, "a blank line"),
        (format!("{line}\r"), target, line.len() + 1, "CRLF"),
        (format!("0{line}"), target, 1, "leading zero"),
        (format!("+{line}"), target, 1, "has a sign"),
        (line.replacen(' ', "\t", 1), target, first_space, "a tab"),
    ];
    for (mutated, at_line, column, rule) in mutations {
        let mut copy = lines.clone();
        copy[target - 1] = &mutated;
        let input = copy.join("\n") + "\n";
        let expected = format!("line {at_line}, column {column}: ");
        tictactoe()
            .arg("validate")
            .write_stdin(input)
            .assert()
            .code(1)
            .stdout(predicate::str::starts_with(expected).and(predicate::str::contains(rule)))
            .stdout(predicate::str::ends_with("invalid: 1 violation\n"))
            .stderr("");
    }

    let last = lines.len();
    tictactoe()
        .arg("validate")
        .write_stdin(format!("{text}junk\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(format!(
            "line {}, column 1: unexpected data after the last case: \"junk\"",
            last + 1
        )));
    let without_final_newline = &text[..text.len() - 1];
    tictactoe()
        .arg("validate")
        .write_stdin(without_final_newline)
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(format!(
            "line {last}, column {}: missing final newline",
            lines[last - 1].len() + 1
        )));
}

#[test]
fn kattis_validators_exit_42_for_valid_and_43_for_invalid() {
    tictactoe()
        .args(["validate", "--protocol", "kattis"])
        .pipe_stdin(VALID)
        .expect("fixture exists")
        .assert()
        .code(42);
    tictactoe()
        .args([
            "validate",
            "--protocol",
            "kattis",
            "fixtures/validate/cell-taken.in",
        ])
        .assert()
        .code(43);
}

#[test]
fn testlib_validators_exit_3_with_a_fail_line_naming_the_file() {
    tictactoe()
        .args([
            "validate",
            "--protocol",
            "testlib",
            "fixtures/validate/cell-taken.in",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::starts_with(
            "fixtures/validate/cell-taken.in: line 15, column 1: case 2, move 3:",
        ))
        .stderr(
            "FAIL fixtures/validate/cell-taken.in: line 15, column 1: case 2, move 3: \
             cell (1, 1) is already taken\n",
        );
}

#[test]
fn judges_with_other_limits_set_them_with_options() {
    tictactoe()
        .args(["validate", "--max-n", "3", VALID])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "N = 4 is out of range: 1 <= N <= 3",
        ));
    tictactoe()
        .args(["validate", "--min-n", "4", "--min-t", "3", VALID])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "T = 2 is out of range: 3 <= T <= 100",
        ))
        .stdout(predicate::str::contains(
            "N = 3 is out of range: 4 <= N <= 100",
        ));
}

#[test]
fn a_missing_file_is_a_failure_to_run_not_a_verdict() {
    tictactoe()
        .args(["validate", "--protocol", "kattis", "no/such.in"])
        .assert()
        .code(66)
        .stderr(predicate::str::starts_with(
            "error: cannot open no/such.in:",
        ));
}

#[test]
fn a_word_among_kattis_validator_flags_is_named_as_one() {
    tictactoe()
        .args(["validate", "--protocol", "kattis", "small"])
        .write_stdin("1\n3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n")
        .assert()
        .code(66)
        .stderr(predicate::str::starts_with("error: cannot open small:"))
        .stderr(predicate::str::contains(
            "under --protocol kattis the input comes on standard input, so a word among \
             input_validator_flags is taken for this file",
        ));
    tictactoe()
        .args(["validate", "small"])
        .write_stdin("1\n")
        .assert()
        .code(66)
        .stderr(predicate::str::contains("input_validator_flags").not());
}

#[test]
fn an_invalid_file_keeps_status_1_when_the_reports_reader_goes_away() {
    use std::io::Write;
    use std::process::{Command as Process, Stdio};
    let (text, _) = file_at_the_limits();
    let crlf = text.replace('\n', "\r\n");
    let mut child = Process::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["validate", "--max-errors", "1000000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary runs");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // The validator may stop reading once its report cannot be written.
    let _ = stdin.write_all(crlf.as_bytes());
    drop(stdin);
    let status = child.wait().expect("binary finishes");
    assert_eq!(status.code(), Some(1));
}

#[test]
fn the_testlib_overview_log_says_which_bounds_a_valid_file_hits() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let log = dir.path().join("overview.log");
    tictactoe()
        .args([
            "validate",
            "--protocol",
            "testlib",
            "--testset",
            "tests",
            "--group",
            "1",
        ])
        .args([
            "--min-n",
            "3",
            "--max-n",
            "3",
            "--max-t",
            "1",
            "--testOverviewLogFileName",
        ])
        .arg(&log)
        .args([
            "--testMarkupFileName",
            "markup",
            "--testCase",
            "1",
            "--testCaseFileName",
            "case",
        ])
        .pipe_stdin("fixtures/validate/draw-hits-bounds.in")
        .expect("fixture exists")
        .assert()
        .code(0);
    assert_eq!(
        std::fs::read_to_string(&log).expect("log written"),
        "\"N\": min-value-hit max-value-hit\n\
         \"Q\": max-value-hit\n\
         \"T\": min-value-hit max-value-hit\n\
         constant-bounds \"N\": 3 3\n\
         constant-bounds \"Q\": 5 ?\n\
         constant-bounds \"T\": 1 1\n\
         variable \"N\"\nvariable \"Q\"\nvariable \"T\"\n"
    );
    // As testlib, only a valid file gets one.
    let invalid_log = dir.path().join("invalid.log");
    tictactoe()
        .args([
            "validate",
            "--protocol",
            "testlib",
            "--max-n",
            "2",
            "--testOverviewLogFileName",
        ])
        .arg(&invalid_log)
        .pipe_stdin("fixtures/validate/draw-hits-bounds.in")
        .expect("fixture exists")
        .assert()
        .code(3);
    assert!(!invalid_log.exists());
}

#[test]
fn an_overview_log_that_names_the_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("test.in");
    let original = std::fs::read("fixtures/validate/draw-hits-bounds.in").expect("fixture");
    std::fs::write(&input, &original).expect("input");
    // By its name, and as the standard input it is opened on.
    tictactoe()
        .args(["validate", "--testOverviewLogFileName"])
        .arg(&input)
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("would destroy the input"));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args([
            "validate",
            "--protocol",
            "testlib",
            "--testOverviewLogFileName",
        ])
        .arg(&input)
        .stdin(std::fs::File::open(&input).expect("input"))
        .output()
        .expect("binary runs")
        .status;
    // testlib's FAIL, as for any command line it cannot work with.
    assert_eq!(status.code(), Some(3));
    assert_eq!(std::fs::read(&input).expect("input"), original);
}

#[test]
fn an_overview_log_that_cannot_be_made_matters_only_for_a_valid_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("no/such/folder/log");
    // Invalid: no log is made, so none is missed.
    tictactoe()
        .args([
            "validate",
            "--protocol",
            "testlib",
            "--testOverviewLogFileName",
        ])
        .arg(&log)
        .write_stdin("x")
        .assert()
        .code(3);
    // Valid: the log cannot be made, and the message names it, not a
    // temporary file.
    tictactoe()
        .args([
            "validate",
            "--protocol",
            "testlib",
            "--testOverviewLogFileName",
        ])
        .arg(&log)
        .pipe_stdin("fixtures/validate/draw-hits-bounds.in")
        .expect("fixture exists")
        .assert()
        .code(74)
        .stderr(
            predicate::str::contains("cannot create")
                .and(predicate::str::contains("partial").not()),
        );
}

#[test]
fn an_overview_log_on_standard_output_is_all_that_is_there_as_with_testlib() {
    let output = tictactoe()
        .args([
            "validate",
            "--protocol",
            "testlib",
            "--testOverviewLogFileName",
            "stdout",
        ])
        .pipe_stdin("fixtures/validate/draw-hits-bounds.in")
        .expect("fixture exists")
        .output()
        .expect("binary runs");
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("\"N\":"), "{stdout}");
    assert!(!stdout.contains("valid"), "{stdout}");
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("valid: "));
}

#[test]
fn a_pinned_format_refuses_the_other() {
    tictactoe()
        .args([
            "validate",
            "--format",
            "coding-ninjas",
            "fixtures/leetcode/example.in",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("expected an integer, found"));
    tictactoe()
        .args(["validate", "--format", "leetcode", "--protocol", "kattis"])
        .arg("fixtures/validate/valid.in")
        .assert()
        .code(43)
        .stdout(predicate::str::contains(
            "expected the array of method names",
        ));
}

/// testlib's validators fail (3) on a command line they cannot work with;
/// a usage error's 2 once came instead, from the parser or the settings.
#[test]
fn a_testlib_validators_command_line_that_cannot_work_is_fail() {
    for (words, message) in [
        (
            &["--testset", ""][..],
            "FAIL --testset needs a non-empty value\n",
        ),
        (
            &["--testset"][..],
            "FAIL a value is required for '--testset <T>' but none was supplied\n",
        ),
        (&["--max-n", "1000000001"][..], "FAIL "),
        (
            &["--mistyped-bound", "5"][..],
            "FAIL unexpected argument '--mistyped-bound' found\n",
        ),
    ] {
        tictactoe()
            .args(["validate", "--protocol", "testlib"])
            .args(words)
            .pipe_stdin(VALID)
            .expect("input")
            .assert()
            .code(3)
            .stderr(predicate::str::starts_with(message));
    }
    // Elsewhere the usual usage error.
    tictactoe()
        .args(["validate", "--testset", ""])
        .pipe_stdin(VALID)
        .expect("input")
        .assert()
        .code(2);
}
