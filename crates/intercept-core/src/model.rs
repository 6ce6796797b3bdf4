//! [`Model`]: a resolved rule set's trial, written once against [`crate::chance::Chance`] and reporting to a
//! [`crate::metrics::Recorder`]. The sampler ([`crate::engine`]), the path memo ([`crate::memo`]) and the
//! enumerator ([`crate::exact`]) each run it, monomorphised for their chance source, so the per-trial path
//! has no dynamic dispatch. The trait is defined in [`crate::exact`], beside the leaf walk its default
//! [`Model::solve`] runs, so that the walk and this file do not import each other; it is re-exported here,
//! where the rest of the crate names it, with [`play_trials`], which runs it on a sampler's streams.
//!
//! A model may also expose its trial as [`Stepped`]: steps over an explicit state, so that the exact
//! interpreter can carry a distribution over states and merge equal ones ([`crate::exact::states`]) instead
//! of walking every leaf. Its `trial` is then [`play_steps`], the same steps in order: the rules are still
//! written once.

use std::hash::Hash;

pub use crate::exact::Model;

use crate::chance::{Chance, Source};
use crate::metrics::{Metric, Recorder};

/// Whether a trial goes on after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Go,
    End,
}

/// A trial as steps over an explicit state (issue 37).
///
/// [`Stepped::State`] holds everything the rest of the trial reads, and no more: two paths of chance that
/// reach equal states have the same future, so the enumerator follows it once with their summed weight.
/// What a trial only reports at its end (how many interceptors succeeded, whether the target ever fired) is
/// kept out of the state as [`Accumulated`] values: the rules add to them and never read them, so paths
/// that differ only there still merge, and the enumerator carries each value's distribution beside the
/// state.
pub trait Stepped: Model {
    /// Everything later steps read. Compared in full when states merge, never by hash alone.
    type State: Clone + Eq + Hash;

    /// The state a trial starts in.
    fn start(&self) -> Self::State;

    /// How far a trial in `state` has got: every step must increase it. The enumerator steps the least
    /// advanced states first, so that paths that reach one state after different numbers of steps merge.
    fn progress(&self, state: &Self::State) -> u64;

    /// One step: reads `state`, picks through `chance`, reports to `rec` or adds to `acc`, and updates
    /// `state`. Must depend on nothing but `state` and the picks.
    fn step<C: Chance, R: Recorder>(
        &self,
        state: &mut Self::State,
        acc: &mut Accumulated,
        chance: &mut C,
        rec: &mut R,
    ) -> Flow;

    /// The values a trial accumulates, indexed as the rules use them with [`Accumulated`].
    fn accumulators(&self) -> &Accumulators;
}

/// The values a stepped model accumulates and reports at the end of a trial: counts (a distribution
/// metric's value, added up step by step) and flags (a probability metric set at most once, however often
/// the rules set it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accumulators {
    /// Distribution metrics and their largest value: count `i` is reported as `counts[i]`'s value.
    pub counts: Vec<(Metric, u32)>,
    /// Probability metrics: flag `i` is reported as `flags[i]` when set.
    pub flags: Vec<Metric>,
}

impl Accumulators {
    /// Adds a count reported as distribution metric `m` (largest value `max`); returns its index.
    pub fn count(&mut self, m: Metric, max: u32) -> usize {
        assert!(self.counts.len() < MOST_COUNTS, "at most {MOST_COUNTS} counts");
        self.counts.push((m, max));
        self.counts.len() - 1
    }

    /// Adds a flag reported as probability metric `m`; returns its index.
    pub fn flag(&mut self, m: Metric) -> usize {
        assert!(self.flags.len() < MOST_FLAGS, "at most {MOST_FLAGS} flags");
        self.flags.push(m);
        self.flags.len() - 1
    }
}

/// The most counts a stepped model may accumulate.
pub const MOST_COUNTS: usize = 8;
/// The most flags a stepped model may accumulate.
pub const MOST_FLAGS: usize = 128;

/// The accumulated values of one trial (or, in the enumerator, what one step added): fixed-size, so a
/// trial allocates nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Accumulated {
    pub(crate) counts: [u32; MOST_COUNTS],
    pub(crate) flags: u128,
}

impl Accumulated {
    /// Adds `by` to count `i` (the value reported is capped at the count's largest value).
    #[inline]
    pub fn add(&mut self, i: usize, by: u32) {
        self.counts[i] = self.counts[i].saturating_add(by);
    }

    /// Sets flag `i`.
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.flags |= 1 << i;
    }

    /// Sets flag `i` when `yes` holds.
    #[inline]
    pub fn set_if(&mut self, i: usize, yes: bool) {
        self.flags |= u128::from(yes) << i;
    }

    /// Reports every value to `rec`, as the trial ends.
    pub fn report<R: Recorder>(&self, acc: &Accumulators, rec: &mut R) {
        for (&(m, max), &v) in acc.counts.iter().zip(&self.counts) {
            rec.value(m, v.min(max));
        }
        for (i, &m) in acc.flags.iter().enumerate() {
            rec.flag(m, self.flags >> i & 1 != 0);
        }
    }
}

/// One trial of a stepped model: its steps in order, then its accumulated values. What a [`Stepped`]
/// model's `trial` is, unless it calls the same steps straight through for speed, which the exact
/// interpreters' agreement checks (tests/states.rs).
#[inline]
pub fn play_steps<M: Stepped, C: Chance, R: Recorder>(model: &M, chance: &mut C, rec: &mut R) {
    let mut state = model.start();
    let mut acc = Accumulated::default();
    while model.step(&mut state, &mut acc, chance, rec) == Flow::Go {}
    acc.report(model.accumulators(), rec);
}

/// Plays the next `trials` trials of `model` on `sampler`'s streams by running the rules, one stream each.
pub fn play_trials<M: Model, S: Source, R: Recorder>(model: &M, sampler: &mut S, trials: u64, rec: &mut R) {
    for _ in 0..trials {
        sampler.next_trial();
        model.trial(sampler, rec);
    }
}
