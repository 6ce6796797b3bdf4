//! Does the faster tree search play better at the same time a move? (issue 20.) Plays `games` seeded games
//! of Intercept between the tree-search player at `budget` playouts a turn (the budget the rewritten engine
//! searches in the time the old one took for 50) and the same player at 50 playouts, both at depth 6, the
//! stronger one White in even games and Black in odd ones (White moves first, I-A1), and prints its wins,
//! losses and draws and its share of the decided games with a 95% Wilson interval.
//!
//! `cargo run --release -p intercept-core --example board_mcts_strength -- [games] [budget] [seed]`
//! (defaults 200, 150, 1). Game `g` draws from `Sampler::at_trial(seed, 1, g)`, so any game can be played
//! again.

use intercept_core::chance::Sampler;
use intercept_core::games::board_game::mcts::{Leaf, Mcts};
use intercept_core::games::board_game::players::play_game;
use intercept_core::games::board_game::position::{Colour, Position};
use intercept_core::games::board_game::turns::Variant;
use intercept_core::stats::{Z95, wilson};

/// The old engine's budget: 50 playouts of 6 turns, the shipped examples' search.
const BASE: u32 = 50;
const DEPTH: u32 = 6;
const TURN_LIMIT: u32 = 200;

fn main() {
    let arg = |k: usize, default: u64| std::env::args().nth(k).map_or(default, |a| a.parse().expect("a number"));
    let (games, budget, seed) = (arg(1, 200), arg(2, 150) as u32, arg(3, 1));
    let v = Variant::default();
    let strong = Mcts { budget, depth: DEPTH, variant: v, leaf: Leaf::Lean };
    let base = Mcts { budget: BASE, depth: DEPTH, variant: v, leaf: Leaf::Lean };
    let start = Position::start();
    let [mut wins, mut losses, mut draws] = [0u64; 3];
    for g in 0..games {
        let chance = &mut Sampler::at_trial(seed, 1, g);
        let strong_side = if g % 2 == 0 { Colour::White } else { Colour::Black };
        let game = match strong_side {
            Colour::White => play_game(&start, &strong, &base, v, TURN_LIMIT, chance, &mut |_, _| {}),
            Colour::Black => play_game(&start, &base, &strong, v, TURN_LIMIT, chance, &mut |_, _| {}),
        };
        match game.winner {
            Some(w) if w == strong_side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    let decided = wins + losses;
    let ci = wilson(wins, decided, Z95);
    println!("MCTS {budget} playouts against MCTS {BASE} playouts, depth {DEPTH}, {games} games (seed {seed}):");
    println!("  wins {wins}, losses {losses}, draws {draws} (no goal within {TURN_LIMIT} turns)");
    println!("  share of decided games won: {:.3}, 95% Wilson interval [{:.3}, {:.3}]", ci.estimate, ci.low, ci.high);
}
