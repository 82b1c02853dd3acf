//! Input readers: one streaming parser per format, over one chunked byte source.
//!
//! [`Chunks`] reads into a single reused buffer and knows the absolute offset
//! of every byte in it. Line and column are worked out only when an error
//! needs them (as serde_json does): the hot path never counts lines.

pub mod coding_ninjas;
pub mod leetcode;

use crate::error::{DataError, DataErrorKind, Position};
use std::io::{self, Read};

/// Bytes read per `read` call: 64-128 KiB reads measured about 4x faster
/// here than 1 MiB ones.
pub const CHUNK: usize = 128 * 1024;

/// The space characters that may separate tokens.
#[inline(always)]
pub fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\r' | b'\t')
}

/// A reader's buffer over an input, refilled in chunks.
///
/// `buf[pos..end]` is unread. Everything before `keep` may be discarded on
/// the next refill; the reader moves `keep` forward as records complete, so
/// the tokens of the record in progress stay in memory for error positions.
pub struct Chunks<R> {
    inner: R,
    buf: Vec<u8>,
    /// Next unread byte.
    pub pos: usize,
    /// End of the bytes read.
    pub end: usize,
    /// First byte that must survive a refill.
    pub keep: usize,
    /// Absolute offset of `buf[0]` in the input.
    base: u64,
    /// Newlines before `base`.
    lines_before_base: u64,
    /// Absolute offset of the first byte of the line that `base` is on.
    line_start_before_base: u64,
    eof: bool,
}

impl<R: Read> Chunks<R> {
    /// Wraps an input.
    pub fn new(inner: R) -> Chunks<R> {
        Chunks {
            inner,
            buf: vec![0; CHUNK],
            pos: 0,
            end: 0,
            keep: 0,
            base: 0,
            lines_before_base: 0,
            line_start_before_base: 0,
            eof: false,
        }
    }

    /// The bytes read so far and still held.
    #[inline(always)]
    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.end]
    }

    /// Whether the whole input has been read into the buffer.
    #[inline(always)]
    pub fn at_eof(&self) -> bool {
        self.eof
    }

    /// The absolute offset of a buffer index.
    #[inline(always)]
    pub fn offset_of(&self, index: usize) -> u64 {
        self.base + index as u64
    }

    /// Reads more input after `end`, first dropping what lies before `keep`.
    /// Returns false at end of input. Interrupted reads are retried.
    #[cold]
    pub fn refill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        let discard = self.keep;
        if discard > 0 {
            let dropped = &self.buf[..discard];
            let newlines = memchr::memchr_iter(b'\n', dropped).count() as u64;
            if let Some(last) = memchr::memrchr(b'\n', dropped) {
                self.line_start_before_base = self.base + last as u64 + 1;
            }
            self.lines_before_base += newlines;
            self.buf.copy_within(discard..self.end, 0);
            self.base += discard as u64;
            self.pos -= discard;
            self.end -= discard;
            self.keep = 0;
        }
        if self.end == self.buf.len() {
            // A record longer than the buffer: grow, so memory follows the
            // bytes actually read.
            self.buf.resize(self.buf.len() * 2, 0);
        }
        // Fill all the spare room: normally about one chunk, but after a growth
        // the whole new half, so rescanning a long token stays linear.
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(read) => {
                    self.end += read;
                    return Ok(true);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            }
        }
    }

    /// Line and column of an absolute offset still in the buffer (or just
    /// past its end). Offsets already discarded clamp to the buffer start.
    #[cold]
    pub fn line_and_column(&self, offset: u64) -> (u64, u64) {
        let index = offset.saturating_sub(self.base).min(self.end as u64) as usize;
        let before = &self.buf[..index];
        let line = self.lines_before_base + memchr::memchr_iter(b'\n', before).count() as u64;
        let line_start = match memchr::memrchr(b'\n', before) {
            Some(last) => self.base + last as u64 + 1,
            None => self.line_start_before_base,
        };
        (line + 1, offset - line_start + 1)
    }

    /// A data error at an absolute offset.
    #[cold]
    pub fn error_at(
        &self,
        offset: u64,
        case: Option<u64>,
        r#move: Option<u64>,
        kind: DataErrorKind,
    ) -> DataError {
        let (line, column) = self.line_and_column(offset);
        DataError {
            position: Position {
                line,
                column,
                case,
                r#move,
            },
            kind,
        }
    }

    /// The token starting at buffer index `start`, for a message: up to the
    /// next space, at most 32 bytes.
    #[cold]
    pub fn token_text(&self, start: usize) -> String {
        let rest = &self.bytes()[start..];
        let len = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
        let shown = &rest[..len.min(32)];
        let mut text = String::from_utf8_lossy(shown).into_owned();
        if len > shown.len() || (len == rest.len() && !self.eof) {
            text.push_str("...");
        }
        text
    }
}

/// Bytes the block scanner classifies at once.
pub const BLOCK: usize = 64;

/// Bytes that must be buffered from a block's start: a token's 8-byte word
/// may begin at the block's last byte.
pub const BLOCK_WINDOW: usize = BLOCK + 8;

/// Integers parsed ahead of the reader by [`scan_block`], with the absolute
/// offsets where they start.
pub struct Tokens {
    values: [i64; BLOCK],
    offsets: [u64; BLOCK],
    head: usize,
    len: usize,
}

impl Default for Tokens {
    fn default() -> Tokens {
        Tokens {
            values: [0; BLOCK],
            offsets: [0; BLOCK],
            head: 0,
            len: 0,
        }
    }
}

impl Tokens {
    /// How many tokens are waiting.
    #[inline(always)]
    pub fn waiting(&self) -> usize {
        self.len - self.head
    }

    /// The next token, if any: its value and offset.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<(i64, u64)> {
        if self.head == self.len {
            return None;
        }
        let token = (self.values[self.head], self.offsets[self.head]);
        self.head += 1;
        Some(token)
    }

    /// The offset of the next token, if any, without taking it.
    pub fn peek_offset(&self) -> Option<u64> {
        (self.head < self.len).then(|| self.offsets[self.head])
    }

    #[inline(always)]
    fn push(&mut self, value: i64, offset: u64) {
        self.values[self.len] = value;
        self.offsets[self.len] = offset;
        self.len += 1;
    }
}

/// Parses every plain token (1 to 8 digits, followed by a space) in the
/// first [`BLOCK`] bytes of `window` into `tokens`, which must be empty.
/// Returns how many bytes it consumed: it stops before the first token it
/// cannot take (a sign, a long number, garbage, or one running past the
/// block), which the general path then reads.
///
/// Why blocks: a loop that finds each token's end before it can look at the
/// next makes one long chain of dependent steps, and a byte loop over random
/// numbers mispredicts their lengths. Here two bitmasks (digits, spaces) give
/// every token's start and end at once, and each value is computed on its own.
#[inline(always)]
pub fn scan_block(window: &[u8; BLOCK_WINDOW], offset: u64, tokens: &mut Tokens) -> usize {
    tokens.head = 0;
    tokens.len = 0;
    let (digits, spaces) = classify(window);
    // Everything from the first byte that is neither digit nor space is the
    // general path's.
    let limit = (!(digits | spaces)).trailing_zeros() as usize;
    let mut starts = digits & !(digits << 1);
    let mut ends = digits & !(digits >> 1);
    while starts != 0 {
        let start = starts.trailing_zeros() as usize;
        let end = ends.trailing_zeros() as usize;
        let count = end - start + 1;
        // The byte after the token must be a space within the block.
        if end + 1 >= limit || count > 8 {
            return start.min(limit);
        }
        let word = u64::from_le_bytes(window_word(window, start));
        tokens.push(digits_value(word, count) as i64, offset + start as u64);
        starts &= starts - 1;
        ends &= ends - 1;
    }
    limit
}

/// Bitmasks of the digits and the spaces among a block's bytes (bit i for
/// byte i): SSE2, which every x86_64 processor has.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify(window: &[u8; BLOCK_WINDOW]) -> (u64, u64) {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut digits = 0u64;
    let mut spaces = 0u64;
    for lane in 0..BLOCK / 16 {
        let chunk = &window[lane * 16..lane * 16 + 16];
        // SAFETY: SSE2 is part of the x86_64 baseline, so the intrinsics are
        // available; `chunk` holds 16 bytes, all an unaligned load reads.
        let (digit, space) = unsafe {
            let is = |bytes: __m128i, byte: u8| _mm_cmpeq_epi8(bytes, _mm_set1_epi8(byte as i8));
            let bytes = _mm_loadu_si128(chunk.as_ptr().cast());
            // b'0'..=b'9' plus 0x50 wrap to -128..=-119, the only bytes below -118.
            let digit =
                _mm_cmplt_epi8(_mm_add_epi8(bytes, _mm_set1_epi8(0x50)), _mm_set1_epi8(-118));
            let space = _mm_or_si128(
                _mm_or_si128(is(bytes, b' '), is(bytes, b'\n')),
                _mm_or_si128(is(bytes, b'\r'), is(bytes, b'\t')),
            );
            (_mm_movemask_epi8(digit), _mm_movemask_epi8(space))
        };
        digits |= u64::from(digit as u16) << (lane * 16);
        spaces |= u64::from(space as u16) << (lane * 16);
    }
    (digits, spaces)
}

/// Bitmasks of the digits and the spaces among a block's bytes, byte by byte.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_bytes(window: &[u8; BLOCK_WINDOW]) -> (u64, u64) {
    let mut digits = 0u64;
    let mut spaces = 0u64;
    for (i, &byte) in window[..BLOCK].iter().enumerate() {
        digits |= u64::from(byte.is_ascii_digit()) << i;
        spaces |= u64::from(is_space(byte)) << i;
    }
    (digits, spaces)
}

#[cfg(not(target_arch = "x86_64"))]
use classify_bytes as classify;

#[inline(always)]
fn window_word(window: &[u8; BLOCK_WINDOW], start: usize) -> [u8; 8] {
    let mut word = [0; 8];
    word.copy_from_slice(&window[start..start + 8]);
    word
}

/// The value of the `count` (1 to 8) ASCII digits at the start of a
/// little-endian word: three multiply-shift steps, no loop.
#[inline(always)]
pub fn digits_value(word: u64, count: usize) -> u64 {
    // Move the digits to the top; the zero bytes shifted in read as leading
    // zeros. Then pairs, quads and octets of digits combine in turn.
    let aligned = word << (8 * (8 - count));
    let pairs = ((aligned & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(2561)) >> 8;
    let quads = ((pairs & 0x00FF_00FF_00FF_00FF).wrapping_mul(6_553_601)) >> 16;
    ((quads & 0x0000_FFFF_0000_FFFF).wrapping_mul(42_949_672_960_001)) >> 32
}

/// The result of scanning one integer token in a buffer.
#[derive(Debug, PartialEq, Eq)]
pub enum Scanned {
    /// The value and the index just past the token.
    Int(i64, usize),
    /// The token runs to the end of the buffer and more input may follow.
    Incomplete,
    /// Not an integer.
    NotInteger,
    /// An integer with more than 18 significant digits.
    TooLarge,
}

/// Scans an optionally signed decimal integer starting at `buf[start]`, which
/// is not a space. The token must end at a space or at the end of input.
#[inline(always)]
pub fn scan_int(buf: &[u8], start: usize, at_eof: bool) -> Scanned {
    let mut at = start;
    let negative = buf[at] == b'-';
    if negative || buf[at] == b'+' {
        at += 1;
    }
    let digits_start = at;
    let mut value: u64 = 0;
    while let Some(&byte) = buf.get(at) {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
        at += 1;
    }
    let digits = &buf[digits_start..at];
    if digits.len() > 18 && significant_digits(digits) > 18 {
        return Scanned::TooLarge;
    }
    match buf.get(at) {
        None if !at_eof => return Scanned::Incomplete,
        Some(&byte) if !is_space(byte) => return Scanned::NotInteger,
        _ if digits.is_empty() => return Scanned::NotInteger,
        _ => {}
    }
    // At most 18 significant digits: the value is exact and fits an i64.
    let value = value as i64;
    Scanned::Int(if negative { -value } else { value }, at)
}

#[cold]
fn significant_digits(digits: &[u8]) -> usize {
    let zeros = digits.iter().take_while(|&&d| d == b'0').count();
    digits.len() - zeros
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_int_reads_signed_integers_ending_at_space_or_end() {
        assert_eq!(scan_int(b"42 ", 0, false), Scanned::Int(42, 2));
        assert_eq!(scan_int(b"-7\n", 0, false), Scanned::Int(-7, 2));
        assert_eq!(scan_int(b"+007", 0, true), Scanned::Int(7, 4));
        assert_eq!(scan_int(b"12", 0, false), Scanned::Incomplete);
        assert_eq!(scan_int(b"12x ", 0, true), Scanned::NotInteger);
        assert_eq!(scan_int(b"- ", 0, true), Scanned::NotInteger);
        assert_eq!(scan_int(b"x", 0, true), Scanned::NotInteger);
        assert_eq!(
            scan_int(b"999999999999999999 ", 0, true),
            Scanned::Int(999_999_999_999_999_999, 18)
        );
        assert_eq!(
            scan_int(b"1000000000000000000 ", 0, true),
            Scanned::TooLarge
        );
        assert_eq!(
            scan_int(b"0000000000000000000000001 ", 0, true),
            Scanned::Int(1, 25)
        );
    }

    fn block(text: &[u8]) -> [u8; BLOCK_WINDOW] {
        let mut window = [b' '; BLOCK_WINDOW];
        window[..text.len()].copy_from_slice(text);
        window
    }

    fn scan(text: &[u8]) -> (Vec<(i64, u64)>, usize) {
        let mut tokens = Tokens::default();
        let consumed = scan_block(&block(text), 100, &mut tokens);
        (std::iter::from_fn(|| tokens.pop()).collect(), consumed)
    }

    #[test]
    fn digits_value_reads_one_to_eight_digits() {
        let word = |text: &[u8]| u64::from_le_bytes(block(text)[..8].try_into().expect("8 bytes"));
        assert_eq!(digits_value(word(b"7 3 1"), 1), 7);
        assert_eq!(digits_value(word(b"42\n"), 2), 42);
        assert_eq!(digits_value(word(b"0012345"), 7), 12345);
        assert_eq!(digits_value(word(b"98765432"), 8), 98_765_432);
    }

    #[test]
    fn scan_block_takes_plain_tokens_and_stops_before_anything_else() {
        assert_eq!(scan(b"3 14\r\n 15\t9"), (vec![(3, 100), (14, 102), (15, 107), (9, 110)], 64));
        // A sign, garbage, or a token of more than 8 digits is left alone.
        assert_eq!(scan(b"1 -2 3"), (vec![(1, 100)], 2));
        assert_eq!(scan(b"1 2x 3"), (vec![(1, 100)], 2));
        assert_eq!(scan(b"1 123456789 3"), (vec![(1, 100)], 2));
        assert_eq!(scan(b"12345678 1"), (vec![(12_345_678, 100), (1, 109)], 64));
        // A token touching the block's end may go on past it.
        let mut text = vec![b' '; 62];
        text.extend_from_slice(b"77");
        assert_eq!(scan(&text), (vec![], 62));
    }

    proptest::proptest! {
        #[test]
        fn classify_agrees_with_the_byte_by_byte_version(
            text in proptest::collection::vec(proptest::prelude::any::<u8>(), BLOCK_WINDOW),
        ) {
            let window: [u8; BLOCK_WINDOW] = text.try_into().expect("window size");
            proptest::prop_assert_eq!(classify(&window), classify_bytes(&window));
        }

        #[test]
        fn scan_block_agrees_with_the_general_scanner(
            text in proptest::collection::vec(proptest::sample::select(b"0123456789  \n\r\t-x".to_vec()), BLOCK_WINDOW),
        ) {
            let window: [u8; BLOCK_WINDOW] = text.clone().try_into().expect("window size");
            let mut tokens = Tokens::default();
            let consumed = scan_block(&window, 0, &mut tokens);
            proptest::prop_assert!(consumed <= BLOCK);
            // Every token taken is what the general scanner reads there.
            while let Some((value, offset)) = tokens.pop() {
                let start = offset as usize;
                proptest::prop_assert!(start < consumed);
                proptest::prop_assert!(start == 0 || is_space(text[start - 1]));
                match scan_int(&text, start, true) {
                    Scanned::Int(expected, _) => proptest::prop_assert_eq!(value, expected),
                    other => proptest::prop_assert!(false, "general scanner says {:?}", other),
                }
            }
            // What was skipped after the last token is space.
            proptest::prop_assert!(consumed == 0 || consumed == BLOCK || !text[consumed].is_ascii_digit() || is_space(text[consumed - 1]));
        }
    }

    #[test]
    fn positions_survive_refills_and_count_bytes_from_line_start() {
        let input = "ab\ncd\r\nef gh\n".repeat(50_000);
        let mut chunks = Chunks::new(input.as_bytes());
        while chunks.refill().expect("in-memory read") {
            chunks.pos = chunks.end;
            chunks.keep = chunks.end.saturating_sub(3);
        }
        let last_line_start = input.len() as u64 - 6;
        assert_eq!(chunks.line_and_column(last_line_start + 3), (150_000, 4));
    }
}
