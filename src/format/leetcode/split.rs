//! Cuts a LeetCode transcript into parts of whole test cases, so that
//! several threads can solve them at once.
//!
//! A test case opens with its array of method names, `["TicTacToe"`, and
//! written the usual way each one starts a line. The splitter cuts after
//! the line feed before such a start, once a part holds enough bytes, and
//! reads nothing else: whether a cut fell between two test cases is known
//! only once the part before it has been read whole without an error. A
//! part whose reading fails is read again, with everything after it, as
//! one stream (`pipeline::leetcode`), so a cut in the wrong place, in an
//! input that is wrong there anyway, costs time but changes no output and
//! no error.

use crate::format::bytes::{CHUNK, Resume, cut_off, read_into, zeroed};
use crate::format::coding_ninjas::split::MAX_PART_BYTES;
use memchr::memmem::Finder;
use std::io::{self, Read};

/// What a cut is made before: a line that opens a test case.
const CASE_START: &[u8] = b"\n[\"TicTacToe\"";

/// A run of the input, in memory, that the splitter took for whole test
/// cases.
#[derive(Debug)]
pub struct Part {
    /// The buffer; the part is `bytes[..len]`. Buffers are reused, so the
    /// tail past `len` is left as it is.
    pub bytes: Vec<u8>,
    /// The part's length.
    pub len: usize,
    /// Where the part starts in the input.
    pub start: Resume,
    /// Whether the input ends with this part.
    pub last: bool,
}

impl Part {
    /// The part's bytes.
    pub fn contents(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The part's bytes, as a stream.
    pub fn into_stream(self) -> io::Take<io::Cursor<Vec<u8>>> {
        io::Cursor::new(self.bytes).take(self.len as u64)
    }
}

/// What the splitter found next.
#[derive(Debug)]
pub enum Next {
    /// A part to solve.
    Part(Part),
    /// The splitter stops here: what it has buffered from its last cut
    /// (or the input's start), after which the rest of the input follows.
    /// It stops where no test case starts a line within
    /// [`MAX_PART_BYTES`], and where a read fails (read again by whoever
    /// reads the rest, which then reports it).
    Rest(Part),
}

/// Cuts a transcript into [`Part`]s.
pub struct Splitter<R> {
    input: R,
    /// `buf[..end]` holds the input from `start` on.
    buf: Vec<u8>,
    end: usize,
    start: Resume,
    /// No cut lies before this index.
    searched: usize,
    eof: bool,
    part_bytes: usize,
    finder: Finder<'static>,
}

impl<R: Read> Splitter<R> {
    /// A splitter of `input` into parts of at least `part_bytes` (but for
    /// the last).
    pub fn new(input: R, part_bytes: usize) -> Splitter<R> {
        Splitter {
            input,
            buf: Vec::new(),
            end: 0,
            start: Resume::START,
            searched: 0,
            eof: false,
            part_bytes: part_bytes.clamp(1, MAX_PART_BYTES / 2),
            finder: Finder::new(CASE_START),
        }
    }

    /// The input after what the splitter has buffered.
    pub fn into_input(self) -> R {
        self.input
    }

    /// What is buffered after the last part, and the input after that.
    pub fn into_rest(mut self) -> (Part, R) {
        (self.rest(), self.input)
    }

    /// Finds the next part. `spare` is a buffer to reuse for the bytes that
    /// follow it. After the last part or the rest, do not call it again.
    pub fn next_part(&mut self, spare: Vec<u8>) -> Next {
        loop {
            // The line feed before a cut ends a part of `part_bytes` at least.
            let from = self.searched.max(self.part_bytes - 1);
            if let Some(found) = self.buf[..self.end].get(from..).and_then(|bytes| self.finder.find(bytes)) {
                return match self.take(from + found + 1, false, spare) {
                    Ok(part) => Next::Part(part),
                    Err(_) => Next::Rest(self.rest()),
                };
            }
            // A start cut off by the buffer's end is searched again.
            self.searched = from.max((self.end + 1).saturating_sub(CASE_START.len()));
            if self.eof {
                return match self.take(self.end, true, spare) {
                    Ok(part) => Next::Part(part),
                    Err(_) => Next::Rest(self.rest()),
                };
            }
            if !matches!(self.fill(), Ok(true)) && !self.eof {
                return Next::Rest(self.rest());
            }
        }
    }

    /// Reads more into the buffer, growing it up to [`MAX_PART_BYTES`].
    /// False at the end of the input, or when the buffer cannot grow.
    fn fill(&mut self) -> io::Result<bool> {
        if self.end == self.buf.len() {
            if self.buf.len() >= MAX_PART_BYTES {
                return Ok(false);
            }
            // Straight to the size every part's buffer has, as the Coding
            // Ninjas splitter does, so that no buffer of another size is freed.
            let grown = (self.buf.len() * 2).max(self.part_bytes + CHUNK).min(MAX_PART_BYTES);
            let mut buf = zeroed(grown)?;
            buf[..self.end].copy_from_slice(&self.buf[..self.end]);
            self.buf = buf;
        }
        let room = self.end + CHUNK.min(self.buf.len() - self.end);
        read_into(&mut self.input, &mut self.buf[..room], &mut self.end, &mut self.eof)
    }

    /// Cuts off `buf[..at]` as a part, keeping the bytes after it in `spare`.
    /// Fails only when the memory for the new buffer is not there.
    fn take(&mut self, at: usize, last: bool, spare: Vec<u8>) -> io::Result<Part> {
        let tail = self.end - at;
        let bytes = cut_off(&mut self.buf, at..self.end, spare, self.part_bytes + CHUNK)?;
        let part = Part {
            bytes,
            len: at,
            start: self.start,
            last,
        };
        self.start = self.start.after(part.contents());
        self.end = tail;
        self.searched = 0;
        Ok(part)
    }

    /// Everything buffered, for the streaming reader to go on from.
    fn rest(&mut self) -> Part {
        Part {
            bytes: std::mem::take(&mut self.buf),
            len: std::mem::take(&mut self.end),
            start: self.start,
            last: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts of `text` cut at `part_bytes`, joined again, and whether
    /// the splitter followed it to its end (no [`Next::Rest`]).
    fn split(text: &[u8], part_bytes: usize) -> (Vec<Part>, bool) {
        let mut splitter = Splitter::new(text, part_bytes);
        let mut parts = Vec::new();
        loop {
            match splitter.next_part(Vec::new()) {
                Next::Part(part) => {
                    let last = part.last;
                    parts.push(part);
                    if last {
                        return (parts, true);
                    }
                }
                Next::Rest(rest) => {
                    parts.push(rest);
                    return (parts, false);
                }
            }
        }
    }

    fn transcript(cases: usize) -> String {
        (0..cases)
            .map(|case| format!("[\"TicTacToe\",\"move\"]\r\n[[3],[{},0,1]]\r\n", case % 3))
            .collect()
    }

    #[test]
    fn parts_are_cut_where_a_test_case_starts_a_line_and_join_to_the_input() {
        let text = transcript(500);
        for part_bytes in [1, 10, 100, 4096, 1 << 20] {
            let (parts, to_the_end) = split(text.as_bytes(), part_bytes);
            assert!(to_the_end);
            let mut joined = Vec::new();
            for part in &parts {
                assert_eq!(part.start, Resume::START.after(&joined), "parts of {part_bytes}");
                joined.extend_from_slice(part.contents());
                if !part.last {
                    assert!(part.len >= part_bytes);
                    assert!(joined.ends_with(b"]\r\n"), "parts of {part_bytes}");
                }
            }
            assert_eq!(joined, text.as_bytes());
        }
    }

    #[test]
    fn a_transcript_on_one_line_is_one_part() {
        let text = transcript(50).replace("\r\n", " ");
        let (parts, to_the_end) = split(text.as_bytes(), 10);
        assert!(to_the_end);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].contents(), text.as_bytes());
    }

    #[test]
    fn a_run_without_a_case_start_longer_than_a_part_can_hold_is_left_to_the_stream() {
        let mut text = transcript(2);
        text.push_str(&" ".repeat(MAX_PART_BYTES + 10));
        text.push_str(&transcript(2));
        let (parts, to_the_end) = split(text.as_bytes(), 10);
        assert!(!to_the_end);
        let joined: Vec<u8> = parts.iter().flat_map(|part| part.contents().to_vec()).collect();
        assert!(text.as_bytes().starts_with(&joined));
        assert!(joined.len() >= MAX_PART_BYTES);
    }

    #[test]
    fn an_empty_input_is_one_empty_last_part() {
        let (parts, to_the_end) = split(b"", 10);
        assert!(to_the_end);
        assert_eq!(parts.len(), 1);
        assert!(parts[0].contents().is_empty() && parts[0].last);
    }
}
