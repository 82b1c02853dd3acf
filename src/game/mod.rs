//! The statement, with no I/O: the board, the players, a move's outcome and the rules that decide it.

mod engine;

pub use engine::*;
