//! The Coding Ninjas batch format: T, then per case N, Q and Q moves `ROW COL PLAYER`.
//!
//! Tokens are integers separated by any mix of spaces, tabs, CR and LF. The
//! reader checks the format and the header rules (N in range, 0 <= Q <= N x N);
//! the moves themselves are the engine's to judge, and [`Reader::reject`]
//! turns the engine's refusal into an error pointing at the right token.

use crate::error::{Count, DataErrorKind, Error, Expected, InputName};
use crate::format::bytes::{
    BlockTokens, Chunks, IntFault, Scanned, buffered_count, is_space, scan_int, window_at,
};
use crate::format::coding_ninjas::short_cases::{CaseRun, read_short_cases};
use crate::format::lines::{BATCH, Moves, read_usual_lines};
use crate::format::tokens;
use crate::game::{BoardSize, MoveError, MoveField};
use crate::simd::Cpu;
use std::io::Read;

/// A case's header, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseHeader {
    /// N.
    pub size: BoardSize,
    /// Q, at most N x N.
    pub moves: u64,
}

/// One move's fields as written, not yet judged by the game.
/// [`Reader::reject`] finds its tokens again for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveFields {
    /// ROW, not yet checked against the board.
    pub row: i64,
    /// COL, not yet checked.
    pub col: i64,
    /// PLAYER, not yet checked.
    pub player: i64,
}

/// Moves read in one go by [`Reader::fill_batch`], with where they start.
#[derive(Default)]
pub struct MoveBatch {
    /// Row, column and player of each move; only the first `len` are read.
    moves: Moves,
    /// An absolute offset with only space between it and the first move's
    /// row token: where the moves' tokens are found again for an error.
    from: u64,
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

/// A streaming reader of one Coding Ninjas input.
pub struct Reader<R> {
    chunks: Chunks<R>,
    /// The tokens left in the block that starts at `block_at`; the first of
    /// them starts at or after `chunks.pos`. Empty unless the fast path set it.
    block: BlockTokens,
    /// Buffer index of the block's first byte.
    block_at: usize,
    /// Absolute offset of the row token of the last move read.
    move_start: u64,
    /// Absolute offsets of the row, column and player tokens of the last
    /// move read token by token: its bytes may be gone by the time the
    /// engine refuses it (a long token read past them).
    fields_at: [u64; 3],
    name: InputName,
    /// T, once read.
    cases: Option<u64>,
    /// The current case, 1-based; 0 before the first.
    case: u64,
    /// The current case's Q.
    moves: u64,
    /// The current move, 1-based; 0 before the first.
    r#move: u64,
    /// The last case to read, when the reader reads part of an input.
    last_case: Option<u64>,
    /// Set for a part cut where a case seems to start: its cases end where
    /// its bytes do, after any case, however many T says.
    open: bool,
}

/// Where a token stands in its record, which decides what the reader may
/// let go of while reading it.
#[derive(Clone, Copy)]
enum Token<'a> {
    /// It starts a record: nothing before it is needed any more.
    First,
    /// It follows tokens of its record, at these offsets, that messages may
    /// still point at.
    After(&'a [u64]),
}

/// The cases a reader of part of an input reads: the part starts with the
/// case after `before` and holds the cases up to `last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartCases {
    /// T, if the part starts after it.
    pub count: Option<u64>,
    /// The cases before the part.
    pub before: u64,
    /// The part's last case; `None` for every case to the end of the input.
    pub last: Option<u64>,
    /// Set when the part starts inside case `before + 1`, after some of
    /// its moves: a slice of a case too long to hold whole.
    pub within: Option<CaseWithin>,
}

impl PartCases {
    /// Every case of an input, from its start.
    pub const ALL: PartCases = PartCases {
        count: None,
        before: 0,
        last: None,
        within: None,
    };
}

/// Where in its case a part that starts inside one starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseWithin {
    /// The case's Q.
    pub declared: u64,
    /// Its moves before the part.
    pub played: u64,
}

impl<R: Read> Reader<R> {
    /// A reader of `input`, called `name` in messages.
    pub fn new(input: R, name: InputName) -> Reader<R> {
        Reader::of_part(Chunks::new(input), name, PartCases::ALL)
    }

    /// A reader of part of an input: `chunks` holds or reads the bytes from
    /// the part's start, and `cases` says which cases they hold. After the
    /// part's last case only space may follow, as after the input's last.
    /// A part that starts inside a case starts with that case's moves:
    /// [`Reader::case_in_progress`] says how many are left.
    pub fn of_part(chunks: Chunks<R>, name: InputName, cases: PartCases) -> Reader<R> {
        let (case, moves, played) = match cases.within {
            Some(within) => (cases.before + 1, within.declared, within.played),
            None => (cases.before, 0, 0),
        };
        Reader {
            chunks,
            block: BlockTokens::default(),
            block_at: 0,
            move_start: 0,
            fields_at: [u64::MAX; 3],
            name,
            cases: cases.count,
            case,
            moves,
            r#move: played,
            last_case: cases.last,
            open: false,
        }
    }

    /// A reader of a part cut where a case seems to start
    /// ([`crate::format::coding_ninjas::cut`]): it reads T if the part is
    /// the input's `first`, then the cases that `chunks` holds, and ends
    /// where they end. Whether the part holds whole cases, and how many of
    /// the input's, is the caller's to prove; positions and case numbers
    /// count from the part's start.
    pub fn of_cut_part(chunks: Chunks<R>, name: InputName, first: bool) -> Reader<R> {
        let cases = PartCases {
            // T, for a part past the first, is not known yet and bounds nothing.
            count: (!first).then_some(u64::MAX),
            before: 0,
            last: None,
            within: None,
        };
        Reader {
            open: true,
            ..Reader::of_part(chunks, name, cases)
        }
    }

    /// The cases read or begun, counting those before the reader's start.
    pub fn cases_read(&self) -> u64 {
        self.case
    }

    /// T, if the reader read it.
    pub fn count(&self) -> Option<u64> {
        self.cases
    }

    /// The moves left of the case the reader starts inside, if it does
    /// (see [`PartCases::within`]), before any case is read.
    pub fn case_in_progress(&self) -> Option<u64> {
        (self.moves > self.r#move).then(|| self.moves - self.r#move)
    }

    /// The reader's buffer, for reuse once reading is done.
    pub fn into_buffer(self) -> Vec<u8> {
        self.chunks.into_buffer()
    }

    /// Reads the next case's header, or checks that only space follows the
    /// last case and returns `None`.
    #[inline(always)]
    pub fn next_case(&mut self) -> Result<Option<CaseHeader>, Error> {
        if let Some(cases) = self.cases
            && self.case < self.last_case.map_or(cases, |last| last.min(cases))
            && let Some(header) = self.buffered_header()
        {
            return Ok(Some(header));
        }
        self.next_case_token_by_token()
    }

    /// The usual header: N and Q, valid, plain and buffered with the space
    /// after them. Short games make headers a large share of the input;
    /// read this way, they cost no refill check and no error in the making.
    #[inline(always)]
    fn buffered_header(&mut self) -> Option<CaseHeader> {
        let bytes = self.chunks.bytes();
        let (n, _, n_end) = buffered_count(bytes, self.chunks.pos)?;
        let (moves, q_start, q_end) = buffered_count(bytes, n_end)?;
        let size = BoardSize::new(i64::try_from(n).ok()?).ok()?;
        if moves > size.cells() {
            return None;
        }
        // What reading the two tokens one by one would leave.
        self.block = BlockTokens::default();
        self.chunks.unpin_all();
        self.chunks.keep = q_start;
        self.chunks.pos = q_end;
        self.case += 1;
        self.r#move = 0;
        self.moves = moves;
        Some(CaseHeader { size, moves })
    }

    /// [`next_case`](Reader::next_case) for any header: refilling, and
    /// saying what is wrong with it.
    #[cold]
    fn next_case_token_by_token(&mut self) -> Result<Option<CaseHeader>, Error> {
        let cases = match self.cases {
            Some(cases) => cases,
            None => {
                let (t, at) = self.next_int(Expected::CaseCount, Token::First)?;
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
        let last = self.last_case.map_or(cases, |last| last.min(cases));
        if self.case >= last {
            self.expect_end()?;
            return Ok(None);
        }
        if self.open && self.only_space_left()? {
            return Ok(None);
        }
        self.case += 1;
        self.r#move = 0;
        let (n, at) = self.next_int(Expected::BoardSize, Token::First)?;
        let size = BoardSize::new(n).map_err(|bad| self.error(at, bad.into()))?;
        let (q, at) = self.next_int(Expected::MoveCount, Token::First)?;
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

    /// Reads into `run` the whole short cases buffered from the reading
    /// position on ([`read_short_cases`]), without moving the reader:
    /// [`pass_cases`](Reader::pass_cases) moves it past those the caller
    /// plays. Reads none while a case is in progress, before T is read, or
    /// once the reader's cases are all read.
    #[inline(always)]
    pub fn read_short_cases<C: Cpu>(&self, cpu: C, run: &mut CaseRun) -> usize {
        let Some(cases) = self.cases else {
            return 0;
        };
        let last = self.last_case.map_or(cases, |last| last.min(cases));
        if self.r#move != self.moves || self.case >= last {
            return 0;
        }
        read_short_cases(cpu, self.chunks.bytes(), self.chunks.pos, last - self.case, run)
    }

    /// Moves the reader past the first `count` cases of `run`, which the
    /// last [`read_short_cases`](Reader::read_short_cases) read, as
    /// reading them one by one would.
    #[inline(always)]
    pub fn pass_cases(&mut self, run: &CaseRun, count: usize) {
        let Some(last) = count.checked_sub(1) else {
            return;
        };
        let (_, moves) = run.case(last);
        self.block = BlockTokens::default();
        self.chunks.unpin_all();
        self.chunks.pos = run.end_of(last);
        self.chunks.keep = self.chunks.pos;
        self.case += count as u64;
        self.moves = moves.len() as u64;
        self.r#move = self.moves;
    }

    /// Reads the next move of the current case. Call it exactly Q times.
    #[inline(always)]
    pub fn next_move(&mut self) -> Result<MoveFields, Error> {
        self.r#move += 1;
        if !self.block.has_move() {
            self.find_block();
        }
        let at = self.block_at;
        if let Some(window) = window_at(self.chunks.bytes(), at)
            && self.block.has_move()
            && let Some(([row, col, player], row_start, player_end)) = self.block.take_move(window)
        {
            // The common case: three plain tokens, read straight from the block.
            self.chunks.pos = at + player_end;
            self.move_start = self.chunks.offset_of(at + row_start);
            let [row, col, player] = [row, col, player].map(i64::from);
            return Ok(MoveFields { row, col, player });
        }
        let declared = self.moves;
        let expected = |field| Expected::Move { field, declared };
        let (row, row_at) = self.next_int(expected(MoveField::Row), Token::First)?;
        self.move_start = row_at;
        let (col, col_at) = self.next_int(expected(MoveField::Column), Token::After(&[row_at]))?;
        let (player, player_at) = self.next_int(
            expected(MoveField::Player),
            Token::After(&[row_at, col_at]),
        )?;
        self.fields_at = [row_at, col_at, player_at];
        Ok(MoveFields { row, col, player })
    }

    /// Reads up to `left` moves of the current case into `batch`, as long as
    /// they are plain tokens the block scanner can take from buffered bytes.
    /// Returns how many it read; 0 means the next move is [`next_move`]'s
    /// (a refill, a sign, a long token). The moves' tokens stay buffered
    /// until the next read, so [`reject_in_batch`] can still point at them.
    ///
    /// [`next_move`]: Reader::next_move
    /// [`reject_in_batch`]: Reader::reject_in_batch
    #[inline(always)]
    pub fn fill_batch<C: Cpu>(&mut self, cpu: C, batch: &mut MoveBatch, left: u64) -> usize {
        let want = left.min(BATCH as u64) as usize;
        batch.from = self.chunks.offset_of(self.chunks.pos);
        // The vector stream takes any spacing, and was faster than the
        // vector pass over usual lines even on them; the lines' pass is the
        // fast path of a build without AVX2, and the token-at-a-time one
        // reads on where neither takes a block.
        let mut got = self.fill_stream(cpu, batch, want);
        if got == 0 {
            got = self.fill_lines(cpu, batch, want);
        }
        if got == 0 {
            got = self.fill_tokens(cpu, batch, want);
        }
        batch.first = self.r#move + 1;
        batch.len = got;
        self.r#move += got as u64;
        got
    }

    /// Reads moves written one per line the usual way while they last,
    /// starting at the LF the reading position is on.
    #[inline(always)]
    fn fill_lines<C: Cpu>(&mut self, cpu: C, batch: &mut MoveBatch, want: usize) -> usize {
        let start = self.chunks.pos;
        let (got, last_newline) =
            read_usual_lines::<C, false>(cpu, self.chunks.bytes(), start, &mut batch.moves, want);
        if got > 0 {
            // The block's tokens lie behind the reading position now.
            self.block = BlockTokens::default();
            self.chunks.pos = last_newline;
        }
        got
    }

    /// Reads moves from buffered blocks of plain tokens, however they are
    /// spaced, in one vector pass a block ([`tokens::read_moves`]); in a
    /// build without AVX2 only blocks of nine- or ten-digit tokens.
    #[inline(always)]
    fn fill_stream<C: Cpu>(&mut self, cpu: C, batch: &mut MoveBatch, want: usize) -> usize {
        let out = batch.moves.0.as_flattened_mut();
        let (got, end) = tokens::read_moves(cpu, self.chunks.bytes(), self.chunks.pos, out, want);
        if got > 0 {
            // The block's tokens lie behind the reading position now.
            self.block = BlockTokens::default();
            self.chunks.pos = end;
        }
        got
    }

    /// Reads moves from the plain tokens of buffered blocks, however they
    /// are spaced, a token at a time.
    #[inline(always)]
    fn fill_tokens<C: Cpu>(&mut self, cpu: C, batch: &mut MoveBatch, want: usize) -> usize {
        let bytes = self.chunks.bytes();
        let mut block = self.block;
        let mut at = self.block_at;
        let mut pos = self.chunks.pos;
        let mut window = window_at(bytes, at);
        let mut got = 0;
        for slot in &mut batch.moves.0[..want] {
            if let Some(window) = window
                && block.has_move()
            {
                let Some((values, _, player_end)) = block.take_move(window) else {
                    break;
                };
                *slot = values;
                pos = at + player_end;
                got += 1;
                continue;
            }
            // A move the block holds only part of, or none of: its tokens
            // one by one, the next block starting after the last one taken.
            // Started always at the move, a block of moves of 33 bytes (a
            // file of zero-padded numbers) held one of them, not two.
            let before = (block, at);
            let mut end = pos;
            let mut values = [0; 3];
            let mut whole = true;
            for value in &mut values {
                if block.starts == 0 {
                    window = window_at(bytes, end);
                    // Not through a closure, which the CPU's build would
                    // not reach: its vector instructions would be calls.
                    block = match window {
                        Some(window) => BlockTokens::find_in_build(cpu, window),
                        None => BlockTokens::default(),
                    };
                    at = end;
                }
                let Some((taken, token_end)) = window.and_then(|window| block.take_value(window))
                else {
                    whole = false;
                    break;
                };
                *value = taken;
                end = at + token_end;
            }
            if !whole {
                // The move is the general path's, from its first token.
                (block, at) = before;
                break;
            }
            *slot = values;
            pos = end;
            got += 1;
        }
        self.block = block;
        self.block_at = at;
        self.chunks.pos = pos;
        got
    }

    /// The error for move `index` of `batch`, which the engine refused.
    #[cold]
    pub fn reject_in_batch(&mut self, batch: &MoveBatch, index: usize, why: MoveError) -> Error {
        self.r#move = batch.first + index as u64;
        // The batch's tokens are still buffered: pass 3 x `index` of them.
        // (Keeping each move's offset instead cost a store a move.)
        let bytes = self.chunks.bytes();
        let mut at = batch.from.saturating_sub(self.chunks.offset_of(0)) as usize;
        let run = |at: usize, space: bool| {
            let rest = bytes.get(at..).unwrap_or_default();
            at + rest.iter().take_while(|&&b| is_space(b) == space).count()
        };
        for _ in 0..3 * index {
            at = run(run(at, true), false);
        }
        self.move_start = self.chunks.offset_of(run(at, true));
        self.reject(why)
    }

    /// Finds the plain tokens of the block at the reading position, when a
    /// whole block is buffered.
    #[inline(always)]
    fn find_block(&mut self) {
        let pos = self.chunks.pos;
        match window_at(self.chunks.bytes(), pos) {
            Some(window) => {
                self.block = BlockTokens::find(window);
                self.block_at = pos;
            }
            None => self.block = BlockTokens::default(),
        }
    }

    /// The error for the last move read, which the engine refused, at the
    /// token it is about.
    #[cold]
    pub fn reject(&mut self, why: MoveError) -> Error {
        let field = why.field();
        if self.fields_at[0] == self.move_start {
            let index = match field {
                MoveField::Row => 0,
                MoveField::Column => 1,
                MoveField::Player => 2,
            };
            return self.error(self.fields_at[index], why.into());
        }
        // A move read from a block: read it again, token by token, for its
        // positions. It is still buffered: nothing was read after it.
        self.chunks.pos = (self.move_start - self.chunks.offset_of(0)) as usize;
        let mut at = self.move_start;
        for token in [MoveField::Row, MoveField::Column, MoveField::Player] {
            let expected = Expected::Move {
                field: token,
                declared: self.moves,
            };
            match self.next_int(expected, Token::After(&[])) {
                Ok((_, offset)) if token == field => at = offset,
                Ok(_) => {}
                Err(error) => return error,
            }
        }
        self.error(at, why.into())
    }

    /// Skips the buffered space at the reading position: where it stops,
    /// and whether a token starts there (else the buffer ran out).
    #[inline(always)]
    fn skip_buffered_space(&mut self) -> (usize, bool) {
        let bytes = self.chunks.bytes();
        let mut at = self.chunks.pos;
        while at < bytes.len() && is_space(bytes[at]) {
            at += 1;
        }
        let found = at < bytes.len();
        self.chunks.pos = at;
        (at, found)
    }

    /// Skips space to the next token and returns its buffer index. A token
    /// that starts a record lets go of everything before it; another lets
    /// go of the space before it, pinning what its record holds.
    #[inline(always)]
    fn skip_space(&mut self, expected: Expected, token: Token) -> Result<usize, Error> {
        if let Token::First = token {
            self.chunks.unpin_all();
        }
        loop {
            let (at, found) = self.skip_buffered_space();
            if let Token::First = token {
                self.chunks.keep = at;
            }
            if found {
                return Ok(at);
            }
            if let Token::After(held) = token {
                self.let_go_before(at, held);
            }
            if !self.refill()? {
                let end = self.chunks.offset_of(self.chunks.end);
                return Err(self.error(end, DataErrorKind::UnexpectedEnd(expected)));
            }
        }
    }

    /// Lets the buffer go of the bytes before index `at`, keeping the
    /// places of the tokens `held` that messages may still point at.
    #[cold]
    fn let_go_before(&mut self, at: usize, held: &[u64]) {
        for &offset in held {
            self.chunks.pin(offset);
        }
        self.chunks.keep = at;
    }

    /// Reads one integer token, refilling as needed: its value and absolute
    /// offset. For headers, the tail of the input, and whatever the block
    /// finder leaves alone.
    fn next_int(&mut self, expected: Expected, token: Token) -> Result<(i64, u64), Error> {
        // The token read here may be one the block still offers.
        self.block = BlockTokens::default();
        let start = self.skip_space(expected, token)?;
        let offset = self.chunks.offset_of(start);
        match scan_int(self.chunks.bytes(), start, self.chunks.at_eof()) {
            Scanned::Int(value, end) => {
                self.chunks.pos = end;
                Ok((value, offset))
            }
            Scanned::Incomplete => self.next_long_int(start, token),
            Scanned::NotInteger => {
                let text = self.chunks.token_text(start);
                Err(self.error(offset, DataErrorKind::NotInteger(text)))
            }
            Scanned::TooLarge => {
                let text = self.chunks.token_text(start);
                Err(self.error(offset, DataErrorKind::TooLarge(text)))
            }
        }
    }

    /// Reads an integer token that runs past the buffered bytes, streaming
    /// it: holding it whole and scanning it again after each read would cost
    /// memory and time that grow with its length (millions of leading
    /// zeros).
    #[cold]
    fn next_long_int(&mut self, start: usize, token: Token) -> Result<(i64, u64), Error> {
        let offset = self.chunks.offset_of(start);
        if let Token::After(held) = token {
            self.let_go_before(start, held);
        }
        self.chunks.pin(offset);
        self.chunks.pos = start;
        let read = self.chunks.take_int().map_err(|source| Error::Read {
            input: self.name.clone(),
            source,
        })?;
        match read.value {
            Ok(value) => Ok((value, offset)),
            Err(IntFault::NotInteger) => {
                Err(self.error(offset, DataErrorKind::NotInteger(read.text)))
            }
            Err(IntFault::TooLarge) => Err(self.error(offset, DataErrorKind::TooLarge(read.text))),
        }
    }

    /// Checks that nothing but space follows the last case (of the input,
    /// or of the part being read).
    fn expect_end(&mut self) -> Result<(), Error> {
        // Not `skip_space`: its end-of-input error would work out a line and
        // column, on every part of a split input, only to be dropped.
        loop {
            let (at, found) = self.skip_buffered_space();
            self.chunks.keep = at;
            if found {
                return Err(self.trailing_data(at));
            }
            if !self.refill()? {
                return Ok(());
            }
        }
    }

    /// Whether only space is left of the input, passing it.
    fn only_space_left(&mut self) -> Result<bool, Error> {
        loop {
            let (at, found) = self.skip_buffered_space();
            self.chunks.keep = at;
            if found {
                return Ok(false);
            }
            if !self.refill()? {
                return Ok(true);
            }
        }
    }

    #[cold]
    fn trailing_data(&mut self, start: usize) -> Error {
        // The offset first: reading the token's text may refill.
        let at = self.chunks.offset_of(start);
        let text = self.chunks.token_text(start);
        // Past the last case there is no case or move to name.
        Error::Data {
            input: self.name.clone(),
            error: self
                .chunks
                .error_at(at, None, None, DataErrorKind::TrailingData(text)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Baseline;

    /// Moves of zero-padded numbers, 33 bytes each: nearly every other
    /// one runs past the end of a 64-byte block.
    fn padded_moves(count: u32) -> (String, Vec<[u32; 3]>) {
        let moves: Vec<[u32; 3]> = (0..count).map(|i| [i % 97, i / 97, 1 + i % 2]).collect();
        let mut text = format!("1\n{:010}\n{:010}\n", 100, count);
        for [r, c, p] in &moves {
            text.push_str(&format!("{r:010} {c:010} {p:010}\n"));
        }
        (text, moves)
    }

    #[test]
    fn moves_that_run_past_a_block_are_read_whole_and_in_step() {
        let (text, moves) = padded_moves(200);
        let mut reader = Reader::new(text.as_bytes(), InputName::Stdin);
        assert!(matches!(reader.next_case(), Ok(Some(_))));
        let mut batch = MoveBatch::default();
        let mut read = Vec::new();
        while read.len() < moves.len() {
            let left = (moves.len() - read.len()) as u64;
            if reader.fill_batch(Baseline, &mut batch, left) == 0 {
                // The last few, too near the end for a whole block.
                let next = reader.next_move().expect("a valid move");
                let fields = [next.row, next.col, next.player];
                read.push(fields.map(|field| u32::try_from(field).expect("small")));
            } else {
                read.extend_from_slice(batch.moves());
            }
        }
        assert_eq!(read, moves);
        assert!(matches!(reader.next_case(), Ok(None)));
    }

    #[test]
    fn a_move_whose_second_block_will_not_do_is_left_whole_to_the_general_path() {
        // The block starts at the LF after Q. The first move is bytes 1 to
        // 50, the second move's row bytes 52 to 61; its column, past u32,
        // starts at byte 63 and runs into the next block. Space after the
        // last case lets blocks be read to the end.
        let first = format!("{:010}{space}{:010}{space}{:010}", 1, 2, 1, space = " ".repeat(10));
        let text = format!("1\n100\n2\n{first}\n{:010} 99999999999 1\n{}", 3, " ".repeat(100));
        let mut reader = Reader::new(text.as_bytes(), InputName::Stdin);
        assert!(matches!(reader.next_case(), Ok(Some(_))));
        let mut batch = MoveBatch::default();
        assert_eq!(reader.fill_batch(Baseline, &mut batch, 2), 1);
        assert_eq!(batch.moves(), [[1, 2, 1]]);
        assert_eq!(reader.fill_batch(Baseline, &mut batch, 1), 0);
        let second = reader.next_move().expect("an integer, if not a column");
        assert_eq!((second.row, second.col), (3, 99_999_999_999));
    }
}
