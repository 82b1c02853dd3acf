//! Every move line of a usual block read at once, with AVX2, for CPUs that have it.
//!
//! Why: reading a block's lines one by one costs about 55 instructions a
//! move (find the line, find its spaces, read its word, pick out three
//! numbers, check the shape). Here each byte where a token ends gets its
//! number in a vector pass, the tokens are packed in order with a table of
//! shuffles, and one compare of the packed tokens' "ends a line" marks
//! checks that every line holds exactly three. No step looks at a line on
//! its own, and no branch depends on the digits.

use crate::format::bytes::{BLOCK_WINDOW, LineMasks};
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_loadl_epi64, _mm_set1_epi8, _mm_shuffle_epi8,
    _mm_storel_epi64, _mm256_add_epi8, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8,
    _mm256_cvtepu8_epi32, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_mullo_epi16,
    _mm256_or_si256, _mm256_set1_epi8, _mm256_set1_epi16, _mm256_storeu_si256, _mm256_subs_epu8,
};

/// Marks a token that ends its line (the player) while tokens are packed.
/// Numbers are below 100, so the high bit is free.
const ENDS_LINE: u8 = 0x80;

/// Bit k set for every k = 2 mod 3: the packed tokens that end their line
/// when every line holds three.
const THIRD_TOKENS: u32 = 0x2492_4924;

/// Values [`take_lines`] stores, whatever it keeps: a block holds at most
/// 31 tokens, and four stores of 8 with no branch cost less than as many
/// as needed.
const STORED: usize = 32;

/// Room [`take_lines`] needs in `out` past the 3 x `most` values it keeps
/// (which are at least 3).
pub const SLACK: usize = STORED - 3;

/// Entry m is a `pshufb` pattern that moves the bytes at the set bits of m
/// to the front, in order.
static PACK: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut entry, mut packed, mut bit) = (0u64, 0, 0);
        while bit < 8 {
            if mask >> bit & 1 == 1 {
                entry |= (bit as u64) << (8 * packed);
                packed += 1;
            }
            bit += 1;
        }
        table[mask] = entry;
        mask += 1;
    }
    table
};

/// [`LineMasks::of`] with 32 bytes to a step instead of 16.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn masks_of(window: &[u8; BLOCK_WINDOW]) -> LineMasks {
    let mut masks = LineMasks {
        digits: 0,
        spaces: 0,
        newlines: 0,
    };
    for half in 0..2 {
        // SAFETY: the window holds the 32 bytes read; the caller vouches
        // for AVX2.
        let (digit, space, newline) = unsafe {
            let bytes = _mm256_loadu_si256(window.as_ptr().add(32 * half).cast::<__m256i>());
            // b'0'..=b'9' plus 0x50 wrap to -128..=-119, the only bytes below -118.
            let digit = _mm256_cmpgt_epi8(
                _mm256_set1_epi8(-118),
                _mm256_add_epi8(bytes, _mm256_set1_epi8(0x50)),
            );
            let space = _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(b' ' as i8));
            let newline = _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(b'\n' as i8));
            (
                _mm256_movemask_epi8(digit) as u32,
                _mm256_movemask_epi8(space) as u32,
                _mm256_movemask_epi8(newline) as u32,
            )
        };
        masks.digits |= u64::from(digit) << (32 * half);
        masks.spaces |= u64::from(space) << (32 * half);
        masks.newlines |= u64::from(newline) << (32 * half);
    }
    masks
}

/// The block's masks: [`masks_of`] if `AVX2`, else [`LineMasks::of`].
///
/// # Safety
///
/// `AVX2` only if the CPU has AVX2.
#[inline(always)]
pub unsafe fn masks<const AVX2: bool>(window: &[u8; BLOCK_WINDOW]) -> LineMasks {
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        // SAFETY: the caller vouches for AVX2.
        return unsafe { masks_of(window) };
    }
    LineMasks::of(window)
}

/// Reads the first lines of the block in `window` (byte 0 an LF, the block
/// [`LineMasks::all_usual`]) that hold exactly three tokens each, at most
/// `most` of them, into `out` as row, column and player. Returns how many
/// it read and the offset of the LF that ends the last one. Zero lines when
/// the first line does not hold three tokens, and, if `CANONICAL` (the
/// validator's rule), when any number of the block's lines has a leading
/// zero: the caller's line-by-line path then says which line.
///
/// `out` must hold 3 x `most` + [`SLACK`] values, `most` at least 1; what
/// lies past the lines read is overwritten.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn take_lines<const CANONICAL: bool>(
    window: &[u8; BLOCK_WINDOW],
    masks: &LineMasks,
    out: &mut [u32],
    most: usize,
) -> (usize, usize) {
    let LineMasks {
        digits,
        spaces,
        newlines,
    } = *masks;
    let last_newline = 63 - newlines.leading_zeros() as usize;
    let lines = u64::MAX >> (63 - last_newline);
    // A token ends at byte i when byte i + 1 is a space or an LF; the
    // bytes read start at byte 1 (byte 0 is an LF), so bit i - 1 marks it.
    let ends = (digits & (((spaces | newlines) & lines) >> 1)) >> 1;
    let mut numbers = [0u8; 64];
    // Bit i - 1 for a b'0' at byte i, as `ends`.
    let mut zeros = 0u64;
    // SAFETY: the window holds bytes 0 to 71, and the loads read 0 to 65;
    // the caller vouches for AVX2.
    unsafe {
        let zero = _mm256_set1_epi8(b'0' as i8);
        for half in 0..2 {
            let at = window.as_ptr().add(32 * half);
            let before = _mm256_loadu_si256(at.cast::<__m256i>());
            let here = _mm256_loadu_si256(at.add(1).cast::<__m256i>());
            if CANONICAL {
                let zero = _mm256_cmpeq_epi8(here, _mm256_set1_epi8(b'0' as i8));
                zeros |= u64::from(_mm256_movemask_epi8(zero) as u32) << (32 * half);
            }
            let after = _mm256_loadu_si256(at.add(2).cast::<__m256i>());
            // Saturating, so a space or an LF before a digit counts as 0.
            // Times ten in 16-bit lanes: every byte that matters is at most
            // 9, so no product carries into its neighbour.
            let tens = _mm256_mullo_epi16(_mm256_subs_epu8(before, zero), _mm256_set1_epi16(10));
            let number = _mm256_add_epi8(_mm256_subs_epu8(here, zero), tens);
            let ends_line = _mm256_and_si256(
                _mm256_cmpeq_epi8(after, _mm256_set1_epi8(b'\n' as i8)),
                _mm256_set1_epi8(ENDS_LINE as i8),
            );
            _mm256_storeu_si256(
                numbers.as_mut_ptr().add(32 * half).cast::<__m256i>(),
                _mm256_or_si256(number, ends_line),
            );
        }
    }
    if CANONICAL {
        // A token's first digit is a 0 with a digit after it.
        let digits_read = digits >> 1;
        let starts = digits_read & !(digits_read << 1);
        if zeros & starts & (digits_read >> 1) & (lines >> 1) != 0 {
            return (0, 0);
        }
    }
    // Pack the numbers where tokens end, eight bytes at a time. A block
    // holds at most 31 tokens (each takes a digit and a separator, and
    // byte 0 is an LF).
    let mut tokens = [0u8; 64 + 8];
    let mut count = 0;
    for group in 0..8 {
        let mask = (ends >> (8 * group)) as u8;
        // SAFETY: 8 bytes are read from `numbers` at 8 x `group` <= 56, and
        // written to `tokens` at `count` <= 56; SSSE3 comes with AVX2.
        unsafe {
            let bytes = _mm_loadl_epi64(numbers.as_ptr().add(8 * group).cast::<__m128i>());
            let pattern = _mm_loadl_epi64(PACK.as_ptr().add(usize::from(mask)).cast::<__m128i>());
            _mm_storel_epi64(
                tokens.as_mut_ptr().add(count).cast::<__m128i>(),
                _mm_shuffle_epi8(bytes, pattern),
            );
        }
        count += mask.count_ones() as usize;
    }
    // The lines that hold three tokens each, up to the first that does not.
    // SAFETY: `tokens` holds 72 bytes; the caller vouches for AVX2.
    let marks = unsafe { _mm256_movemask_epi8(_mm256_loadu_si256(tokens.as_ptr().cast())) } as u32;
    let real = (1u64 << count).wrapping_sub(1) as u32;
    let wrong = (marks ^ THIRD_TOKENS) & real;
    let good = if wrong == 0 {
        count
    } else {
        wrong.trailing_zeros() as usize
    } / 3;
    let taken = good.min(most);
    let end = if 3 * taken == count {
        last_newline
    } else {
        // The LF that ends line `taken`: clear the LFs before it.
        let mut later = newlines & !1;
        for _ in 1..taken {
            later &= later - 1;
        }
        later.trailing_zeros() as usize
    };
    let out: &mut [u32; STORED] = (&mut out[..STORED]).try_into().expect("STORED values");
    // SAFETY: the caller vouches for AVX2; `tokens` holds 8 bytes from 24
    // and `out` 8 values from 24.
    unsafe {
        let strip = _mm_set1_epi8(!ENDS_LINE as i8);
        for first in (0..STORED).step_by(8) {
            let bytes = _mm_loadl_epi64(tokens.as_ptr().add(first).cast::<__m128i>());
            let values = _mm256_cvtepu8_epi32(_mm_and_si128(bytes, strip));
            _mm256_storeu_si256(out.as_mut_ptr().add(first).cast::<__m256i>(), values);
        }
    }
    (taken, end)
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::format::bytes::BLOCK;
    use proptest::prelude::*;

    /// What [`take_lines`] must find, the plain way: the lines ended by an
    /// LF inside the block, while each holds three tokens.
    fn expected(text: &[u8], most: usize) -> (Vec<u32>, usize) {
        let mut values = Vec::new();
        let mut end = 0;
        let mut start = 1;
        while let Some(length) = text[start..BLOCK].iter().position(|&b| b == b'\n') {
            let tokens: Vec<u32> = text[start..start + length]
                .split(|&b| b == b' ')
                .map(|token| {
                    std::str::from_utf8(token)
                        .expect("digits")
                        .parse()
                        .expect("a number")
                })
                .collect();
            if tokens.len() != 3 || values.len() == 3 * most {
                break;
            }
            values.extend(tokens);
            end = start + length;
            start = end + 1;
        }
        (values, end)
    }

    /// Lines of one- and two-digit tokens, three on most, then any bytes.
    fn blocks() -> impl Strategy<Value = Vec<u8>> {
        let token = prop_oneof![
            (0u32..10).prop_map(|v| v.to_string()),
            (0u32..100).prop_map(|v| format!("{v:02}"))
        ];
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

    proptest! {
        #[test]
        fn the_wide_masks_are_the_narrow_ones(
            text in proptest::collection::vec(
                prop_oneof![any::<u8>(), proptest::sample::select(b"0123456789 \n/:".to_vec())],
                BLOCK_WINDOW,
            ),
        ) {
            prop_assume!(std::is_x86_feature_detected!("avx2"));
            let window: &[u8; BLOCK_WINDOW] = text[..].try_into().expect("a window");
            // SAFETY: AVX2 was detected.
            prop_assert_eq!(unsafe { masks_of(window) }, LineMasks::of(window));
        }

        #[test]
        fn blocks_are_read_as_their_lines_read_one_by_one(text in blocks(), most in 1usize..12) {
            prop_assume!(std::is_x86_feature_detected!("avx2"));
            let window: &[u8; BLOCK_WINDOW] = text[..].try_into().expect("a window");
            let masks = LineMasks::of(window);
            prop_assume!(masks.all_usual());
            let mut out = vec![u32::MAX; 3 * most + SLACK];
            // SAFETY: AVX2 was detected.
            let (taken, end) = unsafe { take_lines::<false>(window, &masks, &mut out, most) };
            let (values, expected_end) = expected(&text, most);
            prop_assert_eq!(&out[..3 * taken], &values[..]);
            if taken > 0 {
                prop_assert_eq!(end, expected_end);
            }
        }
    }
}
