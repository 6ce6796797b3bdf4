//! The `[naval]` config as written, with the published defaults of every rule value.
//!
//! [`NavalConfig`] mirrors the TOML (unknown keys rejected, defaults filled by serde); [`NavalRules`] holds every
//! number of rules N-4..N-8 under `[naval.rules]` so a designer can rebalance it. The tables of combat
//! ([`combat`]) and of the later steps of the sequence of play ([`sequence`]) have files of their own, and
//! [`check`] validates the whole before [`NavalConfig::resolve`] builds the [`Naval`](super::Naval) model.

pub mod chart;
mod check;
mod choose;
pub mod combat;
pub mod map;
pub mod sequence;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use self::combat::{AirConfig, CombatConfig, CombatModel, RatioBand, SubmarineConfig};
pub use self::map::MapConfig;
pub use self::sequence::{Abandon, DeferralConfig, DelayedConfig, DelayedCounter, HomeAfter, Placement, WayHomeConfig};

/// `[naval]`: one mission force and the groups that intercept it, counter-intercept them, and so on.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NavalConfig {
    /// Whose question the answer puts first: `moving` (the default), the side whose mission sails, asking
    /// how often it completes its mission; or `defender`, the side whose groups intercept it, asking how
    /// often they catch it (a group reaches it, N-9.1). Every metric is reported either way; the answer's
    /// sentence and the order of the headline follow the side.
    #[serde(default)]
    pub side: Side,
    /// The map the interception is fought on: `europe`, or `pacific`, where every dice total is halved,
    /// rounding up, so groups move about half as far (N-8.2; see `rules.pacific_halving`).
    #[serde(default)]
    pub theater: Theater,
    /// Deepest level a chain may reach, 1 to 8: 1 interception, 2 counter-interception, 3 counter-counter
    /// (N-11.2).
    #[serde(default = "default_max_depth")]
    pub max_depth: i64,
    /// `[naval.map]`: the hex map the scenario is fought on, inline or from a map file. With a map, the
    /// mission declares its `route` and each group its `base` and `intercept_at`, and every distance, the
    /// interception-hex and mission-hex dice and where a deferring group stands come from the map (N-2,
    /// N-8.3); without one, each group's `distance` is typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<MapConfig>,
    /// `[naval.mission]`: the moving player's force (level 0), whose activity sets its interceptors' base
    /// dice (N-4) and whose factors can make it a small force (N-5.8).
    pub mission: MissionConfig,
    /// `[[naval.group]]`: one table per intercepting group, 1 to 32, each a task force or the units sent
    /// together from one port, with its own roll (N-3.1); its `target` sets its level (N-10, N-11).
    #[serde(default)]
    pub group: Vec<GroupConfig>,
    /// `[naval.combat]`: how long a naval combat lasts and who wins it, by a fixed chance or by the factors
    /// present (N-16.4, A-18).
    #[serde(default)]
    pub combat: CombatConfig,
    /// `[naval.air]`: air attacks on forces sailing to a combat or going home (N-13); every chance is 0 by
    /// default, which leaves them out.
    #[serde(default)]
    pub air: AirConfig,
    /// `[naval.submarine]`: the attack a submarine group makes when it reaches its hex (N-19).
    #[serde(default)]
    pub submarine: SubmarineConfig,
    /// `[naval.deferral]`: where a group that defers to join a counter-interception combat (`group.defer_to`)
    /// stands after its first roll (N-14.3).
    #[serde(default)]
    pub deferral: DeferralConfig,
    /// `[naval.delayed]`: what groups that fell short and roll one die a combat round to close in may do
    /// and suffer (N-15), and whether they may retarget a further hex.
    #[serde(default)]
    pub delayed: DelayedConfig,
    /// `[naval.way_home]`: which forces going home may be intercepted, and at how many hexes (N-17.2,
    /// N-17.4, A-20).
    #[serde(default)]
    pub way_home: WayHomeConfig,
    /// `[naval.rules]`: every number of the dice rules, with its published value, for a designer to change
    /// (N-4 to N-8).
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

    /// What a force on this activity is doing, as the help of its `rules.base_dice` entry says it.
    fn described(self) -> &'static str {
        match self {
            Activity::Raider => "a raider",
            Activity::BaseChange => "a base change",
            Activity::Patrol => "a patrol on the move (N-2.5)",
            Activity::CarrierMission => "a carrier on a mission",
            Activity::NavalNr => "a naval NR",
            Activity::Displaced => "displaced units",
            Activity::ReturningToBase => "units returning to base",
            Activity::SeaSupply => "sea supply",
            Activity::SeaTransport => "a sea transport",
            Activity::SeaborneInvasion => "a seaborne invasion",
            Activity::ShoreBombardment => "a shore bombardment",
            Activity::SeaEscort => "a sea escort",
            Activity::ConvoyRoute => "a convoy route",
            Activity::PatrolInHex => "a patrol staying on station in its patrol hex (N-2.5)",
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
    /// The mission's name: a group intercepts it by naming it as its `target`, and answers and the report
    /// call it by it; letters, digits, '-', '_' or '.', not a group's name.
    #[serde(default = "default_mission_name")]
    pub name: String,
    /// What the mission force is doing: it sets the base dice of the groups that intercept it
    /// (`rules.base_dice`, N-4), and only a `seaborne_invasion` or `shore_bombardment` allows the mission-hex
    /// die (N-5.3).
    pub activity: Activity,
    /// The mission force's naval factors, 0 to 999: under `rules.small_force_threshold` (10) its
    /// interceptors roll `rules.small_force` (-1) dice (N-5.8); under the strength model, its strength in
    /// combat (N-16.4).
    pub factors: i64,
    /// With a `[naval.map]`: the force's declared route hex by hex (N-2.1), from where it sails (a port, a
    /// box or a hex, by name or `CCRR` label) to where its mission takes it, each entry one move from the
    /// last, by sea, open strait, port or box. Its interceptors' `intercept_at` is one of its hexes after the
    /// first (N-2.2); the last is the mission hex (N-5.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub route: Vec<String>,
}

/// Which side a group fights for, or a scenario answers for. Levels alternate: the defender intercepts
/// (level 1), the moving player counter-intercepts (level 2), and so on (N-0).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The defender, whose groups intercept the mission force (N-2.2).
    Defender,
    /// The moving player, whose mission force sails (N-2.1).
    #[default]
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
    /// Names the group in its metrics (`group.<name>.reached`, ...) and for other groups' `target` and
    /// `defer_to`; letters, digits, '-', '_' or '.', unique among the groups and the mission.
    pub name: String,
    /// The mission's name, or another group's name (counter-interception).
    pub target: String,
    /// Optional: the side the group fights for; it must be the side opposite its target's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// `port`: it rolls its dice; `patrol`: it sails from its patrol hex and moves `rules.patrol_auto_move`
    /// (3) hexes in round 1 instead of rolling, and as a counter-interceptor needs `at_interception_hex`
    /// (N-7).
    #[serde(default)]
    pub origin: Origin,
    /// Hexes from its base to its interception hex, 0 to 99; 0 is its base hex, reached even with 0 dice
    /// (N-8.3, N-6.3). Without a map, required; with one, left out: the map gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<i64>,
    /// With a `[naval.map]`: where it sails from, a port or box by name (or, for `origin = "patrol"`, its
    /// patrol hex by label). Its distance is the hexes entered along the shortest legal sea path from there
    /// to `intercept_at` (N-8.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// With a `[naval.map]`: its interception hex, by label. For a group intercepting the mission, a hex of
    /// the mission's `route` after its first (N-2.2); for a counter-interception, a hex of its target's path
    /// from that target's base to its own interception hex, which may be that hex itself (+2 dice, one
    /// combined combat: N-2.4, N-5.4, N-10.3). All groups aimed at one force meet it at one hex (N-2.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intercept_at: Option<String>,
    /// The group's naval factors, 0 to 999: under `rules.small_force_threshold` (10) the groups that
    /// counter-intercept it roll `rules.small_force` (-1) dice (N-5.8, N-10.4); under the strength model, its
    /// strength in combat (N-16.4).
    pub factors: i64,
    /// A submarine group: `rules.submarine` (-2) dice unless it sails from patrol, no non-operational-port
    /// penalty; it attacks on its own, never counts as reaching the hex, and cannot be intercepted (N-5.6,
    /// N-19).
    #[serde(default)]
    pub submarine: bool,
    /// The group includes a slow ship: `rules.slow_ships` (-1) dice for the whole group (N-5.5, N-3.2).
    #[serde(default)]
    pub slow_ships: bool,
    /// `false`: it sails from a non-operational port, `rules.nonoperational_port` (-2) dice; never for a
    /// submarine (N-5.7).
    #[serde(default = "yes")]
    pub port_operational: bool,
    /// Factors of land-based air spotting for it, 0 to 99: one more die each, at most `rules.spotting_max`
    /// (3) in all (N-5.1).
    #[serde(default)]
    pub spotting: i64,
    /// Its player uses more strategic (intelligence) cards than the opponent: `rules.codebreaking` (+1)
    /// dice (N-5.2); the card comparison itself is not modelled.
    #[serde(default)]
    pub codebreaking: bool,
    /// Its interception hex is the mission hex of a seaborne invasion or shore bombardment:
    /// `rules.mission_hex` (+1) dice (N-5.3); only for a group intercepting such a mission.
    #[serde(default)]
    pub in_mission_hex: bool,
    /// A counter-interception aimed at its target's own interception hex: `rules.counter_in_interception_hex`
    /// (+2) dice, and one combined combat there (N-5.4, N-10.3).
    #[serde(default)]
    pub at_interception_hex: bool,
    /// Held out of the fighting: not inverted afterwards (N-18.2).
    #[serde(default)]
    pub withheld: bool,
    /// When it falls short but another group reached the hex: `close_in` ends as far along as its roll
    /// took it and may roll one die a combat round to join (N-15), `abort` goes home (N-9.1, N-17.2).
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
    /// Hexes from that hex of its path to the combat, 0 to 99: 0 if its path runs through it (N-14.2), else
    /// it closes in by one die a round after the first (N-14.3).
    #[serde(default)]
    pub defer_distance: i64,
    /// With `leg = "return"`: which interception hex on its target's way home, 1 the first (N-17.4, A-20).
    #[serde(default = "one")]
    pub return_hex: i64,
    /// With `naval.delayed.retarget`: hexes from where it stands to the further hex it retargets, 0 to 99
    /// by default its own `distance`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retarget_distance: Option<i64>,
}

impl GroupConfig {
    /// Its distance, once resolved: typed, or given by the map (a config reaches the model only with one).
    pub fn hexes(&self) -> i64 {
        self.distance.unwrap_or(0)
    }
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
    /// Pacific, under `movement = "highest"` one die's 6 or 3 however many dice; the patrol move; 0 with no
    /// dice) may not attempt at all: it neither rolls nor closes in.
    LargestRoll,
}

/// `[naval.rules]`: every number of the dice rules, with the published values (N-4..N-8).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct NavalRules {
    /// How the dice become hexes: `sum`, the total of all dice (the reading of N-8.1, A-1), or `highest`,
    /// the highest die alone, for comparison.
    pub movement: MoveRule,
    /// How far a group may be sent: `unlimited`, any hex it can reach, or `largest_roll`, no attempt
    /// at a hex beyond its largest possible first move (N-8.5).
    pub max_range: MaxRange,
    /// The most dice a group rolls, 0 to 8, applied once the base and every modifier are added (N-6.1,
    ///
    pub max_dice: i64,
    /// With `theater = "pacific"`: `true` halves every dice total, rounding up, but not the number of dice
    /// or a patrol's hexes (N-8.2, A-4); `false` turns halving off.
    pub pacific_halving: bool,
    /// Hexes a group with `origin = "patrol"` moves in round 1 instead of rolling, 0 to 99, not halved in
    /// the Pacific (N-7.1, N-7.3, A-7).
    pub patrol_auto_move: i64,
    /// The most dice spotting adds to a group, whatever its `spotting`, 0 to 8 (N-5.1).
    pub spotting_max: i64,
    /// Dice added to a group with `codebreaking = true`, -8 to 8 (N-5.2).
    pub codebreaking: i64,
    /// Dice added to a group with `in_mission_hex = true`, -8 to 8 (N-5.3).
    pub mission_hex: i64,
    /// Dice added to a counter-interception with `at_interception_hex = true`, aimed at its target's
    /// interception hex, -8 to 8 (N-5.4, A-6).
    pub counter_in_interception_hex: i64,
    /// Base dice of a counter-interception, and of every deeper level, -8 to 8 (N-4, N-4.1, A-6).
    pub counter_from_port: i64,
    /// Dice added to a group with `slow_ships = true` (a negative number takes dice away), -8 to 8 (N-5.5).
    pub slow_ships: i64,
    /// Dice added to a submarine group that does not sail from patrol, -8 to 8 (N-5.6).
    pub submarine: i64,
    /// Dice added to a group with `port_operational = false`, never to a submarine, -8 to 8 (N-5.7).
    pub nonoperational_port: i64,
    /// Dice added to a group whose target has fewer than `small_force_threshold` factors, -8 to 8 (N-5.8).
    pub small_force: i64,
    /// Naval factors, 0 to 999, below which the force being intercepted is a small force, which costs its
    /// interceptors `small_force` dice (N-5.8).
    pub small_force_threshold: i64,
    /// Base dice by the intercepted force's activity; activities left out keep their published value.
    #[schemars(transform = describe_base_dice)]
    pub base_dice: BTreeMap<Activity, i64>,
}

/// Gives each activity's entry of `rules.base_dice` its own help in the schema: what the activity is, its
/// published dice and its range. (Doc comments on [`Activity`]'s variants would turn the map's keys into an
/// open map in the schema, so the descriptions are added here.)
fn describe_base_dice(schema: &mut schemars::Schema) {
    let Some(properties) = schema.get_mut("properties").and_then(serde_json::Value::as_object_mut) else {
        return;
    };
    for activity in Activity::ALL {
        let key = serde_json::to_value(activity).expect("an activity serialises");
        let Some(entry) = key.as_str().and_then(|k| properties.get_mut(k)).and_then(|e| e.as_object_mut()) else {
            continue;
        };
        let dice = activity.published_base_dice();
        let mut text =
            format!("Base dice to intercept {}, 0 to 8: {dice} in the published rules (N-4).", activity.described());
        if activity == Activity::ReturningToBase {
            text.push_str("\nEvery group with `leg = \"return\"` starts from these dice too (N-17.2).");
        }
        entry.insert("description".to_owned(), text.into());
    }
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
