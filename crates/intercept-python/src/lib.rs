//! The Python binding: `intercept_sim._native`, a thin layer over the library. It adds no rule and no
//! number of its own: a [`Scenario`] is the core's resolved scenario, and each answer is the same JSON
//! document the command line prints with `--json` (the Python package wraps them in result classes and
//! turns exact fractions into `fractions.Fraction`). Rust works with the GIL released; bad input is a
//! Python exception (`ConfigError` with `file`, `line` and `key`, or `ValueError`), never a panic.
//! [`command_line`] is the `intercept-sim` console script: the binary's own `main`.

mod arrow;

use std::path::{Path, PathBuf};

use intercept_sim::core::config::{self, ConfigError, Overrides, Scenario as Resolved, set};
use intercept_sim::core::games::shipped;
use intercept_sim::core::runner::{self, SampleOptions};
use intercept_sim::core::solve::{self, Target, Vary};
use intercept_sim::core::view::View;
use intercept_sim::output::export::{self, RunRecord};
use intercept_sim::output::folder::Folder;
use intercept_sim::output::outputs;
use intercept_sim::output::show;
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

create_exception!(
    _native,
    ConfigErrorBase,
    PyValueError,
    "A config that cannot be used: which file, line and key, and what is allowed."
);

/// A `ConfigError` carrying the file, line and key of `e` as attributes.
fn config_error(py: Python<'_>, e: &ConfigError) -> PyErr {
    let err = ConfigErrorBase::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("file", e.file.display().to_string());
    let _ = value.setattr("line", e.line);
    let _ = value.setattr("key", e.key.clone());
    let _ = value.setattr("reason", e.message.clone());
    err
}

/// A scenario, resolved: every default filled in, ready to solve or sample. Immutable: `set` gives a new one.
#[pyclass(frozen, module = "intercept_sim._native")]
struct Scenario {
    inner: Resolved,
}

#[pymethods]
impl Scenario {
    /// Reads and resolves the config at `path`.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Scenario> {
        let loaded = py.detach(|| config::load(&shipped(), &path, Overrides::default()));
        loaded.map(|inner| Scenario { inner }).map_err(|e| config_error(py, &e))
    }

    /// Resolves a config given as TOML text; `name` stands for its file in messages.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<text>"))]
    fn from_toml(py: Python<'_>, text: &str, name: &str) -> PyResult<Scenario> {
        let file = Path::new(name).to_owned();
        let resolved = py.detach(|| config::from_str(&shipped(), text, &file, Overrides::default()));
        resolved.map(|inner| Scenario { inner }).map_err(|e| config_error(py, &e))
    }

    /// The scenario with `key` set to `value` (written as a `--set` would be), resolved again.
    fn set(&self, py: Python<'_>, key: &str, value: &str) -> PyResult<Scenario> {
        let setting = set::Setting { key: key.to_owned(), value: value.to_owned() };
        let applied = py.detach(|| set::apply(&self.inner, std::slice::from_ref(&setting)));
        applied.map(|inner| Scenario { inner }).map_err(|e| config_error(py, &e))
    }

    /// The run's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.run.name.clone()
    }

    /// The config file (or the name given to `from_toml`).
    #[getter]
    fn file(&self) -> String {
        self.inner.file.display().to_string()
    }

    /// The resolved config as TOML, every default filled in.
    fn to_toml(&self) -> PyResult<String> {
        toml::to_string_pretty(&self.inner.config).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// `exact --json`: the exact value of every metric, as a JSON document.
    fn exact_json(&self, py: Python<'_>) -> PyResult<String> {
        let solved = py.detach(|| runner::solve(&self.inner));
        let solved = solved.map_err(|e| PyRuntimeError::new_err(format!("{}: {e}", self.inner.file.display())))?;
        Ok(show::ExactView { scenario: &self.inner, solved: &solved }.json().to_string())
    }

    /// A Monte Carlo run on `trials` trials from `seed` (the config's when `None`) on `threads` threads (every
    /// core when `None`; the numbers do not depend on it). Nothing is written until `Run.write`.
    #[pyo3(signature = (trials = None, seed = None, threads = None))]
    fn run(&self, py: Python<'_>, trials: Option<u64>, seed: Option<u64>, threads: Option<usize>) -> PyResult<Run> {
        let scenario = self.with_run(py, trials, seed)?;
        let options = SampleOptions { threads, ..SampleOptions::default() };
        let record = py.detach(|| runner::pool(threads).install(|| runner::sample(&scenario, &options, &|_| {})));
        Ok(Run { record })
    }

    /// `solve --json`: which values of the `vary` keys (one or two) give the metric `target` asks for.
    #[pyo3(signature = (target, vary, digits = 6))]
    fn solve_json(&self, py: Python<'_>, target: &str, vary: Vec<String>, digits: usize) -> PyResult<String> {
        let target: Target = target.parse().map_err(|e: solve::BadSolve| PyValueError::new_err(e.0))?;
        let vary: Vec<Vary> = vary
            .iter()
            .map(|v| v.parse())
            .collect::<Result<_, solve::BadSolve>>()
            .map_err(|e| PyValueError::new_err(e.0))?;
        let answer = py.detach(|| solve::solve(&self.inner, &target, &vary, digits));
        answer.map(|a| a.json().to_string()).map_err(|e| PyValueError::new_err(e.0))
    }

    fn __repr__(&self) -> String {
        format!("Scenario({:?} from {:?})", self.inner.run.name, self.inner.file.display().to_string())
    }
}

impl Scenario {
    /// The scenario with its trials and seed replaced where given, checked as `--trials` and `--seed` are.
    fn with_run(&self, py: Python<'_>, trials: Option<u64>, seed: Option<u64>) -> PyResult<Resolved> {
        let mut settings = Vec::new();
        if let Some(trials) = trials {
            settings.push(set::Setting { key: "run.trials".into(), value: trials.to_string() });
        }
        if let Some(seed) = seed {
            settings.push(set::Setting { key: "run.seed".into(), value: seed.to_string() });
        }
        if settings.is_empty() {
            return Ok(self.inner.clone());
        }
        set::apply(&self.inner, &settings).map_err(|e| config_error(py, &e))
    }
}

/// A finished run: its summary as the command line's `run --json` document, its tables as Arrow streams,
/// and its folder written on request.
#[pyclass(frozen, module = "intercept_sim._native")]
struct Run {
    record: RunRecord,
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

    /// `summary.parquet`'s table as an Arrow C stream.
    fn summary_stream<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let frame = export::summary_frame(&self.record.summary).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        arrow::stream_capsule(py, frame)
    }

    /// `distributions.parquet`'s table as an Arrow C stream.
    fn distributions_stream<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let frame =
            export::distributions_frame(&self.record.summary).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        arrow::stream_capsule(py, frame)
    }

    /// Writes the run folder `run --out FOLDER` writes (Parquet, charts, report, manifest) into `folder`,
    /// which is put in place only once every file is written; returns the files written.
    fn write(&self, py: Python<'_>, folder: PathBuf) -> PyResult<Vec<String>> {
        let failed = |e: &dyn std::fmt::Display| PyOSError::new_err(format!("{}: {e}", folder.display()));
        let written = py.detach(|| -> PyResult<Vec<PathBuf>> {
            let open = Folder::open(&folder).map_err(|e| failed(&e))?;
            outputs::export(&self.record, open.staging()).map_err(|e| failed(&e))?;
            open.commit().map_err(|e| failed(&e))
        })?;
        Ok(written.iter().map(|p| p.display().to_string()).collect())
    }
}

/// The names of the rule sets, as a config's top table names them.
#[pyfunction]
fn rule_sets() -> Vec<String> {
    shipped().tables().into_iter().map(str::to_owned).collect()
}

/// Runs the `intercept-sim` command line with `argv` (the program's name first); returns its exit status.
#[pyfunction]
fn command_line(py: Python<'_>, argv: Vec<String>) -> u8 {
    py.detach(|| intercept_sim::app::run_command_line(argv.into_iter().map(Into::into)))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Scenario>()?;
    m.add_class::<Run>()?;
    m.add_function(wrap_pyfunction!(rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(command_line, m)?)?;
    m.add("ConfigError", m.py().get_type::<ConfigErrorBase>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
