//! Tornado charts: for one metric, each rule value's change when it moves one step down and one step up,
//! largest first, with the 95% interval of the change where it was sampled.
//!
//! [`TornadoCharts`] writes `tornado-<metric>.{png,svg}` for each chosen metric that any step changes. A row
//! is a knob, labelled with its key and value; its upper bar is the step down, its lower bar the step up, each
//! marked with the value stepped to.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Chart, ESTIMATE, FONT, both, register_font, row_label};
use crate::export::ExportError;
use intercept_core::sensitivity::{Change, Ranked, Sensitivity};

/// The most knobs a chart shows; the rest are in `sensitivity.parquet`.
pub const MAX_ROWS: usize = 15;

const DOWN: RGBColor = RGBColor(230, 126, 34);

/// The tornado charts of a sensitivity run.
pub struct TornadoCharts<'a> {
    pub sensitivity: &'a Sensitivity,
    /// The metrics to chart, by index.
    pub metrics: &'a [usize],
}

impl TornadoCharts<'_> {
    /// Writes a chart per metric that some step changes into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        register_font();
        let mut written = Vec::new();
        for tornado in self.metrics.iter().filter_map(|&m| Tornado::of(self.sensitivity, m)) {
            written.extend(both(dir, &format!("tornado-{}", tornado.metric), &tornado)?);
        }
        Ok(written)
    }
}

/// One metric's tornado.
pub struct Tornado<'a> {
    pub metric: &'a str,
    caption: String,
    rows: Vec<Ranked<'a>>,
}

impl<'a> Tornado<'a> {
    /// The tornado of metric `m`, or `None` when no step changes it.
    pub fn of(s: &'a Sensitivity, m: usize) -> Option<Tornado<'a>> {
        let rows: Vec<Ranked> = s.ranked(m).into_iter().filter(|r| !r.changes_nothing()).take(MAX_ROWS).collect();
        let base = &s.metrics[m];
        let how = if base.exact { "exact" } else { "estimated" };
        let caption = format!("{}: change per step (base {:.4}, {how})", base.name, base.value);
        (!rows.is_empty()).then_some(Tornado { metric: &base.name, caption, rows })
    }

    /// The widest change or interval bound, for a symmetric axis.
    fn reach(&self) -> f64 {
        let sides = self.rows.iter().flat_map(|r| [r.down, r.up]).flatten();
        sides.map(|(_, c)| c.low.abs().max(c.high.abs())).fold(0.0, f64::max).max(1e-6) * 1.2
    }
}

impl Chart for Tornado<'_> {
    fn size(&self) -> (u32, u32) {
        (1000, 140 + 44 * self.rows.len() as u32)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let n = self.rows.len();
        let reach = self.reach();
        let labels: Vec<String> = self.rows.iter().map(|r| format!("{} = {}", r.knob.key, r.knob.value)).collect();
        let label_width = labels.iter().map(String::len).max().unwrap_or(10) as u32 * 8 + 20;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.caption, (FONT, 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(label_width.min(480))
            .build_cartesian_2d(-reach..reach, -0.5f64..n as f64 - 0.5)?;
        // Row i is drawn at y = n-1-i so the largest change is on top.
        let label = |y: &f64| row_label(&labels, *y);
        chart
            .configure_mesh()
            .y_labels(n)
            .y_label_formatter(&label)
            .x_desc("change in the metric")
            .label_style((FONT, 14))
            .disable_y_mesh()
            .draw()?;
        chart.draw_series(std::iter::once(PathElement::new(vec![(0.0, -0.5), (0.0, n as f64 - 0.5)], BLACK)))?;
        let bars =
            |dir: usize| self.rows.iter().enumerate().filter_map(move |(i, r)| bar_at(r, dir, (n - 1 - i) as f64));
        for (dir, colour, name) in [(0, DOWN, "one step down"), (1, ESTIMATE, "one step up")] {
            chart
                .draw_series(bars(dir).map(|(y, _, c)| bar(y, c, colour)))?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled()));
            chart.draw_series(bars(dir).filter(|(_, _, c)| !c.exact).map(|(y, _, c)| whisker(y, c)))?;
            chart.draw_series(bars(dir).map(|(y, to, c)| marker(y, to, c, reach * 0.01)))?;
        }
        chart.configure_series_labels().label_font((FONT, 14)).border_style(BLACK).background_style(WHITE).draw()?;
        Ok(())
    }
}

/// Where a knob's step `dir` (0 down, 1 up) is drawn: the bar's centre line, the value stepped to, the change.
fn bar_at<'a>(r: &Ranked<'a>, dir: usize, row: f64) -> Option<(f64, &'a str, Change)> {
    let (to, c) = if dir == 0 { r.down? } else { r.up? };
    Some((row + if dir == 0 { 0.2 } else { -0.2 }, to, c))
}

fn bar(y: f64, c: Change, colour: RGBColor) -> Rectangle<(f64, f64)> {
    Rectangle::new([(0.0, y - 0.17), (c.change, y + 0.17)], colour.mix(0.85).filled())
}

fn whisker(y: f64, c: Change) -> PathElement<(f64, f64)> {
    PathElement::new(vec![(c.low, y), (c.high, y)], BLACK.stroke_width(2))
}

/// The value stepped to, just past the end of the bar (or of its interval).
fn marker(y: f64, to: &str, c: Change, gap: f64) -> Text<'static, (f64, f64), String> {
    let right = c.change >= 0.0;
    let (x, h) =
        if right { (c.high.max(c.change) + gap, HPos::Left) } else { (c.low.min(c.change) - gap, HPos::Right) };
    Text::new(format!("to {to}"), (x, y), (FONT, 13).into_font().color(&BLACK).pos(Pos::new(h, VPos::Center)))
}
