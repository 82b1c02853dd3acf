//! The x86-64 builds of the block scans: SSE2, which every x86-64 CPU has, and AVX2.

use super::{BLOCK, ByteMasks, WINDOW};
use std::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmplt_epi8,
    _mm_cvtsi128_si64, _mm_loadl_epi64, _mm_loadu_si128, _mm_madd_epi16, _mm_maddubs_epi16,
    _mm_movemask_epi8, _mm_or_si128, _mm_packus_epi32, _mm_set1_epi16, _mm_set1_epi32,
    _mm_set1_epi8, _mm_shuffle_epi8, _mm_storeu_si128, _mm_sub_epi8, _mm_unpackhi_epi16,
    _mm_unpacklo_epi16, _mm_unpacklo_epi8, _mm256_add_epi8, _mm256_alignr_epi8,
    _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_cvtepu16_epi32,
    _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_mullo_epi16, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_set1_epi16, _mm256_set1_epi8, _mm256_setzero_si256,
    _mm256_storeu_si256, _mm256_subs_epu8, _pdep_u64,
};

/// The masks of the first [`BLOCK`] bytes, 16 at a time: SSE2.
#[inline(always)]
pub(super) fn masks_sse2(bytes: &[u8; BLOCK]) -> ByteMasks {
    let mut masks = ByteMasks::default();
    for lane in 0..BLOCK / 16 {
        let chunk = &bytes[lane * 16..lane * 16 + 16];
        // SAFETY: SSE2 is part of the x86_64 baseline, so the intrinsics are
        // available; `chunk` holds the 16 bytes an unaligned load reads.
        let [digit, whitespace, space, newline] = unsafe {
            let bytes = _mm_loadu_si128(chunk.as_ptr().cast());
            let is = |byte: u8| _mm_cmpeq_epi8(bytes, _mm_set1_epi8(byte as i8));
            // b'0'..=b'9' plus 0x50 wrap to -128..=-119, the only bytes below -118.
            let digit = _mm_cmplt_epi8(
                _mm_add_epi8(bytes, _mm_set1_epi8(0x50)),
                _mm_set1_epi8(-118),
            );
            let (space, newline) = (is(b' '), is(b'\n'));
            let whitespace = _mm_or_si128(
                _mm_or_si128(space, newline),
                _mm_or_si128(is(b'\r'), is(b'\t')),
            );
            [digit, whitespace, space, newline].map(|mask| _mm_movemask_epi8(mask) as u16)
        };
        let shift = lane * 16;
        masks.digits |= u64::from(digit) << shift;
        masks.whitespace |= u64::from(whitespace) << shift;
        masks.spaces |= u64::from(space) << shift;
        masks.newlines |= u64::from(newline) << shift;
    }
    masks
}

/// [`masks_sse2`] with 32 bytes to a step instead of 16.
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn masks_avx2(bytes: &[u8; BLOCK]) -> ByteMasks {
    let mut masks = ByteMasks::default();
    for half in 0..2 {
        // SAFETY: `bytes` holds the 32 bytes read; the caller vouches for AVX2.
        let [digit, whitespace, space, newline] = unsafe {
            let bytes = _mm256_loadu_si256(bytes.as_ptr().add(32 * half).cast::<__m256i>());
            let is = |byte: u8| _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(byte as i8));
            // b'0'..=b'9' plus 0x50 wrap to -128..=-119, the only bytes below -118.
            let digit = _mm256_cmpgt_epi8(
                _mm256_set1_epi8(-118),
                _mm256_add_epi8(bytes, _mm256_set1_epi8(0x50)),
            );
            let (space, newline) = (is(b' '), is(b'\n'));
            let whitespace = _mm256_or_si256(
                _mm256_or_si256(space, newline),
                _mm256_or_si256(is(b'\r'), is(b'\t')),
            );
            [digit, whitespace, space, newline].map(|mask| _mm256_movemask_epi8(mask) as u32)
        };
        let shift = 32 * half;
        masks.digits |= u64::from(digit) << shift;
        masks.whitespace |= u64::from(whitespace) << shift;
        masks.spaces |= u64::from(space) << shift;
        masks.newlines |= u64::from(newline) << shift;
    }
    masks
}

/// Marks a token that ends its line (the player) while tokens are packed.
/// The bytes it marks hold a number's last two digits, below 100, so the
/// high bit is free.
const ENDS_LINE: u8 = 0x80;

/// Bit k set for every k = 2 mod 3: the packed tokens that end their line
/// when every line holds three.
const THIRD_TOKENS: u32 = 0x2492_4924;

/// Values [`take_lines`] may store, whatever it keeps: a block holds at
/// most 31 tokens, and each group of eight bytes stores eight values after
/// the tokens before it, so the last store may reach 31 + 8.
const STORED: usize = 31 + 8;

// The room callers leave past the values kept (at least 3) is what the stores need.
const _: () = assert!(super::SLACK == STORED - 3);

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

/// The digits of a block's tokens, a pair of them a byte: for the token
/// ending at byte i + 1 of the window, byte i of `low` holds the value of
/// its last two digits (with [`ENDS_LINE`] if an LF follows), byte i of
/// `high` that of the two before them, or 0 if it has no more than two.
/// `zeros` has bit i - 1 for a b'0' at byte i, when `CANONICAL`.
/// `upper` holds, for `UPPER` = 2 (tokens of up to eight digits), the
/// pairs two and three before `high`'s (a token's fifth to eighth digits
/// from its end), or 0; it is empty for tokens of up to four.
struct DigitPairs<const UPPER: usize> {
    low: [u8; 64],
    high: [u8; 64],
    upper: [[u8; 64]; UPPER],
    zeros: u64,
}

/// Finds the [`DigitPairs`] of the block in `window`, whose bytes up to
/// the last one that matters are digits and whitespace alone.
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn digit_pairs<const CANONICAL: bool, const UPPER: usize>(
    window: &[u8; WINDOW],
) -> DigitPairs<UPPER> {
    let mut pairs_of = DigitPairs {
        low: [0u8; 64],
        high: [0u8; 64],
        upper: [[0u8; 64]; UPPER],
        zeros: 0,
    };
    // SAFETY: the window holds bytes 0 to 71, and the loads read 0 to 65;
    // the caller vouches for AVX2.
    unsafe {
        let zero = _mm256_set1_epi8(b'0' as i8);
        // `pairs_within` and `within` of the half before: none before byte 1.
        let mut earlier = _mm256_setzero_si256();
        let mut earlier_within = _mm256_setzero_si256();
        for half in 0..2 {
            let at = window.as_ptr().add(32 * half);
            let before = _mm256_loadu_si256(at.cast::<__m256i>());
            let here = _mm256_loadu_si256(at.add(1).cast::<__m256i>());
            if CANONICAL {
                let zero = _mm256_cmpeq_epi8(here, _mm256_set1_epi8(b'0' as i8));
                pairs_of.zeros |= u64::from(_mm256_movemask_epi8(zero) as u32) << (32 * half);
            }
            let after = _mm256_loadu_si256(at.add(2).cast::<__m256i>());
            // Saturating, so whitespace before a digit counts as 0. Times
            // ten in 16-bit lanes: every byte that matters is at most 9, so
            // no product carries into its neighbour.
            let tens = _mm256_mullo_epi16(_mm256_subs_epu8(before, zero), _mm256_set1_epi16(10));
            let pairs = _mm256_add_epi8(_mm256_subs_epu8(here, zero), tens);
            // The bytes that matter are digits and whitespace alone: a
            // digit is any byte above b'/'.
            let is_digit = |bytes| _mm256_cmpgt_epi8(bytes, _mm256_set1_epi8(b'/' as i8));
            // The pairs that are a token's digits and not its last two.
            let within = _mm256_and_si256(is_digit(here), is_digit(after));
            let pairs_within = _mm256_and_si256(pairs, within);
            // The same two bytes later, across the halves' 16-byte lanes:
            // byte i of the result is byte i - 2 of `pairs_within`.
            let lanes = _mm256_permute2x128_si256::<0x03>(pairs_within, earlier);
            let two_before = _mm256_alignr_epi8::<14>(pairs_within, lanes);
            if let [third, fourth] = &mut pairs_of.upper[..] {
                // Four and six bytes before, where every pair between is
                // the token's too.
                let within_lanes = _mm256_permute2x128_si256::<0x03>(within, earlier_within);
                let within_two_before = _mm256_alignr_epi8::<14>(within, within_lanes);
                let within_four_before = _mm256_alignr_epi8::<12>(within, within_lanes);
                let four_before = _mm256_and_si256(
                    _mm256_alignr_epi8::<12>(pairs_within, lanes),
                    within_two_before,
                );
                let six_before = _mm256_and_si256(
                    _mm256_alignr_epi8::<10>(pairs_within, lanes),
                    _mm256_and_si256(within_two_before, within_four_before),
                );
                _mm256_storeu_si256(
                    third.as_mut_ptr().add(32 * half).cast::<__m256i>(),
                    four_before,
                );
                _mm256_storeu_si256(
                    fourth.as_mut_ptr().add(32 * half).cast::<__m256i>(),
                    six_before,
                );
                earlier_within = within;
            }
            earlier = pairs_within;
            let ends_line = _mm256_and_si256(
                _mm256_cmpeq_epi8(after, _mm256_set1_epi8(b'\n' as i8)),
                _mm256_set1_epi8(ENDS_LINE as i8),
            );
            _mm256_storeu_si256(
                pairs_of.low.as_mut_ptr().add(32 * half).cast::<__m256i>(),
                _mm256_or_si256(pairs, ends_line),
            );
            _mm256_storeu_si256(
                pairs_of.high.as_mut_ptr().add(32 * half).cast::<__m256i>(),
                two_before,
            );
        }
    }
    pairs_of
}

/// What [`pack_values`] packed.
struct Packed {
    /// Values stored.
    count: usize,
    /// Bit k for the k-th value stored when an LF follows its token.
    marks: u64,
    /// Whether every token marked was packed.
    all_packed: bool,
}

/// Packs the values of the tokens marked in `ends` (bit i for the token
/// ending at byte i + 1), in order, straight into `out`, eight bytes of
/// [`DigitPairs`] at a time; each is its low pair plus 100 times its high
/// one, plus 10^4 times the value of its upper pairs if it has them. Stops
/// once `most` values are packed.
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn pack_values<const UPPER: usize>(
    pairs: &DigitPairs<UPPER>,
    ends: u64,
    out: &mut [u32; STORED],
    most: usize,
) -> Packed {
    // Nothing is read back from memory: a load spanning stores made at
    // varying offsets just before waits for them to reach the cache. A
    // block holds at most 31 tokens (each takes a digit and a separator,
    // and byte 0 is not a digit), so each store of 8 values lands within
    // `out`; masks that claim more, which no bytes make (the callers' masks
    // are public fields), pack none.
    let ends = if ends.count_ones() <= 31 { ends } else { 0 };
    let mut packed = Packed {
        count: 0,
        marks: 0,
        all_packed: true,
    };
    for group in 0..8 {
        let mask = (ends >> (8 * group)) as u8;
        let held = mask.count_ones() as usize;
        let count = packed.count;
        // SAFETY: 8 bytes are read from `low` and `high` at 8 x `group` <=
        // 56, and 8 values written to `out` at `count` <= 31 (STORED = 31 +
        // 8); the caller vouches for AVX2, which brings SSSE3 and SSE4.1.
        unsafe {
            let pattern = _mm_loadl_epi64(PACK.as_ptr().add(usize::from(mask)).cast::<__m128i>());
            let pack = |bytes: &[u8; 64]| {
                let bytes = _mm_loadl_epi64(bytes.as_ptr().add(8 * group).cast::<__m128i>());
                _mm_shuffle_epi8(bytes, pattern)
            };
            let (low, high) = (pack(&pairs.low), pack(&pairs.high));
            let ended = _mm_movemask_epi8(low) as u32 & ((1 << held) - 1);
            packed.marks |= u64::from(ended) << count;
            let low = _mm_and_si128(low, _mm_set1_epi8(!ENDS_LINE as i8));
            // Byte pairs (low, high) times (1, 100), summed: at most 9999.
            let values = _mm_maddubs_epi16(_mm_unpacklo_epi8(low, high), _mm_set1_epi16(100 << 8 | 1));
            if let [third, fourth] = &pairs.upper[..] {
                // The digits before the last four, the same way, times 10^4.
                let upper = _mm_maddubs_epi16(
                    _mm_unpacklo_epi8(pack(third), pack(fourth)),
                    _mm_set1_epi16(100 << 8 | 1),
                );
                let scale = _mm_set1_epi32(10_000 << 16 | 1);
                let first = _mm_madd_epi16(_mm_unpacklo_epi16(values, upper), scale);
                let second = _mm_madd_epi16(_mm_unpackhi_epi16(values, upper), scale);
                _mm_storeu_si128(out.as_mut_ptr().add(count).cast::<__m128i>(), first);
                _mm_storeu_si128(out.as_mut_ptr().add(count + 4).cast::<__m128i>(), second);
            } else {
                let values = _mm256_cvtepu16_epi32(values);
                _mm256_storeu_si256(out.as_mut_ptr().add(count).cast::<__m256i>(), values);
            }
        }
        packed.count += held;
        // The values asked for are packed, or no token is left: the rest
        // of the groups would pack nothing used (a case of one move asks
        // for one line, and its block holds eight).
        if packed.count >= most {
            packed.all_packed = (ends >> (8 * group) >> 8) == 0;
            break;
        }
        if (ends >> (8 * group) >> 8) == 0 {
            break;
        }
    }
    packed
}

/// Shuffle patterns that move the first `count` bytes of 16 to the end
/// and clear the bytes before them: the 16 entries from index `count`.
static RIGHT_ALIGN: [u8; 32] = {
    let mut table = [0x80; 32];
    let mut at = 16;
    while at < 32 {
        table[at] = (at - 16) as u8;
        at += 1;
    }
    table
};

/// [`super::digits_value`]: the value of the `count` (1 to 16) ASCII
/// digits at the start of `text`. Moved to the end of the register with
/// zeros before them, they combine as pairs, quads and two octets, in
/// lanes whose sums cannot carry (at most 99, 9,999 and 99,999,999).
///
/// # Safety
///
/// The CPU must have SSSE3 and SSE4.1 (AVX2 brings both).
#[inline(always)]
pub(super) unsafe fn digits_value(text: &[u8; 16], count: usize) -> u64 {
    let count = count.clamp(1, 16);
    // SAFETY: `text` holds 16 bytes, and `RIGHT_ALIGN` 16 from `count` <=
    // 16; the caller vouches for the instructions.
    unsafe {
        let text = _mm_loadu_si128(text.as_ptr().cast::<__m128i>());
        let pattern = _mm_loadu_si128(RIGHT_ALIGN.as_ptr().add(count).cast::<__m128i>());
        let digits = _mm_shuffle_epi8(_mm_sub_epi8(text, _mm_set1_epi8(b'0' as i8)), pattern);
        let pairs = _mm_maddubs_epi16(digits, _mm_set1_epi16(1 << 8 | 10));
        let quads = _mm_madd_epi16(pairs, _mm_set1_epi32(1 << 16 | 100));
        let quads = _mm_packus_epi32(quads, quads);
        let octets = _mm_madd_epi16(quads, _mm_set1_epi32(1 << 16 | 10_000));
        let both = _mm_cvtsi128_si64(octets) as u64;
        (both & 0xFFFF_FFFF) * 100_000_000 + (both >> 32)
    }
}

/// [`super::nth_set_bit`] in one instruction.
///
/// # Safety
///
/// The CPU must have BMI2; `k` must be below 64.
#[inline(always)]
pub(super) unsafe fn nth_set_bit(mask: u64, k: u32) -> u32 {
    // SAFETY: the caller vouches for BMI2.
    unsafe { _pdep_u64(1 << k, mask).trailing_zeros() }
}

/// Reads the values of the tokens marked in `ends` (bit i for the token
/// ending at byte i + 1) of the block in `window` into `out`, in order,
/// and returns how many. The block's bytes from 0 to the byte after the
/// last token marked must be digits and whitespace, byte 0 whitespace, and
/// no token of more than four digits, or eight if `WIDE`.
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn take_tokens<const WIDE: bool>(
    window: &[u8; WINDOW],
    ends: u64,
    out: &mut [u32; STORED],
) -> usize {
    // SAFETY: the caller vouches for AVX2.
    unsafe {
        if WIDE {
            pack_values(&digit_pairs::<false, 2>(window), ends, out, STORED).count
        } else {
            pack_values(&digit_pairs::<false, 0>(window), ends, out, STORED).count
        }
    }
}

/// Reads the first lines of the block in `window` (byte 0 an LF, the block
/// [`LineMasks::all_usual`]: tokens of one to four digits) that hold
/// exactly three tokens each, at most
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
#[inline(always)]
pub(super) unsafe fn take_lines<const CANONICAL: bool>(
    window: &[u8; WINDOW],
    masks: &ByteMasks,
    out: &mut [u32],
    most: usize,
) -> (usize, usize) {
    let ByteMasks {
        digits,
        spaces,
        newlines,
        ..
    } = *masks;
    let last_newline = 63 - newlines.leading_zeros() as usize;
    let lines = u64::MAX >> (63 - last_newline);
    // A token ends at byte i when byte i + 1 is a space or an LF; the
    // bytes read start at byte 1 (byte 0 is an LF), so bit i - 1 marks it.
    let ends = (digits & (((spaces | newlines) & lines) >> 1)) >> 1;
    // SAFETY: the caller vouches for AVX2.
    let pairs = unsafe { digit_pairs::<CANONICAL, 0>(window) };
    if CANONICAL {
        // A token's first digit is a 0 with a digit after it.
        let digits_read = digits >> 1;
        let starts = digits_read & !(digits_read << 1);
        if pairs.zeros & starts & (digits_read >> 1) & (lines >> 1) != 0 {
            return (0, 0);
        }
    }
    let out: &mut [u32; STORED] = (&mut out[..STORED]).try_into().expect("STORED values");
    // SAFETY: the caller vouches for AVX2.
    let Packed {
        count,
        marks,
        all_packed,
    } = unsafe { pack_values(&pairs, ends, out, 3 * most) };
    // The lines that hold three tokens each, up to the first that does not.
    let marks = marks as u32;
    let real = (1u64 << count).wrapping_sub(1) as u32;
    let wrong = (marks ^ THIRD_TOKENS) & real;
    let good = if wrong == 0 {
        count
    } else {
        wrong.trailing_zeros() as usize
    } / 3;
    let taken = good.min(most);
    let end = if 3 * taken == count && all_packed {
        last_newline
    } else {
        // The LF that ends line `taken`: clear the LFs before it.
        let mut later = newlines & !1;
        for _ in 1..taken {
            later &= later - 1;
        }
        later.trailing_zeros() as usize
    };
    (taken, end)
}
