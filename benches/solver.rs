//! `cargo bench`: move generation and solving on fixed deals of each game. Compare figures as
//! ratios within one run: the machines are shared and noisy.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use patience::deal::{microsoft, shuffled};
use patience::game::{Game, OptionValues};
use patience::games::freecell::FreeCell;
use patience::games::gate::Gate;
use patience::games::harp::Harp;
use patience::games::klondike::Klondike;
use patience::games::queens::Queens;
use patience::games::sedgewick::Sedgewick;
use patience::games::terrace::Terrace;
use patience::games::wedge::Wedge;
use patience::games::wheel::Wheel;
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
                acc ^= u64::from(position.play(moves[0]).key()[0]);
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
    // A two-cell loss (220,655 positions) both ways: what the layered search's smaller
    // memory costs in time on the same positions.
    let mut two_cells = OptionValues::defaults(FreeCell::OPTIONS);
    two_cells.set(FreeCell::OPTIONS, "cells", 2).unwrap();
    let lost = FreeCell::deal(&two_cells, &microsoft(216).unwrap()).unwrap();
    for order in [Order::DepthFirst, Order::Layered] {
        let name = format!("ms 216, two cells (lost), {}", order.name());
        group.bench_function(name, |b| b.iter(|| solve(&lost, order, Budget::default())));
    }
    group.finish();
}

/// A game's deal from a seed, with its options set.
fn seeded<G: Game>(seed: u64, changes: &[(&str, u32)]) -> G {
    let mut options = OptionValues::defaults(G::OPTIONS);
    for &(name, value) in changes {
        options.set(G::OPTIONS, name, value).unwrap();
    }
    G::deal(&options, &shuffled(seed, G::PACKS)).unwrap()
}

/// The historical games: a fixed set of seeds each (the figures `stats` reports per deal), and
/// the Gate's smallest proven loss.
fn historical(c: &mut Criterion) {
    let mut group = c.benchmark_group("historical games");
    group.sample_size(10);
    group.bench_function("gate seeds 0..100", |b| {
        b.iter(|| {
            (0..100)
                .map(|s| solve(&seeded::<Gate>(s, &[]), Order::Portfolio, Budget::default()).nodes)
                .sum::<u64>()
        })
    });
    group.bench_function("gate 3 bars seeds 0..100", |b| {
        b.iter(|| {
            (0..100)
                .map(|s| {
                    let deal = seeded::<Gate>(s, &[("bars", 3)]);
                    solve(&deal, Order::Portfolio, Budget::default()).nodes
                })
                .sum::<u64>()
        })
    });
    group.bench_function("gate seed 581408 (lost)", |b| {
        b.iter(|| {
            solve(
                &seeded::<Gate>(581408, &[]),
                Order::Portfolio,
                Budget::default(),
            )
        })
    });
    // Sedgewick's won deals among seeds 0..40 that take under 20k positions.
    group.bench_function("sedgewick seeds 3,5,13,16,17", |b| {
        b.iter(|| {
            [3, 5, 13, 16, 17]
                .map(|s| {
                    solve(
                        &seeded::<Sedgewick>(s, &[]),
                        Order::Portfolio,
                        Budget::default(),
                    )
                    .nodes
                })
                .iter()
                .sum::<u64>()
        })
    });
    group.bench_function("wheel seeds 0..10", |b| {
        b.iter(|| {
            (0..10)
                .map(|s| solve(&seeded::<Wheel>(s, &[]), Order::Portfolio, limit(1_000_000)).nodes)
                .sum::<u64>()
        })
    });
    // A deal every search left unknown within 60M positions, lost as formulas.
    group.bench_function("wheel seed 11504 (lost), sat", |b| {
        b.iter(|| solve(&seeded::<Wheel>(11504, &[]), Order::Sat, Budget::default()))
    });
    // Terrace's won deals among seeds 0..60 within 100k positions, and 200k positions of an
    // undecided deal (the cost of one unknown in `stats`).
    group.bench_function("terrace seeds 16,26,56", |b| {
        b.iter(|| {
            [16, 26, 56]
                .map(|s| {
                    solve(
                        &seeded::<Terrace>(s, &[]),
                        Order::Portfolio,
                        Budget::default(),
                    )
                    .nodes
                })
                .iter()
                .sum::<u64>()
        })
    });
    group.bench_function("terrace seed 0, 200k positions", |b| {
        b.iter(|| solve(&seeded::<Terrace>(0, &[]), Order::Portfolio, limit(200_000)))
    });
    // The Queens: 100k positions of an undecided deal, and the proven losses among seeds 0..40
    // (a deadlocked key, found at the root).
    group.bench_function("queens seed 0, 100k positions", |b| {
        b.iter(|| solve(&seeded::<Queens>(0, &[]), Order::Portfolio, limit(100_000)))
    });
    group.bench_function("queens seeds 0..40, 1 position each", |b| {
        b.iter(|| {
            (0..40)
                .map(|s| solve(&seeded::<Queens>(s, &[]), Order::Portfolio, limit(1)).nodes)
                .sum::<u64>()
        })
    });
    // The nested rollouts on deals the ladders left unknown, at their rungs' levels: the
    // Queens (level 2), whose positions each play a relaxed game out (the kept expansions),
    // and Terrace (level 3), whose waste grows long under them (its inversions kept move by
    // move).
    let rollouts = |level| Budget {
        rollout_level: Some(level),
        ..limit(500_000)
    };
    group.bench_function("queens seed 41391, rollouts, 500k positions", |b| {
        b.iter(|| solve(&seeded::<Queens>(41391, &[]), Order::Rollout, rollouts(2)))
    });
    group.bench_function("terrace seed 10288, rollouts, 500k positions", |b| {
        b.iter(|| solve(&seeded::<Terrace>(10288, &[]), Order::Rollout, rollouts(3)))
    });
    // The Wedge: seeds 0..20 solved whole (won or proven lost).
    group.bench_function("wedge seeds 0..20", |b| {
        b.iter(|| {
            (0..20)
                .map(|s| {
                    solve(
                        &seeded::<Wedge>(s, &[]),
                        Order::Portfolio,
                        Budget::default(),
                    )
                    .nodes
                })
                .sum::<u64>()
        })
    });
    // The Harp: two won seeds (about 20k positions each).
    group.bench_function("harp seeds 32 and 47", |b| {
        b.iter(|| {
            [32, 47]
                .into_iter()
                .map(|s| solve(&seeded::<Harp>(s, &[]), Order::Portfolio, Budget::default()).nodes)
                .sum::<u64>()
        })
    });
    // Klondike draw 3, seeds 0..20 within 200k positions each (14 won, 1 lost, 5 unknown).
    group.bench_function("klondike seeds 0..20 (200k positions each)", |b| {
        b.iter(|| {
            (0..20)
                .map(|s| {
                    solve(
                        &seeded::<Klondike>(s, &[]),
                        Order::Portfolio,
                        limit(200_000),
                    )
                    .nodes
                })
                .sum::<u64>()
        })
    });
    group.finish();
}

fn limit(max_nodes: u64) -> Budget {
    Budget {
        max_nodes: Some(max_nodes),
        ..Budget::default()
    }
}

criterion_group!(benches, move_generation, solving, historical);
criterion_main!(benches);
