//! `man`: print the manual page, generated from the command line's own definition.

use super::Cli;
use crate::error::Error;
use clap::{Args, CommandFactory};
use std::io::Write;

pub(super) const MAN_HELP: &str = "\
The page is roff, for man(1):

Examples:
  tictactoe man | man -l -
  tictactoe man > ~/.local/share/man/man1/tictactoe.1";

#[derive(Debug, Args)]
pub(super) struct ManArgs {}

/// Writes the manual page.
pub fn run(mut output: impl Write) -> Result<(), Error> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(Error::Write)?;
    output
        .write_all(&page)
        .and_then(|()| output.flush())
        .map_err(Error::Write)
}
