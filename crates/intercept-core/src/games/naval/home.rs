//! The way home (N-17): forces beaten, turned back or aborting (or, under `way_home.after = "any"`, every
//! force that was at sea) go home, may be attacked from the air on the way (N-13.1), and may be intercepted
//! at up to `way_home.max_interceptions` hexes by the groups with `leg = "return"` (N-17.2, N-17.4, A-20):
//! first the air attacks, then the return-leg interceptions hex by hex, each a step of the trial.

use super::combat::Battle;
use super::trial::{Encounter, Trial, each};
use super::{Force, Naval};
use crate::chance::Chance;
use crate::metrics::Recorder;

impl Naval {
    /// Phase 3, one hex at a time: the return-leg interception at meeting `k`, if the force it waits for is
    /// going home (N-17.2, N-17.4).
    pub(super) fn home_one<C: Chance, R: Recorder>(&self, t: &mut Trial, k: usize, chance: &mut C, rec: &mut R) {
        if let Some(battle) = self.home_begin(t, k, chance, rec) {
            self.fight(t, battle, chance, rec);
        }
    }

    /// The return-leg groups of meeting `k` roll, if the force they wait for is going home, and meet it if
    /// any reach: returns the surface combat to fight, if there is one.
    pub(super) fn home_begin<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        k: usize,
        chance: &mut C,
        rec: &mut R,
    ) -> Option<Battle> {
        let m = &self.meetings[k];
        if !self.going_home(t, m.place.force) {
            return None;
        }
        for i in each(m.members) {
            self.roll_group(t, i, chance, rec);
        }
        let arrivals = m.members & t.there & t.alive;
        (arrivals != 0).then(|| self.begin(k, arrivals, Encounter::Home))
    }

    /// Each force going home whose way the tool follows (the mission, and the groups a return-leg group
    /// waits for) may be attacked from the air once, losing `air.losses_percent` of its factors (N-13.1).
    pub(super) fn air_going_home<C: Chance>(&self, t: &mut Trial, chance: &mut C) {
        if self.going_home(t, Force::Mission) && chance.happens(&self.nodes.air_home) {
            t.mission_attacked_going_home = true;
            self.lose(t, Force::Mission, self.nodes.air_losses);
        }
        for j in each(self.waited_for) {
            if self.going_home(t, Force::Group(j)) && chance.happens(&self.nodes.air_home) {
                self.lose(t, Force::Group(j), self.nodes.air_losses);
            }
        }
    }
}
