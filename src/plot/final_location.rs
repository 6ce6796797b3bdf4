//! The card game's chart of interceptors per final location: one bar per location the mover may end at,
//! split by what happened there (attacked, not intercepted, 1, 2, ... interceptors) as shares of the
//! trials that ended there (exact where solved, else the estimate), with the chance of ending there on the
//! right.
//!
//! [`FinalLocations`] is an [`Output`] writing `final-locations.{png,svg}` for card games and nothing
//! otherwise.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Chart, FONT, both, register_font, row_label};
use crate::export::{ExportError, Output, RunRecord};
use crate::final_location::{Outcome, Place, places};

/// `final-locations.{png,svg}`.
pub struct FinalLocations;

impl Output for FinalLocations {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let Some(places) = places(record) else { return Ok(Vec::new()) };
        register_font();
        both(dir, "final-locations", &Stacked { places })
    }
}

/// The final locations as stacked bars.
pub struct Stacked {
    pub places: Vec<Place>,
}

impl Chart for Stacked {
    fn size(&self) -> (u32, u32) {
        (1000, 160 + 40 * self.places.len().max(3) as u32)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let n = self.places.len().max(1);
        let names: Vec<String> = self.places.iter().map(|p| p.location.clone()).collect();
        let label = |y: &f64| row_label(&names, *y);
        let mut chart = ChartBuilder::on(root)
            .caption("What happens at each final location (share of the trials that end there)", (FONT, 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(names.iter().map(String::len).max().unwrap_or(4) as u32 * 9 + 24)
            .build_cartesian_2d(0f64..1.45f64, -0.5f64..n as f64 - 0.5)?;
        chart
            .configure_mesh()
            .y_labels(n)
            .y_label_formatter(&label)
            .x_label_formatter(&|x| if *x <= 1.0 + 1e-9 { format!("{:.0}%", x * 100.0) } else { String::new() })
            .x_desc("share of the trials ending at the location; right: chance of ending there")
            .label_style((FONT, 14))
            .disable_mesh()
            .draw()?;
        let k_max = self.places.first().map_or(0, |p| p.outcomes.len().saturating_sub(2));
        for (j, legend) in legends(k_max).into_iter().enumerate() {
            let colour = colour(j, k_max);
            let bars = self.places.iter().enumerate().filter_map(|(i, p)| segment(p, j, n - 1 - i, colour));
            chart
                .draw_series(bars)?
                .label(legend)
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], colour.filled()));
        }
        chart.draw_series(self.places.iter().enumerate().map(|(i, p)| share(p, n - 1 - i)))?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 13))
            .draw()?;
        Ok(())
    }
}

fn legends(k_max: usize) -> Vec<String> {
    let outcome =
        |interceptors| Outcome { interceptors, count: 0, estimate: 0.0, ci_low: 0.0, ci_high: 0.0, exact: None };
    let all = std::iter::once(None).chain((0..=k_max as u32).map(Some));
    all.map(|k| outcome(k).label()).collect()
}

/// Grey for an attack, pale for no interception, deepening red with each interceptor.
fn colour(j: usize, k_max: usize) -> RGBColor {
    match j {
        0 => RGBColor(170, 170, 170),
        1 => RGBColor(205, 225, 245),
        _ => {
            let t = (j - 1) as f64 / k_max.max(1) as f64;
            let mix = |from: u8, to: u8| (f64::from(from) + (f64::from(to) - f64::from(from)) * t).round() as u8;
            RGBColor(mix(245, 160), mix(160, 20), mix(140, 40))
        }
    }
}

fn value(o: &Outcome) -> f64 {
    o.exact.unwrap_or(o.estimate)
}

/// Outcome `j`'s part of the bar at height `y`, after the outcomes before it.
fn segment(p: &Place, j: usize, y: usize, colour: RGBColor) -> Option<Rectangle<(f64, f64)>> {
    let from: f64 = p.outcomes[..j].iter().map(value).sum();
    let to = from + value(&p.outcomes[j]);
    let y = y as f64;
    (to > from).then(|| Rectangle::new([(from, y - 0.35), (to, y + 0.35)], colour.filled()))
}

fn share(p: &Place, y: usize) -> Text<'static, (f64, f64), String> {
    let style = (FONT, 13).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
    Text::new(format!("{:.1}%", p.exact_share.unwrap_or(p.share) * 100.0), (1.02, y as f64), style)
}
