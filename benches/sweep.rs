//! A sweep's cost per trial per point against `run`'s cost per trial, on the shipped three-level chain.
//!
//! Every function of the group reports its throughput in trial-points (a run is one point), so criterion's
//! times per element compare directly: the sweep's over `run`'s is the ratio a sweep pays per point. A sweep
//! plays per-trial rows for every point to pair them with the base point ([`sweep::run`]); `run` counts
//! through the path memo. Two more lines split the gap: `run` with the rules run for every trial (no memo),
//! and the per-trial rows alone ([`engine::run_slice_rows`]) without the pairing.
//!
//! All on one thread, so the figures are per-trial costs, not how well the machine's cores are shared.
//! Run with `cargo bench --bench sweep`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use intercept_sim::core::config::{self, Overrides, Scenario};
use intercept_sim::core::engine::{self, Plan};
use intercept_sim::core::games::naval::NavalRules;
use intercept_sim::core::games::shipped;
use intercept_sim::core::metrics::Tally;
use intercept_sim::core::runner;
use intercept_sim::core::sweep::{self, Axis, Counts};

const TRIALS: u64 = 1 << 18;

/// The swept values of the combat's chance of ending after a round: the config's own (0.4) first, as the
/// base point.
const VALUES: [&str; 3] = ["0.4", "0.3", "0.5"];

fn scenario(path: &Path) -> Scenario {
    config::load(&shipped(), path, Overrides::default()).expect("shipped config")
}

fn sweep_against_run(c: &mut Criterion) {
    let s = scenario(Path::new("configs/naval/three-level-chain.toml"));
    let plan = Plan { trials: TRIALS, seed: 1, chunk_size: 65_536, draws: Default::default() };
    let axis = Axis { key: "naval.combat.p_end_after_round".to_owned(), values: VALUES.map(str::to_owned).to_vec() };
    let resolved = sweep::resolve(&s, &[axis]).expect("swept values in range");
    let points: Vec<&Scenario> = resolved.iter().map(|(_, p)| p).collect();
    let model = &s.resolved::<NavalRules>().expect("a naval config").model;
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    let mut g = c.benchmark_group("sweep_per_trial_point");
    g.sample_size(10);
    g.throughput(Throughput::Elements(TRIALS));
    g.bench_function("run", |b| b.iter(|| black_box(one_thread.install(|| runner::tally(&s, &plan)))));
    let rules_every_trial = || -> u64 {
        let chunks: Vec<Tally> = (0..plan.chunks()).map(|i| engine::run_chunk(model, &plan, i)).collect();
        chunks.iter().map(|t| t.counts[0]).sum()
    };
    g.bench_function("run_rules_every_trial", |b| b.iter(|| black_box(rules_every_trial())));
    let rows =
        || -> u64 { plan.slices(0..plan.chunks()).map(|s| engine::run_slice_rows(model, &plan, s).0.trials).sum() };
    g.bench_function("per_trial_rows", |b| b.iter(|| black_box(rows())));
    g.throughput(Throughput::Elements(TRIALS * points.len() as u64));
    let swept = || sweep::run(&points, &plan, Counts::new(&points), None, &|_| {}).counts.trials();
    g.bench_function("sweep_3_points", |b| b.iter(|| black_box(one_thread.install(swept))));
    g.finish();
}

criterion_group!(benches, sweep_against_run);
criterion_main!(benches);
