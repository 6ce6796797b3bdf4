//! One trial: the movers of the turn, each in its turn (S-19).
//!
//! Each mover picks its final location and whether it attacks (S-2); if it does not, the units that may
//! intercept it and are still free choose (S-7, S-A5), and all that do fight it together (S-11, S-12). A
//! unit that intercepted stays tapped until its controller's next Start phase, and a unit that died is
//! gone, so neither meets a later mover of the same turn (S-19): the [`Turn`] carries both as bitmasks.
//! [`Slots`] are the metrics a turn reports.

use super::rules::Unit;
use super::{CardGame, End, FIGHTS, FINAL, Mover};
use crate::chance::Chance;
use crate::metrics::{Metric, Metrics, Recorder};
use crate::model::Model;

/// The enemy's units tapped by an intercept and killed so far this turn, by their index (S-19).
#[derive(Clone, Copy, Debug, Default)]
struct Turn {
    tapped: u32,
    dead: u32,
}

/// What one mover's Move and Attack came to.
#[derive(Clone, Copy, Debug, Default)]
struct Move {
    /// The final location's index.
    end: usize,
    attacked: bool,
    /// The units that intercepted and those that died, as bitmasks of the final location's `eligible`.
    chosen: u32,
    killed: u32,
    mover_dies: bool,
}

/// The metrics a turn reports. The first mover's come first, in the order they have always had; the rest
/// follow, so that a config without fights keeps its counts.
#[derive(Clone, Debug)]
pub(super) struct Slots {
    attacked: Metric,
    interceptable: Metric,
    interceptors: Metric,
    by: Vec<Option<Metric>>,
    fin: Metric,
    mover_killed: Metric,
    killed: Metric,
    dies: Vec<Option<Metric>>,
    fights: Metric,
    /// For each mover after the first: intercepted, and killed.
    later: Vec<(Metric, Metric)>,
}

impl Slots {
    /// Registers the turn's metrics: `k_max` is the most units that may intercept the first mover anywhere.
    pub(super) fn register(metrics: &mut Metrics, movers: &[Mover], units: &[Unit], k_max: u32) -> Slots {
        let attacked = metrics.described_probability(
            "card_game.attacked",
            "the mover attacks after its movement, which opens Defend instead of Intercept (S-2)",
        );
        let interceptable = metrics.described_probability(
            "card_game.interceptable",
            "the mover ends without attacking where at least one unit may intercept it (S-2, S-5, S-7)",
        );
        let interceptors = metrics.distribution("card_game.interceptors", k_max.max(1));
        metrics.describe(
            interceptors,
            "units that choose to intercept and fight the mover together in one fight (S-7, S-11)",
        );
        let intercepted = metrics.at_least("card_game.intercepted", interceptors, 1);
        metrics.describe(intercepted, "at least one unit taps to intercept the mover at its final location (S-5, S-7)");
        // Every enemy unit gets its metrics; one that never may intercept (or never chooses to) never does.
        let ever: Vec<bool> = (0..units.len()).map(|i| ever_intercepts(movers, i)).collect();
        let later = movers.len() > 1;
        let by = per_enemy(metrics, units, &ever, "intercepts", |u| {
            let once = if later { "; once a turn (S-19)" } else { "" };
            format!(
                "{u} taps to intercept the mover, which ends at its location without attacking (S-2, S-5, S-7){once}"
            )
        });
        let stride = 2 * k_max + 3;
        let fin = metrics.places(FINAL, movers[0].ends.len() as u32 * (k_max + 2) - 1);
        let about = "the mover's final location and its outcome (attacked, or how many intercept) as one number (S-2, S-5, S-11)";
        metrics.describe(fin, about);
        let mover_killed = metrics.described_probability(
            "card_game.mover_killed",
            "the mover dies in the fight with the units that intercept it (S-11, S-12)",
        );
        let most = ever.iter().filter(|e| **e).count() as u32;
        let killed = metrics.distribution("card_game.interceptors_killed", most.max(1));
        let about =
            "interceptors that die in the turn's intercept fights: first strikes, deaths, strikes, deaths (S-11, S-12)";
        metrics.describe(killed, about);
        let dies = per_enemy(metrics, units, &ever, "killed", |u| {
            format!("{u} intercepts and dies in the fight (S-11, S-12)")
        });
        let fights = metrics.places(FIGHTS, movers[0].ends.len() as u32 * stride - 1);
        let about = "the mover's final location and its fight (who died in it) as one number (S-5, S-11, S-12)";
        metrics.describe(fights, about);
        let later = movers[1..].iter().map(|m| later_slots(metrics, &m.unit.name)).collect();
        Slots { attacked, interceptable, interceptors, by, fin, mover_killed, killed, dies, fights, later }
    }
}

/// Whether unit `i` may intercept some mover somewhere, with a chance of choosing to.
fn ever_intercepts(movers: &[Mover], i: usize) -> bool {
    let at = |end: &End| {
        let k = end.eligible.iter().position(|&u| u == i);
        k.is_some_and(|k| end.chance[k].as_ref().is_none_or(|d| d.certain() != Some(0)))
    };
    movers.iter().flat_map(|m| &m.ends).any(at)
}

/// A probability for every enemy unit, `card_game.unit.<name>.<what>`: fixed at 0 for one that never
/// intercepts.
fn per_enemy(
    metrics: &mut Metrics,
    units: &[Unit],
    ever: &[bool],
    what: &str,
    about: impl Fn(&str) -> String,
) -> Vec<Option<Metric>> {
    let slot = |(u, ever): (&Unit, &bool)| {
        (!u.movers_side).then(|| {
            let name = format!("card_game.unit.{}.{what}", u.name);
            let m = if *ever { metrics.probability(name) } else { metrics.fixed(name, false) };
            metrics.describe(m, about(&u.name))
        })
    };
    units.iter().zip(ever).map(slot).collect()
}

/// A later mover's metrics: whether it was intercepted, and whether it died.
fn later_slots(metrics: &mut Metrics, name: &str) -> (Metric, Metric) {
    let intercepted = metrics.described_probability(
        format!("card_game.mover.{name}.intercepted"),
        format!("{name}, moving later in the turn, is intercepted by units still untapped and alive (S-7, S-19)"),
    );
    let killed = metrics.described_probability(
        format!("card_game.mover.{name}.killed"),
        format!("{name} dies in the fight with the units that intercept it (S-11, S-12, S-19)"),
    );
    (intercepted, killed)
}

impl Model for CardGame {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let mut turn = Turn::default();
        for (j, mover) in self.movers.iter().enumerate() {
            let done = self.play(mover, &mut turn, chance);
            if j == 0 {
                self.record_first(&done, rec);
            } else if done.chosen != 0 {
                let (intercepted, killed) = self.m.later[j - 1];
                rec.hit(intercepted);
                rec.flag(killed, done.mover_dies);
            }
            let end = &mover.ends[done.end];
            for i in end.units(done.chosen) {
                self.m.by[i].inspect(|&m| rec.hit(m));
            }
            for i in end.units(done.killed) {
                self.m.dies[i].inspect(|&m| rec.hit(m));
            }
        }
        rec.value(self.m.killed, turn.dead.count_ones());
    }
}

impl CardGame {
    /// One mover's Move and Attack: its final location and attack (S-2), who intercepts among the units
    /// still free (S-7, S-19, S-A5), and the fight (S-11, S-12); the taps and deaths go into `turn`.
    fn play<C: Chance>(&self, mover: &Mover, turn: &mut Turn, chance: &mut C) -> Move {
        let e = chance.pick(&mover.end);
        if chance.happens(&mover.attack) {
            return Move { end: e, attacked: true, ..Move::default() };
        }
        let end = &mover.ends[e];
        let mut state = 0u32;
        for (i, &u) in end.eligible.iter().enumerate() {
            if (turn.tapped | turn.dead) & (1 << u) != 0 {
                continue;
            }
            // S-7: a unit deciding for itself does so now; a judged one is free for its side to send.
            let yes = end.chance[i].as_ref().is_none_or(|d| chance.happens(d));
            state |= u32::from(yes) << i;
        }
        let chosen = end.choose(state);
        let out = end.fight(&mover.fighter, chosen, self.split);
        end.units(chosen).for_each(|u| turn.tapped |= 1 << u);
        end.units(out.killed).for_each(|u| turn.dead |= 1 << u);
        Move { end: e, attacked: false, chosen, killed: out.killed, mover_dies: out.mover_dies }
    }

    /// The first mover's metrics, those [`FINAL`] and [`FIGHTS`] place by its final location.
    fn record_first<R: Recorder>(&self, done: &Move, rec: &mut R) {
        let (e, k_max) = (done.end as u32, self.k_max);
        let fights = e * (2 * k_max + 3);
        if done.attacked {
            // S-2: an attack opens Defend, never Intercept.
            rec.hit(self.m.attacked);
            rec.value(self.m.fin, e * (k_max + 2) + k_max + 1);
            rec.value(self.m.fights, fights);
            return;
        }
        if !self.movers[0].ends[done.end].eligible.is_empty() {
            rec.hit(self.m.interceptable);
        }
        let k = done.chosen.count_ones();
        rec.value(self.m.interceptors, k);
        rec.value(self.m.fin, e * (k_max + 2) + k);
        rec.flag(self.m.mover_killed, done.mover_dies);
        let code = if k == 0 { 0 } else { 1 + 2 * done.killed.count_ones() + u32::from(done.mover_dies) };
        rec.value(self.m.fights, fights + code);
    }
}
