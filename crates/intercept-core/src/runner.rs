//! Running a resolved scenario: sampling (with or without per-trial rows) and solving exactly.
//!
//! [`sample`] runs the Monte Carlo engine on a thread pool of the requested size and, when the chance tree is
//! small enough, also solves it exactly, returning a [`RunRecord`]; [`sample_rows`] does the same while
//! handing every trial's row to a sink (the per-trial Parquet writer); [`solve`] is the exact interpreter
//! alone; [`summarise`] turns counts into the record, as `merge` does for shards.

use std::convert::Infallible;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::config::Scenario;
use crate::engine::{self, Plan, Ran, Span, TrialRows};
use crate::exact::{ExactTally, TooLarge};
use crate::metrics::{MetricKind, Metrics, Tally};
use crate::record::{RunRecord, Timing};
use crate::ruleset::SinkError;
use crate::stats;
use crate::summary::Summary;

/// How to run a scenario, beyond what its config says.
#[derive(Clone, Debug, Default)]
pub struct SampleOptions {
    /// The chunks to run: a shard's share ([`shard_chunks`]); every chunk when `None`.
    pub wanted: Option<Range<u64>>,
    /// Where an interrupted run stopped, to go on from there.
    pub resume: Option<Resume>,
    /// Set by a signal handler (or a server cancelling a job) to stop at the next chunk boundary, writing
    /// what is done as a partial result.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Worker threads; `None` uses every core. The result does not depend on it.
    pub threads: Option<usize>,
    /// Stop adding chunks once every probability's 95% interval has at most this half-width; the config's
    /// trial count is then the most the run may take.
    pub precision: Option<f64>,
}

/// A pool of `threads` worker threads, or one per core when `None`.
pub fn pool(threads: Option<usize>) -> rayon::ThreadPool {
    // Failing to start threads is the machine's trouble, not the user's input.
    rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build().expect("a thread pool")
}

/// Where an interrupted run stopped: the first chunk it did not run, and the counts of those before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    pub next: u64,
    pub before: Tally,
}

/// Chunks `k*c/n .. (k+1)*c/n` of a plan of `c` chunks: shard `k` of `n` (numbered from 0), contiguous so
/// that merging the shards in order is merging the chunks in order.
pub fn shard_chunks(plan: &Plan, k: u64, n: u64) -> Range<u64> {
    let c = u128::from(plan.chunks());
    let at = |k: u64| (c * u128::from(k) / u128::from(n)) as u64;
    at(k)..at(k + 1)
}

/// Runs the scenario's trials and summarises them, with exact values when the tree is small enough.
pub fn sample(scenario: &Scenario, opts: &SampleOptions, progress: &(dyn Fn(u64) + Sync)) -> RunRecord {
    let run = |plan: &Plan, span: Span| Ok::<_, Infallible>(scenario.rules.run_span(plan, span, progress));
    let Ok(record) = sample_with(scenario, opts, run);
    record
}

/// [`sample`], handing every trial's row to `sink` in trial order; stops at the sink's first error.
pub fn sample_rows(
    scenario: &Scenario,
    opts: &SampleOptions,
    progress: &(dyn Fn(u64) + Sync),
    sink: &mut (dyn FnMut(&TrialRows) -> Result<(), SinkError> + Send),
) -> Result<RunRecord, SinkError> {
    sample_with(scenario, opts, |plan, span| scenario.rules.run_rows(plan, span, progress, &mut *sink))
}

/// Runs the wanted chunks through `run` on the thread pool and records the result.
fn sample_with<E: Send>(
    scenario: &Scenario,
    opts: &SampleOptions,
    run: impl FnOnce(&Plan, Span) -> Result<Ran, E> + Send,
) -> Result<RunRecord, E> {
    let pool = pool(opts.threads);
    let threads = pool.current_num_threads();
    let plan = plan(scenario);
    let start = Instant::now();
    let metrics = scenario.rules.metrics();
    let precise = |t: &Tally| precise_enough(metrics, t, opts.precision.unwrap_or(0.0));
    let wanted = opts.wanted.clone().unwrap_or(0..plan.chunks());
    let span = span(metrics, opts, wanted.clone(), opts.precision.is_some().then_some(&precise as engine::Enough));
    let ran = pool.install(|| run(&plan, span))?;
    let wall = start.elapsed().as_secs_f64();
    let partial = ran.interrupted || wanted != (0..plan.chunks());
    let trials_run = ran.tally.trials - opts.resume.as_ref().map_or(0, |r| r.before.trials);
    let chunks = wanted.start..ran.next;
    let timing = Timing { threads, wall_seconds: wall, trials_per_second: trials_run as f64 / wall.max(1e-9) };
    let run = RunFacts { timing: Some(timing), chunks, wanted, partial, precision: opts.precision };
    Ok(summarise(scenario, run, ran.tally))
}

/// The chunks to run and the counts to start from: a fresh run's, or where a resumed one stopped.
fn span<'a>(
    metrics: &Metrics,
    opts: &'a SampleOptions,
    wanted: Range<u64>,
    enough: Option<engine::Enough<'a>>,
) -> Span<'a> {
    let (next, before) = match &opts.resume {
        Some(r) => (r.next, r.before.clone()),
        None => (wanted.start, Tally::new(metrics)),
    };
    Span { chunks: next..wanted.end, before, enough, interrupt: opts.interrupt.as_deref() }
}

/// The record of a run whose counts are `tally`, with exact values when the tree is small enough.
pub fn summarise(scenario: &Scenario, run: RunFacts, tally: Tally) -> RunRecord {
    summarise_with(scenario, run, tally, solve(scenario).ok())
}

/// [`summarise`] with the exact values already solved (`None`: the tree is too large), for a caller that
/// needed them first: `merge` checks the shards against them.
pub fn summarise_with(scenario: &Scenario, run: RunFacts, tally: Tally, exact: Option<ExactTally>) -> RunRecord {
    let summary = Summary::new(scenario.rules.metrics(), &tally, exact.as_ref());
    record(scenario, run, exact.map(|e| e.leaves), summary, tally)
}

/// What a run did, besides counting: for the manifest and the terminal.
pub struct RunFacts {
    /// How it ran, or `None` for a merge.
    pub timing: Option<Timing>,
    /// The chunks the counts cover: fewer than wanted when `--precision` stopped early or the run was
    /// interrupted.
    pub chunks: Range<u64>,
    pub wanted: Range<u64>,
    pub partial: bool,
    pub precision: Option<f64>,
}

/// Whether every probability metric's 95% Wilson interval has a half-width of at most `target`.
pub fn precise_enough(metrics: &Metrics, tally: &Tally, target: f64) -> bool {
    metrics.defs().iter().filter(|d| d.kind == MetricKind::Probability).all(|d| {
        let ci = stats::wilson(tally.counts[d.slot], tally.trials, stats::Z95);
        (ci.high - ci.low) / 2.0 <= target
    })
}

/// The chunking of the scenario's trials.
pub fn plan(scenario: &Scenario) -> Plan {
    let run = &scenario.run;
    Plan { trials: run.trials, seed: run.seed, chunk_size: run.chunk_size, draws: run.draws }
}

fn record(scenario: &Scenario, run: RunFacts, exact_leaves: Option<u64>, summary: Summary, tally: Tally) -> RunRecord {
    let presentation = scenario.rules.present(&summary, tally.trials);
    let precision_reached = run.precision.map(|target| precise_enough(scenario.rules.metrics(), &tally, target));
    let mut record = RunRecord {
        tool: "intercept-sim".to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        config_file: scenario.file.display().to_string(),
        config: scenario.config.clone(),
        seed: scenario.run.seed,
        trials: tally.trials,
        chunk_size: scenario.run.chunk_size,
        partial: run.partial,
        chunks: run.chunks.into(),
        wanted: run.wanted.into(),
        precision: run.precision,
        precision_reached,
        exact_leaves,
        counts: tally.counts,
        digest: String::new(),
        mac: None,
        file_changed: false,
        timing: run.timing,
        summary,
        presentation,
    };
    record.set_digest();
    record
}

/// The counts of `plan`'s trials of the scenario's model, on the current thread pool.
pub fn tally(scenario: &Scenario, plan: &Plan) -> Tally {
    scenario.rules.tally(plan)
}

/// The exact probability of every slot, if the tree has at most `run.max_exact_leaves` leaves.
pub fn solve(scenario: &Scenario) -> Result<ExactTally, TooLarge> {
    scenario.rules.solve(scenario.run.max_exact_leaves)
}

/// The exact probability of every slot where the tree allows, else certified bounds
/// ([`crate::exact::bounds`]): at most `run.max_exact_states` states carried at once, the least likely set
/// aside beyond that, and at `deadline` everything not yet explored.
pub fn solve_bounded(scenario: &Scenario, deadline: Option<std::time::Instant>) -> Result<ExactTally, TooLarge> {
    let prune = crate::exact::Prune { max_states: scenario.run.max_exact_states, deadline };
    scenario.rules.solve_within(&crate::exact::Limits { max_leaves: scenario.run.max_exact_leaves, prune: Some(prune) })
}
