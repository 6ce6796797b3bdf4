//! One trial of the naval sequence of play, on the resolved [`Naval`] model.
//!
//! A trial has three phases, as the rules do: every level rolls, shallowest first (N-8..N-11); the combats
//! are resolved deepest first, "last to intercept, first to sail" (N-12); forces going home may be met once
//! more (N-17.2). Each [`Meeting`] is a place where forces meet; what happens there is [`Naval::meet`]: forces
//! sail (air attacks, N-13), submarines attack (N-19), and the surface forces fight rounds (N-16) that
//! delayed (N-15) and deferring (N-14) groups may join.
//!
//! A trial's state is a [`Trial`]: one bit per group for each yes/no fact (rolled, reached, alive, fought,
//! ...), so "did any group of this combat reach?" or "who won?" is a mask operation rather than a loop, and
//! a trial zeroes a few dozen bytes and allocates nothing.

use super::{Force, MAX_GROUPS, Meeting, Naval};
use crate::chance::Chance;
use crate::metrics::Recorder;

/// A trial's state: bit `i` of each mask is group `i`.
#[derive(Default)]
pub(super) struct Trial {
    rolled: u32,
    reached: u32,
    /// Still able to act: not defeated, not turned back by air.
    alive: u32,
    fought: u32,
    won: u32,
    /// Closed in after falling short and joined a combat between rounds (N-15).
    joined_late: u32,
    /// Deferred and joined a counter-interception combat (N-14).
    joined_deferred: u32,
    /// Reached its hex, but the force it was after had turned back (N-18.1b).
    target_gone: u32,
    /// Hexes moved toward the interception hex; meaningful once rolled.
    moved: [u8; MAX_GROUPS],
    /// Hexes closed toward the combat a group defers to (N-14.3).
    defer_moved: [u8; MAX_GROUPS],
    mission_gone: bool,
    mission_engaged: bool,
    mission_caught_going_home: bool,
    rounds: u32,
}

fn bit(i: usize) -> u32 {
    1 << i
}

fn has(mask: u32, i: usize) -> bool {
    mask >> i & 1 != 0
}

/// The groups in `mask`, in listed order (lowest index first).
fn each(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (i < 32).then_some(i)
    })
}

impl Naval {
    /// Plays one trial.
    pub(super) fn play<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let mut t = Trial::default();
        self.roll(&mut t, chance, rec);
        self.resolve(&mut t, chance);
        self.homeward(&mut t, chance, rec);
        self.report(&t, rec);
    }

    /// Phase 1: every level rolls, shallowest first; a group rolls only if its target is at sea (N-10.5).
    fn roll<C: Chance, R: Recorder>(&self, t: &mut Trial, chance: &mut C, rec: &mut R) {
        for &i in &self.roll_order {
            if self.force_at_sea(t, self.groups[i].target) {
                self.roll_group(t, i, chance, rec);
            }
        }
    }

    /// Group `i` rolls its first move (N-8). A group rolls at most once a trial, so its other bits are clear.
    fn roll_group<C: Chance, R: Recorder>(&self, t: &mut Trial, i: usize, chance: &mut C, rec: &mut R) {
        let g = &self.groups[i];
        let moved = chance.pick(&g.first_move) as u32;
        let reached = moved == g.distance;
        t.moved[i] = moved as u8;
        t.rolled |= bit(i);
        t.alive |= bit(i);
        t.reached |= u32::from(reached) << i;
        rec.hit(g.m.rolled);
        rec.value(g.m.movement, moved);
        rec.flag(g.m.reached, reached);
    }

    /// Whether a non-submarine group aimed where group `i` is aimed reached: its target is intercepted (N-8.6).
    fn intercepted(&self, t: &Trial, i: usize) -> bool {
        t.reached & self.groups[i].fellows != 0
    }

    /// Whether group `i` is at sea: it reached its hex, or fell short but closes in behind another group that
    /// reached (N-9.1, N-9.2). Settled once its level has rolled.
    fn at_sea(&self, t: &Trial, i: usize) -> bool {
        let closes_in = has(self.closes_in, i) && self.intercepted(t, i);
        has(t.rolled, i) && (has(t.reached, i) || closes_in)
    }

    /// Whether `force` can be met at sea: the mission always, a group if [`Naval::at_sea`].
    fn force_at_sea(&self, t: &Trial, force: Force) -> bool {
        let Force::Group(i) = force else { return true };
        self.at_sea(t, i)
    }

    /// Whether `force` is on its way home after a defeat, a turn-back or an abort (N-17.2).
    fn going_home(&self, t: &Trial, force: Force) -> bool {
        let Force::Group(i) = force else { return t.mission_gone };
        let aborted = !has(self.closes_in, i) && !has(t.reached, i) && self.intercepted(t, i);
        has(t.rolled, i) && (!has(t.alive, i) || aborted)
    }

    fn present(&self, t: &Trial, force: Force) -> bool {
        match force {
            Force::Mission => !t.mission_gone,
            Force::Group(i) => self.at_sea(t, i) && has(t.alive, i),
        }
    }

    /// Phase 2: combats deepest first (N-12).
    fn resolve<C: Chance>(&self, t: &mut Trial, chance: &mut C) {
        for &k in &self.resolve_order {
            let m = &self.meetings[k];
            if t.reached & m.members != 0 && self.present(t, m.place.force) {
                self.meet(t, m, chance);
            }
        }
    }

    /// Phase 3: forces going home may be intercepted once on the way (N-17.2, N-17.4).
    fn homeward<C: Chance, R: Recorder>(&self, t: &mut Trial, chance: &mut C, rec: &mut R) {
        for &k in &self.return_order {
            let m = &self.meetings[k];
            if !self.going_home(t, m.place.force) {
                continue;
            }
            for i in each(m.members) {
                self.roll_group(t, i, chance, rec);
            }
            if t.reached & m.members != 0 {
                self.meet(t, m, chance);
            }
        }
    }

    /// Everything that happens where a force is met: forces sail (with air attacks), submarines attack, and
    /// the surface forces fight (N-12, N-13, N-16, N-19).
    fn meet<C: Chance>(&self, t: &mut Trial, m: &Meeting, chance: &mut C) {
        // The intercepting side sails first, then the intercepted force (N-12 steps 1 and 2).
        let mut arrived = self.sail(t, m.members & t.reached & t.alive, chance);
        let surface = arrived & m.intercepting != 0;
        if !surface && arrived & self.submarines == 0 {
            return;
        }
        if !self.sails(chance) {
            self.turn_back(t, m, arrived);
            return;
        }
        self.submarines_attack(t, arrived & self.submarines, chance);
        if surface {
            self.deferring_join(t, m, &mut arrived, chance, true);
            let rounds = self.fight_rounds(t, m, &mut arrived, chance);
            let intercepting_won = chance.happens(&self.nodes.intercepting_side_wins);
            self.settle(t, m, arrived, intercepting_won, rounds);
        }
    }

    /// The groups in `sailing` sail in listed order; those turned back by air are out (N-13). Returns the
    /// groups that arrive.
    fn sail<C: Chance>(&self, t: &mut Trial, sailing: u32, chance: &mut C) -> u32 {
        let mut arrived = sailing;
        for i in each(sailing) {
            if !self.sails(chance) {
                arrived &= !bit(i);
            }
        }
        t.alive &= !(sailing & !arrived);
        arrived
    }

    /// A force sails to a combat: it may be attacked by air and turn back (N-13). Returns whether it arrives.
    fn sails<C: Chance>(&self, chance: &mut C) -> bool {
        !(chance.happens(&self.nodes.air_attack) && chance.happens(&self.nodes.turn_back))
    }

    /// The intercepted force turned back (or, going home, slipped away): no combat, and whoever reached the
    /// hex found nobody (N-18.1b).
    fn turn_back(&self, t: &mut Trial, m: &Meeting, arrived: u32) {
        match m.place.force {
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

    /// Rounds of combat; after each round that is not the last, groups closing in roll one die each and
    /// join when they reach the hex (N-15). Returns the number of rounds.
    fn fight_rounds<C: Chance>(&self, t: &mut Trial, m: &Meeting, arrived: &mut u32, chance: &mut C) -> u32 {
        let mut round = 1;
        while round < self.nodes.max_rounds && !chance.happens(&self.nodes.end_after_round) {
            self.delayed_rolls(t, m, arrived, chance);
            self.deferring_join(t, m, arrived, chance, false);
            round += 1;
        }
        round
    }

    fn delayed_rolls<C: Chance>(&self, t: &mut Trial, m: &Meeting, arrived: &mut u32, chance: &mut C) {
        let closing = m.members & !t.reached & t.alive & !t.joined_late & !self.submarines;
        for i in each(closing) {
            if self.at_sea(t, i) && self.close_in(&mut t.moved[i], self.groups[i].distance, chance) {
                t.joined_late |= bit(i);
                *arrived |= bit(i);
            }
        }
    }

    /// One die of movement toward a hex `distance` away, `moved` hexes done: true on arrival (N-15.1).
    fn close_in<C: Chance>(&self, moved: &mut u8, distance: u32, chance: &mut C) -> bool {
        *moved += chance.pick(&self.nodes.delayed[(distance - u32::from(*moved)) as usize]) as u8;
        u32::from(*moved) == distance
    }

    /// Groups deferring to this combat join it: at once if their path runs through its hex, otherwise by one
    /// die a round after the first (N-14.2, N-14.3). A group that does not get there in time carries on to its
    /// own interception hex as if it had not deferred [REC].
    fn deferring_join<C: Chance>(&self, t: &mut Trial, m: &Meeting, arrived: &mut u32, chance: &mut C, at_start: bool) {
        for i in each(m.deferring & t.alive & !t.joined_deferred) {
            if !self.at_sea(t, i) {
                continue;
            }
            let distance = self.groups[i].defer.map_or(0, |(_, d)| d);
            let joins = match at_start {
                true => distance == 0,
                false => distance > 0 && self.close_in(&mut t.defer_moved[i], distance, chance),
            };
            if joins {
                t.joined_deferred |= bit(i);
                *arrived |= bit(i);
            }
        }
    }

    /// Marks who fought and who won; losers go home defeated (N-16, N-17).
    fn settle(&self, t: &mut Trial, m: &Meeting, arrived: u32, intercepting_won: bool, rounds: u32) {
        let fighters = arrived & !self.submarines;
        let winners = fighters & if intercepting_won { m.against } else { !m.against };
        t.fought |= fighters;
        t.won = (t.won & !fighters) | winners;
        t.alive = (t.alive & !fighters) | winners;
        match m.place.force {
            Force::Mission if m.place.returning => t.mission_caught_going_home = true,
            Force::Mission => (t.mission_gone, t.mission_engaged, t.rounds) = (intercepting_won, true, rounds),
            Force::Group(j) => {
                t.fought |= bit(j);
                t.won = (t.won & !bit(j)) | u32::from(!intercepting_won) << j;
                t.alive = (t.alive & !bit(j)) | u32::from(!intercepting_won) << j;
            }
        }
    }

    fn report<R: Recorder>(&self, t: &Trial, rec: &mut R) {
        rec.flag(self.m.intercepted, t.reached & self.mission_fellows != 0);
        rec.flag(self.m.engaged, t.mission_engaged);
        rec.flag(self.m.completed, !t.mission_gone);
        rec.flag(self.m.returned, t.mission_gone);
        rec.flag(self.m.caught_going_home, t.mission_caught_going_home);
        rec.value(self.m.rounds, t.rounds);
        // Back in port, units that fought, or reached a force that had turned back, are inverted unless
        // withheld (N-18).
        let inverted = (t.fought | t.target_gone) & !self.withheld;
        for (i, g) in self.groups.iter().enumerate() {
            rec.flag(g.m.fought, has(t.fought, i));
            rec.flag(g.m.won, has(t.won, i));
            rec.flag(g.m.joined_late, has(t.joined_late, i));
            rec.flag(g.m.joined_deferred, has(t.joined_deferred, i));
            rec.flag(g.m.inverted, has(inverted, i));
        }
    }
}
