//! The Python binding: `intercept_sim._native`, a thin layer over the library. It adds no rule and no
//! number of its own: a [`scenario::Scenario`] is the core's resolved scenario, and each answer is the same
//! JSON document the command line prints with `--json` (the Python package wraps them in result classes
//! and turns exact fractions into `fractions.Fraction`). Results with tables ([`results`]) hand them out
//! as Arrow C streams ([`arrow`]) and their reports as notebook fragments; [`game::Game`] plays a rule
//! set's game. Rust works with the GIL released, long work stops on Ctrl-C ([`supervise`]); bad input is a
//! Python exception (`ConfigError` with `file`, `line` and `key`, or `ValueError`), never a panic.
//! [`command_line`] is the `intercept-sim` console script: the binary's own `main`.

mod arrow;
mod game;
mod results;
mod scenario;
mod supervise;

use intercept_sim::core::config::ConfigError as Invalid;
use intercept_sim::core::games::shipped;
use intercept_sim::core::ruleset::answer_query;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    intercept_sim,
    ConfigError,
    PyValueError,
    "A config that cannot be used: which file, line and key, and what is allowed."
);

/// A `ConfigError` carrying the file, line and key of `e` as attributes.
fn config_error(py: Python<'_>, e: &Invalid) -> PyErr {
    let err = ConfigError::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("file", e.file.display().to_string());
    let _ = value.setattr("line", e.line);
    let _ = value.setattr("key", e.key.clone());
    let _ = value.setattr("reason", e.message.clone());
    err
}

/// The names of the rule sets, as a config's top table names them.
#[pyfunction]
fn rule_sets() -> Vec<String> {
    shipped().tables().into_iter().map(str::to_owned).collect()
}

/// `odds NAME --json`: the exact odds of one question of rule set `name`'s quick calculator
/// ([`intercept_sim::core::ruleset::Entry::calculator`], as the workbench's `/api/odds` asks it), its
/// parameters given as `(name, value)` pairs written as a page's form writes them.
#[pyfunction]
fn odds_json(py: Python<'_>, name: &str, params: Vec<(String, String)>) -> PyResult<String> {
    let registry = shipped();
    let Some(calculator) = registry.find(name).and_then(|s| s.calculator()) else {
        let names: Vec<&str> = registry.sets().iter().filter(|s| s.calculator().is_some()).map(|s| s.table()).collect();
        return Err(PyValueError::new_err(format!("no odds of {name:?}; allowed: {}", names.join(", "))));
    };
    let answer = py.detach(|| answer_query(calculator, &params));
    answer.map(|a| a.to_string()).map_err(|e| PyValueError::new_err(format!("odds {name}: {e}")))
}

/// Runs the `intercept-sim` command line with `argv` (the program's name first); returns its exit status.
#[pyfunction]
fn command_line(py: Python<'_>, argv: Vec<String>) -> u8 {
    py.detach(|| intercept_sim::app::run_command_line(argv.into_iter().map(Into::into)))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<scenario::Scenario>()?;
    m.add_class::<results::Exact>()?;
    m.add_class::<results::Run>()?;
    m.add_class::<results::Sweep>()?;
    m.add_class::<results::Sensitivity>()?;
    m.add_class::<results::Solve>()?;
    m.add_class::<results::Where>()?;
    m.add_class::<game::Game>()?;
    m.add_function(wrap_pyfunction!(rule_sets, m)?)?;
    m.add_function(wrap_pyfunction!(odds_json, m)?)?;
    m.add_function(wrap_pyfunction!(command_line, m)?)?;
    m.add("ConfigError", m.py().get_type::<ConfigError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
