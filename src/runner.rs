//! Running a resolved scenario: sampling (with or without per-trial rows), solving exactly, and exporting.
//!
//! These are the steps the command line strings together. [`sample`] runs the Monte Carlo engine on a thread
//! pool of the requested size and, when the chance tree is small enough, also solves it exactly, returning a
//! [`RunRecord`]; [`export`] writes every [`Output`] of it; [`solve`] is the exact interpreter alone.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::config::Scenario;
use crate::engine::{self, Plan};
use crate::exact::{self, ExactTally, TooLarge};
use crate::export::{DistributionsParquet, ExportError, Manifest, Output, RunRecord, SummaryParquet, TrialsWriter};
use crate::metrics::{MetricKind, Metrics, Tally};
use crate::models::{Model, ModelVisitor};
use crate::plot::Charts;
use crate::report::RunReport;
use crate::stats;
use crate::summary::Summary;

/// How to run a scenario, beyond what its config says.
#[derive(Clone, Debug, Default)]
pub struct SampleOptions {
    /// Worker threads; `None` uses every core. The result does not depend on it.
    pub threads: Option<usize>,
    /// Write `trials.parquet` into this folder while running.
    pub per_trial: Option<PathBuf>,
    /// Stop adding chunks once every probability's 95% interval has at most this half-width; the config's
    /// trial count is then the most the run may take.
    pub precision: Option<f64>,
}

/// Runs the scenario's trials and summarises them, with exact values when the tree is small enough.
pub fn sample(
    scenario: &Scenario,
    opts: &SampleOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<RunRecord, ExportError> {
    let threads = opts.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
    let plan = plan(scenario);
    let start = Instant::now();
    let metrics = scenario.model.metrics();
    let precise = |t: &Tally| precise_enough(metrics, t, opts.precision.unwrap_or(0.0));
    let enough = opts.precision.is_some().then_some(&precise as engine::Enough);
    let visitor = Sample { plan: &plan, progress, per_trial: opts.per_trial.as_deref(), enough };
    let tally = pool.install(|| scenario.model.visit(visitor))?;
    let wall = start.elapsed().as_secs_f64();
    let exact = solve(scenario).ok();
    let summary = Summary::new(metrics, &tally, exact.as_ref());
    let run = RunFacts { threads, wall, trials: tally.trials, precision: opts.precision };
    Ok(record(scenario, run, exact.map(|e| e.leaves), summary))
}

/// What a run measured about itself, for the manifest.
struct RunFacts {
    threads: usize,
    wall: f64,
    /// The trials actually run: fewer than the config's when `--precision` stopped early.
    trials: u64,
    precision: Option<f64>,
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
    Plan { trials: scenario.run.trials, seed: scenario.run.seed, chunk_size: scenario.run.chunk_size }
}

fn record(scenario: &Scenario, run: RunFacts, exact_leaves: Option<u64>, summary: Summary) -> RunRecord {
    RunRecord {
        tool: "intercept-sim",
        version: env!("CARGO_PKG_VERSION"),
        config_file: scenario.file.display().to_string(),
        config: scenario.config.clone(),
        seed: scenario.run.seed,
        trials: run.trials,
        chunk_size: scenario.run.chunk_size,
        threads: run.threads,
        wall_seconds: run.wall,
        trials_per_second: run.trials as f64 / run.wall.max(1e-9),
        precision: run.precision,
        exact_leaves,
        summary,
        plain: scenario.model.plain_words(&scenario.config),
    }
}

struct Sample<'a> {
    plan: &'a Plan,
    progress: &'a (dyn Fn(u64) + Sync),
    per_trial: Option<&'a Path>,
    enough: Option<engine::Enough<'a>>,
}

impl ModelVisitor for Sample<'_> {
    type Output = Result<Tally, ExportError>;

    fn visit<M: Model>(self, model: &M) -> Self::Output {
        let Some(dir) = self.per_trial else {
            return Ok(engine::run_until(model, self.plan, self.progress, self.enough));
        };
        let mut writer = TrialsWriter::create(dir, model.metrics())?;
        let tally = engine::run_rows(model, self.plan, self.progress, self.enough, |rows| writer.write(rows))?;
        writer.finish()?;
        Ok(tally)
    }
}

/// The counts of `plan`'s trials of the scenario's model, on the current thread pool.
pub fn tally(scenario: &Scenario, plan: &Plan) -> Tally {
    struct Run<'a>(&'a Plan);
    impl ModelVisitor for Run<'_> {
        type Output = Tally;
        fn visit<M: Model>(self, model: &M) -> Tally {
            engine::run(model, self.0, &|_| {})
        }
    }
    scenario.model.visit(Run(plan))
}

/// The exact probability of every slot, if the tree has at most `run.max_exact_leaves` leaves.
pub fn solve(scenario: &Scenario) -> Result<ExactTally, TooLarge> {
    struct Solve(u64);
    impl ModelVisitor for Solve {
        type Output = Result<ExactTally, TooLarge>;
        fn visit<M: Model>(self, model: &M) -> Self::Output {
            exact::enumerate(model, self.0)
        }
    }
    scenario.model.visit(Solve(scenario.run.max_exact_leaves))
}

/// Every output file of a run, in the order they are written.
pub fn outputs() -> Vec<Box<dyn Output>> {
    vec![
        Box::new(SummaryParquet),
        Box::new(DistributionsParquet),
        Box::new(Charts),
        Box::new(RunReport),
        Box::new(Manifest),
    ]
}

/// Writes every output of `record` into `dir` (which must exist); returns the paths written.
pub fn export(record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let mut written = Vec::new();
    for output in outputs() {
        written.extend(output.write(record, dir)?);
    }
    Ok(written)
}
