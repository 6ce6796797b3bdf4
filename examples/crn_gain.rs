//! How much common random numbers help a sweep: the standard error of the difference between two sweep
//! points when both use the same seed (as `sweep` does) against when each has its own seed.
//!
//! Run with `cargo run --release --example crn_gain [CONFIG KEY=A,B METRIC REPLICATIONS TRIALS]`.

use std::path::Path;

use intercept_sim::core::config::set::{self, Setting};
use intercept_sim::core::config::{self, Overrides, Scenario};
use intercept_sim::core::engine::Plan;
use intercept_sim::core::runner;

/// `metric`'s estimate from `trials` trials of `scenario` with `seed`.
fn estimate(scenario: &Scenario, seed: u64, trials: u64, metric: &str) -> f64 {
    let plan = Plan { seed, trials, ..runner::plan(scenario) };
    let tally = runner::tally(scenario, &plan);
    let def = scenario.rules.metrics().defs().iter().find(|d| d.name == metric).expect("a metric");
    tally.counts[def.slot] as f64 / tally.trials as f64
}

fn sd(xs: &[f64]) -> f64 {
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let base = config::load(
        &intercept_sim::core::games::shipped(),
        Path::new(&arg(0, "configs/naval/three-level-chain.toml")),
        Overrides::default(),
    )
    .expect("a valid config");
    let (key, values) = set::parse_list(&arg(1, "naval.rules.slow_ships=-1,0")).expect("KEY=A,B");
    let metric = arg(2, "group.messina.reached");
    let (reps, trials): (u64, u64) = (arg(3, "100").parse().unwrap(), arg(4, "200000").parse().unwrap());
    let point = |value: &String| {
        let setting = Setting { key: key.clone(), value: value.clone() };
        set::apply(&base, &[setting]).expect("a valid setting")
    };
    let (a, b) = (point(&values[0]), point(&values[1]));
    let (mut shared, mut independent) = (Vec::new(), Vec::new());
    for r in 0..reps {
        let pa = estimate(&a, r, trials, &metric);
        shared.push(estimate(&b, r, trials, &metric) - pa);
        independent.push(estimate(&b, r + 1_000_000, trials, &metric) - pa);
    }
    let (s, i) = (sd(&shared), sd(&independent));
    println!("{metric}, {key}={} vs {}, {reps} replications of {trials} trials:", values[0], values[1]);
    println!("  SE of the difference, same seed:        {s:.6}");
    println!("  SE of the difference, independent seeds: {i:.6}");
    println!("  gain: {:.1}x in standard error, {:.0}x in trials", i / s, (i / s).powi(2));
}
