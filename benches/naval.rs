//! Naval trials per second through the full engine on the shipped three-level chain (with the path memo, and
//! with the rules run for every trial), the rules alone on one thread (`naval_rules_every_trial`: the chain,
//! and the 14-group `benches/data/grand-armada.toml`, too large for the path memo, so its rules run every
//! trial), and the time `exact` takes to solve each shipped naval scenario.
//!
//! Run with `cargo bench --bench naval`.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use intercept_sim::core::chance::Draws;
use intercept_sim::core::config::{self, Overrides, Scenario};
use intercept_sim::core::engine::{self, Plan};
use intercept_sim::core::games::naval::NavalRules;
use intercept_sim::core::games::shipped;
use intercept_sim::core::metrics::Tally;
use intercept_sim::core::runner;
use rayon::prelude::*;

const TRIALS: u64 = 1 << 22;

fn scenario(path: &Path) -> Scenario {
    config::load(&shipped(), path, Overrides::default()).expect("shipped config")
}

fn three_level(c: &mut Criterion) {
    let s = scenario(Path::new("configs/naval/three-level-chain.toml"));
    let model = &s.resolved::<NavalRules>().expect("a naval config").model;
    let plan = Plan { trials: TRIALS, seed: 1, chunk_size: 65_536, draws: Default::default() };
    let mut g = c.benchmark_group("naval_three_level_chain");
    g.throughput(Throughput::Elements(TRIALS));
    g.sample_size(10);
    g.bench_function("engine_all_threads", |b| b.iter(|| black_box(runner::tally(&s, &plan))));
    // The same chunks with the rules run for every trial, no path memo: what the memo saves.
    let rules_every_trial = || -> u64 {
        let chunks: Vec<Tally> =
            (0..plan.chunks()).into_par_iter().map(|i| engine::run_chunk(model, &plan, i)).collect();
        chunks.iter().map(|t| t.counts[0]).sum()
    };
    g.bench_function("rules_every_trial_all_threads", |b| b.iter(|| black_box(rules_every_trial())));
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    g.bench_function("engine_one_thread", |b| b.iter(|| black_box(one_thread.install(|| runner::tally(&s, &plan)))));
    let packed = Plan { draws: Draws::Packed, ..plan };
    g.bench_function("packed_one_thread", |b| b.iter(|| black_box(one_thread.install(|| runner::tally(&s, &packed)))));
    g.finish();
}

/// The rules run for every trial, no path memo, one chunk after another on this thread: the cost of a trial
/// of the rules themselves.
fn rules_every_trial(c: &mut Criterion) {
    const RULES_TRIALS: u64 = 1 << 20;
    let mut g = c.benchmark_group("naval_rules_every_trial");
    g.throughput(Throughput::Elements(RULES_TRIALS));
    g.sample_size(10);
    for path in ["configs/naval/three-level-chain.toml", "benches/data/grand-armada.toml"] {
        let s = scenario(Path::new(path));
        let model = &s.resolved::<NavalRules>().expect("a naval config").model;
        let name = Path::new(path).file_stem().unwrap().to_string_lossy().into_owned();
        for (draws, suffix) in [(Draws::Paired, ""), (Draws::Packed, "_packed")] {
            let plan = Plan { trials: RULES_TRIALS, seed: 1, chunk_size: 65_536, draws };
            let run = || (0..plan.chunks()).map(|i| engine::run_chunk(model, &plan, i).counts[0]).sum::<u64>();
            g.bench_function(format!("{name}{suffix}"), |b| b.iter(|| black_box(run())));
        }
    }
    g.finish();
}

fn exact_each(c: &mut Criterion) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("configs/naval")
        .expect("configs")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    let mut g = c.benchmark_group("naval_exact");
    g.sample_size(10);
    for path in paths {
        let s = scenario(&path);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        g.bench_function(name, |b| b.iter(|| black_box(runner::solve(&s).expect("small tree"))));
    }
    g.finish();
}

criterion_group!(benches, three_level, rules_every_trial, exact_each);
criterion_main!(benches);
