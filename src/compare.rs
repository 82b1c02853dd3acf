//! Compares a solution's output with the expected answer, in the game's terms.
//!
//! One small function, [`compare`], so that the `check` subcommand's richer
//! checker can take its place. Tokens may be separated by any whitespace,
//! but each case must be on its own line.

use std::fmt;

/// Why an output is not the expected answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// A move's result differs.
    Result {
        /// 1-based case.
        case: usize,
        /// 1-based move.
        r#move: usize,
        /// The expected token.
        expected: String,
        /// The token found.
        found: String,
    },
    /// A case's line has too few results.
    TooFewResults {
        /// 1-based case.
        case: usize,
        /// How many were expected.
        expected: usize,
        /// How many were found.
        found: usize,
    },
    /// A case's line has results past its last move.
    ExtraResult {
        /// 1-based case.
        case: usize,
        /// The first extra token.
        found: String,
    },
    /// The output has fewer case lines than expected.
    MissingLines(usize),
    /// The output has more case lines than expected.
    ExtraLines(usize),
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Result {
                case,
                r#move,
                expected,
                found,
            } => write!(
                f,
                "case {case}, move {move}: expected {expected}, found {found}",
                move = r#move
            ),
            Mismatch::TooFewResults {
                case,
                expected,
                found,
            } => write!(f, "case {case}: expected {expected} results, found {found}"),
            Mismatch::ExtraResult { case, found } => {
                write!(f, "case {case}: extra token {found:?} after the last move")
            }
            Mismatch::MissingLines(count) => {
                write!(f, "output has {count} lines fewer than expected")
            }
            Mismatch::ExtraLines(count) => write!(f, "output has {count} lines more than expected"),
        }
    }
}

/// The case lines of an output: a final newline ends the last line, it does not start another.
fn case_lines(text: &[u8]) -> Vec<&[u8]> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    text.split(|&byte| byte == b'\n').collect()
}

fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(u8::is_ascii_whitespace)
        .filter(|token| !token.is_empty())
}

/// The first difference between the expected answer and an output, if any.
pub fn compare(expected: &[u8], found: &[u8]) -> Result<(), Mismatch> {
    let expected_lines = case_lines(expected);
    let found_lines = case_lines(found);
    for (index, (want, got)) in expected_lines.iter().zip(&found_lines).enumerate() {
        let case = index + 1;
        let want: Vec<&[u8]> = tokens(want).collect();
        let mut got = tokens(got);
        for (number, expected) in want.iter().enumerate() {
            let text = |token: &[u8]| String::from_utf8_lossy(token).into_owned();
            match got.next() {
                Some(token) if token == *expected => {}
                Some(token) => {
                    return Err(Mismatch::Result {
                        case,
                        r#move: number + 1,
                        expected: text(expected),
                        found: text(token),
                    });
                }
                None => {
                    return Err(Mismatch::TooFewResults {
                        case,
                        expected: want.len(),
                        found: number,
                    });
                }
            }
        }
        if let Some(extra) = got.next() {
            return Err(Mismatch::ExtraResult {
                case,
                found: String::from_utf8_lossy(extra).into_owned(),
            });
        }
    }
    match found_lines.len().cmp(&expected_lines.len()) {
        std::cmp::Ordering::Less => Err(Mismatch::MissingLines(
            expected_lines.len() - found_lines.len(),
        )),
        std::cmp::Ordering::Greater => Err(Mismatch::ExtraLines(
            found_lines.len() - expected_lines.len(),
        )),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_outputs_match_whatever_the_spacing_within_a_line() {
        assert_eq!(compare(b"0 0 1\n0\n", b"0  0\t1\r\n0"), Ok(()));
        assert_eq!(compare(b"\n", b"\n"), Ok(()));
    }

    #[test]
    fn a_difference_is_named_by_case_and_move() {
        let mismatch = compare(b"0 0\n0 0 0 1\n", b"0 0\n0 0 0 0\n").unwrap_err();
        assert_eq!(mismatch.to_string(), "case 2, move 4: expected 1, found 0");
    }

    #[test]
    fn missing_and_extra_lines_and_tokens_are_reported() {
        assert_eq!(
            compare(b"0\n0\n0\n", b"0\n").unwrap_err().to_string(),
            "output has 2 lines fewer than expected"
        );
        assert_eq!(compare(b"0\n", b"0\n1\n"), Err(Mismatch::ExtraLines(1)));
        assert_eq!(
            compare(b"0 1\n", b"0\n").unwrap_err().to_string(),
            "case 1: expected 2 results, found 1"
        );
        assert_eq!(
            compare(b"0\n", b"0 2\n").unwrap_err().to_string(),
            "case 1: extra token \"2\" after the last move"
        );
    }
}
