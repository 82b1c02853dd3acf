//! `tictactoe`: a streaming reference solver for Design Tic-Tac-Toe (LeetCode 348).
//!
//! Data flows one way: input bytes go through a [`reader`] (which knows line
//! and column), each case through the [`engine`] (pure, no I/O), and the
//! results through the [`writer`] to the output. Errors travel up to the
//! binary's `main`, which alone decides the exit status.
//!
//! The engine is usable on its own, shaped like LeetCode's class:
//!
//! ```
//! use tictactoe::engine::{Outcome, Player, TicTacToe};
//!
//! let mut game = TicTacToe::new(3)?;
//! let moves = [(0, 0, 1), (0, 2, 2), (2, 2, 1), (1, 1, 2), (2, 0, 1), (1, 0, 2)];
//! for (row, col, player) in moves {
//!     assert_eq!(game.play(row, col, player)?, Outcome::NoWin);
//! }
//! assert_eq!(game.play(2, 1, 1)?, Outcome::Win(Player::One));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

pub mod cases;
pub mod cli;
pub mod cmd;
pub mod config;
pub mod engine;
pub mod error;
pub mod input;
pub mod reader;
pub mod render;
pub mod writer;

use config::{Config, OutputTarget};
use error::Error;

/// Runs a command to completion.
///
/// `Ok` carries the exit status of a command that ran: 0 for `solve`, and a
/// verdict for judge tools, whose protocols give statuses meanings (Kattis
/// validators exit 42 for a valid file, say). `Err` is a failure to run, and
/// `main` maps it to a status of its own.
pub fn run(config: Config) -> Result<u8, Error> {
    match config {
        Config::Solve(solve) => {
            cmd::solve::run(&solve, input::create(&solve.output)?)?;
            Ok(0)
        }
        Config::Convert(convert) => {
            cmd::convert::run(&convert, input::create(&convert.output)?)?;
            Ok(0)
        }
        Config::Trace(trace) => {
            let colour = cmd::trace::stdout_wants_colour();
            cmd::trace::run(&trace, input::create(&OutputTarget::Stdout)?, colour)?;
            Ok(0)
        }
        Config::Completions(completions) => {
            cmd::completions::run(&completions, input::create(&OutputTarget::Stdout)?)?;
            Ok(0)
        }
    }
}
