//! The naval metrics, each registered with its one-line description and rule IDs: the mission's
//! ([`MissionMetrics`]) and each group's ([`GroupMetrics`]). Metrics of a reading a scenario does not use
//! (retargeting, abandoning, losses, air attacks going home) are registered only when it uses it, so a
//! scenario's outputs list only what can happen in it.

use super::MAX_GROUPS;
use super::config::{Abandon, CombatModel, NavalConfig};
use crate::metrics::{Metric, Metrics};

#[derive(Clone, Copy, Debug)]
pub(super) struct GroupMetrics {
    pub reached: Metric,
    pub fought: Metric,
    pub won: Metric,
    pub inverted: Metric,
    pub joined_late: Metric,
    pub joined_deferred: Metric,
    pub rolled: Metric,
    pub movement: Metric,
    pub abandoned: Option<Metric>,
}

/// The groups' yes/no facts, one table of metrics per fact indexed by group, in the order [`Trial`]'s masks
/// are reported: a trial reports a fact by walking the bits of its mask, one hit per group it holds for,
/// instead of asking every group about every fact. A table has an entry for every bit of a mask, so a hit
/// needs no bounds check; entries past the last group repeat its metric and are never read.
///
/// [`Trial`]: super::trial::Trial
#[derive(Clone, Debug)]
pub(super) struct GroupFacts(pub Vec<[Metric; MAX_GROUPS]>);

impl GroupFacts {
    /// Reached, fought, won, joined late, joined deferred, inverted, and abandoned where it is registered.
    pub fn new(groups: &[GroupMetrics]) -> GroupFacts {
        let fact = |f: fn(&GroupMetrics) -> Option<Metric>| {
            let metrics = groups.iter().map(f).collect::<Option<Vec<_>>>()?;
            let last = *metrics.last()?;
            Some(std::array::from_fn(|i| metrics.get(i).copied().unwrap_or(last)))
        };
        let facts = [
            fact(|m| Some(m.reached)),
            fact(|m| Some(m.fought)),
            fact(|m| Some(m.won)),
            fact(|m| Some(m.joined_late)),
            fact(|m| Some(m.joined_deferred)),
            fact(|m| Some(m.inverted)),
            fact(|m| m.abandoned),
        ];
        GroupFacts(facts.into_iter().flatten().collect())
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct MissionMetrics {
    pub intercepted: Metric,
    pub engaged: Metric,
    pub completed: Metric,
    pub returned: Metric,
    pub caught_going_home: Metric,
    pub rounds: Metric,
    pub caught_further_on: Option<Metric>,
    pub attacked_going_home: Option<Metric>,
    pub factors_left: Option<Metric>,
}

impl MissionMetrics {
    pub fn new(cfg: &NavalConfig, metrics: &mut Metrics) -> MissionMetrics {
        let mut p = |name: &str, about: &str| metrics.described_probability(name, about);
        let intercepted = p(
            "mission.intercepted",
            "a non-submarine interceptor reaches the mission's interception hex on its way out (N-8.4, N-8.6)",
        );
        let engaged = p(
            "mission.engaged",
            "the mission fights a naval combat where it is intercepted on its way out (N-12, N-16)",
        );
        let completed = p(
            "mission.completed",
            "the mission carries on with its purpose: not beaten in combat nor turned back by air (N-13, N-17.1)",
        );
        let returned =
            p("mission.returned", "the mission heads home, beaten in combat or turned back by air (N-13, N-17.2)");
        let caught_going_home = p(
            "mission.caught_going_home",
            "the mission is intercepted again on its way home and fights a naval combat there (N-17.2, N-17.4)",
        );
        let caught_further_on = cfg.delayed.retarget.then(|| {
            p(
                "mission.caught_further_on",
                "a delayed interceptor retargets a hex further along the mission's route and fights it there (A-9)",
            )
        });
        let attacked_going_home = (cfg.air.p_attack_going_home > 0.0)
            .then(|| p("mission.attacked_going_home", "air units attack the mission on its way home (N-13.1, N-17.2)"));
        let rounds = metrics.distribution("combat.rounds", cfg.combat.max_rounds as u32);
        metrics.describe(
            rounds,
            "combat rounds fought where the mission is intercepted on its way out; 0 without combat (N-16.4)",
        );
        let factors_left = losses_possible(cfg).then(|| {
            let m = metrics.distribution("mission.factors_left", cfg.mission.factors as u32);
            metrics.describe(m, "the mission's naval factors at the end, after combat and air losses (N-13, N-16.4)")
        });
        MissionMetrics {
            intercepted,
            engaged,
            completed,
            returned,
            caught_going_home,
            rounds,
            caught_further_on,
            attacked_going_home,
            factors_left,
        }
    }
}

/// Whether any force can lose factors: the strength model's round losses, or air attacks with losses.
pub(super) fn losses_possible(cfg: &NavalConfig) -> bool {
    let combat = cfg.combat.model == CombatModel::Strength && cfg.combat.losses_percent > 0;
    let air = cfg.air.losses_percent > 0 && (cfg.air.p_attack_en_route > 0.0 || cfg.air.p_attack_going_home > 0.0);
    combat || air
}

impl GroupMetrics {
    /// `waits`: it is a counter-interceptor that may roll after its target's delayed rolls (N-15.3).
    pub fn new(cfg: &NavalConfig, i: usize, waits: bool, metrics: &mut Metrics) -> GroupMetrics {
        let g = &cfg.group[i];
        let (prefix, name) = (format!("group.{}", g.name), &g.name);
        let mut p = |suffix: &str, about: String| metrics.described_probability(format!("{prefix}.{suffix}"), about);
        let reached = p(
            "reached",
            match waits {
                false => format!("{name} reaches its interception hex with its first roll or patrol move (N-7, N-8.4)"),
                true => format!(
                    "{name} reaches its target with its first roll, or with a roll after one of its delayed rolls \
                     (N-8.4, N-15.3)"
                ),
            },
        );
        let fought =
            p("fought", format!("{name} fights a naval combat, or as a submarine makes its attack (N-16, N-19)"));
        let won = p(
            "won",
            format!(
                "{name} is on the winning side of its last combat, or its submarine attack succeeds (N-16.4, N-19)"
            ),
        );
        let inverted = p(
            "inverted",
            format!("{name} is inverted back in port: it fought or found its target gone, not withheld (N-18)"),
        );
        let joined_late = p(
            "joined_late",
            format!("{name} fell short, closed in by one die a round and joined a combat between rounds (N-15)"),
        );
        let joined_deferred = p(
            "joined_deferred",
            format!("{name} deferred to a fellow's counter-interception combat and joined it (N-14)"),
        );
        let rolled = p(
            "rolled",
            format!("{name} rolls for its first move (or makes its patrol move): its target is at sea (N-7, N-8)"),
        );
        let abandoned = (cfg.delayed.abandon != Abandon::Never)
            .then(|| p("abandoned", format!("{name} abandons its delayed interception and goes home (N-15.1)")));
        // Over the trials it rolls in: a group whose target never sailed moved no hexes, but it did not roll
        // a 0 either, and two Pacific dice always move at least one hex.
        let movement = metrics.distribution_given(format!("{prefix}.movement"), g.hexes() as u32, rolled);
        metrics.describe(
            movement,
            format!("hexes {name} covers toward its interception hex with its first roll, when it rolls (N-7, N-8)"),
        );
        GroupMetrics { reached, fought, won, inverted, joined_late, joined_deferred, rolled, movement, abandoned }
    }
}
