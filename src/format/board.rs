//! Pictures of a board, for traces and for explaining a wrong answer.
//!
//! A large board is never drawn whole: a view is a window of at most a few
//! dozen cells a side around the cell of interest, and says which part of
//! the board it shows.

use crate::game::{Line, Player, TicTacToe};
use anstyle::{AnsiColor, Effects, Style};
use std::fmt::Write;
use std::ops::Range;

/// The widest window drawn, in cells.
pub const MAX_SIDE: u32 = 15;

/// The part of a board a picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Rows shown.
    pub rows: Range<u32>,
    /// Columns shown.
    pub cols: Range<u32>,
}

impl View {
    /// The whole board if it is at most `side` cells wide, else a `side` x
    /// `side` window centred (as far as the edges allow) on `(row, col)`.
    pub fn around(n: u32, row: u32, col: u32, side: u32) -> View {
        let span = |center: u32| {
            let side = side.min(n);
            let start = center.saturating_sub(side / 2).min(n - side);
            start..start + side
        };
        View {
            rows: span(row),
            cols: span(col),
        }
    }

    fn is_whole(&self, n: u32) -> bool {
        self.rows == (0..n) && self.cols == (0..n)
    }
}

/// Whether a cell lies on a line.
pub fn on_line(line: Line, n: u32, row: u32, col: u32) -> bool {
    match line {
        Line::Row(r) => row == r,
        Line::Column(c) => col == c,
        Line::Diagonal => row == col,
        Line::AntiDiagonal => u64::from(row) + u64::from(col) + 1 == u64::from(n),
    }
}

/// Draws the cells in `view` as `|X| |O|` rows, one line each. With
/// `colour`, X and O get distinct colours and the cells of the lines in
/// `highlight` are shown in reverse video.
pub fn draw(game: &TicTacToe, view: &View, highlight: &[Line], colour: bool) -> String {
    let n = game.size();
    let mut picture = String::new();
    if !view.is_whole(n) {
        let _ = writeln!(
            picture,
            "rows {}..={}, columns {}..={} of a {n} x {n} board:",
            view.rows.start,
            view.rows.end - 1,
            view.cols.start,
            view.cols.end - 1
        );
    }
    for row in view.rows.clone() {
        picture.push('|');
        for col in view.cols.clone() {
            let cell = game.cell(row, col);
            let mark = cell.map_or(' ', Player::mark);
            let highlighted = highlight.iter().any(|&line| on_line(line, n, row, col));
            if colour {
                let mut style = match cell {
                    Some(Player::One) => Style::new().fg_color(Some(AnsiColor::Red.into())),
                    Some(Player::Two) => Style::new().fg_color(Some(AnsiColor::Blue.into())),
                    None => Style::new(),
                };
                if highlighted {
                    style = style.effects(Effects::BOLD | Effects::INVERT);
                }
                let _ = write!(picture, "{style}{mark}{style:#}|");
            } else {
                let _ = write!(picture, "{mark}|");
            }
        }
        picture.push('\n');
    }
    picture
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_board_is_drawn_whole() {
        let mut game = TicTacToe::new(3).expect("valid size");
        for (r, c, p) in [(0, 0, 1), (0, 2, 2), (2, 2, 1), (1, 1, 2)] {
            game.play(r, c, p).expect("legal");
        }
        let view = View::around(3, 1, 1, MAX_SIDE);
        assert_eq!(
            draw(&game, &view, &[], false),
            "|X| |O|\n| |O| |\n| | |X|\n"
        );
    }

    #[test]
    fn a_large_board_is_drawn_as_a_window_that_says_where_it_is() {
        let mut game = TicTacToe::new(1_000_000_000).expect("valid size");
        game.play(500, 999_999_999, 1).expect("legal");
        let view = View::around(game.size(), 500, 999_999_999, 3);
        assert_eq!(view.rows, 499..502);
        assert_eq!(view.cols, 999_999_997..1_000_000_000);
        assert_eq!(
            draw(&game, &view, &[], false),
            "rows 499..=501, columns 999999997..=999999999 of a 1000000000 x 1000000000 board:\n\
             | | | |\n| | |X|\n| | | |\n"
        );
    }

    #[test]
    fn colour_marks_players_and_the_highlighted_line() {
        let mut game = TicTacToe::new(1).expect("valid size");
        game.play(0, 0, 1).expect("legal");
        let view = View::around(1, 0, 0, MAX_SIDE);
        let picture = draw(&game, &view, &[Line::Row(0)], true);
        assert!(picture.contains("\u{1b}["), "{picture:?}");
        assert!(picture.contains('X'));
    }
}
