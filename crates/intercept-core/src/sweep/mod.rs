//! Sweeps: one scenario over a grid of config values, every point on the same seed and chunk streams.
//!
//! Each [`Axis`] is a config key and the values it takes; the grid is every combination ([`grid`]), the first
//! axis varying slowest. Every point is resolved before any trial runs ([`resolve`]), so a bad value stops the
//! sweep with nothing written. Points share the plan (trials, seed, chunk size), so trial `t` of every point
//! draws from the same stream: common random numbers. [`run()`] plays the points chunk by chunk, pairing each
//! point's trials with those of the base point (the first of the grid) as `sensitivity` pairs its steps, and
//! stops at a chunk boundary when interrupted; its [`Counts`] are kept in the sweep's manifest
//! ([`SweepRecord`]), from which [`resume`] goes on. [`finish`] turns the counts into [`Point`]s: each
//! point's record, and its paired difference from the base point with its interval.
//!
//! A sweep without values takes those [`around`] its key's current value. [`exact`] is the sweep solved
//! rather than sampled: every value's exact value and its exact difference from the current one.
//! [`sweep_metrics`] and [`shown_metrics`] pick the metrics a study's documents show, checking those named.

mod around;
pub mod exact;
mod record;
mod run;

pub use around::{Around, NoValues, REACH, around};
pub use record::{PointCounts, Resumed, SweepRecord, resume};
pub use run::{Counts, Ran, run};

use crate::config::set::BadSetting;
use crate::config::set::{self, Setting};
use crate::config::{ConfigError, Scenario};
use crate::engine::Plan;
use crate::metrics::MetricKind;
use crate::record::RunRecord;
use crate::runner::{self, RunFacts};
use crate::sensitivity::{self, Change};

crate::refusal! {
    /// Why a sweep or a sensitivity run is refused before it starts: the command line's message.
    Refused
}

/// One swept key and its values, in the order given.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Axis {
    pub key: String,
    pub values: Vec<String>,
}

/// The most points a sweep may have: each is a whole run.
pub const MOST_POINTS: u64 = 10_000;

/// The keys that make a run's plan: every point of a sweep shares them, which is what pairs their trials.
const PLAN_KEYS: [&str; 3] = ["run.trials", "run.seed", "run.chunk_size"];

/// Refuses axes that name a key twice, list a value twice, sweep a key of the plan ([`PLAN_KEYS`]), or make
/// a grid of more than [`MOST_POINTS`] points: a repeated key would give every point two values for it, and a
/// repeated value two equal points.
pub fn check(axes: &[Axis]) -> Result<(), BadSetting> {
    for (i, axis) in axes.iter().enumerate() {
        let key = crate::text::clip(&axis.key, 80);
        if PLAN_KEYS.contains(&axis.key.as_str()) {
            return Err(BadSetting::from(format!(
                "--set {key}: every point of a sweep runs the same trials on the same seed (that is what pairs \
                 them); set the trials and seed with --trials and --seed, the chunk size in the config"
            )));
        }
        if axes[..i].iter().any(|a| a.key == axis.key) {
            return Err(BadSetting::from(format!(
                "--set {key} is given twice; give each key once, with all its values: --set {key}=V1,V2,..."
            )));
        }
        let repeated = axis.values.iter().enumerate().find(|(j, v)| axis.values[..*j].contains(v));
        if let Some((_, value)) = repeated {
            let value = crate::text::clip(value, 40);
            return Err(BadSetting::from(format!(
                "--set {key}: the value {value} is listed twice; list each value once"
            )));
        }
    }
    let points = axes.iter().try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64)).unwrap_or(u64::MAX);
    if points > MOST_POINTS {
        return Err(BadSetting::from(format!(
            "--set: the grid has {points} points (every combination of the values); allowed: up to {MOST_POINTS}"
        )));
    }
    Ok(())
}

/// Every combination of the axes' values, the first axis varying slowest.
pub fn grid(axes: &[Axis]) -> Vec<Vec<Setting>> {
    axes.iter().fold(vec![Vec::new()], |points, axis| {
        points
            .iter()
            .flat_map(|p| {
                axis.values.iter().map(move |v| {
                    let mut p = p.clone();
                    p.push(Setting { key: axis.key.clone(), value: v.clone() });
                    p
                })
            })
            .collect()
    })
}

/// Every point of the grid, resolved.
pub fn resolve(base: &Scenario, axes: &[Axis]) -> Result<Vec<(Vec<Setting>, Scenario)>, ConfigError> {
    grid(axes).into_iter().map(|settings| Ok((settings.clone(), set::apply(base, &settings)?))).collect()
}

/// A point's settings, its run, and its paired difference from the base point.
pub struct Point {
    pub settings: Vec<Setting>,
    /// The settings' values typed like their keys' values in the config (an integer key's are integers).
    pub values: Vec<toml::Value>,
    pub record: RunRecord,
    /// For each metric of the base point, in its order, this point's paired change from the base point
    /// (`None` where this point has no such metric); empty for the base point itself.
    pub from_base: Vec<Option<Change>>,
}

impl Point {
    /// This point's paired change from `base` (the first point) in `metric`; `None` for the base point.
    pub fn difference(&self, base: &Point, metric: &str) -> Option<Change> {
        let m = base.record.summary.metrics.iter().position(|r| r.metric == metric)?;
        self.from_base.get(m).copied().flatten()
    }
}

/// The points of a sweep of `base` from what [`run()`] counted: each point's record, typed settings and
/// paired change from the first point. `partial` marks counts that cover only some of the plan's chunks.
pub fn finish(base: &Scenario, points: Vec<(Vec<Setting>, Scenario)>, counts: &Counts, plan: &Plan) -> Vec<Point> {
    let partial = counts.next < plan.chunks();
    let first = points.first().map(|(_, s)| s.clone());
    points
        .into_iter()
        .enumerate()
        .map(|(k, (settings, scenario))| {
            let facts =
                RunFacts { timing: None, chunks: 0..counts.next, wanted: 0..plan.chunks(), partial, precision: None };
            let tally = if k == 0 { counts.paired.base.clone() } else { counts.paired.stepped[k - 1].clone() };
            let from_base = match (k, &first) {
                (0, _) | (_, None) => Vec::new(),
                (_, Some(first)) => sensitivity::paired_changes(first, &scenario, &counts.paired, k - 1),
            };
            let record = runner::summarise(&scenario, facts, tally);
            Point { values: typed(base, &settings), settings, record, from_base }
        })
        .collect()
}

/// The settings' values typed like their keys (as text where, impossibly once resolved, a key is not found).
fn typed(base: &Scenario, settings: &[Setting]) -> Vec<toml::Value> {
    let typed = |s: &Setting| set::typed_value(base, s).unwrap_or_else(|_| toml::Value::String(s.value.clone()));
    settings.iter().map(typed).collect()
}

/// The metrics a sweep prints: those named, each checked, or else the rule set's headline metrics.
pub fn sweep_metrics(base: &Scenario, named: &[String]) -> Result<Vec<String>, Refused> {
    let headline = base.rules.headline();
    match named.is_empty() && !headline.is_empty() {
        true => Ok(headline),
        false => shown_metrics(base, named),
    }
}

/// The metrics whose tables to print: those named, each checked, or the rule set's headline metric (the
/// first probability metric if it names none the scenario has).
pub fn shown_metrics(scenario: &Scenario, named: &[String]) -> Result<Vec<String>, Refused> {
    let defs = scenario.rules.metrics().defs();
    if named.is_empty() {
        let headline = scenario.rules.headline().into_iter().find(|h| defs.iter().any(|d| &d.name == h));
        let first = || defs.iter().find(|d| d.kind == MetricKind::Probability).unwrap_or(&defs[0]).name.clone();
        return Ok(vec![headline.unwrap_or_else(first)]);
    }
    if let Some(name) = named.iter().find(|n| !defs.iter().any(|d| &d.name == *n)) {
        let some: Vec<&str> = defs.iter().take(6).map(|d| d.name.as_str()).collect();
        let file = scenario.file.display();
        let some = some.join(", ");
        return Err(Refused::from(format!(
            "{file}: --metric {name}: no such metric; metrics include {some}, ... (`validate` lists all)"
        )));
    }
    Ok(named.to_vec())
}
