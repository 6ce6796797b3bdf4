//! [`Scenario`]: a config resolved by the core, and every question the command line asks of one (`exact`,
//! `run`, `sweep`, `sensitivity`, `solve`, `where`), each answered through the same library calls as the command
//! line, so the documents are the same for the same config and seed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use intercept_sim::core::config::{self, Overrides, Scenario as Resolved, set};
use intercept_sim::core::decide;
use intercept_sim::core::games::shipped;
use intercept_sim::core::runner::{self, SampleOptions};
use intercept_sim::core::sensitivity;
use intercept_sim::core::solve::{self, Target, Vary};
use intercept_sim::core::sweep::Axis;
use intercept_sim::output::study::{self, SweepStart};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::config_error;
use crate::results::{Exact, Run, Sensitivity, Solve, Sweep, Where};
use crate::supervise::supervised;

/// A scenario, resolved: every default filled in, ready to solve or sample. Immutable: `set` gives a new one.
#[pyclass(frozen, module = "intercept_sim._native")]
pub struct Scenario {
    pub(crate) inner: Resolved,
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

    /// Resolves a config given as JSON text (a Python dict, as `json.dumps` writes it): the same tables and
    /// keys as the TOML. Errors name the key; they have no line, since the dict has none.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<dict>"))]
    fn from_json(py: Python<'_>, text: &str, name: &str) -> PyResult<Scenario> {
        let file = Path::new(name).to_owned();
        let bad = |reason: String| {
            let e = config::ConfigError { file: file.clone(), line: None, key: None, message: reason };
            config_error(py, &e)
        };
        let table: toml::Table =
            serde_json::from_str(text).map_err(|e| bad(format!("not a table of config keys: {e}")))?;
        let toml = toml::to_string(&table).map_err(|e| bad(format!("not a config: {e}")))?;
        let resolved = py.detach(|| config::from_str(&shipped(), &toml, &file, Overrides::default()));
        resolved.map(|inner| Scenario { inner }).map_err(|mut e| {
            // The line is one of the TOML written from the dict, which the user never saw.
            e.line = None;
            config_error(py, &e)
        })
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

    /// The rule set: the config's top table.
    #[getter]
    fn rule_set(&self) -> &'static str {
        self.inner.rules.entry().table()
    }

    /// The resolved config as TOML, every default filled in.
    fn to_toml(&self) -> PyResult<String> {
        toml::to_string_pretty(&self.inner.config).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// `exact --json`: the exact value of every metric, as a JSON document. Ctrl-C stops the walk.
    fn exact(&self, py: Python<'_>) -> PyResult<Exact> {
        let solved = supervised(py, 0, None, |_| runner::solve(&self.inner))?;
        let solved = solved.map_err(|e| PyRuntimeError::new_err(format!("{}: {e}", self.inner.file.display())))?;
        Ok(Exact::new(self.inner.clone(), solved))
    }

    /// A Monte Carlo run on `trials` trials from `seed` (the config's when `None`) on `threads` threads (every
    /// core when `None`; the numbers do not depend on it). Nothing is written until `Run.write`.
    #[pyo3(signature = (trials = None, seed = None, threads = None, progress = None))]
    fn run(
        &self,
        py: Python<'_>,
        trials: Option<u64>,
        seed: Option<u64>,
        threads: Option<usize>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Run> {
        let scenario = self.with_run(py, trials, seed)?;
        let total = runner::plan(&scenario).trials;
        let record = supervised(py, total, progress.as_ref(), |watch| {
            let options =
                SampleOptions { threads, interrupt: Some(Arc::clone(watch.stop)), ..SampleOptions::default() };
            runner::pool(threads).install(|| runner::sample(&scenario, &options, watch.advance))
        })?;
        Ok(Run::new(record))
    }

    /// A sweep over `axes` (each a key and its values, written as `--set KEY=V1,V2` writes them), every point
    /// on the same seed; `metrics` are those its document shows (the headline ones when empty).
    #[pyo3(signature = (axes, metrics, trials = None, seed = None, threads = None, allow_large = false, progress = None))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments, each optional.
    fn sweep(
        &self,
        py: Python<'_>,
        axes: Vec<(String, Vec<String>)>,
        metrics: Vec<String>,
        trials: Option<u64>,
        seed: Option<u64>,
        threads: Option<usize>,
        allow_large: bool,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Sweep> {
        let base = self.with_run(py, trials, seed)?;
        let axes = axes.into_iter().map(|(key, values)| Axis { key, values }).collect();
        let start = py.detach(|| SweepStart::new(base, axes, metrics, allow_large));
        let start = start.map_err(|e| PyValueError::new_err(e.0))?;
        let swept = supervised(py, start.trials_left(), progress.as_ref(), |watch| {
            runner::pool(threads).install(|| start.play(Some(watch.stop), watch.advance))
        })?;
        Ok(Sweep::new(swept))
    }

    /// Every number of the rules under the `only` prefixes (all when empty) moved one step down and up (a
    /// decimal by `float_step`, the command line's default when `None`), ranked by how far each moves the
    /// odds; `metrics` are those its document shows.
    #[pyo3(signature = (only, metrics, float_step = None, trials = None, seed = None, threads = None, allow_large = false, progress = None))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments, each optional.
    fn sensitivity(
        &self,
        py: Python<'_>,
        only: Vec<String>,
        metrics: Vec<String>,
        float_step: Option<f64>,
        trials: Option<u64>,
        seed: Option<u64>,
        threads: Option<usize>,
        allow_large: bool,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Sensitivity> {
        let scenario = &self.with_run(py, trials, seed)?;
        let refused = |e: String| PyValueError::new_err(e);
        let float_step = float_step.unwrap_or(sensitivity::DEFAULT_FLOAT_STEP);
        set::check_float_step(float_step).map_err(|e| refused(format!("float_step: {}", e.0)))?;
        let shown = study::shown_metrics(scenario, &metrics).map_err(|e| refused(e.0))?;
        let steps = py.detach(|| study::sensitivity_steps(scenario, &only, float_step, allow_large));
        let (scope, steps) = steps.map_err(|e| refused(e.0))?;
        let solved = supervised(py, 0, None, |_| sensitivity::solve(scenario, steps))?;
        let total = solved.trials_to_sample();
        let sampled = supervised(py, total, progress.as_ref(), |watch| {
            runner::pool(threads).install(|| solved.sample_until(Some(watch.stop), watch.advance))
        })?;
        // The run stops only when asked to, and then `supervised` has raised already.
        let s = sampled.ok_or_else(|| PyRuntimeError::new_err("the sensitivity run was stopped"))?;
        Ok(Sensitivity::new(scenario.clone(), scope, s, shown))
    }

    /// `solve`: which values of the `vary` keys (one or two) give the metric `target` asks for.
    #[pyo3(signature = (target, vary, digits = 6))]
    fn solve(&self, py: Python<'_>, target: &str, vary: Vec<String>, digits: usize) -> PyResult<Solve> {
        let target: Target = target.parse().map_err(|e: solve::BadSolve| PyValueError::new_err(e.0))?;
        let vary: Vec<Vary> = vary
            .iter()
            .map(|v| v.parse())
            .collect::<Result<_, solve::BadSolve>>()
            .map_err(|e| PyValueError::new_err(e.0))?;
        let answer = supervised(py, 0, None, |_| solve::solve(&self.inner, &target, &vary, digits))?;
        let answer = answer.map_err(|e| PyValueError::new_err(e.0))?;
        Ok(Solve::new(self.inner.clone(), answer))
    }

    /// `where`: every option of the scenario's first decision (on a map, the interception hex), exact, each
    /// side answering best below; judged by `metric` (the headline metric when `None`).
    #[pyo3(signature = (metric = None))]
    fn where_(&self, py: Python<'_>, metric: Option<String>) -> PyResult<Where> {
        let decided = supervised(py, 0, None, |_| decide::decide(&self.inner, metric.as_deref()))?;
        let decided = decided.map_err(|e| PyValueError::new_err(e.0))?;
        Ok(Where::new(self.inner.clone(), decided, metric))
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
