//! Sweep charts: for each metric shown (a probability, or a distribution's mean), its estimate at every point
//! of a sweep as a line inside its 95% interval band, with the exact values as red crosses where the points
//! could be solved.
//!
//! [`SweepCharts`] writes `sweep-<metric>.{png,svg}`; the x axis is the points in grid order, labelled by the
//! swept values.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Chart, ESTIMATE, EXACT, FONT, both, padded, register_font};
use crate::export::ExportError;
use intercept_core::summary::MetricRow;
use intercept_core::sweep::Point;

/// The charts of a sweep.
pub struct SweepCharts<'a> {
    pub points: &'a [Point],
    /// The metrics to chart, by name.
    pub metrics: &'a [String],
}

impl SweepCharts<'_> {
    /// Writes one chart per metric into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        register_font();
        let mut written = Vec::new();
        for line in Line::all(self.points, self.metrics) {
            written.extend(both(dir, &format!("sweep-{}", line.metric), &line)?);
        }
        Ok(written)
    }
}

/// A point's label on the x axis: its swept values.
pub(crate) fn label(p: &Point) -> String {
    p.settings.iter().map(|s| s.value.as_str()).collect::<Vec<_>>().join(", ")
}

/// The metrics a sweep's page and charts show: those `--metric` named, else every metric of the base point
/// whose mean means something (probabilities and distributions' means) and that is not one value throughout.
pub fn charted(points: &[Point], named: &[String]) -> Vec<String> {
    if !named.is_empty() {
        return named.to_vec();
    }
    let Some(first) = points.first() else { return Vec::new() };
    // A metric that took one value in every trial of every point (never intercepted, always engaged) has
    // nothing to show across the points.
    let moves = |r: &MetricRow| {
        r.always.is_none() || points.iter().any(|p| metric_row(p, &r.metric).map(|q| q.always) != Some(r.always))
    };
    first.record.summary.metrics.iter().filter(|r| !r.place && moves(r)).map(|r| r.metric.clone()).collect()
}

/// The point's row of `metric`, if it has that metric.
pub(crate) fn metric_row<'a>(p: &'a Point, metric: &str) -> Option<&'a MetricRow> {
    p.record.summary.metrics.iter().find(|r| r.metric == metric)
}

/// One metric across the points.
pub(crate) struct Line<'a> {
    pub(crate) metric: &'a str,
    axis: String,
    /// A probability's axis stays within 0..1; a mean's is as wide as its values.
    probability: bool,
    labels: Vec<String>,
    rows: Vec<&'a MetricRow>,
}

impl<'a> Line<'a> {
    /// One line per metric of `metrics` that the base point has and whose mean means something, in the order
    /// of the base point's metrics; none for an empty sweep. A point without the metric is left out.
    pub(crate) fn all(points: &'a [Point], metrics: &[String]) -> Vec<Line<'a>> {
        let Some(first) = points.first() else { return Vec::new() };
        let axis = first.settings.iter().map(|s| s.key.as_str()).collect::<Vec<_>>().join(", ");
        let shown = first.record.summary.metrics.iter().filter(|r| !r.place && metrics.contains(&r.metric));
        shown
            .map(|row| {
                let rows: Vec<(String, &MetricRow)> =
                    points.iter().filter_map(|p| Some((label(p), metric_row(p, &row.metric)?))).collect();
                Line {
                    metric: &row.metric,
                    axis: axis.clone(),
                    probability: row.kind == "probability",
                    labels: rows.iter().map(|(l, _)| l.clone()).collect(),
                    rows: rows.into_iter().map(|(_, r)| r).collect(),
                }
            })
            .collect()
    }
}

impl Chart for Line<'_> {
    fn size(&self) -> (u32, u32) {
        (800, 500)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let n = self.rows.len();
        let low =
            self.rows.iter().map(|r| r.ci_low.min(r.exact.unwrap_or(f64::INFINITY))).fold(f64::INFINITY, f64::min);
        let high = self.rows.iter().map(|r| r.ci_high.max(r.exact.unwrap_or(0.0))).fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = padded(low, high, 0.1, 1e-4, self.probability);
        let mut chart = ChartBuilder::on(root)
            .caption(format!("{} (95% band; red: exact)", self.metric), (FONT, 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.25f64..n as f64 - 0.75, low..high)?;
        let at = |x: &f64| {
            let on_point = (x - x.round()).abs() < 1e-6 && x.round() >= 0.0;
            self.labels.get(x.round() as usize).filter(|_| on_point).cloned().unwrap_or_default()
        };
        chart
            .configure_mesh()
            .x_labels(n + 1)
            .x_label_formatter(&at)
            .x_desc(self.axis.as_str())
            .y_desc(if self.probability { "probability" } else { "mean" })
            .label_style((FONT, 14))
            .disable_x_mesh()
            .draw()?;
        let upper = self.rows.iter().enumerate().map(|(i, r)| (i as f64, r.ci_high));
        let lower = self.rows.iter().enumerate().rev().map(|(i, r)| (i as f64, r.ci_low));
        chart.draw_series(std::iter::once(Polygon::new(upper.chain(lower).collect::<Vec<_>>(), ESTIMATE.mix(0.2))))?;
        let line = self.rows.iter().enumerate().map(|(i, r)| (i as f64, r.estimate));
        chart.draw_series(std::iter::once(PathElement::new(line.collect::<Vec<_>>(), ESTIMATE.stroke_width(2))))?;
        let dots = self.rows.iter().enumerate().map(|(i, r)| Circle::new((i as f64, r.estimate), 3, ESTIMATE.filled()));
        chart.draw_series(dots)?;
        let exact = self.rows.iter().enumerate();
        chart.draw_series(
            exact.filter_map(|(i, r)| r.exact.map(|x| Cross::new((i as f64, x), 6, EXACT.stroke_width(2)))),
        )?;
        Ok(())
    }
}
