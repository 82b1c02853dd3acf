//! Reproducible test data: random games with the outcome asked for, and every game of a small board.
//!
//! Randomness comes from ChaCha8 (rand_chacha), a portable stream: the same
//! seed gives the same games on every machine. Without an explicit seed the
//! seed is a hash of the other settings ([`Spec::derived_seed`]), as testlib's
//! generators do, so a command line names its test. Independent files made
//! from one seed (a folder, the iterations of a stress run) use ChaCha's
//! independent streams, one per file.
//!
//! Random play on a big board almost never wins, so wins are built on
//! purpose: a chosen player fills a chosen line while both players scatter
//! their other marks off it, and the result is replayed on the engine to make
//! sure no line was completed early.

use crate::format::Format;
use crate::game::{BoardSize, Outcome, Rules, TicTacToe};
use crate::game::{Limits, MAX_N};
use rand::seq::SliceRandom;
use rand::seq::index::sample;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::io::{self, Write};

/// The statement's most cases.
pub const STATEMENT_MAX_T: u64 = Limits::STATEMENT.max_t;
/// The statement's largest board.
pub const STATEMENT_MAX_N: u32 = Limits::STATEMENT.max_n as u32;
/// The statement's fewest moves in a case.
pub const STATEMENT_MIN_Q: u64 = Limits::STATEMENT.min_q;
/// The most moves per case under relaxed limits unless `--max-moves` says otherwise.
pub const RELAXED_DEFAULT_MAX_MOVES: u64 = 100_000;
/// The most cases the solver reads (T is read as a signed 64-bit integer),
/// and so the most a relaxed file holds.
pub const RELAXED_MAX_T: u64 = i64::MAX as u64;
/// The largest board the solver accepts, and so the largest relaxed board.
pub const RELAXED_MAX_N: u32 = MAX_N as u32;

/// Which bounds generated files keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bounds {
    /// The statement's: T, N and Q as in [`STATEMENT_MAX_T`] and friends.
    #[default]
    Statement,
    /// Anything the solver accepts: big T, N up to 10^9, long games.
    Relaxed,
}

/// The outcome of each generated case.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutcomeMix {
    /// Every case ends with its last move winning.
    Win,
    /// Every case fills the board with nobody winning.
    Draw,
    /// Every case stops before the board is full, with nobody winning.
    Open,
    /// Each case picks one of the above (among those its board size allows).
    #[default]
    Mixed,
}

/// What to generate: everything that decides the bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The seed; `None` derives it from the other fields.
    pub seed: Option<u64>,
    /// T, the number of cases.
    pub cases: u64,
    /// The smallest board size.
    pub min_n: u32,
    /// The largest board size.
    pub max_n: u32,
    /// The most moves in a case; `None` is N x N under the statement's
    /// limits and [`RELAXED_DEFAULT_MAX_MOVES`] under relaxed ones.
    pub max_moves: Option<u64>,
    /// The outcome of each case.
    pub outcome: OutcomeMix,
    /// The bounds the file keeps.
    pub limits: Bounds,
    /// Won games go on after the win (the file then breaks the statement on purpose).
    pub play_past_win: bool,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            seed: None,
            cases: 10,
            min_n: 3,
            max_n: 10,
            max_moves: None,
            outcome: OutcomeMix::Mixed,
            limits: Bounds::Statement,
            play_past_win: false,
        }
    }
}

/// Settings that cannot make a file.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadSpec(pub String);

impl Spec {
    /// The seed in force: the given one, or one derived from the other settings.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| self.derived_seed())
    }

    /// The 64-bit FNV-1a hash of [`Spec::canonical`]: a fixed, documented
    /// function, so a command line without `--seed` names its bytes forever.
    pub fn derived_seed(&self) -> u64 {
        const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        self.canonical().bytes().fold(OFFSET, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(PRIME)
        })
    }

    /// The settings other than the seed, spelled one way whatever the command
    /// line's spelling, for example
    /// `cases=10 n=3..=10 max-moves=auto outcome=mixed limits=statement past-win=no`.
    pub fn canonical(&self) -> String {
        let max_moves = self
            .max_moves
            .map_or_else(|| "auto".to_owned(), |m| m.to_string());
        format!(
            "cases={} n={}..={} max-moves={max_moves} outcome={} limits={} past-win={}",
            self.cases,
            self.min_n,
            self.max_n,
            match self.outcome {
                OutcomeMix::Win => "win",
                OutcomeMix::Draw => "draw",
                OutcomeMix::Open => "open",
                OutcomeMix::Mixed => "mixed",
            },
            match self.limits {
                Bounds::Statement => "statement",
                Bounds::Relaxed => "relaxed",
            },
            if self.play_past_win { "yes" } else { "no" },
        )
    }

    /// Whether `cases` keep these settings' bounds: at most [`Spec::cases`]
    /// cases (one at least), each on a board within `min_n..=max_n` with
    /// between the fewest moves the limits allow and the most the settings
    /// and the board allow. What `stress` holds every input it tries to.
    pub fn admits(&self, cases: &[Case]) -> bool {
        let count = cases.len() as u64;
        (1..=self.cases).contains(&count)
            && cases.iter().all(|case| {
                let moves = case.moves.len() as u64;
                let board = u64::from(case.n) * u64::from(case.n);
                (self.min_n..=self.max_n).contains(&case.n)
                    && moves >= self.min_moves()
                    && moves <= self.move_cap().min(board)
            })
    }

    /// The fewest moves a case may have.
    fn min_moves(&self) -> u64 {
        match self.limits {
            Bounds::Statement => STATEMENT_MIN_Q,
            Bounds::Relaxed => 1,
        }
    }

    /// The most moves a case may have (its board may allow fewer).
    fn move_cap(&self) -> u64 {
        self.max_moves.unwrap_or(match self.limits {
            Bounds::Statement => u64::MAX,
            Bounds::Relaxed => RELAXED_DEFAULT_MAX_MOVES,
        })
    }

    /// Checks the settings against the limits, saying what is wrong.
    pub fn check(&self) -> Result<(), BadSpec> {
        let bad = |message: String| Err(BadSpec(message));
        if self.min_n > self.max_n {
            let defaults = Spec::default();
            return bad(format!(
                "--min-n {} is larger than --max-n {} (unless given, --min-n is {} and \
                 --max-n {})",
                self.min_n, self.max_n, defaults.min_n, defaults.max_n
            ));
        }
        if self.cases == 0 {
            return bad("--cases must be at least 1".into());
        }
        if self.cases > RELAXED_MAX_T {
            return bad(format!(
                "--cases must be at most {RELAXED_MAX_T}, the most the solver reads"
            ));
        }
        if self.limits == Bounds::Statement {
            if self.cases > STATEMENT_MAX_T {
                return bad(format!(
                    "the statement allows at most {STATEMENT_MAX_T} cases; \
                     use --limits relaxed for {}",
                    self.cases
                ));
            }
            if u64::from(self.min_n) < Limits::STATEMENT.smallest_playable_n() {
                return bad(format!(
                    "the statement's 5 <= Q <= N x N rules out N = 1 and 2, so --min-n must be \
                     at least {} (use --limits relaxed for smaller boards)",
                    Limits::STATEMENT.smallest_playable_n()
                ));
            }
            if self.max_n > STATEMENT_MAX_N {
                return bad(format!(
                    "the statement allows N up to {STATEMENT_MAX_N}; use --limits relaxed for {}",
                    self.max_n
                ));
            }
        }
        if self.min_n < 1 || self.max_n > RELAXED_MAX_N {
            return bad(format!("N must be between 1 and {RELAXED_MAX_N}"));
        }
        if self.move_cap() < self.min_moves() {
            return bad(format!("--max-moves must be at least {}", self.min_moves()));
        }
        let sizes = self.min_n..=self.max_n;
        let possible = match self.outcome {
            OutcomeMix::Mixed => true,
            outcome => self.feasible_sizes(outcome).is_some(),
        };
        if !possible {
            // The move cap is to blame only if lifting it would help.
            let uncapped = Spec {
                max_moves: Some(u64::MAX),
                ..self.clone()
            };
            let within = match uncapped.feasible_sizes(self.outcome) {
                Some(_) => format!(" within {} moves", self.move_cap()),
                // gen writes no game of 0 moves, which the solver takes.
                None => match self.min_moves() {
                    1 => " of one move or more".to_owned(),
                    least => format!(" of {least} moves or more"),
                },
            };
            return bad(format!(
                "no board size in {}..={} allows {} game{within}",
                sizes.start(),
                sizes.end(),
                match self.outcome {
                    OutcomeMix::Win => "a won",
                    OutcomeMix::Draw => "a drawn",
                    _ => "an unfinished",
                },
            ));
        }
        Ok(())
    }

    /// Whether a board of size `n` can end with `outcome` within the limits.
    fn allows(&self, n: u32, outcome: OutcomeMix) -> bool {
        let cells = u64::from(n) * u64::from(n);
        let cap = self.move_cap().min(cells);
        let n = u64::from(n);
        match outcome {
            // The fastest win: the winner moves first and fills a line.
            OutcomeMix::Win => (2 * n - 1).max(self.min_moves()) <= cap,
            // Boards of 1 and 2 always hold a line once full.
            OutcomeMix::Draw => n >= 3 && cells <= cap,
            OutcomeMix::Open => self.min_moves() <= cap.min(cells - 1),
            OutcomeMix::Mixed => true,
        }
    }

    /// The board sizes in range that allow `outcome`: an interval, since
    /// wins need a cap of 2N - 1 moves, draws N x N, and open games N x N - 1
    /// at least the minimum.
    fn feasible_sizes(&self, outcome: OutcomeMix) -> Option<(u32, u32)> {
        let allows = |n| self.allows(n, outcome);
        // Boards below 3 x 3 cannot be drawn: start the search past them.
        let lo = match outcome {
            OutcomeMix::Draw => self.min_n.max(3),
            _ => self.min_n,
        };
        let hi = self.max_n;
        if lo > hi {
            return None;
        }
        let first = match outcome {
            // Open games need room: the smallest sizes are the ones that fail.
            OutcomeMix::Open => first_true(lo, hi, allows)?,
            _ if allows(lo) => lo,
            _ => return None,
        };
        let last = match outcome {
            OutcomeMix::Open => hi,
            _ => last_true(first, hi, allows),
        };
        Some((first, last))
    }
}

/// The first `n` in `lo..=hi` for which a monotone (false then true) `ok` holds.
fn first_true(lo: u32, hi: u32, ok: impl Fn(u32) -> bool) -> Option<u32> {
    if !ok(hi) {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) { hi = mid } else { lo = mid + 1 }
    }
    Some(lo)
}

/// The last `n` in `lo..=hi` for which a monotone (true then false) `ok`
/// holds, given that it holds at `lo`.
fn last_true(lo: u32, hi: u32, ok: impl Fn(u32) -> bool) -> u32 {
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid) { lo = mid } else { hi = mid - 1 }
    }
    lo
}

/// One move of a generated case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// 0-based row.
    pub row: u32,
    /// 0-based column.
    pub col: u32,
    /// 1 or 2.
    pub player: u8,
}

/// One generated case: a board size and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// N.
    pub n: u32,
    /// The moves, in order.
    pub moves: Vec<Move>,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}\n{}", self.n, self.moves.len())?;
        for m in &self.moves {
            writeln!(f, "{} {} {}", m.row, m.col, m.player)?;
        }
        Ok(())
    }
}

/// Makes the cases of one file from a [`Spec`], one at a time.
pub struct Generator {
    spec: Spec,
    rng: ChaCha8Rng,
    game: TicTacToe,
}

impl Generator {
    /// A generator for the file numbered `stream` (0 for a single file) of
    /// the spec's seed. The spec must have passed [`Spec::check`].
    pub fn new(spec: &Spec, stream: u64) -> Generator {
        let mut rng = ChaCha8Rng::seed_from_u64(spec.seed());
        rng.set_stream(stream);
        Generator {
            spec: spec.clone(),
            rng,
            game: TicTacToe::with_rules(BoardSize::MIN, Rules::default()),
        }
    }

    /// The next case.
    pub fn next_case(&mut self) -> Case {
        let spec = &self.spec;
        let outcome = match spec.outcome {
            OutcomeMix::Mixed => None,
            outcome => Some(outcome),
        };
        let (n, outcome) = match outcome {
            Some(outcome) => {
                // `check` made sure the interval exists.
                let (lo, hi) = spec
                    .feasible_sizes(outcome)
                    .unwrap_or((spec.min_n, spec.max_n));
                (self.rng.random_range(lo..=hi), outcome)
            }
            None => {
                let n = self.rng.random_range(spec.min_n..=spec.max_n);
                let choices: Vec<OutcomeMix> =
                    [OutcomeMix::Win, OutcomeMix::Draw, OutcomeMix::Open]
                        .into_iter()
                        .filter(|&o| spec.allows(n, o))
                        .collect();
                let outcome = match choices.len() {
                    0 => OutcomeMix::Open,
                    len => choices[self.rng.random_range(0..len)],
                };
                (n, outcome)
            }
        };
        let moves = match outcome {
            OutcomeMix::Win => self.won(n),
            OutcomeMix::Draw => self.drawn(n),
            _ => self.open(n),
        };
        Case { n, moves }
    }

    fn cap(&self, n: u32) -> u64 {
        self.spec.move_cap().min(u64::from(n) * u64::from(n))
    }

    /// Replays `moves` from an empty board: the 0-based index of the first winning move.
    fn first_win(&mut self, n: u32, moves: &[Move]) -> Option<usize> {
        let size = BoardSize::new(i64::from(n)).unwrap_or(BoardSize::MIN);
        self.game.reset(size);
        moves.iter().position(|m| {
            let played = self
                .game
                .play(i64::from(m.row), i64::from(m.col), i64::from(m.player));
            matches!(played, Ok(Outcome::Win(_)))
        })
    }

    /// An unfinished game: fewer than N x N moves and no line.
    fn open(&mut self, n: u32) -> Vec<Move> {
        let cells = u64::from(n) * u64::from(n);
        let max = self.cap(n).min(cells - 1);
        let min = self.spec.min_moves();
        loop {
            let q = self.rng.random_range(min..=max);
            let first = self.rng.random_range(1..=2u8);
            let mut moves = self.scatter(cells, q, first, |index| cell_at(n, index));
            // A player with fewer than N marks cannot hold a line.
            if q.div_ceil(2) < u64::from(n) {
                return moves;
            }
            match self.first_win(n, &moves) {
                None => return moves,
                // Stopping just before the accidental win keeps the game open.
                Some(win) if win as u64 >= min => {
                    moves.truncate(win);
                    return moves;
                }
                Some(_) => {}
            }
        }
    }

    /// A full board with no line.
    fn drawn(&mut self, n: u32) -> Vec<Move> {
        let cells = u64::from(n) * u64::from(n);
        loop {
            let first = self.rng.random_range(1..=2u8);
            let moves = self.scatter(cells, cells, first, |index| cell_at(n, index));
            if self.first_win(n, &moves).is_none() {
                return moves;
            }
        }
    }

    /// `q` distinct cells out of `space`, placed in a random order by
    /// alternating players starting with `first`.
    fn scatter(
        &mut self,
        space: u64,
        q: u64,
        first: u8,
        place: impl Fn(u64) -> (u32, u32),
    ) -> Vec<Move> {
        sample(&mut self.rng, space as usize, q as usize)
            .into_iter()
            .enumerate()
            .map(|(i, index)| {
                let (row, col) = place(index as u64);
                Move {
                    row,
                    col,
                    player: if i % 2 == 0 { first } else { 3 - first },
                }
            })
            .collect()
    }

    /// A game whose last move completes a chosen line for a chosen player.
    fn won(&mut self, n: u32) -> Vec<Move> {
        let winner = self.rng.random_range(1..=2u8);
        let line = match self.rng.random_range(0..4u8) {
            0 => WinLine::Row(self.rng.random_range(0..n)),
            1 => WinLine::Column(self.rng.random_range(0..n)),
            2 => WinLine::Diagonal,
            _ => WinLine::AntiDiagonal,
        };
        let cap = self.cap(n);
        let wide = u64::from(n);
        let off_line = wide * wide - wide;
        // The loser moving first needs Q = 2N at least, and a cell off the line.
        let mut winner_first = off_line == 0 || 2 * wide > cap || self.rng.random_bool(0.5);
        // Winner marks beyond the N on the line: Q = 2(N + extra) - 1 when
        // the winner moves first, 2(N + extra) otherwise, and Q <= cap.
        let max_extra = (cap + u64::from(winner_first)) / 2 - wide;
        let mut extra = self.rng.random_range(0..=max_extra);
        let mut attempts = 0;
        loop {
            attempts += 1;
            if attempts > 20 {
                // Always works: the loser then has N - 1 marks and cannot win.
                winner_first = true;
                extra = 0;
            }
            let k = wide + extra;
            let q = 2 * k - u64::from(winner_first);
            let loser_marks = q - k;
            let past = if self.spec.play_past_win {
                let room =
                    (off_line - extra - loser_marks).min(self.spec.move_cap().saturating_sub(q));
                if room > 0 {
                    self.rng.random_range(1..=room)
                } else {
                    0
                }
            } else {
                0
            };
            let mut off: Vec<(u32, u32)> = sample(
                &mut self.rng,
                off_line as usize,
                (extra + loser_marks + past) as usize,
            )
            .into_iter()
            .map(|index| line.off_cell(n, index as u64))
            .collect();
            let past_cells = off.split_off((extra + loser_marks) as usize);
            let loser_cells = off.split_off(extra as usize);
            let mut winner_cells: Vec<(u32, u32)> = (0..n).map(|i| line.cell(n, i)).collect();
            winner_cells.extend(off);
            winner_cells.shuffle(&mut self.rng);
            // The winner's last mark must be the one that completes the line.
            if let Some(on_line) = winner_cells.iter().rposition(|&(r, c)| line.holds(n, r, c)) {
                let last = winner_cells.len() - 1;
                winner_cells.swap(on_line, last);
            }
            let loser = 3 - winner;
            let (first, second, first_player) = if winner_first {
                (&winner_cells, &loser_cells, winner)
            } else {
                (&loser_cells, &winner_cells, loser)
            };
            let mut moves = Vec::with_capacity((q + past) as usize);
            for i in 0..q as usize {
                let (cells, player) = if i % 2 == 0 {
                    (first, first_player)
                } else {
                    (second, 3 - first_player)
                };
                let (row, col) = cells[i / 2];
                moves.push(Move { row, col, player });
            }
            // Extra marks may have completed some other line early.
            if self.first_win(n, &moves) != Some(moves.len() - 1) {
                extra /= 2;
                continue;
            }
            let mut next = loser;
            for (row, col) in past_cells {
                moves.push(Move {
                    row,
                    col,
                    player: next,
                });
                next = 3 - next;
            }
            return moves;
        }
    }
}

/// The cell with row-major index `index` on an `n` x `n` board.
fn cell_at(n: u32, index: u64) -> (u32, u32) {
    let n = u64::from(n);
    ((index / n) as u32, (index % n) as u32)
}

/// The line a built win completes.
#[derive(Clone, Copy, Debug)]
enum WinLine {
    Row(u32),
    Column(u32),
    Diagonal,
    AntiDiagonal,
}

impl WinLine {
    /// The line's `i`-th cell.
    fn cell(self, n: u32, i: u32) -> (u32, u32) {
        match self {
            WinLine::Row(r) => (r, i),
            WinLine::Column(c) => (i, c),
            WinLine::Diagonal => (i, i),
            WinLine::AntiDiagonal => (i, n - 1 - i),
        }
    }

    fn holds(self, n: u32, row: u32, col: u32) -> bool {
        match self {
            WinLine::Row(r) => row == r,
            WinLine::Column(c) => col == c,
            WinLine::Diagonal => row == col,
            WinLine::AntiDiagonal => u64::from(row) + u64::from(col) + 1 == u64::from(n),
        }
    }

    /// The `index`-th of the N x N - N cells off the line, in row-major order.
    fn off_cell(self, n: u32, index: u64) -> (u32, u32) {
        let wide = u64::from(n);
        if let WinLine::Row(r) = self {
            let row = (index / wide) as u32;
            let row = if row >= r { row + 1 } else { row };
            return (row, (index % wide) as u32);
        }
        // Every row has N - 1 cells off a column or diagonal: skip the one on it.
        let row = (index / (wide - 1)) as u32;
        let col = (index % (wide - 1)) as u32;
        let skipped = self.cell(n, row).1;
        (row, if col >= skipped { col + 1 } else { col })
    }
}

/// Completed text is written out once this much has gathered.
const BLOCK: usize = 128 * 1024;

/// Writes files of cases in the solver's input format, in large blocks.
pub struct CaseWriter<W: Write> {
    format: Format,
    /// Cases written so far.
    cases: u64,
    out: W,
    buf: Vec<u8>,
    numbers: itoa::Buffer,
}

impl<W: Write> CaseWriter<W> {
    /// A writer onto `out`, which it does not buffer further.
    pub fn new(out: W, format: Format) -> CaseWriter<W> {
        CaseWriter {
            format,
            cases: 0,
            out,
            buf: Vec::with_capacity(BLOCK + 64),
            numbers: itoa::Buffer::new(),
        }
    }

    fn number(&mut self, value: u64, end: u8) {
        self.buf
            .extend_from_slice(self.numbers.format(value).as_bytes());
        self.buf.push(end);
    }

    fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= BLOCK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes T (a LeetCode file does not state it).
    pub fn header(&mut self, cases: u64) -> io::Result<()> {
        if self.format == Format::CodingNinjas {
            self.number(cases, b'\n');
        }
        self.spill()
    }

    /// Writes a case: N, Q, then a line per move; or its LeetCode transcript.
    pub fn case(&mut self, n: u32, moves: &[Move]) -> io::Result<()> {
        self.cases += 1;
        if self.format == Format::Leetcode {
            if self.cases > 1 {
                self.buf.push(b'\n');
            }
            let calls: Vec<(i64, i64, i64)> = moves
                .iter()
                .map(|m| (i64::from(m.row), i64::from(m.col), i64::from(m.player)))
                .collect();
            crate::format::write::leetcode_transcript(&mut self.buf, u64::from(n), &calls);
            return self.spill();
        }
        self.number(u64::from(n), b'\n');
        self.number(moves.len() as u64, b'\n');
        for m in moves {
            self.number(u64::from(m.row), b' ');
            self.number(u64::from(m.col), b' ');
            self.buf.extend_from_slice(&[b'0' + m.player, b'\n']);
            self.spill()?;
        }
        self.spill()
    }

    /// Writes out what is gathered.
    pub fn finish(mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }
}

/// Writes a whole file for `spec`, stream `stream`.
#[cfg(any(test, feature = "internals"))]
pub fn write_file(spec: &Spec, stream: u64, out: impl Write) -> io::Result<()> {
    write_file_as(spec, stream, Format::CodingNinjas, out)
}

/// Writes a whole file for `spec`, stream `stream`, in the given format.
pub fn write_file_as(spec: &Spec, stream: u64, format: Format, out: impl Write) -> io::Result<()> {
    let mut writer = CaseWriter::new(out, format);
    let mut generator = Generator::new(spec, stream);
    writer.header(spec.cases)?;
    for _ in 0..spec.cases {
        let case = generator.next_case();
        writer.case(case.n, &case.moves)?;
    }
    writer.finish()
}

/// The largest board `--all-games` enumerates: 4 x 4 has trillions of games.
pub const ALL_GAMES_MAX_N: u32 = 3;

/// Calls `visit` with every legal game on an `n` x `n` board (`n` <= 3),
/// player 1 first, players alternating, each game stopping at its first win
/// or when the board is full. Games come in lexicographic order of their
/// row-major cell indices.
pub fn all_games<E>(n: u32, mut visit: impl FnMut(&[Move]) -> Result<(), E>) -> Result<(), E> {
    let n = n.clamp(1, ALL_GAMES_MAX_N);
    let side = n as usize;
    let bit = |r: usize, c: usize| 1u16 << (r * side + c);
    let mut lines: Vec<u16> = Vec::new();
    for i in 0..side {
        lines.push((0..side).map(|c| bit(i, c)).sum());
        lines.push((0..side).map(|r| bit(r, i)).sum());
    }
    lines.push((0..side).map(|i| bit(i, i)).sum());
    lines.push((0..side).map(|i| bit(i, side - 1 - i)).sum());
    let mut search = AllGames {
        side,
        lines,
        marks: [0, 0],
        moves: Vec::with_capacity(side * side),
    };
    search.extend(0, &mut visit)
}

struct AllGames {
    side: usize,
    lines: Vec<u16>,
    /// The cells each player holds, as bit masks.
    marks: [u16; 2],
    moves: Vec<Move>,
}

impl AllGames {
    fn extend<E>(
        &mut self,
        mover: usize,
        visit: &mut impl FnMut(&[Move]) -> Result<(), E>,
    ) -> Result<(), E> {
        let cells = self.side * self.side;
        for cell in 0..cells {
            let mask = 1u16 << cell;
            if (self.marks[0] | self.marks[1]) & mask != 0 {
                continue;
            }
            self.marks[mover] |= mask;
            self.moves.push(Move {
                row: (cell / self.side) as u32,
                col: (cell % self.side) as u32,
                player: mover as u8 + 1,
            });
            let won = self
                .lines
                .iter()
                .any(|&line| self.marks[mover] & line == line);
            if won || self.moves.len() == cells {
                visit(&self.moves)?;
            } else {
                self.extend(1 - mover, visit)?;
            }
            self.moves.pop();
            self.marks[mover] &= !mask;
        }
        Ok(())
    }
}

/// Writes every game of an `n` x `n` board as one file, one case per game.
pub fn write_all_games(n: u32, format: Format, out: impl Write) -> io::Result<()> {
    let mut count = 0u64;
    all_games(n, |_| {
        count += 1;
        Ok::<(), io::Error>(())
    })?;
    let mut writer = CaseWriter::new(out, format);
    writer.header(count)?;
    all_games(n, |moves| writer.case(n, moves))?;
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_games(n: u32) -> u64 {
        let mut count = 0;
        all_games(n, |_| {
            count += 1;
            Ok::<(), ()>(())
        })
        .ok();
        count
    }

    #[test]
    fn there_are_255168_games_of_three_by_three() {
        assert_eq!(count_games(3), 255_168);
        assert_eq!(count_games(2), 24);
        assert_eq!(count_games(1), 1);
    }

    #[test]
    fn the_derived_seed_depends_on_the_settings_not_their_spelling() {
        let spec = Spec::default();
        assert_eq!(
            spec.canonical(),
            "cases=10 n=3..=10 max-moves=auto outcome=mixed limits=statement past-win=no"
        );
        let other = Spec {
            cases: 11,
            ..Spec::default()
        };
        assert_ne!(spec.seed(), other.seed());
        let explicit = Spec {
            seed: Some(7),
            ..Spec::default()
        };
        assert_eq!(explicit.seed(), 7);
    }

    #[test]
    fn off_line_cells_cover_the_board_minus_the_line() {
        for n in 2..6u32 {
            for line in [
                WinLine::Row(1),
                WinLine::Column(n - 1),
                WinLine::Diagonal,
                WinLine::AntiDiagonal,
            ] {
                let mut cells: Vec<(u32, u32)> = (0..u64::from(n * n - n))
                    .map(|i| line.off_cell(n, i))
                    .collect();
                assert!(
                    cells
                        .iter()
                        .all(|&(r, c)| r < n && c < n && !line.holds(n, r, c))
                );
                cells.sort();
                cells.dedup();
                assert_eq!(cells.len() as u32, n * n - n, "{line:?} on {n}");
            }
        }
    }

    #[test]
    fn impossible_settings_are_refused_with_a_reason() {
        let tiny = Spec {
            min_n: 2,
            ..Spec::default()
        };
        assert!(
            tiny.check()
                .unwrap_err()
                .0
                .contains("rules out N = 1 and 2")
        );
        let no_draw = Spec {
            outcome: OutcomeMix::Draw,
            max_moves: Some(8),
            ..Spec::default()
        };
        assert!(no_draw.check().is_err());
        let relaxed_draw = Spec {
            limits: Bounds::Relaxed,
            min_n: 1,
            outcome: OutcomeMix::Draw,
            ..Spec::default()
        };
        assert_eq!(relaxed_draw.feasible_sizes(OutcomeMix::Draw), Some((3, 10)));
        let relaxed_huge = Spec {
            limits: Bounds::Relaxed,
            min_n: 1_000_000_000,
            max_n: 1_000_000_000,
            cases: 1000,
            ..Spec::default()
        };
        assert_eq!(relaxed_huge.check(), Ok(()));
        let most_cases = Spec {
            limits: Bounds::Relaxed,
            cases: RELAXED_MAX_T,
            ..Spec::default()
        };
        assert_eq!(most_cases.check(), Ok(()));
        let past_the_solver = Spec {
            cases: RELAXED_MAX_T + 1,
            ..most_cases
        };
        assert!(
            past_the_solver
                .check()
                .unwrap_err()
                .0
                .contains("the most the solver reads")
        );
    }

    #[test]
    fn every_outcome_comes_out_as_asked() {
        for outcome in [OutcomeMix::Win, OutcomeMix::Draw, OutcomeMix::Open] {
            let spec = Spec {
                seed: Some(1),
                cases: 100,
                outcome,
                ..Spec::default()
            };
            let mut generator = Generator::new(&spec, 0);
            for _ in 0..spec.cases {
                let case = generator.next_case();
                let q = case.moves.len();
                let cells = (case.n * case.n) as usize;
                let win = generator.first_win(case.n, &case.moves);
                match outcome {
                    OutcomeMix::Win => assert_eq!(win, Some(q - 1), "{case}"),
                    OutcomeMix::Draw => assert!(win.is_none() && q == cells, "{case}"),
                    _ => assert!(win.is_none() && q < cells && q >= 5, "{case}"),
                }
            }
        }
    }
}
