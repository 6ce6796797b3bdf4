//! `sensitivity` end to end: exact changes on a table value, Monte Carlo changes against exact ones,
//! the same bytes on any thread count, and bad arguments.

mod stopped;

use std::fs::File;
use std::path::Path;

use assert_cmd::Command;
use polars::prelude::*;

const PIKES: &str = "configs/cavalry/charge-on-pikes.toml";
const CHAIN: &str = "configs/naval/three-level-chain.toml";

fn sim() -> Command {
    Command::cargo_bin("intercept-sim").expect("binary built")
}

/// One row of `sensitivity.parquet`.
#[derive(Debug)]
struct Row {
    key: String,
    step: String,
    stepped: String,
    metric: String,
    change: f64,
    low: f64,
    high: f64,
    method: String,
}

fn rows(dir: &Path) -> Vec<Row> {
    let df = ParquetReader::new(File::open(dir.join("sensitivity.parquet")).unwrap()).finish().unwrap();
    // The stepped value is a number, typed like its key: read here as text.
    let text = |name: &str| -> Vec<String> {
        let ca = df.column(name).unwrap().cast(&DataType::String).unwrap().str().unwrap().clone();
        (0..ca.len()).map(|i| ca.get(i).unwrap().to_owned()).collect()
    };
    let num = |name: &str| -> Vec<f64> {
        let ca = df.column(name).unwrap().f64().unwrap().clone();
        (0..ca.len()).map(|i| ca.get(i).unwrap()).collect()
    };
    let (keys, steps, stepped, metrics, methods) =
        (text("key"), text("step"), text("stepped"), text("metric"), text("method"));
    let (change, low, high) = (num("change"), num("change_low"), num("change_high"));
    (0..keys.len())
        .map(|i| Row {
            key: keys[i].clone(),
            step: steps[i].clone(),
            stepped: stepped[i].clone(),
            metric: metrics[i].clone(),
            change: change[i],
            low: low[i],
            high: high[i],
            method: methods[i].clone(),
        })
        .collect()
}

fn find<'a>(rows: &'a [Row], key: &str, step: &str, metric: &str) -> &'a Row {
    rows.iter().find(|r| r.key == key && r.step == step && r.metric == metric).expect("a row for the step")
}

/// C-2: under Charge orders the Lifeguard intercepts on 0-5 of a d10. One step of the table's charge entry
/// moves its chance by exactly one face in ten; Rupert's horse, under Make Ready, does not notice.
#[test]
fn a_table_entry_moves_the_odds_by_one_face() {
    let dir = tempfile::tempdir().unwrap();
    let out = sim()
        .args(["sensitivity", PIKES, "--only", "cavalry.table", "--metric", "cavalry.interceptor.lifeguard.succeeded"])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("cavalry.interceptor.lifeguard.succeeded = 0.600000 (exact)"), "{text}");
    assert!(text.contains("cavalry.table.charge") && text.contains("to 4: -0.100000"), "{text}");
    assert!(text.contains("every change exact"), "{text}");
    let rows = rows(dir.path());
    let lifeguard = "cavalry.interceptor.lifeguard.succeeded";
    let (down, up) =
        (find(&rows, "cavalry.table.charge", "down", lifeguard), find(&rows, "cavalry.table.charge", "up", lifeguard));
    assert_eq!((down.stepped.as_str(), up.stepped.as_str()), ("4", "6"));
    assert!((down.change + 0.1).abs() < 1e-12 && (up.change - 0.1).abs() < 1e-12, "{down:?} {up:?}");
    assert_eq!((down.method.as_str(), down.low, down.high), ("exact", down.change, down.change));
    let rupert = find(&rows, "cavalry.table.charge", "up", "cavalry.interceptor.rupert-horse.succeeded");
    // Exactly 0 up to the rounding of summing the leaves of the fire nodes in floating point.
    assert!(rupert.change.abs() < 1e-12, "{rupert:?}");
    assert!(rows.iter().all(|r| r.key.starts_with("cavalry.table.")), "--only keeps to the table");
    for ext in ["png", "svg"] {
        assert!(dir.path().join(format!("tornado-{lifeguard}.{ext}")).exists(), "a tornado chart per metric");
    }
}

/// Copies the three-level chain with a leaf budget too small to solve it, so every change is sampled.
fn unsolvable_chain(dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(CHAIN).unwrap().replace("seed = 1941", "seed = 1941\nmax_exact_leaves = 1");
    let path = dir.join("chain.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Common-random-number Monte Carlo against exact differences, on every rule modifier and every metric.
/// The 95% intervals are widened to about 5 standard errors, as some hundreds of comparisons are made.
#[test]
fn sampled_changes_agree_with_exact_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let (exact_dir, sampled_dir) = (tmp.path().join("exact"), tmp.path().join("sampled"));
    let unsolvable = unsolvable_chain(tmp.path());
    let scope = ["--only", "naval.rules", "--only", "naval.combat", "--trials", "100000"];
    sim().args(["sensitivity", CHAIN]).args(scope).arg("--out").arg(&exact_dir).assert().success();
    sim().arg("sensitivity").arg(&unsolvable).args(scope).arg("--out").arg(&sampled_dir).assert().success();
    let (exact, sampled) = (rows(&exact_dir), rows(&sampled_dir));
    assert!(exact.iter().all(|r| r.method == "exact") && sampled.iter().all(|r| r.method == "sampled"));
    assert_eq!(exact.len(), sampled.len());
    let mut moved = 0;
    for (e, s) in exact.iter().zip(&sampled) {
        assert_eq!((&e.key, &e.step, &e.metric), (&s.key, &s.step, &s.metric));
        let half = (s.high - s.low) / 2.0;
        let tolerance = half * 5.0 / 1.96 + 1e-12;
        assert!(
            (s.change - e.change).abs() <= tolerance,
            "{} {} {}: sampled {s:?}, exact {}",
            e.key,
            e.step,
            e.metric,
            e.change
        );
        moved += usize::from(e.change.abs() > 0.01);
    }
    assert!(moved >= 10, "the check must cover real changes, found {moved}");
    // Shared random numbers: the slow-ships step's interval is far narrower than two independent runs'
    // (about 0.0044 at 10^5 trials). Since 0.4.0 a roll that falls short draws how far only when a rule
    // reads it, so a change of dice that turns a miss into a reach shifts the later draws of that trial: the
    // half-width, under 0.0015 before, is 0.0017.
    let slow = find(&sampled, "naval.rules.slow_ships", "down", "mission.completed");
    assert!((slow.high - slow.low) / 2.0 < 0.002, "{slow:?}");
}

/// Reproducibility: the same seed gives the same bytes whatever the thread count.
#[test]
fn the_same_seed_gives_the_same_file_on_any_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let unsolvable = unsolvable_chain(tmp.path());
    let file = |threads: &str| {
        let dir = tmp.path().join(threads);
        sim()
            .arg("sensitivity")
            .arg(&unsolvable)
            .args(["--only", "naval.rules.slow_ships", "--trials", "70000"])
            .args(["--threads", threads, "--out"])
            .arg(&dir)
            .assert()
            .success();
        std::fs::read(dir.join("sensitivity.parquet")).unwrap()
    };
    assert_eq!(file("1"), file("3"));
}

#[test]
fn bad_arguments_exit_2_and_write_nothing() {
    let cases: [(&[&str], &str); 6] = [
        (&["--only", "naval.nothing"], "--only naval.nothing: 'naval' has no key or name 'nothing'"),
        (&["--only", "naval.group[9]"], "--only naval.group[9]: 'naval.group' has no key or name '9'"),
        (&["--only", "run"], "no number of the config is under run"),
        (&["--metric", "mission.teleported"], "--metric mission.teleported: no such metric"),
        (&["--float-step", "0"], "not a usable step"),
        (&["--float-step", "-0.1"], "not a usable step"),
    ];
    for (args, message) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let assert = sim().args(["sensitivity", CHAIN]).args(args).arg("--out").arg(&out).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
}

/// `--only` takes a list's table by index as well as by name, and keeps to the same keys either way.
#[test]
fn only_takes_a_group_by_index_or_by_name() {
    let by_name = written(&["naval.group.taranto.distance"]);
    assert_eq!(written(&["naval.group[0].distance"]), by_name);
    assert_eq!(written(&["naval.group.0.distance"]), by_name);
}

/// `--only A,B` is `--only A --only B`, as the API's `only=A,B` is (issue 51: the comma list was read as
/// one key); an empty prefix in the list is refused in one line.
#[test]
fn only_takes_a_comma_list_as_well_as_repeats() {
    let (a, b) = ("naval.group.taranto.distance", "naval.group.force-b.factors");
    let listed = written(&[&format!("{a},{b}")]);
    assert_eq!(listed, written(&[a, b]), "--only A,B and --only A --only B vary the same keys");
    assert_eq!(written(&[&format!("{a}, {b}")]), listed, "spaces after the commas are dropped");
    assert_ne!(listed, written(&[a]), "both keys are varied");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let refused = sim().args(["sensitivity", CHAIN, "--only", &format!("{a},"), "-o"]).arg(&out).assert().code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("'--only <PREFIX>': an empty key prefix; allowed: dotted prefixes"), "{stderr}");
    assert!(!out.exists(), "nothing written");
}

/// `sensitivity CHAIN --only P --only Q ... -q`: the sensitivity.parquet it writes.
fn written(only: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let prefixes = only.iter().flat_map(|p| ["--only", p]);
    sim().args(["sensitivity", CHAIN]).args(prefixes).args(["-q", "-o"]).arg(dir.path()).assert().success();
    std::fs::read(dir.path().join("sensitivity.parquet")).unwrap()
}

/// Keys are read in both forms and a mistyped name gets the nearest one suggested, on one line, exit 2.
#[test]
fn mistyped_names_get_a_near_name_suggested() {
    let harpoon = "configs/naval/operation-harpoon.toml";
    for (key, near) in [("naval.group.tarnto.distance", "'taranto'"), ("naval.group[0].distnce", "'distance'")] {
        let dir = tempfile::tempdir().unwrap();
        let out =
            sim().args(["sweep", harpoon, "--set", &format!("{key}=4"), "--out"]).arg(dir.path()).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&format!("did you mean {near}?")), "{stderr}");
    }
}

/// `--json` and `--csv` give the printed table's rows, ranked, with the changes `sensitivity.parquet` holds.
#[test]
fn json_and_csv_hold_the_ranked_changes() {
    let dir = tempfile::tempdir().unwrap();
    let printed = |format: &str, out: &str| {
        let args = ["sensitivity", CHAIN, "--only", "naval.group[0]", "-q", format, "-o"];
        let assert = sim().args(args).arg(dir.path().join(out)).assert().success();
        String::from_utf8(assert.get_output().stdout.clone()).unwrap()
    };
    let doc: serde_json::Value = serde_json::from_str(&printed("--json", "json")).unwrap();
    let metric = &doc["metrics"][0];
    assert_eq!(metric["metric"], "mission.completed", "the headline metric by default");
    let ranked = metric["ranked"].as_array().unwrap();
    let size = |r: &serde_json::Value| {
        ["down", "up"].iter().filter_map(|s| r[s]["change"].as_f64()).map(f64::abs).fold(0.0, f64::max)
    };
    assert!(ranked.windows(2).all(|w| size(&w[0]) >= size(&w[1])), "largest change first");
    assert_eq!(ranked[0]["key"], "naval.group.taranto.distance");
    assert_eq!((ranked[0]["value"].as_i64(), ranked[0]["down"]["stepped"].as_i64()), (Some(8), Some(7)));
    let csv = printed("--csv", "csv");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    let sides = ranked.iter().map(|r| ["down", "up"].iter().filter(|s| !r[s].is_null()).count()).sum::<usize>();
    assert_eq!(rows.len(), sides, "{csv}");
    let first: Vec<&str> = rows[0].split(',').collect();
    assert_eq!(first[..6], ["mission.completed", "1", "naval.group.taranto.distance", "8", "down", "7"]);
    assert_eq!(first[8].parse::<f64>().unwrap(), ranked[0]["down"]["change"].as_f64().unwrap());
}

/// SIGTERM part-way through a sensitivity run: it ends its work in progress, says in one line that it keeps
/// no partial result and that nothing was written, and exits 130 (issue 35: it used to quit without a word).
#[test]
fn an_interrupted_sensitivity_run_says_it_kept_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sens");
    let args = ["sensitivity", "benches/data/grand-armada.toml", "--only", "naval.rules", "--trials", "200000000"];
    let mut args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    args.extend([std::ffi::OsStr::new("--out"), out.as_os_str()]);
    let stderr = stopped::interrupted(&args, std::time::Duration::from_millis(1500));
    let last = stderr.trim().lines().last().unwrap_or_default();
    assert!(last.starts_with("error: interrupted: a sensitivity run keeps no partial result"), "{stderr}");
    assert!(!out.exists(), "nothing written");
}
