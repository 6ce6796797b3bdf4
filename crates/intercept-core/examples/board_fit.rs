//! Fits the board game's evaluation from self-play (issue 41) and prints the weights as `evaluation.csv`
//! holds them, with what they were fitted on on stderr. With no arguments it plays the shipped plan
//! (`fit::SHIPPED`), so its output is the shipped file byte for byte:
//!
//! `cargo run --release -p intercept-core --example board_fit > crates/intercept-core/src/games/board_game/evaluation.csv`
//!
//! `-- GAMES SEED` fits another plan's games and seed.

use intercept_core::games::board_game::fit::{self, FitPlan};

fn main() {
    let arg = |k: usize| std::env::args().nth(k).map(|a| a.parse::<u64>().expect("a whole number"));
    let plan = FitPlan {
        games: arg(1).unwrap_or(fit::SHIPPED.games),
        seed: arg(2).unwrap_or(fit::SHIPPED.seed),
        ..fit::SHIPPED
    };
    let started = std::time::Instant::now();
    let fitted = fit::fit(&plan);
    let [white, black, drawn] = fitted.results;
    eprintln!(
        "{} games (seed {}; White won {white}, Black {black}, {drawn} drawn), {} positions, log-loss {:.4}, {:.1} s",
        plan.games,
        plan.seed,
        fitted.positions,
        fitted.log_loss,
        started.elapsed().as_secs_f64()
    );
    print!("{}", fitted.weights.csv());
}
