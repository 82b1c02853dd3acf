//! Judging one output: compared with the expected answer, or with the answer recomputed from the input, and explained move by move.

use crate::error::{Error, InputName};
use crate::files::{self, InputSource};
use crate::format::answers::{Comparison, Difference, Side, compare};
use crate::format::board::{MAX_SIDE, View, draw};
use crate::format::coding_ninjas::read::Reader;
use crate::game::{BoardSize, Outcome, Rules, TicTacToe};
use crate::pipeline::pipe::{PipeReader, pipe};
use crate::pipeline::run_stream;
use std::fmt::Write as _;
use std::io;
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
}

/// How a judge classes an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictKind {
    /// The output is right.
    Accepted,
    /// Well-formed, but a result is wrong.
    WrongAnswer,
    /// Not in the required form: a token that is not a result, a wrong count.
    PresentationError,
    /// The judge's own data is wrong (the answer file, the input), or checking failed.
    JudgeFailure,
}

/// A verdict and its explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The class.
    pub kind: VerdictKind,
    /// One line saying why.
    pub message: String,
    /// More lines (the move, the board), possibly empty.
    pub details: String,
}

impl Verdict {
    /// A verdict with its one-line message and no details.
    pub fn new(kind: VerdictKind, message: impl Into<String>) -> Verdict {
        Verdict {
            kind,
            message: message.into(),
            details: String::new(),
        }
    }
}

/// Reaches a verdict.
pub fn judge(config: &CheckFiles) -> Result<Verdict, Error> {
    std::thread::scope(|scope| {
        // With the input and the answer both given, the output is compared
        // with the answer on another thread while the answer is checked
        // against the input here: they read different files. The answer's
        // check still decides first, as when one ran after the other.
        let with_answer = match (&config.input, &config.expected) {
            (Some(_), Some(expected)) => {
                Some(scope.spawn(move || against_answer(config, expected)))
            }
            _ => None,
        };
        if let (Some(input), Some(expected)) = (&config.input, &config.expected) {
            // The answer file must be the answer to the input.
            let answer_name = InputName::Path(expected.clone());
            let (answer, _) = files::open(&InputSource::Path(expected.clone()))?;
            let against_input = recomputed(input, config.rules, |recomputed| {
                compare(recomputed, answer)
                    .map_err(|side| read_error(side, &answer_name, &answer_name))
            });
            match against_input {
                Ok(compared) => {
                    if let Comparison::Differs(difference) = compared? {
                        return Ok(Verdict::new(
                            VerdictKind::JudgeFailure,
                            format!(
                                "the expected answer {} is not the answer to the input {}: \
                                 {difference}",
                                expected.display(),
                                input.display()
                            ),
                        ));
                    }
                }
                Err(error @ (Error::Data { .. } | Error::Read { .. } | Error::Open { .. })) => {
                    return Ok(unsolvable(&error));
                }
                Err(error) => return Err(error),
            }
        }
        let comparison = match (&config.expected, &config.input) {
            (Some(expected), _) => match with_answer {
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?,
                None => against_answer(config, expected)?,
            },
            (None, Some(input)) => {
                let (output, output_name) = files::open(&config.output)?;
                let compared = recomputed(input, config.rules, |recomputed| {
                    compare(recomputed, output)
                        .map_err(|side| read_error(side, &InputName::Stdin, &output_name))
                });
                match compared {
                    Ok(compared) => compared?,
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
        verdict_for(config, comparison)
    })
}

/// The output compared with the expected answer.
fn against_answer(config: &CheckFiles, expected: &Path) -> Result<Comparison, Error> {
    let (output, output_name) = files::open(&config.output)?;
    let expected_name = InputName::Path(expected.to_path_buf());
    let (answer, _) = files::open(&InputSource::Path(expected.to_path_buf()))?;
    compare(answer, output).map_err(|side| read_error(side, &expected_name, &output_name))
}

/// The verdict on a comparison, with the move explained when it is one.
fn verdict_for(config: &CheckFiles, comparison: Comparison) -> Result<Verdict, Error> {
    let difference = match comparison {
        Comparison::Same { cases, results } => {
            return Ok(Verdict::new(
                VerdictKind::Accepted,
                format!(
                    "{} {}, {} {}",
                    cases,
                    if cases == 1 { "case" } else { "cases" },
                    results,
                    if results == 1 { "result" } else { "results" }
                ),
            ));
        }
        Comparison::Differs(difference) => difference,
    };
    let kind = if difference.is_judge_failure() {
        VerdictKind::JudgeFailure
    } else if difference.is_wrong_result() {
        VerdictKind::WrongAnswer
    } else {
        VerdictKind::PresentationError
    };
    let mut verdict = Verdict::new(kind, difference.to_string());
    if let (Some(input), Some((case, number))) = (&config.input, difference.case_and_move()) {
        verdict.details = explain_move(input, config.rules, case, number, &difference)?;
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

/// Runs `compare_with` on the answer recomputed from `input` while a thread
/// solves it. A failure to solve outranks whatever the comparison found,
/// since it saw a truncated answer.
fn recomputed<T>(
    input: &Path,
    rules: Rules,
    compare_with: impl FnOnce(PipeReader) -> T,
) -> Result<T, Error> {
    let (writer, reader) = pipe();
    let source = InputSource::Path(input.to_path_buf());
    let solver = std::thread::spawn(move || {
        let (input, name) = files::open(&source)?;
        run_stream(input, name, rules, writer)
    });
    let compared = compare_with(reader);
    let solved = solver.join().unwrap_or_else(|_| {
        Err(Error::Read {
            input: InputName::Path(input.to_path_buf()),
            source: io::Error::other("the solver thread panicked"),
        })
    });
    match solved {
        // The comparison stopped reading early: the difference is known.
        Err(Error::Write(error)) if error.kind() == io::ErrorKind::BrokenPipe => Ok(compared),
        Err(error) => Err(error),
        Ok(()) => Ok(compared),
    }
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
    input: &Path,
    rules: Rules,
    case: u64,
    number: u64,
    difference: &Difference,
) -> Result<String, Error> {
    let (file, name) = files::open(&InputSource::Path(input.to_path_buf()))?;
    let mut reader = Reader::new(file, name);
    let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
    let mut current = 0;
    while let Some(header) = reader.next_case()? {
        current += 1;
        if current < case {
            for _ in 0..header.moves {
                reader.next_move()?;
            }
            continue;
        }
        game.reset(header.size);
        for played_number in 1..=header.moves.min(number) {
            let played = reader.next_move()?;
            let outcome = game
                .play(played.row, played.col, played.player)
                .map_err(|why| reader.reject(why))?;
            if played_number < number {
                continue;
            }
            let (row, col) = (played.row as u32, played.col as u32);
            let line = game.full_line_through(row, col);
            let mover = crate::game::Player::from_number(played.player);
            let mut text = format!(
                "the move: row {row}, column {col}, player {} ({})",
                played.player,
                mover.map_or('?', crate::game::Player::mark)
            );
            let _ = match (outcome, line) {
                (Outcome::Win(_), Some(line)) => write!(text, "; it completes {line}"),
                (Outcome::Win(_), None) => write!(text, "; it wins under --after-win leetcode"),
                (Outcome::NoWin, _) => write!(text, "; it completes no line"),
            };
            if let Difference::WrongResult { found, .. } = difference {
                let _ = match (outcome, found) {
                    (Outcome::NoWin, _) => write!(text, ", so it returns 0, not {found}"),
                    (Outcome::Win(winner), _) => {
                        write!(text, ", so it returns {}, not {found}", winner.number())
                    }
                };
            }
            text.push('\n');
            let view = View::around(game.size(), row, col, MAX_SIDE);
            text.push_str(&draw(&game, &view, line, false));
            return Ok(text);
        }
        break;
    }
    Ok(String::new())
}
