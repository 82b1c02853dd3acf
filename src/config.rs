//! Plain settings for each command, made once from the command line.
//!
//! Nothing past [`crate::cli`] sees clap: the commands take these structs.

use crate::engine::Rules;
use std::path::PathBuf;

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
}
