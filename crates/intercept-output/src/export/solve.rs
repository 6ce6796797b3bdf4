//! A `solve`'s files: `solve.parquet`, its table (each value of the key with the metric there, exactly, or
//! its estimate and interval where sampled),
//! and `manifest.json`, the whole answer as `solve --json` prints it with the command and the version.

use std::io::Write;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{ExportError, create, io_err, write_file, write_parquet};
use intercept_core::fraction;
use intercept_core::solve::{Answer, Measure, Row};
use intercept_core::view::View;

/// `solve.parquet`: for two keys the first key's value (text, as a setting writes it), then the key's value
/// (integers for a whole-number key), the metric's exact value as the nearest float and as a fraction (or,
/// sampled, its estimate and 95% interval), and whether it meets the target (null where sampling cannot tell).
pub fn frame(answer: &Answer) -> PolarsResult<DataFrame> {
    let rows = answer.rows();
    let mut columns = Vec::new();
    if let Answer::Pair(pair) = answer {
        let outer: Vec<&str> = rows.iter().map(|r| r.outer.as_deref().unwrap_or_default()).collect();
        columns.push(Column::new(pair.outer.as_str().into(), outer));
    }
    let whole = matches!(answer, Answer::Whole(_) | Answer::Sampled(_))
        || matches!(answer, Answer::Pair(p) if p.rows.iter().all(|(_, a)| matches!(a, Answer::Whole(_))));
    let key = match answer {
        Answer::Whole(s) => s.key.as_str(),
        Answer::Decimal(c) => c.key.as_str(),
        Answer::Pair(p) => p.inner.as_str(),
        Answer::Sampled(b) => b.key.as_str(),
    };
    columns.push(match whole {
        true => Column::new(key.into(), rows.iter().map(|r| r.value as i64).collect::<Vec<_>>()),
        false => Column::new(key.into(), rows.iter().map(|r| r.value).collect::<Vec<_>>()),
    });
    if matches!(answer, Answer::Sampled(_)) {
        let of = |f: fn(f64, f64, f64) -> f64| {
            let sampled = |r: &Row| match r.measure {
                Measure::Sampled { estimate, low, high } => Some(f(estimate, low, high)),
                Measure::Exact(_) => None,
            };
            rows.iter().map(sampled).collect::<Vec<_>>()
        };
        columns.push(Column::new("estimate".into(), of(|e, _, _| e)));
        columns.push(Column::new("ci_low".into(), of(|_, l, _| l)));
        columns.push(Column::new("ci_high".into(), of(|_, _, h| h)));
    } else {
        let floats: Vec<Option<f64>> = rows.iter().map(|r| exact(r).map(fraction::to_f64)).collect();
        let texts: Vec<Option<String>> = rows.iter().map(|r| exact(r).map(fraction::text)).collect();
        columns.push(Column::new("exact".into(), floats));
        columns.push(Column::new("exact_fraction".into(), texts));
    }
    columns.push(Column::new("meets".into(), rows.iter().map(|r| r.meets).collect::<Vec<_>>()));
    DataFrame::new_infer_height(columns)
}

/// Writes `solve.parquet` into `dir`.
pub struct SolveParquet<'a>(pub &'a Answer);

impl SolveParquet<'_> {
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let path = dir.join("solve.parquet");
        let mut df = frame(self.0).map_err(|e| ExportError::Parquet { path: path.clone(), source: e })?;
        write_parquet(&path, &mut df)
    }
}

/// Writes a solve's `manifest.json` into `dir`: the answer's document, the command that gave it, and the
/// version that wrote it.
pub struct SolveManifest<'a> {
    pub answer: &'a Answer,
    pub command: &'a str,
    pub config: &'a Path,
}

impl SolveManifest<'_> {
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let path = dir.join("manifest.json");
        let document = serde_json::json!({
            "kind": "solve",
            "intercept_sim": env!("CARGO_PKG_VERSION"),
            "command": self.command,
            "config": self.config.display().to_string(),
            "solve": self.answer.json(),
        });
        let mut json = serde_json::to_string_pretty(&document).expect("a JSON value serialises");
        json.push('\n');
        write_file(&path, |p| create(p)?.write_all(json.as_bytes()).map_err(|e| io_err(p, e)))?;
        Ok(vec![path])
    }
}

fn exact(r: &Row) -> Option<&intercept_core::fraction::BigRational> {
    match &r.measure {
        Measure::Exact(x) => Some(x),
        Measure::Sampled { .. } => None,
    }
}
