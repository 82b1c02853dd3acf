//! The checker's core: compare a solution's output with the expected answer, case by case.
//!
//! Results are compared as tokens, with any spacing between them, but each
//! case must be on its own line. The first difference is named in the
//! game's terms (case and move), and classed the way judges class it: a
//! wrong result, or output that is not in the required form at all.

use super::exact::compare_exact;
use super::leetcode::Lines;
use super::read::{AnswerReader, Item};
use crate::format::Format;
use crate::format::cases::{BYTE_ORDER_MARK, detect_past_mark};
use std::fmt;
use std::io::{self, Cursor, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The first way the output departs from the expected answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// A result differs: a wrong answer.
    WrongResult {
        /// 1-based case.
        case: u64,
        /// 1-based move.
        r#move: u64,
        /// The expected result.
        expected: u8,
        /// The result found.
        found: u8,
    },
    /// A token that is not 0, 1 or 2.
    NotAResult {
        /// 1-based case.
        case: u64,
        /// 1-based move.
        r#move: u64,
        /// The token, quoted.
        found: String,
        /// Whether it is an integer as testlib reads one (`3`, `-1`): a
        /// result out of range, which testlib's `readInt(0, 2)` calls a
        /// wrong answer, where anything else (`x`, `01`, `-0`) is a
        /// presentation error.
        integer: bool,
        /// Whether it is a LeetCode line that broke before its `null` was
        /// whole (`[0,1]`): the `null` is what is missing, before any move.
        before_null: bool,
    },
    /// A case's line (or array) ends before its last result.
    FewerResults {
        /// What holds a case's results.
        holder: CaseHolder,
        /// 1-based case.
        case: u64,
        /// Results expected in the line (or array).
        expected: u64,
        /// Results found.
        found: u64,
    },
    /// A case's line (or array) goes on after its last result.
    MoreResults {
        /// What holds a case's results.
        holder: CaseHolder,
        /// 1-based case.
        case: u64,
        /// Results expected in the line (or array).
        expected: u64,
        /// Tokens found.
        found: u64,
        /// The first extra token, quoted.
        first_extra: String,
    },
    /// The output ends before the last case.
    FewerLines {
        /// What holds a case's results.
        holder: CaseHolder,
        /// Lines (or arrays: cases) missing.
        missing: u64,
        /// Cases the output has.
        cases: u64,
    },
    /// The output goes on after the last case.
    MoreLines {
        /// What holds a case's results.
        holder: CaseHolder,
        /// Lines (or arrays) holding tokens after the last case.
        extra: u64,
        /// The expected number of cases.
        cases: u64,
    },
    /// Compared by tokens: the output ends before this result.
    EndsEarly {
        /// 1-based case.
        case: u64,
        /// 1-based move.
        r#move: u64,
    },
    /// Compared by tokens: the output goes on after the last result.
    ExtraOutput {
        /// The cases the answer has.
        cases: u64,
        /// The first extra token, quoted.
        found: String,
    },
    /// Compared exactly: every result is right, but the bytes around them
    /// (spaces, line ends, a byte order mark) are not the expected ones.
    Spacing {
        /// 1-based line of the first differing byte.
        line: u64,
        /// 1-based byte column of the first differing byte.
        column: u64,
        /// The expected byte; `None` where the answer ends.
        expected: Option<u8>,
        /// The byte found; `None` where the output ends.
        found: Option<u8>,
    },
    /// Compared exactly: every result is right, but from this place on the
    /// bytes differ somewhere. Past a run of whitespace too long to hold,
    /// the rest of both sides is compared by a digest, which does not say
    /// where.
    SpacingFrom {
        /// 1-based line where the digest began.
        line: u64,
        /// 1-based byte column where the digest began.
        column: u64,
    },
    /// The expected answer itself holds a token that is not a result: the
    /// judge's fault, not the solution's.
    MalformedAnswer {
        /// 1-based line of the answer.
        line: u64,
        /// The token, quoted.
        found: String,
    },
}

impl Difference {
    /// Whether the output has the right form and only a result differs:
    /// judges call that a wrong answer, and anything else (except a
    /// malformed answer) a presentation error.
    pub fn is_wrong_result(&self) -> bool {
        matches!(
            self,
            Difference::WrongResult { .. } | Difference::NotAResult { integer: true, .. }
        )
    }

    /// Whether the expected answer is at fault.
    pub fn is_judge_failure(&self) -> bool {
        matches!(self, Difference::MalformedAnswer { .. })
    }

    /// The case a difference is about, when it is one case.
    pub fn case(&self) -> Option<u64> {
        match *self {
            Difference::WrongResult { case, .. }
            | Difference::NotAResult { case, .. }
            | Difference::FewerResults { case, .. }
            | Difference::MoreResults { case, .. }
            | Difference::EndsEarly { case, .. } => Some(case),
            _ => None,
        }
    }

    /// The case and move a difference is about, when it is one move.
    pub fn case_and_move(&self) -> Option<(u64, u64)> {
        match *self {
            // The constructor's `null`, before any move.
            Difference::NotAResult {
                before_null: true, ..
            } => None,
            Difference::WrongResult { case, r#move, .. }
            | Difference::NotAResult { case, r#move, .. }
            | Difference::EndsEarly { case, r#move } => Some((case, r#move)),
            _ => None,
        }
    }
}

/// What holds one case's results, as messages name it: a line, or, compared
/// by tokens, a LeetCode test case's array (whose line breaks are only
/// whitespace there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseHolder {
    /// A line: by lines, and Coding Ninjas answers.
    Line,
    /// A LeetCode array, compared by tokens.
    Array,
}

impl CaseHolder {
    fn one(self) -> &'static str {
        match self {
            CaseHolder::Line => "line",
            CaseHolder::Array => "array",
        }
    }

    fn counted(self, count: u64) -> String {
        match self {
            CaseHolder::Line => plural(count, "line", "lines"),
            CaseHolder::Array => plural(count, "array", "arrays"),
        }
    }
}

/// A byte as a message names it; `None` is where a side ends.
fn describe_byte(byte: Option<u8>) -> String {
    match byte {
        None => "the end of the output".into(),
        Some(b' ') => "a space".into(),
        Some(b'\t') => "a tab".into(),
        Some(b'\r') => "a carriage return".into(),
        Some(b'\n') => "a line feed".into(),
        Some(byte) if byte.is_ascii_graphic() => format!("\"{}\"", char::from(byte)),
        Some(byte) => format!("byte 0x{byte:02X}"),
    }
}

fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::WrongResult {
                case,
                r#move,
                expected,
                found,
            } => write!(
                f,
                "case {case}, move {move}: expected {expected}, found {found}"
            ),
            Difference::NotAResult {
                case,
                found,
                before_null: true,
                ..
            } => write!(
                f,
                "case {case}: expected null (LeetCode's result for the constructor) before the \
                 moves' results, found {found}"
            ),
            Difference::NotAResult {
                case,
                r#move,
                found,
                ..
            } => write!(
                f,
                "case {case}, move {move}: expected a result 0, 1 or 2, found {found}"
            ),
            Difference::FewerResults {
                holder,
                case,
                expected,
                found,
            } => write!(
                f,
                "case {case}: expected {}, found {found}: the {} ends early",
                plural(*expected, "result", "results"),
                holder.one()
            ),
            // A LeetCode line (or, read by arrays, the output) that ends
            // after its results, all read as results (or before any), but
            // not at its `]`.
            Difference::MoreResults {
                holder,
                case,
                expected,
                first_extra,
                ..
            } if first_extra.trim_matches('"') == super::leetcode::LINE_ENDS => {
                let after = match expected {
                    0 => String::new(),
                    _ => format!("after its {} ", plural(*expected, "result", "results")),
                };
                match holder {
                    CaseHolder::Line => write!(
                        f,
                        "case {case}: the line ends {after}without its closing `]`"
                    ),
                    CaseHolder::Array => write!(
                        f,
                        "case {case}: the output ends inside the array {after}without its \
                         closing `]`"
                    ),
                }
            }
            Difference::MoreResults {
                holder: CaseHolder::Line,
                case,
                expected,
                found,
                first_extra,
            } => write!(
                f,
                "case {case}: expected {}, found {} on the line, the first extra \
                 one {first_extra} (one line per case is required)",
                plural(*expected, "result", "results"),
                plural(*found, "token", "tokens")
            ),
            Difference::MoreResults {
                holder: CaseHolder::Array,
                case,
                expected,
                found,
                first_extra,
            } => write!(
                f,
                "case {case}: expected {}, found {} in its array, the first extra \
                 one {first_extra}",
                plural(*expected, "result", "results"),
                plural(*found, "token", "tokens")
            ),
            Difference::FewerLines {
                holder,
                missing,
                cases: 0,
            } => write!(
                f,
                "output has {} fewer than expected: it holds no case",
                holder.counted(*missing)
            ),
            Difference::FewerLines {
                holder,
                missing,
                cases,
            } => write!(
                f,
                "output has {} fewer than expected: it ends after case {cases}",
                holder.counted(*missing)
            ),
            Difference::MoreLines {
                holder,
                extra,
                cases: 0,
            } => write!(
                f,
                "output has {} more than expected: the answer holds no case",
                holder.counted(*extra)
            ),
            Difference::MoreLines {
                holder,
                extra,
                cases,
            } => write!(
                f,
                "output has {} more than expected: the answer ends after case {cases}",
                holder.counted(*extra)
            ),
            Difference::EndsEarly { case, r#move } => {
                write!(f, "case {case}, move {move}: the output ends before this result")
            }
            Difference::ExtraOutput { cases, found } => write!(
                f,
                "the output goes on after the last result (case {cases}): found {found}"
            ),
            Difference::SpacingFrom { line, column } => write!(
                f,
                "line {line}, column {column}: the output's bytes from here on are not \
                 the expected answer's (compared exactly, whitespace included), somewhere \
                 past this point: one side ran over {} MiB ahead of the other here (a long \
                 run of whitespace), and the rest was compared by a digest, which finds \
                 a difference but not its place",
                super::exact::MOST_PENDING >> 20
            ),
            Difference::Spacing {
                line,
                column,
                expected,
                found,
            } => write!(
                f,
                "line {line}, column {column}: expected {}, found {} \
                 (compared exactly, whitespace included)",
                describe_byte(*expected),
                describe_byte(*found)
            ),
            Difference::MalformedAnswer { line, found } => write!(
                f,
                "the expected answer is malformed: line {line} holds {found}, not a result"
            ),
        }
    }
}

/// What a comparison found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// Equal, token for token and line for line.
    Same {
        /// Cases compared.
        cases: u64,
        /// Results compared.
        results: u64,
    },
    /// The first difference.
    Differs(Difference),
}

/// Which side an I/O error came from.
#[derive(Debug)]
pub enum Side {
    /// The expected answer.
    Expected(io::Error),
    /// The output under test.
    Found(io::Error),
}

/// How an output is held to the expected answer's layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Each case's results on a line of their own, as the statement asks:
    /// the results separated by spaces, tabs or CRs, the lines by LF.
    #[default]
    Lines,
    /// The results in order, separated by any whitespace, lines or not: as
    /// Kattis's and DOMjudge's default output validators and token-reading
    /// testlib checkers compare.
    Tokens,
    /// The expected answer's bytes, whitespace included (letters' case as
    /// [`Letters`] says): as Kattis's default output validator compares
    /// when a judge passes `space_change_sensitive`.
    Exact,
}

/// Whether letters must match in case. Results are digits: the only
/// letters an answer holds are LeetCode's `null`s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Letters {
    /// `null` only, as LeetCode writes it and testlib's checkers compare.
    #[default]
    Exact,
    /// `NULL` and `Null` too, as Kattis's and DOMjudge's default output
    /// validators compare unless given `case_sensitive`.
    AnyCase,
}

/// Which bytes separate tokens, as a judge's default validator reads them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Spaces {
    /// Spaces, tabs, CRs and LFs, with a UTF-8 byte order mark before the
    /// first token skipped: testlib's reading, and this tool's.
    #[default]
    Testlib,
    /// C's whitespace, vertical tabs and form feeds too: Kattis's and
    /// DOMjudge's default output validators read with C++ streams.
    CStreams,
}

/// How the tokens of both sides are read: their letters, what separates
/// them, and a byte order mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Whether letters must match in case.
    pub letters: Letters,
    /// Which bytes separate tokens.
    pub spaces: Spaces,
    /// Whether a byte order mark before the output is bytes of its first
    /// token, as for C++ streams, unless the answer starts with one too.
    /// Else it is read past, as testlib does; the answer's always is.
    pub output_mark_kept: bool,
}

impl Reading {
    /// As Kattis's default output validator reads, letters' case ignored
    /// unless the judge passes `case_sensitive`.
    pub fn kattis(case_sensitive: bool) -> Reading {
        Reading {
            letters: if case_sensitive {
                Letters::Exact
            } else {
                Letters::AnyCase
            },
            spaces: Spaces::CStreams,
            output_mark_kept: true,
        }
    }
}

/// Compares `found` with `expected`, streaming both, and stops at the first
/// difference: the one comparison `check`, `test` and `stress` judge by.
///
/// The expected answer's format decides how both are read: LeetCode lines
/// (`[null,0,1]`) when its first non-whitespace byte is `[`, else Coding
/// Ninjas lines (`0 1`).
pub fn compare(expected: impl Read, found: impl Read, mode: Mode) -> Result<Comparison, Side> {
    compare_read(expected, found, mode, Reading::default())
}

/// [`compare`], with tokens read as `reading` says.
pub fn compare_read(
    expected: impl Read,
    found: impl Read,
    mode: Mode,
    reading: Reading,
) -> Result<Comparison, Side> {
    let by_tokens = match mode {
        Mode::Lines => false,
        Mode::Tokens => true,
        // The results by lines, and the bytes around them beside.
        Mode::Exact => return compare_exact(expected, found, reading),
    };
    compare_leniently(expected, found, by_tokens, reading)
}

/// [`compare_read`] by lines or, if `by_tokens`, by tokens: the results
/// in order, whitespace only where it separates them.
pub(super) fn compare_leniently(
    expected: impl Read,
    found: impl Read,
    by_tokens: bool,
    reading: Reading,
) -> Result<Comparison, Side> {
    let letters = reading.letters;
    let c_spaces = reading.spaces == Spaces::CStreams;
    let expected = CSpaces {
        inner: expected,
        c_spaces,
    };
    let found = CSpaces {
        inner: found,
        c_spaces,
    };
    // A byte order mark before either is dropped: testlib skips one
    // before the output, and some editors write one. C++ streams do not:
    // there a mark is bytes of the first token, the same only when both
    // sides have it. The answer's own is read past (a judge's file).
    let (format, expected_marked, expected) =
        detect_past_mark(expected).map_err(Side::Expected)?;
    let (_, found_marked, found) = detect_past_mark(found).map_err(Side::Found)?;
    let keep_mark = reading.output_mark_kept && found_marked && !expected_marked;
    let found = Cursor::new(kept_mark(keep_mark)).chain(found);
    let missing_null = Arc::new(AtomicU64::new(0));
    let compared = match (format, by_tokens) {
        (Format::CodingNinjas, false) => {
            return compare_lines(expected, found, false, CaseHolder::Line);
        }
        // A LeetCode line with no results, `[null]`, is text like any other.
        (Format::Leetcode, false) => compare_lines(
            Lines::new(expected).with_letters(letters),
            Lines::new(found)
                .with_letters(letters)
                .noting_missing_null(Arc::clone(&missing_null)),
            true,
            CaseHolder::Line,
        ),
        (Format::CodingNinjas, true) => return compare_tokens(expected, found),
        // By tokens, whitespace never counts, but a LeetCode test case's
        // array does: its `]` ends the case as a line end does by lines.
        (Format::Leetcode, true) => compare_lines(
            Lines::arrays(expected).with_letters(letters),
            Lines::arrays(found)
                .with_letters(letters)
                .noting_missing_null(Arc::clone(&missing_null)),
            true,
            CaseHolder::Array,
        ),
    };
    let broken_before_null = missing_null.load(Ordering::Relaxed);
    compared.map(|comparison| match comparison {
        // A broken line is one token, its case's first: at move 1.
        Comparison::Differs(Difference::NotAResult {
            case,
            r#move: 1,
            found,
            integer,
            ..
        }) if case == broken_before_null => Comparison::Differs(Difference::NotAResult {
            case,
            r#move: 1,
            found,
            integer,
            before_null: true,
        }),
        other => other,
    })
}

/// The byte order mark a reading keeps, if it keeps one.
fn kept_mark(kept: bool) -> &'static [u8] {
    if kept { BYTE_ORDER_MARK } else { &[] }
}

/// A side's reader that, if `c_spaces`, passes C's other whitespace
/// (vertical tabs and form feeds) on as spaces, which the answer reader knows.
struct CSpaces<R> {
    inner: R,
    c_spaces: bool,
}

impl<R: Read> Read for CSpaces<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        if self.c_spaces {
            let bytes = &mut buf[..read];
            // Rare bytes, found at memchr's pace.
            let mut from = 0;
            while let Some(at) = memchr::memchr2(b'\x0b', b'\x0c', &bytes[from..]) {
                bytes[from + at] = b' ';
                from += at + 1;
            }
        }
        Ok(read)
    }
}

/// [`compare`] by tokens: the expected answer's lines say which case and
/// move each result is; the output's line breaks are only whitespace.
fn compare_tokens(expected: impl Read, found: impl Read) -> Result<Comparison, Side> {
    let mut expected = Stream(AnswerReader::new(expected), Side::Expected);
    let mut found = Stream(AnswerReader::new(found), Side::Found);
    // Whole lines the same on both sides are the same by tokens too: they
    // are skipped as by lines, from the start of an answer's line after the
    // first, with the output past the line feed that ends its last result,
    // if one does.
    let skip_lines = |expected: &mut Stream<_>, found: &mut Stream<_>| {
        if found.0.buffered().first() == Some(&b'\n') {
            found.0.consume(1, 1);
        }
        skip_same::<b'\n', _, _>(&mut expected.0, &mut found.0)
    };
    let (mut cases, mut results, mut r#move) = (0, 0, 0);
    let next_token = |found: &mut Stream<_>| loop {
        match found.next()? {
            Item::LineEnd => {}
            item => return Ok::<Item, Side>(item),
        }
    };
    loop {
        match expected.next()? {
            Item::Result(want) => {
                r#move += 1;
                let case = cases + 1;
                match next_token(&mut found)? {
                    Item::Result(got) if got == want => results += 1,
                    Item::Result(got) => {
                        return Ok(Comparison::Differs(Difference::WrongResult {
                            case,
                            r#move,
                            expected: want,
                            found: got,
                        }));
                    }
                    Item::Other => {
                        return Ok(Comparison::Differs(Difference::NotAResult {
                            case,
                            r#move,
                            found: found.0.quote(Item::Other),
                            integer: found.0.other_is_integer(),
                            before_null: false,
                        }));
                    }
                    Item::End | Item::LineEnd => {
                        return Ok(Comparison::Differs(Difference::EndsEarly { case, r#move }));
                    }
                }
            }
            Item::LineEnd => {
                let (same_cases, same_results) = skip_lines(&mut expected, &mut found);
                cases += 1 + same_cases;
                results += same_results;
                r#move = 0;
            }
            Item::End => {
                // A last line with no LF is a case too.
                cases += u64::from(r#move > 0);
                return Ok(match next_token(&mut found)? {
                    Item::End | Item::LineEnd => Comparison::Same { cases, results },
                    extra => Comparison::Differs(Difference::ExtraOutput {
                        cases,
                        found: found.0.quote(extra),
                    }),
                });
            }
            Item::Other => {
                return Ok(Comparison::Differs(Difference::MalformedAnswer {
                    line: expected.0.line(),
                    found: expected.0.quote(Item::Other),
                }));
            }
        }
    }
}

/// [`compare`] on answers read as lines of results (a LeetCode array is a
/// line here when compared by tokens; `holder` names it). Unless
/// `every_line_counts`, a line with no results (a Coding Ninjas case with
/// no moves) may be left out at the end, and empty lines after the last
/// case are not extra.
fn compare_lines(
    expected: impl Read,
    found: impl Read,
    every_line_counts: bool,
    holder: CaseHolder,
) -> Result<Comparison, Side> {
    let mut expected = Stream(AnswerReader::new(expected), Side::Expected);
    let mut found = Stream(AnswerReader::new(found), Side::Found);
    let mut cases = 0;
    let mut results = 0;
    loop {
        let (same_cases, same_results) = skip_same::<b'\n', _, _>(&mut expected.0, &mut found.0);
        cases += same_cases;
        results += same_results;
        let mut want = expected.next()?;
        if want == Item::End {
            let extra = match found.next()? {
                Item::End => 0,
                // What follows the last array but is no array (`]x`): a
                // broken array's text is one token, never a result, first
                // on its line.
                Item::Other if holder == CaseHolder::Array => {
                    return Ok(Comparison::Differs(Difference::ExtraOutput {
                        cases,
                        found: found.0.quote(Item::Other),
                    }));
                }
                Item::LineEnd => {
                    u64::from(every_line_counts)
                        + found.0.lines_left(every_line_counts).map_err(Side::Found)?
                }
                _ => {
                    found.0.rest_of_line().map_err(Side::Found)?;
                    1 + found.0.lines_left(every_line_counts).map_err(Side::Found)?
                }
            };
            if extra > 0 {
                return Ok(Comparison::Differs(Difference::MoreLines {
                    holder,
                    extra,
                    cases,
                }));
            }
            return Ok(Comparison::Same { cases, results });
        }
        let mut got = found.next()?;
        if got == Item::End {
            // A missing line is only forgiven when it and every line after
            // it would be empty (cases with no moves).
            let answer_line = expected.0.line();
            let mut missing = 1;
            let mut empty = !every_line_counts;
            loop {
                match want {
                    Item::End => break,
                    Item::LineEnd => {
                        if expected.peek_is_end()? {
                            break;
                        }
                        missing += 1;
                    }
                    Item::Result(_) => empty = false,
                    Item::Other => {
                        return Ok(Comparison::Differs(Difference::MalformedAnswer {
                            line: answer_line,
                            found: expected.0.quote(Item::Other),
                        }));
                    }
                }
                want = expected.next()?;
            }
            if empty {
                return Ok(Comparison::Same { cases, results });
            }
            return Ok(Comparison::Differs(Difference::FewerLines {
                holder,
                missing,
                cases,
            }));
        }
        cases += 1;
        let case = cases;
        let mut r#move = 0;
        let mut items_since_skip = 0u32;
        loop {
            match (want, got) {
                (Item::Other, _) => {
                    return Ok(Comparison::Differs(Difference::MalformedAnswer {
                        line: expected.0.line(),
                        found: expected.0.quote(Item::Other),
                    }));
                }
                (Item::Result(a), Item::Result(b)) => {
                    r#move += 1;
                    results += 1;
                    if a != b {
                        return Ok(Comparison::Differs(Difference::WrongResult {
                            case,
                            r#move,
                            expected: a,
                            found: b,
                        }));
                    }
                }
                (Item::Result(_), Item::Other) => {
                    return Ok(Comparison::Differs(Difference::NotAResult {
                        case,
                        r#move: r#move + 1,
                        found: found.0.quote(Item::Other),
                        integer: found.0.other_is_integer(),
                        before_null: false,
                    }));
                }
                (Item::Result(_), Item::LineEnd | Item::End) => {
                    let (rest, _) = expected.0.rest_of_line().map_err(Side::Expected)?;
                    return Ok(Comparison::Differs(Difference::FewerResults {
                        holder,
                        case,
                        expected: r#move + 1 + rest,
                        found: r#move,
                    }));
                }
                (Item::LineEnd | Item::End, got @ (Item::Result(_) | Item::Other)) => {
                    let first_extra = found.0.quote(got);
                    let (rest, _) = found.0.rest_of_line().map_err(Side::Found)?;
                    return Ok(Comparison::Differs(Difference::MoreResults {
                        holder,
                        case,
                        expected: r#move,
                        found: r#move + 1 + rest,
                        first_extra,
                    }));
                }
                (Item::LineEnd | Item::End, Item::LineEnd | Item::End) => break,
            }
            // A line cut by the end of a buffer is compared item by item
            // from there to its end; equal stretches of it are skipped too,
            // tried every so many items.
            items_since_skip += 1;
            if items_since_skip == SKIP_EVERY {
                items_since_skip = 0;
                let (_, skipped) = skip_same::<b' ', _, _>(&mut expected.0, &mut found.0);
                r#move += skipped;
                results += skipped;
            }
            want = expected.next()?;
            got = found.next()?;
        }
    }
}

/// Skips the bytes at the start of both readers' buffers that are the same
/// and hold nothing but results, spaces and, if `END` is b'\n', LFs, up to
/// the last `END`: whole lines, each a case compared equal, or with `END`
/// b' ' a stretch within a line. Returns the lines and results skipped.
/// Both readers must be between items.
///
/// Why: a checker mostly sees correct output, and comparing memory and
/// checking its bytes eight at a time costs a fraction of tokenizing both.
fn skip_same<const END: u8, A: Read, B: Read>(
    expected: &mut AnswerReader<A>,
    found: &mut AnswerReader<B>,
) -> (u64, u64) {
    let (a, b) = (expected.buffered(), found.buffered());
    let same = common_prefix(a, b);
    let (len, lines, results) = plain_prefix::<END>(&a[..same]);
    expected.consume(len, lines);
    found.consume(len, lines);
    (lines, results)
}

/// Items compared one by one within a line between tries of skipping
/// equal stretches.
const SKIP_EVERY: u32 = 32;

/// The length of the longest common prefix of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const STEP: usize = 256;
    let len = a.len().min(b.len());
    let mut at = 0;
    // Whole steps compare as slices (memcmp); the first differing step byte by byte.
    while at + STEP <= len && a[at..at + STEP] == b[at..at + STEP] {
        at += STEP;
    }
    at + a[at..len]
        .iter()
        .zip(&b[at..len])
        .take_while(|(x, y)| x == y)
        .count()
}

/// The longest prefix of `bytes` that is single-digit results, spaces and,
/// if `END` is b'\n', LFs, and ends with an `END`: its length, its LFs and
/// its results. Eight bytes at a time; a partial word at the end is left
/// alone.
fn plain_prefix<const END: u8>(bytes: &[u8]) -> (usize, u64, u64) {
    let (mut lines, mut results) = (0, 0);
    let mut last = (0, 0, 0);
    let mut previous_digit = false;
    for (index, chunk) in bytes.chunks_exact(8).enumerate() {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let digits = result_digits(word);
        let line_ends = if END == b'\n' {
            equal_bytes(word, b'\n')
        } else {
            0
        };
        let plain = digits | equal_bytes(word, b' ') | line_ends == HIGH;
        // Two digits side by side are a longer token, not a result.
        let joined = digits & (digits << 8) != 0 || (previous_digit && digits & 0x80 != 0);
        if !plain || joined {
            break;
        }
        previous_digit = digits >> 63 == 1;
        let ends = equal_bytes(word, END);
        if ends != 0 {
            let last_end = 63 - ends.leading_zeros();
            let through_end = u64::MAX >> (63 - last_end);
            last = (
                index * 8 + last_end as usize / 8 + 1,
                lines + byte_count(line_ends),
                results + byte_count(digits & through_end),
            );
        }
        lines += byte_count(line_ends);
        results += byte_count(digits);
    }
    last
}

/// Eight bytes of ones.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of each of eight bytes.
const HIGH: u64 = ONES * 0x80;

/// The high bit of each byte of `word` equal to `byte`; no carry crosses bytes.
#[inline(always)]
fn equal_bytes(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    !(((x & !HIGH) + !HIGH) | x) & HIGH
}

/// The high bit of each byte of `word` that is b'0', b'1' or b'2'.
#[inline(always)]
fn result_digits(word: u64) -> u64 {
    // '0', '1', '2' become 0, 1, 2; 0x7D + 2 is the largest sum below 0x80.
    let y = word ^ (ONES * u64::from(b'0'));
    !(((y & !HIGH) + ONES * 0x7D) | y) & HIGH
}

/// How many bytes a mask of high bits marks.
#[inline(always)]
fn byte_count(mask: u64) -> u64 {
    (mask >> 7).wrapping_mul(ONES) >> 56
}

/// An answer reader that tags its I/O errors with its side.
struct Stream<R>(AnswerReader<R>, fn(io::Error) -> Side);

impl<R: Read> Stream<R> {
    #[inline(always)]
    fn next(&mut self) -> Result<Item, Side> {
        self.0.next_item().map_err(self.1)
    }

    /// Whether nothing but the end follows; consumes nothing else.
    fn peek_is_end(&mut self) -> Result<bool, Side> {
        // A line end was just read; an immediately following End means the
        // LF was the file's last byte and no further line exists.
        self.0.at_end().map_err(self.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn differs(expected: &str, found: &str) -> String {
        match compare(expected.as_bytes(), found.as_bytes(), Mode::Lines) {
            Ok(Comparison::Differs(difference)) => difference.to_string(),
            Ok(same) => panic!("expected a difference, got {same:?}"),
            Err(_) => panic!("in memory"),
        }
    }

    fn same(expected: &str, found: &str) -> bool {
        matches!(
            compare(expected.as_bytes(), found.as_bytes(), Mode::Lines),
            Ok(Comparison::Same { .. })
        )
    }

    #[test]
    fn spacing_between_results_does_not_matter_but_lines_do() {
        assert!(same("0 0 1\n0 2\n", "0  0\t1\r\n0 2"));
        assert!(same("0 1\n", "0 1\n\n \n"));
        assert_eq!(
            differs("0 0 1\n0 2\n", "0 0 1 0 2\n"),
            "case 1: expected 3 results, found 5 tokens on the line, the first extra one \"0\" \
             (one line per case is required)"
        );
    }

    #[test]
    fn each_difference_is_named_by_case_and_move() {
        assert_eq!(
            differs("0 0 1\n0 2\n", "0 0 1\n0 1\n"),
            "case 2, move 2: expected 2, found 1"
        );
        assert_eq!(
            differs("0 0 1\n", "0 x 1\n"),
            "case 1, move 2: expected a result 0, 1 or 2, found \"x\""
        );
        assert_eq!(
            differs("0 0 1\n", "0 0\n"),
            "case 1: expected 3 results, found 2: the line ends early"
        );
        assert_eq!(
            differs("1\n2\n1\n", "1\n"),
            "output has 2 lines fewer than expected: it ends after case 1"
        );
        assert_eq!(
            differs("1\n", "1\n2\n0 0\n"),
            "output has 2 lines more than expected: the answer ends after case 1"
        );
        assert_eq!(
            differs("1 y\n", "1 0\n"),
            "the expected answer is malformed: line 1 holds \"y\", not a result"
        );
    }

    #[test]
    fn plain_lines_stop_before_anything_but_results_spaces_and_line_ends() {
        assert_eq!(
            plain_prefix::<b'\n'>(b"0 0 1\n2 0\n\n1\n0 0 0 0 "),
            (13, 4, 6)
        );
        assert_eq!(plain_prefix::<b'\n'>(b"0 1 2 0\n12 0 0 0\n"), (8, 1, 4));
        assert_eq!(
            plain_prefix::<b'\n'>(b"0 1 2 0\n0 0 2 1\r\n0 1 2 0\n"),
            (8, 1, 4)
        );
        assert_eq!(plain_prefix::<b'\n'>(b"0 1 2 3\n"), (0, 0, 0));
        // A digit that ends one word and one that starts the next are one token.
        assert_eq!(
            plain_prefix::<b'\n'>(b"0 1 2 0\n0 0 0 11 0 0 0\n"),
            (8, 1, 4)
        );
    }

    #[test]
    fn equal_stretches_compare_like_item_by_item() {
        let answer = "0 0 1\n".repeat(5000) + "0 2 0\n";
        assert!(same(&answer, &answer));
        let wrong = "0 0 1\n".repeat(5000) + "0 1 0\n";
        assert_eq!(
            differs(&answer, &wrong),
            "case 5001, move 2: expected 2, found 1"
        );
        let mut long = "0 0 1\n".repeat(3000);
        long.push_str("0 0 12\n");
        assert_eq!(
            differs(&long, &long),
            "the expected answer is malformed: line 3001 holds \"12\", not a result"
        );
    }

    #[test]
    fn leetcode_lines_with_no_results_are_lines_like_any_other() {
        for (expected, found) in [
            ("[null,1]\n[null]\n", "[null,1]\n"),
            ("[null]\n[null,1]\n", "\n[null,1]\n"),
            ("[null]\n", ""),
            ("[null,1]\n", "[null,1]\n[null]\n[null]"),
            ("[null,0]\n", "[nu ll,0]\n"),
        ] {
            assert!(!same(expected, found), "{expected:?} accepted {found:?}");
        }
        assert!(same("[null,1]\n[null]\n", "[null,1]\n\n[null]\n\n"));
    }

    #[test]
    fn counts_of_one_are_singular() {
        assert_eq!(
            differs("\n", "1\n"),
            "case 1: expected 0 results, found 1 token on the line, the first extra one \"1\" \
             (one line per case is required)"
        );
        assert_eq!(
            differs("1\n", "1\n2\n"),
            "output has 1 line more than expected: the answer ends after case 1"
        );
        // No case 0 to end after.
        assert_eq!(
            differs("[null]\n", ""),
            "output has 1 line fewer than expected: it holds no case"
        );
        assert_eq!(
            differs("[null,0]\n[null]\n", "\n\n  \n"),
            "output has 2 lines fewer than expected: it holds no case"
        );
        assert_eq!(
            differs("", "1\n"),
            "output has 1 line more than expected: the answer holds no case"
        );
    }

    #[test]
    fn trailing_empty_cases_may_be_left_out() {
        assert!(same("1\n\n", "1\n"));
    }

    fn by_tokens(expected: &str, found: &str) -> Comparison {
        compare(expected.as_bytes(), found.as_bytes(), Mode::Tokens).expect("in memory")
    }

    #[test]
    fn by_tokens_equal_lines_skipped_are_still_cases_and_results() {
        let answer = "0 0 1\n".repeat(100_000);
        assert_eq!(
            by_tokens(&answer, &answer),
            Comparison::Same {
                cases: 100_000,
                results: 300_000
            }
        );
        let wrong_at = |found: &str| match by_tokens(&answer, found) {
            Comparison::Differs(Difference::WrongResult { case, r#move, .. }) => (case, r#move),
            other => panic!("{other:?}"),
        };
        let mut wrong = answer.clone();
        let at = 6 * 69_999 + 4;
        wrong.replace_range(at..=at, "2");
        assert_eq!(wrong_at(&wrong), (70_000, 3));
        // Reflowed from case 50,000 on: compared token by token from there.
        let (same, reflowed) = wrong.split_at(6 * 49_999);
        assert_eq!(wrong_at(&format!("{same}{}", reflowed.replace('\n', "\r\n"))), (70_000, 3));
        let one_line = format!("{same}{}", reflowed.replace('\n', " "));
        assert_eq!(wrong_at(&one_line), (70_000, 3));
    }

    #[test]
    fn by_tokens_line_breaks_are_whitespace_and_the_answer_names_case_and_move() {
        let answer = "0 1\n\n0 0 2\n";
        let same = Comparison::Same { cases: 3, results: 5 };
        for found in ["0 1 0 0 2", "\n0\n1\n\n0 0\r\n2\n\n", "0\t1 0 0 2\n"] {
            assert_eq!(by_tokens(answer, found), same, "{found:?}");
        }
        assert_eq!(
            by_tokens(answer, "0 1 0 1 2").to_string_difference(),
            "case 3, move 2: expected 0, found 1"
        );
        assert_eq!(
            by_tokens(answer, "0 1 0 0").to_string_difference(),
            "case 3, move 3: the output ends before this result"
        );
        assert_eq!(
            by_tokens(answer, "0 1 0 0 2 0").to_string_difference(),
            "the output goes on after the last result (case 3): found \"0\""
        );
        // LeetCode answers are read an array at a time: whitespace between
        // and inside them is nothing, but each array is its test case's.
        let answer = "[null,0,1]\n[null]\n[null,0]\n";
        for found in ["\n[null,0,1]\n\n[null]\n[null,0]", "[null,0,1] [null] [null,\n0]"] {
            assert_eq!(by_tokens(answer, found).to_string_difference(), "no difference");
        }
        assert_eq!(
            by_tokens(answer, "[null,0,1,0]\n[null]\n").to_string_difference(),
            "case 1: expected 2 results, found 3 tokens in its array, the first extra one \"0\""
        );
        assert_eq!(
            by_tokens(answer, "[null,0]\n[null,1]\n[null,0]\n").to_string_difference(),
            "case 1: expected 2 results, found 1: the array ends early"
        );
        assert_eq!(
            by_tokens(answer, "[null,0,1]\n[null,0]\n").to_string_difference(),
            "case 2: expected 0 results, found 1 token in its array, the first extra one \"0\""
        );
        assert_eq!(
            by_tokens(answer, "[null,0,1]\n[null,0]\n[null]\n").to_string_difference(),
            "case 2: expected 0 results, found 1 token in its array, the first extra one \"0\""
        );
        assert_eq!(
            by_tokens(answer, "[null,0,1] [null] [null,0]\n[null]").to_string_difference(),
            "output has 1 array more than expected: the answer ends after case 3"
        );
        assert_eq!(
            by_tokens(answer, "[null,0,1] [null]").to_string_difference(),
            "output has 1 array fewer than expected: it ends after case 2"
        );
    }

    proptest::proptest! {
        #![proptest_config(crate::property_tests::config())]
        // Whatever whitespace an output puts between the answer's tokens,
        // compared by tokens it is the answer.
        #[test]
        fn any_reflow_of_the_answer_is_the_same_by_tokens(
            cases in proptest::collection::vec(proptest::collection::vec(0u8..3, 0..6), 1..6),
            spaces in proptest::collection::vec(proptest::sample::select(vec![" ", "\n", "\t", "\r\n", "  \n\n"]), 1..9),
        ) {
            let answer: String = cases
                .iter()
                .map(|case| case.iter().map(u8::to_string).collect::<Vec<_>>().join(" ") + "\n")
                .collect();
            let tokens: Vec<String> = cases.iter().flatten().map(u8::to_string).collect();
            let mut reflowed = String::new();
            for (index, token) in tokens.iter().enumerate() {
                reflowed.push_str(token);
                reflowed.push_str(spaces[index % spaces.len()]);
            }
            let results = tokens.len() as u64;
            proptest::prop_assert_eq!(
                by_tokens(&answer, &reflowed),
                Comparison::Same { cases: cases.len() as u64, results }
            );
        }
    }

    trait Described {
        fn to_string_difference(&self) -> String;
    }

    impl Described for Comparison {
        fn to_string_difference(&self) -> String {
            match self {
                Comparison::Differs(difference) => difference.to_string(),
                Comparison::Same { .. } => "no difference".into(),
            }
        }
    }
}
