//! A timing probe of the naval rules run for every trial (no path memo), one thread, as the naval bench's
//! `naval_rules_every_trial` runs them: for counting instructions under callgrind without building the benches.
//! A cavalry config runs the same way, to check that a change to the shared chance layer costs it nothing.
//! `cargo run --release -p intercept-core --example naval_probe -- CONFIG N [packed]`; prints the chunk counts
//! (a checksum, the same before and after a change that keeps outputs) and ns a trial.

use std::path::Path;
use std::time::Instant;

use intercept_core::chance::Draws;
use intercept_core::config::{self, Overrides};
use intercept_core::engine::{self, Plan};
use intercept_core::games::cavalry::CavalryRules;
use intercept_core::games::naval::NavalRules;
use intercept_core::games::shipped;
use intercept_core::metrics::Tally;
use intercept_core::model::Model;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("benches/data/grand-armada.toml", String::as_str);
    let trials: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1 << 16);
    let draws = if args.get(3).is_some_and(|a| a == "packed") { Draws::Packed } else { Draws::Paired };
    let s = config::load(&shipped(), Path::new(path), Overrides::default()).expect("a config");
    let plan = Plan { trials, seed: 1, chunk_size: 65_536, draws };
    let t0 = Instant::now();
    let sum = match s.resolved::<NavalRules>() {
        Some(r) => run(&r.model, &plan),
        None => run(&s.resolved::<CavalryRules>().expect("a naval or cavalry config").model, &plan),
    };
    let ns = t0.elapsed().as_secs_f64() * 1e9 / trials as f64;
    println!("{sum:?}");
    eprintln!("{trials} trials: {ns:.1} ns a trial");
}

/// Every chunk of `plan` on this thread, rules every trial; returns the counts summed.
fn run<M: Model>(model: &M, plan: &Plan) -> Vec<u64> {
    let mut sum = Tally::new(model.metrics());
    for i in 0..plan.chunks() {
        sum.merge(&engine::run_chunk(model, plan, i));
    }
    sum.counts
}
