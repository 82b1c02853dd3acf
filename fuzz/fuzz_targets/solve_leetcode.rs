//! Fuzzes the LeetCode reader and validator: any bytes give output or a
//! data error, the output is whole lines, and a transcript the validator
//! calls valid is one the solver solves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::pipeline::run_stream_as;
use tictactoe::format::Format;
use tictactoe::game::{AfterWin, EngineKind, Rules};
use tictactoe::error::{Error, InputName};
use tictactoe::game::Limits;
use tictactoe::judging::validate::leetcode::validate_leetcode;

fuzz_target!(|data: &[u8]| {
    let mut solved_by_default = None;
    for after_win in [AfterWin::Error, AfterWin::Continue, AfterWin::Leetcode] {
        let rules = Rules { after_win, engine: EngineKind::Counter };
        let mut out = Vec::new();
        let result = run_stream_as(data, InputName::Stdin, Some(Format::Leetcode), rules, &mut out);
        assert!(matches!(result, Ok(()) | Err(Error::Data { .. })), "{result:?}");
        assert!(out.is_empty() || out.ends_with(b"\n"));
        solved_by_default.get_or_insert(result.is_ok());
    }
    let report = validate_leetcode(data, &Limits::default(), 20).expect("reading memory cannot fail");
    if report.is_valid() {
        assert_eq!(solved_by_default, Some(true), "valid but unsolvable");
    }
});
