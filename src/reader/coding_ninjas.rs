//! The Coding Ninjas batch format: T, then per case N, Q and Q moves `ROW COL PLAYER`.
//!
//! Tokens are integers separated by any mix of spaces, tabs, CR and LF. The
//! reader checks the format and the header rules (N in range, 0 <= Q <= N x N);
//! the moves themselves are the engine's to judge, and [`Reader::reject`]
//! turns the engine's refusal into an error pointing at the right token.

use super::{BLOCK_WINDOW, Chunks, Scanned, Tokens, is_space, scan_block, scan_int};
use crate::engine::{BoardSize, MoveError, MoveField};
use crate::error::{Count, DataErrorKind, Error, Expected, InputName};
use std::io::Read;

/// A case's header, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseHeader {
    /// N.
    pub size: BoardSize,
    /// Q, at most N x N.
    pub moves: u64,
}

/// One move as read, with where its tokens start for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// ROW, not yet checked against the board.
    pub row: i64,
    /// COL, not yet checked.
    pub col: i64,
    /// PLAYER, not yet checked.
    pub player: i64,
    /// Absolute offsets of the row, column and player tokens.
    offsets: [u64; 3],
}

/// A streaming reader of one Coding Ninjas input.
pub struct Reader<R> {
    chunks: Chunks<R>,
    /// Tokens already parsed past `chunks.pos` by the block scanner.
    tokens: Tokens,
    name: InputName,
    /// T, once read.
    cases: Option<u64>,
    /// The current case, 1-based; 0 before the first.
    case: u64,
    /// The current case's Q.
    moves: u64,
    /// The current move, 1-based; 0 before the first.
    r#move: u64,
}

impl<R: Read> Reader<R> {
    /// A reader of `input`, called `name` in messages.
    pub fn new(input: R, name: InputName) -> Reader<R> {
        Reader {
            chunks: Chunks::new(input),
            tokens: Tokens::default(),
            name,
            cases: None,
            case: 0,
            moves: 0,
            r#move: 0,
        }
    }

    /// Reads the next case's header, or checks that only space follows the
    /// last case and returns `None`.
    pub fn next_case(&mut self) -> Result<Option<CaseHeader>, Error> {
        let cases = match self.cases {
            Some(cases) => cases,
            None => {
                let (t, at) = self.next_int(Expected::CaseCount, true)?;
                let cases = u64::try_from(t).map_err(|_| {
                    self.error(
                        at,
                        DataErrorKind::NegativeCount {
                            count: Count::Cases,
                            found: t,
                        },
                    )
                })?;
                self.cases = Some(cases);
                cases
            }
        };
        if self.case == cases {
            self.expect_end()?;
            return Ok(None);
        }
        self.case += 1;
        self.r#move = 0;
        let (n, at) = self.next_int(Expected::BoardSize, true)?;
        let size = BoardSize::new(n).map_err(|bad| self.error(at, bad.into()))?;
        let (q, at) = self.next_int(Expected::MoveCount, true)?;
        let moves = u64::try_from(q).map_err(|_| {
            self.error(
                at,
                DataErrorKind::NegativeCount {
                    count: Count::Moves,
                    found: q,
                },
            )
        })?;
        if moves > size.cells() {
            return Err(self.error(
                at,
                DataErrorKind::TooManyMoves {
                    moves,
                    n: size.get(),
                },
            ));
        }
        self.moves = moves;
        Ok(Some(CaseHeader { size, moves }))
    }

    /// Reads the next move of the current case. Call it exactly Q times.
    #[inline(always)]
    pub fn next_move(&mut self) -> Result<Move, Error> {
        self.r#move += 1;
        if self.tokens.waiting() >= 3 {
            // The common case: the whole move is already parsed.
            let (row, row_at) = self.tokens.pop().unwrap_or_default();
            let (col, col_at) = self.tokens.pop().unwrap_or_default();
            let (player, player_at) = self.tokens.pop().unwrap_or_default();
            self.hold_from(row_at);
            return Ok(Move {
                row,
                col,
                player,
                offsets: [row_at, col_at, player_at],
            });
        }
        let declared = self.moves;
        let expected = |field| Expected::Move { field, declared };
        let (row, row_at) = self.next_int(expected(MoveField::Row), true)?;
        let (col, col_at) = self.next_int(expected(MoveField::Column), false)?;
        let (player, player_at) = self.next_int(expected(MoveField::Player), false)?;
        Ok(Move {
            row,
            col,
            player,
            offsets: [row_at, col_at, player_at],
        })
    }

    /// The error for a move the engine refused, at the token it is about.
    #[cold]
    pub fn reject(&self, refused: &Move, why: MoveError) -> Error {
        let at = match why.field() {
            MoveField::Row => refused.offsets[0],
            MoveField::Column => refused.offsets[1],
            MoveField::Player => refused.offsets[2],
        };
        self.error(at, why.into())
    }

    /// Keeps the bytes from `offset` on through refills, so the record that
    /// starts there can still be pointed at.
    #[inline(always)]
    fn hold_from(&mut self, offset: u64) {
        self.chunks.keep = (offset - self.chunks.offset_of(0)) as usize;
    }

    /// Parses the next block of tokens ahead, when a whole block is buffered.
    #[inline(always)]
    fn scan_ahead(&mut self) {
        let pos = self.chunks.pos;
        let Some(window) = self.chunks.bytes().get(pos..pos + BLOCK_WINDOW) else {
            return;
        };
        let Ok(window) = <&[u8; BLOCK_WINDOW]>::try_from(window) else {
            return;
        };
        let offset = self.chunks.offset_of(pos);
        self.chunks.pos += scan_block(window, offset, &mut self.tokens);
    }

    /// Skips space to the next token and returns its buffer index. A token
    /// that starts a record lets go of everything before it.
    #[inline(always)]
    fn skip_space(&mut self, expected: Expected, starts_record: bool) -> Result<usize, Error> {
        loop {
            let bytes = self.chunks.bytes();
            let mut at = self.chunks.pos;
            while at < bytes.len() && is_space(bytes[at]) {
                at += 1;
            }
            let found = at < bytes.len();
            self.chunks.pos = at;
            if found {
                if starts_record {
                    self.chunks.keep = at;
                }
                return Ok(at);
            }
            if starts_record {
                self.chunks.keep = at;
            }
            if !self.refill()? {
                let end = self.chunks.offset_of(self.chunks.end);
                return Err(self.error(end, DataErrorKind::UnexpectedEnd(expected)));
            }
        }
    }

    /// Reads one integer token: its value and absolute offset.
    #[inline(always)]
    fn next_int(&mut self, expected: Expected, starts_record: bool) -> Result<(i64, u64), Error> {
        if self.tokens.waiting() == 0 {
            self.scan_ahead();
        }
        if let Some((value, offset)) = self.tokens.pop() {
            if starts_record {
                self.hold_from(offset);
            }
            return Ok((value, offset));
        }
        self.next_int_general(expected, starts_record)
    }

    /// Reads one token byte by byte, refilling as needed: for the tail of
    /// the input, and for whatever the block scanner leaves alone.
    #[cold]
    fn next_int_general(
        &mut self,
        expected: Expected,
        starts_record: bool,
    ) -> Result<(i64, u64), Error> {
        let mut start = self.skip_space(expected, starts_record)?;
        let offset = self.chunks.offset_of(start);
        loop {
            match scan_int(self.chunks.bytes(), start, self.chunks.at_eof()) {
                Scanned::Int(value, end) => {
                    self.chunks.pos = end;
                    return Ok((value, offset));
                }
                Scanned::Incomplete => {
                    self.refill()?;
                    start = (offset - self.chunks.offset_of(0)) as usize;
                }
                Scanned::NotInteger => {
                    let text = self.chunks.token_text(start);
                    return Err(self.error(offset, DataErrorKind::NotInteger(text)));
                }
                Scanned::TooLarge => {
                    let text = self.chunks.token_text(start);
                    return Err(self.error(offset, DataErrorKind::TooLarge(text)));
                }
            }
        }
    }

    /// Checks that nothing but space follows the last case.
    fn expect_end(&mut self) -> Result<(), Error> {
        let next_token = match self.tokens.peek_offset() {
            Some(offset) => Ok((offset - self.chunks.offset_of(0)) as usize),
            None => self.skip_space(Expected::CaseCount, true),
        };
        match next_token {
            Ok(start) => {
                let text = self.chunks.token_text(start);
                let at = self.chunks.offset_of(start);
                // Past the last case there is no case or move to name.
                Err(Error::Data {
                    input: self.name.clone(),
                    error: self
                        .chunks
                        .error_at(at, None, None, DataErrorKind::TrailingData(text)),
                })
            }
            Err(Error::Data { error, .. })
                if matches!(error.kind, DataErrorKind::UnexpectedEnd(_)) =>
            {
                Ok(())
            }
            Err(other) => Err(other),
        }
    }

    #[cold]
    fn refill(&mut self) -> Result<bool, Error> {
        self.chunks.refill().map_err(|source| Error::Read {
            input: self.name.clone(),
            source,
        })
    }

    #[cold]
    fn error(&self, offset: u64, kind: DataErrorKind) -> Error {
        let case = (self.case > 0).then_some(self.case);
        let r#move = (self.r#move > 0).then_some(self.r#move);
        Error::Data {
            input: self.name.clone(),
            error: self.chunks.error_at(offset, case, r#move, kind),
        }
    }
}
