//! Fuzzes the strict validator: any bytes give a report, and a file it calls
//! valid is one the solver solves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tictactoe::pipeline::run_stream;
use tictactoe::game::Rules;
use tictactoe::error::InputName;
use tictactoe::game::Limits;
use tictactoe::judging::validate::validate;

fuzz_target!(|data: &[u8]| {
    let report = validate(data, &Limits::default(), 20).expect("reading memory cannot fail");
    if report.is_valid() {
        let mut out = Vec::new();
        let solved = run_stream(data, InputName::Stdin, Rules::default(), &mut out);
        assert!(solved.is_ok(), "valid but unsolvable: {solved:?}");
    }
});
