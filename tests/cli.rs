//! The binary as its users meet it: arguments, files, streams and exit statuses.

mod common;

use common::tictactoe;

use predicates::prelude::*;
use std::io::Write;
use std::process::{Command as Process, Stdio};

const EXAMPLE: &str = "fixtures/solve/leetcode-example.in";
const EXAMPLE_OUT: &str = "0 0 0 0 0 0 1\n";

#[test]
fn solve_reads_a_file_named_on_the_command_line() {
    tictactoe()
        .arg(EXAMPLE)
        .assert()
        .success()
        .stdout(EXAMPLE_OUT);
}

#[test]
fn solve_is_also_reachable_by_name_and_dash_means_stdin() {
    tictactoe()
        .args(["solve", "-"])
        .pipe_stdin(EXAMPLE)
        .expect("fixture exists")
        .assert()
        .success()
        .stdout(EXAMPLE_OUT);
}

#[test]
fn several_files_are_solved_in_order_each_with_its_own_t() {
    tictactoe()
        .args([EXAMPLE, "fixtures/solve/one-by-one.in", EXAMPLE])
        .assert()
        .success()
        .stdout(format!("{EXAMPLE_OUT}2\n{EXAMPLE_OUT}"));
}

#[test]
fn an_error_in_a_later_file_keeps_every_completed_line_before_it() {
    tictactoe()
        .args([EXAMPLE, "fixtures/solve/err-cell-taken.in", EXAMPLE])
        .assert()
        .code(65)
        .stdout(format!("{EXAMPLE_OUT}0\n"))
        .stderr(
            "error: fixtures/solve/err-cell-taken.in: line 9, column 1: case 2, move 3: \
             cell (0, 0) is already taken\n",
        );
}

#[test]
fn output_goes_to_the_file_given_with_dash_o() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = dir.path().join("out.txt");
    tictactoe()
        .arg(EXAMPLE)
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        std::fs::read_to_string(out).expect("output written"),
        EXAMPLE_OUT
    );
    // `-o -` is standard output, not a file named `-`.
    for command in [&[][..], &["convert", "--to", "coding-ninjas"]] {
        tictactoe()
            .current_dir(dir.path())
            .args(command)
            .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE))
            .args(["-o", "-"])
            .assert()
            .success()
            .stdout(predicate::str::is_empty().not());
        assert!(!dir.path().join("-").exists());
    }
}

#[test]
fn a_missing_input_file_exits_66_with_its_name() {
    tictactoe()
        .arg("no/such/file.in")
        .assert()
        .code(66)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "error: cannot open no/such/file.in:",
        ));
}

#[test]
fn a_directory_as_input_exits_66() {
    tictactoe()
        .arg("fixtures")
        .assert()
        .code(66)
        .stderr(predicate::str::contains(
            "cannot open fixtures: is a directory",
        ));
}

#[test]
fn an_output_file_that_cannot_be_created_exits_74() {
    tictactoe()
        .args([EXAMPLE, "-o", "no/such/dir/out.txt"])
        .assert()
        .code(74)
        .stderr(predicate::str::starts_with(
            "error: cannot create no/such/dir/out.txt:",
        ));
}

/// Linux only: `/dev/full` is Linux's.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_exits_74_with_a_message() {
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    let status = Process::new(env!("CARGO_BIN_EXE_tictactoe"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg(EXAMPLE)
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("binary runs");
    assert_eq!(status.status.code(), Some(74));
    let stderr = String::from_utf8_lossy(&status.stderr);
    assert!(
        stderr.starts_with("error: cannot write the output:"),
        "{stderr}"
    );
}

/// Help and the version are the output asked for: on a full disk they are
/// lost, as results would be, and say so; a reader that left early is no
/// error. Linux only: `/dev/full`.
#[cfg(target_os = "linux")]
#[test]
fn help_and_the_version_on_a_full_disk_exit_74() {
    for args in [
        &["--help"][..],
        &["help", "check"],
        &["validate", "-h"],
        &["--version"],
    ] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
        let output = Process::new(env!("CARGO_BIN_EXE_tictactoe"))
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("binary runs");
        assert_eq!(output.status.code(), Some(74), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("error: cannot write the output:"),
            "{args:?}: {stderr}"
        );
    }
    // A reader gone before a byte is written: its help was not asked for.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let status = Process::new(env!("CARGO_BIN_EXE_tictactoe"))
        .arg("--help")
        .stdout(writer)
        .status()
        .expect("binary runs");
    assert_eq!(status.code(), Some(0));
}

/// Linux only: `/dev/full` is Linux's.
#[cfg(target_os = "linux")]
#[test]
fn testlibs_verdicts_survive_a_full_standard_error() {
    let with_full_stderr = |args: &[&str], stdin: &str| {
        let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
        let mut child = Process::new(env!("CARGO_BIN_EXE_tictactoe"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(full)
            .spawn()
            .expect("binary runs");
        let mut input = child.stdin.take().expect("stdin piped");
        input.write_all(stdin.as_bytes()).expect("input written");
        drop(input);
        child.wait().expect("binary ends").code()
    };
    let check = |output: &str| {
        let args = [
            "check",
            "--protocol",
            "testlib",
            "fixtures/check/example.input",
        ];
        let args = [&args[..], &[output, "fixtures/check/example.answer"]].concat();
        with_full_stderr(&args, "")
    };
    // As testlib's fprintf to standard error fails unseen.
    assert_eq!(check("fixtures/check/example-wrong.output"), Some(1));
    assert_eq!(check("fixtures/check/example.answer"), Some(0));
    let validate = ["validate", "--protocol", "testlib"];
    assert_eq!(with_full_stderr(&validate, "1\n3\n1\n0 0 1\n"), Some(3));
    // A report that cannot be written to standard output is still an I/O
    // error, after the FAIL line.
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    let mut child = Process::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(validate)
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut input = child.stdin.take().expect("stdin piped");
    input.write_all(b"1\n3\n1\n0 0 1\n").expect("input written");
    drop(input);
    let output = child.wait_with_output().expect("binary ends");
    assert_eq!(output.status.code(), Some(74));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("FAIL line 3, column 1:"), "{stderr}");
}

#[test]
fn a_closed_output_pipe_ends_quietly_with_status_0() {
    // Many cases, so that output is still being written when the pipe closes.
    let mut input = String::from("200000\n");
    for _ in 0..200_000 {
        input.push_str("3\n3\n0 0 1\n1 1 2\n2 2 1\n");
    }
    let mut child = Process::new(env!("CARGO_BIN_EXE_tictactoe"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // The solver may stop reading once its output is gone.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let output = child.wait_with_output().expect("binary finishes");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[cfg(unix)]
#[test]
fn a_closed_stdin_is_empty_input_and_a_data_error() {
    let output = Process::new("sh")
        .args([
            "-c",
            "exec 0<&-; exec \"$0\"",
            env!("CARGO_BIN_EXE_tictactoe"),
        ])
        .output()
        .expect("sh runs");
    assert_eq!(output.status.code(), Some(65));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: line 1, column 1: input ends early: expected the number of test cases T\n"
    );
}

#[test]
fn an_empty_stdin_is_a_data_error() {
    tictactoe()
        .pipe_stdin("/dev/null")
        .expect("/dev/null exists")
        .assert()
        .code(65)
        .stderr("error: line 1, column 1: input ends early: expected the number of test cases T\n");
}

#[test]
fn a_usage_error_exits_2() {
    tictactoe().arg("--engine=magic").assert().code(2);
    tictactoe().arg("--no-such-flag").assert().code(2);
}

#[test]
fn help_explains_the_format_the_exit_statuses_and_shows_an_example() {
    tictactoe()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("ROW COL PLAYER"))
        .stdout(predicate::str::contains("| tictactoe    # 0 0 0 0 0 0 1"))
        .stdout(predicate::str::contains("65 data error"));
}

#[test]
fn every_commands_help_lists_its_exit_statuses() {
    for command in [
        "solve",
        "validate",
        "check",
        "gen",
        "test",
        "stress",
        "convert",
        "trace",
        "package",
        "completions",
        "man",
    ] {
        tictactoe()
            .args([command, "--help"])
            .assert()
            .success()
            .stdout(
                predicate::str::contains("Exit status")
                    .and(predicate::str::contains("2 usage error")),
            );
    }
}

/// A file of `cases` copies of the LeetCode example (about 50 bytes each),
/// with a taken cell in case `bad` if given: long enough to be split.
fn long_file(cases: usize, bad: Option<usize>) -> Vec<u8> {
    let mut text = format!("{cases}\n");
    for case in 1..=cases {
        if Some(case) == bad {
            text.push_str("3\n2\n1 1 1\n1 1 2\n");
        } else {
            text.push_str("3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n");
        }
    }
    text.into_bytes()
}

#[test]
fn the_hot_loops_baseline_build_changes_nothing_but_the_time() {
    for bad in [None, Some(15_000)] {
        let input = long_file(30_000, bad);
        let run = |cpu: Option<&str>, args: &[&str]| {
            let mut command = tictactoe();
            match cpu {
                Some(choice) => command.env("TICTACTOE_CPU", choice),
                None => command.env_remove("TICTACTOE_CPU"),
            };
            let output = command
                .args(args)
                .write_stdin(input.clone())
                .output()
                .expect("binary runs");
            (output.status.code(), output.stdout, output.stderr)
        };
        for threads in ["0", "1"] {
            let solve = ["--threads", threads];
            let newer = run(None, &solve);
            assert_eq!(newer.0, Some(if bad.is_some() { 65 } else { 0 }));
            assert!(
                run(Some("baseline"), &solve) == newer,
                "solve's baseline build differs, --threads {threads}"
            );
            let validate = ["validate", "--max-t", "100000", "--threads", threads];
            assert!(
                run(Some("baseline"), &validate) == run(None, &validate),
                "validate's baseline build differs, --threads {threads}"
            );
        }
    }
}

/// The status, output and error of solving `input` with `--threads threads`.
fn solved_on_threads(input: &[u8], threads: &str) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let output = tictactoe()
        .args(["--threads", threads])
        .write_stdin(input.to_vec())
        .output()
        .expect("binary runs");
    (output.status.code(), output.stdout, output.stderr)
}

#[test]
fn threads_change_nothing_but_the_time() {
    for bad in [None, Some(15_000)] {
        let input = long_file(30_000, bad);
        let run = |threads: &str| solved_on_threads(&input, threads);
        let streamed = run("1");
        assert_eq!(streamed.0, Some(if bad.is_some() { 65 } else { 0 }));
        for threads in ["0", "2", "5"] {
            assert!(run(threads) == streamed, "--threads {threads} differs");
        }
        assert_eq!(
            validated_on_threads(&input, "0"),
            validated_on_threads(&input, "1")
        );
    }
}

/// Short games, one long game of 200,000 moves on N = 1000 (2 MB, more
/// than a part's buffer) unless `broken` is "no long game", and short games
/// again; `declared` is T, and `broken` names a place to break: a taken
/// cell in the long game, or a stray token in a short game before or after it.
fn short_long_short(declared: usize, broken: Option<&str>) -> Vec<u8> {
    let short = "3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n";
    let mut text = format!("{declared}\n");
    for case in 0..40_000 {
        if case == 20_000 && broken != Some("no long game") {
            let moves = 200_000;
            text.push_str(&format!("1000\n{moves}\n"));
            for k in 0..moves {
                let (r, c) = if broken == Some("taken") && k == moves / 2 {
                    (0, 0)
                } else {
                    (k / 1000, k % 1000)
                };
                text.push_str(&format!("{r} {c} {}\n", 1 + k % 2));
            }
        } else if (broken == Some("before") && case == 10_000)
            || (broken == Some("after") && case == 30_000)
        {
            text.push_str("3\n1\n0 x 1\n");
        } else {
            text.push_str(short);
        }
    }
    text.into_bytes()
}

#[test]
fn threads_change_nothing_around_a_case_longer_than_a_part() {
    let inputs = [
        short_long_short(40_000, None),
        short_long_short(40_000, Some("taken")),
        short_long_short(40_000, Some("before")),
        short_long_short(40_000, Some("after")),
        // T says fewer cases than there are, and more, with the long game
        // and without it.
        short_long_short(30_000, None),
        short_long_short(40_001, None),
        short_long_short(10_000, Some("no long game")),
        short_long_short(39_999, Some("no long game")),
        short_long_short(40_001, Some("no long game")),
        short_long_short(40_000, Some("no long game")),
    ];
    for input in inputs {
        let streamed = solved_on_threads(&input, "1");
        for threads in ["0", "2", "3"] {
            assert!(
                solved_on_threads(&input, threads) == streamed,
                "--threads {threads} differs"
            );
        }
    }
}

/// `validate` on `input` with `--threads threads`, T and Q left free: its
/// status, output and error.
fn validated_on_threads(input: &[u8], threads: &str) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let output = tictactoe()
        .args([
            "validate",
            "--max-t",
            "100000",
            "--min-q",
            "0",
            "--threads",
            threads,
        ])
        .write_stdin(input.to_vec())
        .output()
        .expect("binary runs");
    (output.status.code(), output.stdout, output.stderr)
}

/// A transcript of `cases` copies of the LeetCode example (about 100 bytes
/// each, so that it is cut into parts), with case `bad` written as `broken`.
fn long_transcript(cases: usize, bad: usize, broken: &str) -> Vec<u8> {
    let example = "[\"TicTacToe\",\"move\",\"move\",\"move\",\"move\"]\n[[3],[0,0,1],[0,2,2],[2,2,1],[1,1,2]]\n";
    (1..=cases)
        .map(|case| if case == bad { broken } else { example })
        .collect::<String>()
        .into_bytes()
}

#[test]
fn threads_change_nothing_but_the_time_on_a_leetcode_transcript() {
    let broken = [
        // No error: the case is the example.
        "[\"TicTacToe\",\"move\",\"move\",\"move\",\"move\"]\n[[3],[0,0,1],[0,2,2],[2,2,1],[1,1,2]]\n",
        // A taken cell.
        "[\"TicTacToe\",\"move\",\"move\"]\n[[3],[0,0,1],[0,0,2]]\n",
        // A line that opens like a case inside one, where a cut may fall.
        "[\"TicTacToe\",\"move\",\n[\"TicTacToe\",\"move\"]\n[[3],[0,0,1]]\n",
        // The argument lists one short, so the next case is read as theirs.
        "[\"TicTacToe\",\"move\",\"move\"]\n[[3],[0,0,1]\n",
    ];
    for (kind, broken) in broken.iter().enumerate() {
        let input = long_transcript(30_000, 15_000, broken);
        let run = |threads: &str| solved_on_threads(&input, threads);
        let streamed = run("1");
        assert_eq!(
            streamed.0,
            Some(if kind == 0 { 0 } else { 65 }),
            "{:?}",
            String::from_utf8_lossy(&streamed.2)
        );
        let validated = validated_on_threads(&input, "1");
        assert_eq!(validated.0, Some(if kind == 0 { 0 } else { 1 }));
        for threads in ["0", "2", "5"] {
            assert!(
                run(threads) == streamed,
                "case {kind}, --threads {threads} differs"
            );
            assert!(
                validated_on_threads(&input, threads) == validated,
                "case {kind}, validate --threads {threads} differs"
            );
        }
    }
}

/// Three cases, the second one game of 100,000 moves on a board of 2000
/// (about 1.2 MB, cut into slices on several threads), with move `at` of
/// it written as `line`, or the input cut off there when `line` is `None`.
fn file_with_a_long_case(at: usize, line: Option<&str>) -> Vec<u8> {
    let n = 2000;
    let moves = 100_000;
    let mut text = format!("3\n3\n2\n0 0 1\n1 1 2\n{n}\n{moves}\n");
    for index in 0..moves {
        if index == at {
            match line {
                Some(line) => {
                    text.push_str(line);
                    text.push('\n');
                    continue;
                }
                None => return text.into_bytes(),
            }
        }
        // Row by row, every seventh column first: no cell twice, no line filled.
        let (row, col) = (index / n, (index % n) * 7 % n);
        text.push_str(&format!("{row} {col} {}\n", 1 + index % 2));
    }
    text.push_str("3\n3\n0 0 1\n0 1 2\n2 2 1\n");
    text.into_bytes()
}

#[test]
fn a_long_case_in_slices_gives_the_streams_output_and_error() {
    let inputs = [
        ("valid", file_with_a_long_case(usize::MAX, None)),
        ("a taken cell", file_with_a_long_case(70_001, Some("0 0 2"))),
        (
            "a player out of turn",
            file_with_a_long_case(65_000, Some("32 1 2")),
        ),
        (
            "not a number",
            file_with_a_long_case(90_000, Some("45 x 1")),
        ),
        (
            "past u32",
            file_with_a_long_case(40_000, Some("20 5000000000 1")),
        ),
        ("a sign", file_with_a_long_case(99_999, Some("-1 0 2"))),
        ("cut off", file_with_a_long_case(80_000, None)),
        ("an extra case", {
            let mut input = file_with_a_long_case(usize::MAX, None);
            input.extend_from_slice(b"3\n0\n");
            input
        }),
        ("more moves than cells", {
            let input = String::from_utf8(file_with_a_long_case(usize::MAX, None)).expect("ASCII");
            input
                .replacen("2000\n100000\n", "2000\n4000001\n", 1)
                .into_bytes()
        }),
        ("a bad size", {
            let input = String::from_utf8(file_with_a_long_case(usize::MAX, None)).expect("ASCII");
            input
                .replacen("2000\n100000\n", "2000x\n100000\n", 1)
                .into_bytes()
        }),
        ("CRLF", {
            let input = file_with_a_long_case(usize::MAX, None);
            String::from_utf8(input)
                .expect("ASCII")
                .replace('\n', "\r\n")
                .into_bytes()
        }),
    ];
    for (what, input) in inputs {
        let run = |threads: &str| solved_on_threads(&input, threads);
        let streamed = run("1");
        let valid = matches!(what, "valid" | "CRLF");
        assert_eq!(streamed.0, Some(if valid { 0 } else { 65 }), "{what}");
        // An error inside the long case leaves only the first case's line.
        let lines = streamed.1.iter().filter(|&&byte| byte == b'\n').count();
        let whole = valid || what == "an extra case";
        assert_eq!(lines, if whole { 3 } else { 1 }, "{what}");
        for threads in ["0", "2", "3"] {
            let split = run(threads);
            assert!(
                split == streamed,
                "{what}, --threads {threads}: {:?} against {:?}",
                String::from_utf8_lossy(&split.2),
                String::from_utf8_lossy(&streamed.2)
            );
        }
    }
}

#[test]
fn a_huge_thread_count_is_capped_and_changes_nothing() {
    let generated = tictactoe()
        .args(["gen", "--limits", "relaxed", "--cases", "400"])
        .args(["--min-n", "3", "--max-n", "60", "--seed", "3"])
        .output()
        .expect("gen runs");
    let input = generated.stdout;
    assert!(input.len() > 4 * 256 * 1024, "long enough to split");
    for command in [
        &["solve"][..],
        &["validate", "--max-t", "400", "--min-q", "1"],
    ] {
        let one = tictactoe()
            .args(command)
            .args(["--threads", "1"])
            .write_stdin(input.clone())
            .output()
            .expect("runs");
        for threads in ["30000", "100000"] {
            tictactoe()
                .args(command)
                .args(["--threads", threads])
                .write_stdin(input.clone())
                .assert()
                .code(one.status.code().expect("an exit status"))
                .stdout(one.stdout.clone());
        }
    }
}

#[test]
fn a_mistyped_command_is_named_not_opened_as_a_file() {
    for (typed, meant) in [
        ("sovle", "solve"),
        ("chek", "check"),
        ("tets", "test"),
        ("valdiate", "validate"),
    ] {
        tictactoe()
            .args([typed, "x.in"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "did you mean `tictactoe {meant}`?"
            )));
    }
    // A file of that name is solved; a missing file is still a missing file.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("sovle"), "1\n3\n1\n0 0 1\n").expect("file written");
    tictactoe()
        .current_dir(dir.path())
        .arg("sovle")
        .assert()
        .code(0)
        .stdout("0\n");
    tictactoe().arg("no-such.in").assert().code(66);
}

/// Unix only: a folder opened as a file to give as standard input.
#[cfg(unix)]
#[test]
fn a_folder_as_standard_input_cannot_be_opened_as_a_folder_named_cannot() {
    let dir = tempfile::tempdir().expect("temp dir");
    for command in [
        &["solve"][..],
        &["validate"],
        &["convert", "--to", "leetcode"],
    ] {
        let folder = std::fs::File::open(dir.path()).expect("folder opened");
        let output = Process::new(common::binary())
            .args(command)
            .stdin(Stdio::from(folder))
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(66), "{command:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "error: cannot open standard input: is a directory\n"
        );
    }
}

#[test]
fn a_command_after_an_option_is_named_as_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .current_dir(dir.path())
        .args(["--threads", "1", "validate", "in.txt"])
        .assert()
        .code(66)
        .stderr(predicates::str::contains(
            "a command comes before the options: `tictactoe validate [OPTIONS] ...`",
        ));
    tictactoe()
        .current_dir(dir.path())
        .args(["--threads", "1", "in.txt"])
        .assert()
        .code(66)
        .stderr(predicates::str::contains("a command comes").not());
}

/// Unix only: the terminal is `script`'s.
#[cfg(unix)]
#[test]
fn a_bare_tictactoe_on_a_terminal_says_it_is_reading_and_how_to_end() {
    // `script` gives the binary a terminal for its standard input.
    let command = format!("timeout 2 '{}'", common::binary().display());
    let output = std::process::Command::new("script")
        .args(["-qc", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains("reading a problem input from the terminal; end it with Ctrl-D"),
        "{said}"
    );
    // Piped, it says nothing but the results.
    tictactoe()
        .write_stdin("1\n3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n")
        .assert()
        .success()
        .stdout("0 0 0 0 1\n")
        .stderr("");
}

#[test]
fn convert_detects_the_input_format_and_rewrites_a_file_in_its_own() {
    tictactoe()
        .args([
            "convert",
            "--to",
            "leetcode",
            "fixtures/leetcode/example.in",
        ])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("[\"TicTacToe\",\"move\""));
    tictactoe()
        .args([
            "convert",
            "--to",
            "coding-ninjas",
            "fixtures/solve/leetcode-example.in",
        ])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("1\n3\n7\n"));
}

/// A Windows build is no program for a Linux judge: `package` refuses to
/// ship it, and with --use-path ships none.
#[cfg(windows)]
#[test]
fn package_on_windows_ships_no_windows_binary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let zip = dir.path().join("p.zip");
    tictactoe()
        .args(["package", "--judge", "domjudge"])
        .arg(&zip)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("judges run Linux"));
    assert!(!zip.exists());
    tictactoe()
        .args(["package", "--judge", "domjudge", "--use-path"])
        .arg(&zip)
        .assert()
        .success();
    assert!(zip.exists());
}

/// On Windows `test` and `stress` cannot supervise a solution's process tree
/// the Unix way; they say so and stop before running anything.
#[cfg(windows)]
#[test]
fn test_and_stress_refuse_on_windows_with_a_message() {
    for args in [&["test", "fixtures/solve"][..], &["stress", "-c", "x"][..]] {
        tictactoe()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("WSL"));
    }
}

/// Help is the output asked for, written as results are: to a standard
/// output left non-blocking (a pipe shared with a program that wanted
/// that) it waits for the reader, where clap's own print gave up at the
/// pipe's 4 KiB (exit 74, the help cut); to one that cannot be written it
/// is an error (it exited 0 with nothing written).
#[test]
#[cfg(target_os = "linux")]
fn help_waits_for_a_slow_reader_of_a_non_blocking_pipe_and_fails_on_a_closed_one() {
    let whole = tictactoe()
        .args(["check", "--help"])
        .output()
        .expect("help");
    assert!(whole.status.success() && whole.stdout.len() > 4096);
    let reader = r#"
import fcntl, os, subprocess, sys, time
read_end, write_end = os.pipe()
fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: the smallest pipe
os.set_blocking(write_end, False)
child = subprocess.Popen(sys.argv[1:], stdout=write_end)
os.close(write_end)
time.sleep(0.3)
got = bytearray()
while chunk := os.read(read_end, 512):
    got += chunk
    time.sleep(0.001)
sys.stdout.buffer.write(bytes(got))
sys.exit(child.wait())
"#;
    let read = std::process::Command::new("python3")
        .args(["-c", reader])
        .arg(common::binary())
        .args(["check", "--help"])
        .output()
        .expect("python3 runs");
    assert_eq!(read.status.code(), Some(0), "{}", common::describe(&read));
    assert_eq!(read.stdout, whole.stdout);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("read-only");
    std::fs::write(&file, "").expect("file");
    let refused = Process::new(common::binary())
        .arg("--help")
        .stdout(std::fs::File::open(&file).expect("opened to read"))
        .output()
        .expect("help runs");
    assert_eq!(
        refused.status.code(),
        Some(74),
        "{}",
        common::describe(&refused)
    );
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot write the output"));
}
