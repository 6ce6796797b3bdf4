//! `[naval.combat]`, `[naval.air]` and `[naval.submarine]`: how combats, air attacks and submarine attacks
//! come out (N-13, N-16, N-19, A-18).
//!
//! [`CombatConfig`] chooses a [`CombatModel`]: the fixed chance of the published reading (default, so every
//! result from before the strength model stays), or the strength model, where each round goes to a side by
//! the ratio of the factors present, through designer-editable [`RatioBand`]s, and the side that loses a
//! round loses a share of its factors.

use serde::{Deserialize, Serialize};

use crate::config::{Invalid, KeyPath, in_range, probability};

/// How a naval combat is decided (N-16.4, A-18).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CombatModel {
    /// The intercepting side wins with `p_intercepting_side_wins`, whatever the forces.
    #[default]
    Fixed,
    /// Each round goes to the intercepting side with the chance of the ratio band its factors fall in; the
    /// side that loses a round loses `losses_percent` of its factors; the side that loses the last round
    /// withdraws and loses the combat.
    Strength,
}

/// `[[naval.combat.band]]`: from this ratio of factors up (intercepting side : intercepted side), the
/// intercepting side wins a round with `p_win`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatioBand {
    /// The lowest ratio of factors present (intercepting side : intercepted side) this band applies to: 0
    /// for the first band, each next band's higher (N-16.4).
    pub ratio: f64,
    /// The chance, from 0 to 1, that the intercepting side wins a round whose ratio falls in this band
    /// (N-16.4).
    pub p_win: f64,
}

/// `[naval.combat]`: how long a naval combat lasts and who wins (N-16.4, A-18).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatConfig {
    /// Who wins a naval combat: `fixed`, the intercepting side with `p_intercepting_side_wins` whatever the
    /// forces, or `strength`, round by round through the ratio bands, with losses (N-16.4, A-18).
    #[serde(default)]
    pub model: CombatModel,
    /// Fixed model: the intercepting side's chance to win a combat, from 0 to 1 (N-16.4).
    #[serde(default = "half")]
    pub p_intercepting_side_wins: f64,
    /// The chance, from 0 to 1, that a naval combat ends after each round, under either model (N-16.4,
    /// A-18); the higher, the shorter combats are and the fewer rounds latecomers get to join (N-15.4).
    #[serde(default = "half")]
    pub p_end_after_round: f64,
    /// The most rounds a naval combat lasts, 1 to 20 (N-16.4, A-18); a combat of R rounds gives a group
    /// that fell short at most R - 1 useful delayed rolls (N-15.4).
    #[serde(default = "default_max_rounds")]
    pub max_rounds: i64,
    /// Strength model: the ratio bands, 1 to 16, lowest ratio first; the first starts at 0 (N-16.4).
    #[serde(default = "default_bands")]
    pub band: Vec<RatioBand>,
    /// Strength model: each group (and the force met) on the side that loses a round loses this percentage
    /// of its factors, 0 to 100, rounded up (N-16.4).
    #[serde(default = "default_round_losses")]
    pub losses_percent: i64,
}

impl Default for CombatConfig {
    fn default() -> Self {
        CombatConfig {
            model: CombatModel::Fixed,
            p_intercepting_side_wins: 0.5,
            p_end_after_round: 0.5,
            max_rounds: default_max_rounds(),
            band: default_bands(),
            losses_percent: default_round_losses(),
        }
    }
}

/// `[naval.air]`: air attacks on each force sailing to a combat and going home (N-13); off by default.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AirConfig {
    /// The chance, from 0 to 1, that each force sailing to a combat is attacked by enemy air on the way
    /// (N-13.1, N-13.2); 0, the default, means never.
    #[serde(default)]
    pub p_attack_en_route: f64,
    /// Chance, from 0 to 1, that an attacked force on its way to a combat turns back and goes home (N-13.2).
    #[serde(default)]
    pub p_turn_back: f64,
    /// Chance, from 0 to 1, that a force going home is attacked on the way (N-13.1, N-17.2).
    #[serde(default)]
    pub p_attack_going_home: f64,
    /// Percentage of its factors, 0 to 100, an attacked force loses, rounded up (N-13.2); it can make the
    /// force a small force (N-5.8) and weakens it under the strength model.
    #[serde(default)]
    pub losses_percent: i64,
}

/// `[naval.submarine]`: a submarine that reaches its hex makes its own attack (N-19).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmarineConfig {
    /// The chance, from 0 to 1, that a submarine group that reaches its hex makes a successful attack of its
    /// own; submarines do not join the surface combat (N-19).
    #[serde(default = "half")]
    pub p_attack_succeeds: f64,
}

impl Default for SubmarineConfig {
    fn default() -> Self {
        SubmarineConfig { p_attack_succeeds: 0.5 }
    }
}

/// The default ratio bands: even odds at 1:1, 0.35 and 0.65 at 1:2 and 2:1, 0.2 and 0.8 beyond 1:2 and from
/// 3:1. Our reading, in the spirit of the odds columns of a combat results table; the published Naval Attack
/// Table works by effects, not by ratio (N-16.3).
fn default_bands() -> Vec<RatioBand> {
    [(0.0, 0.2), (0.5, 0.35), (1.0, 0.5), (2.0, 0.65), (3.0, 0.8)]
        .into_iter()
        .map(|(ratio, p_win)| RatioBand { ratio, p_win })
        .collect()
}

fn default_round_losses() -> i64 {
    20
}
fn default_max_rounds() -> i64 {
    3
}
fn half() -> f64 {
    0.5
}

/// Factors left after losing `percent` of `factors`, rounded up, so any loss at all costs at least a factor.
pub fn after_losses(factors: u16, percent: u8) -> u16 {
    let lost = (u32::from(factors) * u32::from(percent)).div_ceil(100);
    factors - lost as u16
}

impl CombatConfig {
    pub(super) fn check(&self, path: impl Fn() -> KeyPath) -> Result<(), Invalid> {
        let key = |k: &str| path().key(k);
        probability(self.p_intercepting_side_wins, || key("p_intercepting_side_wins"))?;
        probability(self.p_end_after_round, || key("p_end_after_round"))?;
        in_range(self.max_rounds, 1, 20, || key("max_rounds"))?;
        in_range(self.losses_percent, 0, 100, || key("losses_percent"))?;
        self.check_bands(|| key("band"))
    }

    /// Bands start at ratio 0 and rise strictly, so every ratio falls in exactly one.
    fn check_bands(&self, path: impl Fn() -> KeyPath) -> Result<(), Invalid> {
        if self.band.is_empty() || self.band.len() > 16 {
            return Err(Invalid::new(path(), format!("{} bands; allowed: 1 to 16", self.band.len())));
        }
        for (i, b) in self.band.iter().enumerate() {
            probability(b.p_win, || path().index(i).key("p_win"))?;
            let lowest = if i == 0 { 0.0 } else { self.band[i - 1].ratio };
            let rises = if i == 0 { b.ratio == 0.0 } else { b.ratio > lowest && b.ratio.is_finite() };
            if !rises {
                let (why, allowed) = match i {
                    0 => ("the first band must start at 0", "0".to_owned()),
                    _ => ("bands must rise, each above the one before", format!("above {lowest}")),
                };
                let msg = format!("{}: {why}; allowed: {allowed}", b.ratio);
                return Err(Invalid::new(path().index(i).key("ratio"), msg));
            }
        }
        Ok(())
    }
}

impl AirConfig {
    pub(super) fn check(&self, path: impl Fn() -> KeyPath) -> Result<(), Invalid> {
        probability(self.p_attack_en_route, || path().key("p_attack_en_route"))?;
        probability(self.p_turn_back, || path().key("p_turn_back"))?;
        probability(self.p_attack_going_home, || path().key("p_attack_going_home"))?;
        in_range(self.losses_percent, 0, 100, || path().key("losses_percent"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_round_up_and_never_exceed_the_force() {
        assert_eq!(after_losses(20, 20), 16);
        assert_eq!(after_losses(11, 20), 8, "2.2 factors lost, rounded up to 3");
        assert_eq!(after_losses(3, 100), 0);
        assert_eq!(after_losses(7, 0), 7);
    }
}
