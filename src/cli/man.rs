//! `man`: print the manual page, generated from the command line's own definition.

use super::Cli;
use crate::error::Error;
use clap::{Args, CommandFactory};
use std::io::Write;

pub(super) const MAN_HELP: &str = "\
The page is roff, for man(1). The main page names each command's own page,
tictactoe-solve(1) and so on: `tictactoe man solve` prints that one.

Examples:
  tictactoe man | man -l -
  tictactoe man > ~/.local/share/man/man1/tictactoe.1
  tictactoe man solve > ~/.local/share/man/man1/tictactoe-solve.1

Exit status: 0 success, 2 usage error (an unknown command), 74 an I/O error.";

#[derive(Debug, Args)]
pub(super) struct ManArgs {
    /// The command whose own page to print, tictactoe-COMMAND(1) [default: the main page]
    command: Option<String>,
}

impl ManArgs {
    pub(super) fn into_command(self) -> Option<String> {
        self.command
    }
}

/// Writes the manual page: the main one, or `command`'s own.
pub fn run(command: Option<&str>, mut output: impl Write) -> Result<(), Error> {
    let mut main = Cli::command();
    main.build();
    let shown = match command {
        None => main,
        // Named as the main page's list names it; only the commands `--help` lists.
        Some(name) => match main.find_subcommand(name).filter(|found| !found.is_hide_set()) {
            // clap's `help` names every command again beneath it, which
            // its page would list as pages (tictactoe-help-solve(1)) that
            // do not exist: its page is its own alone.
            Some(subcommand) if subcommand.has_subcommands() => {
                clap::Command::new("help")
                    .display_name(subcommand.get_display_name().unwrap_or_default().to_owned())
                    .bin_name(subcommand.get_bin_name().unwrap_or_default().to_owned())
                    .about(subcommand.get_about().cloned().unwrap_or_default())
                    .disable_help_flag(true)
                    .arg(
                        clap::Arg::new("COMMAND")
                            .num_args(0..)
                            .help("The command (and its subcommand) whose help to print"),
                    )
            }
            // Built, it is named `tictactoe-NAME` (its display name).
            Some(subcommand) => subcommand.clone(),
            None => {
                let names = main
                    .get_subcommands()
                    .filter(|command| !command.is_hide_set())
                    .map(|command| command.get_name())
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(Error::Usage(format!("no command {name}: the pages are for {names}")));
            }
        },
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(shown)
        // Every page is the tool's, whichever command it is about.
        .source(format!("tictactoe {}", super::VERSION))
        .render(&mut page)
        .map_err(Error::Write)?;
    output
        .write_all(&laid_out_as_written(page))
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}

/// The page with the text after the options (the help's examples, formats
/// and exit statuses) kept line for line, as `--help` shows it, in a
/// section named NOTES. clap_mangen puts it in an EXTRA section as text
/// that man(1) fills, which ran the examples and a format's lines together.
fn laid_out_as_written(page: Vec<u8>) -> Vec<u8> {
    const EXTRA: &str = ".SH EXTRA\n";
    let text = match String::from_utf8(page) {
        Ok(text) => text,
        Err(not_text) => return not_text.into_bytes(),
    };
    let Some(start) = text.find(EXTRA) else {
        return text.into_bytes();
    };
    let body = start + EXTRA.len();
    let end = text[body..].find("\n.SH ").map_or(text.len(), |at| body + at + 1);
    format!(
        "{}.SH NOTES\n.nf\n{}.fi\n{}",
        &text[..start],
        &text[body..end],
        &text[end..]
    )
    .into_bytes()
}
