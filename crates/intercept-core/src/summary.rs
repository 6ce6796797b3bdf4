//! What a run found, metric by metric: the [`Summary`] every output format is written from.
//!
//! A [`Summary`] pairs the Monte Carlo counts of a [`Tally`] with their intervals ([`crate::stats`]) and, when
//! the chance tree was small enough to walk, the exact value from an [`ExactTally`]. [`MetricRow`]s are the
//! rows of `summary.parquet` (one per metric); [`DistRow`]s are the rows of `distributions.parquet` (one per
//! value of every distribution metric), each with its "at least" and "at most" [`Share`]s
//! ([`crate::cumulative`]). A count's row also carries its median and 90th percentile ([`Quantile`]), and
//! every row says whether the metric took one value in every trial ([`MetricRow::always`]), which the
//! pages fold into one line.

use num_rational::BigRational;
use serde::Serialize;

use crate::cumulative::{Cumulative, Quantile};
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
    /// A count's median: the smallest value at most which half the trials fall (`None` for probabilities
    /// and places).
    pub median: Option<Quantile>,
    /// A count's 90th percentile: the smallest value at most which 90% of the trials fall.
    pub p90: Option<Quantile>,
    /// The value the metric took in every trial (0 or 1 for a probability), and exactly so where solved;
    /// `None` when it varies or no trial was counted.
    pub always: Option<u32>,
    /// Where the exact value lies when the solve set part of the chance tree aside ([`crate::exact::bounds`]):
    /// `exact` is then `None` and these are its certain lower and upper bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_low: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_high: Option<f64>,
    /// The probability of the chance tree left unexplored, beside those bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unexplored: Option<f64>,
    /// The metric's one-line description ([`crate::metrics::MetricDef::about`]), shown beside its name.
    #[serde(skip)]
    pub about: String,
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
    /// The trials that took this value or more.
    pub at_least: Share,
    /// The trials that took this value or less.
    pub at_most: Share,
}

/// A cumulative share of a distribution's trials ("at least N" or "at most N"): its count, its estimate
/// with the 95% Wilson interval, and its exact value where solved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Share {
    pub count: u64,
    pub probability: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub exact: Option<f64>,
    /// The exact share as a fraction in lowest terms, as in [`MetricRow::exact_fraction`].
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
    /// The exact columns are left empty for a solve that set part of the tree aside: a metric's row then
    /// carries its bounds instead ([`MetricRow::exact_low`]).
    pub fn new(metrics: &Metrics, tally: &Tally, exact: Option<&ExactTally>) -> Summary {
        let (solved, bounded) = match exact {
            Some(e) if !e.is_exact() => (None, Some(e)),
            other => (other, None),
        };
        let exact_values = solved.map(|e| crate::exact::metric_fractions(metrics, e));
        let exact_of = |i: usize| exact_values.as_ref().map(|v| v[i].as_ref());
        let bounds = bounded.map(|e| crate::exact::metric_bounds(metrics, e));
        let mut summary = Summary::default();
        for (i, def) in metrics.defs().iter().enumerate() {
            let dist = dist_rows(metrics, def, tally, solved);
            let mut row = metric_row(metrics, def, tally, exact_of(i), &dist);
            if let (Some(e), Some(Some(b))) = (bounded, bounds.as_ref().map(|b| &b[i])) {
                (row.exact_low, row.exact_high) = (Some(to_f64(&b.low)), Some(to_f64(&b.high)));
                row.unexplored = Some(to_f64(&e.residual));
            }
            summary.metrics.push(row);
            summary.distributions.extend(dist);
        }
        summary
    }

    /// The summary of an exact solve alone, with no trial sampled: every row's `exact` is set, its
    /// estimate is not, and its trials are 0 (so [`crate::present::how_often`] gives the exact value).
    pub fn exact_only(metrics: &Metrics, exact: &ExactTally) -> Summary {
        Summary::new(metrics, &Tally::new(metrics), Some(exact))
    }

    /// The row of `metric`, if the run reports it.
    pub fn metric(&self, metric: &str) -> Option<&MetricRow> {
        self.metrics.iter().find(|r| r.metric == metric)
    }

    /// The metrics (places aside) that took one value in every trial ([`MetricRow::always`]), grouped by that
    /// value in ascending order, each group's names in metric order.
    pub fn always(&self) -> Vec<(u32, Vec<&str>)> {
        let mut groups: std::collections::BTreeMap<u32, Vec<&str>> = std::collections::BTreeMap::new();
        for r in self.metrics.iter().filter(|r| !r.place) {
            if let Some(v) = r.always {
                groups.entry(v).or_default().push(&r.metric);
            }
        }
        groups.into_iter().collect()
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

fn metric_row(metrics: &Metrics, def: &MetricDef, tally: &Tally, exact: Solved, dist: &[DistRow]) -> MetricRow {
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
    let trials = metrics.base_of(def, &tally.counts, tally.trials);
    let quantile = |level| if def.place { None } else { quantile_of(dist, level) };
    MetricRow {
        metric: def.name.clone(),
        kind,
        estimate,
        ci_low: low,
        ci_high: high,
        successes,
        trials,
        exact: exact.map(|f| f.map_or(f64::NAN, to_f64)),
        exact_fraction: exact.flatten().map(text),
        median: quantile(0.5),
        p90: quantile(0.9),
        always: always(successes, trials, exact.flatten(), dist),
        exact_low: None,
        exact_high: None,
        unexplored: None,
        about: def.about.clone(),
        place: def.place,
    }
}

/// The value a metric took in every one of its `trials` (a probability from its `successes`, a count from
/// its distribution's rows), when the exact value, where known, says it always does.
fn always(successes: Option<u64>, trials: u64, exact: Option<&BigRational>, dist: &[DistRow]) -> Option<u32> {
    if trials == 0 {
        return None;
    }
    // Exactly, from the fraction: a float just off 0 or 1 must not hide a certainty, nor fake one.
    let is = |fraction: Option<&str>, one: bool| fraction.is_none_or(|f| f == if one { "1" } else { "0" });
    let exact_text = exact.map(text);
    match successes {
        Some(0) if is(exact_text.as_deref(), false) => Some(0),
        Some(s) if s == trials && is(exact_text.as_deref(), true) => Some(1),
        Some(_) => None,
        None => dist.iter().find(|r| r.count == trials && is(r.exact_fraction.as_deref(), true)).map(|r| r.value),
    }
}

/// The `level` quantile of a distribution from its rows' "at most" shares.
fn quantile_of(rows: &[DistRow], level: f64) -> Option<Quantile> {
    let column = |f: fn(&Share) -> f64| rows.iter().map(|r| f(&r.at_most)).collect::<Vec<f64>>();
    let exact: Option<Vec<f64>> = rows.iter().map(|r| r.at_most.exact).collect();
    let (estimate, low, high) = (column(|s| s.probability), column(|s| s.ci_low), column(|s| s.ci_high));
    Quantile::from_bounds(&estimate, &low, &high, exact.as_deref(), level)
}

/// One row per value of a distribution metric: over all trials, or over those its `given` metric counts.
fn dist_rows(metrics: &Metrics, def: &MetricDef, tally: &Tally, exact: Option<&ExactTally>) -> Vec<DistRow> {
    let MetricKind::Distribution { .. } = def.kind else { return Vec::new() };
    let base = metrics.base_of(def, &tally.counts, tally.trials);
    let counts = &tally.counts[def.slot..def.slot + def.width()];
    let exact = exact.and_then(|e| crate::exact::distribution_fractions(metrics, e, def));
    let cumulative = Cumulative::of(counts, 0);
    let exact_cumulative = exact.as_ref().map(|e| Cumulative::of(e, BigRational::default()));
    let share = |count: u64, exact: Option<&BigRational>| {
        let ci = wilson(count, base, Z95);
        let (fraction, exact) = (exact.map(text), exact.map(to_f64));
        Share { count, probability: ci.estimate, ci_low: ci.low, ci_high: ci.high, exact, exact_fraction: fraction }
    };
    let exact_at =
        |v: usize, f: fn(&Cumulative<BigRational>) -> &Vec<BigRational>| exact_cumulative.as_ref().map(|c| &f(c)[v]);
    (0..counts.len())
        .map(|v| {
            let here = share(counts[v], exact.as_ref().map(|e| &e[v]));
            DistRow {
                metric: def.name.clone(),
                value: v as u32,
                count: here.count,
                probability: here.probability,
                ci_low: here.ci_low,
                ci_high: here.ci_high,
                exact: here.exact,
                exact_fraction: here.exact_fraction.clone(),
                at_least: share(cumulative.at_least[v], exact_at(v, |c| &c.at_least)),
                at_most: share(cumulative.at_most[v], exact_at(v, |c| &c.at_most)),
            }
        })
        .collect()
}
