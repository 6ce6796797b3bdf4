//! The `[naval]` config as written, with the published defaults of every rule value, and its validation.
//!
//! [`NavalConfig`] mirrors the TOML (unknown keys rejected, defaults filled by serde); [`NavalRules`] holds every
//! number of rules N-4..N-8 under `[naval.rules]` so a designer can rebalance it. [`NavalConfig::resolve`]
//! checks names, targets (no self-target, no cycle, no unknown or same-side target, depth within `max_depth`)
//! and ranges, reporting problems as [`Invalid`] at the key, then builds the [`Naval`] model.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Naval;
use crate::config::{Invalid, KeyPath, in_range, probability};

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
    /// Hexes from where it waits on its path to that combat's hex: 0 if its path runs through it (N-14.2),
    /// else it closes in one die a round after the first (N-14.3).
    #[serde(default)]
    pub defer_distance: i64,
}

/// `[naval.combat]`: how long a naval combat lasts and who wins (N-16.4, A-18).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatConfig {
    #[serde(default = "half")]
    pub p_intercepting_side_wins: f64,
    #[serde(default = "half")]
    pub p_end_after_round: f64,
    #[serde(default = "default_max_rounds")]
    pub max_rounds: i64,
}

impl Default for CombatConfig {
    fn default() -> Self {
        CombatConfig { p_intercepting_side_wins: 0.5, p_end_after_round: 0.5, max_rounds: default_max_rounds() }
    }
}

/// `[naval.air]`: air attacks on each force sailing to a combat (N-13); off by default.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AirConfig {
    #[serde(default)]
    pub p_attack_en_route: f64,
    /// Chance an attacked force turns back and goes home.
    #[serde(default)]
    pub p_turn_back: f64,
}

/// `[naval.submarine]`: a submarine that reaches its hex makes its own attack (N-19).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmarineConfig {
    #[serde(default = "half")]
    pub p_attack_succeeds: f64,
}

impl Default for SubmarineConfig {
    fn default() -> Self {
        SubmarineConfig { p_attack_succeeds: 0.5 }
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

/// `[naval.rules]`: every number of the dice rules, with the published values (N-4..N-8).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct NavalRules {
    pub movement: MoveRule,
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
fn default_max_rounds() -> i64 {
    3
}
fn half() -> f64 {
    0.5
}
fn yes() -> bool {
    true
}

fn naval() -> KeyPath {
    KeyPath::root().key("naval")
}

impl NavalConfig {
    /// Validates every value and builds the model.
    pub fn resolve(&self) -> Result<Naval, Invalid> {
        in_range(self.max_depth, 1, 8, || naval().key("max_depth"))?;
        crate::config::check_name(&self.mission.name, || naval().key("mission").key("name"))?;
        in_range(self.mission.factors, 0, 999, || naval().key("mission").key("factors"))?;
        self.check_probabilities()?;
        self.check_rules()?;
        let levels = self.levels()?;
        for (i, g) in self.group.iter().enumerate() {
            self.check_group(i, g, levels[i])?;
        }
        Ok(Naval::new(self, &levels))
    }

    fn check_probabilities(&self) -> Result<(), Invalid> {
        let c = &self.combat;
        probability(c.p_intercepting_side_wins, || naval().key("combat").key("p_intercepting_side_wins"))?;
        probability(c.p_end_after_round, || naval().key("combat").key("p_end_after_round"))?;
        in_range(c.max_rounds, 1, 20, || naval().key("combat").key("max_rounds"))?;
        probability(self.air.p_attack_en_route, || naval().key("air").key("p_attack_en_route"))?;
        probability(self.air.p_turn_back, || naval().key("air").key("p_turn_back"))?;
        probability(self.submarine.p_attack_succeeds, || naval().key("submarine").key("p_attack_succeeds"))
    }

    fn check_rules(&self) -> Result<(), Invalid> {
        let r = &self.rules;
        let path = |k: &str| naval().key("rules").key(k);
        in_range(r.max_dice, 0, 8, || path("max_dice"))?;
        in_range(r.patrol_auto_move, 0, 99, || path("patrol_auto_move"))?;
        in_range(r.spotting_max, 0, 8, || path("spotting_max"))?;
        in_range(r.small_force_threshold, 0, 999, || path("small_force_threshold"))?;
        let modifiers = [
            ("codebreaking", r.codebreaking),
            ("mission_hex", r.mission_hex),
            ("counter_in_interception_hex", r.counter_in_interception_hex),
            ("counter_from_port", r.counter_from_port),
            ("slow_ships", r.slow_ships),
            ("submarine", r.submarine),
            ("nonoperational_port", r.nonoperational_port),
            ("small_force", r.small_force),
        ];
        for (key, value) in modifiers {
            in_range(value, -8, 8, || path(key))?;
        }
        for (activity, dice) in &r.base_dice {
            let name = serde_json::to_value(activity).ok().and_then(|v| v.as_str().map(str::to_owned));
            in_range(*dice, 0, 8, || path("base_dice").key(&name.unwrap_or_default()))?;
        }
        Ok(())
    }

    fn check_group(&self, i: usize, g: &GroupConfig, level: usize) -> Result<(), Invalid> {
        let path = || naval().key("group").index(i);
        in_range(g.distance, 0, 99, || path().key("distance"))?;
        in_range(g.factors, 0, 999, || path().key("factors"))?;
        in_range(g.spotting, 0, 99, || path().key("spotting"))?;
        self.check_return_leg(i, g)?;
        self.check_deferral(i, g)?;
        if level as i64 > self.max_depth && g.leg == Leg::Out {
            let msg = format!("this group is at level {level}, deeper than naval.max_depth = {}", self.max_depth);
            return Err(Invalid::new(path().key("target"), msg));
        }
        if g.at_interception_hex && level < 2 {
            let msg = "only a counter-interception (a group targeting a group) can aim at the interception hex";
            return Err(Invalid::new(path().key("at_interception_hex"), msg.into()));
        }
        if g.origin == Origin::Patrol && level >= 2 && !g.at_interception_hex && g.leg == Leg::Out {
            let msg = "a patrol may counter-intercept only at an interception hex (N-7.2); allowed: \
                       at_interception_hex = true, or origin = \"port\"";
            return Err(Invalid::new(path().key("origin"), msg.into()));
        }
        if g.in_mission_hex && (level != 1 || !self.mission.activity.has_mission_hex()) {
            let msg = "applies only to a group intercepting a seaborne_invasion or shore_bombardment mission";
            return Err(Invalid::new(path().key("in_mission_hex"), msg.into()));
        }
        if self.group.iter().any(|h| h.name == g.target && h.submarine) {
            let msg = format!("target {:?} is a submarine group, and submarines cannot be intercepted", g.target);
            return Err(Invalid::new(path().key("target"), msg));
        }
        let side = if level % 2 == 1 { Side::Defender } else { Side::Moving };
        if g.side.is_some_and(|s| s != side) {
            let msg =
                format!("its target {:?} is on this side too; a group targets a force of the other side", g.target);
            return Err(Invalid::new(path().key("side"), msg));
        }
        Ok(())
    }

    /// A return-leg interception is one level, aimed at a force going home: nothing aims at it, and it has
    /// no interception-hex or mission-hex bonus (N-17.2, N-17.4).
    fn check_return_leg(&self, i: usize, g: &GroupConfig) -> Result<(), Invalid> {
        let path = || naval().key("group").index(i);
        if self.group.iter().any(|h| h.name == g.target && h.leg == Leg::Return) {
            let msg = format!("target {:?} intercepts on the return leg, and nothing may intercept it", g.target);
            return Err(Invalid::new(path().key("target"), msg));
        }
        if g.leg == Leg::Return && (g.at_interception_hex || g.in_mission_hex) {
            let key = if g.at_interception_hex { "at_interception_hex" } else { "in_mission_hex" };
            let msg = "does not apply to a group with leg = \"return\", which meets its target on the way home";
            return Err(Invalid::new(path().key(key), msg.into()));
        }
        Ok(())
    }

    /// A deferring group joins the combat where a fellow interceptor of the same force is met by its
    /// counter-interceptors, and is not itself counter-intercepted (N-14.1).
    fn check_deferral(&self, i: usize, g: &GroupConfig) -> Result<(), Invalid> {
        let path = || naval().key("group").index(i);
        in_range(g.defer_distance, 0, 99, || path().key("defer_distance"))?;
        let Some(fellow) = &g.defer_to else { return Ok(()) };
        let err = |msg: String| Err(Invalid::new(path().key("defer_to"), msg));
        let Some(f) = self.group.iter().find(|h| &h.name == fellow && h.name != g.name) else {
            return err(format!("{fellow:?} is not another group's name"));
        };
        if f.target != g.target || f.leg != g.leg || g.leg == Leg::Return {
            return err(format!("{fellow:?} must intercept the same force on its way out, as this group does"));
        }
        if !self.group.iter().any(|h| h.target == *fellow && !h.at_interception_hex) {
            return err(format!("no group counter-intercepts {fellow:?} on its way, so there is no combat to join"));
        }
        if self.group.iter().any(|h| h.target == g.name) || g.submarine {
            return err("a group that is itself counter-intercepted, or a submarine, cannot defer (N-14.1)".into());
        }
        Ok(())
    }

    /// Each group's level: 1 + its target's (the mission is level 0). Rejects unknown targets, self-targets,
    /// duplicate names and cycles, naming the offending key.
    fn levels(&self) -> Result<Vec<usize>, Invalid> {
        let path = |i: usize, k: &str| naval().key("group").index(i).key(k);
        if self.group.is_empty() || self.group.len() > super::MAX_GROUPS {
            let msg =
                format!("{} groups; allowed: 1 to {} [[naval.group]] tables", self.group.len(), super::MAX_GROUPS);
            return Err(Invalid::new(naval().key("group"), msg));
        }
        for (i, g) in self.group.iter().enumerate() {
            crate::config::check_name(&g.name, || path(i, "name"))?;
            if g.name == self.mission.name || self.group[..i].iter().any(|h| h.name == g.name) {
                return Err(Invalid::new(
                    path(i, "name"),
                    format!("duplicate name {:?}; names must be unique", g.name),
                ));
            }
        }
        (0..self.group.len()).map(|i| self.level_of(i, &mut Vec::new())).collect()
    }

    fn level_of(&self, i: usize, seen: &mut Vec<usize>) -> Result<usize, Invalid> {
        let g = &self.group[i];
        let path = || naval().key("group").index(i).key("target");
        if g.target == g.name {
            return Err(Invalid::new(path(), format!("group {:?} targets itself", g.name)));
        }
        if g.target == self.mission.name {
            return Ok(1);
        }
        let Some(t) = self.group.iter().position(|h| h.name == g.target) else {
            let mut known: Vec<&str> = vec![self.mission.name.as_str()];
            known.extend(self.group.iter().map(|h| h.name.as_str()));
            return Err(Invalid::new(path(), format!("unknown target {:?}; allowed: {}", g.target, known.join(", "))));
        };
        if seen.contains(&i) {
            return Err(Invalid::new(path(), format!("targets form a cycle through {:?}", g.name)));
        }
        seen.push(i);
        Ok(self.level_of(t, seen)? + 1)
    }
}
