//! Judging one output: compared with the expected answer, or with the answer recomputed from the input, and explained move by move.

use super::{Verdict, VerdictKind};
use crate::error::{Error, InputName};
use crate::files::{self, Held, InputSource, Rereadable};
use crate::format::answers::{Comparison, Difference, Mode, Reading, Side, compare_read};
use crate::format::board::{MAX_SIDE, View, draw};
use crate::format::Format;
use crate::format::cases::{self, Cases};
use crate::game::{BoardSize, Line, Lines, Outcome, Player, Rules, TicTacToe};
use crate::pipeline::parallel::{Split, WORKER_STACK, threads_that_fit};
use crate::pipeline::pipe::pipe;
use crate::pipeline::solve_any;
use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// What a check compares: the output, with the expected answer, the input
/// it answers, or both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckFiles {
    /// The input: the expected answer is recomputed from it.
    pub input: Option<PathBuf>,
    /// The expected answer, when given.
    pub expected: Option<PathBuf>,
    /// The solution's output.
    pub output: InputSource,
    /// The rules the input is solved by.
    pub rules: Rules,
    /// Threads to work on: 1 starts none (the answer is recomputed first,
    /// then compared); 0 lets the solver decide.
    pub threads: usize,
    /// The input's format; `None` detects it.
    pub format: Option<Format>,
    /// How the output is held to the answer's layout.
    pub mode: Mode,
    /// How tokens are read: whether LeetCode's `null` must be written in
    /// lower case, and which bytes separate them.
    pub reading: Reading,
}

impl CheckFiles {
    /// Which of the files read is the file at `path`, by any name or link:
    /// "input", "answer" or "output".
    pub fn read_by_name(&self, path: &Path) -> Option<&'static str> {
        // Only a regular file is destroyed by a write: a terminal or
        // `/dev/null` may well be both the output and the message's place.
        if !std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file()) {
            return None;
        }
        let named = |file: &Option<PathBuf>| {
            file.clone()
                .is_some_and(|file| files::same_file(&InputSource::Path(file), path))
        };
        if named(&self.input) {
            Some("input")
        } else if named(&self.expected) {
            Some("answer")
        } else if files::same_file(&self.output, path) {
            Some("output")
        } else {
            None
        }
    }
}

/// The input and the expected answer as files that can be read again:
/// each is read twice (the answer against the output and against the
/// input; the input to recompute the answer and to explain a move), so a
/// pipe or a FIFO is copied first, read once.
struct Sources {
    input: Option<Rereadable>,
    expected: Option<Rereadable>,
}

/// The threads a check may use under a cap on the address space: besides
/// the solver's workers, it may start two of its own (the comparison with
/// the answer, the solver), each with its allocator's arena; under a tight
/// cap, none.
fn threads_under_cap(asked: usize) -> usize {
    let fit = threads_that_fit();
    if fit == usize::MAX {
        return asked;
    }
    let workers = Split {
        workers: asked,
        ..Split::default()
    }
    .workers();
    match workers.min(fit.saturating_sub(2)) {
        0 | 1 => 1,
        workers => workers,
    }
}

/// Reaches a verdict.
pub fn judge(config: &CheckFiles) -> Result<Verdict, Error> {
    let threads = threads_under_cap(config.threads);
    let config = &CheckFiles {
        threads,
        ..config.clone()
    };
    let sources = Sources {
        input: config.input.as_deref().map(Rereadable::of).transpose()?,
        expected: config.expected.as_deref().map(Rereadable::of).transpose()?,
    };
    std::thread::scope(|scope| {
        // With the input and the answer both given, the output is compared
        // with the answer on another thread while the answer is checked
        // against the input here: they read different files. The answer's
        // check still decides first, as when one ran after the other.
        // Without the thread (one asked for, or none to be had in a
        // sandbox), the comparison comes after, the same.
        let with_answer = match (&sources.input, &sources.expected, config.threads) {
            (Some(_), Some(expected), threads) if threads != 1 => std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || against_answer(config, expected))
                .ok(),
            _ => None,
        };
        // How many cases the input has, as its recomputed answer counts them:
        // the answer file's trailing blank lines are not cases.
        let mut input_cases = None;
        if let (Some(input), Some(expected)) = (&sources.input, &sources.expected) {
            // The answer file must be the answer to the input, its byte
            // order mark read past (a judge's file). Compared exactly, its
            // spacing is the standard the output is held to (a judge's
            // CRLF answer asks for CRLF), not a fault: its results are
            // only needed in order.
            let (answer, answer_name) = expected.open()?;
            let answer_mode = match config.mode {
                Mode::Exact => Mode::Tokens,
                mode => mode,
            };
            let answer_reading = Reading {
                output_mark_kept: false,
                ..config.reading
            };
            let against_input = recomputed(input, config, |recomputed| {
                compare_read(recomputed, answer, answer_mode, answer_reading)
                    .map_err(|side| read_error(side, &answer_name, &answer_name))
            });
            match against_input {
                Ok(compared) => match compared? {
                    Comparison::Same { cases, .. } => input_cases = Some(cases),
                    Comparison::Differs(difference) => {
                        return Ok(Verdict::new(
                            VerdictKind::JudgeFailure,
                            format!(
                                "the expected answer {} is not the answer to the input {}: \
                                 {difference}",
                                expected.name().display(),
                                input.name().display()
                            ),
                        ));
                    }
                },
                // Memory is the limit's fault, not the input's: 71, as solve.
                Err(error) if error.is_out_of_memory() => return Err(error),
                Err(error @ (Error::Data { .. } | Error::Read { .. } | Error::Open { .. })) => {
                    return Ok(unsolvable(&error));
                }
                Err(error) => return Err(error),
            }
        }
        let mut comparison = match (&sources.expected, &sources.input) {
            (Some(expected), _) => match with_answer {
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?,
                None => against_answer(config, expected)?,
            },
            (None, Some(input)) => {
                let (output, output_name) = files::open(&config.output)?;
                let compared = recomputed(input, config, |recomputed| {
                    compare_read(recomputed, output, config.mode, config.reading)
                        .map_err(|side| read_error(side, &InputName::Stdin, &output_name))
                });
                match compared {
                    Ok(compared) => compared?,
                    Err(error) if error.is_out_of_memory() => return Err(error),
                    Err(error @ (Error::Data { .. } | Error::Read { .. } | Error::Open { .. })) => {
                        return Ok(unsolvable(&error));
                    }
                    Err(error) => return Err(error),
                }
            }
            (None, None) => {
                return Ok(Verdict::new(
                    VerdictKind::JudgeFailure,
                    "nothing to compare with: give the expected answer or the input",
                ));
            }
        };
        if let (Some(input_cases), Comparison::Same { cases, .. }) = (input_cases, &mut comparison) {
            *cases = input_cases;
        }
        verdict_for(config, sources.input.as_ref(), comparison)
    })
}

/// The output compared with the expected answer.
fn against_answer(config: &CheckFiles, expected: &Rereadable) -> Result<Comparison, Error> {
    let (output, output_name) = files::open(&config.output)?;
    let (answer, expected_name) = expected.open()?;
    compare_read(answer, output, config.mode, config.reading).map_err(|side| read_error(side, &expected_name, &output_name))
}

/// The verdict on a comparison, with the move explained when it is one.
fn verdict_for(
    config: &CheckFiles,
    input: Option<&Rereadable>,
    comparison: Comparison,
) -> Result<Verdict, Error> {
    let mut verdict = Verdict::of_comparison(&comparison);
    if let (Some(input), Comparison::Differs(difference)) = (input, &comparison)
        && let Some((case, number)) = difference.case_and_move()
    {
        verdict.details = explain_move(input, config, case, number, difference)?;
    }
    Ok(verdict)
}

/// The verdict when the input itself cannot be solved: the judge's data is wrong.
fn unsolvable(error: &Error) -> Verdict {
    Verdict::new(
        VerdictKind::JudgeFailure,
        format!("the input cannot be solved: {error}"),
    )
}

/// Runs `compare_with` on the answer recomputed from `input`, streamed from
/// a thread that solves it while it is compared; with one thread asked for,
/// or none to be had, solved first into a held copy (memory, then a
/// temporary file). A failure to solve outranks whatever the comparison
/// found, since it saw a truncated answer.
fn recomputed<T>(
    input: &Rereadable,
    config: &CheckFiles,
    compare_with: impl FnOnce(Box<dyn Read + Send + '_>) -> T,
) -> Result<T, Error> {
    let split = Split {
        workers: config.threads,
        ..Split::default()
    };
    let solve = |output: &mut dyn Write| {
        let (source, name) = input.open()?;
        let mut game = TicTacToe::with_rules(BoardSize::MIN, config.rules);
        solve_any(source, name, config.format, split, &mut game, &mut { output })
    };
    std::thread::scope(|scope| {
        let (writer, reader) = pipe();
        let solver = if config.threads == 1 {
            None
        } else {
            std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    let mut writer = writer;
                    solve(&mut writer)
                })
                .ok()
        };
        let Some(solver) = solver else {
            let mut held = Held::default();
            solve(&mut held)?;
            let held = held.into_reader().map_err(Error::Write)?;
            return Ok(compare_with(held));
        };
        let compared = compare_with(Box::new(reader));
        let solved = solver.join().unwrap_or_else(|_| {
            Err(Error::Read {
                input: InputName::Path(input.name().to_path_buf()),
                source: io::Error::other("the solver thread panicked"),
            })
        });
        match solved {
            // The comparison stopped reading early: the difference is known.
            Err(Error::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => Ok(compared),
            Err(error) => Err(error),
            Ok(()) => Ok(compared),
        }
    })
}

fn read_error(side: Side, expected: &InputName, found: &InputName) -> Error {
    match side {
        Side::Expected(source) => Error::Read {
            input: expected.clone(),
            source,
        },
        Side::Found(source) => Error::Read {
            input: found.clone(),
            source,
        },
    }
}

/// The move at `case`, `number` of the input, what it did, and the board
/// around it afterwards.
fn explain_move(
    input: &Rereadable,
    config: &CheckFiles,
    case: u64,
    number: u64,
    difference: &Difference,
) -> Result<String, Error> {
    let (source, name) = input.open()?;
    let (format, _, source) = cases::resolve(source, &name, config.format)?;
    let mut cases = Cases::new(source, name, format);
    let mut game = TicTacToe::with_rules(BoardSize::MIN, config.rules);
    let mut current = 0;
    while let Some(header) = cases.next_case()? {
        current += 1;
        if current < case {
            continue;
        }
        game.reset(header.size);
        for _ in 1..number {
            if cases.play_next(&mut game)?.is_none() {
                return Ok(String::new());
            }
        }
        let Some(((row, col, player), outcome)) = cases.play_next(&mut game)? else {
            return Ok(String::new());
        };
        // The game accepted the move, so it is on the board.
        let (row, col) = (row as u32, col as u32);
        let lines: Vec<Line> = game.full_lines_through(row, col).collect();
        let mover = Player::from_number(player);
        let mut text = format!(
            "the move: row {row}, column {col}, player {player} ({})",
            mover.map_or('?', Player::mark)
        );
        let _ = match outcome {
            Outcome::Win(_) if !lines.is_empty() => {
                write!(text, "; it completes {}", Lines(&lines))
            }
            Outcome::Win(_) => write!(text, "; it wins under --after-win leetcode"),
            Outcome::NoWin => write!(text, "; it completes no line"),
        };
        if let Difference::WrongResult { found, .. } = difference {
            let returned = match outcome {
                Outcome::NoWin => 0,
                Outcome::Win(winner) => winner.number(),
            };
            let _ = write!(text, ", so it returns {returned}, not {found}");
        }
        text.push('\n');
        let view = View::around(game.size(), row, col, MAX_SIDE);
        text.push_str(&draw(&game, &view, &lines, false));
        return Ok(text);
    }
    Ok(String::new())
}
