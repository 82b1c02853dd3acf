//! The command line as clap sees it, turned once into [`crate::config`] structs.

use crate::config::{CheckConfig, CheckProtocol, ValidateConfig, ValidateProtocol};
use crate::config::{
    CommandLine, Config, GenConfig, InputSource, OutputTarget, SolveConfig, StressConfig,
    TestConfig,
};
use crate::config::{
    CompletionsConfig, ConvertConfig, InputFormat, OutputFormat, Shell, TraceConfig,
};
use crate::game::{AfterWin, EngineKind, Rules};
use crate::judging::generate::{Layout, Limits, OutcomeMix, Spec};
use crate::judging::validate::Limits as ValidateLimits;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
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
    /// Check that an input is exactly canonical and keeps every constraint and guarantee.
    #[command(after_long_help = VALIDATE_HELP)]
    Validate(ValidateArgs),
    /// Compare a solution's output with the expected answer, in a judge's protocol.
    #[command(after_long_help = CHECK_HELP)]
    Check(CheckArgs),
    /// Write a valid, reproducible input file to stdout, or a folder of tests.
    #[command(after_long_help = GEN_HELP)]
    Gen(GenArgs),
    /// Run a solution over a folder of tests and give a verdict per test.
    #[command(after_long_help = TEST_HELP)]
    Test(TestArgs),
    /// Hunt for an input where a solution and the reference disagree, and shrink it.
    #[command(after_long_help = STRESS_HELP)]
    Stress(StressArgs),
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

const CHECK_HELP: &str = "\
Arguments by protocol:
  plain    EXPECTED [OUTPUT]          OUTPUT defaults to standard input
  testlib  IN OUT ANS [REPORT]        the verdict line goes to REPORT if given
  kattis   IN ANS FEEDBACK_DIR [...]  output on standard input; extra arguments ignored
  oj       IN OUTPUT [EXPECTED]       as `oj test --judge-command` calls it

Results are compared as tokens with any spacing, one line per case. Whenever
the input is known (--input, or IN) the expected answer is recomputed from it:
an answer file that disagrees is a judge failure, and a wrong result is shown
with its move and the board around it.

Example:
  tictactoe check --input fixtures/check/example.input fixtures/check/example.answer \\
      fixtures/check/example-wrong.output
    prints: wrong answer: case 1, move 7: expected 1, found 0
            the move: row 2, column 1, player 1 (X); it completes row 2, ...

Exit status:
  plain    0 same, 1 different, 3 judge failure
  testlib  0 ok, 1 wrong answer, 2 wrong output format, 3 judge failure (FAIL)
  kattis   42 accepted, 43 wrong answer, 3 judge failure (to Kattis, any status
           but 42 and 43 is a judge error)
  oj       0 accepted, 1 not, 3 judge failure";

#[derive(Debug, Args)]
struct CheckArgs {
    /// The files, in the protocol's order (see below).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Whose calling convention to follow.
    #[arg(long, value_enum, default_value_t = CheckProtocolArg::Plain)]
    protocol: CheckProtocolArg,
    /// The input the answers are for (plain protocol; the others name it themselves).
    #[arg(long, value_name = "IN")]
    input: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CheckProtocolArg {
    /// EXPECTED [OUTPUT]: exit 0 same, 1 different.
    Plain,
    /// testlib checkers: IN OUT ANS; exit 0 ok, 1 wrong answer, 2 presentation error, 3 fail.
    Testlib,
    /// Kattis / DOMjudge output validators: IN ANS FEEDBACK_DIR < OUTPUT; exit 42 or 43.
    Kattis,
    /// online-judge-tools' --judge-command: IN OUTPUT [EXPECTED]; exit 0 accepted.
    Oj,
}

impl CheckArgs {
    fn into_config(self) -> CheckConfig {
        let count = self.files.len();
        let (low, high, order) = match self.protocol {
            CheckProtocolArg::Plain => (1, 2, "EXPECTED [OUTPUT]"),
            CheckProtocolArg::Testlib => (3, 4, "IN OUT ANS [REPORT]"),
            CheckProtocolArg::Kattis => (3, usize::MAX, "IN ANS FEEDBACK_DIR"),
            CheckProtocolArg::Oj => (2, 3, "IN OUTPUT [EXPECTED]"),
        };
        if !(low..=high).contains(&count) {
            usage_error(&format!(
                "this protocol takes the arguments {order}, but {count} were given"
            ));
        }
        if self.input.is_some() && self.protocol != CheckProtocolArg::Plain {
            usage_error("--input is for the plain protocol; the others name the input themselves");
        }
        let mut files = self.files.into_iter();
        let mut next = || files.next();
        let mut config = CheckConfig {
            protocol: CheckProtocol::Plain,
            input: None,
            expected: None,
            output: InputSource::Stdin,
            feedback_dir: None,
            report: None,
            rules: self.rules.into_rules(),
        };
        match self.protocol {
            CheckProtocolArg::Plain => {
                config.input = self.input;
                config.expected = next();
                config.output = next().map_or(InputSource::Stdin, InputSource::from_arg);
            }
            CheckProtocolArg::Testlib => {
                config.protocol = CheckProtocol::Testlib;
                config.input = next();
                config.output = next().map_or(InputSource::Stdin, InputSource::Path);
                config.expected = next();
                config.report = next();
            }
            CheckProtocolArg::Kattis => {
                config.protocol = CheckProtocol::Kattis;
                config.input = next();
                config.expected = next();
                config.feedback_dir = next();
            }
            CheckProtocolArg::Oj => {
                config.protocol = CheckProtocol::Oj;
                config.input = next();
                config.output = next().map_or(InputSource::Stdin, InputSource::Path);
                config.expected = next();
            }
        }
        config
    }
}

/// Ends the program with a usage error, as clap would for a rule it cannot express.
fn usage_error(message: &str) -> ! {
    use clap::CommandFactory;
    Cli::command()
        .error(clap::error::ErrorKind::WrongNumberOfValues, message)
        .exit()
}

const VALIDATE_HELP: &str = "\
Layout: T alone on line 1; per case N and Q each alone on a line, then Q lines
`ROW COL PLAYER` separated by single spaces; LF line endings and a final LF;
no blank lines, trailing spaces, tabs or CR; integers without sign or leading
zeros. Constraints (the statement's by default): 1 <= T <= 100, 1 <= N <= 100,
5 <= Q <= N x N, 0 <= ROW, COL < N, PLAYER 1 or 2. Guarantees: every move goes
to an empty cell, players alternate, no move follows a win.

Example:
  tictactoe validate fixtures/validate/valid.in
    prints: valid: 2 cases, N 3..4, 12 moves; 1 won by 1, 0 by 2, 0 drawn, 1 unfinished

Exit status: plain 0 valid, 1 invalid; testlib 0 valid, 3 invalid (with a
FAIL line on standard error); kattis 42 valid, 43 invalid. 66 the file cannot
be opened, 74 an I/O error.";

#[derive(Debug, Args)]
struct ValidateArgs {
    /// The input to validate; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Whose exit statuses to use.
    #[arg(long, value_enum, default_value_t = ValidateProtocolArg::Plain)]
    protocol: ValidateProtocolArg,
    /// Report at most this many violations, then stop.
    #[arg(long, value_name = "COUNT", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    max_errors: u64,
    /// Threads for a long input: 1 reads it as one stream; 0 means twice the cores, at most 8.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
    /// Fewest test cases T.
    #[arg(long, value_name = "T", default_value_t = ValidateLimits::default().min_t)]
    min_t: u64,
    /// Most test cases T.
    #[arg(long, value_name = "T", default_value_t = ValidateLimits::default().max_t)]
    max_t: u64,
    /// Smallest board size N.
    #[arg(long, value_name = "N", default_value_t = ValidateLimits::default().min_n)]
    min_n: u64,
    /// Largest board size N.
    #[arg(long, value_name = "N", default_value_t = ValidateLimits::default().max_n)]
    max_n: u64,
    /// Fewest moves Q in a case.
    #[arg(long, value_name = "Q", default_value_t = ValidateLimits::default().min_q)]
    min_q: u64,
    /// Most moves Q in a case (Q <= N x N always holds).
    #[arg(long, value_name = "Q")]
    max_q: Option<u64>,
    /// Accepted and ignored: testlib validators are passed the test set.
    #[arg(long, hide = true)]
    testset: Option<String>,
    /// Accepted and ignored: testlib validators are passed the test group.
    #[arg(long, hide = true)]
    group: Option<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ValidateProtocolArg {
    /// Exit 0 valid, 1 invalid.
    Plain,
    /// testlib: exit 0 valid, 3 invalid, with a `FAIL ...` line on standard error.
    Testlib,
    /// Kattis / ICPC problem packages / DOMjudge: exit 42 valid, 43 invalid.
    Kattis,
}

impl ValidateArgs {
    fn into_config(self) -> ValidateConfig {
        ValidateConfig {
            input: self.file.map_or(InputSource::Stdin, InputSource::from_arg),
            protocol: match self.protocol {
                ValidateProtocolArg::Plain => ValidateProtocol::Plain,
                ValidateProtocolArg::Testlib => ValidateProtocol::Testlib,
                ValidateProtocolArg::Kattis => ValidateProtocol::Kattis,
            },
            limits: ValidateLimits {
                min_t: self.min_t,
                max_t: self.max_t,
                min_n: self.min_n,
                max_n: self.max_n,
                min_q: self.min_q,
                max_q: self.max_q,
            },
            max_errors: usize::try_from(self.max_errors).unwrap_or(usize::MAX),
            threads: self.threads,
        }
    }
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
    /// The format to write the inputs in.
    #[arg(long, value_enum, default_value_t = ToArg::CodingNinjas)]
    format: ToArg,
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
    #[arg(long, value_name = "CELLS", default_value_t = crate::format::board::MAX_SIDE, value_parser = clap::value_parser!(u32).range(1..=1000))]
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
    /// Threads for a long input: 1 reads it as one stream; 0 means twice the cores, at most 8.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
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

/// Every subcommand's name, and `help`: the words [`plain_solve`] must leave
/// to clap. A test holds the list to clap's own.
const COMMAND_NAMES: [&str; 10] = [
    "solve",
    "validate",
    "check",
    "gen",
    "test",
    "stress",
    "convert",
    "trace",
    "completions",
    "help",
];

/// The settings for a command line of input files only, or none (`args`
/// without the program's name): `solve` with every default, found without
/// building clap's parser. Judges start the solver like this once per test
/// file, and building the parser is most of the start-up time. Anything
/// else (an option, `-`, a subcommand's name) is clap's: `None`.
pub fn plain_solve(args: &[OsString]) -> Option<Config> {
    let plain = |arg: &OsString| !arg.as_encoded_bytes().starts_with(b"-");
    let names_command = args
        .first()
        .is_some_and(|first| COMMAND_NAMES.iter().any(|name| first == name));
    if names_command || !args.iter().all(plain) {
        return None;
    }
    let inputs = if args.is_empty() {
        vec![InputSource::Stdin]
    } else {
        args.iter()
            .map(|arg| InputSource::from_arg(PathBuf::from(arg)))
            .collect()
    };
    Some(Config::Solve(SolveConfig {
        inputs,
        output: OutputTarget::Stdout,
        rules: Rules::default(),
        format: InputFormat::Auto,
        threads: 0,
    }))
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
            Some(Command::Validate(args)) => Config::Validate(args.into_config()),
            Some(Command::Check(args)) => Config::Check(args.into_config()),
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
            format: self.format.into_format(),
            threads: self.threads,
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
            layout: match self.format {
                ToArg::CodingNinjas => Layout::CodingNinjas,
                ToArg::Leetcode => Layout::Leetcode,
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
    fn check_arguments_follow_each_protocols_order() {
        let check = |args: &[&str]| match Cli::parse_from(args).into_config() {
            Config::Check(config) => config,
            other => panic!("not a check: {other:?}"),
        };
        let path = |name: &str| Some(PathBuf::from(name));
        let testlib = check(&["tictactoe", "check", "--protocol", "testlib", "i", "o", "a"]);
        assert_eq!(
            (testlib.input, testlib.output, testlib.expected),
            (path("i"), InputSource::Path("o".into()), path("a"))
        );
        let kattis = check(&[
            "tictactoe",
            "check",
            "--protocol",
            "kattis",
            "i",
            "a",
            "f",
            "x",
        ]);
        assert_eq!(
            (
                kattis.input,
                kattis.expected,
                kattis.feedback_dir,
                kattis.output
            ),
            (path("i"), path("a"), path("f"), InputSource::Stdin)
        );
        let oj = check(&["tictactoe", "check", "--protocol", "oj", "i", "o"]);
        assert_eq!(
            (oj.input, oj.output, oj.expected),
            (path("i"), InputSource::Path("o".into()), None)
        );
        let plain = check(&["tictactoe", "check", "--input", "i", "a"]);
        assert_eq!(
            (plain.input, plain.expected, plain.output),
            (path("i"), path("a"), InputSource::Stdin)
        );
    }

    #[test]
    fn plain_command_lines_skip_clap_and_mean_what_clap_reads() {
        for args in [&[][..], &["a.in"], &["a.in", "dir/b c.in"], &["validatex"]] {
            let os: Vec<OsString> = args.iter().map(OsString::from).collect();
            let clap = Cli::parse_from(std::iter::once("tictactoe").chain(args.iter().copied()));
            assert_eq!(plain_solve(&os), Some(clap.into_config()), "{args:?}");
        }
        for args in [
            &["-"][..],
            &["a.in", "--engine", "scan"],
            &["check", "a"],
            &["-o", "x"],
        ] {
            let os: Vec<OsString> = args.iter().map(OsString::from).collect();
            assert_eq!(plain_solve(&os), None, "{args:?}");
        }
    }

    #[test]
    fn the_names_left_to_clap_are_its_subcommands() {
        use clap::CommandFactory;
        let mut names: Vec<String> = Cli::command()
            .get_subcommands()
            .flat_map(|command| {
                std::iter::once(command.get_name().to_string())
                    .chain(command.get_all_aliases().map(str::to_string))
            })
            .collect();
        names.push("help".to_string());
        names.sort();
        let mut listed: Vec<String> = COMMAND_NAMES.iter().map(|name| name.to_string()).collect();
        listed.sort();
        assert_eq!(listed, names);
    }

    #[test]
    fn solve_is_the_default_command() {
        let implicit = Cli::parse_from(["tictactoe", "a.in", "--engine", "scan"]).into_config();
        let explicit =
            Cli::parse_from(["tictactoe", "solve", "a.in", "--engine", "scan"]).into_config();
        assert_eq!(implicit, explicit);
    }
}
