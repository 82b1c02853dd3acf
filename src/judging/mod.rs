//! Judging: one verdict type, the statuses each judge's protocol gives it, and
//! what produces verdicts (checking an output, validating an input, running a
//! solution), with the generation of the tests they run on.

pub mod check;
pub mod generate;
pub mod package;
pub mod process;
// The supervisor is Unix process control; elsewhere `test` and `stress`
// refuse to start (process::startable says why).
#[cfg(unix)]
pub mod supervise;
pub mod validate;

use crate::format::answers::{Comparison, Difference};
use std::fmt;

/// How a judge classes a run or an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictKind {
    /// The output is right.
    Accepted,
    /// Well-formed, but a result is wrong.
    WrongAnswer,
    /// Not in the required form: a token that is not a result, a wrong count.
    PresentationError,
    /// The solution failed: a non-zero exit status or a signal.
    RuntimeError,
    /// The solution was stopped at the time limit.
    TimeLimit,
    /// The solution failed under its memory limit for want of memory.
    MemoryLimit,
    /// The solution wrote more than it may (twice the answer and 1 MiB).
    OutputLimit,
    /// The judge's own data is wrong (the answer file, the input), or judging failed.
    JudgeFailure,
}

impl VerdictKind {
    /// The short name judges use: AC, WA, PE, RE, TLE, MLE, OLE, FAIL.
    pub fn code(self) -> &'static str {
        match self {
            VerdictKind::Accepted => "AC",
            VerdictKind::WrongAnswer => "WA",
            VerdictKind::PresentationError => "PE",
            VerdictKind::RuntimeError => "RE",
            VerdictKind::TimeLimit => "TLE",
            VerdictKind::MemoryLimit => "MLE",
            VerdictKind::OutputLimit => "OLE",
            VerdictKind::JudgeFailure => "FAIL",
        }
    }

    /// The word testlib's checkers put before the message.
    pub fn label(self) -> &'static str {
        match self {
            VerdictKind::Accepted => "ok",
            VerdictKind::WrongAnswer => "wrong answer",
            VerdictKind::PresentationError => "wrong output format",
            VerdictKind::RuntimeError => "runtime error",
            VerdictKind::TimeLimit => "time limit exceeded",
            VerdictKind::MemoryLimit => "memory limit exceeded",
            VerdictKind::OutputLimit => "output limit exceeded",
            VerdictKind::JudgeFailure => "FAIL",
        }
    }
}

/// A verdict and its explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The class.
    pub kind: VerdictKind,
    /// One line saying why; empty when the kind says it all.
    pub message: String,
    /// More lines (the move and the board, a crashed solution's standard
    /// error), possibly none.
    pub details: String,
    /// The 1-based case and move the verdict is about, when it is about one.
    pub place: Place,
}

/// Where in an output a verdict points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The 1-based case.
    pub case: Option<u64>,
    /// The 1-based move within the case.
    pub r#move: Option<u64>,
}

impl Verdict {
    /// A verdict with its one-line message and no details.
    pub fn new(kind: VerdictKind, message: impl Into<String>) -> Verdict {
        Verdict {
            kind,
            message: message.into(),
            details: String::new(),
            place: Place::default(),
        }
    }

    /// Whether the output was accepted.
    pub fn is_accepted(&self) -> bool {
        self.kind == VerdictKind::Accepted
    }

    /// The verdict on a comparison of an output with the expected answer:
    /// every command that judges an output ends here.
    pub fn of_comparison(comparison: &Comparison) -> Verdict {
        let difference = match comparison {
            Comparison::Same { cases, results } => {
                let plural = |count: u64, one: &str, many: &str| {
                    format!("{count} {}", if count == 1 { one } else { many })
                };
                return Verdict::new(
                    VerdictKind::Accepted,
                    format!(
                        "{}, {}",
                        plural(*cases, "case", "cases"),
                        plural(*results, "result", "results")
                    ),
                );
            }
            Comparison::Differs(difference) => difference,
        };
        let mut verdict = Verdict::new(kind_of(difference), difference.to_string());
        verdict.place = Place {
            case: difference.case(),
            r#move: difference.case_and_move().map(|(_, number)| number),
        };
        verdict
    }

    /// The verdict as JSON: `{"verdict": "WA", "message": ..., "details":
    /// [lines], "case": 2, "move": 14}`, case and move `null` when the
    /// verdict is not about one (docs/JSON.md).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "verdict": self.kind.code(),
            "message": self.message,
            "details": self.details.lines().collect::<Vec<_>>(),
            "case": self.place.case,
            "move": self.place.r#move,
        })
    }
}

/// How judges class a difference.
fn kind_of(difference: &Difference) -> VerdictKind {
    if difference.is_judge_failure() {
        VerdictKind::JudgeFailure
    } else if difference.is_wrong_result() {
        VerdictKind::WrongAnswer
    } else {
        VerdictKind::PresentationError
    }
}

impl fmt::Display for Verdict {
    /// `CODE: message`, then each line of the details indented: how `test`
    /// and `stress` show a verdict.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.code())?;
        self.fmt_explanation(f)
    }
}

impl Verdict {
    /// What follows the code: `: ` and the message, with the details'
    /// lines indented below; empty for a verdict with neither.
    pub fn explanation(&self) -> String {
        struct Explanation<'a>(&'a Verdict);
        impl fmt::Display for Explanation<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt_explanation(f)
            }
        }
        Explanation(self).to_string()
    }

    fn fmt_explanation(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.message.is_empty() && self.kind != VerdictKind::Accepted {
            write!(f, ": {}", self.message)?;
        }
        for line in self.details.lines() {
            write!(f, "\n    {line}")?;
        }
        Ok(())
    }
}

/// Whose conventions a validator or checker follows: its arguments, its
/// exit statuses and where its messages go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// This tool's own: 0 good, 1 not, 3 judge failure.
    #[default]
    Plain,
    /// testlib: 0 ok, 1 wrong answer, 2 presentation error, 3 FAIL (which a
    /// validator gives an invalid input).
    Testlib,
    /// Kattis, the ICPC problem package format and DOMjudge: 42 good, 43 not.
    Kattis,
    /// online-judge-tools' `--judge-command`: 0 accepted, 1 not.
    Oj,
}

impl Protocol {
    /// The exit status a checker gives a verdict.
    pub fn check_status(self, kind: VerdictKind) -> u8 {
        use VerdictKind::*;
        match (self, kind) {
            (Protocol::Kattis, Accepted) => 42,
            (Protocol::Kattis, WrongAnswer | PresentationError) => 43,
            (_, Accepted) => 0,
            (Protocol::Testlib, PresentationError) => 2,
            (_, WrongAnswer | PresentationError) => 1,
            (_, RuntimeError | TimeLimit | MemoryLimit | OutputLimit | JudgeFailure) => 3,
        }
    }

    /// The exit status a validator gives a valid or an invalid input.
    pub fn validate_status(self, valid: bool) -> u8 {
        match (self, valid) {
            (Protocol::Kattis, true) => 42,
            (Protocol::Kattis, false) => 43,
            (_, true) => 0,
            (Protocol::Testlib, false) => 3,
            (_, false) => 1,
        }
    }
}
