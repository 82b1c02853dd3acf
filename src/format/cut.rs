//! Cuts an input into parts where a case seems to start, for the formats'
//! splitters to share; whether a cut fell between two cases is proven later.
//!
//! A [`Cut`] rule says where a case seems to start from the look of a few
//! lines (a LeetCode test case opens a line with `["TicTacToe"`; a Coding
//! Ninjas case is a line of N and a line of Q before its moves). The
//! splitter cuts before such a line once a part holds enough bytes, and
//! reads nothing else, so that finding a cut costs next to nothing however
//! short the cases are. Whether a cut fell between two cases is known only
//! once the part before it has been read whole without an error
//! (`pipeline::proven`): a part whose reading fails is read again, with
//! everything after it, as one stream. So a cut in the wrong place, in an
//! input laid out in some other way, costs time but changes no output and
//! no error.

use crate::format::bytes::{CHUNK, Resume, cut_off, read_into, zeroed};
use crate::format::coding_ninjas::split::MAX_PART_BYTES;
use std::io::{self, Read};

/// Where a format's cases seem to start.
pub trait Cut {
    /// The first cut in `bytes` at or after `from`: the index of the first
    /// byte of the line that seems to start a case (the byte after a line
    /// feed). `Err(again)` if there is none yet: the search goes on from
    /// `again` once more bytes are read (a line cut off by the buffer's end
    /// is looked at again then).
    fn find(&self, bytes: &[u8], from: usize) -> Result<usize, usize>;

    /// The most bytes a part may hold while no cut is found, for parts of
    /// `part_bytes`: past it, the splitter stops ([`Next::Rest`]). By
    /// default [`MAX_PART_BYTES`], for a format whose rest is read as one
    /// stream; a format with a better way on for long cases stops sooner.
    fn most_bytes(&self, part_bytes: usize) -> usize {
        let _ = part_bytes;
        MAX_PART_BYTES
    }
}

/// A run of the input, in memory, that the splitter took for whole cases.
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
    /// A part to work on.
    Part(Part),
    /// The splitter stops here: what it has buffered from its last cut
    /// (or the input's start), after which the rest of the input follows.
    /// It stops where no case seems to start within [`Cut::most_bytes`],
    /// and where a read fails (read again by whoever reads the rest, which
    /// then reports it).
    Rest(Part),
}

/// Cuts an input into [`Part`]s where `C` says cases seem to start.
pub struct Splitter<R, C> {
    input: R,
    cut: C,
    /// `buf[..end]` holds the input from `start` on.
    buf: Vec<u8>,
    end: usize,
    start: Resume,
    /// No cut lies before this index.
    searched: usize,
    eof: bool,
    part_bytes: usize,
}

impl<R: Read, C: Cut> Splitter<R, C> {
    /// A splitter of `input` into parts of at least `part_bytes` (but for
    /// the last), cut where `cut` says.
    pub fn new(input: R, part_bytes: usize, cut: C) -> Splitter<R, C> {
        Splitter {
            input,
            cut,
            buf: Vec::new(),
            end: 0,
            start: Resume::START,
            searched: 0,
            eof: false,
            part_bytes: part_bytes.clamp(1, MAX_PART_BYTES / 2),
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
            // A part holds `part_bytes` at least before its cut.
            let from = self.searched.max(self.part_bytes);
            if from <= self.end {
                match self.cut.find(&self.buf[..self.end], from) {
                    Ok(at) => {
                        return match self.take(at, false, spare) {
                            Ok(part) => Next::Part(part),
                            Err(_) => Next::Rest(self.rest()),
                        };
                    }
                    Err(again) => self.searched = again.max(from),
                }
            }
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

    /// Reads more into the buffer, growing it up to [`Cut::most_bytes`].
    /// False at the end of the input, or when the buffer cannot grow.
    fn fill(&mut self) -> io::Result<bool> {
        if self.end == self.buf.len() {
            let most = self.cut.most_bytes(self.part_bytes).max(self.part_bytes + CHUNK);
            if self.buf.len() >= most {
                return Ok(false);
            }
            // Straight to the size every part's buffer has, as the Coding
            // Ninjas walking splitter does, so that no buffer of another
            // size is freed.
            let grown = (self.buf.len() * 2).max(self.part_bytes + CHUNK).min(most);
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

/// Splits `text` with `cut` into parts of `part_bytes`: the parts, and
/// whether the splitter followed it to its end (no [`Next::Rest`]).
#[cfg(test)]
pub(crate) fn split_all<C: Cut>(text: &[u8], part_bytes: usize, cut: C) -> (Vec<Part>, bool) {
    let mut splitter = Splitter::new(text, part_bytes, cut);
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

/// Splits `text`, which the splitter must follow to its end, with `cut`
/// into parts of `part_bytes`, and checks what every splitter keeps to:
/// each part starts where the ones before it end, each but the last holds
/// `part_bytes` at least, and together they are the text.
#[cfg(test)]
pub(crate) fn parts_of<C: Cut>(text: &[u8], part_bytes: usize, cut: C) -> Vec<Part> {
    let (parts, to_the_end) = split_all(text, part_bytes, cut);
    assert!(to_the_end, "parts of {part_bytes}");
    let mut joined = Vec::new();
    for part in &parts {
        assert_eq!(part.start, Resume::START.after(&joined), "parts of {part_bytes}");
        assert!(part.last || part.len >= part_bytes, "parts of {part_bytes}");
        joined.extend_from_slice(part.contents());
    }
    assert_eq!(joined, text, "parts of {part_bytes}");
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases start at lines that begin with `#`.
    struct Hash;

    impl Cut for Hash {
        fn find(&self, bytes: &[u8], from: usize) -> Result<usize, usize> {
            let found = memchr::memmem::find(bytes.get(from.saturating_sub(1)..).unwrap_or(&[]), b"\n#");
            found
                .map(|at| from.saturating_sub(1) + at + 1)
                .ok_or(bytes.len().max(from))
        }
    }

    #[test]
    fn parts_start_at_cuts_hold_enough_bytes_and_join_to_the_input() {
        let text: String = (0..300).map(|case| format!("#{case}\nmove\nmove\n")).collect();
        for part_bytes in [1, 7, 100, 4096, 1 << 20] {
            for part in parts_of(text.as_bytes(), part_bytes, Hash) {
                assert!(part.contents().starts_with(b"#"));
            }
        }
    }

    #[test]
    fn a_run_without_a_cut_longer_than_a_part_can_hold_is_left_to_the_stream() {
        let mut text = "#1\nmove\n".repeat(3);
        text.push_str(&"move\n".repeat(MAX_PART_BYTES / 4));
        text.push_str(&"#2\nmove\n".repeat(3));
        let (parts, to_the_end) = split_all(text.as_bytes(), 10, Hash);
        assert!(!to_the_end);
        let joined: Vec<u8> = parts.iter().flat_map(|part| part.contents().to_vec()).collect();
        assert!(text.as_bytes().starts_with(&joined));
        assert!(joined.len() >= MAX_PART_BYTES);
    }

    #[test]
    fn an_empty_input_is_one_empty_last_part() {
        let (parts, to_the_end) = split_all(b"", 10, Hash);
        assert!(to_the_end);
        assert_eq!(parts.len(), 1);
        assert!(parts[0].contents().is_empty() && parts[0].last);
    }
}
