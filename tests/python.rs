//! The Python package, tested as a user gets it (issue 40): its wheel built by maturin, installed into a
//! fresh virtual environment, and `python/tests` run there by pytest. The pytest suite compares every
//! Python result with this build's command line (`--json`, same config and seed), checks errors, and runs
//! the `intercept-sim` console script the wheel puts on PATH.
//!
//! Set-up it does itself, outside the clone: maturin and pytest from PyPI into
//! `~/.cache/intercept-sim/python-tools` (once), and the wheel built with its own cargo target folder
//! (`~/.cache/intercept-sim/target-python`), since this test runs while cargo holds the test build's.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn cache() -> PathBuf {
    let home = std::env::var_os("HOME").expect("HOME is set");
    PathBuf::from(home).join(".cache/intercept-sim")
}

/// Runs `command`, failing the test with its output if it fails.
fn ok(command: &mut Command, what: &str) {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: could not start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A virtual environment at `dir` with `packages` installed.
fn venv(dir: &Path, packages: &[&str]) -> PathBuf {
    let python = dir.join("bin/python");
    if !python.exists() {
        ok(Command::new("python3").args(["-m", "venv"]).arg(dir), "python3 -m venv");
    }
    if !packages.is_empty() {
        ok(Command::new(&python).args(["-m", "pip", "install", "-q"]).args(packages), "pip install");
    }
    python
}

#[test]
fn the_wheel_installs_and_its_pytest_suite_passes() {
    let tools = cache().join("python-tools");
    let tool_python = if tools.join("bin/maturin").exists() {
        tools.join("bin/python")
    } else {
        venv(&tools, &["maturin>=1.9.4,<2"])
    };
    let _ = tool_python;
    let wheels = tempfile::tempdir().unwrap();
    let mut build = Command::new(tools.join("bin/maturin"));
    build.args(["build", "--quiet", "--out"]).arg(wheels.path()).current_dir(root());
    build.env("CARGO_TARGET_DIR", cache().join("target-python"));
    ok(&mut build, "maturin build");
    let wheel = std::fs::read_dir(wheels.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .expect("maturin wrote a wheel");
    let fresh = tempfile::tempdir().unwrap();
    let env = fresh.path().join("venv");
    // The Arrow consumers the tables are checked against, as a user of the wheel would have them; Jupyter's
    // notebook runner for the example notebook; mypy for `--strict` and stubtest; tqdm for progress bars.
    let tools = ["pytest", "pyarrow", "polars", "pandas", "nbclient", "nbformat", "ipykernel", "mypy", "tqdm"];
    let python = venv(&env, &[&[wheel.to_str().unwrap()], &tools[..]].concat());
    let mut pytest = Command::new(&python);
    pytest.args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "python/tests"]).current_dir(root());
    // Nothing written in the clone: no bytecode, and mypy's cache in a temporary folder.
    let mypy_cache = tempfile::tempdir().unwrap();
    pytest.env("PYTHONDONTWRITEBYTECODE", "1").env("MYPY_CACHE_DIR", mypy_cache.path());
    // The console script first on PATH; this build's binary for the command line the results are compared with.
    let path = format!("{}:{}", env.join("bin").display(), std::env::var("PATH").unwrap_or_default());
    pytest.env("PATH", path).env("INTERCEPT_SIM_BIN", env!("CARGO_BIN_EXE_intercept-sim"));
    ok(&mut pytest, "pytest python/tests");
}
