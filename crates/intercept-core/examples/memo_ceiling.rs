//! The best a path memo could do: one chunk of K trials is learnt once, then played again and again, so every
//! trial walks a path already in memory and no rule runs. Prints ns a trial for that replay, and for the
//! rules run every trial on the same chunk.
//! `cargo run --release -p intercept-core --example memo_ceiling -- CONFIG K ROUNDS`

use std::path::Path;
use std::time::Instant;

use intercept_core::chance::Draws;
use intercept_core::config::{self, Overrides};
use intercept_core::engine::{self, Plan};
use intercept_core::games::naval::NavalRules;
use intercept_core::games::shipped;
use intercept_core::memo::PathMemo;
use intercept_core::model::Model;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("benches/data/grand-armada.toml", String::as_str);
    let k: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let rounds: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let s = config::load(&shipped(), Path::new(path), Overrides::default()).expect("a config");
    let r = s.resolved::<NavalRules>().expect("a naval config");
    let plan = Plan { trials: k, seed: 1, chunk_size: k, draws: Draws::Paired };
    let (memo_ns, rules_ns) = (replay(&r.model, &plan, rounds), rules(&r.model, &plan, rounds));
    println!("{path}: K={k}: memo replay {memo_ns:.1} ns a trial, rules {rules_ns:.1} ns a trial");
}

fn replay<M: Model>(model: &M, plan: &Plan, rounds: u64) -> f64 {
    let mut memo = PathMemo::new(1 << 31);
    let learnt = engine::run_chunk_memo(model, plan, 0, &mut memo);
    let t0 = Instant::now();
    for _ in 0..rounds {
        assert_eq!(engine::run_chunk_memo(model, plan, 0, &mut memo).counts, learnt.counts);
    }
    t0.elapsed().as_secs_f64() * 1e9 / (rounds * plan.trials) as f64
}

fn rules<M: Model>(model: &M, plan: &Plan, rounds: u64) -> f64 {
    let t0 = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(engine::run_chunk(model, plan, 0));
    }
    t0.elapsed().as_secs_f64() * 1e9 / (rounds * plan.trials) as f64
}
