//! Hostile inputs of one enormous token or one enormous run of space: every
//! reader streams past them in constant memory, from a file and from a
//! pipe, and answers as it would for the token written short.
//!
//! Each run has its address space capped far below the token's size (as
//! `prlimit --as` caps it), so a reader that held the token whole would
//! abort; the answer must be the one the short form gets. How the time
//! grows with the token is measured in `benches/long_tokens.sh`, not here.
//!
//! Unix only: the caps are `prlimit`'s.
#![cfg(unix)]

mod common;

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::thread;

/// Bytes in the long token or run: far more than the cap below allows.
const LONG: usize = 200 * 1024 * 1024;

/// The address space each run may use: room for the binary, its threads'
/// stacks and buffers, and nothing like the token.
const CAP: usize = 96 * 1024 * 1024;

/// An input made of `before`, `LONG` copies of `filler`, then `after`.
#[derive(Clone, Copy)]
struct Hostile {
    before: &'static str,
    filler: u8,
    after: &'static str,
}

impl Hostile {
    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(self.before.as_bytes())?;
        let block = vec![self.filler; 1024 * 1024];
        for _ in 0..LONG / block.len() {
            out.write_all(&block)?;
        }
        out.write_all(self.after.as_bytes())
    }
}

/// Stands in `args` for the hostile input's name: the file's, or
/// `/dev/stdin` for the pipe. Without it, a file is the last argument and
/// a pipe is standard input.
const INPUT: &str = "INPUT";

/// Runs the binary with `args` under the cap, with the input as a file
/// (`file`) or through a pipe on stdin.
fn run_capped(args: &[&str], input: &Hostile, file: Option<&Path>) -> Output {
    let mut command = Command::new("prlimit");
    command
        .arg(format!("--as={CAP}"))
        .arg(common::binary())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let name = file.map_or(Path::new("/dev/stdin"), |path| path);
    for &arg in args {
        match arg {
            INPUT => command.arg(name),
            other => command.arg(other),
        };
    }
    match file {
        Some(path) => {
            let mut out = io::BufWriter::new(fs::File::create(path).expect("temp file"));
            input.write_to(&mut out).expect("temp file written");
            out.flush().expect("temp file written");
            if !args.contains(&INPUT) {
                command.arg(path);
            }
            command.stdin(Stdio::null());
        }
        None => {
            command.stdin(Stdio::piped());
        }
    }
    let mut child = command.spawn().expect("prlimit runs");
    let writer = child.stdin.take().map(|mut stdin| {
        let input = *input;
        thread::spawn(move || {
            // The reader may stop early at an error: a closed pipe is fine.
            let _ = input.write_to(&mut stdin);
        })
    });
    let output = child.wait_with_output().expect("binary finishes");
    if let Some(writer) = writer {
        writer.join().expect("writer thread");
    }
    output
}

/// The output of `args` on `input`, from a file and from a pipe, which
/// must agree; each is checked by `expect`.
fn both_ways(args: &[&str], input: &Hostile, expect: impl Fn(&Output)) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("long.in");
    for source in [Some(file.as_path()), None] {
        let output = run_capped(args, input, source);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !stderr.contains("memory allocation") && !stderr.contains("panicked"),
            "{args:?} from {source:?}: {stderr}"
        );
        expect(&output);
        if let Some(path) = source {
            fs::remove_file(path).expect("temp file removed");
        }
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A row written with `LONG` leading zeros, then a column of 1: the move
/// (1, 1), which wins nothing.
const ZEROS_IN_A_ROW: Hostile = Hostile {
    before: "1\n3\n2\n",
    filler: b'0',
    after: "1 1 1\n2 2 2\n",
};

#[test]
fn a_number_with_millions_of_leading_zeros_is_solved_in_constant_memory() {
    for threads in [&["--threads", "1"][..], &[]] {
        both_ways(threads, &ZEROS_IN_A_ROW, |output| {
            assert_eq!(stdout(output), "0 0\n", "{}", stderr(output));
            assert!(output.status.success());
        });
    }
}

#[test]
fn a_move_refused_after_a_long_token_is_placed_at_its_own_token() {
    // Row 7 is off the 3 x 3 board; its column is the long token after it.
    let input = Hostile {
        before: "1\n3\n1\n7\n",
        filler: b'0',
        after: "1 1\n",
    };
    both_ways(&[], &input, |output| {
        assert_eq!(output.status.code(), Some(65));
        assert!(
            stderr(output).contains("line 4, column 1: case 1, move 1: row 7 is off the board"),
            "{}",
            stderr(output)
        );
    });
}

#[test]
fn validate_check_convert_and_trace_stream_past_the_long_token() {
    both_ways(&["validate"], &ZEROS_IN_A_ROW, |output| {
        assert_eq!(output.status.code(), Some(1));
        assert!(
            stdout(output).contains("line 4, column 1: case 1, move 1: \"000")
                && stdout(output).contains("has a leading zero")
                && !stdout(output).contains("too large"),
            "{}",
            stdout(output)
        );
    });
    both_ways(
        &["convert", "--to", "leetcode"],
        &ZEROS_IN_A_ROW,
        |output| {
            assert_eq!(
                stdout(output),
                "[\"TicTacToe\",\"move\",\"move\"]\n[[3],[1,1,1],[2,2,2]]\n",
                "{}",
                stderr(output)
            );
        },
    );
    both_ways(&["trace"], &ZEROS_IN_A_ROW, |output| {
        assert!(output.status.success(), "{}", stderr(output));
        assert!(stdout(output).contains("move 2: player 2 (O) at (2, 2) -> 0"));
    });
    // check reads the input, and an output that is one long token.
    let dir = tempfile::tempdir().expect("temp dir");
    let answer = dir.path().join("answer");
    fs::write(&answer, "0 0\n").expect("answer written");
    let answer = answer.to_str().expect("UTF-8 path");
    both_ways(
        &["check", "--input", INPUT, answer, answer],
        &ZEROS_IN_A_ROW,
        |output| {
            assert!(output.status.success(), "{}", stderr(output));
        },
    );
    let endless_output = Hostile {
        before: "",
        filler: b'7',
        after: " 0\n",
    };
    let input = dir.path().join("short.in");
    fs::write(&input, "1\n3\n2\n1 1 1\n2 2 2\n").expect("input written");
    let input = input.to_str().expect("UTF-8 path");
    both_ways(
        &["check", "--input", input, answer, INPUT],
        &endless_output,
        |output| {
            assert_eq!(output.status.code(), Some(1), "{}", stderr(output));
            assert!(stdout(output).contains("777"), "{}", stdout(output));
        },
    );
}

#[test]
fn an_exact_check_matches_a_run_of_space_longer_than_memory() {
    // The comparison reads the answer's whole run before the output's: the
    // bytes between are not held, but matched by a digest.
    let run = Hostile {
        before: "0",
        filler: b' ',
        after: " 1\n",
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let answer = dir.path().join("answer");
    let mut out = io::BufWriter::new(fs::File::create(&answer).expect("temp file"));
    run.write_to(&mut out).expect("answer written");
    out.flush().expect("answer written");
    let answer = answer.to_str().expect("UTF-8 path");
    let args = ["check", "--compare", "exact", answer, INPUT];
    both_ways(&args, &run, |output| {
        assert!(output.status.success(), "{}", stderr(output));
        assert_eq!(stdout(output), "ok: 1 case, 2 results\n");
    });
    let one_more_space = Hostile {
        after: "  1\n",
        ..run
    };
    both_ways(&args, &one_more_space, |output| {
        assert_eq!(output.status.code(), Some(1), "{}", stderr(output));
        // Where the digest took over: the run's first bytes were matched
        // one by one. The difference lies past it, and the message says
        // so (a reader once took that point for the difference's place).
        let message = stdout(output);
        assert!(
            message.contains("the output's bytes from here on are not the expected")
                && message.contains("somewhere past this point")
                && message.contains("which finds a difference but not its place"),
            "{message}"
        );
    });
}

/// A transcript whose first move's arguments hold `LONG` bytes of space.
const SPACE_IN_A_MOVE: Hostile = Hostile {
    before: "[\"TicTacToe\",\"move\",\"move\"]\n[[3],[1,",
    filler: b' ',
    after: "1,1],[2,2,2]]\n",
};

#[test]
fn a_transcript_with_endless_space_inside_a_move_is_read_in_constant_memory() {
    both_ways(&[], &SPACE_IN_A_MOVE, |output| {
        assert_eq!(stdout(output), "[null,0,0]\n", "{}", stderr(output));
    });
    // Valid but for Q, below the statement's minimum of 5.
    both_ways(&["validate"], &SPACE_IN_A_MOVE, |output| {
        assert_eq!(output.status.code(), Some(1), "{}", stderr(output));
        assert!(
            stdout(output).ends_with(
                "line 1, column 1: case 1: Q = 2 is out of range: 5 <= Q <= 9\ninvalid: 1 violation\n"
            ),
            "{}",
            stdout(output)
        );
    });
    both_ways(
        &["convert", "--to", "coding-ninjas"],
        &SPACE_IN_A_MOVE,
        |output| {
            assert_eq!(
                stdout(output),
                "1\n3\n2\n1 1 1\n2 2 2\n",
                "{}",
                stderr(output)
            );
        },
    );
    // A move refused after the space is placed at its value, before it.
    let refused = Hostile {
        before: "[\"TicTacToe\",\"move\"]\n[[3],[5,",
        filler: b'\n',
        after: "1,1]]\n",
    };
    both_ways(&[], &refused, |output| {
        assert_eq!(output.status.code(), Some(65));
        assert!(
            stderr(output).contains("line 2, column 7: case 1, move 1: row 5 is off the board"),
            "{}",
            stderr(output)
        );
    });
}
