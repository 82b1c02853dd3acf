//! `tictactoe check` as each judge calls it: argument orders, exit statuses and where the explanation goes.

mod common;

use common::tictactoe;

use predicates::prelude::*;
use std::fs;
use std::path::Path;

const INPUT: &str = "fixtures/check/example.input";
const ANSWER: &str = "fixtures/check/example.answer";
const WRONG_ANSWER_FILE: &str = "fixtures/check/example-wrong.answer";
const RIGHT: &str = "0 0 0 0 0 0 1\n";
const WRONG: &str = "0 0 0 0 0 0 0\n";
const MALFORMED: &str = "0 0 0 0 0 0 X\n";

/// Runs the Kattis form, `IN ANS FEEDBACK_DIR < output`, and returns the
/// status and the judge message.
fn kattis(answer: &str, output: &str) -> (Option<i32>, String) {
    kattis_on(INPUT, answer, output)
}

/// [`kattis`] on another input.
fn kattis_on(input: &str, answer: &str, output: &str) -> (Option<i32>, String) {
    let feedback = tempfile::tempdir().expect("temporary directory");
    let result = tictactoe()
        .args(["check", "--protocol", "kattis", input, answer])
        .arg(feedback.path())
        .write_stdin(output)
        .output()
        .expect("binary runs");
    assert_eq!(
        String::from_utf8_lossy(&result.stdout),
        "",
        "Kattis reads no stdout"
    );
    let message = fs::read_to_string(feedback.path().join("judgemessage.txt")).unwrap_or_default();
    (result.status.code(), message)
}

#[test]
fn kattis_accepts_with_42_and_says_so_in_the_judge_message() {
    let (status, message) = kattis(ANSWER, RIGHT);
    assert_eq!(status, Some(42));
    assert_eq!(message, "ok: 1 case, 7 results\n");
}

#[test]
fn kattis_rejects_a_wrong_result_with_43_and_explains_the_move() {
    let (status, message) = kattis(ANSWER, WRONG);
    assert_eq!(status, Some(43));
    assert!(
        message.starts_with(
            "wrong answer: case 1, move 7: expected 1, found 0\n\
             the move: row 2, column 1, player 1 (X); it completes row 2"
        ),
        "{message}"
    );
    assert!(message.ends_with("|X|X|X|\n"), "{message}");
}

#[test]
fn kattis_rejects_malformed_output_with_43_too() {
    let (status, message) = kattis(ANSWER, MALFORMED);
    assert_eq!(status, Some(43));
    assert!(
        message.starts_with("wrong output format: case 1, move 7:"),
        "{message}"
    );
}

#[test]
fn kattis_reports_a_wrong_answer_file_as_a_judge_error_not_a_rejection() {
    let (status, message) = kattis(WRONG_ANSWER_FILE, RIGHT);
    assert_eq!(status, Some(3));
    assert!(
        message.starts_with("FAIL: the expected answer"),
        "{message}"
    );
}

#[test]
fn kattis_holds_each_leetcode_test_case_to_its_own_array_whatever_the_whitespace() {
    let (input, answer) = (
        "fixtures/check/leetcode-three.input",
        "fixtures/check/leetcode-three.answer",
    );
    assert_eq!(
        kattis_on(input, answer, "[null, 0,\n 0] [null]\n\n[null,0]").0,
        Some(42)
    );
    // Two test cases' results in one array, arrays of swapped lengths, an
    // empty test case left out: each the right results in order, but not
    // the answer.
    for wrong in [
        "[null,0,0,0]\n",
        "[null,0]\n[null,0,0]\n",
        "[null,0,0]\n[null,0]\n",
    ] {
        let (status, message) = kattis_on(input, answer, wrong);
        assert_eq!(status, Some(43), "{wrong:?} accepted");
        assert!(message.contains("case "), "{message}");
    }
}

#[test]
fn kattis_takes_null_in_any_case_unless_the_judge_passes_case_sensitive() {
    // The default validators compare letters in any case, and BAPCtools
    // holds an output validator to that with the answer's case swapped.
    let (input, answer) = (
        "fixtures/check/leetcode-three.input",
        "fixtures/check/leetcode-three.answer",
    );
    let swapped = "[NULL,0,0]\n[Null]\n[nULL,0]\n";
    assert_eq!(kattis_on(input, answer, swapped).0, Some(42));
    let strictly = |flags: &[&str]| {
        let feedback = tempfile::tempdir().expect("temporary directory");
        tictactoe()
            .args(["check", "--protocol", "kattis", input, answer])
            .arg(feedback.path())
            .args(flags)
            .write_stdin(swapped)
            .output()
            .expect("binary runs")
            .status
            .code()
    };
    assert_eq!(strictly(&["case_sensitive"]), Some(43));
    assert_eq!(
        strictly(&["space_change_sensitive", "case_sensitive"]),
        Some(43)
    );
    // Still a result in the place of each letter of null: not a null.
    assert_eq!(
        kattis_on(input, answer, "[NUL,0,0]\n[null]\n[null,0]\n").0,
        Some(43)
    );
    // testlib's checkers read tokens as written.
    tictactoe()
        .args([
            "check",
            "--protocol",
            "testlib",
            input,
            "/dev/stdin",
            answer,
        ])
        .write_stdin(swapped)
        .assert()
        .code(2);
}

#[test]
fn kattis_ignores_the_extra_arguments_domjudge_may_pass() {
    let feedback = tempfile::tempdir().expect("temporary directory");
    tictactoe()
        .args(["check", "--protocol", "kattis", INPUT, ANSWER])
        .arg(feedback.path())
        .args(["case_sensitive", "space_change_sensitive"])
        .write_stdin(RIGHT)
        .assert()
        .code(42);
}

#[test]
fn testlib_writes_the_message_alone_to_the_result_file_when_given_one() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let output = dir.path().join("out.txt");
    let result = dir.path().join("result.txt");
    fs::write(&output, MALFORMED).expect("temporary file");
    tictactoe()
        .args(["check", "--protocol", "testlib", INPUT])
        .arg(&output)
        .arg(ANSWER)
        .arg(&result)
        .assert()
        .code(2)
        .stderr("\nSee file to check exit message\n");
    // As testlib's quit writes it: no verdict word, no newline.
    assert_eq!(
        fs::read_to_string(result).expect("result written"),
        "case 1, move 7: expected a result 0, 1 or 2, found \"X\""
    );
}

#[test]
fn a_result_file_that_is_one_of_the_files_read_fails_and_is_left_as_it_was() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = dir.path().join("in.txt");
    let output = dir.path().join("out.txt");
    let answer = dir.path().join("ans.txt");
    let linked = dir.path().join("linked.txt");
    fs::copy(INPUT, &input).expect("temporary file");
    fs::write(&output, RIGHT).expect("temporary file");
    fs::write(&answer, RIGHT).expect("temporary file");
    fs::hard_link(&answer, &linked).expect("hard link");
    let before = |path: &Path| fs::read(path).expect("file kept");
    let kept = [&input, &output, &answer].map(|path| before(path));
    for (result, role) in [
        (&input, "input"),
        (&output, "output"),
        (&answer, "answer"),
        (&linked, "answer"),
    ] {
        tictactoe()
            .args(["check", "--protocol", "testlib"])
            .args([&input, &output, &answer, result])
            .arg("-appes")
            .assert()
            .code(3)
            .stderr(predicate::str::contains(format!(
                "is the {role}: writing it would destroy it"
            )));
    }
    // A stray argument shifts the files: ANS lands where RESULT goes.
    tictactoe()
        .args(["check", "--protocol", "testlib", "-x"])
        .args([&input, &answer, &answer])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("the result file"));
    assert_eq!([&input, &output, &answer].map(|path| before(path)), kept);
}

#[test]
fn a_kattis_feedback_folder_whose_message_file_is_the_answer_is_refused() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let answer = dir.path().join("judgemessage.txt");
    fs::write(&answer, RIGHT).expect("temporary file");
    tictactoe()
        .args(["check", "--protocol", "kattis", INPUT])
        .arg(&answer)
        .arg(dir.path())
        .write_stdin(RIGHT)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "is the answer: writing it would destroy it",
        ));
    assert_eq!(fs::read_to_string(&answer).expect("answer kept"), RIGHT);
}

/// BAPCtools and problemtools check each answer file by giving it to the
/// output validator as the output: a wrong answer must be rejected (43;
/// it once was a judge failure, 3), and under BAPCtools' strict words a
/// right one laid out otherwise than the solver writes it too.
#[test]
fn an_answer_file_given_as_the_output_is_itself_judged_by_the_input() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let judge = |answer: &str, strict: bool| {
        let path = dir.path().join("answer.txt");
        fs::write(&path, answer).expect("temporary file");
        // Opened as the judges open it; assert_cmd would pipe its bytes.
        let mut check = std::process::Command::new(common::binary());
        check
            .args(["check", "--protocol", "kattis", "--compare", "lines", INPUT])
            .arg(&path)
            .arg(dir.path())
            .stdin(fs::File::open(&path).expect("answer as standard input"));
        if strict {
            check.args(["case_sensitive", "space_change_sensitive"]);
        }
        let code = check.output().expect("binary runs").status.code();
        let message = fs::read_to_string(dir.path().join("judgemessage.txt")).expect("message");
        (code, message)
    };
    assert_eq!(judge(RIGHT, true).0, Some(42));
    assert_eq!(judge("0 0 0 0 0 0 1\r\n", false).0, Some(42));
    let (code, message) = judge("0 0 0 0 0 0 1\r\n", true);
    assert_eq!(code, Some(43));
    assert!(
        message.contains("expected a line feed, found a carriage return"),
        "{message}"
    );
    let (code, message) = judge(WRONG, true);
    assert_eq!(code, Some(43));
    assert!(
        message.contains(
            "answer.txt is not the answer to the input: case 1, move 7: expected 1, found 0"
        ),
        "{message}"
    );
    // `/dev/null` as both is no answer file judged: an empty answer is the
    // judge's failure.
    #[cfg(unix)]
    {
        let null = std::process::Command::new(common::binary())
            .args(["check", "--protocol", "kattis", INPUT, "/dev/null"])
            .arg(dir.path())
            .stdin(fs::File::open("/dev/null").expect("/dev/null"))
            .output()
            .expect("binary runs");
        assert_eq!(null.status.code(), Some(3));
    }
    // Read from a pipe, the same bytes are a solution's output: the answer
    // file is the judge's, and one that disagrees with the input fails.
    let path = dir.path().join("answer.txt");
    fs::write(&path, WRONG).expect("temporary file");
    tictactoe()
        .args(["check", "--protocol", "kattis", INPUT])
        .arg(&path)
        .arg(dir.path())
        .write_stdin(WRONG)
        .assert()
        .code(3);
}

#[test]
fn testlib_writes_its_xml_result_with_appes_and_takes_testset_and_group() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let output = dir.path().join("out.txt");
    let result = dir.path().join("result.xml");
    for (flag, content, code, outcome) in [
        ("-appes", RIGHT, 0, "accepted\">1 case, 7 results"),
        (
            "-APPES",
            WRONG,
            1,
            "wrong-answer\">case 1, move 7: expected 1, found 0",
        ),
        (
            "-appes",
            MALFORMED,
            2,
            "presentation-error\">case 1, move 7: expected a result 0, 1 or 2, found &quot;X&quot;",
        ),
    ] {
        fs::write(&output, content).expect("temporary file");
        tictactoe()
            .args(["check", "--protocol", "testlib", "--testset", "tests"])
            .arg(INPUT)
            .arg(&output)
            // testlib takes --testset and --group anywhere on the line.
            .args(["--group", "1"])
            .arg(ANSWER)
            .arg(&result)
            .arg(flag)
            .assert()
            .code(code);
        assert_eq!(
            fs::read_to_string(&result).expect("result written"),
            format!(
                "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \"{outcome}</result>\n"
            )
        );
    }
}

#[test]
fn testlib_turns_a_failure_to_run_into_fail_with_status_3() {
    tictactoe()
        .args([
            "check",
            "--protocol",
            "testlib",
            INPUT,
            ANSWER,
            "no/such/answer",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::starts_with(
            "FAIL cannot open no/such/answer:",
        ));
}

#[test]
fn testlib_calls_a_missing_output_file_a_presentation_error() {
    tictactoe()
        .args([
            "check",
            "--protocol",
            "testlib",
            INPUT,
            "no/such/output",
            ANSWER,
        ])
        .assert()
        .code(2)
        .stderr("wrong output format Output file not found: \"no/such/output\"\n");
}

#[test]
fn testlib_takes_empty_values_where_testlib_does_and_fails_where_it_fails() {
    // An empty group, anywhere; an empty result name means no result file.
    for args in [
        &["--group", "", INPUT, ANSWER, ANSWER][..],
        &[INPUT, "--group", "", ANSWER, ANSWER],
        &[INPUT, ANSWER, ANSWER, "--group", ""],
        &[INPUT, ANSWER, ANSWER, ""],
    ] {
        tictactoe()
            .args(["check", "--protocol", "testlib"])
            .args(args)
            .assert()
            .code(0)
            .stderr(predicate::str::starts_with("ok "));
    }
    // "Expected non-empty testset after --testset command line parameter".
    for args in [
        &["--testset", "", INPUT, ANSWER, ANSWER][..],
        &[INPUT, ANSWER, ANSWER, "--testset", ""],
    ] {
        tictactoe()
            .args(["check", "--protocol", "testlib"])
            .args(args)
            .assert()
            .code(3)
            .stderr(predicate::str::starts_with(
                "FAIL --testset needs a non-empty value",
            ));
    }
}

#[test]
fn an_empty_file_name_is_a_usage_error_but_for_testlib_and_kattis_flags() {
    let feedback = tempfile::tempdir().expect("temporary directory");
    let feedback = feedback.path().to_str().expect("UTF-8 path");
    for args in [
        &["check", "", ANSWER][..],
        &["check", "--protocol", "oj", INPUT, "", ANSWER],
        &["check", "--protocol", "kattis", INPUT, ANSWER, ""],
    ] {
        tictactoe()
            .args(args)
            .write_stdin(RIGHT)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("a file name is empty"));
    }
    // An empty judge flag after the feedback folder is a flag like another.
    tictactoe()
        .args(["check", "--protocol", "kattis", INPUT, ANSWER, feedback, ""])
        .write_stdin(RIGHT)
        .assert()
        .code(42);
}

#[test]
fn testlib_calls_an_output_it_cannot_read_the_solutions_wrong_format_not_a_failure() {
    // A solution writing to a file may leave a folder, or a file nobody can
    // read, in its place: testlib's reads of it end at once (PE).
    let dir = tempfile::tempdir().expect("temporary directory");
    tictactoe()
        .args(["check", "--protocol", "testlib", INPUT])
        .arg(dir.path())
        .arg(ANSWER)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read the output"));
    // The answer being a folder is still the judge's failure.
    tictactoe()
        .args(["check", "--protocol", "testlib", INPUT, ANSWER])
        .arg(dir.path())
        .assert()
        .code(3);
}

#[test]
fn testlib_fails_with_3_on_a_command_line_it_would_refuse() {
    for args in [
        &[INPUT, ANSWER][..],
        &[INPUT, ANSWER, ANSWER, "result.txt", "-xml"],
        &[INPUT, ANSWER, ANSWER, "result.txt", "-appes", "more"],
    ] {
        tictactoe()
            .args(["check", "--protocol", "testlib"])
            .args(args)
            .assert()
            .code(3)
            .stderr(
                predicate::str::starts_with("FAIL ").and(predicate::str::contains(
                    "[--testset T] [--group G] IN OUT ANS [RESULT [-appes|-APPES]]",
                )),
            );
    }
}

// Unix only: oj runs the command through sh.
#[cfg(unix)]
#[test]
fn oj_runs_the_judge_command_with_input_output_and_expected_appended() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let actual = dir.path().join("actual.out");
    // `oj test --judge-command CMD` runs `CMD IN ACTUAL EXPECTED` through the shell.
    let judge_command = format!("{} check --protocol oj", env!("CARGO_BIN_EXE_tictactoe"));
    for (output, status) in [(RIGHT, 0), (WRONG, 1)] {
        fs::write(&actual, output).expect("temporary file");
        let command = format!("{judge_command} {INPUT} {} {ANSWER}", actual.display());
        let result = std::process::Command::new("sh")
            .args(["-c", &command])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("sh runs");
        assert_eq!(result.status.code(), Some(status), "{command}");
    }
}

#[test]
fn a_wrong_result_deep_in_a_large_output_is_found_by_case_and_move() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = dir.path().join("big.in");
    let cases = 30_000;
    let mut text = format!("{cases}\n");
    for _ in 0..cases {
        text.push_str("3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n");
    }
    fs::write(&input, text).expect("temporary file");
    let mut output = RIGHT.repeat(cases);
    let wrong_case = 25_000;
    let at = (wrong_case - 1) * RIGHT.len();
    output.replace_range(at..at + RIGHT.len(), WRONG);
    let output_file = dir.path().join("big.out");
    fs::write(&output_file, &output).expect("temporary file");
    // As a file, and on Unix through a pipe larger than its buffer too,
    // while the answer is computed from the input beside it.
    let mut outputs = vec![(output_file.into_os_string(), String::new())];
    if cfg!(unix) {
        outputs.push(("/dev/stdin".into(), output));
    }
    for (output, stdin) in outputs {
        tictactoe()
            .args(["check", "--protocol", "oj"])
            .arg(&input)
            .arg(output)
            .write_stdin(stdin)
            .assert()
            .code(1)
            .stdout(predicate::str::starts_with(format!(
                "wrong answer: case {wrong_case}, move 7: expected 1, found 0\n"
            )));
    }
}

#[test]
fn each_protocol_insists_on_its_own_arguments() {
    tictactoe()
        .args(["check", "--protocol", "oj", INPUT])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("IN OUTPUT [EXPECTED]"));
    tictactoe()
        .args([
            "check",
            "--protocol",
            "kattis",
            "--input",
            INPUT,
            INPUT,
            ANSWER,
            ".",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--input is for the plain protocol",
        ));
    tictactoe()
        .args(["check", ANSWER, "a", "b"])
        .assert()
        .code(2);
}

#[test]
fn plain_check_reads_the_output_from_stdin_and_exits_0_when_equal() {
    tictactoe()
        .args(["check", ANSWER])
        .write_stdin(RIGHT)
        .assert()
        .success()
        .stdout("ok: 1 case, 7 results\n");
}

#[test]
fn judges_compare_tokens_by_default_and_otherwise_when_asked() {
    let reflowed = "\n0 0 0\n0 0 0\n1";
    // Kattis: tokens, as its default validator; exact under BAPCtools'
    // space_change_sensitive.
    assert_eq!(kattis(ANSWER, reflowed).0, Some(42));
    let feedback = tempfile::tempdir().expect("temporary directory");
    tictactoe()
        .args(["check", "--protocol", "kattis", INPUT, ANSWER])
        .arg(feedback.path())
        .arg("space_change_sensitive")
        .write_stdin(reflowed)
        .assert()
        .code(43);
    // testlib: tokens; `--compare lines` holds it to one line per case.
    let output = feedback.path().join("reflowed.out");
    fs::write(&output, reflowed).expect("temporary file");
    for (compare, code) in [(None, 0), (Some("lines"), 2)] {
        tictactoe()
            .args(["check", "--protocol", "testlib"])
            .args(compare.map(|mode| ["--compare", mode]).iter().flatten())
            .arg(INPUT)
            .arg(&output)
            .arg(ANSWER)
            .assert()
            .code(code);
    }
    // plain: lines, the statement's layout.
    tictactoe()
        .args(["check", ANSWER])
        .write_stdin(reflowed)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("the line ends early"));
}

#[test]
fn testlib_fails_with_3_where_its_checkers_fail_and_takes_what_they_take() {
    // Repeated options, as testlib takes them.
    tictactoe()
        .args([
            "check",
            "--protocol",
            "testlib",
            "--testset",
            "a",
            "--testset",
            "b",
        ])
        .args([INPUT, ANSWER, ANSWER])
        .assert()
        .code(0);
    // An option it does not know, before or after the files.
    for args in [
        &["--bogus", INPUT, ANSWER, ANSWER][..],
        &[INPUT, ANSWER, ANSWER, "--bogus"],
    ] {
        tictactoe()
            .args(["check", "--protocol", "testlib"])
            .args(args)
            .assert()
            .code(3)
            .stderr(predicate::str::starts_with("FAIL "));
    }
    // A result file it cannot write.
    tictactoe()
        .args([
            "check",
            "--protocol",
            "testlib",
            INPUT,
            ANSWER,
            ANSWER,
            "no/such/dir/result",
        ])
        .assert()
        .code(3)
        .stderr("FAIL Can not write to the result file no/such/dir/result\n");
}

#[test]
fn an_option_after_the_files_is_refused_not_taken_for_a_judge_flag() {
    let feedback = tempfile::tempdir().expect("temporary directory");
    tictactoe()
        .args(["check", "--protocol", "kattis", INPUT, ANSWER])
        .arg(feedback.path())
        .args(["--compare", "lines"])
        .write_stdin(RIGHT)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--compare came among the judge's flags after FEEDBACK_DIR",
        ));
    // An option before the feedback folder is no judge's flag.
    tictactoe()
        .args(["check", "--protocol", "kattis", INPUT, ANSWER, "--json"])
        .arg(feedback.path())
        .write_stdin(RIGHT)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--json must come before the files",
        ));
}

/// An unknown option is taken for a file by the parser (the files take
/// anything); it was once told to "come before the files" where it was,
/// and its status hung on whether `--protocol testlib` came before it.
#[test]
fn an_unknown_option_is_named_as_one_and_testlib_fails_on_it_wherever_it_is() {
    tictactoe()
        .args(["check", "--thread", "1", ANSWER, ANSWER])
        .assert()
        .code(2)
        .stderr("error: --thread is no option of check; did you mean --threads? (tictactoe check --help)\n");
    for words in [
        ["--bogus", "--protocol", "testlib"],
        ["--protocol", "testlib", "--bogus"],
    ] {
        tictactoe()
            .arg("check")
            .args(words)
            .args([INPUT, ANSWER, ANSWER])
            .assert()
            .code(3)
            .stderr("FAIL --bogus is no option of check (tictactoe check --help)\n");
    }
}

#[test]
fn kattis_under_space_change_sensitive_holds_the_output_to_the_answers_bytes() {
    let feedback = tempfile::tempdir().expect("temporary directory");
    let strictly = |answer: &Path, output: &str| {
        let status = tictactoe()
            .args(["check", "--protocol", "kattis", INPUT])
            .arg(answer)
            .arg(feedback.path())
            .arg("space_change_sensitive")
            .write_stdin(output.to_owned())
            .output()
            .expect("binary runs")
            .status
            .code();
        let message =
            fs::read_to_string(feedback.path().join("judgemessage.txt")).expect("a judge message");
        (status, message)
    };
    let answer = Path::new(ANSWER);
    assert_eq!(strictly(answer, RIGHT).0, Some(42));
    let crlf = RIGHT.replace('\n', "\r\n");
    let (status, message) = strictly(answer, &crlf);
    assert_eq!(status, Some(43));
    assert!(
        message.contains("line 1, column 14: expected a line feed, found a carriage return"),
        "{message}"
    );
    // The answer's own layout is the standard: a CRLF answer asks for CRLF,
    // and is no judge failure.
    let crlf_answer = feedback.path().join("crlf.ans");
    fs::write(&crlf_answer, &crlf).expect("answer written");
    assert_eq!(strictly(&crlf_answer, &crlf).0, Some(42));
    assert_eq!(strictly(&crlf_answer, RIGHT).0, Some(43));
}

#[test]
fn json_names_the_exact_comparison() {
    tictactoe()
        .args(["check", "--json", "--compare", "exact", ANSWER])
        .write_stdin(format!("{RIGHT} "))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(r#""compare": "exact""#))
        .stdout(predicate::str::contains(r#""verdict": "PE""#));
}
