//! What a run found, metric by metric: the [`Summary`] every output format is written from.
//!
//! A [`Summary`] pairs the Monte Carlo counts of a [`Tally`] with their intervals ([`crate::stats`]) and, when
//! the chance tree was small enough to walk, the exact value from an [`ExactTally`]. [`MetricRow`]s are the
//! rows of `summary.parquet` (one per metric); [`DistRow`]s are the rows of `distributions.parquet` (one per
//! value of every distribution metric).

use num_rational::BigRational;
use serde::Serialize;

use crate::exact::ExactTally;
use crate::fraction::{text, to_f64};
use crate::metrics::{MetricDef, MetricKind, Metrics, Tally};
use crate::stats::{Interval, Z95, mean_interval, wilson};

/// One metric's estimate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricRow {
    pub metric: String,
    /// `probability` (Wilson interval) or `mean` (normal interval) for a distribution metric.
    pub kind: &'static str,
    pub estimate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    /// Trials in which the event happened (probability metrics only).
    pub successes: Option<u64>,
    pub trials: u64,
    pub exact: Option<f64>,
    /// The exact value as a fraction in lowest terms ("0", "1", "1261/1296"), of which `exact` is the nearest
    /// float; `None` where not solved (or a mean over no trials).
    pub exact_fraction: Option<String>,
    /// Whether the metric's values name places ([`crate::metrics::MetricDef::place`]): no output shows its mean.
    #[serde(skip)]
    pub place: bool,
}

/// One value of a distribution metric.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DistRow {
    pub metric: String,
    pub value: u32,
    pub count: u64,
    pub probability: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub exact: Option<f64>,
    /// The exact probability as a fraction in lowest terms, as in [`MetricRow::exact_fraction`].
    pub exact_fraction: Option<String>,
}

/// Every metric's estimate, and every value of every distribution.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub metrics: Vec<MetricRow>,
    pub distributions: Vec<DistRow>,
}

impl Summary {
    /// The summary of `tally`, with exact values from `exact` where given.
    pub fn new(metrics: &Metrics, tally: &Tally, exact: Option<&ExactTally>) -> Summary {
        let exact_values = exact.map(|e| crate::exact::metric_fractions(metrics, e));
        let exact_of = |i: usize| exact_values.as_ref().map(|v| v[i].as_ref());
        let defs = metrics.defs();
        Summary {
            metrics: defs.iter().enumerate().map(|(i, d)| metric_row(metrics, d, tally, exact_of(i))).collect(),
            distributions: defs.iter().flat_map(|d| dist_rows(metrics, d, tally, exact)).collect(),
        }
    }

    /// The probability metrics: the headline odds.
    pub fn probabilities(&self) -> impl Iterator<Item = &MetricRow> {
        self.metrics.iter().filter(|r| r.kind == "probability")
    }

    /// Whether `metric` is a distribution whose values name places, whose mean says nothing.
    pub fn is_place(&self, metric: &str) -> bool {
        self.metrics.iter().any(|r| r.place && r.metric == metric)
    }

    /// The distribution metrics' names, in order, each with its rows.
    pub fn distributions_by_metric(&self) -> Vec<(&str, Vec<&DistRow>)> {
        let mut out: Vec<(&str, Vec<&DistRow>)> = Vec::new();
        for row in &self.distributions {
            match out.last_mut() {
                Some((name, rows)) if *name == row.metric => rows.push(row),
                _ => out.push((&row.metric, vec![row])),
            }
        }
        out
    }
}

/// A solved metric's exact value: `Some(None)` for a mean over no trials, whose float is NaN.
type Solved<'a> = Option<Option<&'a BigRational>>;

fn metric_row(metrics: &Metrics, def: &MetricDef, tally: &Tally, exact: Solved) -> MetricRow {
    let (kind, ci, successes) = match def.kind {
        MetricKind::Probability => {
            let s = tally.counts[def.slot];
            (def.kind.label(), wilson(s, tally.trials, Z95), Some(s))
        }
        MetricKind::Distribution { .. } => {
            (def.kind.label(), mean_interval(&tally.counts[def.slot..def.slot + def.width()], Z95), None)
        }
    };
    let Interval { estimate, low, high } = ci;
    MetricRow {
        metric: def.name.clone(),
        kind,
        estimate,
        ci_low: low,
        ci_high: high,
        successes,
        trials: metrics.base_of(def, &tally.counts, tally.trials),
        exact: exact.map(|f| f.map_or(f64::NAN, to_f64)),
        exact_fraction: exact.flatten().map(text),
        place: def.place,
    }
}

/// One row per value of a distribution metric: over all trials, or over those its `given` metric counts.
fn dist_rows(metrics: &Metrics, def: &MetricDef, tally: &Tally, exact: Option<&ExactTally>) -> Vec<DistRow> {
    let MetricKind::Distribution { max } = def.kind else { return Vec::new() };
    let base = metrics.base_of(def, &tally.counts, tally.trials);
    let exact = exact.and_then(|e| crate::exact::distribution_fractions(metrics, e, def));
    (0..=max)
        .map(|v| {
            let slot = def.slot + v as usize;
            let count = tally.counts[slot];
            let ci = wilson(count, base, Z95);
            DistRow {
                metric: def.name.clone(),
                value: v,
                count,
                probability: ci.estimate,
                ci_low: ci.low,
                ci_high: ci.high,
                exact: exact.as_ref().map(|e| to_f64(&e[v as usize])),
                exact_fraction: exact.as_ref().map(|e| text(&e[v as usize])),
            }
        })
        .collect()
}
