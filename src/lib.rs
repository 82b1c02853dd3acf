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

pub mod check;
pub mod cli;
pub mod cmd;
pub mod compare;
pub mod config;
pub mod engine;
pub mod error;
pub mod generate;
pub mod input;
pub mod judge;
pub mod reader;
pub mod render;
pub mod validate;
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
        Config::Validate(validate) => cmd::validate::run(
            &validate,
            input::create(&config::OutputTarget::Stdout)?,
            std::io::stderr(),
        ),
        Config::Check(check) => cmd::check::run(
            &check,
            input::create(&config::OutputTarget::Stdout)?,
            std::io::stderr(),
        ),
        Config::Gen(generator) => {
            cmd::generator::run(&generator, input::create(&OutputTarget::Stdout)?)
        }
        Config::Test(test) => cmd::test::run(&test, input::create(&OutputTarget::Stdout)?),
        Config::Stress(stress) => cmd::stress::run(&stress, input::create(&OutputTarget::Stdout)?),
    }
}
