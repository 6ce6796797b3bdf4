//! A `solve`'s files: `solve.parquet`, its table (each value of the key with the metric there, exactly),
//! and `manifest.json`, the whole answer as `solve --json` prints it with the command and the version.

use std::io::Write;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{ExportError, create, io_err, write_file, write_parquet};
use intercept_core::fraction;
use intercept_core::solve::{Answer, Row};
use intercept_core::view::View;

/// `solve.parquet`: for two keys the first key's value (text, as a setting writes it), then the key's value
/// (integers for a whole-number key), the metric's exact value as the nearest float and as a fraction, and
/// whether it meets the target.
pub fn frame(answer: &Answer) -> PolarsResult<DataFrame> {
    let rows = answer.rows();
    let mut columns = Vec::new();
    if let Answer::Pair(pair) = answer {
        let outer: Vec<&str> = rows.iter().map(|r| r.outer.as_deref().unwrap_or_default()).collect();
        columns.push(Column::new(pair.outer.as_str().into(), outer));
    }
    let whole = matches!(answer, Answer::Whole(_))
        || matches!(answer, Answer::Pair(p) if p.rows.iter().all(|(_, a)| matches!(a, Answer::Whole(_))));
    let key = match answer {
        Answer::Whole(s) => s.key.as_str(),
        Answer::Decimal(c) => c.key.as_str(),
        Answer::Pair(p) => p.inner.as_str(),
    };
    columns.push(match whole {
        true => Column::new(key.into(), rows.iter().map(|r| r.value as i64).collect::<Vec<_>>()),
        false => Column::new(key.into(), rows.iter().map(|r| r.value).collect::<Vec<_>>()),
    });
    let of = |f: fn(&Row) -> f64| rows.iter().map(f).collect::<Vec<_>>();
    columns.push(Column::new("exact".into(), of(|r| fraction::to_f64(&r.exact))));
    columns
        .push(Column::new("exact_fraction".into(), rows.iter().map(|r| fraction::text(&r.exact)).collect::<Vec<_>>()));
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
