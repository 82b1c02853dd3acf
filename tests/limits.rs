//! A file at the problem's limits (100 cases, N = 100, up to 10,000 moves a
//! case) gives byte-identical output from both engines and from a brute force
//! written here, independently of the crate.

use assert_cmd::Command;
use itertools::Itertools;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: usize = 100;

/// The brute force: after each move, look at every cell of each line
/// through it.
struct Board {
    cells: Vec<Vec<u8>>,
}

impl Board {
    fn play(&mut self, r: usize, c: usize, p: u8) -> u8 {
        self.cells[r][c] = p;
        let row = (0..N).all(|i| self.cells[r][i] == p);
        let col = (0..N).all(|i| self.cells[i][c] == p);
        let diagonal = r == c && (0..N).all(|i| self.cells[i][i] == p);
        let anti = r + c == N - 1 && (0..N).all(|i| self.cells[i][N - 1 - i] == p);
        if row || col || diagonal || anti { p } else { 0 }
    }
}

/// One game: random cells, alternating players, stopping at the first win.
/// Every fourth game steers player 1 onto one line so that wins of every kind occur.
fn game(rng: &mut ChaCha8Rng, kind: usize) -> (Vec<(usize, usize, u8)>, Vec<u8>) {
    let mut cells: Vec<(usize, usize)> = (0..N).cartesian_product(0..N).collect();
    cells.shuffle(rng);
    if kind % 4 != 3 {
        let k = rng.random_range(0..N);
        let line: Vec<(usize, usize)> = match kind % 4 {
            0 => (0..N).map(|i| (k, i)).collect(),
            1 => (0..N).map(|i| (i, k)).collect(),
            _ if rng.random_bool(0.5) => (0..N).map(|i| (i, i)).collect(),
            _ => (0..N).map(|i| (i, N - 1 - i)).collect(),
        };
        let rest = cells.iter().filter(|cell| !line.contains(cell)).copied();
        cells = line.iter().copied().interleave(rest).collect();
    }
    let limit = rng.random_range(1..=N * N);
    let mut board = Board {
        cells: vec![vec![0; N]; N],
    };
    let (mut moves, mut results) = (Vec::new(), Vec::new());
    for (i, &(r, c)) in cells.iter().take(limit).enumerate() {
        let p = if i % 2 == 0 { 1 } else { 2 };
        let result = board.play(r, c, p);
        moves.push((r, c, p));
        results.push(result);
        if result != 0 {
            break;
        }
    }
    (moves, results)
}

#[test]
fn a_file_at_the_limits_solves_identically_in_both_engines_and_the_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(348);
    let mut input = String::from("100\n");
    let mut expected = String::new();
    let mut wins = 0;
    for case in 0..100 {
        let (moves, results) = game(&mut rng, case);
        input.push_str(&format!("{N}\n{}\n", moves.len()));
        for (r, c, p) in moves {
            input.push_str(&format!("{r} {c} {p}\n"));
        }
        wins += usize::from(results.last().is_some_and(|&r| r != 0));
        expected.push_str(&results.iter().join(" "));
        expected.push('\n');
    }
    assert!(
        wins >= 60,
        "the generated file should hold many wins, has {wins}"
    );
    for engine in ["counter", "scan"] {
        let output = Command::cargo_bin("tictactoe")
            .expect("binary is built")
            .args(["--engine", engine])
            .write_stdin(input.clone())
            .output()
            .expect("binary runs");
        assert_eq!(output.status.code(), Some(0), "{engine}: {output:?}");
        assert!(
            output.stdout == expected.as_bytes(),
            "engine {engine} disagrees with the brute force"
        );
    }
}
