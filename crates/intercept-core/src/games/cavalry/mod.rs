//! Cavalry interception, *Musket & Pike Battle Series* (rules C-1..C-10 of `docs/rules/cavalry.md`).
//!
//! [`CavalryConfig`](config::CavalryConfig) is the `[cavalry]` table as written; it resolves into a
//! [`Cavalry`] model: one [`Unit`] per interceptor (its eligibility settled at resolve time, its table roll
//! prepared as one d10 node) and one [`Target`] whose reactions follow the reaction table ([`react`], C-6)
//! and whose hedgehog attempts roll a morale check (C-8, C-9). A trial rolls each eligible unit's
//! interception, then lets the target react to each successful interceptor in the listed order; what
//! follows, fire both ways and the morale checks its hits call for, is in [`fire`].
//!
//! The trial is [`Stepped`]: one step per interceptor, over a [`CavalryState`] that holds only what later
//! interceptors read (the target's morale and situation, and under `attempts = "until_success"` whether
//! one has succeeded). What is only reported at the end (successes, hits, morale lost, whether the target
//! ever fired, faced, withdrew, checked) is accumulated beside it, so the exact interpreter carries a few
//! states per interceptor however many there are.

pub mod config;
mod fire;
pub mod odds;
mod picture;
mod react;
mod set;
mod words;

pub use set::CavalryRules;

use serde::{Deserialize, Serialize};

use self::config::{Attempts, CavalryConfig, CombineChecks, LeaderSign, Reaction};
use self::react::{Response, Situation};
use crate::chance::{Chance, Dist};
use crate::exact::{ExactTally, TooLarge};
use crate::metrics::{Metric, Metrics, Recorder};
use crate::model::{Accumulated, Accumulators, Flow, Model, Stepped, play_steps};

/// An interceptor's current order, which picks its row of the interception table (C-2, A-12).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    Charge,
    MakeReady,
    ReceiveCharge,
    Rally,
}

/// Formation state or special formation (C-7).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    #[default]
    Normal,
    Shaken,
    Broken,
    Hedgehog,
    OpenOrder,
    Column,
}

/// Where the interceptor ends its move, relative to the target's facing (C-6).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    #[default]
    Front,
    Flank,
    Rear,
}

/// The intercepted unit's type, the row group of the reaction table (C-6).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    Artillery,
    LightInfantry,
    HeavyInfantry,
    Cavalry,
    Leader,
}

fn kind_name(kind: TargetKind) -> &'static str {
    match kind {
        TargetKind::Artillery => "artillery unit",
        TargetKind::LightInfantry => "light infantry unit",
        TargetKind::HeavyInfantry => "heavy infantry unit",
        TargetKind::Cavalry => "cavalry unit",
        TargetKind::Leader => "leader",
    }
}

/// One interceptor, resolved.
#[derive(Clone, Debug)]
pub struct Unit {
    pub name: String,
    pub eligible: bool,
    /// The table roll: outcome 1 is a successful interception (C-2).
    pub roll: Dist,
    pub ends_in: Facing,
    pub morale: i64,
    /// The target's response to this unit in each [`Situation`]: settled at resolve time so that a trial
    /// only picks one.
    responses: [Response; 4],
    /// Hits of its own fire at the target (C-4.6).
    fire: Dist,
    m: UnitMetrics,
}

#[derive(Clone, Copy, Debug)]
struct UnitMetrics {
    succeeded: Metric,
    drew_fire: Metric,
    engaged: Metric,
    flanked: Metric,
    morale_failed: Metric,
}

/// The moving enemy unit, resolved.
#[derive(Clone, Debug)]
pub struct Target {
    pub kind: TargetKind,
    pub formation: Formation,
    pub morale: i64,
    pub reaction: Reaction,
    /// The leader and simultaneous-check modifiers folded into one shift of the pass threshold (C-9).
    pub shift: i64,
    /// Movement allowance, halved when shaken (C-5.3, C-5.4).
    pub movement: i64,
    pub rally_orders: bool,
    /// Whether it may reaction fire while in hedgehog (not under the seed's reading, C-7.4).
    pub hedgehog_fires: bool,
}

/// The cavalry interception model.
#[derive(Clone, Debug)]
pub struct Cavalry {
    metrics: Metrics,
    pub units: Vec<Unit>,
    pub target: Target,
    pub attempts: Attempts,
    combine: CombineChecks,
    /// `morale_check[n]` passes with probability n/10, for n in 0..=10 (C-10).
    morale_check: Vec<Dist>,
    /// The lowest morale the target's state keeps: at or below it every check of the target fails, with or
    /// without another check rolled with it, and one hit calls for a fire check (C-9.4, C-10), so a lower
    /// morale would change nothing later but would make one more state for the exact interpreter.
    morale_floor: i64,
    /// Hits of the target's reaction fire (C-4.5), in its starting formation.
    reaction_hits: Dist,
    /// The same once it has left open order, broken by a hit or gone into hedgehog: at full strength, as a
    /// target that starts broken fires (C-7.5: "any formation hit sends it straight to FB and ends OO").
    reaction_hits_out_of_order: Dist,
    /// Fire combat hits that call for a morale check, by morale 0 to 10 (C-9.4).
    check_hits: Vec<u32>,
    m: TargetMetrics,
    /// The values a trial accumulates: the counts and flags named by the constants below.
    accumulators: Accumulators,
}

/// Counts a trial accumulates, by index into [`Cavalry::accumulators`].
const INTERCEPTIONS: usize = 0;
const MORALE_LOSS: usize = 1;
const FIRE_HITS: usize = 2;
/// Flags a trial accumulates.
const FIRED: usize = 0;
const HEDGEHOG_ATTEMPTED: usize = 1;
const FACED: usize = 2;
const WITHDREW: usize = 3;
const CHECKED: usize = 4;
const FAILED: usize = 5;

#[derive(Clone, Copy, Debug)]
struct TargetMetrics {
    interceptions: Metric,
    reaction_fire: Metric,
    hedgehog_attempted: Metric,
    hedgehog_formed: Metric,
    morale_loss: Metric,
    facing_changed: Metric,
    withdrew: Metric,
    fire_hits: Metric,
    morale_checked: Metric,
    morale_failed: Metric,
    broken: Metric,
}

/// The target's state within one trial, as far as later interceptors read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct TargetState {
    morale: i64,
    now: Situation,
}

/// A trial's state between two interceptors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CavalryState {
    /// The next interceptor to roll.
    next: usize,
    /// Under `attempts = "until_success"`, whether one has succeeded: the rest no longer roll (C-4.10).
    stopped: bool,
    target: TargetState,
}

impl Cavalry {
    /// Builds the model from a validated config.
    fn new(cfg: &CavalryConfig) -> Cavalry {
        let mut metrics = Metrics::default();
        let n = cfg.interceptor.len() as u32;
        let interceptions = metrics.distribution("cavalry.interceptions", n);
        metrics.describe(
            interceptions,
            "interceptors whose interception roll succeeds, each moving next to the target (C-2, C-3.2)",
        );
        let intercepted = metrics.at_least("cavalry.intercepted", interceptions, 1);
        metrics.describe(
            intercepted,
            "at least one interceptor's roll succeeds and it moves next to the target (C-2, C-4.2)",
        );
        let target = Target::new(cfg);
        let morale_floor = 0.min(target.shift - 1);
        let units = cfg.interceptor.iter().map(|u| Unit::new(cfg, u, &target, &mut metrics)).collect();
        let m = TargetMetrics::new(cfg, interceptions, &mut metrics);
        let morale_check = (0..=10).map(|pass| Dist::bernoulli(pass, 10)).collect();
        let reaction_hits = fire::hits(cfg.fire.hits(target.kind), target.formation, cfg.fire.shaken_hits);
        let reaction_hits_out_of_order = fire::hits(cfg.fire.hits(target.kind), Formation::Normal, 0);
        // Registered through `count` and `flag`, which hold the limits of `Accumulated`, at the indices of
        // the constants INTERCEPTIONS.. and FIRED..: the rules add to them by index.
        let most_hits = (cfg.interceptor.len() * fire::most_hits(&cfg.fire.cavalry)) as u32;
        let mut accumulators = Accumulators::default();
        for (i, (metric, max)) in
            [(m.interceptions, n), (m.morale_loss, n), (m.fire_hits, most_hits)].into_iter().enumerate()
        {
            assert_eq!(accumulators.count(metric, max), i);
        }
        let flags =
            [m.reaction_fire, m.hedgehog_attempted, m.facing_changed, m.withdrew, m.morale_checked, m.morale_failed];
        for (i, metric) in flags.into_iter().enumerate() {
            assert_eq!(accumulators.flag(metric), i);
        }
        Cavalry {
            metrics,
            units,
            target,
            attempts: cfg.attempts,
            combine: cfg.combine_checks,
            morale_check,
            morale_floor,
            reaction_hits,
            reaction_hits_out_of_order,
            check_hits: cfg.fire.check_hits.iter().map(|&h| h as u32).collect(),
            m,
            accumulators,
        }
    }

    /// Each unit's eligibility and table odds, and the target's hedgehog check odds, for `validate`.
    pub fn describe(&self) -> serde_json::Value {
        let units: Vec<_> = self
            .units
            .iter()
            .map(|u| {
                let p = if u.eligible { u.roll.probability(1) } else { 0.0 };
                serde_json::json!({ "name": u.name, "eligible": u.eligible, "p_intercept": p, "ends_in": u.ends_in })
            })
            .collect();
        serde_json::json!({
            "model": "cavalry",
            "attempts": self.attempts,
            "interceptors": units,
            "target": {
                "kind": self.target.kind,
                "formation": self.target.formation,
                "morale": self.target.morale,
                "p_morale_check": self.morale_pass(self.target.morale),
            },
        })
    }

    /// The probability that a hedgehog morale check passes at morale `morale` (C-10).
    pub fn morale_pass(&self, morale: i64) -> f64 {
        self.check_dist(morale, 0).probability(1)
    }

    /// The target's check at `morale`, rolled together with `more` other checks (C-9.1, C-9.2).
    fn check_dist(&self, morale: i64, more: i64) -> &Dist {
        self.pass_node(morale - self.target.shift - more)
    }

    /// A morale check that passes iff d10 (0-9) <= `threshold`: `threshold + 1` faces of 10 (C-9.1, C-10).
    fn pass_node(&self, threshold: i64) -> &Dist {
        &self.morale_check[(threshold + 1).clamp(0, 10) as usize]
    }

    /// One successful interceptor: the target reacts (C-4.5, C-6); unless it withdrew, the interceptor
    /// engages and fires (C-4.6), and the morale checks that calls for are rolled (C-8.2, C-9).
    fn intercept<C: Chance, R: Recorder>(
        &self,
        unit: &Unit,
        st: &mut TargetState,
        acc: &mut Accumulated,
        chance: &mut C,
        rec: &mut R,
    ) {
        let in_hedgehog = st.now.in_hedgehog;
        let response = unit.responses[st.now.index()];
        let mut hedgehog_due = false;
        match response {
            Response::Fire => {
                acc.set(FIRED);
                rec.hit(unit.m.drew_fire);
                self.reaction_fire(unit, st.now, chance, rec);
            }
            Response::Hedgehog => hedgehog_due = true,
            Response::Face => acc.set(FACED),
            Response::Withdraw => {
                // A withdrawal leaves the interception nothing to engage (C-5.4).
                acc.set(WITHDREW);
                return;
            }
            Response::Nothing => {}
        }
        rec.hit(unit.m.engaged);
        rec.flag(unit.m.flanked, !in_hedgehog && response != Response::Face && unit.ends_in != Facing::Front);
        if hedgehog_due && self.combine == CombineChecks::WhenDue {
            self.checks(st, acc, true, false, chance);
            hedgehog_due = false;
        }
        let (hits, fire_due) = self.interceptor_fire(unit, st, acc, chance);
        self.checks(st, acc, hedgehog_due, fire_due, chance);
        // After the checks: a hedgehog formed in this interception replaced the column or open order the
        // fire would have broken (C-8.4), whether its check was rolled before the fire or with it (C-9.2).
        self.formation_effects(st, hits);
    }

    /// What the target's state says at the end; the accumulated values are reported beside it.
    fn report<R: Recorder>(&self, st: &TargetState, rec: &mut R) {
        rec.flag(self.m.hedgehog_formed, st.now.in_hedgehog && self.target.formation != Formation::Hedgehog);
        rec.flag(self.m.broken, st.now.broken && self.target.formation != Formation::Broken);
    }
}

impl Model for Cavalry {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        play_steps(self, chance, rec);
    }

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

impl Stepped for Cavalry {
    type State = CavalryState;

    fn start(&self) -> CavalryState {
        CavalryState { next: 0, stopped: false, target: self.target.start() }
    }

    fn progress(&self, s: &CavalryState) -> u64 {
        s.next as u64
    }

    /// The next interceptor rolls and, if it succeeds, intercepts; after the last, the target's state is
    /// reported.
    fn step<C: Chance, R: Recorder>(
        &self,
        s: &mut CavalryState,
        acc: &mut Accumulated,
        chance: &mut C,
        rec: &mut R,
    ) -> Flow {
        let Some(unit) = self.units.get(s.next) else {
            self.report(&s.target, rec);
            return Flow::End;
        };
        s.next += 1;
        // One roll per unit per activation; a failure uses it up (C-3.2, A-14).
        if unit.eligible && !s.stopped && chance.happens(&unit.roll) {
            acc.add(INTERCEPTIONS, 1);
            s.stopped = self.attempts == Attempts::UntilSuccess;
            rec.hit(unit.m.succeeded);
            self.intercept(unit, &mut s.target, acc, chance, rec);
        }
        Flow::Go
    }

    fn accumulators(&self) -> &Accumulators {
        &self.accumulators
    }
}

impl Unit {
    fn new(cfg: &CavalryConfig, u: &config::InterceptorConfig, target: &Target, metrics: &mut Metrics) -> Unit {
        let threshold = cfg.threshold(u.order);
        let eligible = threshold.is_some() && eligible(cfg, u);
        // "0-x" succeeds on x or less of a d10 read 0-9: x + 1 faces of 10 (C-2).
        let faces = threshold.map_or(0, |t| t + 1) as u64;
        let movement = halved_when_shaken(u.movement, u.formation);
        Unit {
            name: u.name.clone(),
            eligible,
            roll: Dist::bernoulli(faces, 10),
            ends_in: u.ends_in,
            morale: u.morale,
            responses: Situation::ALL.map(|now| target.response(u.ends_in, movement, now)),
            fire: fire::hits(&cfg.fire.cavalry, u.formation, cfg.fire.shaken_hits),
            m: UnitMetrics::new(&u.name, eligible, metrics),
        }
    }
}

impl UnitMetrics {
    fn new(name: &str, eligible: bool, metrics: &mut Metrics) -> UnitMetrics {
        let prefix = format!("cavalry.interceptor.{name}");
        // Eligibility is settled here, once: it costs the trials nothing (C-1).
        let m_eligible = metrics.fixed(format!("{prefix}.eligible"), eligible);
        metrics.describe(m_eligible, format!("{name} may attempt an interception: no condition of C-1 bars it (C-1)"));
        let mut p = |suffix: &str, about: String| metrics.described_probability(format!("{prefix}.{suffix}"), about);
        UnitMetrics {
            succeeded: p(
                "succeeded",
                format!("{name} rolls a success on the interception table and moves next to the target (C-2, C-4.2)"),
            ),
            drew_fire: p(
                "drew_fire",
                format!("the target fires at {name} in reaction as it ends next to it (C-4.5, C-6)"),
            ),
            engaged: p(
                "engaged",
                format!("{name} ends next to a target that stays: it did not withdraw (C-4.5, C-5.4)"),
            ),
            flanked: p(
                "flanked",
                format!("{name} engages the target from its flank or rear: no facing change turned it (C-5.3, C-6)"),
            ),
            morale_failed: p(
                "morale_failed",
                format!("{name} fails the morale check the target's reaction fire hits call for (C-9.4)"),
            ),
        }
    }
}

impl TargetMetrics {
    fn new(cfg: &CavalryConfig, interceptions: Metric, metrics: &mut Metrics) -> TargetMetrics {
        let n = cfg.interceptor.len() as u32;
        let mut p = |name: &str, about: &str| metrics.described_probability(name, about);
        let reaction_fire = p(
            "target.reaction_fire",
            "the target fires in reaction at one or more of the interceptors next to it (C-4.5, C-6)",
        );
        let hedgehog_attempted = p(
            "target.hedgehog_attempted",
            "the target attempts hedgehog at least once, by choice or forced by cavalry in its rear (C-5.2, C-8.3)",
        );
        let hedgehog_formed = p(
            "target.hedgehog_formed",
            "the target, not in hedgehog at the start, forms it with a passed morale check (C-8.2, C-9)",
        );
        let morale_loss = metrics.distribution("target.morale_loss", n);
        metrics.describe(morale_loss, "morale points the target loses to failed hedgehog morale checks (C-8.2)");
        let morale_lost = metrics.at_least("target.morale_lost", morale_loss, 1);
        metrics
            .describe(morale_lost, "the target fails at least one hedgehog morale check and loses morale (C-8.2, C-9)");
        let mut p = |name: &str, about: &str| metrics.described_probability(name, about);
        let facing_changed =
            p("target.facing_changed", "the target changes facing toward an interceptor in its flank or rear (C-5.3)");
        let withdrew =
            p("target.withdrew", "the target withdraws from an interceptor, leaving it nothing to engage (C-5.4)");
        let morale_checked = p(
            "target.morale_checked",
            "the target takes a morale check: for hedgehog or for the interceptors' fire hits (C-8.2, C-9.4)",
        );
        let morale_failed =
            p("target.morale_failed", "the target fails at least one morale check, hedgehog or fire (C-8.2, C-9.4)");
        let broken = p(
            "target.broken",
            "the fire breaks the target: in column when fired on, in open order when hit; a target that starts broken is not counted (C-7.5, C-7.6)",
        );
        let most = cfg.interceptor.len() * fire::most_hits(&cfg.fire.cavalry);
        let fire_hits = metrics.distribution("target.fire_hits", most as u32);
        metrics.describe(fire_hits, "fire combat hits the interceptors' own fire lands on the target (C-4.6)");
        TargetMetrics {
            interceptions,
            reaction_fire,
            hedgehog_attempted,
            hedgehog_formed,
            morale_loss,
            facing_changed,
            withdrew,
            fire_hits,
            morale_checked,
            morale_failed,
            broken,
        }
    }
}

/// A movement allowance, halved (rounded down) for a shaken unit (C-7.2).
fn halved_when_shaken(movement: i64, formation: Formation) -> i64 {
    if formation == Formation::Shaken { movement / 2 } else { movement }
}

/// Whether a unit may attempt at all (C-1); Rally is excluded by its missing table row (C-1.7).
fn eligible(cfg: &CavalryConfig, u: &config::InterceptorConfig) -> bool {
    barred_by(cfg, u).is_empty()
}

/// Every condition of C-1 that bars the unit from attempting, in words with its rule; empty if it may.
/// Eligibility is decided here, so the report's reasons cannot disagree with the model.
pub fn barred_by(cfg: &CavalryConfig, u: &config::InterceptorConfig) -> Vec<String> {
    let far = format!("the enemy is more than {} hexes away (C-1.3)", cfg.max_distance);
    [
        (u.formation == Formation::Broken, "it is Formation Broken (C-1.2)".to_owned()),
        (u.formation == Formation::Hedgehog, "it is in hedgehog and cannot move (C-1.9)".to_owned()),
        (u.distance > cfg.max_distance, far),
        (cfg.target.moving_by_interception, "the target is itself moving by interception (C-1.4)".to_owned()),
        (u.already_intercepted, "it has already intercepted this Wing activation (C-1.5)".to_owned()),
        (!u.can_move_adjacent, "it cannot move adjacent to the target (C-1.6)".to_owned()),
        (u.order == Order::Rally, "it is under Rally orders (C-1.7)".to_owned()),
    ]
    .into_iter()
    .filter_map(|(bars, why)| bars.then_some(why))
    .collect()
}

impl Target {
    fn new(cfg: &CavalryConfig) -> Target {
        let t = &cfg.target;
        // C-9.3: modified roll = d10 ∓ L + (k − 1) with k = 1 + extra_checks simultaneous checks (C-9.2).
        let leader = match cfg.leader_sign {
            LeaderSign::Subtract => -t.leader,
            LeaderSign::Add => t.leader,
        };
        Target {
            kind: t.kind,
            formation: t.formation,
            morale: t.morale,
            reaction: t.reaction,
            shift: leader + t.extra_checks,
            movement: halved_when_shaken(t.movement.unwrap_or(default_movement(t.kind)), t.formation),
            rally_orders: t.rally_orders,
            hedgehog_fires: cfg.hedgehog_fires,
        }
    }

    fn start(&self) -> TargetState {
        TargetState {
            morale: self.morale,
            now: Situation {
                in_hedgehog: self.formation == Formation::Hedgehog,
                broken: self.formation == Formation::Broken,
            },
        }
    }
}

/// Movement allowances by kind where the config gives none: our reading, not the seed's (it prints none).
pub fn default_movement(kind: TargetKind) -> i64 {
    match kind {
        TargetKind::Artillery => 2,
        TargetKind::HeavyInfantry => 3,
        TargetKind::LightInfantry => 4,
        TargetKind::Cavalry => 6,
        TargetKind::Leader => 8,
    }
}
