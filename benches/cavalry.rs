//! Cavalry trials per second through the full engine, against a hand-written loop doing the same rolls.
//!
//! The scenario is one interceptor under Charge orders ending in a light infantry unit's flank: one d10 table
//! roll per trial (C-2), and reaction fire on success (C-6). The hand-written loop draws the same number the
//! same way (Lemire reduction of one 64-bit PCG output) and counts the same events, with no chance interface,
//! no model and no recorder: the gap between the two is the cost of the engine's generality.
//!
//! `cavalry_exact` solves `charge-on-pikes` widened to many interceptors exactly: by merging states
//! ([`intercept_sim::core::exact::states`], issue 37, whose target is 200 interceptors in under a second) and, where
//! it can finish, by the leaf walk it replaced, on the same model in the same run.
//!
//! Run with `cargo bench --bench cavalry`; throughput is reported in trials (elements) per second.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use intercept_sim::core::chance::chunk_rng;
use intercept_sim::core::config::{self, Overrides};
use intercept_sim::core::engine::{self, Plan};
use intercept_sim::core::exact;
use intercept_sim::core::games::cavalry::{Cavalry, CavalryRules};
use intercept_sim::core::ruleset::Registry;
use rand::Rng;
use rayon::prelude::*;

const ONE_INTERCEPTOR: &str = r#"
[[cavalry.interceptor]]
name = "cuirassiers"
order = "charge"
distance = 3
ends_in = "flank"

[cavalry.target]
kind = "light_infantry"
morale = 6
"#;

const TRIALS: u64 = 1 << 24;

fn model(src: &str) -> Cavalry {
    let registry = Registry::new(vec![&CavalryRules]);
    let scenario = config::from_str(&registry, src, Path::new("bench.toml"), Overrides::default()).expect("valid");
    scenario.resolved::<CavalryRules>().expect("a cavalry config").model.clone()
}

fn plan() -> Plan {
    Plan { trials: TRIALS, seed: 1, chunk_size: 65_536, draws: Default::default() }
}

/// The same trial by hand: one d10, success on 0-5, reaction fire on success. Returns (successes, fires).
fn hand_chunk(plan: &Plan, i: u64) -> (u64, u64) {
    let mut rng = chunk_rng(plan.seed, i);
    let (mut succeeded, mut fired) = (0u64, 0u64);
    for _ in 0..plan.chunk_len(i) {
        // Lemire reduction without the (vanishingly rare) rejection step: a floor, not a fair sampler.
        let roll = ((u128::from(rng.next_u64()) * 10) >> 64) as u64;
        if roll <= 5 {
            succeeded += 1;
            fired += 1;
        }
    }
    (succeeded, fired)
}

fn hand_run(plan: &Plan) -> (u64, u64) {
    let parts: Vec<(u64, u64)> = (0..plan.chunks()).into_par_iter().map(|i| hand_chunk(plan, i)).collect();
    parts.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

fn one_interceptor(c: &mut Criterion) {
    let m = model(ONE_INTERCEPTOR);
    let plan = plan();
    let one_chunk = Plan { chunk_size: TRIALS, ..plan };
    let mut g = c.benchmark_group("cavalry_one_interceptor");
    g.throughput(Throughput::Elements(TRIALS));
    g.sample_size(20);
    g.bench_function("engine_all_threads", |b| b.iter(|| black_box(engine::run(&m, &plan, &|_| {}))));
    g.bench_function("hand_loop_all_threads", |b| b.iter(|| black_box(hand_run(&plan))));
    g.bench_function("engine_one_thread", |b| b.iter(|| black_box(engine::run_chunk(&m, &one_chunk, 0))));
    g.bench_function("hand_loop_one_thread", |b| b.iter(|| black_box(hand_chunk(&one_chunk, 0))));
    g.finish();
}

fn charge_on_pikes(c: &mut Criterion) {
    let src = std::fs::read_to_string("configs/cavalry/charge-on-pikes.toml").expect("shipped config");
    let m = model(&src);
    let plan = plan();
    let mut g = c.benchmark_group("cavalry_charge_on_pikes");
    g.throughput(Throughput::Elements(TRIALS));
    g.sample_size(20);
    g.bench_function("engine_all_threads", |b| b.iter(|| black_box(engine::run(&m, &plan, &|_| {}))));
    g.finish();
}

/// `charge-on-pikes` with `n` interceptors: its Lifeguard and Rupert's horse, `n / 2` times each.
fn wide_charge_on_pikes(n: usize) -> String {
    let text = std::fs::read_to_string("configs/cavalry/charge-on-pikes.toml").expect("shipped config");
    let (head, rest) = text.split_once("[[cavalry.interceptor]]").expect("an interceptor");
    let (units, target) = rest.split_once("[cavalry.target]").expect("a target");
    let units = format!("[[cavalry.interceptor]]{units}");
    let (first, second) = units.split_at(units[1..].find("[[cavalry.interceptor]]").expect("two") + 1);
    let mut out = head.to_owned();
    for i in 0..n / 2 {
        out += &first.replace("\"lifeguard\"", &format!("\"lifeguard-{i}\""));
        out += &second.replace("\"rupert-horse\"", &format!("\"rupert-horse-{i}\""));
    }
    out + "[cavalry.target]" + target
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("cavalry_exact");
    g.sample_size(10);
    for n in [6, 200] {
        let m = model(&wide_charge_on_pikes(n));
        g.bench_function(format!("states_{n}_interceptors"), |b| {
            b.iter(|| black_box(exact::states::solve(&m, u64::MAX).expect("solved")))
        });
        if n <= 6 {
            g.bench_function(format!("leaves_{n}_interceptors"), |b| {
                b.iter(|| black_box(exact::enumerate(&m, u64::MAX).expect("solved")))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, one_interceptor, charge_on_pikes, exact);
criterion_main!(benches);
