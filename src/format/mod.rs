//! Every conversion between bytes and cases: the readers and writers of both formats and of answers.

pub mod answers;
pub mod board;
pub mod bytes;
pub mod cases;
pub mod coding_ninjas;
pub mod leetcode;
pub mod write;
