//! The two interpreters against each other and against the rule book's exact values.
//!
//! Every shipped config is run by Monte Carlo and solved exactly; each estimate's 99.9% interval must hold
//! the exact value. A deliberately broken threshold must fail that same check, so the check has power.
//! T-7 and T-8 of `docs/rules/cavalry.md` are asserted through the exact interpreter.

mod common;

use std::path::Path;

use intercept_core::chance::Draws;
use intercept_core::config::{self, Overrides, Scenario};
use intercept_core::engine;
use intercept_core::exact::{ExactTally, distribution_fractions, metric_fractions, metric_values};
use intercept_core::fraction::{text, to_f64};
use intercept_core::games::shipped;
use intercept_core::metrics::{MetricKind, Tally};
use intercept_core::runner;
use intercept_core::stats::{Z999, mean_interval, wilson};

use common::shipped_configs;

const TRIALS: u64 = 400_000;

fn load(src: &str) -> Scenario {
    config::from_str(&shipped(), src, Path::new("test.toml"), Overrides::default()).expect("valid config")
}

fn sample(scenario: &Scenario, trials: u64) -> Tally {
    runner::tally(scenario, &engine::Plan { trials, ..runner::plan(scenario) })
}

/// Every metric and every distribution value whose 99.9% interval misses the exact value, compared with the
/// exact fraction, not a float.
fn misses(scenario: &Scenario, tally: &Tally, exact: &ExactTally) -> Vec<String> {
    let metrics = scenario.rules.metrics();
    let mut out = Vec::new();
    for (def, want) in metrics.defs().iter().zip(metric_fractions(metrics, exact)) {
        let slots = def.slot..def.slot + def.width();
        let base = metrics.base_of(def, &tally.counts, tally.trials);
        let ci = match def.kind {
            MetricKind::Probability => wilson(tally.counts[def.slot], tally.trials, Z999),
            MetricKind::Distribution { .. } => mean_interval(&tally.counts[slots.clone()], Z999),
        };
        let want = want.expect("every shipped mean is over some trials");
        // A constant mean has a point interval, a float sum of the counts: compare it with a rounding tolerance.
        if !(ci.holds(&want) || (ci.low == ci.high && (ci.estimate - to_f64(&want)).abs() < 1e-9)) {
            out.push(format!("{}: exact {}, estimate {:?}", def.name, text(&want), ci));
        }
        for (v, p) in distribution_fractions(metrics, exact, def).unwrap_or_default().iter().enumerate() {
            let ci = wilson(tally.counts[def.slot + v], base, Z999);
            if !ci.holds(p) {
                out.push(format!("{} = {v}: exact {}, estimate {ci:?}", def.name, text(p)));
            }
        }
    }
    out
}

#[test]
fn every_shipped_config_agrees_with_its_exact_solution() {
    agree_with_exact(Draws::Paired);
}

/// The packed sampler cuts one number node by node; each pick is within 2^-62 of its fraction, so the same
/// intervals must hold the exact values.
#[test]
fn packed_draws_agree_with_the_exact_solution() {
    agree_with_exact(Draws::Packed);
}

fn agree_with_exact(draws: Draws) {
    let configs = shipped_configs();
    assert!(configs.len() >= 3, "expected the shipped configs, found {configs:?}");
    for path in configs {
        let mut scenario = config::load(&shipped(), &path, Overrides::default()).expect("shipped configs are valid");
        if scenario.config.table == "board" {
            // Self-play games have no enumerable tree; tests/board_selfplay.rs checks those runs.
            assert!(runner::solve(&scenario).is_err(), "{}: self-play is sampled only", path.display());
            continue;
        }
        let exact = runner::solve(&scenario).expect("shipped cavalry configs solve exactly");
        scenario.run.draws = draws;
        let tally = sample(&scenario, TRIALS);
        let missed = misses(&scenario, &tally, &exact);
        assert!(missed.is_empty(), "{}: Monte Carlo disagrees with exact:\n{}", path.display(), missed.join("\n"));
    }
}

/// The check above must be able to fail: sample with the published Charge row (0-5) but solve a rule book
/// misprinted as 0-4, and the intervals must catch it.
#[test]
fn a_broken_threshold_is_caught() {
    let src =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/cavalry/charge-on-pikes.toml"))
            .expect("shipped config");
    let published = load(&src);
    let broken = load(&src.replace("charge = 5", "charge = 4"));
    let exact = runner::solve(&broken).expect("small tree");
    let missed = misses(&published, &sample(&published, TRIALS), &exact);
    assert!(missed.iter().any(|m| m.starts_with("cavalry.intercepted")), "not caught: {missed:?}");
}

fn exact_metric(scenario: &Scenario, name: &str) -> f64 {
    let metrics = scenario.rules.metrics();
    let values = metric_values(metrics, &runner::solve(scenario).expect("small tree"));
    let i = metrics.defs().iter().position(|d| d.name == name).unwrap_or_else(|| panic!("no metric {name}"));
    values[i]
}

fn one_unit(order: &str, ends_in: &str, target: &str) -> String {
    format!(
        "[[cavalry.interceptor]]\nname = \"horse\"\norder = \"{order}\"\ndistance = 2\nends_in = \"{ends_in}\"\n\n\
         [cavalry.target]\n{target}\n"
    )
}

/// T-7: P(intercept) by the interceptor's order: Charge 3/5, Make Ready 1/2, Receive Charge 2/5, Rally 0.
/// One roll on the C-2 table (C-4.1), its row picked by the interceptor's own order.
#[test]
fn t7_interception_odds_by_order() {
    for (order, p) in [("charge", 0.6), ("make_ready", 0.5), ("receive_charge", 0.4), ("rally", 0.0)] {
        let s = load(&one_unit(order, "front", "kind = \"cavalry\"\nmorale = 6"));
        assert!((exact_metric(&s, "cavalry.intercepted") - p).abs() < 1e-12, "{order}");
    }
}

/// A hedgehog scenario whose interception always succeeds (table row 0-9), so the hedgehog odds are the
/// morale check's odds alone.
fn hedgehog(morale: i64, leader: i64, extra: i64, sign: &str) -> Scenario {
    let target = format!("kind = \"heavy_infantry\"\nmorale = {morale}\nleader = {leader}\nextra_checks = {extra}");
    let src = format!(
        "[cavalry]\nleader_sign = \"{sign}\"\n[cavalry.table]\ncharge = 9\n{}",
        one_unit("charge", "rear", &target)
    );
    load(&src)
}

/// T-8 of the cavalry rules: M = 7, no leader, one check passes 8/10; two simultaneous checks roll once at
/// +1: 7/10. A failed check costs one morale (C-8.2). The hedgehog forms exactly when the check passes (C-8.5), a
/// reaction attempt always needing it, and heavy infantry (allowance 3) tries it against horse of 6: the
/// movement condition does not apply to hedgehog.
#[test]
fn t8_hedgehog_morale_check() {
    let one = hedgehog(7, 0, 0, "subtract");
    assert!((exact_metric(&one, "target.hedgehog_attempted") - 1.0).abs() < 1e-12, "C-8.3 forces the attempt");
    assert!((exact_metric(&one, "target.hedgehog_formed") - 0.8).abs() < 1e-12);
    assert!((exact_metric(&one, "target.morale_lost") - 0.2).abs() < 1e-12);
    let two = hedgehog(7, 0, 1, "subtract");
    assert!((exact_metric(&two, "target.hedgehog_formed") - 0.7).abs() < 1e-12);
}

/// The cavalry rules' C-10 table: P(pass) = clamp(M + L - k + 2, 0, 10) / 10 with the leader subtracted
/// from the roll, and clamp(M - L - k + 2, 0, 10) / 10 with the seed's literal sign (C-9.3, A-2:
/// `leader_sign`).
#[test]
fn c10_morale_check_table() {
    for m in 0..=10 {
        for l in 0..=2 {
            for k in 1..=3 {
                let helps = hedgehog(m, l, k - 1, "subtract");
                let want = ((m + l - k + 2).clamp(0, 10)) as f64 / 10.0;
                assert!((exact_metric(&helps, "target.hedgehog_formed") - want).abs() < 1e-12, "M={m} L={l} k={k}");
                let hurts = hedgehog(m, l, k - 1, "add");
                let want = ((m - l - k + 2).clamp(0, 10)) as f64 / 10.0;
                assert!(
                    (exact_metric(&hurts, "target.hedgehog_formed") - want).abs() < 1e-12,
                    "add: M={m} L={l} k={k}"
                );
            }
        }
    }
}

/// C-1: each eligibility condition alone makes the unit ineligible, and an ineligible unit never intercepts.
/// A unit as written is eligible: it is taken to be the inactive side's cavalry (C-1.1), and nothing bars
/// it for being stacked with artillery (C-1.8). Its `distance` is taken as given at the moment the attempt
/// is announced (C-3.1, A-13).
#[test]
fn c1_eligibility() {
    let base = one_unit("charge", "front", "kind = \"cavalry\"\nmorale = 6");
    let cases = [
        ("distance = 2", "distance = 5"),                                         // C-1.3
        ("order = \"charge\"", "order = \"charge\"\nformation = \"broken\""),     // C-1.2
        ("order = \"charge\"", "order = \"charge\"\nalready_intercepted = true"), // C-1.5
        ("order = \"charge\"", "order = \"charge\"\ncan_move_adjacent = false"),  // C-1.6
        ("order = \"charge\"", "order = \"charge\"\nformation = \"hedgehog\""),   // C-1.9
        ("morale = 6", "morale = 6\nmoving_by_interception = true"),              // C-1.4
    ];
    assert_eq!(exact_metric(&load(&base), "cavalry.interceptor.horse.eligible"), 1.0);
    for (from, to) in cases {
        let s = load(&base.replacen(from, to, 1));
        assert_eq!(exact_metric(&s, "cavalry.interceptor.horse.eligible"), 0.0, "{to}");
        assert_eq!(exact_metric(&s, "cavalry.intercepted"), 0.0, "{to}");
    }
}

/// C-6: reaction fire by target type and where the interceptor ends, which is taken from `ends_in`, the move
/// itself not traced (C-4.4). Any kind of unit may be the target, and only it reacts (C-4.9, A-22).
#[test]
fn c6_reaction_fire_table() {
    let cases = [
        ("artillery", "front", true),
        ("artillery", "flank", false),
        ("light_infantry", "flank", true),
        ("light_infantry", "rear", false),
        ("heavy_infantry", "front", true),
        ("cavalry", "flank", true),
        ("cavalry", "rear", false),
        ("leader", "front", false),
    ];
    for (kind, facing, fires) in cases {
        let s = load(&one_unit("charge", facing, &format!("kind = \"{kind}\"\nmorale = 6")));
        let want = if fires { 0.6 } else { 0.0 };
        assert!((exact_metric(&s, "target.reaction_fire") - want).abs() < 1e-12, "{kind} {facing}");
    }
}
