//! The intercept fight (S-11, S-12): the units that intercept fight the mover together, in one fight.
//!
//! A [`Fighter`] is what a fight needs of a unit: the damage its strike deals, the damage that kills it,
//! whether it strikes first, and whether it can die at all (an Avatar cannot, S-15). [`resolve`] runs the
//! fight's four steps: first strikes, deaths, normal strikes, deaths. The mover strikes once, and its
//! controller splits that damage among the interceptors still in the fight by a [`Split`] policy; each
//! interceptor strikes the mover once. The fight has no chance in it, so it is a function of who fights, and
//! [`Outcome`] says who died. Fixed arrays only: a trial resolves fights without allocating.

use serde::{Deserialize, Serialize};

use super::rules::{Keyword, Unit};

/// The most units on one side of a fight: a fight's deaths are a bitmask of them.
pub const MAX_FIGHTERS: usize = 32;

/// What a fight needs of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// The damage of its strike: its power, plus 1 for a Lance (S-12).
    pub strike: u32,
    /// The damage that kills it: its life, and at least 1, since a strike for 0 deals no damage.
    pub toughness: u32,
    /// Whether it strikes in the first-strike step (a Lance, or card text) rather than with the others.
    pub first: bool,
    /// Whether damage can kill it: an Avatar's damage is life lost, and it cannot die in this fight
    /// (Death's Door, S-15).
    pub mortal: bool,
    /// Its power, for weighing what a fight costs a side ([`super::policy::Worth::Power`]).
    pub power: u32,
}

impl Fighter {
    /// The fighter `unit` is.
    pub fn of(unit: &Unit) -> Fighter {
        let lance = unit.has(Keyword::Lance);
        Fighter {
            strike: unit.power + u32::from(lance),
            toughness: unit.life.max(1),
            first: lance || unit.has(Keyword::StrikesFirst),
            mortal: !unit.has(Keyword::Avatar),
            power: unit.power,
        }
    }
}

/// How the mover's controller splits its strike among the interceptors (S-11): the codex lets them split
/// it as they like, so this is a policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// Kill as many interceptors as the damage allows: those with the least life left first (the strongest
    /// of equals first, then config order).
    #[default]
    MostKills,
    /// Kill the strongest interceptors first: by power, highest first, passing over any the damage left
    /// cannot kill.
    StrongestFirst,
}

/// Who died in a fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub mover_dies: bool,
    /// Bit `i` set when the side's `i`-th fighter died.
    pub killed: u32,
}

impl Outcome {
    /// How many interceptors died.
    pub fn deaths(self) -> u32 {
        self.killed.count_ones()
    }
}

/// The fight of `mover` against the fighters of `side` in the bitmask `present` (S-11, S-12): first
/// strikes, then deaths, then normal strikes, then deaths. A unit strikes once, in the first-strike step if
/// it strikes first and in the normal step otherwise, and only while it is alive; the mover's strike is
/// split by `split` among the living interceptors, and every living interceptor strikes the mover.
pub fn resolve(mover: &Fighter, side: &[Fighter], present: u32, split: Split) -> Outcome {
    assert!(side.len() <= MAX_FIGHTERS, "at most {MAX_FIGHTERS} fighters on a side");
    let mut taken = [0u32; MAX_FIGHTERS];
    let mut out = Outcome::default();
    // Units not in the fight count as gone from the start; they are never reported killed.
    let mut gone = !present;
    let mut on_mover = 0u32;
    for first in [true, false] {
        if out.mover_dies {
            break;
        }
        if mover.first == first {
            assign(mover.strike, side, gone, &mut taken, split);
        }
        let strikers = (0..side.len()).filter(|&i| gone & (1 << i) == 0 && side[i].first == first);
        on_mover += strikers.map(|i| side[i].strike).sum::<u32>();
        // Deaths: every unit whose damage has reached its life leaves the fight.
        for (i, f) in side.iter().enumerate() {
            if gone & (1 << i) == 0 && f.mortal && taken[i] >= f.toughness {
                out.killed |= 1 << i;
                gone |= 1 << i;
            }
        }
        out.mover_dies = mover.mortal && on_mover >= mover.toughness;
    }
    out
}

/// Deals `damage` among the living fighters of `side` (those not in `gone`), as `split` orders them: each
/// one the damage can still kill takes exactly the damage that kills it. Damage left over kills nobody and
/// changes nothing in this model (it heals at the end of the turn, and a surviving interceptor is tapped).
fn assign(damage: u32, side: &[Fighter], gone: u32, taken: &mut [u32; MAX_FIGHTERS], split: Split) {
    let mut order = [0u8; MAX_FIGHTERS];
    let mut n = 0;
    for (i, f) in side.iter().enumerate() {
        if gone & (1 << i) == 0 && f.mortal {
            order[n] = i as u8;
            n += 1;
        }
    }
    let need = |i: u8| side[i as usize].toughness - taken[i as usize];
    let power = |i: u8| side[i as usize].power;
    let order = &mut order[..n];
    match split {
        Split::MostKills => order.sort_unstable_by_key(|&i| (need(i), std::cmp::Reverse(power(i)), i)),
        Split::StrongestFirst => order.sort_unstable_by_key(|&i| (std::cmp::Reverse(power(i)), need(i), i)),
    }
    let mut left = damage;
    for &i in order.iter() {
        let need = side[i as usize].toughness - taken[i as usize];
        if need <= left {
            left -= need;
            taken[i as usize] += need;
        } else if split == Split::MostKills {
            // The rest need at least as much: none of them can be killed.
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minion(power: u32) -> Fighter {
        Fighter { strike: power, toughness: power.max(1), first: false, mortal: true, power }
    }

    /// S-12: simultaneous normal strikes: a 3-power Bosk Troll and a 1-power Wizard strike each other;
    /// the Wizard takes 3 >= 1 and dies, the Troll takes 1 < 3 and lives.
    #[test]
    fn normal_strikes_are_simultaneous() {
        let out = resolve(&minion(1), &[minion(3)], 1, Split::MostKills);
        assert_eq!(out, Outcome { mover_dies: true, killed: 0 });
        // Two 2-power minions trade: both die, since both strike before deaths are checked.
        assert_eq!(resolve(&minion(2), &[minion(2)], 1, Split::MostKills), Outcome { mover_dies: true, killed: 1 });
    }

    /// S-12: a first strike that kills means no strike back: a 2-power Lance bearer strikes first for 3 and
    /// kills a 3-power interceptor, which never strikes.
    #[test]
    fn first_strike_kills_before_the_strike_back() {
        let lancer = Fighter { strike: 3, first: true, ..minion(2) };
        assert_eq!(resolve(&lancer, &[minion(3)], 1, Split::MostKills), Outcome { mover_dies: false, killed: 1 });
    }

    /// S-11: a strike of 3 against interceptors of life 1, 2 and 3: most kills takes the 1 and the 2 (3
    /// damage); strongest first takes the 3 alone.
    #[test]
    fn the_split_policies() {
        let mover = Fighter { toughness: 100, ..minion(3) };
        let side = [minion(1), minion(2), minion(3)];
        assert_eq!(resolve(&mover, &side, 0b111, Split::MostKills).killed, 0b011);
        assert_eq!(resolve(&mover, &side, 0b111, Split::StrongestFirst).killed, 0b100);
        // Only the units present fight: without the 1, most kills takes the 2 and has 1 left for nobody.
        assert_eq!(resolve(&mover, &side, 0b110, Split::MostKills).killed, 0b010);
    }

    /// S-A7's tie-break under `strongest_first`: among interceptors of equal power the one with least life
    /// left dies first, then config order. A strike of 3 against two 2-power units of life 3 and 2 (the
    /// second listed) kills the one of life 2; against two of equal life, the first listed.
    #[test]
    fn strongest_first_breaks_ties_by_least_life_then_config_order() {
        let mover = Fighter { toughness: 100, ..minion(3) };
        let tough = Fighter { toughness: 3, ..minion(2) };
        assert_eq!(resolve(&mover, &[tough, minion(2)], 0b11, Split::StrongestFirst).killed, 0b10);
        assert_eq!(resolve(&mover, &[minion(2), minion(2)], 0b11, Split::StrongestFirst).killed, 0b01);
    }

    /// S-15: an Avatar takes damage as life lost and does not die in the fight.
    #[test]
    fn an_avatar_does_not_die() {
        let avatar = Fighter { mortal: false, ..minion(5) };
        assert_eq!(resolve(&avatar, &[minion(5)], 1, Split::MostKills), Outcome { mover_dies: false, killed: 1 });
    }
}
