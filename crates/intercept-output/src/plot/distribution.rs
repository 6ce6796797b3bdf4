//! The chart of one distribution metric ([`Distribution`]): bars of estimated probability with their 95%
//! Wilson intervals, exact values as red dots where solved, and the "at most" share as a line on a second
//! axis. A distribution longer than [`MOST_BARS`] values (a game's length in turns) is drawn in [`Bin`]s of
//! equal width, so every bar keeps its interval; the tables beside it keep every value.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Chart, ESTIMATE, EXACT, FONT, legend};
use intercept_core::stats::{Z95, wilson};
use intercept_core::summary::{DistRow, Summary};

/// The most bars a distribution chart draws; a longer distribution is binned.
const MOST_BARS: usize = 40;

/// One distribution metric's chart: its rows from value 0 up to the last value seen.
pub(crate) struct Distribution<'a> {
    pub(crate) metric: &'a str,
    pub(crate) rows: Vec<&'a DistRow>,
}

impl<'a> Distribution<'a> {
    /// One chart per distribution metric of a run, in metric order, except the metrics whose values name
    /// places: their rule set draws those in pictures of its own.
    /// Values above the highest one seen (or possible, where solved) are left out: a game's steals may
    /// count up to the turn limit, but no game comes near it.
    pub(crate) fn all(summary: &'a Summary) -> Vec<Distribution<'a>> {
        let charts = summary.distributions_by_metric().into_iter().filter(|(metric, _)| !summary.is_place(metric));
        charts.map(|(metric, rows)| Distribution { metric, rows: up_to_last_seen(rows) }).collect()
    }

    /// The chart's caption on a page: what is drawn, and nothing that is not.
    pub(crate) fn caption(&self) -> String {
        let width = bin_width(self.rows.len());
        let each = if width == 1 { "each value".to_owned() } else { format!("each bin of {width} values") };
        let exact = if self.solved() { ", the exact probability (red dots)" } else { "" };
        format!(
            "{}: probability of {each} (bars, with 95% intervals){exact}, and the share of trials at most each \
             value (line, right axis)",
            self.metric
        )
    }

    fn solved(&self) -> bool {
        self.rows.iter().any(|r| r.exact.is_some())
    }

    /// The bars to draw: one per value, or per bin of values when there are more than [`MOST_BARS`].
    fn bins(&self) -> Vec<Bin> {
        let width = bin_width(self.rows.len());
        let base = self.rows.first().map_or(0, |r| r.at_least.count);
        self.rows.chunks(width).map(|rows| Bin::of(rows, base)).collect()
    }
}

fn up_to_last_seen(mut rows: Vec<&DistRow>) -> Vec<&DistRow> {
    let last = rows.iter().rposition(|r| seen(r)).unwrap_or(0);
    rows.truncate(last + 1);
    rows
}

/// Whether a distribution's value happened in some trial or can happen (exact probability above 0).
pub(crate) fn seen(r: &DistRow) -> bool {
    r.count > 0 || r.exact.is_some_and(|x| x > 0.0)
}

/// How many values one bar covers so that `values` values make at most [`MOST_BARS`] bars: 1, or a round
/// width (2, 5, 10, 20, 50, ...) a reader can add up.
fn bin_width(values: usize) -> usize {
    let round = [1, 2, 5].into_iter().chain((1..).flat_map(|e| [1, 2, 5].map(|m| m * 10usize.pow(e))));
    round.into_iter().find(|w| values.div_ceil(*w) <= MOST_BARS).expect("some width fits")
}

/// One bar: the values `from..=to`, the trials that took one of them, its 95% Wilson interval over the
/// distribution's `base` trials, and the exact probability where every value of it is solved.
struct Bin {
    from: u32,
    to: u32,
    probability: f64,
    ci_low: f64,
    ci_high: f64,
    exact: Option<f64>,
}

impl Bin {
    fn of(rows: &[&DistRow], base: u64) -> Bin {
        let count = rows.iter().map(|r| r.count).sum();
        let ci = wilson(count, base, Z95);
        let exact = rows.iter().map(|r| r.exact).sum::<Option<f64>>();
        let (from, to) = (rows[0].value, rows[rows.len() - 1].value);
        Bin { from, to, probability: ci.estimate, ci_low: ci.low, ci_high: ci.high, exact }
    }

    fn middle(&self) -> f64 {
        f64::from(self.from + self.to) / 2.0
    }
}

impl Chart for Distribution<'_> {
    fn size(&self) -> (u32, u32) {
        (800, 500)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let bins = self.bins();
        let width = bin_width(self.rows.len());
        let top = bins.iter().map(|b| b.ci_high.max(b.exact.unwrap_or(0.0))).fold(0.0, f64::max);
        let last = self.rows.len() as f64 - 0.5;
        let title = match width {
            1 => self.metric.to_owned(),
            w => format!("{} (bins of {w} values)", self.metric),
        };
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .right_y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..last, 0f64..(top * 1.1).max(0.01))?
            .set_secondary_coord(-0.5f64..last, 0f64..1.0f64);
        let whole =
            |x: &f64| if (x - x.round()).abs() < 1e-6 { format!("{}", x.round() as i64) } else { String::new() };
        let y_desc = if width == 1 { "probability".to_owned() } else { format!("probability per {width} values") };
        chart
            .configure_mesh()
            .x_labels((self.rows.len() + 1).min(16))
            .x_label_formatter(&whole)
            .x_desc("value")
            .y_desc(y_desc)
            .label_style((FONT, 14))
            .disable_x_mesh()
            .draw()?;
        chart.configure_secondary_axes().y_desc("at most").label_style((FONT, 14)).draw()?;
        let half = if width == 1 { 0.35 } else { 0.45 };
        let bar = |b: &Bin| {
            let (from, to) = (f64::from(b.from) - half, f64::from(b.to) + half);
            Rectangle::new([(from, 0.0), (to, b.probability)], ESTIMATE.mix(0.7).filled())
        };
        chart
            .draw_series(bins.iter().map(bar))?
            .label("probability, 95% interval")
            .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], ESTIMATE.mix(0.7).filled()));
        let whisker =
            |b: &Bin| ErrorBar::new_vertical(b.middle(), b.ci_low, b.probability, b.ci_high, BLACK.filled(), 8);
        chart.draw_series(bins.iter().map(whisker))?;
        if self.solved() {
            let exact = bins.iter().filter_map(|b| b.exact.map(|x| Circle::new((b.middle(), x), 4, EXACT.filled())));
            chart.draw_series(exact)?.label("exact").legend(|(x, y)| Circle::new((x + 6, y), 4, EXACT.filled()));
        }
        let at_most: Vec<(f64, f64)> = self.rows.iter().map(|r| (f64::from(r.value), r.at_most.probability)).collect();
        let line = ShapeStyle::from(&BLACK.mix(0.75)).stroke_width(2);
        chart
            .draw_secondary_series(std::iter::once(PathElement::new(at_most, line)))?
            .label("at most (right axis)")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], line));
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_distributions_are_binned_in_round_widths() {
        assert_eq!(bin_width(1), 1);
        assert_eq!(bin_width(40), 1);
        assert_eq!(bin_width(41), 2);
        assert_eq!(bin_width(81), 5);
        assert_eq!(bin_width(201), 10);
        assert_eq!(bin_width(1001), 50);
    }
}
