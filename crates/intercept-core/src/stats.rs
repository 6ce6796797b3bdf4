//! Interval estimates: Wilson score intervals for probabilities, normal intervals for means.
//!
//! Every estimate the tool prints or writes carries its interval. [`Interval`] is the value type; [`wilson`]
//! and [`mean_interval`] compute it from integer counts, at a confidence given by its normal quantile `z`.

use num_rational::BigRational;
use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;
/// The normal quantile of a two-sided 99.9% interval (used by the tests that compare Monte Carlo to exact).
pub const Z999: f64 = 3.290_526_731_491_926;

/// A point estimate with its interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// Whether `x` lies inside the interval (bounds included).
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }

    /// Whether the exact value `r` lies inside the interval, compared exactly: each bound is the fraction its
    /// float is, so no rounding of `r` can move it in or out.
    pub fn holds(&self, r: &BigRational) -> bool {
        let bound = |x: f64| BigRational::from_float(x);
        matches!((bound(self.low), bound(self.high)), (Some(low), Some(high)) if low <= *r && *r <= high)
    }
}

/// The Wilson score interval of `successes` out of `trials`.
///
/// Unlike the normal ("Wald") interval it stays inside 0..1 and keeps its coverage near 0 and 1, where
/// interception odds often sit (a unit that is never eligible has estimate 0 and a non-empty interval).
pub fn wilson(successes: u64, trials: u64, z: f64) -> Interval {
    if trials == 0 {
        return Interval { estimate: f64::NAN, low: 0.0, high: 1.0 };
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 or all successes the bound is exactly 0 or 1; rounding would otherwise leave it a hair off.
    let low = if successes == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if successes == trials { 1.0 } else { (centre + half).min(1.0) };
    Interval { estimate: p, low, high }
}

/// The trials a count distribution covers (`counts[v]` trials took value `v`), its mean and its variance;
/// `None` when it covers none.
pub fn moments(counts: &[u64]) -> Option<(f64, f64, f64)> {
    let n = counts.iter().sum::<u64>() as f64;
    if n == 0.0 {
        return None;
    }
    let mean = weighted(counts, |v| v) / n;
    Some((n, mean, weighted(counts, |v| (v - mean) * (v - mean)) / n))
}

/// The normal interval of the mean of a count distribution (`counts[v]` trials took value `v`).
pub fn mean_interval(counts: &[u64], z: f64) -> Interval {
    let Some((nf, mean, var)) = moments(counts) else {
        return Interval { estimate: f64::NAN, low: f64::NAN, high: f64::NAN };
    };
    let half = z * (var / nf).sqrt();
    // The mean cannot leave the values the distribution takes: no negative steals per game.
    let top = counts.len().saturating_sub(1) as f64;
    Interval { estimate: mean, low: (mean - half).max(0.0), high: (mean + half).min(top) }
}

/// A rate in trials per second, in the unit that shows it best: `77.8 M trials/s`, `25.3 trials/s` (a
/// self-play game is one trial, and takes milliseconds to seconds).
pub fn rate(per_second: f64) -> String {
    match per_second {
        r if r >= 1e6 => format!("{:.1} M trials/s", r / 1e6),
        r if r >= 1e3 => format!("{:.1} k trials/s", r / 1e3),
        r => format!("{r:.1} trials/s"),
    }
}

fn weighted(counts: &[u64], f: impl Fn(f64) -> f64) -> f64 {
    counts.iter().enumerate().map(|(v, &c)| c as f64 * f(v as f64)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_published_value() {
        // 81 of 263 at 95%: Wilson gives 0.2553 .. 0.3662 (Newcombe 1998, method 3).
        let i = wilson(81, 263, Z95);
        assert!((i.low - 0.2553).abs() < 1e-4 && (i.high - 0.3662).abs() < 1e-4, "{i:?}");
    }

    #[test]
    fn wilson_at_the_edges_stays_in_range() {
        let zero = wilson(0, 1000, Z95);
        assert_eq!((zero.estimate, zero.low), (0.0, 0.0));
        assert!(zero.high > 0.0 && zero.high < 0.01);
        let all = wilson(1000, 1000, Z95);
        assert_eq!(all.high, 1.0);
        assert!(all.contains(1.0));
    }

    #[test]
    fn mean_interval_of_a_constant_is_a_point() {
        let i = mean_interval(&[0, 5, 0], Z95);
        assert_eq!((i.estimate, i.low, i.high), (1.0, 1.0, 1.0));
    }
}
