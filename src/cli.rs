//! The command line as clap sees it, turned once into [`crate::config`] structs.

use crate::config::{Config, InputSource, OutputTarget, SolveConfig};
use crate::engine::{AfterWin, EngineKind, Rules};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const SOLVE_HELP: &str = "\
Input (Coding Ninjas format): whitespace-separated integers
  T               number of test cases
  N               board size of a case (1 to 1000000000)
  Q               number of moves of the case (0 to N x N)
  ROW COL PLAYER  Q times; ROW and COL 0-based, PLAYER 1 (X) or 2 (O)
Output: one line per case, its Q results (0, or the winning player)
separated by single spaces.

Examples:
  tictactoe fixtures/solve/leetcode-example.in     prints 0 0 0 0 0 0 1
  tictactoe < in.txt > out.txt
  tictactoe --after-win leetcode a.in b.in -o out.txt

Exit status: 0 success, 2 usage error, 65 data error (with line and column),
66 an input cannot be opened, 74 an I/O error.";

/// A reference solver for Design Tic-Tac-Toe (LeetCode 348).
///
/// Solving is the default command: `tictactoe FILE` is `tictactoe solve FILE`.
#[derive(Debug, Parser)]
#[command(
    name = "tictactoe",
    version,
    args_conflicts_with_subcommands = true,
    after_long_help = SOLVE_HELP,
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play every case and print one line of results per case (the default).
    #[command(after_long_help = SOLVE_HELP)]
    Solve(SolveArgs),
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// Input files, each a complete input with its own T; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Write the results to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(Debug, Args)]
struct RulesArgs {
    /// What to do with moves after a game has been won.
    #[arg(long, value_enum, default_value_t = AfterWinArg::Error)]
    after_win: AfterWinArg,
    /// How wins are detected.
    #[arg(long, value_enum, default_value_t = EngineArg::Counter)]
    engine: EngineArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum AfterWinArg {
    /// A move after the win is a data error.
    Error,
    /// Keep playing: a move returns its player when a line through it is all theirs.
    Continue,
    /// Reproduce LeetCode's grader: its row, column or either diagonal full of one player.
    Leetcode,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineArg {
    /// Running signed sums per line: O(1) per move.
    Counter,
    /// Looks at every cell of the lines through the move: for cross-checking.
    Scan,
}

impl Cli {
    /// The settings the command line asks for.
    pub fn into_config(self) -> Config {
        match self.command {
            None => Config::Solve(self.solve.into_config()),
            Some(Command::Solve(args)) => Config::Solve(args.into_config()),
        }
    }
}

impl SolveArgs {
    fn into_config(self) -> SolveConfig {
        let inputs = if self.files.is_empty() {
            vec![InputSource::Stdin]
        } else {
            self.files.into_iter().map(InputSource::from_arg).collect()
        };
        SolveConfig {
            inputs,
            output: self.output.map_or(OutputTarget::Stdout, OutputTarget::Path),
            rules: self.rules.into_rules(),
        }
    }
}

impl RulesArgs {
    fn into_rules(self) -> Rules {
        Rules {
            after_win: match self.after_win {
                AfterWinArg::Error => AfterWin::Error,
                AfterWinArg::Continue => AfterWin::Continue,
                AfterWinArg::Leetcode => AfterWin::Leetcode,
            },
            engine: match self.engine {
                EngineArg::Counter => EngineKind::Counter,
                EngineArg::Scan => EngineKind::Scan,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn solve_is_the_default_command() {
        let implicit = Cli::parse_from(["tictactoe", "a.in", "--engine", "scan"]).into_config();
        let explicit =
            Cli::parse_from(["tictactoe", "solve", "a.in", "--engine", "scan"]).into_config();
        assert_eq!(implicit, explicit);
    }
}
