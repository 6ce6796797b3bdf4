//! The coverage map of a step-race run: for every destination square, the chance that a move there is
//! intercepted, P(intercepted | destination).
//!
//! The step race reports each trial's destination square ([`DESTINATION`]) and, when the move is caught, the
//! same square again ([`CAUGHT_DESTINATION`]); a [`Cell`] is their ratio for one square, with the Wilson
//! interval of the caught moves among the moves there and the exact ratio where the tree was solved.
//! [`extra`] gives them to the shared layers as `coverage.parquet`, a heatmap and a report section.

use super::{CAUGHT_DESTINATION, DESTINATION, SQUARES};
use crate::present::{DataTable, Extra, HeatCell, Heatmap, Picture, Placement, Values};
use crate::stats::{Z95, wilson};
use crate::summary::{DistRow, Summary};

/// Squares per side of the tactical map.
const SIDE: u32 = 15;

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
/// `None` when the summary holds no destinations.
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
        let (col, row) = (n as u32 % SIDE, n as u32 / SIDE);
        let estimate = if t.count > 0 { ci.estimate } else { f64::NAN };
        possible.then_some(Cell { col, row, trials: t.count, estimate, ci_low: ci.low, ci_high: ci.high, exact })
    };
    Some((0..SQUARES as usize).filter_map(cell).collect())
}

/// The coverage map as an output: `coverage.parquet`, `coverage.{png,svg}` and the report's section.
pub fn extra(summary: &Summary) -> Option<Extra> {
    let cells = cells(summary)?;
    Some(Extra {
        name: "coverage".to_owned(),
        placement: Placement::Results("Coverage map".to_owned()),
        text: "Each destination square of the tactical map shaded by the chance that a move there is intercepted, \
               in percent (exact where the chance tree was solved). Blank squares are not destinations. Every \
               square's estimate, interval and exact value are in coverage.parquet."
            .to_owned(),
        data: Some(table(&cells)),
        picture: Some(Picture::Heatmap(heatmap(&cells))),
        caption: "P(intercepted | destination) on the 15x15 tactical map".to_owned(),
        table: None,
    })
}

fn table(cells: &[Cell]) -> DataTable {
    let of = |f: fn(&Cell) -> f64| Values::F64(cells.iter().map(f).collect());
    DataTable::default()
        .column("col", Values::U32(cells.iter().map(|c| c.col).collect()))
        .column("row", Values::U32(cells.iter().map(|c| c.row).collect()))
        .column("trials", Values::U64(cells.iter().map(|c| c.trials).collect()))
        .column("estimate", of(|c| c.estimate))
        .column("ci_low", of(|c| c.ci_low))
        .column("ci_high", of(|c| c.ci_high))
        .column("exact", Values::MaybeF64(cells.iter().map(|c| c.exact).collect()))
}

/// Row 0 is the north edge (A.0), drawn at the top; each square shows the exact value where solved.
fn heatmap(cells: &[Cell]) -> Heatmap {
    Heatmap {
        title: "P(intercepted | destination), by destination square".to_owned(),
        columns: SIDE,
        rows: SIDE,
        x_desc: "column".to_owned(),
        y_desc: "row".to_owned(),
        cells: cells
            .iter()
            .map(|c| HeatCell { col: c.col, row: c.row, value: c.exact.unwrap_or(c.estimate) })
            .collect(),
    }
}
