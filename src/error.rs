//! Every way a run can fail, with enough context to say where and why.
//!
//! Data errors carry a [`Position`] so that a message reads like
//! `line 9, column 1: case 2, move 3: cell (0, 0) is already taken`.
//! Only `main` turns an [`Error`] into an exit status.

use crate::game::{BadSize, MoveError, MoveField};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Where in the input a data error was found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// 1-based line of the offending token (or of the end of input).
    pub line: u64,
    /// 1-based column, in bytes, where the offending token starts.
    pub column: u64,
    /// 1-based test case, once the case has begun.
    pub case: Option<u64>,
    /// 1-based move within the case, once the move has begun.
    pub r#move: Option<u64>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)?;
        if let Some(case) = self.case {
            write!(f, ": case {case}")?;
            if let Some(number) = self.r#move {
                write!(f, ", move {number}")?;
            }
        }
        Ok(())
    }
}

/// What the reader was looking for when the input ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The number of test cases, T.
    CaseCount,
    /// A case's board size, N.
    BoardSize,
    /// A case's number of moves, Q.
    MoveCount,
    /// A field of a move, in a case that declared `declared` moves.
    Move {
        /// Which field.
        field: MoveField,
        /// The case's Q.
        declared: u64,
    },
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::CaseCount => f.write_str("the number of test cases T"),
            Expected::BoardSize => f.write_str("the board size N"),
            Expected::MoveCount => f.write_str("the number of moves Q"),
            Expected::Move { field, declared } => {
                let field = match field {
                    MoveField::Row => "row",
                    MoveField::Column => "column",
                    MoveField::Player => "player",
                };
                write!(
                    f,
                    "the {field} of a move (the case declares {declared} moves)"
                )
            }
        }
    }
}

/// The counts in a case or file header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// T.
    Cases,
    /// Q.
    Moves,
}

/// What is wrong with the data.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataErrorKind {
    /// A token that is not an integer.
    #[error("expected an integer, found {0:?}")]
    NotInteger(String),
    /// An integer too large (or, below zero, too small) for any field.
    #[error(
        "integer {shown} is too {size}",
        shown = crate::error::escape_unprintable(.0),
        size = if .0.starts_with('-') { "small" } else { "large" }
    )]
    TooLarge(String),
    /// The input ended before the last case was complete.
    #[error("input ends early: expected {0}")]
    UnexpectedEnd(Expected),
    /// Non-whitespace data after the last case.
    #[error("unexpected data after the last case: {0:?}")]
    TrailingData(String),
    /// A negative T or Q.
    #[error("{} must not be negative, found {found}", match .count {
        Count::Cases => "the number of test cases T",
        Count::Moves => "the number of moves Q",
    })]
    NegativeCount {
        /// Which count.
        count: Count,
        /// The value found.
        found: i64,
    },
    /// N outside 1..=10^9.
    #[error(transparent)]
    BadSize(#[from] BadSize),
    /// More moves than cells.
    #[error("{moves} moves cannot fit on a {n} x {n} board: Q must be at most {}", u64::from(*.n) * u64::from(*.n))]
    TooManyMoves {
        /// The case's Q.
        moves: u64,
        /// The case's N.
        n: u32,
    },
    /// A move the game refuses.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// Something that breaks LeetCode's transcript format.
    #[error(transparent)]
    Leetcode(#[from] crate::format::leetcode::read::FormatError),
}

/// A data error: what is wrong and where.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{position}: {kind}")]
pub struct DataError {
    /// Where.
    pub position: Position,
    /// What.
    pub kind: DataErrorKind,
}

/// The name of an input, for messages: a path, or standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputName {
    /// Standard input.
    Stdin,
    /// A named file.
    Path(PathBuf),
}

impl fmt::Display for InputName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputName::Stdin => f.write_str("standard input"),
            InputName::Path(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input breaks the format or the rules.
    #[error("{}{error}", input_prefix(.input))]
    Data {
        /// Which input.
        input: InputName,
        /// What and where.
        error: DataError,
    },
    /// An input file cannot be opened.
    #[error("cannot open {path}: {source}", path = .path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Reading an input failed part way.
    #[error("cannot read {input}: {source}")]
    Read {
        /// Which input.
        input: InputName,
        /// Why.
        source: io::Error,
    },
    /// The output file cannot be created.
    #[error("cannot create {path}: {source}", path = .path.display())]
    CreateOutput {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A command asked for a case the input does not have.
    #[error("{}the input has {cases} case{}, so there is no case {wanted}", input_prefix(.input), if *.cases == 1 { "" } else { "s" })]
    NoSuchCase {
        /// Which input.
        input: InputName,
        /// The case asked for, 1-based.
        wanted: u64,
        /// How many cases the input has.
        cases: u64,
    },
    /// Writing the output failed (a closed pipe included).
    #[error("cannot write the output: {0}")]
    Write(#[source] io::Error),
    /// A process could not be started, watched or measured.
    #[error("cannot {what}: {source}")]
    Process {
        /// What was being done.
        what: &'static str,
        /// Why it failed.
        source: io::Error,
    },
    /// Settings that parse but cannot work together, found after parsing.
    #[error("{0}")]
    Usage(String),
}

/// A token as messages quote it: its first bytes, and `...` when it goes on.
pub fn quote_token(shown: &[u8], goes_on: bool) -> String {
    // A token cut short may end inside a character: show up to it.
    let shown = match std::str::from_utf8(shown) {
        Err(cut) if goes_on && cut.error_len().is_none() => &shown[..cut.valid_up_to()],
        _ => shown,
    };
    let mut text = String::from_utf8_lossy(shown).into_owned();
    if goes_on {
        text.push_str("...");
    }
    text
}

/// `text` with every character a terminal would act on, or not show,
/// escaped as Rust's `{:?}` escapes it (`\u{1b}`), and the rest, quotes
/// included, as it is: for input quoted in JSON's own syntax, which
/// `{:?}` would escape twice.
pub fn escape_unprintable(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        if matches!(character, '"' | '\\' | '\'') {
            escaped.push(character);
        } else {
            escaped.extend(character.escape_debug());
        }
    }
    escaped
}

/// Names a file in a data error; standard input goes unnamed.
fn input_prefix(input: &InputName) -> String {
    match input {
        InputName::Stdin => String::new(),
        InputName::Path(path) => format!("{}: ", path.display()),
    }
}

impl Error {
    /// Whether memory ran out (a board's table, a buffer) rather than the
    /// data being wrong: the limit, not the input, is at fault.
    pub fn is_out_of_memory(&self) -> bool {
        match self {
            Error::Data { error, .. } => {
                matches!(error.kind, DataErrorKind::Move(MoveError::NoRoom { .. }))
            }
            Error::Write(error) | Error::Read { source: error, .. } => {
                error.kind() == io::ErrorKind::OutOfMemory
            }
            _ => false,
        }
    }

    /// A missing input's message with a hint after it, when `hint` has one
    /// for the path: what the user most likely meant by a name that is no
    /// file. Any other error is as it was.
    pub fn with_missing_file_hint(self, hint: impl FnOnce(&Path) -> Option<String>) -> Error {
        match self {
            Error::Open { path, source } if source.kind() == io::ErrorKind::NotFound => {
                let source = match hint(&path) {
                    Some(hint) => io::Error::new(source.kind(), format!("{source}; {hint}")),
                    None => source,
                };
                Error::Open { path, source }
            }
            other => other,
        }
    }

    /// The data error inside, if this is one.
    pub fn data(&self) -> Option<&DataError> {
        match self {
            Error::Data { error, .. } => Some(error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_line_column_case_and_move() {
        let error = DataError {
            position: Position {
                line: 9,
                column: 1,
                case: Some(2),
                r#move: Some(3),
            },
            kind: MoveError::Taken { row: 0, col: 0 }.into(),
        };
        assert_eq!(
            error.to_string(),
            "line 9, column 1: case 2, move 3: cell (0, 0) is already taken"
        );
    }

    #[test]
    fn a_quote_cut_inside_a_character_stops_before_it() {
        let token = "é".repeat(20);
        assert_eq!(quote_token(&token.as_bytes()[..31], true), "é".repeat(15) + "...");
        assert_eq!(quote_token(b"x\xff", false), "x\u{fffd}");
    }

    #[test]
    fn unprintable_characters_are_escaped_and_quotes_kept() {
        assert_eq!(escape_unprintable("\"\x1b[2J\""), "\"\\u{1b}[2J\"");
        assert_eq!(escape_unprintable("[\u{c}\"move\"\0"), "[\\u{c}\"move\"\\0");
        assert_eq!(escape_unprintable("\"a\\\"b\" é"), "\"a\\\"b\" é");
        assert_eq!(escape_unprintable("\u{202e}"), "\\u{202e}");
    }

    #[test]
    fn file_errors_name_the_file_and_stdin_errors_do_not() {
        let error = || DataError {
            position: Position {
                line: 1,
                column: 1,
                ..Position::default()
            },
            kind: DataErrorKind::NotInteger("x".into()),
        };
        let from_file = Error::Data {
            input: InputName::Path("in.txt".into()),
            error: error(),
        };
        let from_stdin = Error::Data {
            input: InputName::Stdin,
            error: error(),
        };
        assert_eq!(
            from_file.to_string(),
            "in.txt: line 1, column 1: expected an integer, found \"x\""
        );
        assert_eq!(
            from_stdin.to_string(),
            "line 1, column 1: expected an integer, found \"x\""
        );
    }
}
