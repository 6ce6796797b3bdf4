//! The board engine's rates against an older build of itself (issue 20: the tree search at 10x the playouts
//! a second of the engine before the issue): random playouts' plies a second, and the tree search's playouts
//! a second at 50 playouts, depth 6, from the start and 40 random turns in, as `benches/board_game.rs`
//! measures them, on one line.
//!
//! It uses only what the engine offered when its turns were pinned (commit a387c23), so the same file
//! builds there: copy it into that checkout's `crates/intercept-core/examples/`, build both with
//! `cargo build --release -p intercept-core --example board_rate`, and run the two binaries alternately.
use std::hint::black_box;
use std::time::Instant;

use intercept_core::chance::{Sampler, chunk_rng};
use intercept_core::games::board_game::mcts::{Leaf, Mcts};
use intercept_core::games::board_game::players::{Random, play_game};
use intercept_core::games::board_game::position::Position;
use intercept_core::games::board_game::turns::Variant;
use rand::Rng;

/// The position `turns` uniformly random turns into a seeded game: the bench's middle game. Written out again
/// here, not shared with `benches/board_game.rs`, because this file must build at a387c23 too.
fn midgame(turns: u32) -> Position {
    let mut rng = chunk_rng(20, 0);
    let mut p = Position::start();
    for _ in 0..turns {
        let list = p.turns(Variant::default());
        p = p.play(list[(rng.next_u64() % list.len() as u64) as usize]);
    }
    p
}

fn main() {
    let v = Variant::default();
    let start = Position::start();
    let t0 = Instant::now();
    let mut plies = 0u64;
    for g in 0..400 {
        plies += u64::from(
            play_game(&start, &Random, &Random, v, 200, &mut Sampler::at_trial(1, 1, g % 20), &mut |_, _| {}).turns,
        );
    }
    let random = plies as f64 / t0.elapsed().as_secs_f64();
    let mut out = vec![format!("random {:.0} k plies/s", random / 1e3)];
    for (name, p) in [("start", start), ("midgame", midgame(40))] {
        let turns = p.turns(v);
        let mcts = Mcts { budget: 50, depth: 6, variant: v, leaf: Leaf::Lean };
        let n = mcts.search(&p, &turns, &mut Sampler::at_trial(1, 1, 0)).playouts;
        let t0 = Instant::now();
        for _ in 0..2000 {
            black_box(mcts.search(&p, &turns, &mut Sampler::at_trial(1, 1, 0)).index);
        }
        let rate = 2000.0 * f64::from(n) / t0.elapsed().as_secs_f64();
        out.push(format!("mcts_{name} {:.1} k playouts/s", rate / 1e3));
    }
    println!("{}", out.join("; "));
}
