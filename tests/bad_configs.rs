//! Bad configs are refused before any work starts, with one line that names the file, the line and the key,
//! and says what is allowed.
//!
//! Every file in `tests/bad_configs/` is a near-copy of a valid cavalry or naval config with exactly one defect; the
//! [`CASES`] table says where each message must point. The binary runs in an empty temporary folder, so any
//! output it wrongly wrote would show up there as `reports/`.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

/// One bad config and what its error message must say.
struct Case {
    /// File name in `tests/bad_configs/`.
    file: &'static str,
    /// The line the message points at, or `None` where no line makes sense (a table missing from the file).
    line: Option<usize>,
    /// The key the message names, or `None` where there is no key (text that is not TOML at all).
    key: Option<&'static str>,
    /// Other words the message must contain: what is wrong and what is allowed.
    says: &'static [&'static str],
}

const fn case(
    file: &'static str,
    line: Option<usize>,
    key: Option<&'static str>,
    says: &'static [&'static str],
) -> Case {
    Case { file, line, key, says }
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Unknown keys: serde lists the keys that are allowed.
    case("unknown_key_top_level.toml", Some(2), Some("verbose"), &["unknown field `verbose`", "`run`, `cavalry`, `naval`"]),
    case("unknown_key_in_target.toml", Some(36), Some("cavalry.target.moral"), &["unknown field `moral`", "`morale`"]),
    case("unknown_key_in_interceptor.toml", Some(28), Some("cavalry.interceptor.rupert-horse.speed"), &["unknown field `speed`", "`distance`"]),
    // Wrong types.
    case("wrong_type_morale_string.toml", Some(34), Some("cavalry.target.morale"), &["string \"six\"", "expected an integer"]),
    case("wrong_type_bool_string.toml", Some(20), Some("cavalry.interceptor.lifeguard.can_move_adjacent"), &["string \"yes\"", "true or false"]),
    case("wrong_type_distance_float.toml", Some(27), Some("cavalry.interceptor.rupert-horse.distance"), &["2.5", "expected an integer"]),
    case("interceptor_as_table.toml", Some(15), Some("cavalry.interceptor"), &["expected an array", "[[cavalry.interceptor]]"]),
    case("trials_too_large.toml", Some(4), Some("run.trials"), &["99999999999999999999", "out of range", "9223372036854775807"]),
    case("max_exact_leaves_too_large.toml", Some(4), Some("run.max_exact_leaves"), &["10000001 is out of range", "allowed: 1 to 10000000"]),
    // Names that are not one of the choices.
    case("unknown_order_gallop.toml", Some(26), Some("cavalry.interceptor.rupert-horse.order"), &["`gallop`", "expected one of `charge`, `make_ready`, `receive_charge`, `rally`"]),
    case("unknown_kind_dragon.toml", Some(31), Some("cavalry.target.kind"), &["`dragon`", "`artillery`", "`heavy_infantry`"]),
    case("unknown_ends_in_left.toml", Some(22), Some("cavalry.interceptor.lifeguard.ends_in"), &["`left`", "`front`, `flank`, `rear`"]),
    case("unknown_formation.toml", Some(33), Some("cavalry.target.formation"), &["`square`", "`hedgehog`"]),
    // Numbers out of range.
    case("cavalry_fire_chances_not_one.toml", Some(38), Some("cavalry.fire.cavalry"), &["add up to 0.9", "allowed: they add up to 1"]),
    case("morale_11.toml", Some(34), Some("cavalry.target.morale"), &["11", "allowed: 0 to 10"]),
    case("negative_leader.toml", Some(35), Some("cavalry.target.leader"), &["-1", "allowed: 0 to 9"]),
    case("cavalry_light_infantry_hedgehog.toml", Some(35), Some("cavalry.target.reaction"), &["only heavy infantry forms hedgehog (C-8.1)", "light infantry unit", "allowed for it: \"fire\""]),
    case("cavalry_leader_in_hedgehog.toml", Some(33), Some("cavalry.target.formation"), &["only heavy infantry forms hedgehog (C-8.1)", "a leader", "allowed for it: normal"]),
    case("extra_checks_negative.toml", Some(36), Some("cavalry.target.extra_checks"), &["-2", "allowed: 0 to 9"]),
    case("table_threshold_10.toml", Some(11), Some("cavalry.table.charge"), &["10", "allowed: 0 to 9"]),
    case("distance_zero.toml", Some(19), Some("cavalry.interceptor.lifeguard.distance"), &["0", "allowed: 1 to 99"]),
    case("max_distance_zero.toml", Some(9), Some("cavalry.max_distance"), &["0", "allowed: 1 to 99"]),
    case("trials_zero.toml", Some(4), Some("run.trials"), &["0 is too small", "allowed: 1 or more"]),
    case("negative_seed.toml", Some(5), Some("run.seed"), &["-1 is too small", "allowed: 0 or more"]),
    // Names: unique, and safe as folder and metric names.
    case("duplicate_interceptor_names.toml", Some(25), Some("cavalry.interceptor.1.name"), &["duplicate interceptor name \"lifeguard\"", "unique"]),
    case("run_name_parent_dir.toml", Some(3), Some("run.name"), &["\"../x\" is not allowed", "letters, digits"]),
    case("run_name_absolute.toml", Some(3), Some("run.name"), &["\"/abs\" is not allowed", "no '/'"]),
    case("interceptor_name_slash.toml", Some(25), Some("cavalry.interceptor.rupert/horse.name"), &["\"rupert/horse\" is not allowed", "no '/'"]),
    case("interceptor_name_space.toml", Some(16), Some("cavalry.interceptor.life guard.name"), &["\"life guard\" is not allowed", "letters, digits"]),
    // Missing keys and tables: the line is the table the key belongs in.
    case("missing_target_table.toml", Some(7), Some("cavalry.target"), &["missing", "required"]),
    case("missing_target_no_cavalry_header.toml", Some(7), Some("cavalry.target"), &["missing", "required"]),
    case("missing_target_morale.toml", Some(30), Some("cavalry.target.morale"), &["missing", "required"]),
    case("missing_interceptor_order.toml", Some(24), Some("cavalry.interceptor.rupert-horse.order"), &["missing", "required"]),
    case("no_interceptor.toml", Some(7), Some("cavalry.interceptor"), &["at least one [[cavalry.interceptor]] is required"]),
    case("no_model_table.toml", None, Some("cavalry"), &["the file has no rule-set table", "[cavalry], [naval], [step_race], [card_game] or [board]"]),
    // Naval: targets, depth, ranges (issue 3).
    case("naval_self_target.toml", Some(21), Some("naval.group.escort.target"), &["targets itself"]),
    case("naval_unknown_target.toml", Some(21), Some("naval.group.escort.target"), &["unknown target \"bismarck\"", "allowed: convoy, brest, escort"]),
    case("naval_cycle.toml", Some(15), Some("naval.group.brest.target"), &["cycle"]),
    case("naval_same_side.toml", Some(22), Some("naval.group.escort.side"), &["this side too", "other side"]),
    case("naval_deeper_than_max_depth.toml", Some(27), Some("naval.group.third.target"), &["level 3", "max_depth = 2 (N-11.2)", "allowed: a max_depth of 3 or more"]),
    case("naval_target_is_submarine.toml", Some(19), Some("naval.group.escort.target"), &["\"u-boats\" is a submarine group", "cannot be intercepted (N-1.8)"]),
    case("naval_negative_distance.toml", Some(16), Some("naval.group.brest.distance"), &["allowed: 0 to 99"]),
    case("naval_probability_above_one.toml", Some(26), Some("naval.combat.p_intercepting_side_wins"), &["allowed: 0 to 1"]),
    case("naval_unknown_activity.toml", Some(10), Some("naval.mission.activity"), &["unknown variant `fishing`", "`sea_transport`"]),
    case("naval_target_on_return_leg.toml", Some(22), Some("naval.group.escort.target"), &["return leg", "nothing may intercept it"]),
    case("naval_defer_without_counter.toml", Some(21), Some("naval.group.lorient.defer_to"), &["no group counter-intercepts \"brest\""]),
    case("naval_patrol_counter_away.toml", Some(20), Some("naval.group.home-fleet.origin"), &["N-7.2", "only at an interception hex", "at_interception_hex = true"]),
    case("naval_dice_rule_out_of_range.toml", Some(26), Some("naval.rules.max_dice"), &["allowed: 0 to 8"]),
    case("naval_return_hex_beyond_limit.toml", Some(21), Some("naval.group.lorient.return_hex"), &["2 is out of range", "allowed: 1 to naval.way_home.max_interceptions = 1", "A-20"]),
    case("naval_band_ratio_not_rising.toml", Some(25), Some("naval.combat.band.1.ratio"), &["bands must rise", "allowed: above 0"]),
    case("naval_defer_along_beyond_distance.toml", Some(23), Some("naval.group.st-nazaire.defer_along"), &["9 is out of range", "allowed: 0 to 5"]),
    // Naval on a map (issue 52): the map, the route, bases and hexes, each refused naming the hex or key.
    case("naval_map_ragged_row.toml", Some(10), Some("naval.map.grid"), &["row 03 has 7 hexes where the first row has 8"]),
    case("naval_map_unknown_token.toml", Some(10), Some("naval.map.grid"), &["hex 0303: unknown token \"x\"", "allowed: '~' sea, '#' land, '=' strait"]),
    case("naval_map_bad_first.toml", Some(9), Some("naval.map.first"), &["\"A1\" is not a hex label", "as \"0101\""]),
    case("naval_map_port_inland.toml", Some(18), Some("naval.map.ports.east"), &["hex 0305", "has no sea beside it"]),
    case("naval_map_port_on_sea.toml", Some(18), Some("naval.map.ports.east"), &["hex 0302", "on open water", "coastal land hex"]),
    case("naval_map_port_off_map.toml", Some(18), Some("naval.map.ports.east"), &["\"0909\" is not a hex of the map", "allowed: labels 0101 to 0805"]),
    case("naval_map_duplicate_name.toml", Some(19), Some("naval.map.straits.home"), &["also the name of one of the ports", "its own name"]),
    case("naval_map_unnamed_strait.toml", Some(19), Some("naval.map.straits"), &["hex 0502", "a strait hex ('=') with no name"]),
    case("naval_map_box_on_land.toml", Some(20), Some("naval.map.boxes.ocean.joins"), &["hex 0101", "this one is land"]),
    case("naval_map_box_no_spaces.toml", Some(20), Some("naval.map.boxes.ocean.spaces"), &["0 is out of range", "allowed: 1 to 20"]),
    case("naval_map_file_missing.toml", Some(9), Some("naval.map.file"), &["cannot read \"nowhere.hexmap\""]),
    case("naval_map_file_and_grid.toml", Some(11), Some("naval.map.grid"), &["the map comes from file", "or the whole map here without file"]),
    case("naval_map_with_distance.toml", Some(32), Some("naval.group.raider.distance"), &["comes from the map", "leave it out"]),
    case("naval_theater_contradiction.toml", Some(6), Some("naval.theater"), &["the map shows europe", "leave naval.theater out"]),
    case("naval_unknown_closed_strait.toml", Some(17), Some("naval.map.closed_straits"), &["\"suez\" is not a strait of the map", "allowed: gap"]),
    case("naval_route_on_land.toml", Some(24), Some("naval.mission.route"), &["entry 4 (0503) is land"]),
    case("naval_route_not_adjacent.toml", Some(24), Some("naval.mission.route"), &["entry 4 (0502) is not one move from entry 3 (0302)"]),
    case("naval_route_through_port.toml", Some(24), Some("naval.mission.route"), &["entry 3 (home) is a port's hex", "never sails through one"]),
    case("naval_route_twice.toml", Some(24), Some("naval.mission.route"), &["entry 5 (0302) is entered twice"]),
    case("naval_route_closed_strait.toml", Some(24), Some("naval.mission.route"), &["entry 5 (0502) is the strait \"gap\"", "closed_straits closes"]),
    case("naval_route_without_map.toml", Some(12), Some("naval.mission.route"), &["applies only with a [naval.map]"]),
    case("naval_base_not_port.toml", Some(29), Some("naval.group.raider.base"), &["\"0302\" holds no port", "east, home"]),
    case("naval_intercept_off_route.toml", Some(30), Some("naval.group.raider.intercept_at"), &["0303 is not on the mission force's route", "allowed: 0202, 0302", "N-2.2"]),
    case("naval_two_hexes_one_force.toml", Some(37), Some("naval.group.second.intercept_at"), &["second meets mission at 0702, but raider at 0302", "one hex (N-2.2)"]),
    // Keys that do nothing in their combination are refused, naming what they need (issue 36 items 11, 12).
    case("naval_abandon_after_without_after_rolls.toml", Some(11), Some("naval.delayed.abandon_after"), &["applies only with naval.delayed.abandon = \"after_rolls\"", "N-15.1"]),
    case("naval_defer_distance_without_defer_to.toml", Some(15), Some("naval.group.brest.defer_distance"), &["applies only to a group that defers, with defer_to"]),
    case("naval_retarget_distance_without_retarget.toml", Some(15), Some("naval.group.brest.retarget_distance"), &["applies only with naval.delayed.retarget = true", "A-9"]),
    case("naval_return_leg_defers.toml", Some(22), Some("naval.group.lorient.defer_to"), &["leg = \"return\" cannot defer", "N-14.1"]),
    // Not TOML at all.
    case("not_toml.toml", Some(1), None, &["not valid TOML", "key = value"]),
    case("unclosed_string.toml", Some(25), Some("cavalry.interceptor.1.name"), &["not valid TOML", "unclosed string"]),
    case("run_unknown_draws.toml", Some(11), Some("run.draws"), &["unknown variant `fast`", "expected `paired` or `packed`"]),
    case("duplicate_key.toml", Some(36), Some("cavalry.target.morale"), &["not valid TOML", "duplicate key"]),
];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_configs")
}

/// The binary, run with `args` in the empty folder `dir`.
fn sim(dir: &TempDir, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("intercept-sim").expect("the intercept-sim binary is built");
    cmd.current_dir(dir.path()).args(args);
    cmd
}

/// Runs `intercept-sim <command> <file>` in an empty folder and returns stderr, after checking what every bad
/// input must do: exit 2, print nothing on stdout, print one `error: ` line, not panic, write nothing.
fn refused(command: &str, file: &Path) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = sim(&dir, &[command, file.to_str().unwrap()]).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let what = format!("`{command} {}`", file.display());
    assert_eq!(out.status.code(), Some(2), "{what} should exit 2; stderr: {stderr}");
    assert!(out.stdout.is_empty(), "{what} printed on stdout: {}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr.starts_with("error: "), "{what}: stderr should start with `error: `: {stderr:?}");
    assert!(
        stderr.ends_with('\n') && stderr.matches('\n').count() == 1,
        "{what}: stderr should be one line: {stderr:?}"
    );
    assert!(!stderr.contains("panicked"), "{what} panicked: {stderr}");
    assert!(!dir.path().join("reports").exists(), "{what} wrote reports/ although the config is bad");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "{what} wrote into its working folder");
    stderr
}

/// Checks that `stderr` names the case's file, line and key and says the case's words.
fn check_message(case: &Case, stderr: &str) {
    let at = match case.line {
        Some(line) => format!("{}:{line}: ", case.file),
        None => format!("{}: ", case.file),
    };
    assert!(stderr.contains(&at), "{}: message should point at `{at}`: {stderr}", case.file);
    match case.key {
        Some(key) => {
            let named = format!("key '{key}': ");
            assert!(stderr.contains(&named), "{}: message should name {named:?}: {stderr}", case.file);
        }
        None => assert!(!stderr.contains("key '"), "{}: message should name no key: {stderr}", case.file),
    }
    for words in case.says {
        assert!(stderr.contains(words), "{}: message should say {words:?}: {stderr}", case.file);
    }
}

#[test]
fn the_table_covers_the_corpus() {
    let mut on_disk: Vec<String> =
        fs::read_dir(corpus()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    on_disk.sort();
    let mut listed: Vec<String> = CASES.iter().map(|c| c.file.to_owned()).collect();
    listed.sort();
    let before = listed.len();
    listed.dedup();
    assert_eq!(listed.len(), before, "a file is listed twice in CASES");
    assert_eq!(on_disk, listed, "every file in tests/bad_configs/ needs one row in CASES, and every row a file");
    assert!(CASES.len() >= 18);
}

#[test]
fn run_refuses_every_bad_config_naming_file_line_and_key() {
    for case in CASES {
        let stderr = refused("run", &corpus().join(case.file));
        check_message(case, &stderr);
    }
}

#[test]
fn validate_and_exact_refuse_them_with_the_same_message() {
    let sample = [
        "unknown_key_in_interceptor.toml",
        "morale_11.toml",
        "missing_target_morale.toml",
        "not_toml.toml",
        "run_name_parent_dir.toml",
    ];
    for case in CASES.iter().filter(|c| sample.contains(&c.file)) {
        let file = corpus().join(case.file);
        let from_run = refused("run", &file);
        for command in ["validate", "exact"] {
            let stderr = refused(command, &file);
            check_message(case, &stderr);
            assert_eq!(stderr, from_run, "{}: `{command}` and `run` should say the same", case.file);
        }
    }
}

#[test]
fn a_good_config_passes_the_same_checks() {
    // The control: the harness can tell a good config from a bad one.
    let dir = tempfile::tempdir().unwrap();
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/cavalry/charge-on-pikes.toml");
    sim(&dir, &["validate", good.to_str().unwrap()]).assert().success();
}

#[test]
fn a_bad_name_taken_from_the_file_name_says_so() {
    // No [run] name: the run is named after the file, and this file's name has a space in it.
    let dir = tempfile::tempdir().unwrap();
    let base = fs::read_to_string(corpus().join("morale_11.toml")).unwrap();
    let text = base.replace("name = \"bad\"\n", "").replace("morale = 11", "morale = 6");
    let file = dir.path().join("bad name.toml");
    fs::write(&file, text).unwrap();
    let out = sim(&dir, &["run", "bad name.toml"]).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(stderr.matches('\n').count(), 1, "one line: {stderr:?}");
    assert!(stderr.starts_with("error: bad name.toml:"), "{stderr}");
    assert!(stderr.contains("key 'run.name': \"bad name\" is not allowed"), "{stderr}");
    assert!(stderr.contains("config file's name"), "{stderr}");
    assert!(!dir.path().join("reports").exists());
}

#[test]
fn argument_errors_exit_2() {
    let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/cavalry/charge-on-pikes.toml");
    let good = good.to_str().unwrap();
    // `--seed=-1`, not `--seed -1`: clap would read a separate `-1` as an unknown flag, naming it, not --seed.
    let cases: [(&str, &[&str]); 5] = [
        ("--trials", &["--trials", "0"]),
        ("--threads", &["--threads", "0"]),
        ("--threads", &["--threads", "1025"]),
        ("--trials", &["--trials", "many"]),
        ("--seed", &["--seed=-1"]),
    ];
    for (flag, bad) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = sim(&dir, &[&["run", good][..], bad].concat()).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let what = format!("`run {}`", bad.join(" "));
        assert_eq!(out.status.code(), Some(2), "{what} should exit 2; stderr: {stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains(flag), "{what}: the message should name {flag}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!dir.path().join("reports").exists(), "{what} wrote reports/");
    }
}

#[test]
fn a_missing_config_file_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["run", "validate", "exact"] {
        let out = sim(&dir, &[command, "no/such/config.toml"]).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!out.status.success(), "`{command}` of a missing file should fail");
        assert_eq!(out.status.code(), Some(2), "a config that cannot be read is bad input: {stderr}");
        assert!(stderr.starts_with("error: no/such/config.toml: cannot read the config"), "{stderr}");
        assert_eq!(stderr.matches('\n').count(), 1, "one line: {stderr:?}");
        assert!(stderr.ends_with('\n'));
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    assert!(!dir.path().join("reports").exists());
}
