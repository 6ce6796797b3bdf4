//! The coverage heatmap of a step race: the 15×15 tactical map, each destination square shaded by the
//! chance that a move there is intercepted (the exact value where solved, else the estimate), with the
//! percentage written in the square; squares that are not destinations are left blank.
//!
//! [`CoverageMap`] is an [`Output`] writing `coverage.{png,svg}` for step races and nothing otherwise.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Chart, FONT, both, register_font};
use crate::coverage::{Cell, cells};
use crate::export::{ExportError, Output, RunRecord};

/// `coverage.{png,svg}`.
pub struct CoverageMap;

impl Output for CoverageMap {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let Some(cells) = cells(&record.summary) else { return Ok(Vec::new()) };
        register_font();
        both(dir, "coverage", &Heatmap { cells })
    }
}

/// The map's destination cells.
pub struct Heatmap {
    pub cells: Vec<Cell>,
}

impl Chart for Heatmap {
    fn size(&self) -> (u32, u32) {
        (760, 800)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        // Row 0 is the north edge (A.0), so rows run down the picture.
        let mut chart = ChartBuilder::on(root)
            .caption("P(intercepted | destination), by destination square", (FONT, 20))
            .margin(16)
            .x_label_area_size(36)
            .y_label_area_size(36)
            .build_cartesian_2d(-0.5f64..14.5, 14.5f64..-0.5)?;
        chart
            .configure_mesh()
            .x_labels(15)
            .y_labels(15)
            .x_desc("column")
            .y_desc("row")
            .label_style((FONT, 13))
            .x_label_formatter(&whole)
            .y_label_formatter(&whole)
            .disable_mesh()
            .draw()?;
        chart.draw_series(self.cells.iter().map(square))?;
        chart.draw_series(self.cells.iter().map(percent))?;
        Ok(())
    }
}

fn whole(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-6 { format!("{}", x.round() as i64) } else { String::new() }
}

fn value(c: &Cell) -> f64 {
    c.exact.unwrap_or(c.estimate)
}

/// White for 0, deep red for 1.
fn shade(p: f64) -> RGBColor {
    let t = p.clamp(0.0, 1.0);
    let mix = |from: f64, to: f64| (from + (to - from) * t).round() as u8;
    RGBColor(mix(255.0, 180.0), mix(255.0, 20.0), mix(255.0, 40.0))
}

fn square(c: &Cell) -> Rectangle<(f64, f64)> {
    let (x, y) = (f64::from(c.col), f64::from(c.row));
    Rectangle::new([(x - 0.48, y - 0.48), (x + 0.48, y + 0.48)], shade(value(c)).filled())
}

fn percent(c: &Cell) -> Text<'static, (f64, f64), String> {
    let p = value(c);
    let colour = if p > 0.6 { WHITE } else { BLACK };
    let style = (FONT, 11).into_font().color(&colour).pos(Pos::new(HPos::Center, VPos::Center));
    Text::new(format!("{:.0}", p * 100.0), (f64::from(c.col), f64::from(c.row)), style)
}
