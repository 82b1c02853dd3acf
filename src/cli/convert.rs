//! `convert`: rewrite an input in the other format without changing its meaning, so judges can move a problem between platforms.
//!
//! The input's format is detected unless the command line names it; an
//! input of only whitespace (up to the detection's limit, 1 MiB) is read in
//! the other format than the one written, so that the empty LeetCode file
//! that T = 0 becomes converts back to T = 0. Converting a file to
//! its own format gives its canonical form. Canonical forms:
//!
//! - Coding Ninjas: T, then per case N, Q and one `ROW COL PLAYER` line per
//!   move, each on its own line;
//! - LeetCode: per test case the two arrays on two lines, without spaces, and
//!   a blank line between test cases.
//!
//! Only the format is checked: moves that the solver would refuse (a taken
//! cell, a bad player) are carried over as they are, so a file meant to fail
//! fails the same way in either format.

use super::{FormatArg, ToArg};
use crate::error::Error;
use crate::files::{InputSource, OutputTarget};
use crate::format::Format;
use crate::format::cases::{self, OpenCases};
use crate::files::Held;
use crate::format::write::LeetcodeTranscript;
use clap::Args;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

pub(super) const CONVERT_HELP: &str = "\
The input's format is detected (LeetCode when its first non-whitespace byte
is `[`; an input of only whitespace, up to 1 MiB, as the format it is not
converted to, so that T = 0 comes back from its empty LeetCode file), or
named with --from; a file converted to its own format comes out in its
canonical form. Only the format is checked: moves the solver would refuse
are kept as they are.

Examples (they work in any folder):
  tictactoe gen --seed 1 --cases 2 > in.txt
  tictactoe convert --to leetcode in.txt -o in.json    # [\"TicTacToe\",...] lines
  tictactoe convert --to coding-ninjas in.json | cmp - in.txt    # and back

Exit status: 0 success, 2 usage error, 65 data error (with line and column),
66 the input cannot be opened, 71 a memory limit too small for the board, 74
an I/O error.";

#[derive(Debug, Args)]
pub(super) struct ConvertArgs {
    /// The format to write.
    #[arg(long, value_enum)]
    to: ToArg,
    /// The input's format [default: auto, LeetCode when the first
    /// non-whitespace byte is `[`].
    #[arg(long, value_enum)]
    from: Option<FormatArg>,
    /// The input; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Write the converted input to FILE instead of standard output (`-` is standard output).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Settings for `convert`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertConfig {
    /// The input.
    pub input: InputSource,
    /// The input's format.
    pub from: Option<Format>,
    /// Where the converted input goes.
    pub output: OutputTarget,
    /// The format to write.
    pub to: Format,
}

/// Converts the input. Each test case is held back until it is read
/// whole, so that on an error nothing of the failing case is written;
/// converting to Coding Ninjas holds the whole output, since T comes
/// first. What is held goes to a temporary file past a few MiB
/// ([`Held`]), so memory does not grow with the input.
pub fn run(config: &ConvertConfig, output: impl Write) -> Result<(), Error> {
    let (_, mut cases) = match config.from {
        Some(format) => cases::open(&config.input, Some(format))?,
        None => cases::open_detected_or(&config.input, config.to.other())?,
    };
    let mut out = BufWriter::new(output);
    let converted = match config.to {
        Format::Leetcode => to_leetcode(&mut cases, &mut out),
        Format::CodingNinjas => to_coding_ninjas(&mut cases, &mut out),
    };
    let finished = out.flush().map_err(Error::Write);
    converted.and(finished)
}

fn to_leetcode(cases: &mut OpenCases, out: &mut impl Write) -> Result<(), Error> {
    // A case's arguments, held; its names are written once its moves are
    // read, so that they count the moves there are, not the ones declared.
    let mut arguments = BufWriter::new(Held::default());
    let mut first = true;
    while let Some(header) = cases.next_case()? {
        let n = u64::from(header.size.get());
        LeetcodeTranscript::begin_arguments(&mut arguments, n).map_err(Error::Write)?;
        let mut moves: u64 = 0;
        while let Some(played) = cases.next_move()? {
            LeetcodeTranscript::push(&mut arguments, played).map_err(Error::Write)?;
            moves += 1;
        }
        LeetcodeTranscript::end(&mut arguments).map_err(Error::Write)?;
        arguments.flush().map_err(Error::Write)?;
        if !first {
            out.write_all(b"\n").map_err(Error::Write)?;
        }
        first = false;
        LeetcodeTranscript::names(out, moves).map_err(Error::Write)?;
        arguments.get_mut().release(out).map_err(Error::Write)?;
    }
    Ok(())
}

fn to_coding_ninjas(cases: &mut OpenCases, out: &mut impl Write) -> Result<(), Error> {
    let mut body = BufWriter::new(Held::default());
    let mut count: u64 = 0;
    while let Some(header) = cases.next_case()? {
        count += 1;
        writeln!(body, "{}\n{}", header.size.get(), header.moves).map_err(Error::Write)?;
        while let Some((row, col, player)) = cases.next_move()? {
            writeln!(body, "{row} {col} {player}").map_err(Error::Write)?;
        }
    }
    body.flush().map_err(Error::Write)?;
    writeln!(out, "{count}")
        .and_then(|()| body.get_mut().release(out))
        .map_err(Error::Write)
}

impl ConvertArgs {
    pub(super) fn into_config(self) -> ConvertConfig {
        ConvertConfig {
            input: self.file.map_or(InputSource::Stdin, InputSource::from_arg),
            output: OutputTarget::from_arg(self.output),
            from: self.from.and_then(FormatArg::into_format),
            to: self.to.into(),
        }
    }
}
