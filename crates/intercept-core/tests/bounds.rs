//! Certified bounds (issue 53): a solve that sets part of the chance tree aside answers with bounds that hold
//! the exact value, narrow as its budget grows, and agree with sampling.
//!
//! Pruning is forced on every shipped config that solves exactly: a leaf budget of one leaf sends a stepped
//! model to the merging solver with a cap of a few states, and walks a few leaves of any other model. Every
//! slot, metric and distribution value must lie within its bounds; the bounds of a larger cap lie within
//! those of a smaller; and what ended and what was set aside add up to 1 (checked inside the solver in
//! debug builds, and here as a residual between 0 and 1). On grand-armada, far beyond exact, 10^7 sampled
//! trials land within the bounds or within their 99.9% interval of them.

mod common;

use std::path::Path;

use intercept_core::config::{self, Overrides, Scenario};
use intercept_core::engine;
use intercept_core::exact::{
    self, Bounds, ExactTally, Limits, Prune, distribution_bounds, distribution_fractions, metric_bounds,
    metric_fractions, slot_bounds,
};
use intercept_core::fraction::{BigRational, text, to_f64};
use intercept_core::games::shipped;
use intercept_core::metrics::MetricKind;
use intercept_core::runner;
use intercept_core::stats::{Z999, mean_interval, wilson};
use num_traits::{One, Zero};

use common::shipped_configs;

fn load(path: &Path) -> Scenario {
    config::load(&shipped(), path, Overrides::default()).expect("a valid config")
}

/// The solve of `scenario` with a cap of `states` states (or, for a model that is not stepped, as many
/// leaves), pruning forced by a leaf budget of one; `None` where the cap is below what one step needs.
fn pruned(scenario: &Scenario, states: u64) -> Option<ExactTally> {
    let limits = Limits { max_leaves: 1, prune: Some(Prune { max_states: states, deadline: None }) };
    scenario
        .rules
        .solve_within(&limits)
        .or_else(|_| scenario.rules.solve_within(&Limits { max_leaves: states, ..limits }))
        .ok()
}

/// Every bound of `b` that does not hold the exact values of `exact`, named.
fn misses(scenario: &Scenario, b: &ExactTally, exact: &ExactTally) -> Vec<String> {
    let metrics = scenario.rules.metrics();
    let mut out = Vec::new();
    let outside = |what: String, bounds: &Bounds, x: &BigRational| {
        (!bounds.holds(x))
            .then(|| format!("{what}: {} not in [{}, {}]", text(x), text(&bounds.low), text(&bounds.high)))
    };
    for (s, (bounds, x)) in slot_bounds(metrics, b).iter().zip(&exact.fractions).enumerate() {
        out.extend(outside(format!("slot {s}"), bounds, x));
    }
    let values = metric_fractions(metrics, exact);
    for ((def, bounds), x) in metrics.defs().iter().zip(metric_bounds(metrics, b)).zip(values) {
        if let (Some(bounds), Some(x)) = (bounds, x) {
            out.extend(outside(def.name.clone(), &bounds, &x));
        }
        let (Some(bs), Some(xs)) = (distribution_bounds(metrics, b, def), distribution_fractions(metrics, exact, def))
        else {
            continue;
        };
        for (v, (bounds, x)) in bs.iter().zip(&xs).enumerate() {
            out.extend(outside(format!("{} = {v}", def.name), bounds, x));
        }
    }
    out
}

/// Whether every bound of `inner` lies within the same bound of `outer`.
fn within(scenario: &Scenario, inner: &ExactTally, outer: &ExactTally) -> bool {
    let metrics = scenario.rules.metrics();
    let inside = |i: &Bounds, o: &Bounds| o.low <= i.low && i.high <= o.high;
    let slots = slot_bounds(metrics, inner).iter().zip(&slot_bounds(metrics, outer)).all(|(i, o)| inside(i, o));
    let values = metric_bounds(metrics, inner).iter().zip(&metric_bounds(metrics, outer)).all(|(i, o)| match (i, o) {
        (Some(i), Some(o)) => inside(i, o),
        _ => true,
    });
    slots && values && inner.residual <= outer.residual
}

#[test]
fn forced_bounds_hold_every_exact_value_and_nest_as_the_cap_grows() {
    let mut bounded = 0;
    for path in shipped_configs() {
        let scenario = load(&path);
        let Ok(exact) = runner::solve(&scenario) else { continue };
        let mut wider: Option<ExactTally> = None;
        for states in [1, 2, 4, 8, 16, 64, 256] {
            let Some(b) = pruned(&scenario, states) else { continue };
            assert!(b.residual >= BigRational::zero() && b.residual <= BigRational::one(), "{}", path.display());
            assert_eq!(
                b.is_exact(),
                b.cut.is_none(),
                "{}: a cut is said when, and only when, paths were set aside",
                path.display()
            );
            bounded += usize::from(!b.is_exact());
            let missed = misses(&scenario, &b, &exact);
            assert!(missed.is_empty(), "{} with {states} states: {missed:#?}", path.display());
            if let Some(w) = &wider {
                assert!(
                    within(&scenario, &b, w),
                    "{}: the bounds of {states} states are not within the smaller cap's",
                    path.display()
                );
            }
            if b.is_exact() {
                assert_eq!(
                    b.fractions,
                    exact.fractions,
                    "{}: exact within the cap, the same fractions",
                    path.display()
                );
            }
            wider = Some(b);
        }
    }
    assert!(bounded >= 40, "pruning was forced only {bounded} times");
}

/// An exact answer has zero residual and every bound is the exact value.
#[test]
fn an_exact_answer_has_point_bounds() {
    let scenario = load(Path::new("../../configs/naval/three-level-chain.toml"));
    let exact = runner::solve(&scenario).unwrap();
    assert!(exact.is_exact() && exact.cut.is_none());
    let values = metric_fractions(scenario.rules.metrics(), &exact);
    for (b, x) in metric_bounds(scenario.rules.metrics(), &exact).iter().zip(values) {
        if let (Some(b), Some(x)) = (b, x) {
            assert!(b.is_exact() && b.low == x);
        }
    }
}

/// grand-armada, far beyond exact: bounded at a cap of 5,000 states, and 10^7 sampled trials within the
/// bounds or within the 99.9% interval of them, for every probability and mean.
#[test]
fn sampled_trials_land_within_the_bounds_of_a_scenario_beyond_exact() {
    let mut scenario = load(Path::new("../../benches/data/grand-armada.toml"));
    scenario.run.max_exact_states = 5_000;
    let b = runner::solve_bounded(&scenario, None).unwrap();
    assert!(!b.is_exact() && b.cut == Some(exact::Cut::States));
    let metrics = scenario.rules.metrics();
    let tally = runner::tally(&scenario, &engine::Plan { trials: 10_000_000, ..runner::plan(&scenario) });
    for (def, bounds) in metrics.defs().iter().zip(metric_bounds(metrics, &b)) {
        let Some(bounds) = bounds else { continue };
        let slots = def.slot..def.slot + def.width();
        let ci = match def.kind {
            MetricKind::Probability => wilson(tally.counts[def.slot], tally.trials, Z999),
            MetricKind::Distribution { .. } => mean_interval(&tally.counts[slots], Z999),
        };
        let (low, high) = (to_f64(&bounds.low), to_f64(&bounds.high));
        assert!(
            ci.high >= low - 1e-12 && ci.low <= high + 1e-12,
            "{}: sampled {ci:?}, bounds [{low}, {high}]",
            def.name
        );
    }
}
