//! Solving a LeetCode transcript, as one stream or across cores.
//!
//! Across cores, the transcript is cut where a test case starts a line
//! ([`crate::format::leetcode::split`]) and its parts are solved as
//! [`crate::pipeline::proven`] says: lines written in input order, and from
//! a part whose reading fails on, the transcript read again as one stream,
//! so the output and the error are the streaming reader's exactly.

use crate::error::{Error, InputName};
use crate::format::bytes::{Chunks, Resume};
use crate::format::cut::Part;
use crate::format::leetcode::read::{MoveBatch, Reader};
use crate::format::leetcode::split::CaseStart;
use crate::format::lines::BATCH;
use crate::format::write::ResultWriter;
use crate::game::{BoardSize, Rules, TicTacToe};
use crate::pipeline::parallel::{Split, output_room};
use crate::pipeline::proven::{InOrder, PartWork, Taken, across_cores};
use std::io::{Read, Write};

/// Solves a LeetCode transcript, on several threads when it is long enough
/// to split, writing one line per completed test case: the same output and
/// errors as reading it as one stream.
pub fn solve<W: Write>(
    input: impl Read,
    name: InputName,
    game: &mut TicTacToe,
    output: &mut W,
    split: Split,
) -> Result<(), Error> {
    let mut writer = ResultWriter::leetcode(output);
    let work = SolveParts {
        rules: game.rules(),
        name: name.clone(),
    };
    let mut in_order = SolveInOrder {
        game,
        writer: &mut writer,
        name,
    };
    let solved = across_cores(input, split, CaseStart, &work, &mut in_order);
    let finished = writer.finish().map_err(Error::Write);
    solved.and(finished)
}

/// Solving: each worker writes its parts' lines into memory.
struct SolveParts {
    rules: Rules,
    name: InputName,
}

impl PartWork for SolveParts {
    type Worker = (TicTacToe, ResultWriter<Vec<u8>, true>);
    type Done = Vec<u8>;

    fn worker(&self) -> Self::Worker {
        let game = TicTacToe::with_rules(BoardSize::MIN, self.rules);
        (game, ResultWriter::leetcode(Vec::new()))
    }

    fn part(&self, (game, writer): &mut Self::Worker, part: Part, spare: Option<Vec<u8>>) -> (Option<Vec<u8>>, u64, Vec<u8>) {
        let chunks = Chunks::of_bytes(part.bytes, part.len, part.start);
        let mut reader = Reader::of_chunks(chunks, self.name.clone(), 0);
        let buffer = spare.unwrap_or_default();
        let room = output_room(part.len);
        let (output, solved) = writer.lines_into(buffer, room, |writer| solve_cases(&mut reader, game, writer));
        (matches!(solved, Some(Ok(()))).then_some(output), reader.cases(), reader.into_buffer())
    }
}

/// Solving, on the caller's thread: the parts' lines written in order, the
/// stream solved onto the same writer.
struct SolveInOrder<'a, W: Write> {
    game: &'a mut TicTacToe,
    writer: &'a mut ResultWriter<W, true>,
    name: InputName,
}

impl<W: Write> InOrder<Vec<u8>> for SolveInOrder<'_, W> {
    type Output = ();

    fn take(&mut self, lines: Vec<u8>, _: u64, _: bool) -> Result<Taken<Vec<u8>>, Error> {
        self.writer.write_lines(&lines).map_err(Error::Write)?;
        Ok(Taken::Kept(Some(lines)))
    }

    fn stream(&mut self, input: &mut dyn Read, start: Resume, cases: u64) -> Result<(), Error> {
        let mut reader = Reader::of_chunks(Chunks::resume(input, start), self.name.clone(), cases);
        solve_cases(&mut reader, self.game, self.writer)
    }

    fn whole(&mut self, part: Part) -> Result<(), Error> {
        let chunks = Chunks::of_bytes(part.bytes, part.len, part.start);
        solve_cases(&mut Reader::of_chunks(chunks, self.name.clone(), 0), self.game, self.writer)
    }

    fn end(&mut self, _: u64) -> Result<(), Error> {
        Ok(())
    }
}

/// Solves every test case `reader` reads, writing one line per completed
/// case, streamed as its moves are read and written only once the case
/// completes, so an error leaves no partial line.
pub fn solve_cases<R: Read, W: Write>(
    reader: &mut Reader<R>,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W, true>,
) -> Result<(), Error> {
    let mut batch = MoveBatch::default();
    let mut outcomes = [0; BATCH];
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
}
