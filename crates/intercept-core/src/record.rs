//! The record of a run: everything its output files are written from, and what `manifest.json` holds.
//!
//! A [`RunRecord`] holds the resolved config, the seed and chunking, the raw counts of every slot (from which
//! a partial run is resumed or shards are merged), their [`Summary`], and the [`Presentation`] its rule set
//! gives. Only the part that does not depend on how the run went is serialised, sealed by a SHA-256 digest and,
//! when a key is given, a key seal ([`crate::seal`]).

use serde::{Deserialize, Serialize};

use crate::config::RawConfig;
use crate::present::Presentation;
use crate::seal;
use crate::summary::Summary;

/// Everything the output files are written from.
///
/// What is serialised is `manifest.json`, and it holds nothing that depends on how the run went (threads,
/// timing), so the same config and seed write the same bytes however, and in how many pieces, they ran. It
/// is read back the same way ([`crate::partial::Stored`]), so the digest is computed from the same fields.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunRecord {
    pub tool: String,
    pub version: String,
    pub config_file: String,
    /// The config with every default filled in.
    pub config: RawConfig,
    pub seed: u64,
    /// The trials the counts cover.
    pub trials: u64,
    pub chunk_size: u64,
    /// Whether the counts cover only part of the run's chunks: an interrupted run, or one shard of a run.
    pub partial: bool,
    /// The chunks the counts cover.
    pub chunks: ChunkRange,
    /// The chunks this run was asked for: all of them, or a shard's share.
    pub wanted: ChunkRange,
    /// The interval half-width `run --precision` stopped at, if it was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// Whether every probability's interval reached `precision` (false: the run stopped at its most trials,
    /// `--max-trials`, first); only for a `--precision` run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision_reached: Option<bool>,
    /// Leaves of the chance tree when the exact column was computed.
    pub exact_leaves: Option<u64>,
    /// The raw counter of every slot, from which a partial result is resumed or merged.
    pub counts: Vec<u64>,
    /// The SHA-256 of everything above ([`RunRecord::digest_now`]): `merge` and `run --resume` refuse a
    /// manifest edited since it was written.
    #[serde(default)]
    pub digest: String,
    /// The HMAC-SHA256 of everything above but the digest under the job's key ([`RunRecord::seal_with`]),
    /// when one was given: only a holder of the key can make it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
    /// Whether the config file named no longer holds the config recorded (it was edited or removed since the
    /// run began: a resumed or merged run computes from the recorded config), so the reproduce command must
    /// not name it.
    #[serde(skip)]
    pub file_changed: bool,
    /// How the trials ran, for the terminal; `None` for a merge, which runs none.
    #[serde(skip)]
    pub timing: Option<Timing>,
    #[serde(skip)]
    pub summary: Summary,
    /// How the run is shown: its rule set's plain words, headline and own outputs.
    #[serde(skip)]
    pub presentation: Presentation,
}

/// How a process ran its trials: not part of any output file, since it changes from run to run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub threads: usize,
    pub wall_seconds: f64,
    /// The trials this process ran per second (a resumed run's counts hold more trials).
    pub trials_per_second: f64,
}

/// A half-open range of chunk indices, `from..to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ChunkRange {
    pub from: u64,
    pub to: u64,
}

impl From<std::ops::Range<u64>> for ChunkRange {
    fn from(r: std::ops::Range<u64>) -> Self {
        ChunkRange { from: r.start, to: r.end }
    }
}

impl RunRecord {
    /// Sets the digest to that of the record's contents (the key seal, for shards that share a key, is
    /// `seal_with`).
    pub fn set_digest(&mut self) {
        self.digest = self.digest_now();
    }

    /// Whether the run stopped before its chunks were done (interrupted), so `run --resume` can go on.
    pub fn unfinished(&self) -> bool {
        self.partial && self.chunks.to < self.wanted.to
    }
}

seal::sealed_record!(RunRecord);
