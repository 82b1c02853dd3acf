//! The command line: one file per subcommand, each with its arguments, help, settings and run.
//!
//! What the user typed becomes a [`Config`] once; nothing past this module sees clap.

mod check;
mod completions;
mod convert;
mod generate;
mod man;
mod package;
mod solve;
mod stress;
mod supervise;
mod test;
mod trace;
mod validate;

pub use check::CheckConfig;
use check::{CHECK_HELP, CheckArgs};
use completions::{COMPLETIONS_HELP, CompletionsArgs};
pub use completions::CompletionsConfig;
pub use convert::ConvertConfig;
use convert::{CONVERT_HELP, ConvertArgs};
pub use generate::GenConfig;
use generate::{GEN_HELP, GenArgs};
use man::{MAN_HELP, ManArgs};
pub use package::PackageConfig;
use package::{PACKAGE_HELP, PackageArgs};
pub use solve::SolveConfig;
use solve::{SOLVE_HELP, SolveArgs};
pub use stress::StressConfig;
use stress::{STRESS_HELP, StressArgs};
pub use supervise::SuperviseConfig;
use supervise::SuperviseArgs;
pub use test::TestConfig;
use test::{TEST_HELP, TestArgs};
pub use trace::TraceConfig;
use trace::{TRACE_HELP, TraceArgs};
pub use validate::ValidateConfig;
use validate::{VALIDATE_HELP, ValidateArgs};

use crate::error::Error;
use crate::files::{InputSource, Output, OutputTarget};
use crate::format::Format;
use crate::game::{AfterWin, EngineKind, Rules};
use crate::judging::generate::{Bounds, OutcomeMix, Spec};
use crate::pipeline::parallel::MOST_THREADS;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `0.1.0 (commit 0123456789ab)`: the version and the commit built from.
pub(super) const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("TICTACTOE_COMMIT"),
    ")"
);

/// A reference solver for Design Tic-Tac-Toe (LeetCode 348).
///
/// Solving is the default command: `tictactoe FILE` is `tictactoe solve FILE`.
#[derive(Debug, Parser)]
#[command(
    name = "tictactoe",
    version = VERSION,
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
    // A later option overrides an earlier one: a package's validator
    // script pins the statement's bounds, and a judge's
    // `input_validator_flags` (`--max-n 50`) come after them.
    #[command(after_long_help = VALIDATE_HELP, args_override_self = true)]
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
    /// Write a complete problem package for Kattis, the ICPC format or DOMjudge.
    #[command(after_long_help = PACKAGE_HELP)]
    Package(PackageArgs),
    /// Print shell completions for bash, zsh, fish, PowerShell or Elvish.
    #[command(after_long_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
    /// Print the manual page (roff).
    #[command(after_long_help = MAN_HELP)]
    Man(ManArgs),
    /// The process between `test` or `stress` and a solution (internal).
    #[command(hide = true)]
    Supervise(SuperviseArgs),
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
    /// Supervise a solution's run, for `test` and `stress`.
    Supervise(SuperviseConfig),
    /// Write a problem package.
    Package(PackageConfig),
    /// Print the manual page: the main one, or a command's own.
    Man(Option<String>),
}

impl Cli {
    /// The settings the command line asks for, or why they cannot work together.
    pub fn into_config(self) -> Result<Config, Error> {
        Ok(match self.command {
            None => Config::Solve(self.solve.into_config()),
            Some(Command::Solve(args)) => Config::Solve(args.into_config()),
            Some(Command::Convert(args)) => Config::Convert(args.into_config()),
            Some(Command::Trace(args)) => Config::Trace(args.into_config()),
            Some(Command::Completions(args)) => Config::Completions(args.into_config()),
            Some(Command::Validate(args)) => Config::Validate(args.into_config()?),
            Some(Command::Check(args)) => Config::Check(args.into_config()?),
            Some(Command::Gen(args)) => Config::Gen(args.into_config()),
            Some(Command::Test(args)) => {
                crate::judging::process::runs_solutions_here().map_err(Error::Usage)?;
                Config::Test(args.into_config())
            }
            Some(Command::Stress(args)) => {
                crate::judging::process::runs_solutions_here().map_err(Error::Usage)?;
                Config::Stress(args.into_config())
            }
            Some(Command::Supervise(args)) => Config::Supervise(args.into_config()?),
            Some(Command::Package(args)) => Config::Package(args.into_config()?),
            Some(Command::Man(args)) => Config::Man(args.into_command()),
        })
    }
}

/// Runs a command line (without the program's name) to completion: the
/// binary's whole work but for the exit status, which `main` decides.
///
/// `Ok` carries the status of a command that ran: 0 for `solve`, and a
/// verdict for judge tools, whose protocols give statuses meanings.
pub fn run_command_line(args: Vec<OsString>) -> Result<u8, Failure> {
    // Straight to the solution: every page this process touches before its
    // exec counts in the solution's peak memory (the kernel keeps the
    // larger of the two), and the argument parser touches many.
    #[cfg(unix)]
    if let Some(status) = supervise::become_solution(&args) {
        return status.map_err(Failure::Run);
    }
    #[cfg(unix)]
    block_file_size_signal();
    if let Some(message) = mistyped_command(&args) {
        return Err(Failure::Run(Error::Usage(message)));
    }
    let config = match plain_solve(&args) {
        Some(config) => config,
        None => {
            let program = std::iter::once(OsString::from("tictactoe"));
            let testlib = is_testlib_command(&args);
            let cli = Cli::try_parse_from(program.chain(args)).map_err(|error| {
                // A testlib judge reads 2 as a presentation error: a
                // command line it cannot parse is FAIL, as testlib says.
                if testlib && error.use_stderr() {
                    Failure::TestlibRefused(error)
                } else {
                    Failure::Clap(error)
                }
            })?;
            // Arguments that cannot work are FAIL too, under testlib.
            let refused = |error| match error {
                Error::Usage(message) if testlib => Failure::TestlibFailed(message),
                error => Failure::Run(error),
            };
            let config = cli.into_config().map_err(refused)?;
            return run(config).map_err(refused);
        }
    };
    run(config).map_err(Failure::Run)
}

/// Whether the arguments ask for `check` or `validate` with `--protocol testlib`.
fn is_testlib_command(args: &[OsString]) -> bool {
    let words: Vec<&str> = args.iter().filter_map(|arg| arg.to_str()).collect();
    matches!(words.first(), Some(&("check" | "validate")))
        && (words.contains(&"--protocol=testlib")
            || words.windows(2).any(|pair| pair == ["--protocol", "testlib"]))
}

/// Why a command line did not run to completion; `main` makes it a status.
#[derive(Debug)]
pub enum Failure {
    /// The arguments, as clap found them (`--help` included).
    Clap(clap::Error),
    /// Arguments `check --protocol testlib` cannot parse: testlib's FAIL.
    TestlibRefused(clap::Error),
    /// Arguments a testlib checker or validator cannot work with: FAIL.
    TestlibFailed(String),
    /// The run.
    Run(Error),
}

/// What kind of [`Failure`] it was, for the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// `--help` or `--version`: the text is the answer.
    HelpAsked,
    /// Arguments that cannot work.
    Usage,
    /// The input breaks the format or the rules.
    Data,
    /// An input cannot be opened.
    NoInput,
    /// Reading or writing failed.
    Io,
    /// The memory the input needs is not there.
    NoMemory,
    /// A testlib checker's command line it cannot run with: FAIL.
    TestlibFail,
    /// The output was closed by its reader.
    ClosedOutput,
}

impl Failure {
    /// Its kind.
    pub fn kind(&self) -> FailureKind {
        match self {
            Failure::TestlibRefused(_) | Failure::TestlibFailed(_) => FailureKind::TestlibFail,
            Failure::Clap(error) if error.use_stderr() => FailureKind::Usage,
            Failure::Clap(_) => FailureKind::HelpAsked,
            Failure::Run(Error::Write(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {
                FailureKind::ClosedOutput
            }
            Failure::Run(error) if error.is_out_of_memory() => FailureKind::NoMemory,
            Failure::Run(Error::Data { .. } | Error::NoSuchCase { .. }) => FailureKind::Data,
            Failure::Run(Error::Open { .. }) => FailureKind::NoInput,
            Failure::Run(
                Error::Read { .. }
                | Error::CreateOutput { .. }
                | Error::Write(_)
                | Error::Process { .. },
            ) => FailureKind::Io,
            Failure::Run(Error::Usage(_)) => FailureKind::Usage,
        }
    }

    /// Writes the message where it belongs: clap's help on standard output,
    /// any error on standard error. An error in writing help (a full disk)
    /// is returned, since help is then the output asked for; one in writing
    /// an error has nowhere left to be reported.
    pub fn report(&self) -> std::io::Result<()> {
        match self {
            // Help is the output asked for: written as results are, so that
            // a standard output left non-blocking is waited for (clap's own
            // print gave up at the pipe's 4 KiB) and one that cannot be
            // written is an error.
            Failure::Clap(error) if self.kind() == FailureKind::HelpAsked => {
                use std::io::Write as _;
                let rendered = error.render();
                let colour = !matches!(
                    anstream::AutoStream::choice(&std::io::stdout()),
                    anstream::ColorChoice::Never
                );
                let text = match colour {
                    true => rendered.ansi().to_string(),
                    false => rendered.to_string(),
                };
                let mut out = crate::files::Output::stdout().map_err(|error| match error {
                    Error::Write(error) => error,
                    other => std::io::Error::other(other.to_string()),
                })?;
                return out.write_all(text.as_bytes()).and_then(|()| out.flush());
            }
            Failure::Clap(error) => {
                let _ = error.print();
            }
            Failure::TestlibRefused(error) => {
                let text = error.render().to_string();
                let first = text.lines().next().unwrap_or_default();
                let message = first.strip_prefix("error: ").unwrap_or(first);
                let _ = writeln!(std::io::stderr(), "FAIL {message}");
            }
            Failure::TestlibFailed(message) => {
                let _ = writeln!(std::io::stderr(), "FAIL {message}");
            }
            Failure::Run(error) => {
                let _ = writeln!(std::io::stderr(), "error: {error}");
            }
        }
        Ok(())
    }
}

/// Runs a command to completion.
///
/// `Ok` carries the exit status of a command that ran: 0 for `solve`, and a
/// verdict for judge tools, whose protocols give statuses meanings (Kattis
/// validators exit 42 for a valid file, say). `Err` is a failure to run, and
/// `main` maps it to a status of its own.
pub fn run(config: Config) -> Result<u8, Error> {
    let stdout = Output::stdout;
    match config {
        Config::Solve(config) => {
            use std::io::IsTerminal;
            if config.inputs.contains(&InputSource::Stdin) && std::io::stdin().is_terminal() {
                // A bare `tictactoe` on a terminal would otherwise wait in silence.
                let _ = writeln!(
                    std::io::stderr(),
                    "tictactoe: reading a problem input from the terminal; end it with Ctrl-D \
                     (tictactoe --help shows the commands)"
                );
            }
            let mut output = Output::create(&config.output, &config.inputs)?;
            solve::run(&config, &mut output)?;
            output.finish().map(|()| 0)
        }
        Config::Validate(config) => validate::run(&config, stdout()?, std::io::stderr()),
        Config::Check(config) => check::run(&config, stdout()?, std::io::stderr()),
        Config::Gen(config) => generate::run(&config, stdout()?),
        Config::Test(config) => {
            #[cfg(unix)]
            take_back_child_signal();
            test::run(&config, stdout()?)
        }
        Config::Stress(config) => {
            #[cfg(unix)]
            take_back_child_signal();
            stress::run(&config, stdout()?)
        }
        Config::Convert(config) => {
            let inputs = [config.input.clone()];
            let mut output = Output::create(&config.output, &inputs)?;
            convert::run(&config, &mut output)?;
            output.finish().map(|()| 0)
        }
        Config::Trace(config) => {
            let colour = trace::stdout_wants_colour(&config);
            trace::run(&config, stdout()?, colour).map(|()| 0)
        }
        Config::Completions(config) => completions::run(&config, stdout()?).map(|()| 0),
        Config::Supervise(config) => supervise::run(&config),
        Config::Package(config) => package::run(&config, stdout()?, std::io::stderr()),
        Config::Man(command) => man::run(command.as_deref(), stdout()?).map(|()| 0),
    }
}

/// A usage error for a rule clap cannot express: `main` gives it clap's status.
fn usage_error(message: &str) -> Error {
    Error::Usage(message.to_owned())
}

/// Splits a command line into words the way a POSIX shell would.
fn parse_command_line(line: &str) -> Result<CommandLine, String> {
    let words = shell_words::split(line).map_err(|e| e.to_string())?;
    let Some(program) = words.first() else {
        return Err("the command is empty".into());
    };
    crate::judging::process::startable(program)?;
    Ok(CommandLine(words))
}

/// The most seconds a duration option takes: about 31 years, far past any
/// run, and far enough from the clock's range that a deadline this far
/// ahead is always a time the system can hold (`1e19` panicked).
const MAX_SECONDS: f64 = 1e9;

/// Seconds, possibly fractional, as a duration.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if seconds.is_nan() {
        return Err("a number of seconds, not NaN".into());
    }
    if seconds > MAX_SECONDS {
        return Err(format!("at most {MAX_SECONDS} seconds"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
}

/// A time limit: seconds, more than none.
fn parse_time_limit(text: &str) -> Result<Duration, String> {
    match parse_seconds(text)? {
        limit if limit.is_zero() => Err("a time limit must be more than 0 seconds".into()),
        limit => Ok(limit),
    }
}

/// A memory size: a number of MiB, or a number with K, M or G (binary
/// units, an optional `iB` or `B` after them).
fn parse_memory(text: &str) -> Result<u64, String> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = text[digits.len()..].to_ascii_uppercase();
    let shift = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" | "M" => 20,
        "K" => 10,
        "G" => 30,
        _ => return Err(format!("{unit:?} is not a unit: use K, M or G")),
    };
    let amount: u64 = digits
        .parse()
        .map_err(|_| format!("{text:?} is not a size such as 256 or 1G"))?;
    match amount.checked_mul(1 << shift) {
        Some(0) | None => Err(format!("{text:?} is not a usable memory limit")),
        Some(bytes) => Ok(bytes),
    }
}

/// Limits a solution runs under, as `test` and `stress` take them.
#[derive(Debug, Args)]
struct LimitArgs {
    /// Seconds of wall time a run may take, for its whole process tree,
    /// before it is killed (TLE).
    #[arg(long, value_name = "SECS", default_value = "2", value_parser = parse_time_limit)]
    time_limit: Duration,
    /// Address space each process of a run may map: MiB, or with K, M or G
    /// (256, 1G). A run that fails for want of it is MLE [default: none].
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    memory_limit: Option<u64>,
}

impl LimitArgs {
    fn into_limits(self) -> crate::judging::process::Limits {
        crate::judging::process::Limits {
            time: self.time_limit,
            memory: self.memory_limit,
        }
    }
}

/// A solution's command line, already split into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine(pub Vec<String>);

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ToArg {
    /// LeetCode's two-array transcripts.
    Leetcode,
    /// The Coding Ninjas batch format.
    CodingNinjas,
}

impl From<ToArg> for Format {
    fn from(to: ToArg) -> Format {
        match to {
            ToArg::Leetcode => Format::Leetcode,
            ToArg::CodingNinjas => Format::CodingNinjas,
        }
    }
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
    fn into_format(self) -> Option<Format> {
        match self {
            FormatArg::Auto => None,
            FormatArg::CodingNinjas => Some(Format::CodingNinjas),
            FormatArg::Leetcode => Some(Format::Leetcode),
        }
    }
}

#[derive(Debug, Args)]
struct RulesArgs {
    #[command(flatten)]
    after_win: AfterWinArgs,
    /// How wins are detected.
    #[arg(long, value_enum, default_value_t = EngineArg::Counter)]
    engine: EngineArg,
}

/// `--threads`, for the commands that split a long input across cores.
#[derive(Debug, Args)]
struct ThreadsArgs {
    /// Threads for a long input: 1 reads it as one stream; 0 means one a
    /// core, at most 8. More than 64 count as 64.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
}

impl ThreadsArgs {
    /// The count asked for, capped: each thread holds a part's buffers, and
    /// thousands of them only exhaust memory and the process limit.
    fn count(&self) -> usize {
        self.threads.min(MOST_THREADS)
    }
}

/// `--after-win`, for every command that solves.
#[derive(Debug, Args)]
struct AfterWinArgs {
    /// What to do with moves after a game has been won (for the answers the
    /// built-in solver computes).
    #[arg(long, value_enum, default_value_t = AfterWinArg::Error)]
    after_win: AfterWinArg,
}

impl AfterWinArgs {
    /// The rules of the reference solver: this policy, the counter engine.
    fn into_rules(self) -> Rules {
        Rules {
            after_win: self.after_win.into(),
            engine: EngineKind::Counter,
        }
    }
}

impl RulesArgs {
    fn into_rules(self) -> Rules {
        Rules {
            engine: match self.engine {
                EngineArg::Counter => EngineKind::Counter,
                EngineArg::Scan => EngineKind::Scan,
            },
            ..self.after_win.into_rules()
        }
    }
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

impl From<AfterWinArg> for AfterWin {
    fn from(arg: AfterWinArg) -> AfterWin {
        match arg {
            AfterWinArg::Error => AfterWin::Error,
            AfterWinArg::Continue => AfterWin::Continue,
            AfterWinArg::Leetcode => AfterWin::Leetcode,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineArg {
    /// Running signed sums per line: O(1) per move.
    Counter,
    /// Looks at every cell of the lines through the move: for cross-checking.
    Scan,
}

/// The settings that decide a generated file's bytes.
#[derive(Debug, Args)]
pub(crate) struct SpecArgs {
    /// The seed [default: derived from the other settings].
    #[arg(long)]
    seed: Option<u64>,
    /// T, the number of cases in a file.
    #[arg(short = 't', long, default_value_t = Spec::default().cases)]
    cases: u64,
    /// The smallest board size N.
    #[arg(long, default_value_t = Spec::default().min_n)]
    min_n: u32,
    /// The largest board size N.
    #[arg(long, default_value_t = Spec::default().max_n)]
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
pub(crate) enum OutcomeArg {
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
pub(crate) enum LimitsArg {
    /// 1 <= T <= 100, 1 <= N <= 100, 5 <= Q <= N x N (so N >= 3), no move after a win.
    Statement,
    /// Anything the solver accepts: big T, N up to 10^9, long games.
    Relaxed,
}

impl SpecArgs {
    pub(super) fn into_spec(self) -> Spec {
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
                LimitsArg::Statement => Bounds::Statement,
                LimitsArg::Relaxed => Bounds::Relaxed,
            },
            play_past_win: self.play_past_win,
        }
    }
}

/// Makes a file size limit (`ulimit -f`) met while writing a write error,
/// which is reported (exit 74), rather than SIGXFSZ, which killed the
/// process with no word and a status no table lists. Blocked, the signal
/// stays pending and the write fails with EFBIG. Processes this one starts
/// begin with no signal blocked (the standard library clears the mask), so
/// solutions under `test` meet the limit as they would anywhere.
#[cfg(unix)]
fn block_file_size_signal() {
    let mut signals = nix::sys::signal::SigSet::empty();
    signals.add(nix::sys::signal::Signal::SIGXFSZ);
    // Without it the signal still ends the process, as before.
    let _ = signals.thread_block();
}

/// `test` and `stress` learn that a run ended by SIGCHLD (only they: the
/// other commands start no process, and solving pays nothing for it). A parent may have
/// left it ignored (bash passes an ignored signal on to what it runs): the
/// kernel then reaps the children unseen, and the waiting crate's handler
/// called the inherited `SIG_IGN` as a function (SIGSEGV, exit 139). One
/// left blocked is never delivered: every run was a TLE. So it is unblocked,
/// and given a handler of our own, which replaces an ignored disposition
/// and, unlike it, is not passed on to the processes this one starts (an
/// exec resets handlers to the default).
#[cfg(unix)]
fn take_back_child_signal() {
    let mut signals = nix::sys::signal::SigSet::empty();
    signals.add(nix::sys::signal::Signal::SIGCHLD);
    let _ = signals.thread_unblock();
    let noticed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Without it an ignored SIGCHLD stays ignored, as before.
    let _ = signal_hook::flag::register(signal_hook::consts::SIGCHLD, noticed);
}

/// Every subcommand's name, and `help`: the words [`plain_solve`] must leave
/// to clap. A test holds the list to clap's own.
const COMMAND_NAMES: [&str; 13] = [
    "solve",
    "validate",
    "check",
    "gen",
    "test",
    "stress",
    "convert",
    "trace",
    "completions",
    "package",
    "man",
    "help",
    HIDDEN_COMMAND,
];

/// The one internal command, never offered as a correction.
const HIDDEN_COMMAND: &str = "supervise";

/// A first argument that is no file but nearly a command's name
/// (`sovle`): a usage error saying which command was meant, rather than
/// "cannot open sovle".
fn mistyped_command(args: &[OsString]) -> Option<String> {
    let first = args.first()?.to_str()?;
    // A name with a dot or a slash, or a short one, is taken for a file.
    let file_like = first.contains(['.', '/']) || first.len() < 3 || first.starts_with('-');
    if file_like || COMMAND_NAMES.contains(&first) || Path::new(first).exists() {
        return None;
    }
    let (distance, closest) = COMMAND_NAMES
        .iter()
        .filter(|&&name| name != HIDDEN_COMMAND)
        .map(|name| (strsim::damerau_levenshtein(first, name), name))
        .min()?;
    let near = distance <= 1 || (distance == 2 && first.len() >= 5);
    near.then(|| format!("no command or file {first:?}; did you mean `tictactoe {closest}`?"))
}

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
        format: None,
        threads: 0,
    }))
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
        let check = |args: &[&str]| match Cli::parse_from(args).into_config().expect("valid") {
            Config::Check(config) => config,
            other => panic!("not a check: {other:?}"),
        };
        let path = |name: &str| Some(PathBuf::from(name));
        let testlib = check(&["tictactoe", "check", "--protocol", "testlib", "i", "o", "a"]);
        assert_eq!(
            (
                testlib.files.input,
                testlib.files.output,
                testlib.files.expected
            ),
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
                kattis.files.input,
                kattis.files.expected,
                kattis.feedback_dir,
                kattis.files.output
            ),
            (path("i"), path("a"), path("f"), InputSource::Stdin)
        );
        let oj = check(&["tictactoe", "check", "--protocol", "oj", "i", "o"]);
        assert_eq!(
            (oj.files.input, oj.files.output, oj.files.expected),
            (path("i"), InputSource::Path("o".into()), None)
        );
        let plain = check(&["tictactoe", "check", "--input", "i", "a"]);
        assert_eq!(
            (plain.files.input, plain.files.expected, plain.files.output),
            (path("i"), path("a"), InputSource::Stdin)
        );
    }

    #[test]
    fn plain_command_lines_skip_clap_and_mean_what_clap_reads() {
        for args in [&[][..], &["a.in"], &["a.in", "dir/b c.in"], &["validatex"]] {
            let os: Vec<OsString> = args.iter().map(OsString::from).collect();
            let clap = Cli::parse_from(std::iter::once("tictactoe").chain(args.iter().copied()));
            assert_eq!(plain_solve(&os), clap.into_config().ok(), "{args:?}");
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
        let implicit = Cli::parse_from(["tictactoe", "a.in", "--engine", "scan"])
            .into_config()
            .ok();
        let explicit = Cli::parse_from(["tictactoe", "solve", "a.in", "--engine", "scan"])
            .into_config()
            .ok();
        assert_eq!(implicit, explicit);
    }
}
