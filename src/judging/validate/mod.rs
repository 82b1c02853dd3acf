//! The input validator: is a file exactly what the statement promises, and if not, where not?
//!
//! A judge's test data must be canonical, not merely readable, so this is
//! strict where the solver is lenient: [`strict`] checks every byte of the
//! layout, and [`validate`] checks the constraints (bounds on T, N, Q and the
//! moves) and the statement's guarantees (empty cells, alternating players,
//! nothing after a win). It reports every violation up to a cap, each with
//! its line, column, case and move, and for a valid file a summary of what
//! it holds.
//!
//! Only the Coding Ninjas format exists so far.

pub mod leetcode;

use crate::error::Position;
use crate::format::bytes::Resume;
use crate::format::coding_ninjas::read::PartCases;
use crate::format::coding_ninjas::split::{Next, Part, Splitter};
use crate::format::coding_ninjas::strict::{Field, Layout, Separator, Spot, StrictReader};
use crate::format::lines::{BATCH, Moves};
use crate::game::{
    AfterWinIn, BoardSize, Breach, CleanBatch, Limits, MoveError, MoveField, Player, Referee,
    TicTacToe,
};
use crate::error::Error;
use crate::format::coding_ninjas::cut::HeaderLines;
use crate::format::cut::Part as CutPart;
use crate::pipeline::parallel::{Begun, Ordered, Split, begin, part_bytes, unsplit};
use crate::pipeline::proven::{InOrder, PartWork, Taken, across_cores};
use crate::simd::{Cpu, Kernel, dispatch};
use std::fmt;
use std::io::{self, Read};

/// A rule a file breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rule {
    /// The layout is not canonical.
    #[error(transparent)]
    Layout(#[from] Layout),
    /// The file ends before the last case is complete.
    #[error("input ends early: expected {0}")]
    EndsEarly(&'static str),
    /// Something follows the last case.
    #[error("unexpected data after the last case: {0:?}")]
    TrailingData(String),
    /// T, N or Q outside its bounds.
    #[error("{name} = {value} is out of range: {min} <= {name} <= {max}")]
    OutOfRange {
        /// `T`, `N` or `Q`.
        name: &'static str,
        /// The value found.
        value: i64,
        /// The least allowed.
        min: u64,
        /// The most allowed.
        max: u64,
    },
    /// Q below its minimum when no Q at all would do: the statement's
    /// 5 <= Q <= N x N leaves nothing for N = 1 and 2.
    #[error(
        "Q = {q} is below the minimum {min_q}, and no Q could be valid here: \
         {min_q} <= Q <= N x N allows none when N = {n} (N x N = {cells}); \
         the bounds contradict each other for every N below {smallest} \
         (lower --min-q to accept such cases)"
    )]
    NoValidQ {
        /// The Q found.
        q: i64,
        /// The case's N.
        n: u64,
        /// N x N.
        cells: u64,
        /// The minimum Q.
        min_q: u64,
        /// The smallest N that admits a valid Q.
        smallest: u64,
    },
    /// More moves than cells.
    #[error("Q = {q} moves cannot fit on a {n} x {n} board: Q <= N x N = {cells}")]
    TooManyMoves {
        /// The Q found.
        q: i64,
        /// The case's N.
        n: u64,
        /// N x N.
        cells: u64,
    },
    /// The same player twice in a row.
    #[error("player {player} moves twice in a row: players must alternate")]
    NotAlternating {
        /// The player who moved again.
        player: u8,
    },
    /// A move after the case was won.
    #[error(
        "player {} already won this case at move {at_move}: no move may follow a win",
        winner.number()
    )]
    AfterWin {
        /// Who won.
        winner: Player,
        /// The winning move.
        at_move: u64,
    },
    /// A move off the board, by no player, or onto a taken cell.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A LeetCode transcript that breaks its format (JSON, method names,
    /// arity); nothing after it can be read.
    #[error("{0}")]
    Format(String),
}

impl From<Breach> for Rule {
    fn from(breach: Breach) -> Rule {
        match breach {
            Breach::Move(why) => Rule::Move(why),
            Breach::NotAlternating { player } => Rule::NotAlternating {
                player: player.number(),
            },
            Breach::AfterWin { winner, at_move } => Rule::AfterWin { winner, at_move },
        }
    }
}

/// One violation: where, and which rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{position}: {rule}")]
pub struct Violation {
    /// Line, column, case and move.
    pub position: Position,
    /// The rule broken.
    pub rule: Rule,
}

/// What a valid file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// T.
    pub cases: u64,
    /// The smallest N.
    pub min_n: u64,
    /// The largest N.
    pub max_n: u64,
    /// All moves of all cases.
    pub moves: u64,
    /// Cases won by player 1 and by player 2.
    pub won_by: [u64; 2],
    /// Cases that fill the board with no winner.
    pub drawn: u64,
    /// Cases that end with no winner and empty cells.
    pub unfinished: u64,
    /// The fewest and the most moves in a case.
    pub min_q: u64,
    /// See `min_q`.
    pub max_q: u64,
    /// Cases whose moves fill the board: Q = N x N.
    pub full: u64,
}

impl Summary {
    /// Adds the summary of the cases that follow these.
    pub(crate) fn add(&mut self, next: &Summary) {
        if next.cases == 0 {
            return;
        }
        self.cases += next.cases;
        self.min_n = self.min_n.min(next.min_n);
        self.max_n = self.max_n.max(next.max_n);
        self.moves += next.moves;
        self.won_by[0] += next.won_by[0];
        self.won_by[1] += next.won_by[1];
        self.drawn += next.drawn;
        self.unfinished += next.unfinished;
        self.min_q = self.min_q.min(next.min_q);
        self.max_q = self.max_q.max(next.max_q);
        self.full += next.full;
    }

    /// Counts a finished case.
    pub(crate) fn add_case(&mut self, game: &TicTacToe, board: BoardSize) {
        let n = u64::from(board.get());
        self.cases += 1;
        self.min_n = self.min_n.min(n);
        self.max_n = self.max_n.max(n);
        self.moves += game.moves_played();
        self.min_q = self.min_q.min(game.moves_played());
        self.max_q = self.max_q.max(game.moves_played());
        self.full += u64::from(game.moves_played() == board.cells());
        match game.winner() {
            Some((Player::One, _)) => self.won_by[0] += 1,
            Some((Player::Two, _)) => self.won_by[1] += 1,
            None if game.moves_played() == board.cells() => self.drawn += 1,
            None => self.unfinished += 1,
        }
    }
}

/// T, N or Q against its bounds.
pub(crate) fn range_rule(name: &'static str, value: i64, min: u64, max: u64) -> Option<Rule> {
    let inside = u64::try_from(value).is_ok_and(|value| (min..=max).contains(&value));
    (!inside).then_some(Rule::OutOfRange {
        name,
        value,
        min,
        max,
    })
}

/// Q against its bounds, which depend on N.
pub(crate) fn q_rule(limits: &Limits, q: i64, n: i64) -> Option<Rule> {
    let n = u64::try_from(n).unwrap_or(0);
    let cells = n.saturating_mul(n);
    let min_q = limits.min_q;
    let max_q = limits.max_q.map_or(cells, |max| max.min(cells));
    Some(match u64::try_from(q) {
        Ok(found) if found < min_q && min_q > cells && n > 0 => Rule::NoValidQ {
            q,
            n,
            cells,
            min_q,
            smallest: limits.smallest_playable_n(),
        },
        Ok(found) if found > cells => Rule::TooManyMoves { q, n, cells },
        Ok(found) if (min_q..=max_q).contains(&found) => return None,
        _ => Rule::OutOfRange {
            name: "Q",
            value: q,
            min: min_q,
            max: max_q,
        },
    })
}

impl Summary {
    /// testlib's test overview log for a valid input with these bounds:
    /// which bounds of T, N and Q the file hits, which bounds are the same
    /// for every case, and the variables read, in testlib's words and
    /// order, as Polygon shows them to problem setters.
    pub fn overview(&self, limits: &Limits) -> String {
        let hits = |min: bool, max: bool| {
            let mut words = String::new();
            if min {
                words.push_str(" min-value-hit");
            }
            if max {
                words.push_str(" max-value-hit");
            }
            words
        };
        let cells = |n: u64| n.saturating_mul(n);
        // Q's upper bound is the smaller of --max-q and N x N: the same for
        // every case only when --max-q is below the smallest board's cells.
        let q_max = limits.max_q.filter(|&max| max <= cells(limits.min_n));
        let q_max_hit = self.full > 0 || limits.max_q.is_some_and(|max| self.max_q == max);
        let show = |bound: Option<u64>| bound.map_or("?".to_owned(), |bound| bound.to_string());
        format!(
            "\"N\":{}\n\"Q\":{}\n\"T\":{}\n\
             constant-bounds \"N\": {} {}\n\
             constant-bounds \"Q\": {} {}\n\
             constant-bounds \"T\": {} {}\n\
             variable \"N\"\nvariable \"Q\"\nvariable \"T\"\n",
            hits(self.min_n == limits.min_n, self.max_n == limits.max_n),
            hits(self.min_q == limits.min_q, q_max_hit),
            hits(self.cases == limits.min_t, self.cases == limits.max_t),
            limits.min_n,
            limits.max_n,
            limits.min_q,
            show(q_max),
            limits.min_t,
            limits.max_t,
        )
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |count: u64, one: &str, many: &str| {
            format!("{count} {}", if count == 1 { one } else { many })
        };
        write!(f, "{}", plural(self.cases, "case", "cases"))?;
        if self.cases == 0 {
            // No board to size.
        } else if self.min_n == self.max_n {
            write!(f, ", N {}", self.min_n)?;
        } else {
            write!(f, ", N {}..{}", self.min_n, self.max_n)?;
        }
        write!(
            f,
            ", {}; {} won by 1, {} by 2, {} drawn, {} unfinished",
            plural(self.moves, "move", "moves"),
            self.won_by[0],
            self.won_by[1],
            self.drawn,
            self.unfinished
        )
    }
}

/// The outcome of validating a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The violations found, in file order, at most the cap.
    pub violations: Vec<Violation>,
    /// Whether validation stopped at the cap with the file not yet read.
    pub capped: bool,
    /// What the file holds; complete only when there are no violations.
    pub summary: Summary,
}

impl Report {
    /// No violations yet and nothing counted.
    pub(crate) fn empty() -> Report {
        Report {
            violations: Vec::new(),
            capped: false,
            summary: Summary {
                min_n: u64::MAX,
                min_q: u64::MAX,
                ..Summary::default()
            },
        }
    }

    /// Records a violation; false once the cap is reached.
    pub(crate) fn add(&mut self, violation: Violation, max_errors: usize) -> bool {
        self.violations.push(violation);
        if self.violations.len() >= max_errors.max(1) {
            self.capped = true;
            return false;
        }
        true
    }

    /// Records that the file started with a UTF-8 byte order mark, first.
    pub fn note_byte_order_mark(&mut self, max_errors: usize) {
        let position = Position {
            line: 1,
            column: 1,
            ..Position::default()
        };
        let rule = Rule::Layout(Layout::ByteOrderMark);
        self.violations.insert(0, Violation { position, rule });
        if self.violations.len() > max_errors.max(1) {
            self.violations.truncate(max_errors.max(1));
            self.capped = true;
        }
    }

    /// Finishes the summary of a file with no cases.
    pub(crate) fn finish(mut self) -> Report {
        if self.summary.cases == 0 {
            // No case has a size or a length; nothing reads them then, but
            // a placeholder minimum would show as a real figure if one did.
            self.summary.min_n = 0;
            self.summary.min_q = 0;
        }
        self
    }
    /// Whether the file is valid.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Why validation stops early.
enum Halt {
    /// The rest of the file cannot be read with any meaning, or the cap is reached.
    Stop,
    /// Reading failed.
    Io(io::Error),
}

impl From<io::Error> for Halt {
    fn from(error: io::Error) -> Halt {
        Halt::Io(error)
    }
}

/// Validates one Coding Ninjas input against `limits`, stopping after
/// `max_errors` violations (at least one is always reported). A long input
/// is validated on every core: see [`validate_split`].
#[cfg(any(test, feature = "internals"))]
pub fn validate(input: impl Read, limits: &Limits, max_errors: usize) -> io::Result<Report> {
    validate_split(input, limits, max_errors, Split::default())
}

/// [`validate`], with the input split as `split` says.
///
/// The input is cut where a case seems to start and its parts validated
/// on several threads, as a solve cuts it (`pipeline::proven`): while every
/// part is valid, and their cases add up to no more than T (and to T at the
/// input's end), their summaries add up. From the first part with any
/// violation on, and wherever the cuts cannot follow, the input is
/// validated as parts of whole cases that the counting splitter finds, and
/// from their first violation on as one stream, so the report (what is
/// found, in which order, up to the cap) is the one stream's exactly.
pub fn validate_split(
    input: impl Read,
    limits: &Limits,
    max_errors: usize,
    split: Split,
) -> io::Result<Report> {
    let max_errors = max_errors.max(1);
    if split.workers == 1 {
        let reader = StrictReader::new(input);
        return run_validator(reader, limits, max_errors, Span::WHOLE, Report::empty());
    }
    let work = CutValidate {
        limits: *limits,
        max_errors,
    };
    let mut in_order = CutValidateInOrder {
        limits: *limits,
        max_errors,
        split,
        valid: Report::empty(),
        count: None,
        taken: 0,
    };
    across_cores(input, split, HeaderLines, &work, &mut in_order).map_err(|error| match error {
        Error::Read { source, .. } | Error::Write(source) => source,
        other => io::Error::other(other.to_string()),
    })
}

/// A cut part validated: its report, with no violation, and T if it read it.
struct CutReport {
    report: Report,
    count: Option<i64>,
}

/// Validating a part cut where a case seems to start, on a worker.
struct CutValidate {
    limits: Limits,
    max_errors: usize,
}

impl PartWork for CutValidate {
    type Worker = ();
    type Done = CutReport;

    fn worker(&self) {}

    fn part(&self, (): &mut (), part: CutPart, _: Option<CutReport>) -> (Option<CutReport>, u64, Vec<u8>) {
        let first = part.start.offset == 0;
        let reader = strict_reader_at(part.contents(), part.start);
        let mut validator = Validator::new(reader, &self.limits, self.max_errors, Report::empty());
        let ran = validator.run(Span::cut(first));
        let cases = validator.cases_read;
        let valid = matches!(ran, Ok(())) && validator.report.is_valid();
        let done = valid.then_some(CutReport {
            count: if first { validator.count } else { None },
            report: validator.report,
        });
        (done, cases, part.bytes)
    }
}

/// The cut parts' summaries added up in order while their cases stay
/// within T, then the rest validated by [`validate_counted`].
struct CutValidateInOrder {
    limits: Limits,
    max_errors: usize,
    split: Split,
    valid: Report,
    /// T, once the first part is taken.
    count: Option<i64>,
    /// The cases of the parts taken.
    taken: u64,
}

impl InOrder<CutReport> for CutValidateInOrder {
    type Output = Report;

    fn take(&mut self, done: CutReport, cases: u64, last: bool) -> Result<Taken<CutReport>, Error> {
        let count = *self.count.get_or_insert(done.count.unwrap_or(0));
        let count = u64::try_from(count).unwrap_or(0);
        let taken = self.taken + cases;
        // More cases than T, or fewer at the input's end: the stream says
        // which case, and where.
        if taken > count || (last && taken < count) {
            return Ok(Taken::Refused);
        }
        self.valid.summary.add(&done.report.summary);
        self.taken = taken;
        Ok(Taken::Kept(None))
    }

    fn stream(&mut self, input: &mut dyn Read, start: Resume, cases: u64) -> Result<Report, Error> {
        let from = PartCases {
            count: self.count.map(|count| u64::try_from(count).unwrap_or(0)),
            before: cases,
            last: None,
            within: None,
        };
        let valid = std::mem::replace(&mut self.valid, Report::empty());
        let (limits, max_errors) = (self.limits, self.max_errors);
        validate_counted(input, &limits, max_errors, self.split, start, from, valid).map_err(Error::Write)
    }

    fn whole(&mut self, part: CutPart) -> Result<Report, Error> {
        let reader = StrictReader::new(part.contents());
        run_validator(reader, &self.limits, self.max_errors, Span::WHOLE, Report::empty()).map_err(Error::Write)
    }

    fn end(&mut self, _: u64) -> Result<Report, Error> {
        Ok(std::mem::replace(&mut self.valid, Report::empty()).finish())
    }
}

/// Validates `input`, which starts at `start` with the case after
/// `from.before` (`from.count` giving T, unless `input` starts with it),
/// onto `valid`: as parts of whole cases that the counting splitter finds,
/// on several threads, and from their first violation on as one stream.
fn validate_counted(
    input: impl Read,
    limits: &Limits,
    max_errors: usize,
    split: Split,
    start: Resume,
    from: PartCases,
    valid: Report,
) -> io::Result<Report> {
    let span = Span::of(from);
    match begin(input, split, false, start, from)? {
        Begun::Whole(part) => {
            let reader = strict_reader_at(part_bytes(part), start);
            run_validator(reader, limits, max_errors, span, valid)
        }
        Begun::Stream(stream) => {
            run_validator(strict_reader_at(stream, start), limits, max_errors, span, valid)
        }
        Begun::Parts {
            first,
            splitter,
            workers,
        } => validate_parts(first, splitter, limits, max_errors, workers, valid),
    }
}

/// A strict reader of an input from `start`: the input's start, whose
/// leading bytes are checked too, or a case's start inside it.
fn strict_reader_at<R: Read>(input: R, start: Resume) -> StrictReader<R> {
    if start.offset == 0 {
        StrictReader::new(input)
    } else {
        StrictReader::resume(input, start)
    }
}

/// Runs a validator over what `reader` reads, adding to `report`.
fn run_validator<R: Read>(
    reader: StrictReader<R>,
    limits: &Limits,
    max_errors: usize,
    span: Span,
    report: Report,
) -> io::Result<Report> {
    let mut validator = Validator::new(reader, limits, max_errors, report);
    match validator.run(span) {
        Ok(()) | Err(Halt::Stop) => {}
        Err(Halt::Io(error)) => return Err(error),
    }
    Ok(validator.report.finish())
}

/// A part and how its validation went.
struct Checked {
    part: Part,
    report: io::Result<Report>,
}

/// Validates the parts from `first` on in parallel; see [`validate_split`].
fn validate_parts<R: Read>(
    first: Part,
    mut splitter: Splitter<R>,
    limits: &Limits,
    max_errors: usize,
    workers: usize,
    mut valid: Report,
) -> io::Result<Report> {
    let worker = || {
        |part: Part| {
            let reader = StrictReader::resume(&part.bytes[..part.len], part.start);
            let span = Span::of(part.cases);
            let report = run_validator(reader, limits, max_errors, span, Report::empty());
            Checked { part, report }
        }
    };
    std::thread::scope(|scope| {
        let Some(mut pool) = Ordered::start(scope, workers, &worker) else {
            // No thread could be started: the same report, read as one stream.
            let (start, cases) = (first.start, first.cases);
            let stream = strict_reader_at(unsplit(first, splitter), start);
            let span = Span::of(PartCases {
                last: None,
                within: None,
                ..cases
            });
            return run_validator(stream, limits, max_errors, span, valid);
        };
        let mut next = Next::Part(first);
        let rest = loop {
            let part = match next {
                Next::Part(part) => part,
                Next::Rest(rest) => break Some(rest),
            };
            let last = part.cases.last.is_none();
            while !pool.has_room() {
                if let Some(failed) = take_valid(&mut pool, &mut valid)? {
                    // The part in hand was not sent: it follows the ones
                    // still with the workers.
                    let again = Again {
                        failed,
                        unsent: Some(part),
                        rest: None,
                    };
                    return again.validate(&mut pool, splitter, limits, max_errors, valid);
                }
            }
            if !pool.send(part) {
                return Err(worker_lost());
            }
            if last {
                break None;
            }
            next = splitter.next_part(Vec::new())?;
        };
        while pool.pending() {
            if let Some(failed) = take_valid(&mut pool, &mut valid)? {
                let again = Again {
                    failed,
                    unsent: None,
                    rest,
                };
                return again.validate(&mut pool, splitter, limits, max_errors, valid);
            }
        }
        match rest {
            // Every part was valid.
            None => Ok(valid.finish()),
            // The splitter stopped at a case it could not follow: from there
            // on, one stream.
            Some(rest) => {
                let (start, span) = (rest.start, Span::of(rest.cases));
                let stream = part_bytes(rest).chain(splitter.into_input());
                run_validator(
                    StrictReader::resume(stream, start),
                    limits,
                    max_errors,
                    span,
                    valid,
                )
            }
        }
    })
}

/// Takes the oldest part's report: adds its summary to `valid` if it has
/// no violation, or hands the part back to be validated again.
fn take_valid(pool: &mut Ordered<'_, Part, Checked>, valid: &mut Report) -> io::Result<Option<Part>> {
    let Some(checked) = pool.receive() else {
        return Err(worker_lost());
    };
    let report = checked.report?;
    if !report.is_valid() {
        return Ok(Some(checked.part));
    }
    valid.summary.add(&report.summary);
    Ok(None)
}

/// A worker stopped without an answer: it panicked, and the scope's join
/// passes the panic on; this error is never what the user sees.
fn worker_lost() -> io::Error {
    io::Error::other("a validator thread stopped")
}

/// The part where a violation was found, and what follows it: to be
/// validated again as one stream, for the stream's report exactly.
struct Again {
    failed: Part,
    /// A part cut from the input but not yet sent to a worker.
    unsent: Option<Part>,
    /// Where the splitter stopped, if it did.
    rest: Option<Part>,
}

impl Again {
    fn validate<R: Read>(
        self,
        pool: &mut Ordered<'_, Part, Checked>,
        splitter: Splitter<R>,
        limits: &Limits,
        max_errors: usize,
        valid: Report,
    ) -> io::Result<Report> {
        let Again {
            failed,
            unsent,
            rest,
        } = self;
        let start = failed.start;
        let span = Span::of(PartCases {
            last: None,
            within: None,
            ..failed.cases
        });
        let mut bytes = failed.bytes;
        bytes.truncate(failed.len);
        // The parts after it, still with the workers, in order.
        while pool.pending() {
            let Some(checked) = pool.receive() else {
                return Err(worker_lost());
            };
            bytes.extend_from_slice(&checked.part.bytes[..checked.part.len]);
        }
        if let Some(unsent) = unsent {
            bytes.extend_from_slice(&unsent.bytes[..unsent.len]);
        }
        let input = match rest {
            Some(rest) => {
                bytes.extend_from_slice(&rest.bytes[..rest.len]);
                splitter.into_input()
            }
            None => {
                let (buffered, input) = splitter.into_rest();
                bytes.extend_from_slice(&buffered.bytes[..buffered.len]);
                input
            }
        };
        let stream = io::Cursor::new(bytes).chain(input);
        // The first part starts the file, whose leading bytes are checked too.
        let reader = if start.offset == 0 {
            StrictReader::new(stream)
        } else {
            StrictReader::resume(stream, start)
        };
        run_validator(reader, limits, max_errors, span, valid)
    }
}

/// The cases a validator reads.
#[derive(Clone, Copy, Debug)]
struct Span {
    /// T, when the reading starts after it.
    count: Option<i64>,
    /// The cases before.
    before: u64,
    /// The last case to read; `None` for all, and then the input must end.
    last: Option<u64>,
    /// The cases end where the input does, however many T says: a part cut
    /// where a case seems to start (`format::coding_ninjas::cut`).
    open: bool,
}

impl Span {
    /// The whole input.
    const WHOLE: Span = Span {
        count: None,
        before: 0,
        last: None,
        open: false,
    };

    fn of(cases: PartCases) -> Span {
        Span {
            count: cases
                .count
                .map(|count| i64::try_from(count).unwrap_or(i64::MAX)),
            before: cases.before,
            last: cases.last,
            open: false,
        }
    }

    /// A part cut where a case seems to start: the input's first (which
    /// reads T) or another (which T, not known yet, does not bound).
    fn cut(first: bool) -> Span {
        Span {
            count: (!first).then_some(i64::MAX),
            open: true,
            ..Span::WHOLE
        }
    }
}

/// A violation's case and move, when it has them.
type Context = (Option<u64>, Option<u64>);

struct Validator<R> {
    reader: StrictReader<R>,
    /// Move lines read a block at a time.
    lines: Box<Moves>,
    /// The line the first of `lines` is on.
    first_line: u64,
    limits: Limits,
    max_errors: usize,
    report: Report,
    /// The case being read, 1-based.
    case: Option<u64>,
    /// The move being read, 1-based.
    r#move: Option<u64>,
    /// The line of the last token read, and its case and move: a layout
    /// problem on that line is that token's, one on a later line the next
    /// token's.
    token_line: u64,
    token_context: Context,
    /// T, once read or given.
    count: Option<i64>,
    /// The cases begun.
    cases_read: u64,
}

impl<R: Read> Validator<R> {
    fn new(reader: StrictReader<R>, limits: &Limits, max_errors: usize, report: Report) -> Validator<R> {
        Validator {
            reader,
            lines: Box::default(),
            first_line: 0,
            limits: *limits,
            max_errors: max_errors.max(1),
            report,
            case: None,
            r#move: None,
            token_line: 0,
            token_context: (None, None),
            count: None,
            cases_read: 0,
        }
    }

    /// The case and move being read.
    fn context(&self) -> Context {
        (self.case, self.r#move)
    }

    fn run(&mut self, span: Span) -> Result<(), Halt> {
        struct Run<'a, R>(&'a mut Validator<R>, Span);
        impl<R: Read> Kernel for Run<'_, R> {
            type Output = Result<(), Halt>;
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> Result<(), Halt> {
                self.0.run_inline(cpu, self.1)
            }
        }
        dispatch(Run(self, span))
    }

    /// [`Validator::run`], inlined into each build of [`dispatch`] with the
    /// loops it calls.
    #[inline(always)]
    fn run_inline<C: Cpu>(&mut self, cpu: C, span: Span) -> Result<(), Halt> {
        let t = match span.count {
            Some(t) => t,
            None => {
                let (t, spot) = self.header("the number of test cases T")?;
                self.check_range("T", t, self.limits.min_t, self.limits.max_t, spot)?;
                t
            }
        };
        self.count = Some(t);
        let mut game = TicTacToe::with_rules(BoardSize::MIN, Referee::rules());
        let last = span.last.unwrap_or(u64::try_from(t).unwrap_or(0));
        for case in span.before + 1..=last {
            if span.open && self.reader.at_end()? {
                break;
            }
            self.case = Some(case);
            self.r#move = None;
            self.cases_read += 1;
            self.run_case(cpu, &mut game)?;
        }
        self.case = None;
        self.r#move = None;
        if span.last.is_some() {
            // A part of the input: what follows is the next part's, but the
            // space after its last token is this part's to report.
            return self.take_problems_before(None, self.context());
        }
        let trailing = self.reader.finish()?;
        self.take_problems_before(None, self.context())?;
        match trailing {
            None => Ok(()),
            Some((spot, text)) => self.violate(spot, Rule::TrailingData(text)),
        }
    }

    #[inline(always)]
    fn run_case<C: Cpu>(&mut self, cpu: C, game: &mut TicTacToe) -> Result<(), Halt> {
        let (n, spot) = self.header("the board size N")?;
        self.check_range("N", n, self.limits.min_n, self.limits.max_n, spot)?;
        let (q, spot) = self.header("the number of moves Q")?;
        // Without a board, Q has nothing to be measured against.
        if n >= 1 {
            self.check_q(q, n, spot)?;
        }
        let board = BoardSize::new(n).ok();
        let moves = u64::try_from(q).unwrap_or(0);
        game.reset_for_moves(board.unwrap_or(BoardSize::MIN), moves);
        let mut referee = Referee::default();
        let mut number = 0;
        while number < moves {
            if !self.reader.problems.is_empty() {
                // Before the block's moves are judged: they come after.
                self.take_problems_before(None, (self.case, Some(number + 1)))?;
            }
            if board.is_some() {
                // Canonical lines, read a block at a time.
                let want = (moves - number).min(BATCH as u64) as usize;
                let (read, first_line) = self.reader.canonical_moves(cpu, &mut self.lines, want);
                self.first_line = first_line;
                if read > 0 {
                    self.judge_lines(game, &mut referee, read, number)?;
                    number += read as u64;
                    continue;
                }
            }
            number += 1;
            self.r#move = Some(number);
            let row = self.field("the row of a move", Separator::Space)?;
            let col = self.held_field("the column of a move", Separator::Space)?;
            let player = self.held_field("the player of a move", Separator::LineEnd)?;
            self.token_line = player.spot.line;
            let (Some(r), Some(c), Some(p)) = (row.value, col.value, player.value) else {
                referee.skipped(player.value);
                continue;
            };
            if board.is_none() {
                // With no board there is nothing to check the move against.
                continue;
            }
            let mut breaches = Vec::new();
            referee.judge(game, (r, c, p), |field, rule| {
                let spot = match field {
                    MoveField::Row => row.spot,
                    MoveField::Column => col.spot,
                    MoveField::Player => player.spot,
                };
                breaches.push((spot, Rule::from(rule)));
                Ok::<(), Halt>(())
            })?;
            if !breaches.is_empty() || !self.reader.problems.is_empty() {
                self.report_move(breaches)?;
            }
        }
        self.r#move = None;
        if let Some(board) = board {
            self.report.summary.add_case(game, board);
        }
        Ok(())
    }

    /// Judges `read` move lines from the batch, the first of them move
    /// `before + 1`: as [`Referee::judge`] would one by one, reporting the
    /// same violations in the same order, but with the moves played as a
    /// batch while nothing is wrong (in a valid file, nothing ever is).
    #[inline(always)]
    fn judge_lines(
        &mut self,
        game: &mut TicTacToe,
        referee: &mut Referee,
        read: usize,
        before: u64,
    ) -> Result<(), Halt> {
        let moves = &self.lines.0[..read];
        let mut outcomes = [0; BATCH];
        let CleanBatch { played, after_win } =
            referee.play_clean(game, moves, &mut outcomes[..read]);
        if let Some(AfterWinIn {
            index,
            winner,
            at_move,
        }) = after_win
        {
            self.r#move = Some(before + index as u64 + 1);
            let line = self.first_line + index as u64;
            self.violate(Spot { line, column: 1 }, Rule::AfterWin { winner, at_move })?;
        }
        // The rest one by one: the refused move and whatever follows it.
        for index in played..read {
            self.r#move = Some(before + index as u64 + 1);
            let [r, c, p] = self.lines.0[index];
            // A canonical line's numbers have no leading zeros, so where
            // each starts follows from the ones before it.
            let width = |value: u32| value.checked_ilog10().unwrap_or(0) + 1;
            let column_at = width(r) + 1;
            let player_at = column_at + width(c) + 1;
            let line = self.first_line + index as u64;
            let play = (i64::from(r), i64::from(c), i64::from(p));
            referee.judge(game, play, |field, rule| {
                let at = match field {
                    MoveField::Row => 0,
                    MoveField::Column => column_at,
                    MoveField::Player => player_at,
                };
                let column = u64::from(at) + 1;
                self.violate(Spot { line, column }, rule.into())
            })?;
        }
        Ok(())
    }

    /// Reads T, N or Q, alone on its line. Without its value the rest of
    /// the file cannot be read, so a token that is no integer stops here.
    fn header(&mut self, expected: &'static str) -> Result<(i64, Spot), Halt> {
        let field = self.field(expected, Separator::LineEnd)?;
        match field.value {
            Some(value) => Ok((value, field.spot)),
            None => {
                // Nothing after it can be read: what is known is all there is.
                self.take_problems_before(None, self.context())?;
                Err(Halt::Stop)
            }
        }
    }

    /// Reads a token and the space after it. The layout problems found
    /// before it are reported here; its own and those of the space after
    /// it wait for the next read, so that what the token completes (a
    /// bound) is reported first, in the order of the file.
    #[inline(always)]
    fn field(&mut self, expected: &'static str, separator: Separator) -> Result<Field, Halt> {
        let field = self.held_field(expected, separator)?;
        if !self.reader.problems.is_empty() {
            self.take_problems_before(Some(field.spot), self.context())?;
        }
        self.token_line = field.spot.line;
        self.token_context = self.context();
        Ok(field)
    }

    /// Reads a token and the space after it, reporting none of the layout
    /// problems found: a move's wait until the move is judged.
    #[inline(always)]
    fn held_field(&mut self, expected: &'static str, separator: Separator) -> Result<Field, Halt> {
        let earlier = self.reader.problems.len();
        let Some(field) = self.reader.field(separator)? else {
            let spot = self.reader.spot();
            // Space found now, in a file that holds none but space, is
            // beside the point; what followed the last token is not.
            self.reader.problems.truncate(earlier);
            self.take_problems_before(None, self.context())?;
            self.violate(spot, Rule::EndsEarly(expected))?;
            return Err(Halt::Stop);
        };
        Ok(field)
    }

    /// Reports what the move on the last token's lines broke, its layout
    /// problems and the `breaches` of the rules, in the order of the line.
    #[cold]
    fn report_move(&mut self, mut breaches: Vec<(Spot, Rule)>) -> Result<(), Halt> {
        let own = self.reader.problems.iter().take_while(|(spot, _)| spot.line <= self.token_line).count();
        breaches.extend(self.reader.problems.drain(..own).map(|(spot, layout)| (spot, layout.into())));
        breaches.sort_by_key(|(spot, _)| (spot.line, spot.column));
        for (spot, rule) in breaches {
            self.violate(spot, rule)?;
        }
        Ok(())
    }

    fn check_range(
        &mut self,
        name: &'static str,
        value: i64,
        min: u64,
        max: u64,
        spot: Spot,
    ) -> Result<(), Halt> {
        match range_rule(name, value, min, max) {
            Some(rule) => self.violate(spot, rule),
            None => Ok(()),
        }
    }

    fn check_q(&mut self, q: i64, n: i64, spot: Spot) -> Result<(), Halt> {
        match q_rule(&self.limits, q, n) {
            Some(rule) => self.violate(spot, rule),
            None => Ok(()),
        }
    }

    /// Reports the layout problems found before `limit` (all of them for
    /// `None`), each with the case and move of the token on its line: the
    /// last token read, or `later`, that of the next. A missing final
    /// newline is the file's alone.
    #[cold]
    fn take_problems_before(&mut self, limit: Option<Spot>, later: Context) -> Result<(), Halt> {
        let before = |spot: Spot| limit.is_none_or(|limit| (spot.line, spot.column) < (limit.line, limit.column));
        let taken = self.reader.problems.iter().take_while(|(spot, _)| before(*spot)).count();
        let problems: Vec<_> = self.reader.problems.drain(..taken).collect();
        let current = self.context();
        for (spot, layout) in problems {
            (self.case, self.r#move) = if layout == Layout::MissingFinalNewline {
                // The file's, not a move's.
                (None, None)
            } else if spot.line <= self.token_line {
                self.token_context
            } else {
                later
            };
            let reported = self.violate(spot, layout.into());
            (self.case, self.r#move) = current;
            reported?;
        }
        Ok(())
    }

    #[cold]
    fn violate(&mut self, spot: Spot, rule: Rule) -> Result<(), Halt> {
        let position = Position {
            line: spot.line,
            column: spot.column,
            case: self.case,
            r#move: self.r#move,
        };
        match self
            .report
            .add(Violation { position, rule }, self.max_errors)
        {
            true => Ok(()),
            false => Err(Halt::Stop),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violations(input: &str) -> Vec<String> {
        validate(input.as_bytes(), &Limits::default(), 20)
            .expect("in memory")
            .violations
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    const VALID: &str = "1\n3\n7\n0 0 1\n0 2 2\n2 2 1\n1 1 2\n2 0 1\n1 0 2\n2 1 1\n";

    /// Small games written with every kind of flaw the layout rules name,
    /// moves off the board, onto taken cells, out of turn and after wins.
    fn flawed_file() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let token = prop::sample::select(vec!["0", "1", "2", "3", "00", "+1", "-0", "x", "1"]);
        let space = prop::sample::select(vec![" ", " ", " ", "\n", "  ", "\t", "\r\n", "\n\n", " \n", "\n "]);
        prop::collection::vec((token, space), 1..60).prop_map(|pieces| {
            let mut text = String::from("2\n3\n");
            for (index, (token, space)) in pieces.into_iter().enumerate() {
                // Q, then moves whose separators are mostly right.
                if index == 0 {
                    text.push_str("9\n");
                }
                text.push_str(token);
                text.push_str(if index % 3 == 2 && space == " " { "\n" } else { space });
            }
            text
        })
    }

    proptest::proptest! {
        #![proptest_config(crate::property_tests::config())]
        /// Violations come in the order of the file: with a cap of one, the
        /// first is the one a testlib FAIL line names.
        #[test]
        fn violations_come_in_the_order_of_the_file(text in flawed_file()) {
            let limits = Limits { min_q: 0, ..Limits::default() };
            let report = validate(text.as_bytes(), &limits, 1000).expect("in memory");
            let places: Vec<_> = report.violations.iter().map(|found| (found.position.line, found.position.column)).collect();
            let mut sorted = places.clone();
            sorted.sort();
            proptest::prop_assert_eq!(places, sorted, "{:?}", report.violations.iter().map(ToString::to_string).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_leetcode_example_is_valid_and_summarised() {
        let report = validate(VALID.as_bytes(), &Limits::default(), 20).expect("in memory");
        assert_eq!(report.violations, []);
        assert_eq!(
            report.summary.to_string(),
            "1 case, N 3, 7 moves; 1 won by 1, 0 by 2, 0 drawn, 0 unfinished"
        );
    }

    #[test]
    fn guarantees_are_checked_move_by_move() {
        let taken = VALID.replace("2 2 1\n", "0 0 1\n");
        assert_eq!(
            violations(&taken),
            ["line 6, column 1: case 1, move 3: cell (0, 0) is already taken"]
        );
        let twice = "1\n3\n5\n0 0 1\n0 1 1\n0 2 2\n1 0 1\n1 1 2\n";
        assert_eq!(
            violations(twice),
            [
                "line 5, column 5: case 1, move 2: player 1 moves twice in a row: players must alternate"
            ]
        );
        let after_win = "1\n3\n6\n0 0 1\n1 0 2\n0 1 1\n1 1 2\n0 2 1\n2 2 2\n";
        assert_eq!(
            violations(after_win),
            [
                "line 9, column 1: case 1, move 6: player 1 already won this case at move 5: \
              no move may follow a win"
            ]
        );
    }

    #[test]
    fn the_statements_contradiction_is_explained_when_it_bites() {
        let found = violations("1\n2\n3\n0 0 1\n1 1 2\n0 1 1\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("line 3, column 1: case 1: Q = 3 is below the minimum 5"));
        assert!(found[0].contains("every N below 3"), "{}", found[0]);
    }

    #[test]
    fn the_cap_stops_validation() {
        let crlf = VALID.replace('\n', "\r\n");
        let report = validate(crlf.as_bytes(), &Limits::default(), 3).expect("in memory");
        assert_eq!(report.violations.len(), 3);
        assert!(report.capped);
    }
}
