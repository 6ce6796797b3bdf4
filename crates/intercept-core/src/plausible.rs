//! Counts read back from a manifest, held against the exact values: what a forger who can seal a manifest
//! still cannot get past.
//!
//! `merge` and `--resume` believe a manifest's counts only if a run of its scenario could have made them. When
//! the chance tree is small enough to solve, every slot's count is a binomial draw with the slot's exact
//! chance, so a count far from `trials x chance` is refused. "Far" is measured by Chernoff's bound, which holds
//! for rare events too, where standard errors mislead: an honest run lands that far off less than once in
//! [`SURPRISE`] orders of magnitude of `e`, about 7 standard errors for common events, and a count that the
//! exact value makes impossible (a chance of exactly 0 or 1) is refused outright. A scenario too large to
//! solve is not checked here, and the docs say so.

use crate::config::Scenario;
use crate::exact::ExactTally;
use crate::fraction::to_f64;
use crate::metrics::Implausible;
use crate::metrics::{MetricKind, Tally};
use crate::runner;
use num_traits::{One, Zero};

/// How surprising a count may be before it is refused: `n KL(k/n || p)`, the exponent of Chernoff's bound on
/// the chance of landing that far off. 24 is a chance below 4 in 10^11 per slot and side, and about 7
/// standard errors where the normal approximation holds.
pub const SURPRISE: f64 = 24.0;

/// Refuses `tally` when a slot's count is implausible for `scenario`, whose exact values are solved within
/// its own leaf budget; `Ok` when the tree is too large to solve.
pub fn check(scenario: &Scenario, tally: &Tally) -> Result<(), Implausible> {
    match runner::solve(scenario) {
        Ok(exact) => against(scenario, &exact, tally),
        Err(_) => Ok(()),
    }
}

/// Refuses `tally` when a slot's count is implausible against `exact`.
pub fn against(scenario: &Scenario, exact: &ExactTally, tally: &Tally) -> Result<(), Implausible> {
    let metrics = scenario.rules.metrics();
    let owners = metrics.slot_owners();
    let n = tally.trials;
    for (s, &k) in tally.counts.iter().enumerate() {
        let Some(chance) = exact.fractions.get(s) else { continue };
        let p = to_f64(chance);
        let impossible = (chance.is_zero() && k > 0) || (chance.is_one() && k < n);
        if impossible || surprise(k, n, p) > SURPRISE {
            let (m, value) = owners[s];
            let def = &metrics.defs()[m];
            let what = match def.kind {
                MetricKind::Probability => def.name.clone(),
                MetricKind::Distribution { .. } => format!("{} = {value}", def.name),
            };
            return Err(Implausible::from(format!(
                "its count of {what} is {k} in {n} trials, where its exact chance {p:.6} gives about \
                 {expected:.0}; an honest run lands that far off less than once in 10^10 times: the counts were \
                 forged or damaged",
                expected = n as f64 * p
            )));
        }
    }
    Ok(())
}

/// `n KL(k/n || p)`: the exponent of Chernoff's bound on the chance that `n` trials of chance `p` count `k`
/// or further from `n p`.
fn surprise(k: u64, n: u64, p: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let q = k as f64 / n as f64;
    let term = |a: f64, b: f64| if a == 0.0 { 0.0 } else { a * (a / b).ln() };
    let kl = term(q, p) + term(1.0 - q, 1.0 - p);
    n as f64 * kl.max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surprise_grows_with_the_distance_in_standard_errors() {
        // Seven standard errors off a half in a million trials: 3,500 off 500,000.
        let z7 = surprise(503_500, 1_000_000, 0.5);
        assert!((23.0..26.0).contains(&z7), "{z7}");
        assert!(surprise(500_400, 1_000_000, 0.5) < 1.0);
        // One success where a thousandth of a trial was due is rare but honest: not refused.
        assert!(surprise(1, 1_000_000, 1e-9) < SURPRISE);
        assert!(surprise(0, 0, 0.3) == 0.0);
    }
}
