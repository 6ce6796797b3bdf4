//! A quick timing probe of the board engine (random playouts, MCTS decisions), for profiling under callgrind
//! without building the benches: `cargo run --release -p intercept-core --example board_speed_probe -- WHAT N`,
//! WHAT `random` (N playouts of 200 turns at most) or `mcts` (N decisions of 50 playouts from the start).

use std::time::Instant;

use intercept_core::chance::Sampler;
use intercept_core::games::board_game::mcts::{Leaf, Mcts};
use intercept_core::games::board_game::players::{Random, play_game};
use intercept_core::games::board_game::position::Position;
use intercept_core::games::board_game::turns::{Variant, turns_into};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("random", String::as_str);
    let n: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let start = Position::start();
    let v = Variant::default();
    let t0 = Instant::now();
    match what {
        "random" => {
            let (mut plies, mut listed) = (0u64, 0u64);
            let mut buf = Vec::new();
            for g in 0..n {
                let game = play_game(&start, &Random, &Random, v, 200, &mut Sampler::at_trial(1, 1, g), &mut |p, _| {
                    if n <= 50 {
                        turns_into(p, v, &mut buf);
                        listed += buf.len() as u64;
                    }
                });
                plies += u64::from(game.turns);
            }
            let s = t0.elapsed().as_secs_f64();
            println!(
                "{plies} plies in {s:.3} s: {:.0} plies/s; turns a ply {:.1}",
                plies as f64 / s,
                listed as f64 / plies as f64
            );
        }
        _ => {
            let turns = start.turns(v);
            let mcts = Mcts { budget: 50, depth: 6, variant: v, leaf: Leaf::Lean };
            let mut playouts = 0u64;
            for g in 0..n {
                playouts += u64::from(mcts.search(&start, &turns, &mut Sampler::at_trial(1, 1, g)).playouts);
            }
            let s = t0.elapsed().as_secs_f64();
            println!("{playouts} playouts in {s:.3} s: {:.0} playouts/s", playouts as f64 / s);
        }
    }
}
