//! `sweep.parquet`: one row per point of a sweep and metric, each swept key a column of its own.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{ExportError, write_parquet};
use crate::sweep::{Axis, Point};

/// `sweep.parquet`: one column per swept key (its value as written), then metric, kind, estimate, interval
/// and exact value.
pub fn frame(axes: &[Axis], points: &[Point]) -> PolarsResult<DataFrame> {
    let rows: Vec<(&Point, &crate::summary::MetricRow)> =
        points.iter().flat_map(|p| p.record.summary.metrics.iter().map(move |r| (p, r))).collect();
    let mut columns: Vec<Column> = axes
        .iter()
        .enumerate()
        .map(|(a, axis)| {
            let values: Vec<&str> = rows.iter().map(|(p, _)| p.settings[a].value.as_str()).collect();
            Column::new(axis.key.as_str().into(), values)
        })
        .collect();
    columns.push(Column::new("metric".into(), rows.iter().map(|(_, r)| r.metric.as_str()).collect::<Vec<_>>()));
    columns.push(Column::new("kind".into(), rows.iter().map(|(_, r)| r.kind).collect::<Vec<_>>()));
    columns.push(Column::new("estimate".into(), rows.iter().map(|(_, r)| r.estimate).collect::<Vec<_>>()));
    columns.push(Column::new("ci_low".into(), rows.iter().map(|(_, r)| r.ci_low).collect::<Vec<_>>()));
    columns.push(Column::new("ci_high".into(), rows.iter().map(|(_, r)| r.ci_high).collect::<Vec<_>>()));
    columns.push(Column::new("exact".into(), rows.iter().map(|(_, r)| r.exact).collect::<Vec<_>>()));
    DataFrame::new_infer_height(columns)
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
