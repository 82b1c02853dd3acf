//! The command line as clap sees it, turned once into [`crate::config`] structs.

use crate::config::{
    CommandLine, Config, GenConfig, InputSource, OutputTarget, SolveConfig, StressConfig,
    TestConfig,
};
use crate::engine::{AfterWin, EngineKind, Rules};
use crate::generate::{Limits, OutcomeMix, Spec};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

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
    /// Write a valid, reproducible input file to stdout, or a folder of tests.
    #[command(after_long_help = GEN_HELP)]
    Gen(GenArgs),
    /// Run a solution over a folder of tests and give a verdict per test.
    #[command(after_long_help = TEST_HELP)]
    Test(TestArgs),
    /// Hunt for an input where a solution and the reference disagree, and shrink it.
    #[command(after_long_help = STRESS_HELP)]
    Stress(StressArgs),
}

const TEST_HELP: &str = "\
NAME.in pairs with NAME.ans or NAME.out; a test with neither is judged against
the built-in solver. Verdicts: AC, WA (case, move, expected, found), RE (exit
status and the first lines of stderr), TLE (killed at the limit), FAIL (the
test itself has no answer). The last line is `N passed, M failed`.

Example:
  tictactoe test tests/ -c 'python3 sol.py' --time-limit 1 --jobs 2

Exit status: 0 all passed, 1 some failed, 2 usage error, 66 the folder cannot
be read.";

const STRESS_HELP: &str = "\
Generates inputs (the options of `gen`; iteration K uses ChaCha8 stream K of
the seed), runs CMD and the reference on each, and stops at the first
difference, crash or timeout. It then shrinks the input (fewest cases, then
fewest moves, then smallest N), keeping every step an input the reference
accepts, writes failing.in and failing.ans to --save-dir and prints a trace.

Example:
  tictactoe stress -c 'python3 sol.py' --after-win continue --play-past-win

Exit status: 0 nothing found within the budget, 1 a failing input was found,
2 usage error, 74 an I/O error.";

/// Splits a command line into words the way a POSIX shell would.
fn parse_command_line(line: &str) -> Result<CommandLine, String> {
    let words = shell_words::split(line).map_err(|e| e.to_string())?;
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(CommandLine(words))
}

/// Seconds, possibly fractional, as a duration.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|e| format!("{e}"))?;
    Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

#[derive(Debug, Args)]
struct TestArgs {
    /// The folder of tests: NAME.in with NAME.ans or NAME.out.
    dir: PathBuf,
    /// The solution's command line, split into words like a shell would
    /// [default: the built-in solver].
    #[arg(short = 'c', long = "command", value_name = "CMD", value_parser = parse_command_line)]
    command: Option<CommandLine>,
    /// Seconds a test may run before it is killed (TLE).
    #[arg(long, value_name = "SECS", default_value = "2", value_parser = parse_seconds)]
    time_limit: Duration,
    /// How many tests run at once; lines still come out in name order.
    #[arg(short = 'j', long, value_name = "J", default_value_t = 1)]
    jobs: usize,
    /// The policy of the built-in solver, for tests without an answer file.
    #[arg(long, value_enum, default_value_t = AfterWinArg::Error)]
    after_win: AfterWinArg,
}

#[derive(Debug, Args)]
struct StressArgs {
    /// The solution's command line, split into words like a shell would.
    #[arg(short = 'c', long = "command", value_name = "CMD", value_parser = parse_command_line)]
    command: CommandLine,
    #[command(flatten)]
    spec: SpecArgs,
    /// The reference's policy for moves after a win.
    #[arg(long, value_enum, default_value_t = AfterWinArg::Error)]
    after_win: AfterWinArg,
    /// The most inputs to try [default: 1000, or no bound when --time is given].
    #[arg(long, value_name = "K")]
    iterations: Option<u64>,
    /// The most seconds to search.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    time: Option<Duration>,
    /// Seconds one run of the solution may take before it counts as a timeout.
    #[arg(long, value_name = "SECS", default_value = "2", value_parser = parse_seconds)]
    time_limit: Duration,
    /// Where failing.in and failing.ans are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    save_dir: PathBuf,
}

const GEN_HELP: &str = "\
The same arguments give the same bytes on every machine. Without --seed the
seed is the 64-bit FNV-1a hash of the settings spelled canonically, for example
`cases=10 n=3..=10 max-moves=auto outcome=mixed limits=statement past-win=no`,
so a command line names its test. File K of a folder uses ChaCha8 stream K.

Examples:
  tictactoe gen --seed 1 --cases 3 --outcome win > win.in
  tictactoe gen --count 20 --out-dir tests/        writes tests/01.in, 01.ans ...
  tictactoe gen --all-games 3 | tictactoe > all.ans (255168 games)
  tictactoe gen --limits relaxed --cases 500 --min-n 1000 --max-n 1000 > big.in

Exit status: 0 success, 2 usage error (including settings that cannot make a
file), 74 an I/O error.";

/// The settings that decide a generated file's bytes.
#[derive(Debug, Args)]
struct SpecArgs {
    /// The seed [default: derived from the other settings].
    #[arg(long)]
    seed: Option<u64>,
    /// T, the number of cases in a file.
    #[arg(short = 't', long, default_value_t = 10)]
    cases: u64,
    /// The smallest board size N.
    #[arg(long, default_value_t = 3)]
    min_n: u32,
    /// The largest board size N.
    #[arg(long, default_value_t = 10)]
    max_n: u32,
    /// The most moves in a case [default: N x N; 100000 with --limits relaxed].
    #[arg(long)]
    max_moves: Option<u64>,
    /// How each case ends.
    #[arg(long, value_enum, default_value_t = OutcomeArg::Mixed)]
    outcome: OutcomeArg,
    /// Which bounds the file keeps.
    #[arg(long, value_enum, default_value_t = LimitsArg::Statement)]
    limits: LimitsArg,
    /// Let won games go on after the win: the file breaks the statement on
    /// purpose, for testing the --after-win policies.
    #[arg(long)]
    play_past_win: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum OutcomeArg {
    /// The last move of each case wins (rows, columns, both diagonals, both players).
    Win,
    /// Each case fills the board and nobody wins.
    Draw,
    /// Each case stops before the board is full and nobody wins.
    Open,
    /// Each case picks one of the above.
    Mixed,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum LimitsArg {
    /// 1 <= T <= 100, 3 <= N <= 100, 5 <= Q <= N x N, no move after a win.
    Statement,
    /// Anything the solver accepts: big T, N up to 10^9, long games.
    Relaxed,
}

#[derive(Debug, Args)]
struct GenArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Write every legal game of an N x N board (N <= 3), player 1 first,
    /// one case per game, each stopping at a win or a full board.
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=3),
        conflicts_with_all = ["seed", "outcome", "play_past_win", "count", "out_dir"],
    )]
    all_games: Option<u32>,
    /// Write K tests to --out-dir instead of one file to standard output.
    #[arg(long, value_name = "K", requires = "out_dir")]
    count: Option<u64>,
    /// Write DIR/01.in ... with matching .ans files computed by the solver.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// The after-win policy the .ans files are computed with.
    #[arg(long, value_enum, default_value_t = AfterWinArg::Error)]
    after_win: AfterWinArg,
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
            Some(Command::Gen(args)) => Config::Gen(args.into_config()),
            Some(Command::Test(args)) => Config::Test(TestConfig {
                dir: args.dir,
                command: args.command.map(|line| line.0),
                time_limit: args.time_limit,
                jobs: args.jobs,
                rules: Rules {
                    after_win: args.after_win.into(),
                    engine: EngineKind::Counter,
                },
            }),
            Some(Command::Stress(args)) => Config::Stress(StressConfig {
                spec: args.spec.into_spec(),
                command: args.command.0,
                rules: Rules {
                    after_win: args.after_win.into(),
                    engine: EngineKind::Counter,
                },
                iterations: args.iterations.unwrap_or(match args.time {
                    Some(_) => u64::MAX,
                    None => 1000,
                }),
                time: args.time,
                time_limit: args.time_limit,
                save_dir: args.save_dir,
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
        }
    }
}

impl From<AfterWinArg> for AfterWin {
    fn from(arg: AfterWinArg) -> AfterWin {
        match arg {
            AfterWinArg::Error => AfterWin::Error,
            AfterWinArg::Continue => AfterWin::Continue,
            AfterWinArg::Leetcode => AfterWin::Leetcode,
        }
    }
}

impl SpecArgs {
    fn into_spec(self) -> Spec {
        Spec {
            seed: self.seed,
            cases: self.cases,
            min_n: self.min_n,
            max_n: self.max_n,
            max_moves: self.max_moves,
            outcome: match self.outcome {
                OutcomeArg::Win => OutcomeMix::Win,
                OutcomeArg::Draw => OutcomeMix::Draw,
                OutcomeArg::Open => OutcomeMix::Open,
                OutcomeArg::Mixed => OutcomeMix::Mixed,
            },
            limits: match self.limits {
                LimitsArg::Statement => Limits::Statement,
                LimitsArg::Relaxed => Limits::Relaxed,
            },
            play_past_win: self.play_past_win,
        }
    }
}

impl GenArgs {
    fn into_config(self) -> GenConfig {
        GenConfig {
            spec: self.spec.into_spec(),
            all_games: self.all_games,
            out_dir: self.out_dir,
            count: self.count.unwrap_or(1),
            answer_rules: Rules {
                after_win: self.after_win.into(),
                engine: EngineKind::Counter,
            },
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
