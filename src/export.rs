//! Writing results: Parquet tables, the JSON manifest, and the atomic write every file goes through.
//!
//! Each output file is one small type behind the [`Output`] trait, written from a [`RunRecord`] (the
//! summary plus what the manifest needs). [`write_atomic`] writes to a hidden temporary name in the same
//! folder and renames it into place, so a killed run never leaves a truncated file under a real name.
//! [`TrialsWriter`] streams `trials.parquet` one row group per chunk as chunks finish.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde::Serialize;

use crate::config::RawConfig;
use crate::engine::TrialRows;
use crate::metrics::{MetricKind, Metrics};
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
/// timing), so the same config and seed write the same bytes however, and in how many pieces, they ran.
#[derive(Clone, Debug, Serialize)]
pub struct RunRecord {
    pub tool: &'static str,
    pub version: &'static str,
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
        write_atomic(&path, |tmp| std::fs::write(tmp, json + "\n").map_err(|e| io_err(tmp, e)))?;
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
    write_atomic(path, |tmp| {
        let file = File::create(tmp).map_err(|e| io_err(tmp, e))?;
        parquet_writer(file).finish(df).map_err(|e| parquet_err(tmp, e))?;
        Ok(())
    })?;
    Ok(vec![path.to_owned()])
}

fn parquet_writer(file: File) -> ParquetWriter<File> {
    // Statistics off and a fixed compression: the bytes depend on the data alone.
    ParquetWriter::new(file)
        .with_compression(ParquetCompression::Zstd(None))
        .with_statistics(StatisticsOptions::empty())
}

/// The hidden temporary name `path` is written under before it is renamed into place. The extension is
/// kept, since chart backends pick their format from it.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".partial-{name}"))
}

/// Writes `path` through `write(temp)` and renames the temporary file into place; removes it on failure.
pub fn write_atomic(path: &Path, write: impl FnOnce(&Path) -> Result<(), ExportError>) -> Result<(), ExportError> {
    let tmp = temp_path(path);
    if let Err(e) = write(&tmp) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, path).map_err(|e| io_err(path, e))
}

fn io_err(path: &Path, source: std::io::Error) -> ExportError {
    ExportError::Io { path: path.to_owned(), source }
}

fn parquet_err(path: &Path, source: PolarsError) -> ExportError {
    ExportError::Parquet { path: path.to_owned(), source }
}

/// Streams `trials.parquet`: one row group per chunk, written as chunks finish, renamed into place by
/// [`TrialsWriter::finish`].
pub struct TrialsWriter {
    path: PathBuf,
    tmp: PathBuf,
    writer: polars::io::parquet::write::BatchedWriter<File>,
    names: Vec<String>,
    flags: Vec<bool>,
}

impl TrialsWriter {
    /// Starts `dir/trials.parquet` with a `trial` column and one column per metric of `metrics`.
    pub fn create(dir: &Path, metrics: &Metrics) -> Result<TrialsWriter, ExportError> {
        let path = dir.join("trials.parquet");
        let tmp = temp_path(&path);
        let names: Vec<String> = metrics.defs().iter().map(|d| d.name.clone()).collect();
        let flags: Vec<bool> = metrics.defs().iter().map(|d| d.kind == MetricKind::Probability).collect();
        let mut schema = Schema::default();
        schema.with_column("trial".into(), DataType::UInt64);
        for (name, flag) in names.iter().zip(&flags) {
            schema.with_column(name.as_str().into(), if *flag { DataType::Boolean } else { DataType::UInt32 });
        }
        let file = File::create(&tmp).map_err(|e| io_err(&tmp, e))?;
        let writer = parquet_writer(file).batched(&schema).map_err(|e| parquet_err(&tmp, e))?;
        Ok(TrialsWriter { path, tmp, writer, names, flags })
    }

    /// Appends one chunk's trials as a row group.
    pub fn write(&mut self, rows: &TrialRows) -> Result<(), ExportError> {
        let n = rows.columns.first().map_or(0, Vec::len) as u64;
        let mut cols =
            vec![Column::new("trial".into(), (rows.first_trial..rows.first_trial + n).collect::<Vec<u64>>())];
        for ((name, flag), values) in self.names.iter().zip(&self.flags).zip(&rows.columns) {
            cols.push(match flag {
                true => Column::new(name.as_str().into(), values.iter().map(|&v| v == 1).collect::<Vec<bool>>()),
                false => Column::new(name.as_str().into(), values.as_slice()),
            });
        }
        let df = DataFrame::new_infer_height(cols).map_err(|e| parquet_err(&self.tmp, e))?;
        self.writer.write_batch(&df).map_err(|e| parquet_err(&self.tmp, e))
    }

    /// Closes the file and renames it into place.
    pub fn finish(self) -> Result<PathBuf, ExportError> {
        self.writer.finish().map_err(|e| parquet_err(&self.tmp, e))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| io_err(&self.path, e))?;
        Ok(self.path)
    }
}
