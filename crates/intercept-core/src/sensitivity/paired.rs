//! Common-random-number pairs: the base scenario and each stepped scenario play the same trials.
//!
//! Trial `t` of chunk `i` draws from a stream fixed by `(seed, i, t)` alone ([`crate::chance::Sampler`]), so
//! running two scenarios on the same plan pairs their trials. [`run`] plays every chunk once for the base and
//! once for each stepped scenario, on per-trial rows a slice at a time ([`engine::run_slice_rows`]), and keeps for
//! each metric the integer sums of the per-trial differences ([`PairSums`]). The interval on a change then
//! comes from the spread of those differences, which shared random numbers make small: most trials come out
//! the same at both values.

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

    /// The mean difference with its 95% normal interval, for a metric whose per-trial values differ by at
    /// most `bound` (1 for a probability).
    ///
    /// When no trial came out differently the normal interval would have zero width, yet a change too rare
    /// to show in these trials is still possible: the interval is then the Wilson bound on the share of
    /// trials that differ (about 3.8/n), times `bound`.
    pub fn interval(&self, bound: u32) -> Interval {
        let n = self.trials as f64;
        let mean = self.sum as f64 / n;
        if self.sum_sq == 0 {
            let half = wilson(0, self.trials, Z95).high * f64::from(bound);
            return Interval { estimate: 0.0, low: -half, high: half };
        }
        let var = if self.trials > 1 { (self.sum_sq as f64 - self.sum as f64 * mean) / (n - 1.0) } else { 0.0 };
        let half = Z95 * (var.max(0.0) / n).sqrt();
        Interval { estimate: mean, low: mean - half, high: mean + half }
    }
}

/// What [`run`] found: the base scenario's counts, and for each stepped scenario and each base metric the
/// paired sums (`None` where the stepped scenario has no metric of that name).
pub struct Paired {
    pub base: Tally,
    pub pairs: Vec<Vec<Option<PairSums>>>,
    /// Each stepped scenario's own counts: what a metric counted over only some trials is estimated from.
    pub stepped: Vec<Tally>,
}

/// Plays `plan`'s trials for `base` and for every one of `stepped`, pairing trial by trial.
pub fn run(base: &Scenario, stepped: &[&Scenario], plan: &Plan, progress: &(dyn Fn(u64) + Sync)) -> Paired {
    let matches: Vec<Vec<Option<usize>>> = stepped.iter().map(|s| matching_metrics(base, s)).collect();
    let tallies = stepped.iter().map(|s| Tally::new(s.rules.metrics())).collect();
    let mut total = Paired { base: Tally::new(base.rules.metrics()), pairs: blank(&matches), stepped: tallies };
    let work = |s: Slice| {
        let out = slice(base, stepped, &matches, plan, s);
        progress(out.base.trials * (1 + stepped.len() as u64));
        out
    };
    let Ok(()) = engine::in_windows(plan.slices(0..plan.chunks()), engine::rows_window(), work, |_, chunk: Paired| {
        merge(&mut total, &chunk);
        Ok::<_, std::convert::Infallible>(std::ops::ControlFlow::Continue(()))
    });
    total
}

/// For each metric of `base`, the index of the metric of the same name in `stepped`.
pub(crate) fn matching_metrics(base: &Scenario, stepped: &Scenario) -> Vec<Option<usize>> {
    let theirs = stepped.rules.metrics().defs();
    base.rules.metrics().defs().iter().map(|d| theirs.iter().position(|t| t.name == d.name)).collect()
}

pub(crate) fn blank(matches: &[Vec<Option<usize>>]) -> Vec<Vec<Option<PairSums>>> {
    matches.iter().map(|m| m.iter().map(|i| i.map(|_| PairSums::default())).collect()).collect()
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
        assert!((one.high - wilson(0, 3, Z95).high).abs() < 1e-15 && one.low == -one.high);
        assert!((two.high - 2.0 * one.high).abs() < 1e-15);
    }
}
