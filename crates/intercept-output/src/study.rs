//! Sweeps, sensitivity runs and solves from a resolved scenario to their `--json` documents and output files, one
//! pipeline for the command line and the workbench alike, so the two give the same document for the same
//! config, trials and seed.
//!
//! [`SweepStart`] is a sweep ready to play (a new one's resolved points, or a resumed one's counts);
//! [`SweepStart::play`] plays it into [`Swept`], which writes its files ([`Swept::write`]) and its documents.
//! [`sensitivity_steps`] reads `--only` prefixes into the [`Scope`] and the steps to take;
//! [`write_sensitivity`] writes a finished run's files, [`write_solve`] a solve's. [`shown_metrics`] picks the metrics a document shows
//! (the core's, as [`sweep_metrics`] and [`Refused`] are: [`intercept_core::sweep`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::export::{ExportError, SensitivityParquet, SolveManifest, SolveParquet, SweepManifest, SweepParquet};
use crate::plot::solve::SolveChart;
use crate::plot::sweep::SweepCharts;
use crate::plot::tornado::TornadoCharts;
use crate::report::{SensitivityReport, SolveReport, SweepReport};
use intercept_core::config::{Scenario, set};
use intercept_core::cost::{Cost, Study};
use intercept_core::metrics::MetricKind;
use intercept_core::present::thousands;
use intercept_core::runner;
use intercept_core::sensitivity::{self, Scope, Sensitivity, Step};
use intercept_core::solve::Answer;
use intercept_core::sweep::{self, Axis, Counts, Point, SweepRecord};

/// Why a sweep or a sensitivity run is refused, and the metrics its documents show: the core's, as both
/// the command line and the workbench ask.
pub use intercept_core::sweep::{Refused, shown_metrics, sweep_metrics};

/// What a sweep starts from: its base scenario, axes, the metrics `--metric` named and those its documents
/// show ([`sweep_metrics`]), its resolved points, and for a resumed sweep the counts it stopped at.
pub struct SweepStart {
    pub base: Scenario,
    pub axes: Vec<Axis>,
    pub named: Vec<String>,
    pub shown: Vec<String>,
    pub points: Vec<(Vec<set::Setting>, Scenario)>,
    pub counts: Option<Counts>,
}

/// A played sweep: its manifest record, its points, and the metrics its documents show.
pub struct Swept {
    pub base: Scenario,
    pub axes: Vec<Axis>,
    pub named: Vec<String>,
    pub shown: Vec<String>,
    pub record: SweepRecord,
    pub points: Vec<Point>,
}

impl SweepStart {
    /// A new sweep of `base` over `axes`: its cost within budget unless `allow_large` ([`Cost`], counted
    /// before any point is resolved), every point resolved and `named` metrics checked; the message of a
    /// refusal is the command line's.
    pub fn new(base: Scenario, axes: Vec<Axis>, named: Vec<String>, allow_large: bool) -> Result<SweepStart, Refused> {
        sweep::check(&axes).map_err(|e| Refused(e.0))?;
        let points = axes.iter().try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64)).unwrap_or(u64::MAX);
        if !allow_large {
            let metrics = base.rules.metrics().defs().len() as u64;
            let what = format!("this sweep of {} points", thousands(points));
            let file = base.file.display();
            Cost::of(Study::Sweep, points, metrics).within_budget(&what).map_err(|m| format!("{file}: {m}"))?;
        }
        let points = sweep::resolve(&base, &axes).map_err(|e| e.to_string())?;
        let shown = sweep_metrics(&base, &named)?;
        Ok(SweepStart { base, axes, named, shown, points, counts: None })
    }

    /// The trials still to play, every point counted.
    pub fn trials_left(&self) -> u64 {
        let done = self.counts.as_ref().map_or(0, Counts::trials);
        (runner::plan(&self.base).trials - done) * self.points.len() as u64
    }

    /// Plays the points (on the current rayon pool) until done or `stop` is set, then sums them up.
    pub fn play(self, stop: Option<&AtomicBool>, progress: &(dyn Fn(u64) + Sync)) -> Swept {
        let plan = runner::plan(&self.base);
        let scenarios: Vec<&Scenario> = self.points.iter().map(|(_, s)| s).collect();
        let counts = self.counts.unwrap_or_else(|| Counts::new(&scenarios));
        let ran = sweep::run(&scenarios, &plan, counts, stop, progress);
        let record = SweepRecord::new(&self.base, &self.axes, &self.named, &plan, &ran.counts);
        let points = sweep::finish(&self.base, self.points, &ran.counts, &plan);
        Swept { base: self.base, axes: self.axes, named: self.named, shown: self.shown, record, points }
    }
}

impl Swept {
    /// Writes `sweep.parquet`, the charts, `report.html` and `manifest.json` into `dir`; returns the paths.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let mut written = SweepParquet { axes: &self.axes, points: &self.points }.write(dir)?;
        let charted = crate::plot::sweep::charted(&self.points, &self.named);
        written.extend(SweepCharts { points: &self.points, metrics: &charted }.write(dir)?);
        let report = SweepReport { scenario: &self.base, axes: &self.axes, points: &self.points, named: &self.named };
        written.extend(report.write(dir)?);
        written.extend(SweepManifest(&self.record).write(dir)?);
        Ok(written)
    }

    /// The sweep as the command line prints it, written to `dir` as `files` files.
    pub fn view<'a>(&'a self, dir: &'a Path, files: usize) -> crate::show::sweep::SweepView<'a> {
        let (record, axes, points, shown) = (&self.record, self.axes.as_slice(), &self.points, &self.shown);
        crate::show::sweep::SweepView { record, axes, points, shown, dir, files }
    }

    /// The `sweep --json` document as a value: what the workbench serves.
    pub fn value(&self) -> serde_json::Value {
        crate::show::sweep::value(&self.record, &self.points, &self.shown)
    }
}

/// The scope of a sensitivity run over the keys under `only` (every number when empty) and its steps; a
/// prefix naming nothing, or a scope with no number in it, is refused with the command line's message.
pub fn sensitivity_steps(
    scenario: &Scenario,
    only: &[String],
    float_step: f64,
    allow_large: bool,
) -> Result<(Scope, Vec<Step>), Refused> {
    let file = scenario.file.display();
    let prefix = |p: &String| set::canonical(scenario, p).map_err(|e| format!("{file}: --only {p}: {e}"));
    let scope = Scope { only: only.iter().map(prefix).collect::<Result<_, _>>()?, float_step };
    let count = sensitivity::step_count(scenario, &scope);
    let metrics = scenario.rules.metrics().defs().len() as u64;
    let what = format!("this sensitivity run of {} steps", thousands(count));
    if !allow_large {
        Cost::of(Study::Sensitivity, count, metrics).within_budget(&what).map_err(|m| format!("{file}: {m}"))?;
    }
    let steps = sensitivity::steps(scenario, &scope);
    if steps.is_empty() {
        let (only, allowed) = (only.join(", "), set::sections(scenario).join(", "));
        return Err(Refused::from(format!("{file}: no number of the config is under {only}; allowed: {allowed}")));
    }
    Ok((scope, steps))
}

/// The probability metrics of a sensitivity run: those its tornado charts draw.
pub fn charted(s: &Sensitivity) -> Vec<usize> {
    (0..s.metrics.len()).filter(|&m| s.metrics[m].kind == MetricKind::Probability).collect()
}

/// Writes a solve's `solve.parquet`, `solve.{png,svg}`, `report.html` and `manifest.json` into `dir`;
/// returns the paths.
pub fn write_solve(scenario: &Scenario, answer: &Answer, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let mut written = SolveParquet(answer).write(dir)?;
    written.extend(SolveChart::of(answer).write(dir)?);
    written.extend(SolveReport { scenario, answer }.write(dir)?);
    let command = crate::report::solve_command(scenario, answer);
    written.extend(SolveManifest { answer, command: &command, config: &scenario.file }.write(dir)?);
    Ok(written)
}

/// Writes `sensitivity.parquet`, the tornado charts and `report.html` into `dir`; returns the paths.
pub fn write_sensitivity(
    scenario: &Scenario,
    scope: &Scope,
    s: &Sensitivity,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExportError> {
    let mut written = SensitivityParquet(s).write(dir)?;
    written.extend(TornadoCharts { sensitivity: s, metrics: &charted(s) }.write(dir)?);
    written.extend(SensitivityReport { scenario, scope, sensitivity: s }.write(dir)?);
    Ok(written)
}
