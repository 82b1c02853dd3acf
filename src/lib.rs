//! `tictactoe`: a streaming reference solver for Design Tic-Tac-Toe (LeetCode 348).
//!
//! Data flows one way: input bytes go through a [`format`] (which knows line
//! and column), each case through the [`game`] (pure, no I/O), and the
//! results through the [`format::write`] to the output. Errors travel up to the
//! binary's `main`, which alone decides the exit status.
//!
//! The engine is usable on its own, shaped like LeetCode's class:
//! [`TicTacToe::new`] is the constructor and [`TicTacToe::play`] is `move`
//! (a keyword in Rust). LeetCode's example:
//!
//! ```
//! use tictactoe::{Outcome, Player, TicTacToe};
//!
//! let mut game = TicTacToe::new(3)?;
//! let moves = [(0, 0, 1), (0, 2, 2), (2, 2, 1), (1, 1, 2), (2, 0, 1), (1, 0, 2)];
//! for (row, col, player) in moves {
//!     assert_eq!(game.play(row, col, player)?, Outcome::NoWin);
//! }
//! assert_eq!(game.play(2, 1, 1)?, Outcome::Win(Player::One));
//! // What LeetCode prints for the example, `null` aside:
//! assert_eq!(Outcome::Win(Player::One).number(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Moves the statement rules out are typed errors, and leave the game as it
//! was; what a move after a win does is a policy ([`AfterWin`]):
//!
//! ```
//! use tictactoe::{AfterWin, BoardSize, MoveError, Outcome, Player, Rules, TicTacToe};
//!
//! let mut game = TicTacToe::new(2)?;
//! assert_eq!(game.play(2, 0, 1), Err(MoveError::RowOffBoard { row: 2, n: 2 }));
//! assert_eq!(game.play(0, 0, 3), Err(MoveError::BadPlayer(3)));
//! game.play(0, 0, 1)?;
//! assert_eq!(game.play(0, 0, 2), Err(MoveError::Taken { row: 0, col: 0 }));
//! game.play(0, 1, 2)?;
//! assert_eq!(game.play(1, 0, 1)?, Outcome::Win(Player::One));
//! assert_eq!(
//!     game.play(1, 1, 2),
//!     Err(MoveError::AfterWin { winner: Player::One, at_move: 3 })
//! );
//!
//! // LeetCode's grader keeps answering after a win.
//! let rules = Rules { after_win: AfterWin::Leetcode, ..Rules::default() };
//! let mut game = TicTacToe::with_rules(BoardSize::new(2)?, rules);
//! let results: Vec<u8> = [(0, 0, 1), (0, 1, 2), (1, 0, 1), (1, 1, 2)]
//!     .into_iter()
//!     .map(|(row, col, player)| game.play(row, col, player).map(Outcome::number))
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(results, [0, 0, 1, 2]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

/// Declares the modules behind the public API: crate-private, or public
/// with the `internals` feature, for the fuzz targets, the benchmarks and
/// the tests that reach inside.
macro_rules! internal_modules {
    ($($(#[$doc:meta])* $name:ident;)*) => {
        $(
            $(#[$doc])*
            #[cfg(feature = "internals")]
            pub mod $name;
            $(#[$doc])*
            #[cfg(not(feature = "internals"))]
            pub(crate) mod $name;
        )*
    };
}

internal_modules! {
    cli;
    error;
    files;
    format;
    judging;
    pipeline;
    simd;
}

pub mod game;

pub use cli::{Failure, FailureKind, run_command_line};
pub use game::{
    AfterWin, BadSize, BoardSize, EngineKind, Line, MoveError, Outcome, Player, Rules, TicTacToe,
};

#[cfg(test)]
mod property_tests {
    //! One place for what the unit tests' property tests share, so that
    //! the seeds of their failures are kept under `tests/`, with the rest
    //! of the tests' data, not in a folder of their own at the crate's top.

    use proptest::test_runner::{Config, FileFailurePersistence};

    /// Proptest's defaults (and `PROPTEST_CASES`, where it is set), with a
    /// failing case's seed written to `tests/proptest-regressions/` under
    /// its source file's path within `src/`, and run again first next time.
    pub(crate) fn config() -> Config {
        Config {
            failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel(
                "tests/proptest-regressions",
            ))),
            ..Config::default()
        }
    }
}
