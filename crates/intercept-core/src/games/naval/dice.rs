//! Dice into movement: the number of interception dice of a group (N-4..N-6) and the distribution of the
//! hexes it moves (N-7, N-8), each built once at resolve time as one [`Dist`] node.
//!
//! The movement node's outcome is the number of hexes moved toward the interception hex, capped at the
//! distance: the sum (or highest) of n d6 is convolved exactly, halved in the Pacific, and every total at or
//! beyond the hex is one outcome, since the rules only ask whether the hex is reached and, if not, how far the
//! group got (N-8.4, N-9.1). That keeps the exact tree small without losing anything a rule reads.

use super::config::{Activity, GroupConfig, Leg, MoveRule, NavalConfig, Origin, Theater};
use crate::chance::Dist;

/// How a group's dice count came about, for `validate`, the report and the T-5 examples.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DiceCount {
    pub base: i64,
    pub modifiers: i64,
    /// Base plus modifiers, clamped to 0..=max_dice (N-6.1, A-5).
    pub dice: u32,
    /// The modifiers that apply, by name, in the order of N-5: what `modifiers` adds up.
    #[serde(skip)]
    pub terms: Vec<(&'static str, i64)>,
}

/// The interception dice of group `g` at `level`, whose target has `target_factors` factors (N-4, N-5, N-6).
pub fn dice_count(cfg: &NavalConfig, g: &GroupConfig, level: usize, target_factors: i64) -> DiceCount {
    let r = &cfg.rules;
    let base = match (g.leg, level) {
        (Leg::Return, _) => r.base_dice(Activity::ReturningToBase), // N-17.2
        (Leg::Out, 1) => r.base_dice(cfg.mission.activity),         // N-4
        (Leg::Out, _) => r.counter_from_port,                       // N-4, N-4.1
    };
    let when = |yes: bool, n: i64| if yes { n } else { 0 };
    let terms: Vec<(&'static str, i64)> = [
        ("spotting", g.spotting.min(r.spotting_max)),           // N-5.1
        ("codebreaking", when(g.codebreaking, r.codebreaking)), // N-5.2
        ("mission hex", when(g.in_mission_hex, r.mission_hex)), // N-5.3
        ("in the interception hex", when(g.at_interception_hex, r.counter_in_interception_hex)), // N-5.4
        ("slow ships", when(g.slow_ships, r.slow_ships)),       // N-5.5
        ("submarine", when(g.submarine && g.origin != Origin::Patrol, r.submarine)), // N-5.6
        ("non-operational port", when(!g.port_operational && !g.submarine, r.nonoperational_port)), // N-5.7
        ("small enemy force", when(target_factors < r.small_force_threshold, r.small_force)), // N-5.8
    ]
    .into_iter()
    .filter(|&(_, n)| n != 0)
    .collect();
    let modifiers = terms.iter().map(|&(_, n)| n).sum::<i64>();
    let dice = (base + modifiers).clamp(0, r.max_dice) as u32;
    DiceCount { base, modifiers, dice, terms }
}

/// Whether dice totals are halved (rounding up) in this scenario (N-8.2).
pub fn halved(cfg: &NavalConfig) -> bool {
    cfg.theater == Theater::Pacific && cfg.rules.pacific_halving
}

/// The exact distribution of the dice result of `n` d6: weights indexed by the total (or highest die).
pub fn dice_weights(n: u32, rule: MoveRule) -> Vec<u64> {
    match rule {
        MoveRule::Sum => (0..n).fold(vec![1u64], |acc, _| convolve_d6(&acc)),
        MoveRule::Highest if n == 0 => vec![1],
        MoveRule::Highest => {
            (0..=6u32).map(|k| if k == 0 { 0 } else { k.pow(n) as u64 - (k - 1).pow(n) as u64 }).collect()
        }
    }
}

fn convolve_d6(acc: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; acc.len() + 6];
    for (s, w) in acc.iter().enumerate() {
        for face in 1..=6 {
            out[s + face] += w;
        }
    }
    out
}

/// Hexes moved toward the hex, capped at `distance`: outcome `m` of the returned node (N-8.2, N-8.4).
pub fn movement_dist(weights: &[u64], halve: bool, distance: u32) -> Dist {
    let mut capped = vec![0u64; distance as usize + 1];
    for (total, w) in weights.iter().enumerate() {
        let moved = if halve { total.div_ceil(2) } else { total };
        capped[moved.min(distance as usize)] += w;
    }
    Dist::from_weights(&capped)
}

/// A group's first-round movement node toward a hex `distance` away: a patrol moves its fixed hexes without
/// a roll and without halving (N-7, A-7); any other group rolls its dice (N-8), and 0 dice reach only the
/// base hex (N-6.3).
pub fn first_move(cfg: &NavalConfig, g: &GroupConfig, dice: u32, distance: u32) -> Dist {
    if g.origin == Origin::Patrol {
        let moved = (cfg.rules.patrol_auto_move as u32).min(distance);
        let mut weights = vec![0u64; distance as usize + 1];
        weights[moved as usize] = 1;
        return Dist::from_weights(&weights);
    }
    movement_dist(&dice_weights(dice, cfg.rules.movement), halved(cfg), distance)
}

/// The one-die step of a delayed interception with `remaining` hexes to go: 1..6, or 1,1,2,2,3,3 in the
/// Pacific, capped at `remaining` (N-15.1).
pub fn delayed_step(halve: bool, remaining: u32) -> Dist {
    movement_dist(&dice_weights(1, MoveRule::Sum), halve, remaining)
}

/// P(reach) by dice count (rows `0..=8`) and distance (columns `1..=max_distance`), under `rule`, halved or
/// not: the table a player reads before sending a group out (N-8).
pub fn reach_table(rule: MoveRule, halve: bool, max_distance: u32) -> Vec<Vec<f64>> {
    (0..=8u32)
        .map(|n| {
            let weights = dice_weights(n, rule);
            (1..=max_distance).map(|d| movement_dist(&weights, halve, d).probability(d as usize)).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p_reach(n: u32, distance: u32, halve: bool, rule: MoveRule) -> f64 {
        movement_dist(&dice_weights(n, rule), halve, distance).probability(distance as usize)
    }

    #[test]
    fn t1_sum_rule_europe() {
        assert_eq!(p_reach(1, 4, false, MoveRule::Sum), 1.0 / 2.0);
        assert_eq!(p_reach(1, 3, false, MoveRule::Sum), 2.0 / 3.0);
        assert!((p_reach(2, 5, false, MoveRule::Sum) - 5.0 / 6.0).abs() < 1e-15);
        assert!((p_reach(2, 7, false, MoveRule::Sum) - 7.0 / 12.0).abs() < 1e-15);
    }

    #[test]
    fn t2_pacific_halving() {
        assert!((p_reach(2, 4, true, MoveRule::Sum) - 7.0 / 12.0).abs() < 1e-15);
        assert!((p_reach(4, 7, true, MoveRule::Sum) - 287.0 / 432.0).abs() < 1e-15);
    }

    #[test]
    fn t3_zero_dice_reach_only_the_base_hex() {
        assert_eq!(p_reach(0, 0, false, MoveRule::Sum), 1.0);
        assert_eq!(p_reach(0, 1, false, MoveRule::Sum), 0.0);
    }

    #[test]
    fn t6_highest_die_reading() {
        assert!((p_reach(4, 6, false, MoveRule::Highest) - 671.0 / 1296.0).abs() < 1e-15);
        assert!((p_reach(8, 6, false, MoveRule::Highest) - 1_288_991.0 / 1_679_616.0).abs() < 1e-15);
    }

    #[test]
    fn delayed_pacific_step_is_one_one_two_two_three_three() {
        let d = delayed_step(true, 3);
        assert_eq!((d.weight(1), d.weight(2), d.weight(3)), (2, 2, 2));
    }
}
