//! Answer files in both formats: read as results, and compared the one way every command judges by.

mod compare;
mod exact;
pub mod leetcode;
pub mod read;

pub use compare::*;
