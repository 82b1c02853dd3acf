//! Buffered output of results in either format, one whole line per case and never a partial one.
//!
//! A case's line is assembled in memory and becomes writable only when the
//! case completes, so whatever stops a run (a data error, a read error) leaves
//! exactly the lines of the completed cases. Completed lines go out in large
//! blocks, since a write per case would dominate small cases.

use crate::game::Outcome;
use std::io::{self, Write};

/// Completed output is written once this much has gathered.
const BLOCK: usize = 128 * 1024;

/// A case's line held as text up to this long; past it, its results are
/// packed four to a byte until the case completes, so that a case of
/// millions of moves costs a quarter of a byte a move, not two.
const SPILL: usize = 1024 * 1024;

/// Writes each case's results as one line, in either format: the results
/// separated by single spaces then LF (Coding Ninjas), or LeetCode's
/// `[null,0,1]` (`LEETCODE`), where the constructor's `null` comes first.
pub struct ResultWriter<W: Write, const LEETCODE: bool = false> {
    out: W,
    buf: Vec<u8>,
    /// Where the case in progress starts in `buf`, if one is in progress.
    case_start: Option<usize>,
    /// Past this length of `buf`, the case in progress is packed.
    spill_at: usize,
    /// The case's earlier results, packed: 2 bits each, four to a byte.
    packed: Vec<u8>,
    /// How many results `packed` holds.
    packed_count: u64,
    /// The memory to pack the case in progress was not there.
    no_room: bool,
}

impl<W: Write> ResultWriter<W> {
    /// A writer of Coding Ninjas result lines onto `out`, which it does
    /// not buffer further.
    pub fn new(out: W) -> ResultWriter<W> {
        ResultWriter::with_style(out)
    }
}

impl<W: Write> ResultWriter<W, true> {
    /// A writer of LeetCode result lines onto `out`.
    pub fn leetcode(out: W) -> ResultWriter<W, true> {
        ResultWriter::with_style(out)
    }
}

impl<const LEETCODE: bool> ResultWriter<Vec<u8>, LEETCODE> {
    /// Writes the lines `write` completes into `buffer`, emptied first, and
    /// gives it back with what `write` returned: a worker keeps one writer
    /// for many parts, each part's lines in a buffer of its own. Room for
    /// `room` bytes is asked for first, fallibly, so that the buffer need
    /// not grow: `None`, with the buffer, if the memory is not there (a
    /// sandbox's cap; a buffer grown by doubling would abort the process).
    pub fn lines_into<T>(
        &mut self,
        mut buffer: Vec<u8>,
        room: usize,
        write: impl FnOnce(&mut Self) -> T,
    ) -> (Vec<u8>, Option<T>) {
        buffer.clear();
        if buffer.try_reserve(room).is_err() {
            return (buffer, None);
        }
        self.out = buffer;
        let written = write(self);
        // Writing to memory cannot fail.
        let _ = self.finish();
        (std::mem::take(&mut self.out), Some(written))
    }
}

impl<W: Write, const LEETCODE: bool> ResultWriter<W, LEETCODE> {
    /// The bytes a case's line starts with.
    const PREFIX: &'static [u8] = if LEETCODE { b"[null" } else { b"" };

    fn with_style(out: W) -> ResultWriter<W, LEETCODE> {
        // Asked for fallibly: memory that is not there (a sandbox's cap) is
        // told at the first case's end, not an abort here.
        let mut buf = Vec::new();
        let no_room = buf.try_reserve_exact(BLOCK + BLOCK / 2).is_err();
        ResultWriter {
            out,
            buf,
            case_start: None,
            spill_at: usize::MAX,
            packed: Vec::new(),
            packed_count: 0,
            no_room,
        }
    }

    /// Starts a case's line.
    #[inline]
    pub fn begin_case(&mut self) {
        self.case_start = Some(self.buf.len());
        self.buf.extend_from_slice(Self::PREFIX);
        self.spill_at = self.buf.len() + SPILL;
    }

    /// The two bytes a result takes: its digit and the space after it, or
    /// the comma before it.
    #[inline(always)]
    const fn pair(number: u8) -> [u8; 2] {
        if LEETCODE {
            [b',', b'0' + number]
        } else {
            [b'0' + number, b' ']
        }
    }

    /// The text of four results (0, 1 or 2), given one a byte from the
    /// lowest: each byte moved to its own 16-bit lane, where adding the
    /// pair's fixed bytes makes the text (no lane carries into the next).
    #[inline(always)]
    const fn quad_text(results: u32) -> [u8; 8] {
        let word = results as u64;
        let spread = (word & 0xff)
            | (word & 0xff00) << 8
            | (word & 0xff_0000) << 16
            | (word & 0xff00_0000) << 24;
        // The digit is a pair's first byte (Coding Ninjas) or its second.
        let spread = if LEETCODE { spread << 8 } else { spread };
        let zeros = u16::from_le_bytes(Self::pair(0)) as u64 * 0x0001_0001_0001_0001;
        (spread + zeros).to_le_bytes()
    }

    /// Entry b: the text of the four results packed in byte b (values 3
    /// never occur).
    const QUADS: [[u8; 8]; 256] = {
        let mut table = [[0; 8]; 256];
        let mut byte = 0;
        while byte < 256 {
            let mut slot = 0;
            while slot < 4 {
                let pair = Self::pair((byte >> (2 * slot)) as u8 & 3);
                table[byte][2 * slot] = pair[0];
                table[byte][2 * slot + 1] = pair[1];
                slot += 1;
            }
            byte += 1;
        }
        table
    };

    /// Appends a move's result to the case in progress.
    #[inline(always)]
    pub fn push(&mut self, outcome: Outcome) {
        // Two bytes at once.
        let pair = u16::from_le_bytes(Self::pair(outcome.number()));
        self.buf.extend_from_slice(&pair.to_le_bytes());
        if self.buf.len() > self.spill_at {
            self.pack();
        }
    }

    /// Appends the results (0, 1 or 2 each) of a batch of moves.
    #[inline(always)]
    pub fn push_numbers(&mut self, numbers: &[u8]) {
        if numbers.len() > 8 {
            // A long batch: the iterator's extend, which the compiler
            // turns into vector instructions.
            if self.buf.try_reserve(2 * numbers.len()).is_err() {
                // Said at the case's end, as a spill that finds no room is.
                self.no_room = true;
                return;
            }
            self.buf
                .extend(numbers.iter().flat_map(|&number| Self::pair(number)));
        } else {
            // A short case's batch, a handful of results: four at a time,
            // each a fixed-size store, where the extend's setup cost more
            // than its bytes.
            if self.buf.try_reserve(16).is_err() {
                self.no_room = true;
                return;
            }
            let (quads, rest) = numbers.as_chunks::<4>();
            for &quad in quads {
                self.buf
                    .extend_from_slice(&Self::quad_text(u32::from_le_bytes(quad)));
            }
            if !rest.is_empty() {
                // The whole quad's text, then the pairs of the missing
                // results off again. (Gathered by shifts: a copy of 1 to 3
                // bytes would be a call.)
                let len = self.buf.len() + 2 * rest.len();
                let word = rest.iter().rev().fold(0, |word, &number| word << 8 | u32::from(number));
                self.buf.extend_from_slice(&Self::quad_text(word));
                self.buf.truncate(len);
            }
        }
        if self.buf.len() > self.spill_at {
            self.pack();
        }
    }

    /// Packs the text of the case in progress (after its prefix).
    #[cold]
    fn pack(&mut self) {
        let Some(start) = self.case_start else {
            return;
        };
        let results = start + Self::PREFIX.len();
        let digit = usize::from(LEETCODE);
        let more = (self.buf.len() - results) / 2 / 4 + 1;
        if self.packed.try_reserve(more).is_err() {
            // Told at the end of the case, which can then not be written.
            self.no_room = true;
            self.buf.truncate(results);
            return;
        }
        let mut text = &self.buf[results..];
        // One result at a time up to a whole byte of `packed`, then four
        // at a time (eight bytes of text), then the rest one at a time.
        while !text.is_empty() {
            let slot = (self.packed_count % 4) as u32;
            if slot == 0
                && let Some((quad, rest)) = text.split_first_chunk::<8>()
            {
                // '0', '1' and '2' are 0x30 to 0x32: their low two bits are
                // the result, at bits 0, 16, 32 and 48 once shifted.
                let digits = (u64::from_le_bytes(*quad) >> (8 * digit)) & 0x0003_0003_0003_0003;
                let byte = digits | digits >> 14 | digits >> 28 | digits >> 42;
                self.packed.push(byte as u8);
                self.packed_count += 4;
                text = rest;
                continue;
            }
            let number = text[digit] & 3;
            if slot == 0 {
                self.packed.push(0);
            }
            if let Some(last) = self.packed.last_mut() {
                *last |= number << (2 * slot);
            }
            self.packed_count += 1;
            text = &text[2..];
        }
        self.buf.truncate(results);
    }

    /// Writes the completed lines before the case in progress, its prefix
    /// and its packed results but the last, and leaves that last result
    /// and the text after it as the case in progress, from `buf`'s start.
    #[cold]
    fn unpack(&mut self, start: usize) -> io::Result<()> {
        let results = start + Self::PREFIX.len();
        let text = self.buf.split_off(results);
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        // Every result but the last, four (a packed byte) at a time.
        let before_last = self.packed_count - 1;
        let mut chunk = Vec::with_capacity(BLOCK + 8);
        for &byte in &self.packed[..(before_last / 4) as usize] {
            chunk.extend_from_slice(&Self::QUADS[usize::from(byte)]);
            if chunk.len() >= BLOCK {
                self.out.write_all(&chunk)?;
                chunk.clear();
            }
        }
        let number = |index: u64| (self.packed[(index / 4) as usize] >> (2 * (index % 4))) & 3;
        for index in before_last / 4 * 4..before_last {
            chunk.extend_from_slice(&Self::pair(number(index)));
        }
        self.out.write_all(&chunk)?;
        self.buf.extend_from_slice(&Self::pair(number(before_last)));
        self.buf.extend_from_slice(&text);
        self.packed.clear();
        self.packed_count = 0;
        Ok(())
    }

    /// Completes the case's line, writing completed lines out once enough
    /// have gathered.
    #[inline]
    pub fn end_case(&mut self) -> io::Result<()> {
        let mut start = self.case_start.take().unwrap_or(self.buf.len());
        self.spill_at = usize::MAX;
        if self.no_room {
            return Err(io::ErrorKind::OutOfMemory.into());
        }
        if self.packed_count > 0 {
            self.unpack(start)?;
            start = 0;
        }
        if LEETCODE {
            self.buf.extend_from_slice(b"]\n");
        } else if self.buf.len() > start {
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

    /// Writes lines made elsewhere (by another writer, on another thread)
    /// after the completed lines; call it with no case in progress.
    pub fn write_lines(&mut self, lines: &[u8]) -> io::Result<()> {
        debug_assert!(self.case_start.is_none(), "lines written inside a case");
        if !self.buf.is_empty() {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        self.out.write_all(lines)
    }

    /// Writes every completed line, drops a case left in progress, and flushes.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(start) = self.case_start.take() {
            self.buf.truncate(start);
            self.packed.clear();
            self.packed_count = 0;
        }
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }
}

/// Writes one LeetCode test case in canonical form, a move at a time: the
/// method names and the arguments, each on one line without spaces. Shared
/// by `convert` and `gen`, so both write the same bytes.
pub struct LeetcodeTranscript;

impl LeetcodeTranscript {
    /// The method names of a case of `moves` moves, on a line.
    pub fn names(out: &mut impl Write, moves: u64) -> io::Result<()> {
        use crate::format::leetcode::read::{CONSTRUCTOR, MOVE};
        write!(out, "[\"{CONSTRUCTOR}\"")?;
        let name = format!(",\"{MOVE}\"");
        for _ in 0..moves {
            out.write_all(name.as_bytes())?;
        }
        out.write_all(b"]\n")
    }

    /// The start of the arguments of a case on an `n` x `n` board: what
    /// comes before the first move's.
    pub fn begin_arguments(out: &mut impl Write, n: u64) -> io::Result<()> {
        write!(out, "[[{n}]")
    }

    /// One move's arguments.
    #[inline]
    pub fn push(out: &mut impl Write, (row, col, player): (i64, i64, i64)) -> io::Result<()> {
        write!(out, ",[{row},{col},{player}]")
    }

    /// The end of the case.
    pub fn end(out: &mut impl Write) -> io::Result<()> {
        out.write_all(b"]\n")
    }
}

/// Appends one LeetCode test case in canonical form (see
/// [`LeetcodeTranscript`]).
pub fn leetcode_transcript(out: &mut Vec<u8>, n: u64, moves: &[(i64, i64, i64)]) {
    // Writing into a Vec cannot fail.
    let _ = LeetcodeTranscript::names(out, moves.len() as u64);
    let _ = LeetcodeTranscript::begin_arguments(out, n);
    for &played in moves {
        let _ = LeetcodeTranscript::push(out, played);
    }
    let _ = LeetcodeTranscript::end(out);
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
    #[test]
    fn leetcode_lines_start_with_the_constructors_null() {
        let mut out = Vec::new();
        let mut writer = ResultWriter::leetcode(&mut out);
        writer.begin_case();
        writer.push_numbers(&[0, 1]);
        writer.end_case().expect("in memory");
        writer.begin_case();
        writer.end_case().expect("in memory");
        writer.begin_case();
        writer.push(Outcome::NoWin);
        writer.finish().expect("in memory");
        assert_eq!(out, b"[null,0,1]\n[null]\n");
    }

    /// Writes `cases` through a writer, each case's results pushed in
    /// batches of `batch`.
    fn written<const LEETCODE: bool>(
        mut writer: ResultWriter<Vec<u8>, LEETCODE>,
        cases: &[Vec<u8>],
        batch: usize,
    ) -> Vec<u8> {
        for case in cases {
            writer.begin_case();
            for batch in case.chunks(batch) {
                writer.push_numbers(batch);
            }
            writer.end_case().expect("in memory");
        }
        writer.finish().expect("in memory");
        std::mem::take(&mut writer.out)
    }

    #[test]
    fn cases_longer_than_a_spill_are_written_as_if_held_whole() {
        let long: Vec<u8> = (0..3 * SPILL / 2 + 7).map(|i| (i * 7 % 3) as u8).collect();
        let cases = [vec![1, 2], long.clone(), vec![], long.clone(), vec![0]];
        let mut expected = String::new();
        let mut expected_leetcode = String::new();
        for case in &cases {
            let numbers: Vec<String> = case.iter().map(u8::to_string).collect();
            expected += &format!("{}\n", numbers.join(" "));
            expected_leetcode += &format!("[{}]\n", ["null".to_owned()].into_iter().chain(numbers).collect::<Vec<_>>().join(","));
        }
        // Batches of 1000 spill at a multiple of four results, which pack
        // into whole bytes; batches of 999 also spill between.
        for batch in [1000, 999] {
            let out = written(ResultWriter::new(Vec::new()), &cases, batch);
            assert!(out == expected.as_bytes(), "Coding Ninjas lines differ");
            let out = written(ResultWriter::leetcode(Vec::new()), &cases, batch);
            assert!(out == expected_leetcode.as_bytes(), "LeetCode lines differ");
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::property_tests::config())]
        #[test]
        fn batches_of_any_length_write_what_results_pushed_one_by_one_do(
            cases in proptest::collection::vec(proptest::collection::vec(0u8..3, 0..40), 0..6),
            batch in 1usize..20,
        ) {
            let one_by_one = |mut writer: ResultWriter<Vec<u8>, false>| {
                for case in &cases {
                    writer.begin_case();
                    for &number in case {
                        writer.push(Player::from_number(i64::from(number)).map_or(Outcome::NoWin, Outcome::Win));
                    }
                    writer.end_case().expect("in memory");
                }
                writer.finish().expect("in memory");
                std::mem::take(&mut writer.out)
            };
            let out = written(ResultWriter::new(Vec::new()), &cases, batch);
            proptest::prop_assert_eq!(out, one_by_one(ResultWriter::new(Vec::new())));
            let lines: String = cases
                .iter()
                .map(|case| format!("[null{}]\n", case.iter().map(|n| format!(",{n}")).collect::<String>()))
                .collect();
            let out = written(ResultWriter::leetcode(Vec::new()), &cases, batch);
            proptest::prop_assert_eq!(String::from_utf8_lossy(&out), lines);
        }
    }

    #[test]
    fn a_long_case_in_progress_is_dropped_whole() {
        let mut writer = ResultWriter::new(Vec::new());
        writer.begin_case();
        writer.push_numbers(&[2]);
        writer.end_case().expect("in memory");
        writer.begin_case();
        for _ in 0..SPILL {
            writer.push(Outcome::NoWin);
        }
        writer.finish().expect("in memory");
        assert_eq!(writer.out.as_slice(), b"2\n");
    }
}
