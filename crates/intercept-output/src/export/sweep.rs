//! A sweep's files: `sweep.parquet`, one row per point and metric, each swept key a column of its own typed
//! like the key (an integer key's column holds integers, so it sorts -2, -1, 0), and its `manifest.json`.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{ExportError, write_parquet};
use intercept_core::summary::MetricRow;
use intercept_core::sweep::{Axis, Point, SweepRecord};

/// `sweep.parquet`: one column per swept key (typed like the key), then metric, kind, estimate, interval,
/// exact value, and the paired difference from the base point (the first) with its interval.
pub fn frame(axes: &[Axis], points: &[Point]) -> PolarsResult<DataFrame> {
    let Some(base) = points.first() else { return Ok(DataFrame::empty()) };
    let rows: Vec<(&Point, &MetricRow)> =
        points.iter().flat_map(|p| p.record.summary.metrics.iter().map(move |r| (p, r))).collect();
    let mut columns: Vec<Column> = axes
        .iter()
        .enumerate()
        .map(|(a, axis)| typed_column(&axis.key, rows.iter().map(|(p, _)| &p.values[a]).collect()))
        .collect();
    let num = |name: &str, f: &dyn Fn(&(&Point, &MetricRow)) -> Option<f64>| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let change = |(p, r): &(&Point, &MetricRow)| p.difference(base, &r.metric);
    columns.push(Column::new("metric".into(), rows.iter().map(|(_, r)| r.metric.as_str()).collect::<Vec<_>>()));
    columns.push(Column::new("kind".into(), rows.iter().map(|(_, r)| r.kind).collect::<Vec<_>>()));
    columns.push(num("estimate", &|(_, r)| Some(r.estimate)));
    columns.push(num("ci_low", &|(_, r)| Some(r.ci_low)));
    columns.push(num("ci_high", &|(_, r)| Some(r.ci_high)));
    columns.push(num("exact", &|(_, r)| r.exact));
    columns.push(num("difference", &|row| change(row).map(|c| c.change)));
    columns.push(num("difference_low", &|row| change(row).map(|c| c.low)));
    columns.push(num("difference_high", &|row| change(row).map(|c| c.high)));
    DataFrame::new_infer_height(columns)
}

/// A swept key's column, typed like its values: integers, numbers, true/false, or text.
fn typed_column(name: &str, values: Vec<&toml::Value>) -> Column {
    use toml::Value;
    let name = PlSmallStr::from(name);
    match values.first() {
        Some(Value::Integer(_)) => Column::new(name, values.iter().map(|v| v.as_integer()).collect::<Vec<_>>()),
        Some(Value::Float(_)) => Column::new(name, values.iter().map(|v| v.as_float()).collect::<Vec<_>>()),
        Some(Value::Boolean(_)) => Column::new(name, values.iter().map(|v| v.as_bool()).collect::<Vec<_>>()),
        _ => Column::new(name, values.iter().map(|v| text(v)).collect::<Vec<_>>()),
    }
}

/// A value as text: a string as itself, anything else as TOML writes it.
pub fn text(v: &toml::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

/// Writes `sweep.parquet` into `dir`.
pub struct SweepParquet<'a> {
    pub axes: &'a [Axis],
    pub points: &'a [Point],
}

impl SweepParquet<'_> {
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let path = dir.join("sweep.parquet");
        let mut df =
            frame(self.axes, self.points).map_err(|e| ExportError::Parquet { path: path.clone(), source: e })?;
        write_parquet(&path, &mut df)
    }
}

/// Writes a sweep's `manifest.json` into `dir`: what `sweep --resume` goes on from.
pub struct SweepManifest<'a>(pub &'a SweepRecord);

impl SweepManifest<'_> {
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        super::write_manifest(dir, self.0)
    }
}
