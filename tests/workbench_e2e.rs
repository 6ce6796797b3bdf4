//! The workbench's scenario editor end to end in headless Chromium: `tests/e2e/editor.mjs` (Playwright's
//! library, `playwright-core` from the npm registry, driving Debian's /usr/bin/chromium; no browser is ever
//! downloaded) against `intercept-sim serve --port 0` on a temporary copy of `configs/`. The test computes
//! with the command line what the editor must show (the exact answer after the edit and after undoing it, the
//! message for a bad value, the value found for a target with `solve --json`) and hands it to the script; the script fails on any console or page error. It also takes the
//! editor's screenshots, into a temporary folder (tests write nothing in the clone), or into the folder named by
//! `INTERCEPT_SCREENSHOTS` when one is set: `INTERCEPT_SCREENSHOTS=docs/screenshots` renews the guide's pictures. The quick calculators (`tests/e2e/calc.mjs`, against
//! `intercept-sim odds --json`) and the game page (`tests/e2e/play.mjs`: a turn against the tree-search
//! player, its advice with the evaluation bar, expected line and why checked against the API's answer, the
//! difficulty sent as the budget, taking back, a set-up, a replay against `intercept-sim replay --json`)
//! likewise, with their screenshots. `tests/e2e/plain.mjs` opens one page of each kind (start, editor on a
//! file and on a starter, calculators, game) over plain HTTP at a name that is not loopback, as other
//! machines open an exposed workbench, and fails on any console error there.
//!
//! Set-up it does itself: Chromium through apt-get when it is missing (tests/common/chromium.rs), and
//! `npm ci` of tests/e2e's lock into `~/.cache/intercept-sim/e2e` (outside the clone) when that lacks a
//! package the scripts import; the scripts run from a temporary copy that finds the packages there.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};

use assert_cmd::Command;
use serde_json::Value;

#[path = "common/chromium.rs"]
mod browser;

const CHAIN: &str = "configs/naval/three-level-chain.toml";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The server, stopped when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `intercept-sim serve --port 0 --configs DIR ARGS...`, and the URL it prints once it listens.
fn serve(configs: &Path, args: &[&str]) -> (Served, String) {
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("intercept-sim"))
        .args(["serve", "--port", "0", "--configs"])
        .arg(configs)
        .args(args)
        .env_remove("INTERCEPT_SIM_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).expect("a URL on the first line");
    (Served(child), url.to_owned())
}

/// The folder outside the clone where the scripts' packages are installed (`npm ci` from tests/e2e's
/// package.json and lock, once, and again when the lock changes): set-up writes nothing in the clone.
fn node_modules() -> PathBuf {
    static ONCE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = ONCE.lock().unwrap_or_else(|e| e.into_inner());
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    let dir = home.join(".cache/intercept-sim/e2e");
    let lock = std::fs::read(root().join("tests/e2e/package-lock.json")).unwrap();
    let installed = ["playwright-core", "axe-core"].iter().all(|p| dir.join("node_modules").join(p).exists());
    if installed && std::fs::read(dir.join("package-lock.json")).is_ok_and(|l| l == lock) {
        return dir.join("node_modules");
    }
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(root().join("tests/e2e/package.json"), dir.join("package.json")).unwrap();
    std::fs::write(dir.join("package-lock.json"), &lock).unwrap();
    let status = Process::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&dir)
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .status()
        .expect("npm runs (install Node.js and npm: apt-get install -y nodejs npm)");
    assert!(status.success(), "npm ci in {} failed", dir.display());
    dir.join("node_modules")
}

/// The scripts of tests/e2e copied into a temporary folder beside a link to the installed packages, which
/// their imports find there.
fn scripts() -> tempfile::TempDir {
    let packages = node_modules();
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(root().join("tests/e2e")).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "mjs") {
            std::fs::copy(&path, dir.path().join(entry.file_name())).unwrap();
        }
    }
    std::os::unix::fs::symlink(packages, dir.path().join("node_modules")).unwrap();
    dir
}

/// A copy of `configs/` in a temporary folder, so that nothing the browser saves lands in the repository.
fn configs_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root().join("configs"), dir.path());
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The chain with taranto's distance `distance`, as a file in `dir`.
fn chain_with_distance(dir: &Path, distance: &str) -> PathBuf {
    let text = std::fs::read_to_string(root().join(CHAIN)).unwrap();
    assert!(text.contains("\ndistance = 8\n"), "taranto's distance in {CHAIN} is 8");
    let file = dir.join("three-level-chain.toml");
    std::fs::write(&file, text.replacen("\ndistance = 8\n", &format!("\ndistance = {distance}\n"), 1)).unwrap();
    file
}

/// `intercept-sim exact --json`'s exact chance the mission completes, as JSON writes it.
fn expected_completed(file: &Path) -> String {
    let doc = cli_json(&["exact", "--json", file.to_str().unwrap()]);
    let metrics = doc["metrics"].as_array().unwrap();
    let completed = metrics.iter().find(|m| m["metric"] == "mission.completed").unwrap();
    completed["exact"].to_string()
}

/// `exact --json`'s answer sentence for `file` answered for the defender (`naval.side = "defender"`).
fn defender_answer(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains("\n[naval]\n"), "{} has a [naval] table", file.display());
    std::fs::write(file, text.replacen("\n[naval]\n", "\n[naval]\nside = \"defender\"\n", 1)).unwrap();
    cli_json(&["exact", "--json", file.to_str().unwrap()])["answer"].as_str().unwrap().to_owned()
}

/// The command line's message for a refused file, without the `error: FILE:LINE: ` before the key.
fn refused_message(file: &Path) -> String {
    let out = Command::cargo_bin("intercept-sim").unwrap().arg("validate").arg(file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let at = stderr.find("key '").expect("the message names the key");
    stderr[at..].trim_end().to_owned()
}

/// The scenario the keyboard-only test builds: the naval starter (`init naval`) with one more group, Taranto's
/// battleships against the starter's convoy, 8 hexes away with 20 factors; what its TOML must hold and the
/// exact chance the convoy completes its mission, from the command line.
fn built_by_keyboard(dir: &Path) -> Value {
    let starter = dir.join("starter.toml");
    let out =
        Command::cargo_bin("intercept-sim").unwrap().args(["init", "naval", "-o"]).arg(&starter).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&starter).unwrap();
    let mission: toml::Table = toml::from_str(&text).unwrap();
    let convoy = mission["naval"]["mission"]["name"].as_str().unwrap().to_owned();
    let lines = [
        "name = \"taranto\"".to_owned(),
        format!("target = \"{convoy}\""),
        "distance = 8".into(),
        "factors = 20".into(),
    ];
    let file = dir.join("built.toml");
    std::fs::write(&file, format!("{text}\n[[naval.group]]\n{}\n", lines.join("\n"))).unwrap();
    serde_json::json!({ "target": convoy, "toml": lines, "completed": expected_completed(&file).parse::<f64>().unwrap() })
}

/// What "find value for target" must show on the chain after taranto's distance became 10 (`file`): the
/// command line's `solve --json` answer sentence and table for a target on mission.completed, varying
/// taranto's distance, and its message for a value that is no number.
fn solve_expected(file: &Path) -> Value {
    let (metric, key, relation, value) = ("mission.completed", "naval.group.taranto.distance", "<=", "55%");
    let target = format!("{metric}{relation}{value}");
    let out = tempfile::tempdir().unwrap();
    let folder = out.path().join("solve");
    let args = ["solve", file.to_str().unwrap(), "--target", &target, "--vary", key, "--json", "--out"];
    let doc = cli_json(&[&args[..], &[folder.to_str().unwrap()]].concat());
    let points: Vec<Value> = doc["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| serde_json::json!([p["value"], p["exact_fraction"]]))
        .collect();
    let bad = "half";
    let out = Command::cargo_bin("intercept-sim")
        .unwrap()
        .args(["solve", file.to_str().unwrap(), "--target", &format!("{metric}{relation}{bad}"), "--vary", key])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a target that is no number is refused");
    serde_json::json!({
        "metric": metric, "key": key, "relation": relation, "value": value,
        "answer": doc["answer"], "points": points,
        "bad": { "value": bad, "said": String::from_utf8(out.stderr).unwrap().trim_end() },
    })
}

#[test]
fn the_editor_works_end_to_end_in_chromium() {
    let work = tempfile::tempdir().unwrap();
    let expected = expected_completed(&chain_with_distance(work.path(), "10"));
    // Taranto's own distance, which one undo after typing 10 over it must bring back with its answer.
    let before = expected_completed(&chain_with_distance(work.path(), "8"));
    let solve = solve_expected(&chain_with_distance(work.path(), "10")).to_string();
    let bad = refused_message(&chain_with_distance(work.path(), "-3"));
    let built = built_by_keyboard(work.path()).to_string();
    let defender = defender_answer(&chain_with_distance(work.path(), "10"));
    assert!(defender.starts_with("The defender's groups catch the malta-convoy force "), "{defender}");
    let stdout = in_chromium("editor.mjs", &[&expected, &before, &bad, &built, &solve, &defender]);
    assert!(stdout.contains("editor end to end: ok"), "{stdout}");
}

/// Runs `tests/e2e/SCRIPT URL ARGS... SCREENSHOT_DIR` against a fresh server on a copy of `configs/`, after
/// the set-up it needs (Chromium, node_modules); its stdout, or a failure with everything it printed.
fn in_chromium(script: &str, args: &[&str]) -> String {
    in_chromium_served(script, &configs_copy(), &[], args)
}

/// [`in_chromium`] against `intercept-sim serve` on the folder `configs` with `serve_args` besides.
fn in_chromium_served(script: &str, configs: &tempfile::TempDir, serve_args: &[&str], args: &[&str]) -> String {
    browser::chromium();
    let e2e = scripts();
    let (_server, url) = serve(configs.path(), serve_args);
    let scratch = tempfile::tempdir().unwrap();
    let shots = match std::env::var_os("INTERCEPT_SCREENSHOTS") {
        Some(dir) => root().join(dir),
        None => scratch.path().to_path_buf(),
    };
    std::fs::create_dir_all(&shots).unwrap();
    let out = Process::new("node")
        .arg(e2e.path().join(script))
        .arg(&url)
        .args(args)
        .arg(&shots)
        .current_dir(e2e.path())
        .output()
        .expect("node runs (install Node.js: apt-get install -y nodejs npm)");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{script} failed in Chromium:\n{stdout}\n{stderr}");
    stdout.into_owned()
}

/// The command line's `--json` document for `args`.
fn cli_json(args: &[&str]) -> Value {
    let out = Command::cargo_bin("intercept-sim").unwrap().args(args).current_dir(root()).output().unwrap();
    assert!(out.status.success(), "intercept-sim {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_quick_calculators_work_end_to_end_in_chromium() {
    let naval = cli_json(&["odds", "naval", "--dice", "2", "--distance", "7", "--json"]);
    let cavalry = cli_json(&["odds", "cavalry", "--order", "make_ready", "--morale", "6", "--leader", "1", "--json"]);
    let faced = ["odds", "cavalry", "--order", "make_ready", "--morale", "6", "--leader", "1", "--facing", "front"];
    let front = cli_json(&[&faced[..], &["--target", "light_infantry", "--json"]].concat());
    let groups = ["7,codebreaking", "7,spotting=2"];
    let asked = ["odds", "naval", "--activity", "raider", "--group", groups[0], "--group", groups[1], "--json"];
    let fleet = cli_json(&asked);
    let expected = serde_json::json!({
        "naval": { "dice": 2, "distance": 7, "p_reach_fraction": naval["p_reach_fraction"], "moved": naval["moved"],
                   "answer": naval["answer"] },
        "groups": { "activity": "raider", "groups": groups, "answer": fleet["answer"],
                    "p_intercept_fraction": fleet["p_intercept_fraction"], "rows": fleet["groups"] },
        "cavalry": { "order": "make_ready", "morale": 6, "leader": 1,
                     "p_intercept_fraction": cavalry["p_intercept_fraction"],
                     "p_pass_fraction": cavalry["morale_check"]["p_pass_fraction"],
                     "answer": cavalry["answer"],
                     "front": { "target": "light_infantry", "facing": "front", "answer": front["answer"] } },
    });
    let stdout = in_chromium("calc.mjs", &[&expected.to_string()]);
    assert!(stdout.contains("calculators end to end: ok"), "{stdout}");
}

#[test]
fn the_board_game_plays_end_to_end_in_chromium() {
    let config = "board/greedy-vs-random.toml";
    let game = 3;
    let replay = cli_json(&["replay", &format!("configs/{config}"), "--game", &game.to_string(), "--json"]);
    let expected = serde_json::json!({
        "config": config, "game": game, "result": replay["result"]["text"], "turns": replay["result"]["turns"],
        "square": "g2", "turn": "g2-g3",
        // What a screen reader says of some squares of the start position (C.2).
        "names": { "g2": "g2: white stack of 3 (double, D3)", "g1": "g1: White's goal", "g7": "g7: the ball",
                   "c13": "c13: black stack of 2 (rest stone, R)", "a1": "a1: empty" },
        "place": { "piece": "white-1", "square": "e5" },
        "refused": "white has no stack on the board",
    });
    let stdout = in_chromium("play.mjs", &["board", &expected.to_string()]);
    assert!(stdout.contains("game end to end: ok"), "{stdout}");
}

/// What `command` (an `intercept-sim sweep` of the chain, as the page shows it) gives with `--json`: the point
/// at `at` as `{"value", "estimate", "exact"}` of the headline metric.
fn swept_point(command: &str, at: i64) -> String {
    let out = tempfile::tempdir().unwrap();
    let folder = out.path().join("o");
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[..2], ["intercept-sim", "sweep"], "{command}");
    let doc = cli_json(&[&words[1..], &["--json", "-q", "--out", folder.to_str().unwrap()]].concat());
    let points = doc["points"].as_array().unwrap();
    let point = points.iter().find(|p| p["settings"]["naval.group.taranto.distance"] == at).expect("the point");
    let m = &point["metrics"][0];
    serde_json::json!({ "value": at, "estimate": m["estimate"], "exact": m["exact"] }).to_string()
}

#[test]
fn what_if_sweeps_and_the_tornado_work_end_to_end_in_chromium() {
    // The values the editor offers around taranto's distance 8 (ascending) and the trials typed. Its Monte
    // Carlo sweep puts the current value first, as its base point, and shows the command that gives its
    // estimates: that order, the trials, the config's seed, the file in the configs folder the server was
    // given. The page must show exactly this command, and its estimate is what this very command prints.
    let (values, trials) = ("6, 7, 8, 9, 10", "2000");
    let configs = configs_copy();
    let chain = configs.path().join("naval/three-level-chain.toml");
    let set = "naval.group.taranto.distance=8,6,7,9,10";
    let command = format!("intercept-sim sweep {} --set {set} --trials {trials} --seed 1941", chain.display());
    let point = swept_point(&command, 10);
    let stdout = in_chromium_served("whatif.mjs", &configs, &[], &[values, trials, &point, &command]);
    assert!(stdout.contains("what-if end to end: ok"), "{stdout}");
}

/// A hostile website against the workbench in Chromium: a DNS-rebinding page (evil.example mapped to
/// 127.0.0.1 by the browser's resolver) and a cross-site page try to read, overwrite and run; nothing is
/// read, written or started, and the workbench's own page still does all three.
#[test]
fn a_hostile_website_reads_writes_and_runs_nothing_in_chromium() {
    let stdout = in_chromium("attack.mjs", &[]);
    assert!(stdout.contains("attack end to end: ok"), "{stdout}");
    eprintln!("{stdout}");
}

/// Every kind of page over plain HTTP at a name that is not loopback (`workbench.lan`, mapped to 127.0.0.1 by
/// Chromium's resolver), as other machines open an exposed workbench: no console error on any of them
/// (issue 51: Chromium logged the Cross-Origin-Opener-Policy header it ignores there on every page).
#[test]
fn every_page_opens_without_a_console_error_over_plain_http() {
    let serve_args = ["--allow-host", "workbench.lan", "--token"];
    let stdout = in_chromium_served("plain.mjs", &configs_copy(), &serve_args, &[]);
    assert!(stdout.contains("plain HTTP end to end: ok"), "{stdout}");
    eprintln!("{stdout}");
}

/// The live map (issue 52): the editor draws the Mediterranean chain's map, says where to intercept as `where`
/// does, and a click on a hex of the route gives the exact answer `where --json` gives that hex.
#[test]
fn the_map_is_live_and_a_click_answers_as_where_does_in_chromium() {
    let doc = cli_json(&["where", "configs/naval/chain-on-the-map.toml", "--json", "--out", &scratch_out()]);
    assert_eq!(doc["best"], "1511");
    let stdout = in_chromium("map.mjs", &[&doc.to_string(), "1611"]);
    assert!(stdout.contains("map end to end: ok"), "{stdout}");
}

/// A folder in the temporary directory for a command's files, never in the clone.
fn scratch_out() -> String {
    let dir = tempfile::tempdir().unwrap().keep();
    dir.join("out").display().to_string()
}
