//! The state enumerator against the leaf walk (issue 37): a stepped model's merged states must give exactly
//! the rationals, and the leaf count, of walking every leaf of its tree. Both interpreters run the same
//! rules; only the leaf walk never merges, so any state that leaves out something a later step reads shows
//! here as a different fraction.

mod common;

use std::path::Path;

use intercept_core::config::{self, Overrides, Scenario};
use intercept_core::exact::ExactTally;
use intercept_core::games::shipped;
use proptest::prelude::*;

use common::shipped_configs;

const BUDGET: u64 = 10_000_000;

fn load(src: &str) -> Scenario {
    config::from_str(&shipped(), src, Path::new("test.toml"), Overrides::default())
        .unwrap_or_else(|e| panic!("valid config: {e:?}\n{src}"))
}

/// The differences between the state enumerator's answer and the leaf walk's, slot by slot.
fn differences(s: &Scenario) -> Vec<String> {
    let merged: ExactTally = s.rules.solve_by_states(BUDGET).expect("a stepped model").expect("solved by states");
    let walked: ExactTally = s.rules.solve_by_leaves(BUDGET).expect("solved by the leaf walk");
    let mut out = Vec::new();
    if merged.leaves != walked.leaves {
        out.push(format!("leaves: {} against {}", merged.leaves, walked.leaves));
    }
    for (slot, (a, b)) in merged.fractions.iter().zip(&walked.fractions).enumerate() {
        if a != b {
            out.push(format!("slot {slot}: {a} against {b}"));
        }
    }
    out
}

#[test]
fn every_shipped_config_gives_the_leaf_walks_rationals() {
    for path in shipped_configs() {
        let s = config::load(&shipped(), &path, Overrides::default()).unwrap();
        if s.rules.solve_by_leaves(BUDGET).is_err() || s.rules.solve_by_states(BUDGET).is_none() {
            continue;
        }
        let wrong = differences(&s);
        assert!(wrong.is_empty(), "{}: {}", path.display(), wrong.join("; "));
    }
}

/// A random cavalry scenario: up to four interceptors of any order, formation and facing, against any
/// target, under either `attempts` and either `combine_checks`.
fn cavalry() -> impl Strategy<Value = String> {
    let unit = (0..4usize, 0..3usize, 0..4usize, 4..9i64, prop::bool::ANY);
    let target = (0..5usize, 0..6usize, 0..4usize, 3..9i64, 0..3i64, prop::bool::ANY);
    (prop::collection::vec(unit, 1..5), target, prop::bool::ANY, prop::bool::ANY).prop_map(|(units, t, until, one)| {
        let orders = ["charge", "make_ready", "receive_charge", "rally"];
        let facings = ["front", "flank", "rear"];
        let forms = ["normal", "shaken", "open_order", "column"];
        let kinds = ["artillery", "light_infantry", "heavy_infantry", "cavalry", "leader"];
        let target_forms = ["normal", "shaken", "broken", "hedgehog", "open_order", "column"];
        let reactions = ["fire", "hedgehog", "face", "withdraw"];
        let mut text = format!(
            "[cavalry]\nattempts = \"{}\"\ncombine_checks = \"{}\"\n",
            if until { "until_success" } else { "all" },
            if one { "per_interception" } else { "when_due" }
        );
        for (i, (order, facing, form, morale, fast)) in units.iter().enumerate() {
            text += &format!(
                "[[cavalry.interceptor]]\nname = \"u{i}\"\norder = \"{}\"\ndistance = 2\nends_in = \"{}\"\n\
                 formation = \"{}\"\nmorale = {morale}\nmovement = {}\n",
                orders[*order],
                facings[*facing],
                forms[*form],
                if *fast { 6 } else { 3 }
            );
        }
        let (kind, form, reaction, morale, leader, rally) = t;
        let heavy = kinds[kind] == "heavy_infantry";
        // Only heavy infantry may stand in or prefer hedgehog (C-8.1), and a leader stands normal.
        let form = match target_forms[form] {
            "hedgehog" if !heavy => "normal",
            f if kinds[kind] == "leader" => {
                if f == "broken" {
                    f
                } else {
                    "normal"
                }
            }
            f => f,
        };
        let reaction = if reactions[reaction] == "hedgehog" && !heavy { "fire" } else { reactions[reaction] };
        text += &format!(
            "[cavalry.target]\nkind = \"{}\"\nformation = \"{form}\"\nreaction = \"{reaction}\"\nmorale = {morale}\n\
             leader = {leader}\nrally_orders = {rally}\n",
            kinds[kind]
        );
        text
    })
}

/// A random naval scenario: up to five groups over up to three levels, some on the way home, some deferring
/// to a fellow, under any combat model, air, abandon, counter-interception, retarget, placement and way-home
/// reading. Configs the rules refuse are skipped.
fn naval() -> impl Strategy<Value = String> {
    let group = (0..4usize, 0..6u32, 4..16u32, 0..6usize);
    // A group `d` that defers to `a`, both aimed at the mission, which `h` counter-intercepts (N-14).
    let deferral = prop::option::of((0..5u32, 1..6u32, 1..3u32, 0..4u32));
    let tables = (0..2usize, 1..4u32, prop::bool::ANY, prop::bool::ANY, 0..3usize, prop::bool::ANY, prop::bool::ANY);
    let more = (prop::bool::ANY, prop::bool::ANY, 8..20u32, 0..3usize, 0..3usize);
    (prop::collection::vec(group, 1..5), tables, more, deferral).prop_map(|(groups, tables, more, deferral)| {
        let (model, rounds, air, air_home, abandon, before, retarget) = tables;
        let (any, pacific, factors, activity, placement) = more;
        let mut text = format!(
            "[naval]\ntheater = \"{}\"\n[naval.combat]\nmodel = \"{}\"\nmax_rounds = {rounds}\n\
             [naval.air]\np_attack_en_route = {}\np_turn_back = 0.5\np_attack_going_home = {}\nlosses_percent = 10\n\
             [naval.delayed]\nabandon = \"{}\"\ncounter_interception = \"{}\"\nretarget = {retarget}\n\
             [naval.way_home]\nafter = \"{}\"\n[naval.deferral]\nplacement = \"{}\"\n\
             [naval.mission]\nname = \"m\"\nactivity = \"{}\"\nfactors = {factors}\n",
            if pacific { "pacific" } else { "europe" },
            ["fixed", "strength"][model],
            if air { 0.25 } else { 0.0 },
            if air_home { 0.5 } else { 0.0 },
            ["never", "after_rolls", "once_decided"][abandon],
            if before { "before_combat" } else { "after_each_roll" },
            if any { "any" } else { "defeat_or_abort" },
            ["closest", "furthest", "fixed"][placement],
            ["raider", "base_change", "sea_transport"][activity],
        );
        for (i, (target, distance, factors, kind)) in groups.iter().enumerate() {
            let target = if *target == 0 || i == 0 { "m".to_owned() } else { format!("g{}", target.min(&i) - 1) };
            let extra = match kind {
                1 => "on_fail = \"abort\"\n".to_owned(),
                2 => "leg = \"return\"\n".to_owned(),
                3 if target != "m" => "at_interception_hex = true\n".to_owned(),
                4 => "slow_ships = true\n".to_owned(),
                _ => String::new(),
            };
            text += &format!(
                "[[naval.group]]\nname = \"g{i}\"\ntarget = \"{target}\"\ndistance = {distance}\nfactors = {factors}\n{extra}"
            );
        }
        if let Some((a, d, off, h)) = deferral {
            text += &format!(
                "[[naval.group]]\nname = \"a\"\ntarget = \"m\"\ndistance = {a}\nfactors = 6\n\
                 [[naval.group]]\nname = \"d\"\ntarget = \"m\"\ndistance = {d}\nfactors = 5\ndefer_to = \"a\"\n\
                 defer_distance = {off}\n\
                 [[naval.group]]\nname = \"h\"\ntarget = \"a\"\ndistance = {h}\nfactors = 7\n"
            );
        }
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_cavalry_scenarios_give_the_leaf_walks_rationals(text in cavalry()) {
        let s = load(&text);
        let wrong = differences(&s);
        prop_assert!(wrong.is_empty(), "{}\n{}", wrong.join("; "), text);
    }

    #[test]
    fn random_naval_scenarios_give_the_leaf_walks_rationals(text in naval()) {
        let Ok(s) = config::from_str(&shipped(), &text, Path::new("test.toml"), Overrides::default()) else {
            return Ok(());
        };
        if s.rules.solve_by_leaves(BUDGET).is_err() {
            return Ok(());
        }

        let wrong = differences(&s);
        prop_assert!(wrong.is_empty(), "{}\n{}", wrong.join("; "), text);
    }
}
