//! Building the [`Naval`] model from a validated config: each [`Group`] with its dice and movement nodes,
//! the [`Meeting`]s where groups fight, the orders of play (N-10.1, N-12, N-17), and the masks a trial
//! reads (fellows, closers, counter-interceptors that wait for delayed rolls, subtrees of the chain).

use super::config::{CombatModel, DelayedCounter, Leg, NavalConfig, OnFail};
use super::metrics::{GroupFacts, GroupMetrics, MissionMetrics};
use super::{Defer, Force, Group, Level, MAX_GROUPS, Meeting, Move, Naval, Nodes, Place, Readings, dice};
use crate::chance::Dist;
use crate::metrics::Metrics;

impl Naval {
    pub(super) fn new(cfg: &NavalConfig, levels: &[usize]) -> Naval {
        let mut metrics = Metrics::default();
        let m = MissionMetrics::new(cfg, &mut metrics);
        let waits = waiting_counters(cfg, levels);
        let mut groups: Vec<Group> =
            (0..cfg.group.len()).map(|i| Group::new(cfg, levels, i, has(waits, i), &mut metrics)).collect();
        for i in 0..groups.len() {
            groups[i].fellows = mask(&groups, |g| g.aim == groups[i].aim && !g.submarine);
        }
        let meetings = meetings(&groups);
        let (resolve_order, return_order) = meeting_order(&groups, &meetings);
        let mission_out = Place { force: Force::Mission, home: 0 };
        let met_at = (0..groups.len())
            .map(|j| meetings.iter().position(|m| m.place == Place { force: Force::Group(j), home: 0 }))
            .collect();
        let waited_for = return_order.iter().fold(0, |mask, &k| match meetings[k].place.force {
            Force::Group(j) => mask | 1 << j,
            Force::Mission => mask,
        });
        let levels = by_level(&groups);
        // Once its combat is fought, a group that has rolled is done, unless a force going home waits for it
        // (N-17) or it may retarget a hex further on.
        let mission_meeting = meetings.iter().position(|m| m.place == mission_out);
        let report_after: Vec<u32> = (0..meetings.len())
            .map(|k| {
                let retargets = cfg.delayed.retarget && Some(k) == mission_meeting;
                if retargets { 0 } else { meetings[k].members & !waited_for }
            })
            .collect();
        Naval {
            metrics,
            side: cfg.side,
            mission_name: cfg.mission.name.clone(),
            mission_factors: cfg.mission.factors as u16,
            tracks_factors: cfg.combat.model == CombatModel::Strength || super::metrics::losses_possible(cfg),
            roll_order: roll_order(&levels),
            stages: super::play::stages(
                roll_order(&levels).len(),
                &resolve_order,
                cfg.delayed.retarget,
                &return_order,
                &report_after,
                groups.len(),
            ),
            report_after,
            aimed_at: (0..groups.len())
                .map(|j| out_leg(&groups) & mask(&groups, |g| g.target == Force::Group(j)))
                .collect(),
            mission_aimed: out_leg(&groups) & mask(&groups, |g| g.target == Force::Mission),
            below: (0..groups.len()).map(|j| below(&groups, j)).collect(),
            met_at,
            mission_meeting,
            waited_for,
            meetings,
            progress: super::play::Progress::new(cfg.combat.max_rounds as u32, resolve_order.len()),
            resolve_order,
            return_order,
            mission_fellows: mask(&groups, |g| g.aim == mission_out && !g.submarine),
            closes_in: mask(&groups, |g| g.on_fail == OnFail::CloseIn),
            waits,
            levels,
            submarines: mask(&groups, |g| g.submarine),
            withheld: mask(&groups, |g| g.withheld),
            facts: GroupFacts::new(&groups.iter().map(|g| g.m).collect::<Vec<_>>()),
            groups,
            nodes: Nodes::new(cfg),
            readings: Readings::new(cfg),
            m,
            chart: None,
        }
    }
}

impl Group {
    fn new(cfg: &NavalConfig, levels: &[usize], i: usize, waits: bool, metrics: &mut Metrics) -> Group {
        let g = &cfg.group[i];
        let target = force_named(cfg, &g.target);
        let target_factors = match target {
            Force::Mission => cfg.mission.factors,
            Force::Group(t) => cfg.group[t].factors,
        };
        let dice = dice::dice_count(cfg, g, levels[i], target_factors);
        let first_move = movement(cfg, i, levels[i], target_factors, g.hexes() as u32);
        let retarget_distance = g.retarget_distance.unwrap_or(g.hexes()) as u32;
        Group {
            name: g.name.clone(),
            level: levels[i],
            target,
            aim: Place { force: target, home: home_hex(cfg, i) },
            place: place_of(cfg, i),
            dice,
            distance: g.hexes() as u32,
            factors: g.factors as u16,
            submarine: g.submarine,
            withheld: g.withheld,
            on_fail: g.on_fail,
            defer: g.defer_to.as_ref().map(|f| Defer {
                place: Place { force: force_named(cfg, f), home: 0 },
                along: g.defer_along as u32,
                off: g.defer_distance as u32,
            }),
            first_move,
            retarget: cfg.delayed.retarget.then(|| movement(cfg, i, levels[i], target_factors, retarget_distance)),
            fellows: 0,
            m: GroupMetrics::new(cfg, i, waits, metrics),
        }
    }
}

/// Group `i`'s first move toward a hex `distance` away, with its dice against a target of `factors`
/// factors, and with the small-force die fewer (N-5.8) if losses could bring the target under the threshold.
fn movement(cfg: &NavalConfig, i: usize, level: usize, factors: i64, distance: u32) -> Move {
    let g = &cfg.group[i];
    let node = |f: i64| dice::first_move(cfg, g, dice::dice_count(cfg, g, level, f).dice, distance);
    let small = (factors >= cfg.rules.small_force_threshold && super::metrics::losses_possible(cfg)).then(|| node(0));
    Move::new(node(factors), small, cfg.rules.max_range)
}

fn home_hex(cfg: &NavalConfig, i: usize) -> u8 {
    let g = &cfg.group[i];
    if g.leg == Leg::Return { g.return_hex as u8 } else { 0 }
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
        target => Place { force: target, home: home_hex(cfg, i) },
    }
}

/// Counter-interceptors that meet their target on its way (not at the interception hex): under the text's
/// reading, when their target falls short they get their chance after each of its delayed rolls (N-15.3).
fn waiting_counters(cfg: &NavalConfig, levels: &[usize]) -> u32 {
    if cfg.delayed.counter_interception != DelayedCounter::AfterEachRoll {
        return 0;
    }
    let waits = |i: usize| {
        let g = &cfg.group[i];
        levels[i] >= 2 && g.leg == Leg::Out && !g.at_interception_hex
    };
    (0..cfg.group.len()).filter(|&i| waits(i)).fold(0, |m, i| m | 1 << i)
}

fn level_of(groups: &[Group], force: Force) -> usize {
    match force {
        Force::Mission => 0,
        Force::Group(i) => groups[i].level,
    }
}

/// The out-leg groups of each level, shallowest first, with the groups they target (N-10.1, N-11.1).
fn by_level(groups: &[Group]) -> Vec<Level> {
    let deepest = groups.iter().map(|g| g.level).max().unwrap_or(0);
    let level = |l: usize| {
        let members = out_leg(groups) & mask(groups, |g| g.level == l);
        let targets = each_bit(members).fold(0, |m, i| match groups[i].target {
            Force::Group(j) => m | 1 << j,
            Force::Mission => m,
        });
        Level { members, targets }
    };
    (1..=deepest).map(level).collect()
}

/// Every out-leg group with its level's index, in the order the levels roll (N-10.1, N-11.1).
fn roll_order(levels: &[Level]) -> Vec<(usize, usize)> {
    levels.iter().enumerate().flat_map(|(l, level)| each_bit(level.members).map(move |i| (i, l))).collect()
}

fn out_leg(groups: &[Group]) -> u32 {
    mask(groups, |g| !g.aim.returning())
}

fn each_bit(mask: u32) -> impl Iterator<Item = usize> {
    (0..MAX_GROUPS).filter(move |&i| has(mask, i))
}

/// The out-leg groups whose chain of targets runs through group `j`.
fn below(groups: &[Group], j: usize) -> u32 {
    let under = |mut i: usize| loop {
        match groups[i].target {
            Force::Group(t) if t == j => return true,
            Force::Group(t) => i = t,
            Force::Mission => return false,
        }
    };
    out_leg(groups) & (0..groups.len()).filter(|&i| under(i)).fold(0, |m, i| m | 1 << i)
}

fn has(mask: u32, i: usize) -> bool {
    mask >> i & 1 != 0
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
                deferring: mask(groups, |g| g.defer.is_some_and(|d| d.place == place)),
                against,
                intercepting: members & against & !mask(groups, |g| g.submarine),
            }
        })
        .collect()
}

/// The meetings on the way out, deepest first, the mission's last (N-12); and those on the way home, by
/// hex on the way.
fn meeting_order(groups: &[Group], meetings: &[Meeting]) -> (Vec<usize>, Vec<usize>) {
    let (mut out, mut home): (Vec<usize>, Vec<usize>) =
        (0..meetings.len()).partition(|&k| !meetings[k].place.returning());
    out.sort_by_key(|&k| std::cmp::Reverse(level_of(groups, meetings[k].place.force)));
    home.sort_by_key(|&k| meetings[k].place.home);
    (out, home)
}

impl Nodes {
    fn new(cfg: &NavalConfig) -> Nodes {
        // The farthest a delayed die may have to go: a deferring group's own hex from off its path (N-14.3).
        let reach = |g: &super::config::GroupConfig| g.hexes() + g.defer_distance;
        let max_distance = cfg.group.iter().map(|g| reach(g) as u32).max().unwrap_or(0);
        let halve = dice::halved(cfg);
        let c = &cfg.combat;
        Nodes {
            model: c.model,
            intercepting_side_wins: Dist::bernoulli_f64(c.p_intercepting_side_wins),
            bands: c.band.iter().map(|b| (b.ratio, Dist::bernoulli_f64(b.p_win))).collect(),
            round_losses: if c.model == CombatModel::Strength { c.losses_percent as u8 } else { 0 },
            end_after_round: Dist::bernoulli_f64(c.p_end_after_round),
            max_rounds: c.max_rounds as u32,
            air_attack: Dist::bernoulli_f64(cfg.air.p_attack_en_route),
            turn_back: Dist::bernoulli_f64(cfg.air.p_turn_back),
            air_home: Dist::bernoulli_f64(cfg.air.p_attack_going_home),
            air_losses: cfg.air.losses_percent as u8,
            sub_attack: Dist::bernoulli_f64(cfg.submarine.p_attack_succeeds),
            delayed: (0..=max_distance).map(|r| dice::delayed_step(halve, r)).collect(),
        }
    }
}

impl Readings {
    fn new(cfg: &NavalConfig) -> Readings {
        let d = &cfg.delayed;
        Readings {
            placement: cfg.deferral.placement,
            abandon: d.abandon,
            abandon_after: d.abandon_after as u8,
            retarget: d.retarget,
            home_after: cfg.way_home.after,
            small_force_threshold: cfg.rules.small_force_threshold as u16,
        }
    }
}

const _: () = assert!(MAX_GROUPS <= 32, "a trial keeps one bit per group in a u32");
