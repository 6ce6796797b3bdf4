//! `check card-game` and `run` through the command line: every seed example (SOR-S1..S5) and every derived
//! case (SOR-D1..D9) of `docs/rules/card-game-intercept.md` as a situation written in a config, with the
//! verdict and the rule that rules each other unit out; the fight `check` reports (SOR-F1, S-19); the
//! shipped configs, sampled against the exact answer; and the bad input a card-game config must refuse.

mod common;

use assert_cmd::Command;
use serde_json::Value;

/// The seed's sites: A, C and D in a row along row 1 (A two steps from D, through C), B below C; a lake
/// (a water site) at 4-2 and no site at 3-3.
const REALM: &str = r#"
[card_game.realm]
rows = ["LLLLL", "LLLWL", "LL.LL", "LLLLL"]
names = { A = "1-1", C = "2-1", D = "3-1", B = "2-2", lake = "4-2" }
"#;

/// The situation of a mover (the lines of `[card_game.mover]`) among `units` (each a `[[card_game.unit]]`
/// body), as `check card-game --json` answers it.
fn check(mover: &str, units: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("situation.toml");
    std::fs::write(&path, situation(mover, units)).unwrap();
    let out = Command::cargo_bin("intercept-sim")
        .unwrap()
        .args(["check", "card-game", "--json"])
        .arg(&path)
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).expect("JSON")
}

fn situation(mover: &str, units: &[&str]) -> String {
    let units: String = units.iter().map(|u| format!("\n[[card_game.unit]]\n{u}\n")).collect();
    format!("{REALM}\n[card_game.mover]\n{mover}\n{units}")
}

/// The only final location's answer.
fn only_end(v: &Value) -> &Value {
    let ends = v["ends"].as_array().expect("ends");
    assert_eq!(ends.len(), 1, "a declared path has one final location: {v}");
    &ends[0]
}

/// Who may intercept if the mover does not attack, in config order.
fn interceptors(v: &Value) -> Vec<String> {
    let names = only_end(v)["no_attack"]["may_intercept"].as_array().expect("no_attack").clone();
    names.iter().map(|n| n.as_str().unwrap().to_owned()).collect()
}

/// The rule that rules `unit` out of intercepting, or `None` if it may.
fn rule(v: &Value, unit: &str) -> Option<String> {
    let units = only_end(v)["no_attack"]["units"].as_array().expect("units").clone();
    let u = units.iter().find(|u| u["name"] == unit).expect("the unit");
    u["rule"].as_str().map(str::to_owned)
}

/// Nobody may intercept, and `unit` is ruled out by `rule`: the verdict of `case`.
fn nobody_may(v: &Value, unit: &str, rule_id: &str, case: &str) {
    assert!(interceptors(v).is_empty(), "{case}: {v}");
    assert_eq!(rule(v, unit).as_deref(), Some(rule_id), "{case}");
}

const WIZARD_TO_C: &str = "name = \"apprentice-wizard\"\nat = \"D\"\npath = [\"C\"]\nattack = false";
const TROLL_AT_C: &str = "name = \"bosk-troll\"\nat = \"C\"";

#[test]
fn sor_s1_intercept_as_a_deterrent() {
    let queens = ["name = \"queen-of-midland\"\nat = \"B\"", "name = \"queen-guinevere\"\nat = \"B\""];
    let v = check(WIZARD_TO_C, &[TROLL_AT_C, queens[0], queens[1]]);
    assert_eq!(interceptors(&v), ["bosk-troll"], "SOR-S1: the Troll at C may intercept");
    assert_eq!(rule(&v, "queen-of-midland").as_deref(), Some("S-5"), "SOR-S1: the queens are not at C");
    assert_eq!(rule(&v, "queen-guinevere").as_deref(), Some("S-5"));
    let attacks = check(&WIZARD_TO_C.replace("attack = false", "attack = true"), &[TROLL_AT_C]);
    let end = only_end(&attacks);
    assert!(end.get("no_attack").is_none(), "SOR-S1 variant: the Wizard attacks at C");
    assert_eq!(end["attack"]["may_intercept"], serde_json::json!([]), "no intercept (S-2)");
    assert_eq!(end["attack"]["may_defend"], serde_json::json!(["bosk-troll"]), "the Troll may defend");
}

#[test]
fn sor_s2_movement_plus_x_passes_through() {
    let nomads = "name = \"rimland-nomads\"\nat = \"D\"\nkeywords = [\"Movement +1\"]\npath = [\"C\", \"A\"]";
    let v = check(&format!("{nomads}\nattack = false"), &[TROLL_AT_C]);
    assert_eq!(only_end(&v)["at"], "A");
    nobody_may(&v, "bosk-troll", "S-5", "SOR-S2: C was only passed through (S-6)");
    let attacks = check(&format!("{nomads}\nattack = true"), &[TROLL_AT_C]);
    assert_eq!(only_end(&attacks)["attack"]["may_defend"], serde_json::json!(["bosk-troll"]), "SOR-S2 variant");
}

#[test]
fn sor_s3_the_final_location_is_key() {
    let soldier = "name = \"foot-soldier\"\nat = \"C\"\npath = [\"A\"]\nattack = false";
    let v = check(soldier, &[TROLL_AT_C]);
    nobody_may(&v, "bosk-troll", "S-5", "SOR-S3: the Troll is at the start, not the end");
}

#[test]
fn sor_s4_and_d8_only_move_and_attack() {
    let blink = "name = \"apprentice-wizard\"\nat = \"D\"\nmovement = \"teleport\"\npath = [\"C\"]";
    let v = check(blink, &[TROLL_AT_C]);
    nobody_may(&v, "bosk-troll", "S-4", "SOR-S4: a teleport is not Move and Attack");
    let pushed = "name = \"pushed\"\nat = \"D\"\nmovement = \"forced\"\npath = [\"C\"]";
    let v = check(pushed, &[TROLL_AT_C]);
    nobody_may(&v, "bosk-troll", "S-4", "SOR-D8: pushed by a spell");
}

#[test]
fn sor_s5_intercept_without_moving() {
    let unicorn = "name = \"autumn-unicorn\"\nat = \"B\"\npath = []\nattack = false";
    let v = check(unicorn, &["name = \"amazon-warriors\"\nat = \"B\""]);
    assert_eq!(interceptors(&v), ["amazon-warriors"], "SOR-S5: 0 steps, no attack (S-3)");
}

const MOVER_TO_C: &str = "name = \"mover\"\nat = \"D\"\npath = [\"C\"]\nattack = false";

#[test]
fn sor_d1_stealth() {
    let v = check(&format!("{MOVER_TO_C}\nkeywords = [\"Stealth\"]"), &[TROLL_AT_C]);
    nobody_may(&v, "bosk-troll", "S-8", "SOR-D1");
}

#[test]
fn sor_d2_d3_airborne() {
    let xyz = [
        "name = \"x\"\nat = \"C\"",
        "name = \"y\"\nat = \"C\"\nkeywords = [\"Airborne\"]",
        "name = \"z\"\nat = \"C\"\nkeywords = [\"Ranged 2\"]",
    ];
    let v = check(&format!("{MOVER_TO_C}\nkeywords = [\"Airborne\"]"), &xyz);
    assert_eq!(interceptors(&v), ["y", "z"], "SOR-D2: Airborne or Ranged only (S-9, S-10)");
    assert_eq!(rule(&v, "x").as_deref(), Some("S-9"));
    // SOR-D3: the mover dives from 4-1 into the lake's water below; S-9 holds only on the surface.
    let diver = "name = \"diver\"\nat = \"4-1\"\nkeywords = [\"Airborne\", \"Submerge\", \"Movement +1\"]\n\
                 path = [\"lake\", \"lake/underwater\"]\nattack = false";
    let w = "name = \"w\"\nat = \"lake/underwater\"\nkeywords = [\"Submerge\"]";
    let v = check(diver, &[w, "name = \"x\"\nat = \"lake\""]);
    assert_eq!(only_end(&v)["at"], "lake/underwater");
    assert_eq!(interceptors(&v), ["w"], "SOR-D3: W may intercept below the surface");
}

#[test]
fn sor_d4_another_region() {
    let mole = "name = \"mole\"\nat = \"C/underground\"\nkeywords = [\"Burrowing\"]";
    let v = check(MOVER_TO_C, &[mole]);
    nobody_may(&v, "mole", "S-5", "SOR-D4: underground is another location (S-5)");
}

#[test]
fn sor_d5_tapped() {
    let v = check(MOVER_TO_C, &["name = \"a\"\nat = \"C\"", "name = \"b\"\nat = \"C\"\nkeywords = [\"tapped\"]"]);
    assert_eq!(interceptors(&v), ["a"], "SOR-D5: A only (S-7)");
    assert_eq!(rule(&v, "b").as_deref(), Some("S-7"));
}

#[test]
fn sor_d6_one_fight() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fight.toml");
    std::fs::write(&path, situation(MOVER_TO_C, &["name = \"a\"\nat = \"C\"", "name = \"b\"\nat = \"C\""])).unwrap();
    let out = Command::cargo_bin("intercept-sim").unwrap().args(["check", "card-game"]).arg(&path).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.contains("may intercept: a, b; all that choose to fight it together in one fight (S-11)"),
        "SOR-D6: {text}"
    );
    // Run with every unit intercepting: the mover meets both in one fight in every trial.
    let out = Command::cargo_bin("intercept-sim").unwrap().args(["exact", "--json"]).arg(&path).assert().success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let rows = v["distributions"].as_array().unwrap();
    let two = rows.iter().find(|r| r["metric"] == "card_game.interceptors" && r["value"] == 2).expect("value 2");
    assert_eq!(two["exact"], 1.0, "SOR-D6: both intercept, together, in every trial: {v}");
}

#[test]
fn sor_d7_d9_unit_states() {
    let units = [
        "name = \"disabled\"\nat = \"C\"\nkeywords = [\"Disabled\"]",
        "name = \"silenced\"\nat = \"C\"\nkeywords = [\"Silenced\"]",
        "name = \"immobile\"\nat = \"C\"\nkeywords = [\"Immobile\"]",
        "name = \"fresh\"\nat = \"C\"\nkeywords = [\"summoned this turn\"]",
    ];
    let v = check(MOVER_TO_C, &units);
    assert_eq!(interceptors(&v), ["silenced", "immobile"], "SOR-D7: no / yes / yes (S-13)");
    assert_eq!(rule(&v, "disabled").as_deref(), Some("S-13"));
    assert_eq!(rule(&v, "fresh").as_deref(), Some("S-14"), "SOR-D9: summoned this turn");
}

#[test]
fn an_open_path_lists_every_final_location() {
    let v = check("name = \"nomads\"\nat = \"D\"\nkeywords = [\"Movement +1\"]\nattack = false", &[TROLL_AT_C]);
    let ends = v["ends"].as_array().unwrap();
    let at = |l: &str| ends.iter().find(|e| e["at"] == l).unwrap_or_else(|| panic!("{l} in {v}"));
    assert_eq!(at("C")["no_attack"]["may_intercept"], serde_json::json!(["bosk-troll"]));
    assert_eq!(at("A")["no_attack"]["may_intercept"], serde_json::json!([]), "two steps reach A");
    let total: f64 = ends.iter().map(|e| e["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12, "the final locations' chances add up to 1: {total}");
}

/// SOR-F1: with powers, `check` gives the fight: the Troll (3) intercepts the Wizard (1) under the default
/// policy (worth +1, S-A5); 3 >= 1 kills the Wizard, 1 < 3 leaves the Troll alive (S-11, S-12).
#[test]
fn sor_f1_check_gives_the_fight() {
    let wizard = format!("{WIZARD_TO_C}\npower = 1");
    let v = check(&wizard, &["name = \"bosk-troll\"\nat = \"C\"\npower = 3"]);
    let fight = &only_end(&v)["no_attack"]["fight"];
    assert_eq!(fight["intercept"], serde_json::json!(["bosk-troll"]), "{v}");
    assert_eq!((fight["mover_dies"].as_bool(), fight["killed"].clone()), (Some(true), serde_json::json!([])));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fight.toml");
    std::fs::write(&path, situation(&wizard, &["name = \"bosk-troll\"\nat = \"C\"\npower = 3"])).unwrap();
    let out = Command::cargo_bin("intercept-sim").unwrap().args(["check", "card-game"]).arg(&path).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.contains("fight: bosk-troll intercepts, by the policy; the mover dies; no interceptor dies (S-11, S-12)"),
        "SOR-F1: {text}"
    );
}

/// S-19: `check` shows a later mover as the board stands at the start of the turn, and says that a unit
/// that intercepted an earlier mover may not intercept it.
#[test]
fn a_later_mover_is_checked_with_the_taps_noted() {
    let later = "\n[[card_game.then]]\nname = \"ogre\"\nat = \"B\"\npath = [\"C\"]\nattack = false";
    let v = check(&format!("{WIZARD_TO_C}{later}"), &[TROLL_AT_C]);
    let then = &v["then"][0];
    assert_eq!(then["mover"], "ogre", "{v}");
    assert_eq!(then["ends"][0]["no_attack"]["may_intercept"], serde_json::json!(["bosk-troll"]));
}

const NOMADS: &str = "configs/card-game/nomads-open-path.toml";

/// Each defect, written into the shipped config, exits 2 with one line naming the file, line and key, and
/// nothing is written.
#[test]
fn a_bad_card_game_config_names_the_key() {
    let troll = "name = \"bosk-troll\"\nat = \"C\"";
    let cases = [
        (troll, "name = \"bosk-troll\"\nat = \"6-1\"", "card_game.unit.bosk-troll.at", "off the map"),
        (troll, "name = \"bosk-troll\"\nat = \"C/sky\"", "card_game.unit.bosk-troll.at", "not a region"),
        (troll, "name = \"bosk-troll\"\nat = \"C/underground\"", "card_game.unit.bosk-troll.at", "needs Burrowing"),
        ("keywords = [\"Airborne\"]", "keywords = [\"Flying\"]", "card_game.unit.wyvern.keywords.0", "not a keyword"),
        ("name = \"archer\"", "name = \"wyvern\"", "card_game.unit.2.name", "already at A"),
        (
            "keywords = [\"Movement +1\"]",
            "keywords = [\"Movement +2\"]\npath = [\"C\", \"D\", \"C\"]",
            "card_game.mover.path.2",
            "taken twice",
        ),
        (
            "keywords = [\"Movement +1\"]",
            "keywords = [\"Movement +1\"]\npath = [\"A\"]",
            "card_game.mover.path.0",
            "not adjacent",
        ),
        (
            "keywords = [\"Movement +1\"]",
            "keywords = [\"Movement +1\"]\npath = [\"C\", \"A\", \"B\"]",
            "card_game.mover.path",
            "3 steps",
        ),
        (
            "keywords = [\"Movement +1\"]",
            "keywords = [\"Movement +1\", \"tapped\"]",
            "card_game.mover.keywords",
            "tapped",
        ),
        (
            "keywords = [\"Movement +1\"]",
            "keywords = [\"Movement +1\"]\nmovement = \"teleport\"",
            "card_game.mover.movement",
            "needs its path",
        ),
        ("intercept = 0.5", "intercept = 1.5", "card_game.policy.intercept", "allowed: 0 to 1"),
        ("intercept = 0.5", "intercept = \"never\"", "card_game.policy.intercept", "not a chance from 0 to 1"),
        (troll, "name = \"bosk-troll\"\nat = \"C\"\npower = 100", "card_game.unit.bosk-troll.power", "out of range"),
        (troll, "name = \"bosk-troll\"\nat = \"C\"\nsize = \"2x3\"", "card_game.unit.bosk-troll.size", "not a size"),
        (troll, "name = \"bosk-troll\"\nat = \"5-1\"\nsize = \"2x1\"", "card_game.unit.bosk-troll.at", "off the map"),
        (
            "rows = [\"LLLLL\", \"LLWLL\", \"LL.LL\", \"LLLLL\"]",
            "rows = [\"LLLLL\", \"LLWLL\", \"LL.LL\"]",
            "card_game.realm.rows",
            "4 rows",
        ),
    ];
    for (from, to, key, says) in cases {
        let stderr = common::refused_variant(NOMADS, from, to);
        assert!(stderr.contains(&format!("key '{key}'")) && stderr.contains(says), "{to}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{to}: one line: {stderr}");
    }
}

/// The shipped configs run, write their charts of interceptors and fights per final location, and agree
/// with the exact answer, location by location, within their intervals.
#[test]
fn the_shipped_configs_chart_their_final_locations() {
    for config in ["configs/card-game/deterrent.toml", NOMADS, "configs/card-game/nomads-fight.toml"] {
        let dir = common::run_into_temp(config, 200_000);
        for name in ["final-locations.parquet", "final-locations.png", "fights-by-location.parquet", "report.html"] {
            assert!(dir.path().join(name).exists(), "{config}: {name}");
        }
        let fights = |name: &str| common::f64_column(&dir.path().join("fights-by-location.parquet"), name);
        let (low, high, exact) = (fights("ci_low"), fights("ci_high"), fights("exact"));
        let outside = (0..exact.len()).filter(|&i| !(low[i] - 1e-12..=high[i] + 1e-12).contains(&exact[i])).count();
        assert!(outside * 10 <= exact.len(), "{config}: {outside} locations miss the exact chance the mover dies");
        let col = |name: &str| common::f64_column(&dir.path().join("final-locations.parquet"), name);
        let (low, high, exact, trials) = (col("ci_low"), col("ci_high"), col("exact"), col("trials_here"));
        let outside: Vec<usize> =
            (0..exact.len()).filter(|&i| !(low[i] - 1e-12..=high[i] + 1e-12).contains(&exact[i])).collect();
        // 95% intervals: a few of the dozens of rows may miss; many would mean a broken rule.
        assert!(outside.len() * 10 <= exact.len(), "{config}: rows {outside:?} miss the exact share");
        assert!(trials.iter().all(|&t| t > 0.0), "{config}: every final location is reached");
        let page = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
        assert!(page.contains("Interceptors by final location"), "{config}: the report shows the chart");
        assert!(page.contains("Fights by final location"), "{config}: the report shows the fights");
    }
}
