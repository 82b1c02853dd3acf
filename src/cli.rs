//! The command line as clap sees it, turned once into [`crate::config`] structs.

use crate::config::{
    CompletionsConfig, Config, ConvertConfig, InputFormat, InputSource, OutputFormat, OutputTarget,
    Shell, SolveConfig, TraceConfig,
};
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

Input (LeetCode format, picked by --format auto when the first
non-whitespace byte is `[`): per test case two JSON arrays,
  [\"TicTacToe\",\"move\",\"move\",...]   the method names
  [[N],[ROW,COL,PLAYER],...]        their arguments
Output: one line per test case, as LeetCode prints it: [null,0,0,1]

Examples:
  tictactoe fixtures/solve/leetcode-example.in     prints 0 0 0 0 0 0 1
  tictactoe fixtures/leetcode/example.in           prints [null,0,0,0,0,0,0,1]
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
    /// Rewrite an input in the other format (Coding Ninjas <-> LeetCode), keeping its meaning.
    #[command(after_long_help = CONVERT_HELP)]
    Convert(ConvertArgs),
    /// Replay one case and draw the board after every move.
    #[command(after_long_help = TRACE_HELP)]
    Trace(TraceArgs),
    /// Print shell completions for bash, zsh or fish.
    #[command(after_long_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
}

const CONVERT_HELP: &str = "\
The input is read in the other format than --to; with --from, in the one
named (`auto` detects it), so converting a file to its own format gives its
canonical form. Only the format is checked: moves the solver would refuse
are kept as they are.

Examples:
  tictactoe convert --to leetcode fixtures/solve/leetcode-example.in
      prints [\"TicTacToe\",\"move\",...] and [[3],[0,0,1],...] on two lines
  tictactoe convert --to coding-ninjas fixtures/leetcode/example.in -o example.in";

const TRACE_HELP: &str = "\
Each move prints a line and the board after it:
  move 7: player 1 (X) at (2, 1) -> 1, player 1 wins (row 2)
  |X| |O|
  |O|O| |
  |X|X|X|
On a terminal X and O are coloured and the winning line is highlighted;
piped output, or NO_COLOR set, is plain. Boards wider than --window cells
show a window around the move and say which rows and columns it holds.

Examples:
  tictactoe trace fixtures/solve/leetcode-example.in
  tictactoe trace --case 2 --counters --after-win leetcode in.txt";

const COMPLETIONS_HELP: &str = "\
Examples:
  tictactoe completions bash > ~/.local/share/bash-completion/completions/tictactoe
  tictactoe completions zsh > ~/.zfunc/_tictactoe
  tictactoe completions fish > ~/.config/fish/completions/tictactoe.fish";

#[derive(Debug, Args)]
struct ConvertArgs {
    /// The format to write.
    #[arg(long, value_enum)]
    to: ToArg,
    /// The input's format [default: the other one than --to]; `auto` picks
    /// LeetCode when the first non-whitespace byte is `[`.
    #[arg(long, value_enum)]
    from: Option<FormatArg>,
    /// The input; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Write the converted input to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ToArg {
    /// LeetCode's two-array transcripts.
    Leetcode,
    /// The Coding Ninjas batch format.
    CodingNinjas,
}

#[derive(Debug, Args)]
struct TraceArgs {
    /// The input; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// The case to replay, counting from 1.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    case: u64,
    /// Also print the running row, column and diagonal sums after each move.
    #[arg(long)]
    counters: bool,
    /// The widest board drawn whole, in cells; larger boards show a window this wide around the move.
    #[arg(long, value_name = "CELLS", default_value_t = crate::render::MAX_SIDE, value_parser = clap::value_parser!(u32).range(1..=1000))]
    window: u32,
    /// The input format; `auto` picks LeetCode when the first non-whitespace byte is `[`.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(Debug, Args)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: ShellArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ShellArg {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// Input files, each a complete input with its own T; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Write the results to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The input format; `auto` picks LeetCode when the first non-whitespace byte is `[`.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    /// LeetCode when the first non-whitespace byte is `[`, else Coding Ninjas.
    Auto,
    /// T, then per case N, Q and Q moves `ROW COL PLAYER`.
    CodingNinjas,
    /// Per test case two JSON arrays: method names and their arguments.
    Leetcode,
}

impl FormatArg {
    fn into_format(self) -> InputFormat {
        match self {
            FormatArg::Auto => InputFormat::Auto,
            FormatArg::CodingNinjas => InputFormat::CodingNinjas,
            FormatArg::Leetcode => InputFormat::Leetcode,
        }
    }
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
            Some(Command::Convert(args)) => Config::Convert(ConvertConfig {
                input: args.file.map_or(InputSource::Stdin, InputSource::from_arg),
                output: args.output.map_or(OutputTarget::Stdout, OutputTarget::Path),
                from: match (args.from, args.to) {
                    (Some(from), _) => from.into_format(),
                    (None, ToArg::Leetcode) => InputFormat::CodingNinjas,
                    (None, ToArg::CodingNinjas) => InputFormat::Leetcode,
                },
                to: match args.to {
                    ToArg::Leetcode => OutputFormat::Leetcode,
                    ToArg::CodingNinjas => OutputFormat::CodingNinjas,
                },
            }),
            Some(Command::Trace(args)) => Config::Trace(TraceConfig {
                input: args.file.map_or(InputSource::Stdin, InputSource::from_arg),
                format: args.format.into_format(),
                case: args.case,
                rules: args.rules.into_rules(),
                counters: args.counters,
                window: args.window,
            }),
            Some(Command::Completions(args)) => Config::Completions(CompletionsConfig {
                shell: match args.shell {
                    ShellArg::Bash => Shell::Bash,
                    ShellArg::Zsh => Shell::Zsh,
                    ShellArg::Fish => Shell::Fish,
                },
            }),
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
            format: self.format.into_format(),
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
