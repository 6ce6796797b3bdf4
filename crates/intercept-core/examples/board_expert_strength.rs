//! How strong is the `expert` player (issue 41)? Plays `games` seeded games of Intercept between the tree
//! search with the fitted evaluation at its leaves (`expert`, `budget` playouts of `depth` turns) and an
//! opponent (`mcts` at 50 playouts, depth 6, or `greedy`), colours alternating, and prints the expert's wins,
//! losses and draws, its share of all games with a 95% Wilson interval, and each side's time a turn.
//!
//! `cargo run --release -p intercept-core --example board_expert_strength -- [games] [budget] [depth] [mcts|greedy] [seed] [mcts budget] [turn limit] [mcts depth]`

use std::cell::Cell;
use std::time::{Duration, Instant};

use intercept_core::chance::{Chance, Sampler};
use intercept_core::games::board_game::evaluation::Weights;
use intercept_core::games::board_game::mcts::{Leaf, Mcts};
use intercept_core::games::board_game::players::{Greedy, Player, play_game};
use intercept_core::games::board_game::position::{Colour, Position};
use intercept_core::games::board_game::turns::{Turn, Variant};
use intercept_core::stats::{Z95, wilson};

/// A player that adds the time it takes to a clock.
struct Timed<'a, P> {
    player: P,
    clock: &'a Cell<(Duration, u64)>,
}

impl<P: Player> Player for Timed<'_, P> {
    fn choose<C: Chance>(&self, p: &Position, turns: &[Turn], chance: &mut C) -> usize {
        let started = Instant::now();
        let i = self.player.choose(p, turns, chance);
        let (t, n) = self.clock.get();
        self.clock.set((t + started.elapsed(), n + 1));
        i
    }
}

fn main() {
    let text = |k: usize| std::env::args().nth(k);
    let arg = |k: usize, default: u64| text(k).map_or(default, |a| a.parse().expect("a number"));
    let (games, budget, depth) = (arg(1, 200), arg(2, 50) as u32, arg(3, 2) as u32);
    let opponent = text(4).unwrap_or_else(|| "mcts".into());
    let (seed, base, limit, base_depth) = (arg(5, 1), arg(6, 50) as u32, arg(7, 200) as u32, arg(8, 6) as u32);
    let v = Variant::default();
    let leaf = Leaf::Evaluation(*Weights::shipped());
    let (mine, theirs) = (Cell::new((Duration::ZERO, 0)), Cell::new((Duration::ZERO, 0)));
    let expert = Timed { player: Mcts { budget, depth, variant: v, leaf }, clock: &mine };
    let mcts = Timed { player: Mcts { budget: base, depth: base_depth, variant: v, leaf: Leaf::Lean }, clock: &theirs };
    let greedy = Timed { player: Greedy, clock: &theirs };
    let start = Position::start();
    let [mut wins, mut losses, mut draws] = [0u64; 3];
    for g in 0..games {
        let chance = &mut Sampler::at_trial(seed, 1, g);
        let side = if g % 2 == 0 { Colour::White } else { Colour::Black };
        let none = &mut |_: &Position, _: Turn| {};
        let game = match (side, opponent.as_str()) {
            (Colour::White, "greedy") => play_game(&start, &expert, &greedy, v, limit, chance, none),
            (Colour::Black, "greedy") => play_game(&start, &greedy, &expert, v, limit, chance, none),
            (Colour::White, _) => play_game(&start, &expert, &mcts, v, limit, chance, none),
            (Colour::Black, _) => play_game(&start, &mcts, &expert, v, limit, chance, none),
        };
        match game.winner {
            Some(w) if w == side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    let ci = wilson(wins, games, Z95);
    let per_turn = |c: &Cell<(Duration, u64)>| c.get().0.as_secs_f64() * 1e3 / c.get().1.max(1) as f64;
    println!("expert {budget} playouts, depth {depth} against {opponent}, {games} games (seed {seed}):");
    println!("  wins {wins}, losses {losses}, draws {draws}");
    println!("  share of games won: {:.3}, 95% Wilson interval [{:.3}, {:.3}]", ci.estimate, ci.low, ci.high);
    println!("  time a turn: expert {:.3} ms, {opponent} {:.3} ms", per_turn(&mine), per_turn(&theirs));
}
