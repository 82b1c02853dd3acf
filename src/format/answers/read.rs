//! A streaming tokenizer of answer files: lines of results separated by any spacing.
//!
//! Checkers compare tokens, not bytes, so spaces, tabs and CRs between
//! tokens are all the same (and nothing else is whitespace, as in testlib); but a line feed ends a case, since one line per
//! case is required.

use crate::format::bytes::{Chunks, is_space};
use std::io::{self, Read};


/// The next thing in an answer file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// A result: 0, 1 or 2.
    Result(u8),
    /// A token that is not a result; [`AnswerReader::quote`] quotes it.
    Other,
    /// The end of a line.
    LineEnd,
    /// The end of the file; it repeats if asked again.
    End,
}

/// Reads [`Item`]s from an answer file, in chunks.
pub struct AnswerReader<R> {
    /// The bytes, read a chunk at a time; `chunks.pos` is the next unread.
    chunks: Chunks<R>,
    /// 1-based line of the next item.
    line: u64,
    /// The last token that was not a result, quoted for messages.
    other: String,
}

/// Whether a byte separates tokens on a line: the input's whitespace
/// ([`is_space`]) but the LF, which ends the line.
#[inline(always)]
pub fn is_blank(byte: u8) -> bool {
    byte != b'\n' && is_space(byte)
}

impl<R: Read> AnswerReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> AnswerReader<R> {
        AnswerReader {
            chunks: Chunks::new(input),
            line: 1,
            other: String::new(),
        }
    }

    /// The unread bytes in the buffer.
    pub fn buffered(&self) -> &[u8] {
        &self.chunks.bytes()[self.chunks.pos..]
    }

    /// Consumes the first `len` buffered bytes, which hold `lines` LFs.
    pub fn consume(&mut self, len: usize, lines: u64) {
        self.chunks.pos = (self.chunks.pos + len).min(self.chunks.end);
        self.line += lines;
    }

    /// The 1-based line the next item is on.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The next item.
    #[inline(always)]
    pub fn next_item(&mut self) -> io::Result<Item> {
        // The common case: a result and its following space, or a line end,
        // with the byte after it in the buffer.
        while self.chunks.pos + 1 < self.chunks.end {
            let byte = self.chunks.bytes()[self.chunks.pos];
            let next = self.chunks.bytes()[self.chunks.pos + 1];
            match byte {
                b'0'..=b'2' if is_blank(next) || next == b'\n' => {
                    self.chunks.pos += 1;
                    return Ok(Item::Result(byte - b'0'));
                }
                b'\n' => {
                    self.chunks.pos += 1;
                    self.line += 1;
                    return Ok(Item::LineEnd);
                }
                _ if is_blank(byte) => self.chunks.pos += 1,
                _ => break,
            }
        }
        self.next_item_slow()
    }

    #[cold]
    fn next_item_slow(&mut self) -> io::Result<Item> {
        loop {
            if self.chunks.pos + 1 >= self.chunks.end && !self.chunks.at_eof() {
                self.fill()?;
            }
            let Some(&byte) = self.chunks.bytes().get(self.chunks.pos) else {
                return Ok(Item::End);
            };
            if is_blank(byte) {
                self.chunks.pos += 1;
                continue;
            }
            if byte == b'\n' {
                self.chunks.pos += 1;
                self.line += 1;
                return Ok(Item::LineEnd);
            }
            let digit = byte.wrapping_sub(b'0');
            let ends = self.chunks.bytes()
                .get(self.chunks.pos + 1)
                .is_none_or(|&next| is_blank(next) || next == b'\n');
            if digit <= 2 && ends {
                self.chunks.pos += 1;
                return Ok(Item::Result(digit));
            }
            return self.other_token();
        }
    }

    /// An item as a message quotes it.
    pub fn quote(&self, item: Item) -> String {
        match item {
            Item::Result(value) => format!("\"{value}\""),
            Item::Other => format!("{:?}", self.other),
            Item::LineEnd => "the end of the line".into(),
            Item::End => "the end of the output".into(),
        }
    }

    /// Whether the last token read that was not a result is an integer as
    /// testlib's readInt reads one: digits after an optional `-`, no
    /// leading zero, not `-0`, within an i32 (readInt calls one past it,
    /// `2147483648`, a presentation error: "Expected int32").
    pub fn other_is_integer(&self) -> bool {
        let digits = self.other.strip_prefix('-').unwrap_or(&self.other);
        let canonical = !digits.is_empty()
            && digits.bytes().all(|byte| byte.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && self.other != "-0";
        canonical && self.other.parse::<i32>().is_ok()
    }

    /// Whether the file has no bytes left.
    pub fn at_end(&mut self) -> io::Result<bool> {
        if self.chunks.pos >= self.chunks.end && !self.chunks.at_eof() {
            self.fill()?;
        }
        Ok(self.chunks.pos >= self.chunks.end)
    }

    /// Counts the items left on the current line and consumes them, with
    /// the first one quoted.
    pub fn rest_of_line(&mut self) -> io::Result<(u64, Option<String>)> {
        let mut count = 0;
        let mut first = None;
        loop {
            match self.next_item()? {
                Item::LineEnd | Item::End => return Ok((count, first)),
                item => {
                    count += 1;
                    if first.is_none() {
                        first = Some(self.quote(item));
                    }
                }
            }
        }
    }

    /// Counts the lines left, and consumes them: every line if
    /// `empty_ones_count`, else those that hold a token.
    pub fn lines_left(&mut self, empty_ones_count: bool) -> io::Result<u64> {
        let mut lines = 0;
        let mut this_line_counted = false;
        loop {
            match self.next_item()? {
                Item::End => return Ok(lines),
                Item::LineEnd => {
                    if empty_ones_count && !this_line_counted {
                        lines += 1;
                    }
                    this_line_counted = false;
                }
                _ if !this_line_counted => {
                    this_line_counted = true;
                    lines += 1;
                }
                _ => {}
            }
        }
    }

    #[cold]
    fn other_token(&mut self) -> io::Result<Item> {
        (self.other, _) = self.chunks.take_token(|_| {})?;
        Ok(Item::Other)
    }

    /// Reads until two bytes past the reading position are buffered, or
    /// the input ends: an item is known by its first byte and the next.
    #[cold]
    fn fill(&mut self) -> io::Result<()> {
        self.chunks.fill_ahead(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The items as text: results as digits, other tokens quoted.
    fn items(input: &str) -> Vec<String> {
        let mut reader = AnswerReader::new(input.as_bytes());
        let mut found = Vec::new();
        loop {
            let item = reader.next_item().expect("in memory");
            if item == Item::End {
                return found;
            }
            found.push(match item {
                Item::Result(value) => value.to_string(),
                Item::LineEnd => "LF".into(),
                other => reader.quote(other),
            });
        }
    }

    #[test]
    fn any_spacing_separates_results_and_line_feeds_end_cases() {
        assert_eq!(
            items("0 1\t 2\r\n\n10 x"),
            ["0", "1", "2", "LF", "LF", "\"10\"", "\"x\""]
        );
    }

    #[test]
    fn tokens_split_across_reads_are_whole() {
        let line = "0 1 2 ".repeat(30_000) + "123456\n";
        let mut reader = AnswerReader::new(line.as_bytes());
        for _ in 0..90_000 {
            assert!(matches!(
                reader.next_item().expect("in memory"),
                Item::Result(_)
            ));
        }
        assert_eq!(reader.next_item().expect("in memory"), Item::Other);
        assert_eq!(reader.quote(Item::Other), "\"123456\"");
        assert_eq!(reader.next_item().expect("in memory"), Item::LineEnd);
    }
}
