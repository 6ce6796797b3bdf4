//! Where forces meet: they sail (air attacks, N-13), submarines attack (N-19), and the surface forces fight
//! rounds (N-16) that delayed (N-15) and deferring (N-14) groups may join between.
//!
//! A combat is decided by the configured model (N-16.4, A-18): under the fixed model the intercepting side
//! wins with a fixed chance, drawn once the rounds are over; under the strength model each round goes to a
//! side by the ratio of the factors present in it, the loser of a round loses a share of its factors, and
//! the side that loses the last round withdraws and loses the combat.

use super::config::CombatModel;
use super::config::combat::after_losses;
use super::trial::{Counter, Encounter, Trial, bit, each};
use super::{Force, Meeting, Naval};
use crate::chance::{Chance, Dist};
use crate::metrics::Recorder;

/// A surface combat under way, between two of its steps: where, why, the groups fighting in it so far, the
/// round, and what comes next. The exact interpreter carries it in the state (issue 37), so that the rounds
/// of a combat, and each delayed roll between them, are steps whose equal outcomes merge; the sampler takes
/// the same steps in a loop ([`Naval::fight`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Battle {
    meeting: u8,
    kind: Encounter,
    arrived: u32,
    /// The groups that deferred to it as it started (N-14).
    deferring: u32,
    round: u32,
    next: Phase,
}

/// What a step of a combat leaves to do.
pub(super) enum Next {
    Over,
    On,
    /// A delayed roll's counter-interceptors reached: their combats come first ([`Naval::counter_on`]),
    /// then [`Naval::countered`].
    Counter(Counter),
}

/// What a combat does at its next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Phase {
    /// The first of these groups sails to it, and may be turned back by air (N-13).
    Sailing(u32),
    /// The force it meets sails, submarines attack, and deferring groups commit (N-12, N-19, N-14).
    Meeting,
    /// A round is fought, and may be the last (N-16).
    Round,
    /// After a round, the first of these groups closing in rolls its die (N-15.1).
    Closing(u32),
    /// After a round, the groups deferring to it close on it (N-14.3).
    Deferring,
}

impl Battle {
    /// Phases a round has: the round, up to 32 delayed rolls (by the lowest group still to roll), the
    /// deferring groups' rolls; "round 0" has the groups sailing to the combat and the force they meet.
    const PHASES: u64 = 34;

    /// How far the combat has got, from 1 up, increasing with every step.
    pub(super) fn progress(&self) -> u64 {
        let phase = match self.next {
            Phase::Round => 0,
            Phase::Sailing(left) | Phase::Closing(left) => 1 + u64::from(left.trailing_zeros()),
            Phase::Meeting | Phase::Deferring => Self::PHASES - 1,
        };
        u64::from(self.round) * Self::PHASES + phase
    }

    /// The most progress a combat of at most `max_rounds` rounds makes.
    pub(super) fn most_progress(max_rounds: u32) -> u64 {
        (u64::from(max_rounds) + 1) * Self::PHASES
    }
}

impl Naval {
    /// Everything that happens where the groups `arrivals` meet a force at meeting `k`, straight through.
    pub(super) fn meet<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        k: usize,
        arrivals: u32,
        kind: Encounter,
        chance: &mut C,
        rec: &mut R,
    ) {
        self.fight(t, self.begin(k, arrivals, kind), chance, rec);
    }

    /// The steps of `battle` to its end, with the combats after each delayed roll fought straight through.
    pub(super) fn fight<C: Chance, R: Recorder>(&self, t: &mut Trial, mut battle: Battle, chance: &mut C, rec: &mut R) {
        loop {
            match self.fight_on(t, &mut battle, chance, rec) {
                Next::Over => return,
                Next::On => {}
                Next::Counter(mut c) => {
                    while let Some(inner) = self.counter_on(t, &mut c) {
                        self.fight(t, inner, chance, rec);
                    }
                    self.countered(t, &mut battle, &c);
                }
            }
        }
    }

    /// Where the groups `arrivals` meet a force at meeting `k`: the combat, before anyone sails.
    pub(super) fn begin(&self, k: usize, arrivals: u32, kind: Encounter) -> Battle {
        let meeting = u8::try_from(k).expect("at most 32 groups, so at most 32 meetings");
        Battle { meeting, kind, arrived: arrivals, deferring: 0, round: 0, next: Phase::Sailing(arrivals) }
    }

    /// Once the intercepting side has sailed: the intercepted force sails (N-12 steps 1 and 2); submarines
    /// attack; groups deferring to it commit. Returns whether there is a surface combat to fight.
    fn met<C: Chance, R: Recorder>(&self, t: &mut Trial, b: &mut Battle, chance: &mut C, rec: &mut R) -> bool {
        let m = &self.meetings[usize::from(b.meeting)];
        let surface = b.arrived & m.intercepting != 0;
        if !surface && b.arrived & self.submarines == 0 {
            return false;
        }
        if !self.sails(t, m.place.force, chance) {
            self.turn_back(t, m, b.arrived, b.kind);
            return false;
        }
        // Most meetings have no submarine and no group deferring to them: the masks are tested here, so
        // that a meeting without them makes no call.
        if b.arrived & self.submarines != 0 {
            self.submarines_attack(t, b.arrived & self.submarines, chance);
        }
        if surface && b.kind == Encounter::Planned && m.deferring != 0 {
            b.deferring = self.defer_to(t, m, &mut b.arrived, chance, rec);
        }
        surface
    }

    /// One step of `battle`: one group sailing to it, the force it meets sailing, a round, or one delayed
    /// roll or the deferring groups' rolls after a round. Returns what is left: nothing (and, if it was
    /// fought, who won is settled), more steps, or first the combats a delayed roll led to.
    pub(super) fn fight_on<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        b: &mut Battle,
        chance: &mut C,
        rec: &mut R,
    ) -> Next {
        let m = &self.meetings[usize::from(b.meeting)];
        match b.next {
            Phase::Sailing(sailing) => {
                let i = sailing.trailing_zeros() as usize;
                if !self.sails(t, Force::Group(i), chance) {
                    b.arrived &= !bit(i);
                    t.alive &= !bit(i);
                }
                let rest = sailing & (sailing - 1);
                b.next = if rest != 0 { Phase::Sailing(rest) } else { Phase::Meeting };
            }
            Phase::Meeting => {
                if !self.met(t, b, chance, rec) {
                    return Next::Over;
                }
                b.round = 1;
                b.next = Phase::Round;
            }
            Phase::Round => {
                let won_round = match self.nodes.model {
                    CombatModel::Fixed => None,
                    CombatModel::Strength => Some(self.round_by_strength(t, m, b.arrived, chance)),
                };
                if b.round == self.nodes.max_rounds || chance.happens(unhoisted(&self.nodes.end_after_round)) {
                    let won =
                        won_round.unwrap_or_else(|| chance.happens(unhoisted(&self.nodes.intercepting_side_wins)));
                    self.over(t, b, won, chance, rec);
                    return Next::Over;
                }
                b.next = self.after_round(t, b);
            }
            Phase::Closing(closing) => {
                let i = closing.trailing_zeros() as usize;
                if !self.at_sea(t, i) {
                    b.next = self.after_closer(t, b, closing);
                    return Next::On;
                }
                let c = self.delayed_roll(t, i, chance, rec);
                if c.chain != 0 {
                    return Next::Counter(c);
                }
                self.countered(t, b, &c);
            }
            Phase::Deferring => {
                self.deferring_rolls(t, m, &mut b.arrived, chance);
                b.round += 1;
                b.next = Phase::Round;
            }
        }
        Next::On
    }

    /// Once the combats after a delayed roll are fought: the group that rolled joins or not, and the next
    /// group closing in rolls.
    pub(super) fn countered(&self, t: &mut Trial, b: &mut Battle, c: &Counter) {
        self.closed_in(t, c, &mut b.arrived);
        let Phase::Closing(closing) = b.next else { unreachable!("a delayed roll is made between rounds") };
        b.next = self.after_closer(t, b, closing);
    }

    /// After the lowest group of `closing` has rolled: the next, or what follows the delayed rolls.
    fn after_closer(&self, t: &Trial, b: &mut Battle, closing: u32) -> Phase {
        let rest = closing & (closing - 1);
        if rest != 0 { Phase::Closing(rest) } else { self.deferring_or_round(t, b) }
    }

    /// After a round that is not the last: groups closing in roll (N-15), then groups deferring to this
    /// combat close on it (N-14.3). Combats fought at once, further on or after a delayed roll give no one
    /// rounds to close in.
    fn after_round(&self, t: &Trial, b: &mut Battle) -> Phase {
        let m = &self.meetings[usize::from(b.meeting)];
        if matches!(b.kind, Encounter::Planned | Encounter::Home) {
            let closing = m.members & !t.there & t.alive & !t.joined_late & !t.abandoned & !self.submarines;
            if closing != 0 {
                return Phase::Closing(closing);
            }
        }
        self.deferring_or_round(t, b)
    }

    /// The deferring groups' rolls, if any close on this combat; else the next round.
    fn deferring_or_round(&self, t: &Trial, b: &mut Battle) -> Phase {
        let m = &self.meetings[usize::from(b.meeting)];
        if b.kind == Encounter::Planned && m.deferring & t.deferred != 0 {
            return Phase::Deferring;
        }
        b.round += 1;
        Phase::Round
    }

    /// The combat is over: who fought and won is settled; groups that deferred to it go on, and those that
    /// never got there may give up (N-14.3, N-15.1).
    fn over<C: Chance, R: Recorder>(&self, t: &mut Trial, b: &Battle, won: bool, chance: &mut C, rec: &mut R) {
        let m = &self.meetings[usize::from(b.meeting)];
        self.settle(t, m, b.arrived, won, b.round, b.kind);
        if b.deferring != 0 {
            self.after_deferral(t, b.deferring, chance, rec);
        }
        if matches!(b.kind, Encounter::Planned | Encounter::Home) {
            self.decided_without(t, m);
        }
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
