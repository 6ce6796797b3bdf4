//! Intercept in the card game Sorcery: Contested Realm (rules S-1..S-19 of `docs/rules/card-game-intercept.md`).
//!
//! [`rules`] holds who may intercept a unit that used Move and Attack, and which rule rules each other unit
//! out; [`realm`] holds the board and the steps a unit may take across it; [`fight`] resolves the fight of
//! the units that intercept (S-11, S-12); [`policy`] says which of the units that may intercept choose to
//! (S-A5). [`CardGame`] makes them a model of the engine: a turn of one or more [`Mover`]s of one side, each
//! using Move and Attack in its turn (the first is `[card_game.mover]`, the rest `[[card_game.then]]`). A
//! trial ([`turn`]) picks what the config leaves open (each mover's path among its legal paths, whether it
//! attacks, which units choose to intercept), resolves each fight, and carries the enemy's taps and deaths
//! from one mover to the next (S-19). Besides the odds it reports the first mover's final location with its
//! outcome ([`FINAL`]) and with its fight ([`FIGHTS`]), from which [`final_location`] builds the
//! tables and charts per final location. [`CardGame::verdicts`] is the answer to one situation, for
//! `intercept-sim check card-game`.

pub mod check;
pub mod config;
pub mod fight;
pub mod final_location;
pub mod policy;
pub mod realm;
pub mod rules;
mod set;
mod turn;

pub use set::CardGameRules;

use serde::{Deserialize, Serialize};

use crate::chance::Dist;
use crate::metrics::Metrics;
use fight::{Fighter, Outcome, Split};
use policy::{Intercept, Judge, MAX_JUDGED_AT, Worth};
use realm::Realm;
use rules::{Action, Barred, Keyword, Location, Movement, Unit};

/// The metric of every trial's final location and outcome: for the final location's index `e` and the
/// most units that may intercept anywhere `k_max`, the value `e * (k_max + 2) + k` when `k` units
/// intercepted, and `e * (k_max + 2) + k_max + 1` when the mover attacked.
pub const FINAL: &str = "card_game.final";

/// The metric of every trial's final location and fight: for the final location's index `e`, the value
/// `e * (2 * k_max + 3)`, plus 0 when there was no fight (it attacked, or nobody intercepted) and
/// `1 + 2 * d + m` after a fight in which `d` interceptors died and the mover died (`m` = 1) or not (0).
pub const FIGHTS: &str = "card_game.final_fight";

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

/// What a validated config gives the model.
#[derive(Clone, Debug)]
pub struct Setup {
    pub realm: Realm,
    /// The movers of the turn, in the order they move.
    pub movers: Vec<MoverSetup>,
    pub units: Vec<Unit>,
    /// For each unit, how it decides whether to intercept (S-A5).
    pub intercept: Vec<Intercept>,
    pub split: Split,
    pub worth: Worth,
}

/// One mover as the config gives it: the unit, how it moves, its final locations (each with its weight),
/// and whether it attacks.
#[derive(Clone, Debug)]
pub struct MoverSetup {
    pub unit: Unit,
    pub movement: Movement,
    pub ends: Vec<(Location, u64)>,
    pub attack: Choice,
}

/// A final location where more units may intercept than a side's judgement weighs ([`MAX_JUDGED_AT`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crowded {
    /// The mover's index in the turn.
    pub mover: usize,
    pub at: String,
    pub units: usize,
}

/// One unit's Move and Attack in the turn.
#[derive(Clone, Debug)]
pub struct Mover {
    unit: Unit,
    movement: Movement,
    fighter: Fighter,
    /// Its possible final locations, with who may intercept at each.
    ends: Vec<End>,
    end: Dist,
    attack: Dist,
}

/// A mover's final location and the units that may intercept there (S-5, S-7), in config order.
#[derive(Clone, Debug)]
struct End {
    at: Location,
    /// The units' indices.
    eligible: Vec<usize>,
    /// Their fighters, in the same order.
    side: Vec<Fighter>,
    /// For each, the chance it chooses to intercept; `None` when its side judges (S-A5).
    chance: Vec<Option<Dist>>,
    /// The judged ones, as a bitmask of `eligible`, and their choices ([`Judge`]).
    judged: u32,
    judge: Judge,
}

/// A resolved card-game scenario.
#[derive(Clone, Debug)]
pub struct CardGame {
    realm: Realm,
    movers: Vec<Mover>,
    units: Vec<Unit>,
    split: Split,
    /// The most units that may intercept the first mover at any final location.
    k_max: u32,
    metrics: Metrics,
    m: turn::Slots,
}

/// The verdict on one unit at one final location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict<'a> {
    pub unit: &'a Unit,
    pub intercept: Result<(), Barred>,
    /// Whether it may defend if the mover attacks there (B.3, Defend for contrast), or why not.
    pub defend: Result<(), &'static str>,
}

/// A fight at one final location at the start of the turn, for `check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fought<'a> {
    /// Whether the policy settles who intercepts; if not, these are every unit that may.
    pub by_policy: bool,
    pub intercept: Vec<&'a Unit>,
    pub mover_dies: bool,
    pub killed: Vec<&'a Unit>,
}

impl CardGame {
    /// The model of the turn `setup` describes; refused when a side would weigh too many units at once.
    pub fn new(setup: Setup) -> Result<CardGame, Crowded> {
        let Setup { realm, movers, units, intercept, split, worth } = setup;
        let chances: Vec<Option<Dist>> = intercept.iter().map(|i| i.chance().map(Dist::bernoulli_f64)).collect();
        let movers = movers
            .into_iter()
            .enumerate()
            .map(|(j, setup)| Mover::new(j, setup, &realm, &units, &chances, (split, worth)))
            .collect::<Result<Vec<Mover>, Crowded>>()?;
        let k_max = movers[0].ends.iter().map(|e| e.eligible.len()).max().unwrap_or(0) as u32;
        let mut metrics = Metrics::default();
        let m = turn::Slots::register(&mut metrics, &movers, &units, k_max);
        Ok(CardGame { realm, movers, units, split, k_max, metrics, m })
    }

    /// The realm, for labels.
    pub fn realm(&self) -> &Realm {
        &self.realm
    }

    /// The movers of the turn, in order: the first is `[card_game.mover]`.
    pub fn movers(&self) -> &[Mover] {
        &self.movers
    }

    /// The first mover's possible final locations, in [`FINAL`]'s order, with the chance of each.
    pub fn ends(&self) -> Vec<(Location, f64)> {
        self.movers[0].ends()
    }

    /// The most units that may intercept at any final location: [`FINAL`]'s stride is this plus 2.
    pub fn k_max(&self) -> u32 {
        self.k_max
    }

    /// The first mover.
    pub fn mover(&self) -> &Unit {
        &self.movers[0].unit
    }

    /// How the first mover moves.
    pub fn movement(&self) -> Movement {
        self.movers[0].movement
    }

    /// The chance that the first mover attacks: 0 or 1 when the config fixes it.
    pub fn attack_probability(&self) -> f64 {
        self.movers[0].attack_probability()
    }

    /// A final location of the `j`-th mover as people read it: the location, and the size of an oversized
    /// mover, which covers the squares to its right and below (S-17).
    pub fn label(&self, j: usize, at: Location) -> String {
        let size = self.movers[j].unit.size;
        let label = self.realm.label(at);
        if size.oversized() { format!("{label} ({size})") } else { label }
    }

    /// Every other unit's verdict if the first mover ends at `end` and does not attack (or attacks, for
    /// Defend).
    pub fn verdicts(&self, end: Location) -> Vec<Verdict<'_>> {
        self.verdicts_of(0, end)
    }

    /// Every other unit's verdict if the `j`-th mover ends at `end`, at the start of the turn: a unit that
    /// intercepted an earlier mover is tapped, and one that died is gone (S-19), which `check` says apart.
    pub fn verdicts_of(&self, j: usize, end: Location) -> Vec<Verdict<'_>> {
        let mover = &self.movers[j];
        let covers = self.realm.cover(end, mover.unit.size).expect("a legal final location");
        let quiet = Action { covers, ..Action::new(mover.movement, end, false) };
        let attack = Action { attacked: true, ..quiet.clone() };
        let verdict = |unit| Verdict {
            unit,
            intercept: rules::may_intercept(&quiet, &mover.unit, unit),
            defend: self.may_defend(&attack, &mover.unit, unit),
        };
        self.units.iter().map(verdict).collect()
    }

    /// Defend, for contrast (B.3): against an attack, an untapped enemy that can reach the attack's location
    /// with its own Move and Attack (its range of motion) may defend; a Stealth attacker cannot be defended.
    /// An oversized attacker attacks at one of its locations (S-17): a unit that can reach any of them may.
    fn may_defend(&self, attack: &Action, mover: &Unit, unit: &Unit) -> Result<(), &'static str> {
        let reaches = |at| self.realm.cover(at, unit.size).is_some_and(|c| c.shared(&attack.covers).next().is_some());
        let reach = || self.realm.reach(unit, 1 + unit.extra_steps).into_iter().any(reaches);
        let bars = [
            (attack.movement != Movement::MoveAndAttack, "no attack: the mover did not Move and Attack"),
            (mover.stealthy(), "a Stealth attacker cannot be defended"),
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

    /// The fight if the `j`-th mover ends at `end` without attacking, at the start of the turn (S-11,
    /// S-12): who intercepts under the policy when no unit leaves it to chance, else every unit that may;
    /// `None` when nobody may.
    pub fn fight_at(&self, j: usize, end: Location) -> Option<Fought<'_>> {
        let mover = &self.movers[j];
        let here = mover.ends.iter().find(|e| e.at == end).filter(|e| !e.eligible.is_empty())?;
        let by_policy = here.chance.iter().flatten().all(|d| d.certain().is_some());
        // A judged unit is free to go; one deciding by a certain chance goes if its chance is 1.
        let goes = |i: usize| !by_policy || here.chance[i].as_ref().is_none_or(|d| d.certain() == Some(1));
        let state = (0..here.eligible.len()).filter(|&i| goes(i)).fold(0u32, |s, i| s | 1 << i);
        let chosen = if by_policy { here.choose(state) } else { state };
        let out = here.fight(&mover.fighter, chosen, self.split);
        let units = |mask: u32| here.units(mask).map(|i| &self.units[i]).collect();
        Some(Fought { by_policy, intercept: units(chosen), mover_dies: out.mover_dies, killed: units(out.killed) })
    }

    /// What `validate` shows: the first mover, its possible final locations and who may intercept at each,
    /// then the movers after it.
    pub fn describe(&self) -> serde_json::Value {
        let mut v = self.describe_mover(0);
        v["model"] = "card_game".into();
        let then: Vec<_> = (1..self.movers.len()).map(|j| self.describe_mover(j)).collect();
        if !then.is_empty() {
            v["then"] = then.into();
        }
        v
    }

    fn describe_mover(&self, j: usize) -> serde_json::Value {
        let mover = &self.movers[j];
        let ends: Vec<_> = mover
            .ends()
            .into_iter()
            .zip(&mover.ends)
            .map(|((l, p), end)| {
                let names: Vec<&str> = end.eligible.iter().map(|&i| self.units[i].name.as_str()).collect();
                serde_json::json!({ "at": self.label(j, l), "probability": p, "may_intercept": names })
            })
            .collect();
        serde_json::json!({
            "mover": mover.unit.name,
            "movement": mover.movement,
            "starts_at": self.label(j, mover.unit.at),
            "steps": 1 + mover.unit.extra_steps,
            "power": mover.unit.power,
            "life": mover.unit.life,
            "p_attack": mover.attack_probability(),
            "ends": ends,
        })
    }

    /// The scenario in plain words, for the report.
    pub fn plain_words(&self) -> Vec<String> {
        let mut words = self.mover_words(0);
        words.push(format!(
            "{} other unit(s) on the board; an untapped enemy at the mover's final location may intercept (S-5, \
             S-7), and all that choose to fight the mover together in one fight (S-11).",
            self.units.len()
        ));
        words.push(
            "The fight is resolved: first strikes, deaths, normal strikes, deaths; the mover's controller splits \
             its strike among the interceptors (S-11, S-12)."
                .to_owned(),
        );
        for j in 1..self.movers.len() {
            let mut then = self.mover_words(j);
            then[0] = format!("Then {}", then[0]);
            words.extend(then);
        }
        if self.movers.len() > 1 {
            words.push(
                "A unit that intercepted stays tapped through the turn, so it cannot intercept a later mover (S-19)."
                    .to_owned(),
            );
        }
        words
    }

    fn mover_words(&self, j: usize) -> Vec<String> {
        let mover = &self.movers[j];
        let route = match mover.ends.as_slice() {
            [only] => format!("it ends at {}", self.label(j, only.at)),
            ends => format!(
                "it may take up to {} step(s) (B.2), and its path is open: {} final locations are possible",
                1 + mover.unit.extra_steps,
                ends.len()
            ),
        };
        let first = format!(
            "{} starts at {} and uses {} (S-1); {route}.",
            mover.unit.name,
            self.label(j, mover.unit.at),
            movement_words(mover.movement),
        );
        let attack = format!(
            "It attacks with probability {:.4}; an attack opens Defend instead of Intercept (S-2).",
            mover.attack_probability()
        );
        vec![first, attack]
    }
}

impl Mover {
    /// The `j`-th mover of the turn, with who may intercept it at each final location and how they choose.
    fn new(
        j: usize,
        setup: MoverSetup,
        realm: &Realm,
        units: &[Unit],
        chances: &[Option<Dist>],
        (split, worth): (Split, Worth),
    ) -> Result<Mover, Crowded> {
        let MoverSetup { unit, movement, ends, attack } = setup;
        let fighter = Fighter::of(&unit);
        let weights: Vec<u64> = ends.iter().map(|e| e.1).collect();
        let mut built = Vec::with_capacity(ends.len());
        for (at, _) in ends {
            let covers = realm.cover(at, unit.size).expect("a legal final location");
            let action = Action { covers, ..Action::new(movement, at, false) };
            let eligible: Vec<usize> =
                (0..units.len()).filter(|&i| rules::may_intercept(&action, &unit, &units[i]).is_ok()).collect();
            let chance: Vec<Option<Dist>> = eligible.iter().map(|&i| chances[i].clone()).collect();
            let judged = (0..eligible.len()).filter(|&i| chance[i].is_none()).fold(0u32, |m, i| m | 1 << i);
            if judged != 0 && eligible.len() > MAX_JUDGED_AT {
                return Err(Crowded { mover: j, at: realm.label(at), units: eligible.len() });
            }
            let side: Vec<Fighter> = eligible.iter().map(|&i| Fighter::of(&units[i])).collect();
            let judge = if judged == 0 { Judge::default() } else { Judge::new(&fighter, &side, judged, split, worth) };
            built.push(End { at, eligible, side, chance, judged, judge });
        }
        Ok(Mover { unit, movement, fighter, ends: built, end: Dist::from_weights(&weights), attack: attack.dist() })
    }

    /// The unit that moves.
    pub fn unit(&self) -> &Unit {
        &self.unit
    }

    /// How it moves.
    pub fn movement(&self) -> Movement {
        self.movement
    }

    /// Its possible final locations, with the chance of each.
    pub fn ends(&self) -> Vec<(Location, f64)> {
        self.ends.iter().enumerate().map(|(e, end)| (end.at, self.end.probability(e))).collect()
    }

    /// The chance that it attacks: 0 or 1 when the config fixes it.
    pub fn attack_probability(&self) -> f64 {
        self.attack.probability(1)
    }
}

impl End {
    /// The units that intercept in `state` ([`Judge`]): those that chose to by chance, and the judged ones
    /// their side sends; a bitmask of `eligible`.
    fn choose(&self, state: u32) -> u32 {
        let judged = if self.judged == 0 { 0 } else { self.judge.choose(state) };
        (state & !self.judged) | judged
    }

    /// The fight of `mover` against the units `chosen` (a bitmask of `eligible`); no fight if none.
    fn fight(&self, mover: &Fighter, chosen: u32, split: Split) -> Outcome {
        if chosen == 0 { Outcome::default() } else { fight::resolve(mover, &self.side, chosen, split) }
    }

    /// The units' indices of the bitmask `mask` of `eligible`.
    fn units(&self, mask: u32) -> impl Iterator<Item = usize> + '_ {
        self.eligible.iter().enumerate().filter(move |(i, _)| mask & (1 << i) != 0).map(|(_, &u)| u)
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
