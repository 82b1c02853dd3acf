//! Solving a stream of cases, on one thread or across cores: every command that needs answers calls it.

pub mod parallel;
pub mod pipe;
