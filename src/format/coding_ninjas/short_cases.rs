//! Whole short cases read from buffered bytes as one stream of tokens,
//! headers and moves alike: the fast path of a file of short games.
//!
//! Why: a case of a few moves on a small board takes less than a block of
//! 64 bytes. Read case by case, its header and then its moves each start a
//! block scan of their own, and the scan of the moves stops at the next
//! header: a file of short games paid two scans a case for a third of a
//! block each. Read as tokens, whatever separates them, a block's two or
//! three cases are found in one vector pass ([`simd::take_tokens`]); the
//! headers are then checked and the moves handed on where they lie.
//!
//! Nothing here moves a reader: the caller plays the cases, and moves its
//! reader past those it played ([`Reader::pass_cases`]). A case the run
//! does not take (a header out of range, a long game, a sign, a token the
//! stream does not take, bytes not yet buffered) is the general path's,
//! which says what is wrong with it.
//!
//! [`Reader::pass_cases`]: super::read::Reader::pass_cases

use crate::format::lines::BATCH;
use crate::format::tokens;
use crate::game::BoardSize;
use crate::simd::{Cpu, TOKENS_STORED};

/// Tokens read at most in one run, headers included: room for the longest
/// case a run takes and several short ones, in the first-level cache.
const RUN_TOKENS: usize = 2048;

/// Cases read at most in one run.
const RUN_CASES: usize = 256;

/// The most moves of a case a run takes: the engine's batch, so that each
/// case is played in one call.
pub const MOST_MOVES: usize = BATCH;

/// One case of a run.
#[derive(Clone, Copy, Debug)]
struct RunCase {
    size: BoardSize,
    /// Index of its first move's row among the run's tokens.
    first: usize,
    moves: usize,
    /// Buffer index of the byte after its last token.
    end: usize,
}

/// Whole cases read by [`read_short_cases`], in order.
pub struct CaseRun {
    /// Every token read, headers and moves, with the room the vector pass
    /// stores past the last one.
    tokens: [u32; RUN_TOKENS + TOKENS_STORED],
    cases: [RunCase; RUN_CASES],
    len: usize,
}

impl Default for CaseRun {
    fn default() -> CaseRun {
        let none = RunCase {
            size: BoardSize::MIN,
            first: 0,
            moves: 0,
            end: 0,
        };
        CaseRun {
            tokens: [0; RUN_TOKENS + TOKENS_STORED],
            cases: [none; RUN_CASES],
            len: 0,
        }
    }
}

impl CaseRun {
    /// Case `index`'s N, checked, and its moves: row, column and player,
    /// at most [`MOST_MOVES`], as many as its Q says.
    #[inline(always)]
    pub fn case(&self, index: usize) -> (BoardSize, &[[u32; 3]]) {
        let case = &self.cases[index];
        let moves = &self.tokens[case.first..case.first + 3 * case.moves];
        (case.size, moves.as_chunks::<3>().0)
    }

    /// The buffer index of the byte after case `index`'s last token.
    pub fn end_of(&self, index: usize) -> usize {
        self.cases[index].end
    }
}

/// Reads into `run` the whole cases of up to [`MOST_MOVES`] moves that
/// `bytes` holds from `start` on, at most `most` of them, while their
/// tokens are plain numbers that [`tokens::read_block`] takes (up to ten
/// digits) with only whitespace between them; `bytes[start]` must be whitespace (the byte after the
/// last token read). Returns how many cases it read: none when the next
/// case is not one it takes.
#[inline(always)]
pub fn read_short_cases<C: Cpu>(
    cpu: C,
    bytes: &[u8],
    start: usize,
    most: u64,
    run: &mut CaseRun,
) -> usize {
    run.len = 0;
    let most = most.min(RUN_CASES as u64) as usize;
    if most == 0 {
        return 0;
    }
    let mut at = start;
    // Tokens read, and the first of the case in progress.
    let (mut filled, mut next) = (0, 0);
    while filled <= RUN_TOKENS {
        let Some((count, tokens)) = tokens::read_block(cpu, bytes, at, &mut run.tokens[filled..])
        else {
            break;
        };
        let block_first = filled;
        filled += count;
        // The cases whose last token is in this block: any case complete
        // before it was taken after the block before.
        while filled - next >= 2 {
            let (n, declared) = (run.tokens[next], run.tokens[next + 1] as usize);
            let Ok(size) = BoardSize::new(i64::from(n)) else {
                return run.len;
            };
            if declared as u64 > size.cells() || declared > MOST_MOVES {
                return run.len;
            }
            let need = 2 + 3 * declared;
            if filled - next < need {
                break;
            }
            let end = tokens::token_end(cpu, at, &tokens, next + need - 1 - block_first);
            run.cases[run.len] = RunCase {
                size,
                first: next + 2,
                moves: declared,
                end,
            };
            run.len += 1;
            next += need;
            if run.len == most {
                return run.len;
            }
        }
        at += tokens.last;
    }
    run.len
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::{Baseline, Kernel, dispatch};
    use proptest::prelude::*;

    /// A case as read: N, its moves, and the index after its last token.
    type Case = (u32, Vec<[u32; 3]>, usize);

    /// Runs `read_short_cases` in the build for this CPU.
    fn read(bytes: &[u8], start: usize, most: u64) -> (usize, Vec<Case>) {
        struct Read<'a>(&'a [u8], usize, u64, &'a mut CaseRun);
        impl Kernel for Read<'_> {
            type Output = usize;
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> usize {
                read_short_cases(cpu, self.0, self.1, self.2, self.3)
            }
        }
        let mut run = Box::<CaseRun>::default();
        let count = dispatch(Read(bytes, start, most, &mut run));
        let cases = (0..count)
            .map(|index| {
                let (size, moves) = run.case(index);
                (size.get(), moves.to_vec(), run.end_of(index))
            })
            .collect();
        (count, cases)
    }

    /// What the run must find: the whole cases of `text` from `start`,
    /// read token by token, up to the first it does not take.
    fn read_plainly(bytes: &[u8], start: usize, most: u64) -> Vec<Case> {
        let mut tokens = Vec::new();
        let mut at = start;
        while at < bytes.len() {
            if bytes[at].is_ascii_digit() {
                let from = at;
                while at < bytes.len() && bytes[at].is_ascii_digit() {
                    at += 1;
                }
                tokens.push((&bytes[from..at], at));
            } else if matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
                at += 1;
            } else {
                break;
            }
        }
        let mut cases = Vec::new();
        let mut next = 0;
        while (cases.len() as u64) < most.min(RUN_CASES as u64) && next + 2 <= tokens.len() {
            let value = |index: usize| -> Option<u32> {
                let (digits, _) = tokens[index];
                crate::format::tokens::tests::plain_value(digits)
            };
            let (Some(n), Some(declared)) = (value(next), value(next + 1)) else {
                break;
            };
            let declared = declared as usize;
            if n == 0 || declared as u64 > u64::from(n) * u64::from(n) || declared > MOST_MOVES {
                break;
            }
            let need = 2 + 3 * declared;
            if next + need > tokens.len() {
                break;
            }
            let moves: Option<Vec<u32>> = (next + 2..next + need).map(value).collect();
            let Some(moves) = moves else {
                break;
            };
            let (_, end) = tokens[next + need - 1];
            cases.push((n, moves.as_chunks::<3>().0.to_vec(), end));
            next += need;
        }
        cases
    }

    #[test]
    fn short_cases_are_read_whole_with_where_each_ends() {
        let text = b"\n3\n2\n0 0 1\n1 1 2\n10\n1\n9 9 1\n3 0\n3  4\r\n0 0 1\n0 1 2\n0 2 1\n1 0 2\n";
        let mut bytes = text.to_vec();
        // The window a block needs past its last byte.
        bytes.resize(bytes.len() + 72, b'x');
        let (count, cases) = read(&bytes, 0, 10);
        if !crate::simd::has_newer_features() {
            // Without AVX2 every case is the general path's.
            assert_eq!(count, 0);
            return;
        }
        assert_eq!(count, 4);
        assert_eq!(cases, read_plainly(&bytes, 0, 10));
        assert_eq!(cases[0], (3, vec![[0, 0, 1], [1, 1, 2]], 16));
        assert_eq!(cases[1], (10, vec![[9, 9, 1]], 27));
        assert_eq!(cases[2], (3, vec![], 31));
        assert_eq!(cases[3].1.len(), 4);
        // At most as many as asked.
        assert_eq!(read(&bytes, 0, 2).1, cases[..2]);
    }

    #[test]
    fn a_case_not_wholly_buffered_is_left_to_the_general_path() {
        let bytes = b"\n3\n2\n0 0 1\n1 1 2\n3\n2\n0 0 1\n1 1";
        assert_eq!(read(bytes, 0, 10).0, 0);
    }

    #[test]
    fn the_baseline_build_leaves_short_numbers_to_the_general_path_and_reads_padded_ones() {
        let mut bytes = b"\n3\n1\n0 0 1\n".to_vec();
        bytes.resize(100, b' ');
        let mut run = CaseRun::default();
        assert_eq!(read_short_cases(Baseline, &bytes, 0, 1, &mut run), 0);
        let mut bytes = b"\n0000000003\n0000000001\n0000000002 0000000001 0000000002\n".to_vec();
        bytes.resize(100, b' ');
        assert_eq!(read_short_cases(Baseline, &bytes, 0, 1, &mut run), 1);
        assert_eq!(run.case(0).1, [[2, 1, 2]]);
        assert_eq!(run.end_of(0), bytes.iter().rposition(|&b| b == b'2').unwrap() + 1);
    }

    proptest! {
        #![proptest_config(crate::property_tests::config())]
        #[test]
        fn runs_read_what_reading_token_by_token_reads(
            cases in proptest::collection::vec(
                (
                    prop_oneof![1u32..12, 1000u32..1_000_000_001],
                    proptest::collection::vec((any::<u32>(), any::<u32>(), 1u32..3), 0..6),
                ),
                0..40,
            ),
            separators in crate::format::tokens::tests::whitespace_runs(),
            oddity in proptest::option::of((0usize..400, proptest::sample::select(vec![
                "-", "x", "0", "12345", "99999999", "123456789", "0000000007", "4294967296",
                "12345678901",
            ]))),
            most in 1u64..50,
        ) {
            let mut text = String::from("\n");
            let mut pick = separators.iter().cycle();
            for (n, moves) in &cases {
                text += &format!("{n}{}{}", pick.next().unwrap(), moves.len());
                for &(row, col, player) in moves {
                    for value in [row % n, col % n, player] {
                        text += pick.next().unwrap();
                        text += &value.to_string();
                    }
                }
                text += pick.next().unwrap();
            }
            if let Some((at, odd)) = oddity {
                let at = (0..=at.min(text.len())).rev().find(|&at| text.is_char_boundary(at)).unwrap_or(0);
                text.insert_str(at, odd);
            }
            let mut bytes = text.into_bytes();
            let buffered = bytes.len();
            bytes.resize(buffered + 72, b'y');
            let (count, read_cases) = read(&bytes, 0, most);
            let plain = read_plainly(&bytes[..buffered], 0, most);
            // Every case it reads is read right, in every build; with AVX2
            // it reads all of them unless something it does not take
            // comes first.
            prop_assert!(count <= plain.len());
            prop_assert_eq!(&read_cases[..], &plain[..count]);
            if crate::simd::has_newer_features() && oddity.is_none() {
                prop_assert_eq!(count, plain.len());
            }
        }
    }
}
