//! Naval interception, *A World at War* (rules N-0..N-19 of `docs/rules/naval.md`).
//!
//! [`NavalConfig`](config::NavalConfig) is the `[naval]` table as written; it resolves ([`build`]) into a
//! [`Naval`] model whose [`Group`]s carry everything settled before play: level and side (N-0), dice count
//! (N-4..N-6, see [`dice`]), the movement nodes, and where the group fights ([`Place`]). Groups that fight at
//! one place form a [`Meeting`], with its members, the groups deferring to it (N-14) and the side each
//! fights on, as bit masks over the groups. The trial itself, the sequence of play, is in [`play`], over the
//! state all its files read ([`trial`]); what happens where forces meet in [`combat`]; delayed
//! interceptions, deferral and retargeting in [`late`]; the way home in [`home`].

mod build;
mod combat;
pub mod config;
pub mod dice;
mod home;
mod late;
mod map_picture;
mod metrics;
pub mod odds;
mod picture;
mod play;
mod set;
mod trial;
mod words;

pub use set::NavalRules;

use self::config::{Abandon, CombatModel, HomeAfter, MaxRange, OnFail, Placement, Side};
use self::dice::DiceCount;
use self::metrics::{GroupFacts, GroupMetrics, MissionMetrics};
use crate::chance::{Chance, Dist};
use crate::exact::{ExactTally, TooLarge};
use crate::metrics::{Metrics, Recorder};
use crate::model::{Accumulated, Accumulators, Flow, Model, Stepped};

/// The most groups a scenario may have: a trial keeps one bit per group in a `u32`.
pub const MAX_GROUPS: usize = 32;

/// A force that can be intercepted: the mission (level 0) or a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Force {
    Mission,
    Group(usize),
}

/// Where a group fights: where it meets a force on its way out (`home = 0`), or at the `home`-th
/// interception hex on its way home (N-17.2, N-17.4). A counter-interception aimed at the interception hex
/// fights wherever its target fights (N-10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub force: Force,
    pub home: u8,
}

impl Place {
    pub fn returning(self) -> bool {
        self.home > 0
    }
}

/// A group's first move toward a hex: its dice as configured, and, when losses could make its target small
/// (N-5.8), the move with the small-force die fewer.
#[derive(Clone, Debug)]
pub struct Move {
    pub dist: Dist,
    split: Split,
    small: Option<Split>,
}

/// One move drawn late (issue 37): whether it reaches the hex is drawn as it is rolled, and how far short it
/// fell only when a rule first reads it (a delayed roll, a deferral, the report of `movement`), so that the
/// exact interpreter carries one state for every way of falling short until then.
#[derive(Clone, Debug)]
pub struct Split {
    /// Reaches the hex (outcome 1) or not.
    pub reach: Dist,
    /// Whether the group attempts at all with these dice (N-8.5, A-3): false only under `rules.max_range =
    /// "largest_roll"` when no roll reaches the hex. Judged on the dice it rolls, so a target made small by
    /// losses (N-5.8) can put the hex out of range.
    attempts: bool,
    /// Hexes moved, given that it fell short: `None` where it cannot.
    short: Option<Dist>,
}

impl Split {
    /// `dist`'s last outcome against the others, and the others by themselves.
    fn of(dist: &Dist, range: MaxRange) -> Split {
        let last = dist.len() - 1;
        let weights: Vec<u64> = (0..last).map(|m| dist.weight(m)).collect();
        let short = weights.iter().any(|&w| w > 0).then(|| Dist::from_weights(&weights));
        let attempts = range == MaxRange::Unlimited || dist.weight(last) > 0;
        Split { reach: Dist::bernoulli(dist.weight(last), dist.total()), attempts, short }
    }
}

impl Move {
    pub fn new(dist: Dist, small: Option<Dist>, range: MaxRange) -> Move {
        Move { split: Split::of(&dist, range), small: small.as_ref().map(|d| Split::of(d, range)), dist }
    }

    /// Whether the group attempts with its dice as configured (N-8.5): what a scenario's description says.
    pub fn in_range(&self) -> bool {
        self.split.attempts
    }

    /// Whether to roll the small-force move against a target whose factors now are `factors()`: read only
    /// where losses could have made it small.
    fn small_against(&self, factors: impl FnOnce() -> u16, threshold: u16) -> bool {
        self.small.is_some() && factors() < threshold
    }

    /// The move as split, small-force or not.
    fn split(&self, small: bool) -> &Split {
        match &self.small {
            Some(s) if small => s,
            _ => &self.split,
        }
    }
}

/// Where a deferring group is headed: the combat where its fellow is counter-intercepted, which lies
/// `off` hexes from the hex of its path `along` hexes out (N-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defer {
    pub place: Place,
    pub along: u32,
    pub off: u32,
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
    pub factors: u16,
    pub submarine: bool,
    pub withheld: bool,
    pub on_fail: OnFail,
    pub defer: Option<Defer>,
    /// First-round movement: hexes moved, capped at the distance.
    pub first_move: Move,
    /// With `naval.delayed.retarget`: its roll for a hex further along its target's route.
    pub retarget: Option<Move>,
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

/// The out-leg groups of one level, and the groups they target (a level up).
#[derive(Clone, Copy, Debug)]
struct Level {
    members: u32,
    targets: u32,
}

/// The chance nodes of combat, air attack and submarine attack, and the numbers of the combat model
/// (N-13, N-16, N-19).
#[derive(Clone, Debug)]
struct Nodes {
    model: CombatModel,
    intercepting_side_wins: Dist,
    /// Strength model: (lowest ratio, the intercepting side wins the round), lowest ratio first.
    bands: Vec<(f64, Dist)>,
    round_losses: u8,
    end_after_round: Dist,
    max_rounds: u32,
    air_attack: Dist,
    turn_back: Dist,
    air_home: Dist,
    air_losses: u8,
    sub_attack: Dist,
    /// `delayed[r]`: one delayed die with `r` hexes still to go (N-15).
    delayed: Vec<Dist>,
}

/// The readings of the later steps of play (N-14.3, N-15, N-17, A-9, A-20).
#[derive(Clone, Debug)]
struct Readings {
    placement: Placement,
    abandon: Abandon,
    abandon_after: u8,
    retarget: bool,
    home_after: HomeAfter,
    small_force_threshold: u16,
}

/// The naval interception model.
#[derive(Clone, Debug)]
pub struct Naval {
    metrics: Metrics,
    /// Whose question the answer puts first (`naval.side`).
    pub side: Side,
    pub mission_name: String,
    pub mission_factors: u16,
    pub groups: Vec<Group>,
    /// Whether any force can lose factors, so a trial must track them (N-13, N-16.4).
    tracks_factors: bool,
    /// The out-leg groups of each level, shallowest first, that roll in that order; within a level, as
    /// listed (N-10.1, N-11.1).
    levels: Vec<Level>,
    /// `(group, level)` for every out-leg group, in the order of `levels`: one first roll per step.
    roll_order: Vec<(usize, usize)>,
    /// The steps of a trial ([`play::Stage`]).
    stages: Vec<play::Stage>,
    /// The units of a trial's progress, for the exact interpreter ([`play::Progress`]).
    progress: play::Progress,
    /// `report_after[k]`: the groups whose part is over once meeting `k` is fought, if they have rolled
    /// ([`play::Stage::ReportGroup`]).
    report_after: Vec<u32>,
    /// `aimed_at[j]`: the out-leg groups whose target is group `j`.
    aimed_at: Vec<u32>,
    /// The out-leg groups whose target is the mission.
    mission_aimed: u32,
    meetings: Vec<Meeting>,
    /// Meetings with a force on its way out, deepest first (N-12).
    resolve_order: Vec<usize>,
    /// Meetings with a force going home, by hex on the way (N-17.2).
    return_order: Vec<usize>,
    /// The meeting with the mission on its way out, where A-9's retargeting groups fight it again.
    mission_meeting: Option<usize>,
    /// The groups a return-leg group waits for: whose way home is followed, air attacks included (N-17).
    waited_for: u32,
    /// `met_at[j]`: the meeting where group `j` is counter-intercepted away from the interception hex.
    met_at: Vec<Option<usize>>,
    /// `below[j]`: the out-leg groups whose chain of targets runs through group `j`.
    below: Vec<u32>,
    /// The groups whose interception of the mission on its way out counts (N-8.6).
    mission_fellows: u32,
    /// Groups that close in when they fall short; the others abort (N-9).
    closes_in: u32,
    /// Counter-interceptors that wait for their target's delayed rolls when it falls short (N-15.3).
    waits: u32,
    submarines: u32,
    withheld: u32,
    nodes: Nodes,
    readings: Readings,
    m: MissionMetrics,
    facts: GroupFacts,
    /// With a map: the scenario's chart, and the typed config it equals, which the model was built from.
    pub chart: Option<std::sync::Arc<(config::chart::Chart, config::NavalConfig)>>,
}

impl Naval {
    /// The config the model was built from: the one written, or with a map the typed config its chart
    /// equals (every distance typed in).
    pub fn typed<'a>(&'a self, written: &'a config::NavalConfig) -> &'a config::NavalConfig {
        self.chart.as_ref().map_or(written, |c| &c.1)
    }
}

impl Naval {
    /// Each group's level, side, dice count and first-round odds, for `validate`.
    pub fn describe(&self) -> serde_json::Value {
        let groups: Vec<_> = self
            .groups
            .iter()
            .map(|g| {
                let mut out = serde_json::json!({
                    "name": g.name,
                    "level": g.level,
                    "side": if g.level % 2 == 1 { "defender" } else { "moving" },
                    "leg": if g.aim.returning() { "return" } else { "out" },
                    "dice": g.dice.dice,
                    "base_dice": g.dice.base,
                    "modifiers": g.dice.modifiers,
                    "distance": g.distance,
                    "p_reach": g.first_move.dist.probability(g.distance as usize),
                });
                if !g.first_move.in_range() {
                    out["in_range"] = false.into();
                }
                out
            })
            .collect();
        let mut out = serde_json::json!({ "model": "naval", "mission": self.mission_name, "groups": groups });
        if let Some(chart) = &self.chart {
            chart.0.describe(&chart.1, &mut out);
        }
        out
    }
}

impl Model for Naval {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        self.play(chance, rec);
    }

    /// By the leaf walk for a small tree, else by merging states (issue 37): operation-harpoon's 330,488
    /// leaves solve in 16 ms against 133 ms, a chain of eight with 8 x 10^10 leaves in 2 ms.
    fn solve(&self, max_leaves: u64) -> Result<ExactTally, TooLarge> {
        crate::exact::states::solve_or_walk(self, max_leaves)
    }

    fn solve_within(&self, limits: &crate::exact::Limits) -> Result<ExactTally, TooLarge> {
        crate::exact::states::solve_or_walk_within(self, limits)
    }

    fn solve_by_states(&self, max_leaves: u64) -> Option<Result<ExactTally, TooLarge>> {
        Some(crate::exact::states::solve(self, max_leaves))
    }
}

/// A naval trial accumulates nothing beside its state: every fact it reports is in the [`trial::Trial`].
static NOTHING: Accumulators = Accumulators { counts: Vec::new(), flags: Vec::new() };

impl Stepped for Naval {
    type State = play::NavalState;

    fn start(&self) -> play::NavalState {
        Naval::start(self)
    }

    fn progress(&self, state: &play::NavalState) -> u64 {
        self.progress_of(state)
    }

    fn step<C: Chance, R: Recorder>(
        &self,
        state: &mut play::NavalState,
        _acc: &mut Accumulated,
        chance: &mut C,
        rec: &mut R,
    ) -> Flow {
        self.take_step(state, chance, rec)
    }

    fn accumulators(&self) -> &Accumulators {
        &NOTHING
    }
}
