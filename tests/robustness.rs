//! Hostile input and I/O faults: whatever comes in, a clear error and the
//! right status, only whole lines of completed cases, and no panic.

mod common;

use common::tictactoe;

use proptest::prelude::*;
use std::io::{self, Read};
use tictactoe::error::{Error, InputName};
use tictactoe::format::Format;
use tictactoe::game::Limits;
use tictactoe::game::Rules;
use tictactoe::judging::generate::{self, Spec};
use tictactoe::judging::validate::leetcode::validate_leetcode_split;
use tictactoe::judging::validate::{validate, validate_split};
use tictactoe::pipeline::parallel::Split;
use tictactoe::pipeline::run_stream;

/// A valid file under the statement's limits, small enough to mutate often.
fn valid_file(seed: u64) -> Vec<u8> {
    valid_file_of(seed, 4)
}

/// A valid generated file of `cases` cases.
fn valid_file_of(seed: u64, cases: u64) -> Vec<u8> {
    let spec = Spec {
        seed: Some(seed),
        cases,
        min_n: 3,
        max_n: 5,
        ..Spec::default()
    };
    let mut out = Vec::new();
    generate::write_file(&spec, 0, &mut out).expect("writing to memory");
    out
}

fn solve(input: &[u8]) -> (Vec<u8>, Result<(), Error>) {
    let mut out = Vec::new();
    let result = run_stream(input, InputName::Stdin, Rules::default(), &mut out);
    (out, result)
}

fn is_valid(input: &[u8]) -> bool {
    validate(input, &Limits::default(), 1)
        .expect("reading memory")
        .is_valid()
}

/// Where each token of a file starts and ends.
fn tokens(file: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, &byte) in file.iter().chain([b' '].iter()).enumerate() {
        match (byte.is_ascii_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    spans
}

/// The mutations of Kattis' `verifyproblem`, each placed by `pick`.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    ExtraSpace,
    TrailingSpace,
    DoubledNewline,
    LeadingZero,
    JunkAppended,
    DeletedToken,
    /// A digit of T or of a Q replaced by another: the counts stop matching
    /// the data. (A changed row or column can make another valid file.)
    SwappedDigit,
}

impl Mutation {
    fn only_changes_space(self) -> bool {
        matches!(
            self,
            Mutation::ExtraSpace | Mutation::TrailingSpace | Mutation::DoubledNewline
        )
    }

    fn apply(self, file: &[u8], pick: usize) -> Vec<u8> {
        let spans = tokens(file);
        let (start, end) = spans[pick % spans.len()];
        let newlines: Vec<usize> = (0..file.len()).filter(|&i| file[i] == b'\n').collect();
        let newline = newlines[pick % newlines.len()];
        let mut out = file.to_vec();
        match self {
            Mutation::ExtraSpace => out.insert(end, b' '),
            Mutation::TrailingSpace => out.insert(newline, b' '),
            Mutation::DoubledNewline => out.insert(newline, b'\n'),
            Mutation::LeadingZero => out.insert(start, b'0'),
            Mutation::JunkAppended => out.extend_from_slice(b"junk\n"),
            Mutation::DeletedToken => {
                out.drain(start..=end.min(file.len() - 1));
            }
            Mutation::SwappedDigit => {
                // T, and the Q of each case: the tokens on lines of their own
                // that are followed by move lines or end the file.
                let counts: Vec<(usize, usize)> = count_tokens(file);
                let (start, end) = counts[pick % counts.len()];
                let at = start + pick % (end - start);
                let digit = out[at] - b'0';
                out[at] = b'0' + (digit + 1 + (pick % 8) as u8) % 10;
                if at == start && out[at] == b'0' && end - start > 1 {
                    out[at] = b'1' + digit % 8;
                }
            }
        }
        out
    }
}

/// The spans of T and of every case's Q.
fn count_tokens(file: &[u8]) -> Vec<(usize, usize)> {
    let spans = tokens(file);
    let value = |(s, e): (usize, usize)| -> usize {
        std::str::from_utf8(&file[s..e])
            .expect("ASCII")
            .parse()
            .expect("a number")
    };
    let mut counts = vec![spans[0]];
    let mut at = 1;
    while at + 1 < spans.len() {
        counts.push(spans[at + 1]);
        at += 2 + 3 * value(spans[at + 1]);
    }
    counts
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop::sample::select(vec![
        Mutation::ExtraSpace,
        Mutation::TrailingSpace,
        Mutation::DoubledNewline,
        Mutation::LeadingZero,
        Mutation::JunkAppended,
        Mutation::DeletedToken,
        Mutation::SwappedDigit,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_mutation_is_rejected_by_validate_and_space_changes_keep_solves_answers(
        seed in any::<u64>(),
        change in mutation(),
        pick in any::<usize>(),
    ) {
        let original = valid_file(seed);
        prop_assert!(is_valid(&original));
        let mutated = change.apply(&original, pick);
        prop_assert!(!is_valid(&mutated), "{:?} left a valid file:\n{}", change, String::from_utf8_lossy(&mutated));
        let (out, result) = solve(&mutated);
        prop_assert!(matches!(result, Ok(()) | Err(Error::Data { .. })), "{:?}", result);
        if change.only_changes_space() {
            let (expected, expected_result) = solve(&original);
            prop_assert!(expected_result.is_ok());
            prop_assert!(result.is_ok(), "{:?}", result);
            prop_assert_eq!(out, expected);
        }
    }

    #[test]
    fn validate_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        // Exit 0 or 1 (valid or not): a report, never an error.
        prop_assert!(validate(&bytes[..], &Limits::default(), 20).is_ok());
    }
}

#[test]
fn truncation_at_every_byte_leaves_exactly_the_completed_cases() {
    let file = b"3\n3\n5\n0 0 1\n1 1 2\n0 1 1\n2 2 2\n0 2 1\n2\n2\n0 0 1\n1 1 2\n1\n1\n0 0 2\n";
    let full = "0 0 0 0 1\n0 0\n2\n";
    // Where each case's last token ends: a prefix holding it holds the case.
    let case_ends = [35, 51, 61];
    for cut in 0..file.len() {
        let output = tictactoe()
            .write_stdin(&file[..cut])
            .output()
            .expect("binary runs");
        let complete = case_ends.iter().filter(|&&end| end <= cut).count();
        let expected: String = full.split_inclusive('\n').take(complete).collect();
        let status = if complete == case_ends.len() { 0 } else { 65 };
        assert_eq!(output.status.code(), Some(status), "cut at {cut}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            expected,
            "cut at {cut}"
        );
        if status == 65 {
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.starts_with("error: line "), "cut at {cut}: {stderr}");
        }
    }
}

/// Unix only: the cap is `ulimit -v`'s.
#[cfg(unix)]
#[test]
fn absurd_headers_end_in_a_data_error_without_allocating_from_them() {
    let cases = [
        (
            "1000000000000000000\n",
            "input ends early: expected the board size N",
        ),
        (
            "9223372036854775807\n1\n1\n0 0 1\n",
            "input ends early: expected the board size N",
        ),
        (
            "1\n1000000000000000000\n0\n",
            "board size N must be between 1 and 1000000000",
        ),
        (
            "1\n1000000000\n1000000000000000000\n",
            "input ends early: expected the row",
        ),
        (
            "1\n1000000000\n1000000000000000000\n0 0 1\n",
            "input ends early: expected the row",
        ),
        ("99999999999999999999999999\n", "is too large"),
    ];
    for (input, message) in cases {
        // Under a 1 GiB address-space limit too.
        let limited = assert_cmd::Command::new("sh")
            .args(["-c", "ulimit -v 1048576 && exec \"$0\""])
            .arg(env!("CARGO_BIN_EXE_tictactoe"))
            .write_stdin(input)
            .output()
            .expect("sh runs");
        assert_eq!(limited.status.code(), Some(65), "{input:?}");
        let stderr = String::from_utf8_lossy(&limited.stderr);
        assert!(stderr.contains(message), "{input:?}: {stderr}");
    }
}

#[test]
fn a_ten_megabyte_token_and_a_line_of_ten_million_spaces_are_handled() {
    let mut digits = b"1\n3\n1\n0 0 ".to_vec();
    digits.extend(std::iter::repeat_n(b'7', 10_000_000));
    tictactoe()
        .write_stdin(digits)
        .assert()
        .code(65)
        .stderr(predicates::str::contains("is too large"));

    let mut zeros = std::iter::repeat_n(b'0', 10_000_000).collect::<Vec<u8>>();
    zeros.extend_from_slice(b"1\n1\n1\n0 0 2\n");
    tictactoe()
        .write_stdin(zeros)
        .assert()
        .success()
        .stdout("2\n");

    let mut spaces = b"1\n3\n1\n0".to_vec();
    spaces.extend(std::iter::repeat_n(b' ', 10_000_000));
    spaces.extend_from_slice(b"0 1\n");
    tictactoe()
        .write_stdin(spaces)
        .assert()
        .success()
        .stdout("0\n");
}

#[cfg(unix)]
#[test]
fn an_unreadable_file_exits_66() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("secret.in");
    std::fs::write(&path, "1\n1\n1\n0 0 1\n").expect("writable");
    let mut permissions = std::fs::metadata(&path).expect("exists").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o000);
    std::fs::set_permissions(&path, permissions).expect("chmod");
    // Root reads anything, so run as nobody when the tests run as root.
    let as_root = nix::unistd::geteuid().is_root();
    let mut command = if as_root {
        let mut setpriv = assert_cmd::Command::new("setpriv");
        setpriv.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
        setpriv.arg(env!("CARGO_BIN_EXE_tictactoe"));
        // nobody must be able to reach the file to be refused by its mode.
        let mut dir_permissions = std::fs::metadata(dir.path()).expect("exists").permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut dir_permissions, 0o755);
        std::fs::set_permissions(dir.path(), dir_permissions).expect("chmod");
        setpriv
    } else {
        tictactoe()
    };
    command
        .arg(&path)
        .assert()
        .code(66)
        .stderr(predicates::str::contains("Permission denied"));
}

/// A reader that is interrupted before every other read.
struct Interrupting<'a> {
    data: &'a [u8],
    interrupt: bool,
}

impl Read for Interrupting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        let count = buf.len().min(self.data.len()).min(7);
        buf[..count].copy_from_slice(&self.data[..count]);
        self.data = &self.data[count..];
        Ok(count)
    }
}

#[test]
fn interrupted_reads_are_retried() {
    let file = valid_file(7);
    let (expected, result) = solve(&file);
    assert!(result.is_ok());
    let mut out = Vec::new();
    let reader = Interrupting {
        data: &file,
        interrupt: false,
    };
    run_stream(reader, InputName::Stdin, Rules::default(), &mut out)
        .expect("interruptions are retried");
    assert_eq!(out, expected);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn through_the_binary_arbitrary_bytes_exit_0_or_65_for_solve_and_0_or_1_for_validate(
        bytes in prop::collection::vec(any::<u8>(), 0..120),
        digits_and_spaces in prop::collection::vec(prop::sample::select(b"0123456789 \n".to_vec()), 0..120),
    ) {
        for input in [bytes, digits_and_spaces] {
            let solved = tictactoe().write_stdin(input.clone()).output().expect("binary runs");
            prop_assert!(matches!(solved.status.code(), Some(0 | 65)), "solve: {:?}", solved.status);
            let validated = tictactoe().arg("validate").write_stdin(input).output().expect("binary runs");
            prop_assert!(matches!(validated.status.code(), Some(0 | 1)), "validate: {:?}", validated.status);
            for stderr in [&solved.stderr, &validated.stderr] {
                prop_assert!(!String::from_utf8_lossy(stderr).contains("panicked"));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn split_validation_reports_exactly_what_the_stream_reports(
        seed in any::<u64>(),
        change in prop::option::of(mutation()),
        pick in any::<usize>(),
        workers in 2usize..=3,
        part_bytes in 1usize..200,
        max_errors in 1usize..4,
    ) {
        let original = valid_file(seed);
        let file = match change {
            Some(change) => change.apply(&original, pick),
            None => original,
        };
        let limits = Limits::default();
        let stream = validate_split(&file[..], &limits, max_errors, Split { workers: 1, part_bytes });
        let split = validate_split(&file[..], &limits, max_errors, Split { workers, part_bytes });
        prop_assert_eq!(stream.expect("reading memory"), split.expect("reading memory"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Regression: with every worker busy, a part found invalid while the
    /// next part waited to be sent lost that part from the stream read
    /// again, and the report named wrong lines and a phantom early end.
    #[test]
    fn validation_reports_the_same_for_every_thread_count(
        seed in any::<u64>(),
        first in (mutation(), any::<usize>()),
        // Only the first may change a count: that one reads the file's counts.
        more in prop::collection::vec(
            (mutation().prop_filter("reads counts", |m| !matches!(m, Mutation::SwappedDigit)), any::<usize>()),
            0..3,
        ),
        part_bytes in 1usize..300,
        max_errors in 1usize..6,
    ) {
        let mut file = valid_file_of(seed, 40);
        for (change, pick) in std::iter::once(first).chain(more) {
            file = change.apply(&file, pick);
        }
        let limits = Limits::default();
        let one = validate_split(&file[..], &limits, max_errors, Split { workers: 1, part_bytes });
        let one = one.expect("reading memory");
        for workers in [2, 3, 4, 8] {
            let many = validate_split(&file[..], &limits, max_errors, Split { workers, part_bytes });
            prop_assert_eq!(&one, &many.expect("reading memory"), "{} workers", workers);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// A transcript's parts validated on several threads give the report
    /// one stream gives: valid parts' summaries added up, and from a part
    /// with any violation (or a cut inside a test case) the stream's.
    #[test]
    fn split_leetcode_validation_reports_exactly_what_the_stream_reports(
        seed in any::<u64>(),
        cases in 1u64..130,
        damage in prop::option::of((any::<prop::sample::Index>(), prop::sample::select(vec![
            &b""[..], b"\n[\"TicTacToe\"", b"]", b",", b"[0,0,1],", b"[[200]]", b"\n", b"\"move\",",
        ]))),
        workers in 2usize..=3,
        part_bytes in 1usize..300,
        max_errors in 1usize..4,
    ) {
        let spec = Spec {
            seed: Some(seed),
            cases,
            min_n: 3,
            max_n: 5,
            ..Spec::default()
        };
        let mut file = Vec::new();
        generate::write_file_as(&spec, 0, Format::Leetcode, &mut file).expect("writing to memory");
        if let Some((at, with)) = damage {
            let at = at.index(file.len() + 1);
            if with.is_empty() {
                file.truncate(at);
            } else {
                file.splice(at..at, with.iter().copied());
            }
        }
        let limits = Limits::default();
        let validated = |workers| {
            let split = Split { workers, part_bytes };
            validate_leetcode_split(&file[..], InputName::Stdin, &limits, max_errors, split)
                .map_err(|error| error.to_string())
        };
        prop_assert_eq!(validated(1), validated(workers));
    }
}

/// A canonical file of a few small cases whose N, Q and moves wander past
/// every bound: N of 0 or past 10^9, Q past N x N, moves off the board, on
/// taken cells, by a third player.
fn wandering_file() -> impl Strategy<Value = Vec<u8>> {
    let size = prop::sample::select(vec![
        0i64,
        1,
        2,
        3,
        4,
        999_999_999,
        1_000_000_000,
        1_000_000_001,
    ]);
    let case = (size, 0usize..7).prop_flat_map(|(n, q)| {
        let coordinate = prop_oneof![0i64..4, Just(n - 1), Just(n)];
        let player = prop_oneof![4 => 1i64..=2, 1 => Just(3i64)];
        (
            Just(n),
            prop::collection::vec((coordinate.clone(), coordinate, player), q..=q),
        )
    });
    prop::collection::vec(case, 0..4).prop_map(|cases| {
        let mut text = format!("{}\n", cases.len());
        for (n, moves) in cases {
            text.push_str(&format!("{n}\n{}\n", moves.len()));
            for (row, col, player) in moves {
                text.push_str(&format!("{row} {col} {player}\n"));
            }
        }
        text.into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// validate can never call valid a file the solver refuses, whatever
    /// bounds it is given (bounds that contradict each other or the solver
    /// are refused before any file is read).
    #[test]
    fn a_file_valid_under_any_bounds_is_solvable(
        file in wandering_file(),
        min_t in 0u64..3,
        more_t in 0u64..3,
        min_n in 1u64..5,
        max_n in prop::sample::select(vec![4u64, 999_999_999, 1_000_000_000]),
        min_q in 0u64..6,
        more_q in prop::option::of(0u64..20),
    ) {
        let (max_t, max_q) = (min_t + more_t, more_q.map(|more| min_q + more));
        let limits = Limits { min_t, max_t, min_n, max_n, min_q, max_q };
        prop_assume!(limits.check().is_ok());
        let report = validate(&file[..], &limits, 20).expect("reading memory");
        if report.is_valid() {
            let (_, solved) = solve(&file);
            prop_assert!(solved.is_ok(), "valid under {:?} but {:?}", limits, solved);
        }
    }
}

/// The binary started with `stdin` and `stdout` as its standard streams,
/// and its standard error piped.
#[cfg(unix)]
fn run_with_streams(
    args: &[&str],
    stdin: std::os::fd::OwnedFd,
    stdout: std::os::fd::OwnedFd,
) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("tictactoe"))
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary starts")
}

/// Reads `child`'s output from `output` to its end, then waits for it:
/// its status, output and error.
#[cfg(unix)]
fn finish(
    mut child: std::process::Child,
    output: std::os::fd::OwnedFd,
) -> (std::process::ExitStatus, String, String) {
    let mut written = String::new();
    std::fs::File::from(output)
        .read_to_string(&mut written)
        .expect("read");
    let status = child.wait().expect("binary ends");
    let mut errors = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        stderr.read_to_string(&mut errors).expect("read");
    }
    (status, written, errors)
}

/// Standard streams left non-blocking by the program that passed them (a
/// pipe it shares) are read and written as blocking ones: a read that
/// finds no data yet waits for it, and is not taken for the input's end or
/// a read error. A valid transcript fed slowly through such a pipe was
/// reported as `unknown method "mov"` (a name cut off by a failed read) or
/// as an unreadable input; a long output into a full pipe failed.
#[cfg(unix)]
#[test]
fn non_blocking_standard_streams_are_waited_for() {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    use std::io::Write;
    let non_blocking = |fd: &std::os::fd::OwnedFd| {
        fcntl(fd, FcntlArg::F_SETFL(OFlag::O_NONBLOCK)).expect("fcntl");
    };
    let transcript = "[\"TicTacToe\",\"move\",\"move\",\"move\",\"move\",\"move\",\"move\",\"move\"]\n\
                      [[3],[0,0,1],[0,2,2],[2,2,1],[1,1,2],[2,0,1],[1,0,2],[2,1,1]]\n";
    let coding_ninjas = "1\n3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n";
    for (input, expected) in [
        (transcript.repeat(40), "[null,0,0,0,0,0,0,1]\n".repeat(40)),
        (coding_ninjas.to_owned(), "0 0 0 0 0 0 1\n".to_owned()),
    ] {
        for threads in ["1", "0"] {
            // Input trickling in through a non-blocking pipe, a few bytes at
            // a time: reads find it empty again and again.
            let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC).expect("pipe");
            non_blocking(&read);
            let (out_read, out_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC).expect("pipe");
            let child = run_with_streams(&["--threads", threads], read, out_write);
            let mut feed = std::fs::File::from(write);
            for piece in input.as_bytes().chunks(7) {
                feed.write_all(piece).expect("written");
                std::thread::sleep(std::time::Duration::from_micros(300));
            }
            drop(feed);
            let (status, output, errors) = finish(child, out_read);
            assert!(status.success(), "--threads {threads}: {errors}");
            assert_eq!(output, expected, "--threads {threads}");
        }
    }
    // Output into a non-blocking pipe that fills: writes wait for the
    // reader, who starts late.
    let cases = 20_000;
    let input = format!(
        "{cases}\n{}",
        "3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n".repeat(cases)
    );
    let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC).expect("pipe");
    let (out_read, out_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC).expect("pipe");
    non_blocking(&out_write);
    let child = run_with_streams(&[], read, out_write);
    let feeder = std::thread::spawn(move || std::fs::File::from(write).write_all(input.as_bytes()));
    std::thread::sleep(std::time::Duration::from_millis(200));
    let (status, output, errors) = finish(child, out_read);
    feeder.join().expect("feeder").expect("written");
    assert!(status.success(), "{errors}");
    assert_eq!(output, "0 0 0 0 0 0 1\n".repeat(cases));
}
