//! The [`StackedBars`] picture kind: one horizontal bar per item, split into segments that are shares of it,
//! with a note at its right and a legend of the segment kinds. The first kind is grey (an outcome off the
//! scale), the second pale blue, and the rest deepen to red.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Chart, FONT, legend, row_label};
use intercept_core::present::{Bar, StackedBars};

impl Chart for StackedBars {
    fn size(&self) -> (u32, u32) {
        (1000, 160 + 40 * self.bars.len().max(3) as u32)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let n = self.bars.len().max(1);
        let names: Vec<String> = self.bars.iter().map(|b| b.label.clone()).collect();
        let label = |y: &f64| row_label(&names, *y);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(names.iter().map(String::len).max().unwrap_or(4) as u32 * 9 + 24)
            .build_cartesian_2d(0f64..1.45f64, -0.5f64..n as f64 - 0.5)?;
        chart
            .configure_mesh()
            .y_labels(n)
            .y_label_formatter(&label)
            .x_label_formatter(&|x| if *x <= 1.0 + 1e-9 { format!("{:.0}%", x * 100.0) } else { String::new() })
            .x_desc(&self.x_desc)
            .label_style((FONT, 14))
            .disable_mesh()
            .draw()?;
        let graded = self.legend.len().saturating_sub(2);
        for (j, legend) in self.legend.iter().enumerate() {
            let colour = colour(j, graded);
            let bars = self.bars.iter().enumerate().filter_map(|(i, b)| segment(b, j, n - 1 - i, colour));
            chart
                .draw_series(bars)?
                .label(legend)
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], colour.filled()));
        }
        chart.draw_series(self.bars.iter().enumerate().map(|(i, b)| note(b, n - 1 - i)))?;
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    }
}

/// Grey for the first kind, pale for the second, deepening red for the `graded` kinds after them.
fn colour(j: usize, graded: usize) -> RGBColor {
    match j {
        0 => RGBColor(170, 170, 170),
        1 => RGBColor(205, 225, 245),
        _ => {
            let t = (j - 1) as f64 / graded.max(1) as f64;
            let mix = |from: u8, to: u8| (f64::from(from) + (f64::from(to) - f64::from(from)) * t).round() as u8;
            RGBColor(mix(245, 160), mix(160, 20), mix(140, 40))
        }
    }
}

/// Segment `j`'s part of the bar at height `y`, after the segments before it.
fn segment(b: &Bar, j: usize, y: usize, colour: RGBColor) -> Option<Rectangle<(f64, f64)>> {
    let from: f64 = b.shares.iter().take(j).sum();
    let to = from + b.shares.get(j).copied().unwrap_or(0.0);
    let y = y as f64;
    (to > from).then(|| Rectangle::new([(from, y - 0.35), (to, y + 0.35)], colour.filled()))
}

fn note(b: &Bar, y: usize) -> Text<'static, (f64, f64), String> {
    let style = (FONT, 13).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
    Text::new(b.note.clone(), (1.02, y as f64), style)
}
