//! Cuts a Coding Ninjas input into parts of whole cases, so that several
//! threads can solve them at once.
//!
//! Cases are independent games, so a part of whole cases can be solved by
//! any thread; what ties them is only where each case starts. Finding that
//! takes no parsing of moves: a case is N, Q and then 3Q tokens, so the
//! splitter reads Q and counts token starts, a 64-byte block at a time.
//! Anything it does not follow (a sign, a bad header, a case whose moves
//! it cannot cut) ends the splitting: the rest goes to the streaming
//! reader, which reports what is wrong with exactly the message it always
//! gives.
//!
//! A case longer than a part's buffer is cut too, when the splitter is
//! asked to ([`Splitter::slicing`]): into slices of its moves, each cut
//! where a move starts. A slice's moves can be read by any thread, but
//! they must be played in order, on one board.

use super::read::{CaseWithin, PartCases};
use crate::format::bytes::{
    BLOCK, CHUNK, Resume, Scanned, buffered_count, cut_off, is_space, read_into, scan_int, zeroed,
};
use crate::simd::{self, Cpu, Kernel, dispatch};
use std::io::{self, Read};

/// A part is cut at the first case start past this many bytes, by default.
pub const PART_BYTES: usize = 256 * 1024;

/// The first buffer's size; it doubles as the input needs.
const FIRST_BUFFER: usize = 16 * 1024;

/// A case longer than this is not held whole: from it on, the input is the
/// streaming reader's, whose memory does not grow with a case. (At 8 MiB,
/// games of 10^5 moves and more kept a part of several MiB in flight per
/// worker and twice as many per worker: 50 to 130 MiB on 2 cores.) A
/// splitter that slices long cases reaches it only where no move starts
/// to cut at (a run of space as long).
pub const MAX_PART_BYTES: usize = 1024 * 1024;

/// Whole cases of an input, in memory.
#[derive(Debug)]
pub struct Part {
    /// The buffer; the part is `bytes[..len]`. Buffers are reused, so the
    /// tail past `len` is left as it is.
    pub bytes: Vec<u8>,
    /// The part's length.
    pub len: usize,
    /// Where the part starts in the input.
    pub start: Resume,
    /// The cases it holds.
    pub cases: PartCases,
    /// Set for a slice of one case's moves: the part holds this many moves
    /// of case `cases.before + 1` (after its header, unless the part
    /// starts inside it), and nothing else.
    pub slice: Option<u64>,
}

/// What the splitter found next.
#[derive(Debug)]
pub enum Next {
    /// Whole cases. If `cases.last` is `None` this is the input's last part.
    Part(Part),
    /// The splitter stops here: `Part` holds what it has buffered from a
    /// case start (or the input's start), and the rest of the input follows.
    Rest(Part),
}

/// What [`Splitter::find`] reached.
enum Found {
    /// A token starts at this buffer index.
    At(usize),
    /// The end of the input.
    End,
    /// The buffer would grow past [`MAX_PART_BYTES`].
    TooLong,
}

/// The next token the splitter needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// T.
    Count,
    /// N, which starts a case.
    Size,
    /// Q.
    Moves,
}

/// Cuts an input into [`Part`]s of whole cases.
pub struct Splitter<R> {
    input: R,
    /// `buf[..end]` holds the input from `start` on.
    buf: Vec<u8>,
    end: usize,
    start: Resume,
    /// Token starts are counted up to here.
    scanned: usize,
    /// Whether the byte before `scanned` belongs to a token.
    in_token: bool,
    /// The last block classified: where it starts in `buf` (`usize::MAX`
    /// for none), its token starts, and whether its last byte is a
    /// token's. A short case's N, Q and moves lie in one block: found from
    /// it, not each from a block of its own classified again.
    block_at: usize,
    block_starts: u64,
    block_ends_in_token: bool,
    eof: bool,
    want: Want,
    /// Token starts to pass before the one wanted.
    skip: u64,
    /// T, once read.
    count: Option<u64>,
    /// Whether T lies in the buffer: the part must read it.
    count_in_buffer: bool,
    /// Cases before the buffer's start.
    before: u64,
    /// Cases whose start has been found.
    found: u64,
    part_bytes: usize,
    /// Whether long cases are cut into slices of their moves.
    slicing: bool,
    /// The buffer index where the current case's N starts, if the case
    /// started in the buffer.
    case_at: Option<usize>,
    /// The current case's Q.
    case_moves: u64,
    /// Set when the buffer starts inside the current case, after a slice.
    within: Option<CaseWithin>,
    /// No move starts where the buffer could be cut: let it grow.
    grow: bool,
}

impl<R: Read> Splitter<R> {
    /// A splitter of `input` into parts of at least `part_bytes` (but for
    /// the last).
    pub fn new(input: R, part_bytes: usize) -> Splitter<R> {
        Splitter {
            input,
            part_bytes: part_bytes.clamp(1, MAX_PART_BYTES / 2),
            buf: Vec::new(),
            end: 0,
            start: Resume::START,
            scanned: 0,
            in_token: false,
            block_at: usize::MAX,
            block_starts: 0,
            block_ends_in_token: false,
            eof: false,
            want: Want::Count,
            skip: 0,
            count: None,
            count_in_buffer: true,
            before: 0,
            found: 0,
            slicing: false,
            case_at: None,
            case_moves: 0,
            within: None,
            grow: false,
        }
    }

    /// A splitter of an input's rest, `input`, which starts at `start` with
    /// the case after the first `from.before` (or whitespace before it),
    /// `from.count` giving T if the input's start is behind.
    pub fn resume(input: R, part_bytes: usize, start: Resume, from: PartCases) -> Splitter<R> {
        let mut splitter = Splitter::new(input, part_bytes);
        splitter.start = start;
        if let Some(count) = from.count {
            splitter.count = Some(count);
            splitter.count_in_buffer = false;
            splitter.want = Want::Size;
        }
        splitter.before = from.before;
        splitter.found = from.before;
        splitter
    }

    /// Makes the splitter cut a case whose moves run past a part's buffer
    /// into slices, instead of handing it and the rest of the input to
    /// the streaming reader. For callers that play the slices of a case in
    /// order on one board.
    pub fn slicing(mut self) -> Splitter<R> {
        self.slicing = true;
        self
    }

    /// The input, for whoever reads the rest after [`Next::Rest`].
    pub fn into_input(self) -> R {
        self.input
    }

    /// What is buffered after the last part, and the input after that:
    /// the rest of the input, for reading as a stream instead.
    pub fn into_rest(mut self) -> (Part, R) {
        (self.rest(), self.input)
    }

    /// Finds the next part. `spare` is a buffer to reuse for the bytes that
    /// follow it. After the last part or the rest, do not call it again. A
    /// read that fails ends the splitting ([`Next::Rest`]); only a want of
    /// memory is an error.
    pub fn next_part(&mut self, spare: Vec<u8>) -> io::Result<Next> {
        struct NextPart<'a, R>(&'a mut Splitter<R>, Vec<u8>);
        impl<R: Read> Kernel for NextPart<'_, R> {
            type Output = io::Result<Next>;
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> io::Result<Next> {
                self.0.next_part_inline(cpu, self.1)
            }
        }
        // One call into the CPU's build a part, not one a token: a part
        // of short games holds tens of thousands of cases.
        match dispatch(NextPart(self, spare)) {
            // A read that fails is the streaming reader's to report, once it
            // has solved the cases read before it, as one stream would:
            // reported here, the cases buffered since the last cut were lost.
            Err(error) if error.kind() != io::ErrorKind::OutOfMemory => Ok(Next::Rest(self.rest())),
            next => next,
        }
    }

    /// [`Splitter::next_part`], inlined into each build of [`dispatch`].
    #[inline(always)]
    fn next_part_inline<C: Cpu>(&mut self, cpu: C, mut spare: Vec<u8>) -> io::Result<Next> {
        loop {
            let start = match self.find_inline(cpu, self.skip)? {
                Found::At(start) => start,
                Found::End if self.want == Want::Size && Some(self.found) == self.count => {
                    // The last case's last slice, if the buffer starts inside it.
                    let slice = self.within.map(|within| within.declared - within.played);
                    return Ok(Next::Part(self.take(self.end, None, slice, spare)?));
                }
                Found::TooLong if self.moves_pending() => match self.cut_moves(&mut spare)? {
                    Some(part) => return Ok(Next::Part(part)),
                    None => {
                        // Nowhere to cut: the buffer grows as it would without slices.
                        self.grow = true;
                        continue;
                    }
                },
                Found::End | Found::TooLong => return Ok(Next::Rest(self.rest())),
            };
            self.skip = 0;
            match self.want {
                Want::Count => {
                    let Some(count) = self.value_at(start)? else {
                        return Ok(Next::Rest(self.rest()));
                    };
                    self.count = Some(count);
                    self.want = Want::Size;
                }
                Want::Size => {
                    if Some(self.found) == self.count {
                        // Something after the last case: the reader's error.
                        return Ok(Next::Rest(self.rest()));
                    }
                    if let Some(within) = self.within {
                        // The last slice of a long case ends where the next case starts.
                        let slice = Some(within.declared - within.played);
                        let last = Some(self.found);
                        return Ok(Next::Part(self.take(start, last, slice, spare)?));
                    }
                    if self.found > self.before && start >= self.part_bytes {
                        let last = Some(self.found);
                        return Ok(Next::Part(self.take(start, last, None, spare)?));
                    }
                    self.found += 1;
                    self.case_at = Some(start);
                    self.want = Want::Moves;
                }
                Want::Moves => {
                    let Some(moves) = self.value_at(start)? else {
                        return Ok(Next::Rest(self.rest()));
                    };
                    let Some(tokens) = moves.checked_mul(3) else {
                        return Ok(Next::Rest(self.rest()));
                    };
                    self.skip = tokens;
                    self.case_moves = moves;
                    self.want = Want::Size;
                }
            }
        }
    }

    /// Whether the splitter is passing a case's moves and may cut them.
    fn moves_pending(&self) -> bool {
        self.slicing && !self.grow && self.want == Want::Size && self.skip > 0
    }

    /// Cuts the buffer, full inside a long case's moves: before the case,
    /// if whole cases come first, else at the start of the last move that
    /// began in it. `None` if no move starts there but the case's first.
    /// The scan goes on where it stopped.
    #[cold]
    fn cut_moves(&mut self, spare: &mut Vec<u8>) -> io::Result<Option<Part>> {
        if let Some(case_at) = self.case_at
            && self.found - 1 > self.before
        {
            let part = self.take_scanned(case_at, Some(self.found - 1), None, std::mem::take(spare))?;
            self.case_at = Some(0);
            return Ok(Some(part));
        }
        // Token starts of the case's moves passed so far, the last maybe cut
        // off by the buffer's end: back to the row of the move it is in.
        let started = 3 * self.case_moves - self.skip;
        if started == 0 {
            return Ok(None);
        }
        let moves_before = (started - 1) / 3;
        let played = self.within.map_or(0, |within| within.played);
        let Some(slice) = moves_before.checked_sub(played).filter(|&moves| moves > 0) else {
            return Ok(None);
        };
        let mut back = started - 3 * moves_before;
        let mut at = self.scanned;
        while back > 0 {
            at -= 1;
            if !is_space(self.buf[at]) && (at == 0 || is_space(self.buf[at - 1])) {
                back -= 1;
            }
        }
        // Cut at the space before the row, where the reader of the next
        // slice starts as after a move (usually on its LF).
        let last = Some(self.found);
        let part = self.take_scanned(at - 1, last, Some(slice), std::mem::take(spare))?;
        self.case_at = None;
        self.within = Some(CaseWithin {
            declared: self.case_moves,
            played: played + slice,
        });
        Ok(Some(part))
    }

    /// [`Splitter::take`] inside a case's moves: the scan goes on where it
    /// stopped instead of finding a case's N again.
    fn take_scanned(
        &mut self,
        at: usize,
        last: Option<u64>,
        slice: Option<u64>,
        spare: Vec<u8>,
    ) -> io::Result<Part> {
        let (scanned, in_token) = (self.scanned, self.in_token);
        let part = self.take(at, last, slice, spare)?;
        self.scanned = scanned - at;
        self.in_token = in_token;
        // The cases before the buffer: all but the one in progress.
        self.before = self.found - 1;
        Ok(part)
    }

    /// Cuts off `buf[..at]` as a part whose last case is `last` (and a slice
    /// of `slice` moves of it, if set), keeping the bytes after it in
    /// `spare`.
    /// Fails only when the memory for the new buffer is not there.
    fn take(
        &mut self,
        at: usize,
        last: Option<u64>,
        slice: Option<u64>,
        spare: Vec<u8>,
    ) -> io::Result<Part> {
        let tail = self.end - at;
        let bytes = cut_off(&mut self.buf, at..self.end, spare, self.part_bytes + CHUNK)?;
        let part = Part {
            len: at,
            start: self.start,
            cases: self.part_cases(last),
            slice,
            bytes,
        };
        self.start = self.start.after(&part.bytes[..at]);
        self.end = tail;
        // The token at `at` (the next case's N) is found again from 0.
        self.scanned = 0;
        self.in_token = false;
        self.block_at = usize::MAX;
        self.count_in_buffer = false;
        self.before = self.found;
        self.case_at = None;
        self.within = None;
        self.grow = false;
        Ok(part)
    }

    /// Everything buffered, for the streaming reader to go on from.
    fn rest(&mut self) -> Part {
        Part {
            bytes: std::mem::take(&mut self.buf),
            len: self.end,
            start: self.start,
            cases: self.part_cases(None),
            slice: None,
        }
    }

    fn part_cases(&self, last: Option<u64>) -> PartCases {
        PartCases {
            count: if self.count_in_buffer {
                None
            } else {
                self.count
            },
            before: self.before,
            last,
            within: self.within,
        }
    }

    /// The value of the header token at `start`, if it is a plain count
    /// the splitter can follow; it then scans on from the token's end.
    #[inline(always)]
    fn value_at(&mut self, start: usize) -> io::Result<Option<u64>> {
        // The usual count, its space after it buffered: read in place.
        if let Some((value, _, end)) = buffered_count(&self.buf[..self.end], start) {
            self.scanned = end;
            self.in_token = false;
            return Ok(Some(value));
        }
        self.value_of_any_token(start)
    }

    /// [`value_at`](Self::value_at) for any token: a sign, a token that
    /// runs past the buffer, a value too large.
    #[cold]
    fn value_of_any_token(&mut self, start: usize) -> io::Result<Option<u64>> {
        loop {
            match scan_int(&self.buf[..self.end], start, self.eof) {
                Scanned::Int(value, end) => {
                    self.scanned = end;
                    self.in_token = false;
                    return Ok(u64::try_from(value).ok());
                }
                Scanned::Incomplete => {
                    // A read that finds the input's end makes the token whole:
                    // scanned again, it ends there.
                    if !self.fill(false)? && !self.eof {
                        return Ok(None);
                    }
                }
                Scanned::NotInteger | Scanned::TooLarge => return Ok(None),
            }
        }
    }

    /// Passes `skip` token starts and finds the next one.
    #[inline(always)]
    fn find_inline<C: Cpu>(&mut self, cpu: C, mut skip: u64) -> io::Result<Found> {
        loop {
            loop {
                // The token starts from `scanned` to its block's end: of the
                // block classified last while `scanned` is in it (its bytes
                // before `scanned` masked off), else of a block classified
                // from `scanned`.
                let (block_at, starts) =
                    if self.scanned.checked_sub(self.block_at).is_some_and(|into| into < BLOCK) {
                        let before = self.scanned - self.block_at;
                        (self.block_at, self.block_starts & (u64::MAX << before))
                    } else {
                        let Some(block) = self.buf[..self.end]
                            .get(self.scanned..self.scanned + BLOCK)
                            .and_then(|block| <&[u8; BLOCK]>::try_from(block).ok())
                        else {
                            break;
                        };
                        let tokens = !simd::byte_masks(cpu, block).whitespace;
                        self.block_at = self.scanned;
                        self.block_starts = tokens & !((tokens << 1) | u64::from(self.in_token));
                        self.block_ends_in_token = tokens >> 63 == 1;
                        (self.scanned, self.block_starts)
                    };
                let count = u64::from(starts.count_ones());
                if count > skip {
                    let mut starts = starts;
                    for _ in 0..skip {
                        starts &= starts - 1;
                    }
                    let at = block_at + starts.trailing_zeros() as usize;
                    self.scanned = at + 1;
                    self.in_token = true;
                    return Ok(Found::At(at));
                }
                skip -= count;
                self.in_token = self.block_ends_in_token;
                self.scanned = block_at + BLOCK;
            }
            if self.eof {
                while let Some(&byte) = self.buf[..self.end].get(self.scanned) {
                    let starts = !is_space(byte) && !self.in_token;
                    self.in_token = !is_space(byte);
                    self.scanned += 1;
                    if starts {
                        if skip == 0 {
                            return Ok(Found::At(self.scanned - 1));
                        }
                        skip -= 1;
                    }
                }
                return Ok(Found::End);
            }
            let in_moves = self.want == Want::Size && skip > 0;
            if !self.fill(in_moves)? && !self.eof {
                self.skip = skip;
                return Ok(Found::TooLong);
            }
            // A read that finds the input's end goes round once more: the
            // bytes left, fewer than a block, are scanned one by one above.
            // (Returning `End` here left the last cases of almost every
            // input to the streaming reader.)
        }
    }

    /// Reads more input. False at its end, or when the buffer is full, or
    /// (`in_moves`, passing a case's moves) when it holds a slice's worth.
    fn fill(&mut self, in_moves: bool) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        if in_moves && self.slicing && !self.grow && self.end >= self.slice_bytes() {
            return Ok(false);
        }
        // Buffers keep their size unless a case outgrows one, so that memory
        // does not creep up with the number of parts.
        if self.end == self.buf.len() {
            if self.buf.len() >= MAX_PART_BYTES {
                return Ok(false);
            }
            // Small first: a small input (a judge's usual test) then touches
            // few pages, where start-up is most of its time. Past a chunk,
            // straight to the size every part's buffer has, so that no
            // buffer of another size is freed (glibc then serves later
            // buffers from its heap, whose freed pages stay resident).
            let doubled = (self.buf.len() * 2).max(FIRST_BUFFER);
            let grown = if doubled > CHUNK {
                doubled.max(self.part_bytes + CHUNK)
            } else {
                doubled
            };
            let grown = grown.min(MAX_PART_BYTES);
            // A buffer that cannot grow for want of memory ends the splitting
            // here, as a case with nowhere to cut does: the rest is read as
            // one stream.
            let Ok(mut buf) = zeroed(grown) else {
                return Ok(false);
            };
            buf[..self.end].copy_from_slice(&self.buf[..self.end]);
            self.buf = buf;
            if self.end == self.buf.len() {
                return Ok(false);
            }
        }
        let room = self.end + CHUNK.min(self.buf.len() - self.end);
        let read = read_into(
            &mut self.input,
            &mut self.buf[..room],
            &mut self.end,
            &mut self.eof,
        )?;
        // Grown past a place to cut at: cutting is tried again at the next fill.
        self.grow &= !read;
        Ok(read)
    }

    /// A long case's slice is cut once the buffer holds this much: half a
    /// part, so that a slice is 128 to 256 KiB. A slice in flight holds its
    /// moves beside its bytes (12 bytes a move): cut at a part's full
    /// buffer, slices of games of millions of moves took a process over
    /// 16 MiB (docs/PERFORMANCE.md has the figures).
    fn slice_bytes(&self) -> usize {
        (self.part_bytes / 2).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts of `text` cut at `part_bytes`, and whether the splitter
    /// followed it to its end (no [`Next::Rest`]).
    fn split(text: &[u8], part_bytes: usize) -> (Vec<u8>, bool) {
        let mut splitter = Splitter::new(text, part_bytes);
        let mut joined = Vec::new();
        let mut spare = Vec::new();
        loop {
            match splitter.next_part(spare).expect("in-memory read") {
                Next::Part(part) => {
                    assert_eq!(part.start.offset, joined.len() as u64);
                    joined.extend_from_slice(&part.bytes[..part.len]);
                    if part.cases.last.is_none() {
                        return (joined, true);
                    }
                    spare = part.bytes;
                }
                Next::Rest(rest) => {
                    assert_eq!(rest.start.offset, joined.len() as u64);
                    joined.extend_from_slice(&rest.bytes[..rest.len]);
                    return (joined, false);
                }
            }
        }
    }

    /// Reads `data` a few hundred bytes at a time, as a pipe may.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let size = buf.len().min(700).min(self.0.len());
            buf[..size].copy_from_slice(&self.0[..size]);
            self.0 = &self.0[size..];
            Ok(size)
        }
    }

    #[test]
    fn a_long_case_is_cut_into_slices_of_whole_moves() {
        let mut text = String::from("3\n3\n1\n1 1 1\n50\n2000\n");
        for m in 0..2000 {
            text += &format!("{} {}  {}\r\n", m / 50, m % 50, 1 + m % 2);
        }
        text += "3\n0\n";
        let mut splitter = Splitter::new(Trickle(text.as_bytes()), 4096).slicing();
        let (mut joined, mut sliced, mut slices) = (Vec::new(), 0, 0);
        let mut spare = Vec::new();
        loop {
            let Next::Part(part) = splitter.next_part(spare).expect("in-memory read") else {
                panic!("the splitter stopped at {}", joined.len());
            };
            let bytes = &part.bytes[..part.len];
            if let Some(slice) = part.slice {
                // Whole moves only: three tokens each, after the header in
                // the first slice (and T, if the part starts the input).
                let tokens = bytes.split(|&byte| is_space(byte)).filter(|token| !token.is_empty());
                let header = match (part.cases.within, part.cases.count) {
                    (Some(within), _) => {
                        assert_eq!(within, CaseWithin { declared: 2000, played: sliced });
                        0
                    }
                    (None, Some(_)) => 2,
                    (None, None) => 3,
                };
                assert_eq!(tokens.count() as u64, header + 3 * slice);
                assert_eq!(part.cases.before, 1);
                sliced += slice;
                slices += 1;
            }
            joined.extend_from_slice(bytes);
            if part.cases.last.is_none() {
                break;
            }
            spare = part.bytes;
        }
        assert_eq!(joined, text.as_bytes());
        assert_eq!(sliced, 2000);
        assert!(slices >= 3, "{slices} slices");
    }

    #[test]
    fn the_splitter_follows_an_input_to_its_last_byte() {
        let mut text = String::from("3000\n");
        for case in 0..3000 {
            let moves = case % 7;
            text += &format!("{}\n{moves}\n", 3 + case % 5);
            for m in 0..moves {
                text += &format!("{} {} {}\n", m % 3, m / 3, 1 + m % 2);
            }
        }
        for part_bytes in [64, 4096, 1 << 20] {
            let (joined, to_the_end) = split(text.as_bytes(), part_bytes);
            assert_eq!(joined, text.as_bytes());
            assert!(to_the_end, "parts of {part_bytes}");
        }
        // Without a last LF: a last token at the input's very end, one the
        // first read holds whole (a count of 70 digits) among them.
        let long_count = format!("1\n3\n{}", "0".repeat(70));
        for tiny in ["1\n3\n1\n0 0 1", "1\n3\n0", "0", &long_count] {
            assert_eq!(split(tiny.as_bytes(), 4096), (tiny.as_bytes().to_vec(), true), "{tiny:?}");
        }
    }
}
