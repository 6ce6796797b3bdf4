//! What several command-line tests share: a run into a temporary folder, and a column of a Parquet file.

use std::path::Path;

use assert_cmd::Command;
use polars::prelude::{DataType, ParquetReader, SerReader};

/// `intercept-sim run CONFIG --trials N` into a new temporary folder, which must succeed.
pub fn run_into_temp(config: &str, trials: u64) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("intercept-sim")
        .unwrap()
        .args(["run", config, "--trials", &trials.to_string(), "--out"])
        .arg(dir.path())
        .assert()
        .success();
    dir
}

/// A column of a Parquet file as floats; the column must hold no nulls.
pub fn f64_column(file: &Path, name: &str) -> Vec<f64> {
    let df = ParquetReader::new(std::fs::File::open(file).unwrap()).finish().unwrap();
    let column = df.column(name).unwrap().cast(&DataType::Float64).unwrap();
    column.f64().unwrap().into_no_null_iter().collect()
}

/// `run` on a copy of the shipped `config` with `from` replaced by `to`: it must exit 2 and write nothing.
/// Returns what it printed on stderr, which names the file and the line.
pub fn refused_variant(config: &str, from: &str, to: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(config).unwrap();
    assert!(src.contains(from), "{config} holds {from}");
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, src.replacen(from, to, 1)).unwrap();
    let out = dir.path().join("out");
    let assert = Command::cargo_bin("intercept-sim").unwrap().arg("run").arg(&path).arg("--out").arg(&out).assert();
    let stderr = String::from_utf8_lossy(&assert.code(2).get_output().stderr).into_owned();
    assert!(!out.exists(), "{to}: nothing written");
    let line = stderr.split("bad.toml:").nth(1).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    assert!(line, "{to}: the message names the file and the line: {stderr}");
    stderr
}
