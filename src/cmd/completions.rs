//! `completions`: print a shell's completion script for `tictactoe`, generated from the command line's own definition.

use crate::cli::Cli;
use crate::config::{CompletionsConfig, Shell};
use crate::error::Error;
use clap::CommandFactory;
use std::io::Write;

/// Writes the completion script for the shell.
pub fn run(config: &CompletionsConfig, mut output: impl Write) -> Result<(), Error> {
    let shell = match config.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    // The generators panic on a failed write: give them memory, and do the
    // real write here, where a failure is an error like any other.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "tictactoe", &mut script);
    output
        .write_all(&script)
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}
