//! The answers a [`crate::scenario::Scenario`] gives that carry more than a document: a run, a sweep, a
//! sensitivity run, a solve and a `where`. Each gives its `--json` document, its table as an Arrow C stream (the frame
//! its Parquet file is written from, built once and handed out without a copy), its report as a notebook
//! fragment (`_repr_html_`), and writes the command line's folder on request.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use intercept_sim::core::config::Scenario as Resolved;
use intercept_sim::core::decide::Decided;
use intercept_sim::core::exact::ExactTally;
use intercept_sim::core::sensitivity::{Scope, Sensitivity as Ranked};
use intercept_sim::core::solve::Answer;
use intercept_sim::core::summary::Summary;
use intercept_sim::core::view::View;
use intercept_sim::output::export::{self, ExportError, RunRecord};
use intercept_sim::output::folder::Folder;
use intercept_sim::output::outputs;
use intercept_sim::output::report::{self, SensitivityReport, SolveReport, SweepReport};
use intercept_sim::output::show;
use intercept_sim::output::study::{self, Swept};
use polars::prelude::{DataFrame, PolarsResult};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use crate::arrow;

/// A result table: built once from its record, then shared by every stream handed out, so a consumer's
/// buffers are the frame's own (what `buffer_addresses` shows).
#[derive(Default)]
struct Frame(OnceLock<DataFrame>);

impl Frame {
    fn get(&self, build: impl FnOnce() -> PolarsResult<DataFrame>) -> PyResult<&DataFrame> {
        if let Some(frame) = self.0.get() {
            return Ok(frame);
        }
        let mut frame = build().map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        frame.rechunk_mut();
        Ok(self.0.get_or_init(|| frame))
    }
}

/// Writes a result's folder as the command line does: into a staging folder put in place once every file
/// is written; returns the files written.
fn write_folder(
    py: Python<'_>,
    folder: &Path,
    write: impl FnOnce(&Path) -> Result<Vec<PathBuf>, ExportError> + Send,
) -> PyResult<Vec<String>> {
    let failed = |e: &dyn std::fmt::Display| PyOSError::new_err(format!("{}: {e}", folder.display()));
    let written = py.detach(|| -> PyResult<Vec<PathBuf>> {
        let open = Folder::open(folder).map_err(|e| failed(&e))?;
        write(open.staging()).map_err(|e| failed(&e))?;
        open.commit().map_err(|e| failed(&e))
    })?;
    Ok(written.iter().map(|p| p.display().to_string()).collect())
}

fn html(page: Result<report::Page, ExportError>) -> PyResult<String> {
    page.map(|p| p.fragment()).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The scenario solved exactly: `exact --json`, its tables (the exact columns of a run's `summary` and
/// `distributions`), and a page with the answer, every metric and the headline chart.
#[pyclass(frozen, module = "intercept_sim._native")]
pub struct Exact {
    scenario: Resolved,
    solved: ExactTally,
    summary: Summary,
    tables: [Frame; 2],
}

impl Exact {
    pub fn new(scenario: Resolved, solved: ExactTally) -> Exact {
        let summary = Summary::exact_only(scenario.rules.metrics(), &solved);
        Exact { scenario, solved, summary, tables: Default::default() }
    }

    fn table(&self, name: &str) -> PyResult<&DataFrame> {
        let summary = &self.summary;
        match name {
            "summary" => self.tables[0].get(|| export::exact_summary_frame(summary)),
            "distributions" => self.tables[1].get(|| export::exact_distributions_frame(summary)),
            _ => Err(PyValueError::new_err(format!("table {name:?}: allowed: summary, distributions"))),
        }
    }
}

#[pymethods]
impl Exact {
    /// `exact --json`.
    fn json(&self) -> String {
        show::ExactView { scenario: &self.scenario, solved: &self.solved }.json().to_string()
    }

    /// The exact columns of `summary.parquet` (`"summary"`) or of `distributions.parquet` as an Arrow C stream.
    fn stream<'py>(&self, py: Python<'py>, table: &str) -> PyResult<Bound<'py, PyCapsule>> {
        arrow::stream_capsule(py, self.table(table)?.clone())
    }

    /// The page as a notebook shows it: the answer, every metric exactly, the headline chart.
    fn html(&self) -> PyResult<String> {
        html(report::exact_page(&self.scenario, &self.solved))
    }
}

/// A finished run.
#[pyclass(frozen, module = "intercept_sim._native")]
pub struct Run {
    record: RunRecord,
    summary: Frame,
    distributions: Frame,
}

impl Run {
    pub fn new(record: RunRecord) -> Run {
        Run { record, summary: Frame::default(), distributions: Frame::default() }
    }

    fn table(&self, name: &str) -> PyResult<&DataFrame> {
        let summary = &self.record.summary;
        match name {
            "summary" => self.summary.get(|| export::summary_frame(summary)),
            "distributions" => self.distributions.get(|| export::distributions_frame(summary)),
            _ => Err(PyValueError::new_err(format!("table {name:?}: allowed: summary, distributions"))),
        }
    }
}

#[pymethods]
impl Run {
    /// `run --json`: the summary document.
    fn json(&self) -> String {
        show::summary_value(&self.record).to_string()
    }

    /// The answer sentence the report leads with, when the rule set gives one.
    #[getter]
    fn answer(&self) -> Option<String> {
        self.record.presentation.answer.clone()
    }

    /// `summary.parquet`'s table (`"summary"`) or `distributions.parquet`'s as an Arrow C stream.
    fn stream<'py>(&self, py: Python<'py>, table: &str) -> PyResult<Bound<'py, PyCapsule>> {
        arrow::stream_capsule(py, self.table(table)?.clone())
    }

    /// Where each fixed-width column of the table keeps its values: what shows a consumer read them in place.
    fn buffer_addresses(&self, table: &str) -> PyResult<Vec<(String, usize)>> {
        Ok(arrow::addresses(self.table(table)?))
    }

    /// The report as a notebook shows it: the answer, the headline table folded, the headline chart.
    fn html(&self) -> PyResult<String> {
        html(report::run_page(&self.record))
    }

    /// Writes the run folder `run --out FOLDER` writes (Parquet, charts, report, manifest) into `folder`.
    fn write(&self, py: Python<'_>, folder: PathBuf) -> PyResult<Vec<String>> {
        write_folder(py, &folder, |dir| outputs::export(&self.record, dir))
    }
}

/// A finished sweep.
#[pyclass(frozen, module = "intercept_sim._native")]
pub struct Sweep {
    swept: Swept,
    table: Frame,
}

impl Sweep {
    pub fn new(swept: Swept) -> Sweep {
        Sweep { swept, table: Frame::default() }
    }

    fn report(&self) -> SweepReport<'_> {
        let s = &self.swept;
        SweepReport { scenario: &s.base, axes: &s.axes, points: &s.points, named: &s.named }
    }
}

#[pymethods]
impl Sweep {
    /// `sweep --json` (without the folder it was written to).
    fn json(&self) -> String {
        self.swept.value().to_string()
    }

    /// The report's answer: the rule set's sentence at the base point, and how far its headline moves.
    #[getter]
    fn answer(&self) -> Option<String> {
        self.report().answer()
    }

    /// `sweep.parquet`'s table as an Arrow C stream.
    fn stream<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let s = &self.swept;
        arrow::stream_capsule(py, self.table.get(|| export::sweep_frame(&s.axes, &s.points))?.clone())
    }

    /// The report as a notebook shows it: the answer, the first metric's curve and table.
    fn html(&self) -> PyResult<String> {
        html(self.report().page())
    }

    /// Writes the folder `sweep --out FOLDER` writes.
    fn write(&self, py: Python<'_>, folder: PathBuf) -> PyResult<Vec<String>> {
        write_folder(py, &folder, |dir| self.swept.write(dir))
    }
}

/// A finished sensitivity run.
#[pyclass(frozen, module = "intercept_sim._native")]
pub struct Sensitivity {
    scenario: Resolved,
    scope: Scope,
    ranked: Ranked,
    shown: Vec<usize>,
    table: Frame,
}

impl Sensitivity {
    pub fn new(scenario: Resolved, scope: Scope, ranked: Ranked, shown: Vec<String>) -> Sensitivity {
        let shown = shown.iter().filter_map(|m| ranked.metric(m)).collect();
        Sensitivity { scenario, scope, ranked, shown, table: Frame::default() }
    }

    fn report(&self) -> SensitivityReport<'_> {
        let (scenario, scope, sensitivity) = (&self.scenario, &self.scope, &self.ranked);
        SensitivityReport { scenario, scope, sensitivity }
    }
}

#[pymethods]
impl Sensitivity {
    /// `sensitivity --json` (without the folder it was written to).
    fn json(&self) -> String {
        let (name, sensitivity, shown) = (&self.scenario.run.name, &self.ranked, &self.shown);
        show::sensitivity::SensitivityView { name, sensitivity, shown, dir: Path::new(""), files: 0 }.json().to_string()
    }

    /// `sensitivity.parquet`'s table as an Arrow C stream.
    fn stream<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        arrow::stream_capsule(py, self.table.get(|| export::sensitivity_frame(&self.ranked))?.clone())
    }

    /// The report's answer: which value moves the headline metric most, and by how much each way.
    #[getter]
    fn answer(&self) -> Option<String> {
        self.report().answer()
    }

    /// The report as a notebook shows it: the answer, the headline metric's tornado and ranking.
    fn html(&self) -> PyResult<String> {
        html(self.report().page())
    }

    /// Writes the folder `sensitivity --out FOLDER` writes.
    fn write(&self, py: Python<'_>, folder: PathBuf) -> PyResult<Vec<String>> {
        write_folder(py, &folder, |dir| study::write_sensitivity(&self.scenario, &self.scope, &self.ranked, dir))
    }
}

/// A finished solve.
#[pyclass(frozen, module = "intercept_sim._native")]
pub struct Solve {
    scenario: Resolved,
    answer: Answer,
    table: Frame,
}

impl Solve {
    pub fn new(scenario: Resolved, answer: Answer) -> Solve {
        Solve { scenario, answer, table: Frame::default() }
    }
}

#[pymethods]
impl Solve {
    /// `solve --json`.
    fn json(&self) -> String {
        self.answer.json().to_string()
    }

    /// `solve.parquet`'s table as an Arrow C stream.
    fn stream<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        arrow::stream_capsule(py, self.table.get(|| export::solve_frame(&self.answer))?.clone())
    }

    /// The report as a notebook shows it: the answer, the chart across the key's range, the table.
    fn html(&self) -> PyResult<String> {
        html(SolveReport { scenario: &self.scenario, answer: &self.answer }.page())
    }

    /// Writes the folder `solve --out FOLDER` writes.
    fn write(&self, py: Python<'_>, folder: PathBuf) -> PyResult<Vec<String>> {
        write_folder(py, &folder, |dir| study::write_solve(&self.scenario, &self.answer, dir))
    }
}

/// A decision study's answer (`where`): every option of the first decision, exact, the best line below it.
#[pyclass(frozen, module = "intercept_sim._native")]
pub struct Where {
    scenario: Resolved,
    decided: Decided,
    metric: Option<String>,
}

impl Where {
    pub fn new(scenario: Resolved, decided: Decided, metric: Option<String>) -> Where {
        Where { scenario, decided, metric }
    }

    fn view(&self) -> show::decided::DecidedView<'_> {
        show::decided::DecidedView { name: &self.scenario.run.name, decided: &self.decided, wrote: None }
    }
}

#[pymethods]
impl Where {
    /// `where --json`.
    fn json(&self) -> String {
        self.view().json().to_string()
    }

    /// The answer on the rule set's picture (a map: every option by its value, the best line drawn), as
    /// SVG, if the rule set draws one.
    fn svg(&self) -> PyResult<Option<String>> {
        let Some(picture) = report::decided_picture(&self.scenario, &self.decided) else { return Ok(None) };
        intercept_sim::output::plot::picture_svg(&picture).map(Some).map_err(|e| PyRuntimeError::new_err(e.0))
    }

    /// The report as a notebook shows it: the answer, the map, the table of options.
    fn html(&self) -> PyResult<String> {
        let picture = report::decided_picture(&self.scenario, &self.decided);
        let page = report::DecidedReport {
            scenario: &self.scenario,
            decided: &self.decided,
            picture: picture.as_ref(),
            metric_asked: self.metric.as_deref(),
        }
        .page();
        html(page)
    }

    /// Writes the folder `where --out FOLDER` writes.
    fn write(&self, py: Python<'_>, folder: PathBuf) -> PyResult<Vec<String>> {
        write_folder(py, &folder, |dir| {
            report::write_decided(&self.scenario, &self.decided, self.metric.as_deref(), dir)
        })
    }
}
