//! The workbench's JSON API over real HTTP, against a server started in-process on a free port: every
//! endpoint but the run jobs (tests/web_jobs.rs), each answer equal to what the command line prints for the
//! same input, every error as JSON with the command line's message, and never a 500.

mod web;

use std::path::Path;

use intercept_web::Options;
use web::{call, cli, cli_error, get, post, shipped, start};

const NAVAL: &str = "configs/naval/three-level-chain.toml";
const CAVALRY: &str = "configs/cavalry/charge-on-pikes.toml";

#[test]
fn validate_and_exact_answer_the_cli_json() {
    let base = shipped();
    for config in [NAVAL, CAVALRY] {
        let text = std::fs::read_to_string(config).unwrap();
        for command in ["validate", "exact"] {
            let reply = post(&format!("{base}/api/{command}?name={config}"), &text);
            assert_eq!(reply.status, 200, "{}", reply.body);
            assert_eq!(reply.content_type, "application/json");
            let (code, stdout, _) = cli(Path::new("."), &[command, config, "--json"]);
            assert_eq!(code, 0);
            assert_eq!(reply.body.trim_end(), stdout.trim_end(), "{command} {config}");
        }
    }
}

/// Every bad config of tests/bad_configs is refused with 422 and exactly the command line's message.
#[test]
fn every_bad_config_gets_the_cli_message() {
    let base = shipped();
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = std::fs::read_dir("tests/bad_configs").unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 10, "the bad configs are there");
    for file in files {
        let text = std::fs::read(&file).unwrap();
        std::fs::write(dir.path().join("bad.toml"), &text).unwrap();
        let (code, _, stderr) = cli(dir.path(), &["validate", "bad.toml"]);
        let reply = call("POST", &format!("{base}/api/validate?name=bad.toml"), &text);
        match std::str::from_utf8(&text) {
            Ok(_) => {
                assert_eq!((code, reply.status), (2, 422), "{}: {}", file.display(), reply.body);
                assert_eq!(reply.error(), cli_error(&stderr), "{}", file.display());
            }
            Err(_) => assert_eq!(reply.status, 400, "{}: not UTF-8: {}", file.display(), reply.body),
        }
    }
}

#[test]
fn bad_requests_are_400_and_the_default_name_is_scenario_toml() {
    let base = shipped();
    let reply = post(&format!("{base}/api/validate"), "[run]\nname = \"x\"\n");
    assert_eq!(reply.status, 422);
    assert!(reply.error().starts_with("scenario.toml"), "{}", reply.body);
    let reply = post(&format!("{base}/api/validate?file=a.toml"), "");
    assert_eq!((reply.status, reply.error()), (400, "file: no such query parameter; allowed: name".to_owned()));
    let reply = call("POST", &format!("{base}/api/exact"), &[0xff, 0xfe, 0x00]);
    assert_eq!(reply.status, 400, "{}", reply.body);
    assert!(reply.error().contains("request body"), "{}", reply.body);
}

/// A tree over `run.max_exact_leaves` is 422 with the exact solver's one line. (The command line's `exact`
/// goes on past that budget within `run.max_exact_states`, issue 53, and solves this one exactly; the
/// workbench answers exactly or not at all until its pages show bounds.)
#[test]
fn a_tree_too_large_to_solve_is_422_with_the_solver_message() {
    let base = shipped();
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(NAVAL).unwrap().replacen("[run]", "[run]\nmax_exact_leaves = 2", 1);
    std::fs::write(dir.path().join("big.toml"), &text).unwrap();
    let reply = post(&format!("{base}/api/exact?name=big.toml"), &text);
    assert_eq!(reply.status, 422, "{}", reply.body);
    let said = "big.toml: the chance tree has more than 2 leaves, or paths too long to replay 2 of them; solve it by \
                sampling (`run`) or raise run.max_exact_leaves (up to 10000000)";
    assert_eq!(reply.error(), said);
    let (code, stdout, _) = cli(dir.path(), &["exact", "big.toml"]);
    assert_eq!(code, 0);
    assert!(stdout.lines().next().is_some_and(|l| l.contains(": exact, ")), "{stdout}");
}

#[test]
fn odds_answer_the_cli_json_and_refuse_bad_parameters() {
    let base = shipped();
    let cases: &[(&str, &str, &[&str])] = &[
        ("naval", "dice=4&distance=7&pacific=true", &["--dice", "4", "--distance", "7", "--pacific"]),
        ("naval", "dice=2&distance=5&highest", &["--dice", "2", "--distance", "5", "--highest"]),
        ("naval", "dice=0&distance=0", &["--dice", "0", "--distance", "0"]),
        (
            "naval",
            "group=7%2Ccodebreaking&group=7%2Cspotting%3D2&activity=raider&factors=9&pacific=false",
            &["--group", "7,codebreaking", "--group", "7,spotting=2", "--activity", "raider", "--factors", "9"],
        ),
        ("cavalry", "order=charge&morale=7&leader=1", &["--order", "charge", "--morale", "7", "--leader", "1"]),
        ("cavalry", "order=rally&morale=6&checks=2", &["--order", "rally", "--morale", "6", "--checks", "2"]),
        ("cavalry", "order=make_ready", &["--order", "make_ready"]),
        (
            "cavalry",
            "order=charge&target=light_infantry&facing=flank&morale=7",
            &["--order", "charge", "--target", "light_infantry", "--facing", "flank", "--morale", "7"],
        ),
        ("cavalry", "order=receive_charge&target=leader", &["--order", "receive_charge", "--target", "leader"]),
    ];
    for (set, query, args) in cases {
        let reply = get(&format!("{base}/api/odds/{set}?{query}"));
        assert_eq!(reply.status, 200, "{set}?{query}: {}", reply.body);
        let (code, stdout, _) = cli(Path::new("."), &[&["odds", set, "--json"], *args].concat());
        assert_eq!(code, 0);
        assert_eq!(reply.body.trim_end(), stdout.trim_end(), "{set}?{query}");
    }
    let refused = [
        ("naval?dice=9&distance=7", "dice: \"9\" is not allowed; allowed: a whole number from 0 to 8"),
        ("naval?dice=2", "distance: missing; allowed: a whole number from 0 to 99"),
        ("naval?dice=2&distance=3&pacific=maybe", "pacific: \"maybe\" is not allowed; allowed: true or false"),
        (
            "naval?dice=2&distance=3&wind=5",
            "wind: no such parameter; allowed: dice, distance, group, activity, factors, pacific, highest",
        ),
        ("naval?pacific=true", "dice: missing; give dice and distance, or group"),
        ("naval?group=8&dice=2", "dice: not with group; give dice and distance, or group, not both"),
        ("naval?dice=2&distance=3&factors=5", "factors: only with group; give group too, or leave factors out"),
        (
            "naval?group=6%2Cslow",
            "group: \"6,slow\": no modifier \"slow\"; allowed: spotting=N, codebreaking, mission-hex, slow-ships, \
             non-operational-port",
        ),
        (
            "cavalry?order=gallop",
            "order: \"gallop\" is not allowed; allowed: charge, make_ready, receive_charge, rally",
        ),
        ("cavalry?order=charge&leader=2", "leader: only with morale; give morale too, or leave leader out"),
        ("cavalry?order=charge&facing=behind", "facing: \"behind\" is not allowed; allowed: front, flank, rear"),
        (
            "cavalry?order=charge&target=pikes",
            "target: \"pikes\" is not allowed; allowed: artillery, light_infantry, heavy_infantry, cavalry, leader",
        ),
    ];
    for (query, error) in refused {
        let reply = get(&format!("{base}/api/odds/{query}"));
        assert_eq!((reply.status, reply.error()), (400, error.to_owned()), "{query}");
    }
    assert_eq!(get(&format!("{base}/api/odds/step_race")).status, 404);
    assert_eq!(get(&format!("{base}/api/odds/chess")).status, 404);
}

#[test]
fn the_calculators_describe_their_parameters() {
    let list = get(&format!("{}/api/odds", shipped())).json();
    let calculators = list["calculators"].as_array().unwrap();
    let sets: Vec<&str> = calculators.iter().map(|c| c["rule_set"].as_str().unwrap()).collect();
    assert_eq!(sets, ["cavalry", "naval"]);
    let dice = &calculators[1]["params"][0];
    assert_eq!((dice["name"].as_str(), dice["type"].as_str()), (Some("dice"), Some("whole")));
    assert_eq!(
        (dice["least"].as_u64(), dice["most"].as_u64(), dice["required"].as_bool()),
        (Some(0), Some(8), Some(true))
    );
    assert!(dice["help"].as_str().is_some_and(|h| !h.is_empty()));
    assert_eq!(dice["alternative"], "group", "dice and distance, or group");
    let group = &calculators[1]["params"][2];
    assert_eq!((group["name"].as_str(), group["type"].as_str()), (Some("group"), Some("text")));
    assert_eq!((group["many"].as_bool(), group["value_name"].as_str()), (Some(true), Some("DISTANCE[,MODIFIER...]")));
    let order = &calculators[0]["params"][0];
    assert_eq!(order["allowed"][0], "charge");
    let param = |name: &str| calculators[0]["params"].as_array().unwrap().iter().find(|p| p["name"] == name).cloned();
    let target = param("target").expect("the cavalry calculator asks the target's unit type");
    assert_eq!(
        target["allowed"],
        serde_json::json!(["artillery", "light_infantry", "heavy_infantry", "cavalry", "leader"])
    );
    let facing = param("facing").expect("the cavalry calculator asks where the interceptor ends");
    assert_eq!(
        (facing["allowed"].clone(), facing["default"].clone()),
        (serde_json::json!(["front", "flank", "rear"]), "rear".into())
    );
}

/// Takes every `x-order` out of a schema (the order the workbench adds for its form); the lists taken.
fn without_order(node: &mut serde_json::Value) -> Vec<Vec<String>> {
    let mut taken = Vec::new();
    match node {
        serde_json::Value::Object(map) => {
            if let Some(order) = map.remove("x-order") {
                taken.push(serde_json::from_value(order).unwrap());
            }
            map.values_mut().for_each(|v| taken.extend(without_order(v)));
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| taken.extend(without_order(v))),
        _ => {}
    }
    taken
}

/// The schema is the command line's, each object's keys also listed in declared order (`x-order`), where a
/// list item's `name` comes first; the starter is `init`'s.
#[test]
fn rule_sets_schema_and_starter_are_the_cli_ones() {
    let base = shipped();
    let sets = get(&format!("{base}/api/rule-sets")).json();
    let (_, tables, _) = cli(Path::new("."), &["schema"]);
    for set in sets["rule_sets"].as_array().unwrap() {
        let table = set["table"].as_str().unwrap();
        assert!(tables.contains(table) && set["title"].is_string() && set["starter"] == true, "{set}");
        let (_, schema, _) = cli(Path::new("."), &["schema", table]);
        let mut served = get(&format!("{base}/api/schema/{table}")).json();
        let order = without_order(&mut served);
        assert_eq!(served, serde_json::from_str::<serde_json::Value>(&schema).unwrap(), "{table}: the CLI's schema");
        assert!(
            order.iter().any(|keys| keys.first().map(String::as_str) == Some("name")),
            "{table}: x-order {order:?}"
        );
        let (_, starter, _) = cli(Path::new("."), &["init", table, "-o", "-"]);
        let reply = get(&format!("{base}/api/starter/{table}"));
        assert_eq!(reply.body.trim_end(), starter.trim_end(), "{table}");
    }
    let reply = get(&format!("{base}/api/schema/chess"));
    assert_eq!(reply.status, 404);
    assert!(reply.error().contains("allowed: cavalry, naval"), "{}", reply.body);
}

/// A copy of the shipped cavalry and naval configs, as a server's configs folder.
fn configs_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for set in ["cavalry", "naval"] {
        std::fs::create_dir(dir.path().join(set)).unwrap();
        for entry in std::fs::read_dir(format!("configs/{set}")).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.path().join(set).join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

#[test]
fn scenarios_are_listed_with_their_headline_answer() {
    let dir = configs_copy();
    std::fs::write(dir.path().join("broken.toml"), "[run]\nname = 3\n").unwrap();
    let base = start(Options { configs: dir.path().to_owned(), ..Options::default() });
    // The list answers at once; the answers follow from the background solver.
    let list = listed_when_solved(&base);
    let scenarios = list["scenarios"].as_array().unwrap();
    let find = |path: &str| scenarios.iter().find(|s| s["path"] == path).unwrap_or_else(|| panic!("{path}: {list}"));
    let pikes = find("cavalry/charge-on-pikes.toml");
    assert_eq!((pikes["rule_set"].as_str(), pikes["name"].as_str()), (Some("cavalry"), Some("charge-on-pikes")));
    let answer = pikes["answer"].as_str().unwrap();
    assert!(answer.contains("of the time (exactly "), "{answer}");
    assert!(find("broken.toml")["error"].as_str().unwrap().starts_with("broken.toml:2: key 'run.name'"), "{list}");
    let page = get(&format!("{base}/"));
    assert!(page.content_type.starts_with("text/html") && page.body.contains("charge-on-pikes"), "{}", page.body);
    assert!(page.body.contains(&intercept_sim::output::report::escape(answer)), "the page shows the answer");
    assert!(get(&format!("{base}/assets/style.css")).body.contains("body"));
    let text = get(&format!("{base}/api/scenarios/cavalry/charge-on-pikes.toml")).body;
    assert_eq!(text, std::fs::read_to_string(CAVALRY).unwrap());
}

/// `GET /api/scenarios`, asked again until no answer is still being solved (at most a minute).
fn listed_when_solved(base: &str) -> serde_json::Value {
    let start = std::time::Instant::now();
    loop {
        let list = get(&format!("{base}/api/scenarios")).json();
        let solving = list["scenarios"].as_array().unwrap().iter().any(|s| s["answer_state"] == "solving");
        if !solving || start.elapsed() > std::time::Duration::from_secs(60) {
            return list;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn scenarios_are_saved_checked_and_only_inside_the_folder() {
    let dir = configs_copy();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.toml"), "[run]\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.toml"), dir.path().join("link.toml")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).unwrap();
    let base = start(Options { configs: dir.path().to_owned(), ..Options::default() });
    let text = std::fs::read_to_string(CAVALRY).unwrap();
    let put = |path: &str, body: &str| call("PUT", &format!("{base}/api/scenarios/{path}"), body.as_bytes());
    assert_eq!(put("cavalry/mine.toml", &text).status, 201);
    assert_eq!(std::fs::read_to_string(dir.path().join("cavalry/mine.toml")).unwrap(), text);
    let again = put("cavalry/mine.toml", &text);
    assert_eq!(
        (again.status, again.error()),
        (409, "cavalry/mine.toml: exists; add ?overwrite=1 to replace it".into())
    );
    assert_eq!(put("cavalry/mine.toml?overwrite=1", &text).status, 200);
    let bad = put("cavalry/bad.toml", "[cavalry]\nmax_distance = 0\n");
    assert_eq!(bad.status, 422);
    assert!(bad.error().starts_with("cavalry/bad.toml"), "{}", bad.body);
    assert!(!dir.path().join("cavalry/bad.toml").exists(), "a bad config is not saved");
    for path in ["%2E%2E/x.toml", "cavalry/%2E%2E/%2E%2E/x.toml", "cavalry/notes.txt", "link.toml", "out/x.toml"] {
        let reply = put(path, &text);
        assert_eq!(reply.status, 400, "{path}: {}", reply.body);
        assert_eq!(get(&format!("{base}/api/scenarios/{path}")).status, 400, "{path}");
    }
    assert_eq!(put("nowhere/x.toml", &text).status, 404);
    assert!(!outside.path().join("x.toml").exists());
    let listed = get(&format!("{base}/api/scenarios")).body;
    assert!(listed.contains("cavalry/mine.toml") && !listed.contains("secret") && !listed.contains("link.toml"));
    let leftovers = std::fs::read_dir(dir.path().join("cavalry")).unwrap().flatten();
    assert!(leftovers.filter(|e| e.file_name().to_string_lossy().starts_with('.')).count() == 0, "no temp file left");
}

/// One rule says which paths are configs, for the list, for reading and for saving (issue 51): a file on
/// disk whose path breaks it (a backslash, a hidden file or folder, a space) is not listed, every path
/// listed opens, and a path that breaks it is refused with 400 and one line naming what is wrong and what
/// is allowed, before anything is read or written. A link to a config inside the folder is listed and opens.
#[test]
fn what_is_listed_is_what_opens_and_only_config_paths_save() {
    let dir = configs_copy();
    let text = std::fs::read_to_string(CAVALRY).unwrap();
    for odd in ["a\\b.toml", ".hidden.toml", "with space.toml", "cavalry/.draft.toml"] {
        std::fs::write(dir.path().join(odd), &text).unwrap();
    }
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join(".git/x.toml"), &text).unwrap();
    std::os::unix::fs::symlink("cavalry/charge-on-pikes.toml", dir.path().join("alias.toml")).unwrap();
    // A link back up the tree is not followed round and round.
    std::os::unix::fs::symlink("..", dir.path().join("naval/up")).unwrap();
    let base = start(Options { configs: dir.path().to_owned(), ..Options::default() });
    let list = get(&format!("{base}/api/scenarios")).json();
    let listed: Vec<&str> = list["scenarios"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert!(listed.contains(&"alias.toml") && listed.contains(&"cavalry/charge-on-pikes.toml"), "{listed:?}");
    for unlisted in ["a\\b.toml", ".hidden.toml", "with space.toml", "cavalry/.draft.toml", ".git/x.toml"] {
        assert!(!listed.contains(&unlisted), "{unlisted} is listed: {listed:?}");
    }
    assert!(!listed.iter().any(|p| p.contains("up/")), "the link up is not entered: {listed:?}");
    for path in &listed {
        let opened = get(&format!("{base}/api/scenarios/{path}"));
        assert_eq!(opened.status, 200, "{path} is listed but does not open: {}", opened.body);
    }
    assert_eq!(get(&format!("{base}/api/scenarios/alias.toml")).body, text, "a link inside opens its file");
    let allowed = "allowed: names of 1 to 100 letters, digits, '-', '_' or '.' (not first), joined by single '/', \
                   the last ending .toml";
    let refused = [
        (".hidden.toml", r#"".hidden.toml": not a config path: ".hidden.toml" starts with '.'"#),
        ("cavalry/.draft.toml", r#""cavalry/.draft.toml": not a config path: ".draft.toml" starts with '.'"#),
        (
            "cavalry//x.toml",
            r#""cavalry//x.toml": not a config path: an empty name (a '/' at the start or the end, or two together)"#,
        ),
        ("a%00b.toml", r#""a\0b.toml": not a config path: "a\0b.toml" holds a NUL byte"#),
        ("a%5Cb.toml", r#""a\\b.toml": not a config path: "a\\b.toml" holds a backslash"#),
        ("with%20space.toml", r#""with space.toml": not a config path: "with space.toml" holds a space"#),
        ("cavalry/notes.txt", r#""cavalry/notes.txt": not a config path: it does not end .toml"#),
    ];
    for (path, why) in refused {
        let url = format!("{base}/api/scenarios/{path}");
        for reply in [call("PUT", &url, text.as_bytes()), call("PUT", &format!("{url}?overwrite=1"), text.as_bytes())] {
            assert_eq!((reply.status, reply.error()), (400, format!("{why}; {allowed}")), "PUT {path}");
        }
        let read = get(&url);
        assert_eq!((read.status, read.error()), (400, format!("{why}; {allowed}")), "GET {path}");
    }
    assert!(!dir.path().join("cavalry/x.toml").exists(), "a doubled slash saved nothing");
    assert!(!dir.path().join("cavalry/notes.txt").exists());
}

#[test]
fn unknown_routes_are_404_and_wrong_methods_405_as_json() {
    let base = shipped();
    let reply = get(&format!("{base}/api/nothing"));
    assert_eq!((reply.status, reply.error()), (404, "no such page or endpoint: /api/nothing".to_owned()));
    let reply = call("PATCH", &format!("{base}/api/validate"), b"");
    assert_eq!((reply.status, reply.error()), (405, "PATCH is not allowed on /api/validate".to_owned()));
    assert_eq!(get(&format!("{base}/api/validate")).status, 405);
    assert_eq!(get(&format!("{base}/assets/app.js")).status, 404);
}

#[test]
fn a_body_beyond_the_limit_is_413_as_json() {
    let base = start(Options { max_body: 1024, ..Options::default() });
    let reply = post(&format!("{base}/api/validate"), &"#".repeat(2048));
    assert_eq!(reply.status, 413);
    assert_eq!(reply.error(), "the request body is larger than this server accepts");
    assert_eq!(post(&format!("{base}/api/validate"), &"#".repeat(512)).status, 422, "below the limit it is read");
}

/// `intercept-sim serve --port 0` prints its URL and answers on it.
#[test]
fn serve_prints_the_url_and_answers() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("intercept-sim"))
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("intercept-sim workbench: ").unwrap_or_else(|| panic!("{line}")).to_owned();
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/') && !url.ends_with(":0/"), "{url}");
    let reply = get(&format!("{url}api/rule-sets"));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(reply.status, 200);
    assert!(reply.json()["rule_sets"].as_array().unwrap().len() >= 2);
}

/// A query value percent-encoded (the targets hold `<`, `>`, `=`, `%` and `/`).
fn encoded(value: &str) -> String {
    value
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `POST /api/solve?target=T&vary=K` answers exactly the command line's `solve CONFIG --target T --vary K
/// --json`: a whole-number key, a decimal key with `digits`, and two keys. A target that is no target is 400
/// with the line the command line gives inside its own; a key the config lacks 422 with the command line's
/// line; a request that is not one (no key, three keys, digits out of range, no target) 400; never a 500.
#[test]
fn solve_answers_the_cli_json_and_refuses_bad_targets_and_keys() {
    let base = shipped();
    let text = std::fs::read_to_string(NAVAL).unwrap();
    let solve = |query: &str| post(&format!("{base}/api/solve?name={NAVAL}&{query}"), &text);
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        ("mission.completed<=55%", &["naval.group.taranto.distance"], None),
        ("mission.completed>=0.58", &["naval.combat.p_intercepting_side_wins"], Some("4")),
        (">=1/2", &["naval.group[0].distance=6..9", "naval.group.messina.distance=4..6"], None),
    ];
    for (target, vary, digits) in cases {
        let mut query = format!("target={}", encoded(target));
        // The command line writes its folder too: into a temporary one.
        let out = tempfile::tempdir().unwrap();
        let dir = out.path().join("solve").to_str().unwrap().to_owned();
        let mut args = vec!["solve", NAVAL, "--target", target, "--json", "--out", &dir];
        for key in *vary {
            query += &format!("&vary={}", encoded(key));
            args.extend(["--vary", key]);
        }
        if let Some(digits) = digits {
            query += &format!("&digits={digits}");
            args.extend(["--digits", digits]);
        }
        let reply = solve(&query);
        assert_eq!((reply.status, reply.content_type.as_str()), (200, "application/json"), "{query}: {}", reply.body);
        let (code, stdout, stderr) = cli(Path::new("."), &args);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(reply.body.trim_end(), stdout.trim_end(), "{query}");
        assert!(reply.json()["answer"].as_str().is_some_and(|a| !a.is_empty()), "{}", reply.body);
    }
    // A target that is no target: the command line's line, which it gives inside clap's.
    let reply = solve("target=mission.completed%3C%3Dhalf&vary=naval.group.taranto.distance");
    assert_eq!(reply.status, 400, "{}", reply.body);
    let args = ["solve", NAVAL, "--target", "mission.completed<=half", "--vary", "naval.group.taranto.distance"];
    let (code, _, stderr) = cli(Path::new("."), &args);
    assert_eq!(code, 2);
    assert!(reply.error().contains("is not a target") && stderr.contains(&reply.error()), "{}\n{stderr}", reply.body);
    // Keys and metrics the config lacks: 422 with the command line's line.
    for (target, key) in [
        ("<=1/2", "naval.group.tarant.distance"),
        ("<=1/2", "naval.mission.name"),
        ("nothing<=1/2", "naval.group.taranto.distance"),
    ] {
        let reply = solve(&format!("target={}&vary={}", encoded(target), encoded(key)));
        let (code, _, stderr) = cli(Path::new("."), &["solve", NAVAL, "--target", target, "--vary", key]);
        assert_eq!((reply.status, code), (422, 2), "{key}: {}", reply.body);
        assert_eq!(reply.error(), cli_error(&stderr), "{key}");
    }
    let refused = [
        ("target=%3C%3D1%2F2", "vary: 0 given; allowed: one or two keys to vary, such as vary=<table>.<key>"),
        (
            "vary=naval.group.taranto.distance",
            "target: missing; allowed: [METRIC]<=V, >=V or =V, such as target=<=1/2 (the headline metric) or target=<metric>>=50%",
        ),
        (
            "target=%3C%3D1%2F2&vary=a.b&vary=a.c&vary=a.d",
            "vary: 3 given; allowed: one or two keys to vary, such as vary=<table>.<key>",
        ),
        (
            "target=%3C%3D1%2F2&vary=naval.group.taranto.distance&digits=0",
            "digits: \"0\" is not allowed; allowed: a whole number from 1 to 30",
        ),
        (
            "target=%3C%3D1%2F2&vary=naval.group.taranto.distance&seed=3",
            "seed: no such query parameter; allowed: target, vary, digits, name",
        ),
    ];
    for (query, error) in refused {
        let reply = solve(query);
        assert_eq!((reply.status, reply.error()), (400, error.to_owned()), "{query}");
    }
    for query in [
        "target=%3C%3D1%2F0&vary=x",
        "target=%3D&vary=%3D..",
        "target=%3C%3D1&vary=naval.group.taranto.distance%3D0..100000000000",
    ] {
        let reply = solve(query);
        assert!((400..500).contains(&reply.status), "{query}: {} {}", reply.status, reply.body);
    }
    let reply = post(
        &format!("{base}/api/solve?target=%3C%3D1%2F2&vary=naval.group.taranto.distance&name=bad.toml"),
        "[run]\nname = 3\n",
    );
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(reply.error().starts_with("bad.toml:2: key 'run.name'"), "{}", reply.body);
    assert_eq!(get(&format!("{base}/api/status")).json()["exact"]["running"], 0, "every solve has ended");
}

/// A tree too large to solve exactly (here made so by `run.max_exact_leaves`) is bisected by sampling, in
/// the workbench as on the command line: the same document, probes and intervals.
#[test]
fn a_solve_too_large_to_be_exact_is_sampled_as_the_cli_samples_it() {
    let base = shipped();
    let text = std::fs::read_to_string(NAVAL).unwrap().replacen("[run]\n", "[run]\nmax_exact_leaves = 10\n", 1);
    let text = text.lines().filter(|l| !l.starts_with("trials")).collect::<Vec<_>>().join("\n");
    let text = text.replacen("[run]\n", "[run]\ntrials = 20000\n", 1);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("sampled.toml");
    std::fs::write(&config, &text).unwrap();
    let target = "mission.completed<=0.51";
    let key = "naval.rules.counter_from_port=0..4";
    let url = format!("{base}/api/solve?name=sampled.toml&target={}&vary={}", encoded(target), encoded(key));
    let reply = post(&url, &text);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["method"], "sampled", "{}", reply.body);
    let out = dir.path().join("out").to_str().unwrap().to_owned();
    let config = config.to_str().unwrap();
    let (code, stdout, stderr) =
        cli(Path::new("."), &["solve", config, "--target", target, "--vary", key, "--json", "--out", &out]);
    assert_eq!(code, 0, "{stderr}");
    let (web, cli) = (reply.json(), serde_json::from_str::<serde_json::Value>(&stdout).unwrap());
    assert_eq!((&web["answer"], &web["probes"]), (&cli["answer"], &cli["probes"]));
}

/// `POST /api/solve/keys` lists every number of the resolved config outside `[run]`, by the key `--vary` takes.
#[test]
fn solve_keys_are_every_number_of_the_config() {
    let base = shipped();
    let reply = post(&format!("{base}/api/solve/keys"), &std::fs::read_to_string(NAVAL).unwrap());
    assert_eq!(reply.status, 200, "{}", reply.body);
    let keys = reply.json()["keys"].as_array().unwrap().clone();
    let find = |key: &str| keys.iter().find(|k| k["key"] == key).cloned().unwrap_or_else(|| panic!("{key}: {keys:?}"));
    assert_eq!(
        find("naval.group.taranto.distance"),
        serde_json::json!({ "key": "naval.group.taranto.distance", "value": 8, "whole": true })
    );
    assert_eq!(find("naval.combat.p_intercepting_side_wins")["whole"], false);
    assert!(keys.iter().all(|k| !k["key"].as_str().unwrap().starts_with("run.")), "no [run] key");
    let reply = post(&format!("{base}/api/solve/keys?name=bad.toml"), "[run]\nname = 3\n");
    assert_eq!(reply.status, 422, "{}", reply.body);
}

/// The solve endpoints are guarded as every POST is: another site's `Origin` or a cross-site fetch is 403, a
/// body a form or a `no-cors` fetch can send 415, and nothing is solved.
#[test]
fn another_site_solves_nothing() {
    let base = shipped();
    let text = std::fs::read_to_string(NAVAL).unwrap();
    let url = format!("{base}/api/solve?target=%3C%3D1%2F2&vary=naval.group.taranto.distance");
    for url in [url.as_str(), &format!("{base}/api/solve/keys")] {
        let evil = [("origin", "http://evil.example"), ("content-type", "application/toml")];
        let reply = web::call_with("POST", url, &evil, text.as_bytes());
        assert_eq!(reply.status, 403, "{}", reply.body);
        assert!(reply.error().starts_with("Origin http://evil.example: requests from another site are refused"));
        let cross = [("sec-fetch-site", "cross-site"), ("content-type", "application/toml")];
        assert_eq!(web::call_with("POST", url, &cross, text.as_bytes()).status, 403);
        for kind in ["text/plain", "application/x-www-form-urlencoded", ""] {
            let mut headers = vec![("content-type", kind)];
            headers.retain(|(_, v)| !v.is_empty());
            let reply = web::call_with("POST", url, &headers, text.as_bytes());
            assert_eq!(reply.status, 415, "{kind}: {}", reply.body);
        }
        assert_eq!(get(url).status, 405);
    }
    assert_eq!(get(&format!("{base}/api/status")).json()["exact"]["running"], 0);
    let mine = [("content-type", "application/toml"), ("sec-fetch-site", "same-origin")];
    assert_eq!(web::call_with("POST", &url, &mine, text.as_bytes()).status, 200, "the workbench's own page solves");
}

/// A scenario on a map reads its map file beside it inside the served folder, and nothing outside it
/// (issue 52): the answer equals the command line's; a map file named outside the folder is refused.
#[test]
fn a_map_file_is_read_inside_the_served_folder_only() {
    let dir = configs_copy();
    let base = start(Options { configs: dir.path().to_owned(), ..Options::default() });
    let chain = std::fs::read_to_string("configs/naval/chain-on-the-map.toml").unwrap();
    let reply = post(&format!("{base}/api/exact?name=naval/chain-on-the-map.toml"), &chain);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let (code, stdout, _) = cli(Path::new("."), &["exact", "configs/naval/chain-on-the-map.toml", "--json"]);
    assert_eq!(code, 0);
    let (web, cli): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&reply.body).unwrap(), serde_json::from_str(&stdout).unwrap());
    assert_eq!(web["metrics"], cli["metrics"]);
    for outside in ["../../../etc/passwd", "/etc/passwd"] {
        let escaping = chain.replace("file = \"mediterranean.hexmap\"", &format!("file = \"{outside}\""));
        let reply = post(&format!("{base}/api/validate?name=naval/chain-on-the-map.toml"), &escaping);
        assert_eq!(reply.status, 422, "{}", reply.body);
        assert!(reply.error().contains("outside the folder the workbench serves"), "{}", reply.body);
    }
}

/// `POST /api/where` (issue 52): `where --json`'s document for the same text, the map with every hex named,
/// and each option's settings with the best line below it; a scenario with no map has none, one with a map
/// and no choice its map and the reason; a bad route is the command line's message.
#[test]
fn where_answers_as_the_command_line_with_its_map_and_each_hexs_settings() {
    let dir = configs_copy();
    let base = start(Options { configs: dir.path().to_owned(), ..Options::default() });
    let chain = std::fs::read_to_string("configs/naval/chain-on-the-map.toml").unwrap();
    let reply = post(&format!("{base}/api/where?name=naval/chain-on-the-map.toml"), &chain);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let web: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    let out = tempfile::tempdir().unwrap();
    let folder = out.path().join("where").display().to_string();
    let args = ["where", "configs/naval/chain-on-the-map.toml", "--json", "--out", &folder];
    let (code, stdout, _) = cli(Path::new("."), &args);
    assert_eq!(code, 0);
    assert_eq!(web["where"], serde_json::from_str::<serde_json::Value>(&stdout).unwrap());
    assert_eq!(web["map"].as_str().unwrap().matches("<polygon data-hex=").count(), 480);
    let best = web["choices"].as_array().unwrap().iter().find(|c| c["option"] == "1511").unwrap();
    let keys: Vec<(&str, &str)> = best["settings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["key"].as_str().unwrap(), s["value"].as_str().unwrap()))
        .collect();
    assert_eq!(
        keys,
        [
            ("naval.group.taranto.intercept_at", "1511"),
            ("naval.group.messina.intercept_at", "1511"),
            ("naval.group.force-b.intercept_at", "2111"),
            ("naval.group.flotilla.intercept_at", "2113"),
        ]
    );

    let typed = std::fs::read_to_string("configs/naval/three-level-chain.toml").unwrap();
    let reply = post(&format!("{base}/api/where?name=naval/three-level-chain.toml"), &typed);
    let doc: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!((reply.status, &doc["map"], &doc["where"]), (200, &serde_json::Value::Null, &serde_json::Value::Null));
    assert!(doc["refused"].as_str().unwrap().contains("leaves no choice to make"), "{}", reply.body);

    let bad = chain.replace("\"1914\", \"malta\"", "\"1915\", \"malta\"");
    let reply = post(&format!("{base}/api/where?name=naval/chain-on-the-map.toml"), &bad);
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(reply.error().contains("key 'naval.mission.route'"), "{}", reply.body);
}
