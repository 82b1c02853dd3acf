//! Fuzzes splitting: solving and validating an input cut into parts of whole
//! cases on several threads gives exactly the output, error and report of
//! reading it as one stream. The first byte picks the part size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::game::{AfterWin, BoardSize, EngineKind, Rules, TicTacToe};
use tictactoe::error::InputName;
use tictactoe::pipeline::parallel::{self, Split};
use tictactoe::game::Limits;
use tictactoe::judging::validate::validate_split;

fn solve(data: &[u8], rules: Rules, split: Split) -> (Vec<u8>, Option<String>) {
    let mut out = Vec::new();
    let mut game = TicTacToe::with_rules(BoardSize::MIN, rules);
    let result = parallel::solve(data, InputName::Stdin, &mut game, &mut out, split);
    (out, result.err().map(|error| error.to_string()))
}

fuzz_target!(|data: &[u8]| {
    let Some((&size, data)) = data.split_first() else {
        return;
    };
    let stream = Split { workers: 1, part_bytes: 1 };
    let split = Split { workers: 2, part_bytes: usize::from(size) + 1 };
    for after_win in [AfterWin::Error, AfterWin::Leetcode] {
        let rules = Rules { after_win, engine: EngineKind::Counter };
        assert_eq!(solve(data, rules, split), solve(data, rules, stream), "solve");
    }
    let limits = Limits { max_t: 1000, max_n: 1000, min_q: 0, ..Limits::default() };
    for max_errors in [1, 5] {
        let split = validate_split(data, &limits, max_errors, split).map_err(|e| e.to_string());
        let stream = validate_split(data, &limits, max_errors, stream).map_err(|e| e.to_string());
        assert_eq!(split, stream, "validate");
    }
});
