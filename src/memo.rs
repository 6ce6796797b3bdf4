//! Path memoisation: the sampler replays the rules from memory along paths it has walked before.
//!
//! A trial is a pure function of the outcomes its chance nodes pick: the same outcomes always request the
//! same nodes and report the same slots. A [`PathMemo`] keeps the part of the chance tree that trials have
//! walked: for each node its [`Dist`] and, per outcome, where that outcome leads (another node, a leaf, or
//! nowhere yet); for each leaf the slots its trial reported. [`PathMemo::trial`] walks that tree, drawing
//! each node's outcome from the chunk's [`Sampler`] exactly as the rules would have, and counts one hit at the
//! leaf it ends in; the rules themselves run only when a walk leaves the known tree. [`PathMemo::flush`] turns
//! the hits into slot counts at the end of a chunk.
//!
//! Draws, outcomes and counts are those of running the rules every time (tested on every shipped config), so
//! results never depend on the memo: not on which thread ran which chunk before, nor on whether it is full.
//! That makes a memo safe to keep per worker thread for a whole run. Nodes with one possible outcome draw
//! nothing and are left out, as the sampler skips them. A byte budget bounds the memo; past it new paths run
//! without being remembered, and a memo that keeps missing switches itself off and runs the rules directly.

use std::mem;

use crate::chance::{Chance, Dist, Sampler};
use crate::metrics::{SlotLog, Tally};
use crate::models::Model;

/// The default memory budget of one memo.
pub const BUDGET_BYTES: usize = 8 << 20;

/// A link to nowhere yet.
const UNSEEN: u64 = 0;
/// A link to leaf `l` is `LEAF | l`. A link to a node packs its tape offset (bits 0..32), its threshold
/// count `m` (bits 32..48) and `z`, how many of its first outcomes have weight 0 (bits 48..63).
const LEAF: u64 = 1 << 63;
const OFFSET: u64 = u32::MAX as u64;
/// The most outcomes a remembered node may have, so that `m` and `z` fit their bits.
const MAX_LEN: usize = (1 << 15) - 1;

// The tape holds the nodes back to back, so a walk reads one short run of words per node. A link is two
// words, the link and the total weight of the node it leads to, so one load gives a step all it needs but
// the thresholds. Offsets 0 and 1 hold the root link. A node at offset `p` with `n` outcomes is
// [head, threshold[0..m], link[0..n]]; the head packs the parent node, the outcome in the parent and `n`,
// used only to retrace a path and to re-lay the tape.
//
// The sampler's outcome is the number of cumulative weights `c` at or below `r`, the high word of `x * N`
// for the accepted raw draw `x` ([`Sampler::accepted`]). Since `r >= c` exactly when `x > ceil(c 2^64 / N)
// - 1`, the tape stores that scaled threshold instead of `c`, and a step compares `x` directly, keeping the
// multiply off the chain of dependent loads a walk is. Weights of 0 before the first live outcome would need
// a threshold of -1: they are counted in `z` instead. The total itself is left out (a draw is always below
// it), and thresholds are padded with `u64::MAX`, which no draw exceeds, to a multiple of 4 compares.

/// How many threshold words a node with `n` outcomes has.
fn thresholds(n: usize) -> usize {
    (n - 1).next_multiple_of(4)
}

/// Where the links of a node at `node` with `n` outcomes start.
fn links(node: usize, n: usize) -> usize {
    node + 1 + thresholds(n)
}

/// The walked part of one model's chance tree, with the hits of the current chunk.
#[derive(Debug)]
pub struct PathMemo {
    tape: Vec<u64>,
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
    /// The tape length at the last [`PathMemo::relayout`].
    laid_out: usize,
}

impl PathMemo {
    /// An empty memo that holds at most about `budget` bytes.
    pub fn new(budget: usize) -> PathMemo {
        PathMemo {
            tape: vec![UNSEEN, 0],
            hits: Vec::new(),
            leaves: Vec::new(),
            slots: Vec::new(),
            path: Vec::new(),
            log: Vec::new(),
            budget,
            full: budget == 0,
            misses: 0,
            off: false,
            laid_out: 2,
        }
    }

    /// Plays one trial of `model`, drawing from `sampler`. Counts go to `tally` now, or at [`PathMemo::flush`].
    #[inline]
    pub fn trial<M: Model>(&mut self, model: &M, sampler: &mut Sampler, tally: &mut Tally) {
        if self.off {
            return model.trial(sampler, tally);
        }
        let (mut node, mut at) = (0, 0);
        loop {
            let link = self.tape[at];
            if link & LEAF != 0 {
                self.hits[(link & !LEAF) as usize] += 1;
                return;
            }
            if link == UNSEEN {
                return self.learn(model, sampler, tally, node, at);
            }
            let x = sampler.accepted(self.tape[at + 1]);
            let (m, z) = ((link >> 32) as u16 as usize, (link >> 48) as usize);
            node = (link & OFFSET) as usize;
            at = node + 1 + m + 2 * (z + count_below(&self.tape[node + 1..node + 1 + m], x));
        }
    }

    /// Adds the hits of a chunk of `trials` trials to `tally`, slot by slot.
    pub fn flush(&mut self, tally: &mut Tally, trials: u64) {
        if self.tape.len() > self.laid_out + self.laid_out / 8 {
            self.relayout();
        }
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

    /// The walk left the known tree at link `at` of `node`: run the rules, replaying the outcomes walked so
    /// far, and remember the rest of the path if there is room.
    fn learn<M: Model>(&mut self, model: &M, sampler: &mut Sampler, tally: &mut Tally, node: usize, at: usize) {
        self.trace(node, at);
        let mut log = mem::take(&mut self.log);
        log.clear();
        let remember = !self.full;
        let mut learner = Learner { memo: self, sampler, depth: 0, node, at, remember };
        model.trial(&mut learner, &mut SlotLog(&mut log));
        let (at, remember) = (learner.at, learner.remember);
        if remember {
            self.tape[at] = LEAF | self.leaves.len() as u64;
            self.leaves.push((self.slots.len() as u32, (self.slots.len() + log.len()) as u32));
            self.slots.extend(log.iter().map(|&s| s as u32));
            self.hits.push(1);
            self.check_budget();
        } else {
            self.misses += 1;
            log.iter().for_each(|&s| tally.counts[s] += 1);
        }
        self.log = log;
    }

    /// Rebuilds the outcomes from the root down to link `at` of `node`, from the nodes' parent entries.
    fn trace(&mut self, mut node: usize, at: usize) {
        self.path.clear();
        if node == 0 {
            return;
        }
        let mut head = self.tape[node];
        self.path.push(((at - links(node, head as u16 as usize)) / 2) as u32);
        while head >> 32 != 0 {
            self.path.push((head >> 16) as u16 as u32);
            node = (head >> 32) as usize;
            head = self.tape[node];
        }
        self.path.reverse();
    }

    /// The nodes' offsets, in tape order (each node's children come after it).
    fn nodes(&self) -> Vec<usize> {
        let mut nodes = Vec::new();
        let mut p = 2;
        while p < self.tape.len() {
            nodes.push(p);
            p = links(p, self.tape[p] as u16 as usize) + 2 * (self.tape[p] as u16 as usize);
        }
        nodes
    }

    /// Rewrites the tape with the most visited nodes first (by this chunk's hits), so that the nodes most
    /// walks read share the fewest cache lines. Walks and results are unchanged; only offsets move.
    fn relayout(&mut self) {
        let nodes = self.nodes();
        let index = |offset: u64| nodes.binary_search(&((offset & OFFSET) as usize)).expect("a node offset");
        let mut visits = vec![0u64; nodes.len()];
        for (k, &p) in nodes.iter().enumerate().rev() {
            let n = self.tape[p] as u16 as usize;
            visits[k] = (0..n)
                .map(|o| self.tape[links(p, n) + 2 * o])
                .map(|link| match link {
                    UNSEEN => 0,
                    _ if link & LEAF != 0 => self.hits[(link & !LEAF) as usize],
                    _ => visits[index(link)],
                })
                .sum();
        }
        let mut order: Vec<usize> = (0..nodes.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(visits[k]));
        let mut moved_to = vec![0u64; nodes.len()];
        let mut tape = vec![UNSEEN, self.tape[1]];
        for &k in &order {
            moved_to[k] = tape.len() as u64;
            let p = nodes[k];
            let n = self.tape[p] as u16 as usize;
            tape.extend_from_slice(&self.tape[p..links(p, n) + 2 * n]);
        }
        let relink = |link: u64| match link {
            UNSEEN => UNSEEN,
            _ if link & LEAF != 0 => link,
            _ => moved_to[index(link)] | (link & !OFFSET),
        };
        tape[0] = relink(self.tape[0]);
        for &q in &moved_to {
            let q = q as usize;
            let (head, n) = (tape[q], tape[q] as u16 as usize);
            if head >> 32 != 0 {
                tape[q] = moved_to[index(head >> 32)] << 32 | (head & 0xFFFF_FFFF);
            }
            for o in 0..n {
                tape[links(q, n) + 2 * o] = relink(tape[links(q, n) + 2 * o]);
            }
        }
        self.tape = tape;
        self.laid_out = self.tape.len();
    }

    fn check_budget(&mut self) {
        let bytes = (self.tape.len() + self.hits.len() + self.leaves.len()) * 8 + self.slots.len() * 4;
        self.full = bytes >= self.budget || self.tape.len() as u64 >= OFFSET >> 1;
    }

    /// Adds a node for `dist` at link `at` of `parent`; returns its offset.
    fn grow(&mut self, parent: usize, at: usize, dist: &Dist) -> usize {
        let node = self.tape.len();
        let outcome = if parent == 0 { 0 } else { (at - links(parent, self.tape[parent] as u16 as usize)) / 2 };
        let (cum, total) = (dist.cumulative(), dist.total());
        let z = cum.iter().take_while(|&&c| c == 0).count();
        self.tape.push((parent as u64) << 32 | (outcome as u64) << 16 | cum.len() as u64);
        self.tape.extend(cum[z..cum.len() - 1].iter().map(|&c| scaled(c, total)));
        self.tape.resize(node + 1 + thresholds(cum.len()), u64::MAX);
        self.tape.resize(self.tape.len() + 2 * cum.len(), UNSEEN);
        self.tape[at] = node as u64 | (thresholds(cum.len()) as u64) << 32 | (z as u64) << 48;
        self.tape[at + 1] = total;
        self.check_budget();
        node
    }
}

/// The threshold a raw draw must exceed for the sampler's outcome to pass cumulative weight `c` of `total`.
fn scaled(c: u64, total: u64) -> u64 {
    if c >= total { u64::MAX } else { (((u128::from(c) << 64) - 1) / u128::from(total)) as u64 }
}

/// How many thresholds `x` exceeds (they are sorted, and padded to a multiple of 4).
#[inline]
fn count_below(thresholds: &[u64], x: u64) -> usize {
    if thresholds.len() > 16 {
        return thresholds.partition_point(|&t| t < x);
    }
    let above = |t: u64| usize::from(t < x);
    thresholds.chunks_exact(4).map(|q| (above(q[0]) + above(q[1])) + (above(q[2]) + above(q[3]))).sum()
}

/// The chance source of a trial that left the known tree: it replays the walked outcomes, then draws from
/// the sampler, adding each new node to the memo while `remember` holds.
struct Learner<'a> {
    memo: &'a mut PathMemo,
    sampler: &'a mut Sampler,
    depth: usize,
    /// The node and link the next new node hangs from.
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
            self.node = self.memo.grow(self.node, self.at, dist);
            self.at = links(self.node, dist.len()) + 2 * outcome;
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
                (0..10_000).for_each(|_| memo.trial(model, &mut sampler, &mut tally));
                memo.flush(&mut tally, 10_000);
            }
            None => (0..10_000).for_each(|_| model.trial(&mut sampler, &mut tally)),
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
