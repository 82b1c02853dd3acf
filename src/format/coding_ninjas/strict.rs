//! A strict, streaming tokenizer for validators: every byte between tokens is accounted for.
//!
//! The solver's reader takes any run of whitespace between tokens; a validator
//! must insist on exactly one space inside a line and exactly one LF at its
//! end. This reader splits the input into tokens (runs of bytes that are not
//! space, tab, CR or LF) and the runs of whitespace between them, and checks
//! each run against the one separator the layout expects. Because tokens stay
//! in step whatever the whitespace, one bad separator never garbles what
//! follows, and a validator can go on to find every other violation.
//!
//! Line and column are tracked as separators are consumed (the layout puts a
//! known separator after every token, so this costs one addition per line).

use crate::format::bytes::{Chunks, IntFault, Resume, is_space};
use crate::format::lines::{Moves, read_usual_lines};
use crate::simd::Cpu;
use std::io::{self, Read};

/// The fast path parses a token and its separator without checking for the
/// end of the buffer byte by byte; this many bytes are kept ready.
const WINDOW: usize = 64;


/// Reads canonical move lines (see [`StrictReader::canonical_moves`]) from
/// `bytes[at..]` one by one, up to `want` of them, each only if the byte
/// after its LF is buffered and starts a token: how many it read and the
/// index after the last one's LF.
#[inline(always)]
fn canonical_lines(bytes: &[u8], mut at: usize, moves: &mut Moves, want: usize) -> (usize, usize) {
    let mut got = 0;
    for slot in moves.0.iter_mut().take(want) {
        let Some(([row, col, player], end)) = canonical_line(bytes, at) else {
            break;
        };
        *slot = [row, col, player];
        at = end;
        got += 1;
    }
    (got, at)
}

/// One canonical move line at `bytes[at..]`: its numbers and the index
/// after its LF, if a token starts there.
#[inline(always)]
fn canonical_line(bytes: &[u8], at: usize) -> Option<([u32; 3], usize)> {
    let (row, at) = canonical_number(bytes, at, b' ')?;
    let (col, at) = canonical_number(bytes, at, b' ')?;
    let (player, at) = canonical_number(bytes, at, b'\n')?;
    // One LF, not a run of space: the next line's first byte is a token's.
    bytes.get(at).filter(|&&next| !is_space(next))?;
    Some(([row, col, player], at))
}

/// A number of one to nine digits at `bytes[at..]`, without a leading zero,
/// followed by `separator`: its value and the index after the separator.
#[inline(always)]
fn canonical_number(bytes: &[u8], at: usize, separator: u8) -> Option<(u32, usize)> {
    let mut value: u32 = 0;
    let mut end = at;
    while let Some(digit) = bytes.get(end).map(|&byte| byte.wrapping_sub(b'0')) {
        if digit > 9 {
            break;
        }
        if end - at == 9 {
            // Ten digits may pass u32; they are the general path's.
            return None;
        }
        value = value * 10 + u32::from(digit);
        end += 1;
    }
    let digits = end - at;
    let leading_zero = digits > 1 && bytes[at] == b'0';
    if digits == 0 || leading_zero || bytes.get(end) != Some(&separator) {
        return None;
    }
    Some((value, end + 1))
}

/// The separator the layout expects after a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Separator {
    /// A single space: between the fields of a move.
    Space,
    /// A single LF: at the end of every line.
    LineEnd,
}

/// Where a token or a stray byte is: 1-based line and byte column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spot {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in bytes.
    pub column: u64,
}

/// A break of the canonical layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Layout {
    /// UTF-8's byte order mark before the first line.
    #[error("a UTF-8 byte order mark before the first line: test files are plain ASCII")]
    ByteOrderMark,
    /// Two spaces where one belongs.
    #[error("two spaces in a row: fields are separated by a single space")]
    ExtraSpace,
    /// Space at the end of a line.
    #[error("trailing space at the end of the line")]
    TrailingSpace,
    /// Space at the start of a line.
    #[error("the line starts with a space")]
    LeadingSpace,
    /// A tab anywhere.
    #[error("a tab: fields are separated by a single space and lines end with a lone LF")]
    Tab,
    /// A CR, usually from a CRLF line ending.
    #[error("{}", if *.before_line_feed {
        "a CR before the LF (a CRLF line ending): lines end with LF alone"
    } else {
        "a carriage return (CR): lines end with LF alone"
    })]
    CarriageReturn {
        /// Whether an LF follows it: the file has CRLF line endings.
        before_line_feed: bool,
    },
    /// An empty line.
    #[error("a blank line: no line may be empty")]
    BlankLine,
    /// A line break inside a move.
    #[error("the line ends too early: a move is ROW COL PLAYER on one line")]
    LineEndsEarly,
    /// More on a line that should have ended.
    #[error("expected the line to end here, found a space and more data")]
    LineGoesOn,
    /// The last line has no LF.
    #[error("missing final newline: the file must end with an LF")]
    MissingFinalNewline,
    /// `007`.
    #[error("{0:?} has a leading zero: integers are written without one")]
    LeadingZero(String),
    /// `+7`, or `-0`.
    #[error("{0:?} has a sign: integers are written as plain digits")]
    Sign(String),
    /// Not an integer at all.
    #[error("expected an integer, found {0:?}")]
    NotInteger(String),
    /// More than 18 significant digits, either side of zero.
    #[error(
        "integer {shown} is too {size}",
        shown = crate::error::escape_unprintable(.0),
        size = if .0.starts_with('-') { "small" } else { "large" }
    )]
    TooLarge(String),
}

/// A token read as an integer, and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The value, when the token is an integer (canonical or not).
    pub value: Option<i64>,
    /// Where the token starts.
    pub spot: Spot,
}


/// A streaming strict reader over an input.
///
/// Layout breaks found while reading are appended to [`problems`](Self::problems);
/// the caller drains them and decides what to do.
pub struct StrictReader<R> {
    /// The bytes, read a chunk at a time; `chunks.pos` is the next unread.
    chunks: Chunks<R>,
    /// Current 1-based line.
    line: u64,
    /// Absolute offset where the current line starts.
    line_start: u64,
    /// Where the final LF is missing, known only once the file is over.
    missing_final_newline: Option<Spot>,
    /// Whether the leading whitespace of the file (if any) has been checked.
    started: bool,
    /// Layout breaks found and not yet taken by the caller.
    pub problems: Vec<(Spot, Layout)>,
}

impl<R: Read> StrictReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> StrictReader<R> {
        StrictReader {
            chunks: Chunks::new(input),
            line: 1,
            line_start: 0,
            missing_final_newline: None,
            started: false,
            problems: Vec::new(),
        }
    }

    /// A reader over an input that continues one already partly read, from
    /// a token's start at `at`: positions count from the whole input's start.
    pub fn resume(input: R, at: Resume) -> StrictReader<R> {
        StrictReader {
            chunks: Chunks::resume(input, at),
            line: at.line,
            line_start: at.line_start,
            started: true,
            missing_final_newline: None,
            problems: Vec::new(),
        }
    }

    /// Reads the next token as an integer and checks the separator after it.
    /// `None` means the input is over.
    // Always inlined: called three times a move, and a call returns its
    // result through memory.
    #[inline(always)]
    pub fn field(&mut self, separator: Separator) -> io::Result<Option<Field>> {
        if !self.started {
            self.started = true;
            self.separator_run(None)?;
        }
        if self.chunks.end - self.chunks.pos < WINDOW && !self.chunks.at_eof() {
            self.fill()?;
        }
        if self.chunks.pos == self.chunks.end {
            return Ok(None);
        }
        let spot = self.spot_at(self.chunks.pos);
        let bytes = &self.chunks.bytes()[self.chunks.pos..];
        let mut digits = 0;
        let mut value: u64 = 0;
        while let Some(&byte) = bytes.get(digits) {
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
            digits += 1;
        }
        let separator_byte = match separator {
            Separator::Space => b' ',
            Separator::LineEnd => b'\n',
        };
        // The common case: a canonical integer, exactly its separator, then a
        // token (or, after the last LF, the end of the file).
        if (1..=18).contains(&digits)
            && (bytes[0] != b'0' || digits == 1)
            && bytes.get(digits) == Some(&separator_byte)
            && bytes.get(digits + 1).is_none_or(|&next| !is_space(next))
        {
            self.chunks.pos += digits + 1;
            if separator == Separator::LineEnd {
                self.line += 1;
                self.line_start = self.chunks.offset_of(self.chunks.pos);
            }
            return Ok(Some(Field {
                value: Some(value as i64),
                spot,
            }));
        }
        let value = self.token_slow(spot)?;
        self.separator_run(Some(separator))?;
        Ok(Some(Field { value, spot }))
    }

    /// Reads up to `want` (at most [`BATCH`]) move lines that are exactly
    /// canonical, `R C P` and an LF with single spaces, no leading zeros
    /// and numbers of one to nine digits, while they are buffered, into
    /// `moves`. Anything else is left to [`field`](Self::field). Returns
    /// how many it read and the line the first is on.
    ///
    /// Why: a valid file is all canonical lines, and checked a block at a
    /// time ([`read_usual_lines`], numbers of one to four digits) or a line
    /// at a time they cost a fraction of reading each token and separator
    /// and judging each move on its own.
    #[inline(always)]
    pub fn canonical_moves<C: Cpu>(
        &mut self,
        cpu: C,
        moves: &mut Moves,
        want: usize,
    ) -> (usize, u64) {
        let first_line = self.line;
        // The LF before the next line: blocks start on one. After a line
        // that went on past its move (`0 0 1  2 2 1`), the next move starts
        // inside that line, and its columns are not a line's.
        let Some(start) = self.chunks.pos.checked_sub(1) else {
            return (0, first_line);
        };
        let bytes = self.chunks.bytes();
        if bytes[start] != b'\n' {
            return (0, first_line);
        }
        let (mut got, mut last_newline) = read_usual_lines::<C, true>(cpu, bytes, start, moves, want);
        // The block check sees no further than the block's last LF: the
        // line after the last one read must start with a token, buffered,
        // as `canonical_line` asks. Else the last line is left to `field`,
        // which reports a space or a blank line after it where it reports
        // one after any move.
        if got > 0 && bytes.get(last_newline + 1).is_none_or(|&next| is_space(next)) {
            got -= 1;
            last_newline = memchr::memrchr(b'\n', &bytes[start..last_newline]).map_or(start, |at| start + at);
        }
        let (got, end) = if got > 0 {
            (got, last_newline + 1)
        } else {
            canonical_lines(self.chunks.bytes(), self.chunks.pos, moves, want)
        };
        if got > 0 {
            self.chunks.pos = end;
            self.line += got as u64;
            self.line_start = self.chunks.offset_of(self.chunks.pos);
        }
        (got, first_line)
    }

    /// Where the reader stands: the next token, or the end of the input.
    pub fn spot(&self) -> Spot {
        self.spot_at(self.chunks.pos)
    }

    /// Whether nothing is left to read: for a part that ends where its
    /// last case does.
    pub fn at_end(&mut self) -> io::Result<bool> {
        if self.chunks.pos == self.chunks.end && !self.chunks.at_eof() {
            self.fill()?;
        }
        Ok(self.chunks.pos == self.chunks.end)
    }

    /// After the last expected token: `Ok(None)` when the input is over,
    /// else the unexpected token that follows, quoted, and where it starts.
    /// A missing final LF is reported here, since only now is it known to
    /// be the end.
    pub fn finish(&mut self) -> io::Result<Option<(Spot, String)>> {
        if self.chunks.end - self.chunks.pos < WINDOW && !self.chunks.at_eof() {
            self.fill()?;
        }
        if self.chunks.pos == self.chunks.end {
            if let Some(spot) = self.missing_final_newline.take() {
                self.problems.push((spot, Layout::MissingFinalNewline));
            }
            return Ok(None);
        }
        let spot = self.spot();
        let (text, _) = self.chunks.take_token(|_| {})?;
        Ok(Some((spot, text)))
    }

    #[inline(always)]
    fn spot_at(&self, index: usize) -> Spot {
        Spot {
            line: self.line,
            column: self.chunks.offset_of(index) - self.line_start + 1,
        }
    }

    /// Reads until [`WINDOW`] bytes are ready past the reading position or the input ends.
    #[cold]
    fn fill(&mut self) -> io::Result<()> {
        self.chunks.fill_ahead(WINDOW)
    }

    /// Reads a token that is not a canonical integer: what it is worth, if
    /// anything, with its layout break recorded.
    #[cold]
    fn token_slow(&mut self, spot: Spot) -> io::Result<Option<i64>> {
        let token = self.chunks.take_int()?;
        let value = match token.value {
            Ok(value) => value,
            Err(IntFault::NotInteger) => {
                self.problems.push((spot, Layout::NotInteger(token.text)));
                return Ok(None);
            }
            Err(IntFault::TooLarge) => {
                self.problems.push((spot, Layout::TooLarge(token.text)));
                return Ok(None);
            }
        };
        match token.sign {
            Some(b'+') => self.problems.push((spot, Layout::Sign(token.text))),
            Some(_) if value == 0 => self.problems.push((spot, Layout::Sign(token.text))),
            _ if token.leading_zero => self.problems.push((spot, Layout::LeadingZero(token.text))),
            _ => {}
        }
        Ok(Some(value))
    }

    /// Consumes the whitespace after a token (or at the start of the file,
    /// where none is expected) and records its first departure from the
    /// expected separator.
    #[cold]
    fn separator_run(&mut self, expected: Option<Separator>) -> io::Result<()> {
        // The first departure is at the run's first or second byte; telling
        // CRLF from a lone CR takes one byte more.
        let mut first = [0u8; 3];
        let mut spots = [Spot::default(); 3];
        let mut length = 0;
        let mut has_line_feed = false;
        loop {
            while self.chunks.pos < self.chunks.end && is_space(self.chunks.bytes()[self.chunks.pos]) {
                let byte = self.chunks.bytes()[self.chunks.pos];
                if length < first.len() {
                    first[length] = byte;
                    spots[length] = self.spot_at(self.chunks.pos);
                }
                length += 1;
                self.chunks.pos += 1;
                if byte == b'\n' {
                    has_line_feed = true;
                    self.line += 1;
                    self.line_start = self.chunks.offset_of(self.chunks.pos);
                }
            }
            if self.chunks.pos < self.chunks.end || self.chunks.at_eof() {
                break;
            }
            self.fill()?;
        }
        let at_end = self.chunks.pos == self.chunks.end;
        if length == 0 {
            if expected == Some(Separator::LineEnd) && at_end {
                self.missing_final_newline = Some(self.spot());
            }
            // Otherwise the input ended where a token was due: the caller
            // reports that.
            return Ok(());
        }
        if expected == Some(Separator::LineEnd) && at_end && !has_line_feed {
            // Trailing space on a last line that also lacks its LF.
            self.missing_final_newline = Some(self.spot());
        }
        let expected_byte = match expected {
            None => None,
            Some(Separator::Space) => Some(b' '),
            Some(Separator::LineEnd) => Some(b'\n'),
        };
        let departure = if expected_byte == Some(first[0]) {
            if length == 1 {
                return Ok(());
            }
            1
        } else {
            0
        };
        let found = first[departure];
        let problem = match found {
            b'\r' => Layout::CarriageReturn {
                before_line_feed: departure + 1 < length.min(3) && first[departure + 1] == b'\n',
            },
            b'\t' => Layout::Tab,
            b' ' => match (expected, departure) {
                (Some(Separator::Space), _) => Layout::ExtraSpace,
                (Some(Separator::LineEnd), 0) if has_line_feed || at_end => Layout::TrailingSpace,
                (Some(Separator::LineEnd), 0) => Layout::LineGoesOn,
                _ => Layout::LeadingSpace,
            },
            _ => match expected {
                Some(Separator::Space) => Layout::LineEndsEarly,
                _ => Layout::BlankLine,
            },
        };
        self.problems.push((spots[departure], problem));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layout break as line, column and kind.
    type Found = (u64, u64, Layout);

    /// Reads `input` as fields with the given separators, then finishes.
    fn read(input: &[u8], separators: &[Separator]) -> (Vec<Option<i64>>, Vec<Found>) {
        let mut reader = StrictReader::new(input);
        let mut values = Vec::new();
        for &separator in separators {
            match reader.field(separator).expect("in memory") {
                Some(field) => values.push(field.value),
                None => break,
            }
        }
        reader.finish().expect("in memory");
        let problems = reader
            .problems
            .into_iter()
            .map(|(spot, layout)| (spot.line, spot.column, layout))
            .collect();
        (values, problems)
    }

    use Separator::{LineEnd, Space};

    #[test]
    fn a_canonical_layout_reads_without_problems() {
        let (values, problems) = read(b"1\n3\n0 2 1\n", &[LineEnd, LineEnd, Space, Space, LineEnd]);
        assert_eq!(values, [Some(1), Some(3), Some(0), Some(2), Some(1)]);
        assert_eq!(problems, []);
    }

    #[test]
    fn each_whitespace_mistake_is_named_at_its_byte() {
        let move_line = [Space, Space, LineEnd];
        let cases: [(&[u8], Found); 8] = [
            (b"0  2 1\n", (1, 3, Layout::ExtraSpace)),
            (b"0 2 1 \n", (1, 6, Layout::TrailingSpace)),
            (b"0 2 1\n\n", (2, 1, Layout::BlankLine)),
            (
                b"0 2 1\r\n",
                (
                    1,
                    6,
                    Layout::CarriageReturn {
                        before_line_feed: true,
                    },
                ),
            ),
            (b"0\t2 1\n", (1, 2, Layout::Tab)),
            (b"0 2\n1\n", (1, 4, Layout::LineEndsEarly)),
            (b"0 2 1", (1, 6, Layout::MissingFinalNewline)),
            (b" 0 2 1\n", (1, 1, Layout::LeadingSpace)),
        ];
        for (input, expected) in cases {
            let (_, problems) = read(input, &move_line);
            assert_eq!(problems, [expected], "{:?}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn a_last_line_with_trailing_space_and_no_lf_breaks_two_rules() {
        let (_, problems) = read(b"7 ", &[LineEnd]);
        assert_eq!(
            problems,
            [
                (1, 2, Layout::TrailingSpace),
                (1, 3, Layout::MissingFinalNewline)
            ]
        );
    }

    #[test]
    fn non_canonical_integers_keep_their_value_and_junk_has_none() {
        let separators = [Space, Space, Space, Space, Space, LineEnd];
        let (values, problems) = read(b"007 +3 -0 -4 x1 99999999999999999999\n", &separators);
        assert_eq!(values, [Some(7), Some(3), Some(0), Some(-4), None, None]);
        let kinds: Vec<Layout> = problems.into_iter().map(|(_, _, kind)| kind).collect();
        assert_eq!(
            kinds,
            [
                Layout::LeadingZero("007".into()),
                Layout::Sign("+3".into()),
                Layout::Sign("-0".into()),
                Layout::NotInteger("x1".into()),
                Layout::TooLarge("99999999999999999999".into()),
            ]
        );
    }

    #[test]
    fn positions_survive_refills() {
        let mut input = Vec::new();
        for _ in 0..100_000 {
            input.extend_from_slice(b"12 34 5\n");
        }
        input.extend_from_slice(b"1  2 3\n");
        let mut reader = StrictReader::new(input.as_slice());
        for _ in 0..100_001 {
            for separator in [Space, Space, LineEnd] {
                reader.field(separator).expect("in memory");
            }
        }
        assert_eq!(
            reader.problems,
            [(
                Spot {
                    line: 100_001,
                    column: 3
                },
                Layout::ExtraSpace
            )]
        );
    }
}
