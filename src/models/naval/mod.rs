//! Naval interception, *A World at War* (rules N-0..N-19 of `shared/rules/naval.md`).
//!
//! [`NavalConfig`](config::NavalConfig) is the `[naval]` table as written; it resolves into a [`Naval`] model
//! whose [`Group`]s carry everything settled before play: level and side (N-0), dice count (N-4..N-6, see
//! [`dice`]), the movement node, and where the group fights ([`Place`]). A trial has two phases, as the
//! sequence of play does: every level rolls, shallowest first (N-8..N-11); then the combats are resolved
//! deepest first, "last to intercept, first to sail" (N-12), with air attacks en route (N-13), delayed
//! interceptions between rounds (N-15), combat as rounds and a winner (N-16), and inversion (N-18).
//! Per-trial state lives in fixed arrays ([`MAX_GROUPS`]), so a trial allocates nothing.

pub mod config;
pub mod dice;

use self::config::{Leg, NavalConfig, OnFail};
use self::dice::DiceCount;
use crate::chance::{Chance, Dist};
use crate::metrics::{Metric, Metrics, Recorder};
use crate::models::Model;

/// The most groups a scenario may have (per-trial state is a fixed array).
pub const MAX_GROUPS: usize = 32;

/// A force that can be intercepted: the mission (level 0) or a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Force {
    Mission,
    Group(usize),
}

impl Force {
    /// A dense index: 0 for the mission, `i + 1` for group `i`.
    fn id(self) -> usize {
        match self {
            Force::Mission => 0,
            Force::Group(i) => i + 1,
        }
    }
}

/// Where a group fights: where it meets a force on its way out, or on its way home (N-17.2). A
/// counter-interception aimed at the interception hex fights wherever its target fights (N-10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub force: Force,
    pub returning: bool,
}

impl Place {
    /// A dense index: two per force.
    fn id(self) -> usize {
        self.force.id() * 2 + usize::from(self.returning)
    }
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
    m: GroupMetrics,
}

#[derive(Clone, Copy, Debug)]
struct GroupMetrics {
    reached: Metric,
    fought: Metric,
    won: Metric,
    inverted: Metric,
    joined_late: Metric,
    joined_deferred: Metric,
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
    /// Places where groups meet a force on its way out, deepest first (N-12).
    resolve_order: Vec<Place>,
    /// Places where groups wait for a force going home (N-17.2).
    return_places: Vec<Place>,
    /// `members[place.id()]`: the groups that fight at a place, in listed order.
    members: Vec<Vec<usize>>,
    /// `deferring[place.id()]`: groups that may defer to join the combat there (N-14).
    deferring: Vec<Vec<usize>>,
    nodes: Nodes,
    m: MissionMetrics,
}

/// One group's state within a trial.
#[derive(Clone, Copy, Debug, Default)]
struct GroupState {
    rolled: bool,
    moved: u32,
    reached: bool,
    /// Still able to act: not defeated, not turned back by air.
    alive: bool,
    fought: bool,
    won: bool,
    joined_late: bool,
    /// It deferred and joined a counter-interception combat (N-14).
    joined_deferred: bool,
    /// Hexes closed toward that combat's hex.
    defer_moved: u32,
    /// It reached its hex but the force it was after had turned back (N-18.1b).
    target_gone: bool,
}

/// A trial's state.
struct Trial {
    groups: [GroupState; MAX_GROUPS],
    /// `intercepted[place.id()]`: a non-submarine group aimed at the force on that leg reached (N-8.6).
    intercepted: [bool; 2 * (MAX_GROUPS + 1)],
    mission_alive: bool,
    mission_engaged: bool,
    mission_caught_going_home: bool,
    rounds: u32,
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
        let groups: Vec<Group> = (0..cfg.group.len()).map(|i| Group::new(cfg, levels, i, &mut metrics)).collect();
        let roll_order = by_level(&groups);
        let resolve_order = combats_deepest_first(&groups);
        let mut return_places: Vec<Place> = Vec::new();
        for g in groups.iter().filter(|g| g.place.returning) {
            if !return_places.contains(&g.place) {
                return_places.push(g.place);
            }
        }
        let mut members = vec![Vec::new(); 2 * (groups.len() + 1)];
        let mut deferring = vec![Vec::new(); 2 * (groups.len() + 1)];
        for (i, g) in groups.iter().enumerate() {
            members[g.place.id()].push(i);
            if let Some((place, _)) = g.defer {
                deferring[place.id()].push(i);
            }
        }
        let mission_name = cfg.mission.name.clone();
        Naval {
            metrics,
            mission_name,
            groups,
            roll_order,
            resolve_order,
            return_places,
            members,
            deferring,
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

    /// Phase 1: every level rolls, shallowest first; a group rolls only if its target is at sea (N-10.5).
    fn roll<C: Chance, R: Recorder>(&self, t: &mut Trial, chance: &mut C, rec: &mut R) {
        for &i in &self.roll_order {
            if self.force_at_sea(t, self.groups[i].target) {
                self.roll_group(t, i, chance, rec);
            }
        }
    }

    /// Group `i` rolls its first move (N-8).
    fn roll_group<C: Chance, R: Recorder>(&self, t: &mut Trial, i: usize, chance: &mut C, rec: &mut R) {
        let g = &self.groups[i];
        let moved = chance.pick(&g.first_move) as u32;
        let reached = moved == g.distance;
        t.groups[i] = GroupState { rolled: true, moved, reached, alive: true, ..GroupState::default() };
        t.intercepted[g.aim.id()] |= reached && !g.submarine;
        rec.value(g.m.movement, moved);
        rec.flag(g.m.reached, reached);
    }

    /// Whether `force` can be met at sea: the mission always; a group if it reached its hex, or fell short
    /// but closes in behind another group that reached (N-9.1, N-9.2). Settled once its level has rolled.
    fn force_at_sea(&self, t: &Trial, force: Force) -> bool {
        let Force::Group(i) = force else { return true };
        let (g, st) = (&self.groups[i], &t.groups[i]);
        st.rolled && (st.reached || (g.on_fail == OnFail::CloseIn && t.intercepted[g.aim.id()]))
    }

    /// Whether `force` is on its way home after a defeat, a turn-back or an abort (N-17.2).
    fn going_home(&self, t: &Trial, force: Force) -> bool {
        let Force::Group(i) = force else { return !t.mission_alive };
        let (g, st) = (&self.groups[i], &t.groups[i]);
        let aborted = g.on_fail == OnFail::Abort && !st.reached && t.intercepted[g.aim.id()];
        st.rolled && (!st.alive || aborted)
    }

    /// Phase 2: combats deepest first (N-12).
    fn resolve<C: Chance>(&self, t: &mut Trial, chance: &mut C) {
        for &place in &self.resolve_order {
            let anyone = self.members[place.id()].iter().any(|&i| t.groups[i].reached);
            if self.present(t, place.force) && anyone {
                self.meet(t, place, chance);
            }
        }
    }

    /// Phase 3: forces going home may be intercepted once on the way (N-17.2, N-17.4).
    fn homeward<C: Chance, R: Recorder>(&self, t: &mut Trial, chance: &mut C, rec: &mut R) {
        for &place in &self.return_places {
            if !self.going_home(t, place.force) {
                continue;
            }
            for &i in &self.members[place.id()] {
                self.roll_group(t, i, chance, rec);
            }
            if self.members[place.id()].iter().any(|&i| t.groups[i].reached) {
                self.meet(t, place, chance);
            }
        }
    }

    fn present(&self, t: &Trial, force: Force) -> bool {
        match force {
            Force::Mission => t.mission_alive,
            Force::Group(i) => self.force_at_sea(t, force) && t.groups[i].alive,
        }
    }

    /// The level of a force; sides alternate with it, the mission's side at even levels (N-0).
    fn level(&self, force: Force) -> usize {
        level_of(&self.groups, force)
    }

    /// Everything that happens where `force` is met: forces sail (with air attacks), submarines attack,
    /// and the surface forces fight (N-12, N-13, N-16, N-19).
    fn meet<C: Chance>(&self, t: &mut Trial, place: Place, chance: &mut C) {
        let target_side = self.level(place.force) % 2;
        let members = &self.members[place.id()];
        let mut arrived = [false; MAX_GROUPS];
        // The intercepting side sails first, then the intercepted force (N-12 steps 1 and 2).
        for &i in members {
            if t.groups[i].reached && t.groups[i].alive {
                arrived[i] = self.sails(chance);
                t.groups[i].alive = arrived[i];
            }
        }
        let intercepting =
            |&i: &usize| arrived[i] && !self.groups[i].submarine && self.groups[i].level % 2 != target_side;
        let surface = members.iter().any(intercepting);
        let submarines = members.iter().any(|&i| arrived[i] && self.groups[i].submarine);
        if !surface && !submarines {
            return;
        }
        if !self.sails(chance) {
            self.turn_back(t, place, &arrived);
            return;
        }
        self.submarines_attack(t, place, &arrived, chance);
        if surface {
            self.deferring_join(t, place, &mut arrived, chance, true);
            let rounds = self.fight_rounds(t, place, &mut arrived, chance);
            let intercepting_won = chance.happens(&self.nodes.intercepting_side_wins);
            self.settle(t, place, &arrived, intercepting_won, rounds);
        }
    }

    /// A force sails to a combat: it may be attacked by air and turn back (N-13). Returns whether it arrives.
    fn sails<C: Chance>(&self, chance: &mut C) -> bool {
        !(chance.happens(&self.nodes.air_attack) && chance.happens(&self.nodes.turn_back))
    }

    /// The intercepted force turned back (or, going home, slipped away): no combat, and whoever reached the
    /// hex found nobody (N-18.1b).
    fn turn_back(&self, t: &mut Trial, place: Place, arrived: &[bool; MAX_GROUPS]) {
        self.set_alive(t, place.force, false);
        for &i in &self.members[place.id()] {
            t.groups[i].target_gone |= arrived[i];
        }
    }

    fn set_alive(&self, t: &mut Trial, force: Force, alive: bool) {
        match force {
            Force::Mission => t.mission_alive = alive,
            Force::Group(i) => t.groups[i].alive = alive,
        }
    }

    /// Submarines that reached attack on their own and do not join the surface combat (N-19).
    fn submarines_attack<C: Chance>(&self, t: &mut Trial, place: Place, arrived: &[bool; MAX_GROUPS], chance: &mut C) {
        for &i in &self.members[place.id()] {
            if arrived[i] && self.groups[i].submarine {
                t.groups[i].fought = true;
                t.groups[i].won = chance.happens(&self.nodes.sub_attack);
            }
        }
    }

    /// Rounds of combat; after each round that is not the last, groups closing in roll one die each and
    /// join when they reach the hex (N-15). Returns the number of rounds.
    fn fight_rounds<C: Chance>(
        &self,
        t: &mut Trial,
        place: Place,
        arrived: &mut [bool; MAX_GROUPS],
        chance: &mut C,
    ) -> u32 {
        let mut round = 1;
        while round < self.nodes.max_rounds && !chance.happens(&self.nodes.end_after_round) {
            self.delayed_rolls(t, place, arrived, chance);
            self.deferring_join(t, place, arrived, chance, false);
            round += 1;
        }
        round
    }

    fn delayed_rolls<C: Chance>(&self, t: &mut Trial, place: Place, arrived: &mut [bool; MAX_GROUPS], chance: &mut C) {
        for &i in &self.members[place.id()] {
            let g = &self.groups[i];
            let closing = !t.groups[i].reached && self.force_at_sea(t, Force::Group(i));
            let st = &mut t.groups[i];
            if !closing || !st.alive || st.joined_late || g.submarine {
                continue;
            }
            if self.close_in(&mut st.moved, g.distance, chance) {
                st.joined_late = true;
                arrived[i] = true;
            }
        }
    }

    /// One die of movement toward a hex `distance` away, `moved` hexes done: true on arrival (N-15.1).
    fn close_in<C: Chance>(&self, moved: &mut u32, distance: u32, chance: &mut C) -> bool {
        *moved += chance.pick(&self.nodes.delayed[(distance - *moved) as usize]) as u32;
        *moved == distance
    }

    /// Groups deferring to this combat join it: at once if their path runs through its hex, otherwise by one
    /// die a round after the first (N-14.2, N-14.3). A group that does not get there in time carries on to its
    /// own interception hex as if it had not deferred [REC].
    fn deferring_join<C: Chance>(
        &self,
        t: &mut Trial,
        place: Place,
        arrived: &mut [bool; MAX_GROUPS],
        chance: &mut C,
        at_start: bool,
    ) {
        for &i in &self.deferring[place.id()] {
            let Some((_, distance)) = self.groups[i].defer else { continue };
            let waiting = t.groups[i].alive && !t.groups[i].joined_deferred;
            if !waiting || !self.force_at_sea(t, Force::Group(i)) {
                continue;
            }
            let st = &mut t.groups[i];
            let joins = match at_start {
                true => distance == 0,
                false => distance > 0 && self.close_in(&mut st.defer_moved, distance, chance),
            };
            if joins {
                st.joined_deferred = true;
                arrived[i] = true;
            }
        }
    }

    /// Marks who fought and who won; losers go home defeated (N-16, N-17).
    fn settle(&self, t: &mut Trial, place: Place, arrived: &[bool; MAX_GROUPS], intercepting_won: bool, rounds: u32) {
        let target_side = self.level(place.force) % 2;
        for &i in self.members[place.id()].iter().chain(&self.deferring[place.id()]) {
            let g = &self.groups[i];
            if arrived[i] && !g.submarine {
                let won = (g.level % 2 != target_side) == intercepting_won;
                let st = &mut t.groups[i];
                (st.fought, st.won, st.alive) = (true, won, won);
            }
        }
        match place.force {
            Force::Mission if place.returning => t.mission_caught_going_home = true,
            Force::Mission => (t.mission_alive, t.mission_engaged, t.rounds) = (!intercepting_won, true, rounds),
            Force::Group(j) => {
                let st = &mut t.groups[j];
                (st.fought, st.won, st.alive) = (true, !intercepting_won, !intercepting_won);
            }
        }
    }

    fn report<R: Recorder>(&self, t: &Trial, rec: &mut R) {
        rec.flag(self.m.intercepted, t.intercepted[0]);
        rec.flag(self.m.engaged, t.mission_engaged);
        rec.flag(self.m.completed, t.mission_alive);
        rec.flag(self.m.returned, !t.mission_alive);
        rec.flag(self.m.caught_going_home, t.mission_caught_going_home);
        rec.value(self.m.rounds, t.rounds);
        for (g, st) in self.groups.iter().zip(&t.groups) {
            rec.flag(g.m.fought, st.fought);
            rec.flag(g.m.won, st.won);
            rec.flag(g.m.joined_late, st.joined_late);
            rec.flag(g.m.joined_deferred, st.joined_deferred);
            // Back in port, units that fought, or reached a force that had turned back, are inverted unless
            // withheld (N-18).
            rec.flag(g.m.inverted, (st.fought || st.target_gone) && !g.withheld);
        }
    }
}

impl Model for Naval {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let mut t = Trial {
            groups: [GroupState::default(); MAX_GROUPS],
            intercepted: [false; 2 * (MAX_GROUPS + 1)],
            mission_alive: true,
            mission_engaged: false,
            mission_caught_going_home: false,
            rounds: 0,
        };
        self.roll(&mut t, chance, rec);
        self.resolve(&mut t, chance);
        self.homeward(&mut t, chance, rec);
        self.report(&t, rec);
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
            m: GroupMetrics {
                reached: metrics.probability(format!("{prefix}.reached")),
                fought: metrics.probability(format!("{prefix}.fought")),
                won: metrics.probability(format!("{prefix}.won")),
                inverted: metrics.probability(format!("{prefix}.inverted")),
                joined_late: metrics.probability(format!("{prefix}.joined_late")),
                joined_deferred: metrics.probability(format!("{prefix}.joined_deferred")),
                movement: metrics.distribution(format!("{prefix}.movement"), g.distance as u32),
            },
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

/// The places where forces are met on their way out, deepest first; the mission's last (N-12).
fn combats_deepest_first(groups: &[Group]) -> Vec<Place> {
    let mut places: Vec<(usize, Place)> = Vec::new();
    for g in groups.iter().filter(|g| !g.place.returning) {
        if !places.iter().any(|(_, p)| *p == g.place) {
            places.push((level_of(groups, g.place.force), g.place));
        }
    }
    places.sort_by_key(|(level, _)| std::cmp::Reverse(*level));
    places.into_iter().map(|(_, p)| p).collect()
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
