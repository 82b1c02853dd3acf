//! Criterion benchmarks for the parts of the hot path: the reader, the
//! engine (dense and sparse boards) and the writer. `cargo bench` runs them;
//! `benches/compare.sh` measures the whole binary against `wc -l` and friends.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::io::{self, Write};
use tictactoe::error::InputName;
use tictactoe::format::write::ResultWriter;
use tictactoe::game::{BoardSize, Outcome, Rules, TicTacToe};
use tictactoe::pipeline::run_stream;

/// Distinct random cells of an `n` x `n` board (coordinates below `span`),
/// with alternating players.
fn moves(n: i64, span: i64, count: usize, seed: u64) -> Vec<(i64, i64, i64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cells: Vec<i64> = (0..span * span).collect();
    cells.shuffle(&mut rng);
    let _ = n;
    cells
        .into_iter()
        .take(count)
        .enumerate()
        .map(|(i, cell)| (cell / span, cell % span, 1 + (i % 2) as i64))
        .collect()
}

/// A Coding Ninjas file of `cases` random games on boards of 3 to 100.
fn input_file(cases: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut text = format!("{cases}\n");
    for case in 0..cases {
        let n = rng.random_range(3..=100i64);
        let q = rng.random_range(5..=(n * n) as usize);
        let mut game = TicTacToe::new(n).expect("valid size");
        let mut played = Vec::new();
        for (r, c, p) in moves(n, n, q, case as u64) {
            played.push(format!("{r} {c} {p}\n"));
            if game.play(r, c, p).expect("legal") != Outcome::NoWin {
                break;
            }
        }
        text.push_str(&format!("{n}\n{}\n", played.len()));
        text.extend(played);
    }
    text.into_bytes()
}

fn reader_and_solver(c: &mut Criterion) {
    let input = input_file(40);
    let mut group = c.benchmark_group("solve");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("coding-ninjas file", |b| {
        b.iter(|| {
            run_stream(
                black_box(&input[..]),
                InputName::Stdin,
                Rules::default(),
                io::sink(),
            )
        })
    });
    group.finish();
}

fn engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    for (name, n) in [("dense N=1000", 1000), ("sparse N=10^9", 1_000_000_000)] {
        let played = moves(n, 1000, 100_000, 1);
        let size = BoardSize::new(n).expect("valid size");
        let mut game = TicTacToe::with_rules(size, Rules::default());
        group.throughput(Throughput::Elements(played.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("100k moves", name),
            &played,
            |b, played| {
                b.iter(|| {
                    game.reset(size);
                    for &(r, c, p) in played {
                        black_box(game.play(r, c, p).expect("legal"));
                    }
                })
            },
        );
    }
    group.finish();
}

fn writer(c: &mut Criterion) {
    let mut group = c.benchmark_group("writer");
    group.throughput(Throughput::Elements(1_000_000));
    group.bench_function("1M results in 1000 lines", |b| {
        b.iter(|| {
            let mut writer = ResultWriter::new(io::sink());
            for _ in 0..1000 {
                writer.begin_case();
                for _ in 0..1000 {
                    writer.push(black_box(Outcome::NoWin));
                }
                writer.end_case().expect("sink");
            }
            writer.finish().expect("sink");
            io::sink().flush().expect("sink");
        })
    });
    group.finish();
}

criterion_group!(benches, reader_and_solver, engine, writer);
criterion_main!(benches);
