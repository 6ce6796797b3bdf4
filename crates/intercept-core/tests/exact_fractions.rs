//! Exact values are fractions, not floats: an outcome that cannot happen is exactly 0, dice odds are their
//! ratios to the last digit, and a config's decimal is the fraction it reads as (0.4 is 2/5).

mod solve;

use intercept_core::config::{self, Overrides};
use intercept_core::exact::{distribution_fractions, metric_fractions};
use intercept_core::fraction::{self, BigRational};
use intercept_core::games::shipped;
use intercept_core::runner;
use solve::{fraction as exact, load, ratio};

const CHAIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/naval/three-level-chain.toml");

/// The three-level chain's Taranto group: it cannot move fewer than 4 hexes, and reaches with 1261/1296.
#[test]
fn the_chain_is_solved_in_fractions() {
    let s = config::load(&shipped(), std::path::Path::new(CHAIN), Overrides::default()).expect("shipped config");
    let solved = runner::solve(&s).expect("small tree");
    let metrics = s.rules.metrics();
    let def = metrics.defs().iter().find(|d| d.name == "group.taranto.movement").expect("a metric");
    let moved = distribution_fractions(metrics, &solved, def).expect("rolled");
    assert_eq!(fraction::text(&moved[0]), "0");
    assert_eq!(fraction::to_f64(&moved[0]), 0.0);
    assert_eq!(moved[8], ratio(1261, 1296));
    assert_eq!(moved.iter().sum::<BigRational>(), ratio(1, 1));
    let i = metrics.defs().iter().position(|d| d.name == "group.taranto.reached").unwrap();
    let reached = &metric_fractions(metrics, &solved)[i];
    assert_eq!(reached.as_ref().map(fraction::text).as_deref(), Some("1261/1296"));
    // The float is the fraction correctly rounded, not a sum of float products.
    assert_eq!(solved.probs[metrics.defs()[i].slot], 1261.0 / 1296.0);
}

/// A config's 0.4 is the decimal it says: 2/5, and chances built on it stay fractions over powers of 5.
#[test]
fn config_decimals_are_exact() {
    let s = load(
        "[naval.mission]\nname = \"m\"\nactivity = \"sea_transport\"\nfactors = 12\n\
         [[naval.group]]\nname = \"g\"\ntarget = \"m\"\ndistance = 0\nfactors = 10\n\
         [[naval.group]]\nname = \"h\"\ntarget = \"g\"\ndistance = 0\nfactors = 10\n\
         [naval.combat]\np_intercepting_side_wins = 0.4\n",
    );
    assert_eq!(exact(&s, "group.h.won"), ratio(2, 5));
    assert_eq!(exact(&s, "group.g.won"), ratio(6, 25));
    assert_eq!(exact(&s, "mission.completed"), ratio(19, 25));
}

/// A walk inside `exact::halting` stops once its flag is set, saying it was stopped, and solves as ever when
/// the flag stays clear; the flag is forgotten once `halting` returns.
#[test]
fn a_halted_walk_stops_and_says_so() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let s = config::load(&shipped(), std::path::Path::new(CHAIN), Overrides::default()).expect("shipped config");
    let set = Arc::new(AtomicBool::new(true));
    let stopped = intercept_core::exact::halting(&set, || runner::solve(&s)).expect_err("stopped");
    assert!(stopped.halted && stopped.to_string().contains("stopped"), "{stopped}");
    let clear = Arc::new(AtomicBool::new(false));
    let solved = intercept_core::exact::halting(&clear, || runner::solve(&s)).expect("solved");
    assert_eq!(Some(solved), runner::solve(&s).ok(), "the same answer with the flag clear, and after it");
}
