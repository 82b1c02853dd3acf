//! Every conversion between bytes and cases: the readers and writers of both formats and of answers.

pub mod answers;
pub mod board;
pub mod bytes;
pub mod cases;
pub mod coding_ninjas;
pub mod cut;
pub mod leetcode;
pub mod lines;
pub mod tokens;
pub mod write;

/// One of the two formats of inputs and answers. Where a format may be
/// detected, `None` stands for "detect it": LeetCode when the first
/// non-whitespace byte is `[`, else Coding Ninjas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// T, then per case N, Q and Q moves `ROW COL PLAYER`; answers one line
    /// of results per case.
    CodingNinjas,
    /// Per test case two JSON arrays, the method names and their arguments;
    /// answers one `[null,...]` line per test case.
    Leetcode,
}

impl Format {
    /// The other format: what `convert` turns this one into.
    pub fn other(self) -> Format {
        match self {
            Format::CodingNinjas => Format::Leetcode,
            Format::Leetcode => Format::CodingNinjas,
        }
    }
}
