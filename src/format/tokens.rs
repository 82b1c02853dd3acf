//! Plain numbers read from buffered bytes a block at a time as one stream
//! of tokens, whatever whitespace separates them: the vector pass that
//! reads whole short cases and the moves of long games alike.
//!
//! Why: a move is three tokens wherever its line breaks fall. Read as a
//! stream, a block's tokens are found and valued in one pass
//! ([`simd::take_tokens`]), with CRLF, runs of spaces and numbers of up to
//! ten digits (zero-padded ones too) costing little more than single spaces
//! and short numbers do; the line reader before it took only lines of one
//! space between numbers of up to four digits, and anything else went a
//! token at a time.
//!
//! Nothing here decides an error: a block it does not take (a sign, a
//! letter, a token of eleven or more digits or over 2^32 - 1, bytes not
//! yet buffered, short tokens in a build without AVX2, which reads them
//! faster line by line) ends the stream, and the caller's general path
//! reads on from the last token taken.

use crate::format::bytes::{BLOCK_WINDOW, token_value, window_at};
use crate::simd::{self, Cpu, PlainTokens, TOKENS_STORED, TokenDigits};

/// Reads the plain tokens of the block at `bytes[at]`, which must be
/// whitespace, into the front of `out`: how many, and the block's
/// [`PlainTokens`] (its `last` whitespace byte is where the next block
/// starts). `None` when the block is not wholly buffered or not plain, when
/// a token runs past it or does not fit a u32, in a build without AVX2
/// unless a token has nine or ten digits, or when `out` has no
/// [`TOKENS_STORED`] values of room.
#[inline(always)]
pub fn read_block<C: Cpu>(
    cpu: C,
    bytes: &[u8],
    at: usize,
    out: &mut [u32],
) -> Option<(usize, PlainTokens)> {
    let window = window_at(bytes, at)?;
    let tokens = simd::plain_tokens(&simd::byte_masks(cpu, window))?;
    let out = <&mut [u32; TOKENS_STORED]>::try_from(out.get_mut(..TOKENS_STORED)?).ok()?;
    let count = match simd::take_tokens(cpu, window, &tokens, out) {
        Some(count) => count,
        None if tokens.digits == TokenDigits::Ten => take_one_by_one(cpu, window, &tokens, out)?,
        None => return None,
    };
    // Byte 0 the block's only whitespace: a token runs past the block.
    (tokens.last > 0).then_some((count, tokens))
}

/// [`simd::take_tokens`] a token at a time: the path of blocks with tokens
/// of nine or ten digits, in every build. They are few to a block (five or
/// six), and a vector pass that valued ten digits at every byte cost more
/// than taking them one at a time; for short tokens it is the other way
/// round, by far. Each token is valued in vector registers where the
/// build has them ([`simd::digits_value`]), else by [`token_value`].
/// `None` when a value does not fit a u32 (no board reaches that far).
#[inline(always)]
fn take_one_by_one<C: Cpu>(
    cpu: C,
    window: &[u8; BLOCK_WINDOW],
    tokens: &PlainTokens,
    out: &mut [u32; TOKENS_STORED],
) -> Option<usize> {
    let (mut starts, mut ends) = (tokens.starts, tokens.ends);
    let mut count = 0;
    while ends != 0 {
        let (start, end) = (starts.trailing_zeros() as usize, ends.trailing_zeros() as usize);
        // Masks no bytes make (their fields are public) take nothing more.
        if end < start || end - start >= 10 {
            return None;
        }
        // In vector registers, whatever the count: a branch on it would
        // be mispredicted where nine-digit coordinates sit among shorter
        // ones and one-digit players.
        let (first, digits) = (start + 1, end - start + 1);
        let value = simd::digits_value(cpu, window, first, digits)
            .unwrap_or_else(|| token_value(window, first, digits));
        *out.get_mut(count)? = u32::try_from(value).ok()?;
        count += 1;
        starts &= starts - 1;
        ends &= ends - 1;
    }
    Some(count)
}

/// The buffer index of the byte after token `index` of a block read at
/// `at` with these tokens.
#[inline(always)]
pub fn token_end<C: Cpu>(cpu: C, at: usize, tokens: &PlainTokens, index: usize) -> usize {
    // Bit i of `ends` marks a token whose last digit is byte i + 1.
    at + simd::nth_set_bit(cpu, tokens.ends, index as u32) as usize + 2
}

/// Reads up to `want` moves (three tokens each) into `out` from the plain
/// tokens `bytes` holds from `start` on, `bytes[start]` whitespace. Returns
/// how many whole moves it read and the buffer index of the byte after the
/// last one's player; none, and `start`, when the first block is not one
/// it takes. `out` must hold 3 x `want` + [`TOKENS_STORED`] values; what
/// lies past the moves read is overwritten.
#[inline(always)]
pub fn read_moves<C: Cpu>(
    cpu: C,
    bytes: &[u8],
    start: usize,
    out: &mut [u32],
    want: usize,
) -> (usize, usize) {
    let want_tokens = 3 * want;
    let (mut at, mut filled, mut end) = (start, 0, start);
    while filled < want_tokens {
        let Some((count, tokens)) = read_block(cpu, bytes, at, &mut out[filled..]) else {
            break;
        };
        let block_first = filled;
        filled = (filled + count).min(want_tokens);
        let whole = filled - filled % 3;
        if whole > block_first {
            end = token_end(cpu, at, &tokens, whole - 1 - block_first);
        }
        at += tokens.last;
    }
    (filled / 3, end)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::simd::{Kernel, dispatch};
    use proptest::prelude::*;

    /// Runs `read_moves` in the build for this CPU: the moves and the end.
    fn read(bytes: &[u8], start: usize, want: usize) -> (Vec<[u32; 3]>, usize) {
        struct Read<'a>(&'a [u8], usize, &'a mut [u32], usize);
        impl Kernel for Read<'_> {
            type Output = (usize, usize);
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> (usize, usize) {
                read_moves(cpu, self.0, self.1, self.2, self.3)
            }
        }
        let mut out = vec![0; 3 * want + TOKENS_STORED];
        let (got, end) = dispatch(Read(bytes, start, &mut out, want));
        (out[..3 * got].as_chunks::<3>().0.to_vec(), end)
    }

    /// One to six runs of whitespace as test files write it between
    /// tokens, to be used in turn.
    pub fn whitespace_runs() -> impl Strategy<Value = Vec<&'static str>> {
        proptest::collection::vec(
            proptest::sample::select(vec![" ", "\n", "  ", "\r\n", "\t", "\n\n", " \n"]),
            1..7,
        )
    }

    /// The value of a token the stream takes: up to ten digits, fitting a
    /// u32.
    pub fn plain_value(digits: &[u8]) -> Option<u32> {
        let value: u64 = std::str::from_utf8(digits).ok()?.parse().ok()?;
        (digits.len() <= 10).then_some(u32::try_from(value).ok()?)
    }

    /// What the stream must find: the moves of `bytes` from `start`, read
    /// token by token, up to the first token it does not take, and the end
    /// of the last whole one.
    fn read_plainly(bytes: &[u8], start: usize, want: usize) -> (Vec<[u32; 3]>, usize) {
        let (mut values, mut ends) = (Vec::new(), Vec::new());
        let mut at = start;
        while at < bytes.len() && values.len() < 3 * want {
            if bytes[at].is_ascii_digit() {
                let from = at;
                while at < bytes.len() && bytes[at].is_ascii_digit() {
                    at += 1;
                }
                let Some(value) = plain_value(&bytes[from..at]) else {
                    break;
                };
                values.push(value);
                ends.push(at);
            } else if matches!(bytes[at], b' ' | b'\t' | b'\r' | b'\n') {
                at += 1;
            } else {
                break;
            }
        }
        let whole = values.len() / 3;
        let end = if whole == 0 { start } else { ends[3 * whole - 1] };
        (values[..3 * whole].as_chunks::<3>().0.to_vec(), end)
    }

    #[test]
    fn moves_are_read_across_blocks_whatever_separates_them() {
        let mut text = String::from("\n");
        for index in 0..40u32 {
            let separator = ["  ", "\r\n", "\t", "\n"][index as usize % 4];
            text += &format!("{}{separator}{} {}\n", index * 2_654_435 % 99_999_999, index, 1 + index % 2);
        }
        let mut bytes = text.into_bytes();
        let buffered = bytes.len();
        // The window a block needs past its last byte, and the LF that
        // ends the last move.
        bytes.resize(buffered + 72, b'x');
        let (moves, end) = read(&bytes, 0, 30);
        if !simd::has_newer_features() {
            assert_eq!((moves.len(), end), (0, 0));
            return;
        }
        assert_eq!((moves.clone(), end), read_plainly(&bytes[..buffered], 0, 30));
        assert_eq!(moves.len(), 30);
        assert_eq!(moves[3], [7_963_305, 3, 2]);
        // All of them: what follows the LF after the last is no token.
        assert_eq!(read(&bytes, 0, 256), read_plainly(&bytes[..buffered], 0, 256));
        assert_eq!(read(&bytes, 0, 256).1, buffered - 1);
    }

    #[test]
    fn a_block_with_a_sign_ends_the_stream_at_the_last_whole_move_before_it() {
        let mut bytes = b"\n1 2 1\n3 4 2\n5 6".to_vec();
        bytes.resize(64, b' ');
        bytes.extend_from_slice(b"-1 2 1\n");
        bytes.resize(200, b' ');
        let (moves, end) = read(&bytes, 0, 10);
        if simd::has_newer_features() {
            assert_eq!(moves, [[1, 2, 1], [3, 4, 2]]);
            assert_eq!(end, 12);
        } else {
            assert_eq!((moves.len(), end), (0, 0));
        }
    }

    #[test]
    fn zero_padded_numbers_are_read_one_by_one_in_every_build() {
        let mut text = String::from("\n");
        for index in 0..12u32 {
            text += &format!("{:010} {:010} {:010}\r\n", index * 7, 4_294_967_295 - index, 1);
        }
        let mut bytes = text.into_bytes();
        let buffered = bytes.len();
        bytes.resize(buffered + 72, b' ');
        let (moves, end) = read(&bytes, 0, 10);
        assert_eq!((moves.clone(), end), read_plainly(&bytes[..buffered], 0, 10));
        assert_eq!(moves.len(), 10);
        assert_eq!(moves[9], [63, 4_294_967_286, 1]);
        // A value past u32 ends the stream before its block.
        let mut bytes = b"\n0000000001 0000000002 0000000001\n".to_vec();
        bytes.resize(64, b' ');
        bytes.extend_from_slice(b"\n0000000003 4294967296 0000000001\n");
        bytes.resize(200, b' ');
        assert_eq!(read(&bytes, 0, 10), (vec![[1, 2, 1]], 33));
    }

    #[test]
    fn masks_no_bytes_make_take_nothing_and_do_not_panic() {
        struct Take(PlainTokens);
        impl Kernel for Take {
            type Output = Option<usize>;
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> Option<usize> {
                let window = [b'7'; BLOCK_WINDOW];
                take_one_by_one(cpu, &window, &self.0, &mut [0; TOKENS_STORED])
            }
        }
        for (starts, ends) in [(u64::MAX, u64::MAX), (0, u64::MAX), (u64::MAX, 1 << 63), (1 << 5, 1)] {
            let tokens = PlainTokens { starts, ends, last: 63, digits: TokenDigits::Ten };
            assert_eq!(Take(tokens).run(crate::simd::Baseline), None);
            assert_eq!(dispatch(Take(tokens)), None);
        }
    }

    proptest! {
        #![proptest_config(crate::property_tests::config())]
        #[test]
        fn the_stream_reads_what_reading_token_by_token_reads(
            values in proptest::collection::vec(
                prop_oneof![0u32..10, 0u32..10_000, 0u32..100_000_000, any::<u32>()],
                0..400,
            ),
            separators in whitespace_runs(),
            oddity in proptest::option::of((0usize..3000, proptest::sample::select(vec![
                "-", "x", "+5", "0", "123456789", "0000000007", "4294967295", "4294967296",
                "9999999999", "12345678901",
            ]))),
            padded in any::<bool>(),
            want in 1usize..300,
            start in 0usize..3,
        ) {
            let mut text = String::from(" \n\r");
            for (value, separator) in values.iter().zip(separators.iter().cycle()) {
                text += &if padded { format!("{value:010}") } else { value.to_string() };
                text += separator;
            }
            if let Some((at, odd)) = oddity {
                let at = at.min(text.len()).max(3);
                text.insert_str(at, odd);
            }
            let mut bytes = text.into_bytes();
            let buffered = bytes.len();
            bytes.resize(buffered + 72, b'y');
            let (moves, end) = read(&bytes, start, want);
            let (plain, plain_end) = read_plainly(&bytes[..buffered], start, want);
            // Every move it reads is read right, in every build.
            prop_assert!(moves.len() <= plain.len());
            prop_assert_eq!(&moves[..], &plain[..moves.len()]);
            if moves.len() == plain.len() {
                prop_assert_eq!(end, plain_end);
            } else if !moves.is_empty() {
                prop_assert_eq!(end, read_plainly(&bytes[..buffered], start, moves.len()).1);
            } else {
                prop_assert_eq!(end, start);
            }
            // With AVX2 it reads all of them, unless something it does
            // not take comes first or the last block is not wholly
            // buffered.
            if simd::has_newer_features() && oddity.is_none() && plain_end + 72 <= buffered {
                prop_assert_eq!(moves.len(), plain.len());
            }
        }
    }
}
