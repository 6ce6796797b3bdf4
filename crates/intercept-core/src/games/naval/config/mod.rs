//! The `[naval]` config as written, with the published defaults of every rule value.
//!
//! [`NavalConfig`] mirrors the TOML (unknown keys rejected, defaults filled by serde); [`NavalRules`] holds every
//! number of rules N-4..N-8 under `[naval.rules]` so a designer can rebalance it. The tables of combat
//! ([`combat`]) and of the later steps of the sequence of play ([`sequence`]) have files of their own, and
//! [`check`] validates the whole before [`NavalConfig::resolve`] builds the [`Naval`](super::Naval) model.

mod check;
pub mod combat;
pub mod sequence;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use self::combat::{AirConfig, CombatConfig, CombatModel, RatioBand, SubmarineConfig};
pub use self::sequence::{Abandon, DeferralConfig, DelayedConfig, DelayedCounter, HomeAfter, Placement, WayHomeConfig};

/// `[naval]`: one mission force and the groups that intercept it, counter-intercept them, and so on.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NavalConfig {
    #[serde(default)]
    pub theater: Theater,
    /// Deepest level a chain may reach: 1 interception, 2 counter-interception, 3 counter-counter (N-11.2).
    #[serde(default = "default_max_depth")]
    pub max_depth: i64,
    pub mission: MissionConfig,
    #[serde(default)]
    pub group: Vec<GroupConfig>,
    #[serde(default)]
    pub combat: CombatConfig,
    #[serde(default)]
    pub air: AirConfig,
    #[serde(default)]
    pub submarine: SubmarineConfig,
    #[serde(default)]
    pub deferral: DeferralConfig,
    #[serde(default)]
    pub delayed: DelayedConfig,
    #[serde(default)]
    pub way_home: WayHomeConfig,
    #[serde(default)]
    pub rules: NavalRules,
}

/// Europe or Pacific: dice-generated movement is halved in the Pacific (N-8.2).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Theater {
    #[default]
    Europe,
    Pacific,
}

/// What the moving player's force is doing: it sets the interceptors' base dice (N-4).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Activity {
    Raider,
    BaseChange,
    Patrol,
    CarrierMission,
    NavalNr,
    Displaced,
    ReturningToBase,
    SeaSupply,
    SeaTransport,
    SeaborneInvasion,
    ShoreBombardment,
    SeaEscort,
    ConvoyRoute,
    PatrolInHex,
}

impl Activity {
    pub const ALL: [Activity; 14] = [
        Activity::Raider,
        Activity::BaseChange,
        Activity::Patrol,
        Activity::CarrierMission,
        Activity::NavalNr,
        Activity::Displaced,
        Activity::ReturningToBase,
        Activity::SeaSupply,
        Activity::SeaTransport,
        Activity::SeaborneInvasion,
        Activity::ShoreBombardment,
        Activity::SeaEscort,
        Activity::ConvoyRoute,
        Activity::PatrolInHex,
    ];

    /// The published base dice to intercept this activity (N-4).
    pub fn published_base_dice(self) -> i64 {
        match self {
            Activity::Raider => 1,
            Activity::BaseChange
            | Activity::Patrol
            | Activity::CarrierMission
            | Activity::NavalNr
            | Activity::Displaced
            | Activity::ReturningToBase => 2,
            Activity::SeaSupply
            | Activity::SeaTransport
            | Activity::SeaborneInvasion
            | Activity::ShoreBombardment
            | Activity::SeaEscort
            | Activity::ConvoyRoute => 4,
            Activity::PatrolInHex => 8,
        }
    }

    /// Whether the mission-hex bonus can apply (N-5.3).
    pub fn has_mission_hex(self) -> bool {
        matches!(self, Activity::SeaborneInvasion | Activity::ShoreBombardment)
    }
}

/// `[naval.mission]`: the moving player's force (level 0).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MissionConfig {
    #[serde(default = "default_mission_name")]
    pub name: String,
    pub activity: Activity,
    pub factors: i64,
}

/// Which side a group fights for. Levels alternate: the defender intercepts (level 1), the moving player
/// counter-intercepts (level 2), and so on (N-0).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Defender,
    Moving,
}

/// Where a group sails from: a port (it rolls dice) or its patrol hex (it moves 3 hexes in round 1, N-7).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    #[default]
    Port,
    Patrol,
}

/// What a group that falls short does when another group reached the hex (N-9.1).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OnFail {
    #[default]
    CloseIn,
    Abort,
}

/// Which leg of the target's voyage a group intercepts: its way out to its purpose, or its way home after a
/// defeat or an abort (N-17.2).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Leg {
    #[default]
    Out,
    Return,
}

/// `[[naval.group]]`: one task force, or the units sent together from one port (N-3).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GroupConfig {
    pub name: String,
    /// The mission's name, or another group's name (counter-interception).
    pub target: String,
    /// Optional: the side the group fights for; it must be the side opposite its target's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    #[serde(default)]
    pub origin: Origin,
    /// Hexes from its base to its interception hex (N-8.3).
    pub distance: i64,
    pub factors: i64,
    #[serde(default)]
    pub submarine: bool,
    #[serde(default)]
    pub slow_ships: bool,
    #[serde(default = "yes")]
    pub port_operational: bool,
    /// Spotting factors (N-5.1), capped by `rules.spotting_max`.
    #[serde(default)]
    pub spotting: i64,
    #[serde(default)]
    pub codebreaking: bool,
    #[serde(default)]
    pub in_mission_hex: bool,
    /// A counter-interception aimed at its target's own interception hex: combined combat (N-10.3).
    #[serde(default)]
    pub at_interception_hex: bool,
    /// Held out of the fighting: not inverted afterwards (N-18.2).
    #[serde(default)]
    pub withheld: bool,
    #[serde(default)]
    pub on_fail: OnFail,
    /// `return`: it intercepts its target only on the way home, with the "returning to base" dice (N-17.2).
    #[serde(default)]
    pub leg: Leg,
    /// A fellow interceptor of the same force whose counter-interception combat this group defers to join
    /// (N-14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defer_to: Option<String>,
    /// Hexes along its path from its base to the hex nearest that combat (N-14.3); 0 by default.
    #[serde(default)]
    pub defer_along: i64,
    /// Hexes from that hex of its path to the combat: 0 if its path runs through it (N-14.2), else it closes
    /// in by one die a round after the first (N-14.3).
    #[serde(default)]
    pub defer_distance: i64,
    /// With `leg = "return"`: which interception hex on its target's way home, 1 the first (N-17.4, A-20).
    #[serde(default = "one")]
    pub return_hex: i64,
    /// With `naval.delayed.retarget`: hexes from where it stands to the further hex it retargets; by
    /// default its own `distance`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retarget_distance: Option<i64>,
}

/// How the dice become movement (N-8.1, A-1).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoveRule {
    #[default]
    Sum,
    Highest,
}

/// How far a group may be sent (N-8.5, A-3).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MaxRange {
    /// No limit beyond being able to reach the hex (A-3's recommended reading).
    #[default]
    Unlimited,
    /// A group whose hex lies beyond its largest possible first move (6 hexes a die in Europe, 3 in the
    /// Pacific, the patrol move, 0 with no dice) may not attempt at all: it neither rolls nor closes in.
    LargestRoll,
}

/// `[naval.rules]`: every number of the dice rules, with the published values (N-4..N-8).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct NavalRules {
    pub movement: MoveRule,
    pub max_range: MaxRange,
    pub max_dice: i64,
    pub pacific_halving: bool,
    pub patrol_auto_move: i64,
    pub spotting_max: i64,
    pub codebreaking: i64,
    pub mission_hex: i64,
    pub counter_in_interception_hex: i64,
    pub counter_from_port: i64,
    pub slow_ships: i64,
    pub submarine: i64,
    pub nonoperational_port: i64,
    pub small_force: i64,
    pub small_force_threshold: i64,
    /// Base dice by the intercepted force's activity; activities left out keep their published value.
    pub base_dice: BTreeMap<Activity, i64>,
}

impl Default for NavalRules {
    fn default() -> Self {
        NavalRules {
            movement: MoveRule::Sum,
            max_range: MaxRange::Unlimited,
            max_dice: 8,
            pacific_halving: true,
            patrol_auto_move: 3,
            spotting_max: 3,
            codebreaking: 1,
            mission_hex: 1,
            counter_in_interception_hex: 2,
            counter_from_port: 1,
            slow_ships: -1,
            submarine: -2,
            nonoperational_port: -2,
            small_force: -1,
            small_force_threshold: 10,
            base_dice: Activity::ALL.iter().map(|a| (*a, a.published_base_dice())).collect(),
        }
    }
}

impl NavalRules {
    /// Base dice to intercept `activity`, as configured.
    pub fn base_dice(&self, activity: Activity) -> i64 {
        self.base_dice.get(&activity).copied().unwrap_or(activity.published_base_dice())
    }
}

fn default_max_depth() -> i64 {
    3
}
fn default_mission_name() -> String {
    "mission".into()
}
fn yes() -> bool {
    true
}
fn one() -> i64 {
    1
}
