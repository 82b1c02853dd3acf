//! The hot loops compiled a second time for newer x86-64 CPUs, and the choice between the two made at run time.
//!
//! Why: the readers and the splitter live on bit tricks (trailing and
//! leading zero counts, population counts, shifts by a variable). With
//! BMI1, BMI2, LZCNT and POPCNT each is one instruction; the baseline x86-64
//! the binary is built for has none of them, and pays two to ten
//! instructions each. And the newer build reads blocks of usual move lines
//! with AVX2 explicitly (`reader::usual_block`), which the baseline build
//! cannot. On one stream, solving runs 71 instructions a move in the newer
//! build and 110 in the baseline one (callgrind on a 21 MB file). A
//! judge's host may be an old CPU or a virtual one that hides them, so the
//! binary cannot require them: it checks.
//!
//! `TICTACTOE_CPU=baseline` in the environment keeps to the baseline code,
//! for a suspected CPU-specific problem and for the tests that hold the two
//! builds of the loops to the same output.

pub mod usual_block;

/// The features the second build of each hot loop is compiled for, as
/// `#[target_feature(enable = ...)]` spells them (which takes no constant).
pub const NEWER_FEATURES: &str = "avx2,bmi1,bmi2,lzcnt,popcnt";

/// Whether this CPU has every one of [`NEWER_FEATURES`], and the
/// environment does not ask for the baseline. Found once.
///
/// Each hot loop is an `#[inline(always)]` function with two callers: a
/// wrapper compiled with `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]`,
/// called when this is true, and a plain one. (A generic wrapper taking a
/// closure would not do: the loop is inlined into the closure first, and
/// the closure, grown large, is then not inlined into the wrapper.)
#[inline]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feature_list_is_the_one_the_wrappers_enable() {
        for source in [
            include_str!("../pipeline/parallel.rs"),
            include_str!("../format/coding_ninjas/split.rs"),
            include_str!("../judging/validate/mod.rs"),
        ] {
            let enable = format!("#[target_feature(enable = \"{NEWER_FEATURES}\")]");
            assert!(source.contains(&enable), "a wrapper enables other features");
        }
    }
}
