//! `solve`: the value of a whole-number key that meets a target, every value solved exactly. The answers are
//! worked by hand from the naval reach table (N-7, N-8): one group `d` hexes from its interception hex
//! reaches it when the sum of its dice is at least `d`, so at 7 hexes 0 or 1 die never reach (a die shows at
//! most 6), 2 dice reach 21 times in 36 (7/12), 3 dice 1 - 20/216 = 49/54, 4 dice 1 - 15/1296 = 427/432,
//! 5 dice 1 - 6/7776 = 1295/1296, 6 dice 1 - 1/6^6 = 46655/46656, and 7 or 8 dice always (their least sum is
//! 7 or more).
//!
//! A decimal key's answers are worked by hand from the combat rules (N-16): one group 1 hex out always
//! reaches and fights; each round the combat ends with chance `e` (`p_end_after_round`), and after the third
//! it ends anyway, so it lasts 1 round with chance e, 2 with (1 - e) e and 3 with (1 - e)^2, a mean of
//! 1 + u + u^2 with u = 1 - e, which is 3 - 3e + e^2. It is at least 2 rounds when u^2 + u - 1 >= 0, that
//! is u >= (sqrt 5 - 1) / 2: e at most (3 - sqrt 5) / 2 = 0.3819660112..., where the slope is
//! 2e - 3 = -sqrt 5. The mission completes when the interceptor loses, 1 - p with `p_intercepting_side_wins`
//! = p: at most 1/3 when p is at least 2/3, exactly.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// A naval scenario of one group `distance` hexes out whose dice are set by `base_dice.sea_transport`.
fn one_group(dir: &Path, distance: u32) -> PathBuf {
    let path = dir.join(format!("reach-{distance}.toml"));
    let config = format!(
        "[run]\nname = \"reach\"\n\n[naval]\ntheater = \"europe\"\n\n[naval.mission]\nname = \"mission\"\n\
         activity = \"sea_transport\"\nfactors = 20\n\n[[naval.group]]\nname = \"g\"\ntarget = \"mission\"\n\
         distance = {distance}\nfactors = 20\n\n[naval.rules.base_dice]\nsea_transport = 3\n"
    );
    std::fs::write(&path, config).unwrap();
    path
}

/// The command, run in `cwd` so that its output folder (`reports/...`) lands there.
fn sim(cwd: &Path) -> Command {
    let mut command = Command::cargo_bin("intercept-sim").unwrap();
    command.current_dir(cwd);
    command
}

fn solve(config: &Path, target: &str) -> Value {
    let out = sim(config.parent().unwrap())
        .arg("solve")
        .arg(config)
        .args(["--target", target, "--vary", "naval.rules.base_dice.sea_transport=0..8", "--json"])
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).expect("JSON")
}

fn fractions(v: &Value) -> Vec<String> {
    v["points"].as_array().unwrap().iter().map(|p| p["exact_fraction"].as_str().unwrap().to_owned()).collect()
}

/// The reach table's row at 7 hexes, and the fewest dice that reach at least half the time: 2 (7/12).
#[test]
fn an_integer_key_is_answered_from_the_reach_table() {
    let dir = tempfile::tempdir().unwrap();
    let v = solve(&one_group(dir.path(), 7), "group.g.reached>=1/2");
    let table = ["0", "0", "7/12", "49/54", "427/432", "1295/1296", "46655/46656", "1", "1"];
    assert_eq!(fractions(&v), table);
    let meets: Vec<i64> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["meets"] == true)
        .map(|p| p["value"].as_i64().unwrap())
        .collect();
    assert_eq!(meets, (2..=8).collect::<Vec<_>>());
    let answer = v["answer"].as_str().unwrap();
    let said = "group.g.reached is at least 50.0% (1/2) when naval.rules.base_dice.sea_transport is 2..8: 2 gives \
                58.3% (7/12), 3 gives 90.7% (49/54), 4 gives 98.8% (427/432), 5 gives 99.9% (1295/1296), 6 gives \
                >99.9% (46655/46656), any of 7..8 gives 100.0% (1).";
    assert_eq!(answer, said);
}

/// Runs of equal chance are named once: 0 and 1 die never reach, 7 and 8 always do.
#[test]
fn plateaus_are_named_as_runs() {
    let dir = tempfile::tempdir().unwrap();
    let v = solve(&one_group(dir.path(), 7), "group.g.reached<=0");
    let answer = v["answer"].as_str().unwrap();
    assert!(answer.ends_with("is 0..1: any of 0..1 gives 0.0% (0)."), "{answer}");
    let plateaus = v["plateaus"].as_array().unwrap();
    assert_eq!(
        (plateaus.last().unwrap()["from"].as_i64(), plateaus.last().unwrap()["to"].as_i64()),
        (Some(7), Some(8))
    );
}

/// No number of dice gives exactly 0.6: it lies between 2 dice (7/12, the closest) and 3 (49/54).
#[test]
fn an_exact_target_no_value_hits_is_bracketed() {
    let dir = tempfile::tempdir().unwrap();
    let v = solve(&one_group(dir.path(), 7), "group.g.reached=0.6");
    assert_eq!(v["bracket"], serde_json::json!([2, 3]));
    assert_eq!(v["closest"], 2);
    let answer = v["answer"].as_str().unwrap();
    assert!(answer.contains("The value lies between 2 (7/12) and 3 (49/54)"), "{answer}");
}

/// At 60 hexes even 8 dice (at most 48) never reach: no value meets the target, said so with exit 0, and
/// the closest named.
#[test]
fn a_target_no_value_reaches_is_said_with_the_closest() {
    let dir = tempfile::tempdir().unwrap();
    let v = solve(&one_group(dir.path(), 60), "group.g.reached>=1/2");
    let answer = v["answer"].as_str().unwrap();
    let said = "No value of naval.rules.base_dice.sea_transport from 0 to 8 gives group.g.reached at least 50.0% \
                (1/2); the closest: any of 0..8 gives 0.0% (0).";
    assert_eq!(answer, said);
}

/// A range wider than the key allows is scanned where the rules accept it, the rest listed: base dice go
/// from 0 to 8 (N-4).
#[test]
fn values_the_rules_refuse_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let out = sim(dir.path())
        .arg("solve")
        .arg(one_group(dir.path(), 7))
        .args(["--target", "group.g.reached>=1/2", "--vary", "naval.rules.base_dice.sea_transport=6..10", "--json"])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["refused"], serde_json::json!([9, 10]));
    assert_eq!(fractions(&v), ["46655/46656", "1", "1"]);
}

/// Bad input: one line naming what is wrong, exit 2, nothing on stdout.
#[test]
fn bad_targets_and_keys_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let config = one_group(dir.path(), 7);
    for (target, vary, said) in [
        ("group.g.reached>=half", "naval.rules.base_dice.sea_transport", "is not a target"),
        ("nosuch>=1/2", "naval.rules.base_dice.sea_transport", "no such metric"),
        (">=1/2", "naval.rules.base_dice.sea_transprt", "did you mean"),
        (">=1/2", "naval.theater", "not a number of the config"),
        (">=1/2", "naval.rules.base_dice.sea_transport=0.5..2", "is a whole number"),
        (">=1/2", "naval.combat.p_end_after_round=0..1.00000000001", "at most 10 decimals"),
        (">=1/2", "naval.combat.p_end_after_round=0..2", "the rules refuse"),
        (">=1/2", "naval.rules.base_dice.sea_transport=5..2", "is not a key to vary"),
        (">=1/2", "naval.rules.base_dice.sea_transport=0..5000", "at most 1000 values long"),
    ] {
        let out = sim(dir.path())
            .arg("solve")
            .arg(&config)
            .args(["--target", target, "--vary", vary])
            .assert()
            .code(2)
            .stdout("");
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(err.contains(said) && err.lines().count() == 1, "{target} {vary}: {err}");
    }
}

/// The chance of ending a round that makes one combat last 2 rounds on average: (3 - sqrt 5) / 2, an
/// irrational root given in an exact interval, with the slope -sqrt 5 there.
#[test]
fn a_chance_key_is_answered_by_the_root_of_its_polynomial() {
    let dir = tempfile::tempdir().unwrap();
    let v = solve_key(&one_group(dir.path(), 1), "combat.rounds>=2", "naval.combat.p_end_after_round");
    assert_eq!(v["numerator"], serde_json::json!(["3", "-3", "1"]));
    assert_eq!(v["base"], serde_json::json!(["1"]));
    let root = &v["roots"][0];
    let end = |k: &str| root[k].as_str().unwrap().parse::<num_rational::BigRational>().unwrap();
    // e < (3 - sqrt 5) / 2 exactly when (3 - 2e)^2 > 5, for e below 3/2.
    let past = |e: &num_rational::BigRational| {
        let s =
            num_rational::BigRational::from_integer(3.into()) - e * num_rational::BigRational::from_integer(2.into());
        &s * &s > num_rational::BigRational::from_integer(5.into())
    };
    assert!(past(&end("lo")) && !past(&end("hi")), "{root}");
    assert!((root["slope"].as_f64().unwrap() + 5f64.sqrt()).abs() < 1e-6);
    let said = "combat.rounds is at least 2 when naval.combat.p_end_after_round is at most 0.381966 (in [0.38196600, \
                0.38196602], slope -2.2361).";
    assert_eq!(v["answer"], said);
}

/// A root that is a fraction is found exactly, and a key the metric does not depend on is said so.
#[test]
fn a_fraction_root_is_exact_and_a_key_that_does_not_matter_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let config = one_group(dir.path(), 1);
    let v = solve_key(&config, "mission.completed<=1/3", "naval.combat.p_intercepting_side_wins");
    let said = "mission.completed is at most 33.3% (1/3) when naval.combat.p_intercepting_side_wins is at least \
                0.666667 (2/3 exactly, slope -1.0000).";
    assert_eq!(v["answer"], said);
    assert_eq!(v["roots"][0]["exact"], "2/3");
    let v = solve_key(&config, "mission.completed=1/2", "naval.combat.p_end_after_round=0.2..0.8");
    let said = "naval.combat.p_end_after_round does not change mission.completed in this scenario: \
                mission.completed is 50.0% (1/2) whatever its value, so it is exactly 50.0% (1/2) for every \
                naval.combat.p_end_after_round from 0.2 to 0.8. The rules do read it: it changes combat.rounds, only \
                not mission.completed.";
    assert_eq!(v["answer"], said);
    // No air attacks: the chance of turning back is never read at all.
    let v = solve_key(&config, "mission.completed=1/2", "naval.air.p_turn_back");
    let said = "It changes none of the scenario's metrics: under the readings the scenario rests on, the rules do \
                not read it.";
    assert!(v["answer"].as_str().unwrap().ends_with(said), "{v}");
}

/// Issue 51 item 7: a key the scenario's readings pass by is said to change nothing, and why, not answered
/// as "a polynomial of degree 0". Under the strength combat of operation-harpoon each round goes by the
/// factors present, so the fixed chance of winning is never read (N-16.4).
#[test]
fn a_key_the_readings_pass_by_is_said_to_change_nothing_and_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = sim(root)
        .args(["solve", "configs/naval/operation-harpoon.toml", "--target", "<=1/2", "--vary"])
        .args(["naval.combat.p_intercepting_side_wins", "--out"])
        .arg(tempfile::tempdir().unwrap().path().join("o"))
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let said = "naval.combat.p_intercepting_side_wins does not change mission.completed in this scenario: \
                mission.completed is 36.2% (134981354991587/373248000000000) whatever its value, so it is at most \
                50.0% (1/2) for every naval.combat.p_intercepting_side_wins from 0.0 to 1.0. Under \
                naval.combat.model = \"strength\" each round goes to the side the ratio of the factors present \
                favours (A-18), so the fixed chance naval.combat.p_intercepting_side_wins is never read (N-16.4).";
    assert!(text.starts_with(said), "{text}");
    assert!(text.contains("mission.completed is the same at every value of the key"), "{text}");
    assert!(!text.contains("degree 0"), "{text}");
}

/// operation-harpoon with 6 rounds of combat: a tree of 567,142,028 leaves that merging states solves in a
/// fraction of a second. Issue 51 item 7: a search is costed by the work its solves take, not by leaves a
/// merged solve never walks (which it refused, and which can pass 2^64 and printed as
/// 18446744073709551615); a search whose first value says the whole would pass the budget is refused,
/// naming its cost and advising a narrower range.
#[test]
fn a_search_is_costed_by_the_work_of_its_solves() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/naval/operation-harpoon.toml"))
            .unwrap();
    assert!(text.contains("\nmax_rounds = 3"));
    let config = dir.path().join("harpoon-6.toml");
    std::fs::write(&config, text.replace("\nmax_rounds = 3", "\nmax_rounds = 6")).unwrap();
    let v = solve_key(&config, "<=1/2", "naval.rules.codebreaking=0..2");
    assert_eq!(v["points"].as_array().unwrap().len(), 3, "{v}");
    let out = sim(dir.path())
        .arg("solve")
        .arg(&config)
        .args(["--target", "<=1/2", "--vary", "naval.group.palermo.factors=1..999", "--out"])
        .arg(dir.path().join("refused"))
        .assert()
        .code(2);
    let said = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(said.contains("--vary naval.group.palermo.factors: 999 values, the first of which took about "), "{said}");
    assert!(
        said.contains("units of exact work, more than the 1,600,000,000 a search may; narrow the range (KEY=LO..HI)"),
        "{said}"
    );
    assert!(!said.contains("18446744073709551615") && said.lines().count() == 1, "{said}");
    assert!(!dir.path().join("refused").exists(), "a refused search writes nothing");
}

fn solve_key(config: &Path, target: &str, vary: &str) -> Value {
    let out = sim(config.parent().unwrap())
        .arg("solve")
        .arg(config)
        .args(["--target", target, "--vary", vary, "--json"])
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).expect("JSON")
}

/// Two keys: for each number of dice, the distances reached at least half the time. One die reaches d
/// hexes with chance (7 - d)/6, at least 1/2 up to 4; two dice reach 7 with 21/36 but 8 with 15/36; three
/// dice, whose sum is symmetric about 10.5, reach 11 with exactly 1/2; no die never reaches.
#[test]
fn two_keys_give_the_frontier_of_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let out = sim(dir.path())
        .arg("solve")
        .arg(one_group(dir.path(), 7))
        .args(["--target", "group.g.reached>=1/2", "--vary", "naval.rules.base_dice.sea_transport=0..3"])
        .args(["--vary", "naval.group.g.distance=1..12", "--json"])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let meeting: Vec<&Value> = v["rows"].as_array().unwrap().iter().map(|r| &r["meeting"]).collect();
    assert_eq!(meeting, [&Value::Null, &"1..4".into(), &"1..7".into(), &"1..11".into()]);
    let said = "group.g.reached is at least 50.0% (1/2) when naval.rules.base_dice.sea_transport is 1 and \
                naval.group.g.distance is 1..4, 2 and naval.group.g.distance is 1..7 or 3 and \
                naval.group.g.distance is 1..11; with naval.rules.base_dice.sea_transport 0 no value of \
                naval.group.g.distance does.";
    assert_eq!(v["answer"], said);
}

/// The run folder: the table as Parquet, the chart, the report with the answer, and a manifest whose command
/// gives the same answer again.
#[test]
fn a_solve_writes_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let config = one_group(dir.path(), 1);
    let out = dir.path().join("out");
    let printed = sim(dir.path())
        .arg("solve")
        .arg(&config)
        .args(["--target", "combat.rounds>=2", "--vary", "naval.combat.p_end_after_round", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&printed.get_output().stdout).into_owned();
    assert!(
        stdout.ends_with(&format!(
            "wrote 5 files (solve.parquet, solve.png, solve.svg, report.html, manifest.json) to {}\n",
            out.display()
        )),
        "{stdout}"
    );
    for file in ["solve.parquet", "solve.png", "solve.svg", "report.html", "manifest.json"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let manifest: Value = serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    let answer = manifest["solve"]["answer"].as_str().unwrap();
    assert!(stdout.starts_with(answer), "{answer}");
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("lies in") && report.contains("3, -3, 1"), "the roots and the polynomial");
    let command = manifest["command"].as_str().unwrap();
    let words: Vec<String> = command.split(' ').skip(2).map(|w| w.trim_matches('\'').to_owned()).collect();
    let again = sim(dir.path())
        .args(["solve"])
        .args(&words)
        .args(["--json", "--out"])
        .arg(dir.path().join("again"))
        .assert()
        .success();
    let again: Value = serde_json::from_slice(&again.get_output().stdout).unwrap();
    assert_eq!(again["answer"], answer);
    use polars::prelude::{ParquetReader, SerReader};
    let frame = ParquetReader::new(std::fs::File::open(out.join("solve.parquet")).unwrap()).finish().unwrap();
    let names: Vec<String> = frame.get_column_names().iter().map(|n| n.to_string()).collect();
    assert_eq!(names, ["naval.combat.p_end_after_round", "exact", "exact_fraction", "meets"]);
    assert_eq!(frame.height(), 11);
}

/// A tree too large to solve exactly (here made so with run.max_exact_leaves = 2) is bisected by sampling:
/// the boundary falls between 1 die (never reaches 7 hexes) and 2 (7/12), and every value's 95% interval
/// holds its exact chance from the reach table.
#[test]
fn a_tree_too_large_is_bisected_by_sampling() {
    let dir = tempfile::tempdir().unwrap();
    let config = one_group(dir.path(), 7);
    let text = std::fs::read_to_string(&config).unwrap();
    let text = text.replace("[run]\n", "[run]\nmax_exact_leaves = 2\ntrials = 100000\nseed = 7\n");
    std::fs::write(&config, text).unwrap();
    let v = solve(&config, "group.g.reached>=1/2");
    assert_eq!(v["method"], "sampled");
    let exact = [0.0, 0.0, 7.0 / 12.0, 49.0 / 54.0, 427.0 / 432.0, 1295.0 / 1296.0, 46655.0 / 46656.0, 1.0, 1.0];
    let probes = v["probes"].as_array().unwrap();
    for p in probes {
        let at = exact[p["value"].as_u64().unwrap() as usize];
        let (low, high) = (p["ci_low"].as_f64().unwrap(), p["ci_high"].as_f64().unwrap());
        assert!(low <= at && at <= high, "{p}");
    }
    let verdict = |value: u64| probes.iter().find(|p| p["value"] == value).map(|p| p["verdict"].clone());
    assert_eq!((verdict(1), verdict(2)), (Some("fails".into()), Some("meets".into())));
    let answer = v["answer"].as_str().unwrap();
    assert!(
        answer.contains("is at least 50.0% (1/2) when naval.rules.base_dice.sea_transport is 2..8: 2 gives 58.3%"),
        "{answer}"
    );
}
