//! The debug check of merged states (issue 37): two paths that the state enumerator merges must have the
//! same future. A state that forgot something a later rule reads would merge paths whose futures differ,
//! and the merged weight would then follow only one of them.
//!
//! The check replays the whole trial ([`Model::trial`], which never forgets) along each path's picks up to
//! the merge, then along the same picks drawn from a small seeded generator, and compares what the two report
//! after the first of those picks. Values a stepped model accumulates are left out: they are carried beside
//! the state and may rightly differ. Debug builds only, on a sample of merges
//! ([`super::states::solve`]), so every test that solves by merging states runs it.

use std::cell::Cell;

use super::Model;
use crate::chance::{Chance, Dist};
use crate::metrics::Recorder;
use crate::model::Accumulators;

/// Suffixes replayed from each merge checked.
const SUFFIXES: u64 = 3;

/// Picks `prefix` in order, then live outcomes from a SplitMix64 stream seeded by `seed`.
struct Scripted<'a> {
    prefix: &'a [u32],
    picks: &'a Cell<usize>,
    state: u64,
}

impl Chance for Scripted<'_> {
    fn pick(&mut self, dist: &Dist) -> usize {
        let at = self.picks.get();
        self.picks.set(at + 1);
        if let Some(&choice) = self.prefix.get(at) {
            return choice as usize;
        }
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let live: Vec<usize> = (0..dist.len()).filter(|&i| dist.weight(i) > 0).collect();
        live[((z ^ (z >> 31)) % live.len() as u64) as usize]
    }
}

/// The slots reported once more than `after` picks were made, less those of accumulated values.
struct Log<'a> {
    picks: &'a Cell<usize>,
    after: usize,
    skip: &'a [(usize, usize)],
    slots: Vec<usize>,
}

impl Recorder for Log<'_> {
    fn slot(&mut self, slot: usize) {
        let accumulated = self.skip.iter().any(|&(from, to)| (from..=to).contains(&slot));
        if self.picks.get() > self.after && !accumulated {
            self.slots.push(slot);
        }
    }
}

/// The slot ranges of `acc`'s counts and flags.
fn accumulated(acc: &Accumulators) -> Vec<(usize, usize)> {
    let counts = acc.counts.iter().map(|&(m, max)| (m.slot(), m.slot() + max as usize));
    counts.chain(acc.flags.iter().map(|m| (m.slot(), m.slot()))).collect()
}

/// What a trial along `prefix` and then suffix `seed` reports after the prefix, sorted.
fn reports<M: Model>(model: &M, prefix: &[u32], seed: u64, skip: &[(usize, usize)]) -> Vec<usize> {
    let picks = Cell::new(0);
    let mut chance = Scripted { prefix, picks: &picks, state: seed };
    let mut log = Log { picks: &picks, after: prefix.len(), skip, slots: Vec::new() };
    model.trial(&mut chance, &mut log);
    log.slots.sort_unstable();
    log.slots
}

/// Panics if the paths `a` and `b`, merged into one state, report differently along a few shared suffixes.
pub(super) fn same_future<M: Model>(model: &M, acc: &Accumulators, a: &[u32], b: &[u32]) {
    let skip = accumulated(acc);
    for seed in 1..=SUFFIXES {
        let (x, y) = (reports(model, a, seed, &skip), reports(model, b, seed, &skip));
        assert_eq!(x, y, "two merged paths have different futures (suffix {seed}):\n{a:?}\n{b:?}");
    }
}
