//! Fuzzes the checker's comparison: any expected and found bytes (split at
//! the first NUL) give a comparison or a complaint about one side.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::format::answers::{Comparison, compare};

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (expected, found) = (&data[..split], &data[split.min(data.len())..]);
    let found = found.strip_prefix(b"\0").unwrap_or(found);
    let _ = compare(expected, found);
    // A file compared with itself is never a wrong answer.
    if let Ok(Comparison::Differs(difference)) = compare(expected, expected) {
        assert!(!difference.is_wrong_result(), "{difference:?}");
    }
});
