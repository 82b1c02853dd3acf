//! The statement's guarantees about a game's moves, judged in one place:
//! every move to an empty cell on the board by player 1 or 2, players
//! alternating, no move after a win. `validate` reports what breaks them;
//! `stress` keeps its inputs within them.

use super::{AfterWin, MoveError, MoveField, Player, Rules, TicTacToe};

/// A guarantee a move breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Breach {
    /// Off the board, by no player, or onto a taken cell.
    Move(MoveError),
    /// The same player twice in a row.
    NotAlternating {
        /// The player who moved again.
        player: Player,
    },
    /// A move after the case was won.
    AfterWin {
        /// Who won.
        winner: Player,
        /// The winning move.
        at_move: u64,
    },
}

/// What [`Referee::play_clean`] played of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CleanBatch {
    /// How many moves, from the first, were played.
    pub played: usize,
    /// The move after the game's first win, if the batch has one.
    pub after_win: Option<AfterWinIn>,
}

/// A move of a batch after the game was won, to report once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AfterWinIn {
    /// Its index in the batch.
    pub index: usize,
    /// Who won.
    pub winner: Player,
    /// The winning move.
    pub at_move: u64,
}

/// Judges the moves of one game, in order.
#[derive(Debug, Default)]
pub struct Referee {
    previous_player: Option<Player>,
    after_win_reported: bool,
}

impl Referee {
    /// The rules the referee's game is played by: play goes on after a win,
    /// so that the moves after it are still judged.
    pub fn rules() -> Rules {
        Rules {
            after_win: AfterWin::Continue,
            ..Rules::default()
        }
    }

    /// Plays a move on `game` (played by [`Referee::rules`]) and reports
    /// each guarantee it breaks with the field it is about, in column order;
    /// a move after a win is reported once a game.
    pub fn judge<E>(
        &mut self,
        game: &mut TicTacToe,
        (row, col, player): (i64, i64, i64),
        mut report: impl FnMut(MoveField, Breach) -> Result<(), E>,
    ) -> Result<(), E> {
        if let (Some((winner, at_move)), false) = (game.winner(), self.after_win_reported) {
            self.after_win_reported = true;
            report(MoveField::Row, Breach::AfterWin { winner, at_move })?;
        }
        if let Err(why) = game.play(row, col, player) {
            report(why.field(), Breach::Move(why))?;
        }
        match Player::from_number(player) {
            Some(mover) => {
                if self.previous_player == Some(mover) {
                    report(MoveField::Player, Breach::NotAlternating { player: mover })?;
                }
                self.previous_player = Some(mover);
            }
            None => self.skipped(None),
        }
        Ok(())
    }

    /// Takes note of a move that could not be judged (a field unreadable,
    /// or no player 1 or 2): its player, if that much is known. If not, the
    /// next move is not held to alternate with either move before it: it
    /// may follow the move that is not there, or stand in for it.
    pub fn skipped(&mut self, player: Option<i64>) {
        self.previous_player = player.and_then(Player::from_number);
    }

    /// Plays `moves` on `game` as a batch while they break nothing, as
    /// [`Referee::judge`] would one by one: only if their players alternate
    /// and the game is not won before them, and up to the first move the
    /// game refuses. `outcomes` holds at least as many results as `moves`.
    /// The moves from [`CleanBatch::played`] on are the caller's to judge
    /// one by one; a move after a win among those played is the caller's
    /// to report, before them.
    pub fn play_clean(
        &mut self,
        game: &mut TicTacToe,
        moves: &[[u32; 3]],
        outcomes: &mut [u8],
    ) -> CleanBatch {
        let alternating = self.would_alternate(moves.iter().map(|&[_, _, player]| player));
        let played = if alternating && game.winner().is_none() {
            match game.play_batch(moves, outcomes) {
                Ok(()) => moves.len(),
                Err((index, _)) => index,
            }
        } else {
            0
        };
        let Some(&[_, _, last_player]) = played.checked_sub(1).and_then(|last| moves.get(last))
        else {
            return CleanBatch {
                played,
                after_win: None,
            };
        };
        self.played(last_player, false);
        // The only thing a played move can break: following the first win.
        let won_at = outcomes[..played].iter().position(|&outcome| outcome != 0);
        let after_win = match (won_at, game.winner()) {
            (Some(won_at), Some((winner, at_move))) if won_at + 1 < moves.len() => {
                self.played(last_player, true);
                Some(AfterWinIn {
                    index: won_at + 1,
                    winner,
                    at_move,
                })
            }
            _ => None,
        };
        CleanBatch { played, after_win }
    }

    /// Whether moves by `players`, after those judged so far, alternate.
    pub fn would_alternate(&self, players: impl IntoIterator<Item = u32>) -> bool {
        let previous = self
            .previous_player
            .map(|player| u32::from(player.number()));
        alternate(previous.into_iter().chain(players))
    }

    /// Takes note of moves played without [`Referee::judge`] (a batch found
    /// clean), the last of them by `last_player`, and of whether a move
    /// after a win among them was reported.
    pub fn played(&mut self, last_player: u32, after_win_reported: bool) {
        self.previous_player = Player::from_number(i64::from(last_player));
        self.after_win_reported |= after_win_reported;
    }
}

/// Whether no player moves twice in a row.
pub fn alternate(players: impl IntoIterator<Item = u32>) -> bool {
    let mut previous = None;
    players.into_iter().all(|player| {
        let changed = previous != Some(player);
        previous = Some(player);
        changed
    })
}
