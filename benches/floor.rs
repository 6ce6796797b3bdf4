//! The generator floor: for every shipped scenario (and grand-armada, beyond exact), what its random draws alone
//! cost, against the engine.
//!
//! A trial's draws are recorded once (the range of each draw, trial by trial); the floor then replays just
//! those draws on the same per-chunk, per-trial streams (`next_trial`, then one Lemire draw per chance node
//! that is not certain), with no rules, no memo and no counting. `engine_one_thread` runs the same trials
//! through the engine. Both run on one thread, so their ratio is the engine's cost over the floor. The
//! draws per trial of each scenario are printed on stderr.
//!
//! The same pair for `[run] draws = "packed"`: `packed_floor` replays the 64-bit words each trial of the
//! packed sampler read (`next_trial`, then the words after the first), and `packed_one_thread` runs the
//! trials through the engine with the packed sampler.
//!
//! `engine_warm` and `packed_warm` run the same trials through a path memo that has already learned the tree
//! from other trials (another seed's), cloned fresh for each iteration: the cost of each further trial of a
//! long run, once a worker's memo has learned the tree, where `*_one_thread` includes the learning (about
//! 2 ns a trial of the chain's 7 under packed draws, over 2^20 trials).
//!
//! `packed_peer_run`, for the scenarios with a speed peer, runs as many trials as the peer's run (20 and 50
//! million) with packed draws from an empty memo: the cost a trial of a run of the peer's size, learning
//! included.
//!
//! Run with `cargo bench --bench floor`.

use std::cell::OnceCell;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use intercept_sim::core::chance::{self, Chance, Dist, PackedSampler, Sampler, Source, chunk_rng};
use intercept_sim::core::config::{self, Overrides, Scenario};
use intercept_sim::core::engine::{self, Plan};
use intercept_sim::core::games::card_game::CardGameRules;
use intercept_sim::core::games::cavalry::CavalryRules;
use intercept_sim::core::games::naval::NavalRules;
use intercept_sim::core::games::shipped;
use intercept_sim::core::games::step_race::StepRaceRules;
use intercept_sim::core::memo::{self, PathMemo};
use intercept_sim::core::metrics::Tally;
use intercept_sim::core::model::Model;
use intercept_sim::core::ruleset::RuleSet;
use intercept_sim::core::runner;

const TRIALS: u64 = 1 << 20;

/// The scenarios with a speed peer, and the trials of a peer's run (`benches/peers.sh`): `packed_peer_run`
/// runs as many from an empty memo, so its cost a trial carries the learning spread as thinly as the peer's
/// run spreads its start-up.
const PEER_RUNS: [(&str, u64); 2] = [("three-level-chain", 20_000_000), ("charge-on-pikes", 50_000_000)];

/// Each trial's draw ranges, in order: `ranges[starts[t]..starts[t + 1]]` are trial `t`'s.
struct Draws {
    ranges: Vec<u64>,
    starts: Vec<usize>,
}

/// A sampler that notes the range of every draw it makes.
struct Recording<'a> {
    sampler: Sampler,
    ranges: &'a mut Vec<u64>,
}

impl Chance for Recording<'_> {
    fn pick(&mut self, dist: &Dist) -> usize {
        if dist.certain().is_none() {
            self.ranges.push(dist.total());
        }
        self.sampler.pick(dist)
    }
}

/// Every draw of `plan`'s trials of `model`, recorded.
fn record<M: Model>(model: &M, plan: &Plan) -> Draws {
    let mut draws = Draws { ranges: Vec::new(), starts: vec![0] };
    let mut tally = Tally::new(model.metrics());
    for i in 0..plan.chunks() {
        let mut rec = Recording { sampler: Sampler::new(chunk_rng(plan.seed, i)), ranges: &mut draws.ranges };
        for _ in 0..plan.chunk_len(i) {
            rec.sampler.next_trial();
            model.trial(&mut rec, &mut tally);
            draws.starts.push(rec.ranges.len());
        }
    }
    draws
}

/// A plan's chunks run through a path memo kept from earlier runs ([`through_memo`]).
type MemoRun<'a> = Box<dyn Fn(&Plan, &mut PathMemo) -> u64 + 'a>;

/// What the floors replay (the paired sampler's draw ranges and the packed sampler's words, trial by trial),
/// and the scenario's model run through a memo, for the warm benches.
struct Recorded<'a> {
    draws: Draws,
    words: Vec<u32>,
    memo_run: MemoRun<'a>,
}

/// [`record`] and [`packed_words`] on the scenario's model, if its rule set is `S`.
fn record_as<'a, S: RuleSet + std::fmt::Debug>(s: &'a Scenario, plan: &Plan, packed: &Plan) -> Option<Recorded<'a>> {
    s.resolved::<S>().map(|r| Recorded {
        draws: record(&r.model, plan),
        words: packed_words(&r.model, packed),
        memo_run: Box::new(|plan, memo| through_memo(&r.model, plan, memo)),
    })
}

/// Runs every chunk of `plan` through `memo` on this thread, as a worker of the engine does with the memo
/// it keeps for a whole run; returns the first count of every chunk, summed, to keep the work observable.
fn through_memo<M: Model>(model: &M, plan: &Plan, memo: &mut PathMemo) -> u64 {
    (0..plan.chunks()).map(|i| engine::run_chunk_memo(model, plan, i, memo).counts[0]).sum()
}

/// A memo that has learned the tree from `plan`'s trials on another seed: what a worker holds once a long run
/// is under way, so a run through it costs what each further trial of the run does.
fn warmed(r: &Recorded, plan: &Plan) -> PathMemo {
    let mut memo = PathMemo::new(memo::BUDGET_BYTES);
    (r.memo_run)(&Plan { seed: plan.seed + 1, ..*plan }, &mut memo);
    memo
}

/// [`record_as`] whichever of the benchmarked rule sets the scenario is.
fn recorded<'a>(s: &'a Scenario, plan: &Plan, packed: &Plan) -> Recorded<'a> {
    record_as::<CavalryRules>(s, plan, packed)
        .or_else(|| record_as::<NavalRules>(s, plan, packed))
        .or_else(|| record_as::<StepRaceRules>(s, plan, packed))
        .or_else(|| record_as::<CardGameRules>(s, plan, packed))
        .expect("a rule set of the shipped configs")
}

/// The recorded draws replayed on the same streams: what the random numbers alone cost.
fn floor(plan: &Plan, draws: &Draws) -> u64 {
    let mut acc = 0;
    for i in 0..plan.chunks() {
        let mut sampler = Sampler::new(chunk_rng(plan.seed, i));
        let first = plan.first_trial(i) as usize;
        for t in first..first + plan.chunk_len(i) as usize {
            sampler.next_trial();
            for &n in &draws.ranges[draws.starts[t]..draws.starts[t + 1]] {
                acc ^= sampler.below(n);
            }
        }
    }
    acc
}

/// How many words each trial of `plan` reads under the packed sampler, trial by trial.
fn packed_words<M: Model>(model: &M, plan: &Plan) -> Vec<u32> {
    let mut words = Vec::new();
    let mut tally = Tally::new(model.metrics());
    for i in 0..plan.chunks() {
        let mut sampler = PackedSampler::in_chunk(plan.seed, i, 0);
        for _ in 0..plan.chunk_len(i) {
            sampler.next_trial();
            model.trial(&mut sampler, &mut tally);
            words.push(sampler.words() as u32);
        }
    }
    words
}

/// The recorded words of the packed sampler read again on the same streams.
fn packed_floor(plan: &Plan, words: &[u32]) -> u64 {
    let mut acc = 0;
    for i in 0..plan.chunks() {
        let mut sampler = PackedSampler::in_chunk(plan.seed, i, 0);
        let first = plan.first_trial(i) as usize;
        for &n in &words[first..first + plan.chunk_len(i) as usize] {
            sampler.next_trial();
            acc ^= sampler.first_word();
            for _ in 1..n {
                acc ^= sampler.word();
            }
        }
    }
    acc
}

/// The shipped configs, and grand-armada (`benches/data`): beyond exact, its floors bound what any engine
/// could make of it against the three-level chain.
fn bench_configs() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = ["configs/cavalry", "configs/naval", "configs/step-race", "configs/card-game"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("configs").map(|e| e.expect("entry").path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml")) // a map file lies beside the scenarios
        .collect();
    paths.sort();
    paths.push(PathBuf::from("benches/data/grand-armada.toml"));
    paths
}

fn scenario(path: &Path) -> Scenario {
    config::load(&shipped(), path, Overrides::default()).expect("shipped config")
}

fn each_scenario(c: &mut Criterion) {
    let plan = Plan { trials: TRIALS, seed: 1, chunk_size: 65_536, draws: Default::default() };
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    for path in bench_configs() {
        let s = scenario(&path);
        let name = path.file_stem().expect("a file").to_string_lossy().into_owned();
        let packed = Plan { draws: chance::Draws::Packed, ..plan };
        // Recorded when a floor first runs, so a filter that leaves this scenario out costs nothing.
        let once = OnceCell::new();
        let recorded = || {
            once.get_or_init(|| {
                let r = recorded(&s, &plan, &packed);
                let read = r.words.iter().map(|&n| u64::from(n)).sum::<u64>() as f64 / TRIALS as f64;
                let draws = r.draws.ranges.len() as f64 / TRIALS as f64;
                eprintln!("{name}: {draws:.2} draws per trial; packed: {read:.2} words");
                r
            })
        };
        let mut g = c.benchmark_group(format!("floor/{name}"));
        g.throughput(Throughput::Elements(TRIALS));
        g.sample_size(10);
        g.bench_function("generator_floor", |b| {
            let draws = &recorded().draws;
            b.iter(|| black_box(floor(&plan, draws)))
        });
        g.bench_function("engine_one_thread", |b| {
            b.iter(|| black_box(one_thread.install(|| runner::tally(&s, &plan))))
        });
        g.bench_function("packed_floor", |b| {
            let words = &recorded().words;
            b.iter(|| black_box(packed_floor(&packed, words)))
        });
        g.bench_function("packed_one_thread", |b| {
            b.iter(|| black_box(one_thread.install(|| runner::tally(&s, &packed))))
        });
        if let Some(&(_, trials)) = PEER_RUNS.iter().find(|(peer, _)| *peer == name) {
            let long = Plan { trials, ..packed };
            g.throughput(Throughput::Elements(trials));
            g.bench_function("packed_peer_run", |b| {
                b.iter(|| black_box(one_thread.install(|| runner::tally(&s, &long))))
            });
            g.throughput(Throughput::Elements(TRIALS));
        }
        for (id, plan) in [("engine_warm", &plan), ("packed_warm", &packed)] {
            g.bench_function(id, |b| {
                let r = recorded();
                let memo = warmed(r, plan);
                b.iter_batched(
                    || memo.clone(),
                    |mut memo| black_box((r.memo_run)(plan, &mut memo)),
                    BatchSize::LargeInput,
                )
            });
        }
        g.finish();
    }
}

criterion_group!(benches, each_scenario);
criterion_main!(benches);
