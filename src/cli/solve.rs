//! `solve`: play every case of every input and print one line of results per case.
//!
//! Coding Ninjas inputs print `0 0 1`, LeetCode inputs print `[null,0,0,1]`;
//! `--format auto` picks the format per input from its first non-whitespace byte.

use super::{FormatArg, RulesArgs, ThreadsArgs};
use crate::error::{Error, InputName};
use crate::files::{self, InputSource, OutputTarget};
use crate::format::Format;
use crate::game::{BoardSize, Rules, TicTacToe};
use crate::pipeline::{self, parallel::Split};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

pub(super) const SOLVE_HELP: &str = "\
Input (Coding Ninjas format): whitespace-separated integers
  T               number of test cases
  N               board size of a case (1 to 1000000000)
  Q               number of moves of the case (0 to N x N)
  ROW COL PLAYER  Q times; ROW and COL 0-based, PLAYER 1 (X) or 2 (O)
Output: one line per case, its Q results (0, or the winning player)
separated by single spaces.

Input (LeetCode format, picked by --format auto when the first
non-whitespace byte is `[`): per test case two JSON arrays,
  [\"TicTacToe\",\"move\",\"move\",...]   the method names
  [[N],[ROW,COL,PLAYER],...]        their arguments
Output: one line per test case, as LeetCode prints it: [null,0,0,1]

Examples (they work in any folder):
  printf '1 3 7  0 0 1  0 2 2  2 2 1  1 1 2  2 0 1  1 0 2  2 1 1' | tictactoe    # 0 0 0 0 0 0 1
  tictactoe gen --seed 1 > in.txt && tictactoe in.txt > out.txt
  tictactoe convert --to leetcode in.txt | tictactoe    # [null,0,...] lines
  tictactoe --after-win leetcode in.txt -o out.txt

Exit status: 0 success, 2 usage error, 65 data error (with line and column),
66 an input cannot be opened, 71 a memory limit too small for the board, 74
an I/O error.";

#[derive(Debug, Args)]
pub(super) struct SolveArgs {
    /// Input files, each a complete input with its own T; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Write the results to FILE instead of standard output (`-` is standard output).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The input format; `auto` picks LeetCode when the first non-whitespace byte is `[`.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    threads: ThreadsArgs,
}

impl SolveArgs {
    pub(super) fn into_config(self) -> SolveConfig {
        let inputs = if self.files.is_empty() {
            vec![InputSource::Stdin]
        } else {
            self.files.into_iter().map(InputSource::from_arg).collect()
        };
        SolveConfig {
            inputs,
            output: OutputTarget::from_arg(self.output),
            rules: self.rules.into_rules(),
            format: self.format.into_format(),
            threads: self.threads.count(),
        }
    }
}

/// Settings for `solve`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveConfig {
    /// The inputs, each a complete file with its own T, solved in order.
    pub inputs: Vec<InputSource>,
    /// Where the results go.
    pub output: OutputTarget,
    /// The engine and after-win policy.
    pub rules: Rules,
    /// The format of the inputs.
    pub format: Option<Format>,
    /// Threads to solve a long input on, in either format: 1 reads it as
    /// one stream, 0 lets the solver choose.
    pub threads: usize,
}

/// Solves the inputs in order. On any error, the output holds exactly the
/// lines of the cases completed before it.
pub fn run(config: &SolveConfig, mut output: impl Write) -> Result<(), Error> {
    let mut game = TicTacToe::with_rules(BoardSize::MIN, config.rules);
    let split = Split {
        workers: config.threads,
        ..Split::default()
    };
    let solved = config
        .inputs
        .iter()
        .try_for_each(|source| {
            let several = config.inputs.len() > 1;
            solve_input(source, several, config.format, split, &mut game, &mut output)
        });
    // Completed cases are written even when solving stopped on an error.
    let finished = output.flush().map_err(Error::Write);
    solved.and(finished)
}

/// A missing input named as a command (`tictactoe --threads 1 validate
/// in.txt`) was most likely meant as one: the message says that commands
/// come first.
fn command_after_options(error: Error) -> Error {
    error.with_missing_file_hint(|path| {
        let command = path.to_str()?;
        super::COMMAND_NAMES
            .contains(&command)
            .then(|| format!("a command comes before the options: `tictactoe {command} [OPTIONS] ...`"))
    })
}

/// Solves one input. Among several, standard input's messages are
/// prefixed with its name as a file's are, so that an error says which
/// input it is in.
fn solve_input<W: Write>(
    source: &InputSource,
    several: bool,
    format: Option<Format>,
    split: Split,
    game: &mut TicTacToe,
    output: &mut W,
) -> Result<(), Error> {
    let (input, name) = files::open(source).map_err(command_after_options)?;
    let name = match name {
        InputName::Stdin if several => InputName::Path("standard input".into()),
        name => name,
    };
    pipeline::solve_any(input, name, format, split, game, output)
}
