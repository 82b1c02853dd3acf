//! Where a Coding Ninjas case seems to start, for cutting an input into
//! parts that several threads can solve at once.
//!
//! Written the usual way, a case is a line holding N, a line holding Q, and
//! Q lines of three values, so a line of one value, then another, then a
//! line of three, can only be a case's start: a move's line holds three
//! values, and before a line of moves only Q stands alone. The input is cut
//! before such a line ([`crate::format::cut`]) and nothing else is read:
//! whether the cut fell between two cases is known only once the part
//! before it has been read whole without an error (`pipeline::proven`).
//! Laid out some other way (one value a line, a case on one line), an
//! input shows no such lines, or shows them in the wrong place, and its
//! parts are read as one stream from there on.

use crate::format::bytes::CHUNK;
use crate::format::cut::Cut;
use crate::simd::{self, BLOCK, Cpu, Kernel, dispatch};

/// Cuts before a line of one value that is followed by a line of one value
/// and a line of three.
pub struct HeaderLines;

impl Cut for HeaderLines {
    fn find(&self, bytes: &[u8], from: usize) -> Result<usize, usize> {
        struct Find<'a>(&'a [u8], usize);
        impl Kernel for Find<'_> {
            type Output = Result<usize, usize>;
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> Result<usize, usize> {
                find_header(cpu, self.0, self.1)
            }
        }
        dispatch(Find(bytes, from))
    }

    /// A part's usual buffer: a case that runs past it goes, with the rest
    /// of the input, to the splitter that follows the format's counts,
    /// which cuts long cases into slices. Growing the buffer to a MiB to
    /// look further cost every file of long games a few page faults and
    /// copies for nothing.
    fn most_bytes(&self, part_bytes: usize) -> usize {
        part_bytes + CHUNK
    }
}

/// A line of the input, as the search sees it.
#[derive(Clone, Copy)]
struct Line {
    /// Where it starts.
    start: usize,
    /// Its values: runs of bytes other than whitespace.
    values: u32,
}

/// [`HeaderLines::find`], a block of 64 bytes at a time: each line's
/// values are counted from the block's masks, a population count a line.
#[inline(always)]
fn find_header<C: Cpu>(cpu: C, bytes: &[u8], from: usize) -> Result<usize, usize> {
    // The line feed before the first line that may be cut at may be the
    // byte before `from`; lines are looked at from the one after it.
    let mut at = from.saturating_sub(1);
    // The two lines before the current one, oldest first, once seen whole.
    let mut before: [Option<Line>; 2] = [None, None];
    // The current line, once a line feed has been seen.
    let mut current: Option<Line> = None;
    // Whether the byte before the block belongs to a value.
    let mut in_value = false;
    while let Some(block) = bytes
        .get(at..at + BLOCK)
        .and_then(|block| <&[u8; BLOCK]>::try_from(block).ok())
    {
        let masks = simd::byte_masks(cpu, block);
        let values = !masks.whitespace;
        let starts = values & !((values << 1) | u64::from(in_value));
        in_value = values >> 63 == 1;
        let mut newlines = masks.newlines;
        // Bits of the block before the current line's start.
        let mut done = 0u64;
        while newlines != 0 {
            let bit = newlines.trailing_zeros() as usize;
            let through = below(bit + 1);
            if let Some(mut line) = current {
                line.values += (starts & through & !done).count_ones();
                if line.values == 3
                    && let [Some(n), Some(q)] = before
                    && n.values == 1
                    && q.values == 1
                {
                    return Ok(n.start);
                }
                before = [before[1], Some(line)];
            }
            current = Some(Line {
                start: at + bit + 1,
                values: 0,
            });
            done = through;
            newlines &= newlines - 1;
        }
        if let Some(line) = &mut current {
            line.values += (starts & !done).count_ones();
        }
        at += BLOCK;
    }
    // The lines not yet seen whole are looked at again with more bytes,
    // from the line feed before the oldest that may start a case.
    let oldest = before[0].or(before[1]).or(current);
    Err(oldest.map_or(at.max(from), |line| line.start))
}

/// The bits of a word below bit `bit` (all 64 for `bit` 64).
fn below(bit: usize) -> u64 {
    if bit >= 64 { u64::MAX } else { (1 << bit) - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::coding_ninjas::split::MAX_PART_BYTES;
    use crate::format::cut::{parts_of, split_all};
    use proptest::prelude::*;

    /// The first cut at or after `from`, found a byte at a time.
    fn find_plainly(bytes: &[u8], from: usize) -> Option<usize> {
        let lines: Vec<(usize, &[u8])> = bytes
            .split_inclusive(|&byte| byte == b'\n')
            .scan(0, |start, line| {
                let at = *start;
                *start += line.len();
                Some((at, line))
            })
            .collect();
        let values = |line: &[u8]| {
            line.split(|&byte| crate::format::bytes::is_space(byte))
                .filter(|value| !value.is_empty())
                .count()
        };
        lines.windows(3).find_map(|three| {
            let [(start, n), (_, q), (_, moves)] = three else {
                return None;
            };
            // Whole lines only, after a line feed, at or after `from`.
            let whole = three.iter().all(|(_, line)| line.ends_with(b"\n"));
            (whole && *start > 0 && *start >= from && values(n) == 1 && values(q) == 1 && values(moves) == 3)
                .then_some(*start)
        })
    }

    fn file(cases: &[(u32, &[[u32; 3]])], crlf: bool) -> String {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = format!("{}{end}", cases.len());
        for (n, moves) in cases {
            text.push_str(&format!("{n}{end}{}{end}", moves.len()));
            for [r, c, p] in *moves {
                text.push_str(&format!("{r} {c} {p}{end}"));
            }
        }
        text
    }

    #[test]
    fn a_case_is_cut_at_its_board_size_line_and_a_case_of_no_moves_is_passed() {
        let padding = [[0, 0, 1], [1, 1, 2], [2, 2, 1]];
        let mut cases: Vec<(u32, &[[u32; 3]])> = vec![(3, &padding[..2]), (10, &[[9, 9, 1]]), (3, &[]), (7, &[[6, 6, 2]])];
        cases.extend(std::iter::repeat_n((3, &padding[..]), 20));
        let text = file(&cases, false);
        let first = text.find('\n').expect("T's line") + 1;
        let second = text.find("\n10\n").expect("second case") + 1;
        let fourth = text.find("\n7\n").expect("fourth case") + 1;
        assert_eq!(HeaderLines.find(text.as_bytes(), 0), Ok(first));
        assert_eq!(HeaderLines.find(text.as_bytes(), first + 1), Ok(second));
        assert_eq!(HeaderLines.find(text.as_bytes(), second + 1), Ok(fourth));
        assert_eq!(find_plainly(text.as_bytes(), second + 1), Some(fourth));
    }

    #[test]
    fn parts_are_cut_before_cases_and_join_to_the_input() {
        let moves: Vec<[u32; 3]> = (0..5).map(|i| [i % 3, (i + 1) % 3, 1 + i % 2]).collect();
        let cases: Vec<(u32, &[[u32; 3]])> = (0..400).map(|case| (3, &moves[..case % 6])).collect();
        for crlf in [false, true] {
            let text = file(&cases, crlf);
            for part_bytes in [1, 10, 100, 4096, 1 << 20] {
                for part in parts_of(text.as_bytes(), part_bytes, HeaderLines).iter().skip(1) {
                    assert!(part.contents().starts_with(b"3"), "parts of {part_bytes}");
                }
            }
        }
    }

    #[test]
    fn a_case_longer_than_a_parts_buffer_is_left_with_the_rest_to_the_counting_splitter() {
        let moves: Vec<[u32; 3]> = (0..MAX_PART_BYTES as u32 / 6).map(|i| [i % 7, i / 7, 1 + i % 2]).collect();
        let text = file(&[(3, &[[0, 0, 1]]), (1_000_000, &moves), (3, &[[0, 0, 1]])], false);
        let (parts, to_the_end) = split_all(text.as_bytes(), 4, HeaderLines);
        assert!(!to_the_end);
        let joined: Vec<u8> = parts.iter().flat_map(|part| part.contents().to_vec()).collect();
        assert!(text.as_bytes().starts_with(&joined));
        // No more than a part's usual buffer was read in looking for a cut.
        assert!(parts.last().is_some_and(|rest| rest.len <= 4 + CHUNK));
    }

    proptest! {
        #![proptest_config(crate::property_tests::config())]
        /// The block search finds the first cut a byte-at-a-time search
        /// finds, and where it finds none, says to search again from no
        /// later than that cut would be once more bytes come.
        #[test]
        fn the_block_search_finds_what_the_plain_search_finds(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "\n", "\r\n", " ", "  ", "\t", "3", "10", "0", "7", "-1", "x", "1 2 3", "0 0 1", "\n3\n2\n0 0 1\n",
                ]),
                0..120,
            ),
            from in 0usize..200,
        ) {
            let text = pieces.concat();
            let bytes = text.as_bytes();
            let from = from.min(bytes.len());
            let plain = find_plainly(bytes, from);
            match HeaderLines.find(bytes, from) {
                Ok(at) => prop_assert_eq!(Some(at), plain),
                Err(again) => {
                    // Not found in whole blocks: the plain search may find it in
                    // the tail, from which the search must go on.
                    if let Some(at) = plain {
                        prop_assert!(again <= at, "again {} past the cut {}", again, at);
                    }
                    prop_assert!(again >= from, "again {} before {}", again, from);
                }
            }
        }
    }
}
