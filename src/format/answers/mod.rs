//! Answer files in both formats: read as results, and compared the one way every command judges by.

mod compare;
pub mod leetcode;
pub mod read;

pub use compare::*;
