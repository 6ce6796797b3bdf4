//! The readings of the later steps of the sequence of play, each a config value with the text's reading as
//! default: where a deferring group stands ([`DeferralConfig`], N-14.3), what delayed interceptions may do
//! and suffer ([`DelayedConfig`], N-15, A-9), and how often a force going home may be met
//! ([`WayHomeConfig`], N-17, A-20).

use serde::{Deserialize, Serialize};

use crate::config::{Invalid, KeyPath, in_range};

/// Where a deferring group is placed on its path when it defers (N-14.3).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// As close to the counter-interception hex as its first roll allows (seed 10.2.2).
    #[default]
    Closest,
    /// As far along its path toward its own interception hex as its first roll allows.
    Furthest,
    /// The reading before the text was implemented: it waits `defer_distance` hexes from the combat whatever
    /// its roll, and if it misses the combat it carries on as if it had never deferred.
    Fixed,
}

/// `[naval.deferral]`: groups that defer to join a counter-interception combat (N-14).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeferralConfig {
    /// Where a deferring group stands after its first roll: `closest` to the combat its roll allows,
    /// `furthest` along its path toward its own hex, or `fixed`, `defer_distance` hexes from the combat
    /// whatever its roll (the earlier reading) (N-14.3).
    #[serde(default)]
    pub placement: Placement,
}

/// When the counter-interceptors aimed at a group that fell short get their chance (N-15.3).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DelayedCounter {
    /// After each of its delayed rolls, with the combat fought at once (seed 10.3.1).
    #[default]
    AfterEachRoll,
    /// With the other counter-interceptions, fought before the combat at its hex starts (the earlier reading).
    BeforeCombat,
}

/// When a delayed interception gives up (N-15.1: "or abandon the attempt").
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Abandon {
    /// It keeps rolling while the combat it heads for gives it rounds.
    #[default]
    Never,
    /// After `abandon_after` delayed rolls that did not bring it to its hex.
    AfterRolls,
    /// Once the combat it heads for ends without it: a deferring group does not go on to its own hex, and no
    /// group retargets.
    OnceDecided,
}

/// `[naval.delayed]`: delayed interceptions (N-15) and retargeting.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DelayedConfig {
    /// When the counter-interceptors aimed at a group that fell short roll: `after_each_roll` of its
    /// delayed rolls, the combat fought at once, or `before_combat`, with the other counter-interceptions
    /// (the earlier reading) (N-15.3).
    #[serde(default)]
    pub counter_interception: DelayedCounter,
    /// When a delayed interception gives up and goes home: `never` while its combat gives it rounds,
    /// `after_rolls` after `abandon_after` rolls, or `once_decided` when that combat ends without it (N-15.1).
    #[serde(default)]
    pub abandon: Abandon,
    /// With `abandon = "after_rolls"`: the delayed rolls it makes before giving up.
    #[serde(default = "one")]
    pub abandon_after: i64,
    /// a delayed group that missed the combat at its hex, whose target won and sailed on, rolls its dice
    /// once more for a hex further along the target's route (`group.retarget_distance` hexes on).
    #[serde(default)]
    pub retarget: bool,
}

impl Default for DelayedConfig {
    fn default() -> Self {
        DelayedConfig {
            counter_interception: DelayedCounter::AfterEachRoll,
            abandon: Abandon::Never,
            abandon_after: 1,
            retarget: false,
        }
    }
}

/// Which forces going home may be intercepted on the way (N-17.2).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HomeAfter {
    /// A force beaten in combat, turned back by air, or aborting (seed step 12).
    #[default]
    DefeatOrAbort,
    /// Any force that was at sea, winners and a mission that carried out its purpose included (N-2.3c,
    /// N-17.3).
    Any,
}

/// `[naval.way_home]`: interceptions of forces going home (N-17.2, N-17.4, A-20).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WayHomeConfig {
    /// The most interception hexes on a force's way home; `group.return_hex` picks one of them.
    #[serde(default = "one")]
    pub max_interceptions: i64,
    /// Which forces going home groups with `leg = "return"` may meet: `defeat_or_abort` (beaten, turned back
    /// by air, aborting or giving up) or `any`, winners and a mission that carried out its purpose too
    /// (N-17.2, N-17.3).
    #[serde(default)]
    pub after: HomeAfter,
}

impl Default for WayHomeConfig {
    fn default() -> Self {
        WayHomeConfig { max_interceptions: 1, after: HomeAfter::DefeatOrAbort }
    }
}

fn one() -> i64 {
    1
}

impl DelayedConfig {
    pub(super) fn check(&self, path: impl Fn() -> KeyPath) -> Result<(), Invalid> {
        in_range(self.abandon_after, 1, 20, || path().key("abandon_after"))?;
        // A key that does nothing in its combination is refused, as `return_hex` on the way out is, rather
        // than ignored: the designer meant something by it.
        if self.abandon_after != 1 && self.abandon != Abandon::AfterRolls {
            let msg = "applies only with naval.delayed.abandon = \"after_rolls\" (N-15.1); allowed here: 1 or left out";
            return Err(Invalid::new(path().key("abandon_after"), msg.into()));
        }
        Ok(())
    }
}

impl WayHomeConfig {
    pub(super) fn check(&self, path: impl Fn() -> KeyPath) -> Result<(), Invalid> {
        in_range(self.max_interceptions, 1, 8, || path().key("max_interceptions"))
    }
}
