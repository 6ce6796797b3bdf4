//! [`Model`]: a resolved rule set's trial, written once against [`crate::chance::Chance`] and reporting to a
//! [`crate::metrics::Recorder`]. The sampler ([`crate::engine`]), the path memo ([`crate::memo`]) and the
//! enumerator ([`crate::exact`]) each run it, monomorphised for their chance source, so the per-trial path
//! has no dynamic dispatch.

use crate::chance::Source;
use crate::metrics::{Metrics, Recorder};

/// A resolved rule set, ready to run trials.
pub trait Model: Sync {
    /// Whether the engine should walk a path memo instead of running the rules for every trial. It never
    /// changes a result; a model whose chance nodes are wide (hundreds of equally likely squares) is faster
    /// without it, since the memo's tape scans a wide node six outcomes at a time.
    const PATH_MEMO: bool = true;

    /// Whether the exact enumerator may walk the chance tree. False for self-play, whose tree holds every
    /// choice of every turn of a game: `exact` reports it too large at once instead of walking its leaves.
    const EXACT: bool = true;

    /// The metrics the trial reports, registered at resolve time.
    fn metrics(&self) -> &Metrics;

    /// Plays one trial: every random event through `chance`, every outcome to `rec`.
    fn trial<C: crate::chance::Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R);
}

/// Plays the next `trials` trials of `model` on `sampler`'s streams by running the rules, one stream each.
pub fn play_trials<M: Model, S: Source, R: Recorder>(model: &M, sampler: &mut S, trials: u64, rec: &mut R) {
    for _ in 0..trials {
        sampler.next_trial();
        model.trial(sampler, rec);
    }
}
