//! The [`Reliability`] picture kind: stated chances against the shares observed, one point a bin with the
//! observed share's interval as a vertical bar, over the grey diagonal where the two agree. A bin whose
//! interval holds its stated chance is drawn blue, one that misses it red, so a reader sees at once which
//! bins the calibration fails.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Chart, ESTIMATE, EXACT, FONT, legend};
use intercept_core::present::Reliability;

const DIAGONAL: RGBColor = RGBColor(150, 150, 150);

impl Chart for Reliability {
    fn size(&self) -> (u32, u32) {
        (720, 640)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        // The axes span the bins and their intervals, with a margin, so bins packed near one half stay apart.
        let ends = self.bins.iter().flat_map(|b| [b.stated, b.low, b.high]);
        let (lo, hi) = ends.fold((0.5f64, 0.5f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let (lo, hi) = (((lo - 0.05) * 10.0).floor() / 10.0, ((hi + 0.05) * 10.0).ceil() / 10.0);
        let (lo, hi) = (lo.max(0.0), hi.min(1.0));
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 20))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(lo..hi, lo..hi)?;
        let percent = |x: &f64| format!("{:.0}%", x * 100.0);
        chart
            .configure_mesh()
            .x_desc(&self.x_desc)
            .y_desc(&self.y_desc)
            .x_label_formatter(&percent)
            .y_label_formatter(&percent)
            .label_style((FONT, 14))
            .light_line_style(WHITE)
            .draw()?;
        chart
            .draw_series(std::iter::once(PathElement::new([(lo, lo), (hi, hi)], DIAGONAL.stroke_width(2))))?
            .label("stated = observed")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], DIAGONAL.stroke_width(2)));
        for (holds, colour, label) in [(true, ESTIMATE, "bin holds (95% interval)"), (false, EXACT, "bin misses")] {
            let bins: Vec<_> = self.bins.iter().filter(|b| b.holds() == holds).collect();
            if bins.is_empty() {
                continue;
            }
            let style = colour.stroke_width(2);
            chart.draw_series(
                bins.iter().map(|b| ErrorBar::new_vertical(b.stated, b.low, b.observed, b.high, style, 10)),
            )?;
            chart
                .draw_series(bins.iter().map(|b| Circle::new((b.stated, b.observed), 5, colour.filled())))?
                .label(label)
                .legend(move |(x, y)| Circle::new((x + 8, y), 5, colour.filled()));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        Ok(())
    }
}
