//! The statement, with no I/O: the board, the players, a move's outcome,
//! the rules that decide it, the bounds on a test file and the referee of
//! the guarantees a file's moves keep.

mod engine;
mod limits;
mod referee;

pub use engine::*;
pub use limits::Limits;
pub use referee::{AfterWinIn, Breach, CleanBatch, Referee, alternate};
