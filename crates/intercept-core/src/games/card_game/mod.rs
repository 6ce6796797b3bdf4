//! Intercept in the card game Sorcery: Contested Realm (rules S-1..S-19 of `docs/rules/card-game-intercept.md`).
//!
//! [`rules`] holds who may intercept a unit that used Move and Attack, and which rule rules each other unit
//! out; [`realm`] holds the board and the steps a unit may take across it. [`CardGame`] makes them a model
//! of the engine: a trial picks what the config leaves open (the mover's path among its legal paths,
//! whether it attacks, which units that may intercept choose to), then records who intercepted. Besides the
//! odds it reports every trial's final location with its outcome in one metric ([`FINAL`]), from which
//! [`crate::final_location`] builds the table and chart of interceptors per final location.
//! [`CardGame::verdicts`] is the answer to one situation, for `intercept-sim check card-game`.

pub mod check;
pub mod config;
pub mod final_location;
pub mod realm;
pub mod rules;
mod set;

pub use set::CardGameRules;

use serde::{Deserialize, Serialize};

use crate::chance::{Chance, Dist};
use crate::metrics::{Metric, Metrics, Recorder};
use crate::model::Model;
use realm::Realm;
use rules::{Action, Barred, Keyword, Location, Movement, Unit};

/// The metric of every trial's final location and outcome: for the final location's index `e` and the
/// most units that may intercept anywhere `k_max`, the value `e * (k_max + 2) + k` when `k` units
/// intercepted, and `e * (k_max + 2) + k_max + 1` when the mover attacked.
pub const FINAL: &str = "card_game.final";

/// How the policy picks an open path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PathPolicy {
    /// Every legal declared path is equally likely, so a location reached by more paths is likelier.
    #[default]
    EachPath,
    /// Every reachable final location is equally likely.
    EachEnd,
}

/// A choice the config fixes, or leaves to chance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    Fixed(bool),
    Chance(f64),
}

impl Choice {
    fn dist(self) -> Dist {
        match self {
            Choice::Fixed(yes) => Dist::bernoulli(u64::from(yes), 1),
            Choice::Chance(p) => Dist::bernoulli_f64(p),
        }
    }
}

/// A resolved card-game scenario.
#[derive(Clone, Debug)]
pub struct CardGame {
    realm: Realm,
    mover: Unit,
    movement: Movement,
    units: Vec<Unit>,
    /// The mover's possible final locations, and how likely each is.
    ends: Vec<Location>,
    end: Dist,
    attack: Dist,
    /// For each final location, the units that may intercept there, with the chance each chooses to.
    eligible: Vec<Vec<(usize, Dist)>>,
    /// The most units that may intercept at any final location.
    k_max: u32,
    metrics: Metrics,
    m: Slots,
}

#[derive(Clone, Debug)]
struct Slots {
    attacked: Metric,
    interceptable: Metric,
    interceptors: Metric,
    by: Vec<Option<Metric>>,
    fin: Metric,
}

/// The verdict on one unit at one final location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict<'a> {
    pub unit: &'a Unit,
    pub intercept: Result<(), Barred>,
    /// Whether it may defend if the mover attacks there (B.3, Defend for contrast), or why not.
    pub defend: Result<(), &'static str>,
}

impl CardGame {
    /// The model of `mover` moving by `movement` to one of `ends` (each with its weight) among `units`,
    /// attacking as `attack` says, each unit choosing to intercept with its chance in `chances`.
    pub fn new(
        realm: Realm,
        mover: Unit,
        movement: Movement,
        units: Vec<Unit>,
        ends: Vec<(Location, u64)>,
        attack: Choice,
        chances: Vec<f64>,
    ) -> CardGame {
        let weights: Vec<u64> = ends.iter().map(|e| e.1).collect();
        let ends: Vec<Location> = ends.into_iter().map(|e| e.0).collect();
        let eligible: Vec<Vec<(usize, Dist)>> = ends
            .iter()
            .map(|&end| {
                let action = Action { movement, end, attacked: false };
                let may = |u: &&Unit| rules::may_intercept(&action, &mover, u).is_ok();
                let idx = units.iter().enumerate().filter(|(_, u)| may(u)).map(|(i, _)| i);
                idx.map(|i| (i, Dist::bernoulli_f64(chances[i]))).collect()
            })
            .collect();
        let k_max = eligible.iter().map(Vec::len).max().unwrap_or(0) as u32;
        let mut metrics = Metrics::default();
        let attacked = metrics.probability("card_game.attacked");
        metrics
            .describe(attacked, "the mover attacks after its movement, which opens Defend instead of Intercept (S-2)");
        let interceptable = metrics.probability("card_game.interceptable");
        metrics.describe(
            interceptable,
            "the mover ends without attacking where at least one unit may intercept it (S-2, S-5, S-7)",
        );
        let interceptors = metrics.distribution("card_game.interceptors", k_max.max(1));
        metrics.describe(
            interceptors,
            "units that choose to intercept and fight the mover together in one fight (S-7, S-11)",
        );
        let intercepted = metrics.at_least("card_game.intercepted", interceptors, 1);
        metrics.describe(intercepted, "at least one unit taps to intercept the mover at its final location (S-5, S-7)");
        // Every enemy unit gets its metric; one that never may intercept (or never chooses to) never does.
        let by = units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                (!u.movers_side).then(|| {
                    let name = format!("card_game.unit.{}.intercepts", u.name);
                    let ever = eligible.iter().flatten().any(|(j, d)| *j == i && d.certain() != Some(0));
                    let m = if ever { metrics.probability(name) } else { metrics.fixed(name, false) };
                    let about = format!(
                        "{} taps to intercept the mover, which ends at its location without attacking (S-2, S-5, S-7)",
                        u.name
                    );
                    metrics.describe(m, about)
                })
            })
            .collect();
        let fin = metrics.places(FINAL, ends.len() as u32 * (k_max + 2) - 1);
        let about = "the mover's final location and its outcome (attacked, or how many intercept) as one number (S-2, S-5, S-11)";
        metrics.describe(fin, about);
        let m = Slots { attacked, interceptable, interceptors, by, fin };
        let end = Dist::from_weights(&weights);
        CardGame { realm, mover, movement, units, ends, end, attack: attack.dist(), eligible, k_max, metrics, m }
    }

    /// The realm, for labels.
    pub fn realm(&self) -> &Realm {
        &self.realm
    }

    /// The mover's possible final locations, in [`FINAL`]'s order, with the chance of each.
    pub fn ends(&self) -> Vec<(Location, f64)> {
        self.ends.iter().enumerate().map(|(e, &l)| (l, self.end.probability(e))).collect()
    }

    /// The most units that may intercept at any final location: [`FINAL`]'s stride is this plus 2.
    pub fn k_max(&self) -> u32 {
        self.k_max
    }

    /// The mover.
    pub fn mover(&self) -> &Unit {
        &self.mover
    }

    /// How the mover moves.
    pub fn movement(&self) -> Movement {
        self.movement
    }

    /// The chance that the mover attacks: 0 or 1 when the config fixes it.
    pub fn attack_probability(&self) -> f64 {
        self.attack.probability(1)
    }

    /// Every other unit's verdict if the mover ends at `end` and does not attack (or attacks, for Defend).
    pub fn verdicts(&self, end: Location) -> Vec<Verdict<'_>> {
        let quiet = Action { movement: self.movement, end, attacked: false };
        let attack = Action { attacked: true, ..quiet };
        let verdict = |unit| Verdict {
            unit,
            intercept: rules::may_intercept(&quiet, &self.mover, unit),
            defend: self.may_defend(&attack, unit),
        };
        self.units.iter().map(verdict).collect()
    }

    /// Defend, for contrast (B.3): against an attack, an untapped enemy that can reach the attack's location
    /// with its own Move and Attack (its range of motion) may defend; a Stealth attacker cannot be defended.
    fn may_defend(&self, attack: &Action, unit: &Unit) -> Result<(), &'static str> {
        let reach = || self.realm.paths(unit, 1 + unit.extra_steps).iter().any(|(l, _)| *l == attack.end);
        let bars = [
            (attack.movement != Movement::MoveAndAttack, "no attack: the mover did not Move and Attack"),
            (self.mover.has(Keyword::Stealth), "a Stealth attacker cannot be defended"),
            (unit.movers_side, "it is on the mover's side"),
            (unit.tapped, "it is tapped"),
            (unit.has(Keyword::Disabled), "it is Disabled and has no basic abilities"),
            (unit.summoned_this_turn, "it entered the realm this turn and cannot tap"),
        ];
        match bars.into_iter().find(|(b, _)| *b) {
            Some((_, why)) => Err(why),
            None if reach() => Ok(()),
            None => Err("the attack's location is out of its range of motion"),
        }
    }

    /// What `validate` shows: the mover, its possible final locations and who may intercept at each.
    pub fn describe(&self) -> serde_json::Value {
        let ends: Vec<_> = self
            .ends()
            .into_iter()
            .map(|(l, p)| {
                let names: Vec<&str> = self.eligible_at(l).map(|u| u.name.as_str()).collect();
                serde_json::json!({ "at": self.realm.label(l), "probability": p, "may_intercept": names })
            })
            .collect();
        serde_json::json!({
            "model": "card_game",
            "mover": self.mover.name,
            "movement": self.movement,
            "starts_at": self.realm.label(self.mover.at),
            "steps": 1 + self.mover.extra_steps,
            "p_attack": self.attack.probability(1),
            "ends": ends,
        })
    }

    fn eligible_at(&self, end: Location) -> impl Iterator<Item = &Unit> {
        let e = self.ends.iter().position(|&l| l == end);
        e.into_iter().flat_map(|e| self.eligible[e].iter().map(|(i, _)| &self.units[*i]))
    }

    /// The scenario in plain words, for the report.
    pub fn plain_words(&self) -> Vec<String> {
        let route = match self.ends.as_slice() {
            [only] => format!("it ends at {}", self.realm.label(*only)),
            ends => format!(
                "it may take up to {} step(s) (B.2), and its path is open: {} final locations are possible",
                1 + self.mover.extra_steps,
                ends.len()
            ),
        };
        let mut words = vec![format!(
            "{} starts at {} and uses {} (S-1); {route}.",
            self.mover.name,
            self.realm.label(self.mover.at),
            movement_words(self.movement),
        )];
        words.push(format!(
            "It attacks with probability {:.4}; an attack opens Defend instead of Intercept (S-2).",
            self.attack.probability(1)
        ));
        words.push(format!(
            "{} other unit(s) on the board; an untapped enemy at the mover's final location may intercept (S-5, \
             S-7), and all that choose to fight the mover together in one fight (S-11).",
            self.units.len()
        ));
        words
    }
}

fn movement_words(m: Movement) -> &'static str {
    match m {
        Movement::MoveAndAttack => "its own Move and Attack",
        Movement::Teleport => "a teleport, which is not Move and Attack",
        Movement::Forced => "forced movement, which is not Move and Attack",
        Movement::Carried => "being carried, which is not Move and Attack",
    }
}

impl Model for CardGame {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let e = chance.pick(&self.end);
        let row = e as u32 * (self.k_max + 2);
        // S-2: an attack opens Defend, never Intercept.
        if chance.happens(&self.attack) {
            rec.hit(self.m.attacked);
            rec.value(self.m.fin, row + self.k_max + 1);
            return;
        }
        let eligible = &self.eligible[e];
        if !eligible.is_empty() {
            rec.hit(self.m.interceptable);
        }
        // S-7: each unit that may intercept chooses for itself; S-11: all that do fight together.
        let mut k = 0;
        for (i, choose) in eligible {
            if chance.happens(choose) {
                k += 1;
                self.m.by[*i].inspect(|&m| rec.hit(m));
            }
        }
        rec.value(self.m.interceptors, k);
        rec.value(self.m.fin, row + k);
    }
}
