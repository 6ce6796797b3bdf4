//! The statements of `docs/rules/naval.md` that name a default, a metric or an order of events and that the
//! other naval tests do not reach (issue 36): base dice and every modifier at its default, groups rolling
//! apart, patrol moves, falling short, the chain's depth, combined combats, inversion, and winners going
//! home. Every expected value is worked out by hand from the rule in the comment above it.
//!
//! Unless a test says otherwise the mission is a raider of 20 factors (1 die for its interceptors, N-4) and
//! combat is the fixed model: the intercepting side wins with 1/2 (N-16.4).

mod solve;

use std::path::Path;

use intercept_core::config::{self, Overrides, Scenario};
use intercept_core::games::shipped;
use solve::{close, exact, load};

/// Config text with `tables` first, a mission `m` (`mission` keys, or the raider of 20 factors) and `groups`.
fn text(tables: &str, mission: &str, groups: &str) -> String {
    let mission = if mission.is_empty() { "activity = \"raider\"\nfactors = 20" } else { mission };
    format!("{tables}\n[naval.mission]\nname = \"m\"\n{mission}\n{groups}")
}

fn scenario(tables: &str, mission: &str, groups: &str) -> Scenario {
    load(&text(tables, mission, groups))
}

fn group(name: &str, target: &str, distance: u32, extra: &str) -> String {
    format!("[[naval.group]]\nname = \"{name}\"\ntarget = \"{target}\"\ndistance = {distance}\nfactors = 10\n{extra}\n")
}

/// The dice of the `i`-th group, as `validate` and the report show them.
fn dice(s: &Scenario, i: usize) -> u64 {
    s.rules.describe()["groups"][i]["dice"].as_u64().expect("a dice count")
}

/// Combat always lasts exactly `rounds` rounds.
fn rounds(rounds: u32) -> String {
    format!("[naval.combat]\np_end_after_round = 0.0\nmax_rounds = {rounds}\n")
}

/// N-4, N-2.5: the base dice follow what is intercepted: 1 against a raider; 2 against base changes,
/// patrols on the move, carrier missions, naval NRs, displaced units and units returning to base; 4 against
/// sea supply, transport, invasions, bombardment, escort and convoy routes; 8 against a patrol on station.
/// Each value is a key (`naval.rules.base_dice.<activity>`).
#[test]
fn base_dice_follow_what_is_intercepted() {
    let published = [
        ("raider", 1),
        ("base_change", 2),
        ("patrol", 2),
        ("carrier_mission", 2),
        ("naval_nr", 2),
        ("displaced", 2),
        ("returning_to_base", 2),
        ("sea_supply", 4),
        ("sea_transport", 4),
        ("seaborne_invasion", 4),
        ("shore_bombardment", 4),
        ("sea_escort", 4),
        ("convoy_route", 4),
        ("patrol_in_hex", 8),
    ];
    for (activity, want) in published {
        let s = scenario("", &format!("activity = \"{activity}\"\nfactors = 20"), &group("g", "m", 3, ""));
        assert_eq!(dice(&s, 0), want, "{activity}");
    }
    let changed = scenario("[naval.rules.base_dice]\nraider = 3", "", &group("g", "m", 3, ""));
    assert_eq!(dice(&changed, 0), 3);
}

/// N-4, N-4.1, A-6, N-5.4, N-10.4, N-11.1: every level after the first starts from 1 die from port, the
/// counter-counter-interceptor (L3) included, and a counter-interception aimed at the interception hex
/// gets two more (1 + 2 = 3). Both values are keys.
#[test]
fn counter_interceptions_start_from_one_die_at_every_level() {
    let groups = [
        group("a", "m", 3, ""),
        group("b", "a", 3, ""),
        group("c", "b", 3, ""),
        group("d", "a", 0, "at_interception_hex = true"),
    ]
    .concat();
    let s = scenario("", "", &groups);
    assert_eq!([dice(&s, 1), dice(&s, 2), dice(&s, 3)], [1, 1, 3], "L2, L3, L2 at the interception hex");
    let rules = "[naval.rules]\ncounter_from_port = 2\ncounter_in_interception_hex = 1";
    let changed = scenario(rules, "", &groups);
    assert_eq!([dice(&changed, 1), dice(&changed, 2), dice(&changed, 3)], [2, 2, 3]);
}

/// N-5.1 to N-5.8, N-3.2, N-6.1, N-6.2: each modifier at its default, on a sea transport (4 dice) of 20
/// factors. Spotting adds its factors up to 3; codebreaking 1, and 1 in an invasion's or bombardment's mission hex;
/// slow ships cost the whole group one die (one flag per group, N-3.2); a submarine 2, but not from patrol; a
/// non-operational port 2, never for a submarine; a force under 10 factors 1. The total is clamped to 0..8 after every
/// modifier is added.
#[test]
fn each_modifier_moves_the_dice_by_its_default() {
    let transport = |factors: u32| format!("activity = \"sea_transport\"\nfactors = {factors}");
    let cases = [
        (20, "spotting = 2", 6),                                                 // N-5.1
        (20, "spotting = 5", 7),                                                 // N-5.1: at most 3
        (20, "codebreaking = true", 5),                                          // N-5.2
        (20, "slow_ships = true", 3),                                            // N-5.5, N-3.2
        (20, "submarine = true", 2),                                             // N-5.6
        (20, "submarine = true\norigin = \"patrol\"", 4),                        // N-5.6: no penalty on patrol
        (20, "port_operational = false", 2),                                     // N-5.7
        (20, "port_operational = false\nsubmarine = true", 2),                   // N-5.7: the submarine's -2 only
        (9, "", 3),                                                              // N-5.8: under 10 factors
        (10, "", 4),                                                             // N-5.8: 10 is not under 10
        (9, "submarine = true\nslow_ships = true", 0),                           // N-6.2: 4 - 2 - 1 - 1 = 0
        (9, "submarine = true\nslow_ships = true\nport_operational = false", 0), // N-6.2: never below 0
    ];
    for (factors, keys, want) in cases {
        let s = scenario("", &transport(factors), &group("g", "m", 3, keys));
        assert_eq!(dice(&s, 0), want, "{factors} factors, {keys}");
    }
    let raider = scenario("", "activity = \"raider\"\nfactors = 8", &group("g", "m", 3, "submarine = true"));
    assert_eq!(dice(&raider, 0), 0, "1 - 2 - 1 is clamped to 0 (N-6.2)");
    let invasion = "activity = \"seaborne_invasion\"\nfactors = 20";
    let in_hex = scenario("", invasion, &group("g", "m", 3, "in_mission_hex = true"));
    assert_eq!(dice(&in_hex, 0), 5, "4 + 1 in the invasion's mission hex (N-5.3)");
    let capped = scenario("[naval.rules]\nmax_dice = 5", &transport(20), &group("g", "m", 3, "spotting = 3"));
    assert_eq!(dice(&capped, 0), 5, "7 clamped to the cap (N-6.1)");
    let costly = scenario("[naval.rules]\nslow_ships = -2", &transport(20), &group("g", "m", 3, "slow_ships = true"));
    assert_eq!(dice(&costly, 0), 2, "\"what if slow ships cost two dice?\"");
}

/// N-3.1, N-8.6, N-1.7: each group rolls on its own, and one surface group reaching is enough. Two groups
/// of 1 die, 4 hexes out, each reach with 1/2: the mission is intercepted with 1 - 1/2 x 1/2 = 3/4. A
/// submarine reaching does not count: with `b` a submarine in its base hex (0 dice, distance 0, always
/// there) the mission is intercepted only when `a` reaches, 1/2. Two submarines each attack on their own,
/// each succeeding with 1/2, and the mission is never intercepted.
#[test]
fn groups_roll_apart_and_one_surface_group_is_enough() {
    let two = scenario("", "", &[group("a", "m", 4, ""), group("b", "m", 4, "")].concat());
    assert!(close(exact(&two, "group.a.reached"), 0.5));
    assert!(close(exact(&two, "mission.intercepted"), 0.75));
    let with_sub = scenario("", "", &[group("a", "m", 4, ""), group("b", "m", 0, "submarine = true")].concat());
    assert!(close(exact(&with_sub, "group.b.reached"), 1.0));
    assert!(close(exact(&with_sub, "mission.intercepted"), 0.5));
    let subs = [group("s1", "m", 0, "submarine = true"), group("s2", "m", 0, "submarine = true")].concat();
    let subs = scenario("", "", &subs);
    assert!(close(exact(&subs, "group.s1.won"), 0.5) && close(exact(&subs, "group.s2.won"), 0.5));
    assert!(close(exact(&subs, "mission.intercepted"), 0.0));
}

/// N-7.1, N-7.3, A-7: a patrol moves 3 hexes in round 1 without dice, not halved in the Pacific: it reaches
/// a hex 3 away always and one 4 away never (halved, 3 hexes would be 2). From 5 hexes it stands 2 short,
/// and in a 2-round combat (`a` in its base hex fights the mission) it rolls one Pacific die after round 1
/// and arrives on 3 to 6: 2/3. With `rules.patrol_auto_move = 2` the hex 3 away is out of reach.
#[test]
fn a_patrol_moves_three_hexes_in_round_one_even_in_the_pacific() {
    let pacific = format!("[naval]\ntheater = \"pacific\"\n{}", rounds(2));
    let patrol = |distance: u32, tables: &str| {
        scenario(tables, "", &[group("a", "m", 0, ""), group("p", "m", distance, "origin = \"patrol\"")].concat())
    };
    assert!(close(exact(&patrol(3, &pacific), "group.p.reached"), 1.0));
    assert!(close(exact(&patrol(4, &pacific), "group.p.reached"), 0.0));
    assert!(close(exact(&patrol(5, &pacific), "group.p.joined_late"), 2.0 / 3.0));
    let shorter = format!("{pacific}\n[naval.rules]\npatrol_auto_move = 2");
    assert!(close(exact(&patrol(3, &shorter), "group.p.reached"), 0.0));
}

/// A-4, N-8.2: Pacific halving applies to the dice total. One die 4 hexes out reaches on 4 to 6 in Europe,
/// 1/2; halved it needs a total of 2 x 4 - 1 = 7, never. With `rules.pacific_halving = false` the Pacific
/// rolls as Europe does.
#[test]
fn without_halving_the_pacific_rolls_as_europe() {
    let one = |tables: &str| exact(&scenario(tables, "", &group("g", "m", 4, "")), "group.g.reached");
    assert!(close(one("[naval]\ntheater = \"europe\""), 0.5));
    assert!(close(one("[naval]\ntheater = \"pacific\""), 0.0));
    assert!(close(one("[naval]\ntheater = \"pacific\"\n[naval.rules]\npacific_halving = false"), 0.5));
}

/// N-9.1: when a surface group has reached (`a`, in its base hex), a group that fell short closes in by
/// default. `b` (1 die, 5 hexes) reaches on 5 or 6 (1/3); else it stands m = 1..4 hexes out and, in a
/// 2-round combat, one die after round 1 brings it in when it is at least 5 - m: (3 + 4 + 5 + 6) / 36 = 1/2.
/// It then fights from round 2: P(b fights) = 1/3 + 1/2 = 5/6. With `on_fail = "abort"` it goes home
/// instead: it fights only when it reached, 1/3.
#[test]
fn a_group_that_falls_short_closes_in_or_aborts() {
    let b = |on_fail: &str| {
        let groups = [group("a", "m", 0, ""), group("b", "m", 5, &format!("on_fail = \"{on_fail}\""))].concat();
        scenario(&rounds(2), "", &groups)
    };
    let closes = b("close_in");
    assert!(close(exact(&closes, "group.b.joined_late"), 0.5));
    assert!(close(exact(&closes, "group.b.fought"), 5.0 / 6.0));
    let aborts = b("abort");
    assert!(close(exact(&aborts, "group.b.joined_late"), 0.0));
    assert!(close(exact(&aborts, "group.b.fought"), 1.0 / 3.0));
}

/// N-10.5, N-10.1: a counter-interceptor rolls only if its target is at sea: one that reached or is
/// closing in, not one that aborted. `c` counter-intercepts `b` of the previous test (counter-interceptions
/// rolled with the others, `before_combat`): it rolls always when `b` closes in, with 1/3 when `b` aborts.
#[test]
fn a_counter_interceptor_rolls_only_against_a_group_at_sea() {
    let c = |on_fail: &str| {
        let groups =
            [group("a", "m", 0, ""), group("b", "m", 5, &format!("on_fail = \"{on_fail}\"")), group("c", "b", 1, "")]
                .concat();
        let tables = format!("{}\n[naval.delayed]\ncounter_interception = \"before_combat\"", rounds(2));
        exact(&scenario(&tables, "", &groups), "group.c.rolled")
    };
    assert!(close(c("close_in"), 1.0));
    assert!(close(c("abort"), 1.0 / 3.0));
}

/// N-11.1, N-11.2: the chain goes on level by level, as deep as `naval.max_depth` (3 by default): a group
/// at level 4 is refused, naming the rule, unless the depth allows it.
#[test]
fn the_chain_is_as_deep_as_max_depth_allows() {
    let chain = [group("a", "m", 1, ""), group("b", "a", 1, ""), group("c", "b", 1, ""), group("d", "c", 1, "")];
    let refused =
        config::from_str(&shipped(), &text("", "", &chain.concat()), Path::new("deep.toml"), Overrides::default());
    let Err(refusal) = refused else { panic!("level 4 is deeper than the default") };
    let message = refusal.to_string();
    assert!(
        message.contains("level 4") && message.contains("max_depth = 3") && message.contains("N-11.2"),
        "{message}"
    );
    let deeper = scenario("[naval]\nmax_depth = 4", "", &chain.concat());
    assert!(close(exact(&deeper, "group.d.rolled"), exact(&deeper, "group.c.reached")), "L4 rolls when L3 is at sea");
}

/// N-10.3, N-16.5, N-2.4: a counter-interception aimed at the interception hex is one combined combat of
/// two sides there: `a` (L1) against the mission and `b` (L2, 1 + 2 = 3 dice), both in their base hexes.
/// Exactly one side wins, so the mission completes with 1/2 and `a` and `b` win 1/2 each. Fought as two
/// combats, `b` against `a` and then `a`, if it won, against the mission, it would complete with 3/4.
#[test]
fn a_counter_interception_at_the_interception_hex_is_one_combined_combat() {
    let groups = [group("a", "m", 0, ""), group("b", "a", 0, "at_interception_hex = true")].concat();
    let s = scenario("", "", &groups);
    assert!(close(exact(&s, "group.b.fought"), 1.0));
    assert!(close(exact(&s, "group.a.won"), 0.5) && close(exact(&s, "group.b.won"), 0.5));
    assert!(close(exact(&s, "mission.completed"), 0.5));
}

/// N-18.1, N-18.2, N-18.4: back in port a group is inverted (`group.<name>.inverted`) if it fought, or if it
/// reached its hex and found its target gone, and not if it was withheld. `a` and the withheld `w` both
/// fight in their base hexes: `a` is inverted always, `w` never. With air attacking every force sailing to
/// a combat and turning it back with 1/2 (N-13.2), `a` sails first (N-12) and arrives with 1/2; the mission
/// then arrives with 1/2, so `a` fights with 1/4 and finds nobody with 1/4: inverted with 1/2. `f`, which
/// never reaches its hex 7 hexes out and aborts rather than close in, is not inverted.
#[test]
fn inversion_follows_fighting_or_finding_the_target_gone() {
    let groups = [group("a", "m", 0, ""), group("w", "m", 0, "withheld = true")].concat();
    let s = scenario("", "", &groups);
    assert!(close(exact(&s, "group.a.inverted"), 1.0));
    assert!(close(exact(&s, "group.w.fought"), 1.0) && close(exact(&s, "group.w.inverted"), 0.0));
    let air = "[naval.air]\np_attack_en_route = 1.0\np_turn_back = 0.5";
    let turned = scenario(air, "", &[group("a", "m", 0, ""), group("f", "m", 7, "on_fail = \"abort\"")].concat());
    assert!(close(exact(&turned, "group.a.fought"), 0.25));
    assert!(close(exact(&turned, "group.a.inverted"), 0.5));
    assert!(close(exact(&turned, "group.f.inverted"), 0.0));
}

/// A-19, N-17.3: an interceptor that wins goes home too. `r` waits in its base hex for `a` on its way home.
/// Under the default, `way_home.after = "defeat_or_abort"`, it meets `a` only when `a` lost (1/2); under
/// `"any"` it meets `a` going home after a win as well: always.
#[test]
fn an_interceptor_that_wins_goes_home_and_may_be_met_there() {
    let groups = [group("a", "m", 0, ""), group("r", "a", 0, "leg = \"return\"")].concat();
    let met = |tables: &str| exact(&scenario(tables, "", &groups), "group.r.fought");
    assert!(close(met(""), 0.5));
    assert!(close(met("[naval.way_home]\nafter = \"any\""), 1.0));
}
