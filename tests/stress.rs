//! `stress` as its users meet it: it finds planted bugs in small solutions
//! from `fixtures/solutions/`, shrinks each to one short case, saves it with
//! the reference's answer and draws the game.

// Unix only: `stress` supervises solutions on Unix only, and they are Python and shell scripts.
#![cfg(unix)]

mod common;

use common::tictactoe;

use predicates::prelude::*;
use std::fs;
use std::path::Path;

/// The number of cases and the moves of each case of a saved input.
fn cases_and_moves(input: &Path) -> (u64, Vec<u64>) {
    let text = fs::read_to_string(input).expect("failing.in is saved");
    let numbers: Vec<u64> = text
        .split_whitespace()
        .map(|token| token.parse().expect("an integer"))
        .collect();
    let mut at = 1;
    let mut moves = Vec::new();
    for _ in 0..numbers[0] {
        let q = numbers[at + 1];
        moves.push(q);
        at += 2 + 3 * q as usize;
    }
    (numbers[0], moves)
}

/// Runs stress on a planted bug and checks the shrunk input it saves.
fn finds_and_shrinks(solution: &str, options: &[&str], explanation: &str, most_moves: u64) {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .args([
            "stress",
            "-c",
            &format!("python3 fixtures/solutions/{solution}"),
        ])
        .args(options)
        // Generous, so that a loaded machine cannot turn a run into a timeout.
        .args(["--time-limit", "20"])
        .arg("--save-dir")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("shrunk in"))
        .stdout(predicate::str::contains(explanation))
        .stdout(predicate::str::contains("<- differs"));
    let input = dir.path().join("failing.in");
    let (cases, moves) = cases_and_moves(&input);
    assert_eq!(cases, 1, "shrunk to a single case");
    assert!(
        moves[0] <= most_moves,
        "shrunk to at most {most_moves} moves, not {}",
        moves[0]
    );
    // The saved answer is the reference's, under the policy of the hunt.
    let answer = fs::read(dir.path().join("failing.ans")).expect("failing.ans is saved");
    let policy: Vec<&str> = options
        .windows(2)
        .filter(|pair| pair[0] == "--after-win")
        .flat_map(|pair| ["--after-win", pair[1]])
        .collect();
    tictactoe()
        .args(&policy)
        .arg(&input)
        .assert()
        .success()
        .stdout(answer);
}

#[test]
fn stress_finds_a_solution_that_forgets_the_anti_diagonal_and_shrinks_it() {
    finds_and_shrinks(
        "forgets-anti-diagonal.py",
        &["--seed", "1"],
        "WA: case 1, move 5: expected 1, found 0",
        8,
    );
}

#[test]
fn stress_hunts_leetcodes_after_win_rule_with_games_that_go_on_past_the_win() {
    finds_and_shrinks(
        "leetcode-after-win.py",
        &["--seed", "1", "--after-win", "continue", "--play-past-win"],
        "WA: case 1, move 6: expected 0, found 2",
        8,
    );
}

#[test]
fn stress_shrinks_big_boards_as_far_as_the_bounds_let_it() {
    finds_and_shrinks(
        "forgets-anti-diagonal.py",
        &[
            "--seed",
            "14069045116844733652",
            "--min-n",
            "6",
            "--max-n",
            "6",
            "--cases",
            "5",
        ],
        "shrunk in",
        // N stays 6, as asked: the anti-diagonal takes 6 moves of X and 5 of O.
        11,
    );
}

/// The board size N of a saved input's first case.
fn first_board(input: &Path) -> u64 {
    let text = fs::read_to_string(input).expect("failing.in is saved");
    let mut numbers = text.split_whitespace();
    numbers.next();
    numbers.next().expect("N").parse().expect("an integer")
}

#[test]
fn stress_shrinks_a_board_of_up_to_a_billion_in_steps_its_moves_bound_not_n() {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .args([
            "stress",
            "-c",
            "python3 fixtures/solutions/wrong-past-1000.py",
        ])
        .args([
            "--limits",
            "relaxed",
            "--min-n",
            "6",
            "--max-n",
            "1000000000",
        ])
        .args(["--max-moves", "5", "--cases", "3", "--seed", "1"])
        .args(["--time-limit", "20", "--save-dir"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("shrunk in"));
    let input = dir.path().join("failing.in");
    assert_eq!(cases_and_moves(&input), (1, vec![1]));
    // The smallest board it fails on, found by halving the empty rows and
    // columns away, then one at a time.
    assert_eq!(first_board(&input), 1001);
}

#[test]
fn stress_keeps_the_board_its_bounds_pin_however_large() {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .args(["stress", "-c", "python3 fixtures/solutions/sleep.py"])
        .args([
            "--limits",
            "relaxed",
            "--min-n",
            "1000000000",
            "--max-n",
            "1000000000",
        ])
        .args(["--max-moves", "5", "--cases", "1", "--seed", "1"])
        .args(["--time-limit", "0.5", "--save-dir"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("TLE"));
    assert_eq!(first_board(&dir.path().join("failing.in")), 1_000_000_000);
}

/// A shrunk input once came with no hint that it may not fail again.
#[test]
fn a_solution_that_fails_only_now_and_then_is_told_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let command = format!(
        "python3 fixtures/solutions/fails-every-other-run.py {} {}",
        common::binary().display(),
        dir.path().join("runs").display()
    );
    tictactoe()
        .args(["stress", "-c", &command, "--seed", "3", "--save-dir"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "note: run again 2 times, the solution did not fail this input the same way 1 time: it fails only now and then",
        ));
    // A solution that always fails gets no such note.
    let wrong = format!(
        "python3 fixtures/solutions/variant.py first-result-wrong {}",
        common::binary().display()
    );
    tictactoe()
        .args(["stress", "-c", &wrong, "--seed", "3", "--save-dir"])
        .arg(dir.path().join("always"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("note:").not());
}

#[test]
fn stress_reports_a_crash_as_runtime_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .args([
            "stress",
            "-c",
            "python3 fixtures/solutions/crash.py",
            "--seed",
            "3",
        ])
        .arg("--save-dir")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("RE: exit status 1\n    Traceback"));
}

#[test]
fn stress_finds_nothing_in_the_built_in_solver_within_its_budget() {
    let solver = assert_cmd::cargo::cargo_bin("tictactoe");
    tictactoe()
        .args([
            "stress",
            "--iterations",
            "25",
            "--seed",
            "3",
            "--time-limit",
            "20",
            "-c",
        ])
        .arg(shell_words_quote(&solver))
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "no difference in 25 inputs (seed 3,",
        ));
}

#[test]
fn games_past_the_win_need_a_policy_that_accepts_them() {
    tictactoe()
        .args(["stress", "-c", "true", "--play-past-win"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--after-win continue or leetcode"));
}

fn shell_words_quote(path: &Path) -> String {
    format!("'{}'", path.display())
}

#[test]
fn every_shrink_step_keeps_the_bounds_given_and_the_statements() {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .args([
            "stress",
            "-c",
            "python3 fixtures/solutions/forgets-anti-diagonal.py",
        ])
        .args(["--min-n", "4", "--max-n", "6", "--time-limit", "20"])
        .arg("--save-dir")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("shrunk in"));
    let input = dir.path().join("failing.in");
    let (_, moves) = cases_and_moves(&input);
    assert!(moves.iter().all(|&q| q >= 5), "{moves:?}");
    // The saved input is one the statement's validator, with those bounds, accepts.
    tictactoe()
        .args(["validate", "--min-n", "4", "--max-n", "6"])
        .arg(&input)
        .assert()
        .success();
}

#[test]
fn stress_tests_a_leetcode_solution_with_transcripts() {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .args([
            "stress",
            "--format",
            "leetcode",
            "--seed",
            "1",
            "--time-limit",
            "20",
        ])
        .args([
            "-c",
            "python3 fixtures/solutions/leetcode-forgets-anti-diagonal.py",
        ])
        .arg("--save-dir")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("shrunk in"))
        .stdout(predicate::str::contains("<- differs"));
    let input = fs::read_to_string(dir.path().join("failing.in")).expect("failing.in");
    assert!(input.starts_with("[\"TicTacToe\""), "{input}");
    let answer = fs::read_to_string(dir.path().join("failing.ans")).expect("failing.ans");
    assert!(answer.starts_with("[null,"), "{answer}");
    // The saved answer is the reference's on the saved transcript.
    tictactoe()
        .arg(dir.path().join("failing.in"))
        .assert()
        .success()
        .stdout(answer);
}

#[test]
fn a_long_search_says_it_lives_every_few_seconds_and_ends_with_a_summary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let solver = assert_cmd::cargo::cargo_bin("tictactoe");
    let slow = format!("sh -c 'sleep 0.2; exec \"{}\" solve'", solver.display());
    let output = tictactoe()
        .args(["stress", "-c", &slow, "--time", "6", "--time-limit", "20"])
        .arg("--save-dir")
        .arg(dir.path())
        .output()
        .expect("stress runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    // Standard error is a pipe here, not a terminal: lines, not a bar.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("stress: ") && stderr.contains(" inputs tried, no difference yet"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("runs of the solution, the longest"),
        "{stdout}"
    );
}

#[test]
fn a_save_folder_that_cannot_be_written_is_refused_before_the_search() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    fs::write(&file, "").expect("file");
    tictactoe()
        .args([
            "stress",
            "-c",
            "python3 fixtures/solutions/crash.py",
            "--save-dir",
        ])
        .arg(file.join("below"))
        .assert()
        .code(74)
        .stdout("")
        .stderr(predicate::str::contains("is not a folder"));
}

#[test]
fn a_save_that_fails_at_the_end_still_shows_the_failing_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let save = dir.path().join("save");
    // A wrong solution that puts a file where the folder was to be made.
    let blocked = |options: &[&str]| {
        // A file left by an earlier run would be refused before the search.
        let _ = fs::remove_file(&save);
        let mut run = tictactoe();
        run.args([
            "stress",
            "-c",
            "fixtures/solutions/wrong-and-blocks-the-save-folder.sh",
        ])
        .args(["--seed", "1", "--time-limit", "20"])
        .args(options)
        .arg("--save-dir")
        .arg(&save)
        .env("BLOCKED_SAVE_DIR", &save);
        run.assert().code(74)
    };
    blocked(&[])
        .stdout(predicate::str::contains("the failing input:\n1\n3\n5\n"))
        .stdout(predicate::str::contains("case 1, N = 3:"))
        .stderr(predicate::str::contains("cannot create"));
    let json = blocked(&["--json"]).get_output().stdout.clone();
    let json: serde_json::Value = serde_json::from_slice(&json).expect("one JSON document");
    let found = &json["found"];
    assert_eq!(found["input_file"], serde_json::Value::Null, "{json}");
    assert!(
        found["input"]
            .as_str()
            .is_some_and(|input| input.starts_with("1\n3\n5\n")),
        "{json}"
    );
    assert!(
        found["not_saved"]
            .as_str()
            .is_some_and(|why| why.contains("cannot create")),
        "{json}"
    );
}

/// A failure only long inputs show shrinks slowly, a run of the solution a
/// step: `--shrink-time` stops it, and the smallest failing input found so
/// far is saved (it once shrank for as long as it took, past `--time`).
#[test]
fn a_shrink_out_of_time_saves_the_smallest_failing_input_found_so_far() {
    let dir = tempfile::tempdir().expect("temp dir");
    let solution = "python3 fixtures/solutions/wrong-past-4-kib.py";
    tictactoe()
        .args([
            "stress", "-c", solution, "--seed", "1", "--limits", "relaxed",
        ])
        .args(["--cases", "20", "--min-n", "10", "--max-n", "20"])
        .args(["--time-limit", "20", "--shrink-time", "1"])
        .arg("--save-dir")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "(stopped by --shrink-time 1s: the smallest found so far)",
        ));
    let input = dir.path().join("failing.in");
    assert!(fs::metadata(&input).expect("failing.in is saved").len() > 4096);
    let answer = fs::read(dir.path().join("failing.ans")).expect("failing.ans is saved");
    tictactoe().arg(&input).assert().success().stdout(answer);
}

/// The input found is on disk before it is said to be found, and so before
/// the shrinking: a run stopped then (Ctrl-C, a CI job's timeout) keeps it.
#[test]
fn an_input_found_is_saved_before_it_is_shrunk() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut stress = std::process::Command::new(common::binary())
        .args([
            "stress",
            "-c",
            "python3 fixtures/solutions/wrong-past-4-kib.py",
        ])
        .args(["--seed", "1", "--limits", "relaxed", "--cases", "20"])
        .args(["--min-n", "10", "--max-n", "20", "--shrink-time", "600"])
        .arg("--save-dir")
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("stress starts");
    let mut first = String::new();
    let stdout = stress.stdout.take().expect("piped");
    std::io::BufReader::new(stdout)
        .read_line(&mut first)
        .expect("a line");
    stress.kill().expect("stress is stopped");
    stress.wait().expect("stress ends");
    assert!(first.contains(": WA: "), "{first}");
    let input = dir.path().join("failing.in");
    assert!(fs::metadata(&input).expect("failing.in is saved").len() > 4096);
    let answer = fs::read(dir.path().join("failing.ans")).expect("failing.ans is saved");
    tictactoe().arg(&input).assert().success().stdout(answer);
}

/// A failure on a long game's last move shows the moves before it, not
/// every board of the game: one of 46,785 moves once printed 28 MB.
#[test]
fn a_long_failing_game_is_traced_up_to_its_difference_not_board_by_board() {
    let dir = tempfile::tempdir().expect("temp dir");
    let solution = "python3 fixtures/solutions/misses-late-wins.py";
    let output = tictactoe()
        .args([
            "stress", "-c", solution, "--seed", "1", "--limits", "relaxed",
        ])
        .args([
            "--cases",
            "1",
            "--min-n",
            "40",
            "--max-n",
            "40",
            "--outcome",
            "win",
        ])
        .args(["--time-limit", "20", "--shrink-time", "0"])
        .arg("--save-dir")
        .arg(dir.path())
        .output()
        .expect("stress runs");
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        common::describe(&output)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let moves_shown = stdout
        .lines()
        .filter(|line| line.starts_with("move "))
        .count();
    let boards = stdout.matches("of a 40 x 40 board").count();
    assert!(
        stdout.contains("not shown (`tictactoe trace --case 1 --after-win error ")
            && stdout.contains("<- differs")
            && moves_shown == 10
            && boards == 3,
        "{moves_shown} moves, {boards} boards: {stdout}"
    );
}
