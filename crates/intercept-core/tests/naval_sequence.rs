//! The later steps of the naval sequence of play (issue 16): deferral placed by the group's own roll
//! (N-14.3), delayed interceptions counter-intercepted after each roll and abandoned (N-15), the way home
//! (N-13.1, N-17), interception range and retargeting (A-3, A-9), and the strength model of combat
//! (N-16.4). Every expected value is worked out by hand from the rules in the comment above it.

mod solve;

use intercept_core::config::Scenario;
use solve::{close, exact, load};

/// A mission `m` (a raider of 20 factors unless `mission` says otherwise), the groups in `groups`, and
/// the extra tables in `tables`.
fn scenario(mission: &str, groups: &str, tables: &str) -> Scenario {
    let mission = if mission.is_empty() { "activity = \"raider\"\nfactors = 20" } else { mission };
    load(&format!("{tables}\n[naval.mission]\nname = \"m\"\n{mission}\n{groups}"))
}

fn group(name: &str, target: &str, distance: u32, extra: &str) -> String {
    format!("[[naval.group]]\nname = \"{name}\"\ntarget = \"{target}\"\ndistance = {distance}\nfactors = 10\n{extra}\n")
}

/// Issue 16's example: `a` (distance 0) is beaten in one round by `h`; `d` deferred to that combat from 3
/// hexes off its path; no other group reaches the mission. Under the text `d` never gets a round to close
/// on `h`'s combat, then heads for its own hex from its base, 3 hexes out, but no combat there gives it a
/// round to roll in: nothing engages the mission. The earlier reading sent it into the mission's combat
/// (4 dice always cover 3 hexes).
#[test]
fn a_deferring_group_that_misses_the_combat_heads_on_from_where_it_stands() {
    let groups =
        group("a", "m", 0, "") + &group("d", "m", 3, "defer_to = \"a\"\ndefer_distance = 3") + &group("h", "a", 0, "");
    let combat = "[naval.combat]\np_intercepting_side_wins = 1.0\np_end_after_round = 1.0\n";
    let convoy = "activity = \"sea_transport\"\nfactors = 20";
    let text = scenario(convoy, &groups, combat);
    assert_eq!(exact(&text, "group.d.reached"), 1.0);
    assert_eq!(exact(&text, "mission.engaged"), 0.0);
    let earlier = scenario(convoy, &groups, &format!("{combat}[naval.deferral]\nplacement = \"fixed\"\n"));
    assert_eq!(exact(&earlier, "mission.engaged"), 1.0);
}

/// N-14.3 placement. `d` (1 die, 4 hexes to its own hex) defers to `f`'s combat with `h`, which lies 1 hex
/// off its path at the path's 2nd hex; the combat lasts 2 rounds, so `d` rolls once after round 1.
/// Its first roll m is 1, 2, 3 with 1/6 each and 4 (capped) with 3/6.
/// - Closest: it stands at min(m, 2): m = 1 leaves 1 + 1 = 2 hexes (a die of 2+, 5/6), m >= 2 leaves 1
///   (certain): 1/6 * 5/6 + 5/6 = 35/36.
/// - Furthest: it stands at m: |m - 2| + 1 = 2, 1, 2, 3 hexes: (5/6 + 1 + 5/6 + 3 * 4/6) / 6 = 7/9.
#[test]
fn a_deferring_group_is_placed_by_its_own_roll() {
    let groups = group("f", "m", 0, "")
        + &group("d", "m", 4, "defer_to = \"f\"\ndefer_along = 2\ndefer_distance = 1")
        + &group("h", "f", 0, "");
    let combat = "[naval.combat]\np_end_after_round = 0.0\nmax_rounds = 2\n";
    let joined = |placement: &str| {
        let s = scenario("", &groups, &format!("{combat}[naval.deferral]\nplacement = \"{placement}\"\n"));
        exact(&s, "group.d.joined_deferred")
    };
    assert!(close(joined("closest"), 35.0 / 36.0));
    assert!(close(joined("furthest"), 7.0 / 9.0));
}

/// N-14.3, then N-15: a deferring group that misses the combat closes in on its own hex from where it
/// stands. `g` holds the mission in a 2-round combat; `d` (1 die, 4 hexes out) defers to `f`'s combat with
/// `h`, 2 hexes off its path at the 2nd hex. Closest placement:
/// - m = 1 (1/6): it stands at hex 1, 3 from the combat. A 1 (1/6) takes it to hex 2, 2 from its own hex:
///   then a die of 2+ (5/6); a 2 (1/6) takes it a hex off its path, 3 from its own hex: 3+ (4/6).
/// - m >= 2 (5/6): at hex 2, 2 from the combat. A 1 (1/6) takes it a hex off, 3 from its own hex: 4/6.
///
/// P(joined late) = 1/6 (1/6 * 5/6 + 1/6 * 4/6) + 5/6 * 1/6 * 4/6 = 29/216. Under `abandon =
/// "once_decided"` it gives up when that combat ends without it: 1/6 * 2/6 + 5/6 * 1/6 = 7/36.
#[test]
fn a_deferring_group_that_misses_closes_in_from_where_it_stands() {
    let groups = group("g", "m", 0, "")
        + &group("f", "m", 0, "")
        + &group("d", "m", 4, "defer_to = \"f\"\ndefer_along = 2\ndefer_distance = 2")
        + &group("h", "f", 0, "");
    let combat = "[naval.combat]\np_end_after_round = 0.0\nmax_rounds = 2\n";
    let carries_on = scenario("", &groups, combat);
    assert!(close(exact(&carries_on, "group.d.joined_late"), 29.0 / 216.0));
    let gives_up = scenario("", &groups, &format!("{combat}[naval.delayed]\nabandon = \"once_decided\"\n"));
    assert_eq!(exact(&gives_up, "group.d.joined_late"), 0.0);
    assert!(close(exact(&gives_up, "group.d.abandoned"), 7.0 / 36.0));
}

/// N-15.3. `g` holds the mission; `j` has no dice (a raider's 1, -1 for slow ships), falls 2 hexes short
/// and closes in; `c` counter-intercepts `j` from port, 1 die for 2 hexes (5/6), and wins every combat.
/// Combats end after each round with 1/2, after 3 at most.
/// - After each roll (the text): `c` rolls only after one of `j`'s rolls. `j` rolls after round 1 (1/2);
///   `c` reaches (5/6) and fights. If `c` misses (1/6) and `j` fell short, a 1 (1/6), `j` rolls again after
///   round 2 (1/2) and `c` tries again (5/6): P(c fights) = 1/2 (5/6 + 1/6 * 1/6 * 1/2 * 5/6) = 365/864.
///   `j` joins when it arrives and `c` misses: 1/2 (5/6 * 1/6 + 1/6 * 1/6 * 1/2 * 1/6) = 61/864.
/// - Before the combat (the earlier reading): `c` rolls with the others (5/6) and beats `j` before the
///   mission's combat; `j` survives with 1/6 and then joins with 1/2 (5/6 + 1/6 * 1/2) = 11/24: 11/144.
#[test]
fn delayed_interceptions_are_counter_intercepted_after_each_roll() {
    let groups = group("g", "m", 0, "") + &group("j", "m", 2, "slow_ships = true") + &group("c", "j", 2, "");
    let combat = "[naval.combat]\np_intercepting_side_wins = 1.0\np_end_after_round = 0.5\nmax_rounds = 3\n";
    let text = scenario("", &groups, combat);
    assert_eq!(text.rules.describe()["groups"][1]["dice"], 0);
    assert!(close(exact(&text, "group.c.fought"), 365.0 / 864.0));
    assert!(close(exact(&text, "group.j.joined_late"), 61.0 / 864.0));
    let before = scenario("", &groups, &format!("{combat}[naval.delayed]\ncounter_interception = \"before_combat\"\n"));
    assert!(close(exact(&before, "group.c.fought"), 5.0 / 6.0));
    assert!(close(exact(&before, "group.j.joined_late"), 11.0 / 144.0));
}

/// N-15.1: a delayed group may give up. `j` (no dice) is 5 hexes short in a 3-round combat, so it rolls
/// twice: it arrives within 2 rolls with 5/6 (T-4). Giving up after 1 roll, it arrives only on a 5 or 6.
#[test]
fn a_delayed_group_may_abandon_after_some_rolls() {
    let groups = group("g", "m", 0, "") + &group("j", "m", 5, "slow_ships = true");
    let combat = "[naval.combat]\np_end_after_round = 0.0\nmax_rounds = 3\n";
    let keeps_on = scenario("", &groups, combat);
    assert!(close(exact(&keeps_on, "group.j.joined_late"), 5.0 / 6.0));
    let after_one =
        scenario("", &groups, &format!("{combat}[naval.delayed]\nabandon = \"after_rolls\"\nabandon_after = 1\n"));
    assert!(close(exact(&after_one, "group.j.joined_late"), 1.0 / 3.0));
    assert!(close(exact(&after_one, "group.j.abandoned"), 2.0 / 3.0));
}

/// N-13.1, N-17.2, N-5.8: air may strike a force going home. The convoy (10 factors) is beaten by `g`;
/// `r` waits 7 hexes out on its way home with the returning-to-base 2 dice: P(2d6 >= 7) = 7/12. An air
/// attack (1/2) costs it 10% of its factors, rounded up: 9 factors, a small force, one die fewer, and one
/// die never covers 7 hexes. So P(r reaches) = 1/2 * 7/12 = 7/24.
#[test]
fn air_attacks_on_the_way_home_can_make_a_force_small() {
    let groups = group("g", "m", 0, "") + &group("r", "m", 7, "leg = \"return\"");
    let tables = "[naval.combat]\np_intercepting_side_wins = 1.0\n\
                  [naval.air]\np_attack_going_home = 0.5\nlosses_percent = 10\n";
    let s = scenario("activity = \"sea_transport\"\nfactors = 10", &groups, tables);
    assert!(close(exact(&s, "mission.attacked_going_home"), 0.5));
    assert!(close(exact(&s, "group.r.reached"), 7.0 / 24.0));
}

/// N-17.4, A-20: with two interception hexes on the way home, a force beaten at the first is met again at
/// the second. `r1` waits in its base hex (certain), `r2` 7 hexes out (7/12).
#[test]
fn a_force_going_home_may_be_met_at_several_hexes() {
    let groups = group("g", "m", 0, "")
        + &group("r1", "m", 0, "leg = \"return\"")
        + &group("r2", "m", 7, "leg = \"return\"\nreturn_hex = 2");
    let tables = "[naval.combat]\np_intercepting_side_wins = 1.0\n[naval.way_home]\nmax_interceptions = 2\n";
    let s = scenario("activity = \"sea_transport\"\nfactors = 12", &groups, tables);
    assert!(close(exact(&s, "group.r1.fought"), 1.0));
    assert!(close(exact(&s, "group.r2.fought"), 7.0 / 12.0));
    assert!(close(exact(&s, "mission.caught_going_home"), 1.0));
}

/// N-17.3 with `way_home.after = "any"`: a mission that won and carried out its purpose goes home too,
/// and may be met on the way (7/12), a fresh interception hex (N-2.3, case c); under the text's reading
/// only a beaten one is.
#[test]
fn winners_going_home_are_met_only_when_configured() {
    let groups = group("g", "m", 0, "") + &group("r", "m", 7, "leg = \"return\"");
    let combat = "[naval.combat]\np_intercepting_side_wins = 0.0\n";
    let mission = "activity = \"sea_transport\"\nfactors = 12";
    assert_eq!(exact(&scenario(mission, &groups, combat), "group.r.reached"), 0.0);
    let any = scenario(mission, &groups, &format!("{combat}[naval.way_home]\nafter = \"any\"\n"));
    assert!(close(exact(&any, "group.r.reached"), 7.0 / 12.0));
}

/// N-16.4, strength model, default bands (1:2 0.35, 1:1 0.5, 2:1 0.65) and 20% losses a lost round. `g`
/// (20 factors) meets the mission (10): 2:1, so one round gives 0.65. Two rounds: if `g` won round 1 the
/// mission is down to 8 and 20:8 is still 0.65; if it lost, `g` is down to 16 and 16:10 is 0.5. The side
/// that loses the last round withdraws and loses (N-16.2, A-18): 0.65 * 0.65 + 0.35 * 0.5 = 0.5975. The mission ends
/// with 10 factors with 0.35 * 0.5, 8 with 0.65 * 0.35 + 0.35 * 0.5, 6 with 0.65 * 0.65: a mean of 7.505.
#[test]
fn strength_decides_rounds_and_losses_carry_over() {
    let g = "[[naval.group]]\nname = \"g\"\ntarget = \"m\"\ndistance = 0\nfactors = 20\n";
    let mission = "activity = \"raider\"\nfactors = 10";
    let one = scenario(mission, g, "[naval.combat]\nmodel = \"strength\"\nmax_rounds = 1\n");
    assert!(close(exact(&one, "group.g.won"), 0.65));
    let two = scenario(mission, g, "[naval.combat]\nmodel = \"strength\"\np_end_after_round = 0.0\nmax_rounds = 2\n");
    assert!(close(exact(&two, "group.g.won"), 0.5975));
    assert!((exact(&two, "mission.factors_left") - 7.505).abs() < 1e-12);
}

/// N-16.4, strength model: a latecomer adds its factors from the round it joins. `g` (5) meets the
/// mission (10) at 1:2, 0.35. `j` (15 factors, no dice, 3 hexes short) joins for round 2 on a 3+ (4/6).
/// Round 2: after a won round 1 (mission 8), 20:8 gives 0.65 with `j`, 5:8 gives 0.35 without; after a
/// lost round 1 (`g` 4), 19:10 gives 0.5 with `j`, 4:10 gives 0.2 without. P = 0.35 (4/6 * 0.65 + 2/6 *
/// 0.35) + 0.65 (4/6 * 0.5 + 2/6 * 0.2) = 0.4525.
#[test]
fn latecomers_add_their_factors_from_the_round_they_join() {
    let groups = "[[naval.group]]\nname = \"g\"\ntarget = \"m\"\ndistance = 0\nfactors = 5\n\
                  [[naval.group]]\nname = \"j\"\ntarget = \"m\"\ndistance = 3\nfactors = 15\nslow_ships = true\n";
    let combat = "[naval.combat]\nmodel = \"strength\"\np_end_after_round = 0.0\nmax_rounds = 2\n";
    let s = scenario("activity = \"raider\"\nfactors = 10", groups, combat);
    assert!(close(exact(&s, "group.g.won"), 0.4525));
}

/// N-5.8 after losses: the convoy (11 factors) loses round 1 to `g` (30 factors, 30:11 = 2.7, 0.65) and
/// 3 factors (20% of 11, rounded up), so it goes home with 8, a small force: `r`'s returning-to-base dice
/// drop to 1, which never covers 7 hexes. Without losses `r` reaches with 0.65 * 7/12.
#[test]
fn losses_make_a_force_small_for_later_interceptions() {
    let groups = "[[naval.group]]\nname = \"g\"\ntarget = \"m\"\ndistance = 0\nfactors = 30\n".to_owned()
        + &group("r", "m", 7, "leg = \"return\"");
    let mission = "activity = \"sea_transport\"\nfactors = 11";
    let combat =
        |losses: u32| format!("[naval.combat]\nmodel = \"strength\"\nmax_rounds = 1\nlosses_percent = {losses}\n");
    assert_eq!(exact(&scenario(mission, &groups, &combat(20)), "group.r.reached"), 0.0);
    assert!(close(exact(&scenario(mission, &groups, &combat(0)), "group.r.reached"), 0.65 * 7.0 / 12.0));
}

/// N-8.5, A-3, N-1.2: interception range. Under `max_range = "largest_roll"` a group whose hex lies beyond
/// its largest first move (1 die, 6 hexes, against 7) may not attempt at all. Under the default it rolls,
/// falls short and closes in one die in a 2-round combat: sum over its first move m of P(die >= 7 - m) / 6
/// = 21/36.
#[test]
fn interception_range_may_rule_out_a_group() {
    let groups = group("g", "m", 0, "") + &group("j", "m", 7, "");
    let combat = "[naval.combat]\np_end_after_round = 0.0\nmax_rounds = 2\n";
    let unlimited = scenario("", &groups, combat);
    assert!(close(exact(&unlimited, "group.j.joined_late"), 21.0 / 36.0));
    let limited = scenario("", &groups, &format!("{combat}[naval.rules]\nmax_range = \"largest_roll\"\n"));
    assert_eq!(limited.rules.describe()["groups"][1]["in_range"], false);
    assert_eq!(exact(&limited, "group.j.rolled"), 0.0);
    assert_eq!(exact(&limited, "group.j.joined_late"), 0.0);
}

/// A-9: with retargeting on, a delayed group that missed a combat the mission won rolls its dice again
/// for a hex further on, one more interception hex against the same force (N-2.3, case b). `j` (1 die,
/// 7 hexes) cannot reach in the first round and a 1-round combat gives it no delayed roll; the combat goes
/// to each side with 1/2. If the mission won (1/2), `j` rolls for a hex 3 further on (4/6) and fights it
/// again: P(caught further on) = 1/3, and the mission goes home with 1/2 + 1/3 * 1/2 = 2/3. Under
/// `abandon = "once_decided"` `j` gives up instead, once the combat it was closing on ended without it,
/// whoever won: always (issue 36 item 1; it was counted only when the mission won).
#[test]
fn a_delayed_group_may_retarget_a_hex_further_on() {
    let groups = group("g", "m", 0, "") + &group("j", "m", 7, "retarget_distance = 3");
    let combat = "[naval.combat]\nmax_rounds = 1\n";
    let keeps_hex = scenario("", &(group("g", "m", 0, "") + &group("j", "m", 7, "")), combat);
    assert!(keeps_hex.rules.metrics().defs().iter().all(|d| d.name != "mission.caught_further_on"));
    let retargets = scenario("", &groups, &format!("{combat}[naval.delayed]\nretarget = true\n"));
    assert!(close(exact(&retargets, "mission.caught_further_on"), 1.0 / 3.0));
    assert!(close(exact(&retargets, "mission.returned"), 2.0 / 3.0));
    let gives_up =
        scenario("", &groups, &format!("{combat}[naval.delayed]\nretarget = true\nabandon = \"once_decided\"\n"));
    assert_eq!(exact(&gives_up, "mission.caught_further_on"), 0.0);
    assert_eq!(exact(&gives_up, "group.j.abandoned"), 1.0);
}

/// Issue 36 item 1, N-15.1 with N-17.2: under `abandon = "once_decided"` a delayed group whose combat ends
/// without it gives up and goes home as an abort, so a return-leg group can meet it. `j` (1 die, 7 hexes)
/// never arrives in a 1-round combat, so it gives up every time; `r`, waiting on its way home at distance 0,
/// always reaches and fights it. Under `never` it does not give up, is not going home, and `r` meets nobody.
#[test]
fn a_delayed_group_that_gives_up_once_decided_goes_home_as_an_abort() {
    let groups = group("g", "m", 0, "") + &group("j", "m", 7, "") + &group("r", "j", 0, "leg = \"return\"");
    let combat = "[naval.combat]\nmax_rounds = 1\n";
    let decided = scenario("", &groups, &format!("{combat}[naval.delayed]\nabandon = \"once_decided\"\n"));
    assert_eq!(exact(&decided, "group.j.abandoned"), 1.0);
    assert_eq!(exact(&decided, "group.r.fought"), 1.0);
    let never = scenario("", &groups, combat);
    assert_eq!(exact(&never, "group.r.fought"), 0.0);
}

/// Issue 36 item 9, N-8.5 and A-3 under `movement = "highest"`: the largest first move is one die's 6 however many
/// dice the group rolls; only the sum rule gives 6 hexes a die. With 2 dice (a base change, N-4) a hex 8
/// away is in range under `sum` (12 hexes at most) and out of range under `highest` (6), where the group
/// never rolls.
#[test]
fn interception_range_under_the_highest_die_is_one_die() {
    let mission = "activity = \"base_change\"\nfactors = 20";
    let groups = group("j", "m", 8, "");
    let rules = |movement: &str| format!("[naval.rules]\nmax_range = \"largest_roll\"\nmovement = \"{movement}\"\n");
    let sum = scenario(mission, &groups, &rules("sum"));
    assert_eq!(sum.rules.describe()["groups"][0]["dice"], 2, "{}", sum.rules.describe()["groups"][0]);
    assert_ne!(sum.rules.describe()["groups"][0]["in_range"], false);
    assert!(exact(&sum, "group.j.rolled") > 0.0);
    let highest = scenario(mission, &groups, &rules("highest"));
    assert_eq!(highest.rules.describe()["groups"][0]["in_range"], false);
    assert_eq!(exact(&highest, "group.j.rolled"), 0.0);
}

/// Issue 36 item 2, N-17.1 with N-13.2 and `way_home.after = "any"`: a mission that carried out its purpose
/// stays completed when air turns it back on its way to a way-home combat, as it does when it loses that
/// combat. No group meets the raider on its way out, so it completes; going home, `r` (at distance 0) meets
/// it. Air attacks every force sailing to a combat and turns it back with 1/2: `r` turns back with 1/2 (no
/// combat), else the mission turns back with 1/2 (no combat), else they fight (1/4). Completed: 1 (it was
/// 1 - 1/2 x 1/2 = 3/4, the way-home turn-back counted as not completing); caught going home: 1/4.
#[test]
fn a_mission_turned_back_on_its_way_home_stays_completed() {
    let groups = group("r", "m", 0, "leg = \"return\"");
    let tables = "[naval.air]\np_attack_en_route = 1.0\np_turn_back = 0.5\n[naval.way_home]\nafter = \"any\"\n";
    let s = scenario("", &groups, tables);
    assert_eq!(exact(&s, "mission.completed"), 1.0);
    assert_eq!(exact(&s, "mission.returned"), 0.0);
    assert!(close(exact(&s, "mission.caught_going_home"), 0.25));
}

/// Issue 36 item 6, N-9.2 and A-10 with `way_home.after = "any"`: groups sent home because no group reached the hex
/// never got to sea (their interception failed without combat), so a return-leg group aimed at one meets
/// nobody. `j` (1 die, 7 hexes) is the only group after the raider and never reaches; `r` waits for `j` on its
/// way home at distance 0 and would always reach a force that is at sea.
#[test]
fn groups_sent_home_because_nobody_reached_are_not_met_going_home() {
    let groups = group("j", "m", 7, "") + &group("r", "j", 0, "leg = \"return\"");
    let s = scenario("", &groups, "[naval.way_home]\nafter = \"any\"\n");
    assert_eq!(exact(&s, "mission.intercepted"), 0.0);
    assert_eq!(exact(&s, "group.r.fought"), 0.0);
}

/// Issue 36 item 5, N-14.3: a deferring group that joins its fellow's combat "afterwards goes on with that
/// group". `d` (1 die, 5 hexes to its own hex) defers to `f`'s combat with `h` and joins it at once (on its
/// path, 0 hexes off); `f` and `d` win it (the intercepting side, `h`, never wins). Under `closest` (the
/// default) `d` goes on with `f`, which is at the raider's hex: it is there from the start of that combat and
/// never closes in late. Under `fixed`, the earlier reading kept as a named alternative, it goes on from its
/// own first roll r: there if r >= 5 (1/3), else 5 - r hexes short, closing in by one die after the first of
/// two rounds: (1/6)(P(die >= 4) + P(>= 3) + P(>= 2) + P(>= 1)) = (1/6)(3 + 4 + 5 + 6)/6 = 1/2.
#[test]
fn a_deferrer_that_joined_goes_on_with_its_fellow() {
    let groups = group("f", "m", 0, "") + &group("d", "m", 5, "defer_to = \"f\"") + &group("h", "f", 0, "");
    let combat = "[naval.combat]\np_intercepting_side_wins = 0.0\np_end_after_round = 0.0\nmax_rounds = 2\n";
    let with_fellow = scenario("", &groups, combat);
    assert_eq!(exact(&with_fellow, "group.d.joined_deferred"), 1.0);
    assert_eq!(exact(&with_fellow, "group.d.joined_late"), 0.0);
    let fixed = scenario("", &groups, &format!("{combat}[naval.deferral]\nplacement = \"fixed\"\n"));
    assert_eq!(exact(&fixed, "group.d.joined_deferred"), 1.0);
    assert!(close(exact(&fixed, "group.d.joined_late"), 0.5));
}

/// Issue 51 item 11 (a), N-8.5 with N-5.8 and N-17.2: the interception range is judged on the dice a group
/// actually rolls. The raider (10 factors, not small: N-5.8's threshold is under 10) completes its mission,
/// goes home (`way_home.after = "any"`, N-17.3), and air attacks it on the way with 1/2, taking 20% of its
/// factors: 8 left, a small force. `r` waits for it on the way home 7 hexes out with 2 dice (12 hexes at
/// most: in range); against the small force it would roll 1 die (6 hexes at most), so under
/// `max_range = "largest_roll"` it does not attempt then.
/// - rolled: 1/2 (only when the raider was not attacked);
/// - movement, over the trials it rolled, 2 dice capped at 7: (2 + 2*3 + 3*4 + 4*5 + 5*6 + 21*7)/36 = 217/36.
///
/// Under `unlimited` it rolls its one die too: rolled 1, movement (217/36 + 7/2)/2 = 343/72, what the range
/// judged on the configured dice gave under `largest_roll` before.
#[test]
fn interception_range_is_judged_on_the_dice_a_group_rolls() {
    let groups = group("r", "m", 7, "leg = \"return\"");
    let tables = "[naval.rules]\nmax_range = \"largest_roll\"\n[naval.way_home]\nafter = \"any\"\n\
                  [naval.air]\np_attack_going_home = 0.5\nlosses_percent = 20\n";
    let s = scenario("activity = \"raider\"\nfactors = 10", &groups, tables);
    assert_eq!(s.rules.describe()["groups"][0]["dice"], 2, "{}", s.rules.describe()["groups"][0]);
    assert!(close(exact(&s, "mission.completed"), 1.0));
    assert!(close(exact(&s, "group.r.rolled"), 0.5));
    assert!(close(exact(&s, "group.r.movement"), 217.0 / 36.0));
    let unlimited =
        scenario("activity = \"raider\"\nfactors = 10", &groups, &tables.replace("largest_roll", "unlimited"));
    assert!(close(exact(&unlimited, "group.r.rolled"), 1.0));
    assert!(close(exact(&unlimited, "group.r.movement"), 343.0 / 72.0));
}

/// Issue 51 item 11 (b), N-14.3's `fixed` placement with N-15.1's `once_decided`: a deferring group under
/// `fixed` carries on as if it had never deferred, so when it misses its fellow's combat it still heads for
/// its own hex from its first roll, and gives up only once the combat there ends without it. `g` holds the
/// raider in a 2-round combat (so one delayed roll, after round 1); `d` (1 die, 4 hexes) defers to `f`'s
/// combat with `h`, waiting 2 hexes from it (`fixed`): it joins with a die of 2+, 5/6, and then shares `f`'s
/// fate, beaten with 1/2 (N-16.4's fixed odds) and sent home. It goes on when it missed (1/6) or joined and
/// won (5/12): 7/12. Then it stands 4 - m hexes from its own hex after a first roll m: there at once with 3/6
/// (m = 4); else with 1/6 each m = 1, 2, 3, needing 3+, 2+, 1+ on its one delayed roll.
/// - joined_deferred = 5/6;
/// - joined_late = 7/12 x (1/6)(4/6 + 5/6 + 6/6) = 7/12 x 15/36 = 35/144;
/// - abandoned (once the raider's combat ends without it) = 7/12 x (1/6)(2/6 + 1/6 + 0) = 7/144.
#[test]
fn a_fixed_deferrer_that_misses_heads_for_its_own_hex_until_that_combat_is_decided() {
    let groups = group("g", "m", 0, "")
        + &group("f", "m", 0, "")
        + &group("d", "m", 4, "defer_to = \"f\"\ndefer_along = 2\ndefer_distance = 2")
        + &group("h", "f", 0, "");
    let combat = "[naval.combat]\np_end_after_round = 0.0\nmax_rounds = 2\n";
    let tables =
        format!("{combat}[naval.deferral]\nplacement = \"fixed\"\n[naval.delayed]\nabandon = \"once_decided\"\n");
    let s = scenario("", &groups, &tables);
    assert!(close(exact(&s, "group.d.joined_deferred"), 5.0 / 6.0));
    assert!(close(exact(&s, "group.d.joined_late"), 35.0 / 144.0));
    assert!(close(exact(&s, "group.d.abandoned"), 7.0 / 144.0));
}
