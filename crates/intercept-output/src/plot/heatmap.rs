//! The [`Heatmap`] picture kind: a grid of squares, each shaded from white (0) to deep red (1) with its value
//! in percent written in it; squares without a value are left blank. Row 0 is drawn at the top.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Chart, FONT};
use intercept_core::present::{HeatCell, Heatmap};

impl Chart for Heatmap {
    fn size(&self) -> (u32, u32) {
        (40 * self.columns + 160, 40 * self.rows + 200)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (w, h) = (f64::from(self.columns), f64::from(self.rows));
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 20))
            .margin(16)
            .x_label_area_size(36)
            .y_label_area_size(36)
            .build_cartesian_2d(-0.5f64..w - 0.5, h - 0.5..-0.5f64)?;
        chart
            .configure_mesh()
            .x_labels(self.columns as usize)
            .y_labels(self.rows as usize)
            .x_desc(&self.x_desc)
            .y_desc(&self.y_desc)
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

/// White for 0, deep red for 1.
fn shade(p: f64) -> RGBColor {
    let t = p.clamp(0.0, 1.0);
    let mix = |from: f64, to: f64| (from + (to - from) * t).round() as u8;
    RGBColor(mix(255.0, 180.0), mix(255.0, 20.0), mix(255.0, 40.0))
}

fn square(c: &HeatCell) -> Rectangle<(f64, f64)> {
    let (x, y) = (f64::from(c.col), f64::from(c.row));
    Rectangle::new([(x - 0.48, y - 0.48), (x + 0.48, y + 0.48)], shade(c.value).filled())
}

fn percent(c: &HeatCell) -> Text<'static, (f64, f64), String> {
    let colour = if c.value > 0.6 { WHITE } else { BLACK };
    let style = (FONT, 11).into_font().color(&colour).pos(Pos::new(HPos::Center, VPos::Center));
    Text::new(format!("{:.0}", c.value * 100.0), (f64::from(c.col), f64::from(c.row)), style)
}
