//! Buffered output of results, one whole line per case and never a partial one.
//!
//! A case's line is assembled in memory and becomes writable only when the
//! case completes, so whatever stops a run (a data error, a read error) leaves
//! exactly the lines of the completed cases. Completed lines go out in large
//! blocks, since a write per case would dominate small cases.

use crate::game::Outcome;
use std::io::{self, Write};

/// Completed output is written once this much has gathered.
const BLOCK: usize = 128 * 1024;

/// Writes each case's results as one line: the results separated by single
/// spaces, then LF.
pub struct ResultWriter<W: Write> {
    out: W,
    buf: Vec<u8>,
    /// Where the case in progress starts in `buf`, if one is in progress.
    case_start: Option<usize>,
}

impl<W: Write> ResultWriter<W> {
    /// A writer onto `out`, which it does not buffer further.
    pub fn new(out: W) -> ResultWriter<W> {
        ResultWriter {
            out,
            buf: Vec::with_capacity(BLOCK + BLOCK / 2),
            case_start: None,
        }
    }

    /// The output, to swap for another between runs: a writer kept for
    /// many runs keeps its buffer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Starts a case's line.
    #[inline]
    pub fn begin_case(&mut self) {
        self.case_start = Some(self.buf.len());
    }

    /// Appends a move's result to the case in progress.
    #[inline(always)]
    pub fn push(&mut self, outcome: Outcome) {
        // Two bytes at once: the result's digit and the space after it.
        let pair = u16::from_le_bytes([b'0' + outcome.number(), b' ']);
        self.buf.extend_from_slice(&pair.to_le_bytes());
    }

    /// Appends the results (0, 1 or 2 each) of a batch of moves.
    #[inline(always)]
    pub fn push_numbers(&mut self, numbers: &[u8]) {
        self.buf.reserve(2 * numbers.len());
        self.buf
            .extend(numbers.iter().flat_map(|&number| [b'0' + number, b' ']));
    }

    /// Completes the case's line, writing completed lines out once enough
    /// have gathered.
    #[inline]
    pub fn end_case(&mut self) -> io::Result<()> {
        let start = self.case_start.take().unwrap_or(self.buf.len());
        if self.buf.len() > start {
            // The last result's trailing space becomes the line's end.
            let last = self.buf.len() - 1;
            self.buf[last] = b'\n';
        } else {
            self.buf.push(b'\n');
        }
        if self.buf.len() >= BLOCK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes every completed line, drops a case left in progress, and flushes.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(start) = self.case_start.take() {
            self.buf.truncate(start);
        }
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }
}

/// Appends one LeetCode test case in canonical form: the method names and
/// the arguments, each on one line without spaces. Shared by `convert` and
/// `gen`, so both write the same bytes.
pub fn leetcode_transcript(out: &mut Vec<u8>, n: u64, moves: &[(i64, i64, i64)]) {
    use crate::format::leetcode::read::{CONSTRUCTOR, MOVE};
    use std::io::Write as _;
    // Writing into a Vec cannot fail.
    let _ = write!(out, "[\"{CONSTRUCTOR}\"");
    for _ in moves {
        let _ = write!(out, ",\"{MOVE}\"");
    }
    let _ = write!(out, "]\n[[{n}]");
    for (row, col, player) in moves {
        let _ = write!(out, ",[{row},{col},{player}]");
    }
    out.extend_from_slice(b"]\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;

    #[test]
    fn lines_hold_results_separated_by_spaces_and_empty_cases_print_empty_lines() {
        let mut out = Vec::new();
        let mut writer = ResultWriter::new(&mut out);
        writer.begin_case();
        writer.push(Outcome::NoWin);
        writer.push(Outcome::Win(Player::Two));
        writer.end_case().expect("in memory");
        writer.begin_case();
        writer.end_case().expect("in memory");
        writer.finish().expect("in memory");
        assert_eq!(out, b"0 2\n\n");
    }

    #[test]
    fn transcripts_are_two_compact_lines() {
        let mut out = Vec::new();
        leetcode_transcript(&mut out, 3, &[(0, 0, 1), (1, 1, 2)]);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "[\"TicTacToe\",\"move\",\"move\"]\n[[3],[0,0,1],[1,1,2]]\n"
        );
    }

    #[test]
    fn a_case_in_progress_is_dropped_whole() {
        let mut out = Vec::new();
        let mut writer = ResultWriter::new(&mut out);
        writer.begin_case();
        writer.push(Outcome::Win(Player::One));
        writer.end_case().expect("in memory");
        writer.begin_case();
        writer.push(Outcome::NoWin);
        writer.finish().expect("in memory");
        assert_eq!(out, b"1\n");
    }
}
