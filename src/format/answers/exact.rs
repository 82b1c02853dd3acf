//! An output held to the expected answer byte for byte, whitespace included: as Kattis's default validator compares when a judge passes `space_change_sensitive`.
//!
//! The results are compared as by lines, so a wrong result is still named
//! by its case and move. Beside that comparison, the bytes each side reads
//! are matched against the other's as they arrive, and the first place
//! where they part is kept: it is the difference when the results agree.

use super::compare::{Comparison, Difference, Letters, Reading, Side, compare_leniently};
use std::cell::RefCell;
use std::hash::{BuildHasher, DefaultHasher, Hasher, RandomState};
use std::io::{self, Read};

/// [`compare_read`](super::compare_read) with [`Mode::Exact`](super::Mode::Exact).
pub(super) fn compare_exact(
    expected: impl Read,
    found: impl Read,
    reading: Reading,
) -> Result<Comparison, Side> {
    let matcher = RefCell::new(Matcher::new(reading.letters == Letters::AnyCase));
    let mut expected = Watched {
        inner: expected,
        side: Which::Expected,
        matcher: &matcher,
    };
    let mut found = Watched {
        inner: found,
        side: Which::Found,
        matcher: &matcher,
    };
    let compared = compare_leniently(&mut expected, &mut found, false, reading)?;
    if let Comparison::Differs(_) = compared {
        // A wrong or missing result says more than where the bytes part.
        return Ok(compared);
    }
    // The results agree, so the comparison saw both sides end; a reader
    // that stopped at the last item may still hold bytes after it, which
    // count here.
    drain(&mut expected).map_err(Side::Expected)?;
    drain(&mut found).map_err(Side::Found)?;
    Ok(match matcher.into_inner().finish() {
        Some(difference) => Comparison::Differs(difference),
        None => compared,
    })
}

fn drain(reader: &mut impl Read) -> io::Result<()> {
    io::copy(reader, &mut io::sink()).map(|_| ())
}

/// One side of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Expected,
    Found,
}

impl Which {
    fn index(self) -> usize {
        match self {
            Which::Expected => 0,
            Which::Found => 1,
        }
    }

    fn other(self) -> Which {
        match self {
            Which::Expected => Which::Found,
            Which::Found => Which::Expected,
        }
    }
}

/// Where the two sides' bytes first differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parting {
    /// 1-based line of the first differing byte.
    line: u64,
    /// 1-based byte column of the first differing byte.
    column: u64,
    /// The expected byte there; `None` at the answer's end.
    expected: Option<u8>,
    /// The byte found there; `None` at the output's end.
    found: Option<u8>,
}

/// The most bytes one side may be ahead of the other and still be matched
/// byte by byte; past it, the rest of both sides is matched by a digest.
pub(super) const MOST_PENDING: usize = 4 * 1024 * 1024;

/// Matches the bytes of the two sides as each reads them.
///
/// Until they part, both sides' readers stand at the same item (equal
/// bytes hold equal items, which the comparison reads in step), so the
/// side ahead is ahead by what its reader buffers, and by a run of
/// whitespace: the comparison reads the answer's whole run before the
/// output's. A run longer than [`MOST_PENDING`] (in a judge's answer, since
/// the output's part from it at its first differing byte) is not held:
/// from there the rest of both sides is compared by a keyed digest.
struct Matcher {
    /// Bytes the side ahead has read that the other has not yet:
    /// `pending[pending_start..]`.
    pending: Vec<u8>,
    pending_start: usize,
    /// Which side `pending` came from.
    ahead: Which,
    /// Whether each side has read its end.
    ended: [bool; 2],
    /// Position of the next byte to match.
    line: u64,
    column: u64,
    /// Whether ASCII letters match in either case.
    fold_case: bool,
    /// The first difference; nothing is matched after it.
    parted: Option<Parting>,
    /// The rest of both sides, once one got too far ahead.
    rest: Option<Rest>,
}

/// Each side's bytes from one point on, as a digest and a length.
struct Rest {
    digests: [DefaultHasher; 2],
    lengths: [u64; 2],
    /// Each side's bytes not yet digested: a hasher is fed whole blocks
    /// only, since the same bytes written in other pieces may hash
    /// otherwise.
    blocks: [Vec<u8>; 2],
    /// Whether ASCII letters are digested in one case.
    fold_case: bool,
}

/// Bytes a digest is fed at a time.
const BLOCK: usize = 4096;

impl Matcher {
    fn new(fold_case: bool) -> Matcher {
        Matcher {
            pending: Vec::new(),
            pending_start: 0,
            ahead: Which::Expected,
            ended: [false; 2],
            line: 1,
            column: 1,
            fold_case,
            parted: None,
            rest: None,
        }
    }

    /// Takes the bytes `side` has just read; none means its end.
    fn arrived(&mut self, side: Which, mut bytes: &[u8]) {
        if self.parted.is_some() {
            return;
        }
        if let Some(rest) = &mut self.rest {
            rest.take(side, bytes);
            return;
        }
        let other = side.other();
        if self.pending_start == self.pending.len() {
            self.pending.clear();
            self.pending_start = 0;
        } else if self.ahead == other {
            let waiting = &self.pending[self.pending_start..];
            let common = waiting.len().min(bytes.len());
            let fold_case = self.fold_case;
            let differs = waiting[..common]
                .iter()
                .zip(&bytes[..common])
                .position(|(&a, &b)| !(a == b || fold_case && a.eq_ignore_ascii_case(&b)));
            if let Some(at) = differs {
                let theirs = waiting[at];
                self.advance_over(at, bytes);
                self.part(side, Some(bytes[at]), Some(theirs));
                return;
            }
            if bytes.is_empty() {
                let theirs = waiting[0];
                self.part(side, None, Some(theirs));
                return;
            }
            self.advance_over(common, bytes);
            self.pending_start += common;
            bytes = &bytes[common..];
            if bytes.is_empty() {
                return;
            }
            self.pending.clear();
            self.pending_start = 0;
        }
        if bytes.is_empty() {
            self.ended[side.index()] = true;
        } else if self.ended[other.index()] {
            self.part(side, Some(bytes[0]), None);
        } else if self.pending.len() - self.pending_start + bytes.len() > MOST_PENDING {
            // From the next byte to match on, both sides go to a digest.
            let keys = RandomState::new();
            let mut rest = Rest {
                digests: [keys.build_hasher(), keys.build_hasher()],
                lengths: [0; 2],
                blocks: [Vec::with_capacity(BLOCK), Vec::with_capacity(BLOCK)],
                fold_case: self.fold_case,
            };
            rest.take(side, &self.pending[self.pending_start..]);
            rest.take(side, bytes);
            self.rest = Some(rest);
            self.pending = Vec::new();
            self.pending_start = 0;
        } else {
            // What both sides have matched goes before the buffer grows.
            if self.pending_start > self.pending.len() / 2 {
                self.pending.drain(..self.pending_start);
                self.pending_start = 0;
            }
            self.ahead = side;
            self.pending.extend_from_slice(bytes);
        }
    }

    /// The first difference, once both sides have been read to their ends.
    fn finish(self) -> Option<Difference> {
        // Once the digests took over, nothing was matched byte by byte.
        if let Some(rest) = self.rest {
            return rest.differs().then_some(Difference::SpacingFrom {
                line: self.line,
                column: self.column,
            });
        }
        self.parted.map(|parting| Difference::Spacing {
            line: parting.line,
            column: parting.column,
            expected: parting.expected,
            found: parting.found,
        })
    }

    /// Moves the position past the first `count` of `bytes`, matched.
    fn advance_over(&mut self, count: usize, bytes: &[u8]) {
        let matched = &bytes[..count];
        match memchr::memrchr(b'\n', matched) {
            Some(last) => {
                self.line += memchr::memchr_iter(b'\n', matched).count() as u64;
                self.column = (count - last) as u64;
            }
            None => self.column += count as u64,
        }
    }

    /// Records the first difference: `mine` from `side`, `theirs` from the other.
    fn part(&mut self, side: Which, mine: Option<u8>, theirs: Option<u8>) {
        let (expected, found) = match side {
            Which::Expected => (mine, theirs),
            Which::Found => (theirs, mine),
        };
        self.parted = Some(Parting {
            line: self.line,
            column: self.column,
            expected,
            found,
        });
        self.pending = Vec::new();
        self.pending_start = 0;
    }
}

impl Rest {
    fn take(&mut self, side: Which, mut bytes: &[u8]) {
        let fold_case = self.fold_case;
        let (digest, block) = (&mut self.digests[side.index()], &mut self.blocks[side.index()]);
        self.lengths[side.index()] += bytes.len() as u64;
        while !bytes.is_empty() {
            let taken = (BLOCK - block.len()).min(bytes.len());
            block.extend_from_slice(&bytes[..taken]);
            bytes = &bytes[taken..];
            if block.len() == BLOCK {
                digest_block(digest, block, fold_case);
            }
        }
    }

    fn differs(mut self) -> bool {
        if self.lengths[0] != self.lengths[1] {
            return true;
        }
        // The same lengths leave last blocks of the same length.
        let [expected, found] = &mut self.digests;
        let [expected_block, found_block] = &mut self.blocks;
        digest_block(expected, expected_block, self.fold_case);
        digest_block(found, found_block, self.fold_case);
        expected.finish() != found.finish()
    }
}

/// Feeds a side's block to its digest, letters in one case if `fold_case`.
fn digest_block(digest: &mut DefaultHasher, block: &mut Vec<u8>, fold_case: bool) {
    if fold_case {
        block.make_ascii_lowercase();
    }
    digest.write(block);
    block.clear();
}

/// A side's reader, whose bytes go to the matcher as they are read.
struct Watched<'a, R> {
    inner: R,
    side: Which,
    matcher: &'a RefCell<Matcher>,
}

impl<R: Read> Read for Watched<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        // An empty buffer reads nothing, which is not the end.
        if !buf.is_empty() {
            self.matcher.borrow_mut().arrived(self.side, &buf[..read]);
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::answers::Trickle;

    /// What comparing exactly says, as text.
    fn compared(expected: &[u8], found: &[u8]) -> String {
        match compare_exact(expected, found, Reading::default()) {
            Ok(Comparison::Same { cases, results }) => format!("same: {cases} {results}"),
            Ok(Comparison::Differs(difference)) => difference.to_string(),
            Err(_) => panic!("in memory"),
        }
    }

    #[test]
    fn identical_bytes_are_the_same() {
        assert_eq!(compared(b"0 1\n2\n", b"0 1\n2\n"), "same: 2 3");
        assert_eq!(compared(b"0 1\r\n", b"0 1\r\n"), "same: 1 2");
        assert_eq!(compared(b"", b""), "same: 0 0");
    }

    #[test]
    fn any_change_of_spacing_is_named_where_it_is() {
        assert_eq!(
            compared(b"0 1\n2\n", b"0 1\r\n2\n"),
            "line 1, column 4: expected a line feed, found a carriage return \
             (compared exactly, whitespace included)"
        );
        assert_eq!(
            compared(b"0 1\n2\n", b"0 1\n2"),
            "line 2, column 2: expected a line feed, found the end of the output \
             (compared exactly, whitespace included)"
        );
        assert_eq!(
            compared(b"0 1\n2\n", b"0 1\n2\n\n"),
            "line 3, column 1: expected the end of the output, found a line feed \
             (compared exactly, whitespace included)"
        );
        assert_eq!(
            compared(b"0 1\n", b"0  1\n"),
            "line 1, column 3: expected \"1\", found a space \
             (compared exactly, whitespace included)"
        );
        assert_eq!(
            compared(b"0\n", b"\xEF\xBB\xBF0\n"),
            "line 1, column 1: expected \"0\", found byte 0xEF \
             (compared exactly, whitespace included)"
        );
    }

    #[test]
    fn a_wrong_result_is_named_by_case_and_move_first() {
        assert_eq!(
            compared(b"0 1\n0 0\n", b"0 1\r\n0 2\r\n"),
            "case 2, move 2: expected 0, found 2"
        );
    }

    #[test]
    fn letters_may_match_in_either_case() {
        let any_case = compare_exact(&b"[null,0]\n"[..], &b"[NULL,0]\n"[..], Reading::kattis(false));
        assert!(matches!(any_case, Ok(Comparison::Same { .. })), "{any_case:?}");
    }


    #[test]
    fn past_a_run_longer_than_is_held_the_rest_is_matched_by_digest() {
        let run = " ".repeat(MOST_PENDING + 12_345);
        let answer = format!("[null,0]{run}\n[null,1]\n");
        let compare = |found: &str, a: usize, b: usize, reading: Reading| {
            compare_exact(
                Trickle(answer.as_bytes(), a),
                Trickle(found.as_bytes(), b),
                reading,
            )
        };
        // However the reads cut the bytes, the digests agree.
        for (a, b) in [(1 << 20, 1 << 20), (4096, 7), (7, 100_003), (1 << 17, 1)] {
            let same = compare(&answer, a, b, Reading::default());
            assert!(matches!(same, Ok(Comparison::Same { .. })), "{same:?}");
            let folded = compare(&answer.replace("[null,1]", "[NULL,1]"), a, b, Reading::kattis(false));
            assert!(matches!(folded, Ok(Comparison::Same { .. })), "{folded:?}");
            for other in [
                format!("[null,0]{run} \n[null,1]\n"),
                format!("[null,0]{run}\n[null,1]\r\n"),
                format!("[null,0]{run}\n[null,1]"),
            ] {
                let differs = compare(&other, a, b, Reading::default());
                assert!(
                    matches!(differs, Ok(Comparison::Differs(Difference::SpacingFrom { line: 1, .. }))),
                    "{differs:?}"
                );
            }
        }
    }

    #[test]
    fn reads_of_any_size_find_the_same_place() {
        let answer = "0 0 1\n".repeat(50_000);
        let mut output = answer.clone().into_bytes();
        let at = answer[..answer.len() - 1000].rfind(' ').expect("a space");
        output[at] = b'\t';
        let line = answer[..at].matches('\n').count() + 1;
        let column = at - answer[..at].rfind('\n').map_or(0, |last| last + 1) + 1;
        for (a, b) in [(1, 7), (7, 1), (4096, 3), (3, 1 << 20), (1 << 20, 1 << 20)] {
            let compared = compare_exact(
                Trickle(answer.as_bytes(), a),
                Trickle(&output, b),
                Reading::default(),
            );
            let Ok(Comparison::Differs(Difference::Spacing {
                line: l, column: c, ..
            })) = compared
            else {
                panic!("{compared:?}");
            };
            assert_eq!((l, c), (line as u64, column as u64), "reads of {a} and {b}");
        }
    }
}
