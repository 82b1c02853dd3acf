//! The game itself: boards, moves, wins and the after-win policies, with no I/O.
//!
//! Two engines decide wins. The counter engine keeps a signed running sum per
//! row, column and diagonal (+1 for player 1, -1 for player 2), so a line is
//! one player's exactly when its sum has magnitude N: O(1) per move. (Small
//! boards count each row and column down per player instead, which is the
//! same information; see `Dense`.) The scan
//! engine looks at the cells of each line, the brute force of the classic
//! write-ups; it exists so that the two can check each other.
//!
//! Storage follows the work, not the board: boards up to [`DENSE_MAX_N`] use
//! flat arrays, boards up to [`PACKED_MAX_N`] two bits a cell (taken, and
//! whose) in memory that is zero until touched when the game's moves are
//! many, larger boards and shorter games hash tables holding only the
//! cells and lines that were played. Each way a reset
//! between games costs O(moves played).

use std::fmt;
use std::hash::BuildHasher;

use crate::simd::{self, Cpu, Kernel};

/// The largest board size the solver accepts.
pub const MAX_N: i64 = 1_000_000_000;

/// Boards up to this size keep flat arrays (at most 344 KiB of cells).
pub const DENSE_MAX_N: u32 = 1024;

/// Boards up to this size, and larger than [`DENSE_MAX_N`], keep the cells
/// of a game with more moves than a bitmap has words as bits: at most
/// 16 MiB, of which only the rows played on are ever touched. (A hash map
/// costs 20 to 40 bytes a move and a hash each: ten million moves on one
/// board took 400 MiB.)
pub const PACKED_MAX_N: u32 = 8192;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Player {
    /// Player 1, who plays X.
    One = 1,
    /// Player 2, who plays O.
    Two = 2,
}

impl Player {
    /// The player numbered `number` (1 or 2), if there is one.
    pub fn from_number(number: i64) -> Option<Player> {
        match number {
            1 => Some(Player::One),
            2 => Some(Player::Two),
            _ => None,
        }
    }

    /// The player's number, 1 or 2.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The player's mark on a drawn board.
    pub fn mark(self) -> char {
        match self {
            Player::One => 'X',
            Player::Two => 'O',
        }
    }

    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// Player 1 for 0, player 2 for anything else.
    #[inline(always)]
    fn of_index(index: u32) -> Player {
        if index == 0 { Player::One } else { Player::Two }
    }

    /// +1 for player 1, -1 for player 2: a mark's weight in a line's sum.
    fn sign(self) -> i32 {
        3 - 2 * i32::from(self as u8)
    }
}

/// What a move returns: nobody has won (0), or the winner's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The move completes no line: the move returns 0.
    NoWin,
    /// The move returns this player's number.
    Win(Player),
}

impl Outcome {
    /// The number the problem's `move` returns: 0, 1 or 2.
    pub fn number(self) -> u8 {
        match self {
            Outcome::NoWin => 0,
            Outcome::Win(player) => player.number(),
        }
    }
}

/// What to do with moves that come after a game has been won.
///
/// The statement promises there are none; real test files break that promise
/// and popular reference solutions disagree about what to print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AfterWin {
    /// A move after the win is an error.
    #[default]
    Error,
    /// Keep playing: a move wins when a line through it is now all its player's.
    Continue,
    /// LeetCode's grader: a move returns its player when its row, its column or
    /// either diagonal (on it or not) belongs entirely to one player.
    Leetcode,
}

/// How wins are detected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineKind {
    /// Signed running sums per line: O(1) per move.
    #[default]
    Counter,
    /// Looks at the cells of each line: O(N) per move, for cross-checking.
    Scan,
}

/// The rules a game's construction and options obey.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// The after-win policy.
    pub after_win: AfterWin,
    /// The engine that detects wins.
    pub engine: EngineKind,
}

/// A board size known to be in 1..=[`MAX_N`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BoardSize(u32);

impl BoardSize {
    /// The smallest board, 1 x 1.
    pub const MIN: BoardSize = BoardSize(1);

    /// Checks a board size.
    pub fn new(n: i64) -> Result<BoardSize, BadSize> {
        if (1..=MAX_N).contains(&n) {
            Ok(BoardSize(n as u32))
        } else {
            Err(BadSize(n))
        }
    }

    /// N.
    pub fn get(self) -> u32 {
        self.0
    }

    /// N x N, which cannot overflow.
    pub fn cells(self) -> u64 {
        u64::from(self.0) * u64::from(self.0)
    }
}

/// Why a board size was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board size N must be between 1 and {MAX_N}, found {0}")]
pub struct BadSize(pub i64);

/// Why a move was refused. The game is unchanged by a refused move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The row is not on the board.
    #[error("row {row} is off the board: it must be between 0 and {max}", max = .n - 1)]
    RowOffBoard {
        /// The row given.
        row: i64,
        /// The board size.
        n: i64,
    },
    /// The column is not on the board.
    #[error("column {col} is off the board: it must be between 0 and {max}", max = .n - 1)]
    ColumnOffBoard {
        /// The column given.
        col: i64,
        /// The board size.
        n: i64,
    },
    /// The player is neither 1 nor 2.
    #[error("player must be 1 or 2, found {0}")]
    BadPlayer(i64),
    /// The game was already won and the policy is [`AfterWin::Error`].
    #[error(
        "the game was already won by player {} at move {at_move}; no more moves are allowed \
         (see --after-win)",
        winner.number()
    )]
    AfterWin {
        /// Who won.
        winner: Player,
        /// The 1-based number of the winning move.
        at_move: u64,
    },
    /// The cell already holds a mark.
    #[error("cell ({row}, {col}) is already taken")]
    Taken {
        /// The cell's row.
        row: i64,
        /// The cell's column.
        col: i64,
    },
    /// Not a fault of the move's: the memory to hold one more played cell
    /// is not there (a board larger than the bitmaps take, under a memory
    /// limit). The command fails with its own exit status.
    #[error("out of memory: no room to hold the board's {moves} played cells and one more")]
    NoRoom {
        /// Moves played before this one.
        moves: u64,
    },
}

/// Which field of a move an error is about, so a reader can point at its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveField {
    /// The row, or the move as a whole.
    Row,
    /// The column.
    Column,
    /// The player.
    Player,
}

impl MoveError {
    /// The field whose token the error should point at.
    pub fn field(&self) -> MoveField {
        match self {
            MoveError::ColumnOffBoard { .. } => MoveField::Column,
            MoveError::BadPlayer(_) => MoveField::Player,
            _ => MoveField::Row,
        }
    }
}

/// A line of the board: the unit a win is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// A row, by index.
    Row(u32),
    /// A column, by index.
    Column(u32),
    /// The main diagonal, (0, 0) to (N-1, N-1).
    Diagonal,
    /// The anti-diagonal, (0, N-1) to (N-1, 0).
    AntiDiagonal,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Row(r) => write!(f, "row {r}"),
            Line::Column(c) => write!(f, "column {c}"),
            Line::Diagonal => f.write_str("diagonal"),
            Line::AntiDiagonal => f.write_str("anti-diagonal"),
        }
    }
}

/// Lines named as one phrase: `row 0 and column 2`, `row 1, column 1 and
/// diagonal`.
pub struct Lines<'a>(pub &'a [Line]);

impl fmt::Display for Lines<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.0.len();
        for (index, line) in self.0.iter().enumerate() {
            let before = match index {
                0 => "",
                _ if index + 1 == count => " and ",
                _ => ", ",
            };
            write!(f, "{before}{line}")?;
        }
        Ok(())
    }
}

/// Cells and line sums of a board up to [`DENSE_MAX_N`], in flat arrays.
///
/// Every cell carries the stamp of the game that marked it, so a cell from
/// an earlier game reads as empty and a reset is one increment: no list of
/// played cells to keep, nothing to undo. Boards up to
/// [`STAMPED_CELLS_MAX_N`] give each cell a stamp of its own; larger ones
/// give one to each [`CellGroup`] of 24 cells. (Two bytes a cell made
/// N = 1000 a table of 2 MB, past the CPU's second-level cache, where
/// nearly every move missed; in groups it is 336 KB.)
#[derive(Debug, Default)]
struct Dense {
    /// Side of `cells`: the largest N up to [`STAMPED_CELLS_MAX_N`] seen, so
    /// mixed small sizes share them.
    side: usize,
    /// Row-major, `side` x `side`: `stamp | player` if taken in this game,
    /// anything less if empty (stamps only grow between clearings).
    cells: Vec<u16>,
    /// The cells of boards over [`STAMPED_CELLS_MAX_N`]: row r, column c
    /// in group `r * group_stride + c / 24`.
    groups: Vec<CellGroup>,
    /// Groups a row takes: those of the largest N over
    /// [`STAMPED_CELLS_MAX_N`] seen.
    group_stride: usize,
    /// Whether this game's cells are in `groups`.
    groups_in_use: bool,
    /// The current game's stamp: a multiple of 4, never 0.
    stamp: u16,
    /// Entry [`ROW`] + i: the marks player 1 and player 2 still lack to
    /// fill row i; entry [`COLUMN`] + i, the same for column i. Counted
    /// down, not summed: a move wins its row when its player's count
    /// reaches 0, one test where a sum needs a sign and a compare with the
    /// full value. (Nobody fills a row holding the other's mark: its cells
    /// run out first.) At fixed places in one array, so the hot loop finds
    /// both of a move's counts from one address: 16 KiB, made once.
    lines: Vec<[u32; 2]>,
    /// The board size the counts were last filled for: every row and
    /// column below it not in `played` still holds this N.
    filled_for: usize,
    /// The rows and columns of this game's moves, complete while
    /// `played_complete` (at most [`RECORDED_MOVES`] moves). A game of few
    /// moves on a large board then resets only its own lines, not all 2N:
    /// a file of short games on N = 1000 spent half its time refilling
    /// counts.
    played: Vec<[u32; 2]>,
    /// Whether `played` holds every move of this game.
    played_complete: bool,
}

/// Moves a dense game records for its reset (see [`Dense::played`]). Past
/// it the reset refills all 2N counts, at most 2N / this many stores a move.
const RECORDED_MOVES: usize = 256;

/// Boards up to this size refill every count at a reset instead of
/// recording the moves played (see [`Dense::played`]).
const SMALL_BOARD: usize = 32;

/// Dense boards up to this size count a move on a diagonal with selects,
/// not branches: on a board of ten, one random move in five is on one, and
/// the branches were mispredicted; on a board of a hundred, where one in
/// fifty is, the selects cost more than the branches (figures in
/// `docs/PERFORMANCE.md`, round 16).
const DIAGONAL_SELECTS_MAX_N: u32 = 16;

/// Dense boards up to this size stamp each cell, two bytes (128 KiB at
/// most); larger ones keep their cells in [`CellGroup`]s.
const STAMPED_CELLS_MAX_N: usize = 256;

/// Boards up to this side are kept in [`Tiny`], a word a player. Their
/// moves test the diagonals without branches: there a move is on one so
/// often, and off so often, that branches are mispredicted
/// (`docs/PERFORMANCE.md`, "Figures behind design choices").
const TINY_MAX_N: u32 = 8;

/// The cells of a board up to [`TINY_MAX_N`]: a word a player, bit 8r + c
/// for cell (r, c). A row's marks are then a byte, a column's every
/// eighth bit.
///
/// Why: a file of short games on the statement's 3 x 3 board resets a
/// board every few moves. Here that is two stores, and a move tests its
/// cell and its four lines by masks in registers, where the dense store's
/// stamps and line counts took a loop of N to reset and a load and store
/// a count.
#[derive(Clone, Copy, Debug, Default)]
struct Tiny {
    /// Player 1's marks, then player 2's.
    marks: [u64; 2],
}

/// The bit of every row's first cell: column 0 of a [`Tiny`] board.
const TINY_COLUMN: u64 = 0x0101_0101_0101_0101;

/// [`TinyLines`] by N (N = 0 has no board; its entry is N = 1's).
static TINY_LINES: [TinyLines; TINY_MAX_N as usize + 1] = {
    let mut lines = [TinyLines::computed(1); TINY_MAX_N as usize + 1];
    let mut n = 2;
    while n <= TINY_MAX_N {
        lines[n as usize] = TinyLines::computed(n);
        n += 1;
    }
    lines
};

/// The lines of a [`Tiny`] board, full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TinyLines {
    /// Row 0: row r is this shifted by 8r.
    row: u64,
    /// Column 0: column c is this shifted by c.
    column: u64,
    /// The diagonal, cells (i, i).
    diagonal: u64,
    /// The anti-diagonal, cells (i, N - 1 - i).
    anti_diagonal: u64,
}

/// [`TicTacToe::play_tiny_counter`] as a [`Kernel`]: compiled for each
/// build, in a function of its own.
struct TinyLoop<'a, const LEETCODE: bool> {
    game: &'a mut TicTacToe,
    moves: &'a [[u32; 3]],
}

impl<const LEETCODE: bool> Kernel for TinyLoop<'_, LEETCODE> {
    type Output = (usize, bool);

    #[inline(always)]
    fn run<C: Cpu>(self, _cpu: C) -> (usize, bool) {
        self.game.play_tiny_counter::<LEETCODE>(self.moves)
    }
}

impl TinyLines {
    /// The lines of an N x N board (N from 1 to [`TINY_MAX_N`]), looked up:
    /// a game of a few moves has no time to compute them.
    #[inline(always)]
    fn of(n: u32) -> TinyLines {
        TINY_LINES[n.clamp(1, TINY_MAX_N) as usize]
    }

    /// The lines of an N x N board, N from 1 to [`TINY_MAX_N`].
    const fn computed(n: u32) -> TinyLines {
        // Bits below 8N: rows 0 to N - 1.
        let rows = u64::MAX >> (64 - 8 * n);
        TinyLines {
            row: (1 << n) - 1,
            column: TINY_COLUMN & rows,
            // Cell (i, i) is bit 9i.
            diagonal: 0x8040_2010_0804_0201 & rows,
            // Cell (i, N - 1 - i) is bit 7i + N - 1; the next such bit,
            // 8N - 1, is past the line.
            anti_diagonal: (0x0102_0408_1020_4080 >> (8 - n)) & (rows >> 1),
        }
    }
}

impl Tiny {
    /// The bit of cell (`r`, `c`), both below [`TINY_MAX_N`].
    #[inline(always)]
    fn bit(r: u32, c: u32) -> u64 {
        1 << (8 * r + c)
    }

    fn owner(&self, r: u32, c: u32) -> Option<Player> {
        let bit = Tiny::bit(r, c);
        if self.marks[0] & bit != 0 {
            Some(Player::One)
        } else if self.marks[1] & bit != 0 {
            Some(Player::Two)
        } else {
            None
        }
    }

    /// The signed sum of row or column `index` (`kind` [`ROW`] or
    /// [`COLUMN`]) of an N x N board.
    fn sum(&self, n: u32, index: u32, kind: usize) -> i32 {
        let lines = TinyLines::of(n);
        self.line_sum(if kind == ROW {
            lines.row << (8 * index)
        } else {
            lines.column << index
        })
    }

    /// The signed sum of the cells of `line`, a mask.
    fn line_sum(&self, line: u64) -> i32 {
        let count = |marks: u64| (marks & line).count_ones() as i32;
        count(self.marks[0]) - count(self.marks[1])
    }

    /// The signed sums of the diagonal and the anti-diagonal of an N x N
    /// board. The tiny store's loop keeps no sums: they are worked out
    /// from the marks when asked for.
    fn diagonal_sums(&self, n: u32) -> (i32, i32) {
        let lines = TinyLines::of(n);
        (
            self.line_sum(lines.diagonal),
            self.line_sum(lines.anti_diagonal),
        )
    }

    /// Marks an empty cell of an N x N board; returns the new sums of its
    /// row and column, or `None` if the cell was taken.
    fn place(&mut self, n: u32, r: u32, c: u32, mover: Player) -> Option<(i32, i32)> {
        let bit = Tiny::bit(r, c);
        if (self.marks[0] | self.marks[1]) & bit != 0 {
            return None;
        }
        self.marks[usize::from(mover.number() - 1)] |= bit;
        Some((self.sum(n, r, ROW), self.sum(n, c, COLUMN)))
    }
}

/// The most moves a game may declare and keep its cells in a [`Few`] list,
/// on a board of more than this side.
const FEW_MOVES: usize = 32;

/// The cells of a game of at most [`FEW_MOVES`] moves on a board over
/// [`FEW_MOVES`], in a list in the order played.
///
/// Why: such a game cannot fill a line (each takes more marks than it
/// has moves), so it keeps no line sums, and a scan of its few cells
/// finds a taken one sooner than a board does. A file of short games on
/// N = 1000 to 10^9 reset and probed a board of hundreds of kilobytes (cell
/// groups, a hash table) for a handful of moves each.
#[derive(Clone, Copy, Debug, Default)]
struct Few {
    /// Each cell played: its row times 2^32 plus its column.
    cells: [u64; FEW_MOVES],
    /// The player of each cell.
    players: [u8; FEW_MOVES],
    /// Cells played.
    len: usize,
}

impl Few {
    /// Whether a game of `moves` moves on an `n` x `n` board is kept in a
    /// list.
    #[inline(always)]
    fn holds(n: u32, moves: u64) -> bool {
        moves <= FEW_MOVES as u64 && n > FEW_MOVES as u32
    }

    /// The player of the cell at `at` in the list.
    fn player(&self, at: usize) -> Player {
        Player::of_index(u32::from(self.players[at]) - 1)
    }

    /// The list's key of cell (`r`, `c`).
    #[inline(always)]
    fn key(r: u32, c: u32) -> u64 {
        u64::from(r) << 32 | u64::from(c)
    }

    fn owner(&self, r: u32, c: u32) -> Option<Player> {
        let at = self.cells[..self.len]
            .iter()
            .position(|&key| key == Few::key(r, c))?;
        Some(self.player(at))
    }

    /// The signed sum of row or column `index` (`kind` [`ROW`] or
    /// [`COLUMN`]).
    fn sum(&self, index: u32, kind: usize) -> i32 {
        let on_line = |key: u64| {
            let line = if kind == ROW {
                key >> 32
            } else {
                key & u64::from(u32::MAX)
            };
            line == u64::from(index)
        };
        (0..self.len)
            .filter(|&at| on_line(self.cells[at]))
            .map(|at| self.player(at).sign())
            .sum()
    }

    /// Marks an empty cell; returns the new sums of its row and column, or
    /// `None` if the cell was taken. The list must have room.
    fn place(&mut self, r: u32, c: u32, mover: Player) -> Option<(i32, i32)> {
        let key = Few::key(r, c);
        if self.cells[..self.len].contains(&key) {
            return None;
        }
        self.cells[self.len] = key;
        self.players[self.len] = mover.number();
        self.len += 1;
        Some((self.sum(r, ROW), self.sum(c, COLUMN)))
    }
}

/// Where the rows' counts start in [`Dense`]'s `lines`.
const ROW: usize = 0;
/// Where the columns' counts start.
const COLUMN: usize = DENSE_MAX_N as usize;

/// The low bits of a cell hold the player; the rest is the game's stamp.
const PLAYER_BITS: u16 = 0b11;

/// Cells in a [`CellGroup`].
const GROUP_CELLS: u32 = 24;

/// 24 cells of a row of a dense board over [`STAMPED_CELLS_MAX_N`] in one
/// word: bit i for player 1's mark on cell i, bit 24 + i for player 2's,
/// and the stamp of the game that wrote them in the top 16 bits. A group
/// stamped by an earlier game is empty.
type CellGroup = u64;

/// Where a [`CellGroup`]'s stamp starts.
const GROUP_STAMP_SHIFT: u32 = 48;

/// Marks cell (`r`, `c`) of a board kept in [`CellGroup`]s of
/// `group_stride` to a row, for `player` (1 or 2) in the game of `stamp`.
/// False, with nothing changed, if the cell is taken (or outside `groups`,
/// which `Dense::reset` rules out: the general path then refuses the move
/// rather than the solver stopping).
#[inline(always)]
fn mark_in_group(
    groups: &mut [CellGroup],
    group_stride: usize,
    stamp: u16,
    [r, c, player]: [u32; 3],
) -> bool {
    let Some(group) = groups.get_mut(r as usize * group_stride + (c / GROUP_CELLS) as usize) else {
        return false;
    };
    let stamped = u64::from(stamp) << GROUP_STAMP_SHIFT;
    // An earlier game's group reads as empty: a select, not a branch, as
    // short games find most groups stale and long ones most current.
    let marks = if *group >> GROUP_STAMP_SHIFT == u64::from(stamp) {
        *group
    } else {
        stamped
    };
    let bit = 1u64 << (c % GROUP_CELLS);
    // The stamp's bits shifted down land above bit 23, where `bit` is not.
    if (marks | marks >> GROUP_CELLS) & bit != 0 {
        return false;
    }
    *group = marks | bit << (GROUP_CELLS * (player - 1));
    true
}

impl Dense {
    /// Empties the board for a game on N x N; false, with the board as it
    /// was, if its memory is not there (a sandbox's cap): the game then
    /// goes to a store whose memory follows its moves, and which says when
    /// that runs out, rather than the process aborting.
    #[inline(always)]
    fn reset(&mut self, n: usize) -> bool {
        // A small board again, the usual case of a file of short games:
        // inlined into the solving loop, with nothing to grow or forget.
        let stamp = self.stamp.wrapping_add(PLAYER_BITS + 1);
        if n <= SMALL_BOARD && n <= self.side && stamp != 0 && !self.lines.is_empty() {
            self.groups_in_use = false;
            self.stamp = stamp;
            let full = [n as u32; 2];
            self.lines[ROW..ROW + n].fill(full);
            self.lines[COLUMN..COLUMN + n].fill(full);
            self.filled_for = n;
            self.played.clear();
            self.played_complete = false;
            return true;
        }
        self.reset_any(n)
    }

    /// [`reset`](Self::reset) for any board.
    #[cold]
    #[inline(never)]
    fn reset_any(&mut self, n: usize) -> bool {
        let groups_in_use = n > STAMPED_CELLS_MAX_N;
        if groups_in_use {
            // Rows of the largest N seen; more rows for a larger N even when
            // they take no more groups (N = 1000 and 1007 both take 42).
            let stride = self.group_stride.max(n.div_ceil(GROUP_CELLS as usize));
            if self.groups.len() < n * stride {
                let Ok(groups) = bytemuck::allocation::try_zeroed_vec(n * stride) else {
                    return false;
                };
                self.group_stride = stride;
                self.groups = groups;
            }
        } else if self.side < n {
            let Ok(cells) = bytemuck::allocation::try_zeroed_vec(n * n) else {
                return false;
            };
            self.side = n;
            self.cells = cells;
        }
        if self.lines.is_empty() {
            let Ok(lines) = bytemuck::allocation::try_zeroed_vec(2 * DENSE_MAX_N as usize) else {
                return false;
            };
            self.lines = lines;
            self.filled_for = 0;
        }
        self.groups_in_use = groups_in_use;
        self.stamp = self.stamp.wrapping_add(PLAYER_BITS + 1);
        if self.stamp == 0 {
            // Every 16,383 games the stamps run out: forget them all.
            self.cells.fill(0);
            self.groups.fill(0);
            self.stamp = PLAYER_BITS + 1;
        }
        // n <= DENSE_MAX_N, so the cast is exact.
        let full = [n as u32; 2];
        if self.played_complete && self.filled_for == n {
            for &[r, c] in &self.played {
                self.lines[ROW + r as usize] = full;
                self.lines[COLUMN + c as usize] = full;
            }
        } else {
            self.lines[ROW..ROW + n].fill(full);
            self.lines[COLUMN..COLUMN + n].fill(full);
            self.filled_for = n;
        }
        self.played.clear();
        // On a small board refilling all 2N counts costs less than noting
        // each game's moves.
        self.played_complete = n > SMALL_BOARD;
        true
    }

    /// Notes moves played on the counts, for [`reset`](Self::reset).
    #[inline(always)]
    fn record(&mut self, moves: &[[u32; 3]]) {
        if self.played_complete {
            if self.played.len() + moves.len() <= RECORDED_MOVES {
                self.played.extend(moves.iter().map(|&[r, c, _]| [r, c]));
            } else {
                self.played_complete = false;
            }
        }
    }

    fn owner(&self, r: u32, c: u32) -> Option<Player> {
        if self.groups_in_use {
            let group = self.groups[r as usize * self.group_stride + (c / GROUP_CELLS) as usize];
            if group >> GROUP_STAMP_SHIFT != u64::from(self.stamp) {
                return None;
            }
            let bit = 1u64 << (c % GROUP_CELLS);
            return if group & bit != 0 {
                Some(Player::One)
            } else if group >> GROUP_CELLS & bit != 0 {
                Some(Player::Two)
            } else {
                None
            };
        }
        let cell = self.cells[r as usize * self.side + c as usize];
        if cell & !PLAYER_BITS != self.stamp {
            return None;
        }
        Player::from_number(i64::from(cell & PLAYER_BITS))
    }

    /// Marks an empty cell; returns the new sums of its row and column, or
    /// `None` if the cell was taken.
    #[inline(always)]
    fn place(&mut self, r: u32, c: u32, mover: Player) -> Option<(i32, i32)> {
        let (ri, ci) = (r as usize, c as usize);
        if self.groups_in_use {
            let played = [r, c, u32::from(mover.number())];
            if !mark_in_group(&mut self.groups, self.group_stride, self.stamp, played) {
                return None;
            }
        } else {
            let cell = &mut self.cells[ri * self.side + ci];
            if *cell & !PLAYER_BITS == self.stamp {
                return None;
            }
            *cell = self.stamp | u16::from(mover.number());
        }
        self.record(&[[r, c, 0]]);
        let index = usize::from(mover.number() - 1);
        self.lines[ROW + ri][index] -= 1;
        self.lines[COLUMN + ci][index] -= 1;
        Some((self.sum(ri, ROW), self.sum(ci, COLUMN)))
    }

    /// The signed sum of row or column `index` (`kind` [`ROW`] or
    /// [`COLUMN`]), from what each player still lacks.
    fn sum(&self, index: usize, kind: usize) -> i32 {
        let lacks = self.lines[kind + index];
        // Both are at most DENSE_MAX_N.
        lacks[1] as i32 - lacks[0] as i32
    }
}

/// Cells and line sums of a board up to [`PACKED_MAX_N`]: two bitmaps, row
/// by row, allocated zeroed so that the system hands out pages only as
/// rows are played on; a reset clears the rows and columns played on.
#[derive(Debug, Default)]
struct Packed {
    /// The largest N the bitmaps were made for.
    side: usize,
    /// 64-bit words a row takes: `side` bits, rounded up.
    row_words: usize,
    /// Bit c of row r: cell (r, c) is taken.
    taken: Box<[u64]>,
    /// Bit c of row r: cell (r, c) is player 2's (when taken).
    second: Box<[u64]>,
    /// Signed sums of the rows, then of the columns (from `side` on).
    sums: Vec<i32>,
    /// Bit i: row i has been played on; from `side` on, column i.
    touched: Vec<u64>,
    /// The rows and columns (column i as `side + i`) played on, to clear.
    played: Vec<u32>,
}

impl Packed {
    /// Makes room for an `n` x `n` board (false if the memory is not
    /// there: the caller uses the sparse store) and clears the last game.
    fn reset(&mut self, n: usize) -> bool {
        self.clear();
        if self.side >= n {
            return true;
        }
        let row_words = n.div_ceil(64);
        let (Ok(taken), Ok(second)) = (
            bytemuck::allocation::try_zeroed_slice_box::<u64>(n * row_words),
            bytemuck::allocation::try_zeroed_slice_box::<u64>(n * row_words),
        ) else {
            return false;
        };
        let (Ok(sums), Ok(touched)) = (
            bytemuck::allocation::try_zeroed_vec(2 * n),
            bytemuck::allocation::try_zeroed_vec((2 * n).div_ceil(64)),
        ) else {
            return false;
        };
        *self = Packed {
            side: n,
            row_words,
            taken,
            second,
            sums,
            touched,
            played: Vec::new(),
        };
        true
    }

    /// The 64-bit words of each of the two bitmaps of an `n` x `n` board.
    ///
    /// Also the fewest moves for which the bitmaps take less memory than
    /// the sparse store, which takes up to two words a move: its table of
    /// 64-bit slots is at most 3/4 full, and grows by half (32-bit slots,
    /// at most half full, take up to one and a half). A game of fewer moves is played
    /// there, with its own loop, in less memory: 200,000 moves on N = 8000
    /// took 21 MiB in the bitmaps, which a reset cleared row by row.
    fn bitmap_words(n: usize) -> usize {
        n * n.div_ceil(64)
    }

    /// Clears what the last game played.
    fn clear(&mut self) {
        for &line in &self.played {
            let line = line as usize;
            if line < self.side {
                let row = line * self.row_words..(line + 1) * self.row_words;
                self.taken[row.clone()].fill(0);
                self.second[row].fill(0);
            }
            self.sums[line] = 0;
            self.touched[line / 64] = 0;
        }
        self.played.clear();
    }

    fn owner(&self, r: u32, c: u32) -> Option<Player> {
        let (word, bit) = self.place_of(r, c);
        if self.taken[word] & bit == 0 {
            None
        } else if self.second[word] & bit == 0 {
            Some(Player::One)
        } else {
            Some(Player::Two)
        }
    }

    fn place_of(&self, r: u32, c: u32) -> (usize, u64) {
        let word = r as usize * self.row_words + c as usize / 64;
        (word, 1 << (c % 64))
    }

    /// Marks an empty cell; returns the new sums of its row and column, or
    /// `None` if the cell was taken.
    #[inline(always)]
    fn place(&mut self, r: u32, c: u32, mover: Player) -> Option<(i32, i32)> {
        let (word, bit) = self.place_of(r, c);
        if self.taken[word] & bit != 0 {
            return None;
        }
        self.taken[word] |= bit;
        if mover == Player::Two {
            self.second[word] |= bit;
        }
        let (row, col) = (r as usize, self.side + c as usize);
        for line in [row, col] {
            let flag = 1 << (line % 64);
            if self.touched[line / 64] & flag == 0 {
                self.touched[line / 64] |= flag;
                // At most 2 x side entries: each line once.
                self.played.push(line as u32);
            }
            self.sums[line] += mover.sign();
        }
        Some((self.sums[row], self.sums[col]))
    }

    fn sum(&self, line: usize) -> i32 {
        self.sums[line]
    }
}

/// Cells and line sums of a large board: only what was played, in two
/// open-addressing tables of one word a slot (a cell's key and owner; a
/// line's key and sum), linear probing, at most 3/4 full.
///
/// Why not a `HashMap` per kind: three maps cost three hashes, three
/// probes and three reservations a move, and 17 to 24 bytes an entry;
/// two tables of 8-byte slots hold a game of 10^5 moves in a third of the
/// memory (a solver thread each, under a judge's memory cap).
///
/// The hasher is seeded at random for each process: with a fixed one
/// (FxHash, say), a test file's author can pick cells whose keys all land
/// in one place, and each move then costs a walk of every cell before it.
///
/// The cells' slots are 32 bits wide on boards up to [`NARROW_MAX_N`],
/// where a cell's key fits them (`CellSlot`): half the memory, and more of
/// a long game's cells in the cache, where each move looks one up at random.
#[derive(Debug, Default)]
struct Sparse<S: CellSlot> {
    hasher: foldhash::fast::RandomState,
    /// Slot: `(row * N + col + 1) << 1 | (1 if player 2's)`; 0 is empty.
    cells: Table<S>,
    /// Slot: `(line + 1) << 32 | sum as u32`, line `row` or `N + col`; 0 is empty.
    lines: Table<u64>,
    /// Whether line sums are kept. A game of fewer than N moves can fill
    /// no line, and its moves then cost one table, not two: on huge boards
    /// (N = 10^9, games of 10^5 moves) the lines' table was twice the cells'.
    count_lines: bool,
    /// The line sums of a board up to [`FLAT_LINES_MAX_N`], in place of
    /// `lines`: row r at r, column c at N + c; all zero outside a game.
    /// At most 512 KiB, and no hash or probe a move.
    flat: Vec<i32>,
    /// The entries of `flat` this game made nonzero, while there is room
    /// for them (a reset clears those, else all of `flat`).
    flat_touched: Vec<u32>,
    /// Whether `flat_touched` holds every entry this game touched.
    flat_touched_complete: bool,
    /// Whether this game's sums are in `flat`.
    flat_in_use: bool,
    /// The cells of a long game on a board up to [`ROW_CELLS_MAX_N`], row
    /// by row, in place of `cells` but for rows past a bucket's room.
    rows: RowCells,
}

/// The largest board whose cells a [`RowCells`] holds: a column and one,
/// with the owner's bit, fits 16 bits.
const ROW_CELLS_MAX_N: u32 = 32_767;

/// The cells a row's bucket holds; the row's cells past them go to the
/// cells' table.
const ROW_BUCKET_CELLS: usize = 31;

/// The bit of a [`RowCells`] cell that says it is player 2's.
const ROW_CELL_SECOND: u16 = 1 << 15;

/// The cells of a long game on a board of up to [`ROW_CELLS_MAX_N`], in one
/// 64-byte bucket a row: its count, then each cell's column and one, with
/// [`ROW_CELL_SECOND`] if player 2's; 0 past the count.
///
/// Why: a long game's moves land at random among megabytes of the cells'
/// table, a cache miss and a hash a move. Its rows' buckets take 64 bytes
/// a row, and a move looks in its row's bucket, found without a hash: a
/// game of 197,015 moves on N = 10^4 holds its cells in 640 KB, not 1.6
/// MB, which the caches keep beside the input; and, at most 2 MiB (N =
/// 32,767), the buckets cost little more memory than the table even for a
/// game of one cell a row.
#[derive(Debug, Default)]
struct RowCells {
    buckets: Vec<RowBucket>,
    /// Buckets that may hold cells: the rows of the board last played.
    dirty: usize,
    /// Cells held.
    len: usize,
    in_use: bool,
}

/// One row's cells, a cache line: a bucket across two lines cost a second
/// miss a move, which its prefetch did not bring.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct RowBucket([u16; ROW_BUCKET_CELLS + 1]);

/// What marking a cell in its row's bucket found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowMark {
    Marked,
    Taken,
    /// The bucket is full: the cell, if anywhere, is in the cells' table.
    Full,
}

impl RowCells {
    /// Whether a game of `moves` moves on an `n` x `n` board keeps its
    /// cells here: at least one a row, from where the game keeps line sums
    /// and its moves take the rows' own loop (`play_rows_counter`), which
    /// was faster than the table's from there on; at most twenty-four
    /// (past that, most rows spill over).
    fn suits(n: u32, moves: u64) -> bool {
        n <= ROW_CELLS_MAX_N && (u64::from(n)..=24 * u64::from(n)).contains(&moves)
    }

    /// Starts an empty board of `n` rows; false if the memory is not there.
    fn start(&mut self, n: u32) -> bool {
        self.clear();
        let n = n as usize;
        if self.buckets.len() < n {
            if self
                .buckets
                .try_reserve_exact(n - self.buckets.len())
                .is_err()
            {
                return false;
            }
            self.buckets.resize(n, RowBucket::default());
        }
        self.dirty = n;
        self.in_use = true;
        true
    }

    /// Empties the buckets the last game used.
    fn clear(&mut self) {
        if self.in_use {
            self.buckets[..self.dirty].fill(RowBucket::default());
        }
        self.dirty = 0;
        self.len = 0;
        self.in_use = false;
    }

    /// Whether column `c` is among the bucket's cells.
    #[inline(always)]
    fn holds(RowBucket(bucket): &RowBucket, c: u32) -> bool {
        // The count's entry masked to 0, which no column and one is: all 32
        // entries, four whole vectors, are compared at once (31 of them
        // made the compiler shuffle the last vector's lanes into place).
        const CELLS: [u16; ROW_BUCKET_CELLS + 1] = {
            let mut masks = [!ROW_CELL_SECOND; ROW_BUCKET_CELLS + 1];
            masks[0] = 0;
            masks
        };
        let column = c as u16 + 1;
        // Every entry is looked at, with no early exit, so that the
        // compiler compares them all at once.
        let mut held = false;
        for (&cell, mask) in bucket.iter().zip(CELLS) {
            held |= cell & mask == column;
        }
        held
    }

    /// The owner of column `c`'s cell in the bucket, if it is there.
    fn owner_in(RowBucket(bucket): &RowBucket, c: u32) -> Option<Player> {
        let column = c as u16 + 1;
        bucket[1..]
            .iter()
            .find(|&&cell| cell & !ROW_CELL_SECOND == column)
            .map(|&cell| Player::of_index(u32::from(cell & ROW_CELL_SECOND != 0)))
    }

    fn owner(&self, r: u32, c: u32) -> Option<Option<Player>> {
        let bucket = self.buckets.get(r as usize)?;
        match RowCells::owner_in(bucket, c) {
            Some(owner) => Some(Some(owner)),
            None if usize::from(bucket.0[0]) == ROW_BUCKET_CELLS => None,
            None => Some(None),
        }
    }

    /// Marks the empty cell (`r`, `c`), `r` below the board's N.
    #[inline(always)]
    fn mark(&mut self, r: u32, c: u32, second: bool) -> RowMark {
        let Some(bucket) = self.buckets.get_mut(r as usize) else {
            return RowMark::Full;
        };
        if RowCells::holds(bucket, c) {
            return RowMark::Taken;
        }
        let RowBucket(bucket) = bucket;
        let count = usize::from(bucket[0]);
        if count == ROW_BUCKET_CELLS {
            return RowMark::Full;
        }
        bucket[count + 1] = (c as u16 + 1) | if second { ROW_CELL_SECOND } else { 0 };
        bucket[0] += 1;
        self.len += 1;
        RowMark::Marked
    }

    /// Starts bringing row `r`'s bucket into the cache.
    #[inline(always)]
    fn prefetch(&self, r: u64) {
        crate::simd::prefetch(&self.buckets, r as usize);
    }

    /// Every cell held: its row, its column, and whether it is player 2's.
    fn cells(&self) -> impl Iterator<Item = (u32, u32, bool)> + '_ {
        self.buckets[..self.dirty]
            .iter()
            .enumerate()
            .flat_map(|(r, RowBucket(bucket))| {
                bucket[1..=usize::from(bucket[0])].iter().map(move |&cell| {
                    (
                        r as u32,
                        u32::from(cell & !ROW_CELL_SECOND) - 1,
                        cell & ROW_CELL_SECOND != 0,
                    )
                })
            })
    }
}

/// The largest board whose cells' keys fit a 32-bit slot: N x N with the
/// owner's bit is below 2^32.
const NARROW_MAX_N: u32 = 46_340;

/// A slot of the cells' table of a sparse board: 32 or 64 bits.
trait CellSlot: Copy + Default + Eq + std::fmt::Debug {
    /// How full a table of these slots may get: `(k, m)`, k/m of its slots.
    const MOST_FULL: (usize, usize);
    /// Keeps a slot's value, which fits.
    fn of(value: u64) -> Self;
    /// The slot's value.
    fn get(self) -> u64;
    /// The game's sparse store of this width.
    fn store(game: &mut TicTacToe) -> &mut Sparse<Self>;
}

impl CellSlot for u32 {
    /// Half: 8 bytes a key, less than the 10.7 of 64-bit slots 3/4 full,
    /// and fewer slots a lookup goes through.
    const MOST_FULL: (usize, usize) = (1, 2);

    #[inline(always)]
    fn of(value: u64) -> u32 {
        // Keys of boards up to NARROW_MAX_N, the only ones kept here.
        value as u32
    }

    #[inline(always)]
    fn get(self) -> u64 {
        u64::from(self)
    }

    #[inline(always)]
    fn store(game: &mut TicTacToe) -> &mut Sparse<u32> {
        &mut game.narrow
    }
}

impl CellSlot for u64 {
    const MOST_FULL: (usize, usize) = (3, 4);

    #[inline(always)]
    fn of(value: u64) -> u64 {
        value
    }

    #[inline(always)]
    fn get(self) -> u64 {
        self
    }

    #[inline(always)]
    fn store(game: &mut TicTacToe) -> &mut Sparse<u64> {
        &mut game.sparse
    }
}

/// Boards up to this size keep their line sums in a flat array (see
/// `Sparse::flat`) once they keep any.
const FLAT_LINES_MAX_N: u32 = 1 << 16;

/// Bits of a cell slot below its key.
const CELL_VALUE_BITS: u32 = 1;
/// Bits of a line slot below its key.
const LINE_VALUE_BITS: u32 = 32;

impl<S: CellSlot> Sparse<S> {
    /// Clears the last game and starts one on an `n` x `n` board, keeping
    /// line sums from the start if `count_lines` (and the memory is there).
    fn reset(&mut self, n: u32, count_lines: bool) {
        self.cells.clear();
        self.rows.clear();
        self.lines.clear();
        if self.flat_in_use {
            if self.flat_touched_complete {
                for &line in &self.flat_touched {
                    self.flat[line as usize] = 0;
                }
            } else {
                self.flat.fill(0);
            }
            self.flat_touched.clear();
            self.flat_touched_complete = true;
            self.flat_in_use = false;
        }
        self.count_lines = false;
        if count_lines {
            // Without the memory, the sums are kept from move N on, or
            // that move fails for want of it.
            let _ = self.start_counting(n);
        }
    }

    /// Tells the cells' table that this game has `moves` moves on a board
    /// of `size`. The table is made for them at once, up to
    /// [`UP_FRONT_BYTES`], and past that grows fourfold, not by half, while
    /// more are to come: growing by half from 64 slots, the first long
    /// game of a file rehashed its cells about twenty times, three times
    /// as many moves as it played, and growing fourfold from 64 still
    /// rehashed nine tenths of a game of 2 x 10^5 moves. Past the first
    /// [`UP_FRONT_BYTES`], it grows only as moves are played, never to
    /// more than the game needs, and to at most about four times what the
    /// moves played so far need: a case that declares a million moves and
    /// holds a few thousand (a truncated or lying test file) costs memory
    /// for those it holds. Games of unknown length ([`u64::MAX`]) grow by
    /// half.
    fn expect_moves(&mut self, size: BoardSize, moves: u64) {
        if RowCells::suits(size.get(), moves) && self.rows.start(size.get()) {
            // The table holds only the cells of rows past their bucket's
            // room: it grows as they come.
            self.cells.expected = 0;
            return;
        }
        let keys = if moves == u64::MAX {
            0
        } else {
            moves.min(size.cells())
        };
        self.cells.expected = usize::try_from(keys).unwrap_or(usize::MAX);
        self.cells.make_room_up_front();
    }

    fn hash(&self, key: u64) -> u64 {
        self.hasher.hash_one(key)
    }

    fn owner(&self, n: u32, r: u32, c: u32) -> Option<Player> {
        if self.rows.in_use
            && let Some(owner) = self.rows.owner(r, c)
        {
            return owner;
        }
        let key = sparse_key(n, r, c) + 1;
        let slot = self.cells.find(self.hash(key), key, CELL_VALUE_BITS).ok()?;
        Some(if self.cells.slots[slot].get() & 1 == 0 {
            Player::One
        } else {
            Player::Two
        })
    }

    /// The sum of line `line` (a row, or N + a column) of an `n` x `n` board.
    fn sum(&self, n: u32, line: u64) -> i32 {
        if !self.count_lines {
            return self.sum_of_cells(n, line);
        }
        if self.flat_in_use {
            return self.flat[line as usize];
        }
        let key = line + 1;
        match self.lines.find(self.hash(key), key, LINE_VALUE_BITS) {
            Ok(slot) => self.lines.slots[slot].get() as u32 as i32,
            Err(_) => 0,
        }
    }

    /// The sum of a line from the cells played: for a game that keeps no
    /// line sums, asked for one (a trace, a checker's message), not per move.
    #[cold]
    fn sum_of_cells(&self, n: u32, line: u64) -> i32 {
        let n = u64::from(n);
        let in_rows: i32 = self
            .rows
            .cells()
            .filter(|&(r, c, _)| u64::from(r) == line || n + u64::from(c) == line)
            .map(|(_, _, second)| if second { -1 } else { 1 })
            .sum();
        in_rows
            + self
                .cells
                .slots
                .iter()
                .map(|slot| slot.get())
                .filter(|&slot| slot != 0)
                .filter(|&slot| {
                    let key = (slot >> CELL_VALUE_BITS) - 1;
                    key / n == line || n + key % n == line
                })
                .map(|slot| if slot & 1 == 0 { 1 } else { -1 })
                .sum::<i32>()
    }

    /// Marks an empty cell: the new sums of its row and column (0 and 0 in a
    /// game that keeps none), `None` if the cell was taken, or `Err` if the
    /// memory for it is not there.
    #[inline(always)]
    fn place(
        &mut self,
        n: u32,
        r: u32,
        c: u32,
        mover: Player,
    ) -> Result<Option<(i32, i32)>, NoRoom> {
        // Growing a table may need memory a capped process does not have:
        // asked for first, its lack is an error, not an abort.
        let hasher = self.hasher.clone();
        let hash = |key| hasher.hash_one(key);
        self.cells.make_room(1, CELL_VALUE_BITS, hash)?;
        if !self.count_lines && self.cells.len + self.rows.len + 1 >= n as usize {
            // More moves than the game was reset for: from the one that
            // could fill a line on, the sums are kept.
            self.start_counting(n)?;
        }
        if self.count_lines && !self.flat_in_use {
            self.lines.make_room(2, LINE_VALUE_BITS, hash)?;
        }
        if self.rows.in_use {
            return self.place_in_rows(n, [r, c], mover);
        }
        let hash = self.hash(sparse_key(n, r, c) + 1);
        Ok(self.place_with_room(n, [r, c], mover, hash))
    }

    /// [`place`](Self::place) in a game whose cells are in `rows`: in its
    /// row's bucket, or in the table once the bucket is full.
    #[inline(always)]
    fn place_in_rows(
        &mut self,
        n: u32,
        [r, c]: [u32; 2],
        mover: Player,
    ) -> Result<Option<(i32, i32)>, NoRoom> {
        match self.rows.mark(r, c, mover == Player::Two) {
            RowMark::Marked => Ok(Some(self.count_move(n, [r, c], mover))),
            RowMark::Taken => Ok(None),
            RowMark::Full => self.place_past_row(n, [r, c], mover),
        }
    }

    /// A cell of a row whose bucket is full, in the table.
    #[cold]
    fn place_past_row(
        &mut self,
        n: u32,
        [r, c]: [u32; 2],
        mover: Player,
    ) -> Result<Option<(i32, i32)>, NoRoom> {
        let hasher = self.hasher.clone();
        self.cells
            .make_room(1, CELL_VALUE_BITS, |key| hasher.hash_one(key))?;
        let hash = self.hash(sparse_key(n, r, c) + 1);
        Ok(self.place_with_room(n, [r, c], mover, hash))
    }

    /// [`place`](Self::place) once the tables have room, given the hash of
    /// the cell's key.
    #[inline(always)]
    fn place_with_room(
        &mut self,
        n: u32,
        [r, c]: [u32; 2],
        mover: Player,
        hash: u64,
    ) -> Option<(i32, i32)> {
        let key = sparse_key(n, r, c) + 1;
        let empty = self.cells.find(hash, key, CELL_VALUE_BITS).err()?;
        self.cells.fill(
            empty,
            key << CELL_VALUE_BITS | u64::from(mover == Player::Two),
        );
        Some(self.count_move(n, [r, c], mover))
    }

    /// Adds a move kept in the cells to its row's and column's sums: their
    /// new sums (0 and 0 in a game that keeps none).
    #[inline(always)]
    fn count_move(&mut self, n: u32, [r, c]: [u32; 2], mover: Player) -> (i32, i32) {
        if !self.count_lines {
            return (0, 0);
        }
        let row = self.add(u64::from(r), mover.sign());
        let col = self.add(u64::from(n) + u64::from(c), mover.sign());
        (row, col)
    }

    /// Starts bringing into the cache the slots a move will look at, so
    /// that the misses of the next moves overlap with this one's work: its
    /// slots are random places in tables of megabytes, and one miss after
    /// another cost most of a move's time.
    #[inline(always)]
    fn prefetch(&self, n: u32, [r, c, _]: [u32; 3]) {
        let (cells, lines) = (&self.cells, &self.lines);
        // Any key will do for a move the game refuses.
        let cell = sparse_key(n, r, c).wrapping_add(1);
        let row = u64::from(r) + 1;
        let col = u64::from(n) + u64::from(c) + 1;
        if self.rows.in_use {
            self.rows.prefetch(u64::from(r));
        } else {
            crate::simd::prefetch(&cells.slots, cells.place(self.hash(cell)));
        }
        if !self.count_lines || self.flat_in_use {
            return;
        }
        crate::simd::prefetch(&lines.slots, lines.place(self.hash(row)));
        crate::simd::prefetch(&lines.slots, lines.place(self.hash(col)));
    }

    /// Whether the large boards' loop plays this game: not one that keeps
    /// its sums in the lines' table, whose moves are few, and each costs
    /// three probes anyway.
    #[inline(always)]
    fn plays_fast(&self) -> bool {
        !self.count_lines || self.flat_in_use
    }

    /// Whether a move's cell is in its row's bucket (or past it, in the
    /// table) and its sums in the flat array, with no list of the sums
    /// touched to keep: what [`TicTacToe::play_rows_counter`] plays.
    #[inline(always)]
    fn plays_by_rows(&self) -> bool {
        self.rows.in_use && self.count_lines && self.flat_in_use && !self.flat_touched_complete
    }

    /// Prefetches for `play` the slots of the move [`PREFETCH_AHEAD`] after
    /// move `played` of `moves`, and of the first ones when it is the first.
    #[inline(always)]
    fn prefetch_ahead(&self, n: u32, moves: &[[u32; 3]], played: usize) {
        if played == 0 {
            for &ahead in moves.iter().take(PREFETCH_AHEAD) {
                self.prefetch(n, ahead);
            }
        }
        if let Some(&ahead) = moves.get(played + PREFETCH_AHEAD) {
            self.prefetch(n, ahead);
        }
    }

    /// Works out the line sums of the cells played, and keeps them from now on.
    #[cold]
    fn start_counting(&mut self, n: u32) -> Result<(), NoRoom> {
        if n <= FLAT_LINES_MAX_N {
            let entries = 2 * n as usize;
            if self.flat.len() < entries {
                self.flat
                    .try_reserve_exact(entries - self.flat.len())
                    .map_err(|_| NoRoom)?;
                self.flat.resize(entries, 0);
                let room = entries / 16;
                self.flat_touched = Vec::new();
                self.flat_touched
                    .try_reserve_exact(room)
                    .map_err(|_| NoRoom)?;
            }
            self.flat_in_use = true;
            self.flat_touched_complete = true;
        }
        if self.cells.len == 0 && self.rows.len == 0 {
            // Counting from the start of a game: no cell to go through, and
            // the table may be megabytes of empty slots.
            self.count_lines = true;
            return Ok(());
        }
        let hasher = self.hasher.clone();
        let hash = |key| hasher.hash_one(key);
        let cells = std::mem::take(&mut self.cells.slots);
        let mut counted = Ok(());
        for slot in cells
            .iter()
            .map(|slot| slot.get())
            .filter(|&slot| slot != 0)
        {
            if !self.flat_in_use {
                counted = self.lines.make_room(2, LINE_VALUE_BITS, hash);
            }
            if counted.is_err() {
                break;
            }
            let key = (slot >> CELL_VALUE_BITS) - 1;
            let sign = if slot & 1 == 0 { 1 } else { -1 };
            self.add(key / u64::from(n), sign);
            self.add(u64::from(n) + key % u64::from(n), sign);
        }
        self.cells.slots = cells;
        let rows = std::mem::take(&mut self.rows);
        for (r, c, second) in rows.cells() {
            if counted.is_err() {
                break;
            }
            if !self.flat_in_use {
                counted = self.lines.make_room(2, LINE_VALUE_BITS, hash);
                if counted.is_err() {
                    break;
                }
            }
            let sign = if second { -1 } else { 1 };
            self.add(u64::from(r), sign);
            self.add(u64::from(n) + u64::from(c), sign);
        }
        self.rows = rows;
        if counted.is_err() {
            self.lines.clear();
            return counted;
        }
        self.count_lines = true;
        Ok(())
    }

    /// Adds `sign` to the sum of `line`: its new sum.
    #[inline(always)]
    fn add(&mut self, line: u64, sign: i32) -> i32 {
        if self.flat_in_use {
            // line < 2N, the flat array's length.
            let sum = &mut self.flat[line as usize];
            // Once the list is given up, a test known false before the sum
            // is looked at: in a long game the sums pass through 0 at
            // random, a branch mispredicted.
            if self.flat_touched_complete && *sum == 0 {
                if self.flat_touched.len() < self.flat_touched.capacity() {
                    self.flat_touched.push(line as u32);
                } else {
                    self.flat_touched_complete = false;
                }
            }
            *sum += sign;
            return *sum;
        }
        let key = line + 1;
        match self.lines.find(self.hash(key), key, LINE_VALUE_BITS) {
            Ok(slot) => {
                let word = &mut self.lines.slots[slot];
                let sum = (*word as u32 as i32).wrapping_add(sign);
                *word = (*word & !u64::from(u32::MAX)) | u64::from(sum as u32);
                sum
            }
            Err(empty) => {
                self.lines
                    .fill(empty, key << LINE_VALUE_BITS | u64::from(sign as u32));
                sign
            }
        }
    }
}

/// An open-addressing table of nonzero one-word slots whose bits above
/// `value_bits` are the key: linear probing, at most 3/4 full (half, with
/// 32-bit slots: `CellSlot::MOST_FULL`), growing by half. (Doubling, a
/// game of 2 x 10^5 moves on a huge board could find its tables just
/// doubled, at 3/8 full: 12 MiB where 6 would do.)
#[derive(Debug, Default)]
struct Table<S: CellSlot> {
    /// Any length: a hash picks a slot by multiplying, not by masking.
    slots: Box<[S]>,
    len: usize,
    /// The slots filled, while they are at most 1/32 of the table: a short
    /// game after a long one clears its own slots, not the long one's table.
    /// (Letting a large table go instead, and growing it again, left the
    /// allocator's heap holding every size it had been.)
    filled: Vec<u32>,
    /// Keys the game in progress says it will add, if known (else 0): the
    /// table grows faster towards them (see `Sparse::expect_moves`).
    expected: usize,
}

/// The fewest slots a table has once it holds anything.
const TABLE_MIN: usize = 64;

/// The most memory a cells' table is given at the start of a game for the
/// moves the game declares, before any is played (see
/// `Sparse::expect_moves`): what a declared count that lies can cost
/// beyond the moves it holds, once, as the table is kept for later games.
const UP_FRONT_BYTES: usize = 2 << 20;

impl<S: CellSlot> Table<S> {
    /// The slot holding `key` (`Ok`), or the empty slot where it would go.
    /// The table must have an empty slot.
    #[inline(always)]
    fn find(&self, hash: u64, key: u64, value_bits: u32) -> Result<usize, usize> {
        let mut at = self.place(hash);
        loop {
            let Some(&slot) = self.slots.get(at) else {
                if at == 0 {
                    return Err(0);
                }
                at = 0;
                continue;
            };
            let slot = slot.get();
            if slot == 0 {
                return Err(at);
            }
            if slot >> value_bits == key {
                return Ok(at);
            }
            at += 1;
        }
    }

    /// The slot a hash starts at: its high bits scaled to the table's length.
    #[inline(always)]
    fn place(&self, hash: u64) -> usize {
        ((u128::from(hash) * self.slots.len() as u128) >> 64) as usize
    }

    #[inline(always)]
    fn fill(&mut self, at: usize, slot: u64) {
        self.slots[at] = S::of(slot);
        self.len += 1;
        // Never grows the list: its room is made with the table's.
        if self.filled.len() < self.filled.capacity() {
            // Tables of 2^32 slots would not fit a machine's memory.
            self.filled.push(at as u32);
        }
    }

    /// Grows the table, if need be, so that `more` keys fit.
    #[inline(always)]
    fn make_room(
        &mut self,
        more: usize,
        value_bits: u32,
        hash: impl Fn(u64) -> u64,
    ) -> Result<(), NoRoom> {
        let (k, m) = S::MOST_FULL;
        if (self.len + more) * m <= self.slots.len() * k {
            return Ok(());
        }
        self.grow(value_bits, hash)
    }

    /// Before a game's first key: makes the table as large as the keys
    /// expected need, up to [`UP_FRONT_BYTES`], so that a game of up to a
    /// few hundred thousand moves rehashes none of them.
    fn make_room_up_front(&mut self) {
        let (k, m) = S::MOST_FULL;
        let wanted = self
            .expected
            .div_ceil(k)
            .saturating_mul(m)
            .min(UP_FRONT_BYTES / std::mem::size_of::<S>());
        if self.len == 0 && wanted > self.slots.len() {
            // Without the memory, the table grows as the moves come, and
            // the move that finds none there fails.
            let _ = self.replace_slots(wanted);
        }
    }

    #[cold]
    fn grow(&mut self, value_bits: u32, hash: impl Fn(u64) -> u64) -> Result<(), NoRoom> {
        let by_half = (self.slots.len() + self.slots.len() / 2).max(TABLE_MIN);
        // Room for the keys expected, at most as full as a table may be
        // (3/4, say): fourfold at most,
        // unless four and a half times reaches them. A game 1% over a
        // fourfold step grew once more by half for its last keys,
        // rehashing all the others. (Sixfold let a file that declares 2^20
        // moves and holds 200,000 take 18 MB.)
        let (k, m) = S::MOST_FULL;
        let for_expected = self.expected.div_ceil(k).saturating_mul(m);
        let fourfold = self.slots.len().saturating_mul(4);
        let step = if for_expected <= fourfold.saturating_add(self.slots.len() / 2) {
            for_expected
        } else {
            fourfold
        };
        // By half at least, unless that passes the keys expected: a game
        // just over the table made up front grows to its length, not by
        // half (3 MiB where 2.1 do). A step to the keys expected holds the
        // one asked for: the table is full past k/m, and the step holds
        // a multiple of k keys over that.
        let size = if step > self.slots.len() {
            step
        } else {
            by_half
        };
        let old = self.replace_slots(size)?;
        for slot in old.iter().map(|slot| slot.get()).filter(|&slot| slot != 0) {
            let key = slot >> value_bits;
            if let Err(empty) = self.find(hash(key), key, value_bits) {
                self.fill(empty, slot);
            }
        }
        Ok(())
    }

    /// Puts empty slots of `size` in place of the table's, with room to list
    /// the filled ones; returns the old slots.
    fn replace_slots(&mut self, size: usize) -> Result<Box<[S]>, NoRoom> {
        // Zeroed by writing, not by the allocator: fresh pages the
        // allocator leaves zero are mapped on the rehash's first read and
        // copied on its first write, two page faults each, not one.
        let mut slots = Vec::new();
        slots.try_reserve_exact(size).map_err(|_| NoRoom)?;
        slots.resize(size, S::default());
        let slots = slots.into_boxed_slice();
        let mut filled = Vec::new();
        filled.try_reserve_exact(size / 32).map_err(|_| NoRoom)?;
        self.filled = filled;
        self.len = 0;
        Ok(std::mem::replace(&mut self.slots, slots))
    }

    /// Empties the table: its filled slots one by one when it lists them
    /// all, else every slot, at most 32 a key. The table keeps its size, so
    /// that the next long game does not grow it again.
    fn clear(&mut self) {
        if self.len <= self.filled.len() {
            for &at in &self.filled {
                self.slots[at as usize] = S::default();
            }
        } else {
            self.slots.fill(S::default());
        }
        self.filled.clear();
        self.len = 0;
    }
}

/// What [`TicTacToe::play_large_counter`] asks of the store of a board
/// too large for the dense one: one loop over the moves for both.
trait LargeBoard {
    /// The game's store of this kind.
    fn of(game: &mut TicTacToe) -> &mut Self;
    /// How many moves the loop may play before one that `play` must.
    fn moves_before_play(&self, n: u32) -> usize;
    /// Where a cell's mark goes, worked out ahead of its move: a hash, a
    /// word. It must hold while the store grows.
    fn locate(&self, n: u32, r: u32, c: u32) -> u64;
    /// Starts bringing the memory at `place` into the cache.
    fn prefetch(&self, place: u64);
    /// Marks the empty cell `[r, c, mover]` (mover 0 or 1) found at
    /// `place`: the new sums of its row and column (0 and 0 in a game that
    /// keeps none), or `None` if the cell is taken or the memory for it is
    /// not there.
    fn mark(&mut self, n: u32, move_: [u32; 3], place: u64) -> Option<(i32, i32)>;
}

impl<S: CellSlot> LargeBoard for Sparse<S> {
    #[inline(always)]
    fn of(game: &mut TicTacToe) -> &mut Self {
        S::store(game)
    }

    #[inline(always)]
    fn moves_before_play(&self, n: u32) -> usize {
        if self.count_lines {
            usize::MAX
        } else {
            // The sums start at the move that could fill a line (see
            // `place`): that move is `play`'s.
            (n as usize).saturating_sub(self.cells.len + self.rows.len + 1)
        }
    }

    /// The cell's hash, or its row where the rows' buckets hold the cells.
    #[inline(always)]
    fn locate(&self, n: u32, r: u32, c: u32) -> u64 {
        if self.rows.in_use {
            return u64::from(r);
        }
        self.hash(sparse_key(n, r, c) + 1)
    }

    #[inline(always)]
    fn prefetch(&self, place: u64) {
        if self.rows.in_use {
            self.rows.prefetch(place);
        } else {
            crate::simd::prefetch(&self.cells.slots, self.cells.place(place));
        }
    }

    #[inline(always)]
    fn mark(&mut self, n: u32, [r, c, mover]: [u32; 3], hash: u64) -> Option<(i32, i32)> {
        if self.rows.in_use {
            return self
                .place_in_rows(n, [r, c], Player::of_index(mover))
                .ok()?;
        }
        let hasher = self.hasher.clone();
        // Asked for first, as `place` does.
        self.cells
            .make_room(1, CELL_VALUE_BITS, |key| hasher.hash_one(key))
            .ok()?;
        self.place_with_room(n, [r, c], Player::of_index(mover), hash)
    }
}

impl LargeBoard for Packed {
    #[inline(always)]
    fn of(game: &mut TicTacToe) -> &mut Self {
        &mut game.packed
    }

    #[inline(always)]
    fn moves_before_play(&self, _: u32) -> usize {
        usize::MAX
    }

    #[inline(always)]
    fn locate(&self, _: u32, r: u32, c: u32) -> u64 {
        self.place_of(r, c).0 as u64
    }

    #[inline(always)]
    fn prefetch(&self, word: u64) {
        crate::simd::prefetch(&self.taken, word as usize);
    }

    #[inline(always)]
    fn mark(&mut self, _: u32, [r, c, mover]: [u32; 3], _: u64) -> Option<(i32, i32)> {
        self.place(r, c, Player::of_index(mover))
    }
}

/// The memory to hold one more played cell is not there.
#[derive(Clone, Copy, Debug)]
struct NoRoom;

fn sparse_key(n: u32, r: u32, c: u32) -> u64 {
    u64::from(r) * u64::from(n) + u64::from(c)
}

/// How many moves ahead of the one played the sparse store's slots are
/// prefetched (see `Sparse::prefetch`). A power of two, so that the large
/// boards' ring of places ahead is indexed by a mask, not a division by a
/// constant (`docs/PERFORMANCE.md` has the figures of 12 and 16).
const PREFETCH_AHEAD: usize = 16;

/// Which store a game's board is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Store {
    /// Games of at most [`FEW_MOVES`] moves on boards over it.
    Few,
    /// Boards up to [`TINY_MAX_N`].
    Tiny,
    Dense,
    Packed,
    /// The sparse store with 32-bit cells, up to [`NARROW_MAX_N`].
    Narrow,
    Sparse,
}

/// A game of Design Tic-Tac-Toe on an N x N board.
///
/// `play` is the problem's `move` (a keyword in Rust). A game can be
/// [`reset`](TicTacToe::reset) to a new size, reusing its memory: the solver
/// plays every case of a file on one `TicTacToe`.
#[derive(Debug)]
pub struct TicTacToe {
    n: u32,
    rules: Rules,
    /// Which store holds this game; all are kept so that alternating sizes
    /// do not reallocate.
    store: Store,
    few: Few,
    tiny: Tiny,
    dense: Dense,
    packed: Packed,
    narrow: Sparse<u32>,
    sparse: Sparse<u64>,
    diagonal: i32,
    anti_diagonal: i32,
    moves: u64,
    winner: Option<(Player, u64)>,
    /// Won, under a policy that allows no more moves.
    closed: bool,
}

impl TicTacToe {
    /// A new game on an `n` x `n` board with the default rules: the counter
    /// engine, and an error for any move after a win.
    pub fn new(n: i64) -> Result<TicTacToe, BadSize> {
        Ok(TicTacToe::with_rules(BoardSize::new(n)?, Rules::default()))
    }

    /// A new game of a checked size with the given rules.
    pub fn with_rules(size: BoardSize, rules: Rules) -> TicTacToe {
        let mut game = TicTacToe {
            n: 0,
            rules,
            store: Store::Sparse,
            few: Few::default(),
            tiny: Tiny::default(),
            dense: Dense::default(),
            packed: Packed::default(),
            narrow: Sparse::default(),
            sparse: Sparse::default(),
            diagonal: 0,
            anti_diagonal: 0,
            moves: 0,
            winner: None,
            closed: false,
        };
        game.reset(size);
        game
    }

    /// Starts a new, empty game of the given size, keeping the rules and the
    /// memory. It costs O(moves played), not O(N x N).
    pub fn reset(&mut self, size: BoardSize) {
        self.reset_for_moves(size, u64::MAX);
    }

    /// [`reset`](Self::reset), for a game of `moves` moves: with fewer than
    /// N, no line can fill, and a large board keeps no line sums (half its
    /// memory and time) unless the game reaches N moves after all. Line
    /// sums asked for meanwhile are worked out from the cells, each in
    /// O(moves): for the solving loops, not for a trace of every sum.
    #[inline]
    pub fn reset_for_moves(&mut self, size: BoardSize, moves: u64) {
        let n = size.get();
        let sparse_in_use = matches!(self.store, Store::Sparse | Store::Narrow);
        if Few::holds(n, moves) && !sparse_in_use {
            // A short game on a large board, the other usual case of a file
            // of short games: its list emptied, and no board touched.
            self.few.len = 0;
            self.store = Store::Few;
            self.begin_game(n);
            return;
        }
        if n <= DENSE_MAX_N && !sparse_in_use {
            // A file of short games on small boards resets once a few moves:
            // inlined into the solving loop, with the other stores' work
            // out of the way.
            if n <= TINY_MAX_N {
                self.tiny = Tiny::default();
                self.store = Store::Tiny;
            } else if self.dense.reset(n as usize) {
                self.store = Store::Dense;
            } else {
                self.reset_other_stores(size, moves);
                return;
            }
            self.begin_game(n);
            return;
        }
        self.reset_other_stores(size, moves);
    }

    /// [`reset_for_moves`](Self::reset_for_moves) for a game on a packed
    /// or sparse board, or the first game after a sparse one.
    #[cold]
    fn reset_other_stores(&mut self, size: BoardSize, moves: u64) {
        let n = size.get();
        let was = self.store;
        self.store = if Few::holds(n, moves) {
            self.few.len = 0;
            Store::Few
        } else if n <= TINY_MAX_N {
            self.tiny = Tiny::default();
            Store::Tiny
        } else if n <= DENSE_MAX_N && self.dense.reset(n as usize) {
            Store::Dense
        } else if n <= PACKED_MAX_N
            && moves > Packed::bitmap_words(n as usize) as u64
            && self.packed.reset(n as usize)
        {
            Store::Packed
        } else if n <= NARROW_MAX_N {
            Store::Narrow
        } else {
            Store::Sparse
        };
        // Only a sparse game fills a sparse store, and the reset after it
        // empties it, so that it is empty when it is next used: a file of
        // short games on small boards then pays nothing for it.
        let count_lines = moves >= u64::from(n);
        if was == Store::Narrow || self.store == Store::Narrow {
            self.narrow
                .reset(n, self.store == Store::Narrow && count_lines);
        }
        if was == Store::Sparse || self.store == Store::Sparse {
            self.sparse
                .reset(n, self.store == Store::Sparse && count_lines);
        }
        match self.store {
            Store::Narrow => self.narrow.expect_moves(size, moves),
            Store::Sparse => self.sparse.expect_moves(size, moves),
            Store::Few | Store::Tiny | Store::Dense | Store::Packed => {}
        }
        self.begin_game(n);
    }

    /// The game's own state, cleared for a new game on an N x N board.
    #[inline(always)]
    fn begin_game(&mut self, n: u32) {
        self.n = n;
        self.diagonal = 0;
        self.anti_diagonal = 0;
        self.moves = 0;
        self.winner = None;
        self.closed = false;
    }

    /// The board size N.
    pub fn size(&self) -> u32 {
        self.n
    }

    /// The rules this game plays by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The first winner and the 1-based number of the winning move, if any.
    pub fn winner(&self) -> Option<(Player, u64)> {
        self.winner
    }

    /// The number of moves played so far.
    pub fn moves_played(&self) -> u64 {
        self.moves
    }

    /// Who holds the cell, if anyone. Off-board cells are empty.
    pub fn cell(&self, row: u32, col: u32) -> Option<Player> {
        if row >= self.n || col >= self.n {
            None
        } else {
            match self.store {
                Store::Few => self.few.owner(row, col),
                Store::Tiny => self.tiny.owner(row, col),
                Store::Dense => self.dense.owner(row, col),
                Store::Packed => self.packed.owner(row, col),
                Store::Narrow => self.narrow.owner(self.n, row, col),
                Store::Sparse => self.sparse.owner(self.n, row, col),
            }
        }
    }

    /// The signed sum of a line: +1 per mark of player 1, -1 per mark of player 2.
    pub fn line_sum(&self, line: Line) -> i64 {
        let get = |kind: usize, index: u32| {
            if index >= self.n {
                return 0;
            }
            let sparse_line = u64::from(index) + if kind == ROW { 0 } else { u64::from(self.n) };
            match self.store {
                Store::Few => self.few.sum(index, kind),
                Store::Tiny => self.tiny.sum(self.n, index, kind),
                Store::Dense => self.dense.sum(index as usize, kind),
                Store::Packed if kind == ROW => self.packed.sum(index as usize),
                Store::Packed => self.packed.sum(self.packed.side + index as usize),
                Store::Narrow => self.narrow.sum(self.n, sparse_line),
                Store::Sparse => self.sparse.sum(self.n, sparse_line),
            }
        };
        let (diagonal, anti_diagonal) = match self.store {
            Store::Tiny => self.tiny.diagonal_sums(self.n),
            _ => (self.diagonal, self.anti_diagonal),
        };
        i64::from(match line {
            Line::Row(r) => get(ROW, r),
            Line::Column(c) => get(COLUMN, c),
            Line::Diagonal => diagonal,
            Line::AntiDiagonal => anti_diagonal,
        })
    }

    /// The lines through a cell: its row and column, and the diagonals it is on.
    pub fn lines_through(&self, row: u32, col: u32) -> impl Iterator<Item = Line> + use<> {
        let on_diagonal = row == col;
        let on_anti_diagonal = self.on_anti_diagonal(row, col);
        [
            Some(Line::Row(row)),
            Some(Line::Column(col)),
            on_diagonal.then_some(Line::Diagonal),
            on_anti_diagonal.then_some(Line::AntiDiagonal),
        ]
        .into_iter()
        .flatten()
    }

    /// The first line through the cell that one player holds entirely.
    pub fn full_line_through(&self, row: u32, col: u32) -> Option<Line> {
        self.full_lines_through(row, col).next()
    }

    /// Every line through the cell that one player holds entirely: a move
    /// may complete two at once (a row and a column, both diagonals).
    pub fn full_lines_through(&self, row: u32, col: u32) -> impl Iterator<Item = Line> + '_ {
        self.lines_through(row, col)
            .filter(|&line| self.line_sum(line).unsigned_abs() == u64::from(self.n))
    }

    fn on_anti_diagonal(&self, row: u32, col: u32) -> bool {
        u64::from(row) + u64::from(col) + 1 == u64::from(self.n)
    }

    /// Places `player`'s mark at (`row`, `col`): the problem's `move`.
    ///
    /// Refused moves leave the game unchanged.
    // Always inlined: it is the solver's inner loop, and a call returns its
    // result through memory.
    #[inline(always)]
    pub fn play(&mut self, row: i64, col: i64, player: i64) -> Result<Outcome, MoveError> {
        // One unsigned comparison each: negative values wrap past N.
        if row as u64 >= u64::from(self.n) {
            let n = i64::from(self.n);
            return Err(MoveError::RowOffBoard { row, n });
        }
        if col as u64 >= u64::from(self.n) {
            let n = i64::from(self.n);
            return Err(MoveError::ColumnOffBoard { col, n });
        }
        let Some(mover) = Player::from_number(player) else {
            return Err(MoveError::BadPlayer(player));
        };
        if self.closed
            && let Some((winner, at_move)) = self.winner
        {
            return Err(MoveError::AfterWin { winner, at_move });
        }
        let (r, c) = (row as u32, col as u32);
        if self.store == Store::Few && self.few.len == FEW_MOVES {
            self.leave_few()?;
        }
        let placed = self.place(r, c, mover)?;
        let Some((row_sum, col_sum)) = placed else {
            return Err(MoveError::Taken { row, col });
        };
        self.moves += 1;
        let on_diagonal = r == c;
        let on_anti_diagonal = self.on_anti_diagonal(r, c);
        if self.store == Store::Tiny {
            (self.diagonal, self.anti_diagonal) = self.tiny.diagonal_sums(self.n);
        } else {
            if on_diagonal {
                self.diagonal += mover.sign();
            }
            if on_anti_diagonal {
                self.anti_diagonal += mover.sign();
            }
        }

        let full = |sum: i32| sum.unsigned_abs() == self.n;
        let wins = match (self.rules.engine, self.rules.after_win) {
            // A line through the move with magnitude N can only be the mover's.
            (EngineKind::Counter, AfterWin::Error | AfterWin::Continue) => {
                full(row_sum)
                    || full(col_sum)
                    || (on_diagonal && full(self.diagonal))
                    || (on_anti_diagonal && full(self.anti_diagonal))
            }
            // LeetCode's grader checks both diagonals, on the move or not.
            (EngineKind::Counter, AfterWin::Leetcode) => {
                full(row_sum) || full(col_sum) || full(self.diagonal) || full(self.anti_diagonal)
            }
            (EngineKind::Scan, AfterWin::Error | AfterWin::Continue) => self
                .lines_through(r, c)
                .any(|line| self.scan_owner(line) == Some(mover)),
            (EngineKind::Scan, AfterWin::Leetcode) => [
                Line::Row(r),
                Line::Column(c),
                Line::Diagonal,
                Line::AntiDiagonal,
            ]
            .into_iter()
            .any(|line| self.scan_owner(line).is_some()),
        };
        if !wins {
            return Ok(Outcome::NoWin);
        }
        if self.winner.is_none() {
            self.winner = Some((mover, self.moves));
            self.closed = self.rules.after_win == AfterWin::Error;
        }
        Ok(Outcome::Win(mover))
    }

    /// Marks cell (`r`, `c`), on the board, for `mover` in the game's
    /// store: the new sums of its row and column, `None` if it was taken.
    fn place(&mut self, r: u32, c: u32, mover: Player) -> Result<Option<(i32, i32)>, MoveError> {
        Ok(match self.store {
            Store::Few => self.few.place(r, c, mover),
            Store::Tiny => self.tiny.place(self.n, r, c, mover),
            Store::Dense => self.dense.place(r, c, mover),
            Store::Packed => self.packed.place(r, c, mover),
            Store::Narrow => self
                .narrow
                .place(self.n, r, c, mover)
                .map_err(|NoRoom| MoveError::NoRoom { moves: self.moves })?,
            Store::Sparse => self
                .sparse
                .place(self.n, r, c, mover)
                .map_err(|NoRoom| MoveError::NoRoom { moves: self.moves })?,
        })
    }

    /// Moves a game that outgrew its [`Few`] list (it declared fewer moves
    /// than it plays) to the store a game of unknown length takes, its
    /// cells, sums and count of moves kept. A game in a list has won
    /// nothing: it has fewer moves than a line has cells.
    #[cold]
    fn leave_few(&mut self) -> Result<(), MoveError> {
        let few = self.few;
        let (diagonal, anti_diagonal, moves) = (self.diagonal, self.anti_diagonal, self.moves);
        self.reset_other_stores(BoardSize(self.n), u64::MAX);
        self.moves = moves;
        for at in 0..few.len {
            let (r, c) = ((few.cells[at] >> 32) as u32, few.cells[at] as u32);
            self.place(r, c, few.player(at))?;
        }
        (self.diagonal, self.anti_diagonal) = (diagonal, anti_diagonal);
        Ok(())
    }

    /// Plays `moves` in order, writing each one's result (0, 1 or 2) to the
    /// same index of `outcomes`, and stops at the first move [`play`] would
    /// refuse: `Err` carries its index and why, with every move before it
    /// played. The same as calling [`play`] move by move, only faster. Moves
    /// past the end of `outcomes` are not played.
    ///
    /// Why a batch: a game held in locals across many moves keeps its sums in
    /// registers and decides the board store and rules once, not per move.
    ///
    /// [`play`]: TicTacToe::play
    // Inlined so that it is compiled into both builds of the solving loop
    // (crate::simd).
    #[inline(always)]
    pub fn play_batch(
        &mut self,
        moves: &[[u32; 3]],
        outcomes: &mut [u8],
    ) -> Result<(), (usize, MoveError)> {
        let moves = &moves[..moves.len().min(outcomes.len())];
        // The fast loop writes only wins.
        outcomes[..moves.len()].fill(0);
        let counter = self.rules.engine == EngineKind::Counter;
        let leetcode = self.rules.after_win == AfterWin::Leetcode;
        let mut played = 0;
        while played < moves.len() {
            let fast = match self.store {
                // The tiny loop tests a diagonal the move is not on too:
                // right while nobody has won, and under LeetCode's rule.
                Store::Tiny => counter && (self.winner.is_none() || leetcode),
                Store::Few => counter,
                Store::Dense => counter,
                Store::Narrow => counter && self.narrow.plays_fast(),
                Store::Sparse => counter && self.sparse.plays_fast(),
                Store::Packed => counter,
            };
            if fast && !self.closed {
                let rest = &moves[played..];
                let selects = self.n <= DIAGONAL_SELECTS_MAX_N;
                let (count, won) = match (self.store, leetcode, self.dense.groups_in_use) {
                    (Store::Narrow, _, _) if self.narrow.plays_by_rows() => {
                        self.play_rows_counter(rest, leetcode)
                    }
                    (Store::Narrow, true, _) => self.play_large_counter::<Sparse<u32>, true>(rest),
                    (Store::Narrow, false, _) => {
                        self.play_large_counter::<Sparse<u32>, false>(rest)
                    }
                    (Store::Sparse, true, _) => self.play_large_counter::<Sparse<u64>, true>(rest),
                    (Store::Sparse, false, _) => {
                        self.play_large_counter::<Sparse<u64>, false>(rest)
                    }
                    (Store::Packed, true, _) => self.play_large_counter::<Packed, true>(rest),
                    (Store::Packed, false, _) => self.play_large_counter::<Packed, false>(rest),
                    (Store::Few, _, _) => self.play_few_counter(rest),
                    (Store::Tiny, true, _) => self.play_tiny::<true>(rest),
                    (Store::Tiny, false, _) => self.play_tiny::<false>(rest),
                    (_, true, true) => self.play_dense_counter::<true, true, false>(rest),
                    (_, false, true) => self.play_dense_counter::<false, true, false>(rest),
                    (_, true, false) if selects => {
                        self.play_dense_counter::<true, false, true>(rest)
                    }
                    (_, false, false) if selects => {
                        self.play_dense_counter::<false, false, true>(rest)
                    }
                    (_, true, false) => self.play_dense_counter::<true, false, false>(rest),
                    (_, false, false) => self.play_dense_counter::<false, false, false>(rest),
                };
                played += count;
                if won {
                    // The others are 0 already.
                    outcomes[played - 1] = moves[played - 1][2] as u8;
                }
                if won && self.winner.is_none() {
                    let mover = if moves[played - 1][2] == 1 {
                        Player::One
                    } else {
                        Player::Two
                    };
                    self.winner = Some((mover, self.moves));
                    self.closed = self.rules.after_win == AfterWin::Error;
                }
                if won {
                    continue;
                }
            }
            // What the fast loop leaves: other stores and engines, and refusals.
            let Some(&[row, col, player]) = moves.get(played) else {
                break;
            };
            if matches!(self.store, Store::Narrow | Store::Sparse) {
                self.prefetch_ahead(moves, played);
            }
            let outcome = self
                .play(i64::from(row), i64::from(col), i64::from(player))
                .map_err(|why| (played, why))?;
            outcomes[played] = outcome.number();
            played += 1;
        }
        Ok(())
    }

    /// Prefetches the slots of a sparse board that `play` will look at for
    /// the move [`PREFETCH_AHEAD`] after move `played` of `moves` (and for
    /// the first ones, at the first). Not inlined: `play_batch` is, into
    /// every build of the solving loop, and this is the rare path's.
    #[inline(never)]
    fn prefetch_ahead(&self, moves: &[[u32; 3]], played: usize) {
        match self.store {
            Store::Narrow => self.narrow.prefetch_ahead(self.n, moves, played),
            Store::Sparse => self.sparse.prefetch_ahead(self.n, moves, played),
            Store::Few | Store::Tiny | Store::Dense | Store::Packed => {}
        }
    }

    /// The counter engine on a dense board with the game in locals. Plays
    /// moves until one wins (played, and reported as `true`), the next would
    /// be refused, or they run out; returns how many it played. The winning
    /// move's result and the winner's bookkeeping are the caller's: they
    /// happen once a game.
    ///
    /// A function of its own, not inlined into the solving loop: there its
    /// values do not fit the registers and spill. The call is once a batch.
    #[inline(never)]
    fn play_dense_counter<
        const LEETCODE: bool,
        const GROUPS: bool,
        const DIAGONAL_SELECTS: bool,
    >(
        &mut self,
        moves: &[[u32; 3]],
    ) -> (usize, bool) {
        let n = self.n;
        let side = self.dense.side;
        let stamp = self.dense.stamp;
        let cells = &mut self.dense.cells[..];
        let groups = &mut self.dense.groups[..];
        let group_stride = self.dense.group_stride;
        let lines: &mut [[u32; 2]; 2 * DENSE_MAX_N as usize] = (&mut self.dense.lines[..])
            .try_into()
            .expect("reset makes the counts");
        // Known to the compiler, this bound proves the indexes below in range.
        let n = n.min(DENSE_MAX_N);
        let (mut diagonal, mut anti_diagonal) = (self.diagonal, self.anti_diagonal);
        // LeetCode's grader gives every move a win once a diagonal is full,
        // on it or not. A move that fills one wins, which ends this loop, so
        // this holds until the next call.
        let full = |sum: i32| sum.unsigned_abs() == n;
        let diagonals_full = LEETCODE && (full(diagonal) || full(anti_diagonal));
        let mut won = false;
        // One pointer moves through the moves; how many were played is
        // found from it at the end.
        let mut rest = moves.iter();
        while let Some(&[r, c, player]) = rest.as_slice().first() {
            // As a usize from the start: an index with no widening.
            let mover = (player as usize).wrapping_sub(1);
            if r >= n || c >= n || mover > 1 {
                break;
            }
            if GROUPS {
                if !mark_in_group(groups, group_stride, stamp, [r, c, player]) {
                    break;
                }
            } else {
                // r and c are below n, which is at most `side` (`reset`
                // grows the arrays to it), and `cells` holds `side` x
                // `side`: the cell is always there, and its check is never
                // taken.
                let Some(cell) = cells.get_mut(r as usize * side + c as usize) else {
                    break;
                };
                // Stamps only grow between clearings, so a cell at least the
                // game's stamp is this game's: taken.
                if *cell >= stamp {
                    break;
                }
                *cell = stamp | player as u16;
            }
            rest.next();
            let row_lacks = &mut lines[ROW + r as usize][mover];
            *row_lacks -= 1;
            let row_full = *row_lacks == 0;
            let col_lacks = &mut lines[COLUMN + c as usize][mover];
            *col_lacks -= 1;
            // Bitwise `|`: the tests cost less than the branches.
            won = row_full | (*col_lacks == 0) | diagonals_full;
            // The diagonals' sums stay signed, like the sparse board's, and a
            // move on one is sure to be the mover's. r + c < 2n cannot
            // overflow.
            let sign = 3 - 2 * player as i32;
            let (on_diagonal, on_anti_diagonal) = (r == c, r + c + 1 == n);
            if DIAGONAL_SELECTS {
                diagonal += i32::from(on_diagonal) * sign;
                anti_diagonal += i32::from(on_anti_diagonal) * sign;
                won |= (on_diagonal & full(diagonal)) | (on_anti_diagonal & full(anti_diagonal));
            } else {
                if on_diagonal {
                    diagonal += sign;
                    won |= full(diagonal);
                }
                if on_anti_diagonal {
                    anti_diagonal += sign;
                    won |= full(anti_diagonal);
                }
            }
            if won {
                break;
            }
        }
        let played = moves.len() - rest.len();
        self.dense.record(&moves[..played]);
        self.diagonal = diagonal;
        self.anti_diagonal = anti_diagonal;
        self.moves += played as u64;
        (played, won)
    }

    /// The counter engine on a game in a [`Few`] list, as
    /// [`play_dense_counter`](Self::play_dense_counter) is on a dense board:
    /// the same contract, and no move wins (a line takes more marks than
    /// the list holds). It stops when the list is full: the game then
    /// leaves it ([`play`](Self::play)).
    #[inline(never)]
    fn play_few_counter(&mut self, moves: &[[u32; 3]]) -> (usize, bool) {
        let n = self.n;
        let few = &mut self.few;
        let (mut diagonal, mut anti_diagonal) = (self.diagonal, self.anti_diagonal);
        let mut played = 0;
        for &[r, c, player] in moves {
            let mover = player.wrapping_sub(1);
            if r >= n || c >= n || mover > 1 || few.len == FEW_MOVES {
                break;
            }
            let key = Few::key(r, c);
            if few.cells[..few.len].contains(&key) {
                break;
            }
            few.cells[few.len] = key;
            few.players[few.len] = player as u8;
            few.len += 1;
            played += 1;
            // Moves on a diagonal of a large board are rare: branches.
            let sign = 3 - 2 * player as i32;
            if r == c {
                diagonal += sign;
            }
            if u64::from(r) + u64::from(c) + 1 == u64::from(n) {
                anti_diagonal += sign;
            }
        }
        self.diagonal = diagonal;
        self.anti_diagonal = anti_diagonal;
        self.moves += played as u64;
        (played, false)
    }

    /// [`play_tiny_counter`](Self::play_tiny_counter) in the build for this
    /// CPU, in a function of its own: `simd::dispatch`'s newer build is
    /// not inlined into this baseline one.
    // Not inlined: the choice of build inlined into the solving loop made
    // that loop slower on inputs that never reach it (zero-padded files).
    #[inline(never)]
    fn play_tiny<const LEETCODE: bool>(&mut self, moves: &[[u32; 3]]) -> (usize, bool) {
        simd::dispatch(TinyLoop::<LEETCODE> { game: self, moves })
    }

    /// The counter engine on a [`Tiny`] board, as
    /// [`play_dense_counter`](Self::play_dense_counter) is on a dense one:
    /// the same contract, but only while nobody has won, or under
    /// LeetCode's rule. Both players' marks stay in registers, and every
    /// line through a move is one mask test.
    // Inlined only into `TinyLoop`, which `simd::dispatch` compiles for
    // each build, called from `play_tiny`: in the newer build a
    // variable shift is one instruction (BMI2), not a move to CL and a
    // shift.
    #[inline(always)]
    fn play_tiny_counter<const LEETCODE: bool>(&mut self, moves: &[[u32; 3]]) -> (usize, bool) {
        // Known to the compiler, this bound keeps every shift below in range.
        let n = self.n.min(TINY_MAX_N);
        let lines = TinyLines::of(n);
        let [mut ones, mut twos] = self.tiny.marks;
        let owns = |marks: u64, line: u64| marks & line == line;
        // As in `play_dense_counter`: this holds until the next call.
        let diagonals_full = LEETCODE
            && (owns(ones, lines.diagonal)
                || owns(twos, lines.diagonal)
                || owns(ones, lines.anti_diagonal)
                || owns(twos, lines.anti_diagonal));
        let mut won = false;
        let mut played = 0;
        for &[r, c, player] in moves {
            let mover = player.wrapping_sub(1);
            if r >= n || c >= n || mover > 1 {
                break;
            }
            let bit = Tiny::bit(r, c);
            if (ones | twos) & bit != 0 {
                break;
            }
            // The mover's marks with this one, chosen without a branch:
            // the players alternate, and a branch on them is mispredicted.
            let second = 0u64.wrapping_sub(u64::from(mover));
            ones |= bit & !second;
            twos |= bit & second;
            let mine = (ones & !second) | (twos & second);
            played += 1;
            // A diagonal the move is not on is tested too. The mover cannot
            // own it whole: that would be a win before this move, and the
            // loop runs only while nobody has won (or under LeetCode's
            // rule, where any full diagonal wins every move).
            won = owns(mine >> (8 * r), lines.row)
                | owns(mine >> c, lines.column)
                | owns(mine, lines.diagonal)
                | owns(mine, lines.anti_diagonal)
                | diagonals_full;
            if won {
                break;
            }
        }
        self.tiny.marks = [ones, twos];
        self.moves += played as u64;
        (played, won)
    }

    /// Adds a move's `sign` at (`r`, `c`) to the `diagonals` (main, anti)
    /// of an `n` x `n` board that it is on: whether one of them is then
    /// full. On a large board such moves are rare, so these are branches.
    #[inline(always)]
    fn add_to_diagonals(n: u32, [r, c]: [u32; 2], sign: i32, diagonals: [&mut i32; 2]) -> bool {
        let [diagonal, anti_diagonal] = diagonals;
        let full = |sum: i32| sum.unsigned_abs() == n;
        let mut won = false;
        if r == c {
            *diagonal += sign;
            won |= full(*diagonal);
        }
        if u64::from(r) + u64::from(c) + 1 == u64::from(n) {
            *anti_diagonal += sign;
            won |= full(*anti_diagonal);
        }
        won
    }

    /// [`play_large_counter`](Self::play_large_counter) for a long game on
    /// a board of up to [`ROW_CELLS_MAX_N`] whose cells are in its rows'
    /// buckets and whose sums are in the flat array, once the list of sums
    /// touched is given up ([`Sparse::plays_by_rows`]): the same contract.
    ///
    /// Why a loop of its own: through the large boards' general loop, a
    /// move of such a game went through the tests of every store its
    /// board might have (table or rows, flat sums or a table of them, the
    /// list of sums touched): `docs/PERFORMANCE.md` (round 21) has the
    /// instructions that cost.
    #[inline(never)]
    fn play_rows_counter(&mut self, moves: &[[u32; 3]], leetcode: bool) -> (usize, bool) {
        let n = self.n;
        let full = |sum: i32| sum.unsigned_abs() == n;
        if leetcode && (full(self.diagonal) || full(self.anti_diagonal)) {
            // Every move wins: a move a call, as the general loop plays it.
            return self.play_large_counter::<Sparse<u32>, true>(moves);
        }
        let (mut diagonal, mut anti_diagonal) = (self.diagonal, self.anti_diagonal);
        let sides = n as usize;
        let sparse = &mut self.narrow;
        let (mut won, mut played, mut in_buckets) = (false, 0, 0);
        for &[r, _, _] in moves.iter().take(PREFETCH_AHEAD) {
            sparse.rows.prefetch(u64::from(r));
        }
        // A cell past its row's bucket leaves the loop for the table, and
        // the loop comes back for the moves after it.
        'cells: while played < moves.len() {
            let RowCells { buckets, .. } = &mut sparse.rows;
            let (Some(buckets), Some((row_sums, column_sums))) = (
                buckets.get_mut(..sides),
                sparse
                    .flat
                    .get_mut(..2 * sides)
                    .map(|flat| flat.split_at_mut(sides)),
            ) else {
                break;
            };
            let mut past_bucket = None;
            for (index, &[r, c, player]) in moves.iter().enumerate().skip(played) {
                if let Some(&[r, _, _]) = moves.get(index + PREFETCH_AHEAD) {
                    crate::simd::prefetch(buckets, r as usize);
                }
                let mover = player.wrapping_sub(1);
                if r >= n || c >= n || mover > 1 {
                    break 'cells;
                }
                let bucket = &mut buckets[r as usize];
                if RowCells::holds(bucket, c) {
                    break 'cells;
                }
                let RowBucket(cells) = bucket;
                let count = usize::from(cells[0]);
                // `>=`, not `==`: the compiler then knows the next entry is
                // within the bucket.
                if count >= ROW_BUCKET_CELLS {
                    past_bucket = Some(index);
                    break;
                }
                cells[count + 1] = (c as u16 + 1) | if mover == 1 { ROW_CELL_SECOND } else { 0 };
                cells[0] += 1;
                in_buckets += 1;
                let sign = 1 - 2 * mover as i32;
                let (row, column) = (&mut row_sums[r as usize], &mut column_sums[c as usize]);
                *row += sign;
                *column += sign;
                won = full(*row) | full(*column);
                played = index + 1;
                let diagonals = [&mut diagonal, &mut anti_diagonal];
                won |= Self::add_to_diagonals(n, [r, c], sign, diagonals);
                if won {
                    break 'cells;
                }
            }
            let Some(index) = past_bucket else {
                break;
            };
            let [r, c, player] = moves[index];
            let mover = Player::of_index(player - 1);
            // Taken in the table, or no memory for it: `play` says which.
            let Ok(Some((row, column))) = sparse.place_past_row(n, [r, c], mover) else {
                break;
            };
            won = full(row) | full(column);
            played = index + 1;
            let diagonals = [&mut diagonal, &mut anti_diagonal];
            won |= Self::add_to_diagonals(n, [r, c], mover.sign(), diagonals);
            if won {
                break;
            }
        }
        sparse.rows.len += in_buckets;
        self.diagonal = diagonal;
        self.anti_diagonal = anti_diagonal;
        self.moves += played as u64;
        (played, won)
    }

    /// The counter engine on a packed or sparse board, as
    /// [`play_dense_counter`](Self::play_dense_counter) is on a dense one:
    /// the same contract. A sparse game must keep no line sums, or keep
    /// them in the flat array (`Sparse::flat`).
    ///
    /// Why a loop of its own: through [`play`](Self::play), a move of a
    /// long game on a board of 10^4 paid for the checks of every store and
    /// rule, and a hash of its cell twice.
    #[inline(never)]
    fn play_large_counter<B: LargeBoard, const LEETCODE: bool>(
        &mut self,
        moves: &[[u32; 3]],
    ) -> (usize, bool) {
        let n = self.n;
        let (mut diagonal, mut anti_diagonal) = (self.diagonal, self.anti_diagonal);
        let board = B::of(self);
        let moves = &moves[..moves.len().min(board.moves_before_play(n))];
        let full = |sum: i32| sum.unsigned_abs() == n;
        // As in `play_dense_counter`: this holds until the next call.
        let diagonals_full = LEETCODE && (full(diagonal) || full(anti_diagonal));
        // Where the cells ahead are, each worked out once: for its
        // prefetch, and again when the move is played. Once every move wins
        // (a full diagonal, LeetCode's rule), a call plays one move, and
        // looks at none after it.
        let lookahead = if diagonals_full { 1 } else { PREFETCH_AHEAD };
        let mut ahead = [0u64; PREFETCH_AHEAD];
        for (place, &[r, c, _]) in ahead.iter_mut().zip(moves).take(lookahead) {
            *place = board.locate(n, r, c);
            board.prefetch(*place);
        }
        let mut won = false;
        let mut played = 0;
        for (index, &[r, c, player]) in moves.iter().enumerate() {
            let mover = player.wrapping_sub(1);
            if r >= n || c >= n || mover > 1 {
                break;
            }
            let place = ahead[index % PREFETCH_AHEAD];
            if lookahead == PREFETCH_AHEAD
                && let Some(&[r, c, _]) = moves.get(index + PREFETCH_AHEAD)
            {
                ahead[index % PREFETCH_AHEAD] = board.locate(n, r, c);
                board.prefetch(ahead[index % PREFETCH_AHEAD]);
            }
            // Refused, or no memory for it: `play` says which.
            let Some((row, col)) = board.mark(n, [r, c, mover], place) else {
                break;
            };
            played += 1;
            won = full(row) | full(col) | diagonals_full;
            let sign = 1 - 2 * mover as i32;
            let diagonals = [&mut diagonal, &mut anti_diagonal];
            won |= Self::add_to_diagonals(n, [r, c], sign, diagonals);
            if won {
                break;
            }
        }
        self.diagonal = diagonal;
        self.anti_diagonal = anti_diagonal;
        self.moves += played as u64;
        (played, won)
    }

    /// The owner of every cell of `line`, if one player holds them all,
    /// found by looking at the cells one by one.
    fn scan_owner(&self, line: Line) -> Option<Player> {
        let n = self.n;
        let cell_at = |i: u32| match line {
            Line::Row(r) => (r, i),
            Line::Column(c) => (i, c),
            Line::Diagonal => (i, i),
            Line::AntiDiagonal => (i, n - 1 - i),
        };
        let (r0, c0) = cell_at(0);
        let owner = self.cell(r0, c0)?;
        (1..n)
            .all(|i| {
                let (r, c) = cell_at(i);
                self.cell(r, c) == Some(owner)
            })
            .then_some(owner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    fn play_all(n: i64, rules: Rules, moves: &[(i64, i64, i64)]) -> Vec<u8> {
        let mut game = TicTacToe::with_rules(BoardSize::new(n).expect("valid size"), rules);
        moves
            .iter()
            .map(|&(r, c, p)| game.play(r, c, p).expect("legal move").number())
            .collect()
    }

    #[test]
    fn a_move_that_completes_two_lines_names_both() {
        let mut game = TicTacToe::with_rules(BoardSize::new(3).expect("size"), Rules::default());
        let moves = [(0, 0, 1), (1, 0, 2), (0, 2, 1), (1, 2, 2), (2, 0, 1)];
        let moves = moves
            .into_iter()
            .chain([(2, 1, 2), (2, 2, 1), (0, 1, 2), (1, 1, 1)]);
        for (row, col, player) in moves {
            game.play(row, col, player).expect("legal move");
        }
        let lines: Vec<Line> = game.full_lines_through(1, 1).collect();
        assert_eq!(lines, [Line::Diagonal, Line::AntiDiagonal]);
        assert_eq!(game.full_line_through(1, 1), Some(Line::Diagonal));
        assert_eq!(Lines(&lines).to_string(), "diagonal and anti-diagonal");
        let three = [Line::Row(1), Line::Column(1), Line::Diagonal];
        assert_eq!(Lines(&three).to_string(), "row 1, column 1 and diagonal");
        assert_eq!(Lines(&three[..1]).to_string(), "row 1");
    }

    const LEETCODE_EXAMPLE: [(i64, i64, i64); 7] = [
        (0, 0, 1),
        (0, 2, 2),
        (2, 2, 1),
        (1, 1, 2),
        (2, 0, 1),
        (1, 0, 2),
        (2, 1, 1),
    ];

    const PAST_WIN_N3: [(i64, i64, i64); 9] = [
        (0, 0, 1),
        (0, 2, 2),
        (1, 2, 1),
        (1, 1, 2),
        (1, 0, 1),
        (2, 0, 2),
        (2, 1, 1),
        (2, 2, 1),
        (0, 1, 2),
    ];

    fn all_rules() -> Vec<Rules> {
        let mut rules = Vec::new();
        for engine in [EngineKind::Counter, EngineKind::Scan] {
            for after_win in [AfterWin::Error, AfterWin::Continue, AfterWin::Leetcode] {
                rules.push(Rules { after_win, engine });
            }
        }
        rules
    }

    #[test]
    fn the_tiny_lines_looked_up_are_the_lines_cell_by_cell() {
        for n in 1..=TINY_MAX_N {
            let cells = |on: &dyn Fn(u32, u32) -> bool| {
                (0..n)
                    .flat_map(|r| (0..n).map(move |c| (r, c)))
                    .filter(|&(r, c)| on(r, c))
                    .fold(0u64, |marks, (r, c)| marks | Tiny::bit(r, c))
            };
            let expected = TinyLines {
                row: cells(&|r, _| r == 0),
                column: cells(&|_, c| c == 0),
                diagonal: cells(&|r, c| r == c),
                anti_diagonal: cells(&|r, c| r + c + 1 == n),
            };
            assert_eq!(TinyLines::of(n), expected, "N = {n}");
        }
        // No board has N = 0; its lookup is N = 1's, as the clamp was.
        assert_eq!(TinyLines::of(0), TinyLines::of(1));
    }

    #[test]
    fn leetcode_example_is_won_by_player_one_on_the_last_move() {
        for rules in all_rules() {
            assert_eq!(play_all(3, rules, &LEETCODE_EXAMPLE), [0, 0, 0, 0, 0, 0, 1]);
        }
    }

    #[test]
    fn leetcode_policy_reproduces_the_graders_output_after_a_win() {
        for engine in [EngineKind::Counter, EngineKind::Scan] {
            let leetcode = Rules {
                after_win: AfterWin::Leetcode,
                engine,
            };
            let continue_ = Rules {
                after_win: AfterWin::Continue,
                engine,
            };
            assert_eq!(
                play_all(3, leetcode, &PAST_WIN_N3),
                [0, 0, 0, 0, 0, 2, 1, 1, 2]
            );
            assert_eq!(
                play_all(3, continue_, &PAST_WIN_N3),
                [0, 0, 0, 0, 0, 2, 0, 0, 0]
            );
            let two = [(0, 0, 1), (0, 1, 2), (1, 0, 1), (1, 1, 2)];
            assert_eq!(play_all(2, leetcode, &two), [0, 0, 1, 2]);
            assert_eq!(play_all(2, continue_, &two), [0, 0, 1, 2]);
        }
    }

    #[test]
    fn error_policy_refuses_a_move_after_the_win() {
        let mut game = TicTacToe::new(2).expect("valid size");
        game.play(0, 0, 1).expect("legal");
        game.play(0, 1, 2).expect("legal");
        assert_eq!(game.play(1, 0, 1), Ok(Outcome::Win(Player::One)));
        assert_eq!(
            game.play(1, 1, 2),
            Err(MoveError::AfterWin {
                winner: Player::One,
                at_move: 3
            })
        );
    }

    #[test]
    fn refused_moves_leave_the_game_unchanged() {
        let mut game = TicTacToe::new(3).expect("valid size");
        game.play(1, 1, 1).expect("legal");
        assert_eq!(game.play(1, 1, 2), Err(MoveError::Taken { row: 1, col: 1 }));
        assert_eq!(
            game.play(3, 0, 1),
            Err(MoveError::RowOffBoard { row: 3, n: 3 })
        );
        assert_eq!(
            game.play(0, -1, 1),
            Err(MoveError::ColumnOffBoard { col: -1, n: 3 })
        );
        assert_eq!(game.play(0, 0, 3), Err(MoveError::BadPlayer(3)));
        assert_eq!(game.moves_played(), 1);
        assert_eq!(game.line_sum(Line::Row(1)), 1);
    }

    #[test]
    fn sizes_outside_one_to_a_billion_are_refused() {
        assert_eq!(TicTacToe::new(0).err(), Some(BadSize(0)));
        assert_eq!(TicTacToe::new(MAX_N + 1).err(), Some(BadSize(MAX_N + 1)));
        assert!(TicTacToe::new(MAX_N).is_ok());
    }

    #[test]
    fn a_one_by_one_board_is_won_by_its_only_move() {
        for rules in all_rules() {
            assert_eq!(play_all(1, rules, &[(0, 0, 2)]), [2]);
        }
    }

    #[test]
    fn huge_sparse_boards_win_on_a_full_line() {
        // N = 10^9 cannot fill a line in a test, so check the sparse path on a
        // size just past the dense limit.
        let n = i64::from(DENSE_MAX_N) + 1;
        for rules in all_rules() {
            let mut game = TicTacToe::with_rules(BoardSize::new(n).expect("valid size"), rules);
            for col in 0..n - 1 {
                assert_eq!(game.play(5, col, 2), Ok(Outcome::NoWin));
            }
            assert_eq!(game.play(5, n - 1, 2), Ok(Outcome::Win(Player::Two)));
        }
        let mut game = TicTacToe::new(MAX_N).expect("valid size");
        assert_eq!(game.play(MAX_N - 1, 0, 1), Ok(Outcome::NoWin));
        assert_eq!(game.play(0, MAX_N - 1, 2), Ok(Outcome::NoWin));
    }

    #[test]
    fn every_line_of_every_small_board_is_won_on_its_last_cell_by_batch_and_by_play() {
        // Boards of the tiny store, of the dense loop with selects on the
        // diagonals and with branches, and past them: a line a winner
        // fills while the other player marks cells off it.
        for n in 1..=40u32 {
            let lines = [
                Line::Row(0),
                Line::Row(n - 1),
                Line::Column(n / 2),
                Line::Diagonal,
                Line::AntiDiagonal,
            ];
            for line in lines {
                let on_line = |r: u32, c: u32| match line {
                    Line::Row(row) => r == row,
                    Line::Column(col) => c == col,
                    Line::Diagonal => r == c,
                    Line::AntiDiagonal => r + c + 1 == n,
                };
                let (line_cells, others): (Vec<_>, Vec<_>) = (0..n)
                    .flat_map(|r| (0..n).map(move |c| (r, c)))
                    .partition(|&(r, c)| on_line(r, c));
                for winner in [1u32, 2] {
                    // The other player's marks, picked so that they fill no
                    // line: one before each of the winner's but the first
                    // (player 1's), or before each (player 2's).
                    let needed = line_cells.len() - usize::from(winner == 1);
                    let mut counts = std::collections::HashMap::new();
                    let mut theirs = Vec::new();
                    for &(r, c) in &others {
                        let mut lines_through = vec![Line::Row(r), Line::Column(c)];
                        if r == c {
                            lines_through.push(Line::Diagonal);
                        }
                        if r + c + 1 == n {
                            lines_through.push(Line::AntiDiagonal);
                        }
                        let fills_none = lines_through
                            .iter()
                            .all(|line| counts.get(line).copied().unwrap_or(0) + 1 < n);
                        if theirs.len() < needed && fills_none {
                            for line in lines_through {
                                *counts.entry(line).or_insert(0) += 1;
                            }
                            theirs.push((r, c));
                        }
                    }
                    if theirs.len() < needed {
                        // N = 1 or 2: every mark of theirs would fill a line.
                        continue;
                    }
                    let loser = 3 - winner;
                    let mut moves = Vec::new();
                    let mut their_moves = theirs.iter();
                    for (i, &(r, c)) in line_cells.iter().enumerate() {
                        if winner == 2 || i > 0 {
                            let &(r, c) = their_moves.next().expect("picked");
                            moves.push([r, c, loser]);
                        }
                        moves.push([r, c, winner]);
                    }
                    let what = format!("N = {n}, {line}, player {winner}");
                    let mut expected = vec![0; moves.len()];
                    expected[moves.len() - 1] = winner as u8;
                    let size = BoardSize::new(i64::from(n)).expect("valid size");
                    let mut by_batch = TicTacToe::with_rules(size, Rules::default());
                    by_batch.reset_for_moves(size, moves.len() as u64);
                    let mut outcomes = vec![0; moves.len()];
                    let batch = by_batch.play_batch(&moves, &mut outcomes);
                    assert_eq!(batch, Ok(()), "{what}: {moves:?}");
                    assert_eq!(outcomes, expected, "{what}, by batch");
                    let mut by_play = TicTacToe::with_rules(size, Rules::default());
                    let played: Vec<u8> = moves
                        .iter()
                        .map(|&[r, c, p]| {
                            let outcome = by_play.play(i64::from(r), i64::from(c), i64::from(p));
                            outcome.expect("legal move").number()
                        })
                        .collect();
                    assert_eq!(played, expected, "{what}, by play");
                }
            }
        }
    }

    #[test]
    fn dense_stamps_survive_running_out() {
        // Stamped cells, and stamped groups of cells past STAMPED_CELLS_MAX_N.
        for n in [i64::from(TINY_MAX_N) + 1, STAMPED_CELLS_MAX_N as i64 + 44] {
            let size = BoardSize::new(n).expect("valid size");
            let mut game = TicTacToe::new(n).expect("valid size");
            game.play(1, 1, 1).expect("legal");
            game.dense.stamp = u16::MAX - PLAYER_BITS;
            // A mark that would match the stamp after it wraps.
            let wrapped = PLAYER_BITS + 1;
            if game.dense.groups_in_use {
                game.dense.groups[0] = u64::from(wrapped) << GROUP_STAMP_SHIFT | 1;
            } else {
                game.dense.cells[0] = wrapped;
            }
            game.reset(size);
            // The stamp wrapped: the board was wiped, and the old mark is gone.
            assert_eq!(game.cell(0, 0), None);
            assert_eq!(game.cell(1, 1), None);
            for _ in 0..20_000 {
                game.play(0, 0, 2)
                    .expect("the cell is empty in every new game");
                assert_eq!(game.cell(0, 0), Some(Player::Two));
                game.reset(size);
            }
        }
    }

    #[test]
    fn a_game_that_plays_more_moves_than_it_declared_leaves_its_list_and_still_wins() {
        // Player 1 fills row 0 of a 33 x 33 board, player 2 plays row 1:
        // the list fills at move 32 and row 0 completes at move 65.
        let n = FEW_MOVES as u32 + 1;
        let size = BoardSize::new(i64::from(n)).expect("valid size");
        let moves: Vec<[u32; 3]> = (0..n)
            .flat_map(|c| [[0, c, 1], [1, c, 2]])
            .take(2 * n as usize - 1)
            .collect();
        for by_batch in [false, true] {
            let mut told = TicTacToe::new(1).expect("valid size");
            told.reset_for_moves(size, 3);
            let mut fresh = TicTacToe::new(i64::from(n)).expect("valid size");
            let expected: Vec<u8> = moves
                .iter()
                .map(|&[r, c, p]| {
                    fresh
                        .play(i64::from(r), i64::from(c), i64::from(p))
                        .expect("legal")
                        .number()
                })
                .collect();
            let found: Vec<u8> = if by_batch {
                let mut outcomes = vec![0; moves.len()];
                told.play_batch(&moves, &mut outcomes).expect("legal");
                outcomes
            } else {
                moves
                    .iter()
                    .map(|&[r, c, p]| {
                        told.play(i64::from(r), i64::from(c), i64::from(p))
                            .expect("legal")
                            .number()
                    })
                    .collect()
            };
            assert_eq!(found, expected);
            assert_eq!(found.last(), Some(&1));
            assert_eq!(told.winner(), fresh.winner());
            assert_eq!(told.moves_played(), fresh.moves_played());
            for line in [
                Line::Row(0),
                Line::Row(1),
                Line::Column(5),
                Line::Diagonal,
                Line::AntiDiagonal,
            ] {
                assert_eq!(told.line_sum(line), fresh.line_sum(line));
            }
            assert_eq!(told.cell(1, 31), Some(Player::Two));
            assert_eq!(
                told.play(1, 31, 2),
                Err(MoveError::AfterWin {
                    winner: Player::One,
                    at_move: 65
                })
            );
        }
    }

    #[test]
    fn reset_clears_every_trace_of_the_previous_game() {
        let sizes = [
            3,
            STAMPED_CELLS_MAX_N as i64 + 1,
            i64::from(DENSE_MAX_N),
            i64::from(DENSE_MAX_N) + 5,
            i64::from(PACKED_MAX_N) + 5,
        ];
        for size in sizes {
            let mut game = TicTacToe::new(size).expect("valid size");
            game.play(0, 0, 1).expect("legal");
            game.play(2, 2, 2).expect("legal");
            game.reset(BoardSize::new(size).expect("valid size"));
            assert_eq!(game.cell(0, 0), None);
            assert_eq!(game.line_sum(Line::Row(0)), 0);
            assert_eq!(game.line_sum(Line::Column(2)), 0);
            assert_eq!(game.line_sum(Line::Diagonal), 0);
            assert_eq!(game.winner(), None);
            assert_eq!(game.play(0, 0, 2), Ok(Outcome::NoWin));
        }
    }

    /// The sizes the cells' table of a sparse game takes while `played`
    /// of its moves are played, the game told it has `declared`.
    fn table_sizes(declared: u64, played: u32) -> Vec<usize> {
        let size = BoardSize::new(MAX_N).expect("valid size");
        let mut game = TicTacToe::with_rules(size, Rules::default());
        game.reset_for_moves(size, declared);
        let moves: Vec<[u32; 3]> = (0..played).map(|i| [i, 2 * i + 1, i % 2 + 1]).collect();
        let mut sizes = vec![game.sparse.cells.slots.len()];
        let mut outcomes = [0; 100];
        for batch in moves.chunks(100) {
            game.play_batch(batch, &mut outcomes).expect("legal moves");
            sizes.push(game.sparse.cells.slots.len());
        }
        assert_eq!(game.moves_played(), u64::from(played));
        sizes.dedup();
        sizes
    }

    #[test]
    fn a_game_told_its_length_has_its_table_made_at_once_then_grows_fourfold_to_that_length() {
        // Made for 5000 at 3/4 full before the first move: no rehash.
        assert_eq!(table_sizes(5000, 5000), [6668]);
        // Past the first 2 MiB (262,144 slots of 64 bits), fourfold while
        // the length is further than that, then to the length.
        assert_eq!(table_sizes(400_000, 400_000), [262_144, 533_336]);
        assert_eq!(
            table_sizes(1_000_000, 1_000_000),
            [262_144, 1_048_576, 1_333_336]
        );
        // A game just over a step reaches its length in one step of up to
        // four and a half, not in one more by half at its end.
        assert_eq!(table_sizes(197_015, 197_015), [262_144, 262_688]);
        // Not told: by half, ten times.
        let untold = table_sizes(u64::MAX, 5000);
        assert!(untold.len() > 10, "{untold:?}");
    }

    #[test]
    fn a_table_grown_towards_the_keys_expected_always_has_room_for_the_next_one() {
        // Any size the table may have been left at (by half from 64, after
        // a game of unknown length), and keys expected just past it: the
        // step to them rounds to a few slots more, which must still hold
        // the key asked for, and the game may play more than it declared.
        let hash = |key: u64| key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for size in [64, 96, 144, 216, 324, 486, 729, 1093, 1639, 2458] {
            for expected in size * 3 / 4 - 2..size * 3 / 4 + 6 {
                let mut table = Table::<u64>::default();
                let _ = table.replace_slots(size).expect("memory");
                table.expected = expected;
                for key in 1..(expected as u64 + 8) {
                    table.make_room(1, CELL_VALUE_BITS, hash).expect("memory");
                    assert!(
                        (table.len + 1) * 4 <= table.slots.len() * 3,
                        "{size} slots, {expected} expected, {} held",
                        table.len
                    );
                    let empty = table
                        .find(hash(key), key, CELL_VALUE_BITS)
                        .expect_err("a new key");
                    table.fill(empty, key << CELL_VALUE_BITS);
                }
            }
        }
    }

    #[test]
    fn a_game_that_declares_more_moves_than_it_holds_takes_memory_for_those_it_holds() {
        // A case that says 2^20 moves and holds 1000 (a truncated file)
        // has the first 2 MiB of a table, not 11 MiB for a million.
        let sizes = table_sizes(1 << 20, 1000);
        assert_eq!(sizes, [UP_FRONT_BYTES / 8], "{sizes:?}");
        // Holding 200,000, it grows fourfold from 262,144: a step to the
        // 1.4 million slots of the declared length would be over five times
        // what the moves held need.
        let sizes = table_sizes(1 << 20, 200_000);
        assert_eq!(sizes.last(), Some(&1_048_576), "{sizes:?}");
    }

    /// Cells an input's author can pick so that FxHash (rustc-hash 2's,
    /// `rotl(key * K, 26)`) puts every key in one bucket of a table of 2^17
    /// and gives them all one tag: the attack on a fixed hasher.
    fn fx_colliding_keys(count: usize) -> Vec<u64> {
        const K: u64 = 0xf1357aea2e62a9c5;
        let mut inverse = K;
        for _ in 0..6 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(K.wrapping_mul(inverse)));
        }
        assert_eq!(K.wrapping_mul(inverse), 1);
        // Bits 31 to 54 of key * K decide the bucket (38 to 54) and the tag (31 to 37).
        let fixed = 0x00AB_CDEF_u64 << 31;
        let mut keys = Vec::with_capacity(count);
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        while keys.len() < count {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let free = state & !(((1u64 << 24) - 1) << 31);
            let key = (fixed | free).wrapping_mul(inverse);
            if key < 1_000_000_000_000_000_000 {
                keys.push(key);
            }
        }
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    #[test]
    fn the_sparse_board_spreads_cells_a_fixed_hasher_would_pile_into_one_bucket() {
        let keys = fx_colliding_keys(100_000);
        let fx_bucket = |key: u64| key.wrapping_mul(0xf1357aea2e62a9c5).rotate_left(26) & 0x1FFFF;
        assert!(keys.iter().all(|&key| fx_bucket(key) == fx_bucket(keys[0])));
        let board = Sparse::<u64>::default();
        let mut buckets: Vec<u64> = keys
            .iter()
            // The slot of a table of 2^17: the top 17 bits (`Table::place`).
            .map(|&key| board.hash(key + 1) >> 47)
            .collect();
        buckets.sort_unstable();
        buckets.dedup();
        // Random keys fill about 70% as many buckets as there are keys.
        assert!(
            buckets.len() > keys.len() / 2,
            "{} buckets for {} keys",
            buckets.len(),
            keys.len()
        );
    }

    #[test]
    fn the_largest_board_with_32_bit_cells_keeps_its_last_cells() {
        // The last cell's key, N x N with the owner's bit, takes every bit
        // of a 32-bit slot at NARROW_MAX_N; one more and it would not fit.
        for n in [NARROW_MAX_N, NARROW_MAX_N + 1] {
            let mut game = TicTacToe::new(i64::from(n)).expect("valid size");
            let store = if n <= NARROW_MAX_N {
                Store::Narrow
            } else {
                Store::Sparse
            };
            assert_eq!(game.store, store, "N = {n}");
            let last = i64::from(n) - 1;
            assert_eq!(game.play(last, last, 2), Ok(Outcome::NoWin));
            assert_eq!(game.play(last, last - 1, 1), Ok(Outcome::NoWin));
            assert_eq!(game.cell(n - 1, n - 1), Some(Player::Two), "N = {n}");
            assert_eq!(game.cell(n - 1, n - 2), Some(Player::One), "N = {n}");
            assert_eq!(game.cell(n - 2, n - 1), None, "N = {n}");
            let taken = game.play(last, last, 1);
            assert!(matches!(taken, Err(MoveError::Taken { .. })), "N = {n}");
        }
    }

    // The large boards' loop against `play`, move by move, over games
    // long enough to fill a line: under each after-win rule; on a board
    // whose sums go to the flat array and one whose sums do not; and told
    // of a long game (sums from the first move) or of a short one (sums
    // from move N - 1, in the middle of a batch).
    #[test]
    fn the_large_boards_loop_plays_a_long_game_as_play_does() {
        // 2000: the packed store's size, whose long games it plays and
        // whose short ones the sparse store plays.
        for n in [2000u32, 9000, 70_000] {
            let size = BoardSize::new(i64::from(n)).expect("valid size");
            // Player 1 fills row 5 while player 2 scatters over other rows;
            // or player 1 alone fills column 4, so that the first move with
            // sums wins; or the anti-diagonal. Each game goes on a few moves
            // past the win.
            let row =
                (0..n + 3).flat_map(|i| [[5, i % n, 1], [6 + (i * 7) % (n - 6), (i * 13) % n, 2]]);
            let column = (0..n + 3).map(|i| [i % n, 4, 1]);
            // After the anti-diagonal, moves on free cells: under LeetCode's
            // rule each of them wins.
            let anti_diagonal = (0..n)
                .map(|i| [i, n - 1 - i, 1])
                .chain((1..40).map(|i| [i, 0, 1 + i % 2]));
            let games: [Vec<[u32; 3]>; 3] =
                [row.collect(), column.collect(), anti_diagonal.collect()];
            for rules in all_rules()
                .into_iter()
                .filter(|r| r.engine == EngineKind::Counter)
            {
                for (moves, told_of) in games.iter().cartesian_product([1, u64::MAX]) {
                    let mut expected_game = TicTacToe::with_rules(size, rules);
                    let mut expected = Vec::new();
                    for &[r, c, p] in moves {
                        match expected_game.play(i64::from(r), i64::from(c), i64::from(p)) {
                            Ok(outcome) => expected.push(outcome.number()),
                            Err(_) => break,
                        }
                    }
                    let mut game = TicTacToe::with_rules(size, rules);
                    game.reset_for_moves(size, told_of);
                    let mut found = vec![0; moves.len()];
                    let mut refused_at = None;
                    for (start, (chunk, out)) in
                        moves.chunks(777).zip(found.chunks_mut(777)).enumerate()
                    {
                        if let Err((index, _)) = game.play_batch(chunk, out) {
                            refused_at = Some(start * 777 + index);
                            break;
                        }
                    }
                    found.truncate(refused_at.unwrap_or(moves.len()));
                    let what = format!("N = {n}, {rules:?}, told of {told_of} moves");
                    assert_eq!(found, expected, "{what}");
                    assert!(expected.contains(&1), "{what}: the game is won");
                    assert_eq!(game.winner(), expected_game.winner(), "{what}");
                    assert_eq!(game.moves_played(), expected_game.moves_played(), "{what}");
                    let lines = [
                        Line::Row(5),
                        Line::Row(6),
                        Line::Column(4),
                        Line::AntiDiagonal,
                    ];
                    for line in lines {
                        assert_eq!(game.line_sum(line), expected_game.line_sum(line), "{what}");
                    }
                    // Each cell where a later lookup of it finds it.
                    for &[r, c, _] in moves.iter().take(50).chain(moves.iter().rev().take(50)) {
                        assert_eq!(game.cell(r, c), expected_game.cell(r, c), "{what}");
                    }
                }
            }
        }
    }

    /// Each move's outcome or refusal, `moves` played `batch` at a time
    /// by `play_batch` and, after a refusal, from the move after it.
    fn play_in_batches(
        game: &mut TicTacToe,
        moves: &[[u32; 3]],
        batch: usize,
    ) -> Vec<Result<u8, MoveError>> {
        let mut results = Vec::new();
        for chunk in moves.chunks(batch) {
            let mut played = 0;
            while played < chunk.len() {
                let mut outcomes = vec![0; chunk.len() - played];
                match game.play_batch(&chunk[played..], &mut outcomes) {
                    Ok(()) => {
                        results.extend(outcomes.iter().map(|&o| Ok(o)));
                        played = chunk.len();
                    }
                    Err((index, error)) => {
                        results.extend(outcomes[..index].iter().map(|&o| Ok(o)));
                        results.push(Err(error));
                        played += index + 1;
                    }
                }
            }
        }
        results
    }

    #[test]
    fn a_long_game_kept_in_rows_plays_as_one_in_the_table_and_as_the_scan_engine() {
        use rand::{RngExt, SeedableRng};
        for n in [1025u32, 3001, 9001] {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(n));
            let mut taken = std::collections::HashSet::new();
            let mut moves = Vec::new();
            let free_cell =
                |rng: &mut rand_chacha::ChaCha8Rng,
                 taken: &mut std::collections::HashSet<(u32, u32)>| loop {
                    let (r, c) = (rng.random_range(0..n), rng.random_range(0..n));
                    if r != 9 && taken.insert((r, c)) {
                        return (r, c);
                    }
                };
            // Eight moves a row at random, some in one row (past its
            // bucket), some on a taken cell.
            for i in 0..8 * n {
                let (r, c) = if i % 97 == 0 {
                    let (r, c) = (5, rng.random_range(0..n));
                    taken.insert((r, c));
                    (r, c)
                } else {
                    free_cell(&mut rng, &mut taken)
                };
                moves.push([r, c, 1 + i % 2]);
                if i % 501 == 0 {
                    moves.push([r, c, 1 + i % 2]);
                }
            }
            // Then player 1 fills row 9, a row past its bucket, and wins.
            for c in 0..n {
                moves.push([9, c, 1]);
                if c + 1 < n {
                    let (r, c) = free_cell(&mut rng, &mut taken);
                    moves.push([r, c, 2]);
                }
            }
            let size = BoardSize::new(i64::from(n)).expect("valid size");
            let declared = moves.len() as u64;
            let play_all = |game: &mut TicTacToe| play_in_batches(game, &moves, moves.len());
            let mut in_rows = TicTacToe::with_rules(size, Rules::default());
            in_rows.reset_for_moves(size, declared);
            assert!(
                in_rows.store == Store::Narrow && in_rows.narrow.rows.in_use,
                "N = {n}"
            );
            // Declaring more moves than rows suit: the table (the bitmaps
            // on N = 1025, whose game is then long enough for them).
            let mut in_table = TicTacToe::with_rules(size, Rules::default());
            in_table.reset_for_moves(size, 25 * u64::from(n));
            assert!(!in_table.narrow.rows.in_use, "N = {n}");
            assert_eq!(in_table.store == Store::Packed, n == 1025, "N = {n}");
            let scan_rules = Rules {
                engine: EngineKind::Scan,
                ..Rules::default()
            };
            let mut by_scan = TicTacToe::with_rules(size, scan_rules);
            let results = play_all(&mut in_rows);
            assert_eq!(
                results,
                play_all(&mut in_table),
                "N = {n}, rows against the table"
            );
            assert_eq!(
                results,
                play_all(&mut by_scan),
                "N = {n}, rows against the scan engine"
            );
            assert_eq!(results.last(), Some(&Ok(1)), "N = {n}: row 9 wins");
            assert!(
                results.iter().filter(|result| result.is_err()).count() >= 8,
                "N = {n}: taken cells refused"
            );
            for &[r, c, _] in moves.iter().step_by(7) {
                assert_eq!(
                    in_rows.cell(r, c),
                    in_table.cell(r, c),
                    "N = {n}, ({r}, {c})"
                );
                assert_eq!(
                    in_rows.cell(r, c ^ 1),
                    in_table.cell(r, c ^ 1),
                    "N = {n}, ({r}, {c} ^ 1)"
                );
                for line in [Line::Row(r), Line::Column(c)] {
                    assert_eq!(
                        in_rows.line_sum(line),
                        in_table.line_sum(line),
                        "N = {n}, {line}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_rows_loop_plays_as_the_scan_engine_under_every_rule() {
        use rand::{RngExt, SeedableRng};
        // Games of N to 3N moves, whose cells the rows' buckets keep: moves
        // at random with refusals planted (a taken cell in a bucket and
        // past one, a cell off the board, a third player), rows filled past
        // their buckets, then player 1 fills a line and the game goes on
        // 40 moves past the win.
        let games = [
            (1025u32, 0, true),
            (1027, 0, false),
            (1031, 1, true),
            (1033, 1, false),
        ]
        .into_iter()
        .chain([(2003, 2, true), (2011, 2, false), (4099, 3, true)]);
        for (n, line, last_past_bucket) in games {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(n));
            // The line's last cell in row 3, past its bucket by then, or
            // in the last row, whose bucket has room.
            let line_cell = |i: u32| {
                let j = if last_past_bucket { (i + 4) % n } else { i };
                match line {
                    0 => (j, j),
                    1 => (j, n - 1 - j),
                    2 => (j, 7),
                    _ => (11, i),
                }
            };
            let on_line = |r: u32, c: u32| (0..n).any(|i| line_cell(i) == (r, c));
            let mut taken = std::collections::HashSet::new();
            let free_cell =
                |rng: &mut rand_chacha::ChaCha8Rng,
                 taken: &mut std::collections::HashSet<(u32, u32)>| loop {
                    let (r, c) = (rng.random_range(0..n), rng.random_range(0..n));
                    if !on_line(r, c) && taken.insert((r, c)) {
                        return (r, c);
                    }
                };
            let mut moves = Vec::new();
            for i in 0..n + n / 2 {
                let (r, c) = if i % 5 == 0 {
                    // Rows 3 and 4 run past their buckets.
                    let r = 3 + i % 2;
                    let c = rng.random_range(0..n);
                    if on_line(r, c) || !taken.insert((r, c)) {
                        free_cell(&mut rng, &mut taken)
                    } else {
                        (r, c)
                    }
                } else {
                    free_cell(&mut rng, &mut taken)
                };
                moves.push([r, c, 1 + i % 2]);
                match i % 211 {
                    // The same cell again, in whichever store holds it.
                    7 => moves.push([r, c, 2 - i % 2]),
                    50 => moves.push([n, c, 2 - i % 2]),
                    99 => moves.push([r, c ^ 1, 3]),
                    _ => {}
                }
            }
            for i in 0..n {
                let (r, c) = line_cell(i);
                moves.push([r, c, 1]);
                let (r, c) = free_cell(&mut rng, &mut taken);
                moves.push([r, c, 2]);
            }
            moves.extend((0..40).map(|i| {
                let (r, c) = free_cell(&mut rng, &mut taken);
                [r, c, 1 + i % 2]
            }));
            let size = BoardSize::new(i64::from(n)).expect("valid size");
            let declared = moves.len() as u64;
            let play_all = |game: &mut TicTacToe| {
                let results = play_in_batches(game, &moves, 256);
                (results, game.winner(), game.moves_played())
            };
            for after_win in [AfterWin::Error, AfterWin::Continue, AfterWin::Leetcode] {
                let what = format!("N = {n}, line {line}, {last_past_bucket}, {after_win:?}");
                let counter = Rules {
                    after_win,
                    engine: EngineKind::Counter,
                };
                let mut in_rows = TicTacToe::with_rules(size, counter);
                in_rows.reset_for_moves(size, declared);
                assert!(in_rows.narrow.rows.in_use, "{what}");
                let scan = Rules {
                    after_win,
                    engine: EngineKind::Scan,
                };
                let mut by_scan = TicTacToe::with_rules(size, scan);
                let (results, winner, played) = play_all(&mut in_rows);
                let expected = play_all(&mut by_scan);
                assert_eq!(
                    (&results, winner, played),
                    (&expected.0, expected.1, expected.2),
                    "{what}"
                );
                assert!(winner.is_some(), "{what}: the line wins");
                assert!(
                    results.iter().filter(|result| result.is_err()).count() >= 12,
                    "{what}: refusals"
                );
                assert!(
                    in_rows.narrow.cells.len > 0,
                    "{what}: rows past their buckets"
                );
                for &[r, c, _] in moves.iter().step_by(3) {
                    assert_eq!(in_rows.cell(r, c), by_scan.cell(r, c), "{what}, ({r}, {c})");
                }
                for line in [
                    Line::Row(3),
                    Line::Row(11),
                    Line::Column(7),
                    Line::Diagonal,
                    Line::AntiDiagonal,
                ] {
                    assert_eq!(
                        in_rows.line_sum(line),
                        by_scan.line_sum(line),
                        "{what}, {line}"
                    );
                }
            }
        }
    }

    /// Games on a sparse store: N, whether line sums are kept from the
    /// start, whether the game declares enough moves to keep its cells in
    /// rows' buckets, and the moves.
    type SparseGames = [(u32, bool, bool, Vec<(u32, u32, bool)>)];

    /// A run of `games` on one sparse store of `S` cells against maps of
    /// the moves played (see the property below).
    fn sparse_store_keeps_what_maps_keep<S: CellSlot>(
        games: &SparseGames,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let mut sparse = Sparse::<S>::default();
        // Spread over the board, small boards filled past N moves.
        let place = |n: u32, r: u32, c: u32| {
            (
                ((u64::from(r) * 7919) % u64::from(n)) as u32,
                n - 1 - ((u64::from(c) * 104_729) % u64::from(n)) as u32,
            )
        };
        for &(n, count_lines, in_rows, ref moves) in games {
            // Without line sums from the start, they are taken up at move N.
            sparse.reset(n, count_lines);
            if in_rows {
                // Declared, not played: a small board's rows spill over
                // into the table, a large one's do not.
                let size = BoardSize::new(i64::from(n)).expect("valid size");
                sparse.expect_moves(size, 16 * u64::from(n));
                proptest::prop_assert_eq!(sparse.rows.in_use, n <= ROW_CELLS_MAX_N);
            }
            let mut cells = std::collections::HashMap::new();
            let mut sums = std::collections::HashMap::new();
            for &(r, c, second) in moves {
                let (r, c) = place(n, r, c);
                let mover = if second { Player::Two } else { Player::One };
                let expected = if let Some(first) = cells.insert((r, c), mover) {
                    // Taken: the first mark stays.
                    cells.insert((r, c), first);
                    None
                } else {
                    let mut add = |line: u64| {
                        let sum = sums.entry(line).or_insert(0);
                        *sum += mover.sign();
                        *sum
                    };
                    let row_and_column = (add(u64::from(r)), add(u64::from(n) + u64::from(c)));
                    Some(if sparse.count_lines || cells.len() >= n as usize {
                        row_and_column
                    } else {
                        (0, 0)
                    })
                };
                proptest::prop_assert_eq!(sparse.place(n, r, c, mover).expect("room"), expected);
            }
            for &(r, c, _) in moves {
                let (r, c) = place(n, r, c);
                proptest::prop_assert_eq!(sparse.owner(n, r, c), cells.get(&(r, c)).copied());
                if c ^ 1 < n {
                    proptest::prop_assert_eq!(
                        sparse.owner(n, r, c ^ 1),
                        cells.get(&(r, c ^ 1)).copied()
                    );
                }
                for line in [u64::from(r), u64::from(n) + u64::from(c)] {
                    proptest::prop_assert_eq!(
                        sparse.sum(n, line),
                        sums.get(&line).copied().unwrap_or(0)
                    );
                }
            }
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(crate::property_tests::config())]
        // One game object reused over a run of games, as the solver reuses
        // it over a file's cases, against a new object per game: games of
        // few and of many moves (around the dense store's RECORDED_MOVES),
        // on one size and on changing sizes, by batches and move by move.
        #[test]
        fn a_reused_game_plays_each_game_as_a_new_one_would(
            games in proptest::collection::vec(
                (
                    proptest::sample::select(vec![1u32, 2, 3, 4, 7, 8, 9, 10, 16, 17, 20, 40, 256, 257, 264, 300, 310, 1000, 1007, 1024, 2000, 9000, 70_000, 1_000_000_000]),
                    proptest::collection::vec((0u32..1024, 0u32..1024, 1u32..=2), 0..600),
                    proptest::bool::ANY,
                ),
                1..8,
            ),
        ) {
            let rules = Rules { after_win: AfterWin::Continue, ..Rules::default() };
            let mut reused = TicTacToe::with_rules(BoardSize::MIN, rules);
            for (n, moves, by_batch) in games {
                let size = BoardSize::new(i64::from(n)).expect("valid size");
                // Told of the game's length, as the solver is: on N = 2000
                // the new object's store is the packed one, the reused one's
                // the sparse one.
                reused.reset_for_moves(size, moves.len() as u64);
                let mut fresh = TicTacToe::with_rules(size, rules);
                let mut cells = std::collections::HashSet::new();
                let moves: Vec<[u32; 3]> = moves
                    .into_iter()
                    .map(|(r, c, p)| [r % n, c % n, p])
                    .filter(|&[r, c, _]| cells.insert((r, c)))
                    .collect();
                let expected: Vec<u8> = moves
                    .iter()
                    .map(|&[r, c, p]| {
                        fresh.play(i64::from(r), i64::from(c), i64::from(p)).expect("legal").number()
                    })
                    .collect();
                let found: Vec<u8> = if by_batch {
                    let mut outcomes = vec![0; moves.len()];
                    for (chunk, out) in moves.chunks(100).zip(outcomes.chunks_mut(100)) {
                        reused.play_batch(chunk, out).expect("legal");
                    }
                    outcomes
                } else {
                    moves
                        .iter()
                        .map(|&[r, c, p]| {
                            reused.play(i64::from(r), i64::from(c), i64::from(p)).expect("legal").number()
                        })
                        .collect()
                };
                proptest::prop_assert_eq!(found, expected);
            }
        }

        // The sparse store against maps that keep what was played, over a
        // run of games on one store: long ones that make its tables grow,
        // short ones after them that let the tables go, cells played twice;
        // with 64-bit cells, and with 32-bit ones on the boards they take.
        #[test]
        fn the_sparse_store_keeps_what_maps_of_the_moves_keep(
            games in proptest::collection::vec(
                (
                    proptest::sample::select(vec![5u32, 30, 60, 9000, ROW_CELLS_MAX_N, NARROW_MAX_N, 70_000, 1_000_000_000]),
                    proptest::bool::ANY,
                    proptest::bool::ANY,
                    proptest::collection::vec((0u32..200, 0u32..200, proptest::bool::ANY), 0..700),
                ),
                1..6,
            ),
        ) {
            sparse_store_keeps_what_maps_keep::<u64>(&games)?;
            let narrow: Vec<_> = games.into_iter().filter(|&(n, _, _, _)| n <= NARROW_MAX_N).collect();
            sparse_store_keeps_what_maps_keep::<u32>(&narrow)?;
        }

        // The dense store against the sparse one, which keeps exactly what
        // was played: cells played twice, several games in a row on one
        // store, its sizes on both sides of STAMPED_CELLS_MAX_N, and the
        // stamps near running out.
        #[test]
        fn the_dense_store_keeps_what_the_sparse_one_keeps(
            games in proptest::collection::vec(
                (
                    proptest::sample::select(vec![3u32, 64, 256, 257, 264, 300, 310, 1000, 1007, 1024]),
                    proptest::collection::vec((0u32..1024, 0u32..1024, proptest::bool::ANY), 0..400),
                ),
                1..5,
            ),
            first_stamp in proptest::sample::select(vec![0u16, u16::MAX - 4 * 3 - PLAYER_BITS]),
        ) {
            let mut dense = Dense { stamp: first_stamp, ..Dense::default() };
            for (n, moves) in games {
                dense.reset(n as usize);
                let mut sparse = Sparse::<u64>::default();
                sparse.reset(n, true);
                for &(r, c, second) in &moves {
                    // Near the first cells too, so that cells repeat.
                    let (r, c) = (r % n, c % (n.min(40)));
                    let mover = if second { Player::Two } else { Player::One };
                    proptest::prop_assert_eq!(
                        dense.place(r, c, mover),
                        sparse.place(n, r, c, mover).expect("room")
                    );
                }
                for &(r, c, _) in &moves {
                    let (r, c) = (r % n, c % (n.min(40)));
                    for c in [c, c ^ 1, c + 24, c + 25] {
                        if c < n {
                            proptest::prop_assert_eq!(dense.owner(r, c), sparse.owner(n, r, c));
                        }
                    }
                    proptest::prop_assert_eq!(dense.sum(r as usize, ROW), sparse.sum(n, u64::from(r)));
                }
            }
        }

        // The list of a short game's cells against the sparse store, which
        // keeps exactly what was played: cells played twice, and boards
        // from just over the list's length to the largest.
        #[test]
        fn the_few_store_keeps_what_the_sparse_one_keeps(
            n in proptest::sample::select(vec![FEW_MOVES as u32 + 1, 40, 1000, 46_341, 1_000_000_000]),
            moves in proptest::collection::vec((0u32..40, 0u32..40, proptest::bool::ANY), 0..60),
        ) {
            let mut few = Few::default();
            let mut sparse = Sparse::<u64>::default();
            sparse.reset(n, true);
            for &(r, c, second) in &moves {
                let (r, c) = (r % n, (c * 7919) % n);
                let mover = if second { Player::Two } else { Player::One };
                // A full list takes no more cells: the game leaves it first.
                if few.len == FEW_MOVES {
                    break;
                }
                proptest::prop_assert_eq!(few.place(r, c, mover), sparse.place(n, r, c, mover).expect("room"));
            }
            for &(r, c, _) in &moves {
                let (r, c) = (r % n, (c * 7919) % n);
                proptest::prop_assert_eq!(few.owner(r, c), sparse.owner(n, r, c));
                proptest::prop_assert_eq!(few.owner(c, r), sparse.owner(n, c, r));
                proptest::prop_assert_eq!(few.sum(r, ROW), sparse.sum(n, u64::from(r)));
                proptest::prop_assert_eq!(few.sum(c, COLUMN), sparse.sum(n, u64::from(n) + u64::from(c)));
            }
        }

        // The tiny store against the sparse one, which keeps exactly what
        // was played: every size it takes, and cells played twice.
        #[test]
        fn the_tiny_store_keeps_what_the_sparse_one_keeps(
            games in proptest::collection::vec(
                (
                    1..=TINY_MAX_N,
                    proptest::collection::vec((0u32..TINY_MAX_N, 0u32..TINY_MAX_N, proptest::bool::ANY), 0..80),
                ),
                1..5,
            ),
        ) {
            for (n, moves) in games {
                // A new game's board, as `reset_for_moves` makes it.
                let mut tiny = Tiny::default();
                let mut sparse = Sparse::<u64>::default();
                sparse.reset(n, true);
                for &(r, c, second) in &moves {
                    let (r, c) = (r % n, c % n);
                    let mover = if second { Player::Two } else { Player::One };
                    proptest::prop_assert_eq!(
                        tiny.place(n, r, c, mover),
                        sparse.place(n, r, c, mover).expect("room")
                    );
                }
                let sign = |owner: Option<Player>| owner.map_or(0, Player::sign);
                let diagonals = (0..n).fold((0, 0), |(diagonal, anti), i| {
                    (diagonal + sign(sparse.owner(n, i, i)), anti + sign(sparse.owner(n, i, n - 1 - i)))
                });
                proptest::prop_assert_eq!(tiny.diagonal_sums(n), diagonals);
                for line in 0..n {
                    for other in 0..n {
                        proptest::prop_assert_eq!(tiny.owner(line, other), sparse.owner(n, line, other));
                    }
                    proptest::prop_assert_eq!(tiny.sum(n, line, ROW), sparse.sum(n, u64::from(line)));
                    proptest::prop_assert_eq!(
                        tiny.sum(n, line, COLUMN),
                        sparse.sum(n, u64::from(n) + u64::from(line))
                    );
                }
            }
        }

        // The packed store against the sparse one, which keeps exactly what
        // was played: over games of every size it takes, several in a row
        // on one store, as the solver plays the cases of a file.
        #[test]
        fn the_packed_store_keeps_what_the_sparse_one_keeps(
            games in proptest::collection::vec(
                (
                    (DENSE_MAX_N + 1)..=(DENSE_MAX_N + 140),
                    proptest::collection::vec((0u32..140, 0u32..140, proptest::bool::ANY), 0..300),
                ),
                1..4,
            ),
        ) {
            let mut packed = Packed::default();
            for (n, moves) in games {
                proptest::prop_assert!(packed.reset(n as usize));
                let mut sparse = Sparse::<u64>::default();
                sparse.reset(n, true);
                for (r, c, second) in moves {
                    let (r, c) = (r * 7 % n, c * 13 % n);
                    let mover = if second { Player::Two } else { Player::One };
                    proptest::prop_assert_eq!(
                        packed.place(r, c, mover),
                        sparse.place(n, r, c, mover).expect("room")
                    );
                    proptest::prop_assert_eq!(packed.owner(r, c), sparse.owner(n, r, c));
                    proptest::prop_assert_eq!(
                        packed.sum(r as usize),
                        sparse.sum(n, u64::from(r))
                    );
                }
                for r in 0..n.min(140) {
                    for c in 0..n.min(140) {
                        proptest::prop_assert_eq!(packed.owner(r, c), sparse.owner(n, r, c));
                    }
                }
            }
        }
    }
}
