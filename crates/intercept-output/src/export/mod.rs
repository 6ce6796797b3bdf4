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

mod sensitivity;
mod solve;
mod sweep;
mod trials;

pub use self::sensitivity::{SensitivityParquet, frame as sensitivity_frame};
pub use self::solve::{SolveManifest, SolveParquet, frame as solve_frame};
pub use self::sweep::{SweepManifest, SweepParquet, frame as sweep_frame, text as sweep_text};
pub use self::trials::{ROW_GROUP_BYTES, TrialsWriter, row_bytes};
use intercept_core::cumulative::Quantile;
use intercept_core::present::{DataTable, Values};
pub use intercept_core::record::{ChunkRange, RunRecord, Timing};
use intercept_core::summary::{DistRow, MetricRow, Share, Summary};
use intercept_core::text::{plain_cause, plain_io, shown_path};

/// A failure while writing an output file.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{}: {}", shown_path(path), plain_io(source))]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {}", shown_path(path), plain_cause(&source.to_string()))]
    Parquet { path: PathBuf, source: PolarsError },
    #[error("{}: {}", shown_path(path), plain_cause(message))]
    Chart { path: PathBuf, message: String },
}

impl ExportError {
    /// The error with a path inside the staging folder `staging` told as the path the file was to have in
    /// `dir`: the staging folder is removed once the run fails, so its name would lead nowhere.
    pub fn relocated(self, staging: &Path, dir: &Path) -> ExportError {
        let moved = |path: PathBuf| match path.strip_prefix(staging) {
            Ok(rest) => dir.join(rest),
            Err(_) => path,
        };
        match self {
            ExportError::Io { path, source } => ExportError::Io { path: moved(path), source },
            ExportError::Parquet { path, source } => ExportError::Parquet { path: moved(path), source },
            ExportError::Chart { path, message } => ExportError::Chart { path: moved(path), message },
        }
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
/// `<name>.parquet` for each of the rule set's own outputs that holds a table ([`intercept_core::present::Extra`]).
pub struct ExtraTables;

impl Output for ExtraTables {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let mut written = Vec::new();
        for extra in &record.presentation.extras {
            let Some(data) = &extra.data else { continue };
            let path = dir.join(format!("{}.parquet", extra.name));
            let mut df = frame(data).map_err(|e| parquet_err(&path, e))?;
            written.extend(write_parquet(&path, &mut df)?);
        }
        Ok(written)
    }
}

/// A rule set's table as a data frame, its columns in order.
fn frame(data: &DataTable) -> PolarsResult<DataFrame> {
    let column = |(name, values): &(String, Values)| {
        let name = PlSmallStr::from(name.as_str());
        match values {
            Values::Text(v) => Column::new(name, v),
            Values::U32(v) => Column::new(name, v),
            Values::MaybeU32(v) => Column::new(name, v),
            Values::U64(v) => Column::new(name, v),
            Values::F64(v) => Column::new(name, v),
            Values::MaybeF64(v) => Column::new(name, v),
        }
    };
    DataFrame::new_infer_height(data.columns.iter().map(column).collect())
}

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
        write_manifest(dir, record)
    }
}

/// Writes `record` as `dir/manifest.json`, pretty-printed: a run's and a sweep's manifest alike.
pub(crate) fn write_manifest(dir: &Path, record: &impl serde::Serialize) -> Result<Vec<PathBuf>, ExportError> {
    let path = dir.join("manifest.json");
    // The one layout the reader accepts back (`seal::text`): a manifest must read back as written.
    let json = intercept_core::seal::text(record);
    write_text(&path, &json)?;
    Ok(vec![path])
}

/// Writes `text` as the file `path` ([`write_file`]: no part of it is left behind on a failure).
pub(crate) fn write_text(path: &Path, text: &str) -> Result<(), ExportError> {
    write_file(path, |p| create(p)?.write_all(text.as_bytes()).map_err(|e| io_err(p, e)))
}

/// The summary table as a data frame, in the column order of `summary.parquet`. A count's median and 90th
/// percentile follow, each as `<q>`, `<q>_ci_low`, `<q>_ci_high` and `<q>_exact` (null for probabilities
/// and places).
pub fn summary_frame(summary: &Summary) -> PolarsResult<DataFrame> {
    let rows = &summary.metrics;
    let mut df = df! {
        "metric" => rows.iter().map(|r| r.metric.as_str()).collect::<Vec<_>>(),
        "estimate" => rows.iter().map(|r| r.estimate).collect::<Vec<_>>(),
        "ci_low" => rows.iter().map(|r| r.ci_low).collect::<Vec<_>>(),
        "ci_high" => rows.iter().map(|r| r.ci_high).collect::<Vec<_>>(),
        "successes" => rows.iter().map(|r| r.successes).collect::<Vec<_>>(),
        "trials" => rows.iter().map(|r| r.trials).collect::<Vec<_>>(),
        "exact" => rows.iter().map(|r| r.exact).collect::<Vec<_>>(),
        "exact_fraction" => rows.iter().map(|r| r.exact_fraction.as_deref()).collect::<Vec<_>>(),
        "kind" => rows.iter().map(|r| r.kind).collect::<Vec<_>>(),
    }?;
    for (name, of) in [("median", (|r| r.median) as fn(&MetricRow) -> _), ("p90", |r| r.p90)] {
        df.hstack_mut(&quantile_columns(name, rows.iter().map(of).collect()))?;
    }
    Ok(df)
}

/// The columns of `summary.parquet` an exact solve alone fills: each metric's exact value, its fraction,
/// its kind, and a count's exact median and 90th percentile. What `Scenario.exact().summary` hands out.
pub fn exact_summary_frame(summary: &Summary) -> PolarsResult<DataFrame> {
    let mut df = summary_frame(summary)?.select(["metric", "exact", "exact_fraction", "kind"])?;
    // A run's quantile columns are built around its estimate, which an exact solve alone does not have: the
    // exact quantiles come straight from each count's exact "at most" shares.
    for (name, level) in [("median_exact", 0.5), ("p90_exact", 0.9)] {
        let values: Vec<Option<u32>> = summary.metrics.iter().map(|r| exact_quantile(summary, r, level)).collect();
        df.hstack_mut(&[Column::new(name.into(), values)])?;
    }
    Ok(df)
}

/// The `level` quantile of a count's exact distribution; `None` for a probability or a place.
fn exact_quantile(summary: &Summary, row: &MetricRow, level: f64) -> Option<u32> {
    let rows = summary.distributions.iter().filter(|d| d.metric == row.metric);
    let at_most: Option<Vec<f64>> = rows.map(|d| d.at_most.exact).collect();
    let at_most = at_most.filter(|shares| !row.place && !shares.is_empty())?;
    intercept_core::cumulative::quantile(&at_most, level)
}

/// The columns of `distributions.parquet` an exact solve alone fills: each value's exact chance and its
/// cumulative shares.
pub fn exact_distributions_frame(summary: &Summary) -> PolarsResult<DataFrame> {
    let columns = ["exact", "exact_fraction", "at_least_exact", "at_least_exact_fraction", "at_most_exact"];
    let columns = ["metric", "value"].into_iter().chain(columns).chain(["at_most_exact_fraction"]);
    distributions_frame(summary)?.select(columns)
}

/// A quantile's four columns: its estimate, interval and exact value.
fn quantile_columns(name: &str, q: Vec<Option<Quantile>>) -> Vec<Column> {
    let column = |suffix: &str, f: fn(&Quantile) -> Option<u32>| {
        Column::new(format!("{name}{suffix}").into(), q.iter().map(|q| q.as_ref().and_then(f)).collect::<Vec<_>>())
    };
    vec![
        column("", |q| Some(q.estimate)),
        column("_ci_low", |q| Some(q.ci_low)),
        column("_ci_high", |q| Some(q.ci_high)),
        column("_exact", |q| q.exact),
    ]
}

/// The distributions table as a data frame, in the column order of `distributions.parquet`. Each value's
/// cumulative shares follow, as `at_least_<column>` and `at_most_<column>` for `count`, `probability`,
/// `ci_low`, `ci_high`, `exact` and `exact_fraction`.
pub fn distributions_frame(summary: &Summary) -> PolarsResult<DataFrame> {
    let rows = &summary.distributions;
    let mut df = df! {
        "metric" => rows.iter().map(|r| r.metric.as_str()).collect::<Vec<_>>(),
        "value" => rows.iter().map(|r| r.value).collect::<Vec<_>>(),
        "count" => rows.iter().map(|r| r.count).collect::<Vec<_>>(),
        "probability" => rows.iter().map(|r| r.probability).collect::<Vec<_>>(),
        "ci_low" => rows.iter().map(|r| r.ci_low).collect::<Vec<_>>(),
        "ci_high" => rows.iter().map(|r| r.ci_high).collect::<Vec<_>>(),
        "exact" => rows.iter().map(|r| r.exact).collect::<Vec<_>>(),
        "exact_fraction" => rows.iter().map(|r| r.exact_fraction.as_deref()).collect::<Vec<_>>(),
    }?;
    for (side, of) in [("at_least", (|r| &r.at_least) as fn(&DistRow) -> &Share), ("at_most", |r| &r.at_most)] {
        df.hstack_mut(&share_columns(side, rows.iter().map(of).collect()))?;
    }
    Ok(df)
}

/// A cumulative share's six columns.
fn share_columns(side: &str, shares: Vec<&Share>) -> Vec<Column> {
    let name = |column: &str| PlSmallStr::from(format!("{side}_{column}"));
    let f64s = |f: fn(&Share) -> f64| shares.iter().map(|s| f(s)).collect::<Vec<f64>>();
    vec![
        Column::new(name("count"), shares.iter().map(|s| s.count).collect::<Vec<u64>>()),
        Column::new(name("probability"), f64s(|s| s.probability)),
        Column::new(name("ci_low"), f64s(|s| s.ci_low)),
        Column::new(name("ci_high"), f64s(|s| s.ci_high)),
        Column::new(name("exact"), shares.iter().map(|s| s.exact).collect::<Vec<Option<f64>>>()),
        Column::new(name("exact_fraction"), shares.iter().map(|s| s.exact_fraction.as_deref()).collect::<Vec<_>>()),
    ]
}

pub(crate) fn write_parquet(path: &Path, df: &mut DataFrame) -> Result<Vec<PathBuf>, ExportError> {
    write_file(path, |p| plain_parquet(create(p)?, df).map_err(|e| parquet_err(p, e)))?;
    Ok(vec![path.to_owned()])
}

/// Writes `df` as one row group with its columns in Arrow's oldest layout: text as plain strings, not the
/// string_view type that Polars writes by default and that older readers lack.
fn plain_parquet(file: File, df: &mut DataFrame) -> PolarsResult<()> {
    use polars::io::parquet::write::get_encodings;
    use polars_parquet::write::{CompressionOptions, FileWriter, RowGroupIterator, Version, WriteOptions};
    df.rechunk_mut();
    let schema = df.schema().to_arrow(CompatLevel::oldest());
    // Statistics off and a fixed compression: the bytes depend on the data alone.
    let options = WriteOptions {
        statistics: StatisticsOptions::empty(),
        compression: CompressionOptions::Zstd(None),
        version: Version::V1,
        data_page_size: None,
    };
    let batches = df.iter_chunks(CompatLevel::oldest(), false).map(Ok);
    let groups = RowGroupIterator::try_new(batches, &schema, options, get_encodings(&schema))?;
    let mut writer = FileWriter::try_new(file, schema, options)?;
    if df.height() > 0 {
        for group in groups {
            writer.write(df.height() as u64, group?)?;
        }
    }
    writer.end(None)?;
    Ok(())
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
