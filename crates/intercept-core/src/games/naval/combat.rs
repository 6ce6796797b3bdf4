//! Where forces meet: they sail (air attacks, N-13), submarines attack (N-19), and the surface forces fight
//! rounds (N-16) that delayed (N-15) and deferring (N-14) groups may join between.
//!
//! A combat is decided by the configured model (N-16.4, A-18): under the fixed model the intercepting side
//! wins with a fixed chance, drawn once the rounds are over; under the strength model each round goes to a
//! side by the ratio of the factors present in it, the loser of a round loses a share of its factors, and
//! the side that loses the last round withdraws and loses the combat.

use super::config::CombatModel;
use super::config::combat::after_losses;
use super::play::{Encounter, Trial, bit, each};
use super::{Force, Meeting, Naval};
use crate::chance::{Chance, Dist};
use crate::metrics::Recorder;

/// A surface combat under way: where, why, and the groups fighting in it so far.
struct Battle<'a> {
    meeting: &'a Meeting,
    kind: Encounter,
    arrived: u32,
}

impl Naval {
    /// Everything that happens where the groups `arrivals` meet a force: the intercepting side sails first,
    /// then the intercepted force (N-12 steps 1 and 2); submarines attack; the surface forces fight.
    pub(super) fn meet<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        m: &Meeting,
        arrivals: u32,
        kind: Encounter,
        chance: &mut C,
        rec: &mut R,
    ) {
        let mut arrived = self.sail(t, arrivals, chance);
        let surface = arrived & m.intercepting != 0;
        if !surface && arrived & self.submarines == 0 {
            return;
        }
        if !self.sails(t, m.place.force, chance) {
            self.turn_back(t, m, arrived, kind);
            return;
        }
        // Most meetings have no submarine and no group deferring to them: the masks are tested here, so
        // that a meeting without them makes no call.
        if arrived & self.submarines != 0 {
            self.submarines_attack(t, arrived & self.submarines, chance);
        }
        if surface {
            let may_defer = kind == Encounter::Planned && m.deferring != 0;
            let deferring = if may_defer { self.defer_to(t, m, &mut arrived) } else { 0 };
            let mut battle = Battle { meeting: m, kind, arrived };
            let (rounds, intercepting_won) = self.fight(t, &mut battle, chance, rec);
            self.settle(t, m, battle.arrived, intercepting_won, rounds, kind);
            if deferring != 0 {
                self.after_deferral(t, deferring);
            }
            if matches!(kind, Encounter::Planned | Encounter::Home) {
                self.decided_without(t, m);
            }
        }
    }

    /// The groups in `sailing` sail in listed order; those turned back by air are out (N-13). Returns the
    /// groups that arrive.
    fn sail<C: Chance>(&self, t: &mut Trial, sailing: u32, chance: &mut C) -> u32 {
        let mut arrived = sailing;
        for i in each(sailing) {
            if !self.sails(t, Force::Group(i), chance) {
                arrived &= !bit(i);
            }
        }
        t.alive &= !(sailing & !arrived);
        arrived
    }

    /// `force` sails to a combat: it may be attacked by air, losing factors, and turn back (N-13). Returns
    /// whether it arrives. Inlined: every force sailing to every combat passes here, and most are not attacked.
    #[inline(always)]
    fn sails<C: Chance>(&self, t: &mut Trial, force: Force, chance: &mut C) -> bool {
        if !chance.happens(unhoisted(&self.nodes.air_attack)) {
            return true;
        }
        if self.nodes.air_losses > 0 {
            self.lose(t, force, self.nodes.air_losses);
        }
        !chance.happens(unhoisted(&self.nodes.turn_back))
    }

    /// `force` loses `percent` of its factors, rounded up (N-13, N-16.4).
    pub(super) fn lose(&self, t: &mut Trial, force: Force, percent: u8) {
        match force {
            Force::Mission => t.mission_factors = after_losses(t.mission_factors, percent),
            Force::Group(i) => t.factors[i] = after_losses(t.factors[i], percent),
        }
    }

    /// The intercepted force turned back (or, going home, slipped away): no combat, and whoever reached the
    /// hex found nobody (N-18.1b). A mission turned back on its way home has already done what it came to
    /// do (N-17.1): as losing that combat would not undo it, being turned back on the way to it does not.
    fn turn_back(&self, t: &mut Trial, m: &Meeting, arrived: u32, kind: Encounter) {
        match m.place.force {
            Force::Mission if kind == Encounter::Home => {}
            Force::Mission => t.mission_gone = true,
            Force::Group(i) => t.alive &= !bit(i),
        }
        t.target_gone |= arrived;
    }

    /// Submarines that reached attack on their own and do not join the surface combat (N-19).
    fn submarines_attack<C: Chance>(&self, t: &mut Trial, submarines: u32, chance: &mut C) {
        for i in each(submarines) {
            t.fought |= bit(i);
            t.won |= u32::from(chance.happens(&self.nodes.sub_attack)) << i;
        }
    }

    /// The rounds of a combat under the configured model: returns the rounds fought and whether the
    /// intercepting side won (N-16.4). Inlined into [`Naval::meet`], its one caller: a call cost a fifth of
    /// its own instructions in saving and restoring registers (callgrind, grand-armada).
    #[inline(always)]
    fn fight<C: Chance, R: Recorder>(&self, t: &mut Trial, b: &mut Battle, chance: &mut C, rec: &mut R) -> (u32, bool) {
        let mut round = 1;
        loop {
            let won_round = match self.nodes.model {
                CombatModel::Fixed => None,
                CombatModel::Strength => Some(self.round_by_strength(t, b.meeting, b.arrived, chance)),
            };
            if round == self.nodes.max_rounds || chance.happens(unhoisted(&self.nodes.end_after_round)) {
                let won = won_round.unwrap_or_else(|| chance.happens(unhoisted(&self.nodes.intercepting_side_wins)));
                return (round, won);
            }
            self.between_rounds(t, b, chance, rec);
            round += 1;
        }
    }

    /// After a round that is not the last: groups closing in roll (N-15), and groups deferring to this
    /// combat close on it (N-14.3). Combats fought at once, further on or after a delayed roll give no one
    /// rounds to close in. The rolls are calls made only when some group rolls: most rounds have none, and
    /// the round loop stays small.
    fn between_rounds<C: Chance, R: Recorder>(&self, t: &mut Trial, b: &mut Battle, chance: &mut C, rec: &mut R) {
        let m = b.meeting;
        if matches!(b.kind, Encounter::Planned | Encounter::Home) {
            let closing = m.members & !t.there & t.alive & !t.joined_late & !t.abandoned & !self.submarines;
            if closing != 0 {
                self.delayed_rolls(t, closing, &mut b.arrived, chance, rec);
            }
        }
        if b.kind == Encounter::Planned && m.deferring & t.deferred != 0 {
            self.deferring_rolls(t, m, &mut b.arrived, chance);
        }
    }

    /// One round under the strength model: the intercepting side wins it with the chance of the band its
    /// ratio of factors falls in; every group of the losing side, and the force met if it lost, loses
    /// `combat.losses_percent` of its factors. Returns whether the intercepting side won the round.
    #[inline(never)]
    fn round_by_strength<C: Chance>(&self, t: &mut Trial, m: &Meeting, arrived: u32, chance: &mut C) -> bool {
        let fighters = arrived & !self.submarines;
        let (attackers, defenders) = (fighters & m.against, fighters & !m.against);
        let sum = |mask: u32| each(mask).map(|i| u32::from(t.factors[i])).sum::<u32>();
        let target = u32::from(self.factors_of(t, m.place.force));
        let won = chance.happens(self.band(sum(attackers), sum(defenders) + target));
        let losers = if won { defenders } else { attackers };
        for i in each(losers) {
            self.lose(t, Force::Group(i), self.nodes.round_losses);
        }
        if won {
            self.lose(t, m.place.force, self.nodes.round_losses);
        }
        won
    }

    /// The node of the ratio band `attacking : defending` falls in; facing no factors is the top band.
    fn band(&self, attacking: u32, defending: u32) -> &Dist {
        let (a, d) = (f64::from(attacking), f64::from(defending));
        let bands = &self.nodes.bands;
        bands.iter().rev().find(|(ratio, _)| a >= ratio * d).map_or(&bands[0].1, |(_, node)| node)
    }

    /// Marks who fought and who won; losers go home defeated (N-16, N-17).
    fn settle(&self, t: &mut Trial, m: &Meeting, arrived: u32, intercepting_won: bool, rounds: u32, kind: Encounter) {
        let fighters = arrived & !self.submarines;
        let winners = fighters & if intercepting_won { m.against } else { !m.against };
        t.fought |= fighters;
        t.won = (t.won & !fighters) | winners;
        t.alive = (t.alive & !fighters) | winners;
        match (m.place.force, kind) {
            (Force::Mission, Encounter::Home) => t.mission_caught_going_home = true,
            (Force::Mission, Encounter::Further) => {
                t.mission_caught_further_on = true;
                t.mission_gone |= intercepting_won;
            }
            (Force::Mission, _) => (t.mission_gone, t.mission_engaged, t.rounds) = (intercepting_won, true, rounds),
            (Force::Group(j), _) => {
                t.fought |= bit(j);
                t.won = (t.won & !bit(j)) | u32::from(!intercepting_won) << j;
                t.alive = (t.alive & !bit(j)) | u32::from(!intercepting_won) << j;
            }
        }
    }
}

/// `node`, read where it is drawn. Hidden from the optimiser so that a combat does not load the fields of every
/// node it may draw into registers before its loops, spilling them to the stack: combats last a round or
/// two, and that set-up cost more than the draws (measured with callgrind on grand-armada: 3% of a trial).
#[inline(always)]
fn unhoisted(node: &Dist) -> &Dist {
    std::hint::black_box(node)
}
