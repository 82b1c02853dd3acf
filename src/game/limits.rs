//! The statement's bounds on T, N and Q, in one place: `validate` checks a
//! file against them, `gen` keeps to them, and both can be given others.

use super::MAX_N;

/// Bounds on the number of cases T, the board size N and the moves Q of
/// each case. Q <= N x N always holds besides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Fewest test cases.
    pub min_t: u64,
    /// Most test cases.
    pub max_t: u64,
    /// Smallest board.
    pub min_n: u64,
    /// Largest board.
    pub max_n: u64,
    /// Fewest moves in a case.
    pub min_q: u64,
    /// Most moves in a case, besides Q <= N x N, which always holds.
    pub max_q: Option<u64>,
}

impl Limits {
    /// The statement's: 1 <= T <= 100, 1 <= N <= 100, 5 <= Q <= N x N.
    pub const STATEMENT: Limits = Limits {
        min_t: 1,
        max_t: 100,
        min_n: 1,
        max_n: 100,
        min_q: 5,
        max_q: None,
    };

    /// Why these bounds cannot describe a file the solver accepts, if they
    /// cannot: each pair in order, and N within the solver's 1..=10^9.
    pub fn check(&self) -> Result<(), String> {
        let pairs = [
            ("T", self.min_t, self.max_t),
            ("N", self.min_n, self.max_n),
            ("Q", self.min_q, self.max_q.unwrap_or(u64::MAX)),
        ];
        if let Some((name, min, max)) = pairs.into_iter().find(|(_, min, max)| min > max) {
            return Err(format!(
                "the bounds on {name} contradict each other: the least is {min}, the most {max}"
            ));
        }
        if self.min_n < 1 || self.max_n > MAX_N as u64 {
            return Err(format!(
                "N must lie within 1..={MAX_N}, the boards the solver plays; \
                 the bounds ask for {}..={}",
                self.min_n, self.max_n
            ));
        }
        Ok(())
    }

    /// The smallest N on which a Q of at least `min_q` fits: the statement's
    /// 5 <= Q <= N x N rules out N = 1 and 2.
    pub fn smallest_playable_n(&self) -> u64 {
        (1..).find(|&n: &u64| n * n >= self.min_q).unwrap_or(1)
    }
}

impl Default for Limits {
    /// The statement's.
    fn default() -> Limits {
        Limits::STATEMENT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_that_contradict_each_other_or_the_solver_are_refused() {
        assert_eq!(Limits::STATEMENT.check(), Ok(()));
        let bad = [
            Limits {
                min_n: 5,
                max_n: 3,
                ..Limits::STATEMENT
            },
            Limits {
                min_t: 2,
                max_t: 1,
                ..Limits::STATEMENT
            },
            Limits {
                min_q: 9,
                max_q: Some(8),
                ..Limits::STATEMENT
            },
            Limits {
                min_n: 0,
                ..Limits::STATEMENT
            },
            Limits {
                max_n: 2_000_000_000,
                ..Limits::STATEMENT
            },
        ];
        for limits in bad {
            assert!(limits.check().is_err(), "{limits:?}");
        }
    }

    #[test]
    fn the_statement_leaves_no_game_on_boards_below_three() {
        assert_eq!(Limits::STATEMENT.smallest_playable_n(), 3);
        let any = Limits {
            min_q: 0,
            ..Limits::STATEMENT
        };
        assert_eq!(any.smallest_playable_n(), 1);
    }
}
