//! Naval interception, *A World at War* (rules N-0..N-19 of `docs/rules/naval.md`).
//!
//! [`NavalConfig`](config::NavalConfig) is the `[naval]` table as written; it resolves into a [`Naval`] model
//! whose [`Group`]s carry everything settled before play: level and side (N-0), dice count (N-4..N-6, see
//! [`dice`]), the movement node, and where the group fights ([`Place`]). Groups that fight at one place form
//! a [`Meeting`], with its members, the groups deferring to it (N-14) and the side each fights on, as bit
//! masks over the groups. The trial itself, the sequence of play, is in [`play`].

pub mod config;
pub mod dice;
pub mod odds;
mod play;
mod set;
mod words;

pub use set::NavalRules;

use self::config::{Leg, NavalConfig, OnFail};
use self::dice::DiceCount;
use crate::chance::{Chance, Dist};
use crate::metrics::{Metric, Metrics, Recorder};
use crate::model::Model;

/// The most groups a scenario may have: a trial keeps one bit per group in a `u32`.
pub const MAX_GROUPS: usize = 32;

/// A force that can be intercepted: the mission (level 0) or a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Force {
    Mission,
    Group(usize),
}

/// Where a group fights: where it meets a force on its way out, or on its way home (N-17.2). A
/// counter-interception aimed at the interception hex fights wherever its target fights (N-10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub force: Force,
    pub returning: bool,
}

/// One intercepting group, resolved.
#[derive(Clone, Debug)]
pub struct Group {
    pub name: String,
    pub level: usize,
    pub target: Force,
    /// The interception it takes part in: its target, on the leg it intercepts.
    pub aim: Place,
    /// Where it fights.
    pub place: Place,
    pub dice: DiceCount,
    pub distance: u32,
    pub submarine: bool,
    pub withheld: bool,
    pub on_fail: OnFail,
    /// Deferring to join a fellow's counter-interception combat: (where, hexes to go) (N-14).
    pub defer: Option<(Place, u32)>,
    /// First-round movement: hexes moved, capped at the distance.
    pub first_move: Dist,
    /// The non-submarine groups with the same aim: if any of them reaches, the target is intercepted (N-8.6).
    fellows: u32,
    m: GroupMetrics,
}

/// A place where forces meet: the groups that fight there, as masks over group indices.
#[derive(Clone, Debug)]
struct Meeting {
    place: Place,
    /// The groups that fight here.
    members: u32,
    /// Groups that may defer to join the combat here (N-14).
    deferring: u32,
    /// Every group on the side opposed to the force met here (levels alternate sides, N-0).
    against: u32,
    /// Members that make it a surface combat: not submarines, and on the intercepting side.
    intercepting: u32,
}

#[derive(Clone, Copy, Debug)]
struct GroupMetrics {
    reached: Metric,
    fought: Metric,
    won: Metric,
    inverted: Metric,
    joined_late: Metric,
    joined_deferred: Metric,
    rolled: Metric,
    movement: Metric,
}

#[derive(Clone, Copy, Debug)]
struct MissionMetrics {
    intercepted: Metric,
    engaged: Metric,
    completed: Metric,
    returned: Metric,
    caught_going_home: Metric,
    rounds: Metric,
}

/// The yes/no nodes of combat, air attack and submarine attack (N-13, N-16, N-19).
#[derive(Clone, Debug)]
struct Nodes {
    intercepting_side_wins: Dist,
    end_after_round: Dist,
    max_rounds: u32,
    air_attack: Dist,
    turn_back: Dist,
    sub_attack: Dist,
    /// `delayed[r]`: one delayed die with `r` hexes still to go (N-15).
    delayed: Vec<Dist>,
}

/// The naval interception model.
#[derive(Clone, Debug)]
pub struct Naval {
    metrics: Metrics,
    pub mission_name: String,
    pub groups: Vec<Group>,
    /// Out-leg group indices in rolling order: by level, then as listed (N-10.1, N-11.1).
    roll_order: Vec<usize>,
    meetings: Vec<Meeting>,
    /// Meetings with a force on its way out, deepest first (N-12).
    resolve_order: Vec<usize>,
    /// Meetings with a force going home (N-17.2).
    return_order: Vec<usize>,
    /// The groups whose interception of the mission on its way out counts (N-8.6).
    mission_fellows: u32,
    /// Groups that close in when they fall short; the others abort (N-9).
    closes_in: u32,
    submarines: u32,
    withheld: u32,
    nodes: Nodes,
    m: MissionMetrics,
}

impl Naval {
    fn new(cfg: &NavalConfig, levels: &[usize]) -> Naval {
        let mut metrics = Metrics::default();
        let m = MissionMetrics {
            intercepted: metrics.probability("mission.intercepted"),
            engaged: metrics.probability("mission.engaged"),
            completed: metrics.probability("mission.completed"),
            returned: metrics.probability("mission.returned"),
            caught_going_home: metrics.probability("mission.caught_going_home"),
            rounds: metrics.distribution("combat.rounds", cfg.combat.max_rounds as u32),
        };
        for (metric, about) in [
            (
                m.intercepted,
                "a non-submarine interceptor reaches the mission's interception hex on its way out (N-8.4, N-8.6)",
            ),
            (m.engaged, "the mission fights a naval combat where it is intercepted on its way out (N-12, N-16)"),
            (
                m.completed,
                "the mission carries on with its purpose: not beaten in combat nor turned back by air (N-13, N-17.1)",
            ),
            (m.returned, "the mission heads home, beaten in combat or turned back by air (N-13, N-17.2)"),
            (
                m.caught_going_home,
                "the mission is intercepted again on its way home and fights a naval combat there (N-17.2, N-17.4)",
            ),
            (
                m.rounds,
                "combat rounds fought where the mission is intercepted on its way out; 0 without combat (N-16.4)",
            ),
        ] {
            metrics.describe(metric, about);
        }
        let mut groups: Vec<Group> = (0..cfg.group.len()).map(|i| Group::new(cfg, levels, i, &mut metrics)).collect();
        for i in 0..groups.len() {
            groups[i].fellows = mask(&groups, |g| g.aim == groups[i].aim && !g.submarine);
        }
        let meetings = meetings(&groups);
        let (resolve_order, return_order) = meeting_order(&groups, &meetings);
        let mission_out = Place { force: Force::Mission, returning: false };
        Naval {
            metrics,
            mission_name: cfg.mission.name.clone(),
            roll_order: by_level(&groups),
            meetings,
            resolve_order,
            return_order,
            mission_fellows: mask(&groups, |g| g.aim == mission_out && !g.submarine),
            closes_in: mask(&groups, |g| g.on_fail == OnFail::CloseIn),
            submarines: mask(&groups, |g| g.submarine),
            withheld: mask(&groups, |g| g.withheld),
            groups,
            nodes: Nodes::new(cfg),
            m,
        }
    }

    /// Each group's level, side, dice count and first-round odds, for `validate`.
    pub fn describe(&self) -> serde_json::Value {
        let groups: Vec<_> = self
            .groups
            .iter()
            .map(|g| {
                serde_json::json!({
                    "name": g.name,
                    "level": g.level,
                    "side": if g.level % 2 == 1 { "defender" } else { "moving" },
                    "leg": if g.aim.returning { "return" } else { "out" },
                    "dice": g.dice.dice,
                    "base_dice": g.dice.base,
                    "modifiers": g.dice.modifiers,
                    "distance": g.distance,
                    "p_reach": g.first_move.probability(g.distance as usize),
                })
            })
            .collect();
        serde_json::json!({ "model": "naval", "mission": self.mission_name, "groups": groups })
    }
}

impl Model for Naval {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        self.play(chance, rec);
    }
}

impl Group {
    fn new(cfg: &NavalConfig, levels: &[usize], i: usize, metrics: &mut Metrics) -> Group {
        let g = &cfg.group[i];
        let target = force_named(cfg, &g.target);
        let target_factors = match target {
            Force::Mission => cfg.mission.factors,
            Force::Group(t) => cfg.group[t].factors,
        };
        let dice = dice::dice_count(cfg, g, levels[i], target_factors);
        let prefix = format!("group.{}", g.name);
        let name = &g.name;
        let mut metric = |suffix: &str, about: String| {
            let m = metrics.probability(format!("{prefix}.{suffix}"));
            metrics.describe(m, about)
        };
        let reached = metric(
            "reached",
            format!("{name} reaches its interception hex with its first roll or patrol move (N-7, N-8.4)"),
        );
        let fought =
            metric("fought", format!("{name} fights a naval combat, or as a submarine makes its attack (N-16, N-19)"));
        let won = metric(
            "won",
            format!(
                "{name} is on the winning side of its last combat, or its submarine attack succeeds (N-16.4, N-19)"
            ),
        );
        let inverted = metric(
            "inverted",
            format!("{name} is inverted back in port: it fought or found its target gone, not withheld (N-18)"),
        );
        let joined_late = metric(
            "joined_late",
            format!("{name} fell short, closed in by one die a round and joined a combat between rounds (N-15)"),
        );
        let joined_deferred = metric(
            "joined_deferred",
            format!("{name} deferred to a fellow's counter-interception combat and joined it (N-14)"),
        );
        let rolled = metric(
            "rolled",
            format!("{name} rolls for its first move (or makes its patrol move): its target is at sea (N-7, N-8)"),
        );
        // Over the trials it rolls in: a group whose target never sailed moved no hexes, but it did not roll
        // a 0 either, and two Pacific dice always move at least one hex.
        let movement = metrics.distribution_given(format!("{prefix}.movement"), g.distance as u32, rolled);
        metrics.describe(
            movement,
            format!("hexes {name} covers toward its interception hex with its first roll, when it rolls (N-7, N-8)"),
        );
        Group {
            name: g.name.clone(),
            level: levels[i],
            target,
            aim: Place { force: target, returning: g.leg == Leg::Return },
            place: place_of(cfg, i),
            first_move: dice::first_move(cfg, g, dice.dice),
            dice,
            distance: g.distance as u32,
            submarine: g.submarine,
            withheld: g.withheld,
            on_fail: g.on_fail,
            defer: g
                .defer_to
                .as_ref()
                .map(|f| (Place { force: force_named(cfg, f), returning: false }, g.defer_distance as u32)),
            fellows: 0,
            m: GroupMetrics { reached, fought, won, inverted, joined_late, joined_deferred, rolled, movement },
        }
    }
}

fn force_named(cfg: &NavalConfig, name: &str) -> Force {
    cfg.group.iter().position(|g| g.name == name).map_or(Force::Mission, Force::Group)
}

/// Where group `i` fights: where it meets its target, or, aimed at the interception hex, wherever its
/// target fights (N-10.3).
fn place_of(cfg: &NavalConfig, i: usize) -> Place {
    let g = &cfg.group[i];
    match force_named(cfg, &g.target) {
        Force::Group(t) if g.at_interception_hex => place_of(cfg, t),
        target => Place { force: target, returning: g.leg == Leg::Return },
    }
}

fn level_of(groups: &[Group], force: Force) -> usize {
    match force {
        Force::Mission => 0,
        Force::Group(i) => groups[i].level,
    }
}

fn by_level(groups: &[Group]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..groups.len()).filter(|&i| !groups[i].aim.returning).collect();
    order.sort_by_key(|&i| groups[i].level);
    order
}

/// The groups for which `yes` holds, as a mask.
fn mask(groups: &[Group], yes: impl Fn(&Group) -> bool) -> u32 {
    groups.iter().enumerate().filter(|(_, g)| yes(g)).fold(0, |m, (i, _)| m | 1 << i)
}

/// One meeting per place where some group fights, in order of first appearance.
fn meetings(groups: &[Group]) -> Vec<Meeting> {
    let mut places: Vec<Place> = Vec::new();
    for g in groups {
        if !places.contains(&g.place) {
            places.push(g.place);
        }
    }
    places
        .into_iter()
        .map(|place| {
            let side = level_of(groups, place.force) % 2;
            let members = mask(groups, |g| g.place == place);
            let against = mask(groups, |g| g.level % 2 != side);
            Meeting {
                place,
                members,
                deferring: mask(groups, |g| g.defer.is_some_and(|(p, _)| p == place)),
                against,
                intercepting: members & against & !mask(groups, |g| g.submarine),
            }
        })
        .collect()
}

/// The meetings on the way out, deepest first, the mission's last (N-12); and those on the way home.
fn meeting_order(groups: &[Group], meetings: &[Meeting]) -> (Vec<usize>, Vec<usize>) {
    let (mut out, home): (Vec<usize>, Vec<usize>) = (0..meetings.len()).partition(|&k| !meetings[k].place.returning);
    out.sort_by_key(|&k| std::cmp::Reverse(level_of(groups, meetings[k].place.force)));
    (out, home)
}

impl Nodes {
    fn new(cfg: &NavalConfig) -> Nodes {
        let max_distance = cfg.group.iter().map(|g| g.distance.max(g.defer_distance) as u32).max().unwrap_or(0);
        let halve = dice::halved(cfg);
        Nodes {
            intercepting_side_wins: Dist::bernoulli_f64(cfg.combat.p_intercepting_side_wins),
            end_after_round: Dist::bernoulli_f64(cfg.combat.p_end_after_round),
            max_rounds: cfg.combat.max_rounds as u32,
            air_attack: Dist::bernoulli_f64(cfg.air.p_attack_en_route),
            turn_back: Dist::bernoulli_f64(cfg.air.p_turn_back),
            sub_attack: Dist::bernoulli_f64(cfg.submarine.p_attack_succeeds),
            delayed: (0..=max_distance).map(|r| dice::delayed_step(halve, r)).collect(),
        }
    }
}
