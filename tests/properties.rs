//! Property tests: the two engines agree, the reader does not care where
//! reads split the input, and no bytes make the solver panic.

mod common;

use assert_cmd::Command;
use common::Pieces;
use proptest::prelude::*;
use std::io::Read;
use tictactoe::error::{Error, InputName};
use tictactoe::format::Format;
use tictactoe::format::coding_ninjas::read::Reader;
use tictactoe::format::coding_ninjas::split::PART_BYTES;
use tictactoe::format::write::ResultWriter;
use tictactoe::game::{AfterWin, BoardSize, EngineKind, Rules, TicTacToe};
use tictactoe::pipeline::leetcode;
use tictactoe::pipeline::parallel::{self, Split};
use tictactoe::pipeline::run_stream;

const POLICIES: [AfterWin; 3] = [AfterWin::Error, AfterWin::Continue, AfterWin::Leetcode];

/// Moves on a board of size `n`, mostly on the board, some off it, some by a
/// player that does not exist, with repeats so that taken cells come up.
fn game() -> impl Strategy<Value = (i64, Vec<(i64, i64, i64)>)> {
    (1i64..=6).prop_flat_map(|n| {
        let coordinate = prop_oneof![20 => 0..n, 1 => -1..=n];
        let player = prop_oneof![20 => 1i64..=2, 1 => -1i64..=3];
        let play = (coordinate.clone(), coordinate, player);
        (
            Just(n),
            prop::collection::vec(play, 0..=(n * n + 4) as usize),
        )
    })
}

/// Games as the block readers see them (numbers of no sign): every cell
/// once in random order, or cells at random with repeats and a few off the
/// board; players mostly 1 and 2. Whole games, so play goes on after wins
/// and diagonals fill.
fn unsigned_game() -> impl Strategy<Value = (i64, Vec<[u32; 3]>)> {
    (1u32..=8).prop_flat_map(|n| {
        let cells = prop_oneof![
            Just(
                (0..n * n)
                    .map(|cell| (cell / n, cell % n))
                    .collect::<Vec<_>>()
            )
            .prop_shuffle(),
            prop::collection::vec((0..=n, 0..=n), 0..=(n * n + 4) as usize),
        ];
        let players = prop::collection::vec(prop_oneof![20 => 1u32..=2, 1 => 0u32..=3], 70);
        (Just(n), cells, players).prop_map(|(n, cells, players)| {
            let moves = cells
                .into_iter()
                .zip(players.into_iter().cycle())
                .map(|((r, c), p)| [r, c, p])
                .collect();
            (i64::from(n), moves)
        })
    })
}

fn solve(input: impl Read, rules: Rules) -> (Vec<u8>, Option<String>) {
    let mut out = Vec::new();
    let result = run_stream(input, InputName::Stdin, rules, &mut out);
    (out, result.err().map(|error| error.to_string()))
}

/// `solve` without the splitter: the reader sees the reads `input` makes.
fn solve_unsplit(input: impl Read, rules: Rules) -> (Vec<u8>, Option<String>) {
    let mut out = Vec::new();
    let mut reader = Reader::new(input, InputName::Stdin);
    let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
    let mut writer = ResultWriter::new(&mut out);
    let result = parallel::solve_cases(&mut reader, &mut game, &mut writer);
    let _ = writer.finish();
    (out, result.err().map(|error| error.to_string()))
}

/// A Coding Ninjas file of random games written with random spacing.
fn spaced_file() -> impl Strategy<Value = String> {
    let space = prop::sample::select(vec![" ", "  ", "\t", "\n", "\r\n", "\n\n", " \r\n\t"]);
    let cases = prop::collection::vec(game(), 0..4);
    (cases, prop::collection::vec(space, 64)).prop_map(|(cases, spaces)| {
        let mut tokens = vec![cases.len().to_string()];
        for (n, moves) in cases {
            tokens.push(n.to_string());
            tokens.push(moves.len().min((n * n) as usize).to_string());
            for (r, c, p) in moves.into_iter().take((n * n) as usize) {
                tokens.extend([r.to_string(), c.to_string(), p.to_string()]);
            }
        }
        let mut text = String::new();
        for (i, token) in tokens.iter().enumerate() {
            text.push_str(token);
            text.push_str(spaces[i % spaces.len()]);
        }
        text
    })
}

/// Many cases of bigger boards, mostly on one line per move, with a few
/// wrinkles: odd spacing, big numbers, signs.
fn big_spaced_file() -> impl Strategy<Value = String> {
    let space = prop::sample::select(vec![
        " ", " ", " ", "\n", "\n", "\n", "\r\n", "  ", "\t", "\n\n",
    ]);
    let number = prop_oneof![
        40 => (0i64..12).prop_map(|v| v.to_string()),
        1 => (0i64..1_000_000_000_000).prop_map(|v| v.to_string()),
        1 => (0i64..12).prop_map(|v| format!("{v:0>9}")),
        1 => (-3i64..3).prop_map(|v| format!("{v:+}")),
        // Tokens that run past many reads: read as streams, they let go of
        // the tokens before them, whose places messages still need.
        1 => (0i64..12, 0usize..300).prop_map(|(v, zeros)| format!("{}{v}", "0".repeat(zeros))),
    ];
    let case = (
        1i64..=12,
        prop::collection::vec((number.clone(), number.clone(), 1i64..=2), 0..60),
    )
        .prop_map(|(n, moves)| {
            let mut tokens = vec![n.to_string(), moves.len().to_string()];
            for (r, c, p) in moves {
                tokens.extend([r, c, p.to_string()]);
            }
            tokens
        });
    (
        prop::collection::vec(case, 1..12),
        prop::collection::vec(space, 97),
        any::<bool>(),
    )
        .prop_map(|(cases, spaces, extra_case)| {
            let count = cases.len() + usize::from(extra_case);
            let mut text = format!("{count}\n");
            for (i, token) in cases.into_iter().flatten().enumerate() {
                text.push_str(&token);
                text.push_str(spaces[i % spaces.len()]);
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn counter_and_scan_engines_agree_under_every_policy((n, moves) in game()) {
        let size = BoardSize::new(n).expect("sizes are 1 to 6");
        for after_win in POLICIES {
            let mut counter = TicTacToe::with_rules(size, Rules { after_win, engine: EngineKind::Counter });
            let mut scan = TicTacToe::with_rules(size, Rules { after_win, engine: EngineKind::Scan });
            for &(row, col, player) in &moves {
                prop_assert_eq!(counter.play(row, col, player), scan.play(row, col, player));
            }
            prop_assert_eq!(counter.winner(), scan.winner());
        }
    }
}

/// The plain path: split on whitespace, parse each token, play. What the
/// reader's fast paths must agree with.
fn solve_plainly(text: &str, rules: Rules) -> (Vec<u8>, bool) {
    let mut tokens = text.split_ascii_whitespace().map(|t| t.parse::<i64>());
    let mut next = || tokens.next().and_then(Result::ok);
    let mut out = Vec::new();
    let Some(cases) = next() else {
        return (out, false);
    };
    for _ in 0..cases {
        let (Some(n), Some(q)) = (next(), next()) else {
            return (out, false);
        };
        let Ok(size) = BoardSize::new(n) else {
            return (out, false);
        };
        if q < 0 || q as u64 > size.cells() {
            return (out, false);
        }
        let mut game = TicTacToe::with_rules(size, rules);
        let mut line = Vec::new();
        for _ in 0..q {
            let (Some(r), Some(c), Some(p)) = (next(), next(), next()) else {
                return (out, false);
            };
            match game.play(r, c, p) {
                Ok(outcome) => line.push(outcome.number().to_string()),
                Err(_) => return (out, false),
            }
        }
        out.extend_from_slice(line.join(" ").as_bytes());
        out.push(b'\n');
    }
    (out, next().is_none())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn the_reader_agrees_with_the_plain_path(text in big_spaced_file(), policy in 0usize..3) {
        let rules = Rules { after_win: POLICIES[policy], engine: EngineKind::Counter };
        let (out, error) = solve(text.as_bytes(), rules);
        let (plain_out, plain_ok) = solve_plainly(&text, rules);
        prop_assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&plain_out));
        prop_assert_eq!(error.is_none(), plain_ok, "{:?}", error);
    }

    #[test]
    fn batches_play_as_the_moves_played_one_by_one(
        (n, moves) in unsigned_game(),
        batch in 1usize..20,
    ) {
        let size = BoardSize::new(n).expect("sizes are 1 to 8");
        for after_win in POLICIES {
            let rules = Rules { after_win, engine: EngineKind::Counter };
            let mut one_by_one = TicTacToe::with_rules(size, rules);
            let mut expected = Vec::new();
            let mut expected_error = None;
            for (index, &[r, c, p]) in moves.iter().enumerate() {
                match one_by_one.play(r.into(), c.into(), p.into()) {
                    Ok(outcome) => expected.push(outcome.number()),
                    Err(why) => {
                        expected_error = Some((index, why));
                        break;
                    }
                }
            }
            let mut batched = TicTacToe::with_rules(size, rules);
            let mut got: Vec<u8> = Vec::new();
            let mut got_error = None;
            for (first, chunk) in moves.chunks(batch).enumerate() {
                let mut outcomes = vec![7; chunk.len()];
                let result = batched.play_batch(chunk, &mut outcomes);
                let played = result.map_or_else(|(index, _)| index, |()| chunk.len());
                got.extend(&outcomes[..played]);
                if let Err((index, why)) = result {
                    got_error = Some((first * batch + index, why));
                    break;
                }
            }
            prop_assert_eq!(&got, &expected, "{:?}", after_win);
            prop_assert_eq!(got_error, expected_error);
            prop_assert_eq!(batched.winner(), one_by_one.winner());
        }
    }

    #[test]
    fn output_does_not_depend_on_where_reads_split_the_input(
        text in spaced_file(),
        sizes in prop::collection::vec(1usize..40, 1..8),
    ) {
        for after_win in POLICIES {
            let rules = Rules { after_win, engine: EngineKind::Counter };
            let whole = solve(text.as_bytes(), rules);
            let pieces = Pieces { data: text.as_bytes(), sizes: sizes.clone(), next: 0 };
            prop_assert_eq!(&whole, &solve(pieces, rules));
            let scan = solve(text.as_bytes(), Rules { after_win, engine: EngineKind::Scan });
            prop_assert_eq!(&whole, &scan);
        }
    }

    // Read whole, the moves go through the batch readers, which find a
    // refused move's tokens again only for its message; read a few bytes
    // at a time with no splitter in front (which would buffer a part),
    // mostly through the token-by-token reader.
    #[test]
    fn errors_point_at_the_same_token_however_the_input_is_read(
        text in big_spaced_file(),
        sizes in prop::collection::vec(1usize..40, 1..8),
        policy in 0usize..3,
    ) {
        let rules = Rules { after_win: POLICIES[policy], engine: EngineKind::Counter };
        let whole = solve_unsplit(text.as_bytes(), rules);
        let pieces = Pieces { data: text.as_bytes(), sizes, next: 0 };
        prop_assert_eq!(whole, solve_unsplit(pieces, rules));
    }

    #[test]
    fn arbitrary_bytes_give_output_or_a_data_error_and_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let mut out = Vec::new();
        let result = run_stream(&bytes[..], InputName::Stdin, Rules::default(), &mut out);
        prop_assert!(matches!(result, Ok(()) | Err(Error::Data { .. })), "{:?}", result);
    }

    #[test]
    fn digit_and_space_soup_never_panics(
        bytes in prop::collection::vec(prop::sample::select(b"0123456789 \n-+".to_vec()), 0..200),
    ) {
        let mut out = Vec::new();
        let result = run_stream(&bytes[..], InputName::Stdin, Rules::default(), &mut out);
        prop_assert!(matches!(result, Ok(()) | Err(Error::Data { .. })), "{:?}", result);
        // Whatever was written is whole lines.
        prop_assert!(out.is_empty() || out.ends_with(b"\n"));
    }
}

/// Solves an input of `format` split into parts of about `part_bytes`, on
/// `workers` threads; one worker reads it as one stream.
fn solve_split(
    format: Format,
    input: impl Read,
    rules: Rules,
    workers: usize,
    part_bytes: usize,
) -> (Vec<u8>, Option<String>) {
    let mut out = Vec::new();
    let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
    let split = Split {
        workers,
        part_bytes,
    };
    let result = match format {
        Format::CodingNinjas => {
            parallel::solve(input, InputName::Stdin, &mut game, &mut out, split)
        }
        Format::Leetcode => leetcode::solve(input, InputName::Stdin, &mut game, &mut out, split),
    };
    (out, result.err().map(|error| error.to_string()))
}

/// `bytes` cut short at `at` (`with` empty), or with `with` put in there.
fn damage(mut bytes: Vec<u8>, damage: Option<(usize, &[u8])>) -> Vec<u8> {
    if let Some((at, with)) = damage {
        let at = at.min(bytes.len());
        if with.is_empty() {
            bytes.truncate(at);
        } else {
            bytes.splice(at..at, with.iter().copied());
        }
    }
    bytes
}

/// Games written the way generators write them, one `R C P` line a move
/// with single spaces, on boards up to 100 (two-digit numbers) with no
/// cell played twice, and a few lines written otherwise: the shape the
/// block readers are built for, and its near misses.
fn usual_file() -> impl Strategy<Value = String> {
    let wrinkle = prop::sample::select(vec![
        "{r}  {c} {p}\n",
        "{r} {c} {p}\r\n",
        "{r} {c}\n{p}\n",
        "{r} {c} {p} \n",
        "0{r} {c} {p}\n",
        "{r} {c} {p} {p}\n",
        "{r} {c}{p}\n",
    ]);
    let case = (
        1u64..=100,
        0usize..400,
        any::<u64>(),
        prop::collection::vec((0usize..400, wrinkle), 0..3),
    );
    prop::collection::vec(case, 1..6).prop_map(|cases| {
        let mut text = format!("{}\n", cases.len());
        for (n, q, seed, wrinkles) in cases {
            let cells = n * n;
            let q = (q as u64).min(cells);
            // A stride coprime with the cell count visits each cell once.
            let gcd = |mut a: u64, mut b: u64| {
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                a
            };
            let mut stride = (seed % cells.max(1)) | 1;
            while gcd(stride, cells) != 1 {
                stride += 1;
            }
            text.push_str(&format!("{n}\n{q}\n"));
            for k in 0..q {
                let cell = (seed / 7 + k * stride) % cells;
                let (r, c, p) = (cell / n, cell % n, 1 + k % 2);
                let line = match wrinkles.iter().find(|(at, _)| *at as u64 == k) {
                    Some((_, shape)) => shape
                        .replace("{r}", &r.to_string())
                        .replace("{c}", &c.to_string())
                        .replace("{p}", &p.to_string()),
                    None => format!("{r} {c} {p}\n"),
                };
                text.push_str(&line);
            }
        }
        text
    })
}

/// Files the splitters must follow or hand back: good games, bad ones, and
/// now and then a cut, a sign, a stray token, lines that look like a case's
/// start where none is, or a T that is not the number of cases.
fn file_to_split() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![3 => big_spaced_file(), 1 => spaced_file(), 2 => usual_file()],
        prop_oneof![
            4 => Just(None),
            1 => (0usize..2000, prop::sample::select(vec![
                &b""[..], b"-", b"x", b" 7", b"\n9 9 9\n", b"\n4\n2\n", b"\n3\n", b"\n\n",
            ]))
                .prop_map(Some),
        ],
        prop_oneof![6 => Just(None), 1 => (0u64..8).prop_map(Some)],
    )
        .prop_map(|(text, broken, count)| {
            let mut bytes = damage(text.into_bytes(), broken);
            if let Some(count) = count {
                // Another T in place of the first line's.
                let first = bytes
                    .iter()
                    .position(|&byte| byte == b'\n')
                    .unwrap_or(bytes.len());
                bytes.splice(..first, count.to_string().into_bytes());
            }
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn split_solving_gives_the_streams_output_and_error(
        bytes in file_to_split(),
        workers in 2usize..=3,
        part_bytes in 1usize..400,
        sizes in prop::collection::vec(1usize..300, 1..4),
        policy in 0usize..3,
    ) {
        let rules = Rules { after_win: POLICIES[policy], engine: EngineKind::Counter };
        let stream = solve_split(Format::CodingNinjas, &bytes[..], rules, 1, part_bytes);
        let pieces = Pieces { data: &bytes, sizes, next: 0 };
        let split = solve_split(Format::CodingNinjas, pieces, rules, workers, part_bytes);
        prop_assert_eq!(String::from_utf8_lossy(&split.0), String::from_utf8_lossy(&stream.0));
        prop_assert_eq!(split.1, stream.1);
    }
}

/// Transcripts the LeetCode splitter must follow or hand back: games of
/// every kind (`game`) written one array a line, the usual way or spaced,
/// and now and then damaged: cut short, or with bytes put in that break a
/// case or open a line like a case's start where none is.
fn transcript_to_split() -> impl Strategy<Value = Vec<u8>> {
    let newline = prop::sample::select(vec!["\n", "\r\n", "\n\n", " \n "]);
    let case = (game(), newline, any::<bool>());
    let damaged_at = prop_oneof![
        4 => Just(None),
        1 => (0usize..3000, prop::sample::select(vec![
            &b""[..], b"\n[\"TicTacToe\"", b"\n[\"TicTacToe\",\"move\"]\n[[3],", b"]", b",", b"x", b"\n", b"[[2]]",
        ]))
            .prop_map(Some),
    ];
    (prop::collection::vec(case, 0..40), damaged_at).prop_map(|(cases, broken)| {
        let mut text = String::new();
        for ((n, moves), newline, spaced) in cases {
            let comma = if spaced { ", " } else { "," };
            let names: Vec<&str> = std::iter::once("\"TicTacToe\"")
                .chain(moves.iter().map(|_| "\"move\""))
                .collect();
            let arguments: Vec<String> = std::iter::once(format!("[{n}]"))
                .chain(
                    moves
                        .iter()
                        .map(|(r, c, p)| format!("[{r}{comma}{c}{comma}{p}]")),
                )
                .collect();
            text.push_str(&format!(
                "[{}]{newline}[{}]{newline}",
                names.join(comma),
                arguments.join(comma)
            ));
        }
        damage(text.into_bytes(), broken)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn split_leetcode_solving_gives_the_streams_output_and_error(
        bytes in transcript_to_split(),
        workers in 2usize..=3,
        part_bytes in 1usize..400,
        sizes in prop::collection::vec(1usize..300, 1..4),
        policy in 0usize..3,
    ) {
        let rules = Rules { after_win: POLICIES[policy], engine: EngineKind::Counter };
        let stream = solve_split(Format::Leetcode, &bytes[..], rules, 1, part_bytes);
        let pieces = Pieces { data: &bytes, sizes, next: 0 };
        let split = solve_split(Format::Leetcode, pieces, rules, workers, part_bytes);
        prop_assert_eq!(String::from_utf8_lossy(&split.0), String::from_utf8_lossy(&stream.0));
        prop_assert_eq!(split.1, stream.1);
    }
}

/// The binary's status, output and error on `input`, with the hot loops'
/// baseline build or the one for this CPU (`tictactoe::simd`).
fn run_binary(input: &[u8], args: &[&str], baseline: bool) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let mut command = Command::cargo_bin("tictactoe").expect("binary is built");
    if baseline {
        command.env("TICTACTOE_CPU", "baseline");
    } else {
        command.env_remove("TICTACTOE_CPU");
    }
    let output = command
        .args(args)
        .write_stdin(input)
        .output()
        .expect("binary runs");
    (output.status.code(), output.stdout, output.stderr)
}

proptest! {
    // A process each: fewer cases. On a CPU without the newer features both
    // runs take the baseline build, and this holds trivially.
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn the_hot_loops_baseline_build_gives_what_the_newer_one_gives(
        bytes in file_to_split(),
        policy in prop::sample::select(vec!["error", "continue", "leetcode"]),
    ) {
        let solve = ["--after-win", policy];
        let validate = ["validate", "--max-t", "1000", "--max-n", "1000000000000", "--min-q", "0"];
        for args in [&solve[..], &validate[..]] {
            let newer = run_binary(&bytes, args, false);
            let baseline = run_binary(&bytes, args, true);
            prop_assert_eq!(newer.0, baseline.0, "{:?}", args);
            prop_assert_eq!(String::from_utf8_lossy(&newer.1), String::from_utf8_lossy(&baseline.1));
            prop_assert_eq!(String::from_utf8_lossy(&newer.2), String::from_utf8_lossy(&baseline.2));
        }
    }
}

/// An answer file: lines of results, now and then spaced or written
/// otherwise, long enough that lines cross the readers' buffers.
fn answer_text() -> impl Strategy<Value = String> {
    let result = prop_oneof![500 => prop::sample::select(vec!["0", "1", "2"]), 1 => Just("12"), 1 => Just("x")];
    let blank = prop_oneof![500 => Just(" "), 1 => Just("  "), 1 => Just("\t"), 1 => Just(" \r")];
    let line = prop::collection::vec((result, blank), 0..3000).prop_map(|items| {
        let mut line: String = items.into_iter().map(|(r, b)| format!("{r}{b}")).collect();
        line.push('\n');
        line
    });
    prop::collection::vec(line, 0..40).prop_map(|lines| lines.concat())
}

/// `text` with a few bytes changed, removed or added.
fn damaged(text: String) -> impl Strategy<Value = String> {
    let len = text.len().max(1);
    let edit = (
        0..len,
        prop::sample::select(vec!["", "0", "1", "2", " ", "\n", "7"]),
        any::<bool>(),
    );
    prop::collection::vec(edit, 0..3).prop_map(move |edits| {
        let mut bytes = text.clone().into_bytes();
        for (at, with, replace) in edits {
            let at = at.min(bytes.len());
            let end = if replace {
                (at + 1).min(bytes.len())
            } else {
                at
            };
            bytes.splice(at..end, with.bytes());
        }
        String::from_utf8(bytes).expect("ASCII edits")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    // Read a byte at a time, a reader never holds a word's worth of bytes,
    // so nothing is skipped: that comparison is item by item throughout.
    #[test]
    fn skipping_equal_stretches_finds_what_comparing_item_by_item_finds(
        (expected, found) in answer_text().prop_flat_map(|text| (Just(text.clone()), damaged(text))),
        sizes in prop::collection::vec(1usize..5000, 1..4),
    ) {
        use tictactoe::format::answers::{Mode, compare};
        fn pieces<'a>(text: &'a str, sizes: &[usize]) -> Pieces<'a> {
            Pieces { data: text.as_bytes(), sizes: sizes.to_vec(), next: 0 }
        }
        for mode in [Mode::Lines, Mode::Tokens] {
            let plain = compare(pieces(&expected, &[1]), pieces(&found, &[1]), mode).ok();
            let whole = compare(expected.as_bytes(), found.as_bytes(), mode).ok();
            prop_assert_eq!(&whole, &plain);
            prop_assert_eq!(compare(pieces(&expected, &sizes), pieces(&found, &sizes), mode).ok(), plain);
        }
    }
}

/// An input that hands out `data` and then fails, as a disk or a network
/// file system may, at every read from `fail_at` bytes on.
struct FailingAfter<'a> {
    data: &'a [u8],
    fail_at: usize,
    read: usize,
}

impl Read for FailingAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.read >= self.fail_at {
            return Err(std::io::Error::other("the disk failed"));
        }
        let count = buf
            .len()
            .min(self.fail_at - self.read)
            .min(self.data.len() - self.read);
        buf[..count].copy_from_slice(&self.data[self.read..self.read + count]);
        self.read += count;
        Ok(count)
    }
}

#[test]
fn a_read_that_fails_midway_loses_no_completed_case_on_any_thread_count() {
    let rules = Rules::default();
    let short = "3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n";
    let coding_ninjas = format!("40000\n{}", short.repeat(40_000));
    let transcript = "[\"TicTacToe\",\"move\",\"move\"]\n[[3],[0,0,1],[1,1,2]]\n".repeat(20_000);
    for (format, text) in [
        (Format::CodingNinjas, coding_ninjas.as_bytes()),
        (Format::Leetcode, transcript.as_bytes()),
    ] {
        for fail_at in (1..12).map(|k| k * text.len() / 12) {
            let input = || FailingAfter {
                data: text,
                fail_at,
                read: 0,
            };
            let stream = solve_split(format, input(), rules, 1, PART_BYTES);
            assert!(stream.1.is_some(), "the read error is reported");
            for (workers, part_bytes) in [(2, PART_BYTES), (3, 4096)] {
                let split = solve_split(format, input(), rules, workers, part_bytes);
                assert!(
                    split == stream,
                    "{format:?}, failing at {fail_at}, {workers} workers: {} lines against {}",
                    split.0.iter().filter(|&&byte| byte == b'\n').count(),
                    stream.0.iter().filter(|&&byte| byte == b'\n').count()
                );
            }
        }
    }
}
