//! `gen` as its users meet it: valid by default, the same bytes for the same
//! command, wins of every shape, and every game of a small board.
//!
//! Golden outputs live in `fixtures/gen/` (run by `tests/fixtures.rs`); these
//! tests check the properties no single fixture can.

mod common;

use common::tictactoe;

use predicates::prelude::*;
use std::collections::BTreeSet;
use tictactoe::game::{BoardSize, Line, Outcome, Rules, TicTacToe};

fn generate(args: &[&str]) -> Vec<u8> {
    let output = tictactoe()
        .arg("gen")
        .args(args)
        .output()
        .expect("binary runs");
    assert!(output.status.success(), "gen {args:?} failed: {output:?}");
    output.stdout
}

/// How a valid file's cases ended.
#[derive(Debug, Default)]
struct Summary {
    /// (winner, line) of each won case.
    wins: BTreeSet<(u8, String)>,
    drawn: u64,
    open: u64,
}

/// Checks a file against the statement the way `validate` will: canonical
/// layout, 1 <= T <= 100, 3 <= N <= 100, 5 <= Q <= N x N, cells on the board
/// and free, players alternating, no move after a win.
fn validate(bytes: &[u8]) -> Result<Summary, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    let body = text.strip_suffix('\n').ok_or("no final newline")?;
    let mut lines = body.split('\n').enumerate().map(|(i, line)| (i + 1, line));
    let mut numbers = |count: usize| -> Result<Vec<u64>, String> {
        let (number, line) = lines.next().ok_or("file ends early")?;
        let fields: Vec<&str> = line.split(' ').collect();
        if fields.len() != count {
            return Err(format!("line {number}: {line:?} is not {count} numbers"));
        }
        fields
            .iter()
            .map(|field| match field.parse::<u64>() {
                Ok(value) if value.to_string() == *field => Ok(value),
                _ => Err(format!("line {number}: {field:?} is not canonical")),
            })
            .collect()
    };
    let t = numbers(1)?[0];
    if !(1..=100).contains(&t) {
        return Err(format!("T = {t}"));
    }
    let mut summary = Summary::default();
    for case in 1..=t {
        let n = numbers(1)?[0];
        let q = numbers(1)?[0];
        if !(3..=100).contains(&n) || q < 5 || q > n * n {
            return Err(format!("case {case}: N = {n}, Q = {q}"));
        }
        let size = BoardSize::new(n as i64).map_err(|e| e.to_string())?;
        let mut game = TicTacToe::with_rules(size, Rules::default());
        let mut previous = None;
        let mut last = Outcome::NoWin;
        for step in 1..=q {
            let fields = numbers(3)?;
            let (row, col, player) = (fields[0], fields[1], fields[2]);
            if previous == Some(player) {
                return Err(format!("case {case}, move {step}: player {player} again"));
            }
            previous = Some(player);
            last = game
                .play(row as i64, col as i64, player as i64)
                .map_err(|e| format!("case {case}, move {step}: {e}"))?;
            if let Outcome::Win(winner) = last {
                let line = game
                    .full_line_through(row as u32, col as u32)
                    .ok_or("a win with no full line")?;
                let kind = match line {
                    Line::Row(_) => "row",
                    Line::Column(_) => "column",
                    Line::Diagonal => "diagonal",
                    Line::AntiDiagonal => "anti-diagonal",
                };
                summary.wins.insert((winner.number(), kind.to_owned()));
            }
        }
        match last {
            Outcome::Win(_) => {}
            Outcome::NoWin if q == n * n => summary.drawn += 1,
            Outcome::NoWin => summary.open += 1,
        }
    }
    if lines.next().is_some() {
        return Err("data after the last case".into());
    }
    Ok(summary)
}

#[test]
fn gen_output_is_valid_under_the_statements_limits() {
    for args in [
        vec![],
        vec!["--seed", "11", "--cases", "100", "--max-n", "100"],
        vec!["--seed", "12", "--outcome", "win", "--cases", "100"],
        vec!["--seed", "13", "--outcome", "draw", "--cases", "30"],
        vec!["--seed", "14", "--outcome", "open", "--cases", "100"],
        vec![
            "--seed", "15", "--min-n", "3", "--max-n", "3", "--cases", "100",
        ],
        vec![
            "--seed", "16", "--min-n", "100", "--max-n", "100", "--cases", "5",
        ],
    ] {
        if let Err(why) = validate(&generate(&args)) {
            panic!("gen {args:?} is invalid: {why}");
        }
    }
}

#[test]
fn mixed_files_hold_wins_draws_and_unfinished_games() {
    let summary = validate(&generate(&[
        "--seed", "2", "--cases", "100", "--max-n", "4",
    ]))
    .expect("valid");
    assert!(!summary.wins.is_empty() && summary.drawn > 0 && summary.open > 0);
}

#[test]
fn wins_cover_rows_columns_both_diagonals_and_both_players() {
    let summary = validate(&generate(&[
        "--seed",
        "3",
        "--outcome",
        "win",
        "--cases",
        "100",
    ]))
    .expect("valid");
    let mut expected = BTreeSet::new();
    for player in [1, 2] {
        for kind in ["row", "column", "diagonal", "anti-diagonal"] {
            expected.insert((player, kind.to_owned()));
        }
    }
    assert_eq!(summary.wins, expected);
}

#[test]
fn the_same_command_gives_the_same_bytes_and_another_seed_other_bytes() {
    let first = generate(&["--seed", "42", "--cases", "20"]);
    let again = generate(&["--seed", "42", "--cases", "20"]);
    let other = generate(&["--seed", "43", "--cases", "20"]);
    assert_eq!(first, again);
    assert_ne!(first, other);
}

#[test]
fn without_a_seed_the_settings_name_the_file_whatever_their_spelling() {
    let spelled = generate(&["--cases", "5", "--outcome", "win"]);
    let respelled = generate(&["--outcome=win", "-t", "5"]);
    let other = generate(&["--cases", "6", "--outcome", "win"]);
    assert_eq!(spelled, respelled);
    assert_ne!(spelled, other);
}

#[test]
fn all_games_of_three_by_three_are_the_known_255168() {
    let output = tictactoe()
        .args(["gen", "--all-games", "3"])
        .output()
        .expect("binary runs");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("ASCII");
    let declared: u64 = text
        .lines()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("T on line 1");
    assert_eq!(declared, 255_168);
    // The solver accepts every game with no move after a win.
    tictactoe()
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicate::function(|out: &str| {
            out.lines().count() == 255_168
        }));
}

#[test]
fn all_games_refuses_the_random_files_settings_rather_than_ignore_them() {
    for setting in [
        &["--cases", "5"][..],
        &["--min-n", "2"],
        &["--max-n", "3"],
        &["--max-moves", "4"],
        &["--limits", "relaxed"],
        &["--seed", "1"],
        &["--outcome", "win"],
    ] {
        tictactoe()
            .args(["gen", "--all-games", "2"])
            .args(setting)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("cannot be used with"));
    }
}

#[test]
fn play_past_win_makes_files_only_the_lenient_policies_accept() {
    let past = generate(&[
        "--seed",
        "4",
        "--outcome",
        "win",
        "--play-past-win",
        "--cases",
        "5",
    ]);
    tictactoe()
        .write_stdin(past.clone())
        .assert()
        .code(65)
        .stderr(predicate::str::contains("already won"));
    tictactoe()
        .args(["--after-win", "continue"])
        .write_stdin(past)
        .assert()
        .success();
}

#[test]
fn relaxed_limits_reach_a_billion_by_a_billion_and_stay_solvable() {
    let huge = generate(&[
        "--seed",
        "5",
        "--limits",
        "relaxed",
        "--cases",
        "200",
        "--min-n",
        "1",
        "--max-n",
        "1000000000",
        "--max-moves",
        "50",
    ]);
    tictactoe().write_stdin(huge).assert().success();
}

#[test]
fn a_folder_gets_numbered_tests_with_the_solvers_answers() {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .args(["gen", "--seed", "6", "--count", "3", "--out-dir"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout("");
    for name in ["01", "02", "03"] {
        let input = dir.path().join(format!("{name}.in"));
        let answer = std::fs::read(dir.path().join(format!("{name}.ans"))).expect(".ans");
        validate(&std::fs::read(&input).expect(".in")).expect("valid");
        tictactoe().arg(&input).assert().success().stdout(answer);
    }
    let first = std::fs::read(dir.path().join("01.in")).expect("01.in");
    let second = std::fs::read(dir.path().join("02.in")).expect("02.in");
    assert_ne!(first, second, "each test of a folder is its own");
}

#[test]
fn a_folder_left_halfway_is_finished_by_the_same_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let generate = |seed: &str| {
        let mut command = tictactoe();
        command
            .args(["gen", "--seed", seed, "--count", "4", "--out-dir"])
            .arg(dir.path());
        command
    };
    generate("6").assert().success();
    let read = |name: &str| std::fs::read(dir.path().join(name)).expect("test written");
    let whole: Vec<Vec<u8>> = ["02.ans", "03.in", "03.ans", "04.in", "04.ans"]
        .into_iter()
        .map(read)
        .collect();
    // As a run stopped after 02.in leaves the folder.
    for name in ["02.ans", "03.in", "03.ans", "04.in", "04.ans"] {
        std::fs::remove_file(dir.path().join(name)).expect("test removed");
    }
    generate("6").assert().success().stderr("");
    let again: Vec<Vec<u8>> = ["02.ans", "03.in", "03.ans", "04.in", "04.ans"]
        .into_iter()
        .map(read)
        .collect();
    assert_eq!(whole, again);
    // Another seed's tests are other bytes: nothing is replaced, or written.
    std::fs::remove_file(dir.path().join("04.ans")).expect("answer removed");
    generate("7")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "01.in exists and is not what this command writes",
        ));
    assert!(!dir.path().join("04.ans").exists());
    assert_eq!(read("03.in"), whole[1]);
    // An answer without its input is not this command's either.
    std::fs::remove_file(dir.path().join("03.in")).expect("input removed");
    generate("6")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("03.ans exists and"))
        .stderr(predicate::str::contains("03.in does not"));
}

/// Unix only: FIFOs and symbolic links are made the Unix way.
#[cfg(unix)]
#[test]
fn tests_that_are_not_plain_files_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let refused = |name: &str| {
        tictactoe()
            .args(["gen", "--seed", "5", "--count", "3", "--out-dir"])
            .arg(dir.path())
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{name} exists and is not a plain file"
            )));
        assert!(!dir.path().join("01.ans").exists(), "nothing written");
    };
    // A FIFO would wait for a writer forever.
    let fifo = dir.path().join("02.in");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.expect("mkfifo runs").success());
    refused("02.in");
    std::fs::remove_file(&fifo).expect("FIFO removed");
    std::fs::create_dir(dir.path().join("01.in")).expect("folder made");
    refused("01.in");
    std::fs::remove_dir(dir.path().join("01.in")).expect("folder removed");
    std::os::unix::fs::symlink("/nonexistent/x", dir.path().join("03.ans")).expect("link made");
    refused("03.ans");
}

#[test]
fn a_folder_keeps_one_numbering_unless_forced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let generate = |count: &str, force: bool| {
        let mut command = tictactoe();
        command
            .args(["gen", "--seed", "6", "--count", count, "--out-dir"])
            .arg(dir.path())
            .args(force.then_some("--force"));
        command
    };
    generate("3", false).assert().success();
    // Hand-made tests beside them are no numbering of gen's.
    for name in ["1.in", "2024.in"] {
        std::fs::write(dir.path().join(name), "1\n3\n5\n").expect("hand-made test");
    }
    generate("100", false)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("numbered for another --count"))
        .stderr(predicate::str::contains("001.in to"));
    assert!(!dir.path().join("001.in").exists());
    generate("100", true).assert().success();
    assert!(dir.path().join("100.ans").exists());
    generate("4", false).assert().code(2);
    tictactoe()
        .args(["gen", "--count", "0", "--out-dir"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--count"));
}

#[test]
fn settings_that_cannot_make_a_file_are_a_usage_error_that_says_why() {
    tictactoe()
        .args(["gen", "--cases", "101"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 100 cases"));
    tictactoe()
        .args(["gen", "--outcome", "draw", "--max-moves", "8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("drawn"));
    // Answers are computed only for a folder: a policy for none is refused,
    // not ignored.
    tictactoe()
        .args(["gen", "--after-win", "continue"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--out-dir <DIR>"));
    tictactoe()
        .args(["gen", "--limits", "relaxed", "--max-n", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unless given, --min-n is 3"));
}

#[test]
fn gen_output_passes_the_validator() {
    for args in [
        &["--seed", "1"][..],
        &["--cases", "100", "--max-n", "100", "--seed", "2"],
        &["--outcome", "win", "--cases", "50"],
        &["--outcome", "draw", "--cases", "20", "--max-n", "5"],
        &["--outcome", "open", "--cases", "30", "--format", "leetcode"],
    ] {
        let file = generate(args);
        tictactoe()
            .arg("validate")
            .write_stdin(file)
            .assert()
            .success()
            .stdout(predicate::str::starts_with("valid: "));
    }
}

#[test]
fn gen_in_leetcode_format_writes_what_convert_would() {
    let coding_ninjas = generate(&["--cases", "12", "--seed", "9"]);
    let leetcode = generate(&["--cases", "12", "--seed", "9", "--format", "leetcode"]);
    let converted = tictactoe()
        .args(["convert", "--to", "leetcode"])
        .write_stdin(coding_ninjas.clone())
        .output()
        .expect("binary runs");
    assert!(converted.status.success());
    assert_eq!(
        String::from_utf8_lossy(&leetcode),
        String::from_utf8_lossy(&converted.stdout)
    );
    // And the solver gives the same answers to both.
    let solve = |input: Vec<u8>| {
        let output = tictactoe()
            .write_stdin(input)
            .output()
            .expect("binary runs");
        assert!(output.status.success());
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let plain: Vec<String> = solve(coding_ninjas)
        .lines()
        .map(|line| {
            format!(
                "[null{}]",
                line.split(' ').map(|r| format!(",{r}")).collect::<String>()
            )
        })
        .collect();
    let transcripts: Vec<String> = solve(leetcode).lines().map(str::to_owned).collect();
    assert_eq!(plain, transcripts);
}

// Unix only: `test` supervises solutions on Unix only.
#[cfg(unix)]
#[test]
fn a_leetcode_test_folder_has_leetcode_answers() {
    let dir = tempfile::tempdir().expect("temporary directory");
    tictactoe()
        .args(["gen", "--count", "2", "--format", "leetcode", "--out-dir"])
        .arg(dir.path())
        .assert()
        .success();
    let answer = std::fs::read_to_string(dir.path().join("01.ans")).expect("answer written");
    assert!(answer.starts_with("[null,"), "{answer}");
    tictactoe().arg("test").arg(dir.path()).assert().success();
    // Without its answer file, a LeetCode test is judged by the built-in solver.
    std::fs::remove_file(dir.path().join("02.ans")).expect("answer exists");
    tictactoe()
        .arg("test")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("2 passed, 0 failed"));
}
