//! `tictactoe package`, its packages checked by the judges' own tools:
//! problemtools' `verifyproblem` on the Kattis package, BAPCtools' `bt` on
//! the ICPC one, and the DOMjudge zip imported and its compare step run the
//! way DOMjudge runs them. Every submission must get the verdict its folder
//! names, and the same command must make the same bytes.

// Unix only: the packages' run bits and the judges' tools are Unix's.
#![cfg(unix)]

mod common;

use common::{describe, tictactoe};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// Writes a package with `args` to `place`.
fn package(args: &[&str], place: &Path) {
    tictactoe()
        .arg("package")
        .args(args)
        .arg(place)
        .assert()
        .success();
}

/// Every file below `dir` with its bytes and whether it runs, by path.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>, bool)> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).expect("folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let mode = path.metadata().expect("metadata").permissions().mode();
                let name = path.strip_prefix(dir).expect("below").display().to_string();
                files.push((name, fs::read(&path).expect("file"), mode & 0o111 != 0));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn verifyproblem_accepts_the_kattis_package_and_every_submission_gets_its_verdict() {
    let dir = tempfile::tempdir().expect("temp dir");
    let problem = dir.path().join("tictactoe");
    package(&["--judge", "kattis"], &problem);
    // A judge's flags for the input validator come after the bounds its
    // script pins, and the later one counts: a bound given again is not a
    // usage error (which verifyproblem reports as one a test file).
    fs::write(
        problem.join("data/secret/testdata.yaml"),
        "input_validator_flags: --max-n 100\n",
    )
    .expect("testdata.yaml");
    let (output, stdout) = common::verified_without_errors(&problem);
    for submission in [
        "accepted/counters.cpp (C++) OK: AC",
        "accepted/counters.py (Python 3 (w/PyPy3)) OK: AC",
        "wrong_answer/no_anti_diagonal.cpp (C++) OK: WA",
        "wrong_answer/no_diagonal.py (Python 3 (w/PyPy3)) OK: WA",
        "wrong_answer/anti_diagonal_off_by_one.py (Python 3 (w/PyPy3)) OK: WA",
        "wrong_answer/counts_marks.py (Python 3 (w/PyPy3)) OK: WA",
        "wrong_answer/state_not_reset.py (Python 3 (w/PyPy3)) OK: WA",
        "wrong_answer/one_line.py (Python 3 (w/PyPy3)) OK: WA",
        "wrong_answer/full_board_is_a_draw.py (Python 3 (w/PyPy3)) OK: WA",
    ] {
        assert!(
            stdout.contains(submission),
            "{submission}\n{}",
            describe(&output)
        );
    }
}

#[test]
fn the_input_validators_bounds_give_way_to_a_judges_flags() {
    let dir = tempfile::tempdir().expect("temp dir");
    let problem = dir.path().join("tictactoe");
    package(&["--judge", "kattis"], &problem);
    let sample = fs::read(problem.join("data/sample/1.in")).expect("sample");
    let validate = |flags: &[&str]| {
        Command::new(problem.join("input_validators/tictactoe/run"))
            .args(flags)
            .stdin(fs::File::open(problem.join("data/sample/1.in")).expect("sample"))
            .output()
            .expect("the validator runs")
            .status
            .code()
    };
    assert!(
        sample.starts_with(b"1\n3\n"),
        "the sample is one case on N = 3"
    );
    assert_eq!(validate(&[]), Some(42));
    assert_eq!(validate(&["--max-n", "100"]), Some(42));
    assert_eq!(validate(&["--max-n", "2"]), Some(43));
    assert_eq!(validate(&["--min-n", "3", "--max-n", "3"]), Some(42));
}

#[test]
fn bapctools_validates_and_runs_the_icpc_package_with_tictactoe_on_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let contest = dir.path().join("contest");
    package(
        &["--judge", "icpc", "--use-path"],
        &contest.join("tictactoe"),
    );
    assert!(
        !contest
            .join("tictactoe/output_validator/tictactoe")
            .exists()
    );
    // Answers bt's strict check must reject (43): a wrong result, and a
    // right one with CRLF line ends. They once failed `bt validate` with
    // the validator's 3 ("crashed") and the CRLF answer passed.
    let data = contest.join("tictactoe/data");
    let invalid = data.join("invalid_answer");
    fs::create_dir(&invalid).expect("folder");
    let answer = fs::read_to_string(data.join("sample/2.ans")).expect("sample answer");
    for (name, bad) in [
        ("wrong-result", answer.replacen(" 2\n", " 1\n", 1)),
        ("crlf", answer.replace('\n', "\r\n")),
    ] {
        assert_ne!(bad, answer);
        fs::copy(data.join("sample/2.in"), invalid.join(format!("{name}.in"))).expect("input");
        fs::write(invalid.join(format!("{name}.ans")), bad).expect("answer");
    }
    let report = common::bt_validated_and_run(&contest);
    assert!(report.contains("using timelimit: 3.0s"), "{report}");
    for line in [
        "accepted/counters.cpp:",
        "accepted/counters.py:",
        "wrong_answer/no_anti_diagonal.cpp:",
        "wrong_answer/one_line.py:",
        "wrong_answer/state_not_reset.py:",
        "wrong_answer/full_board_is_a_draw.py:",
    ] {
        let verdict = if line.starts_with("accepted") {
            "AC"
        } else {
            "WA"
        };
        let found = report
            .lines()
            .find(|text| text.contains(line))
            .unwrap_or_else(|| panic!("{line} missing: {report}"));
        assert!(found.contains(verdict), "{found}");
    }
}

/// Runs `command` in `dir` with an empty environment, as `user` if given.
fn bare(dir: &Path, user: Option<&str>, command: &[&str]) -> Command {
    let mut run = Command::new("setpriv");
    match user {
        Some(user) => run.args([
            &format!("--reuid={user}"),
            "--regid=nogroup",
            "--clear-groups",
        ]),
        None => run.arg("--"),
    };
    run.arg("env").arg("-i").args(command).current_dir(dir);
    run
}

#[test]
fn the_domjudge_zip_imports_builds_and_judges_as_domjudge_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let zipped = dir.path().join("tictactoe.zip");
    package(&["--judge", "domjudge"], &zipped);
    let mut archive =
        zip::ZipArchive::new(fs::File::open(&zipped).expect("zip")).expect("a zip archive");
    for name in [
        "problem.yaml",
        "domjudge-problem.ini",
        "problem.html",
        "data/sample/1.in",
    ] {
        assert!(archive.by_name(name).is_ok(), "{name} missing");
    }
    // DOMjudge's import: the output validator's files in one flat folder,
    // the run bit on `build` and `run` only.
    let compare = dir.path().join("compare");
    fs::create_dir(&compare).expect("folder");
    for index in 0..archive.len() {
        let mut file = archive.by_index(index).expect("entry");
        let full = file.name().expect("a UTF-8 name").into_owned();
        let Some(name) = full.strip_prefix("output_validators/tictactoe/") else {
            continue;
        };
        let name = name.rsplit('/').next().expect("a name").to_owned();
        let path = compare.join(&name);
        let mut out = fs::File::create(&path).expect("file");
        std::io::copy(&mut file, &mut out).expect("extracted");
        let mode = if name == "build" || name == "run" {
            0o755
        } else {
            0o644
        };
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).expect("chmod");
    }
    // The judgehost builds it as its run user, who owns none of the files,
    // in the folder made writable to all (judge/build_executable.sh:
    // `chmod a+rwx "$WORKDIR"`, then runguard -u "$RUNUSER"), with no PATH
    // to a tictactoe, no environment, and a umask of its own; then gives
    // every file back to its own user and takes the write bits away
    // (`chown -R`, `chmod -R go-w`).
    fs::set_permissions(&compare, fs::Permissions::from_mode(0o777)).expect("chmod");
    let built = bare(
        &compare,
        Some("nobody"),
        &["sh", "-c", "umask 077 && exec ./build"],
    )
    .output()
    .expect("build runs");
    assert!(built.status.success(), "{}", describe(&built));
    let judgedaemon = std::os::unix::fs::MetadataExt::uid(&fs::metadata(dir.path()).expect("dir"));
    for entry in fs::read_dir(&compare).expect("folder") {
        let path = entry.expect("entry").path();
        std::os::unix::fs::chown(&path, Some(judgedaemon), None).expect("chown");
        let mode = fs::metadata(&path).expect("file").permissions().mode();
        fs::set_permissions(&path, fs::Permissions::from_mode(mode & !0o022)).expect("chmod");
    }
    fs::set_permissions(&compare, fs::Permissions::from_mode(0o755)).expect("chmod");
    // The compare step runs as yet another user (judgedaemons share the
    // built files), empty environment, feedback folder its own, output on
    // standard input.
    let data = dir.path().join("data");
    fs::create_dir(&data).expect("folder");
    for name in [
        "data/secret/01-every-line-odd-n.in",
        "data/secret/01-every-line-odd-n.ans",
    ] {
        let mut file = archive.by_name(name).expect("test file");
        let target = data.join(name.rsplit('/').next().expect("a name"));
        std::io::copy(&mut file, &mut fs::File::create(target).expect("file")).expect("copied");
    }
    let input = data.join("01-every-line-odd-n.in");
    let answer = data.join("01-every-line-odd-n.ans");
    let right = fs::read_to_string(&answer).expect("answer");
    let one_line = right.split_whitespace().collect::<Vec<_>>().join(" ") + "\n";
    let last_case_wrong = {
        let mut lines: Vec<String> = right.lines().map(str::to_owned).collect();
        let last = lines.pop().expect("lines");
        lines.push(format!("{} 0", last.rsplit_once(' ').expect("results").0));
        lines.join("\n") + "\n"
    };
    for (output, status) in [(right.clone(), 42), (one_line, 43), (last_case_wrong, 43)] {
        let feedback = tempfile::tempdir().expect("feedback folder");
        fs::set_permissions(feedback.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
        let printed = data.join("team.out");
        fs::write(&printed, &output).expect("output");
        fs::set_permissions(&data, fs::Permissions::from_mode(0o755)).expect("chmod");
        let judged = bare(
            &compare,
            Some("daemon"),
            &[
                "./run",
                &input.to_string_lossy(),
                &answer.to_string_lossy(),
                &format!("{}/", feedback.path().display()),
                "space_change_sensitive",
            ],
        )
        .stdin(fs::File::open(&printed).expect("output"))
        .output()
        .expect("run runs");
        assert_eq!(judged.status.code(), Some(status), "{}", describe(&judged));
    }
}

/// BAPCtools links a validator's files into its build folder rather than
/// copying them, so `build` runs on the package's own files: in a read-only
/// checkout, or one that another user owns, a `chmod` there fails, and it
/// once failed every validator's build.
#[test]
fn the_validators_build_and_run_on_files_the_judge_cannot_change() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let problem = dir.path().join("tictactoe");
    package(&["--judge", "kattis"], &problem);
    for folder in ["input_validators/tictactoe", "output_validators/tictactoe"] {
        let built = bare(&problem.join(folder), Some("nobody"), &["./build"])
            .output()
            .expect("build runs");
        assert!(built.status.success(), "{folder}: {}", describe(&built));
    }
    let validated = bare(
        &problem.join("input_validators/tictactoe"),
        Some("nobody"),
        &["./run"],
    )
    .stdin(fs::File::open(problem.join("data/sample/1.in")).expect("sample"))
    .output()
    .expect("run runs");
    assert_eq!(
        validated.status.code(),
        Some(42),
        "{}",
        describe(&validated)
    );
}

/// A sandbox that allows one process (isolate's and DOMjudge's runguard's
/// setting): the validators' `run` scripts must start the binary without
/// a fork. A `$(dirname "$0")` in them once needed one: "Cannot fork",
/// exit 2, a judge error on every test.
#[test]
fn the_validators_run_in_a_sandbox_of_one_process() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let problem = dir.path().join("tictactoe");
    package(&["--judge", "kattis"], &problem);
    let sample = |name: &str| problem.join("data/sample").join(name);
    let right = fs::read_to_string(sample("1.ans")).expect("answer");
    let wrong = dir.path().join("wrong.out");
    fs::write(&wrong, right.replacen('0', "1", 1)).expect("wrong output");
    fs::set_permissions(&wrong, fs::Permissions::from_mode(0o644)).expect("chmod");
    let one_process = |folder: &str, args: &[&str], stdin: &Path| {
        let mut command = vec!["prlimit", "--nproc=1", "./run"];
        command.extend(args);
        bare(&problem.join(folder), Some("nobody"), &command)
            .stdin(fs::File::open(stdin).expect("standard input"))
            .output()
            .expect("prlimit runs")
    };
    let validated = one_process("input_validators/tictactoe", &[], &sample("1.in"));
    assert_eq!(
        validated.status.code(),
        Some(42),
        "{}",
        describe(&validated)
    );
    for (output, verdict) in [(sample("1.ans"), 42), (wrong, 43)] {
        let feedback = tempfile::tempdir().expect("feedback folder");
        fs::set_permissions(feedback.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
        let (input, answer) = (sample("1.in"), sample("1.ans"));
        let args = [input.to_str(), answer.to_str(), feedback.path().to_str()]
            .map(|arg| arg.expect("a UTF-8 path"));
        let checked = one_process("output_validators/tictactoe", &args, &output);
        assert_eq!(
            checked.status.code(),
            Some(verdict),
            "{}",
            describe(&checked)
        );
    }
}

/// Everything in `dir` but `except`, by name.
fn left_in(dir: &Path, except: &str) -> Vec<String> {
    fs::read_dir(dir)
        .expect("folder")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name != except)
        .collect()
}

/// `DIR/.` once failed with 74 when the finished package was renamed onto
/// it, leaving the package and an empty folder beside it, hidden.
#[test]
fn a_folder_named_with_a_trailing_dot_is_written_and_a_failure_leaves_nothing_beside_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let problem = dir.path().join("tictactoe");
    fs::create_dir(&problem).expect("folder");
    for (judge, spelled) in [("kattis", "tictactoe/."), ("icpc", "tictactoe/./")] {
        tictactoe()
            .current_dir(dir.path())
            .args(["package", "--force", "--judge", judge, spelled])
            .assert()
            .success();
        assert!(problem.join("problem.yaml").is_file(), "{spelled}");
        assert_eq!(
            left_in(dir.path(), "tictactoe"),
            Vec::<String>::new(),
            "{spelled}"
        );
    }
    // `link/` is the folder the link points to, as in a shell: the package
    // goes there, and the link stays.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&problem, &link).expect("link");
    fs::remove_file(problem.join("problem.yaml")).expect("a file removed");
    tictactoe()
        .current_dir(dir.path())
        .args(["package", "--force", "--judge", "kattis", "link/"])
        .assert()
        .success();
    assert!(
        problem.join("problem.yaml").is_file(),
        "written through the link"
    );
    assert!(
        fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    fs::remove_file(&link).expect("link removed");
    // A link to nowhere in the package's place cannot be replaced by a folder.
    let dangling = dir.path().join("elsewhere");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).expect("link");
    tictactoe()
        .args(["package", "--judge", "kattis"])
        .arg(&dangling)
        .assert()
        .code(74);
    assert_eq!(
        left_in(dir.path(), "tictactoe"),
        vec!["elsewhere".to_owned()]
    );
}

/// A package interrupted while it was being written once left its hidden
/// temporary folder (with a copy of the binary) beside the target, in about
/// a quarter of the runs.
#[test]
fn an_interrupted_package_leaves_the_old_one_or_the_new_one_and_nothing_beside_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let problem = dir.path().join("tictactoe");
    package(&["--judge", "kattis"], &problem);
    // The signals are spread over a whole run, as long as one takes here
    // and now (a loaded CI machine runs slower).
    let started = std::time::Instant::now();
    package(&["--judge", "kattis", "--force"], &problem);
    let whole = started.elapsed();
    // Proof that signals came while packages were being written, not only
    // before: a run ended by its signal that left a new package in place.
    // Tried until one did, or long past any chance of it.
    let folder = || {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(&problem).expect("package").ino()
    };
    let mut replaced_then_ended = 0;
    let mut attempt = 0u32;
    while attempt < 40 || (replaced_then_ended == 0 && attempt < 200) {
        attempt += 1;
        let before = folder();
        let mut run = Command::new(common::binary())
            .args(["package", "--force", "--judge", "kattis"])
            .arg(&problem)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("binary runs");
        // From before the folder is made until after it is renamed.
        std::thread::sleep(whole * (attempt % 20) / 16);
        // SIGTERM, as Ctrl-C's SIGINT may come ignored from a background shell.
        let pid = i32::try_from(run.id()).expect("a process id");
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGTERM,
        )
        .expect("signal sent");
        let ended = run.wait().expect("ended");
        assert_eq!(
            left_in(dir.path(), "tictactoe"),
            Vec::<String>::new(),
            "attempt {attempt}"
        );
        assert!(problem.join("problem.yaml").is_file(), "attempt {attempt}");
        use std::os::unix::process::ExitStatusExt;
        if folder() != before && ended.signal().is_some() {
            replaced_then_ended += 1;
        }
    }
    assert!(
        replaced_then_ended > 0,
        "no signal came while a package was being written"
    );
}

#[test]
fn the_same_command_makes_the_same_bytes_and_a_full_folder_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = dir.path().join("first");
    let second = dir.path().join("second");
    package(&["--judge", "kattis", "--seed", "7"], &first);
    package(&["--judge", "kattis", "--seed", "7"], &second);
    assert!(tree(&first) == tree(&second), "two runs differ");
    let zips = [dir.path().join("a.zip"), dir.path().join("b.zip")];
    for zipped in &zips {
        package(&["--judge", "domjudge", "--seed", "7"], zipped);
    }
    assert!(fs::read(&zips[0]).expect("zip") == fs::read(&zips[1]).expect("zip"));
    // A folder with something in it is kept, unless --force.
    tictactoe()
        .args(["package", "--judge", "kattis"])
        .arg(&first)
        .assert()
        .code(2);
    package(&["--judge", "kattis", "--seed", "8", "--force"], &first);
    assert!(tree(&first) != tree(&second));
}

#[test]
fn a_folder_that_holds_the_current_one_a_file_or_a_bad_short_name_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let inner = dir.path().join("inner");
    fs::create_dir(&inner).expect("folder");
    fs::write(dir.path().join("keep.txt"), "keep").expect("file");
    for place in [".", ".."] {
        tictactoe()
            .current_dir(&inner)
            .args(["package", "--judge", "kattis", "--force", place])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("holds the current folder"));
    }
    assert_eq!(
        fs::read_to_string(dir.path().join("keep.txt")).expect("kept"),
        "keep"
    );
    assert!(inner.is_dir());
    tictactoe()
        .args(["package", "--judge", "kattis"])
        .arg(dir.path().join("keep.txt"))
        .assert()
        .code(2);
    tictactoe()
        .args(["package", "--judge", "icpc"])
        .arg(dir.path().join("Tic-Tac-Toe"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("short name"));
    // A zip's place that is a folder, empty or not, is named as one.
    tictactoe()
        .args(["package", "--judge", "domjudge", "--force"])
        .arg(&inner)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "is a folder; a DOMjudge package is one zip file",
        ));
    tictactoe()
        .args(["package", "--judge", "domjudge"])
        .arg(dir.path().join("keep.txt"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "keep.txt exists: choose another place",
        ));
    // A zip's folder is made when missing.
    package(
        &["--judge", "domjudge", "--use-path"],
        &dir.path().join("new/ttt.zip"),
    );
}
