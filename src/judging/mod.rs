//! Judging: validation of inputs, runs of solutions, generation of tests.

pub mod check;
pub mod generate;
pub mod process;
pub mod validate;
