//! Validating LeetCode transcripts: the format's structure, then the same
//! bounds and guarantees as a Coding Ninjas file.
//!
//! JSON leaves the layout free, so there is no canonical spacing to demand:
//! what is checked is the structure (two arrays per test case, the method
//! names, each call's arity), T, N and Q against the limits, and every move
//! against the game.

use super::{Report, Rule, Violation, q_rule, range_rule};
use crate::error::{Error, InputName, Position};
use crate::format::leetcode::read::{LocatedMove, MoveBatch, Reader};
use crate::format::lines::BATCH;
use crate::game::{AfterWinIn, BoardSize, CleanBatch, MoveField, TicTacToe};
use crate::game::{Limits, Referee};
use crate::format::bytes::{Chunks, Resume};
use crate::format::cut::Part;
use crate::format::leetcode::split::CaseStart;
use crate::pipeline::parallel::Split;
use crate::pipeline::proven::{InOrder, PartWork, Taken, across_cores};
use std::io::Read;

/// Validates a LeetCode transcript. Like [`super::validate`], it lists every
/// violation up to `max_errors`; a format error ends the list, since
/// nothing after it can be read with any meaning.
#[cfg(any(test, feature = "internals"))]
pub fn validate_leetcode(
    input: impl Read,
    limits: &Limits,
    max_errors: usize,
) -> std::io::Result<Report> {
    let split = Split {
        workers: 1,
        ..Split::default()
    };
    validate_leetcode_split(input, InputName::Stdin, limits, max_errors, split).map_err(|error| match error {
        Error::Read { source, .. } => source,
        other => std::io::Error::other(other.to_string()),
    })
}

/// [`validate_leetcode`], with a long transcript split as `split` says
/// and its parts validated on several threads, as a solve splits it
/// ([`crate::pipeline::proven`]). Parts with no violation add up their
/// summaries; from the first part with any, the transcript is validated
/// again as one stream, so the report is the one stream's exactly.
pub fn validate_leetcode_split(
    input: impl Read,
    name: InputName,
    limits: &Limits,
    max_errors: usize,
    split: Split,
) -> Result<Report, Error> {
    let max_errors = max_errors.max(1);
    let work = ValidateParts {
        limits: *limits,
        max_errors,
        name: name.clone(),
    };
    let mut in_order = ValidateInOrder {
        limits: *limits,
        max_errors,
        report: Report::empty(),
        game: TicTacToe::with_rules(BoardSize::MIN, Referee::rules()),
        name,
    };
    across_cores(input, split, CaseStart, &work, &mut in_order)
}

/// Validating a part, on a worker: its summary if it has no violation.
struct ValidateParts {
    limits: Limits,
    max_errors: usize,
    name: InputName,
}

impl PartWork for ValidateParts {
    type Worker = TicTacToe;
    type Done = Report;

    fn worker(&self) -> TicTacToe {
        TicTacToe::with_rules(BoardSize::MIN, Referee::rules())
    }

    fn part(&self, game: &mut TicTacToe, part: Part, _: Option<Report>) -> (Option<Report>, u64, Vec<u8>) {
        let chunks = Chunks::of_bytes(part.bytes, part.len, part.start);
        let mut reader = Reader::of_chunks(chunks, self.name.clone(), 0);
        let mut report = Report::empty();
        let read = validate_cases(&mut reader, game, &self.limits, self.max_errors, &mut report);
        let done = matches!(read, Ok(Reached::End) if report.is_valid()).then_some(report);
        (done, reader.cases(), reader.into_buffer())
    }
}

/// Validating on the caller's thread: the valid parts' summaries added up,
/// then the stream validated onto the same report.
struct ValidateInOrder {
    limits: Limits,
    max_errors: usize,
    report: Report,
    game: TicTacToe,
    name: InputName,
}

impl InOrder<Report> for ValidateInOrder {
    type Output = Report;

    fn take(&mut self, part: Report, _: u64, _: bool) -> Result<Taken<Report>, Error> {
        self.report.summary.add(&part.summary);
        Ok(Taken::Kept(None))
    }

    fn stream(&mut self, input: &mut dyn Read, start: Resume, cases: u64) -> Result<Report, Error> {
        let reader = &mut Reader::of_chunks(Chunks::resume(input, start), self.name.clone(), cases);
        let (limits, max_errors) = (self.limits, self.max_errors);
        let mut report = std::mem::replace(&mut self.report, Report::empty());
        match validate_cases(reader, &mut self.game, &limits, max_errors, &mut report) {
            Ok(Reached::End) => {
                self.report = report;
                self.end(reader.cases())
            }
            Ok(Reached::Full) => Ok(report.finish()),
            Err(error) => ended_by(error, report, max_errors),
        }
    }

    fn end(&mut self, cases: u64) -> Result<Report, Error> {
        let mut report = std::mem::replace(&mut self.report, Report::empty());
        let t = i64::try_from(cases).unwrap_or(i64::MAX);
        if let Some(rule) = range_rule("T", t, self.limits.min_t, self.limits.max_t) {
            // T is the number of test cases, which a transcript never states.
            let position = Position {
                line: 1,
                column: 1,
                case: None,
                r#move: None,
            };
            report.add(Violation { position, rule }, self.max_errors);
        }
        Ok(report.finish())
    }
}

/// How validating what a reader reads ended, short of an error.
enum Reached {
    /// The reader's input ended.
    End,
    /// The report is full.
    Full,
}

/// Validates every test case `reader` reads into `report`, up to the
/// input's end or a full report; a reading error is the caller's.
fn validate_cases<R: Read>(
    reader: &mut Reader<R>,
    game: &mut TicTacToe,
    limits: &Limits,
    max_errors: usize,
    report: &mut Report,
) -> Result<Reached, Error> {
    let mut batch = MoveBatch::default();
    let mut outcomes = [0; BATCH];
    while let Some(case) = reader.next_case()? {
        let n = i64::from(case.size.get());
        let q = i64::try_from(case.moves).unwrap_or(i64::MAX);
        // In file order: the method names (which count Q) come before N.
        let header_rules = [
            (case.names_at, q_rule(limits, q, n)),
            (case.size_at, range_rule("N", n, limits.min_n, limits.max_n)),
        ];
        for (at, rule) in header_rules {
            if let Some(rule) = rule {
                let position = reader.position(at, None);
                if !report.add(Violation { position, rule }, max_errors) {
                    return Ok(Reached::Full);
                }
            }
        }
        game.reset_for_moves(case.size, case.moves);
        let mut referee = Referee::default();
        let mut left = case.moves;
        while left > 0 {
            let read = reader.fill_batch(&mut batch);
            if read == 0 {
                // Whatever the batch reader leaves: one move the general way.
                let played = reader.next_move()?;
                if !judge(&mut referee, game, reader, report, &played, max_errors) {
                    return Ok(Reached::Full);
                }
                left -= 1;
                continue;
            }
            left -= read as u64;
            // As `judge` would one move at a time, reporting the same
            // violations in the same order, but with the moves played as a
            // batch while nothing is wrong (in a valid file, nothing ever is).
            let CleanBatch { played, after_win } =
                referee.play_clean(game, batch.moves(), &mut outcomes[..read]);
            if let Some(AfterWinIn {
                index,
                winner,
                at_move,
            }) = after_win
            {
                let after = reader.locate_in_batch(&batch, index);
                let position = reader.position(after.offset(MoveField::Row), Some(after.number));
                let rule = Rule::AfterWin { winner, at_move };
                if !report.add(Violation { position, rule }, max_errors) {
                    return Ok(Reached::Full);
                }
            }
            // The rest one by one: the refused move and whatever follows it.
            for index in played..read {
                let located = reader.locate_in_batch(&batch, index);
                if !judge(&mut referee, game, reader, report, &located, max_errors) {
                    return Ok(Reached::Full);
                }
            }
        }
        report.summary.add_case(game, case.size);
    }
    Ok(Reached::End)
}

/// Judges one move as read, adding what it breaks to `report`: false once
/// the report is full.
fn judge<R: Read>(
    referee: &mut Referee,
    game: &mut TicTacToe,
    reader: &Reader<R>,
    report: &mut Report,
    played: &LocatedMove,
    max_errors: usize,
) -> bool {
    referee
        .judge(game, (played.row, played.col, played.player), |field, rule| {
            let position = reader.position(played.offset(field), Some(played.number));
            let violation = Violation {
                position,
                rule: rule.into(),
            };
            if report.add(violation, max_errors) {
                Ok(())
            } else {
                Err(())
            }
        })
        .is_ok()
}

/// The report a reader's error ends: a format error is its last
/// violation; a read error is the caller's.
fn ended_by(error: Error, mut report: Report, max_errors: usize) -> Result<Report, Error> {
    match error {
        Error::Data { error, .. } => {
            let violation = Violation {
                position: error.position,
                rule: Rule::Format(error.kind.to_string()),
            };
            report.add(violation, max_errors);
            Ok(report.finish())
        }
        other => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violations(input: &str) -> Vec<String> {
        validate_leetcode(input.as_bytes(), &Limits::default(), 20)
            .expect("reading memory")
            .violations
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn the_example_is_valid() {
        let example = "[\"TicTacToe\",\"move\",\"move\",\"move\",\"move\",\"move\",\"move\",\"move\"]\n\
                       [[3],[0,0,1],[0,2,2],[2,2,1],[1,1,2],[2,0,1],[1,0,2],[2,1,1]]\n";
        let report = validate_leetcode(example.as_bytes(), &Limits::default(), 20).expect("memory");
        assert!(report.is_valid(), "{:?}", report.violations);
        assert_eq!(report.summary.cases, 1);
        assert_eq!(report.summary.won_by, [1, 0]);
    }

    #[test]
    fn bounds_and_guarantees_are_checked_with_positions() {
        let text = "[\"TicTacToe\",\"move\",\"move\",\"move\",\"move\",\"move\",\"move\"]\n\
                    [[3],[0,0,1],[0,0,2],[1,1,2],[2,2,2],[0,1,1],[0,2,1]]\n";
        assert_eq!(
            violations(text),
            [
                "line 2, column 15: case 1, move 2: cell (0, 0) is already taken",
                "line 2, column 27: case 1, move 3: player 2 moves twice in a row: players must alternate",
                "line 2, column 35: case 1, move 4: player 2 moves twice in a row: players must alternate",
                "line 2, column 51: case 1, move 6: player 1 moves twice in a row: players must alternate",
            ]
        );
        let small = "[\"TicTacToe\",\"move\"]\n[[2],[0,0,1]]\n";
        let found = violations(small);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("line 1, column 1: case 1: Q = 1 is below the minimum 5, and no Q could be valid here"), "{found:?}");
        let large = "[\"TicTacToe\",\"move\",\"move\",\"move\",\"move\",\"move\"]\n\
                     [[101],[0,0,1],[0,1,2],[0,2,1],[0,3,2],[0,4,1]]\n";
        assert_eq!(
            violations(large),
            ["line 2, column 3: case 1: N = 101 is out of range: 1 <= N <= 100"]
        );
    }

    #[test]
    fn a_format_error_ends_the_list() {
        let found = violations("[\"TicTacToe\",\"jump\"]\n[[3],[0,0,1]]\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("line 1, column 14: case 1"),
            "{found:?}"
        );
    }

    #[test]
    fn an_empty_transcript_has_too_few_cases() {
        assert_eq!(
            violations(""),
            ["line 1, column 1: T = 0 is out of range: 1 <= T <= 100"]
        );
    }
}
