//! LeetCode's transcript format: per test case, the method names and their arguments as two JSON arrays.

pub mod read;
pub mod split;
