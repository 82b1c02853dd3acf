//! Every conversion between bytes and cases: the readers and writers of both formats and of answers.

pub mod answers;
pub mod board;
pub mod bytes;
pub mod cases;
pub mod coding_ninjas;
pub mod leetcode;
pub mod lines;
pub mod write;

/// The format of an input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// LeetCode when the first non-whitespace byte is `[`, else Coding Ninjas.
    #[default]
    Auto,
    /// T, then per case N, Q and Q moves `ROW COL PLAYER`.
    CodingNinjas,
    /// Per case two JSON arrays: method names and their arguments.
    Leetcode,
}

/// A format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// The Coding Ninjas batch format.
    CodingNinjas,
    /// LeetCode's two-array transcripts.
    Leetcode,
}
