//! [`RunConfig`]: the `[run]` table of every config, as written, with its defaults: how many trials, which
//! seed, the chunking and the sampler that are part of what a seed means, and the largest tree `exact` walks.

use serde::{Deserialize, Serialize};

use crate::chance::Draws;

/// `[run]`: how many trials, which seed, and where results go.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Folder under `reports/` the run writes: letters, digits, '-', '_' or '.' (not first); defaults to the
    /// config file's stem.
    #[serde(default)]
    pub name: Option<String>,
    /// Trials a run samples, 1 or more (`run --trials` overrides it): more trials, narrower intervals.
    #[serde(default = "default_trials")]
    pub trials: i64,
    /// The seed, 0 or more: the same config and seed give the same results on any number of threads
    /// (`run --seed`).
    #[serde(default = "default_seed")]
    pub seed: i64,
    /// Trials per chunk, 1 or more: each chunk has its own generator, so this is part of what a seed means.
    #[serde(default = "default_chunk_size")]
    pub chunk_size: i64,
    /// The largest chance tree, in leaves, that `exact` (and the exact column of `run`) will walk, 1 to
    /// 10000000; a larger tree is answered by sampling alone.
    #[serde(default = "default_max_exact_leaves")]
    pub max_exact_leaves: i64,
    /// Beyond that tree, the most states `exact` carries at once, 100 to 10000000: it sets the least likely
    /// aside and answers with bounds that hold for certain, narrower the more states it may carry (about
    /// 7 KB and 0.15 ms a state on the largest shipped scenarios). Default 20000.
    #[serde(default = "default_max_exact_states", skip_serializing_if = "is_default_states")]
    pub max_exact_states: i64,
    /// How trials draw: "paired" (one draw per chance node, so sweeps and sensitivity runs pair their points
    /// closely) or "packed" (one number cut node by node: fastest; scenarios that differ in one node part ways
    /// for the rest of the trial). Part of what a seed means.
    #[serde(default, skip_serializing_if = "is_paired")]
    pub draws: Draws,
}

/// The run settings, validated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunSettings {
    pub name: String,
    pub trials: u64,
    pub seed: u64,
    pub chunk_size: u64,
    pub max_exact_leaves: u64,
    pub max_exact_states: u64,
    pub draws: Draws,
}

fn is_paired(d: &Draws) -> bool {
    *d == Draws::Paired
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            name: None,
            trials: default_trials(),
            seed: default_seed(),
            chunk_size: default_chunk_size(),
            max_exact_leaves: default_max_exact_leaves(),
            max_exact_states: default_max_exact_states(),
            draws: Draws::Paired,
        }
    }
}

fn default_trials() -> i64 {
    1_000_000
}
fn default_seed() -> i64 {
    1
}
fn default_chunk_size() -> i64 {
    65_536
}
fn default_max_exact_leaves() -> i64 {
    1_000_000
}

fn default_max_exact_states() -> i64 {
    20_000
}
fn is_default_states(n: &i64) -> bool {
    *n == default_max_exact_states()
}

/// The range of `run.max_exact_states`.
pub const FEWEST_EXACT_STATES: i64 = 100;
pub const MOST_EXACT_STATES: i64 = 10_000_000;

/// The largest `run.max_exact_leaves`: a walk to this many leaves takes a few seconds at most, so that
/// `exact` never hangs on a tree it will not finish; larger trees are for sampling.
pub const MOST_EXACT_LEAVES: i64 = 10_000_000;
