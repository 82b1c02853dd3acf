//! Plain settings for each command, made once from the command line.
//!
//! Nothing past [`crate::cli`] sees clap: the commands take these structs.

use crate::game::Rules;
use crate::judging::generate::{Layout, Spec};
use crate::judging::validate::Limits;
use std::path::PathBuf;
use std::time::Duration;

/// Where an input comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputSource {
    /// Standard input.
    Stdin,
    /// A file.
    Path(PathBuf),
}

impl InputSource {
    /// `-` means standard input, as is the custom.
    pub fn from_arg(path: PathBuf) -> InputSource {
        if path.as_os_str() == "-" {
            InputSource::Stdin
        } else {
            InputSource::Path(path)
        }
    }
}

/// Where results go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputTarget {
    /// Standard output.
    Stdout,
    /// A file, created or truncated.
    Path(PathBuf),
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
    pub format: InputFormat,
    /// Threads to solve a long Coding Ninjas input on: 1 reads it as one
    /// stream, 0 lets the solver choose.
    pub threads: usize,
}

/// The format of an input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// LeetCode when the first non-whitespace byte is `[`, else Coding Ninjas.
    #[default]
    Auto,
    /// T, then per case N, Q and Q moves `ROW COL PLAYER`.
    CodingNinjas,
    /// Per case two JSON arrays: method names and their arguments.
    Leetcode,
}

/// A format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// The Coding Ninjas batch format.
    CodingNinjas,
    /// LeetCode's two-array transcripts.
    Leetcode,
}

/// Settings for `convert`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertConfig {
    /// The input.
    pub input: InputSource,
    /// The input's format.
    pub from: InputFormat,
    /// Where the converted input goes.
    pub output: OutputTarget,
    /// The format to write.
    pub to: OutputFormat,
}

/// Settings for `trace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceConfig {
    /// The input.
    pub input: InputSource,
    /// The format of the input.
    pub format: InputFormat,
    /// The 1-based case to replay.
    pub case: u64,
    /// The engine and after-win policy.
    pub rules: Rules,
    /// Whether to print the running line sums after each move.
    pub counters: bool,
    /// The widest board drawn, in cells; larger boards show a window.
    pub window: u32,
}

/// A shell to print completions for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shell {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
}

/// Settings for `completions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompletionsConfig {
    /// The shell.
    pub shell: Shell,
}

/// The exit-status convention a validator follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValidateProtocol {
    /// 0 valid, 1 invalid.
    #[default]
    Plain,
    /// testlib: 0 valid, 3 invalid with a `FAIL` line on standard error.
    Testlib,
    /// Kattis, ICPC problem packages, DOMjudge: 42 valid, 43 invalid.
    Kattis,
}

/// Settings for `validate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidateConfig {
    /// The file to validate.
    pub input: InputSource,
    /// Exit statuses and messages.
    pub protocol: ValidateProtocol,
    /// The bounds the file must keep.
    pub limits: Limits,
    /// Violations reported before giving up.
    pub max_errors: usize,
    /// Threads to validate a long input on: 1 reads it as one stream, 0
    /// lets the validator choose.
    pub threads: usize,
}

/// The calling convention a checker follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CheckProtocol {
    /// `EXPECTED [OUTPUT]`: 0 same, 1 different, 3 judge failure.
    #[default]
    Plain,
    /// testlib: `IN OUT ANS [REPORT]`: 0 ok, 1 wrong answer, 2 presentation
    /// error, 3 judge failure, with a verdict line on standard error.
    Testlib,
    /// Kattis and DOMjudge: `IN ANS FEEDBACK_DIR` with the output on standard
    /// input: 42 accepted, 43 wrong answer, the explanation in
    /// `FEEDBACK_DIR/judgemessage.txt`.
    Kattis,
    /// online-judge-tools' `--judge-command`: `IN OUTPUT [EXPECTED]`: 0
    /// accepted, 1 not, 3 judge failure, the explanation on standard output.
    Oj,
}

/// Settings for `check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckConfig {
    /// The convention for arguments, statuses and messages.
    pub protocol: CheckProtocol,
    /// The input: the expected answer is recomputed from it.
    pub input: Option<PathBuf>,
    /// The expected answer, when given.
    pub expected: Option<PathBuf>,
    /// The solution's output.
    pub output: InputSource,
    /// Kattis's feedback directory.
    pub feedback_dir: Option<PathBuf>,
    /// testlib's optional report file, which takes the verdict instead of
    /// standard error.
    pub report: Option<PathBuf>,
    /// The rules the input is solved by.
    pub rules: Rules,
}

/// A command with its settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Config {
    /// Solve inputs.
    Solve(SolveConfig),
    /// Convert an input to the other format.
    Convert(ConvertConfig),
    /// Replay a case and draw the board after every move.
    Trace(TraceConfig),
    /// Print shell completions.
    Completions(CompletionsConfig),
    /// Validate an input.
    Validate(ValidateConfig),
    /// Check an output.
    Check(CheckConfig),
    /// Generate test data.
    Gen(GenConfig),
    /// Run a solution over a folder of tests.
    Test(TestConfig),
    /// Hunt for an input on which a solution and the reference disagree.
    Stress(StressConfig),
}

/// A solution's command line, already split into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine(pub Vec<String>);

/// Settings for `test`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestConfig {
    /// The folder of `NAME.in` files with `NAME.ans` or `NAME.out`.
    pub dir: PathBuf,
    /// The solution; `None` is the built-in solver.
    pub command: Option<Vec<String>>,
    /// How long a test may run.
    pub time_limit: Duration,
    /// How many tests run at once.
    pub jobs: usize,
    /// The rules for tests without an answer file (and for the built-in solver).
    pub rules: Rules,
}

/// Settings for `stress`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StressConfig {
    /// What the random inputs hold; iteration K uses ChaCha8 stream K of its seed.
    pub spec: Spec,
    /// The solution under test.
    pub command: Vec<String>,
    /// The reference's rules.
    pub rules: Rules,
    /// The most inputs to try; `u64::MAX` leaves the bound to `time`.
    pub iterations: u64,
    /// The most time to search, if bounded.
    pub time: Option<Duration>,
    /// How long one run of the solution may take.
    pub time_limit: Duration,
    /// Where `failing.in` and `failing.ans` go.
    pub save_dir: PathBuf,
}

/// Settings for `gen`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// What the random files hold.
    pub spec: Spec,
    /// Write every game of this board size instead of random ones.
    pub all_games: Option<u32>,
    /// Write a folder of tests here instead of one file to the output.
    pub out_dir: Option<PathBuf>,
    /// How many tests the folder gets.
    pub count: u64,
    /// The rules the folder's `.ans` files are computed with.
    pub answer_rules: Rules,
    /// The format the inputs are written in.
    pub layout: Layout,
}
