//! LeetCode's transcript format: per test case, an array of method names and an array of their arguments.
//!
//! ```text
//! ["TicTacToe","move","move"]
//! [[3],[0,0,1],[1,1,2]]
//! ```
//!
//! Several test cases may follow one another, with any whitespace (blank
//! lines included) between and inside the arrays. serde_json's streaming
//! deserializer splits the input into top-level values without reading it
//! whole; each array is kept as raw JSON text, so that every element can be
//! pointed at by line and column when it breaks a rule. The reader checks the
//! format (names, arities, integers, N in range, Q <= N x N); the moves
//! themselves are the engine's to judge, as in the Coding Ninjas format, and
//! [`Reader::reject`] turns the engine's refusal into an error at the right
//! value.

use crate::error::{DataError, DataErrorKind, Error, InputName, Position};
use crate::game::{BoardSize, MoveError, MoveField};
use crate::format::bytes::QUOTED;
use serde_json::de::IoRead;
use serde_json::value::RawValue;
use serde_json::{Deserializer, StreamDeserializer};
use std::cell::RefCell;
use std::fmt;
use std::io::{self, BufReader, Read};
use std::rc::Rc;

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
        "{methods} method names but {arguments} argument lists: the two arrays must have the same length"
    )]
    LengthMismatch {
        /// Method names.
        methods: usize,
        /// Argument lists.
        arguments: usize,
    },
}

/// A test case, read and checked for format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// N, the constructor's argument.
    pub size: BoardSize,
    /// The moves in order.
    pub moves: Vec<LocatedMove>,
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

/// Where the newlines of the input are, for turning offsets into lines and
/// columns. Only the newlines of the test case in progress are kept.
#[derive(Debug, Default)]
struct LineLog {
    /// Bytes read so far.
    read: u64,
    /// Absolute offsets of the newlines not yet forgotten, in order.
    newlines: Vec<u64>,
    /// Newlines forgotten.
    lines_before: u64,
    /// Absolute offset of the line after the last forgotten newline.
    line_start_before: u64,
}

impl LineLog {
    fn record(&mut self, bytes: &[u8]) {
        let read = self.read;
        self.newlines
            .extend(memchr::memchr_iter(b'\n', bytes).map(|at| read + at as u64));
        self.read += bytes.len() as u64;
    }

    fn forget_before(&mut self, offset: u64) {
        let gone = self.newlines.partition_point(|&at| at < offset);
        if gone > 0 {
            self.line_start_before = self.newlines[gone - 1] + 1;
            self.lines_before += gone as u64;
            self.newlines.drain(..gone);
        }
    }

    /// 1-based line and byte column of an offset not yet forgotten.
    fn line_and_column(&self, offset: u64) -> (u64, u64) {
        let before = self.newlines.partition_point(|&at| at < offset);
        let line_start = match before {
            0 => self.line_start_before,
            _ => self.newlines[before - 1] + 1,
        };
        (
            self.lines_before + before as u64 + 1,
            offset.saturating_sub(line_start) + 1,
        )
    }
}

/// Passes reads through, logging where the newlines are.
struct Tracked<R> {
    inner: R,
    log: Rc<RefCell<LineLog>>,
}

impl<R: Read> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.log.borrow_mut().record(&buf[..read]);
        Ok(read)
    }
}

type Values<R> = StreamDeserializer<'static, IoRead<BufReader<Tracked<R>>>, Box<RawValue>>;

/// A streaming reader of LeetCode test cases.
pub struct Reader<R: Read> {
    values: Values<R>,
    log: Rc<RefCell<LineLog>>,
    name: InputName,
    /// Test cases read, or begun.
    case: u64,
}

/// A top-level array as read: its JSON text and where that text starts.
struct Located {
    raw: Box<RawValue>,
    start: u64,
}

impl<R: Read> Reader<R> {
    /// A reader of `input`, called `name` in messages.
    pub fn new(input: R, name: InputName) -> Reader<R> {
        let log = Rc::new(RefCell::new(LineLog::default()));
        let tracked = Tracked {
            inner: input,
            log: Rc::clone(&log),
        };
        // serde_json reads byte by byte: the buffer keeps that off the input.
        let values = Deserializer::from_reader(BufReader::new(tracked)).into_iter();
        Reader {
            values,
            log,
            name,
            case: 0,
        }
    }

    /// Reads the next test case, or returns `None` when only whitespace is left.
    pub fn next_case(&mut self) -> Result<Option<Case>, Error> {
        let done = self.values.byte_offset() as u64;
        self.log.borrow_mut().forget_before(done);
        // Errors from here on name the case being read.
        self.case += 1;
        let Some(names) = self.next_array(Array::MethodNames)? else {
            self.case -= 1;
            return Ok(None);
        };
        let names_at = names.start;
        let names = self.elements(&names, Array::MethodNames)?;
        let moves = self.check_names(&names, names_at)?;
        let Some(arguments) = self.next_array(Array::Arguments)? else {
            return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments)));
        };
        let arguments = self.elements(&arguments, Array::Arguments)?;
        if arguments.len() != names.len() {
            // Point at the first argument list too many, or at the closing
            // bracket where the missing ones should be.
            let at = match arguments.get(names.len()) {
                Some(&(_, extra)) => extra,
                None => self.values.byte_offset() as u64 - 1,
            };
            let kind = FormatError::LengthMismatch {
                methods: names.len(),
                arguments: arguments.len(),
            };
            return Err(self.error(at, None, kind.into()));
        }
        // Both arrays hold the constructor's entry: the names were checked.
        let Some((&(constructor, constructor_at), lists)) = arguments.split_first() else {
            return Err(self.at_end(FormatError::UnexpectedEnd(Array::Arguments)));
        };
        let [(n, n_at)] = self.arguments_of(constructor, constructor_at, CONSTRUCTOR, None)?;
        let size = BoardSize::new(n).map_err(|bad| self.error(n_at, None, bad.into()))?;
        if moves as u64 > size.cells() {
            // Point at the first move that cannot fit.
            let first_extra = size.cells() + 1;
            let at = names.get(first_extra as usize).map_or(n_at, |&(_, at)| at);
            let kind = DataErrorKind::TooManyMoves {
                moves: moves as u64,
                n: size.get(),
            };
            return Err(self.error(at, Some(first_extra), kind));
        }
        let mut played = Vec::with_capacity(moves);
        for (number, &(list, at)) in (1..).zip(lists) {
            let [row, col, player] = self.arguments_of(list, at, MOVE, Some(number))?;
            played.push(LocatedMove {
                row: row.0,
                col: col.0,
                player: player.0,
                number,
                offsets: [row.1, col.1, player.1],
            });
        }
        Ok(Some(Case {
            size,
            moves: played,
            size_at: n_at,
            names_at,
        }))
    }

    /// Where an offset of the test case just read lies, named by that case
    /// and the given move.
    pub fn position(&self, offset: u64, r#move: Option<u64>) -> Position {
        let (line, column) = self.log.borrow().line_and_column(offset);
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

    /// The next top-level value, which must be an array; `None` at the end
    /// of input.
    fn next_array(&mut self, expected: Array) -> Result<Option<Located>, Error> {
        match self.values.next() {
            None => Ok(None),
            Some(Ok(raw)) => {
                let end = self.values.byte_offset() as u64;
                let start = end - raw.get().len() as u64;
                Ok(Some(Located { raw, start }))
            }
            Some(Err(error)) => Err(self.json_error(error, expected)),
        }
    }

    /// The elements of a top-level array with their absolute offsets.
    fn elements<'a>(
        &self,
        array: &'a Located,
        what: Array,
    ) -> Result<Vec<(&'a RawValue, u64)>, Error> {
        let text = array.raw.get();
        let items: Vec<&RawValue> = serde_json::from_str(text).map_err(|_| {
            self.error(
                array.start,
                None,
                FormatError::NotAnArray(what, quote(text)).into(),
            )
        })?;
        Ok(items
            .into_iter()
            .map(|item| (item, array.start + offset_within(text, item.get())))
            .collect())
    }

    /// Checks the method names, whose array starts at `array_at`; returns
    /// the number of moves.
    fn check_names(&self, names: &[(&RawValue, u64)], array_at: u64) -> Result<usize, Error> {
        let Some(&(first, first_at)) = names.first() else {
            let kind = FormatError::FirstMethod("an empty array".into());
            return Err(self.error(array_at, None, kind.into()));
        };
        let name = |raw: &RawValue, at: u64, number: Option<u64>| {
            serde_json::from_str::<String>(raw.get())
                .map_err(|_| self.error(at, number, FormatError::NotAName(quote(raw.get())).into()))
        };
        if name(first, first_at, None)? != CONSTRUCTOR {
            let kind = FormatError::FirstMethod(quote(first.get()));
            return Err(self.error(first_at, None, kind.into()));
        }
        for (index, &(raw, at)) in names.iter().enumerate().skip(1) {
            let number = Some(index as u64);
            if name(raw, at, number)? != MOVE {
                let kind = FormatError::UnknownMethod(quote(raw.get()));
                return Err(self.error(at, number, kind.into()));
            }
        }
        Ok(names.len() - 1)
    }

    /// The `K` integers of one argument list, with their offsets.
    fn arguments_of<const K: usize>(
        &self,
        list: &RawValue,
        at: u64,
        method: &'static str,
        number: Option<u64>,
    ) -> Result<[(i64, u64); K], Error> {
        let text = list.get();
        let values: Vec<&RawValue> = serde_json::from_str(text).map_err(|_| {
            let kind = FormatError::NotAnArgumentList {
                method,
                found: quote(text),
            };
            self.error(at, number, kind.into())
        })?;
        let found = values.len();
        let values: [&RawValue; K] = values.try_into().map_err(|_| {
            let kind = FormatError::WrongArity {
                method,
                expected: K,
                found,
            };
            self.error(at, number, kind.into())
        })?;
        let mut integers = [(0, 0); K];
        for (slot, value) in integers.iter_mut().zip(values) {
            let value_at = at + offset_within(text, value.get());
            let int = integer(value.get()).map_err(|kind| self.error(value_at, number, kind))?;
            *slot = (int, value_at);
        }
        Ok(integers)
    }

    #[cold]
    fn json_error(&self, error: serde_json::Error, expected: Array) -> Error {
        use serde_json::error::Category;
        match error.classify() {
            Category::Io => Error::Read {
                input: self.name.clone(),
                source: error.into(),
            },
            Category::Eof => self.at_end(FormatError::UnexpectedEnd(expected)),
            Category::Syntax | Category::Data => {
                let message = error.to_string();
                // serde_json appends its own position, which the message
                // gives in the project's form instead.
                let message = match message.rsplit_once(" at line ") {
                    Some((what, _)) => what.to_owned(),
                    None => message,
                };
                Error::Data {
                    input: self.name.clone(),
                    error: DataError {
                        position: Position {
                            line: error.line() as u64,
                            column: error.column().max(1) as u64,
                            case: Some(self.case),
                            r#move: None,
                        },
                        kind: FormatError::Json(message).into(),
                    },
                }
            }
        }
    }

    /// An error at the end of the input.
    #[cold]
    fn at_end(&self, kind: FormatError) -> Error {
        let end = self.log.borrow().read;
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

/// Where `part`, a slice of `whole`, starts within it.
fn offset_within(whole: &str, part: &str) -> u64 {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize) as u64
}

/// A JSON number that is an integer an `i64` holds.
fn integer(text: &str) -> Result<i64, DataErrorKind> {
    // JSON's -0 is 0, as the Coding Ninjas reader reads it; serde_json
    // reads it as a float.
    if text == "-0" {
        return Ok(0);
    }
    serde_json::from_str::<i64>(text).map_err(|_| {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            DataErrorKind::TooLarge(text.to_owned())
        } else {
            DataErrorKind::NotInteger(quote(text))
        }
    })
}

/// JSON text for a message, cut short when long.
fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &str) -> Result<Vec<Case>, String> {
        let mut reader = Reader::new(input.as_bytes(), InputName::Stdin);
        let mut cases = Vec::new();
        loop {
            match reader.next_case() {
                Ok(Some(case)) => cases.push(case),
                Ok(None) => return Ok(cases),
                Err(error) => return Err(error.to_string()),
            }
        }
    }

    fn moves(case: &Case) -> Vec<(i64, i64, i64)> {
        case.moves
            .iter()
            .map(|m| (m.row, m.col, m.player))
            .collect()
    }

    #[test]
    fn several_cases_stream_with_blank_lines_and_spaces_between() {
        let cases =
            read_all("[\"TicTacToe\", \"move\"]\n[[3], [0, 0, 1]]\n\n\n[\"TicTacToe\"]\r\n[[1]]\n")
                .expect("valid");
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].size.get(), 3);
        assert_eq!(moves(&cases[0]), [(0, 0, 1)]);
        assert_eq!(cases[1].size.get(), 1);
        assert!(cases[1].moves.is_empty());
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
                "line 2, column 5: case 1: 2 method names but 1 argument lists: the two arrays \
                 must have the same length",
            ),
            (
                "[\"TicTacToe\"]\n[[3],\n [0,0,1]]",
                "line 3, column 2: case 1: 1 method names but 2 argument lists: the two arrays \
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
                "[\"TicTacToe\"]\n[[3]]\n [ ]\n[]",
                "line 3, column 2: case 2: the first method must be \"TicTacToe\", found an empty array",
            ),
            (
                "[\"TicTacToe\"]\n[[3]]\n[\"TicTacToe\" \"move\"]",
                "line 3, column 14: case 2: invalid JSON: expected `,` or `]`",
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
        let case = reader.next_case().expect("valid").expect("a case");
        let error = reader.reject(&case.moves[1], MoveError::BadPlayer(3));
        assert_eq!(
            error.to_string(),
            "line 5, column 8: case 2, move 2: player must be 1 or 2, found 3"
        );
    }
}
