//! `trace`: replay one case and draw the board after every move, the walkthrough that shows why the O(1) method works.
//!
//! Every case of the input is played, so bad input anywhere gets the same
//! error as from `solve`; only the chosen case is drawn. A move the engine
//! refuses ends the trace there, after the boards that led up to it.

use super::{FormatArg, RulesArgs};
use crate::error::{Error, InputName};
use crate::files::InputSource;
use crate::format::Format;
use crate::format::board::{View, draw};
use crate::format::cases;
use crate::game::{AfterWin, BoardSize, Line, Lines, Outcome, Player, Rules, TicTacToe};
use clap::Args;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;

pub(super) const TRACE_HELP: &str = "\
Each move prints a line and the board after it:
  move 7: player 1 (X) at (2, 1) -> 1, player 1 wins (row 2)
  |X| |O|
  |O|O| |
  |X|X|X|
On a terminal X and O are coloured and the winning line is highlighted;
piped output, or NO_COLOR set, is plain. Boards wider than --window cells
show a window around the move and say which rows and columns it holds.

Examples (they work in any folder):
  printf '1 3 7  0 0 1  0 2 2  2 2 1  1 1 2  2 0 1  1 0 2  2 1 1' | tictactoe trace
  tictactoe gen --seed 1 | tictactoe trace --case 2 --counters

Exit status: 0 success, 2 usage error, 65 data error (with line and column;
also a --case the input does not have), 66 the input cannot be opened, 71 out
of memory for the board, 74 an I/O error.";

#[derive(Debug, Args)]
pub(super) struct TraceArgs {
    /// The input; none or `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// The case to replay, counting from 1.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    case: u64,
    /// Also print the running row, column and diagonal sums after each move.
    #[arg(long)]
    counters: bool,
    /// The widest board drawn whole, in cells (1 to 1000); larger boards
    /// show a window this wide around the move.
    #[arg(long, value_name = "CELLS", default_value_t = crate::format::board::MAX_SIDE, value_parser = clap::value_parser!(u32).range(1..=1000))]
    window: u32,
    /// The input format; `auto` picks LeetCode when the first non-whitespace byte is `[`.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// When to colour the boards: auto (a terminal without NO_COLOR), always, never.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Settings for `trace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceConfig {
    /// The input.
    pub input: InputSource,
    /// The format of the input.
    pub format: Option<Format>,
    /// The 1-based case to replay.
    pub case: u64,
    /// The engine and after-win policy.
    pub rules: Rules,
    /// Whether to print the running line sums after each move.
    pub counters: bool,
    /// The widest board drawn, in cells; larger boards show a window.
    pub window: u32,
    /// Colour: `None` decides by the terminal and the environment.
    pub colour: Option<bool>,
}

/// `--color`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ColorArg {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE other than 0 forces it).
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Whether standard output should get colour: only on a terminal, and not
/// with `NO_COLOR` set (anstream's rules, which also honour `CLICOLOR` and
/// `CLICOLOR_FORCE`). `CLICOLOR_FORCE=0` forces nothing, as the convention
/// (bixense.com/clicolors) has it; anstream takes any value for forcing, so
/// that case is decided here, by its other rules.
pub fn stdout_wants_colour(config: &TraceConfig) -> bool {
    if let Some(colour) = config.colour {
        return colour;
    }
    if std::env::var_os("CLICOLOR_FORCE").is_some_and(|value| value == "0") {
        // anstream's rules (anstyle-query's readings of each variable),
        // but for the force.
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
        let clicolor = std::env::var_os("CLICOLOR").map(|value| value != "0");
        let term_colours = match std::env::var_os("TERM") {
            Some(term) => term != "dumb",
            // Unset: a Windows console colours; elsewhere, a bare environment.
            None => cfg!(windows),
        };
        let ci = std::env::var_os("CI").is_some();
        return !no_color
            && clicolor != Some(false)
            && io::stdout().is_terminal()
            && (term_colours || clicolor == Some(true) || ci);
    }
    !matches!(
        anstream::AutoStream::choice(&io::stdout()),
        anstream::ColorChoice::Never
    )
}

/// Traces the chosen case onto `output`, in colour if `colour`.
pub fn run(config: &TraceConfig, output: impl Write, colour: bool) -> Result<(), Error> {
    crate::files::refuse_stdout_on(std::slice::from_ref(&config.input))?;
    let (_, mut cases) = cases::open(&config.input, config.format)?;
    let mut out = BufWriter::new(output);
    let mut game = TicTacToe::with_rules(BoardSize::MIN, config.rules);
    let mut number = 0;
    let traced = (|| {
        while let Some(header) = cases.next_case()? {
            number += 1;
            game.reset(header.size);
            if number != config.case {
                while cases.play_next(&mut game)?.is_some() {}
                continue;
            }
            let n = header.size.get();
            let plural = if header.moves == 1 { "" } else { "s" };
            writeln!(
                out,
                "case {number}: a {n} x {n} board, {} move{plural}",
                header.moves
            )
            .map_err(Error::Write)?;
            if n > config.window {
                let side = config.window;
                let cells = if side == 1 { "cell" } else { "cells" };
                writeln!(
                    out,
                    "the board is wider than {side} {cells}: each move shows the {side} x {side} \
                     {cells} around it (--window CELLS to change)"
                )
                .map_err(Error::Write)?;
            }
            let mut index = 0;
            while let Some(((row, col, player), outcome)) = cases.play_next(&mut game)? {
                index += 1;
                // The engine accepted the move, so its fields are on the board.
                let (row, col) = (row as u32, col as u32);
                let step = Step {
                    index,
                    row,
                    col,
                    player,
                    outcome,
                };
                write_step(&mut out, &game, &step, config, colour).map_err(Error::Write)?;
            }
        }
        Ok(())
    })();
    let finished = out.flush().map_err(Error::Write);
    traced.and(finished)?;
    if number < config.case {
        return Err(Error::NoSuchCase {
            input: input_name(&config.input),
            wanted: config.case,
            cases: number,
        });
    }
    Ok(())
}

/// A move the engine accepted.
struct Step {
    index: u64,
    row: u32,
    col: u32,
    player: i64,
    outcome: Outcome,
}

fn write_step(
    out: &mut impl Write,
    game: &TicTacToe,
    step: &Step,
    config: &TraceConfig,
    colour: bool,
) -> io::Result<()> {
    let Step {
        index,
        row,
        col,
        player,
        outcome,
    } = *step;
    let mark = Player::from_number(player).map_or('?', Player::mark);
    write!(
        out,
        "\nmove {index}: player {player} ({mark}) at ({row}, {col}) -> {}",
        outcome.number()
    )?;
    let full = match outcome {
        Outcome::NoWin => None,
        Outcome::Win(mover) => full_line(game, row, col).map(|found| (found, mover)),
    };
    match &full {
        None => writeln!(out)?,
        Some(((lines, owner, true), mover)) if owner == mover => {
            writeln!(out, ", player {} wins ({})", mover.number(), Lines(lines))?
        }
        // LeetCode's grader returns the mover for any full diagonal.
        Some(((lines, owner, _), _)) => writeln!(
            out,
            " (LeetCode's grader: the {} {} all {})",
            Lines(lines),
            if lines.len() == 1 { "is" } else { "are" },
            owner.mark()
        )?,
    }
    let view = View::around(game.size(), row, col, config.window);
    let highlight = full.as_ref().map_or(&[][..], |((lines, ..), _)| &lines[..]);
    out.write_all(draw(game, &view, highlight, colour).as_bytes())?;
    if config.counters {
        write_sums(out, game, &view)?;
    }
    Ok(())
}

/// The full lines that made a move return a player, whose they are, and
/// whether they go through the move: every line through the move that it
/// completed, or under the LeetCode policy the full diagonals.
fn full_line(game: &TicTacToe, row: u32, col: u32) -> Option<(Vec<Line>, Player, bool)> {
    let n = u64::from(game.size());
    let through: Vec<Line> = game.full_lines_through(row, col).collect();
    let (lines, through) = match through.is_empty() {
        false => (through, true),
        true => (
            [Line::Diagonal, Line::AntiDiagonal]
                .into_iter()
                .filter(|_| game.rules().after_win == AfterWin::Leetcode)
                .filter(|&line| game.line_sum(line).unsigned_abs() == n)
                .collect(),
            false,
        ),
    };
    let owner_of = |line: Line| {
        if game.line_sum(line) > 0 {
            Player::One
        } else {
            Player::Two
        }
    };
    let owner = owner_of(*lines.first()?);
    // On an even board the diagonals share no cell, and may be full of
    // different marks: only the first's owner's lines are named.
    let lines = lines
        .into_iter()
        .filter(|&line| owner_of(line) == owner)
        .collect();
    Some((lines, owner, through))
}

/// The running sums the counter engine keeps: +1 per X, -1 per O; a line is
/// full when its sum reaches N or -N.
fn write_sums(out: &mut impl Write, game: &TicTacToe, view: &View) -> io::Result<()> {
    let join = |sums: Vec<i64>| {
        sums.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let rows = join(
        view.rows
            .clone()
            .map(|r| game.line_sum(Line::Row(r)))
            .collect(),
    );
    let cols = join(
        view.cols
            .clone()
            .map(|c| game.line_sum(Line::Column(c)))
            .collect(),
    );
    writeln!(
        out,
        "sums (X +1, O -1; full at +-{n}): rows {rows} | columns {cols} | diagonal {} | anti-diagonal {}",
        game.line_sum(Line::Diagonal),
        game.line_sum(Line::AntiDiagonal),
        n = game.size(),
    )
}

fn input_name(source: &InputSource) -> InputName {
    match source {
        InputSource::Stdin => InputName::Stdin,
        InputSource::Path(path) => InputName::Path(path.clone()),
    }
}

impl TraceArgs {
    pub(super) fn into_config(self) -> TraceConfig {
        TraceConfig {
            input: self.file.map_or(InputSource::Stdin, InputSource::from_arg),
            format: self.format.into_format(),
            case: self.case,
            rules: self.rules.into_rules(),
            counters: self.counters,
            window: self.window,
            colour: match self.color {
                ColorArg::Auto => None,
                ColorArg::Always => Some(true),
                ColorArg::Never => Some(false),
            },
        }
    }
}
