//! Cavalry interception, *Musket & Pike Battle Series* (rules C-1..C-10 of `docs/rules/cavalry.md`).
//!
//! [`CavalryConfig`](config::CavalryConfig) is the `[cavalry]` table as written; it resolves into a
//! [`Cavalry`] model: one [`Unit`] per interceptor (its eligibility settled at resolve time, its table roll
//! prepared as one d10 node) and one [`Target`] whose reactions follow the reaction table (C-6) and whose
//! hedgehog attempts roll a morale check (C-8, C-9). A trial rolls each eligible unit's interception, then
//! lets the target react to each successful interceptor in the listed order.

pub mod config;
pub mod odds;
mod set;
mod words;

pub use set::CavalryRules;

use serde::{Deserialize, Serialize};

use self::config::{Attempts, CavalryConfig, LeaderSign, Reaction};
use crate::chance::{Chance, Dist};
use crate::metrics::{Metric, Metrics, Recorder};
use crate::model::Model;

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

/// One interceptor, resolved.
#[derive(Clone, Debug)]
pub struct Unit {
    pub name: String,
    pub eligible: bool,
    /// The table roll: outcome 1 is a successful interception (C-2).
    pub roll: Dist,
    pub ends_in: Facing,
    /// The target's response to this unit, with the target out of and in hedgehog: settled at resolve time
    /// so that a trial only picks one of the two.
    responses: [Response; 2],
    m_succeeded: Metric,
    m_drew_fire: Metric,
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
}

/// What the target does when an interceptor ends next to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Response {
    Fire,
    Hedgehog,
    Nothing,
}

/// The cavalry interception model.
#[derive(Clone, Debug)]
pub struct Cavalry {
    metrics: Metrics,
    pub units: Vec<Unit>,
    pub target: Target,
    pub attempts: Attempts,
    /// `morale_check[n]` passes with probability n/10, for n in 0..=10 (C-10).
    morale_check: Vec<Dist>,
    m: TargetMetrics,
}

#[derive(Clone, Copy, Debug)]
struct TargetMetrics {
    interceptions: Metric,
    reaction_fire: Metric,
    hedgehog_attempted: Metric,
    hedgehog_formed: Metric,
    morale_loss: Metric,
}

/// The target's state within one trial.
#[derive(Clone, Copy, Debug)]
struct TargetState {
    morale: i64,
    in_hedgehog: bool,
    fired: bool,
    hedgehog_attempted: bool,
    lost: u32,
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
        let units = cfg.interceptor.iter().map(|u| Unit::new(cfg, u, &target, &mut metrics)).collect();
        let m = TargetMetrics {
            interceptions,
            reaction_fire: metrics.probability("target.reaction_fire"),
            hedgehog_attempted: metrics.probability("target.hedgehog_attempted"),
            hedgehog_formed: metrics.probability("target.hedgehog_formed"),
            morale_loss: metrics.distribution("target.morale_loss", n),
        };
        metrics.describe(
            m.reaction_fire,
            "the target reaction fires at one or more of the interceptors next to it (C-4.5, C-6)",
        );
        metrics.describe(
            m.hedgehog_attempted,
            "the target attempts hedgehog at least once, by choice or forced by cavalry in its rear (C-5.2, C-8.3)",
        );
        metrics.describe(
            m.hedgehog_formed,
            "the target, not in hedgehog at the start, forms it with a passed morale check (C-8.2, C-9)",
        );
        metrics.describe(m.morale_loss, "morale points the target loses to failed hedgehog morale checks (C-8.2)");
        let morale_lost = metrics.at_least("target.morale_lost", m.morale_loss, 1);
        metrics
            .describe(morale_lost, "the target fails at least one hedgehog morale check and loses morale (C-8.2, C-9)");
        let morale_check = (0..=10).map(|pass| Dist::bernoulli(pass, 10)).collect();
        Cavalry { metrics, units, target, attempts: cfg.attempts, morale_check, m }
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
        self.check_dist(morale).probability(1)
    }

    fn check_dist(&self, morale: i64) -> &Dist {
        // Pass iff d10 (0-9) + shift <= morale: that holds for morale - shift + 1 faces (C-9.1, C-10).
        let faces = (morale - self.target.shift + 1).clamp(0, 10);
        &self.morale_check[faces as usize]
    }

    /// The target reacts to one interceptor that ended next to it (C-4.5, C-6, C-8).
    fn react<C: Chance, R: Recorder>(&self, unit: &Unit, st: &mut TargetState, chance: &mut C, rec: &mut R) {
        match unit.responses[usize::from(st.in_hedgehog)] {
            Response::Fire => {
                st.fired = true;
                rec.hit(unit.m_drew_fire);
            }
            Response::Hedgehog => self.attempt_hedgehog(st, chance),
            Response::Nothing => {}
        }
    }

    /// A hedgehog attempt needs a passed morale check; a failure costs one morale (C-8.2).
    fn attempt_hedgehog<C: Chance>(&self, st: &mut TargetState, chance: &mut C) {
        st.hedgehog_attempted = true;
        if chance.happens(self.check_dist(st.morale)) {
            st.in_hedgehog = true;
        } else {
            st.morale -= 1;
            st.lost += 1;
        }
    }

    fn report<R: Recorder>(&self, st: &TargetState, successes: u32, rec: &mut R) {
        rec.value(self.m.interceptions, successes);
        rec.flag(self.m.reaction_fire, st.fired);
        rec.flag(self.m.hedgehog_attempted, st.hedgehog_attempted);
        rec.flag(self.m.hedgehog_formed, st.in_hedgehog && self.target.formation != Formation::Hedgehog);
        rec.value(self.m.morale_loss, st.lost);
    }
}

impl Model for Cavalry {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let mut st = self.target.start();
        let mut successes = 0;
        for unit in &self.units {
            let stopped = self.attempts == Attempts::UntilSuccess && successes > 0;
            // One roll per unit per activation; a failure uses it up (C-3.2, A-14).
            if !unit.eligible || stopped || !chance.happens(&unit.roll) {
                continue;
            }
            successes += 1;
            rec.hit(unit.m_succeeded);
            self.react(unit, &mut st, chance, rec);
        }
        self.report(&st, successes, rec);
    }
}

impl Unit {
    fn new(cfg: &CavalryConfig, u: &config::InterceptorConfig, target: &Target, metrics: &mut Metrics) -> Unit {
        let prefix = format!("cavalry.interceptor.{}", u.name);
        let threshold = cfg.threshold(u.order);
        let eligible = threshold.is_some() && eligible(cfg, u);
        // "0-x" succeeds on x or less of a d10 read 0-9: x + 1 faces of 10 (C-2).
        let faces = threshold.map_or(0, |t| t + 1) as u64;
        // Eligibility is settled here, once: it costs the trials nothing (C-1).
        let name = &u.name;
        let m_eligible = metrics.fixed(format!("{prefix}.eligible"), eligible);
        metrics.describe(m_eligible, format!("{name} may attempt an interception: no condition of C-1 bars it (C-1)"));
        let m_succeeded = metrics.probability(format!("{prefix}.succeeded"));
        metrics.describe(
            m_succeeded,
            format!("{name} rolls a success on the interception table and moves next to the target (C-2, C-4.2)"),
        );
        let m_drew_fire = metrics.probability(format!("{prefix}.drew_fire"));
        metrics
            .describe(m_drew_fire, format!("the target reaction fires at {name} as it ends next to it (C-4.5, C-6)"));
        Unit {
            name: u.name.clone(),
            eligible,
            roll: Dist::bernoulli(faces, 10),
            ends_in: u.ends_in,
            responses: [target.response(u.ends_in, false), target.response(u.ends_in, true)],
            m_succeeded,
            m_drew_fire,
        }
    }
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
        }
    }

    fn start(&self) -> TargetState {
        let in_hedgehog = self.formation == Formation::Hedgehog;
        TargetState { morale: self.morale, in_hedgehog, fired: false, hedgehog_attempted: false, lost: 0 }
    }

    /// Whether the target could form hedgehog now: heavy infantry, not broken, not already in it (C-8.1);
    /// shaken units may, since every attempt here is a reaction (C-8.4).
    fn can_form_hedgehog(&self, in_hedgehog: bool) -> bool {
        self.kind == TargetKind::HeavyInfantry && self.formation != Formation::Broken && !in_hedgehog
    }

    /// The reaction table (C-6) for a cavalry interceptor ending in `facing`.
    fn response(&self, facing: Facing, in_hedgehog: bool) -> Response {
        // A unit in hedgehog has no flank or rear hexes (C-7.4).
        let facing = if in_hedgehog { Facing::Front } else { facing };
        let hedgehog = self.can_form_hedgehog(in_hedgehog);
        match (self.kind, facing) {
            // Enemy cavalry in heavy infantry's rear forces an attempt (C-8.3).
            (TargetKind::HeavyInfantry, Facing::Rear) if hedgehog => Response::Hedgehog,
            (TargetKind::HeavyInfantry, Facing::Front | Facing::Flank)
                if hedgehog && self.reaction == Reaction::Hedgehog =>
            {
                Response::Hedgehog
            }
            (TargetKind::Artillery, Facing::Front) => Response::Fire,
            (
                TargetKind::LightInfantry | TargetKind::HeavyInfantry | TargetKind::Cavalry,
                Facing::Front | Facing::Flank,
            ) => Response::Fire,
            _ => Response::Nothing,
        }
    }
}
