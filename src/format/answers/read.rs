//! A streaming tokenizer of answer files: lines of results separated by any spacing.
//!
//! Checkers compare tokens, not bytes, so spaces, tabs and CRs between
//! tokens are all the same (and nothing else is whitespace, as in testlib); but a line feed ends a case, since one line per
//! case is required.

use crate::error::quote_token;
use crate::format::bytes::{is_space, read_into};
use std::io::{self, Read};

/// Bytes asked for per `read` call.
const CHUNK: usize = 64 * 1024;

/// Bytes of a bad token quoted in a message.
const QUOTED: usize = 32;

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
    input: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
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
            input,
            buf: vec![0; CHUNK],
            pos: 0,
            end: 0,
            eof: false,
            line: 1,
            other: String::new(),
        }
    }

    /// The unread bytes in the buffer.
    pub fn buffered(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// Consumes the first `len` buffered bytes, which hold `lines` LFs.
    pub fn consume(&mut self, len: usize, lines: u64) {
        self.pos = (self.pos + len).min(self.end);
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
        while self.pos + 1 < self.end {
            let byte = self.buf[self.pos];
            let next = self.buf[self.pos + 1];
            match byte {
                b'0'..=b'2' if is_blank(next) || next == b'\n' => {
                    self.pos += 1;
                    return Ok(Item::Result(byte - b'0'));
                }
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    return Ok(Item::LineEnd);
                }
                _ if is_blank(byte) => self.pos += 1,
                _ => break,
            }
        }
        self.next_item_slow()
    }

    #[cold]
    fn next_item_slow(&mut self) -> io::Result<Item> {
        loop {
            if self.pos + 1 >= self.end && !self.eof {
                self.fill()?;
            }
            let Some(&byte) = self.buf[..self.end].get(self.pos) else {
                return Ok(Item::End);
            };
            if is_blank(byte) {
                self.pos += 1;
                continue;
            }
            if byte == b'\n' {
                self.pos += 1;
                self.line += 1;
                return Ok(Item::LineEnd);
            }
            let digit = byte.wrapping_sub(b'0');
            let ends = self.buf[..self.end]
                .get(self.pos + 1)
                .is_none_or(|&next| is_blank(next) || next == b'\n');
            if digit <= 2 && ends {
                self.pos += 1;
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

    /// Whether the file has no bytes left.
    pub fn at_end(&mut self) -> io::Result<bool> {
        if self.pos >= self.end && !self.eof {
            self.fill()?;
        }
        Ok(self.pos >= self.end)
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

    /// Counts the lines left that hold any token, and consumes them.
    pub fn lines_with_tokens_left(&mut self) -> io::Result<u64> {
        let mut lines = 0;
        let mut this_line_counted = false;
        loop {
            match self.next_item()? {
                Item::End => return Ok(lines),
                Item::LineEnd => this_line_counted = false,
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
        let mut quoted = Vec::new();
        let mut length = 0;
        loop {
            while self.pos < self.end {
                let byte = self.buf[self.pos];
                if is_blank(byte) || byte == b'\n' {
                    break;
                }
                if quoted.len() < QUOTED {
                    quoted.push(byte);
                }
                length += 1;
                self.pos += 1;
            }
            if self.pos < self.end || self.eof {
                break;
            }
            self.fill()?;
        }
        self.other = quote_token(&quoted, length > quoted.len());
        Ok(Item::Other)
    }

    /// Moves the unread bytes to the front and reads more.
    #[cold]
    fn fill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.pos..self.end, 0);
        self.end -= self.pos;
        self.pos = 0;
        while self.end < 2 && !self.eof {
            read_into(&mut self.input, &mut self.buf, &mut self.end, &mut self.eof)?;
        }
        Ok(())
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
