//! The only module with `unsafe`, `cfg(target_arch)` or `target_feature`:
//! the block scans the readers live on, behind safe functions, each with a
//! plain path the tests hold it to.
//!
//! Why: the readers and the splitter live on bit tricks (trailing and
//! leading zero counts, population counts, shifts by a variable) and on
//! classifying 64 bytes at once. With BMI1, BMI2, LZCNT and POPCNT each bit
//! trick is one instruction, which the baseline x86-64 the binary is built
//! for lacks; with AVX2 a block of usual move lines is read in one vector
//! pass. A judge's host may be an old CPU or a virtual one that hides them,
//! so the binary cannot require them: [`dispatch`] checks once, and runs a
//! hot loop ([`Kernel`]) compiled for the CPU found. The loop learns which
//! build it is in from its [`Cpu`] type, and only a [`Newer`] value, which
//! nothing outside this module can make, lets it reach the AVX2 paths.
//!
//! `TICTACTOE_CPU=baseline` in the environment keeps to the baseline build,
//! for a suspected CPU-specific problem and for the tests that hold the two
//! builds to the same output.

#[cfg(target_arch = "x86_64")]
mod x86;

/// Bytes classified at once.
pub const BLOCK: usize = 64;

/// Bytes that must be buffered from a block's start: a token's 8-byte word
/// may begin at the block's last byte.
pub const WINDOW: usize = BLOCK + 8;

/// Values [`take_usual_lines`] may store past the last line it reads: room
/// its caller leaves at the end of `out`.
pub const SLACK: usize = 36;

/// Where the bytes of a block are digits, whitespace (space, tab, CR, LF),
/// spaces (b' ' alone) and LFs: bit i for byte i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteMasks {
    /// ASCII digits.
    pub digits: u64,
    /// Space, tab, CR and LF: the input formats' whitespace.
    pub whitespace: u64,
    /// b' ' alone.
    pub spaces: u64,
    /// b'\n'.
    pub newlines: u64,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Baseline {}
    impl Sealed for super::Newer {}
}

/// The CPU a hot loop is compiled for: [`Baseline`] or [`Newer`].
pub trait Cpu: Copy + sealed::Sealed {
    /// Whether this is the build for CPUs with AVX2, BMI1, BMI2, LZCNT and POPCNT.
    // Read only by x86-64's paths.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    const NEWER: bool;
}

/// Any x86-64 CPU (or any other architecture): no feature beyond the target's own.
#[derive(Clone, Copy, Debug)]
pub struct Baseline;

/// Proof that the CPU has AVX2, BMI1, BMI2, LZCNT and POPCNT: only
/// [`dispatch`] makes one, after checking.
#[derive(Clone, Copy, Debug)]
// Made only on x86-64.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub struct Newer {
    _checked: (),
}

impl Cpu for Baseline {
    const NEWER: bool = false;
}

impl Cpu for Newer {
    const NEWER: bool = true;
}

/// A hot loop, compiled once for each [`Cpu`] and chosen at run time by [`dispatch`].
pub trait Kernel {
    /// What the loop gives back.
    type Output;
    /// Runs the loop. Implementations are `#[inline(always)]`, so that the
    /// loop is compiled into each build with that build's features.
    fn run<C: Cpu>(self, cpu: C) -> Self::Output;
}

/// Runs `kernel` in the build for this CPU: [`Newer`] when it has the
/// features and the environment does not ask for the baseline.
#[inline]
pub fn dispatch<K: Kernel>(kernel: K) -> K::Output {
    if has_newer_features() {
        // Elsewhere than x86-64 no CPU has them: the baseline runs.
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has every feature `run_newer` is compiled for.
        return unsafe { run_newer(kernel) };
    }
    run_baseline(kernel)
}

/// [`dispatch`]'s baseline build, in a frame of its own. Inlined into
/// `dispatch`, its locals (a short-case run's 16 KB of tokens among them)
/// sat in `dispatch`'s frame under the newer build's as well: twice the
/// stack a solve needs.
#[inline(never)]
fn run_baseline<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Baseline)
}

/// [`dispatch`]'s newer build. (A generic wrapper taking a closure would not
/// do: the loop is inlined into the closure first, and the closure, grown
/// large, is then not inlined into the wrapper. A trait method marked
/// `#[inline(always)]` is inlined here directly.)
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn run_newer<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Newer { _checked: () })
}

/// Whether this CPU has every feature of the newer build, and the
/// environment does not ask for the baseline. Found once.
pub fn has_newer_features() -> bool {
    static CHOICE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CHOICE.get_or_init(|| {
        std::env::var_os("TICTACTOE_CPU").is_none_or(|choice| choice != "baseline") && detected()
    })
}

#[cfg(target_arch = "x86_64")]
fn detected() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn detected() -> bool {
    false
}

/// The masks of the first [`BLOCK`] bytes of `bytes`: AVX2 in the newer
/// build, SSE2 in the baseline one on x86-64, byte by byte elsewhere.
#[inline(always)]
pub fn byte_masks<C: Cpu, const N: usize>(cpu: C, bytes: &[u8; N]) -> ByteMasks {
    let _ = cpu;
    const { assert!(N >= BLOCK, "a block scan needs a whole block") };
    let Some(block) = bytes.first_chunk::<BLOCK>() else {
        unreachable!("N is at least BLOCK")
    };
    #[cfg(target_arch = "x86_64")]
    {
        if C::NEWER {
            // SAFETY: a `Newer` value exists only on a CPU with AVX2.
            return unsafe { x86::masks_avx2(block) };
        }
        x86::masks_sse2(block)
    }
    #[cfg(not(target_arch = "x86_64"))]
    byte_masks_plain(block)
}

/// [`byte_masks`], byte by byte: the portable path, and the tests' oracle.
#[cfg(any(test, not(target_arch = "x86_64")))]
pub fn byte_masks_plain(block: &[u8; BLOCK]) -> ByteMasks {
    let bit = |i: usize, yes: bool| u64::from(yes) << i;
    block
        .iter()
        .enumerate()
        .fold(ByteMasks::default(), |masks, (i, &byte)| ByteMasks {
            digits: masks.digits | bit(i, byte.is_ascii_digit()),
            whitespace: masks.whitespace | bit(i, matches!(byte, b' ' | b'\n' | b'\r' | b'\t')),
            spaces: masks.spaces | bit(i, byte == b' '),
            newlines: masks.newlines | bit(i, byte == b'\n'),
        })
}

/// Reads, in one vector pass, the first lines of the block in `window` that
/// hold exactly three tokens each, at most `most` of them, into `out` as
/// row, column and player; the block (byte 0 an LF) must have been found
/// usual by the caller: nothing but digits, single spaces and LFs, no token
/// of more than four digits, one digit before each LF. Returns how many
/// lines it read and the offset of the LF that ends the last one; zero
/// lines when the first line does not hold three tokens and, if
/// `CANONICAL`, when any number of the block's lines has a leading zero.
///
/// `None` in a build without AVX2: the caller reads the lines one by one.
/// `out` must hold 3 x `most` + [`SLACK`] values, `most` at least 1; what
/// lies past the lines read is overwritten.
#[inline(always)]
pub fn take_usual_lines<C: Cpu, const CANONICAL: bool>(
    cpu: C,
    window: &[u8; WINDOW],
    masks: &ByteMasks,
    out: &mut [u32],
    most: usize,
) -> Option<(usize, usize)> {
    let _ = cpu;
    #[cfg(target_arch = "x86_64")]
    if C::NEWER && out.len() >= 3 * most + SLACK && most > 0 {
        // SAFETY: a `Newer` value exists only on a CPU with AVX2; `out`
        // has the room the function writes into.
        return Some(unsafe { x86::take_lines::<CANONICAL>(window, masks, out, most) });
    }
    let _ = (window, masks, out, most);
    None
}

/// Values [`take_tokens`] may store: the room its `out` has.
pub const TOKENS_STORED: usize = SLACK + 3;

/// The most digits a block's plain tokens have: how far back from each
/// token's end [`take_tokens`] looks, or, for [`TokenDigits::Ten`], that
/// it leaves them to be read one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenDigits {
    /// Up to four: boards up to 10^4.
    Four,
    /// Up to eight: boards up to 10^8.
    Eight,
    /// Up to ten: boards up to 10^9, and numbers padded with zeros to ten
    /// digits.
    Ten,
}

/// The plain tokens of a block, found by [`plain_tokens`]: what
/// [`take_tokens`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainTokens {
    /// Bit i for the token whose first digit is byte i + 1.
    pub starts: u64,
    /// Bit i for the token whose last digit is byte i + 1.
    pub ends: u64,
    /// The index of the block's last whitespace byte, after the last token.
    pub last: usize,
    /// The most digits a token has.
    pub digits: TokenDigits,
}

/// Reads the values of the tokens of the block in `window` that `tokens`
/// marks, in order, into the front of `out`; returns how many. `tokens`
/// must be [`plain_tokens`]'s for this block.
///
/// `None` in a build without AVX2, and for tokens of nine or ten digits
/// ([`TokenDigits::Ten`]), which are few to a block: the caller reads
/// them another way.
#[inline(always)]
pub fn take_tokens<C: Cpu>(
    cpu: C,
    window: &[u8; WINDOW],
    tokens: &PlainTokens,
    out: &mut [u32; TOKENS_STORED],
) -> Option<usize> {
    let _ = cpu;
    #[cfg(target_arch = "x86_64")]
    if C::NEWER {
        // SAFETY: a `Newer` value exists only on a CPU with AVX2; `out`
        // has the room the function writes into.
        return unsafe {
            match tokens.digits {
                TokenDigits::Four => Some(x86::take_tokens::<false>(window, tokens.ends, out)),
                TokenDigits::Eight => Some(x86::take_tokens::<true>(window, tokens.ends, out)),
                TokenDigits::Ten => None,
            }
        };
    }
    let _ = (window, tokens, out);
    None
}

/// The tokens [`take_tokens`] may read from a block with these masks, up
/// to its last whitespace byte. `None` unless byte 0 is whitespace and
/// every byte up to that last one is a digit or whitespace, with no run of
/// more than ten digits.
#[inline(always)]
pub fn plain_tokens(masks: &ByteMasks) -> Option<PlainTokens> {
    let ByteMasks {
        digits, whitespace, ..
    } = *masks;
    if whitespace & 1 == 0 {
        return None;
    }
    let last = 63 - whitespace.leading_zeros() as usize;
    let region = u64::MAX >> (63 - last);
    // Bit i where bytes i to i + 4 (i + 8, i + 10) are digits.
    let five_digits = digits & (digits >> 1) & (digits >> 2) & (digits >> 3) & (digits >> 4);
    let nine_digits = five_digits & (five_digits >> 4);
    let eleven_digits = nine_digits & (nine_digits >> 2);
    if (digits | whitespace) & region != region || eleven_digits & (region >> 10) != 0 {
        return None;
    }
    let digits_most = if nine_digits & (region >> 8) != 0 {
        TokenDigits::Ten
    } else if five_digits & (region >> 4) != 0 {
        TokenDigits::Eight
    } else {
        TokenDigits::Four
    };
    Some(PlainTokens {
        starts: (digits & (whitespace << 1) & region) >> 1,
        ends: (digits & ((whitespace & region) >> 1)) >> 1,
        last,
        digits: digits_most,
    })
}

/// The index of the set bit of `mask` that has `k` set bits below it; 64
/// when `mask` has no more than `k`. One instruction (`pdep`) in the newer
/// build.
#[inline(always)]
pub fn nth_set_bit<C: Cpu>(cpu: C, mask: u64, k: u32) -> u32 {
    let _ = cpu;
    if k >= 64 {
        return 64;
    }
    #[cfg(target_arch = "x86_64")]
    if C::NEWER {
        // SAFETY: a `Newer` value exists only on a CPU with BMI2.
        return unsafe { x86::nth_set_bit(mask, k) };
    }
    nth_set_bit_plain(mask, k)
}

/// [`nth_set_bit`], a bit at a time: the portable path, and the tests' oracle.
#[inline(always)]
pub fn nth_set_bit_plain(mut mask: u64, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask.wrapping_sub(1);
    }
    mask.trailing_zeros()
}

/// The value of the `count` (1 to 16) ASCII digits at `bytes[start]`, in
/// a few vector instructions with one scalar multiply, where the scalar
/// way takes four multiplies in a row for ten digits.
///
/// `None` in a build without AVX2 (which brings the SSSE3 and SSE4.1 it
/// uses), for a `count` out of range, and when `bytes` has fewer than 16
/// bytes from `start` on: the caller values the digits another way.
#[inline(always)]
pub fn digits_value<C: Cpu>(cpu: C, bytes: &[u8], start: usize, count: usize) -> Option<u64> {
    let _ = cpu;
    #[cfg(target_arch = "x86_64")]
    if C::NEWER && (1..=16).contains(&count) {
        let text = bytes.get(start..start.checked_add(16)?)?.try_into().ok()?;
        // SAFETY: a `Newer` value exists only on a CPU with AVX2.
        return Some(unsafe { x86::digits_value(text, count) });
    }
    let _ = (bytes, start, count);
    None
}

/// [`digits_value`], a digit at a time: the tests' oracle.
#[cfg(test)]
fn digits_value_plain(bytes: &[u8], start: usize, count: usize) -> u64 {
    bytes[start..start + count]
        .iter()
        .fold(0, |value, &digit| value * 10 + u64::from(digit - b'0'))
}

/// Asks the CPU to bring `slots[index]` into its cache, without waiting for
/// it: a hint that lets a loop start the cache misses of the next items of
/// a large table while it works on this one. Does nothing where x86-64's
/// prefetch instruction is missing, or when `index` is past the end.
#[inline(always)]
pub fn prefetch<T>(slots: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(slot) = slots.get(index) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE, which the instruction needs, is part of x86-64; and
        // a prefetch reads nothing the program sees (the address is in
        // bounds anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(slot).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slots, index);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every build this machine can run.
    fn each_build(mut check: impl FnMut(&dyn Fn(&[u8; BLOCK]) -> ByteMasks)) {
        check(&|block| byte_masks(Baseline, block));
        struct Masks<'a>(&'a [u8; BLOCK]);
        impl Kernel for Masks<'_> {
            type Output = ByteMasks;
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> ByteMasks {
                byte_masks(cpu, self.0)
            }
        }
        check(&|block| dispatch(Masks(block)));
    }

    /// `out` with room after it that no call may touch.
    #[repr(C)]
    struct Guarded<const N: usize> {
        out: [u32; N],
        after: [u32; 64],
    }

    #[test]
    fn masks_no_bytes_make_write_nothing_past_the_values_room() {
        struct Take(PlainTokens, ByteMasks);
        impl Kernel for Take {
            type Output = bool;
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> bool {
                let window = [b'7'; WINDOW];
                let mut tokens = Guarded { out: [0; TOKENS_STORED], after: [0; 64] };
                let _ = take_tokens(cpu, &window, &self.0, &mut tokens.out);
                let mut lines = Guarded { out: [0; 3 + SLACK], after: [0; 64] };
                let _ = take_usual_lines::<C, false>(cpu, &window, &self.1, &mut lines.out, 1);
                tokens.after == [0; 64] && lines.after == [0; 64]
            }
        }
        for digits in [TokenDigits::Four, TokenDigits::Eight, TokenDigits::Ten] {
            let tokens = PlainTokens { starts: u64::MAX, ends: u64::MAX, last: 63, digits };
            let masks = ByteMasks { digits: u64::MAX, whitespace: u64::MAX, spaces: u64::MAX, newlines: u64::MAX };
            assert!(dispatch(Take(tokens, masks)));
        }
    }

    /// [`digits_value`] in the build for this CPU.
    fn digits_value_here(bytes: &[u8], start: usize, count: usize) -> Option<u64> {
        struct Value<'a>(&'a [u8], usize, usize);
        impl Kernel for Value<'_> {
            type Output = Option<u64>;
            #[inline(always)]
            fn run<C: Cpu>(self, cpu: C) -> Option<u64> {
                digits_value(cpu, self.0, self.1, self.2)
            }
        }
        dispatch(Value(bytes, start, count))
    }

    #[test]
    fn digits_are_valued_in_vector_registers_only_with_sixteen_bytes_to_load() {
        let text = b" 0000004960 9999999999999999 7 ";
        if has_newer_features() {
            assert_eq!(digits_value_here(text, 1, 10), Some(4960));
            assert_eq!(digits_value_here(text, 12, 16), Some(9_999_999_999_999_999));
            assert_eq!(digits_value_here(text, 12, 3), Some(999));
            // Sixteen bytes from the start, digits or not, must be there.
            assert_eq!(digits_value_here(text, 15, 10), Some(9_999_999_999));
            assert_eq!(digits_value_here(text, 16, 1), None);
        }
        // No count the vector path cannot value, in any build.
        assert_eq!(digits_value_here(text, 1, 0), None);
        assert_eq!(digits_value_here(text, 1, 17), None);
        assert_eq!(digits_value_here(text, usize::MAX, 1), None);
        // The baseline build leaves every token to the scalar path.
        assert_eq!(digits_value(Baseline, text, 1, 10), None);
    }

    proptest! {
        #![proptest_config(crate::property_tests::config())]
        #[test]
        fn every_build_finds_the_nth_set_bit_as_the_plain_path_does(mask in any::<u64>(), k in 0u32..70) {
            struct Nth(u64, u32);
            impl Kernel for Nth {
                type Output = u32;
                #[inline(always)]
                fn run<C: Cpu>(self, cpu: C) -> u32 {
                    nth_set_bit(cpu, self.0, self.1)
                }
            }
            let plain = if k < 64 { nth_set_bit_plain(mask, k) } else { 64 };
            prop_assert_eq!(nth_set_bit(Baseline, mask, k), plain);
            prop_assert_eq!(dispatch(Nth(mask, k)), plain);
            if k < mask.count_ones() {
                prop_assert_eq!((mask & ((1u64 << plain) - 1)).count_ones(), k);
                prop_assert_eq!(mask >> plain & 1, 1);
            } else {
                prop_assert_eq!(plain, 64);
            }
        }

        #[test]
        fn every_build_values_digits_as_the_plain_path_does(
            digits in proptest::collection::vec(b'0'..=b'9', 1..=16),
            before in proptest::collection::vec(any::<u8>(), 0..4),
            after in proptest::collection::vec(any::<u8>(), 16),
        ) {
            let text = [&before[..], &digits, &after].concat();
            let (start, count) = (before.len(), digits.len());
            let plain = digits_value_plain(&text, start, count);
            if has_newer_features() {
                prop_assert_eq!(digits_value_here(&text, start, count), Some(plain));
            } else {
                prop_assert_eq!(digits_value_here(&text, start, count), None);
            }
        }

        #[test]
        fn every_build_classifies_bytes_as_the_plain_path_does(
            text in proptest::collection::vec(
                prop_oneof![any::<u8>(), proptest::sample::select(b"0123456789 \n\r\t/:".to_vec())],
                BLOCK,
            ),
        ) {
            let block: &[u8; BLOCK] = text[..].try_into().expect("a block");
            let plain = byte_masks_plain(block);
            each_build(|masks| assert_eq!(masks(block), plain));
        }
    }
}
