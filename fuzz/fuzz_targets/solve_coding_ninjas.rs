//! Fuzzes the Coding Ninjas reader and the engines: any bytes give output or
//! a data error, the output is whole lines, and both engines agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::pipeline::run_stream;
use tictactoe::game::{AfterWin, EngineKind, Rules};
use tictactoe::error::{Error, InputName};

fuzz_target!(|data: &[u8]| {
    for after_win in [AfterWin::Error, AfterWin::Continue, AfterWin::Leetcode] {
        let mut results = Vec::new();
        for engine in [EngineKind::Counter, EngineKind::Scan] {
            let mut out = Vec::new();
            let result = run_stream(data, InputName::Stdin, Rules { after_win, engine }, &mut out);
            assert!(matches!(result, Ok(()) | Err(Error::Data { .. })), "{result:?}");
            assert!(out.is_empty() || out.ends_with(b"\n"));
            results.push((out, result.map_err(|error| error.to_string())));
        }
        assert_eq!(results[0], results[1], "the engines disagree");
    }
});
