//! `sensitivity.parquet`: one row per allowed step of a sensitivity run and metric. The `value` and `stepped`
//! columns are numbers: whole numbers (Int64) when every key stepped is a whole number, else decimals
//! (Float64, which holds any whole number a config uses exactly).

use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{ExportError, write_parquet};
use intercept_core::config::set::Number;
use intercept_core::sensitivity::{BaseMetric, Change, Sensitivity, Step};

/// `sensitivity.parquet`: one row per allowed step and metric.
pub fn frame(s: &Sensitivity) -> PolarsResult<DataFrame> {
    let rows: Vec<(&Step, &BaseMetric, Change)> = s
        .steps
        .iter()
        .zip(&s.changes)
        .flat_map(|(step, changes)| s.metrics.iter().zip(changes).filter_map(move |(m, c)| c.map(|c| (step, m, c))))
        .collect();
    let text = |name: &str, f: &dyn Fn(&(&Step, &BaseMetric, Change)) -> String| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let num = |name: &str, f: &dyn Fn(&(&Step, &BaseMetric, Change)) -> f64| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let whole = rows.iter().all(|r| matches!(r.0.knob.value, Number::Int(_)));
    let number = |name: &str, values: Vec<String>| match whole {
        true => Column::new(name.into(), values.iter().map(|v| v.parse::<i64>().ok()).collect::<Vec<_>>()),
        false => Column::new(name.into(), values.iter().map(|v| v.parse::<f64>().ok()).collect::<Vec<_>>()),
    };
    DataFrame::new_infer_height(vec![
        text("key", &|r| r.0.knob.key.clone()),
        number("value", rows.iter().map(|r| r.0.knob.value.to_string()).collect()),
        text("step", &|r| r.0.direction.label().to_owned()),
        number("stepped", rows.iter().map(|r| r.0.value.clone()).collect()),
        text("metric", &|r| r.1.name.clone()),
        text("kind", &|r| r.1.kind.label().to_owned()),
        num("base", &|r| r.1.value),
        num("stepped_value", &|r| r.2.value),
        num("change", &|r| r.2.change),
        num("change_low", &|r| r.2.low),
        num("change_high", &|r| r.2.high),
        text("method", &|r| if r.2.exact { "exact" } else { "sampled" }.to_owned()),
    ])
}

/// Writes `sensitivity.parquet` into `dir`.
pub struct SensitivityParquet<'a>(pub &'a Sensitivity);

impl SensitivityParquet<'_> {
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let path = dir.join("sensitivity.parquet");
        let mut df = frame(self.0).map_err(|e| ExportError::Parquet { path: path.clone(), source: e })?;
        write_parquet(&path, &mut df)
    }
}
