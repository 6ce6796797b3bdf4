//! A `solve`'s chart: the metric across the key's range with the target as a dashed line and each root
//! marked ([`SolveChart`]); for two keys one line per value of the first key, so where each crosses the
//! target line is the frontier. Written as `solve.{png,svg}`.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Chart, ESTIMATE, EXACT, FONT, both, padded, register_font};
use crate::export::ExportError;
use intercept_core::fraction::{self, BigRational};
use intercept_core::solve::{Answer, Curve, Scan};

/// How many steps a decimal key's curve is drawn in.
const CURVE_STEPS: i64 = 200;

/// The most lines one chart draws; the first key's other values are in the table.
const MOST_LINES: usize = 12;

/// The metric across the key's range, as one line or one per value of a first key.
pub struct SolveChart {
    title: String,
    key: String,
    metric: String,
    chance: bool,
    target: f64,
    /// Each line: its label (empty for one key) and its points.
    lines: Vec<(String, Vec<(f64, f64)>)>,
    /// Where a decimal key's metric meets the target exactly (one key only).
    roots: Vec<f64>,
}

impl SolveChart {
    pub fn of(answer: &Answer) -> SolveChart {
        let (key, metric, chance, target) = match answer {
            Answer::Whole(s) => (s.key.clone(), s.metric.clone(), s.chance, &s.target),
            Answer::Decimal(c) => (c.key.clone(), c.metric.clone(), c.chance, &c.target),
            Answer::Pair(p) => (p.inner.clone(), p.metric.clone(), p.chance, &p.target),
            Answer::Sampled(b) => (b.key.clone(), b.metric.clone(), b.chance, &b.target),
        };
        let (lines, roots) = match answer {
            Answer::Whole(s) => (vec![(String::new(), scan_line(s))], Vec::new()),
            Answer::Decimal(c) => {
                (vec![(String::new(), curve_line(c))], c.roots.iter().map(|r| fraction::to_f64(&r.mid())).collect())
            }
            Answer::Sampled(b) => {
                (vec![(String::new(), b.probes.iter().map(|p| (p.value as f64, p.estimate)).collect())], Vec::new())
            }
            Answer::Pair(p) => {
                let line = |(value, a): &(String, Answer)| match a {
                    Answer::Whole(s) => Some((format!("{} = {value}", p.outer), scan_line(s))),
                    Answer::Decimal(c) => Some((format!("{} = {value}", p.outer), curve_line(c))),
                    Answer::Pair(_) | Answer::Sampled(_) => None,
                };
                (p.rows.iter().take(MOST_LINES).filter_map(line).collect(), Vec::new())
            }
        };
        let title = format!("{metric} by {key}");
        SolveChart { title, key, metric, chance, target: fraction::to_f64(&target.value), lines, roots }
    }

    /// Writes `solve.png` and `solve.svg` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        register_font();
        both(dir, "solve", self)
    }
}

fn scan_line(s: &Scan) -> Vec<(f64, f64)> {
    s.points.iter().map(|p| (p.value as f64, fraction::to_f64(&p.exact))).collect()
}

fn curve_line(c: &Curve) -> Vec<(f64, f64)> {
    let at = |x: BigRational| c.at(&x).map(|v| (fraction::to_f64(&x), fraction::to_f64(&v)));
    c.steps(CURVE_STEPS).into_iter().filter_map(at).collect()
}

/// A line's colour: the run's blue first, then colours apart from it and from the target's red.
fn colour(i: usize) -> RGBColor {
    const OTHERS: [RGBColor; 6] = [
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(255, 127, 14),
        RGBColor(140, 86, 75),
        RGBColor(23, 190, 207),
        RGBColor(127, 127, 127),
    ];
    if i == 0 { ESTIMATE } else { OTHERS[(i - 1) % OTHERS.len()] }
}

impl Chart for SolveChart {
    fn size(&self) -> (u32, u32) {
        (800, 500)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let points = || self.lines.iter().flat_map(|(_, l)| l.iter());
        let (x0, x1) = points().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let (y0, y1) = points().fold((self.target, self.target), |(a, b), p| (a.min(p.1), b.max(p.1)));
        let (x0, x1) = if x0 < x1 { (x0, x1) } else { (x0 - 0.5, x0 + 0.5) };
        let (y0, y1) = padded(y0, y1, 0.08, 1e-3, self.chance);
        let mut chart = ChartBuilder::on(root)
            .caption(format!("{} (dashed: the target)", self.title), (FONT, 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        let whole = points().all(|p| p.0.fract() == 0.0);
        let label = |x: &f64| if whole { format!("{x:.0}") } else { format!("{x:.2}") };
        chart
            .configure_mesh()
            .x_label_formatter(&label)
            .x_desc(self.key.as_str())
            .y_desc(self.metric.as_str())
            .label_style((FONT, 14))
            .draw()?;
        // The target as a dashed line: 40 dashes across the range.
        let dash = (x1 - x0) / 80.0;
        let dashes = (0..40).map(|i| x0 + 2.0 * i as f64 * dash).map(|a| [(a, self.target), (a + dash, self.target)]);
        chart.draw_series(dashes.map(|d| PathElement::new(d, EXACT.stroke_width(2))))?;
        for (i, (label, line)) in self.lines.iter().enumerate() {
            let style = colour(i).stroke_width(2);
            let series = chart.draw_series(std::iter::once(PathElement::new(line.clone(), style)))?;
            if !label.is_empty() {
                series.label(label.as_str()).legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], style));
            }
            if line.len() <= 100 {
                chart.draw_series(line.iter().map(|&p| Circle::new(p, 3, colour(i).filled())))?;
            }
        }
        chart.draw_series(self.roots.iter().map(|&x| Cross::new((x, self.target), 7, EXACT.stroke_width(2))))?;
        if self.lines.len() > 1 {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.3))
                .label_font((FONT, 13))
                .draw()?;
        }
        Ok(())
    }
}
