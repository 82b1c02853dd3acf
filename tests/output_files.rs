//! No file is ever destroyed: an output that names an input is refused
//! before anything is written, and an output file is replaced only by a
//! complete one.

mod common;

use common::tictactoe;
use std::fs;

const EXAMPLE: &str = "1\n3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n";

#[test]
fn an_output_that_is_the_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("same.in");
    fs::write(&input, EXAMPLE).expect("input");
    // By the same name, by another name for the same file, and as standard input.
    let other_name = dir.path().join(".").join("same.in");
    let hard_link = dir.path().join("linked.in");
    fs::hard_link(&input, &hard_link).expect("hard link");
    for output in [&input, &other_name, &hard_link] {
        tictactoe()
            .arg(&input)
            .arg("-o")
            .arg(output)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("would destroy the input"));
    }
    // Standard input opened on the file itself, as a shell's `<` does.
    let status = std::process::Command::new(common::binary())
        .arg("-o")
        .arg(&input)
        .stdin(fs::File::open(&input).expect("input"))
        .stderr(std::process::Stdio::null())
        .status()
        .expect("runs");
    assert_eq!(status.code(), Some(2));
    tictactoe()
        .args([
            "convert",
            "--to",
            "coding-ninjas",
            "--from",
            "coding-ninjas",
        ])
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .assert()
        .code(2);
    assert_eq!(fs::read_to_string(&input).expect("input"), EXAMPLE);
}

#[test]
fn a_run_that_fails_leaves_the_old_output_untouched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("out.txt");
    fs::write(&output, "the previous results\n").expect("old output");
    let broken = dir.path().join("broken.in");
    fs::write(&broken, "2\n3\n1\n0 0 1\n3\n1\n9 9 1\n").expect("input");
    tictactoe()
        .arg(&broken)
        .arg("-o")
        .arg(&output)
        .assert()
        .code(65);
    assert_eq!(
        fs::read_to_string(&output).expect("output"),
        "the previous results\n"
    );
    // Nothing is left beside it either.
    let left: Vec<_> = fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(left.len(), 2, "{left:?}");
    // A run that succeeds replaces it.
    let good = dir.path().join("good.in");
    fs::write(&good, EXAMPLE).expect("input");
    tictactoe()
        .arg(&good)
        .arg("-o")
        .arg(&output)
        .assert()
        .success();
    assert_eq!(
        fs::read_to_string(&output).expect("output"),
        "0 0 0 0 0 0 1\n"
    );
}

#[test]
fn gen_does_not_replace_tests_unless_forced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("tests");
    let generate = |extra: &[&str]| {
        let mut command = tictactoe();
        command
            .args(["gen", "--seed", "1", "--count", "2", "--out-dir"])
            .arg(&folder)
            .args(extra);
        command
    };
    generate(&[]).assert().success();
    fs::write(folder.join("02.ans"), "hand-made\n").expect("a hand-made answer");
    generate(&[])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "02.ans exists and is not what this command writes: gen does not replace tests \
         unless given --force",
        ));
    assert_eq!(
        fs::read_to_string(folder.join("02.ans")).expect("answer"),
        "hand-made\n"
    );
    generate(&["--force"]).assert().success();
    assert_ne!(
        fs::read_to_string(folder.join("02.ans")).expect("answer"),
        "hand-made\n"
    );
}

#[cfg(unix)]
#[test]
fn a_device_or_a_link_is_written_where_it_points_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.txt");
    fs::write(&input, EXAMPLE).expect("input");
    tictactoe()
        .arg(&input)
        .args(["-o", "/dev/null"])
        .assert()
        .success();
    let null = fs::metadata("/dev/null").expect("/dev/null");
    assert!(null.file_type().is_char_device(), "/dev/null was replaced");
    let target = dir.path().join("results.txt");
    fs::write(&target, "old\n").expect("target");
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    tictactoe()
        .arg(&input)
        .arg("-o")
        .arg(&link)
        .assert()
        .success();
    assert!(
        fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_to_string(&target).expect("target"),
        "0 0 0 0 0 0 1\n"
    );
}

#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.txt");
    fs::write(&input, EXAMPLE).expect("input");
    let private = dir.path().join("private.txt");
    fs::write(&private, "old\n").expect("old");
    fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).expect("chmod");
    tictactoe()
        .arg(&input)
        .arg("-o")
        .arg(&private)
        .assert()
        .success();
    let mode = fs::metadata(&private)
        .expect("private")
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
}

/// On every platform: Windows keeps a file's links where its metadata does
/// not say them, and a hard-linked output was once split off there.
#[test]
fn a_file_with_other_names_is_written_through_every_name_and_kept_on_failure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (input, broken) = (dir.path().join("in.txt"), dir.path().join("broken.in"));
    fs::write(&input, EXAMPLE).expect("input");
    fs::write(&broken, "BROKEN\n").expect("input");
    let linked = dir.path().join("linked.txt");
    let other_name = dir.path().join("other-name.txt");
    fs::write(&linked, "old\n").expect("old");
    fs::hard_link(&linked, &other_name).expect("hard link");
    tictactoe()
        .arg(&broken)
        .arg("-o")
        .arg(&linked)
        .assert()
        .code(65);
    for name in [&linked, &other_name] {
        assert_eq!(fs::read_to_string(name).expect("output"), "old\n");
    }
    tictactoe()
        .arg(&input)
        .arg("-o")
        .arg(&linked)
        .assert()
        .success();
    for name in [&linked, &other_name] {
        assert_eq!(fs::read_to_string(name).expect("output"), "0 0 0 0 0 0 1\n");
    }
}

#[test]
fn a_folder_as_the_output_is_refused_as_a_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.txt");
    fs::write(&input, EXAMPLE).expect("input");
    tictactoe()
        .arg(&input)
        .arg("-o")
        .arg(dir.path())
        .assert()
        .code(74)
        .stderr(predicates::str::contains("is a directory"));
}

/// `-o FILE` where standard output is already appended to FILE (`cmd /c
/// "tictactoe in -o out >> out"` on Windows) goes through standard output,
/// as on Unix, where renaming over the open file would fail.
#[test]
fn an_output_that_standard_output_is_open_on_is_written_through_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.txt");
    fs::write(&input, EXAMPLE).expect("input");
    let out = dir.path().join("out.txt");
    fs::write(&out, "before\n").expect("old");
    let appending = fs::OpenOptions::new()
        .append(true)
        .open(&out)
        .expect("output");
    let status = std::process::Command::new(common::binary())
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .stdout(appending)
        .status()
        .expect("runs");
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        fs::read_to_string(&out).expect("output"),
        "before\n0 0 0 0 0 0 1\n"
    );
}

/// Windows' devices have no metadata; they are written and read where
/// they are, as `/dev/null` is.
#[cfg(windows)]
#[test]
fn the_null_device_is_an_output_and_an_empty_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.txt");
    fs::write(&input, EXAMPLE).expect("input");
    for name in ["NUL", "nul"] {
        tictactoe()
            .arg(&input)
            .args(["-o", name])
            .assert()
            .success()
            .stdout("");
        tictactoe()
            .args(["convert", "--to", "leetcode"])
            .arg(&input)
            .args(["-o", name])
            .assert()
            .success();
    }
    // An empty input: the data error an empty file gets.
    tictactoe()
        .arg("NUL")
        .assert()
        .code(65)
        .stderr(predicates::str::contains("NUL"));
    // testlib: an empty output file (PE), not a missing one.
    let answer = dir.path().join("in.ans");
    fs::write(&answer, "0 0 0 0 0 0 1\n").expect("answer");
    tictactoe()
        .args(["check", "--protocol", "testlib"])
        .arg(&input)
        .arg("NUL")
        .arg(&answer)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "the output ends before this result",
        ));
}

#[cfg(unix)]
#[test]
fn a_run_that_fails_leaves_a_file_reached_by_a_link_or_another_name_untouched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (good, broken) = (dir.path().join("good.in"), dir.path().join("broken.in"));
    fs::write(&good, EXAMPLE).expect("input");
    fs::write(&broken, "BROKEN\n").expect("input");
    let missing = dir.path().join("missing.in");
    let target = dir.path().join("results.txt");
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let other_name = dir.path().join("other-name.txt");
    fs::write(&target, "the previous results\n").expect("old output");
    fs::hard_link(&target, &other_name).expect("hard link");
    for output in [&link, &other_name] {
        for (command, inputs, status) in [
            (&[][..], &[&good, &broken][..], 65),
            (&[], &[&missing], 66),
            (&["convert", "--to", "leetcode"], &[&broken], 65),
        ] {
            tictactoe()
                .args(command)
                .args(inputs)
                .arg("-o")
                .arg(output)
                .assert()
                .code(status);
            for name in [&target, &other_name] {
                assert_eq!(
                    fs::read_to_string(name).expect("output"),
                    "the previous results\n",
                    "{command:?} {inputs:?} -o {}",
                    output.display()
                );
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn a_file_size_limit_is_checked_before_a_hard_linked_file_is_touched() {
    // Results that cannot all be written in leave the old bytes: refused
    // before the file is touched, not cut off by SIGXFSZ halfway.
    let dir = tempfile::tempdir().expect("temp dir");
    let good = dir.path().join("good.in");
    fs::write(&good, EXAMPLE).expect("input");
    let target = dir.path().join("results.txt");
    let other_name = dir.path().join("other-name.txt");
    fs::write(&target, "the previous results\n").expect("old output");
    fs::hard_link(&target, &other_name).expect("hard link");
    let status = std::process::Command::new("prlimit")
        .arg("--fsize=5")
        .arg(env!("CARGO_BIN_EXE_tictactoe"))
        .arg(&good)
        .arg("-o")
        .arg(&other_name)
        .output()
        .expect("prlimit runs");
    assert_eq!(status.status.code(), Some(74), "{status:?}");
    assert!(String::from_utf8_lossy(&status.stderr).contains("file size limit"));
    assert_eq!(
        fs::read_to_string(&target).expect("output"),
        "the previous results\n"
    );
}

// Linux only: prlimit is util-linux's.
#[cfg(target_os = "linux")]
#[test]
fn standard_output_at_a_file_size_limit_is_a_write_error_not_a_signal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input: String = std::iter::once("100\n".to_owned())
        .chain((0..100).map(|_| "3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n".to_owned()))
        .collect();
    let input_path = dir.path().join("in.txt");
    fs::write(&input_path, input).expect("input");
    let results = fs::File::create(dir.path().join("results.txt")).expect("output");
    let run = std::process::Command::new("prlimit")
        .arg("--fsize=100")
        .arg(env!("CARGO_BIN_EXE_tictactoe"))
        .arg(&input_path)
        .stdout(results)
        .output()
        .expect("prlimit runs");
    // SIGXFSZ killed it before, with no word: status 153 from a shell.
    assert_eq!(run.status.code(), Some(74), "{run:?}");
    assert!(
        String::from_utf8_lossy(&run.stderr).starts_with("error: cannot write the output:"),
        "{run:?}"
    );
}

// Linux only: elsewhere a replacement has a hidden name while it is written.
#[cfg(target_os = "linux")]
#[test]
fn a_run_stopped_by_a_signal_or_a_file_size_limit_leaves_nothing_beside_the_output() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().expect("temp dir");
    {
        use std::os::unix::fs::OpenOptionsExt;
        let unnamed = fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_TMPFILE)
            .open(dir.path());
        if let Err(error) = unnamed {
            // Overlayfs before Linux 6.6, NFS, FUSE: a named file it is.
            eprintln!("skipped: no unnamed temporary files here ({error})");
            return;
        }
    }
    let output = dir.path().join("out.txt");
    fs::write(&output, "the previous results\n").expect("old output");
    // Stopped while it waits for more input, its replacement begun.
    let mut run = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["--threads", "1", "-o"])
        .arg(&output)
        .stdin(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut input = run.stdin.take().expect("stdin");
    input
        .write_all(b"2\n3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n3\n")
        .expect("input");
    input.flush().expect("input");
    let descriptors = format!("/proc/{}/fd", run.id());
    let writing = || {
        fs::read_dir(&descriptors)
            .into_iter()
            .flatten()
            .flatten()
            .any(|entry| {
                fs::read_link(entry.path())
                    .is_ok_and(|target| target.starts_with(dir.path()) && target != output)
            })
    };
    let began = std::time::Instant::now();
    while !writing() {
        assert!(began.elapsed().as_secs() < 60, "no replacement begun");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &run.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    run.wait().expect("run ends");
    drop(input);
    // Stopped by the kernel at a file size limit.
    let big: String = std::iter::once("100\n".to_owned())
        .chain((0..100).map(|_| "3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n".to_owned()))
        .collect();
    let status = Command::new("prlimit")
        .arg("--fsize=100")
        .arg(env!("CARGO_BIN_EXE_tictactoe"))
        .arg("-o")
        .arg(&output)
        .stdin(Stdio::piped())
        .spawn()
        .and_then(|mut run| {
            run.stdin.take().expect("stdin").write_all(big.as_bytes())?;
            run.wait()
        })
        .expect("prlimit runs");
    assert!(!status.success());
    let left: Vec<_> = fs::read_dir(dir.path())
        .expect("dir")
        .map(|entry| entry.expect("entry").file_name())
        .collect();
    assert_eq!(left, ["out.txt"]);
    assert_eq!(
        fs::read_to_string(&output).expect("output"),
        "the previous results\n"
    );
}

#[test]
fn standard_output_appended_to_the_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.txt");
    fs::write(&input, EXAMPLE).expect("input");
    for command in [
        &[][..],
        &["convert", "--to", "leetcode"],
        &["trace"],
        &["validate"],
    ] {
        // `tictactoe in.txt >> in.txt`, and the same through standard input.
        for through_stdin in [false, true] {
            let appending = || {
                fs::OpenOptions::new()
                    .append(true)
                    .open(&input)
                    .expect("input")
            };
            let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_tictactoe"));
            run.args(command).stdout(appending());
            if through_stdin {
                run.stdin(fs::File::open(&input).expect("input"));
            } else {
                run.arg(&input);
            }
            let output = run.output().expect("binary runs");
            assert_eq!(output.status.code(), Some(2), "{command:?} {through_stdin}");
            assert!(
                String::from_utf8_lossy(&output.stderr).contains("would destroy the input"),
                "{output:?}"
            );
            assert_eq!(fs::read_to_string(&input).expect("input"), EXAMPLE);
        }
    }
}

#[cfg(unix)]
#[test]
fn a_replaced_file_keeps_its_set_id_bits_and_another_users_file_is_written_into() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.txt");
    fs::write(&input, EXAMPLE).expect("input");
    // The owner is given back before the mode: a chown clears set-user-ID.
    let tool = dir.path().join("tool");
    fs::write(&tool, "old\n").expect("old");
    fs::set_permissions(&tool, fs::Permissions::from_mode(0o4755)).expect("chmod");
    tictactoe()
        .arg(&input)
        .arg("-o")
        .arg(&tool)
        .assert()
        .success();
    let mode = fs::metadata(&tool).expect("tool").permissions().mode() & 0o7777;
    assert_eq!(mode, 0o4755);
    if !nix::unistd::geteuid().is_root() {
        return;
    }
    // As nobody, root's writable file in a sticky folder (`/tmp`'s kind):
    // written into, as `>` would, keeping its owner; not replaced, which
    // the sticky bit refuses.
    let sticky = dir.path().join("sticky");
    fs::create_dir(&sticky).expect("folder");
    fs::set_permissions(&sticky, fs::Permissions::from_mode(0o1777)).expect("chmod");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    fs::set_permissions(&input, fs::Permissions::from_mode(0o644)).expect("chmod");
    let shared = sticky.join("shared.txt");
    fs::write(&shared, "old\n").expect("old");
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o666)).expect("chmod");
    let status = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_tictactoe"))
        .arg(&input)
        .arg("-o")
        .arg(&shared)
        .status()
        .expect("setpriv runs");
    assert!(status.success());
    assert_eq!(
        fs::read_to_string(&shared).expect("shared"),
        "0 0 0 0 0 0 1\n"
    );
    assert_eq!(fs::metadata(&shared).expect("shared").uid(), 0);
}

/// A folder of tests cut short by a full disk or a file size limit named
/// no file: "cannot write the output".
// Linux only: prlimit is util-linux's.
#[cfg(target_os = "linux")]
#[test]
fn a_test_folder_that_cannot_be_written_names_the_file_and_leaves_no_part_of_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tests = dir.path().join("data");
    let run = std::process::Command::new("prlimit")
        .arg("--fsize=8192")
        .arg(env!("CARGO_BIN_EXE_tictactoe"))
        .args([
            "gen", "--count", "3", "--limits", "relaxed", "--cases", "50",
        ])
        .args(["--min-n", "1000", "--max-n", "1000", "--out-dir"])
        .arg(&tests)
        .output()
        .expect("prlimit runs");
    assert_eq!(run.status.code(), Some(74), "{run:?}");
    let message = String::from_utf8_lossy(&run.stderr);
    assert!(message.starts_with("error: cannot create "), "{message}");
    assert!(message.contains("01.in: File too large"), "{message}");
    assert_eq!(fs::read_dir(&tests).expect("folder").count(), 0);
}
