//! `check step-race` through the command line: every seed example (GITM-S1..S6) and every derived case
//! (GITM-D1..D8) of `docs/rules/tactical-step-race.md`, with the verdict and, where the rules state them, the
//! interception square and step; and the bad input it must refuse.

mod common;

use assert_cmd::Command;
use serde_json::Value;

/// MX1MC at 7-7 with its box centred on 7-7, radius 3: the seed's interceptor in every example.
const MX1MC: [&str; 4] = ["--interceptor", "7-7", "--box", "7-7/3"];

fn check(args: &[&str]) -> Value {
    let out = Command::cargo_bin("intercept-sim")
        .unwrap()
        .args(["check", "step-race", "--json"])
        .args(args)
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).expect("JSON")
}

/// The verdict for `moves` against MX1MC (with `extra` arguments): `None` when not interceptable, else the
/// leg, step and square.
fn verdict(moves: &str, extra: &[&str]) -> Option<(u64, u64, String)> {
    let v = check(&[&MX1MC[..], &["--move", moves], extra].concat());
    let verdict = &v["verdict"];
    if verdict["intercepted"] == false {
        return None;
    }
    Some((verdict["leg"].as_u64()?, verdict["step"].as_u64()?, verdict["square"].as_str()?.to_owned()))
}

fn caught(leg: u64, step: u64, square: &str) -> Option<(u64, u64, String)> {
    Some((leg, step, square.to_owned()))
}

#[test]
fn seed_examples() {
    assert_eq!(verdict("5-5,5-7", &[]), caught(1, 2, "5-7"), "GITM-S1");
    assert_eq!(verdict("4-4,4-6", &[]), None, "GITM-S2: three steps to 4-6 (G-6, G-13)");
    assert_eq!(verdict("9-7,12-7", &[]), None, "GITM-S3: directly away (G-10)");
    assert_eq!(verdict("9-7,10-10", &[]), caught(1, 3, "10-10"), "GITM-S4: the box's corner (G-4 nearest rounding)");
    assert_eq!(verdict("6-6,6-7", &[]), None, "GITM-S5: one-square move (G-9)");
    assert_eq!(verdict("5-2,5-4,8-4", &[]), caught(2, 3, "8-4"), "GITM-S6: the count restarts at the waypoint (G-3)");
}

#[test]
fn the_waypoint_move_fails_its_first_leg() {
    let v = check(&[&MX1MC[..], &["--move", "5-2,5-4,8-4"]].concat());
    assert_eq!(v["legs"][0]["result"]["intercepted"], false, "GITM-S6 leg 1: 5-4 takes MX1MC three steps");
    assert_eq!(v["legs"][0]["result"]["why"], "out_of_reach");
}

#[test]
fn derived_cases() {
    assert_eq!(verdict("13-7,10-7", &[]), caught(1, 3, "10-7"), "GITM-D1: stopping exactly halfway (G-11)");
    assert_eq!(verdict("13-7,11-7", &[]), None, "GITM-D2: stopping short of halfway (G-11)");
    assert_eq!(verdict("5-5,5-9", &[]), caught(1, 2, "5-7"), "GITM-D3: the earliest step (G-7)");
    assert_eq!(verdict("4-8,12-8", &[]), caught(1, 2, "6-8"), "GITM-D4: destination outside the box (G-8)");
    assert_eq!(verdict("4-8,12-8", &["--box-filter", "destination"]), None, "GITM-D4 under the destination reading");
    assert_eq!(verdict("0-14,14-14", &[]), None, "GITM-D5: the race is won only outside the box (G-8)");
    assert_eq!(verdict("0-14,14-14", &["--box-filter", "none"]), caught(1, 7, "7-14"), "GITM-D5 with the box ignored");
    assert_eq!(verdict("5-5,5-6,5-9", &[]), caught(2, 2, "5-8"), "GITM-D6: G-9 per leg, G-3 restart");
    assert_eq!(verdict("6-6,7-5", &[]), None, "GITM-D7: one diagonal square (G-9)");
}

/// GITM-D8: 3-1 → 7-3 passes 4-1.5 at step 1, which straddles 4-1 and 4-2; either may serve (G-A2), and
/// 4-2 is one step from the unit at 4-3.
#[test]
fn a_half_square_position_may_be_either_square() {
    let v = check(&["--interceptor", "4-3", "--box", "4-3/3", "--move", "3-1,7-3"]);
    assert_eq!(v["verdict"]["square"], "4-2");
    assert_eq!(v["verdict"]["step"], 1);
}

/// G-A6: each interceptor races alone; the earliest catch wins.
#[test]
fn the_earliest_of_several_interceptors_wins() {
    let args =
        ["--interceptor", "7-7", "--interceptor", "5-10", "--box", "7-7/3", "--box", "5-10/3", "--move", "5-5,5-9"];
    let v = check(&args);
    assert_eq!((v["verdict"]["by"].as_str(), v["verdict"]["step"].as_u64()), (Some("7-7"), Some(2)));
    let args = ["--interceptor", "7-7", "--interceptor", "5-6", "--box", "7-7/3", "--move", "5-5,5-9"];
    let v = check(&args);
    assert_eq!((v["verdict"]["by"].as_str(), v["verdict"]["square"].as_str()), (Some("5-6"), Some("5-6")));
}

#[test]
fn bad_input_exits_2_naming_the_key() {
    let cases: [(&[&str], &str); 6] = [
        (&["--interceptor", "15-3", "--box", "7-7/3", "--move", "5-5,5-7"], "--interceptor"),
        (&["--interceptor", "7-7", "--box", "7-7/3", "--move", "5-5,5-15"], "--move"),
        (&["--interceptor", "7-7", "--box", "7-7/3", "--move", "5-2,5-2,8-4"], "a waypoint must differ"),
        (&["--interceptor", "7-7", "--box", "7-7/3", "--move", "5-2"], "allowed: start,end or start,waypoint,end"),
        (&["--interceptor", "7-7", "--box", "7-7", "--move", "5-5,5-7"], "--box"),
        (
            &[
                "--interceptor",
                "7-7",
                "--interceptor",
                "6-6",
                "--box",
                "7-7/3",
                "--box",
                "6-6/2",
                "--box",
                "1-1/1",
                "--move",
                "5-5,5-7",
            ],
            "3 boxes for 2 interceptors",
        ),
    ];
    for (args, message) in cases {
        let out = Command::cargo_bin("intercept-sim").unwrap().args(["check", "step-race"]).args(args).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

const BOX_CORNER: &str = "configs/step-race/box-corner.toml";

/// The seed's situation as a coverage map (US1IN from 9-7 to every square): the map agrees square by square
/// with the seed examples that start on 9-7, exactly and by Monte Carlo.
#[test]
fn the_coverage_map_agrees_with_the_seed_examples() {
    let dir = common::run_into_temp(BOX_CORNER, 200_000);
    for name in ["coverage.parquet", "coverage.png", "coverage.svg", "report.html"] {
        assert!(dir.path().join(name).exists(), "{name}");
    }
    let col = |name: &str| common::f64_column(&dir.path().join("coverage.parquet"), name);
    let (cols, rows, exact, estimate) = (col("col"), col("row"), col("exact"), col("estimate"));
    let at = |c: f64, r: f64| (0..cols.len()).find(|&i| cols[i] == c && rows[i] == r).expect("a destination");
    assert_eq!(cols.len(), 224, "every square but the start");
    assert_eq!(exact[at(10.0, 10.0)], 1.0, "GITM-S4: 9-7 to 10-10 is intercepted");
    assert_eq!(exact[at(12.0, 7.0)], 0.0, "GITM-S3: 9-7 to 12-7 runs directly away");
    assert_eq!(exact[at(8.0, 7.0)], 0.0, "G-9: a one-square move");
    let differ: Vec<String> = (0..cols.len())
        .filter(|&i| (estimate[i] - exact[i]).abs() > 1e-12)
        .map(|i| format!("{}-{}: {} vs {}", cols[i], rows[i], estimate[i], exact[i]))
        .collect();
    assert!(differ.is_empty(), "one start, no waypoint: every trial to a square agrees: {differ:?}");
    let page = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(page.contains("Coverage map"), "the report shows the map");
}

#[test]
fn a_bad_step_race_config_names_the_key() {
    let cases = [
        ("at = \"7-7\"", "at = \"15-3\"", "step_race.interceptor.mx1mc.at"),
        ("box = \"7-7/3\"", "box = \"7-7/-1\"", "step_race.interceptor.mx1mc.box"),
        ("start = \"9-7\"", "start = \"9-7\"\nwaypoint = 1.5", "step_race.mover.waypoint"),
        ("destination = \"7-7/7\"", "destination = \"9-7\"", "step_race.mover.destination"),
        ("name = \"mx1mc\"", "name = \"mx1mc\"\nspeed = 2", "speed"),
    ];
    for (from, to, key) in cases {
        let stderr = common::refused_variant(BOX_CORNER, from, to);
        assert!(stderr.contains(key), "{to}: {stderr}");
    }
}
