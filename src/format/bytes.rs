//! Input readers: one streaming parser per format, over one chunked byte source.
//!
//! [`Chunks`] reads into a single reused buffer and knows the absolute offset
//! of every byte in it. Line and column are worked out only when an error
//! needs them (as serde_json does): the hot path never counts lines.

use crate::error::{DataError, DataErrorKind, Position, quote_token};
use crate::simd::{self, Baseline, Cpu};
use std::io::{self, Read};
use std::ops::Range;

/// Bytes of a bad token a message quotes.
pub const QUOTED: usize = 32;

/// Bytes read per `read` call: a read of this size stays in the CPU's
/// caches while it is parsed, where a 1 MiB one does not (docs/PERFORMANCE.md).
pub const CHUNK: usize = 128 * 1024;

/// One `read` into `buf`, retried while interrupted by a signal; 0 means
/// the end of the input. Every chunked reader reads through it.
pub fn read_some(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(buf) {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}

/// Reads once into `buf[*end..]`, moving `end` past what was read. False,
/// with `eof` set, at the end of the input.
pub fn read_into(
    input: &mut impl Read,
    buf: &mut [u8],
    end: &mut usize,
    eof: &mut bool,
) -> io::Result<bool> {
    let read = read_some(input, &mut buf[*end..])?;
    *end += read;
    *eof = read == 0;
    Ok(read > 0)
}

/// A buffer of `size` zero bytes, or an out-of-memory error if the memory is
/// not there (a sandbox's cap), instead of an abort. A fresh zeroed
/// allocation maps zero pages: no memset.
pub fn zeroed(size: usize) -> io::Result<Vec<u8>> {
    bytemuck::allocation::try_zeroed_vec(size).map_err(|()| io::ErrorKind::OutOfMemory.into())
}

/// Cuts a part off a splitter's buffer: `buf[kept]` moves to the start of
/// `spare` (made `size` bytes, or the kept bytes' length, if it is
/// smaller), which becomes the buffer, and the old buffer is returned, its
/// part before `kept.start`. Fails only when the memory for a new buffer
/// is not there.
pub fn cut_off(buf: &mut Vec<u8>, kept: Range<usize>, mut spare: Vec<u8>, size: usize) -> io::Result<Vec<u8>> {
    let size = size.max(kept.len());
    if spare.len() < size {
        spare = zeroed(size)?;
    }
    spare[..kept.len()].copy_from_slice(&buf[kept]);
    Ok(std::mem::replace(buf, spare))
}

/// Where in `buf` to put the `kept` bytes at absolute offset `first`, so
/// that the read after them lands on an address with the same offset in
/// its cache line as the byte's offset in the input: the kernel copies a
/// file's page-cache pages at half speed or less into a destination out of
/// step with them (see docs/PERFORMANCE.md). 0 when the buffer has no room
/// for the shift, or the input so far is shorter than it.
fn read_alignment(buf: &[u8], first: u64, kept: usize) -> usize {
    const LINE: usize = 64;
    let address = buf.as_ptr() as usize;
    // Only the offsets modulo a line matter; truncating `first` keeps them.
    let start = (first as usize).wrapping_sub(address) % LINE;
    if kept + start >= buf.len() || first < start as u64 {
        return 0;
    }
    start
}

/// The space characters that may separate tokens.
#[inline(always)]
pub fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\r' | b'\t')
}

/// A count of at most 18 digits after space at `from`, with no sign, and
/// with the space byte after it buffered too: its value, and where it starts
/// and ends. `None` for anything else, which [`scan_int`] reads.
#[inline(always)]
pub fn buffered_count(bytes: &[u8], from: usize) -> Option<(u64, usize, usize)> {
    let mut at = from;
    while is_space(*bytes.get(at)?) {
        at += 1;
    }
    let start = at;
    let mut value = 0u64;
    loop {
        let digit = bytes.get(at)?.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        value = value * 10 + u64::from(digit);
        at += 1;
        if at - start > 18 {
            return None;
        }
    }
    (at > start && is_space(bytes[at])).then_some((value, start, at))
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
    /// First byte held: the bytes before it are left over from earlier
    /// reads (see [`read_alignment`]).
    start: usize,
    /// Absolute offset of `buf[0]` in the input (that of `buf[start]`, less
    /// `start`).
    base: u64,
    /// Newlines before `buf[start]`.
    lines_before_base: u64,
    /// Absolute offset of the first byte of the line that `buf[start]` is on.
    line_start_before_base: u64,
    /// Offsets a reader still needs after their bytes are let go of,
    /// in input order; see [`pin`](Self::pin).
    pins: Vec<Pin>,
    /// Pins before this one have their line and column worked out.
    pins_resolved: usize,
    eof: bool,
}

/// An offset whose line and column outlive its bytes.
#[derive(Clone, Copy, Debug)]
struct Pin {
    offset: u64,
    /// Line and column, once the bytes are let go of.
    place: (u64, u64),
}

impl<R: Read> Chunks<R> {
    /// Wraps an input.
    pub fn new(inner: R) -> Chunks<R> {
        Chunks {
            inner,
            // Made at the first read, where a want of memory (a sandbox's
            // cap) is a read error, not an abort.
            buf: Vec::new(),
            pos: 0,
            end: 0,
            keep: 0,
            start: 0,
            base: 0,
            lines_before_base: 0,
            line_start_before_base: 0,
            pins: Vec::new(),
            pins_resolved: 0,
            eof: false,
        }
    }

    /// Wraps an input that continues one already partly read: its first
    /// byte is at absolute offset `at`, which lies on line `line` (1-based)
    /// whose first byte is at `line_start`. Positions in messages count
    /// from the start of the whole input.
    pub fn resume(inner: R, at: Resume) -> Chunks<R> {
        let mut chunks = Chunks::new(inner);
        chunks.place(at);
        chunks
    }

    fn place(&mut self, at: Resume) {
        self.base = at.offset;
        self.lines_before_base = at.line - 1;
        self.line_start_before_base = at.line_start;
    }

    /// The bytes held, for reuse once reading is done.
    pub fn into_buffer(self) -> Vec<u8> {
        self.buf
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
        if discard > self.start {
            self.resolve_pins(discard);
            let dropped = &self.buf[self.start..discard];
            let newlines = memchr::memchr_iter(b'\n', dropped).count() as u64;
            if let Some(last) = memchr::memrchr(b'\n', dropped) {
                self.line_start_before_base = self.offset_of(self.start + last + 1);
            }
            self.lines_before_base += newlines;
            let first = self.offset_of(discard);
            let kept = self.end - discard;
            let start = read_alignment(&self.buf, first, kept);
            self.buf.copy_within(discard..self.end, start);
            self.base = first - start as u64;
            self.start = start;
            self.pos = self.pos - discard + start;
            self.end = start + kept;
            self.keep = start;
        }
        if self.buf.is_empty() {
            self.buf = zeroed(CHUNK)?;
        } else if self.end == self.buf.len() {
            // A record longer than the buffer: grow, so memory follows the
            // bytes actually read.
            self.buf
                .try_reserve_exact(self.buf.len())
                .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
            self.buf.resize(self.buf.len() * 2, 0);
        }
        // Fill all the spare room: normally about one chunk, but after a growth
        // the whole new half, so rescanning a long token stays linear.
        read_into(&mut self.inner, &mut self.buf, &mut self.end, &mut self.eof)
    }

    /// Keeps the line and column of `offset`, a byte still buffered, for
    /// after the reader lets go of it: how a reader that streams past a
    /// long token or a long run of space still places an error at a token
    /// it read before. Pins are offsets in input order, and live until
    /// [`unpin_all`](Self::unpin_all). Not cold: a LeetCode case pins its
    /// names and N, and a file of short games reads a case every few moves.
    #[inline]
    pub fn pin(&mut self, offset: u64) {
        // An offset pinned already may be pinned again after its bytes are
        // let go of (a reader that refills twice for one token pins the
        // same offsets each time); only a new pin needs its bytes.
        if self.pins.last().is_none_or(|last| last.offset < offset) {
            debug_assert!(
                offset >= self.offset_of(self.start),
                "pinned after its bytes were let go of"
            );
            self.pins.push(Pin {
                offset,
                place: (0, 0),
            });
        }
    }

    /// How many pins there are: a mark for [`unpin_to`](Self::unpin_to).
    pub fn pins_mark(&self) -> usize {
        self.pins.len()
    }

    /// Forgets the pins after the first `mark`: those of a record that is
    /// done, while the ones before stay (a LeetCode case's own).
    #[inline(always)]
    pub fn unpin_to(&mut self, mark: usize) {
        if self.pins.len() > mark {
            self.pins.truncate(mark);
            self.pins_resolved = self.pins_resolved.min(mark);
        }
    }

    /// Forgets every pin: the reader has started a new record.
    #[inline(always)]
    pub fn unpin_all(&mut self) {
        if !self.pins.is_empty() {
            self.pins.clear();
            self.pins_resolved = 0;
        }
    }

    /// Works out the line and column of the pins among `buf[..discard]`,
    /// which is about to be let go of.
    #[cold]
    fn resolve_pins(&mut self, discard: usize) {
        let end = self.offset_of(discard);
        // Lines are counted from one pin to the next, not from the buffer's
        // start for each: a LeetCode case pins a token at most refills, and
        // counting the whole buffer for each took half the reading time.
        let (mut line, mut line_start) = (self.lines_before_base, self.line_start_before_base);
        let mut counted = self.start;
        while let Some(pin) = self.pins.get(self.pins_resolved) {
            if pin.offset >= end {
                break;
            }
            let index = (pin.offset.saturating_sub(self.base) as usize).max(self.start);
            let between = &self.buf[counted.min(index)..index];
            line += memchr::memchr_iter(b'\n', between).count() as u64;
            if let Some(last) = memchr::memrchr(b'\n', between) {
                line_start = self.offset_of(counted + last + 1);
            }
            counted = counted.max(index);
            self.pins[self.pins_resolved].place =
                (line + 1, pin.offset.saturating_sub(line_start) + 1);
            self.pins_resolved += 1;
        }
    }

    /// Reads until `want` bytes past the reading position are buffered, or
    /// the input ends, letting go of what lies before the reading position:
    /// for readers that look a fixed distance ahead.
    pub fn fill_ahead(&mut self, want: usize) -> io::Result<()> {
        self.keep = self.pos;
        while self.end - self.pos < want && self.refill()? {}
        Ok(())
    }

    /// Consumes the token at the reading position, however long, calling
    /// `each` on its bytes, a buffered run at a time: the token as a
    /// message quotes it, and its length. Only what the token's reader
    /// still needs stays buffered.
    #[cold]
    pub fn take_token(&mut self, mut each: impl FnMut(&[u8])) -> io::Result<(String, usize)> {
        let mut quoted = Vec::new();
        let mut length = 0;
        loop {
            let rest = &self.buf[self.pos..self.end];
            let run = rest.iter().position(|&byte| is_space(byte)).unwrap_or(rest.len());
            let run = &rest[..run];
            each(run);
            let room = QUOTED - quoted.len();
            quoted.extend_from_slice(&run[..run.len().min(room)]);
            length += run.len();
            self.pos += run.len();
            if self.pos < self.end || self.eof {
                break;
            }
            self.fill_ahead(1)?;
        }
        Ok((quote_token(&quoted, length > quoted.len()), length))
    }

    /// Consumes the integer token at the reading position, however long,
    /// in constant memory: for a token that runs past the buffered bytes
    /// (a million leading zeros), which [`scan_int`] would have to hold
    /// whole and rescan after every read.
    #[cold]
    pub fn take_int(&mut self) -> io::Result<LongToken> {
        let mut sign = None;
        let mut started = false;
        let mut integer = true;
        let mut digits: u64 = 0;
        let mut first_digit = None;
        // The magnitude, while it fits; leading zeros add nothing.
        let mut magnitude: Option<u64> = Some(0);
        let (text, _) = self.take_token(|mut run| {
            if !started && let Some((&first, after)) = run.split_first() {
                started = true;
                if first == b'-' || first == b'+' {
                    sign = Some(first);
                    run = after;
                }
            }
            integer &= run.iter().all(u8::is_ascii_digit);
            if !integer {
                return;
            }
            first_digit = first_digit.or(run.first().copied());
            digits += run.len() as u64;
            if magnitude == Some(0) {
                let zeros = run.iter().take_while(|&&byte| byte == b'0').count();
                run = &run[zeros..];
            }
            for &digit in run {
                magnitude = magnitude
                    .and_then(|value| value.checked_mul(10))
                    .and_then(|value| value.checked_add(u64::from(digit - b'0')));
                if magnitude.is_none() {
                    break;
                }
            }
        })?;
        let negative = sign == Some(b'-');
        let most = i64::MAX as u64 + u64::from(negative);
        let value = match magnitude {
            _ if !integer || digits == 0 => Err(IntFault::NotInteger),
            Some(value) if value <= most => {
                // i64::MIN's magnitude wraps to itself, and negating keeps it.
                let value = value as i64;
                Ok(if negative { value.wrapping_neg() } else { value })
            }
            _ => Err(IntFault::TooLarge),
        };
        Ok(LongToken {
            text,
            value,
            sign,
            leading_zero: digits > 1 && first_digit == Some(b'0'),
        })
    }

    /// Line and column of an absolute offset still in the buffer (or just
    /// past its end), or pinned. Of an offset already let go of, unpinned,
    /// only one on the line the buffer starts on is known; others clamp to
    /// the buffer's start.
    #[cold]
    pub fn line_and_column(&self, offset: u64) -> (u64, u64) {
        if offset < self.offset_of(self.start) {
            let resolved = &self.pins[..self.pins_resolved];
            if let Ok(found) = resolved.binary_search_by_key(&offset, |pin| pin.offset) {
                return resolved[found].place;
            }
            if offset >= self.line_start_before_base {
                return (
                    self.lines_before_base + 1,
                    offset - self.line_start_before_base + 1,
                );
            }
        }
        let index = offset.saturating_sub(self.base).min(self.end as u64) as usize;
        let index = index.max(self.start);
        let before = &self.buf[self.start..index];
        let line = self.lines_before_base + memchr::memchr_iter(b'\n', before).count() as u64;
        let line_start = match memchr::memrchr(b'\n', before) {
            Some(last) => self.offset_of(self.start + last + 1),
            None => self.line_start_before_base,
        };
        (line + 1, offset.saturating_sub(line_start) + 1)
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
    pub fn token_text(&mut self, start: usize) -> String {
        let at = self.offset_of(start);
        // Read on while the token runs to the end of what is buffered, so
        // that the message does not depend on where reads happened to stop.
        loop {
            let index = (at - self.base) as usize;
            let rest = &self.buf[index..self.end];
            let len = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
            let shown = &rest[..len.min(QUOTED)];
            if len < rest.len() || len > shown.len() || self.eof {
                return quote_token(shown, len > shown.len());
            }
            self.keep = self.keep.min(index);
            if self.refill().is_err() {
                // The read fails again where the reader goes on; here the
                // token is shown as far as it was read.
                let index = (at - self.base) as usize;
                let shown = &self.buf[index..self.end];
                return quote_token(&shown[..shown.len().min(QUOTED)], true);
            }
        }
    }
}

impl Chunks<io::Empty> {
    /// A reader's buffer over bytes already in memory, `bytes[..len]`: all
    /// of an input from `at` on, or a whole part of it.
    pub fn of_bytes(bytes: Vec<u8>, len: usize, at: Resume) -> Chunks<io::Empty> {
        let mut chunks = Chunks {
            inner: io::empty(),
            end: len.min(bytes.len()),
            buf: bytes,
            pos: 0,
            keep: 0,
            start: 0,
            base: 0,
            lines_before_base: 0,
            line_start_before_base: 0,
            pins: Vec::new(),
            pins_resolved: 0,
            eof: true,
        };
        chunks.place(at);
        chunks
    }
}

/// Where a part of an input starts, for positions counted from the start
/// of the whole input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// Absolute offset of the part's first byte.
    pub offset: u64,
    /// The 1-based line that byte is on.
    pub line: u64,
    /// Absolute offset of that line's first byte.
    pub line_start: u64,
}

impl Resume {
    /// The start of an input.
    pub const START: Resume = Resume {
        offset: 0,
        line: 1,
        line_start: 0,
    };

    /// Where the part after `bytes` starts, `bytes` starting here.
    pub fn after(self, bytes: &[u8]) -> Resume {
        let offset = self.offset + bytes.len() as u64;
        match memchr::memrchr(b'\n', bytes) {
            Some(last) => Resume {
                offset,
                line: self.line + memchr::memchr_iter(b'\n', bytes).count() as u64,
                line_start: self.offset + last as u64 + 1,
            },
            None => Resume { offset, ..self },
        }
    }
}

pub use crate::simd::{BLOCK, WINDOW as BLOCK_WINDOW};

/// The [`BLOCK_WINDOW`] bytes of `bytes` from `at`, if that many are there.
#[inline(always)]
pub fn window_at(bytes: &[u8], at: usize) -> Option<&[u8; BLOCK_WINDOW]> {
    bytes
        .get(at..at.checked_add(BLOCK_WINDOW)?)?
        .try_into()
        .ok()
}

/// The plain tokens of one block: bit i of `starts` (and of `ends`) marks
/// byte i as the first (last) digit of a token the fast path may take.
///
/// Why blocks: a loop that must find each token's end before it can look at
/// the next makes one long chain of dependent steps, and a byte loop over
/// random numbers mispredicts their lengths. Two bitmasks (digits, spaces)
/// give every token's start and end at once, and each value is computed on
/// its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockTokens {
    /// First digits of the tokens.
    pub starts: u64,
    /// Last digits of the tokens, one per start.
    pub ends: u64,
}

impl BlockTokens {
    /// Finds the tokens in the first [`BLOCK`] bytes of `window` that the
    /// fast path may take: runs of 1 to 16 digits with a space (or the
    /// block's start) before them and a space after them inside the block.
    /// They stop before the first token that is anything else (a sign,
    /// garbage, a longer number, one running past the block): from there on
    /// the block is the general path's.
    #[inline(always)]
    pub fn find(window: &[u8; BLOCK_WINDOW]) -> BlockTokens {
        BlockTokens::find_in_build(Baseline, window)
    }

    /// [`find`](Self::find), its bytes classified in the build of `cpu`:
    /// with AVX2 in one pass, not four (a file of zero-padded numbers is
    /// read this way, two moves a block).
    #[inline(always)]
    pub fn find_in_build<C: Cpu>(cpu: C, window: &[u8; BLOCK_WINDOW]) -> BlockTokens {
        let masks = simd::byte_masks(cpu, window);
        let (digits, spaces) = (masks.digits, masks.whitespace);
        let starts = digits & !(digits << 1);
        let ends = digits & !(digits >> 1);
        let first_bad_byte = (!(digits | spaces)).trailing_zeros();
        // Byte 0 follows whatever came before the block: the reader starts
        // blocks only after a space or a token.
        let glued_start = starts & !((spaces << 1) | 1);
        // A token not followed by a space inside the block (bit 63 included).
        let glued_end = ends & !(spaces >> 1);
        let first_glued_end_token = match glued_end.trailing_zeros() {
            64 => 64,
            end => 63 - (starts & (u64::MAX >> (63 - end))).leading_zeros(),
        };
        // Where 17 digits in a row start: two words hold 16 at most.
        let mut seventeen = digits;
        for shift in [1, 2, 4, 8] {
            seventeen &= seventeen >> shift;
        }
        seventeen &= digits >> 16;
        let cut = first_bad_byte
            .min(glued_start.trailing_zeros())
            .min(first_glued_end_token)
            .min(seventeen.trailing_zeros());
        let usable = if cut == 64 {
            u64::MAX
        } else {
            (1u64 << cut) - 1
        };
        BlockTokens {
            starts: starts & usable,
            ends: ends & usable,
        }
    }

    /// Whether at least three tokens are left: a move's worth. (Clearing
    /// the lowest bit twice is cheaper than a population count, which the
    /// x86_64 baseline lacks.)
    #[inline(always)]
    pub fn has_move(&self) -> bool {
        let once = self.starts & self.starts.wrapping_sub(1);
        once & once.wrapping_sub(1) != 0
    }

    /// Takes the next move's three tokens from the block `window` holds:
    /// row, column and player, where the row starts and where the player
    /// ends (block indexes). Call it only when [`has_move`](Self::has_move).
    /// `None`, leaving the tokens in place, when a value does not fit a
    /// u32: no board reaches that far, and the message quoting the value is
    /// the general path's.
    #[inline(always)]
    pub fn take_move(&mut self, window: &[u8; BLOCK_WINDOW]) -> Option<([u32; 3], usize, usize)> {
        let value = |(start, count)| token_value(window, start, count);
        let before = *self;
        let row = self.take();
        let col = self.take();
        let player = self.take();
        let values = [value(row), value(col), value(player)];
        if (values[0] | values[1] | values[2]) > u64::from(u32::MAX) {
            *self = before;
            return None;
        }
        let values = values.map(|value| value as u32);
        Some((values, row.0, player.0 + player.1))
    }

    /// Takes the next token's value and the block index just past it.
    /// `None`, leaving the token in place, when no token is left or the
    /// value does not fit a u32 (as [`take_move`](Self::take_move)).
    #[inline(always)]
    pub fn take_value(&mut self, window: &[u8; BLOCK_WINDOW]) -> Option<(u32, usize)> {
        if self.starts == 0 {
            return None;
        }
        let before = *self;
        let (start, count) = self.take();
        let Ok(value) = u32::try_from(token_value(window, start, count)) else {
            *self = before;
            return None;
        };
        Some((value, start + count))
    }

    /// Whether no token is left.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.starts == 0
    }

    /// Takes the first token left: its start and its length.
    #[inline(always)]
    pub fn take(&mut self) -> (usize, usize) {
        let start = self.starts.trailing_zeros() as usize;
        let end = self.ends.trailing_zeros() as usize;
        self.starts &= self.starts.wrapping_sub(1);
        self.ends &= self.ends.wrapping_sub(1);
        (start, end - start + 1)
    }
}

/// The value of the token of `count` (1 to 16) digits at `start` in
/// `window`, where [`BlockTokens`] and the token stream find one.
#[inline(always)]
pub fn token_value(window: &[u8; BLOCK_WINDOW], start: usize, count: usize) -> u64 {
    // A token starts within the block and ends before its last byte, so
    // its words are inside the window.
    let word = |at: usize| {
        let mut word = [0; 8];
        word.copy_from_slice(&window[at % BLOCK..at % BLOCK + 8]);
        u64::from_le_bytes(word)
    };
    if count <= 8 {
        return digits_value(word(start), count);
    }
    // A long (zero-padded) token: its leading digits, then its last eight.
    let high = digits_value(word(start), count - 8);
    high * 100_000_000 + digits_value(word(start + count - 8), 8)
}

/// The value of the `count` (1 to 8) ASCII digits at the start of a
/// little-endian word: three multiply-shift steps, no loop.
#[inline(always)]
pub fn digits_value(word: u64, count: usize) -> u64 {
    if count <= 2 {
        // Rows and columns of boards up to 100, and every player: two
        // digits at most, worth a shorter path.
        let first = word & 0x0F;
        let second = (word >> 8) & 0x0F;
        return if count == 2 {
            first * 10 + second
        } else {
            first
        };
    }
    if count <= 4 {
        // Boards up to 10^4: the low half-word alone, two steps.
        let aligned = (word as u32) << (8 * (4 - count));
        let pairs = ((aligned & 0x0F0F_0F0F).wrapping_mul(2561)) >> 8;
        return u64::from(((pairs & 0x00FF_00FF).wrapping_mul(6_553_601)) >> 16);
    }
    // Move the digits to the top; the zero bytes shifted in read as leading
    // zeros. Then pairs, quads and octets of digits combine in turn.
    let aligned = word << (8 * (8 - count));
    let pairs = ((aligned & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(2561)) >> 8;
    let quads = ((pairs & 0x00FF_00FF_00FF_00FF).wrapping_mul(6_553_601)) >> 16;
    ((quads & 0x0000_FFFF_0000_FFFF).wrapping_mul(42_949_672_960_001)) >> 32
}

/// An integer token read whole, however long, by [`Chunks::take_int`].
#[derive(Debug, PartialEq, Eq)]
pub struct LongToken {
    /// The token as a message quotes it.
    pub text: String,
    /// Its value, or why it has none.
    pub value: Result<i64, IntFault>,
    /// The sign written before its digits, if any.
    pub sign: Option<u8>,
    /// Whether its digits start with a zero that more digits follow.
    pub leading_zero: bool,
}

/// Why a token has no integer value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntFault {
    /// Not an optionally signed run of decimal digits.
    NotInteger,
    /// An integer beyond the range of i64.
    TooLarge,
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
    /// An integer beyond the range of i64.
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
    // Whether it is an integer at all comes first: `99999999999999999999x`
    // is not one, however many digits it starts with.
    match buf.get(at) {
        None if !at_eof => return Scanned::Incomplete,
        Some(&byte) if !is_space(byte) => return Scanned::NotInteger,
        _ if digits.is_empty() => return Scanned::NotInteger,
        _ => {}
    }
    let value = if digits.len() > 18 {
        // Rare: the wrapped value may be wrong, so read the digits again.
        match exact_value(digits, negative) {
            Some(value) => value,
            None => return Scanned::TooLarge,
        }
    } else {
        value
    };
    // At most 18 digits, or checked by exact_value: the value fits an i64
    // (i64::MIN's magnitude wraps to itself, and negating it keeps it).
    let value = value as i64;
    Scanned::Int(if negative { value.wrapping_neg() } else { value }, at)
}

/// The magnitude of a long run of digits, if the integer fits an i64 (up
/// to 2^63 when `negative`, for i64::MIN). Checking as it goes stops within
/// 20 significant digits, however long the run.
#[cold]
fn exact_value(digits: &[u8], negative: bool) -> Option<u64> {
    let most = i64::MAX as u64 + u64::from(negative);
    let mut value: u64 = 0;
    for &digit in digits {
        value = value
            .checked_mul(10)?
            .checked_add(u64::from(digit - b'0'))?;
        if value > most {
            return None;
        }
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffered_count_takes_only_plain_counts_with_their_space_buffered() {
        assert_eq!(buffered_count(b"\n 42\n", 0), Some((42, 2, 4)));
        assert_eq!(buffered_count(b"3\r\n9 ", 1), Some((9, 3, 4)));
        assert_eq!(buffered_count(b"007 ", 0), Some((7, 0, 3)));
        assert_eq!(
            buffered_count(b"999999999999999999 ", 0),
            Some((999_999_999_999_999_999, 0, 18))
        );
        // Left to the general scanner: what it may read on, or refuse.
        assert_eq!(buffered_count(b"1000000000000000000 ", 0), None);
        assert_eq!(buffered_count(b" 42", 0), None);
        assert_eq!(buffered_count(b"   ", 0), None);
        assert_eq!(buffered_count(b"+4 ", 0), None);
        assert_eq!(buffered_count(b"-4 ", 0), None);
        assert_eq!(buffered_count(b"4x ", 0), None);
    }

    #[test]
    fn scan_int_reads_signed_integers_ending_at_space_or_end() {
        assert_eq!(scan_int(b"42 ", 0, false), Scanned::Int(42, 2));
        assert_eq!(scan_int(b"-7\n", 0, false), Scanned::Int(-7, 2));
        assert_eq!(scan_int(b"+007", 0, true), Scanned::Int(7, 4));
        assert_eq!(scan_int(b"12", 0, false), Scanned::Incomplete);
        assert_eq!(scan_int(b"12x ", 0, true), Scanned::NotInteger);
        assert_eq!(
            scan_int(b"99999999999999999999x ", 0, true),
            Scanned::NotInteger
        );
        assert_eq!(
            scan_int(b"99999999999999999999", 0, false),
            Scanned::Incomplete
        );
        assert_eq!(scan_int(b"- ", 0, true), Scanned::NotInteger);
        assert_eq!(scan_int(b"x", 0, true), Scanned::NotInteger);
        assert_eq!(
            scan_int(b"999999999999999999 ", 0, true),
            Scanned::Int(999_999_999_999_999_999, 18)
        );
        assert_eq!(
            scan_int(b"1000000000000000000 ", 0, true),
            Scanned::Int(1_000_000_000_000_000_000, 19)
        );
        assert_eq!(
            scan_int(b"9223372036854775807 ", 0, true),
            Scanned::Int(i64::MAX, 19)
        );
        assert_eq!(
            scan_int(b"9223372036854775808 ", 0, true),
            Scanned::TooLarge
        );
        assert_eq!(
            scan_int(b"-9223372036854775808 ", 0, true),
            Scanned::Int(i64::MIN, 20)
        );
        assert_eq!(
            scan_int(b"-9223372036854775809 ", 0, true),
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

    /// The tokens the fast path may take from a block, as (start, value).
    fn scan(text: &[u8]) -> Vec<(usize, u64)> {
        let window = block(text);
        let mut tokens = BlockTokens::find(&window);
        let mut taken = Vec::new();
        while !tokens.is_empty() {
            let (start, count) = tokens.take();
            taken.push((start, token_value(&window, start, count)));
        }
        taken
    }

    #[test]
    fn digits_value_reads_one_to_eight_digits() {
        let word = |text: &[u8]| u64::from_le_bytes(block(text)[..8].try_into().expect("8 bytes"));
        assert_eq!(digits_value(word(b"7 3 1"), 1), 7);
        assert_eq!(digits_value(word(b"42\n"), 2), 42);
        assert_eq!(digits_value(word(b"307 1"), 3), 307);
        assert_eq!(digits_value(word(b"9999 1"), 4), 9999);
        assert_eq!(digits_value(word(b"0012345"), 7), 12345);
        assert_eq!(digits_value(word(b"98765432"), 8), 98_765_432);
    }

    #[test]
    fn blocks_offer_plain_tokens_and_stop_before_anything_else() {
        assert_eq!(scan(b"3 14\r\n 15\t9"), [(0, 3), (2, 14), (7, 15), (10, 9)]);
        // A sign, garbage, or a token of more than 16 digits ends the offer.
        assert_eq!(scan(b"1 -2 3"), [(0, 1)]);
        assert_eq!(scan(b"1 2x 3"), [(0, 1)]);
        assert_eq!(scan(b"1 x2 3"), [(0, 1)]);
        assert_eq!(scan(b"1 12345678901234567 3"), [(0, 1)]);
        assert_eq!(scan(b"12345678 1"), [(0, 12_345_678), (9, 1)]);
        assert_eq!(
            scan(b"0000000042 1234567890123456 999999999"),
            [(0, 42), (11, 1_234_567_890_123_456), (28, 999_999_999)]
        );
        // A token touching the block's end may go on past it.
        let mut text = vec![b' '; 62];
        text.extend_from_slice(b"77");
        assert_eq!(scan(&text), []);
    }

    #[test]
    fn a_move_whose_value_passes_u32_stays_for_the_general_path() {
        let window = block(b"0000000007 0000000003 0000000001 4294967296 1 2 ");
        let mut tokens = BlockTokens::find(&window);
        assert_eq!(tokens.take_move(&window), Some(([7, 3, 1], 0, 32)));
        let left = tokens;
        assert_eq!(tokens.take_move(&window), None);
        assert_eq!(tokens, left, "the refused move's tokens are still offered");
    }

    /// Bytes of blocks: mostly separated short tokens, or mostly digits,
    /// whose long runs reach the two-word path and the 16-digit cut.
    fn block_bytes() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::sample::select;
        proptest::prop_oneof![
            proptest::collection::vec(select(b"0123456789  \n\r\t-x".to_vec()), BLOCK_WINDOW),
            proptest::collection::vec(select(b"00000000000123456789 \n".to_vec()), BLOCK_WINDOW),
        ]
    }

    proptest::proptest! {
        #![proptest_config(crate::property_tests::config())]

        #[test]
        fn every_token_a_block_offers_is_what_the_general_scanner_reads(text in block_bytes()) {
            // As the reader does, start the block after a space.
            let mut text = text;
            text.insert(0, b' ');
            text.truncate(BLOCK_WINDOW);
            let offered = scan(&text);
            let mut at = 0;
            for (start, value) in offered {
                // Nothing but space between the tokens offered.
                proptest::prop_assert!(text[at..start].iter().all(|&b| is_space(b)));
                match scan_int(&text, start, true) {
                    Scanned::Int(expected, end) => {
                        proptest::prop_assert_eq!(value as i64, expected);
                        at = end;
                    }
                    other => proptest::prop_assert!(false, "general scanner says {:?}", other),
                }
            }
        }
    }

    #[test]
    fn pinned_tokens_keep_their_line_and_column_after_their_bytes_are_let_go() {
        let mut text = Vec::new();
        let mut state = 7_u64;
        while text.len() < 600_000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            text.extend(std::iter::repeat_n(b'x', (state >> 33) as usize % 300));
            text.push(b'\n');
        }
        let expected = |offset: u64| {
            let before = &text[..offset as usize];
            let line = memchr::memchr_iter(b'\n', before).count() as u64 + 1;
            let line_start = memchr::memrchr(b'\n', before).map_or(0, |last| last + 1);
            (line, offset - line_start as u64 + 1)
        };
        let mut chunks = Chunks::new(&text[..]);
        let mut pinned = Vec::new();
        while chunks.refill().expect("in-memory read") {
            // Several pins a buffer, some on one line, then let it all go.
            let (from, to) = (chunks.offset_of(chunks.pos), chunks.offset_of(chunks.end));
            for offset in (from..to).step_by(997).chain([to - 1]) {
                chunks.pin(offset);
                pinned.push(offset);
            }
            chunks.pos = chunks.end;
            chunks.keep = chunks.end;
        }
        pinned.dedup();
        for offset in pinned {
            assert_eq!(chunks.line_and_column(offset), expected(offset), "offset {offset}");
        }
    }

    /// An input that notes, for each read, how far apart the destination's
    /// place in its cache line and the input offset's are, and returns
    /// reads of uneven lengths.
    struct NotingReads<'a> {
        bytes: &'a [u8],
        at: usize,
        out_of_step: Vec<usize>,
    }

    impl Read for NotingReads<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let len = buf.len().min(self.bytes.len() - self.at).min(1000 + self.at % 4999);
            if len > 0 {
                let address = buf.as_ptr() as usize;
                self.out_of_step.push(address.wrapping_sub(self.at) % 64);
            }
            buf[..len].copy_from_slice(&self.bytes[self.at..self.at + len]);
            self.at += len;
            Ok(len)
        }
    }

    #[test]
    fn reads_after_a_refill_land_in_step_with_the_input_and_held_bytes_stay_in_place() {
        let text: Vec<u8> = (0..1_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let input = NotingReads {
            bytes: &text,
            at: 0,
            out_of_step: Vec::new(),
        };
        let mut chunks = Chunks::new(input);
        let mut state = 3_u64;
        while chunks.refill().expect("in-memory read") {
            let held = &chunks.bytes()[chunks.keep..chunks.end];
            let from = chunks.offset_of(chunks.keep) as usize;
            assert_eq!(held, &text[from..from + held.len()], "at {from}");
            // Keep a tail of up to 200 bytes, as a reader keeps a record.
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let tail = ((state >> 33) as usize % 200).min(chunks.end - chunks.keep - 1);
            chunks.pos = chunks.end;
            chunks.keep = chunks.end - tail;
        }
        let out_of_step = &chunks.inner.out_of_step;
        assert!(out_of_step.len() > 200, "{} reads", out_of_step.len());
        // The first read goes to the buffer's start, wherever that is.
        assert!(out_of_step[1..].iter().all(|&apart| apart == 0), "{out_of_step:?}");
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
