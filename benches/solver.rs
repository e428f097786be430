//! `cargo bench`: move generation and solving on fixed FreeCell deals. Compare figures as
//! ratios within one run: the machines are shared and noisy.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use patience::deal::microsoft;
use patience::game::{Game, OptionValues};
use patience::games::freecell::FreeCell;
use patience::solver::{solve, Budget, Order};

fn deal(number: u64) -> FreeCell {
    FreeCell::deal(
        &OptionValues::defaults(FreeCell::OPTIONS),
        &microsoft(number).unwrap(),
    )
    .unwrap()
}

fn move_generation(c: &mut Criterion) {
    let deals: Vec<FreeCell> = (1..=64).map(deal).collect();
    let mut moves = Vec::with_capacity(64);
    c.bench_function("freecell legal_moves, 64 deals", |b| {
        b.iter(|| {
            let mut count = 0;
            for position in &deals {
                moves.clear();
                position.legal_moves(&mut moves);
                count += moves.len();
            }
            black_box(count)
        })
    });
    c.bench_function("freecell play + key, 64 deals x first move", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for position in &deals {
                moves.clear();
                position.legal_moves(&mut moves);
                acc ^= position.play(moves[0]).key()[0];
            }
            black_box(acc)
        })
    });
}

fn solving(c: &mut Criterion) {
    let mut group = c.benchmark_group("freecell solve");
    group.sample_size(10);
    // The lost deal (a whole space searched) and a fixed set of won ones.
    group.bench_function("ms 11982 (lost)", |b| {
        b.iter(|| solve(&deal(11982), Order::Portfolio, Budget::default()))
    });
    group.bench_function("ms 1..=32 (portfolio)", |b| {
        b.iter(|| {
            (1..=32)
                .map(|n| solve(&deal(n), Order::Portfolio, Budget::default()).nodes)
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, move_generation, solving);
criterion_main!(benches);
