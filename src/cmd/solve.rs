//! `solve`: play every case of every input and print one line of results per case.

use crate::config::{InputSource, SolveConfig};
use crate::engine::{BoardSize, Rules, TicTacToe};
use crate::error::{Error, InputName};
use crate::input;
use crate::reader::coding_ninjas::Reader;
use crate::writer::ResultWriter;
use std::io::{Read, Write};

/// Solves the inputs in order. On any error, the output holds exactly the
/// lines of the cases completed before it.
pub fn run(config: &SolveConfig, output: impl Write) -> Result<(), Error> {
    let mut writer = ResultWriter::new(output);
    let mut game = TicTacToe::with_rules(BoardSize::MIN, config.rules);
    let solved = config
        .inputs
        .iter()
        .try_for_each(|source| solve_input(source, &mut game, &mut writer));
    // Completed cases are written even when solving stopped on an error.
    let finished = writer.finish().map_err(Error::Write);
    solved.and(finished)
}

/// Solves one input stream, for callers that hold the bytes themselves.
pub fn run_stream(
    input: impl Read,
    name: InputName,
    rules: Rules,
    output: impl Write,
) -> Result<(), Error> {
    let mut writer = ResultWriter::new(output);
    let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
    let solved = solve_stream(input, name, &mut game, &mut writer);
    let finished = writer.finish().map_err(Error::Write);
    solved.and(finished)
}

fn solve_input<W: Write>(
    source: &InputSource,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W>,
) -> Result<(), Error> {
    let (input, name) = input::open(source)?;
    solve_stream(input, name, game, writer)
}

fn solve_stream<W: Write>(
    input: impl Read,
    name: InputName,
    game: &mut TicTacToe,
    writer: &mut ResultWriter<W>,
) -> Result<(), Error> {
    let mut reader = Reader::new(input, name);
    while let Some(case) = reader.next_case()? {
        game.reset(case.size);
        writer.begin_case();
        for _ in 0..case.moves {
            let played = reader.next_move()?;
            match game.play(played.row, played.col, played.player) {
                Ok(outcome) => writer.push(outcome),
                Err(why) => return Err(reader.reject(why)),
            }
        }
        writer.end_case().map_err(Error::Write)?;
    }
    Ok(())
}
