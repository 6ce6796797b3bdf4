//! Sensitivity: how far each metric moves when one rule value moves one step, ranked.
//!
//! [`steps`] takes every number of the scenario ([`Knob`], from [`set::numeric_keys`]) one step down and one
//! step up, each resolved like a `--set`; a [`Step`] the rules refuse (a distance below 0) keeps its reason.
//! [`solve`] finds every allowed step's [`Change`] in every metric exactly, as the difference of two exact
//! solutions, when both chance trees are small enough; [`Solved::sample`] finds the rest by
//! common-random-number Monte Carlo ([`paired`]), with the interval on the paired difference. [`Sensitivity::ranked`] orders the knobs by
//! their largest change in one metric: the rows of the ranked table and the bars of the tornado chart.

pub mod paired;

use std::sync::atomic::AtomicBool;

use crate::config::set::{self, BadSetting, Knob, Setting};
use crate::config::{ConfigError, Scenario};
use crate::exact;
use crate::metrics::{MetricDef, MetricKind, Tally};
use crate::runner;
use crate::stats::{Interval, Z95, mean_interval, moments, wilson};

/// Which way a step moves a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Down,
    Up,
}

impl Direction {
    pub fn label(self) -> &'static str {
        match self {
            Direction::Down => "down",
            Direction::Up => "up",
        }
    }
}

/// One knob moved one step, resolved: the stepped scenario, or why the rules refuse the value.
pub struct Step {
    pub knob: Knob,
    pub direction: Direction,
    /// The stepped value as a setting writes it.
    pub value: String,
    pub scenario: Result<Scenario, BadSetting>,
    /// Whether a refusal only says the value would leave what its own key allows (a distance below 0, a
    /// probability above 1, a value that must stay 0): true of most refusals, and nothing a designer needs
    /// told, so it is not listed. A refusal naming another key (chances that must add up to 1, a return hex
    /// beyond the interceptions allowed) says how the rules tie values together, and is kept.
    pub at_limit: bool,
}

/// The step of a decimal value unless one is given: a twentieth, as probabilities are often set in fives.
pub const DEFAULT_FLOAT_STEP: f64 = 0.05;

/// What is varied, and by how much.
#[derive(Clone, Debug)]
pub struct Scope {
    /// Only keys equal to, or under, one of these dotted prefixes; every key when empty.
    pub only: Vec<String>,
    /// The step of a decimal value (whole numbers step by one).
    pub float_step: f64,
}

impl Scope {
    fn covers(&self, key: &str) -> bool {
        let under = |p: &String| key == p || key.strip_prefix(p.as_str()).is_some_and(|rest| rest.starts_with('.'));
        self.only.is_empty() || self.only.iter().any(under)
    }
}

/// How many steps [`steps`] would take: two for every knob in `scope`. Counted without resolving any, so a
/// run too large to study is refused before the work of resolving thousands of stepped scenarios.
pub fn step_count(base: &Scenario, scope: &Scope) -> u64 {
    2 * set::numeric_keys(base).iter().filter(|k| scope.covers(&k.key)).count() as u64
}

/// Every knob in `scope` one step down and one step up, in the config's key order.
pub fn steps(base: &Scenario, scope: &Scope) -> Vec<Step> {
    let knobs = set::numeric_keys(base).into_iter().filter(|k| scope.covers(&k.key));
    knobs.flat_map(|k| [step(base, &k, Direction::Down, scope), step(base, &k, Direction::Up, scope)]).collect()
}

fn step(base: &Scenario, knob: &Knob, direction: Direction, scope: &Scope) -> Step {
    let by = if direction == Direction::Down { -1 } else { 1 };
    let value = knob.value.stepped(by, scope.float_step);
    let setting = Setting { key: knob.key.clone(), value: value.clone() };
    let given = format!("--set {}={value}: ", knob.key);
    // The table names the key and value already: keep only the reason.
    let refusal = |e: ConfigError| BadSetting(e.message.strip_prefix(given.as_str()).unwrap_or(&e.message).to_owned());
    let scenario = set::apply(base, &[setting]).map_err(refusal);
    let own_key = format!("key '{}': ", knob.key);
    let at_limit = scenario.as_ref().err().is_some_and(|why| why.0.starts_with(&own_key));
    Step { knob: knob.clone(), direction, value, scenario, at_limit }
}

/// A metric of the base scenario and its value there.
#[derive(Clone, Debug, PartialEq)]
pub struct BaseMetric {
    pub name: String,
    pub kind: MetricKind,
    pub value: f64,
    /// Whether `value` is exact (else a Monte Carlo estimate).
    pub exact: bool,
}

/// A metric's change over one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// The metric's value at the stepped value.
    pub value: f64,
    /// Stepped minus base, with its 95% interval (zero width when exact).
    pub change: f64,
    pub low: f64,
    pub high: f64,
    pub exact: bool,
    /// Whether any outcome differs: the exact values, or some sampled trial.
    pub differs: bool,
}

impl Change {
    /// Whether the step changed nothing: exactly, or in any sampled trial.
    pub fn is_none(&self) -> bool {
        !self.differs
    }
}

/// What a sensitivity run found.
pub struct Sensitivity {
    pub metrics: Vec<BaseMetric>,
    pub steps: Vec<Step>,
    /// Per step, per base metric: the change, if the step is allowed and its scenario has the metric.
    pub changes: Vec<Vec<Option<Change>>>,
    /// Trials per scenario when anything was sampled, else 0.
    pub trials: u64,
    pub seed: u64,
}

/// The exact half of a sensitivity run: every step solved exactly where both trees are small enough, and
/// the steps left to sample. [`Solved::sample`] finishes the run.
pub struct Solved<'a> {
    base: &'a Scenario,
    base_exact: Option<Vec<f64>>,
    steps: Vec<Step>,
    /// Per step: the exact changes, or `None` when the step is to be sampled.
    exact: Vec<Option<Vec<Option<Change>>>>,
}

/// Solves every step of `steps` against `base` exactly where both trees are small enough.
pub fn solve(base: &Scenario, steps: Vec<Step>) -> Solved<'_> {
    let base_exact = runner::solve(base).ok().map(|e| exact::metric_values(base.rules.metrics(), &e));
    let exact = steps.iter().map(|s| exact_changes(base, base_exact.as_deref(), s)).collect();
    Solved { base, base_exact, steps, exact }
}

impl Solved<'_> {
    /// The trials the paired Monte Carlo will play in all: the base and every step left to sample.
    pub fn trials_to_sample(&self) -> u64 {
        let sampled = self.exact.iter().filter(|e| e.is_none()).count() as u64;
        let needed = self.base_exact.is_none() || sampled > 0;
        if needed { self.base.run.trials * (1 + sampled) } else { 0 }
    }

    /// Samples the steps that could not be solved (and the base, if it could not), on common random numbers.
    pub fn sample(self, progress: &(dyn Fn(u64) + Sync)) -> Sensitivity {
        self.sample_until(None, progress).expect("nothing stops a run without a stop flag")
    }

    /// [`Solved::sample`], giving up (`None`) at the next slice once `stop` is set.
    pub fn sample_until(self, stop: Option<&AtomicBool>, progress: &(dyn Fn(u64) + Sync)) -> Option<Sensitivity> {
        let sampled: Vec<usize> = (0..self.steps.len()).filter(|&i| self.exact[i].is_none()).collect();
        let plan = runner::plan(self.base);
        let trials = if self.trials_to_sample() > 0 { plan.trials } else { 0 };
        let paired = (trials > 0).then(|| {
            let stepped: Vec<&Scenario> = sampled
                .iter()
                .map(|&i| self.steps[i].scenario.as_ref().expect("refused steps are not sampled"))
                .collect();
            paired::run_until(self.base, &stepped, &plan, stop, progress)
        });
        let paired = match paired {
            Some(None) => return None,
            done => done.flatten(),
        };
        let metrics = base_metrics(self.base, self.base_exact.as_deref(), paired.as_ref());
        let mut changes: Vec<Vec<Option<Change>>> = self.exact.into_iter().map(Option::unwrap_or_default).collect();
        for (k, &i) in sampled.iter().enumerate() {
            let p = paired.as_ref().expect("sampled steps were run");
            let stepped = self.steps[i].scenario.as_ref().expect("refused steps are not sampled");
            changes[i] = sampled_changes(self.base, stepped, &metrics, p, k);
        }
        Some(Sensitivity { metrics, steps: self.steps, changes, trials, seed: plan.seed })
    }
}

/// A step's changes as differences of exact values (`None` for each metric when the step is refused), or
/// `None` when one of the two trees is too large to solve and the step must be sampled.
fn exact_changes(base: &Scenario, base_exact: Option<&[f64]>, step: &Step) -> Option<Vec<Option<Change>>> {
    let Ok(stepped) = &step.scenario else { return Some(vec![None; base.rules.metrics().defs().len()]) };
    let base_values = base_exact?;
    let solved = runner::solve(stepped).ok()?;
    let theirs = exact::metric_values(stepped.rules.metrics(), &solved);
    // A mean over no trials (a group that never rolls) has no change to give.
    let change = |t: Option<usize>, b: f64| {
        let v = theirs[t?];
        let d = v - b;
        if d.is_nan() {
            return None;
        }
        Some(Change { value: v, change: d, low: d, high: d, exact: true, differs: d.abs() > 1e-12 })
    };
    let matched = paired::matching_metrics(base, stepped);
    Some(matched.into_iter().zip(base_values).map(|(t, &b)| change(t, b)).collect())
}

/// Step `k`'s change in every metric, from the paired run `p`. A metric counted over every trial changes by
/// the mean of the per-trial differences. A metric counted over only some trials (a distribution `given` a
/// probability) changes by the difference of its two means, each over its own trials, since the trials it
/// is counted over differ between the two runs; its interval adds the two means' variances, as if the runs
/// were independent (common random numbers only make it narrower). A mean over no trials has no change.
fn sampled_changes(
    base: &Scenario,
    stepped: &Scenario,
    metrics: &[BaseMetric],
    p: &paired::Paired,
    k: usize,
) -> Vec<Option<Change>> {
    let matched = paired::matching_metrics(base, stepped);
    let (base_defs, their_defs) = (base.rules.metrics().defs(), stepped.rules.metrics().defs());
    let change = |m: usize| {
        let sums = p.pairs[k][m].as_ref()?;
        let ci = match base_defs[m].given {
            None => sums.interval(bound(metrics[m].kind)),
            Some(_) => conditional_difference(&base_defs[m], &p.base, &their_defs[matched[m]?], &p.stepped[k])?,
        };
        let (value, differs) = (metrics[m].value + ci.estimate, sums.sum_sq > 0);
        Some(Change { value, change: ci.estimate, low: ci.low, high: ci.high, exact: false, differs })
    };
    (0..metrics.len()).map(change).collect()
}

/// Each base metric's paired change from `base` to stepped scenario `k` of the paired run `p`, estimated
/// as a sensitivity step's is (a sweep's difference from its base point).
pub(crate) fn paired_changes(base: &Scenario, stepped: &Scenario, p: &paired::Paired, k: usize) -> Vec<Option<Change>> {
    sampled_changes(base, stepped, &base_metrics(base, None, Some(p)), p, k)
}

/// The most a metric can move: 1 for a probability, the largest value for a distribution.
fn bound(kind: MetricKind) -> u32 {
    match kind {
        MetricKind::Probability => 1,
        MetricKind::Distribution { max } => max,
    }
}

/// The difference of two conditional means, `theirs` minus `ours`, with the unpaired 95% interval.
fn conditional_difference(ours: &MetricDef, base: &Tally, theirs: &MetricDef, stepped: &Tally) -> Option<Interval> {
    let (nb, mb, vb) = moments(&base.counts[ours.slot..ours.slot + ours.width()])?;
    let (ns, ms, vs) = moments(&stepped.counts[theirs.slot..theirs.slot + theirs.width()])?;
    let (change, half) = (ms - mb, Z95 * (vb / nb + vs / ns).sqrt());
    Some(Interval { estimate: change, low: change - half, high: change + half })
}

/// The base scenario's metrics: exact values where solved, else the paired run's base estimates.
fn base_metrics(base: &Scenario, exact: Option<&[f64]>, paired: Option<&paired::Paired>) -> Vec<BaseMetric> {
    base.rules
        .metrics()
        .defs()
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let (value, is_exact) = match (exact, paired) {
                (Some(v), _) => (v[i], true),
                (None, Some(p)) => (estimate(d, &p.base), false),
                (None, None) => unreachable!("an unsolved base is always sampled"),
            };
            BaseMetric { name: d.name.clone(), kind: d.kind, value, exact: is_exact }
        })
        .collect()
}

fn estimate(d: &MetricDef, tally: &Tally) -> f64 {
    match d.kind {
        MetricKind::Probability => wilson(tally.counts[d.slot], tally.trials, Z95).estimate,
        MetricKind::Distribution { .. } => mean_interval(&tally.counts[d.slot..d.slot + d.width()], Z95).estimate,
    }
}

/// One knob's two steps in one metric, for the ranked table and the tornado chart.
#[derive(Clone, Debug)]
pub struct Ranked<'a> {
    pub knob: &'a Knob,
    pub down: Option<(&'a str, Change)>,
    pub up: Option<(&'a str, Change)>,
}

impl Ranked<'_> {
    /// The larger of the two changes' sizes: what the table is ranked by.
    pub fn size(&self) -> f64 {
        [self.down, self.up].iter().flatten().map(|(_, c)| c.change.abs()).fold(0.0, f64::max)
    }

    /// Whether neither step changes the metric at all.
    pub fn changes_nothing(&self) -> bool {
        [self.down, self.up].iter().flatten().all(|(_, c)| c.is_none())
    }
}

impl Sensitivity {
    /// The index of the base metric called `name`.
    pub fn metric(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m.name == name)
    }

    /// Every knob's changes in metric `m`, largest first (ties in key order).
    pub fn ranked(&self, m: usize) -> Vec<Ranked<'_>> {
        let mut rows: Vec<Ranked> =
            self.steps.chunks(2).zip(self.changes.chunks(2)).map(|(s, c)| ranked(s, c, m)).collect();
        rows.sort_by(|a, b| b.size().total_cmp(&a.size()));
        rows
    }

    /// The steps the rules refuse, with why.
    pub fn refused(&self) -> impl Iterator<Item = (&Step, &str)> {
        self.steps.iter().filter_map(|s| s.scenario.as_ref().err().map(|why| (s, why.0.as_str())))
    }

    /// The refusals worth telling: those that do not only say a value would leave its key's range
    /// ([`Step::at_limit`]).
    pub fn telling_refusals(&self) -> impl Iterator<Item = (&Step, &str)> {
        self.refused().filter(|(s, _)| !s.at_limit)
    }
}

/// A knob's down and up step (`steps` holds them in that order) in metric `m`.
fn ranked<'a>(steps: &'a [Step], changes: &[Vec<Option<Change>>], m: usize) -> Ranked<'a> {
    let side = |i: usize| changes[i][m].map(|c| (steps[i].value.as_str(), c));
    Ranked { knob: &steps[0].knob, down: side(0), up: side(1) }
}
