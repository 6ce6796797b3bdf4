//! Common-random-number pairs: the base scenario and each stepped scenario play the same trials.
//!
//! Trial `t` of chunk `i` draws from a stream fixed by `(seed, i, t)` alone ([`crate::chance::Sampler`]), so
//! running two scenarios on the same plan pairs their trials. [`run`] plays every chunk once for the base and
//! once for each stepped scenario, on per-trial rows a slice at a time ([`engine::run_slice_rows`]), and keeps for
//! each metric the integer sums of the per-trial differences ([`PairSums`]). The interval on a change then
//! comes from the spread of those differences, which shared random numbers make small: most trials come out
//! the same at both values.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::Scenario;
use crate::engine::{self, Plan, Slice};
use crate::metrics::Tally;
use crate::stats::{Interval, Z95, wilson};

/// The per-trial differences of one metric between a stepped scenario and the base, summed exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairSums {
    pub trials: u64,
    /// The sum of (stepped value - base value) over the trials.
    pub sum: i64,
    /// The sum of the squared differences.
    pub sum_sq: u64,
}

impl PairSums {
    fn add(&mut self, other: &PairSums) {
        self.trials += other.trials;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// The mean difference with its 95% interval, for a metric whose per-trial values differ by at most
    /// `bound` (1 for a probability).
    ///
    /// A 0/1 metric (`bound` 1) gets Tango's score interval for paired proportions ([`tango`]): it keeps its
    /// coverage when only a handful of trials differ, and stays proper when none or every one does. A count
    /// (`bound` > 1) gets the normal interval of the mean difference, which is sound for a mean over many
    /// trials whose differences spread; where they do not spread at all (none differs, or every one differs by
    /// the same amount) it would have zero width, so it is then [`unseen`]'s bound instead.
    pub fn interval(&self, bound: u32) -> Interval {
        if bound <= 1 {
            let (down, up) = self.discordant();
            return tango(down, up, self.trials, Z95);
        }
        let n = self.trials as f64;
        let mean = self.sum as f64 / n;
        let var = if self.trials > 1 { (self.sum_sq as f64 - self.sum as f64 * mean) / (n - 1.0) } else { 0.0 };
        if var <= 0.0 {
            return unseen(mean, self.trials, f64::from(bound));
        }
        let (half, b) = (Z95 * (var / n).sqrt(), f64::from(bound));
        Interval { estimate: mean, low: (mean - half).max(-b), high: (mean + half).min(b) }
    }

    /// For a 0/1 metric: the trials whose value went down (1 to 0) and up (0 to 1). Each differs by ±1, so
    /// `sum_sq` counts them all and `sum` is ups minus downs.
    fn discordant(&self) -> (u64, u64) {
        let up = (self.sum_sq as i64 + self.sum) / 2;
        (self.sum_sq - up as u64, up as u64)
    }
}

/// Every trial moved by the same `change` (0 when none moved), so the spread says nothing: a change unseen in
/// these trials is still possible in about the Wilson bound on zero of `trials` (3.8/n), and such a trial can
/// move as far as the metric can, to `-bound` or `bound`.
fn unseen(change: f64, trials: u64, bound: f64) -> Interval {
    let share = wilson(0, trials, Z95).high;
    Interval { estimate: change, low: change - (change + bound) * share, high: change + (bound - change) * share }
}

/// Tango's asymptotic score interval (Stat Med 1998; 17:891) for the difference of two paired proportions
/// (stepped minus base), from the `down` trials (1 then 0), the `up` trials (0 then 1) and all `trials`.
///
/// The interval is every difference `d` the score test does not reject: the test's variance is taken at `d`
/// itself (the maximum-likelihood share of down trials given `d`), not at the estimate as Wald's is, which
/// is why it stays honest with few differing trials and has width when none or all differ. The score falls
/// as `d` rises, so each limit is found by bisection.
pub fn tango(down: u64, up: u64, trials: u64, z: f64) -> Interval {
    if trials == 0 {
        return Interval { estimate: f64::NAN, low: -1.0, high: 1.0 };
    }
    let (b, c, n) = (down as f64, up as f64, trials as f64);
    let estimate = (c - b) / n;
    let score = |d: f64| {
        let lean = -b - c + (2.0 * n - c + b) * d;
        let p_down = ((lean * lean + 8.0 * n * b * d * (1.0 - d)).max(0.0).sqrt() - lean) / (4.0 * n);
        let spread = n * (2.0 * p_down + d * (1.0 - d));
        let gap = c - b - n * d;
        if gap == 0.0 { 0.0 } else { gap / spread.max(0.0).sqrt() }
    };
    let low = if down == trials { -1.0 } else { root(|d| score(d) - z, -1.0, estimate) };
    let high = if up == trials { 1.0 } else { root(|d| score(d) + z, estimate, 1.0) };
    Interval { estimate, low, high }
}

/// The point in `lo..=hi` where the falling function `f` crosses zero (an end, if it does not), by bisection
/// to the last bit.
fn root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    if f(lo) <= 0.0 {
        return lo;
    }
    if f(hi) >= 0.0 {
        return hi;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    0.5 * (lo + hi)
}

/// What [`run`] found: the base scenario's counts, and for each stepped scenario and each base metric the
/// paired sums (`None` where the stepped scenario has no metric of that name).
pub struct Paired {
    pub base: Tally,
    pub pairs: Vec<Vec<Option<PairSums>>>,
    /// Each stepped scenario's own counts: what a metric counted over only some trials is estimated from.
    pub stepped: Vec<Tally>,
}

impl Paired {
    /// Counts of nothing for `base` and every one of `stepped`, whose metrics match the base's as `matches`
    /// says ([`matching_metrics`]).
    pub(crate) fn empty(base: &Scenario, stepped: &[&Scenario], matches: &[Vec<Option<usize>>]) -> Paired {
        Paired {
            base: Tally::new(base.rules.metrics()),
            pairs: matches.iter().map(|m| m.iter().map(|i| i.map(|_| PairSums::default())).collect()).collect(),
            stepped: stepped.iter().map(|s| Tally::new(s.rules.metrics())).collect(),
        }
    }
}

/// Plays `plan`'s trials for `base` and for every one of `stepped`, pairing trial by trial.
pub fn run(base: &Scenario, stepped: &[&Scenario], plan: &Plan, progress: &(dyn Fn(u64) + Sync)) -> Paired {
    run_until(base, stepped, plan, None, progress).expect("nothing stops a run without a stop flag")
}

/// [`run`], giving up (`None`) at the next slice once `stop` is set: a workbench job cancelled on request.
pub fn run_until(
    base: &Scenario,
    stepped: &[&Scenario],
    plan: &Plan,
    stop: Option<&AtomicBool>,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<Paired> {
    let matches: Vec<Vec<Option<usize>>> = stepped.iter().map(|s| matching_metrics(base, s)).collect();
    let mut total = Paired::empty(base, stepped, &matches);
    let work = |s: Slice| {
        if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return None;
        }
        let out = slice(base, stepped, &matches, plan, s);
        progress(out.base.trials * (1 + stepped.len() as u64));
        Some(out)
    };
    let windows = engine::in_windows(plan.slices(0..plan.chunks()), engine::rows_window(), work, |_, chunk| {
        let Some(chunk) = chunk else { return Err(()) };
        merge(&mut total, &chunk);
        Ok(std::ops::ControlFlow::Continue(()))
    });
    windows.ok().map(|()| total)
}

/// For each metric of `base`, the index of the metric of the same name in `stepped`.
pub(crate) fn matching_metrics(base: &Scenario, stepped: &Scenario) -> Vec<Option<usize>> {
    let theirs = stepped.rules.metrics().defs();
    base.rules.metrics().defs().iter().map(|d| theirs.iter().position(|t| t.name == d.name)).collect()
}

/// One slice of the base and of every stepped scenario, paired.
pub(crate) fn slice(
    base: &Scenario,
    stepped: &[&Scenario],
    matches: &[Vec<Option<usize>>],
    plan: &Plan,
    s: Slice,
) -> Paired {
    let (tally, rows) = base.rules.slice_rows(plan, s);
    let (pairs, tallies) = stepped
        .iter()
        .zip(matches)
        .map(|(st, matched)| {
            let (their_tally, theirs) = st.rules.slice_rows(plan, s);
            let pairs = matched
                .iter()
                .enumerate()
                .map(|(m, t)| t.map(|t| sums(&rows.columns[m], &theirs.columns[t])))
                .collect();
            (pairs, their_tally)
        })
        .unzip();
    Paired { base: tally, pairs, stepped: tallies }
}

fn sums(base: &[u32], stepped: &[u32]) -> PairSums {
    let mut out = PairSums { trials: base.len() as u64, ..PairSums::default() };
    for (&b, &s) in base.iter().zip(stepped) {
        let d = i64::from(s) - i64::from(b);
        out.sum += d;
        out.sum_sq += d.unsigned_abs() * d.unsigned_abs();
    }
    out
}

pub(crate) fn merge(total: &mut Paired, chunk: &Paired) {
    total.base.merge(&chunk.base);
    total.stepped.iter_mut().zip(&chunk.stepped).for_each(|(a, b)| a.merge(b));
    for (mine, theirs) in total.pairs.iter_mut().zip(&chunk.pairs) {
        for (a, b) in mine.iter_mut().zip(theirs) {
            if let (Some(a), Some(b)) = (a.as_mut(), b) {
                a.add(b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_of_differences() {
        let s = sums(&[0, 1, 1, 0, 2], &[1, 1, 0, 0, 0]);
        assert_eq!(s, PairSums { trials: 5, sum: -2, sum_sq: 6 });
        let ci = s.interval(2);
        assert!((ci.estimate + 0.4).abs() < 1e-12);
        // Sample variance of (1, 0, -1, 0, -2): (6 - 0.8) / 4 = 1.3.
        assert!((ci.high - ci.estimate - Z95 * (1.3f64 / 5.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn no_trial_differing_still_leaves_room_for_a_rare_change() {
        let same = sums(&[1, 0, 1], &[1, 0, 1]);
        let (one, two) = (same.interval(1), same.interval(2));
        assert_eq!(one.estimate, 0.0);
        // Tango's interval with no differing trial is +-z^2/(n + z^2): the Wilson bound on none of n.
        assert!((one.high - wilson(0, 3, Z95).high).abs() < 1e-12 && (one.low + one.high).abs() < 1e-12);
        assert!((two.high - 2.0 * wilson(0, 3, Z95).high).abs() < 1e-12 && two.low == -two.high);
    }

    /// Fagerland, Lydersen and Laake (Stat Med 2014; 33:2850), Table II: airway hyper-responsiveness before
    /// and after stem cell transplantation (Bentur et al. 2009), 21 children, 1 and 7 discordant. Tango's
    /// interval for the difference, published to 3 decimals: -0.517 to -0.026. More digits (to 1e-8) from an
    /// independent implementation, the constrained likelihood maximised numerically: -0.51723228 to
    /// -0.02600303.
    #[test]
    fn tango_matches_a_published_example() {
        let i = tango(7, 1, 21, Z95);
        assert!((i.estimate + 6.0 / 21.0).abs() < 1e-15);
        assert_eq!(((i.low * 1e3).round(), (i.high * 1e3).round()), (-517.0, -26.0), "{i:?}");
        assert!((i.low + 0.517_232_275_7).abs() < 1e-8 && (i.high + 0.026_003_033_8).abs() < 1e-8, "{i:?}");
        // As a 0/1 metric's paired sums: 7 trials down, 1 up.
        let sums = PairSums { trials: 21, sum: -6, sum_sq: 8 };
        assert_eq!(sums.interval(1), i);
    }

    /// More values from the same independent implementation: few differing trials among many, and a
    /// small table.
    #[test]
    fn tango_matches_an_independent_implementation() {
        for (down, up, n, low, high) in
            [(3, 9, 10_000, -0.000_093_417_0, 0.001_443_913_9), (2, 0, 50, -0.134_600_906_9, 0.034_201_502_9)]
        {
            let i = tango(down, up, n, Z95);
            assert!((i.low - low).abs() < 1e-8 && (i.high - high).abs() < 1e-8, "{down} {up} {n}: {i:?}");
        }
    }

    #[test]
    fn every_trial_changing_still_has_an_interval() {
        let all_down = PairSums { trials: 1000, sum: -1000, sum_sq: 1000 }.interval(1);
        assert_eq!((all_down.estimate, all_down.low), (-1.0, -1.0));
        // Independent implementation: -0.9923464830, the mirror of the none-differ bound.
        assert!((all_down.high + 0.992_346_483_0).abs() < 1e-8, "{all_down:?}");
        let all_up = PairSums { trials: 1000, sum: 1000, sum_sq: 1000 }.interval(1);
        assert!(all_up.high == 1.0 && (all_up.low + all_down.high).abs() < 1e-12, "{all_up:?}");
        // A count that moved by exactly 2 in every trial, out of at most 3: room for a rare other change.
        let count = PairSums { trials: 1000, sum: 2000, sum_sq: 4000 }.interval(3);
        assert_eq!(count.estimate, 2.0);
        assert!(count.low < 2.0 && count.low > 1.9 && count.high > 2.0 && count.high <= 3.0, "{count:?}");
    }
}
