//! The interceptor policy (S-A5): which of the units that may intercept choose to.
//!
//! [`Intercept`] is the config's answer for a unit: by a chance (`1.0` or `"always"`: every time), or
//! `"not_negative"`: its side joins the fight with the group of its units that does best, and only if the
//! fight is not negative for that side. [`Worth`] says how a fight is weighed. A side's choice depends only
//! on which of its units are still free to intercept (untapped and alive, S-19) and which others already
//! chose to by chance, so [`Judge`] works it out for every such state when the scenario is resolved, and a
//! trial looks it up.

use serde::{Deserialize, Serialize};

use super::fight::{Fighter, Outcome, Split, resolve};

/// The most units that may intercept at one final location when some of them are judged by
/// `"not_negative"`: the side weighs every group of them in every state, 3^12 fights at most.
pub const MAX_JUDGED_AT: usize = 12;

/// How a unit that may intercept decides whether it does (S-7, S-A5).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Intercept {
    /// With this chance, each unit for itself: `1.0` every time, `0.5` half the time.
    Chance(f64),
    /// By a rule of its side.
    Rule(Rule),
}

/// A named interceptor policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The side intercepts with the group of these units that makes the fight best for it, and only if
    /// that fight is not negative for it ([`Worth`]); of equally good groups, the largest.
    NotNegative,
    /// Every time it may: the chance 1.
    Always,
}

impl Default for Intercept {
    fn default() -> Self {
        Intercept::Rule(Rule::NotNegative)
    }
}

impl Intercept {
    /// The chance it intercepts when it decides for itself; `None` when its side judges the fight.
    pub fn chance(self) -> Option<f64> {
        match self {
            Intercept::Chance(p) => Some(p),
            Intercept::Rule(Rule::Always) => Some(1.0),
            Intercept::Rule(Rule::NotNegative) => None,
        }
    }
}

const INTERCEPT: &str = "a chance from 0 to 1, \"always\" or \"not_negative\"";

impl<'de> Deserialize<'de> for Intercept {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Intercept, D::Error> {
        d.deserialize_any(InterceptVisitor)
    }
}

struct InterceptVisitor;

impl serde::de::Visitor<'_> for InterceptVisitor {
    type Value = Intercept;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(INTERCEPT)
    }

    fn visit_f64<E: serde::de::Error>(self, p: f64) -> Result<Intercept, E> {
        Ok(Intercept::Chance(p))
    }

    fn visit_i64<E: serde::de::Error>(self, p: i64) -> Result<Intercept, E> {
        Ok(Intercept::Chance(p as f64))
    }

    fn visit_u64<E: serde::de::Error>(self, p: u64) -> Result<Intercept, E> {
        Ok(Intercept::Chance(p as f64))
    }

    /// The names, and a number written as text (what `--set` gives a key whose value is a name).
    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Intercept, E> {
        match s {
            "not_negative" => Ok(Intercept::Rule(Rule::NotNegative)),
            "always" => Ok(Intercept::Rule(Rule::Always)),
            _ => s.parse().map(Intercept::Chance).map_err(|_| E::custom(format!("{s:?} is not {INTERCEPT}"))),
        }
    }
}

/// How a side weighs a fight's outcome (S-A5): what it killed minus what it lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Worth {
    /// Each unit counts one: not negative when the side loses no more units than it kills.
    #[default]
    Units,
    /// Each unit counts its power: not negative when the side loses no more power than it kills.
    Power,
}

/// What the fight `out` is worth to the interceptors' side: the mover killed, less the side's units
/// killed, each counted as `worth` says.
pub fn worth(out: Outcome, mover: &Fighter, side: &[Fighter], worth: Worth) -> i64 {
    let count = |f: &Fighter| match worth {
        Worth::Units => 1,
        Worth::Power => i64::from(f.power),
    };
    let gained = if out.mover_dies { count(mover) } else { 0 };
    let lost: i64 = side.iter().enumerate().filter(|(i, _)| out.killed & (1 << i) != 0).map(|(_, f)| count(f)).sum();
    gained - lost
}

/// A side's choices at one final location, worked out for every state: bit `i` of a state is unit `i`
/// (of the units that may intercept there, in config order) when it is judged and still free to intercept,
/// or when it decides by chance and chose to; the entry is the judged units that join.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judge {
    table: Box<[u32]>,
}

impl Judge {
    /// The choices of the units `judged` (a bitmask of `side`) in every state, the mover's strike split by
    /// `split` and the fight weighed by `by`. `side` has at most [`MAX_JUDGED_AT`] units.
    pub fn new(mover: &Fighter, side: &[Fighter], judged: u32, split: Split, by: Worth) -> Judge {
        assert!(side.len() <= MAX_JUDGED_AT, "a judged location has at most {MAX_JUDGED_AT} units");
        let table = (0..1u32 << side.len())
            .map(|state| best(mover, side, state & !judged, state & judged, split, by))
            .collect();
        Judge { table }
    }

    /// The judged units that join in `state`.
    #[inline]
    pub fn choose(&self, state: u32) -> u32 {
        self.table[state as usize]
    }
}

/// The group of the `free` units that joins the units `committed` already fighting: the one whose fight is
/// worth most to the side, where no fight at all is worth 0, so that a fight is only started when it is not
/// negative (S-A5); of equals, the largest group, then the one with the earliest units in config order.
fn best(mover: &Fighter, side: &[Fighter], committed: u32, free: u32, split: Split, by: Worth) -> u32 {
    let value = |group: u32| {
        let fighters = committed | group;
        if fighters == 0 { 0 } else { worth(resolve(mover, side, fighters, split), mover, side, by) }
    };
    let key = |group: u32| (value(group), group.count_ones(), group.reverse_bits());
    let mut group = free;
    let mut best = (key(free), free);
    // Every subset of `free`, from `free` itself down to the empty group.
    while group != 0 {
        group = (group - 1) & free;
        let k = key(group);
        if k > best.0 {
            best = (k, group);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minion(power: u32) -> Fighter {
        Fighter { strike: power, toughness: power.max(1), first: false, mortal: true, power }
    }

    /// S-A5: against a 3-power mover, one 3-power unit trades evenly (worth 0: intercept); a lone 1-power
    /// unit would die for nothing (worth -1: no fight, worth 0, is better).
    #[test]
    fn a_side_fights_only_when_not_negative() {
        let judge = Judge::new(&minion(3), &[minion(3), minion(1)], 0b11, Split::MostKills, Worth::Units);
        assert_eq!(judge.choose(0b01), 0b01);
        assert_eq!(judge.choose(0b10), 0);
        // Both free: the 3-power mover kills the 1 (most kills) and the pair deals 4 and kills it: worth 0,
        // as the 3 alone; the larger group wins the tie.
        assert_eq!(judge.choose(0b11), 0b11);
    }

    /// Units that chose by chance are in the fight: the judged 1-power unit joins a 3-power one that is
    /// fighting anyway only if that does not make the fight worse.
    #[test]
    fn judged_units_join_a_fight_under_way() {
        let judge = Judge::new(&minion(3), &[minion(3), minion(1)], 0b10, Split::MostKills, Worth::Units);
        assert_eq!(judge.choose(0b01), 0, "the 3-power unit is not free to join, being decided by chance");
        assert_eq!(judge.choose(0b11), 0b10, "joining: worth 0 (the mover kills the 1), as without it");
    }
}
