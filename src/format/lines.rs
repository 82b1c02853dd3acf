//! Move lines of the usual shape, `R C P` with single spaces, read a block
//! at a time: the fast path of both Coding Ninjas readers, the lenient one
//! that solves and the strict one that validates.
//!
//! Why: nearly every move of a real test file is written this way, and a
//! 64-byte block's digits, spaces and LFs, found at once, leave each line
//! of short numbers only its two spaces to find; a CPU with AVX2 reads all
//! of a block's lines, numbers of up to four digits (boards up to 10^4),
//! in one vector pass ([`simd::take_usual_lines`]).

use crate::format::bytes::{BLOCK_WINDOW, window_at};
use crate::simd::{self, ByteMasks, Cpu};

/// Moves read at a time.
pub const BATCH: usize = 256;

/// Moves past [`BATCH`] in [`Moves`]: room the vector passes write past
/// their last move into, rounded up so that the moves fill whole cache
/// lines. Why rounded: with one spare move fewer than that (3,228 bytes)
/// the LeetCode path ran markedly slower on this machine, an effect of the
/// stack's layout (docs/PERFORMANCE.md, round 20).
const SPARE_MOVES: usize = simd::TOKENS_STORED.div_ceil(3).next_multiple_of(16);

/// Move lines read in one go: row, column and player of each, and
/// [`SPARE_MOVES`] more.
pub struct Moves(pub [[u32; 3]; BATCH + SPARE_MOVES]);

const _: () = assert!(size_of::<Moves>().is_multiple_of(64));

impl Default for Moves {
    fn default() -> Moves {
        Moves([[0; 3]; BATCH + SPARE_MOVES])
    }
}

/// Reads up to `want` (at most [`BATCH`]) move lines into `moves`, while
/// whole blocks of them are buffered in `bytes`, starting at the LF at
/// `bytes[start]`. Returns how many it read and the index of the LF that
/// ends the last one.
///
/// `CANONICAL` is the validator's rule: only blocks of usual lines, and no
/// number with a leading zero. Otherwise lines that are not usual but still
/// `R C P` with one or two digits (a CR before the LF, a leading zero) are
/// read one by one ([`parse_move_line`]). Numbers of three or four digits
/// are read here only by the vector pass.
#[inline(always)]
pub fn read_usual_lines<C: Cpu, const CANONICAL: bool>(
    cpu: C,
    bytes: &[u8],
    start: usize,
    moves: &mut Moves,
    want: usize,
) -> (usize, usize) {
    let want = want.min(BATCH);
    let mut last_newline = start;
    let mut got = 0;
    'blocks: while got < want {
        let at = last_newline;
        let Some(window) = window_at(bytes, at) else {
            break;
        };
        let masks = LineMasks::of(cpu, window);
        let mut newlines = masks.newlines;
        if newlines & 1 == 0 {
            break;
        }
        let usual = masks.all_usual();
        if CANONICAL && !usual {
            break;
        }
        // The lines one by one below read tokens of two digits at most.
        let short = usual && masks.short_tokens();
        if usual {
            let out = &mut moves.0.as_flattened_mut()[3 * got..];
            if let Some((taken, end)) =
                simd::take_usual_lines::<C, CANONICAL>(cpu, window, &masks.bytes(), out, want - got)
                && taken > 0
            {
                got += taken;
                last_newline = at + end;
                continue 'blocks;
            }
        }
        loop {
            let line_start = newlines.trailing_zeros() as usize + 1;
            newlines &= newlines - 1;
            if newlines == 0 {
                // The line runs past the block: a new block from its LF,
                // unless the line is longer than a block.
                if line_start == 1 {
                    break 'blocks;
                }
                continue 'blocks;
            }
            let line_end = newlines.trailing_zeros() as usize;
            let mut word = [0; 8];
            word.copy_from_slice(&window[line_start..line_start + 8]);
            let word = u64::from_le_bytes(word);
            let read = if short {
                let Some(line) = masks.line_at(word, (line_start - 1) as u32, line_end as u32)
                else {
                    break 'blocks;
                };
                // A two-digit number that starts with 0 is not canonical.
                let zero_led =
                    |start: u32, len: u32| len == 2 && (word >> (8 * start)) as u8 == b'0';
                let row_len = line.column_at - 1;
                let column_len = line.player_at - line.column_at - 1;
                if CANONICAL && (zero_led(0, row_len) || zero_led(line.column_at, column_len)) {
                    break 'blocks;
                }
                Some(line.values)
            } else if CANONICAL {
                // Tokens of three or four digits, which the vector pass
                // alone reads here: the general path reads them.
                break 'blocks;
            } else {
                parse_move_line(word, line_end + 1 - line_start)
            };
            let Some(played) = read else {
                break 'blocks;
            };
            moves.0[got] = played;
            last_newline = at + line_end;
            got += 1;
            if got == want {
                break 'blocks;
            }
        }
    }
    (got, last_newline)
}

/// Where the digits, the spaces (b' ' only) and the LFs are among a block's
/// bytes: bit i for byte i.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineMasks {
    /// ASCII digits.
    pub digits: u64,
    /// b' '.
    pub spaces: u64,
    /// b'\n'.
    pub newlines: u64,
}

impl LineMasks {
    /// Classifies the first [`BLOCK`](crate::simd::BLOCK) bytes of `window`.
    #[inline(always)]
    pub fn of<C: Cpu>(cpu: C, window: &[u8; BLOCK_WINDOW]) -> LineMasks {
        let masks = simd::byte_masks(cpu, window);
        LineMasks {
            digits: masks.digits,
            spaces: masks.spaces,
            newlines: masks.newlines,
        }
    }

    /// The masks as the vector scans take them.
    #[inline(always)]
    fn bytes(&self) -> ByteMasks {
        ByteMasks {
            digits: self.digits,
            spaces: self.spaces,
            newlines: self.newlines,
            whitespace: 0,
        }
    }

    /// Whether the bytes from 0 to the block's last LF are all lines of the
    /// usual shape but for the count of tokens on each: nothing but digits,
    /// single spaces and LFs, no token of more than four digits, and one
    /// digit before each LF. Byte 0 must be an LF.
    ///
    /// Why: checked for a whole block at once, these leave the vector pass
    /// ([`simd::take_usual_lines`]) nothing to check but the count of
    /// tokens on each line, and with [`short_tokens`](Self::short_tokens)
    /// leave each line read alone only its two spaces to find
    /// ([`LineMasks::move_at`]).
    #[inline(always)]
    pub fn all_usual(&self) -> bool {
        let LineMasks {
            digits,
            spaces,
            newlines,
        } = *self;
        // Bits 0 to the last LF, and the same less the last one or two.
        let last = 63 - newlines.leading_zeros();
        let lines = u64::MAX >> (63 - last);
        let separators = spaces | newlines;
        newlines & 1 == 1
            && (digits | separators) & lines == lines
            // No two separators in a row: no empty line, no double space.
            && separators & (separators >> 1) & (lines >> 1) == 0
            // No five digits in a row.
            && digits & (digits >> 1) & (digits >> 2) & (digits >> 3) & (digits >> 4) & (lines >> 4)
                == 0
            // The player: a single digit before each LF.
            && ((newlines & !1) >> 2) & digits == 0
    }

    /// Whether no token up to the block's last LF has more than two
    /// digits: the lines of an [`all_usual`](Self::all_usual) block then
    /// fit a word each ([`LineMasks::line_at`]).
    #[inline(always)]
    pub fn short_tokens(&self) -> bool {
        let last = 63 - self.newlines.leading_zeros();
        let lines = u64::MAX >> (63 - last);
        let digits = self.digits;
        digits & (digits >> 1) & (digits >> 2) & (lines >> 2) == 0
    }

    /// The move on the line from LF `start` to LF `end` (bit indexes) of a
    /// block that is [`all_usual`](LineMasks::all_usual) with
    /// [`short_tokens`](LineMasks::short_tokens), or `None` if the
    /// line does not hold exactly three tokens. `word` is the 8 bytes after
    /// `start`, little-endian.
    #[cfg(test)]
    #[inline(always)]
    pub fn move_at(&self, word: u64, start: u32, end: u32) -> Option<[u32; 3]> {
        self.line_at(word, start, end).map(|line| line.values)
    }

    /// [`move_at`](LineMasks::move_at), with where the column and the
    /// player start on the line.
    #[inline(always)]
    pub fn line_at(&self, word: u64, start: u32, end: u32) -> Option<UsualLine> {
        let spaces = self.spaces >> (start + 1);
        let first = spaces.trailing_zeros();
        let second = (spaces & spaces.wrapping_sub(1)).trailing_zeros();
        // The player's space is two bytes before the LF; no space between
        // the first and it means exactly three tokens. Three tokens of at
        // most two digits (`short_tokens`) make a line that fits the word.
        if start + 1 + second + 2 != end {
            return None;
        }
        let pairs = digit_pairs(word);
        let pair_ending_at = |at: u32| (pairs.wrapping_shr(8 * at) & 0xFF) as u32;
        Some(UsualLine {
            values: [
                pair_ending_at(first.wrapping_sub(1)),
                pair_ending_at(second - 1),
                (word.wrapping_shr(8 * (second + 1)) & 0x0F) as u32,
            ],
            column_at: first + 1,
            player_at: second + 1,
        })
    }
}

/// A move line of the usual shape, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UsualLine {
    /// Row, column and player.
    pub values: [u32; 3],
    /// Where the column starts, counted from the line's first byte.
    pub column_at: u32,
    /// Where the player starts.
    pub player_at: u32,
}

/// Byte j of the result is the number written by bytes j - 1 and j of
/// `word` (little-endian), ten times the first plus the second, where the
/// byte before the word counts as 0 and so does a space (its low nibble is
/// 0). So a one- or two-digit number is read from where it ends.
#[inline(always)]
fn digit_pairs(word: u64) -> u64 {
    let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) << 8;
    // Each byte stays below 256 (15 x 10 + 15), so no carry crosses bytes.
    nibbles * 10 + (nibbles >> 8)
}

/// Reads a move written the usual way, `R C P` on a line of its own with
/// single spaces, R and C of one or two digits and P of one, from the
/// line's first 8 bytes (`word`, little-endian) and its length `len`
/// counting the LF. A CR before the LF is allowed. `None` for any other
/// line: the general readers take it.
///
/// Why: nearly every move of a real test file looks like this, and a line
/// checked and read in one word with no loop and no branch on its digits
/// costs a fraction of reading its three tokens one by one.
#[inline(always)]
pub fn parse_move_line(word: u64, len: usize) -> Option<[u32; 3]> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    // The high bit of each byte equal to `byte`, exactly: each byte's low
    // seven bits are added on their own, so no carry crosses bytes.
    let equal_to = |byte: u8| {
        let x = word ^ (ONES * u64::from(byte));
        !(((x & !HIGH) + !HIGH) | x) & HIGH
    };
    // Digits become 0 to 9 after the XOR; 0x76 + 9 is the largest sum below 0x80.
    let y = word ^ (ONES * u64::from(b'0'));
    let digits = !(((y & !HIGH) + ONES * 0x76) | y) & HIGH;
    // The bytes before the LF, less a CR just before it: `R C P`.
    let mut body = len.wrapping_sub(1);
    if !(5..=8).contains(&body) {
        return None;
    }
    if (word >> (8 * (body - 1))) as u8 == b'\r' {
        body -= 1;
    }
    let body_mask = HIGH >> (8 * (8 - body));
    // The first space ends R; P is the last byte, so the second space is
    // just before it, and C fills what lies between.
    let spaces = equal_to(b' ') & body_mask;
    let row_len = (spaces.trailing_zeros() / 8) as usize;
    let col_len = body.wrapping_sub(row_len + 3);
    if row_len.wrapping_sub(1) >= 2 || col_len.wrapping_sub(1) >= 2 {
        return None;
    }
    let expected_spaces: u64 = (0x80 << (8 * row_len)) | (0x80 << (8 * (body - 2)));
    if spaces != expected_spaces || (digits | spaces) & body_mask != body_mask {
        return None;
    }
    let pairs = digit_pairs(word);
    let pair_ending_at = |at: usize| ((pairs >> (8 * at)) & 0xFF) as u32;
    Some([
        pair_ending_at(row_len - 1),
        pair_ending_at(body - 3),
        ((word >> (8 * (body - 1))) & 0x0F) as u32,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::{BLOCK, Baseline, Kernel, dispatch};
    use proptest::prelude::*;

    /// What a line of the usual shape holds: `R C P` with one or two digits
    /// for R and C, one for P, single spaces, and a CR allowed at the end.
    fn usual_move(line: &[u8]) -> Option<[u32; 3]> {
        let text = std::str::from_utf8(line).ok()?;
        let text = text.strip_suffix('\r').unwrap_or(text);
        let fields: Vec<&str> = text.split(' ').collect();
        let lengths_ok = fields.len() == 3
            && (1..=2).contains(&fields[0].len())
            && (1..=2).contains(&fields[1].len())
            && fields[2].len() == 1;
        if !lengths_ok || !text.bytes().all(|b| b == b' ' || b.is_ascii_digit()) {
            return None;
        }
        let value = |field: &str| field.parse::<u32>().ok();
        Some([value(fields[0])?, value(fields[1])?, value(fields[2])?])
    }

    /// Lines of moves, most of them of the usual shape.
    fn move_lines() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let number = prop_oneof![
            8 => (0u32..100).prop_map(|v| v.to_string()),
            1 => (0u32..1000).prop_map(|v| format!("{v:03}")),
            1 => Just(String::new()),
        ];
        let separator = prop_oneof![8 => Just(" "), 1 => Just("  "), 1 => Just("\t")];
        let end = prop_oneof![8 => Just("\n"), 1 => Just("\r\n"), 1 => Just(" \n")];
        let line = (
            number.clone(),
            separator.clone(),
            number,
            separator,
            0u32..12,
            end,
        )
            .prop_map(|(r, s1, c, s2, p, e)| format!("{r}{s1}{c}{s2}{p}{e}"));
        proptest::collection::vec(line, 1..12).prop_map(|lines| {
            let mut text = b"\n".to_vec();
            text.extend(lines.concat().bytes());
            text
        })
    }

    proptest! {
        #![proptest_config(crate::property_tests::config())]
        #[test]
        fn move_lines_read_as_their_tokens_say(text in move_lines()) {
            let mut padded = text.clone();
            padded.resize(text.len() + BLOCK_WINDOW, b'x');
            let newlines: Vec<usize> =
                (0..text.len()).filter(|&i| text[i] == b'\n').collect();
            for pair in newlines.windows(2) {
                let (start, end) = (pair[0], pair[1]);
                let expected = usual_move(&text[start + 1..end]);
                let word = u64::from_le_bytes(
                    padded[start + 1..start + 9].try_into().expect("8 bytes"),
                );
                proptest::prop_assert_eq!(parse_move_line(word, end - start), expected);
                // The block check, from the line's own LF.
                if end - start < BLOCK {
                    let window: [u8; BLOCK_WINDOW] =
                        padded[start..start + BLOCK_WINDOW].try_into().expect("a window");
                    let masks = LineMasks::of(Baseline, &window);
                    if masks.all_usual() && masks.short_tokens() {
                        proptest::prop_assert_eq!(
                            masks.move_at(word, 0, (end - start) as u32),
                            expected,
                        );
                    }
                }
            }
        }

        #[test]
        fn blocks_of_usual_lines_pass_the_block_check(
            moves in proptest::collection::vec((0u32..100, 0u32..100, 0u32..10), 1..9),
        ) {
            let mut text = b"\n".to_vec();
            for (r, c, p) in &moves {
                text.extend(format!("{r} {c} {p}\n").bytes());
            }
            text.resize(BLOCK_WINDOW.max(text.len()), b'x');
            let window: [u8; BLOCK_WINDOW] = text[..BLOCK_WINDOW].try_into().expect("a window");
            proptest::prop_assert!(LineMasks::of(Baseline, &window).all_usual());
        }
    }

    /// A line of three tokens, as the plain way reads it.
    struct PlainLine {
        values: Vec<u32>,
        /// The LF that ends it.
        end: usize,
        /// Whether a token has more than two digits.
        long: bool,
        /// Whether a token has a leading zero.
        zero_led: bool,
    }

    /// The lines [`read_usual_lines`] may find, the plain way: those ended
    /// by an LF inside the block, while each holds three tokens.
    fn lines_of(text: &[u8]) -> Vec<PlainLine> {
        let mut lines = Vec::new();
        let mut start = 1;
        while let Some(length) = text[start..BLOCK].iter().position(|&b| b == b'\n') {
            let tokens: Vec<&[u8]> = text[start..start + length].split(|&b| b == b' ').collect();
            if tokens.len() != 3 {
                break;
            }
            let values = tokens
                .iter()
                .map(|token| {
                    std::str::from_utf8(token)
                        .expect("digits")
                        .parse()
                        .expect("a number")
                })
                .collect();
            let long = tokens.iter().any(|token| token.len() > 2);
            let zero_led = tokens.iter().any(|token| token.len() > 1 && token[0] == b'0');
            let end = start + length;
            lines.push(PlainLine {
                values,
                end,
                long,
                zero_led,
            });
            start = end + 1;
        }
        lines
    }

    /// Lines of tokens of one to four digits (and now and then five),
    /// three on most, then any bytes.
    fn blocks() -> impl Strategy<Value = Vec<u8>> {
        let token = prop_oneof![
            (0u32..10).prop_map(|v| v.to_string()),
            (0u32..100).prop_map(|v| format!("{v:02}")),
            (0u32..1000).prop_map(|v| format!("{v:03}")),
            (0u32..10_000).prop_map(|v| format!("{v:04}")),
            (0u32..10_000).prop_map(|v| v.to_string()),
        ];
        let token = prop_oneof![40 => token, 1 => (0u32..100_000).prop_map(|v| format!("{v:05}"))];
        let player = (0u32..10).prop_map(|v| v.to_string());
        let line = (
            prop_oneof![6 => Just(2usize), 1 => 0usize..5],
            proptest::collection::vec(token, 4),
            player,
        )
            .prop_map(|(before, tokens, player)| {
                let mut line = tokens[..before].join(" ");
                if before > 0 {
                    line.push(' ');
                }
                line + &player + "\n"
            });
        (
            proptest::collection::vec(line, 0..14),
            proptest::collection::vec(any::<u8>(), BLOCK_WINDOW),
        )
            .prop_map(|(lines, noise)| {
                let mut text = b"\n".to_vec();
                text.extend(lines.concat().bytes());
                text.extend(noise);
                text.truncate(BLOCK_WINDOW);
                text
            })
    }

    /// [`read_usual_lines`] on one block, in every build this machine
    /// runs: whether the build has the vector pass, the values read and the
    /// LF that ends the last line read.
    fn read_block<const CANONICAL: bool>(text: &[u8], most: usize) -> Vec<(bool, Vec<u32>, usize)> {
        struct Read<'a, const CANONICAL: bool>(&'a [u8], usize);
        impl<const CANONICAL: bool> Kernel for Read<'_, CANONICAL> {
            type Output = (bool, Vec<u32>, usize);
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> (bool, Vec<u32>, usize) {
                let mut moves = Moves::default();
                let (got, end) =
                    read_usual_lines::<C, CANONICAL>(cpu, self.0, 0, &mut moves, self.1);
                (C::NEWER, moves.0.as_flattened()[..3 * got].to_vec(), end)
            }
        }
        vec![
            Read::<CANONICAL>(text, most).run(Baseline),
            dispatch(Read::<CANONICAL>(text, most)),
        ]
    }

    /// How many of `lines` (at most `most`) a build reads: the vector pass
    /// reads every line, and the lines one by one stop at a token of more
    /// than two digits; the validator's rule takes no block with a leading
    /// zero in the vector pass, and no line with one.
    fn lines_read(
        text: &[u8],
        lines: &[PlainLine],
        most: usize,
        newer: bool,
        canonical: bool,
    ) -> usize {
        // Every token of the block up to its last LF, on lines of three
        // tokens or not.
        let last_newline = text[..BLOCK].iter().rposition(|&b| b == b'\n').unwrap_or(0);
        let tokens: Vec<&[u8]> = text[1..last_newline.max(1)]
            .split(|&b| b == b' ' || b == b'\n')
            .collect();
        let zero_led_block = tokens.iter().any(|token| token.len() > 1 && token[0] == b'0');
        let long_block = tokens.iter().any(|token| token.len() > 2);
        let upto = |stop: &dyn Fn(&PlainLine) -> bool| {
            lines.iter().take(most).take_while(|line| !stop(line)).count()
        };
        match (newer, canonical) {
            (true, false) => upto(&|_| false),
            (false, false) => upto(&|line| line.long),
            (true, true) if !zero_led_block => upto(&|_| false),
            // The vector pass found a leading zero, or there is no vector
            // pass: lines one by one, which the validator's rule allows
            // only with short tokens.
            (_, true) if long_block => 0,
            (_, true) => upto(&|line| line.zero_led),
        }
    }

    proptest! {
        #![proptest_config(crate::property_tests::config())]
        #[test]
        fn blocks_are_read_as_their_lines_read_one_by_one(text in blocks(), most in 1usize..12) {
            let window: &[u8; BLOCK_WINDOW] = text[..].try_into().expect("a window");
            prop_assume!(LineMasks::of(Baseline, window).all_usual());
            let lines = lines_of(&text);
            let reads = read_block::<false>(&text, most)
                .into_iter()
                .map(|read| (read, false))
                .chain(read_block::<true>(&text, most).into_iter().map(|read| (read, true)));
            for ((newer, read, end), canonical) in reads {
                let count = lines_read(&text, &lines, most, newer, canonical);
                let values: Vec<u32> = lines[..count].iter().flat_map(|line| line.values.clone()).collect();
                prop_assert_eq!(&read, &values, "vector pass {}, canonical {}", newer, canonical);
                if count > 0 {
                    prop_assert_eq!(end, lines[count - 1].end);
                }
            }
        }
    }
}
