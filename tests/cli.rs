//! The command line end to end: reproducible bytes across thread counts, the Parquet schemas read back,
//! per-trial rows that agree with the summary, `--json`, and no temporary files left behind.

use std::fs::File;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use intercept_sim::core::fraction;
use polars::prelude::*;

const CONFIG: &str = "configs/cavalry/charge-on-pikes.toml";

fn config() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(CONFIG)
}

fn sim() -> Command {
    Command::cargo_bin("intercept-sim").expect("binary built")
}

/// Runs the shipped config into `out` with `threads` threads and `--per-trial`; 300 000 trials is 5 chunks.
fn run_into(out: &Path, threads: &str) -> String {
    let assert = sim()
        .args([
            "run",
            config().to_str().unwrap(),
            "--trials",
            "300000",
            "--seed",
            "9",
            "--per-trial",
            "--threads",
            threads,
        ])
        .arg("--out")
        .arg(out)
        .assert()
        .success();
    String::from_utf8(assert.get_output().stdout.clone()).expect("utf-8")
}

fn read(path: &Path) -> DataFrame {
    ParquetReader::new(File::open(path).expect("file written")).finish().expect("valid parquet")
}

#[test]
fn one_and_two_threads_write_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("t1"), dir.path().join("t2"));
    run_into(&a, "1");
    run_into(&b, "2");
    for name in ["summary.parquet", "distributions.parquet", "trials.parquet", "headline.svg", "headline.png"] {
        let (x, y) = (std::fs::read(a.join(name)).unwrap(), std::fs::read(b.join(name)).unwrap());
        assert!(x == y, "{name} differs between 1 and 2 threads");
    }
}

fn strings(df: &DataFrame, name: &str) -> Vec<String> {
    let ca = df.column(name).unwrap().str().unwrap();
    (0..ca.len()).map(|i| ca.get(i).expect("no nulls").to_owned()).collect()
}

fn u64s(df: &DataFrame, name: &str) -> Vec<Option<u64>> {
    let ca = df.column(name).unwrap().u64().unwrap();
    (0..ca.len()).map(|i| ca.get(i)).collect()
}

fn schema_of(df: &DataFrame) -> Vec<(String, DataType)> {
    df.schema().iter().map(|(n, t)| (n.to_string(), t.clone())).collect()
}

#[test]
fn parquet_files_have_the_documented_schema() {
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), "2");
    let summary = read(&dir.path().join("summary.parquet"));
    let want = [
        ("metric", DataType::String),
        ("estimate", DataType::Float64),
        ("ci_low", DataType::Float64),
        ("ci_high", DataType::Float64),
        ("successes", DataType::UInt64),
        ("trials", DataType::UInt64),
        ("exact", DataType::Float64),
        ("exact_fraction", DataType::String),
        ("kind", DataType::String),
        ("median", DataType::UInt32),
        ("median_ci_low", DataType::UInt32),
        ("median_ci_high", DataType::UInt32),
        ("median_exact", DataType::UInt32),
        ("p90", DataType::UInt32),
        ("p90_ci_low", DataType::UInt32),
        ("p90_ci_high", DataType::UInt32),
        ("p90_exact", DataType::UInt32),
    ];
    assert_eq!(schema_of(&summary), want.map(|(n, t)| (n.to_string(), t)).to_vec());
    let metrics = strings(&summary, "metric");
    for m in ["cavalry.intercepted", "cavalry.interceptions", "cavalry.interceptor.lifeguard.eligible"] {
        assert!(metrics.iter().any(|x| x == m), "{m} missing from {metrics:?}");
    }
    for m in ["cavalry.interceptor.lifeguard.succeeded", "target.reaction_fire", "target.hedgehog_attempted"] {
        assert!(metrics.iter().any(|x| x == m), "{m} missing from {metrics:?}");
    }
    for m in ["target.hedgehog_formed", "target.morale_lost"] {
        assert!(metrics.iter().any(|x| x == m), "{m} missing from {metrics:?}");
    }
    assert!(u64s(&summary, "trials").iter().all(|&t| t == Some(300_000)));
    assert_eq!(summary.column("exact").unwrap().null_count(), 0, "a small tree gets its exact column");
    exact_fractions_are_the_exact_values(&summary);

    let dists = read(&dir.path().join("distributions.parquet"));
    let want = [
        ("metric", DataType::String),
        ("value", DataType::UInt32),
        ("count", DataType::UInt64),
        ("probability", DataType::Float64),
        ("ci_low", DataType::Float64),
        ("ci_high", DataType::Float64),
        ("exact", DataType::Float64),
        ("exact_fraction", DataType::String),
    ];
    let mut want: Vec<(String, DataType)> = want.map(|(n, t)| (n.to_string(), t)).to_vec();
    for side in ["at_least", "at_most"] {
        want.push((format!("{side}_count"), DataType::UInt64));
        for column in ["probability", "ci_low", "ci_high", "exact"] {
            want.push((format!("{side}_{column}"), DataType::Float64));
        }
        want.push((format!("{side}_exact_fraction"), DataType::String));
    }
    assert_eq!(schema_of(&dists), want);
    let interceptions = strings(&dists, "metric").into_iter().filter(|m| m == "cavalry.interceptions");
    assert_eq!(interceptions.count(), 3, "values 0, 1 and 2 for two interceptors");
    exact_fractions_are_the_exact_values(&dists);
    cumulative_columns_are_the_exact_sums(&dists);
}

/// "At least v" and "at most v" of each distribution: their counts are the sums of the counts at or above
/// (below) v, and their exact fractions are the exact sums, in rational arithmetic, of the values' fractions.
fn cumulative_columns_are_the_exact_sums(df: &DataFrame) {
    let (metrics, counts, exact) = (strings(df, "metric"), u64s(df, "count"), strings(df, "exact_fraction"));
    let exact: Vec<_> = exact.iter().map(|t| fraction::parse(t).expect("a fraction")).collect();
    let column = |name: &str| strings(df, name).iter().map(|t| fraction::parse(t).expect("a fraction")).collect();
    let (at_least, at_most): (Vec<_>, Vec<_>) = (column("at_least_exact_fraction"), column("at_most_exact_fraction"));
    let (least_counts, most_counts) = (u64s(df, "at_least_count"), u64s(df, "at_most_count"));
    let at_least_exact = df.column("at_least_exact").unwrap().f64().unwrap();
    for i in 0..df.height() {
        let same: Vec<usize> = (0..df.height()).filter(|&j| metrics[j] == metrics[i]).collect();
        let (above, below): (Vec<usize>, Vec<usize>) = same.iter().partition(|&&j| j >= i);
        let below: Vec<usize> = below.into_iter().chain([i]).collect();
        let sum = |rows: &[usize]| rows.iter().fold(num_rational::BigRational::default(), |a, &j| a + &exact[j]);
        assert_eq!(at_least[i], sum(&above), "row {i}: at least");
        assert_eq!(at_most[i], sum(&below), "row {i}: at most");
        assert_eq!(Some(fraction::to_f64(&at_least[i])), at_least_exact.get(i), "row {i}: nearest float");
        let count = |rows: &[usize]| rows.iter().map(|&j| counts[j].unwrap()).sum::<u64>();
        assert_eq!((least_counts[i], most_counts[i]), (Some(count(&above)), Some(count(&below))), "row {i}");
    }
}

/// Every row's `exact_fraction` is a fraction in lowest terms whose nearest float is its `exact`.
fn exact_fractions_are_the_exact_values(df: &DataFrame) {
    let exact = df.column("exact").unwrap().f64().unwrap();
    for (i, text) in strings(df, "exact_fraction").iter().enumerate() {
        let f = fraction::parse(text).unwrap_or_else(|| panic!("{text} is a fraction"));
        assert_eq!(fraction::text(&f), *text, "in lowest terms");
        assert_eq!(Some(fraction::to_f64(&f)), exact.get(i), "row {i}: {text}");
    }
}

#[test]
fn per_trial_rows_agree_with_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), "2");
    let trials = read(&dir.path().join("trials.parquet"));
    assert_eq!(trials.height(), 300_000);
    let ids = u64s(&trials, "trial");
    assert!(ids.iter().enumerate().all(|(i, &t)| t == Some(i as u64)), "trials in order");
    let summary = read(&dir.path().join("summary.parquet"));
    for (name, s) in strings(&summary, "metric").iter().zip(u64s(&summary, "successes")) {
        let Some(s) = s else { continue };
        let column = trials.column(name).unwrap().bool().unwrap();
        assert_eq!(column.sum().unwrap() as u64, s, "{name}");
    }
}

#[test]
fn json_summary_matches_the_parquet_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = sim()
        .args(["run", config().to_str().unwrap(), "--trials", "100000", "--json", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("stdout is JSON");
    let summary = read(&dir.path().join("summary.parquet"));
    let estimates = summary.column("estimate").unwrap().f64().unwrap();
    let estimates = (0..estimates.len()).map(|i| estimates.get(i).expect("no nulls"));
    let rows = json["metrics"].as_array().expect("metrics array");
    assert_eq!(rows.len(), summary.height());
    for (row, est) in rows.iter().zip(estimates) {
        assert_eq!(row["estimate"].as_f64().unwrap(), est, "{}", row["metric"]);
    }
}

#[test]
fn a_run_leaves_only_its_outputs() {
    let dir = tempfile::tempdir().unwrap();
    run_into(dir.path(), "2");
    let mut names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let hidden: Vec<&String> = names.iter().filter(|n| n.starts_with('.')).collect();
    assert_eq!(hidden, [".intercept-sim-files"], "only the index of the run's files is hidden: {names:?}");
    for want in [
        "summary.parquet",
        "distributions.parquet",
        "trials.parquet",
        "manifest.json",
        "headline.png",
        "headline.svg",
        "report.html",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing from {names:?}");
    }
    assert!(names.iter().any(|n| n == "dist-cavalry.interceptions.svg"), "{names:?}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["seed"], 9);
    assert_eq!(manifest["config"]["run"]["chunk_size"], 65536, "defaults are filled in");
    assert_eq!(manifest["config"]["cavalry"]["table"]["charge"], 5);
}

#[test]
fn run_writes_under_reports_by_default() {
    let dir = tempfile::tempdir().unwrap();
    sim().current_dir(dir.path()).args(["run", config().to_str().unwrap(), "--trials", "1000"]).assert().success();
    assert!(dir.path().join("reports/charge-on-pikes/summary.parquet").exists());
}

#[test]
fn exact_prints_t7_fractions_and_validate_prints_defaults() {
    let out = sim().args(["exact", config().to_str().unwrap()]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("cavalry.interceptor.lifeguard.succeeded") && text.contains("(3/5)"), "{text}");
    let out = sim().args(["exact", "--json", config().to_str().unwrap()]).assert().success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("JSON");
    let rows = json["metrics"].as_array().unwrap();
    let succeeded = rows.iter().find(|r| r["metric"] == "cavalry.interceptor.lifeguard.succeeded").unwrap();
    assert_eq!((&succeeded["exact"], &succeeded["exact_fraction"]), (&0.6.into(), &"3/5".into()), "{json}");
    let dists = json["distributions"].as_array().unwrap();
    assert!(dists.iter().all(|r| r["exact_fraction"].is_string()), "every value has its fraction: {json}");
    let out = sim().args(["validate", config().to_str().unwrap(), "--json"]).assert().success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("JSON");
    assert_eq!(json["config"]["run"]["max_exact_leaves"], 1_000_000);
    assert_eq!(json["resolved"]["interceptors"][0]["p_intercept"], 0.6);
}

/// A naval config with 12 groups of 8 dice, 30 hexes out, has 31^12 ways its first rolls end: `exact`
/// answers with bounds that hold for certain, saying how much of the tree it left unexplored and why, in
/// text and JSON (issue 53); `run` still runs, leaving the exact column empty.
#[test]
fn a_tree_too_large_to_solve_exactly_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let groups: String = (0..12)
        .map(|i| format!("[[naval.group]]\nname = \"g{i}\"\ntarget = \"m\"\ndistance = 30\nfactors = 10\n\n"))
        .collect();
    let path = dir.path().join("big.toml");
    let mission = "[naval.mission]\nname = \"m\"\nactivity = \"patrol_in_hex\"\nfactors = 20\n\n";
    std::fs::write(&path, format!("{mission}{groups}")).unwrap();
    let exact = |extra: &[&str]| {
        let out = sim().args(["exact", path.to_str().unwrap(), "--max-states", "1000"]).args(extra).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let text = exact(&[]);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("big: bounds that hold for certain, "), "{first}");
    assert!(first.ends_with("% of the chance tree left unexplored: the least likely paths were set aside, as the solve carries at most run.max_exact_states = 1000 states at once"), "{first}");
    assert!(text.lines().any(|l| l.starts_with("mission.intercepted ") && l.contains(" to ")), "{text}");
    let json: serde_json::Value = serde_json::from_str(&exact(&["--json"])).unwrap();
    assert_eq!(json["cut"], "states");
    assert!(json["residual"].as_f64().is_some_and(|r| r > 0.0 && r < 1.0));
    let row = &json["metrics"][0];
    assert!(row["exact"].is_null() && row["exact_low"].as_f64() < row["exact_high"].as_f64(), "{row}");
    assert!(json["answer"].as_str().unwrap().contains("of the time for certain ("), "{json}");
    for bad in [["--max-states", "99"], ["--time", "0"]] {
        let out = sim().args(["exact", path.to_str().unwrap()]).args(bad).assert().code(2);
        assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("allowed:"));
    }
    sim()
        .args(["run", path.to_str().unwrap(), "--trials", "20000", "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .success();
    let summary = read(&dir.path().join("out/summary.parquet"));
    assert_eq!(summary.column("exact").unwrap().null_count(), summary.height());
    assert_eq!(summary.column("exact_fraction").unwrap().null_count(), summary.height());
}

fn odds(args: &[&str]) -> String {
    let assert = sim().arg("odds").args(args).assert().success();
    String::from_utf8(assert.get_output().stdout.clone()).expect("utf-8")
}

/// T-1 and T-2 of the naval rules, T-7 and T-8 of the cavalry rules, asked without a config file.
#[test]
fn odds_answer_the_rule_book_values() {
    let reach = |args: &[&str]| odds(&[&["naval"], args].concat()).lines().nth(1).expect("a P(reach) line").to_owned();
    assert_eq!(reach(&["--dice", "1", "--distance", "4"]), "P(reach) = 0.500000 (1/2)");
    assert_eq!(reach(&["--dice", "1", "--distance", "3"]), "P(reach) = 0.666667 (2/3)");
    assert_eq!(reach(&["--dice", "2", "--distance", "5"]), "P(reach) = 0.833333 (5/6)");
    assert_eq!(reach(&["--dice", "2", "--distance", "7"]), "P(reach) = 0.583333 (7/12)");
    assert_eq!(reach(&["--dice", "2", "--distance", "4", "--pacific"]), "P(reach) = 0.583333 (7/12)");
    assert_eq!(reach(&["--dice", "4", "--distance", "7", "--pacific"]), "P(reach) = 0.664352 (287/432)");
    for (order, p) in [("charge", "(3/5)"), ("make_ready", "(1/2)"), ("receive_charge", "(2/5)"), ("rally", "0.000000")]
    {
        assert!(odds(&["cavalry", "--order", order]).lines().next().unwrap().ends_with(p), "{order}");
    }
    assert!(odds(&["cavalry", "--order", "charge", "--morale", "7"]).contains("P(pass) = 0.800000 (4/5)"));
    assert!(
        odds(&["cavalry", "--order", "charge", "--morale", "7", "--checks", "2"]).contains("P(pass) = 0.700000 (7/10)")
    );
}

#[test]
fn odds_refuse_bad_numbers_with_exit_2() {
    for args in [
        &["naval", "--dice", "9", "--distance", "3"][..],
        &["naval", "--dice", "2"],
        &["naval", "--dice", "2", "--distance", "-1"],
        &["cavalry", "--order", "gallop"],
        &["cavalry", "--order", "charge", "--leader", "1"],
        &["cavalry", "--order", "charge", "--morale", "11"],
    ] {
        sim().arg("odds").args(args).assert().code(2).stdout("");
    }
}

/// Several groups at level 1 (issue 51): the sentence first, each group's dice in the rules' words (N-4, N-5)
/// and its chance; at least one reaches 1 - (5/12)(5/54) = 623/648 (2 and 3 dice at 7 hexes, T-1). JSON with
/// fractions as strings, CSV a row per group.
#[test]
fn odds_naval_takes_several_groups_with_their_modifiers() {
    let raid = ["naval", "--activity", "raider", "--group", "7,codebreaking", "--group", "7,spotting=2"];
    assert_eq!(
        odds(&raid),
        "At least one of 2 groups reaches the mission's interception hex 96.1% of the time (exactly 623/648).\n\
         2 groups against a raid (20 naval factors), Europe, sum of the dice\n\n\
         group 1, 7 hexes: 2 dice (1 base against a raid, +1 codebreaking; N-4..N-6); P(reach) = 0.583333 (7/12)\n\
         group 2, 7 hexes: 3 dice (1 base against a raid, +2 spotting; N-4..N-6); P(reach) = 0.907407 (49/54)\n"
    );
    let json: serde_json::Value = serde_json::from_str(&odds(&[&raid[..], &["--json"]].concat())).expect("JSON");
    assert_eq!((json["p_intercept_fraction"].as_str(), json["activity"].as_str()), (Some("623/648"), Some("raider")));
    let fractions: Vec<&str> =
        json["groups"].as_array().unwrap().iter().map(|g| g["p_reach_fraction"].as_str().unwrap()).collect();
    assert_eq!(fractions, ["7/12", "49/54"]);
    assert_eq!(
        json["groups"][1]["dice_count"]["modifiers"][0],
        serde_json::json!({ "modifier": "spotting", "dice": 2 })
    );
    let csv = odds(&[&raid[..], &["--csv"]].concat());
    assert_eq!(
        csv,
        "group,distance,base_dice,modifiers,dice,p_reach,p_reach_fraction\n\
         1,7,1,+1 codebreaking,2,0.5833333333333334,7/12\n\
         2,7,1,+2 spotting,3,0.9074074074074074,49/54\n"
    );
    let small = odds(&["naval", "--factors", "9", "--pacific", "--group", "4,slow-ships,non-operational-port"]);
    assert!(small.starts_with("In the Pacific (the total halved, rounding up), 1 group reaches"), "{small}");
    assert!(
        small.contains(
            "0 dice (4 base against sea transport, \u{2212}1 slow ships, \u{2212}2 non-operational port, \
                            \u{2212}1 small enemy force; N-4..N-6); P(reach) = 0.000000"
        ),
        "{small}"
    );
}

/// `--group` and `--dice/--distance` are two ways to ask, never both nor neither; a group's distance and
/// modifiers are read strictly: each refusal one line naming the parameter, the bad part and what is allowed,
/// exit 2, nothing on stdout.
#[test]
fn odds_naval_groups_refuse_bad_input_in_one_line() {
    let modifiers = "allowed: spotting=N, codebreaking, mission-hex, slow-ships, non-operational-port";
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec![], "--dice: missing; give dice and distance, or group".into()),
        (vec!["--pacific"], "--dice: missing; give dice and distance, or group".into()),
        (vec!["--dice", "2", "--distance", "7", "--group", "8"], "--dice: not with group; give dice and distance, or group, not both".into()),
        (vec!["--group", "8", "--distance", "7"], "--distance: not with group; give dice and distance, or group, not both".into()),
        (vec!["--group", "6,slow"], format!("--group: \"6,slow\": no modifier \"slow\"; {modifiers}")),
        (
            vec!["--group", "8", "--group", "six"],
            "--group: \"six\": the distance \"six\" is not a whole number from 0 to 99; write DISTANCE[,MODIFIER...], \
             such as 6,slow-ships,spotting=2"
                .into(),
        ),
        (
            vec!["--group", "6,spotting=two"],
            "--group: \"6,spotting=two\": spotting=two is not allowed; allowed: spotting=N with N a whole number from 0 \
             to 99"
                .into(),
        ),
        (vec!["--group", "6,codebreaking,codebreaking"], "--group: \"6,codebreaking,codebreaking\": codebreaking given twice; give it once".into()),
        (
            vec!["--group", "6,mission-hex"],
            "--group: \"6,mission-hex\": mission-hex applies only to a group intercepting a seaborne_invasion or \
             shore_bombardment mission"
                .into(),
        ),
        (["--group", "1"].repeat(9), "--group: 9 groups; allowed: 1 to 8".into()),
        (vec!["--group", "6", "--activity", "convoy"], "invalid value 'convoy' for '--activity <ACTIVITY>'".into()),
        (vec!["--group", "6", "--factors", "1000"], "--factors: \"1000\" is not allowed; allowed: a whole number from 0 to 999".into()),
    ];
    for (args, message) in cases {
        let out = sim().args(["odds", "naval"]).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty() && stderr.trim_end().lines().count() == 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with(&format!("error: {message}")), "{args:?}: {stderr}");
    }
}

fn run_precise(out: &Path, threads: &str, extra: &[&str]) {
    sim()
        .args(["run", config().to_str().unwrap(), "--precision", "0.002", "--threads", threads])
        .args(extra)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).expect("JSON")
}

/// `--precision` stops at the first chunk where every probability is that precise, at the same chunk on
/// any number of threads, and never past `--max-trials`.
#[test]
fn precision_stops_at_the_same_chunk_on_any_thread_count() {
    let (one, three) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run_precise(one.path(), "1", &[]);
    run_precise(three.path(), "3", &[]);
    let bytes = |d: &Path| std::fs::read(d.join("summary.parquet")).unwrap();
    assert_eq!(bytes(one.path()), bytes(three.path()));
    let m = manifest(one.path());
    assert_eq!(m["precision"], 0.002);
    let trials = m["trials"].as_u64().unwrap();
    assert!(
        trials < 1_000_000 && trials.is_multiple_of(65_536),
        "{trials} trials: whole chunks, fewer than a default run"
    );
    let summary = read(&one.path().join("summary.parquet"));
    let kinds = strings(&summary, "kind");
    let (low, high) =
        (summary.column("ci_low").unwrap().f64().unwrap(), summary.column("ci_high").unwrap().f64().unwrap());
    for i in (0..summary.height()).filter(|&i| kinds[i] == "probability") {
        assert!((high.get(i).unwrap() - low.get(i).unwrap()) / 2.0 <= 0.002, "row {i}");
    }
    // One chunk fewer would not have been enough: the run did not stop late.
    let short = tempfile::tempdir().unwrap();
    let fewer = (trials - 65_536).to_string();
    run_precise(short.path(), "2", &["--max-trials", &fewer]);
    assert_eq!(manifest(short.path())["trials"].as_u64(), Some(trials - 65_536), "capped by --max-trials");
    let summary = read(&short.path().join("summary.parquet"));
    let (low, high) =
        (summary.column("ci_low").unwrap().f64().unwrap(), summary.column("ci_high").unwrap().f64().unwrap());
    let widest = (0..summary.height())
        .filter(|&i| kinds[i] == "probability")
        .map(|i| high.get(i).unwrap() - low.get(i).unwrap());
    assert!(widest.fold(0.0, f64::max) / 2.0 > 0.002, "a chunk earlier was not yet precise enough");
}

#[test]
fn bad_precision_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for bad in ["0", "-0.01", "0.5", "abc"] {
        let assert =
            sim().args(["run", config().to_str().unwrap(), "--precision", bad]).arg("--out").arg(&out).assert();
        let err = String::from_utf8(assert.code(2).get_output().stderr.clone()).unwrap();
        assert!(err.contains("--precision"), "{bad}: {err}");
        assert!(!out.exists(), "{bad}: nothing written");
    }
    sim().args(["run", config().to_str().unwrap(), "--max-trials", "10"]).assert().code(2);
}

/// `metrics` lists every metric with its description, the headline first; `schema` prints a rule set's
/// JSON Schema and refuses a table no rule set has.
#[test]
fn metrics_and_schema_describe_a_rule_set() {
    let out = sim().args(["metrics", config().to_str().unwrap()]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let second = text.lines().nth(1).expect("a metric line");
    assert!(second.starts_with("* cavalry.intercepted") && second.contains("(C-2"), "{text}");
    let out = sim().args(["schema", "cavalry"]).assert().success();
    let schema: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("JSON");
    assert!(schema["properties"]["cavalry"].is_object() && schema["properties"]["run"].is_object());
    let refused = sim().args(["schema", "chess"]).assert().code(2);
    let stderr = String::from_utf8(refused.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("[chess]") && stderr.contains("cavalry, naval"), "{stderr}");
}

/// `where` (issue 52, N-2.2): the answer printed, and written as CSV, JSON, the map (every hex of the map,
/// the best ringed, the hex as written marked) and a report whose options table names the written hex; a
/// metric the rules don't know is refused with exit 2 and nothing written.
#[test]
fn where_writes_its_answer_on_the_map_and_a_bad_metric_writes_nothing() {
    let chain = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/naval/chain-on-the-map.toml");
    let tmp = tempfile::tempdir().unwrap();
    let done = sim().current_dir(tmp.path()).arg("where").arg(&chain).assert().success();
    let text = String::from_utf8(done.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("Where the defender intercepts the malta-convoy force: 1511, where mission.completed is 55.9%")
    );
    assert!(
        text.contains(
            "wrote 4 files (where.csv, where.json, where.svg, report.html) to reports/chain-on-the-map-where"
        )
    );
    let dir = tmp.path().join("reports/chain-on-the-map-where");
    let svg = std::fs::read_to_string(dir.join("where.svg")).unwrap();
    assert_eq!(svg.matches("<polygon data-hex=").count(), 480, "every hex of the map");
    assert!(svg.contains("best: 1511 (55.9%): taranto and messina") && svg.contains("as written: 1813 (73.7%)"));
    assert!(svg.contains("<title>1511: mission.completed 55.9%</title>"));
    let csv = std::fs::read_to_string(dir.join("where.csv")).unwrap();
    assert!(csv.starts_with("option,rank,value,value_fraction,then\n") && csv.contains("\n1511,1,"));
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(report.contains("data-option=\"1511\"") && report.contains("1813 (as written)"));
    assert!(report.contains("intercept-sim where"));

    let empty = tempfile::tempdir().unwrap();
    let refused =
        sim().current_dir(empty.path()).arg("where").arg(&chain).args(["--metric", "nothing"]).assert().code(2);
    let said = String::from_utf8(refused.get_output().stderr.clone()).unwrap();
    assert!(said.contains("--metric nothing: no such metric; allowed: mission.intercepted"), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0, "nothing written");
}
