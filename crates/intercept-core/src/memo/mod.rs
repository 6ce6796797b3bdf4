//! Path memoisation: the sampler replays the rules from memory along paths it has walked before.
//!
//! A trial is a pure function of the outcomes its chance nodes pick: the same outcomes always request the
//! same nodes and report the same slots. A [`PathMemo`] keeps the part of the chance tree that trials have
//! walked: for each node its [`Dist`] and, per outcome, where that outcome leads (another node, a leaf, or
//! nowhere yet); for each leaf the slots its trial reported. [`PathMemo::play`] walks that tree for each
//! trial of a chunk, drawing each node's outcome from the trial's stream of its sampler
//! ([`crate::chance::Source`]) exactly as the rules would have, and counts one hit at the leaf it ends in; the
//! rules themselves run only when a walk leaves the known tree. [`PathMemo::flush`] turns the hits into slot
//! counts at the end of a chunk. The tree is stored as a [`tape`] of cache lines, one per
//! edge, so a step of a walk is one line read. For the packed sampler, once trials have walked about as
//! much as it costs, the tape is also flattened into a [`table`] of the leaf each first word of a trial ends
//! in, so most trials of a known tree cost one look-up and no walk.
//!
//! Draws, outcomes and counts are those of running the rules every time (tested on every shipped config), so
//! results never depend on the memo: not on which thread ran which chunk before, nor on whether it is full.
//! That makes a memo safe to keep per worker thread for a whole run. Nodes with one possible outcome draw
//! nothing and are left out, as the sampler skips them. A byte budget bounds the memo; past it new paths run
//! without being remembered, and a memo that keeps missing switches itself off, within the chunk where it
//! becomes clear, and runs the rules directly.

mod table;
mod tape;

use std::mem;

use self::table::{LeafTable, WALK};
pub(crate) use self::tape::Walk;
use self::tape::{LEAF, MAX_LEN, Tape};
use crate::chance::{Chance, Dist};
use crate::metrics::{Recorder, SlotLog, Tally};
use crate::model::{Model, play_trials};

/// The default memory budget of one memo.
pub const BUDGET_BYTES: usize = 8 << 20;

/// Trials of a chunk played before the memo may give up part-way through it ([`PathMemo::missing`]).
const GIVE_UP_AFTER: u64 = 1024;

/// The most segments a leaf table may have (12 bytes each).
const TABLE_SEGMENTS: usize = 1 << 20;

/// The walked part of one model's chance tree, with the hits of the current chunk.
#[derive(Clone, Debug)]
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
    /// The leaf table (packed trials only: their first word decides their leaf), the tape's length when it
    /// was built, and the trials walked since.
    table: Option<LeafTable>,
    tabled: usize,
    walks: u64,
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
            table: None,
            tabled: 0,
            walks: 0,
        }
    }

    /// Plays `trials` trials of `model` on the next streams of `sampler`. Counts go to `tally` now, or at
    /// [`PathMemo::flush`].
    pub(crate) fn play<M: Model, S: Walk>(&mut self, model: &M, sampler: &mut S, trials: u64, tally: &mut Tally) {
        if self.off {
            return play_trials(model, sampler, trials, tally);
        }
        let mut left = trials;
        while left > 0 {
            left -= self.look_up(sampler, left);
            if left > 0 {
                self.walk(model, sampler, tally);
                left -= 1;
                // Give up as soon as it is clear, not at the chunk's end: a scenario with too many paths
                // would pay a walk and a replay on top of the rules for a whole chunk.
                if trials - left >= GIVE_UP_AFTER && self.missing(trials - left) {
                    self.off = true;
                    return play_trials(model, sampler, left, tally);
                }
            }
        }
    }

    /// Whether the memo is full and missed on more than a quarter of the `trials` played this chunk: then
    /// a trial costs a walk and a rules run, and running the rules directly is faster.
    fn missing(&self, trials: u64) -> bool {
        self.misses * 4 > trials
    }

    /// Begins up to `most` trials and counts a hit for each the leaf table places; returns how many it
    /// placed. The trial after them, if any, is begun and left to walk. This is the loop most packed trials
    /// of a known tree run: one word, one look-up, one count.
    #[inline]
    fn look_up<S: Walk>(&mut self, sampler: &mut S, most: u64) -> u64 {
        let (Some(table), hits) = (&self.table, &mut self.hits[..]) else {
            sampler.begin();
            return 0;
        };
        for placed in 0..most {
            sampler.begin();
            let leaf = sampler.first_word().map_or(WALK, |first| table.find(first));
            if leaf == WALK {
                return placed;
            }
            hits[leaf as usize] += 1;
        }
        most
    }

    /// Plays a begun trial the table could not place by walking the tape, and learns its path if it leaves
    /// the known tree.
    fn walk<M: Model, S: Walk>(&mut self, model: &M, sampler: &mut S, tally: &mut Tally) {
        if sampler.first_word().is_some() {
            self.retable();
        }
        sampler.resume();
        let (link, at, from) = sampler.walk(&self.tape);
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
        self.off |= self.missing(trials);
        self.misses = 0;
    }

    /// Counts a trial the table could not place, and rebuilds the table when the tape has grown since it was
    /// built and the trials walked since cost about as much as building it again (a step of the build for
    /// each line, a quarter of a walk).
    fn retable(&mut self) {
        self.walks += 1;
        if self.walks >= (self.tape.len() as u64 / 4).max(256) && self.tape.len() != self.tabled {
            self.table = LeafTable::build(&self.tape, TABLE_SEGMENTS);
            (self.tabled, self.walks) = (self.tape.len(), 0);
        }
    }

    /// The walk left the known tree at record `at` of the node at head line `node`: run the rules, replaying
    /// the outcomes walked so far, and remember the rest of the path if there is room.
    fn learn<M: Model, S: Walk>(&mut self, model: &M, sampler: &mut S, tally: &mut Tally, node: usize, at: usize) {
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
struct Learner<'a, S> {
    memo: &'a mut PathMemo,
    sampler: &'a mut S,
    depth: usize,
    /// The node (head line) and record the next new node hangs from.
    node: usize,
    at: usize,
    remember: bool,
}

impl<S: Chance> Chance for Learner<'_, S> {
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
    use crate::chance::{PackedSampler, Sampler, Source};
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
            for packed in [false, true] {
                let direct = counts(&model, None, packed);
                let memo = &mut PathMemo::new(BUDGET_BYTES);
                assert_eq!(counts(&model, Some(memo), packed), direct, "{weights:?}");
                assert_eq!(counts(&model, Some(memo), packed), direct, "{weights:?}, warm");
            }
        }
    }

    /// Chunk 0's counts under either sampler, with the memo or running the rules.
    fn counts(model: &Dice, memo: Option<&mut PathMemo>, packed: bool) -> Vec<u64> {
        if packed { counts_with::<PackedSampler>(model, memo) } else { counts_with::<Sampler>(model, memo) }
    }

    fn counts_with<S: Walk>(model: &Dice, memo: Option<&mut PathMemo>) -> Vec<u64> {
        let mut sampler = S::in_chunk(7, 0, 0);
        let mut tally = Tally::new(model.metrics());
        match memo {
            Some(memo) => {
                memo.play(model, &mut sampler, 10_000, &mut tally);
                memo.flush(&mut tally, 10_000);
            }
            None => play_trials(model, &mut sampler, 10_000, &mut tally),
        }
        tally.counts
    }

    #[test]
    fn a_memo_counts_what_the_rules_count() {
        let model = dice();
        for packed in [false, true] {
            let direct = counts(&model, None, packed);
            let mut memo = PathMemo::new(BUDGET_BYTES);
            assert_eq!(counts(&model, Some(&mut memo), packed), direct);
            assert_eq!(memo.leaves.len(), 11, "5 one-roll paths and 6 two-roll paths");
            assert_eq!(
                counts(&model, Some(&mut memo), packed),
                direct,
                "a warm memo, as a thread's next chunk sees it"
            );
            assert_eq!(memo.table.is_some(), packed, "only packed trials are looked up");
        }
    }

    #[test]
    fn a_full_memo_still_counts_right() {
        let model = dice();
        for packed in [false, true] {
            let direct = counts(&model, None, packed);
            for budget in [0, 40, 100] {
                assert_eq!(counts(&model, Some(&mut PathMemo::new(budget)), packed), direct, "budget {budget}");
            }
        }
    }

    /// A memo with no room misses every trial, and gives up part-way through its first chunk instead of
    /// paying a walk on top of the rules for the whole of it.
    #[test]
    fn a_memo_that_keeps_missing_gives_up_within_the_chunk() {
        let model = dice();
        let (mut memo, mut sampler) = (PathMemo::new(0), Sampler::in_chunk(7, 0, 0));
        memo.play(&model, &mut sampler, 100_000, &mut Tally::new(model.metrics()));
        assert!(memo.off);
        assert_eq!(memo.misses, GIVE_UP_AFTER, "walked until it had played {GIVE_UP_AFTER} trials, then ran the rules");
    }

    /// Nodes whose rare outcome reads 40 or 62 bits: paths read beyond the first word, so leaves end part-way
    /// through first words. Wherever the table names a leaf, walking from that first word ends there; and
    /// the index's answer is the segments' at every segment and bucket edge.
    #[test]
    fn the_leaf_table_names_the_leaf_the_walk_ends_in() {
        let mut metrics = Metrics::default();
        metrics.distribution("first", 5);
        metrics.distribution("second", 5);
        for weights in [vec![1, 1 << 40, 3], vec![1, 1 << 62], vec![3, 1, 2, 0, 5, 1]] {
            let model = Dice { metrics: metrics.clone(), die: Dist::from_weights(&weights) };
            let mut memo = PathMemo::new(BUDGET_BYTES);
            let mut sampler = PackedSampler::in_chunk(1, 0, 0);
            let mut tally = Tally::new(model.metrics());
            let firsts: Vec<u64> =
                (0..4000u64).flat_map(|i| [i, u64::MAX - i, i << 40, i.wrapping_mul(0x9E37_79B9_7F4A_7C15)]).collect();
            for &x in &firsts {
                sampler.start(x);
                memo.walk(&model, &mut sampler, &mut tally);
            }
            let table = LeafTable::build(&memo.tape, TABLE_SEGMENTS).expect("a small table");
            let mut named = 0;
            for x in table.edges().flat_map(|s| [s.wrapping_sub(1), s, s + 1]).chain(firsts) {
                let leaf = table.find(x);
                assert_eq!(leaf, table.searched(x), "{weights:?}: first word {x:#x}");
                sampler.start(x);
                let (link, ..) = sampler.walk(&memo.tape);
                if leaf != WALK {
                    assert_eq!(link, LEAF | u64::from(leaf), "{weights:?}: first word {x:#x}");
                    named += 1;
                }
            }
            assert!(named > 1000, "{weights:?}: the table named {named} leaves");
        }
    }
}
