//! The board game Intercept's engine speed (issues 7 and 20): random playouts from the start position
//! (uniformly random turns for both sides until a win or 200 turns, one generator per playout), reported in
//! plies per second; and the tree-search player (MCTS, playouts of 6 turns) at 50 and 500 playouts a
//! decision, from the start and from a position 40 random turns into a game, reported in playouts per
//! second.
//!
//! Run with `cargo bench --bench board_game`; criterion's `thrpt` is plies (random playouts) or playouts
//! (MCTS) per second. Compare the plies with OpenSpiel's Breakthrough 13×13 measured beside it
//! (`../shared/peers/openspiel_bench.py`).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use intercept_sim::core::chance::{Sampler, chunk_rng};
use intercept_sim::core::games::board_game::mcts::{Leaf, Mcts};
use intercept_sim::core::games::board_game::players::{Random, play_game};
use intercept_sim::core::games::board_game::position::Position;
use intercept_sim::core::games::board_game::turns::Variant;
use rand::Rng;

const PLAYOUTS: u64 = 20;

/// The plies of the benchmark's random playouts, all told.
fn random_plies(start: &Position) -> u32 {
    let v = Variant::default();
    let game = |g| play_game(start, &Random, &Random, v, 200, &mut Sampler::at_trial(1, 1, g), &mut |_, _| {});
    (0..PLAYOUTS).map(|g| game(g).turns).sum()
}

fn playouts(c: &mut Criterion) {
    let start = Position::start();
    let plies = random_plies(&start);
    let mut group = c.benchmark_group("board_game");
    group.sample_size(10).throughput(Throughput::Elements(u64::from(plies)));
    group.bench_function("random_playout_plies", |b| b.iter(|| black_box(random_plies(&start))));
    group.finish();
}

/// The position `turns` uniformly random turns into a seeded game.
fn midgame(turns: u32) -> Position {
    let mut rng = chunk_rng(20, 0);
    let mut p = Position::start();
    for _ in 0..turns {
        let list = p.turns(Variant::default());
        p = p.play(list[(rng.next_u64() % list.len() as u64) as usize]);
    }
    p
}

/// One tree-search decision of `budget` playouts of 6 turns (the shipped player's depth in the examples).
fn mcts_playouts(c: &mut Criterion) {
    let v = Variant::default();
    let mut group = c.benchmark_group("board_game");
    group.sample_size(10);
    for (name, p) in [("start", Position::start()), ("midgame", midgame(40))] {
        let turns = p.turns(v);
        for budget in [50, 500] {
            let mcts = Mcts { budget, depth: 6, variant: v, leaf: Leaf::Lean };
            let chance = || Sampler::at_trial(1, 1, 0);
            let playouts = mcts.search(&p, &turns, &mut chance()).playouts;
            group.throughput(Throughput::Elements(u64::from(playouts.max(1))));
            group.bench_function(format!("mcts_{name}_{budget}_playouts"), |b| {
                b.iter(|| black_box(mcts.search(&p, &turns, &mut chance()).index))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, playouts, mcts_playouts);
criterion_main!(benches);
