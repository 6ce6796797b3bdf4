//! Path memoisation: the sampler replays the rules from memory along paths it has walked before.
//!
//! A trial is a pure function of the outcomes its chance nodes pick: the same outcomes always request the
//! same nodes and report the same slots. A [`PathMemo`] keeps the part of the chance tree that trials have
//! walked: for each node its [`Dist`] and, per outcome, where that outcome leads (another node, a leaf, or
//! nowhere yet); for each leaf the slots its trial reported. [`PathMemo::trial`] walks that tree, drawing
//! each node's outcome from the trial's stream of the [`Sampler`] exactly as the rules would have, and counts one hit at the
//! leaf it ends in; the rules themselves run only when a walk leaves the known tree. [`PathMemo::flush`] turns
//! the hits into slot counts at the end of a chunk. The tree is stored as a [`tape`] of cache lines, one per
//! edge, so a step of a walk is one line read.
//!
//! Draws, outcomes and counts are those of running the rules every time (tested on every shipped config), so
//! results never depend on the memo: not on which thread ran which chunk before, nor on whether it is full.
//! That makes a memo safe to keep per worker thread for a whole run. Nodes with one possible outcome draw
//! nothing and are left out, as the sampler skips them. A byte budget bounds the memo; past it new paths run
//! without being remembered, and a memo that keeps missing switches itself off and runs the rules directly.

mod tape;

use std::mem;

use self::tape::{LEAF, MAX_LEN, Tape};
use crate::chance::{Chance, Dist, Sampler};
use crate::metrics::{Recorder, SlotLog, Tally};
use crate::model::Model;

/// The default memory budget of one memo.
pub const BUDGET_BYTES: usize = 8 << 20;

/// The walked part of one model's chance tree, with the hits of the current chunk.
#[derive(Debug)]
pub struct PathMemo {
    tape: Tape,
    /// This chunk's hits per leaf, and each leaf's slots: `slots[leaves[l].0..leaves[l].1]`.
    hits: Vec<u64>,
    leaves: Vec<(u32, u32)>,
    slots: Vec<u32>,
    /// The outcomes of the walk that left the known tree, and the slots of the trial learning it.
    path: Vec<u32>,
    log: Vec<usize>,
    budget: usize,
    full: bool,
    /// Trials of this chunk the memo was too full to remember.
    misses: u64,
    off: bool,
}

impl PathMemo {
    /// An empty memo that holds at most about `budget` bytes.
    pub fn new(budget: usize) -> PathMemo {
        PathMemo {
            tape: Tape::new(),
            hits: Vec::new(),
            leaves: Vec::new(),
            slots: Vec::new(),
            path: Vec::new(),
            log: Vec::new(),
            budget,
            full: budget == 0,
            misses: 0,
            off: false,
        }
    }

    /// Plays one trial of `model`, drawing from `sampler`. Counts go to `tally` now, or at [`PathMemo::flush`].
    #[inline]
    pub fn trial<M: Model>(&mut self, model: &M, sampler: &mut Sampler, tally: &mut Tally) {
        if self.off {
            return model.trial(sampler, tally);
        }
        let (link, at, from) = self.tape.walk(sampler);
        if link & LEAF != 0 {
            self.hits[(link & !LEAF) as usize] += 1;
        } else {
            let owner = self.tape.owner(at, from);
            self.learn(model, sampler, tally, owner, at);
        }
    }

    /// Adds the hits of a chunk of `trials` trials to `tally`, slot by slot.
    pub fn flush(&mut self, tally: &mut Tally, trials: u64) {
        for (hits, &(start, end)) in self.hits.iter_mut().zip(&self.leaves) {
            let hits = mem::take(hits);
            if hits > 0 {
                self.slots[start as usize..end as usize].iter().for_each(|&s| tally.counts[s as usize] += hits);
            }
        }
        // A full memo that misses often costs a walk and a rules run per miss: run the rules directly.
        self.off |= self.misses * 4 > trials;
        self.misses = 0;
    }

    /// The walk left the known tree at record `at` of the node at head line `node`: run the rules, replaying
    /// the outcomes walked so far, and remember the rest of the path if there is room.
    fn learn<M: Model>(&mut self, model: &M, sampler: &mut Sampler, tally: &mut Tally, node: usize, at: usize) {
        self.tape.trace(node, at, &mut self.path);
        let mut log = mem::take(&mut self.log);
        log.clear();
        let remember = !self.full;
        let mut learner = Learner { memo: self, sampler, depth: 0, node, at, remember };
        model.trial(&mut learner, &mut SlotLog(&mut log));
        let (at, remember) = (learner.at, learner.remember);
        if remember {
            self.tape.set_leaf(at, self.leaves.len());
            self.leaves.push((self.slots.len() as u32, (self.slots.len() + log.len()) as u32));
            self.slots.extend(log.iter().map(|&s| s as u32));
            self.hits.push(1);
            self.check_budget();
        } else {
            self.misses += 1;
            log.iter().for_each(|&s| tally.slot(s));
        }
        self.log = log;
    }

    fn check_budget(&mut self) {
        let bytes = self.tape.bytes() + (self.hits.len() + self.leaves.len()) * 8 + self.slots.len() * 4;
        self.full = bytes >= self.budget || self.tape.len() >= u32::MAX as usize >> 1;
    }
}

/// The chance source of a trial that left the known tree: it replays the walked outcomes, then draws from
/// the sampler, adding each new node to the memo while `remember` holds.
struct Learner<'a> {
    memo: &'a mut PathMemo,
    sampler: &'a mut Sampler,
    depth: usize,
    /// The node (head line) and record the next new node hangs from.
    node: usize,
    at: usize,
    remember: bool,
}

impl Chance for Learner<'_> {
    fn pick(&mut self, dist: &Dist) -> usize {
        if let Some(only) = dist.certain() {
            return only;
        }
        if let Some(&outcome) = self.memo.path.get(self.depth) {
            self.depth += 1;
            return outcome as usize;
        }
        let outcome = self.sampler.pick(dist);
        self.remember &= !self.memo.full && dist.len() <= MAX_LEN;
        if self.remember {
            self.node = self.memo.tape.grow(self.node, self.at, dist);
            self.memo.check_budget();
            self.at = self.memo.tape.link(self.at) as u32 as usize + outcome;
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::chunk_rng;
    use crate::metrics::{Metrics, Recorder};

    /// Two dice; a second roll only after a six, so paths differ in length.
    struct Dice {
        metrics: Metrics,
        die: Dist,
    }

    impl Model for Dice {
        fn metrics(&self) -> &Metrics {
            &self.metrics
        }

        fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
            let first = chance.pick(&self.die);
            rec.slot(first);
            if first == 5 {
                rec.slot(6 + chance.pick(&self.die));
            }
        }
    }

    fn dice() -> Dice {
        let mut metrics = Metrics::default();
        metrics.distribution("first", 5);
        metrics.distribution("second", 5);
        Dice { metrics, die: Dist::die(6) }
    }

    /// Zero weights first, inside and last, and a total near 2^64: every edge of the scaled thresholds.
    #[test]
    fn odd_weights_pick_what_the_sampler_picks() {
        let mut metrics = Metrics::default();
        metrics.distribution("first", 5);
        metrics.distribution("second", 5);
        for weights in [vec![0, 0, 1, 2, 0, 3], vec![1, 0, 0, 0, 0, 1], vec![u64::MAX / 3, 5, u64::MAX / 2, 0, 0, 0]] {
            let model = Dice { metrics: metrics.clone(), die: Dist::from_weights(&weights) };
            let direct = counts(&model, None);
            assert_eq!(counts(&model, Some(&mut PathMemo::new(BUDGET_BYTES))), direct, "{weights:?}");
        }
    }

    fn counts(model: &Dice, memo: Option<&mut PathMemo>) -> Vec<u64> {
        let mut sampler = Sampler::new(chunk_rng(7, 0));
        let mut tally = Tally::new(model.metrics());
        match memo {
            Some(memo) => {
                (0..10_000).for_each(|_| {
                    sampler.next_trial();
                    memo.trial(model, &mut sampler, &mut tally)
                });
                memo.flush(&mut tally, 10_000);
            }
            None => (0..10_000).for_each(|_| {
                sampler.next_trial();
                model.trial(&mut sampler, &mut tally)
            }),
        }
        tally.counts
    }

    #[test]
    fn a_memo_counts_what_the_rules_count() {
        let model = dice();
        let direct = counts(&model, None);
        let mut memo = PathMemo::new(BUDGET_BYTES);
        assert_eq!(counts(&model, Some(&mut memo)), direct);
        assert_eq!(memo.leaves.len(), 11, "5 one-roll paths and 6 two-roll paths");
        assert_eq!(counts(&model, Some(&mut memo)), direct, "a warm memo, as a thread's next chunk sees it");
    }

    #[test]
    fn a_full_memo_still_counts_right() {
        let model = dice();
        let direct = counts(&model, None);
        for budget in [0, 40, 100] {
            assert_eq!(counts(&model, Some(&mut PathMemo::new(budget))), direct, "budget {budget}");
        }
    }
}
