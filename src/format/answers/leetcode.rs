//! LeetCode answers read as the lines of results they hold, so that one comparison judges both formats.
//!
//! A LeetCode answer has one line per test case, `[null,0,0,1]`: `null` for
//! the constructor, then each move's result. [`Lines`] turns such a stream
//! into the Coding Ninjas answer it stands for (`0 0 1`), byte by byte and
//! without holding a line, so that the comparison counts cases and moves the
//! same way in both formats. Spaces, tabs and CRs may stand between the
//! elements, as JSON allows. Read [by lines](Lines::new), an LF ends a test
//! case; read [by arrays](Lines::arrays), as a comparison by tokens reads
//! it, the `]` does, and an LF is a blank like any other.
//!
//! A line that breaks the shape becomes, from the first byte that breaks it,
//! one token that is never a result: the comparison then reports the output
//! as malformed at that move.

use super::Letters;
use crate::format::bytes::QUOTED;
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes read from the inner stream at a time.
const CHUNK: usize = 64 * 1024;

/// Marks a broken line's text that ends where a result could have: the line
/// ended after it, and the token must not read as a result.
pub(super) const LINE_ENDS: &str = "\u{23CE}";

/// Stands for a run of blanks inside a broken line's text, which is one
/// token: the quote shows where the output had space.
const BLANK: &str = "\u{2423}";

/// Where in a line the transcoder is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the `[`.
    LineStart,
    /// After `[`, before `null`; the count of its letters matched so far.
    Null(usize),
    /// After an element, before `,` or `]`.
    AfterElement,
    /// After `,`, before a result.
    BeforeResult,
    /// Inside a result.
    InResult,
    /// After `]`, before the LF.
    Closed,
    /// The line broke the shape: its rest is being gathered into one token.
    Broken,
}

/// A LeetCode answer stream read as the Coding Ninjas answer it stands for.
pub struct Lines<R> {
    inner: R,
    /// The bytes last read from `inner`.
    raw: Vec<u8>,
    /// What they were transcoded to, and how much of it was handed out.
    out: Vec<u8>,
    out_pos: usize,
    state: State,
    /// The text of a broken line from where it broke, for its token.
    broken: Vec<u8>,
    /// Whether the broken line's text went on past what `broken` keeps.
    broken_more: bool,
    /// Whether blanks were met in the broken line's text since its last
    /// byte kept: they show if more text follows.
    broken_blank: bool,
    /// The letters matched of `null` (in any case, if `any_case`): a line
    /// that breaks inside it quotes them too.
    null_seen: [u8; 4],
    /// Whether a test case ends at its `]` rather than at its line's LF.
    arrays: bool,
    /// Whether `NULL` or `Null` stands for `null`, as for a Kattis judge's
    /// default output validator without `case_sensitive`.
    any_case: bool,
    /// Lines handed out before the current read's, counted once a read is
    /// transcoded, so that a broken line knows its test case.
    lines_before: u64,
    /// Where the 1-based test case of the first line that broke before its
    /// `null` was whole is noted (0: none), for the message to name the
    /// missing `null`: told apart from the line's text, which the solution
    /// writes and could fake any mark in.
    missing_null: Option<Arc<AtomicU64>>,
    eof: bool,
}

impl<R: Read> Lines<R> {
    /// Reads `inner` as LeetCode answer lines: a test case a line.
    pub fn new(inner: R) -> Lines<R> {
        Lines {
            inner,
            raw: vec![0; CHUNK],
            out: Vec::new(),
            out_pos: 0,
            state: State::LineStart,
            broken: Vec::new(),
            broken_more: false,
            broken_blank: false,
            null_seen: [0; 4],
            arrays: false,
            any_case: false,
            lines_before: 0,
            missing_null: None,
            eof: false,
        }
    }

    /// Notes in `missing` the test case of the first line that breaks
    /// before its `null` is whole (`[0,1]`, `[NULL,1]` where case counts).
    pub fn noting_missing_null(self, missing: Arc<AtomicU64>) -> Lines<R> {
        Lines {
            missing_null: Some(missing),
            ..self
        }
    }

    /// Notes the line about to break, if it breaks before its `null` is
    /// whole; `out` holds the current read's transcoded lines so far.
    fn note_if_before_null(&self, out: &[u8]) {
        if let (State::Null(_), Some(missing)) = (self.state, &self.missing_null) {
            let case = self.lines_before + memchr::memchr_iter(b'\n', out).count() as u64 + 1;
            let _ = missing.compare_exchange(0, case, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// Reads `inner` as a sequence of LeetCode arrays, a test case each,
    /// with any whitespace (line breaks too) between and inside them: what
    /// a comparison by tokens holds an output to. Its case boundaries still
    /// count: two test cases' results in one array are not the answer.
    pub fn arrays(inner: R) -> Lines<R> {
        Lines {
            arrays: true,
            ..Lines::new(inner)
        }
    }

    /// Takes `null` in any case (`NULL`, `Null`) when `letters` says so.
    pub fn with_letters(self, letters: Letters) -> Lines<R> {
        Lines {
            any_case: letters == Letters::AnyCase,
            ..self
        }
    }

    /// Starts gathering a broken line's rest into one token, from the
    /// letters of `null` it broke in, if it did.
    fn break_line(&mut self, byte: u8) {
        let matched = match self.state {
            State::Null(matched) => matched,
            _ => 0,
        };
        self.state = State::Broken;
        self.broken.clear();
        self.broken.extend_from_slice(&self.null_seen[..matched]);
        self.broken_more = false;
        self.broken_blank = false;
        self.keep_broken(byte);
    }

    fn keep_broken(&mut self, byte: u8) {
        if is_blank(byte) {
            self.broken_blank = !self.broken.is_empty();
            return;
        }
        // A quote ends with its array: what follows is another test case's.
        if (self.broken.len() > 1 && self.broken.last() == Some(&b']')) || self.broken_more {
            self.broken_more = true;
            return;
        }
        if self.broken_blank && self.broken.len() < QUOTED {
            self.broken.extend_from_slice(BLANK.as_bytes());
        }
        self.broken_blank = false;
        if self.broken.len() < QUOTED {
            self.broken.push(byte);
        } else {
            self.broken_more = true;
        }
    }

    /// Ends a broken line's token, as a token that never reads as a result,
    /// nor as nothing: a line cut off inside its `null` (`[nu`) broke with
    /// no text kept, and an empty token would read as `[null]`.
    fn end_broken(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.broken);
        if self.broken_more {
            out.extend_from_slice(b"...");
        } else if matches!(self.broken[..], [] | [b'0'..=b'2']) {
            out.extend_from_slice(LINE_ENDS.as_bytes());
        }
        self.broken.clear();
    }

    /// Ends the line being read, as its LF or the end of the input does.
    fn end_line(&mut self, out: &mut Vec<u8>) {
        match self.state {
            // A blank line stands for nothing: only test cases are lines.
            State::LineStart => return,
            State::Closed => {}
            State::Broken => self.end_broken(out),
            // The line ends inside its `null`: a token of the letters there.
            State::Null(1..) => {
                self.note_if_before_null(out);
                self.break_line(b' ');
                self.end_broken(out);
            }
            // The line ends before its `]`.
            _ => {
                if self.state == State::InResult {
                    out.push(b' ');
                }
                out.extend_from_slice(LINE_ENDS.as_bytes());
            }
        }
        out.push(b'\n');
        self.state = State::LineStart;
    }

    /// Transcodes one byte into `out`.
    fn step(&mut self, byte: u8, out: &mut Vec<u8>) {
        if byte == b'\n' {
            if self.arrays {
                return self.step(b' ', out);
            }
            return self.end_line(out);
        }
        let blank = is_blank(byte);
        match self.state {
            State::Broken => self.keep_broken(byte),
            // Blanks may stand between elements, not inside `null` or a result.
            _ if blank && !matches!(self.state, State::InResult | State::Null(1..=3)) => {}
            State::LineStart if byte == b'[' => self.state = State::Null(0),
            State::Null(matched)
                if byte == b"null"[matched]
                    || (self.any_case && byte.to_ascii_lowercase() == b"null"[matched]) =>
            {
                self.null_seen[matched] = byte;
                self.state = if matched == 3 {
                    State::AfterElement
                } else {
                    State::Null(matched + 1)
                };
            }
            State::AfterElement if byte == b',' => self.state = State::BeforeResult,
            State::AfterElement if byte == b']' && self.arrays => {
                out.push(b'\n');
                self.state = State::LineStart;
            }
            State::AfterElement if byte == b']' => self.state = State::Closed,
            State::BeforeResult if !matches!(byte, b',' | b']') => {
                out.push(byte);
                self.state = State::InResult;
            }
            State::InResult => {
                if blank || matches!(byte, b',' | b']') {
                    out.push(b' ');
                    self.state = State::AfterElement;
                    if !blank {
                        self.step(byte, out);
                    }
                } else {
                    out.push(byte);
                }
            }
            _ => {
                self.note_if_before_null(out);
                self.break_line(byte);
            }
        }
    }
}

impl<R: Read> Read for Lines<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.out_pos == self.out.len() {
            if self.eof {
                return Ok(0);
            }
            self.out.clear();
            self.out_pos = 0;
            let read = crate::format::bytes::read_some(&mut self.inner, &mut self.raw)?;
            let mut out = std::mem::take(&mut self.out);
            if read == 0 {
                self.eof = true;
                // A last line without its LF ends like one with it, and so
                // does an array left open.
                self.end_line(&mut out);
            }
            let buffer = std::mem::take(&mut self.raw);
            let raw = &buffer[..read];
            let mut index = 0;
            while index < raw.len() {
                // A line's usual start and end, `[null` and `]` then LF, at
                // once: what `step` makes of them byte by byte. A file of
                // short games is mostly these.
                if self.state == State::LineStart && raw.get(index..index + 5) == Some(b"[null") {
                    index += 5;
                    self.state = State::AfterElement;
                }
                // The usual run, `,R` for a one-digit result R before `,`
                // or `]`, a pair of bytes at a time: what `step` makes of it.
                // (Entered after a comma too: a run cut by the end of a read
                // goes on from there, and a line can be megabytes long.)
                if self.state == State::BeforeResult
                    && let Some(&[result @ b'0'..=b'9', b',' | b']']) = raw.get(index..index + 2)
                {
                    out.extend_from_slice(&[result, b' ']);
                    index += 1;
                    self.state = State::AfterElement;
                }
                if self.state == State::AfterElement {
                    while let Some(results) = raw.get(index..index + 9).and_then(four_results) {
                        out.extend_from_slice(&results);
                        index += 8;
                    }
                    while let Some(&[b',', result @ b'0'..=b'9', b',' | b']']) =
                        raw.get(index..index + 3)
                    {
                        out.extend_from_slice(&[result, b' ']);
                        index += 2;
                    }
                    if raw.get(index..index + 2) == Some(b"]\n") {
                        out.push(b'\n');
                        index += 2;
                        self.state = State::LineStart;
                        continue;
                    }
                }
                let Some(&byte) = raw.get(index) else { break };
                self.step(byte, &mut out);
                index += 1;
            }
            if self.missing_null.is_some() {
                self.lines_before += memchr::memchr_iter(b'\n', &out).count() as u64;
            }
            self.raw = buffer;
            self.out = out;
        }
        let count = buf.len().min(self.out.len() - self.out_pos);
        buf[..count].copy_from_slice(&self.out[self.out_pos..self.out_pos + count]);
        self.out_pos += count;
        Ok(count)
    }
}

/// What the usual run makes of `,R,R,R,R` before `,` or `]` (nine bytes,
/// each R one digit): `R R R R `, or `None` if `bytes` is not that.
///
/// Why: a long game's answer line is mostly this run; a word at a time it
/// costs one test for four results, where the run's loop took three.
fn four_results(bytes: &[u8]) -> Option<[u8; 8]> {
    let (&[b','], rest) = bytes.split_first_chunk::<1>()? else {
        return None;
    };
    let word = u64::from_le_bytes(*rest.first_chunk::<8>()?);
    const LANES: u64 = 0x0001_0001_0001_0001;
    const CARRY: u64 = 0x0100 * LANES;
    // The results' bytes, each alone in 16 bits: adding lifts a byte of at
    // least b'0' (or past b'9') into bit 8 of its lane, with no carry out.
    let results = word & (0x00FF * LANES);
    let digits = (results + (0x100 - u64::from(b'0')) * LANES) & CARRY == CARRY
        && (results + (0xFF - u64::from(b'9')) * LANES) & CARRY == 0;
    let commas = word & 0x0000_FF00_FF00_FF00 == 0x0000_2C00_2C00_2C00;
    let last = matches!(rest.get(7), Some(b',' | b']'));
    (digits && commas && last).then(|| (results | 0x2000_2000_2000_2000).to_le_bytes())
}

/// The bytes that may stand between a line's elements.
fn is_blank(byte: u8) -> bool {
    super::read::is_blank(byte)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::answers::Trickle;

    /// `text` read by lines.
    fn transcoded(text: &str) -> String {
        read_all(Lines::new(text.as_bytes()))
    }

    /// `text` read by arrays.
    fn by_arrays(text: &str) -> String {
        read_all(Lines::arrays(text.as_bytes()))
    }

    fn read_all(mut lines: Lines<&[u8]>) -> String {
        let mut out = String::new();
        lines.read_to_string(&mut out).expect("in memory");
        out
    }

    #[test]
    fn each_test_case_becomes_its_line_of_results() {
        assert_eq!(transcoded("[null,0,0,1]\n[null]\n"), "0 0 1 \n\n");
        assert_eq!(transcoded("\n[null,1]\n \n\n"), "1 \n");
        assert_eq!(transcoded(" [ null , 0,\t2 ]\r\n"), "0 2 \n");
        assert_eq!(transcoded("[null,1]"), "1 \n");
    }


    proptest::proptest! {
        #![proptest_config(crate::property_tests::config())]
        #[test]
        fn the_fast_run_transcodes_what_the_byte_machine_does(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "[null", ",0", ",1", ",2", ",0", ",1", ",2", ",12", "]", "]\n", "\n", " ", ",", "7", "nul", "\t",
                    ",9", ",/", ",:", ", ", ",0,0,0,0", ",1,2,1,2,",
                ]),
                0..200,
            ),
            chunk in 1usize..8,
            arrays: bool,
        ) {
            let text = pieces.concat().into_bytes();
            let reader = |inner| if arrays { Lines::arrays(inner) } else { Lines::new(inner) };
            let mut expected = Vec::new();
            let mut machine = reader(&b""[..]);
            for &byte in &text {
                machine.step(byte, &mut expected);
            }
            machine.end_line(&mut expected);
            let mut trickled = if arrays { Lines::arrays(Trickle(&text, chunk)) } else { Lines::new(Trickle(&text, chunk)) };
            for read in [&mut reader(&text[..]) as &mut dyn Read, &mut trickled] {
                let mut found = Vec::new();
                read.read_to_end(&mut found).expect("in memory");
                proptest::prop_assert_eq!(&found, &expected);
            }
        }
    }

    #[test]
    fn read_by_arrays_each_array_is_a_test_case_whatever_the_whitespace() {
        assert_eq!(by_arrays("[null,0,0,1] [null]\n"), "0 0 1 \n\n");
        assert_eq!(by_arrays("[null,\n0,\n\n1]\n\n[null\n]"), "0 1 \n\n");
        assert_eq!(by_arrays("[null,1][null,2]"), "1 \n2 \n");
        // A broken array's quote stops at its `]`: the rest is another's.
        assert_eq!(by_arrays("[NULL,1]\n[null,2]\n"), "NULL,1]...\n");
        // An array left open ends with the input, marked as a line is.
        assert_eq!(by_arrays("[null,1,2\n"), "1 2 \u{23CE}\n");
        // Cut off inside `null`: never an empty test case.
        assert_eq!(by_arrays("[null,1]\n[nu\n"), "1 \nnu\n");
        assert_eq!(by_arrays("[nu \n[null]"), "nu\u{2423}[null]\n");
        assert_eq!(by_arrays("[\n"), "\u{23CE}\n");
        // Read by lines, the same bytes are other test cases.
        assert_eq!(transcoded("[null,1][null,2]"), "1 [null,2]\n");
        assert_eq!(transcoded("[null,\n1]\n"), "\u{23CE}\n1]\n");
    }

    #[test]
    fn a_broken_line_becomes_one_token_that_is_never_a_result() {
        assert_eq!(transcoded("[0,1]\n"), "0,1]\n");
        assert_eq!(transcoded("[null,0 1]\n"), "0 1]\n");
        assert_eq!(transcoded("[null,0 1\n"), "0 1\u{23CE}\n");
        assert_eq!(transcoded("[null,0,1\n"), "0 1 \u{23CE}\n");
        // Blanks inside the token show, as one mark a run.
        assert_eq!(transcoded("0 0  1 \n"), "0\u{2423}0\u{2423}1\n");
        assert_eq!(transcoded("[null 1 2]\n"), "1\u{2423}2]\n");
        assert_eq!(transcoded("[null,3]\n"), "3 \n");
        // Broken inside `null`, it quotes the letters matched too.
        assert_eq!(transcoded("[nu ll,1]\n"), "nu\u{2423}ll,1]\n");
        assert_eq!(transcoded("[nUll,1]\n"), "nUll,1]\n");
        assert_eq!(transcoded("[nu \n[null]\n"), "nu\n\n");
        assert_eq!(transcoded("[nu\n"), "nu\n");
        let any_case = |text: &str| read_all(Lines::new(text.as_bytes()).with_letters(Letters::AnyCase));
        assert_eq!(any_case("[None,1]\n"), "None,1]\n");
        assert_eq!(any_case("[NULL,1]\n"), "1 \n");
    }
}
