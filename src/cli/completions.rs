//! `completions`: print a shell's completion script for `tictactoe`, generated from the command line's own definition.

use super::Cli;
use crate::error::Error;
use clap::{Args, CommandFactory, ValueEnum};
use std::io::Write;

pub(super) const COMPLETIONS_HELP: &str = "\
Examples (the folders must exist):
  tictactoe completions bash > ~/.local/share/bash-completion/completions/tictactoe
  tictactoe completions zsh > ~/.zfunc/_tictactoe
  tictactoe completions fish > ~/.config/fish/completions/tictactoe.fish
  tictactoe completions elvish > ~/.config/elvish/lib/tictactoe.elv
and in PowerShell:
  tictactoe completions powershell >> $PROFILE

Exit status: 0 success, 2 usage error, 74 an I/O error.";

#[derive(Debug, Args)]
pub(super) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: ShellArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum ShellArg {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
    /// PowerShell.
    Powershell,
    /// Elvish.
    Elvish,
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
    /// PowerShell.
    Powershell,
    /// Elvish.
    Elvish,
}

/// Settings for `completions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompletionsConfig {
    /// The shell.
    pub shell: Shell,
}

/// Writes the completion script for the shell.
pub fn run(config: &CompletionsConfig, mut output: impl Write) -> Result<(), Error> {
    let shell = match config.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
        Shell::Powershell => clap_complete::Shell::PowerShell,
        Shell::Elvish => clap_complete::Shell::Elvish,
    };
    // The generators panic on a failed write: give them memory, and do the
    // real write here, where a failure is an error like any other.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut offered(), "tictactoe", &mut script);
    if shell == clap_complete::Shell::Fish {
        script = fish_mended(script);
    }
    output
        .write_all(&script)
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}

/// The command line as a shell offers it: without the subcommands `--help`
/// hides (the supervisor `test` and `stress` start), which the generators
/// would offer among the others, and without the top-level FILEs (`tictactoe
/// in.txt` solves it): zsh's script took the first word for one, and never
/// reached a subcommand's options. `tictactoe solve ` offers files.
fn offered() -> clap::Command {
    let full = Cli::command();
    let visible = full
        .get_subcommands()
        .filter(|subcommand| !subcommand.is_hide_set())
        .cloned()
        .collect::<Vec<_>>();
    let mut command = clap::Command::new("tictactoe")
        .version(env!("CARGO_PKG_VERSION"))
        .args(full.get_arguments().filter(|arg| !arg.is_positional()).cloned())
        .subcommands(visible);
    if let Some(about) = full.get_about() {
        command = command.about(about.clone());
    }
    command
}

/// The fish script with two gaps of its generator filled (it tries fish's
/// own `complete -C` in tests/completions.rs):
/// - a top-level option waiting for its value (`tictactoe --after-win `)
///   made the test for "no subcommand yet" fail, so that files were offered
///   instead of the option's values;
/// - positional arguments are not generated at all: a subcommand's
///   positional values (`completions bash|zsh|...`) are added.
fn fish_mended(script: Vec<u8>) -> Vec<u8> {
    let mut text = String::from_utf8_lossy(&script).into_owned();
    // argparse fails only on the options before the subcommand: then
    // there is none yet.
    text = text.replacen(
        "argparse -s (__fish_tictactoe_global_optspecs) -- $cmd 2>/dev/null\n    or return\n",
        "argparse -s (__fish_tictactoe_global_optspecs) -- $cmd 2>/dev/null\n    or return 0\n",
        1,
    );
    for subcommand in offered().get_subcommands() {
        for positional in subcommand.get_positionals() {
            let values: Vec<String> = positional
                .get_possible_values()
                .iter()
                .filter(|value| !value.is_hide_set())
                .map(|value| value.get_name().to_owned())
                .collect();
            if !values.is_empty() {
                text.push_str(&format!(
                    "complete -c tictactoe -n \"__fish_tictactoe_using_subcommand {}\" -f -a \"{}\"\n",
                    subcommand.get_name(),
                    values.join(" ")
                ));
            }
        }
    }
    text.into_bytes()
}

impl CompletionsArgs {
    pub(super) fn into_config(self) -> CompletionsConfig {
        CompletionsConfig {
            shell: match self.shell {
                ShellArg::Bash => Shell::Bash,
                ShellArg::Zsh => Shell::Zsh,
                ShellArg::Fish => Shell::Fish,
                ShellArg::Powershell => Shell::Powershell,
                ShellArg::Elvish => Shell::Elvish,
            },
        }
    }
}
