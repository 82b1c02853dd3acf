//! `test` as its users meet it: a verdict per test in name order, the
//! summary line, and the exit status, for the built-in solver and for small
//! deliberately wrong solutions in `fixtures/solutions/`.

// Unix only: `test` and `stress` supervise solutions on Unix only; on Windows they refuse, tests/windows.rs.
#![cfg(unix)]

mod common;

use common::tictactoe;

use assert_cmd::Command;
use predicates::prelude::*;
use std::fs;
use std::path::Path;
use tempfile::TempDir;

/// What a verdict line says a run cost: wall time, CPU time, peak memory.
const USAGE: &str = r"\d+\.\d\ds cpu \d+\.\d\ds \d+\.\d MiB";

/// A folder of three generated tests with answers, plus one with no answer file.
fn folder_of_tests() -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    tictactoe()
        .args([
            "gen",
            "--seed",
            "1",
            "--count",
            "3",
            "--outcome",
            "win",
            "--out-dir",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let unanswered = tictactoe()
        .args(["gen", "--seed", "2", "--cases", "2", "--outcome", "win"])
        .output()
        .expect("gen runs");
    fs::write(dir.path().join("04.in"), unanswered.stdout).expect("write 04.in");
    dir
}

/// `test DIR` with a time limit no loaded machine reaches, for the tests
/// that are not about time.
fn test_folder(dir: &Path) -> Command {
    test_folder_within(dir, "20")
}

fn test_folder_within(dir: &Path, seconds: &str) -> Command {
    let mut command = tictactoe();
    command.arg("test").arg(dir).args(["--time-limit", seconds]);
    command
}

#[test]
fn the_built_in_solver_passes_every_test_including_one_without_an_answer() {
    let dir = folder_of_tests();
    test_folder(dir.path()).assert().success().stdout(
        predicate::str::is_match(format!(
            r"^01 AC {USAGE}\n02 AC .*\n03 AC .*\n04 AC .*\n4 passed, 0 failed\n$"
        ))
        .expect("regex"),
    );
}

#[test]
fn a_solution_that_always_prints_zero_gets_wrong_answer_with_case_and_move() {
    let dir = folder_of_tests();
    test_folder(dir.path())
        .args([
            "-c",
            "python3 fixtures/solutions/all-zeros.py",
            "--jobs",
            "2",
        ])
        .assert()
        .code(1)
        .stdout(
            predicate::str::is_match(format!(
                r"01 WA {USAGE}: case 1, move \d+: expected [12], found 0\n"
            ))
            .expect("regex"),
        )
        .stdout(predicate::str::ends_with("0 passed, 4 failed\n"));
}

#[test]
fn a_crashing_solution_gets_runtime_error_with_its_status_and_stderr() {
    let dir = folder_of_tests();
    test_folder(dir.path())
        .args(["-c", "python3 fixtures/solutions/crash.py"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "01 RE",
        ))
        // The start of a traceback, and its end, which names the exception.
        .stdout(
            predicate::str::is_match(
                r"MiB: exit status 1\n    Traceback \(most recent call last\):\n      File .*crash\.py.*\n    \.\.\. \(\d+ lines left out\)\n    IndexError: list index out of range\n",
            )
            .expect("regex"),
        )
        .stdout(predicate::str::ends_with("0 passed, 4 failed\n"));
}

#[test]
fn a_sleeping_solution_is_killed_at_the_time_limit() {
    let dir = folder_of_tests();
    let started = std::time::Instant::now();
    test_folder_within(dir.path(), "0.5")
        .args(["-c", "python3 fixtures/solutions/sleep.py", "-j", "2"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_match(format!(r"01 TLE {USAGE}\n")).expect("regex"))
        .stdout(predicate::str::ends_with("0 passed, 4 failed\n"));
    assert!(
        started.elapsed().as_secs() < 5,
        "tests were not killed at the limit"
    );
}

#[test]
fn a_shell_script_is_killed_with_everything_it_started() {
    let dir = folder_of_tests();
    let started = std::time::Instant::now();
    test_folder_within(dir.path(), "0.3")
        .args(["-c", "sh -c 'sleep 5; echo late'"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("04 TLE"));
    assert!(
        started.elapsed().as_secs() < 5,
        "the script's sleep outlived the limit"
    );
}

#[test]
fn an_out_file_serves_as_the_answer_and_a_wrong_one_is_blamed_on_the_solution() {
    let dir = folder_of_tests();
    fs::rename(dir.path().join("01.ans"), dir.path().join("01.out")).expect("rename");
    fs::write(dir.path().join("02.ans"), "0\n").expect("write a wrong answer");
    test_folder(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("01 AC"))
        // Judged as `check` judges it: one result expected, seventeen found.
        .stdout(predicate::str::contains("02 PE"))
        // The answer file is the truth, but one the solver disagrees with
        // is pointed out.
        .stdout(predicate::str::contains(
            "    note: ",
        ))
        .stdout(predicate::str::contains(
            "02.ans is not the built-in solver's answer to the input: case 1: expected 17 results, found 1",
        ))
        .stdout(predicate::str::ends_with("3 passed, 1 failed\n"));
}

#[test]
fn a_folder_without_tests_or_a_command_with_an_open_quote_is_a_usage_error() {
    let empty = tempfile::tempdir().expect("temp dir");
    test_folder(empty.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no tests (NAME.in"));
    test_folder(empty.path())
        .args(["-c", "python3 'unclosed"])
        .assert()
        .code(2);
}

/// Runs the binary with `args`, reads the first line of its output and then
/// closes the pipe, as `| head -1` does; returns its exit status.
fn status_after_reading_one_line(args: &[&str], dir: &Path) -> Option<i32> {
    use std::io::BufRead;
    let mut child = std::process::Command::new(common::binary())
        .args(args)
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("binary runs");
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut first = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut first)
        .expect("a line");
    // The reader has left: the pipe is closed.
    child.wait().expect("binary finishes").code()
}

#[test]
fn a_failing_run_exits_1_even_when_its_reader_leaves_early() {
    let dir = folder_of_tests();
    let wrong = "python3 fixtures/solutions/all-zeros.py";
    assert_eq!(
        status_after_reading_one_line(&["test", "-c", wrong], dir.path()),
        Some(1)
    );
    let save = tempfile::tempdir().expect("temp dir");
    let stress = [
        "stress",
        "-c",
        "python3 fixtures/solutions/forgets-anti-diagonal.py",
        "--seed",
        "1",
        "--save-dir",
    ];
    assert_eq!(status_after_reading_one_line(&stress, save.path()), Some(1));
}

#[test]
fn a_command_that_cannot_start_is_a_usage_error_before_any_test_runs() {
    let dir = folder_of_tests();
    for command in [
        "./no/such/solution",
        "no-such-command-on-path",
        "fixtures/solutions",
    ] {
        tictactoe()
            .args(["test", "-c", command])
            .arg(dir.path())
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!("cannot start {command}")));
        tictactoe()
            .args(["stress", "-c", command])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(format!("cannot start {command}")));
    }
}

#[test]
fn a_script_saved_with_windows_line_ends_is_a_usage_error_that_says_so() {
    let dir = folder_of_tests();
    let why = "its #! line ends in a CR (Windows line ends): convert the script to LF line ends";
    // Its interpreter missing (`/bin/sh\r`), or there and given a
    // program's name with a CR (`/usr/bin/env python3\r`).
    for script in ["windows-line-ends.sh", "windows-line-ends-env.py"] {
        tictactoe()
            .args(["test", "-c", &format!("fixtures/solutions/{script}")])
            .arg(dir.path())
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(why));
    }
    tictactoe()
        .args(["stress", "-c", "fixtures/solutions/windows-line-ends.sh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(why));
}

#[test]
fn a_run_this_tool_cannot_make_is_its_failure_not_the_solutions() {
    let dir = folder_of_tests();
    test_folder(dir.path())
        .env("TMPDIR", "/no/such/folder")
        .assert()
        .code(3)
        .stdout(
            predicate::str::is_match(r"(?m)^01 FAIL .*cannot make the run's report file")
                .expect("regex"),
        )
        .stdout(predicate::str::contains(" RE ").not());
}

#[test]
fn endless_output_is_an_output_limit_in_bounded_memory() {
    let dir = folder_of_tests();
    let capped = |args: &[&str], dir: &Path| {
        std::process::Command::new("prlimit")
            .arg(format!("--as={}", 1u64 << 30))
            .arg(common::binary())
            .args(args)
            .arg(dir)
            .output()
            .expect("prlimit runs")
    };
    let output = capped(&["test", "--time-limit", "5", "-c", "yes 0"], dir.path());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    // Four tests: three with answers, one judged against the built-in solver.
    assert_eq!(stdout.matches(" OLE ").count(), 4, "{stdout}");
    let save = tempfile::tempdir().expect("temp dir");
    let stress = [
        "stress",
        "--seed",
        "1",
        "--time-limit",
        "5",
        "-c",
        "yes 0",
        "--save-dir",
    ];
    let output = capped(&stress, save.path());
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("OLE"),
        "{output:?}"
    );
}

#[test]
fn a_solutions_standard_error_is_shown_escaped_and_cut() {
    let dir = folder_of_tests();
    let output = test_folder(dir.path())
        .args(["-c", "fixtures/solutions/terminal-escapes.sh"])
        .output()
        .expect("binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        !stdout.contains('\u{1b}') && !stdout.contains('\u{7}'),
        "{stdout:?}"
    );
    assert!(
        stdout.contains("\\u{1b}[2J\\u{1b}]0;pwned\\u{7}boom"),
        "{stdout}"
    );
    let longest = stdout.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 260, "a line of {longest} bytes");
}

#[test]
fn on_leetcode_tests_a_wrong_result_is_named_by_case_and_move_and_quoted_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = tictactoe()
        .args([
            "gen",
            "--seed",
            "3",
            "--cases",
            "2",
            "--max-n",
            "8",
            "--outcome",
            "win",
        ])
        .args(["--format", "leetcode"])
        .output()
        .expect("gen runs");
    fs::write(dir.path().join("01.in"), &input.stdout).expect("01.in");
    let answer = tictactoe()
        .arg(dir.path().join("01.in"))
        .output()
        .expect("solve runs");
    let answer = String::from_utf8(answer.stdout).expect("text");
    fs::write(dir.path().join("01.ans"), &answer).expect("01.ans");
    // The second game's winning move, its last, answered 0.
    let lines: Vec<&str> = answer.lines().collect();
    let results: Vec<&str> = lines[1].trim_matches(['[', ']']).split(',').collect();
    let last = results.len() - 1;
    let winner = results[last];
    let wrong = format!("{}\n[{},0]\n", lines[0], results[..last].join(","));
    let printed = dir.path().join("printed");
    fs::write(&printed, wrong).expect("wrong output");
    let solution = format!("cat '{}'", printed.display());
    test_folder(dir.path())
        .args(["-c", &solution])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            ": case 2, move {last}: expected {winner}, found 0\n"
        )))
        .stdout(predicate::str::contains("[null").not());
}

#[test]
fn polygon_numbered_files_and_nested_groups_are_found_in_natural_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write_test = |path: &str, answer_ext: &str, seed: &str| {
        let input = dir.path().join(path);
        fs::create_dir_all(input.parent().expect("a folder")).expect("folder");
        let generated = tictactoe()
            .args(["gen", "--seed", seed, "--cases", "2"])
            .output()
            .expect("gen runs");
        fs::write(&input, &generated.stdout).expect("input");
        let answer = tictactoe().arg(&input).output().expect("solve runs");
        fs::write(input.with_extension(answer_ext), answer.stdout).expect("answer");
    };
    // Polygon: numbered files and NAME.a, 2 before 10.
    write_test("polygon/2", "a", "1");
    write_test("polygon/10", "a", "2");
    // The ICPC package: data/sample and groups under data/secret.
    write_test("data/sample/1.in", "ans", "3");
    write_test("data/secret/group2/a.in", "ans", "4");
    write_test("data/secret/group10/a.in", "ans", "5");
    // Hidden folders and other files are not tests.
    write_test(".git/objects/1.in", "ans", "6");
    fs::write(dir.path().join("polygon/2.desc"), "not a test").expect("desc");
    let output = test_folder(dir.path()).output().expect("test runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let names: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split(' ').next())
        .collect();
    assert_eq!(
        names,
        [
            "data/sample/1",
            "data/secret/group2/a",
            "data/secret/group10/a",
            "polygon/2",
            "polygon/10",
            "5"
        ],
        "{stdout}"
    );
    assert!(stdout.ends_with("5 passed, 0 failed\n"), "{stdout}");
}

#[test]
fn a_missing_interpreter_or_a_zero_time_limit_is_a_usage_error() {
    let dir = folder_of_tests();
    let script = dir.path().join("script.sh");
    fs::write(&script, "#!/nonexistent/interpreter\necho 0\n").expect("script");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).expect("chmod");
    test_folder(dir.path())
        .args(["-c", &script.to_string_lossy()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "interpreter /nonexistent/interpreter",
        ));
    test_folder_within(dir.path(), "0").assert().code(2);
}

#[test]
fn names_are_escaped_unique_and_a_polygon_file_beside_its_in_twin_keeps_its_whole_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = "1\n3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n";
    for (name, answer) in [
        ("01", "01.a"),
        ("01.in", "01.ans"),
        // Its stem is the whole name the two above were given.
        ("01.in.in", "01.in.ans"),
        ("\u{1b}[31mevil.in", "\u{1b}[31mevil.ans"),
        // A line feed and a backslash before an n: two names, not one.
        ("a\nb.in", "a\nb.ans"),
        ("a\\nb.in", "a\\nb.ans"),
    ] {
        fs::write(dir.path().join(name), input).expect("input");
        fs::write(dir.path().join(answer), "0 0 0 0 1\n").expect("answer");
    }
    // Two names that differ in bytes that are not UTF-8.
    use std::os::unix::ffi::OsStrExt;
    for byte in [0xfe, 0xff] {
        let name = |extension: &[u8]| {
            std::ffi::OsStr::from_bytes(&[b"b", &[byte][..], extension].concat()).to_owned()
        };
        fs::write(dir.path().join(name(b".in")), input).expect("input");
        fs::write(dir.path().join(name(b".ans")), "0 0 0 0 1\n").expect("answer");
    }
    let output = test_folder(dir.path()).output().expect("test runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let names: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split(' ').next())
        .collect();
    assert_eq!(
        names,
        [
            "01",
            "01.in",
            "01.in.in",
            "\\u{1b}[31mevil",
            "a\\\\nb",
            "a\\nb",
            "b\\x{fe}",
            "b\\x{ff}",
            "8"
        ],
        "{stdout}"
    );
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
}

/// What cannot be read is never left out, nor replaced by the built-in
/// solver's answer: an input that is a FIFO, answers that are a folder or
/// a device, and a subfolder too deep to be named (its path past
/// PATH_MAX, an error even for root) each fail, and the rest still run.
#[test]
fn tests_that_cannot_be_read_fail_and_the_others_still_run() {
    let dir = folder_of_tests();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("05.in"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    fs::remove_file(dir.path().join("02.ans")).expect("remove 02.ans");
    fs::create_dir(dir.path().join("02.ans")).expect("a folder for an answer");
    fs::remove_file(dir.path().join("03.ans")).expect("remove 03.ans");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("03.ans")).expect("symlink");
    let deep = std::process::Command::new("sh")
        .arg("-c")
        .arg("name=$(printf '%0250d' 0); for level in $(seq 17); do mkdir $name && cd -P $name || exit 1; done; : > 01.in")
        .current_dir(dir.path().join("02.ans"))
        .status()
        .expect("sh runs");
    assert!(deep.success());
    test_folder(dir.path())
        .assert()
        .code(3)
        .stdout(
            predicate::str::is_match(
                r"(?m)^01 AC .*\n02 FAIL .*02\.ans is not a regular file\n02\.ans/0{250}/.*/ FAIL .*: cannot read the folder .*: File name too long .*\n03 FAIL .*03\.ans is not a regular file\n04 AC .*\n05 FAIL .*05\.in is not a regular file\n2 passed, 4 failed \(4 FAIL: the judge's own failure\)\n\z",
            )
            .expect("regex"),
        );
}

#[test]
fn a_test_file_that_is_a_broken_link_fails_that_test_instead_of_vanishing() {
    let dir = folder_of_tests();
    let link = |target: &str, name: &str| {
        std::os::unix::fs::symlink(target, dir.path().join(name)).expect("symlink")
    };
    // An input whose link lost its target, and an answer whose link did:
    // neither is left out, nor replaced by the built-in solver's answer.
    link("gone.in", "05.in");
    fs::remove_file(dir.path().join("02.ans")).expect("remove 02.ans");
    link("gone.ans", "02.ans");
    test_folder(dir.path())
        .assert()
        .code(3)
        .stdout(
            predicate::str::is_match(
                r"(?m)^01 AC .*\n02 FAIL .*cannot open .*02\.ans: .*\n03 AC .*\n04 AC .*\n05 FAIL .*: cannot open .*05\.in: [^\n]*\n3 passed, 2 failed \(2 FAIL: the judge's own failure\)\n\z",
            )
            .expect("regex"),
        );
}

#[test]
fn a_solutions_peak_memory_holds_little_of_the_harness() {
    // The kernel keeps a process's peak across its exec: a solution started
    // from within the harness's memory (a vfork) used to report the
    // harness's 4.3 MiB besides its own. `cat` needs about 1.5 MiB.
    let dir = folder_of_tests();
    let answer = dir.path().join("01.ans");
    fs::remove_file(dir.path().join("04.in")).expect("remove 04.in");
    let command = format!("cat {}", answer.display());
    let output = test_folder(dir.path())
        .args(["-c", &command, "--json"])
        .output()
        .expect("test runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let peak = report["tests"][0]["usage"]["peak_memory_kib"]
        .as_u64()
        .expect("a peak");
    assert!((1..4 * 1024).contains(&peak), "{peak} KiB for cat");
}

/// That `test` exited 0 with all four tests of [`folder_of_tests`] passed.
fn assert_every_test_of_the_folder_passed(tested: &std::process::Output) {
    assert_eq!(
        tested.status.code(),
        Some(0),
        "{}",
        common::describe(tested)
    );
    assert!(
        String::from_utf8_lossy(&tested.stdout).ends_with("4 passed, 0 failed\n"),
        "{}",
        common::describe(tested)
    );
}

/// A parent may leave SIGCHLD ignored (bash passes an ignored signal on to
/// what it runs) or blocked: `test` and `stress` wait for their runs by it.
/// Ignored, the process once died of SIGSEGV (139) with no word; blocked,
/// every run was a TLE.
#[test]
fn a_parent_that_ignores_or_blocks_the_child_signal_changes_no_verdict() {
    let dir = folder_of_tests();
    let parents = [
        "import os, signal, sys; signal.signal(signal.SIGCHLD, signal.SIG_IGN); \
         os.execv(sys.argv[1], sys.argv[1:])",
        "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGCHLD]); \
         os.execv(sys.argv[1], sys.argv[1:])",
    ];
    for parent in parents {
        let run = |args: &[&str]| {
            std::process::Command::new("python3")
                .args(["-c", parent])
                .arg(common::binary())
                .args(args)
                .output()
                .expect("python3 runs")
        };
        let tested = run(&["test", &dir.path().to_string_lossy(), "--time-limit", "20"]);
        assert_eq!(
            tested.status.code(),
            Some(0),
            "{parent}: {}",
            common::describe(&tested)
        );
        assert!(
            String::from_utf8_lossy(&tested.stdout).ends_with("4 passed, 0 failed\n"),
            "{parent}: {}",
            common::describe(&tested)
        );
        let builtin = format!("{} solve", common::binary().display());
        let stressed = run(&[
            "stress",
            "-c",
            &builtin,
            "--iterations",
            "3",
            "--time-limit",
            "20",
        ]);
        assert_eq!(
            stressed.status.code(),
            Some(0),
            "{parent}: {}",
            common::describe(&stressed)
        );
    }
}

/// The run's report file is made by the runner and written by name by the
/// supervisor: under a umask that takes the owner's write bit (0200) it was
/// read-only, and every run an RE ("ended without a report"). Root writes
/// any file, so the run is another user's.
#[test]
fn a_umask_without_the_owners_write_bit_changes_no_verdict() {
    use std::os::unix::fs::PermissionsExt;
    let dir = folder_of_tests();
    let binary = dir.path().join("tictactoe");
    fs::copy(common::binary(), &binary).expect("binary copied");
    for path in [dir.path().to_path_buf(), binary.clone()] {
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let tested = std::process::Command::new("setpriv")
        .args([
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            "sh",
            "-c",
        ])
        .arg("umask 0200 && cd / && exec \"$0\" test \"$1\" --time-limit 20")
        .arg(&binary)
        .arg(dir.path())
        .output()
        .expect("setpriv runs");
    assert_every_test_of_the_folder_passed(&tested);
}

/// Each run starts this binary again as its supervisor: by the path it was
/// started by, it failed every run after the file was removed or replaced
/// (a `cargo install` over it mid-run) as "cannot run" the solution. Here
/// the first test's solution removes it.
#[test]
#[cfg(target_os = "linux")]
fn removing_the_binary_while_tests_run_fails_none_of_them() {
    let dir = folder_of_tests();
    let binary = dir.path().join("tictactoe");
    fs::copy(common::binary(), &binary).expect("binary copied");
    let solution = dir.path().join("removes-the-binary.sh");
    fs::write(
        &solution,
        format!(
            "#!/bin/sh\nrm -f '{}'\nexec '{}' solve\n",
            binary.display(),
            common::binary().display()
        ),
    )
    .expect("solution written");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&solution, fs::Permissions::from_mode(0o755)).expect("chmod");
    let tested = std::process::Command::new(&binary)
        .arg("test")
        .arg(dir.path())
        .args(["--time-limit", "20", "--jobs", "1", "-c"])
        .arg(&solution)
        .output()
        .expect("test runs");
    assert!(!binary.exists(), "the solution removed the binary");
    assert_every_test_of_the_folder_passed(&tested);
}

/// Without PATH (`env -i`, a bare judge environment) the system starts a
/// command by name from its default path: `test` once refused it as no
/// such command on PATH (exit 2).
#[test]
fn a_command_named_without_path_in_the_environment_starts_as_the_system_would() {
    let dir = folder_of_tests();
    let command = format!("sh -c '\"$0\" solve' '{}'", common::binary().display());
    let tested = std::process::Command::new(common::binary())
        .env_clear()
        .arg("test")
        .arg(dir.path())
        .args(["--time-limit", "20", "-c", &command])
        .output()
        .expect("test runs");
    assert_every_test_of_the_folder_passed(&tested);
}
