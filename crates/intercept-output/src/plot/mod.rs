//! Charts: the headline odds with their intervals, and one bar chart per distribution ([`distribution`]), as
//! PNG and SVG; and,
//! for a sweep, one line per metric across the points ([`sweep`]).
//!
//! [`Charts`] is the chart [`Output`]: it draws each chart once per backend through one generic drawing
//! function per chart (the crate-private `Chart` trait), so PNG and SVG show the same thing. The PNG backend
//! renders text with DejaVu Sans embedded in the binary, so no system font library is needed. `svg_string`
//! draws any chart to an SVG document in memory, which is how `report.html` embeds the same charts inline.
//! A [`Picture`] of the diagram kind is drawn by [`diagram`] straight to SVG (no PNG); [`picture_svg`] draws
//! any picture as SVG, and [`scenario_svg`] a scenario's own picture, for a page or a server to send.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

mod board;
pub mod diagram;
mod distribution;
pub mod grid;
mod heatmap;
pub mod hexes;
mod reliability;
pub mod solve;
mod stacked;
pub mod sweep;
pub mod tornado;

pub(crate) use self::distribution::{Distribution, seen};
use crate::export::{ExportError, Output, RunRecord, write_file};
use intercept_core::config::Scenario;
use intercept_core::present::Picture;
use intercept_core::summary::{MetricRow, Summary};

const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

const ESTIMATE: RGBColor = RGBColor(31, 100, 180);
const EXACT: RGBColor = RGBColor(214, 39, 40);

intercept_core::refusal! {
    /// Why a chart or a picture could not be drawn.
    DrawError
}

/// All charts of a run: `headline.{png,svg}` and `dist-<metric>.{png,svg}`.
pub struct Charts;

impl Output for Charts {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        register_font();
        let mut written = both(dir, "headline", &Headline::new(&record.summary, &record.presentation.headline))?;
        for chart in Distribution::all(&record.summary) {
            written.extend(both(dir, &format!("dist-{}", chart.metric), &chart)?);
        }
        Ok(written)
    }
}

/// The pictures of a rule set's own outputs ([`intercept_core::present::Extra`]): `<name>.{png,svg}` each.
pub struct Pictures;

impl Output for Pictures {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let mut written = Vec::new();
        for extra in &record.presentation.extras {
            if let Some(picture) = &extra.picture {
                register_font();
                written.extend(picture_files(dir, &extra.name, picture)?);
            }
        }
        Ok(written)
    }
}

/// The picture kinds drawn by plotters, as charts: each drawn by its kind's module.
pub(crate) enum Plotted<'a> {
    Heatmap(&'a intercept_core::present::Heatmap),
    StackedBars(&'a intercept_core::present::StackedBars),
    Board(&'a intercept_core::present::Board),
    Reliability(&'a intercept_core::present::Reliability),
}

impl Plotted<'_> {
    /// `picture` as a chart, or `None` for a diagram or a grid, which [`diagram::svg`] and [`grid::svg`] draw.
    pub(crate) fn of(picture: &Picture) -> Option<Plotted<'_>> {
        match picture {
            Picture::Heatmap(p) => Some(Plotted::Heatmap(p)),
            Picture::StackedBars(p) => Some(Plotted::StackedBars(p)),
            Picture::Board(p) => Some(Plotted::Board(p)),
            Picture::Reliability(p) => Some(Plotted::Reliability(p)),
            Picture::Diagram(_) | Picture::Grid(_) | Picture::Hexes(_) => None,
        }
    }
}

impl Chart for Plotted<'_> {
    fn size(&self) -> (u32, u32) {
        match self {
            Plotted::Heatmap(p) => p.size(),
            Plotted::StackedBars(p) => p.size(),
            Plotted::Board(p) => p.size(),
            Plotted::Reliability(p) => p.size(),
        }
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match self {
            Plotted::Heatmap(p) => p.draw(root),
            Plotted::StackedBars(p) => p.draw(root),
            Plotted::Board(p) => p.draw(root),
            Plotted::Reliability(p) => p.draw(root),
        }
    }
}

/// Draws `picture` to `stem.png` and `stem.svg` in `dir`; a diagram or a grid to `stem.svg` only.
fn picture_files(dir: &Path, stem: &str, picture: &Picture) -> Result<Vec<PathBuf>, ExportError> {
    if let Some(chart) = Plotted::of(picture) {
        return both(dir, stem, &chart);
    }
    let svg = dir.join(format!("{stem}.svg"));
    let text = picture_svg(picture).map_err(|e| ExportError::Chart { path: svg.clone(), message: e.0 })?;
    crate::export::write_text(&svg, &text)?;
    Ok(vec![svg])
}

/// `picture` as an SVG document in memory, whatever its kind.
pub fn picture_svg(picture: &Picture) -> Result<String, DrawError> {
    match (picture, Plotted::of(picture)) {
        (Picture::Diagram(d), _) => Ok(diagram::svg(d)),
        (Picture::Grid(g), _) => Ok(grid::svg(g)),
        (Picture::Hexes(h), _) => Ok(hexes::svg(h)),
        (_, Some(chart)) => svg_string(&chart),
        (_, None) => Err(DrawError::from("a picture kind with no drawing".to_owned())),
    }
}

/// The scenario's own picture ([`intercept_core::ruleset::Rules::scenario_picture`]) as an SVG document, if its rule
/// set draws one: what a server sends for "a picture of the scenario".
pub fn scenario_svg(scenario: &Scenario) -> Option<String> {
    picture_svg(&scenario.rules.scenario_picture()?).ok()
}

/// One chart, drawable on any backend. Crate-visible so that a report page can embed any chart
/// ([`crate::report::Page::chart`]).
pub(crate) trait Chart {
    /// The chart's size in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws the chart on `root`, which has [`Chart::size`] and is already white.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>;
}

fn register_font() {
    REGISTER.call_once(|| {
        // The font is compiled in; failing to parse it is a build defect, not a user error.
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).unwrap_or_else(|_| panic!("embedded font"));
    });
}

/// Draws the chart's legend at `at`: the series' labels in a white box with a black border, as every chart
/// with a legend box shows it.
fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    at: SeriesLabelPosition,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart
        .configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font((FONT, 13))
        .draw()
}

/// The y range of a chart whose values run from `low` to `high`: padded by `share` of the span (at least
/// `least`) each way, and kept within 0..1 for a probability.
pub(crate) fn padded(low: f64, high: f64, share: f64, least: f64, probability: bool) -> (f64, f64) {
    let pad = ((high - low) * share).max(least);
    match probability {
        true => ((low - pad).max(0.0), (high + pad).min(1.0)),
        false => (low - pad, high + pad),
    }
}

/// Draws `chart` to `stem.png` and `stem.svg` in `dir`.
fn both(dir: &Path, stem: &str, chart: &impl Chart) -> Result<Vec<PathBuf>, ExportError> {
    let png = dir.join(format!("{stem}.png"));
    let svg = dir.join(format!("{stem}.svg"));
    write_file(&png, |p| render(p, BitMapBackend::new(p, chart.size()), chart))?;
    write_file(&svg, |p| render(p, SVGBackend::new(p, chart.size()), chart))?;
    Ok(vec![png, svg])
}

/// Draws `chart` as an SVG document in memory, for embedding inline in an HTML report. The same drawing as
/// the `.svg` file [`both`] writes, without reading that file back.
pub(crate) fn svg_string(chart: &impl Chart) -> Result<String, DrawError> {
    register_font();
    let mut svg = String::new();
    paint(SVGBackend::with_string(&mut svg, chart.size()), chart)?;
    Ok(svg)
}

fn render<DB: DrawingBackend>(path: &Path, backend: DB, chart: &impl Chart) -> Result<(), ExportError> {
    paint(backend, chart).map_err(|e| ExportError::Chart { path: path.to_owned(), message: e.0 })
}

/// Draws `chart` on a white page of `backend` and finishes it: what every chart and format goes through.
fn paint<DB: DrawingBackend>(backend: DB, chart: &impl Chart) -> Result<(), DrawError> {
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    chart.draw(&root).map_err(|e| e.to_string())?;
    root.present().map_err(|e| DrawError(e.to_string()))
}

/// The probability metrics as points with 95% Wilson intervals, and the exact value where known: at most
/// [`HEADLINE_ROWS`] of them, and how many there are in all.
pub(crate) struct Headline<'a> {
    rows: Vec<&'a MetricRow>,
    all: usize,
}

/// The most rows the headline chart draws. A scenario of a thousand units has thousands of probabilities;
/// drawn whole, their chart was a picture 200,000 pixels tall that took minutes and 600 MB to encode, and
/// no one reads it: the table and `summary.parquet` hold them all.
pub const HEADLINE_ROWS: usize = 60;

impl<'a> Headline<'a> {
    /// The headline chart of a run: every probability metric, or when there are too many, the rule set's
    /// headline metrics first and then the others in order, up to [`HEADLINE_ROWS`].
    pub(crate) fn new(summary: &'a Summary, headline: &[String]) -> Headline<'a> {
        let rows: Vec<&MetricRow> = summary.probabilities().collect();
        let all = rows.len();
        if all <= HEADLINE_ROWS {
            return Headline { rows, all };
        }
        let first = |r: &&MetricRow| headline.contains(&r.metric);
        let (top, rest): (Vec<&MetricRow>, Vec<&MetricRow>) = rows.into_iter().partition(first);
        Headline { rows: top.into_iter().chain(rest).take(HEADLINE_ROWS).collect(), all }
    }

    /// Whether any row was sampled: an exact solve alone has no estimate to draw.
    fn sampled(&self) -> bool {
        self.rows.iter().any(|r| r.trials > 0)
    }

    fn caption(&self) -> String {
        let caption = match self.sampled() {
            true => "Headline probabilities (95% Wilson intervals; red: exact)",
            false => "Headline probabilities, exactly (red)",
        };
        match self.rows.len() < self.all {
            true => format!("{caption}: {} of {}, all in summary.parquet", self.rows.len(), self.all),
            false => caption.to_owned(),
        }
    }
}

impl Chart for Headline<'_> {
    fn size(&self) -> (u32, u32) {
        (960, 120 + 34 * self.rows.len().max(1) as u32)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let rows = &self.rows;
        let n = rows.len().max(1) as f64;
        let label_width = rows.iter().map(|r| r.metric.len()).max().unwrap_or(10) as u32 * 8 + 20;
        let mut chart = ChartBuilder::on(root)
            .caption(self.caption(), (FONT, 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(label_width.min(520))
            .build_cartesian_2d(0f64..1f64, -0.5f64..n - 0.5)?;
        // Row i is drawn at y = n-1-i so the first metric is on top.
        let at = |i: usize| (rows.len() - 1 - i) as f64;
        let names: Vec<String> = rows.iter().map(|r| r.metric.clone()).collect();
        let label = |y: &f64| row_label(&names, *y);
        chart
            .configure_mesh()
            .y_labels(rows.len().max(1))
            .y_label_formatter(&label)
            .x_desc("probability")
            .label_style((FONT, 14))
            .disable_y_mesh()
            .draw()?;
        let bars = rows.iter().enumerate().filter(|(_, r)| r.trials > 0);
        chart.draw_series(
            bars.map(|(i, r)| ErrorBar::new_horizontal(at(i), r.ci_low, r.estimate, r.ci_high, ESTIMATE.filled(), 10)),
        )?;
        let exact = rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.exact.map(|x| Cross::new((x, at(i)), 6, EXACT.stroke_width(2))));
        chart.draw_series(exact)?;
        Ok(())
    }
}

/// The label of the row drawn at height `y`, where row `i` of `labels` is drawn at `labels.len() - 1 - i`
/// (the first on top); empty between rows.
fn row_label(labels: &[String], y: f64) -> String {
    let i = labels.len() as f64 - 1.0 - y.round();
    let on_row = (y - y.round()).abs() < 1e-6 && i >= 0.0;
    labels.get(i as usize).filter(|_| on_row).cloned().unwrap_or_default()
}
