//! Judging one output: compared with the expected answer, or with the answer recomputed from the input, and explained move by move.

use super::{Verdict, VerdictKind};
use crate::error::{Error, InputName};
use crate::files::{self, InputSource};
use crate::format::answers::{Comparison, Difference, Side, compare};
use crate::format::board::{MAX_SIDE, View, draw};
use crate::format::cases;
use crate::game::{BoardSize, Outcome, Player, Rules, TicTacToe};
use crate::pipeline::pipe::{PipeReader, pipe};
use crate::pipeline::run_stream_as;
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
    let mut verdict = Verdict::of_comparison(&comparison);
    if let (Some(input), Comparison::Differs(difference)) = (&config.input, &comparison)
        && let Some((case, number)) = difference.case_and_move()
    {
        verdict.details = explain_move(input, config.rules, case, number, difference)?;
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
        run_stream_as(input, name, None, rules, writer)
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
    let (_, mut cases) = cases::open(&InputSource::Path(input.to_path_buf()), None)?;
    let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
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
        let line = game.full_line_through(row, col);
        let mover = Player::from_number(player);
        let mut text = format!(
            "the move: row {row}, column {col}, player {player} ({})",
            mover.map_or('?', Player::mark)
        );
        let _ = match (outcome, line) {
            (Outcome::Win(_), Some(line)) => write!(text, "; it completes {line}"),
            (Outcome::Win(_), None) => write!(text, "; it wins under --after-win leetcode"),
            (Outcome::NoWin, _) => write!(text, "; it completes no line"),
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
        text.push_str(&draw(&game, &view, line, false));
        return Ok(text);
    }
    Ok(String::new())
}
