//! Solving a stream of cases, on one thread or across cores: every command that needs answers calls it.

pub mod leetcode;
pub mod parallel;
pub mod pipe;
pub mod proven;

use crate::error::{Error, InputName};
use crate::format::Format;
use crate::format::cases::{self};
use crate::game::{BoardSize, Rules, TicTacToe};
use parallel::Split;
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
        (Format::Leetcode, _, input) => leetcode::solve(input, name, game, output, split),
    }
}
