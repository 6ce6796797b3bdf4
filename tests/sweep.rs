//! `sweep` end to end: a grid over a rule value, common seeds, `sweep.parquet` with each point's paired
//! difference from the base point, what it prints (`--metric`, `--json`, `--csv`), an interrupted sweep
//! resumed into the bytes of one made in one go, and bad `--set` values.

mod stopped;

use std::ffi::OsStr;
use std::fs::File;
use std::path::Path;
use std::time::Duration;

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
    let keys: Vec<i64> = df.column("naval.rules.slow_ships").unwrap().i64().unwrap().into_no_null_iter().collect();
    let metrics = strings(&df, "metric");
    let (estimates, exact) = (column_f64(&df, "estimate"), column_f64(&df, "exact"));
    for metric in ["mission.intercepted", "group.messina.reached"] {
        let rows: Vec<usize> = (0..df.height()).filter(|&i| metrics[i] == metric).collect();
        assert_eq!(rows.iter().map(|&i| keys[i]).collect::<Vec<_>>(), [-2, -1, 0]);
        for pair in rows.windows(2) {
            assert!(exact[pair[0]].unwrap() < exact[pair[1]].unwrap(), "{metric} exact");
            assert!(estimates[pair[0]].unwrap() < estimates[pair[1]].unwrap(), "{metric} estimate");
        }
        // The paired difference from the base point (-2): none on the base's row, and at the others an
        // interval that holds the difference of the exact values.
        let (diff, low, high) =
            (column_f64(&df, "difference"), column_f64(&df, "difference_low"), column_f64(&df, "difference_high"));
        assert_eq!(diff[rows[0]], None, "the base point has no difference");
        for &i in &rows[1..] {
            let truth = exact[i].unwrap() - exact[rows[0]].unwrap();
            let (d, l, h) = (diff[i].unwrap(), low[i].unwrap(), high[i].unwrap());
            assert!((d - (estimates[i].unwrap() - estimates[rows[0]].unwrap())).abs() < 1e-12, "{metric}: paired");
            assert!(l <= truth && truth <= h, "{metric}: {truth} in [{l}, {h}]");
            assert!(h - l < 0.01, "{metric}: common random numbers make it narrow: [{l}, {h}]");
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

/// The sweep's command with `extra` arguments into `out`.
fn chain_sweep(out: &Path, trials: &str, extra: &[&str]) -> Command {
    let mut cmd = sim();
    cmd.args(["sweep", CHAIN, "--set", "naval.rules.slow_ships=-2,-1", "--trials", trials]).args(extra);
    cmd.arg("--out").arg(out);
    cmd
}

/// SIGTERM part-way through a sweep, then `--resume` on another thread count: the folder ends with the bytes
/// of an uninterrupted sweep (sweep.parquet, charts, page, manifest), and a finished sweep has nothing to
/// resume.
#[test]
fn an_interrupted_sweep_resumes_into_the_bytes_of_an_uninterrupted_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    let trials = "8000000";
    chain_sweep(&whole, trials, &[]).assert().success();
    let args = ["sweep", CHAIN, "--set", "naval.rules.slow_ships=-2,-1", "--trials", trials, "--out"];
    let mut args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    args.push(cut.as_os_str());
    let stderr = stopped::interrupted(&args, Duration::from_millis(1500));
    assert!(stderr.contains("intercept-sim sweep --resume"), "{stderr}");
    stopped::assert_partial(&cut, 8_000_000);
    sim().args(["sweep", "--threads", "1", "--resume"]).arg(&cut).assert().success();
    stopped::assert_same_files(&whole, &cut, 20);
    let again = sim().args(["sweep", "--resume"]).arg(&cut).assert().code(2);
    let stderr = String::from_utf8_lossy(&again.get_output().stderr).into_owned();
    assert!(stderr.contains("nothing to resume"), "{stderr}");
}

/// A sweep's manifest edited by hand is refused by `--resume` in one line, exit 2, before any trial runs.
#[test]
fn resume_refuses_an_edited_sweep_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sweep");
    chain_sweep(&dir, "2000", &[]).assert().success();
    let path = dir.join("manifest.json");
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["partial"] = true.into();
    doc["chunks"]["to"] = 0.into();
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let assert = sim().args(["sweep", "--resume"]).arg(&dir).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("was changed after the sweep wrote it") && stderr.trim().lines().count() == 1, "{stderr}");
}

/// Without `--metric` the sweep prints the rule set's headline metrics; with it, only those named, in
/// the table, the JSON (settings typed) and the CSV alike.
#[test]
fn metric_limits_what_is_printed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = chain_sweep(&tmp.path().join("a"), "2000", &[]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for headline in ["mission.completed", "mission.intercepted", "mission.engaged"] {
        assert!(text.lines().any(|l| l == headline), "{headline}: {text}");
    }
    assert!(!text.contains("group.messina.reached"), "{text}");
    assert!(text.lines().count() < 25, "a short answer: {text}");
    let one = ["--metric", "group.messina.reached"];
    let json = chain_sweep(&tmp.path().join("b"), "2000", &[&one[..], &["--json"]].concat()).assert().success();
    let doc: serde_json::Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
    let points = doc["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    assert_eq!(points[0]["settings"]["naval.rules.slow_ships"], -2, "typed like its key");
    assert_eq!(doc["axes"][0]["values"], serde_json::json!([-2, -1]));
    let metrics = points[1]["metrics"].as_array().unwrap();
    assert_eq!(metrics.len(), 1);
    assert_eq!(metrics[0]["metric"], "group.messina.reached");
    assert!(points[0]["metrics"][0]["difference"].is_null(), "the base point");
    let (d, l, h) = (&metrics[0]["difference"], &metrics[0]["difference_low"], &metrics[0]["difference_high"]);
    assert!(l.as_f64().unwrap() <= d.as_f64().unwrap() && d.as_f64().unwrap() <= h.as_f64().unwrap());
    let csv = chain_sweep(&tmp.path().join("c"), "2000", &[&one[..], &["--csv"]].concat()).assert().success();
    let csv = String::from_utf8(csv.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0]
            .starts_with("naval.rules.slow_ships,metric,kind,estimate,ci_low,ci_high,exact,exact_fraction,difference")
    );
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].starts_with("-2,group.messina.reached,probability,") && lines[1].ends_with(",,,"), "{csv}");
}

/// A metric the scenario lacks, and a key of the plan (which would unpair the points), are refused before
/// anything is written.
#[test]
fn a_bad_metric_or_a_plan_key_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    for (args, words) in [
        (vec!["--set", "naval.rules.slow_ships=-2,-1", "--metric", "mission.nope"], "no such metric"),
        (vec!["--set", "run.seed=1,2"], "same seed"),
        (vec!["--set", "run.trials=10,20"], "--trials"),
    ] {
        let assert = sim().args(["sweep", CHAIN]).args(&args).arg("--out").arg(&out).assert().code(2);
        let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(err.contains(words) && err.trim().lines().count() == 1, "{args:?}: {err}");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
}

/// An interrupted sweep whose point's count was lowered and re-sealed, as a forger who knows the format
/// would, is refused by `--resume` against the point's exact values, before any trial runs.
#[test]
fn resume_refuses_a_forged_point_count() {
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut");
    let mut args = vec!["sweep", "configs/naval/three-level-chain.toml", "--set", "naval.rules.slow_ships=-2,-1,0"];
    args.extend(["--trials", "8000000", "--threads", "1", "--out"]);
    let mut args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    args.push(cut.as_os_str());
    stopped::interrupted(&args, Duration::from_millis(1500));
    let path = cut.join("manifest.json");
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let count = &mut doc["points"][1]["counts"][2];
    *count = (count.as_u64().unwrap() * 9 / 10).into();
    let mut record: intercept_sim::core::sweep::SweepRecord = serde_json::from_value(doc).unwrap();
    record.digest = record.digest_now();
    std::fs::write(&path, intercept_sim::core::seal::text(&record)).unwrap();
    let assert = sim().args(["sweep", "--resume"]).arg(&cut).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let message = "the point naval.rules.slow_ships=-1: its count of mission.completed is";
    assert!(stderr.contains(message) && stderr.trim().lines().count() == 1, "{stderr}");
}
