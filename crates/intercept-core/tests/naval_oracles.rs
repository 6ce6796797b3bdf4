//! The exact values T-1..T-6 of `docs/rules/naval.md`, asserted through the exact interpreter on configs.

mod solve;

use intercept_core::config::Scenario;
use intercept_core::runner;
use solve::{close, exact, load};

/// One group against a mission of `activity` with `factors` factors; `extra` adds group keys.
fn one_group(theater: &str, activity: &str, factors: u32, distance: u32, extra: &str) -> Scenario {
    load(&format!(
        "[naval]\ntheater = \"{theater}\"\n[naval.mission]\nname = \"m\"\nactivity = \"{activity}\"\nfactors = {factors}\n\
         [[naval.group]]\nname = \"g\"\ntarget = \"m\"\ndistance = {distance}\nfactors = 10\n{extra}\n"
    ))
}

fn p_reach(theater: &str, activity: &str, factors: u32, distance: u32) -> f64 {
    exact(&one_group(theater, activity, factors, distance, ""), "group.g.reached")
}

/// T-1: the sum rule in Europe: a group moves the total of all its dice (N-8.1, A-1). A raider is 1 die, a
/// base change 2 (N-4).
#[test]
fn t1_sum_rule_europe() {
    assert!(close(p_reach("europe", "raider", 10, 4), 1.0 / 2.0));
    assert!(close(p_reach("europe", "raider", 10, 3), 2.0 / 3.0));
    assert!(close(p_reach("europe", "base_change", 10, 5), 5.0 / 6.0));
    assert!(close(p_reach("europe", "base_change", 10, 7), 7.0 / 12.0));
}

/// T-2: the Pacific halves the dice total, rounding up: distance d needs S >= 2d - 1 (N-8.2).
#[test]
fn t2_pacific_halving() {
    assert!(close(p_reach("pacific", "base_change", 10, 4), 7.0 / 12.0));
    assert!(close(p_reach("pacific", "sea_transport", 10, 7), 287.0 / 432.0));
}

/// T-3: zero dice reach only the base hex, distance 0 (N-6.3, N-6.4, N-8.3, A-8); a patrol moves 3 hexes in
/// round 1 without dice (N-7).
#[test]
fn t3_zero_dice_and_patrols() {
    // A raider of 8 factors: 1 die - 1 for a small force = 0 dice.
    assert_eq!(p_reach("europe", "raider", 8, 0), 1.0);
    assert_eq!(p_reach("europe", "raider", 8, 1), 0.0);
    let patrol = |d| exact(&one_group("pacific", "sea_transport", 10, d, "origin = \"patrol\""), "group.g.reached");
    assert_eq!(patrol(3), 1.0, "3 hexes, not halved in the Pacific");
    assert_eq!(patrol(4), 0.0);
}

/// T-4: delayed one-die steps with 5 hexes to go, Europe: reached after 1, 2, 3 steps with cumulative
/// probability 1/3, 5/6, 53/54 (N-15): the moves add up along the route (N-15.2). Two 0-dice groups: one in its base
/// hex reaches and fights, the other, 5 hexes out, closes in and rolls one die after each round that is not the last.
#[test]
fn t4_delayed_interception_steps() {
    for (steps, want) in [(1, 1.0 / 3.0), (2, 5.0 / 6.0), (3, 53.0 / 54.0)] {
        let src = format!(
            "[naval.mission]\nname = \"m\"\nactivity = \"raider\"\nfactors = 8\n\
             [[naval.group]]\nname = \"home\"\ntarget = \"m\"\ndistance = 0\nfactors = 10\n\
             [[naval.group]]\nname = \"late\"\ntarget = \"m\"\ndistance = 5\nfactors = 10\non_fail = \"close_in\"\n\
             [naval.combat]\np_end_after_round = 0.0\nmax_rounds = {}\n",
            steps + 1
        );
        let got = exact(&load(&src), "group.late.joined_late");
        assert!(close(got, want), "{steps} steps: {got} != {want}");
    }
}

/// T-5: dice counts. Sea transport 4 + 2 spotting - 1 slow = 5 dice; a raider group of 8 factors gets
/// 1 - 1 = 0 dice (N-4, N-5, N-6).
#[test]
fn t5_dice_counts() {
    let s = one_group("europe", "sea_transport", 12, 5, "spotting = 2\nslow_ships = true");
    assert_eq!(s.rules.describe()["groups"][0]["dice"], 5);
    let s = one_group("europe", "raider", 8, 5, "");
    assert_eq!(s.rules.describe()["groups"][0]["dice"], 0);
    let clamped = one_group("europe", "patrol_in_hex", 12, 5, "spotting = 3\ncodebreaking = true");
    assert_eq!(clamped.rules.describe()["groups"][0]["dice"], 8, "8 + 4 clamps to 8 after all modifiers (A-5)");
}

/// T-6: for comparison, the "highest die" reading: P(max of 4d6 >= 6) = 671/1296, of 8d6 = 1288991/1679616.
#[test]
fn t6_highest_die_reading() {
    let highest = |activity: &str| {
        let src = format!(
            "[naval.mission]\nname = \"m\"\nactivity = \"{activity}\"\nfactors = 10\n\
             [[naval.group]]\nname = \"g\"\ntarget = \"m\"\ndistance = 6\nfactors = 10\n\
             [naval.rules]\nmovement = \"highest\"\n"
        );
        exact(&load(&src), "group.g.reached")
    };
    assert!(close(highest("sea_transport"), 671.0 / 1296.0));
    assert!(close(highest("patrol_in_hex"), 1_288_991.0 / 1_679_616.0));
}

/// N-8.6, N-9.2: a submarine reaching the hex does not make the mission intercepted, and with nobody else
/// reaching there is no combat.
#[test]
fn submarines_alone_do_not_intercept() {
    let s = one_group("europe", "sea_transport", 12, 0, "submarine = true");
    assert_eq!(exact(&s, "group.g.reached"), 1.0);
    assert_eq!(exact(&s, "mission.intercepted"), 0.0);
    assert_eq!(exact(&s, "mission.engaged"), 0.0);
    assert!(close(exact(&s, "group.g.won"), 0.5), "it attacks on its own (N-19)");
}

/// The tool's own P(reach) table against the rule book's (N-P), cell by cell where the book gives 3 places.
#[test]
fn reach_table_matches_the_rule_book() {
    use intercept_core::games::naval::{config::MoveRule, dice::reach_table};
    let eu = reach_table(MoveRule::Sum, false, 32);
    let pac = reach_table(MoveRule::Sum, true, 16);
    let book_eu = [(2, 4, 0.917), (3, 10, 0.625), (4, 14, 0.556), (5, 18, 0.500), (6, 24, 0.279), (8, 32, 0.238)];
    for (n, k, p) in book_eu {
        assert!((eu[n][k - 1] - p).abs() < 0.0005, "EU {n} dice, {k} hexes: {}", eu[n][k - 1]);
    }
    let book_pac = [(2, 4, 0.583), (3, 6, 0.500), (4, 7, 0.664), (5, 10, 0.400), (7, 14, 0.332), (8, 16, 0.305)];
    for (n, k, p) in book_pac {
        assert!((pac[n][k - 1] - p).abs() < 0.0005, "PAC {n} dice, {k} hexes: {}", pac[n][k - 1]);
    }
}

/// A counter-interception met away from the interception hex: the counter-interceptor and its target both
/// fight there, and exactly one of them wins (N-10, N-16). Both are in their base hexes (distance 0).
#[test]
fn a_counter_interception_combat_has_two_fighting_sides() {
    let s = load(
        "[naval.mission]\nname = \"m\"\nactivity = \"sea_transport\"\nfactors = 12\n\
         [[naval.group]]\nname = \"g\"\ntarget = \"m\"\ndistance = 0\nfactors = 10\n\
         [[naval.group]]\nname = \"h\"\ntarget = \"g\"\ndistance = 0\nfactors = 10\n\
         [naval.combat]\np_intercepting_side_wins = 0.25\n",
    );
    assert_eq!(exact(&s, "group.g.fought"), 1.0);
    assert_eq!(exact(&s, "group.h.fought"), 1.0);
    assert!(close(exact(&s, "group.h.won"), 0.25), "h intercepts g");
    // g survives h with 3/4 and then beats the mission with 1/4: it ends as the winner of its last combat.
    assert!(close(exact(&s, "group.g.won"), 0.75 * 0.25));
    assert!(close(exact(&s, "mission.engaged"), 0.75));
    assert!(close(exact(&s, "mission.completed"), 1.0 - 0.75 * 0.25));
}

/// N-17.2: a defeated mission goes home and may be intercepted once on the way, with the "returning to base"
/// dice (2); a mission that wins never meets the return-leg group.
#[test]
fn a_defeated_mission_can_be_caught_going_home() {
    let scenario = |p_win: f64| {
        load(&format!(
            "[naval.mission]\nname = \"m\"\nactivity = \"sea_transport\"\nfactors = 12\n\
             [[naval.group]]\nname = \"g\"\ntarget = \"m\"\ndistance = 0\nfactors = 10\n\
             [[naval.group]]\nname = \"r\"\ntarget = \"m\"\nleg = \"return\"\ndistance = 3\nfactors = 10\n\
             [naval.combat]\np_intercepting_side_wins = {p_win}\n"
        ))
    };
    let beaten = scenario(1.0);
    assert_eq!(beaten.rules.describe()["groups"][1]["dice"], 2);
    assert!(close(exact(&beaten, "group.r.reached"), 35.0 / 36.0));
    assert!(close(exact(&beaten, "mission.caught_going_home"), 35.0 / 36.0));
    assert!(close(exact(&beaten, "group.r.fought"), 35.0 / 36.0));
    let winner = scenario(0.0);
    assert_eq!(exact(&winner, "group.r.reached"), 0.0);
    assert_eq!(exact(&winner, "mission.caught_going_home"), 0.0);
}

/// N-14: a fellow interceptor defers to join the combat where its partner is counter-intercepted, on the
/// partner's side; at once if its path runs through that hex (N-14.2), else by one die a round after the
/// first (N-14.3).
#[test]
fn deferring_to_join_a_counter_interception_combat() {
    let scenario_placed = |defer_distance: u32, p_win: f64, placement: &str| {
        load(&format!(
            "[naval.deferral]\nplacement = \"{placement}\"\n\
             [naval.mission]\nname = \"m\"\nactivity = \"sea_transport\"\nfactors = 12\n\
             [[naval.group]]\nname = \"f\"\ntarget = \"m\"\ndistance = 0\nfactors = 10\n\
             [[naval.group]]\nname = \"d\"\ntarget = \"m\"\ndistance = 0\nfactors = 10\n\
             defer_to = \"f\"\ndefer_distance = {defer_distance}\n\
             [[naval.group]]\nname = \"h\"\ntarget = \"f\"\ndistance = 0\nfactors = 10\n\
             [naval.combat]\np_intercepting_side_wins = {p_win}\np_end_after_round = 0.0\nmax_rounds = 2\n"
        ))
    };
    let scenario = |defer_distance: u32, p_win: f64| scenario_placed(defer_distance, p_win, "closest");
    // Through the hex: it joins at once, and shares the partner's defeat.
    let at_once = scenario(0, 1.0);
    assert_eq!(exact(&at_once, "group.d.joined_deferred"), 1.0);
    assert_eq!(exact(&at_once, "group.d.fought"), 1.0);
    assert_eq!(exact(&at_once, "group.d.won"), 0.0);
    assert_eq!(exact(&at_once, "mission.engaged"), 0.0, "both interceptors were beaten on the way");
    // Two hexes off: one roll after round 1 of a 2-round combat, a d6 of 2 or more: 5/6.
    let closing = scenario(2, 1.0);
    assert!(close(exact(&closing, "group.d.joined_deferred"), 5.0 / 6.0));
    // If it does not arrive in time (a 1, 1/6) it stands a hex from its own hex, its base, when the combat
    // ends. Its partner was beaten, so no combat at the interception hex gives it a round to close in:
    // nothing engages the mission (N-14.3, N-15.4).
    assert_eq!(exact(&closing, "mission.engaged"), 0.0);
    // The earlier reading, kept as `placement = "fixed"`: it fights the mission as if it had never deferred.
    let fixed = scenario_placed(2, 1.0, "fixed");
    assert!(close(exact(&fixed, "mission.engaged"), 1.0 / 6.0));
}

/// A counter-interceptor rolls only when its target is at sea (N-10.1, N-9.2), and its movement counts only
/// the trials it rolls in (N-8.4; issue 16, item 7). By hand: raider `a` has 1 die in the Pacific, so it moves
/// ceil(d/2) and reaches 2 hexes on d >= 3: P = 4/6 = 2/3, and with no other group it is at sea only then.
/// `b` counter-intercepts from port with 1 die (N-10.4), moving ceil(d/2) = 1, 2 or 3 hexes, 1/3 each,
/// toward a hex 3 away. So P(b rolls) = 2/3, and given it rolls, P(0 hexes) = 0 (one Pacific die always
/// moves a hex), P(1) = P(2) = P(3) = 1/3, mean 2. Counting the trials it never rolled as 0 hexes would
/// give P(0) = 1/3 and a mean of 4/3.
#[test]
fn movement_counts_only_the_trials_a_group_rolls_in() {
    let s = load(
        "[naval]\ntheater = \"pacific\"\n[naval.mission]\nname = \"m\"\nactivity = \"raider\"\nfactors = 20\n\
         [[naval.group]]\nname = \"a\"\ntarget = \"m\"\ndistance = 2\nfactors = 20\n\
         [[naval.group]]\nname = \"b\"\ntarget = \"a\"\ndistance = 3\nfactors = 20\n",
    );
    assert_eq!(s.rules.describe()["groups"][1]["dice"], 1, "one die from port (N-10.4)");
    assert!(close(exact(&s, "group.b.rolled"), 2.0 / 3.0));
    assert!(close(exact(&s, "group.b.movement"), 2.0));
    let metrics = s.rules.metrics();
    let def = metrics.defs().iter().find(|d| d.name == "group.b.movement").unwrap();
    let solved = runner::solve(&s).unwrap();
    let by_hexes = intercept_core::exact::distribution(metrics, &solved, def).unwrap();
    for (got, want) in by_hexes.iter().zip([0.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]) {
        assert!(close(*got, want), "{by_hexes:?}");
    }
}
