//! Exact sweeps: one key of a scenario over a few values, every value solved exactly and compared with the
//! current value. A study like [`crate::decide`] ("where"), the sampled sweep ([`super`]),
//! [`crate::sensitivity`] and [`crate::solve`]: vary something, solve each exactly, compare.
//!
//! [`Points`] are the values to solve: those given, else those [`super::around`] the current value, with
//! the current value always among them, ascending, each once, at most [`MOST_VALUES`] ([`TooMany`]).
//! [`solve`] sets each as `sweep --set` sets it and solves its scenario with the enumerator `exact` uses;
//! [`metric`] picks the metric to judge by. The answer, an [`ExactSweep`], holds one [`ExactPoint`] a
//! value, whose [`State`] is the metric's exact value and its exact difference from the current value's, or
//! why it has none ([`Unsolved`]): the rules refuse the value, its tree is too large, or no trial counts the
//! metric.

use num_rational::BigRational;

use super::{Around, Refused, sweep_metrics};
use crate::config::set::{self, Setting};
use crate::config::{ConfigError, Scenario};
use crate::exact::{self, TooLarge};
use crate::runner;

/// The most values one exact sweep solves.
pub const MOST_VALUES: usize = 41;

crate::refusal! {
    /// More values than one exact sweep solves ([`MOST_VALUES`]): how many were given, and the limit.
    TooMany
}

/// The values an exact sweep solves: its key as sweeps print it, and its values ascending, each once, the
/// current value among them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Points {
    pub key: String,
    /// The key's value in the scenario, as a setting writes it.
    pub current: String,
    pub values: Vec<String>,
}

impl Points {
    /// The values `given` (else the defaults of `around`), the current value added when missing (a typed
    /// `8.0` is the current `8`), ascending, each once; more than [`MOST_VALUES`] given is refused.
    pub fn new(around: Around, given: Option<Vec<String>>) -> Result<Points, TooMany> {
        let current = around.current().to_owned();
        let mut values = given.unwrap_or(around.values);
        if values.len() > MOST_VALUES {
            return Err(TooMany(format!("{} values; allowed: at most {MOST_VALUES} in one exact sweep", values.len())));
        }
        values.retain(|v| !same(v, &current));
        values.push(current.clone());
        values.sort_by(|a, b| match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => x.total_cmp(&y),
            _ => a.cmp(b),
        });
        values.dedup_by(|a, b| same(a, b));
        Ok(Points { key: around.key, current, values })
    }
}

/// Whether two values are the same: as written, or as numbers.
fn same(a: &str, b: &str) -> bool {
    a == b || a.parse::<f64>().ok().is_some_and(|x| b.parse::<f64>().ok() == Some(x))
}

/// An exact sweep's answer: the key swept, the metric judged, the current value and every point.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactSweep {
    pub key: String,
    pub metric: String,
    pub current: String,
    pub points: Vec<ExactPoint>,
}

impl ExactSweep {
    /// How many values were too large to solve: those to sample instead.
    pub fn too_large(&self) -> usize {
        self.points.iter().filter(|p| matches!(p.state, State::Unsolved(Unsolved::TooLarge(_)))).count()
    }
}

/// One value of an exact sweep: as given, whether it is the current value, and what solving it gave.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactPoint {
    pub value: String,
    pub current: bool,
    pub state: State,
}

/// What solving one value gave.
#[derive(Clone, Debug, PartialEq)]
pub enum State {
    /// The metric's exact value, and its difference from the current value's (`None` when the current
    /// value has none).
    Solved {
        exact: BigRational,
        difference: Option<BigRational>,
    },
    Unsolved(Unsolved),
}

/// Why a value has no exact value of the metric; its reason in a sentence is its `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// The metric has no value here (a mean over no trials, or a metric this value's scenario lacks): why.
    NoValue(String),
    /// The rules refuse the value.
    Refused(ConfigError),
    /// The value's chance tree is too large to solve.
    TooLarge(TooLarge),
}

impl std::fmt::Display for Unsolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsolved::NoValue(why) => f.write_str(why),
            Unsolved::Refused(e) => e.fmt(f),
            Unsolved::TooLarge(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Unsolved {}

/// The metric an exact sweep judges by: the first of those `named` (each checked), else the rule set's
/// headline metric.
pub fn metric(base: &Scenario, named: &[String]) -> Result<String, Refused> {
    let metrics = sweep_metrics(base, named)?;
    metrics.into_iter().next().ok_or_else(|| Refused::from("the scenario has no metric to sweep"))
}

/// Every point of `points` solved exactly: the exact value of `metric` at each value, and its difference from
/// the current value's.
pub fn solve(base: &Scenario, points: &Points, metric: &str) -> ExactSweep {
    let solved: Vec<Result<BigRational, Unsolved>> =
        points.values.iter().map(|v| value_at(base, &points.key, v, metric)).collect();
    let at_current =
        points.values.iter().position(|v| *v == points.current).and_then(|i| solved[i].as_ref().ok().cloned());
    let points_solved = points.values.iter().zip(solved).map(|(value, point)| {
        let state = match point {
            Ok(exact) => {
                let difference = at_current.as_ref().map(|c| &exact - c);
                State::Solved { exact, difference }
            }
            Err(why) => State::Unsolved(why),
        };
        ExactPoint { value: value.clone(), current: *value == points.current, state }
    });
    ExactSweep {
        key: points.key.clone(),
        metric: metric.to_owned(),
        current: points.current.clone(),
        points: points_solved.collect(),
    }
}

/// The exact value of `metric` with `key` set to `value`, or why it has none.
fn value_at(base: &Scenario, key: &str, value: &str, metric: &str) -> Result<BigRational, Unsolved> {
    let setting = Setting { key: key.to_owned(), value: value.to_owned() };
    let stepped = set::apply(base, &[setting]).map_err(Unsolved::Refused)?;
    let solved = runner::solve(&stepped).map_err(Unsolved::TooLarge)?;
    let metrics = stepped.rules.metrics();
    let Some(at) = metrics.defs().iter().position(|d| d.name == metric) else {
        return Err(Unsolved::NoValue(format!("no metric {metric} at {key} = {value}")));
    };
    let value = exact::metric_fractions(metrics, &solved).swap_remove(at);
    value.ok_or_else(|| Unsolved::NoValue(format!("{metric} has no value here: no trial counts it")))
}
