//! Solving a stream of cases, on one thread or across cores: every command that needs answers calls it.

pub mod parallel;
pub mod pipe;

use crate::error::{Error, InputName};
use crate::format::Format;
use crate::format::cases::{self};
use crate::format::leetcode::read as leetcode;
use crate::game::{BoardSize, Rules, TicTacToe};
use parallel::Split;
use crate::format::lines::BATCH;
use crate::format::write::ResultWriter;
use std::io::{Read, Write};

/// Solves one Coding Ninjas input stream, for callers that hold the bytes
/// themselves (the tests and benchmarks; the commands name their format).
#[cfg(any(test, feature = "internals"))]
pub fn run_stream(
    input: impl Read,
    name: InputName,
    rules: Rules,
    output: impl Write,
) -> Result<(), Error> {
    run_stream_as(input, name, Some(Format::CodingNinjas), rules, output)
}

/// Solves one input stream in the given format (`Auto` detects it).
pub fn run_stream_as(
    input: impl Read,
    name: InputName,
    format: Option<Format>,
    rules: Rules,
    mut output: impl Write,
) -> Result<(), Error> {
    let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
    let split = Split::default();
    let solved = solve_any(input, name, format, split, &mut game, &mut output);
    let finished = output.flush().map_err(Error::Write);
    solved.and(finished)
}

/// Solves one input in its format, writing every completed case.
pub fn solve_any<W: Write>(
    input: impl Read,
    name: InputName,
    format: Option<Format>,
    split: Split,
    game: &mut TicTacToe,
    output: &mut W,
) -> Result<(), Error> {
    match cases::resolve(input, &name, format)? {
        (Format::CodingNinjas, _, input) => parallel::solve(input, name, game, output, split),
        (Format::Leetcode, _, input) => solve_leetcode(input, name, game, output),
    }
}

/// The LeetCode path: one `[null,0,...]` line per test case, streamed as
/// its moves are read, and written only once the case completes, so an
/// error leaves no partial line.
fn solve_leetcode<W: Write>(
    input: impl Read,
    name: InputName,
    game: &mut TicTacToe,
    output: &mut W,
) -> Result<(), Error> {
    let mut reader = leetcode::Reader::new(input, name);
    let mut writer = ResultWriter::leetcode(output);
    let mut batch = leetcode::MoveBatch::default();
    let mut outcomes = [0; BATCH];
    let solved = (|| {
        while let Some(case) = reader.next_case()? {
            game.reset_for_moves(case.size, case.moves);
            writer.begin_case();
            let mut left = case.moves;
            while left > 0 {
                let read = reader.fill_batch(&mut batch);
                if read == 0 {
                    // Whatever the batch reader leaves: one move the general way.
                    let played = reader.next_move()?;
                    let outcome = game
                        .play(played.row, played.col, played.player)
                        .map_err(|why| reader.reject(&played, why))?;
                    writer.push(outcome);
                    left -= 1;
                    continue;
                }
                let outcomes = &mut outcomes[..read];
                if let Err((index, why)) = game.play_batch(batch.moves(), outcomes) {
                    writer.push_numbers(&outcomes[..index]);
                    return Err(reader.reject_in_batch(&batch, index, why));
                }
                writer.push_numbers(outcomes);
                left -= read as u64;
            }
            writer.end_case().map_err(Error::Write)?;
        }
        Ok(())
    })();
    let finished = writer.finish().map_err(Error::Write);
    solved.and(finished)
}
