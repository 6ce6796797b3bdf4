//! Random playouts of the board game Intercept per second from the start position (issue 7): uniformly
//! random turns for both sides until a win or 200 turns, one generator per playout; and one decision of
//! the shipped tree-search player.
//!
//! Run with `cargo bench --bench board_game`; throughput is reported in playouts (elements) per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use intercept_sim::chance::Sampler;
use intercept_sim::games::board_game::mcts::Mcts;
use intercept_sim::games::board_game::players::{Player, Random, play_game};
use intercept_sim::games::board_game::position::Position;
use intercept_sim::games::board_game::turns::Variant;

const PLAYOUTS: u64 = 20;

fn playouts(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("board_game");
    group.sample_size(10).throughput(Throughput::Elements(PLAYOUTS));
    group.bench_function("random_playouts_200_turns", |b| {
        b.iter(|| {
            let turns: u32 = (0..PLAYOUTS)
                .map(|g| {
                    play_game(
                        &start,
                        &Random,
                        &Random,
                        Variant::default(),
                        200,
                        &mut Sampler::at_trial(1, 1, g),
                        &mut |_, _| {},
                    )
                    .turns
                })
                .sum();
            black_box(turns)
        })
    });
    group.finish();
}

/// One tree-search decision as the shipped MCTS player makes it (50 playouts of 6 turns) from the start.
fn mcts_turn(c: &mut Criterion) {
    let start = Position::start();
    let turns = start.turns(Variant::default());
    let mcts = Mcts { budget: 50, depth: 6, variant: Variant::default() };
    let mut group = c.benchmark_group("board_game");
    group.sample_size(10).throughput(Throughput::Elements(1));
    group.bench_function("mcts_turn_50_playouts", |b| {
        b.iter(|| black_box(mcts.choose(&start, &turns, &mut Sampler::at_trial(1, 1, 0))))
    });
    group.finish();
}

criterion_group!(benches, playouts, mcts_turn);
criterion_main!(benches);
