//! The calibration table of the board game's evaluation (issue 41): `games` fresh self-play games (seed 42
//! unless given; the weights were fitted on seed 41), one position each, in `bins` bins of equal count.
//! With `write` it also writes the table as the shipped `calibration.csv`, which the expert's run reports show.
//!
//! `cargo run --release -p intercept-core --example board_calibration -- [games] [bins] [seed] [write]`

use intercept_core::games::board_game::calibration::{Measured, calibrate};
use intercept_core::games::board_game::evaluation::Weights;
use intercept_core::games::board_game::fit::{self, FitPlan};
use intercept_core::stats::Z95;

fn main() {
    let text = |k: usize| std::env::args().nth(k);
    let arg = |k: usize, default: u64| text(k).map_or(default, |a| a.parse().expect("a number"));
    let (games, bins, seed) = (arg(1, 1000), arg(2, 10) as usize, arg(3, 42));
    let plan = FitPlan { games, seed, ..fit::SHIPPED };
    let started = std::time::Instant::now();
    let table = calibrate(Weights::shipped(), &plan, bins);
    println!("Calibration of the evaluation: {games} games (seed {seed}), one position each, {bins} bins");
    println!("| stated chance | positions | mean stated | observed score | 95% interval | holds |");
    println!("|---|---|---|---|---|---|");
    for b in &table {
        let (low, high) = b.interval(Z95);
        let holds = if b.holds(Z95) { "yes" } else { "no" };
        let (lowest, highest, n, stated, observed) = (b.lowest, b.highest, b.positions, b.stated, b.observed);
        println!(
            "| {lowest:.3} to {highest:.3} | {n} | {stated:.3} | {observed:.3} | {low:.3} to {high:.3} | {holds} |"
        );
    }
    let holding = table.iter().filter(|b| b.holds(Z95)).count();
    println!("{holding} of {} bins hold ({:.1} s)", table.len(), started.elapsed().as_secs_f64());
    if text(4).as_deref() == Some("write") {
        let measured = Measured { weights: Weights::shipped().digest(), games, seed, bins: table };
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/games/board_game/calibration.csv");
        std::fs::write(path, measured.csv()).expect("calibration.csv written");
        println!("wrote {path}");
    }
}
