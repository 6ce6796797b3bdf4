//! Writing results: Parquet tables, the JSON manifest, and the atomic write every file goes through.
//!
//! Each output file is one small type behind the [`Output`] trait, written from a [`RunRecord`] (the
//! summary plus what the manifest needs). Outputs are written into the private staging folder of a
//! [`crate::folder::Folder`], which puts the whole run in place only once every file is written, so
//! [`write_file`] only has to create each file exclusively and remove it if writing fails.
//! [`TrialsWriter`] ([`trials`]) streams `trials.parquet` as the trials finish.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde::{Deserialize, Serialize};

mod trials;

pub use self::trials::{ROW_GROUP_BYTES, TrialsWriter, row_bytes};
use crate::config::RawConfig;
use crate::summary::Summary;

/// A failure while writing an output file.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {source}", path.display())]
    Parquet { path: PathBuf, source: PolarsError },
    #[error("{}: {message}", path.display())]
    Chart { path: PathBuf, message: String },
}

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
    /// Leaves of the chance tree when the exact column was computed.
    pub exact_leaves: Option<u64>,
    /// The raw counter of every slot, from which a partial result is resumed or merged.
    pub counts: Vec<u64>,
    /// The SHA-256 of everything above ([`RunRecord::digest_now`]): `merge` and `run --resume` refuse a
    /// manifest edited since it was written.
    #[serde(default)]
    pub digest: String,
    /// How the trials ran, for the terminal; `None` for a merge, which runs none.
    #[serde(skip)]
    pub timing: Option<Timing>,
    #[serde(skip)]
    pub summary: Summary,
    /// The scenario in plain words ([`crate::models::ModelSpec::plain_words`]), for the report.
    #[serde(skip)]
    pub plain: Vec<String>,
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
    /// The SHA-256, in hexadecimal, of the manifest as compact JSON with its digest left empty: what its
    /// `digest` must hold.
    pub fn digest_now(&self) -> String {
        use sha2::Digest;
        let unsealed = RunRecord { digest: String::new(), ..self.clone() };
        let json = serde_json::to_vec(&unsealed).expect("a manifest serialises");
        sha2::Sha256::digest(&json).iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Sets the digest to that of the record's contents.
    pub fn seal(&mut self) {
        self.digest = self.digest_now();
    }

    /// Whether the run stopped before its chunks were done (interrupted), so `run --resume` can go on.
    pub fn unfinished(&self) -> bool {
        self.partial && self.chunks.to < self.wanted.to
    }
}

/// One output file (or a family of files, for charts).
pub trait Output {
    /// Writes the output into `dir`, returning the paths written.
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError>;
}

/// `summary.parquet`: one row per metric.
pub struct SummaryParquet;
/// `distributions.parquet`: one row per value of every distribution metric.
pub struct DistributionsParquet;
/// `manifest.json`: the resolved config, seed, sizes, timing and version.
pub struct Manifest;

impl Output for SummaryParquet {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let mut df = summary_frame(&record.summary).map_err(|e| parquet_err(dir, e))?;
        write_parquet(&dir.join("summary.parquet"), &mut df)
    }
}

impl Output for DistributionsParquet {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let mut df = distributions_frame(&record.summary).map_err(|e| parquet_err(dir, e))?;
        write_parquet(&dir.join("distributions.parquet"), &mut df)
    }
}

impl Output for Manifest {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let path = dir.join("manifest.json");
        let json = serde_json::to_string_pretty(record).expect("a run record serialises");
        write_file(&path, |p| create(p)?.write_all((json + "\n").as_bytes()).map_err(|e| io_err(p, e)))?;
        Ok(vec![path])
    }
}

/// The summary table as a data frame, in the column order of `summary.parquet`.
pub fn summary_frame(summary: &Summary) -> PolarsResult<DataFrame> {
    let rows = &summary.metrics;
    df! {
        "metric" => rows.iter().map(|r| r.metric.as_str()).collect::<Vec<_>>(),
        "estimate" => rows.iter().map(|r| r.estimate).collect::<Vec<_>>(),
        "ci_low" => rows.iter().map(|r| r.ci_low).collect::<Vec<_>>(),
        "ci_high" => rows.iter().map(|r| r.ci_high).collect::<Vec<_>>(),
        "successes" => rows.iter().map(|r| r.successes).collect::<Vec<_>>(),
        "trials" => rows.iter().map(|r| r.trials).collect::<Vec<_>>(),
        "exact" => rows.iter().map(|r| r.exact).collect::<Vec<_>>(),
        "kind" => rows.iter().map(|r| r.kind).collect::<Vec<_>>(),
    }
}

/// The distributions table as a data frame, in the column order of `distributions.parquet`.
pub fn distributions_frame(summary: &Summary) -> PolarsResult<DataFrame> {
    let rows = &summary.distributions;
    df! {
        "metric" => rows.iter().map(|r| r.metric.as_str()).collect::<Vec<_>>(),
        "value" => rows.iter().map(|r| r.value).collect::<Vec<_>>(),
        "count" => rows.iter().map(|r| r.count).collect::<Vec<_>>(),
        "probability" => rows.iter().map(|r| r.probability).collect::<Vec<_>>(),
        "ci_low" => rows.iter().map(|r| r.ci_low).collect::<Vec<_>>(),
        "ci_high" => rows.iter().map(|r| r.ci_high).collect::<Vec<_>>(),
        "exact" => rows.iter().map(|r| r.exact).collect::<Vec<_>>(),
    }
}

pub(crate) fn write_parquet(path: &Path, df: &mut DataFrame) -> Result<Vec<PathBuf>, ExportError> {
    write_file(path, |p| {
        parquet_writer(create(p)?).finish(df).map_err(|e| parquet_err(p, e))?;
        Ok(())
    })?;
    Ok(vec![path.to_owned()])
}

pub(crate) fn parquet_writer(file: File) -> ParquetWriter<File> {
    // Statistics off and a fixed compression: the bytes depend on the data alone.
    ParquetWriter::new(file)
        .with_compression(ParquetCompression::Zstd(None))
        .with_statistics(StatisticsOptions::empty())
}

/// Creates `path`, which must not exist yet: a file of the staging folder is written once.
pub(crate) fn create(path: &Path) -> Result<File, ExportError> {
    File::create_new(path).map_err(|e| io_err(path, e))
}

/// Writes `path` through `write(path)`; removes what was written if it fails, so a failed output leaves
/// no half-written file in the staging folder.
pub fn write_file(path: &Path, write: impl FnOnce(&Path) -> Result<(), ExportError>) -> Result<(), ExportError> {
    write(path).inspect_err(|_| {
        let _ = std::fs::remove_file(path);
    })
}

pub(crate) fn io_err(path: &Path, source: std::io::Error) -> ExportError {
    ExportError::Io { path: path.to_owned(), source }
}

pub(crate) fn parquet_err(path: &Path, source: PolarsError) -> ExportError {
    ExportError::Parquet { path: path.to_owned(), source }
}
