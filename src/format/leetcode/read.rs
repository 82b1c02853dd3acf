//! LeetCode's transcript format: per test case, an array of method names and an array of their arguments.
//!
//! ```text
//! ["TicTacToe","move","move"]
//! [[3],[0,0,1],[1,1,2]]
//! ```
//!
//! Several test cases may follow one another, with any whitespace (blank
//! lines included) between and inside the arrays. The reader streams: it
//! reads the method names, keeping only their count, then hands out the
//! moves one by one as their argument lists are read, over the same chunked
//! byte source as the Coding Ninjas reader. So memory does not grow with a
//! transcript's length, and a transcript costs about what the same games
//! cost as a Coding Ninjas file. It checks the format (names, arities,
//! integers, N in range, Q <= N x N) in the order the bytes come; the moves
//! themselves are the engine's to judge, as in the Coding Ninjas format,
//! and [`Reader::reject`] turns the engine's refusal into an error at the
//! right value.
//!
//! The grammar is JSON's, read for this one shape: what is not JSON is an
//! "invalid JSON" error at the byte where it stops being JSON, and a JSON
//! value of the wrong kind is named for what was expected.

use crate::error::{DataError, DataErrorKind, Error, InputName, Position, escape_unprintable, quote_token};
use crate::format::bytes::{Chunks, QUOTED, is_space};
use crate::format::lines::{BATCH, Moves};
use crate::game::{BoardSize, MoveError, MoveField};
use std::fmt;
use std::io::Read;

/// The constructor's name, which must open every test case.
pub const CONSTRUCTOR: &str = "TicTacToe";

/// The only method after the constructor.
pub const MOVE: &str = "move";


/// One of the two arrays of a test case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Array {
    /// The first: method names.
    MethodNames,
    /// The second: argument lists.
    Arguments,
}

impl fmt::Display for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Array::MethodNames => "the array of method names",
            Array::Arguments => "the array of argument lists",
        })
    }
}

/// What breaks the LeetCode format.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// Not JSON at all; serde_json's own words.
    #[error("invalid JSON: {0}")]
    Json(String),
    /// The input ended inside a test case.
    #[error("input ends early: expected {0}")]
    UnexpectedEnd(Array),
    /// A top-level value that is not an array.
    #[error("expected {0}, found {1}")]
    NotAnArray(Array, String),
    /// A method name that is not a JSON string.
    #[error("expected a method name (a JSON string), found {0}")]
    NotAName(String),
    /// The test case does not open with the constructor.
    #[error("the first method must be \"{CONSTRUCTOR}\", found {0}")]
    FirstMethod(String),
    /// A method other than `move` after the constructor.
    #[error("unknown method {0}: after \"{CONSTRUCTOR}\" every method must be \"{MOVE}\"")]
    UnknownMethod(String),
    /// An argument list that is not an array.
    #[error("expected the argument list of \"{method}\" (a JSON array), found {found}")]
    NotAnArgumentList {
        /// The method whose arguments these are.
        method: &'static str,
        /// The JSON found.
        found: String,
    },
    /// An argument list of the wrong length.
    #[error("\"{method}\" takes {expected} argument{}, found {found}", if *.expected == 1 { "" } else { "s" })]
    WrongArity {
        /// The method.
        method: &'static str,
        /// How many it takes.
        expected: usize,
        /// How many were given.
        found: usize,
    },
    /// The two arrays differ in length.
    #[error(
        "{methods} method name{} but {arguments} argument list{}: the two arrays must have the same length",
        if *.methods == 1 { "" } else { "s" },
        if *.arguments == 1 { "" } else { "s" }
    )]
    LengthMismatch {
        /// Method names.
        methods: u64,
        /// Argument lists.
        arguments: u64,
    },
}

/// A test case's header: what its two arrays' first entries say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseHeader {
    /// N, the constructor's argument.
    pub size: BoardSize,
    /// Q: the `move`s among the method names.
    pub moves: u64,
    /// Absolute offset of N, for messages about it.
    pub size_at: u64,
    /// Absolute offset of the method names, whose `move`s count Q.
    pub names_at: u64,
}

/// One `move` call as read, with where its arguments start for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocatedMove {
    /// ROW, not yet checked against the board.
    pub row: i64,
    /// COL, not yet checked.
    pub col: i64,
    /// PLAYER, not yet checked.
    pub player: i64,
    /// The 1-based number of the move in its case.
    pub number: u64,
    /// Absolute offsets of the row, column and player values.
    offsets: [u64; 3],
}

impl LocatedMove {
    /// Where a field's value starts.
    pub fn offset(&self, field: MoveField) -> u64 {
        match field {
            MoveField::Row => self.offsets[0],
            MoveField::Column => self.offsets[1],
            MoveField::Player => self.offsets[2],
        }
    }
}

/// Moves read by [`Reader::fill_batch`], with where they start.
#[derive(Default)]
pub struct MoveBatch {
    /// Row, column and player of each move; only the first `len` are read.
    moves: Moves,
    /// The buffer index of the first move's comma.
    from: usize,
    /// How many moves were read.
    len: usize,
    /// The 1-based number of the first move in its case.
    first: u64,
}

impl MoveBatch {
    /// The moves read: row, column, player.
    pub fn moves(&self) -> &[[u32; 3]] {
        &self.moves.0[..self.len]
    }
}

/// Bytes looked ahead at before reading a value: enough for any value of
/// the format written any usual way (a `move` name written with escapes
/// takes 26), so that values are read from buffered bytes and only space
/// makes the reader read in the middle of one.
const LOOKAHEAD: usize = 72;

/// A name's JSON text longer than this cannot be a method's name, however
/// escaped (`TicTacToe` as `\u` escapes takes 56 bytes).
const LONGEST_NAME: usize = 64;

/// A streaming reader of LeetCode test cases.
pub struct Reader<R> {
    chunks: Chunks<R>,
    name: InputName,
    /// Test cases read, or begun.
    case: u64,
    /// The current case's Q, and how many of its moves were read.
    moves: u64,
    read: u64,
    /// Whether the current case's argument lists are still open.
    open: bool,
    /// The pins of the current case itself (its names, N); those after
    /// them belong to the move being read and go when it is done.
    case_pins: usize,
    /// Offsets of the names of moves m^2 + 1 (m = 1, 2, ...): the first
    /// move that cannot fit on an m x m board, where a Q too large for N
    /// is reported once N is known. Their count is the square root of Q's.
    square_names: Vec<u64>,
}

/// What a value turned out to be, where an integer was expected.
enum Integer {
    Value(i64),
    Bad(DataErrorKind),
}

impl<R: Read> Reader<R> {
    /// A reader of `input`, called `name` in messages.
    pub fn new(input: R, name: InputName) -> Reader<R> {
        Reader::of_chunks(Chunks::new(input), name, 0)
    }

    /// A reader of test cases from `chunks`, which start where test case
    /// `cases_before + 1` starts (or whitespace before it): for the rest of
    /// an input, with positions and case numbers counted from its start.
    pub fn of_chunks(chunks: Chunks<R>, name: InputName, cases_before: u64) -> Reader<R> {
        Reader {
            chunks,
            name,
            case: cases_before,
            moves: 0,
            read: 0,
            open: false,
            case_pins: 0,
            square_names: Vec::new(),
        }
    }

    /// The reader's buffer, for reuse once reading is done.
    pub fn into_buffer(self) -> Vec<u8> {
        self.chunks.into_buffer()
    }

    /// The test cases read or begun, counting those before the reader's
    /// start.
    pub fn cases(&self) -> u64 {
        self.case
    }

    /// Reads the next test case's method names and its constructor's
    /// argument, or returns `None` when only whitespace is left. Its moves
    /// follow from [`next_move`](Self::next_move); those not read are read
    /// (and checked) here first.
    pub fn next_case(&mut self) -> Result<Option<CaseHeader>, Error> {
        while self.open {
            self.next_move()?;
        }
        self.chunks.unpin_all();
        self.square_names.clear();
        if let Some(header) = self.buffered_header() {
            return Ok(Some(header));
        }
        let Some(first) = self.peek(&[])? else {
            return Ok(None);
        };
        // Errors from here on name the case being read.
        self.case += 1;
        let names_at = self.here();
        if first != b'[' {
            let found = self.quote_value(&[]);
            return Err(self.error(names_at, None, FormatError::NotAnArray(Array::MethodNames, found).into()));
        }
        self.chunks.pin(names_at);
        self.chunks.pos += 1;
        self.moves = self.method_names(names_at)?;
        self.read = 0;
        let size_at_list = match self.peek(&[])? {
            Some(b'[') => self.here(),
            Some(_) => {
                let at = self.here();
                let found = self.quote_value(&[]);
                return Err(self.error(at, None, FormatError::NotAnArray(Array::Arguments, found).into()));
            }
            None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
        };
        self.chunks.pos += 1;
        self.open = true;
        match self.peek(&[size_at_list])? {
            Some(b'[') => {}
            Some(b']') => return Err(self.length_mismatch(self.here(), 0)),
            Some(_) => {
                let at = self.here();
                let found = self.quote_value(&[size_at_list]);
                let kind = FormatError::NotAnArgumentList { method: CONSTRUCTOR, found };
                return Err(self.error(at, None, kind.into()));
            }
            None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
        }
        let [(n, size_at)] = self.argument_list::<1>(CONSTRUCTOR, None)?;
        self.chunks.pin(size_at);
        self.case_pins = self.chunks.pins_mark();
        if self.moves == 0 {
            self.close_arguments(&[size_at])?;
        }
        let size = BoardSize::new(n).map_err(|bad| self.error(size_at, None, bad.into()))?;
        if self.moves > size.cells() {
            // Point at the first move that cannot fit: move N^2 + 1.
            let first_extra = size.cells() + 1;
            let at = self.square_names[size.get() as usize - 1];
            let kind = DataErrorKind::TooManyMoves {
                moves: self.moves,
                n: size.get(),
            };
            return Err(self.error(at, Some(first_extra), kind));
        }
        Ok(Some(CaseHeader {
            size,
            moves: self.moves,
            size_at,
            names_at,
        }))
    }

    /// The usual header, buffered whole: `["TicTacToe","move",...]`, then
    /// `[[N]` with N valid and at least one move, which fits. Short games
    /// make headers a large share of a transcript; read this way, they
    /// cost no token-by-token checks. Anything else is left to the general
    /// path, which says what is wrong.
    #[inline(always)]
    fn buffered_header(&mut self) -> Option<CaseHeader> {
        const NAMES: &[u8] = b"[\"TicTacToe\"";
        const MOVE_NAME: &[u8] = b",\"move\"";
        let bytes = self.chunks.bytes();
        let mut at = self.chunks.pos;
        while is_space(*bytes.get(at)?) {
            at += 1;
        }
        let names_start = at;
        if bytes.get(at..at + NAMES.len())? != NAMES {
            return None;
        }
        at += NAMES.len();
        let mut moves: u64 = 0;
        while bytes.get(at..at + MOVE_NAME.len()) == Some(MOVE_NAME) {
            moves += 1;
            at += MOVE_NAME.len();
        }
        if *bytes.get(at)? != b']' {
            return None;
        }
        at += 1;
        while is_space(*bytes.get(at)?) {
            at += 1;
        }
        if bytes.get(at..at + 2)? != b"[[" {
            return None;
        }
        at += 2;
        let size_start = at;
        // A JSON integer of N's size: no sign, no leading zero.
        let mut n: i64 = 0;
        while let Some(digit) = bytes.get(at).map(|byte| byte.wrapping_sub(b'0')).filter(|&digit| digit <= 9) {
            n = n * 10 + i64::from(digit);
            at += 1;
            if at - size_start > 10 {
                return None;
            }
        }
        if at == size_start || bytes[size_start] == b'0' || *bytes.get(at)? != b']' {
            return None;
        }
        let size = BoardSize::new(n).ok()?;
        if moves == 0 || moves > size.cells() {
            return None;
        }
        // What the general path leaves: the case begun, its names and N
        // pinned, its argument lists open after N's.
        let names_at = self.chunks.offset_of(names_start);
        let size_at = self.chunks.offset_of(size_start);
        self.chunks.pos = at + 1;
        self.case += 1;
        self.chunks.pin(names_at);
        self.chunks.pin(size_at);
        self.case_pins = self.chunks.pins_mark();
        self.moves = moves;
        self.read = 0;
        self.open = true;
        Some(CaseHeader {
            size,
            moves,
            size_at,
            names_at,
        })
    }

    /// Reads the current case's next move. Call it at most Q times. The
    /// last also reads the end of the case's argument lists: a case is
    /// whole once its last move is read.
    #[inline(always)]
    pub fn next_move(&mut self) -> Result<LocatedMove, Error> {
        let read = self.next_move_alone()?;
        if read.number == self.moves {
            self.close_arguments(&read.offsets)?;
        }
        Ok(read)
    }

    /// [`next_move`](Self::next_move) but for the end of the case.
    #[inline(always)]
    fn next_move_alone(&mut self) -> Result<LocatedMove, Error> {
        self.read += 1;
        let number = self.read;
        let bytes = self.chunks.bytes();
        let at = self.chunks.pos;
        // The usual shape: `,[R,C,P]` with no space.
        if let Some(([row, col, player], [col_at, player_at], end)) = compact_move(bytes, at) {
            self.chunks.pos = end;
            return Ok(LocatedMove {
                row: i64::from(row),
                col: i64::from(col),
                player: i64::from(player),
                number,
                offsets: [at + 2, col_at, player_at].map(|index| self.chunks.offset_of(index)),
            });
        }
        self.next_move_slowly(number)
    }

    /// Reads moves of the usual shape (`,[R,C,P]`, numbers of one or two
    /// digits, no space) while they are buffered, up to [`BATCH`], into
    /// `batch`; the case's last move only when the bracket that ends the
    /// case follows it at once (else [`next_move`] reads it with the end of
    /// the case). Returns how many; 0 means the next move is
    /// [`next_move`]'s. The moves' bytes stay buffered until the next read,
    /// so [`reject_in_batch`] can still point at them.
    ///
    /// Why: played in batches, a game keeps its sums in registers, as the
    /// Coding Ninjas path does.
    ///
    /// [`next_move`]: Self::next_move
    /// [`reject_in_batch`]: Self::reject_in_batch
    #[inline(always)]
    pub fn fill_batch(&mut self, batch: &mut MoveBatch) -> usize {
        let left = self.moves - self.read;
        let want = left.min(BATCH as u64) as usize;
        let bytes = self.chunks.bytes();
        let mut at = self.chunks.pos;
        let mut before = at;
        let mut got = 0;
        for slot in &mut batch.moves.0[..want] {
            let Some((fields, _, end)) = compact_move(bytes, at) else {
                break;
            };
            *slot = fields;
            got += 1;
            before = at;
            at = end;
        }
        if got as u64 == left {
            // The case's last move, taken only with the bracket that closes
            // the argument lists right after it: anything else there is
            // `next_move`'s to read and report.
            if bytes.get(at) == Some(&b']') {
                at += 1;
                self.open = false;
            } else {
                got -= 1;
                at = before;
            }
        }
        batch.from = self.chunks.pos;
        batch.first = self.read + 1;
        batch.len = got;
        self.chunks.pos = at;
        self.read += got as u64;
        got
    }

    /// The error for move `index` of `batch`, which the engine refused.
    #[cold]
    pub fn reject_in_batch(&self, batch: &MoveBatch, index: usize, why: MoveError) -> Error {
        self.reject(&self.locate_in_batch(batch, index), why)
    }

    /// Move `index` of `batch` with where its values start, for messages.
    /// The batch's moves are still buffered until the next read.
    #[cold]
    pub fn locate_in_batch(&self, batch: &MoveBatch, index: usize) -> LocatedMove {
        // Each move is `,[R,C,P]`: pass `index` of them, then find the
        // commas of this one.
        let bytes = self.chunks.bytes();
        let mut at = batch.from;
        for _ in 0..index {
            at += memchr::memchr(b']', &bytes[at..]).map_or(0, |close| close + 1);
        }
        let list = at + 2;
        let mut commas = memchr::memchr_iter(b',', &bytes[list..]).map(|comma| list + comma);
        let col = commas.next().map_or(list, |comma| comma + 1);
        let player = commas.next().map_or(list, |comma| comma + 1);
        let [row_value, col_value, player_value] = batch.moves()[index].map(i64::from);
        LocatedMove {
            row: row_value,
            col: col_value,
            player: player_value,
            number: batch.first + index as u64,
            offsets: [list, col, player].map(|index| self.chunks.offset_of(index)),
        }
    }

    /// [`next_move`](Self::next_move) for any other shape.
    #[cold]
    fn next_move_slowly(&mut self, number: u64) -> Result<LocatedMove, Error> {
        // The moves before are done with: their pins go, so that pins do
        // not pile up over a case read in small pieces.
        self.chunks.unpin_to(self.case_pins);
        match self.peek(&[])? {
            Some(b',') => self.chunks.pos += 1,
            Some(b']') => return Err(self.length_mismatch(self.here(), number)),
            Some(_) => return Err(self.json_error(self.here(), "expected `,` or `]`")),
            None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
        }
        match self.peek(&[])? {
            Some(b'[') => {}
            Some(b']') => return Err(self.json_error(self.here(), "expected value")),
            Some(_) => {
                let at = self.here();
                let found = self.quote_value(&[]);
                let kind = FormatError::NotAnArgumentList { method: MOVE, found };
                return Err(self.error(at, Some(number), kind.into()));
            }
            None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
        }
        let [(row, row_at), (col, col_at), (player, player_at)] =
            self.argument_list::<3>(MOVE, Some(number))?;
        Ok(LocatedMove {
            row,
            col,
            player,
            number,
            offsets: [row_at, col_at, player_at],
        })
    }

    /// Where an offset of the test case being read lies, named by that case
    /// and the given move.
    pub fn position(&self, offset: u64, r#move: Option<u64>) -> Position {
        let (line, column) = self.chunks.line_and_column(offset);
        Position {
            line,
            column,
            case: (self.case > 0).then_some(self.case),
            r#move,
        }
    }

    /// The error for a move the engine refused, at the value it is about.
    #[cold]
    pub fn reject(&self, refused: &LocatedMove, why: MoveError) -> Error {
        self.error(
            refused.offset(why.field()),
            Some(refused.number),
            why.into(),
        )
    }

    /// Reads the method names after the opening bracket, whose offset is
    /// `array_at`: checks them and returns how many `move`s there are.
    fn method_names(&mut self, array_at: u64) -> Result<u64, Error> {
        match self.peek(&[])? {
            Some(b']') => {
                let kind = FormatError::FirstMethod("an empty array".into());
                return Err(self.error(array_at, None, kind.into()));
            }
            Some(_) => {}
            None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::MethodNames))),
        }
        let first_at = self.here();
        if !self.name_is(CONSTRUCTOR, None)? {
            let found = self.quote_value(&[]);
            let kind = FormatError::FirstMethod(found);
            return Err(self.error(first_at, None, kind.into()));
        }
        self.skip_value(&[])?;
        let mut moves: u64 = 0;
        // The next move whose name's offset is kept: m^2 + 1.
        let mut root: u64 = 1;
        let mut next_square = 2;
        loop {
            // The usual shape: `,"move"` after `,"move"`.
            let mut at = self.chunks.pos;
            while self.chunks.bytes().get(at..at + 7) == Some(b",\"move\"") {
                moves += 1;
                if moves == next_square {
                    let name_at = self.chunks.offset_of(at + 1);
                    self.square_names.push(name_at);
                    self.chunks.pin(name_at);
                    root += 1;
                    next_square = root * root + 1;
                }
                at += 7;
            }
            self.chunks.pos = at;
            match self.peek(&[])? {
                Some(b']') => {
                    self.chunks.pos += 1;
                    return Ok(moves);
                }
                Some(b',') => self.chunks.pos += 1,
                Some(_) => return Err(self.json_error(self.here(), "expected `,` or `]`")),
                None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::MethodNames))),
            }
            let number = moves + 1;
            match self.peek(&[])? {
                Some(b']') => return Err(self.json_error(self.here(), "expected value")),
                Some(_) => {}
                None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::MethodNames))),
            }
            let at = self.here();
            if !self.name_is(MOVE, Some(number))? {
                let found = self.quote_value(&[]);
                let kind = FormatError::UnknownMethod(found);
                return Err(self.error(at, Some(number), kind.into()));
            }
            self.skip_value(&[])?;
            moves = number;
            if moves == next_square {
                self.square_names.push(at);
                self.chunks.pin(at);
                root += 1;
                next_square = root * root + 1;
            }
        }
    }

    /// Whether the method name at the reading position, which is not
    /// consumed, is `expected` (false for a string too long to be a name);
    /// an error if it is not a JSON string. Compared where it lies, with no
    /// string made: a transcript of short games has a name to check a case.
    fn name_is(&mut self, expected: &str, number: Option<u64>) -> Result<bool, Error> {
        self.look_ahead(LOOKAHEAD, &[]);
        let bytes = &self.chunks.bytes()[self.chunks.pos..];
        let at = self.here();
        if bytes.first() != Some(&b'"') {
            let found = self.quote_value(&[]);
            return Err(self.error(at, number, FormatError::NotAName(found).into()));
        }
        let Some(length) = string_length(&bytes[..bytes.len().min(LONGEST_NAME)]) else {
            if bytes.len() < LONGEST_NAME && self.chunks.at_eof() {
                // The string is cut by the end of the input.
                return Err(self.at_end(FormatError::UnexpectedEnd(Array::MethodNames)));
            }
            return Ok(false);
        };
        let text = &bytes[..length];
        if !text.contains(&b'\\') && &text[1..length - 1] == expected.as_bytes() {
            return Ok(true);
        }
        // Not the name as it stands: a string that is no JSON string (a raw
        // control character such as a line break, bytes that are not UTF-8,
        // a bad escape) is invalid JSON, at its first byte that breaks it.
        let refused = match serde_json::from_slice::<String>(text) {
            Ok(name) => return Ok(name == expected),
            // serde_json stops at the byte it refuses, but counts a line
            // feed it refused as a line ended.
            Err(error) if error.line() > 1 => (
                text.iter().position(|&byte| byte == b'\n').unwrap_or_default(),
                json_message(&error),
            ),
            Err(error) => (error.column().saturating_sub(1), json_message(&error)),
        };
        // It finds bytes that are not UTF-8 only once the string is whole.
        let (index, message) = match std::str::from_utf8(text) {
            Err(bad) if bad.valid_up_to() < refused.0 => {
                (bad.valid_up_to(), "invalid unicode code point".to_owned())
            }
            _ => refused,
        };
        Err(self.json_error_in(at + index as u64, number, &message))
    }

    /// Reads an argument list of `K` integers at the reading position (an
    /// opening bracket) and returns them with their offsets.
    fn argument_list<const K: usize>(
        &mut self,
        method: &'static str,
        number: Option<u64>,
    ) -> Result<[(i64, u64); K], Error> {
        let list_at = self.here();
        self.chunks.pos += 1;
        let mut values = [(0, 0); K];
        // The first integer error, reported once the arity is known right.
        let mut bad: Option<(u64, DataErrorKind)> = None;
        let mut found: u64 = 0;
        let mut held = [list_at; 4];
        loop {
            let holding = &held[..=(found as usize).min(K)];
            match self.peek(holding)? {
                Some(b']') if found == 0 => {
                    self.chunks.pos += 1;
                    break;
                }
                Some(_) if found == 0 => {}
                Some(b']') => {
                    self.chunks.pos += 1;
                    break;
                }
                Some(b',') => {
                    self.chunks.pos += 1;
                    match self.peek(holding)? {
                        Some(b']') => return Err(self.json_error_in(self.here(), number, "expected value")),
                        Some(_) => {}
                        None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
                    }
                }
                Some(_) => return Err(self.json_error_in(self.here(), number, "expected `,` or `]`")),
                None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
            }
            let at = self.here();
            let index = found as usize;
            found += 1;
            if index >= K {
                self.skip_value(holding)?;
                continue;
            }
            held[index + 1] = at;
            let holding = &held[..index + 2];
            match self.integer(holding)? {
                Integer::Value(value) => values[index] = (value, at),
                Integer::Bad(kind) => {
                    bad.get_or_insert((at, kind));
                    self.skip_value(holding)?;
                }
            }
        }
        if found != K as u64 {
            let kind = FormatError::WrongArity {
                method,
                expected: K,
                found: found as usize,
            };
            return Err(self.error(list_at, number, kind.into()));
        }
        if let Some((at, kind)) = bad {
            return Err(self.error(at, number, kind));
        }
        Ok(values)
    }

    /// Reads the integer at the reading position. A value that is not one
    /// is left unread, for [`skip_value`](Self::skip_value).
    fn integer(&mut self, held: &[u64]) -> Result<Integer, Error> {
        self.look_ahead(QUOTED + 2, held);
        let bytes = &self.chunks.bytes()[self.chunks.pos..];
        let end = bytes
            .iter()
            .position(|&byte| is_space(byte) || matches!(byte, b',' | b']' | b'[' | b'{' | b'}' | b'"'))
            .unwrap_or(bytes.len());
        let token = &bytes[..end];
        let goes_on = end == bytes.len() && !self.chunks.at_eof();
        let digits = token.strip_prefix(b"-").unwrap_or(token);
        let plain = !digits.is_empty() && digits.iter().all(u8::is_ascii_digit);
        // JSON writes no leading zero: `0`, `-0` and `12`, never `012`.
        let json = plain && (digits[0] != b'0' || digits.len() == 1);
        if json && !goes_on {
            if let Some(value) = std::str::from_utf8(token).ok().and_then(|text| text.parse::<i64>().ok()) {
                self.chunks.pos += end;
                return Ok(Integer::Value(value));
            }
            let text = quote_token(&token[..token.len().min(QUOTED)], token.len() > QUOTED);
            return Ok(Integer::Bad(DataErrorKind::TooLarge(text)));
        }
        if json {
            // Longer than any i64, and still going.
            let text = quote_token(&token[..token.len().min(QUOTED)], true);
            return Ok(Integer::Bad(DataErrorKind::TooLarge(text)));
        }
        let found = self.raw_value(held);
        Ok(Integer::Bad(DataErrorKind::NotInteger(found)))
    }

    /// After a case's moves: the closing bracket of its argument lists, or
    /// the error for the lists too many.
    fn close_arguments(&mut self, held: &[u64]) -> Result<(), Error> {
        self.open = false;
        match self.peek(held)? {
            Some(b']') => {
                self.chunks.pos += 1;
                return Ok(());
            }
            Some(b',') => self.chunks.pos += 1,
            Some(_) => return Err(self.json_error(self.here(), "expected `,` or `]`")),
            None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
        }
        // Count the lists too many, for the message; it points at the first.
        let mut extra: u64 = 0;
        let mut first_at = None;
        loop {
            let held: &[u64] = first_at.as_slice();
            match self.peek(held)? {
                Some(b']') => return Err(self.json_error(self.here(), "expected value")),
                Some(_) => {}
                None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
            }
            let at = *first_at.get_or_insert(self.here());
            self.chunks.pin(at);
            self.skip_value(&[at])?;
            extra += 1;
            match self.peek(&[at])? {
                Some(b']') => {
                    let kind = FormatError::LengthMismatch {
                        methods: self.moves + 1,
                        arguments: self.moves + 1 + extra,
                    };
                    return Err(self.error(at, None, kind.into()));
                }
                Some(b',') => self.chunks.pos += 1,
                Some(_) => return Err(self.json_error(self.here(), "expected `,` or `]`")),
                None => return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments))),
            }
        }
    }

    /// The error for argument lists that end, at `at`, after `read` of them.
    #[cold]
    fn length_mismatch(&self, at: u64, read: u64) -> Error {
        let kind = FormatError::LengthMismatch {
            methods: self.moves + 1,
            arguments: read,
        };
        self.error(at, None, kind.into())
    }

    /// Skips one JSON value at the reading position, however long, in
    /// constant memory: a string (escapes and all) or a run of other bytes
    /// up to a separator, with the brackets and braces inside it balanced.
    /// Its syntax is not checked further: it is read only to be counted or
    /// passed over on the way to an error.
    fn skip_value(&mut self, held: &[u64]) -> Result<(), Error> {
        let mut scanner = ValueScanner::default();
        loop {
            let bytes = &self.chunks.bytes()[self.chunks.pos..];
            if let Some(length) = scanner.scan(bytes) {
                self.chunks.pos += length;
                return Ok(());
            }
            self.chunks.pos += bytes.len();
            if !self.more(held)? {
                return Ok(());
            }
        }
    }

    /// Skips space; the next byte, which is not consumed, or `None` at the
    /// end of the input. Bytes before the reading position are let go of
    /// as it reads, keeping the places of the offsets `held`.
    #[inline(always)]
    fn peek(&mut self, held: &[u64]) -> Result<Option<u8>, Error> {
        loop {
            let bytes = self.chunks.bytes();
            let mut at = self.chunks.pos;
            while at < bytes.len() && is_space(bytes[at]) {
                at += 1;
            }
            let next = bytes.get(at).copied();
            self.chunks.pos = at;
            if next.is_some() {
                return Ok(next);
            }
            if !self.more(held)? {
                return Ok(None);
            }
        }
    }

    /// Reads more input, letting go of the bytes before the reading
    /// position but keeping the places of `held`. False at the end.
    #[cold]
    fn more(&mut self, held: &[u64]) -> Result<bool, Error> {
        for &offset in held {
            self.chunks.pin(offset);
        }
        self.chunks.keep = self.chunks.pos;
        self.chunks.refill().map_err(|source| Error::Read {
            input: self.name.clone(),
            source,
        })
    }

    /// Reads until `want` bytes past the reading position are buffered, or
    /// the input ends. A read error is left for the next read to report.
    #[inline(always)]
    fn look_ahead(&mut self, want: usize, held: &[u64]) {
        while self.chunks.end - self.chunks.pos < want && !self.chunks.at_eof() {
            if !matches!(self.more(held), Ok(true)) {
                break;
            }
        }
    }

    /// The JSON value at the reading position as a message quotes it in
    /// JSON's syntax: [`raw_value`](Self::raw_value) with what a terminal
    /// would act on escaped (the value is not JSON yet: it may hold raw
    /// control bytes).
    fn quote_value(&mut self, held: &[u64]) -> String {
        escape_unprintable(&self.raw_value(held))
    }

    /// The JSON value at the reading position, up to its end or [`QUOTED`]
    /// bytes, as it is: for a message that quotes it with `{:?}`.
    fn raw_value(&mut self, held: &[u64]) -> String {
        self.look_ahead(QUOTED + 1, held);
        let bytes = &self.chunks.bytes()[self.chunks.pos..];
        let window = &bytes[..bytes.len().min(QUOTED + 1)];
        // A lone separator (`]` where a value should be) is quoted itself.
        let length = value_length(window).max(window.len().min(1));
        let goes_on = length > QUOTED || (length == window.len() && window.len() < bytes.len());
        let length = length.min(QUOTED);
        quote_token(&window[..length], goes_on || (length == QUOTED && !self.chunks.at_eof() && bytes.len() > QUOTED))
    }

    /// The absolute offset of the reading position.
    #[inline(always)]
    fn here(&self) -> u64 {
        self.chunks.offset_of(self.chunks.pos)
    }

    #[cold]
    fn json_error(&self, offset: u64, message: &str) -> Error {
        self.json_error_in(offset, None, message)
    }

    /// [`json_error`](Self::json_error) inside the argument list of move
    /// `number` (none for the constructor's), which the message names.
    #[cold]
    fn json_error_in(&self, offset: u64, number: Option<u64>, message: &str) -> Error {
        self.error(offset, number, FormatError::Json(message.to_owned()).into())
    }

    /// An error at the end of the input.
    #[cold]
    fn at_end(&self, kind: FormatError) -> Error {
        let end = self.chunks.offset_of(self.chunks.end);
        self.error(end, None, kind.into())
    }

    #[cold]
    fn error(&self, offset: u64, r#move: Option<u64>, kind: DataErrorKind) -> Error {
        Error::Data {
            input: self.name.clone(),
            error: DataError {
                position: self.position(offset, r#move),
                kind,
            },
        }
    }
}

/// A move written the usual way at `bytes[at..]`, `,[R,C,P]` with no space
/// and numbers as JSON writes them (no sign, no leading zero, at most nine
/// digits): the fields, where the column and the player start, and where
/// the move ends. `None` for anything else, or a move not wholly buffered:
/// the general reader takes it.
#[inline(always)]
fn compact_move(bytes: &[u8], at: usize) -> Option<([u32; 3], [usize; 2], usize)> {
    if bytes.get(at..at + 2)? != b",[" {
        return None;
    }
    let mut pos = at + 2;
    let mut fields = [0u32; 3];
    let mut starts = [0usize; 3];
    for (index, field) in fields.iter_mut().enumerate() {
        let start = pos;
        let mut value: u32 = 0;
        while let Some(&byte) = bytes.get(pos) {
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            // A tenth digit sends the move to the general reader, before
            // it could carry the value past `u32`.
            if pos - start == 9 {
                return None;
            }
            value = value * 10 + u32::from(digit);
            pos += 1;
        }
        let digits = pos - start;
        if digits == 0 || (digits > 1 && bytes[start] == b'0') {
            return None;
        }
        let separator = if index < 2 { b',' } else { b']' };
        if *bytes.get(pos)? != separator {
            return None;
        }
        pos += 1;
        *field = value;
        starts[index] = start;
    }
    Some((fields, [starts[1], starts[2]], pos))
}

/// The length of the JSON string `bytes` starts with, closing quote
/// included, if it ends within them.
fn string_length(bytes: &[u8]) -> Option<usize> {
    let mut escaped = false;
    for (index, &byte) in bytes.iter().enumerate().skip(1) {
        match byte {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'"' => return Some(index + 1),
            _ => {}
        }
    }
    None
}

/// The length of the JSON value `bytes` starts with, as far as `bytes`
/// goes: a string, a bracketed value, or a run of other bytes up to a
/// space or separator.
fn value_length(bytes: &[u8]) -> usize {
    ValueScanner::default().scan(bytes).unwrap_or(bytes.len())
}

/// Finds where a JSON value ends, a buffered run at a time: a string
/// (escapes and all), or a run of other bytes up to a space or separator,
/// with the brackets and braces inside it balanced. Syntax is not checked.
#[derive(Default)]
struct ValueScanner {
    depth: u64,
    in_string: bool,
    escaped: bool,
}

impl ValueScanner {
    /// Scans on through `bytes`: the length of the value's part in them if
    /// it ends there, else `None`, to be called again with what follows.
    fn scan(&mut self, bytes: &[u8]) -> Option<usize> {
        for (index, &byte) in bytes.iter().enumerate() {
            if self.in_string {
                match byte {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => {
                        self.in_string = false;
                        if self.depth == 0 {
                            return Some(index + 1);
                        }
                    }
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'[' | b'{' => self.depth += 1,
                b']' | b'}' | b',' if self.depth == 0 => return Some(index),
                b']' | b'}' => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return Some(index + 1);
                    }
                }
                _ if self.depth == 0 && is_space(byte) => return Some(index),
                _ => {}
            }
        }
        None
    }
}

/// serde_json's words for an error, without the position it appends.
fn json_message(error: &serde_json::Error) -> String {
    let message = error.to_string();
    match message.rsplit_once(" at line ") {
        Some((what, _)) => what.to_owned(),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case's N and moves.
    type ReadCase = (u32, Vec<(i64, i64, i64)>);

    /// Each case's N and moves, or the first error.
    fn read_all(input: &str) -> Result<Vec<ReadCase>, String> {
        let mut reader = Reader::new(input.as_bytes(), InputName::Stdin);
        let mut cases = Vec::new();
        let mut read = || -> Result<(), Error> {
            while let Some(case) = reader.next_case()? {
                let moves = (0..case.moves)
                    .map(|_| reader.next_move().map(|m| (m.row, m.col, m.player)))
                    .collect::<Result<_, _>>()?;
                cases.push((case.size.get(), moves));
            }
            Ok(())
        };
        read().map_err(|error| error.to_string())?;
        Ok(cases)
    }

    #[test]
    fn the_usual_header_is_read_as_the_general_path_reads_it() {
        // The first case of each input takes the buffered path; the same
        // case spaced out (second input) takes the general one.
        let usual = "\n[\"TicTacToe\",\"move\",\"move\"]\n[[3],[0,0,1],[1,1,2]]\n";
        let spaced = "\n[\"TicTacToe\" ,\"move\",\"move\"]\n[[3],[0,0,1],[1,1,2]]\n";
        let header = |input: &str| {
            let mut reader = Reader::new(input.as_bytes(), InputName::Stdin);
            let case = reader.next_case().expect("valid").expect("a case");
            let first = reader.next_move().expect("valid");
            (case.size, case.moves, case.names_at, case.size_at, first.offsets)
        };
        let (size, moves, names_at, size_at, offsets) = header(usual);
        assert_eq!((size.get(), moves, names_at, size_at), (3, 2, 1, 31));
        let (_, _, spaced_names_at, spaced_size_at, spaced_offsets) = header(spaced);
        assert_eq!((spaced_names_at, spaced_size_at), (names_at, size_at + 1));
        assert_eq!(spaced_offsets.map(|at| at - 1), offsets);
    }

    #[test]
    fn several_cases_stream_with_blank_lines_and_spaces_between() {
        let cases =
            read_all("[\"TicTacToe\", \"move\"]\n[[3], [0, 0, 1]]\n\n\n[\"TicTacToe\"]\r\n[[1]]\n")
                .expect("valid");
        assert_eq!(cases, [(3, vec![(0, 0, 1)]), (1, vec![])]);
    }

    #[test]
    fn empty_input_holds_no_cases() {
        assert_eq!(read_all(" \n\n").expect("valid").len(), 0);
    }

    #[test]
    fn errors_point_at_the_offending_value() {
        let cases = [
            (
                "[\"TicTacToe\",\"move\"]\n[[3],[0,0]]",
                "line 2, column 6: case 1, move 1: \"move\" takes 3 arguments, found 2",
            ),
            (
                "[\"TicTacToe\",\"mvoe\"]\n[[3],[0,0,1]]",
                "line 1, column 14: case 1, move 1: unknown method \"mvoe\": after \"TicTacToe\" \
                 every method must be \"move\"",
            ),
            (
                "\n  [\"Board\"]\n[[3]]",
                "line 2, column 4: case 1: the first method must be \"TicTacToe\", found \"Board\"",
            ),
            (
                "[\"TicTacToe\",\"move\"]\n[[3]]",
                "line 2, column 5: case 1: 2 method names but 1 argument list: the two arrays \
                 must have the same length",
            ),
            (
                "[\"TicTacToe\"]\n[[3],\n [0,0,1]]",
                "line 3, column 2: case 1: 1 method name but 2 argument lists: the two arrays \
                 must have the same length",
            ),
            (
                "[\"TicTacToe\",\"move\"]\n[[3],[0,1.5,1]]",
                "line 2, column 9: case 1, move 1: expected an integer, found \"1.5\"",
            ),
            (
                "[\"TicTacToe\"]\n[[0]]",
                "line 2, column 3: case 1: board size N must be between 1 and 1000000000, found 0",
            ),
            (
                "[\"TicTacToe\"]\n[[3]\n",
                "line 3, column 1: case 1: input ends early: expected the array of argument lists",
            ),
            (
                "[\"TicTacToe\"]\n",
                "line 2, column 1: case 1: input ends early: expected the array of argument lists",
            ),
            (
                "[\"TicTacToe\"]\n[[3]]\n[\"TicTacToe\",",
                "line 3, column 14: case 2: input ends early: expected the array of method names",
            ),
            (
                "[\"TicTacToe\",\"mo",
                "line 1, column 17: case 1: input ends early: expected the array of method names",
            ),
            (
                "[\"TicTacToe\",\"move\"]\n[[3],[0,0,1]]]",
                "line 2, column 14: case 2: expected the array of method names, found ]",
            ),
            (
                "[\"TicTacToe\"]\n[[3]]\n [ ]\n[]",
                "line 3, column 2: case 2: the first method must be \"TicTacToe\", found an empty array",
            ),
            (
                "[\"TicTacToe\"]\n[[3]]\n[\"TicTacToe\" \"move\"]",
                "line 3, column 14: case 2: invalid JSON: expected `,` or `]`",
            ),
            // A name that is no JSON string is invalid JSON at the byte
            // that breaks it, not an unknown method.
            (
                "[\"TicTacToe\",\"move\n[\"TicTacToe\",\"move\"]\n[[3],[0,0,1]]",
                "line 1, column 19: case 1, move 1: invalid JSON: control character \
                 (\\u0000-\\u001F) found while parsing a string",
            ),
            (
                "[\"Tic\tTacToe\"]\n[[3]]",
                "line 1, column 6: case 1: invalid JSON: control character (\\u0000-\\u001F) \
                 found while parsing a string",
            ),
            (
                "[\"TicTacToe\",\"mo\\x\"]\n[[3],[0,0,1]]",
                "line 1, column 18: case 1, move 1: invalid JSON: invalid escape",
            ),
            // The first of two defects.
            (
                "[\"TicTacToe\",\"mo\\x\t\"]\n[[3],[0,0,1]]",
                "line 1, column 18: case 1, move 1: invalid JSON: invalid escape",
            ),
            (
                "[\"TicTacToe\",\"\\ud800\"]\n[[3],[0,0,1]]",
                "line 1, column 21: case 1, move 1: invalid JSON: unexpected end of hex escape",
            ),
            (
                "[\"TicTacToe\",\"move\",\"move\"]\n[[1],[0,0,1],[0,0,2]]",
                "line 1, column 21: case 1, move 2: 2 moves cannot fit on a 1 x 1 board: Q must be \
                 at most 1",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(
                read_all(input).err().as_deref(),
                Some(expected),
                "{input:?}"
            );
        }
    }

    #[test]
    fn rejected_moves_name_the_case_move_and_value() {
        let input =
            "[\"TicTacToe\"]\n[[2]]\n[\"TicTacToe\",\"move\",\"move\"]\n[[2],[0,0,1],\n  [1,1,3]]";
        let mut reader = Reader::new(input.as_bytes(), InputName::Stdin);
        reader.next_case().expect("valid").expect("a case");
        reader.next_case().expect("valid").expect("a case");
        reader.next_move().expect("valid");
        let second = reader.next_move().expect("valid");
        let error = reader.reject(&second, MoveError::BadPlayer(3));
        assert_eq!(
            error.to_string(),
            "line 5, column 8: case 2, move 2: player must be 1 or 2, found 3"
        );
    }

    /// Hands out its bytes a few at a time, as a pipe written in small
    /// pieces does.
    struct Trickle<'a>(&'a [u8]);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let count = buf.len().min(self.0.len()).min(3);
            buf[..count].copy_from_slice(&self.0[..count]);
            self.0 = &self.0[count..];
            Ok(count)
        }
    }

    #[test]
    fn pins_do_not_pile_up_over_a_case_read_in_small_pieces() {
        let moves = 20_000;
        let mut text = String::from("[\"TicTacToe\"");
        text.push_str(&",\"move\"".repeat(moves));
        text.push_str("]\n[[1000]");
        for k in 0..moves {
            text.push_str(&format!(",[{},{},{}]", k / 1000, k % 1000, 1 + k % 2));
        }
        text.push_str("]\n");
        let mut reader = Reader::new(Trickle(text.as_bytes()), InputName::Stdin);
        let case = reader.next_case().expect("valid").expect("a case");
        let case_pins = reader.chunks.pins_mark();
        for _ in 0..case.moves {
            reader.next_move().expect("valid");
            assert!(reader.chunks.pins_mark() <= case_pins + 4);
        }
    }
}
