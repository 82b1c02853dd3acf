//! Inputs in either format as one stream of cases and moves, for the commands that don't care which.
//!
//! `solve` keeps a loop of its own per format, for speed; `trace` and
//! `convert` read through [`Cases`]. [`detect_past_mark`] picks the format of an input
//! from its first non-whitespace byte without losing any bytes.

use crate::error::{Error, InputName};
use crate::files;
use crate::files::InputSource;
use crate::format::Format;
use crate::format::bytes::{is_space, read_some};
use crate::format::coding_ninjas::read as coding_ninjas;
use crate::format::leetcode::read as leetcode;
use crate::game::{BoardSize, Outcome, TicTacToe};
use std::io::{self, Cursor, Read};

/// An input with the bytes read to detect its format put back in front.
pub type Peeked<R> = io::Chain<Cursor<Vec<u8>>, R>;

/// Bytes read at a time while looking for the first non-whitespace byte.
const PEEK: usize = 8 * 1024;

/// Whitespace held while looking for the first other byte; past this much
/// the input is taken as Coding Ninjas, so that memory stays bounded.
pub const PEEK_MAX: usize = 1024 * 1024;

/// UTF-8's byte order mark, which some editors put before a text file.
pub const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// Decides the format of `input`: LeetCode when its first non-whitespace
/// byte is `[`, else Coding Ninjas (an input of only whitespace included, so
/// that it gets the Coding Ninjas reader's error, and one whose first
/// [`PEEK_MAX`] bytes are all whitespace). Drops a UTF-8 byte order mark at
/// the start, in either format, and says whether it did. Returns the rest
/// of the input, nothing else lost.
pub fn detect_past_mark<R: Read>(input: R) -> io::Result<(Format, bool, Peeked<R>)> {
    let (detected, marked, input) = detect_or_blank(input)?;
    Ok((detected.unwrap_or(Format::CodingNinjas), marked, input))
}

/// [`detect_past_mark`], but `None` for an input that ends with nothing
/// but whitespace (and a mark).
fn detect_or_blank<R: Read>(mut input: R) -> io::Result<(Option<Format>, bool, Peeked<R>)> {
    let mut seen = Vec::new();
    let mut chunk = [0u8; PEEK];
    let mut marked = false;
    // Bytes of `seen` known to be whitespace.
    let mut scanned = 0;
    let detected = loop {
        let read = read_some(&mut input, &mut chunk)?;
        if read == 0 {
            break None;
        }
        seen.extend_from_slice(&chunk[..read]);
        if !marked && seen.len() >= BYTE_ORDER_MARK.len() && seen.starts_with(BYTE_ORDER_MARK) {
            seen.drain(..BYTE_ORDER_MARK.len());
            marked = true;
        }
        if seen.len() < BYTE_ORDER_MARK.len() && BYTE_ORDER_MARK.starts_with(&seen) {
            // Perhaps a mark, cut by the read: read on.
            continue;
        }
        // Only the first PEEK_MAX bytes are looked at, however the reads
        // fall: a pipe's pieces once decided a `[` just past the limit.
        let limit = seen.len().min(PEEK_MAX);
        let first = seen[scanned.min(limit)..limit].iter().find(|&&byte| !is_space(byte));
        scanned = limit;
        if let Some(&first) = first {
            break Some(if first == b'[' {
                Format::Leetcode
            } else {
                Format::CodingNinjas
            });
        }
        if seen.len() >= PEEK_MAX {
            break Some(Format::CodingNinjas);
        }
    };
    Ok((detected, marked, Cursor::new(seen).chain(input)))
}

/// Resolves `auto` for one input (a named format is taken as named), past
/// a UTF-8 byte order mark, which every reader drops in either format; says
/// whether there was one, for validate to report.
pub fn resolve<R: Read>(
    input: R,
    name: &InputName,
    format: Option<Format>,
) -> Result<(Format, bool, Peeked<R>), Error> {
    let (detected, marked, input) = detect_past_mark(input).map_err(|source| Error::Read {
        input: name.clone(),
        source,
    })?;
    Ok((format.unwrap_or(detected), marked, input))
}

/// A case's header in either format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// N.
    pub size: BoardSize,
    /// Q.
    pub moves: u64,
}

/// A move's ROW, COL and PLAYER as written, before the engine judges them.
pub type Fields = (i64, i64, i64);

/// The cases of one input, in either format.
pub enum Cases<R: Read> {
    /// A Coding Ninjas input.
    CodingNinjas {
        /// Its reader, boxed: it holds its token queue inline.
        reader: Box<coding_ninjas::Reader<R>>,
        /// Moves of the current case not read yet.
        left: u64,
    },
    /// A LeetCode input.
    Leetcode {
        /// Its reader, boxed like the other.
        reader: Box<leetcode::Reader<R>>,
        /// Moves of the current case not read yet.
        left: u64,
    },
}

/// An opened input, as [`Cases`].
pub type OpenCases = Cases<Peeked<Box<dyn Read>>>;

/// Opens an input and works out its format.
pub fn open(source: &InputSource, format: Option<Format>) -> Result<(Format, OpenCases), Error> {
    let (input, name) = files::open(source)?;
    let (detected, _, input) = resolve(input, &name, format)?;
    Ok((detected, Cases::new(input, name, detected)))
}

/// [`open`] with the format detected, but an input that ends within
/// [`PEEK_MAX`] bytes with only whitespace read as `blank`: `convert` reads
/// an empty input as the other format's file of no test cases, as it
/// writes T = 0 in LeetCode's format.
pub fn open_detected_or(source: &InputSource, blank: Format) -> Result<(Format, OpenCases), Error> {
    let (input, name) = files::open(source)?;
    let (detected, _, input) = detect_or_blank(input).map_err(|source| Error::Read {
        input: name.clone(),
        source,
    })?;
    let detected = detected.unwrap_or(blank);
    Ok((detected, Cases::new(input, name, detected)))
}

impl<R: Read> Cases<R> {
    /// Reads `input` as `format`.
    pub fn new(input: R, name: InputName, format: Format) -> Cases<R> {
        match format {
            Format::CodingNinjas => Cases::CodingNinjas {
                reader: Box::new(coding_ninjas::Reader::new(input, name)),
                left: 0,
            },
            Format::Leetcode => Cases::Leetcode {
                reader: Box::new(leetcode::Reader::new(input, name)),
                left: 0,
            },
        }
    }

    /// The next case's header, skipping what is left of the current case;
    /// `None` after the last case (checking, in the Coding Ninjas format,
    /// that nothing but whitespace follows).
    pub fn next_case(&mut self) -> Result<Option<Header>, Error> {
        while self.next_move()?.is_some() {}
        match self {
            Cases::CodingNinjas { reader, left } => Ok(reader.next_case()?.map(|header| {
                *left = header.moves;
                Header {
                    size: header.size,
                    moves: header.moves,
                }
            })),
            Cases::Leetcode { reader, left } => Ok(reader.next_case()?.map(|header| {
                *left = header.moves;
                Header {
                    size: header.size,
                    moves: header.moves,
                }
            })),
        }
    }

    /// The current case's next move as written (ROW, COL, PLAYER), or
    /// `None` after its last.
    pub fn next_move(&mut self) -> Result<Option<Fields>, Error> {
        match self {
            Cases::CodingNinjas { reader, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                let read = reader.next_move()?;
                Ok(Some((read.row, read.col, read.player)))
            }
            Cases::Leetcode { reader, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                let read = reader.next_move()?;
                Ok(Some((read.row, read.col, read.player)))
            }
        }
    }

    /// Plays the current case's next move on `game`: the move as written and
    /// its outcome, or `None` after the case's last move. A move the game
    /// refuses is an error pointing at it.
    pub fn play_next(&mut self, game: &mut TicTacToe) -> Result<Option<(Fields, Outcome)>, Error> {
        match self {
            Cases::CodingNinjas { reader, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                let read = reader.next_move()?;
                let outcome = game
                    .play(read.row, read.col, read.player)
                    .map_err(|why| reader.reject(why))?;
                Ok(Some(((read.row, read.col, read.player), outcome)))
            }
            Cases::Leetcode { reader, left } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                let read = reader.next_move()?;
                let outcome = game
                    .play(read.row, read.col, read.player)
                    .map_err(|why| reader.reject(&read, why))?;
                Ok(Some(((read.row, read.col, read.player), outcome)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detected(input: &[u8]) -> (Format, Vec<u8>) {
        let (format, _, mut all) = detect_past_mark(input).expect("in memory");
        let mut bytes = Vec::new();
        all.read_to_end(&mut bytes).expect("in memory");
        (format, bytes)
    }

    #[test]
    fn a_leading_bracket_means_leetcode_and_no_byte_is_lost() {
        let input = b" \r\n\t[\"TicTacToe\"]\n[[3]]\n";
        assert_eq!(detected(input), (Format::Leetcode, input.to_vec()));
        let input = b"\n1\n3\n0\n";
        assert_eq!(detected(input), (Format::CodingNinjas, input.to_vec()));
        assert_eq!(detected(b"  \n"), (Format::CodingNinjas, b"  \n".to_vec()));
    }

    #[test]
    fn detection_gives_up_on_endless_whitespace_without_losing_it() {
        let mut input = vec![b'\n'; PEEK_MAX + 3 * PEEK];
        input.extend_from_slice(b"[\"TicTacToe\"] [[1]]");
        assert_eq!(detected(&input), (Format::CodingNinjas, input.clone()));
    }

    /// Gives at most `piece` bytes a read, as a pipe may.
    struct Pieces<'a> {
        bytes: &'a [u8],
        piece: usize,
    }

    impl Read for Pieces<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let size = self.piece.min(buf.len()).min(self.bytes.len());
            buf[..size].copy_from_slice(&self.bytes[..size]);
            self.bytes = &self.bytes[size..];
            Ok(size)
        }
    }

    /// A pipe written in 5000-byte pieces once decided LeetCode where a
    /// file gave Coding Ninjas.
    #[test]
    fn detection_looks_at_the_same_bytes_however_the_reads_fall() {
        for (spaces, expected) in [(PEEK_MAX + 100, Format::CodingNinjas), (PEEK_MAX - 1, Format::Leetcode)] {
            let mut input = vec![b' '; spaces];
            input.extend_from_slice(b"[\"TicTacToe\"] [[1]]");
            for piece in [1, 3, 5000, PEEK, PEEK + 1, input.len()] {
                let (format, _, mut all) = detect_past_mark(Pieces { bytes: &input, piece }).expect("in memory");
                assert_eq!(format, expected, "{spaces} spaces read {piece} bytes at a time");
                let mut bytes = Vec::new();
                all.read_to_end(&mut bytes).expect("in memory");
                assert!(bytes == input, "bytes lost");
            }
        }
    }

    #[test]
    fn detection_reads_past_a_long_run_of_whitespace() {
        let mut input = vec![b' '; 3 * PEEK + 5];
        input.extend_from_slice(b"[\"TicTacToe\"] [[1]]");
        assert_eq!(detected(&input), (Format::Leetcode, input.clone()));
    }
}
