//! What follows an interception: the target's reaction fire at the interceptor (C-4.5), the interceptor's
//! own fire at the target (C-4.6), the formation effects of being fired on (C-7.5, C-7.6), and the morale
//! checks the hits call for (C-9.4), with the hedgehog check (C-8.2).
//!
//! Hits come from the designer-editable chances of `[cavalry.fire]`, by the firing unit's type; a shaken
//! firer, or one in open order (which fires as shaken), lands `shaken_hits` fewer. A unit checks morale when
//! one fire combat lands at least `check_hits[morale]` hits on it: 1 at morale 6 or less, 2 at 7, 3 at 8 or
//! more.

use super::react::Situation;
use super::{CHECKED, Cavalry, FAILED, FIRE_HITS, Formation, HEDGEHOG_ATTEMPTED, MORALE_LOSS, TargetState, Unit};
use crate::chance::{Chance, Dist};
use crate::metrics::Recorder;
use crate::model::Accumulated;

/// The hits node of a firer in `formation` with these chances of 0, 1, 2, ... hits (C-7.2, C-7.5).
pub(super) fn hits(chances: &[f64], formation: Formation, shaken_hits: i64) -> Dist {
    let fewer = match formation {
        Formation::Shaken | Formation::OpenOrder => shaken_hits.max(0) as usize,
        _ => 0,
    };
    // Shift the exact weights, not the float chances: 0.1 + 0.2 as floats is not the decimal 0.3.
    let chances = Dist::from_probabilities(chances);
    let mut shifted = vec![0; chances.len()];
    for h in 0..chances.len() {
        shifted[h.saturating_sub(fewer)] += chances.weight(h);
    }
    Dist::from_weights(&shifted)
}

/// The most hits a list of chances allows.
pub(super) fn most_hits(chances: &[f64]) -> usize {
    chances.len().saturating_sub(1)
}

impl Cavalry {
    /// The target's reaction fire at `unit`, from the target as it is `now`: its hits may call for the
    /// interceptor's morale check (C-9.4). A target that started in open order fires as shaken only while it
    /// is still in open order (C-7.5).
    pub(super) fn reaction_fire<C: Chance, R: Recorder>(
        &self,
        unit: &Unit,
        now: Situation,
        chance: &mut C,
        rec: &mut R,
    ) {
        let left_open_order = self.target.formation == Formation::OpenOrder && (now.broken || now.in_hedgehog);
        let node = if left_open_order { &self.reaction_hits_out_of_order } else { &self.reaction_hits };
        let hits = chance.pick(node) as u32;
        if hits >= self.check_hits[unit.morale as usize] {
            // No leader with the interceptor and no other check with this one (C-9.1).
            let passes = chance.happens(self.pass_node(unit.morale));
            rec.flag(unit.m.morale_failed, !passes);
        }
    }

    /// The interceptor fires at the target (C-4.6). Returns its hits, and whether they call for a morale
    /// check (C-9.4); what they do to the formation is [`Cavalry::formation_effects`], once the checks are
    /// rolled.
    pub(super) fn interceptor_fire<C: Chance>(
        &self,
        unit: &Unit,
        st: &TargetState,
        acc: &mut Accumulated,
        chance: &mut C,
    ) -> (u32, bool) {
        let hits = chance.pick(&unit.fire) as u32;
        acc.add(FIRE_HITS, hits);
        // `check_hits` entries are at least 1, so no hit never calls for a check (C-9.4).
        (hits, hits >= self.check_hits[st.morale.clamp(0, 10) as usize])
    }

    /// What being fired on with `hits` does to the target's formation: in column it breaks at once (C-7.6),
    /// in open order it breaks when hit (C-7.5). A target in hedgehog is in neither any more (C-8.4: HI in
    /// FN, OO or COL that succeeds goes into HH), and one already broken has nothing left to lose.
    pub(super) fn formation_effects(&self, st: &mut TargetState, hits: u32) {
        if st.now.in_hedgehog || st.now.broken {
            return;
        }
        match self.target.formation {
            Formation::Column => st.now.broken = true,
            Formation::OpenOrder if hits > 0 => st.now.broken = true,
            _ => {}
        }
    }

    /// The target's morale checks due now: a hedgehog attempt and a fire check, rolled as one at +1 when both
    /// are due together (C-9.2). A failure costs a hedgehog attempt one morale (C-8.2).
    pub(super) fn checks<C: Chance>(
        &self,
        st: &mut TargetState,
        acc: &mut Accumulated,
        hedgehog: bool,
        fire: bool,
        chance: &mut C,
    ) {
        let due = i64::from(hedgehog) + i64::from(fire);
        if due == 0 {
            return;
        }
        acc.set(CHECKED);
        acc.set_if(HEDGEHOG_ATTEMPTED, hedgehog);
        let passes = chance.happens(self.check_dist(st.morale, due - 1));
        acc.set_if(FAILED, !passes);
        match (hedgehog, passes) {
            (true, true) => st.now.in_hedgehog = true,
            (true, false) => {
                // Below the floor every check fails and a fire check is due on any hit alike, so the state
                // keeps no lower morale: what was lost is counted all the same.
                st.morale = (st.morale - 1).max(self.morale_floor);
                acc.add(MORALE_LOSS, 1);
            }
            (false, _) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shaken_firer_lands_fewer_hits() {
        let d = hits(&[0.5, 0.3, 0.2], Formation::Shaken, 1);
        assert!((d.probability(0) - 0.8).abs() < 1e-15);
        assert!((d.probability(1) - 0.2).abs() < 1e-15);
        assert_eq!(d.probability(2), 0.0);
        let normal = hits(&[0.5, 0.3, 0.2], Formation::Normal, 1);
        assert!((normal.probability(2) - 0.2).abs() < 1e-15);
    }
}
