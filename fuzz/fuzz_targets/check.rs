//! Fuzzes the checker's comparison: any expected and found bytes (split at
//! the first NUL) give a comparison or a complaint about one side, in
//! either mode; a file compared with itself is never a wrong answer; and
//! what the line-for-line mode calls the same, the token mode does too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::format::answers::{Comparison, Mode, compare};

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (expected, found) = (&data[..split], &data[split.min(data.len())..]);
    let found = found.strip_prefix(b"\0").unwrap_or(found);
    let by_lines = compare(expected, found, Mode::Lines);
    let by_tokens = compare(expected, found, Mode::Tokens);
    if let Ok(Comparison::Same { cases, results }) = by_lines {
        // Token mode counts no cases; the results are the same ones.
        assert!(
            matches!(by_tokens, Ok(Comparison::Same { results: r, .. }) if r == results),
            "same by lines ({cases} cases, {results} results), by tokens {by_tokens:?}"
        );
    }
    for mode in [Mode::Lines, Mode::Tokens] {
        if let Ok(Comparison::Differs(difference)) = compare(expected, expected, mode) {
            assert!(!difference.is_wrong_result(), "{mode:?}: {difference:?}");
        }
    }
});
