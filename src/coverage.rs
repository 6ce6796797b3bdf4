//! The coverage map of a step-race run: for every destination square, the chance that a move there is
//! intercepted, P(intercepted | destination).
//!
//! The step race reports each trial's destination square ([`DESTINATION`]) and, when the move is caught, the
//! same square again ([`CAUGHT_DESTINATION`]); a [`Cell`] is their ratio for one square, with the Wilson
//! interval of the caught moves among the moves there and the exact ratio where the tree was solved.
//! [`CoverageParquet`] writes `coverage.parquet`; the heatmap is [`crate::plot::coverage`].

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::export::{ExportError, Output, RunRecord, write_parquet};
use crate::models::step_race::{CAUGHT_DESTINATION, DESTINATION, SQUARES};
use crate::stats::{Z95, wilson};
use crate::summary::{DistRow, Summary};

/// One destination square of the map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    pub col: u32,
    pub row: u32,
    /// Trials that headed here.
    pub trials: u64,
    /// P(intercepted | destination here), with its 95% Wilson interval.
    pub estimate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub exact: Option<f64>,
}

/// The map's cells that are destinations (drawn at least once, or possible by the exact solution), or
/// `None` when the run is not a step race.
pub fn cells(summary: &Summary) -> Option<Vec<Cell>> {
    let rows = |name: &str| summary.distributions.iter().filter(|r| r.metric == name).collect::<Vec<&DistRow>>();
    let (to, caught) = (rows(DESTINATION), rows(CAUGHT_DESTINATION));
    if to.len() != SQUARES as usize || caught.len() != SQUARES as usize + 1 {
        return None;
    }
    let cell = |n: usize| {
        let (t, c) = (to[n], caught[n + 1]);
        let possible = t.count > 0 || t.exact.is_some_and(|p| p > 0.0);
        let ci = wilson(c.count, t.count, Z95);
        let exact = t.exact.zip(c.exact).filter(|(p, _)| *p > 0.0).map(|(p, q)| q / p);
        let (col, row) = (n as u32 % 15, n as u32 / 15);
        let estimate = if t.count > 0 { ci.estimate } else { f64::NAN };
        possible.then_some(Cell { col, row, trials: t.count, estimate, ci_low: ci.low, ci_high: ci.high, exact })
    };
    Some((0..SQUARES as usize).filter_map(cell).collect())
}

/// `coverage.parquet`: one row per destination square (step races only).
pub struct CoverageParquet;

impl Output for CoverageParquet {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let Some(cells) = cells(&record.summary) else { return Ok(Vec::new()) };
        let path = dir.join("coverage.parquet");
        let mut df = frame(&cells).map_err(|e| ExportError::Parquet { path: path.clone(), source: e })?;
        write_parquet(&path, &mut df)
    }
}

fn frame(cells: &[Cell]) -> PolarsResult<DataFrame> {
    df! {
        "col" => cells.iter().map(|c| c.col).collect::<Vec<_>>(),
        "row" => cells.iter().map(|c| c.row).collect::<Vec<_>>(),
        "trials" => cells.iter().map(|c| c.trials).collect::<Vec<_>>(),
        "estimate" => cells.iter().map(|c| c.estimate).collect::<Vec<_>>(),
        "ci_low" => cells.iter().map(|c| c.ci_low).collect::<Vec<_>>(),
        "ci_high" => cells.iter().map(|c| c.ci_high).collect::<Vec<_>>(),
        "exact" => cells.iter().map(|c| c.exact).collect::<Vec<_>>(),
    }
}
