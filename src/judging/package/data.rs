//! The package's test data: games built to catch the usual mistakes, and
//! generated files, each from a seed the package records, so that the same
//! command rebuilds the same bytes.

use crate::judging::generate::{Bounds, Case, Generator, Move, OutcomeMix, Spec};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One test file of the package.
#[derive(Clone, Debug)]
pub struct TestFile {
    /// `sample` or `secret`.
    pub group: &'static str,
    /// The test group within `secret` (`lines`, `outcomes`, `size`), for the
    /// formats that nest groups.
    pub subgroup: Option<&'static str>,
    /// The file name without its extension.
    pub name: String,
    /// How it was made: the generator's settings and seed, or the builder's.
    pub made: String,
    /// The mistakes it is there to catch.
    pub targets: &'static str,
    /// Its cases.
    pub cases: Vec<Case>,
}

/// A line of the board a game is won on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    Row(u32),
    Column(u32),
    Diagonal,
    AntiDiagonal,
}

impl Line {
    /// The cells of the line on an `n` x `n` board.
    fn cells(self, n: u32) -> Vec<(u32, u32)> {
        (0..n)
            .map(|i| match self {
                Line::Row(r) => (r, i),
                Line::Column(c) => (i, c),
                Line::Diagonal => (i, i),
                Line::AntiDiagonal => (i, n - 1 - i),
            })
            .collect()
    }

    /// Every line of an `n` x `n` board.
    fn all(n: u32) -> Vec<Line> {
        let mut lines: Vec<Line> = (0..n).map(Line::Row).collect();
        lines.extend((0..n).map(Line::Column));
        lines.extend([Line::Diagonal, Line::AntiDiagonal]);
        lines
    }

    /// The lines through a cell.
    fn through(n: u32, (row, col): (u32, u32)) -> Vec<Line> {
        Line::all(n)
            .into_iter()
            .filter(|line| line.cells(n).contains(&(row, col)))
            .collect()
    }
}

/// A game `winner` wins on `line` with its last move, at `last` if given:
/// the winner plays only the line's cells, in a random order, and moves
/// first; the other player answers with N - 1 random cells off the line,
/// too few to fill any line. So the last move is the only win, and players
/// alternate.
fn won_on(n: u32, line: Line, winner: u8, last: Option<(u32, u32)>, rng: &mut ChaCha8Rng) -> Case {
    let mut cells = line.cells(n);
    cells.shuffle(rng);
    if let Some(last) = last
        && let Some(at) = cells.iter().position(|&cell| cell == last)
    {
        let end = cells.len() - 1;
        cells.swap(at, end);
    }
    let mut off: Vec<(u32, u32)> = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .filter(|cell| !cells.contains(cell))
        .collect();
    off.shuffle(rng);
    let other = 3 - winner;
    let mut moves = Vec::with_capacity(2 * n as usize - 1);
    for (i, &(row, col)) in cells.iter().enumerate() {
        moves.push(Move { row, col, player: winner });
        if i + 1 < cells.len() {
            let (row, col) = off[i];
            moves.push(Move { row, col, player: other });
        }
    }
    Case { n, moves }
}

/// A game whose last move fills the board and wins for `winner`: a
/// colouring of the board with one full line, `winner`'s, and no other
/// (drawn at random until one is found), played with that line's last
/// cell last and the players alternating. What a solution that calls a
/// full board a draw, or stops looking once it is full, gets wrong.
fn fills_the_board_and_wins(n: u32, winner: u8, rng: &mut ChaCha8Rng) -> Case {
    let mut cells: Vec<(u32, u32)> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
    let mine = cells.len().div_ceil(2);
    loop {
        cells.shuffle(rng);
        let (winners, others) = cells.split_at(mine);
        let full = |marks: &[(u32, u32)]| -> Vec<Line> {
            Line::all(n)
                .into_iter()
                .filter(|line| line.cells(n).iter().all(|cell| marks.contains(cell)))
                .collect()
        };
        let [line] = full(winners)[..] else { continue };
        if !full(others).is_empty() {
            continue;
        }
        let last = line.cells(n)[rng.random_range(0..n as usize)];
        let mut leading: Vec<(u32, u32)> =
            winners.iter().copied().filter(|&cell| cell != last).collect();
        leading.shuffle(rng);
        let mut following = others.to_vec();
        following.shuffle(rng);
        // The winner moves last: first too on an odd board, second on an even one.
        let (first, second, first_player) = if leading.len() < following.len() {
            (following, leading, 3 - winner)
        } else {
            (leading, following, winner)
        };
        let mut moves = Vec::with_capacity(cells.len());
        for (i, &(row, col)) in first.iter().enumerate() {
            moves.push(Move { row, col, player: first_player });
            if let Some(&(row, col)) = second.get(i) {
                moves.push(Move { row, col, player: 3 - first_player });
            }
        }
        moves.push(Move { row: last.0, col: last.1, player: winner });
        return Case { n, moves };
    }
}

/// Moves from `(row, col, player)` triples.
fn played(n: u32, moves: &[(u32, u32, u8)]) -> Case {
    Case {
        n,
        moves: moves
            .iter()
            .map(|&(row, col, player)| Move { row, col, player })
            .collect(),
    }
}

/// The statement's example: X completes the bottom row with the seventh move.
pub fn leetcode_example() -> Case {
    played(
        3,
        &[(0, 0, 1), (0, 2, 2), (2, 2, 1), (1, 1, 2), (2, 0, 1), (1, 0, 2), (2, 1, 1)],
    )
}

/// Cases of at most the statement's 100 to a file.
const MOST_CASES: usize = 100;

/// Every test file, from `seed`.
pub fn test_files(seed: u64) -> Vec<TestFile> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut files = Vec::new();
    files.push(TestFile {
        group: "sample",
        subgroup: None,
        name: "1".into(),
        made: "the statement's example".into(),
        targets: "reading the format; a win on the last move",
        cases: vec![leetcode_example()],
    });
    files.push(TestFile {
        group: "sample",
        subgroup: None,
        name: "2".into(),
        made: format!("built, seed {seed}"),
        targets: "each outcome: X wins on a row, O on the anti-diagonal, a draw, an unfinished game",
        cases: vec![
            won_on(3, Line::Row(1), 1, None, &mut rng),
            won_on(4, Line::AntiDiagonal, 2, None, &mut rng),
            played(
                3,
                &[
                    (0, 0, 1),
                    (1, 1, 2),
                    (2, 2, 1),
                    (0, 2, 2),
                    (2, 0, 1),
                    (1, 0, 2),
                    (1, 2, 1),
                    (2, 1, 2),
                    (0, 1, 1),
                ],
            ),
            played(3, &[(0, 0, 1), (0, 1, 2), (1, 1, 1), (2, 2, 2), (1, 0, 1)]),
        ],
    });
    let every_line = |sizes: &[u32], rng: &mut ChaCha8Rng| -> Vec<Case> {
        let mut cases = Vec::new();
        for &n in sizes {
            for (i, line) in Line::all(n).into_iter().enumerate() {
                let winner = if i % 2 == 0 { 1 } else { 2 };
                cases.push(won_on(n, line, winner, None, rng));
            }
        }
        cases
    };
    files.push(TestFile {
        group: "secret",
        subgroup: Some("lines"),
        name: "01-every-line-odd-n".into(),
        made: format!("built, seed {seed}: every row, column and diagonal won once, N = 3, 5, 7"),
        targets: "a forgotten diagonal or anti-diagonal; an anti-diagonal test off by one (r + c == N); \
                  checking only some lines; both players winning",
        cases: every_line(&[3, 5, 7], &mut rng),
    });
    files.push(TestFile {
        group: "secret",
        subgroup: Some("lines"),
        name: "02-every-line-even-n".into(),
        made: format!("built, seed {seed}: every row, column and diagonal won once, N = 4, 6, 8"),
        targets: "the same on even boards, where no cell lies on both diagonals",
        cases: every_line(&[4, 6, 8], &mut rng),
    });
    let mut crossing = Vec::new();
    for n in [3, 4, 5, 6] {
        let mut cells = vec![(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1), (1, 1), (1, n - 2)];
        if n % 2 == 1 {
            cells.push((n / 2, n / 2));
        }
        cells.dedup();
        for cell in cells {
            for line in Line::through(n, cell) {
                let winner = if crossing.len() % 2 == 0 { 2 } else { 1 };
                crossing.push(won_on(n, line, winner, Some(cell), &mut rng));
            }
        }
    }
    crossing.truncate(MOST_CASES);
    files.push(TestFile {
        group: "secret",
        subgroup: Some("lines"),
        name: "03-wins-on-crossing-cells".into(),
        made: format!(
            "built, seed {seed}: the winning move on a corner, the centre or another cell \
             on two or more lines, won on each line through it, N = 3 to 6"
        ),
        targets: "a move on two lines that updates or checks only one of them",
        cases: crossing,
    });
    let filling = (3..=8)
        .flat_map(|n| [1, 2, 1, 2].map(|winner| (n, winner)))
        .map(|(n, winner)| fills_the_board_and_wins(n, winner, &mut rng))
        .collect();
    files.push(TestFile {
        group: "secret",
        subgroup: Some("outcomes"),
        name: "09-wins-that-fill-the-board".into(),
        made: format!(
            "built, seed {seed}: full boards whose last move completes the winner's one \
             full line, N = 3 to 8, each player winning"
        ),
        targets: "a full board taken for a draw; a win looked for only before the board fills",
        cases: filling,
    });
    let generated: [(&str, &str, &str, OutcomeMix, u32, u32, u64); 5] = [
        (
            "04-draws",
            "full lines of both players, which are no win",
            "counting the marks on a line rather than whose they are",
            OutcomeMix::Draw,
            3,
            12,
            100,
        ),
        (
            "05-unfinished",
            "games that stop with nobody winning",
            "reporting a win that has not happened",
            OutcomeMix::Open,
            3,
            20,
            100,
        ),
        (
            "06-many-mixed-cases",
            "100 cases of every outcome one after another",
            "state kept from one case to the next; output not one line per case",
            OutcomeMix::Mixed,
            3,
            40,
            100,
        ),
        (
            "07-big-boards-won",
            "late wins on boards of 90 to 100",
            "fixed-size arrays too small; wins found only on small boards",
            OutcomeMix::Win,
            90,
            100,
            20,
        ),
        (
            "08-largest",
            "the largest file the bounds allow: 100 full boards of N = 100, a million moves",
            "a solution far slower than O(1) a move (scanning the whole board, O(N^2) a move); \
             scanning the move's lines, O(N) a move, passes",
            OutcomeMix::Draw,
            100,
            100,
            100,
        ),
    ];
    for (index, (name, what, targets, outcome, min_n, max_n, cases)) in
        generated.into_iter().enumerate()
    {
        let spec = Spec {
            seed: Some(seed.wrapping_add(index as u64 + 1)),
            cases,
            min_n,
            max_n,
            max_moves: None,
            outcome,
            limits: Bounds::Statement,
            play_past_win: false,
        };
        let mut generator = Generator::new(&spec, 0);
        files.push(TestFile {
            group: "secret",
            subgroup: Some(if index < 3 { "outcomes" } else { "size" }),
            name: name.into(),
            made: format!(
                "{what}: tictactoe gen --seed {} --cases {cases} --min-n {min_n} --max-n {max_n} \
                 --outcome {}",
                spec.seed(),
                match outcome {
                    OutcomeMix::Win => "win",
                    OutcomeMix::Draw => "draw",
                    OutcomeMix::Open => "open",
                    OutcomeMix::Mixed => "mixed",
                }
            ),
            targets,
            cases: (0..cases).map(|_| generator.next_case()).collect(),
        });
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{BoardSize, Outcome, Rules, TicTacToe};

    /// The results of a case, by the engine.
    fn results(case: &Case) -> Vec<u8> {
        let size = BoardSize::new(i64::from(case.n)).expect("a board");
        let mut game = TicTacToe::with_rules(size, Rules::default());
        case.moves
            .iter()
            .map(|m| {
                match game.play(i64::from(m.row), i64::from(m.col), i64::from(m.player)) {
                    Ok(Outcome::Win(player)) => player.number(),
                    Ok(_) => 0,
                    Err(error) => panic!("{error}"),
                }
            })
            .collect()
    }

    #[test]
    fn a_built_game_is_won_by_its_last_move_only_on_its_line() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for n in 3..=8 {
            for line in Line::all(n) {
                for winner in [1, 2] {
                    let case = won_on(n, line, winner, None, &mut rng);
                    let got = results(&case);
                    let (last, before) = got.split_last().expect("moves");
                    assert_eq!(*last, winner);
                    assert!(before.iter().all(|&r| r == 0), "{n} {line:?}");
                }
            }
        }
    }

    #[test]
    fn a_board_filling_game_is_won_by_its_last_move_alone_and_players_alternate() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for n in 3..=8 {
            for winner in [1, 2] {
                let case = fills_the_board_and_wins(n, winner, &mut rng);
                assert_eq!(case.moves.len() as u32, n * n);
                let got = results(&case);
                let (last, before) = got.split_last().expect("moves");
                assert_eq!(*last, winner, "{n}");
                assert!(before.iter().all(|&r| r == 0), "{n}");
                assert!(
                    case.moves.windows(2).all(|pair| pair[0].player != pair[1].player),
                    "{n}"
                );
            }
        }
    }

    #[test]
    fn the_winning_cell_is_last_when_asked() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let case = won_on(5, Line::AntiDiagonal, 2, Some((2, 2)), &mut rng);
        let last = case.moves.last().expect("moves");
        assert_eq!((last.row, last.col), (2, 2));
    }

    #[test]
    fn the_samples_end_every_way_and_files_keep_the_statement() {
        let files = test_files(1);
        let sample: Vec<Vec<u8>> = files[1].cases.iter().map(results).collect();
        assert_eq!(sample[0].last(), Some(&1));
        assert_eq!(sample[1].last(), Some(&2));
        assert!(sample[2].iter().all(|&r| r == 0) && sample[2].len() == 9);
        assert!(sample[3].iter().all(|&r| r == 0) && sample[3].len() == 5);
        for file in &files {
            assert!((1..=MOST_CASES).contains(&file.cases.len()), "{}", file.name);
            for case in &file.cases {
                let q = case.moves.len() as u64;
                assert!((5..=u64::from(case.n).pow(2)).contains(&q), "{}", file.name);
            }
        }
    }
}
