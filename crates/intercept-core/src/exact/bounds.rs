//! Certified bounds from a solve that set part of the chance tree aside ([`ExactTally::residual`]).
//!
//! A slot's fraction in such a tally counts the paths followed to where they report it; the paths set aside,
//! of probability `r` in all, may report it too, each at most once. So a probability lies in `[f, f + r]`;
//! a count's value 0 (the paths that report no other value) in `[f0 - r, f0]`; a mean of a count bounded by
//! `max` in `[m, m + max r]`; and a value conditional on another metric (`given`) between the ratios of
//! those bounds. Every bound is clamped to what the value can be. A solve made in passes carries each
//! coarser pass's sums too ([`ExactTally::coarser`]), and every bound is the intersection of the passes'.
//! With `r = 0` each is the exact value twice, so one code path shows exact answers and bounded ones alike.

use num_rational::BigRational;
use num_traits::{One, Zero};

use super::ExactTally;
use crate::metrics::{Completion, MetricDef, MetricKind, Metrics};

/// Where an exact value lies: `low == high` for an exact answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub low: BigRational,
    pub high: BigRational,
}

impl Bounds {
    fn exact(v: BigRational) -> Bounds {
        Bounds { low: v.clone(), high: v }
    }

    /// `[low, high]` clamped to `[0, top]`.
    fn within(low: BigRational, high: BigRational, top: &BigRational) -> Bounds {
        let zero = BigRational::zero();
        let clamp = |v: BigRational| {
            if v < zero {
                zero.clone()
            } else if &v > top {
                top.clone()
            } else {
                v
            }
        };
        Bounds { low: clamp(low), high: clamp(high) }
    }

    /// Whether the value is known exactly.
    pub fn is_exact(&self) -> bool {
        self.low == self.high
    }

    /// Whether `x` lies within the bounds.
    pub fn holds(&self, x: &BigRational) -> bool {
        &self.low <= x && x <= &self.high
    }

    /// The ratio of a numerator in `self` to a base in `base`, clamped to `[0, top]`; `None` where the base
    /// is exactly 0 (a mean over no trials).
    fn over(&self, base: &Bounds, top: &BigRational) -> Option<Bounds> {
        if base.high.is_zero() {
            return None;
        }
        let low = &self.low / &base.high;
        let high = if base.low.is_zero() { top.clone() } else { &self.high / &base.low };
        Some(Bounds::within(low, high, top))
    }
}

/// The bounds of a tally, worked out once: each pass's slot bounds, from which every metric's and
/// distribution's bounds are derived pass by pass and intersected. What a table of every metric and every
/// distribution value reads, rather than working out the slots again for each.
pub struct Table<'a> {
    metrics: &'a Metrics,
    passes: Vec<PassBounds<'a>>,
}

/// One pass: its completed slot fractions, its residual, and its slots' bounds.
struct PassBounds<'a> {
    fractions: &'a [BigRational],
    residual: &'a BigRational,
    slots: Vec<Bounds>,
}

impl<'a> Table<'a> {
    /// The bounds of `exact`: its own sums', and its coarser passes'.
    pub fn of(metrics: &'a Metrics, exact: &'a ExactTally) -> Table<'a> {
        let sums = std::iter::once((exact.fractions.as_slice(), &exact.residual))
            .chain(exact.coarser.iter().map(|(f, r)| (f.as_slice(), r)));
        let passes = sums.map(|(fractions, residual)| PassBounds {
            fractions,
            residual,
            slots: pass_slots(metrics, fractions, residual),
        });
        Table { metrics, passes: passes.collect() }
    }

    /// The intersection of the bounds each pass gives (each holds, so their intersection does).
    fn intersect(&self, of: impl Fn(&PassBounds<'_>) -> Vec<Option<Bounds>>) -> Vec<Option<Bounds>> {
        let mut all = self.passes.iter().map(of);
        let mut out = all.next().expect("a tally has its own sums");
        for other in all {
            for (b, o) in out.iter_mut().zip(other) {
                if let (Some(b), Some(o)) = (b.as_mut(), o) {
                    b.low = b.low.clone().max(o.low);
                    b.high = b.high.clone().min(o.high);
                }
            }
        }
        out
    }

    /// The bounds of every slot, as [`ExactTally::fractions`] indexes them.
    pub fn slots(&self) -> Vec<Bounds> {
        self.intersect(|p| p.slots.iter().cloned().map(Some).collect()).into_iter().flatten().collect()
    }

    /// The bounds of every metric's value (probability or mean), in `metrics` order; `None` for the mean of
    /// a distribution whose `given` metric no trial counts.
    pub fn metrics(&self) -> Vec<Option<Bounds>> {
        let metrics = self.metrics;
        self.intersect(|p| {
            let value = |d: &MetricDef| match d.kind {
                MetricKind::Probability => Some(p.slots[d.slot].clone()),
                MetricKind::Distribution { max } => {
                    let top = BigRational::from_integer(max.into());
                    let sum = super::mean(p.fractions, d.slot, d.width());
                    let sum = Bounds::within(sum.clone(), sum + &top * p.residual, &top);
                    sum.over(&base(metrics, &p.slots, d), &top)
                }
            };
            metrics.defs().iter().map(value).collect()
        })
    }

    /// The bounds of the chance of each value `0..=max` of distribution metric `def`, conditional on its
    /// `given` metric if it has one; `None` when no trial is counted.
    pub fn distribution(&self, def: &MetricDef) -> Option<Vec<Bounds>> {
        let one = BigRational::one();
        let values = self.intersect(|p| {
            let base = base(self.metrics, &p.slots, def);
            p.slots[def.slot..def.slot + def.width()].iter().map(|v| v.over(&base, &one)).collect()
        });
        values.into_iter().collect()
    }
}

/// The bounds of every slot of `exact` ([`Table::slots`]).
pub fn slot_bounds(metrics: &Metrics, exact: &ExactTally) -> Vec<Bounds> {
    Table::of(metrics, exact).slots()
}

/// The bounds of every metric's value of `exact` ([`Table::metrics`]).
pub fn metric_bounds(metrics: &Metrics, exact: &ExactTally) -> Vec<Option<Bounds>> {
    Table::of(metrics, exact).metrics()
}

/// The bounds of each value of distribution metric `def` of `exact` ([`Table::distribution`]).
pub fn distribution_bounds(metrics: &Metrics, exact: &ExactTally, def: &MetricDef) -> Option<Vec<Bounds>> {
    Table::of(metrics, exact).distribution(def)
}

/// The bounds of every slot from one pass's completed fractions `f` and residual `r`.
fn pass_slots(metrics: &Metrics, f: &[BigRational], r: &BigRational) -> Vec<Bounds> {
    let one = BigRational::one();
    let mut out: Vec<Bounds> = f.iter().map(|x| Bounds::within(x.clone(), x + r, &one)).collect();
    for def in metrics.defs() {
        if let MetricKind::Distribution { .. } = def.kind {
            // Value 0 is the base less the other values: the base may grow by r (given) and the other values
            // by r in all.
            let f0 = &f[def.slot];
            let high = if def.given.is_some() { f0 + r } else { f0.clone() };
            out[def.slot] = Bounds::within(f0 - r, high, &one);
        }
    }
    for def in metrics.defs() {
        out[def.slot] = match def.completion {
            Some(Completion::Fixed(_)) => Bounds::exact(f[def.slot].clone()),
            Some(Completion::AtLeast { at_least: 0, source }) => out[metrics.defs()[source].slot].clone(),
            Some(Completion::AtLeast { .. }) => Bounds::within(f[def.slot].clone(), &f[def.slot] + r, &one),
            None => continue,
        };
    }
    out
}

/// The bounds of the chance a trial is counted for `def`: 1, or its `given` metric's.
fn base(metrics: &Metrics, slots: &[Bounds], def: &MetricDef) -> Bounds {
    def.given.map_or_else(|| Bounds::exact(BigRational::one()), |g| slots[metrics.defs()[g].slot].clone())
}
