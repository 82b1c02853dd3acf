//! `trace`: the board after every move, plain when piped, coloured on a
//! terminal, windowed when large, and the same errors as `solve`.

mod common;

use common::tictactoe;

use assert_cmd::Command;
use predicates::prelude::*;
use std::fs;
use std::path::Path;

const EXAMPLE: &str = "fixtures/solve/leetcode-example.in";

fn stdout_of(command: &mut Command) -> String {
    let output = command.output().expect("binary runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("trace is UTF-8")
}

#[test]
fn the_example_shows_seven_boards_ending_in_the_win() {
    let trace = stdout_of(tictactoe().args(["trace", EXAMPLE]));
    assert_eq!(trace.matches("\nmove ").count(), 7);
    assert!(
        trace.ends_with(
            "move 7: player 1 (X) at (2, 1) -> 1, player 1 wins (row 2)\n\
             |X| |O|\n\
             |O|O| |\n\
             |X|X|X|\n"
        ),
        "{trace}"
    );
    assert!(trace.starts_with(
        "case 1: a 3 x 3 board, 7 moves\n\nmove 1: player 1 (X) at (0, 0) -> 0\n|X| | |\n"
    ));
}

#[test]
fn a_leetcode_transcript_traces_the_same_as_its_coding_ninjas_twin() {
    let coding_ninjas = stdout_of(tictactoe().args(["trace", EXAMPLE]));
    let leetcode = stdout_of(tictactoe().args(["trace", "fixtures/leetcode/example.in"]));
    assert_eq!(leetcode, coding_ninjas);
}

#[test]
fn piped_output_is_plain_and_forced_colour_highlights_the_win() {
    let plain = stdout_of(tictactoe().args(["trace", EXAMPLE]));
    assert!(!plain.contains('\u{1b}'));
    let coloured = stdout_of(
        tictactoe()
            .args(["trace", EXAMPLE])
            .env("CLICOLOR_FORCE", "1"),
    );
    // Reverse video marks the winning line; X and O differ in colour.
    assert!(coloured.contains("\u{1b}[7m"), "{coloured:?}");
    assert!(coloured.contains("\u{1b}[31mX"), "{coloured:?}");
    assert!(coloured.contains("\u{1b}[34mO"), "{coloured:?}");
}

#[test]
fn clicolor_force_0_forces_nothing() {
    let trace = stdout_of(
        tictactoe()
            .args(["trace", EXAMPLE])
            .env_remove("NO_COLOR")
            .env("CLICOLOR_FORCE", "0"),
    );
    assert!(!trace.contains('\u{1b}'), "{trace:?}");
}

#[test]
fn no_color_wins_over_forced_colour() {
    let trace = stdout_of(
        tictactoe()
            .args(["trace", EXAMPLE])
            .env("CLICOLOR_FORCE", "1")
            .env("NO_COLOR", "1"),
    );
    assert!(!trace.contains('\u{1b}'));
}

/// The trace's screen on a pseudo-terminal (`script`'s) with these
/// variables set (`None`: removed), or `None` where no terminal is to be had.
fn on_a_terminal(variables: &[(&str, Option<&str>)]) -> Option<String> {
    let binary = env!("CARGO_BIN_EXE_tictactoe");
    let mut script = std::process::Command::new("script");
    script
        .args(["-qec", &format!("{binary} trace {EXAMPLE}"), "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null());
    for name in ["TERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI"] {
        script.env_remove(name);
    }
    for &(name, value) in variables {
        if let Some(value) = value {
            script.env(name, value);
        }
    }
    let Ok(output) = script.output() else {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return None;
    };
    if output.stdout.is_empty() {
        eprintln!("skipped: `script` could not open a pseudo-terminal here");
        return None;
    }
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn a_terminal_gets_colour() {
    let Some(screen) = on_a_terminal(&[("TERM", Some("xterm"))]) else {
        return;
    };
    assert!(screen.contains("\u{1b}[7m"), "{screen:?}");
}

#[test]
fn clicolor_force_0_on_a_terminal_leaves_the_usual_rules() {
    // As if unset: colour on a terminal that has it, none on one without
    // TERM (a bare environment), as anstream decides.
    let cases = [
        (Some("xterm"), None, true),
        (None, None, false),
        (Some("dumb"), None, false),
        (Some("dumb"), Some("true"), true),
    ];
    for (term, ci, coloured) in cases {
        let variables = [("TERM", term), ("CI", ci), ("CLICOLOR_FORCE", Some("0"))];
        let Some(screen) = on_a_terminal(&variables) else {
            return;
        };
        assert_eq!(
            screen.contains('\u{1b}'),
            coloured,
            "TERM {term:?}, CI {ci:?}: {screen:?}"
        );
    }
}

#[test]
fn counters_show_the_running_sums_that_reach_n_on_the_win() {
    let trace = stdout_of(tictactoe().args(["trace", "--counters", EXAMPLE]));
    assert!(trace.ends_with(
        "|X|X|X|\nsums (X +1, O -1; full at +-3): rows 0 -2 3 | columns 1 0 0 | diagonal 1 | anti-diagonal -1\n"
    ), "{trace}");
}

#[test]
fn a_large_board_shows_a_window_and_says_so() {
    let trace = stdout_of(
        tictactoe()
            .args(["trace", "--window", "3"])
            .write_stdin("1\n1000000000\n1\n500 999999999 2\n"),
    );
    assert_eq!(
        trace,
        "case 1: a 1000000000 x 1000000000 board, 1 move\n\
         the board is wider than 3 cells: each move shows the 3 x 3 cells around it \
         (--window CELLS to change)\n\
         \n\
         move 1: player 2 (O) at (500, 999999999) -> 0\n\
         rows 499..=501, columns 999999997..=999999999 of a 1000000000 x 1000000000 board:\n\
         | | | |\n| | |O|\n| | | |\n"
    );
}

#[test]
fn case_picks_one_case_and_a_missing_case_is_a_data_error() {
    tictactoe()
        .args([
            "trace",
            "--case",
            "2",
            "fixtures/solve/after-win-error.in",
            "--after-win",
            "continue",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "case 2: a 2 x 2 board, 4 moves\n",
        ))
        .stdout(predicate::str::contains(
            "move 4: player 2 (O) at (1, 1) -> 2, player 2 wins (column 1)",
        ));
    tictactoe()
        .args(["trace", "--case", "3", EXAMPLE])
        .assert()
        .code(65)
        .stdout("")
        .stderr(format!(
            "error: {EXAMPLE}: the input has 1 case, so there is no case 3\n"
        ));
    tictactoe()
        .args(["trace", "--case", "0", EXAMPLE])
        .assert()
        .code(2);
}

#[test]
fn bad_input_gets_the_same_error_as_solve_after_the_boards_before_it() {
    let input = "fixtures/solve/err-cell-taken.in";
    let solve = tictactoe().arg(input).output().expect("binary runs");
    let trace = tictactoe()
        .args(["trace", "--case", "2", input])
        .output()
        .expect("binary runs");
    assert_eq!(trace.status.code(), Some(65));
    assert_eq!(trace.stderr, solve.stderr);
    let boards = String::from_utf8_lossy(&trace.stdout);
    assert_eq!(boards.matches("\nmove ").count(), 2, "{boards}");
    // A bad case after the one traced is still found, as `solve` finds it.
    tictactoe()
        .args(["trace", "--case", "1", input])
        .assert()
        .code(65)
        .stderr(String::from_utf8_lossy(&solve.stderr).into_owned());
}

#[test]
fn the_trace_fixtures_exist_for_the_walker() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expected = fs::read_to_string(root.join("fixtures/trace/example.out")).expect("fixture");
    assert_eq!(stdout_of(tictactoe().args(["trace", EXAMPLE])), expected);
}

#[test]
fn color_always_and_never_override_the_terminal_and_the_environment() {
    let forced = stdout_of(
        tictactoe()
            .args(["trace", "--color", "always", EXAMPLE])
            .env("NO_COLOR", "1"),
    );
    assert!(forced.contains("\u{1b}[7m"), "{forced:?}");
    let plain = stdout_of(
        tictactoe()
            .args(["trace", "--color", "never", EXAMPLE])
            .env("CLICOLOR_FORCE", "1"),
    );
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
}
