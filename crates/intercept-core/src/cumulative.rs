//! Cumulative views of a count distribution: "at least N" and "at most N" for every value, and the
//! quantiles (median, 90th percentile) read from them.
//!
//! [`Cumulative::of`] turns a per-value distribution into its running sums from either end, for any value
//! type that adds: trial counts (`u64`), exact probabilities (`f64`), or exact fractions. [`Quantile`] is a
//! value at which the "at most" share first reaches a level, with the interval read from the Wilson bounds
//! of the "at most" shares ([`Quantile::from_bounds`]).

use std::ops::Add;

use serde::Serialize;

/// A distribution's running sums: `at_least[v]` adds the values from `v` up, `at_most[v]` those up to `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cumulative<T> {
    pub at_least: Vec<T>,
    pub at_most: Vec<T>,
}

impl<T: Clone + Add<Output = T>> Cumulative<T> {
    /// The running sums of `values` (value `v` at index `v`), starting from `zero`.
    pub fn of(values: &[T], zero: T) -> Cumulative<T> {
        let running = |items: &mut dyn Iterator<Item = &T>| {
            let mut sum = zero.clone();
            items
                .map(|x| {
                    sum = sum.clone() + x.clone();
                    sum.clone()
                })
                .collect::<Vec<T>>()
        };
        let at_most = running(&mut values.iter());
        let mut at_least = running(&mut values.iter().rev());
        at_least.reverse();
        Cumulative { at_least, at_most }
    }
}

/// How far below a level an exact "at most" share may fall and still count as reaching it: the rounding of
/// a sum of floating-point probabilities (a share of exactly 1/2 may add up to 0.49999999999999994).
const ROUNDING: f64 = 1e-12;

/// The smallest value whose "at most" share reaches `level`; `None` for an empty or undefined distribution.
pub fn quantile(at_most: &[f64], level: f64) -> Option<u32> {
    at_most.iter().position(|&share| share >= level - ROUNDING).map(|v| v as u32)
}

/// A quantile of a count: the value estimated from the trials, its 95% interval, and the exact value where
/// the chance tree was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Quantile {
    pub estimate: u32,
    pub ci_low: u32,
    pub ci_high: u32,
    pub exact: Option<u32>,
}

impl Quantile {
    /// The `level` quantile from the "at most" shares estimated from trials, their 95% interval bounds and
    /// the exact shares. The interval inverts the shares' bounds: the quantile is at least the first value
    /// whose upper bound reaches the level, and at most the first whose lower bound does (the top value if
    /// none does). `None` when no trial was counted.
    pub fn from_bounds(estimate: &[f64], low: &[f64], high: &[f64], exact: Option<&[f64]>, level: f64) -> Option<Self> {
        let top = estimate.len().checked_sub(1)? as u32;
        Some(Quantile {
            estimate: quantile(estimate, level)?,
            ci_low: quantile(high, level).unwrap_or(0),
            ci_high: quantile(low, level).unwrap_or(top),
            exact: exact.and_then(|e| quantile(e, level)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_sums_from_either_end() {
        let c = Cumulative::of(&[1u64, 2, 3], 0);
        assert_eq!(c.at_most, vec![1, 3, 6]);
        assert_eq!(c.at_least, vec![6, 5, 3]);
    }

    #[test]
    fn a_quantile_is_where_the_share_first_reaches_the_level() {
        let at_most = [0.25, 0.5, 0.875, 1.0];
        assert_eq!(quantile(&at_most, 0.5), Some(1));
        assert_eq!(quantile(&at_most, 0.9), Some(3));
        // A share of exactly one half that floating point left a hair under still reaches it.
        assert_eq!(quantile(&[0.25, 0.499_999_999_999_999_94, 1.0], 0.5), Some(1));
        assert_eq!(quantile(&[f64::NAN, f64::NAN], 0.5), None);
    }

    #[test]
    fn the_quantile_interval_inverts_the_bounds() {
        let (est, low, high) = ([0.3, 0.55, 1.0], [0.2, 0.45, 1.0], [0.4, 0.65, 1.0]);
        let q = Quantile::from_bounds(&est, &low, &high, Some(&[0.3, 0.5, 1.0]), 0.5).unwrap();
        assert_eq!(q, Quantile { estimate: 1, ci_low: 1, ci_high: 2, exact: Some(1) });
    }
}
