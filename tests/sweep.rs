//! `sweep` end to end: a grid over a rule value, common seeds, `sweep.parquet`, and bad `--set` values.

use std::fs::File;
use std::path::Path;

use assert_cmd::Command;
use polars::prelude::*;

const CHAIN: &str = "configs/naval/three-level-chain.toml";

fn sim() -> Command {
    Command::cargo_bin("intercept-sim").expect("binary built")
}

fn column_f64(df: &DataFrame, name: &str) -> Vec<Option<f64>> {
    let ca = df.column(name).unwrap().f64().unwrap();
    (0..ca.len()).map(|i| ca.get(i)).collect()
}

fn strings(df: &DataFrame, name: &str) -> Vec<String> {
    let ca = df.column(name).unwrap().str().unwrap();
    (0..ca.len()).map(|i| ca.get(i).expect("no nulls").to_owned()).collect()
}

/// Slow ships cost dice (N-5.5): the fewer they cost, the likelier the slow group reaches and the convoy is
/// intercepted. The exact values must rise, and so must the estimates, which share their random numbers.
#[test]
fn slow_ships_sweep_is_monotone() {
    let dir = tempfile::tempdir().unwrap();
    sim()
        .args(["sweep", CHAIN, "--set", "naval.rules.slow_ships=-2,-1,0", "--trials", "200000", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let df = ParquetReader::new(File::open(dir.path().join("sweep.parquet")).unwrap()).finish().unwrap();
    for ext in ["png", "svg"] {
        assert!(dir.path().join(format!("sweep-mission.intercepted.{ext}")).exists(), "a chart per metric");
    }
    assert!(dir.path().join("report.html").exists(), "the sweep's page");
    let (keys, metrics) = (strings(&df, "naval.rules.slow_ships"), strings(&df, "metric"));
    let (estimates, exact) = (column_f64(&df, "estimate"), column_f64(&df, "exact"));
    for metric in ["mission.intercepted", "group.messina.reached"] {
        let rows: Vec<usize> = (0..df.height()).filter(|&i| metrics[i] == metric).collect();
        assert_eq!(rows.iter().map(|&i| keys[i].as_str()).collect::<Vec<_>>(), ["-2", "-1", "0"]);
        for pair in rows.windows(2) {
            assert!(exact[pair[0]].unwrap() < exact[pair[1]].unwrap(), "{metric} exact");
            assert!(estimates[pair[0]].unwrap() < estimates[pair[1]].unwrap(), "{metric} estimate");
        }
    }
}

#[test]
fn bad_settings_exit_2_with_one_line_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (set, words) in [
        ("naval.rules.slow_shipz=-1", "has no key or name 'slow_shipz'"),
        ("naval.rules.slow_ships=abc", "is not a whole number"),
        ("naval.rules.slow_ships=", "at least one value"),
        ("naval.rules.slow_ships", "has no '='"),
        ("naval.group.nobody.distance=3", "has no key or name 'nobody'"),
        ("naval.group.taranto.distance=-4", "out of range"),
        ("naval.combat.p_end_after_round=1.5", "naval.combat.p_end_after_round"),
    ] {
        let assert = sim().args(["sweep", CHAIN, "--set", set, "--out"]).arg(&out).assert().code(2);
        let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(err.contains(words), "{set}: {err}");
        assert!(err.starts_with("error: "), "{set}: {err}");
        assert!(!Path::new(&out).exists(), "{set}: nothing written");
    }
}
