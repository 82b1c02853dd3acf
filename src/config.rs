//! Plain settings for each command, made once from the command line.
//!
//! Nothing past [`crate::cli`] sees clap: the commands take these structs.

use crate::engine::Rules;
use crate::validate::Limits;
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
}

/// A command with its settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Config {
    /// Solve inputs.
    Solve(SolveConfig),
    /// Validate an input.
    Validate(ValidateConfig),
}
