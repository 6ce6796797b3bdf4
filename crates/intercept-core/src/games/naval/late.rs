//! Groups that come late to a combat: delayed interceptions (N-15), with the counter-interceptions that
//! may meet them after each roll (N-15.3) and the policy for giving up (N-15.1); groups deferring to join a
//! fellow's counter-interception combat (N-14); and, under A-9's alternative reading, delayed groups that
//! retarget a hex further along a target that won and sailed on.
//!
//! A deferring group's geometry is two numbers: the hex of its path nearest the combat it defers to lies
//! `along` hexes from its base, and the combat `off` hexes from there (N-14.3). Where it stands comes from
//! its first roll and the placement policy; from there it closes on the combat back along its path and then
//! off it, and if the combat ends first it heads back to its path and on to its own hex.

use super::combat::Battle;
use super::config::{Abandon, Placement};
use super::trial::{Counter, Encounter, Trial, bit, each, has, set};
use super::{Force, Meeting, Naval};
use crate::chance::Chance;
use crate::metrics::Recorder;

impl Counter {
    /// How far the combats after the roll have got, counting `inner`, the one under way (of at most
    /// `per_combat` progress), from 1 up.
    pub(super) fn progress(&self, inner: Option<&Battle>, per_combat: u64) -> u64 {
        1 + u64::from(self.next) * per_combat + inner.map_or(0, Battle::progress)
    }
}

impl Naval {
    /// After a round of a combat: group `i`, one of those that fell short and close in, not yet there and
    /// at sea, rolls one die (N-15.1), and the counter-interceptors waiting for it roll (N-15.3). Returns
    /// what follows: the combats of those that reached, then [`Naval::closed_in`].
    pub(super) fn delayed_roll<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        i: usize,
        chance: &mut C,
        rec: &mut R,
    ) -> Counter {
        self.drawn(t, i, chance, rec);
        let arrives = self.close_in(&mut t.left[i], chance);
        // Counted only where a rule reads the count, so that it splits no states where none does.
        if self.readings.abandon == Abandon::AfterRolls {
            t.delayed_rolls[i] += 1;
        }
        let chain = self.counter_rolls(t, i, chance, rec);
        Counter { j: i as u8, arrives, chain, next: 0 }
    }

    /// After group `j`'s delayed roll and the combats it led to: it joins from the next round if it arrived
    /// and is still afloat, and may give up if it did not (N-15.1).
    pub(super) fn closed_in(&self, t: &mut Trial, c: &Counter, arrived: &mut u32) {
        let i = usize::from(c.j);
        if !has(t.alive, i) {
            return;
        }
        if c.arrives {
            t.joined_late |= bit(i);
            *arrived |= bit(i);
        } else if self.readings.abandon == Abandon::AfterRolls && t.delayed_rolls[i] >= self.readings.abandon_after {
            t.abandoned |= bit(i);
        }
    }

    /// Once the combat at `m` is over, under `abandon = "once_decided"` every group that was closing in on it
    /// and never got there gives up, and goes home as an abort (N-15.1, N-17.2). Groups that never rolled (out
    /// of range, A-3) were never on their way, and are left alone.
    pub(super) fn decided_without(&self, t: &mut Trial, m: &Meeting) {
        if self.readings.abandon != Abandon::OnceDecided {
            return;
        }
        let missed = m.members & !t.there & t.alive & !t.joined_late & !t.abandoned & !self.submarines;
        for i in each(missed) {
            if self.at_sea(t, i) {
                t.abandoned |= bit(i);
            }
        }
    }

    /// One die of movement toward a hex `left` hexes away: true on arrival (N-15.1, N-15.2).
    fn close_in<C: Chance>(&self, left: &mut u8, chance: &mut C) -> bool {
        *left -= chance.pick(&self.nodes.delayed[usize::from(*left)]) as u8;
        *left == 0
    }

    /// After a delayed roll of group `j`: the counter-interceptors waiting for it that have not yet fought
    /// roll afresh, and the chains below those that reach roll (N-15.3). Returns those groups, the chain that
    /// fights at once ([`Naval::counter_on`]).
    fn counter_rolls<C: Chance, R: Recorder>(&self, t: &mut Trial, j: usize, chance: &mut C, rec: &mut R) -> u32 {
        let Some(k) = self.met_at[j] else { return 0 };
        let m = &self.meetings[k];
        let mut reached = 0;
        for c in each(m.members & self.waits & !t.fought & (t.alive | !t.rolled)) {
            if self.roll_group(t, c, chance, rec) {
                reached |= bit(c);
            }
        }
        if reached == 0 {
            return 0;
        }
        let under = each(reached).fold(0, |u, c| u | self.below[c]);
        self.roll_among(t, under, chance, rec);
        under | reached
    }

    /// The next combat of `c`'s chain, deepest first, and then the combat with group `j` itself, each fought
    /// at once (N-15.3); `None` once they are all fought.
    pub(super) fn counter_on(&self, t: &Trial, c: &mut Counter) -> Option<Battle> {
        let in_chain = |force: Force| matches!(force, Force::Group(x) if has(c.chain, x));
        while let Some(&k) = self.resolve_order.get(usize::from(c.next)) {
            c.next += 1;
            if let Some(battle) = self.resolve_begin(t, k, Encounter::Delayed, in_chain) {
                return Some(battle);
            }
        }
        if usize::from(c.next) > self.resolve_order.len() {
            return None;
        }
        c.next += 1;
        let j = usize::from(c.j);
        let k = self.met_at[j]?;
        let arrivals = self.meetings[k].members & c.chain & t.there & t.alive;
        let meets = arrivals != 0 && self.present(t, Force::Group(j));
        meets.then(|| self.begin(k, arrivals, Encounter::Delayed))
    }

    /// Groups deferring to the combat at `m` commit to it as it starts (N-14.1): each is placed on its path
    /// by its first roll, and joins at once if it stands on the combat's hex (N-14.2). Returns them. Inlined
    /// into [`Naval::meet`], its one caller, as is [`Naval::after_deferral`]: saves the calls (callgrind).
    #[inline(always)]
    pub(super) fn defer_to<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        m: &Meeting,
        arrived: &mut u32,
        chance: &mut C,
        rec: &mut R,
    ) -> u32 {
        let mut deferring = 0;
        for i in each(m.deferring & t.alive & !t.deferred & !t.fought) {
            if !self.at_sea(t, i) {
                continue;
            }
            self.drawn(t, i, chance, rec);
            deferring |= bit(i);
            t.there &= !bit(i);
            if self.to_combat(t, i) == 0 {
                t.joined_deferred |= bit(i);
                *arrived |= bit(i);
            }
        }
        t.deferred |= deferring;
        deferring
    }

    /// After a round that is not the last, deferring groups not yet there roll one die toward the combat and
    /// join from the next round if they arrive (N-14.3).
    #[inline(never)]
    pub(super) fn deferring_rolls<C: Chance>(&self, t: &mut Trial, m: &Meeting, arrived: &mut u32, chance: &mut C) {
        for i in each(m.deferring & t.deferred & t.alive & !t.joined_deferred) {
            let left = self.to_combat(t, i);
            let step = chance.pick(&self.nodes.delayed[left as usize]) as u32;
            t.defer_moved[i] += step as u8;
            if step == left {
                t.joined_deferred |= bit(i);
                *arrived |= bit(i);
            }
        }
    }

    /// Once the combat is over, each group that deferred to it goes on: one that joined with the force it
    /// came to help (N-14.3, "the same status"); one that missed it toward its own hex from where it stands,
    /// as a delayed interception, unless it gives up once the combat is decided (N-15.1). Under the fixed
    /// placement it carries on as if it had never deferred.
    #[inline(always)]
    pub(super) fn after_deferral<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        deferring: u32,
        chance: &mut C,
        rec: &mut R,
    ) {
        for i in each(deferring) {
            let g = &self.groups[i];
            let fellow = match g.defer.map(|d| d.place.force) {
                Some(Force::Group(f)) => f,
                _ => continue,
            };
            if has(t.joined_deferred, i) && self.readings.placement != Placement::Fixed {
                self.drawn(t, fellow, chance, rec);
            }
            let left = if self.readings.placement == Placement::Fixed {
                g.distance - u32::from(t.moved[i])
            } else if has(t.joined_deferred, i) {
                u32::from(t.left[fellow])
            } else if self.readings.abandon == Abandon::OnceDecided {
                t.abandoned |= bit(i);
                continue;
            } else {
                self.to_own_hex(t, i)
            };
            t.left[i] = left as u8;
            let with_fellow = has(t.joined_deferred, i) && self.readings.placement != Placement::Fixed;
            let there = if with_fellow { has(t.there, fellow) } else { left == 0 };
            set(&mut t.there, i, there);
        }
    }

    /// Where deferring group `i` stands on its path, in hexes from its base (N-14.3).
    fn placed_at(&self, t: &Trial, i: usize) -> u32 {
        let moved = u32::from(t.moved[i]);
        match (self.readings.placement, self.groups[i].defer) {
            (Placement::Closest, Some(d)) => moved.min(d.along),
            _ => moved,
        }
    }

    /// Hexes from where deferring group `i` stands to the combat it defers to.
    fn to_combat(&self, t: &Trial, i: usize) -> u32 {
        let Some(d) = self.groups[i].defer else { return 0 };
        let moved = u32::from(t.defer_moved[i]);
        match self.readings.placement {
            Placement::Fixed => d.off - moved,
            _ => self.placed_at(t, i).abs_diff(d.along) + d.off - moved,
        }
    }

    /// Hexes from where deferring group `i` stands, having closed on the combat, to its own interception
    /// hex: back to its path, then along it (N-14.3).
    fn to_own_hex(&self, t: &Trial, i: usize) -> u32 {
        let (g, p) = (&self.groups[i], self.placed_at(t, i));
        let Some(d) = g.defer else { return g.distance - p };
        let closed = u32::from(t.defer_moved[i]);
        let gap = p.abs_diff(d.along);
        let along = match closed >= gap {
            true => d.along,
            false if p < d.along => p + closed,
            false => p - closed,
        };
        g.distance - along + closed.saturating_sub(gap)
    }

    /// A-9's alternative: once the mission has won its combat and sailed on, each group that closed in and
    /// never got there rolls its dice for a hex further along its route, and those that reach fight it there.
    /// Under `abandon = "once_decided"` none is left to: [`Naval::decided_without`] gave them up as the combat
    /// ended.
    pub(super) fn retarget<C: Chance, R: Recorder>(&self, t: &mut Trial, chance: &mut C, rec: &mut R) {
        if !self.readings.retarget || t.mission_gone || !t.mission_engaged {
            return;
        }
        let Some(k) = self.mission_meeting else { return };
        let m = &self.meetings[k];
        let late = m.members & !t.there & !t.joined_late & t.alive & !t.abandoned & !self.submarines;
        let mut reached = 0;
        for i in each(late) {
            if !self.at_sea(t, i) {
                continue;
            }
            let Some(node) = &self.groups[i].retarget else { continue };
            let small = node.small_against(|| t.mission_factors, self.readings.small_force_threshold);
            reached |= u32::from(chance.happens(&node.split(small).reach)) << i;
        }
        if reached != 0 {
            self.meet(t, k, reached, Encounter::Further, chance, rec);
        }
    }
}
