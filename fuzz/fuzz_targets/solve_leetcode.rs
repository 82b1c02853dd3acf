//! Fuzzes the LeetCode reader: any bytes give output or a data error, and the
//! output is whole lines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::cmd::solve::run_stream_as;
use tictactoe::config::InputFormat;
use tictactoe::engine::{AfterWin, EngineKind, Rules};
use tictactoe::error::{Error, InputName};

fuzz_target!(|data: &[u8]| {
    for after_win in [AfterWin::Error, AfterWin::Continue, AfterWin::Leetcode] {
        let rules = Rules { after_win, engine: EngineKind::Counter };
        let mut out = Vec::new();
        let result = run_stream_as(data, InputName::Stdin, InputFormat::Leetcode, rules, &mut out);
        assert!(matches!(result, Ok(()) | Err(Error::Data { .. })), "{result:?}");
        assert!(out.is_empty() || out.ends_with(b"\n"));
    }
});
