//! The workbench's what-if jobs over real HTTP: a sweep and a sensitivity run queued, polled through
//! `/api/run/{id}` to done with the same document as the command line's `--json` for the same config,
//! values, trials and seed; a bad key refused with the command line's message and nothing queued; the
//! default values of a sweep; the trials limit counted over every point; cancel.

mod web;

use std::path::Path;
use std::time::Duration;

use intercept_web::Options;
use serde_json::Value;
use web::{call, cli, cli_error, get, poll_until, post, shipped, start};

const NAVAL: &str = "configs/naval/three-level-chain.toml";
const LONG: Duration = Duration::from_secs(120);

fn naval() -> String {
    std::fs::read_to_string(NAVAL).unwrap()
}

/// Queues `endpoint?query` with the naval chain as the body; its id.
fn queue(base: &str, endpoint: &str, query: &str) -> String {
    let reply = post(&format!("{base}/api/{endpoint}?{query}"), &naval());
    assert_eq!(reply.status, 202, "{}", reply.body);
    reply.json()["id"].as_str().unwrap().to_owned()
}

/// The command line's `--json` document for `args` (written into a temporary folder).
fn cli_json(args: &[&str]) -> Value {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("o");
    let args = [args, &["--json", "-q", "--out", dir.to_str().unwrap()]].concat();
    let (code, stdout, stderr) = cli(Path::new("."), &args);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn a_sweep_job_ends_with_the_cli_sweep_document_and_its_files() {
    let base = shipped();
    let id = queue(&base, "sweep", "key=naval.group[0].distance&values=8,7,9&trials=20000&seed=5&files=1");
    let done = poll_until(&base, &id, LONG, |s| s["state"] == "done");
    assert_eq!((done["kind"].as_str(), done["trials"].as_u64()), (Some("sweep"), Some(60_000)), "{done}");
    assert_eq!(done["trials_done"], done["trials"]);
    let args = ["sweep", NAVAL, "--set", "naval.group[0].distance=8,7,9", "--trials", "20000", "--seed", "5"];
    assert_eq!(done["result"], cli_json(&args));
    let point = &done["result"]["points"][1]["metrics"][0];
    assert!(point["exact"].is_f64() && point["ci_low"].as_f64() < point["ci_high"].as_f64(), "{point}");
    let files: Vec<&str> = done["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert!(files.contains(&"sweep.parquet") && files.contains(&"report.html"), "{files:?}");
    let parquet = get(&format!("{base}/api/run/{id}/files/sweep.parquet"));
    assert!(parquet.status == 200 && parquet.body.starts_with("PAR1"));
}

#[test]
fn a_sensitivity_job_ends_with_the_cli_sensitivity_document() {
    let base = shipped();
    let keys = ["naval.group.taranto.distance", "naval.group[2].factors", "naval.combat.p_end_after_round"];
    let query = format!("only={},{}&only={}&trials=3000&seed=9", keys[0], keys[1], keys[2]);
    let id = queue(&base, "sensitivity", &query);
    let done = poll_until(&base, &id, LONG, |s| s["state"] == "done");
    assert_eq!(done["kind"], "sensitivity");
    let only: Vec<&str> = keys.iter().flat_map(|k| ["--only", k]).collect();
    let args = [&["sensitivity", NAVAL, "--trials", "3000", "--seed", "9"][..], &only].concat();
    assert_eq!(done["result"], cli_json(&args));
    let metric = &done["result"]["metrics"][0];
    let keys = |list: &str| metric[list].as_array().unwrap().len();
    assert_eq!(keys("ranked") + keys("unchanged"), 3, "{metric}");
    assert_eq!(done["files"], serde_json::json!([]), "files only when asked");
}

#[test]
fn a_bad_key_or_value_is_refused_with_the_cli_message_and_nothing_is_queued() {
    let base = shipped();
    let cases = [
        (
            "sweep",
            "key=naval.group.tarant.distance&values=7,8",
            vec!["sweep", NAVAL, "--set", "naval.group.tarant.distance=7,8"],
        ),
        (
            "sweep",
            "key=naval.group[0].distance&values=7,x",
            vec!["sweep", NAVAL, "--set", "naval.group[0].distance=7,x"],
        ),
        ("sweep", "key=naval.group[0].distance&values=-1", vec!["sweep", NAVAL, "--set", "naval.group[0].distance=-1"]),
        ("sensitivity", "only=naval.group.tarant", vec!["sensitivity", NAVAL, "--only", "naval.group.tarant"]),
    ];
    for (endpoint, query, args) in cases {
        let reply = post(&format!("{base}/api/{endpoint}?{query}&name={NAVAL}"), &naval());
        let (code, _, stderr) = cli(Path::new("."), &[&args[..], &["-o", "/nonexistent/never"]].concat());
        assert_eq!((reply.status, code), (422, 2), "{query}: {}", reply.body);
        assert_eq!(reply.error(), cli_error(&stderr), "{query}");
    }
    assert!(reply_error(&base, "sweep", "values=1,2").contains("key: missing"));
    assert!(reply_error(&base, "sweep", "key=naval.group[0].distance&files=2").contains("files:"));
    assert!(reply_error(&base, "sensitivity", "key=x").contains("no such query parameter"));
    assert_eq!(get(&format!("{base}/api/run/1")).status, 404, "nothing was queued");
}

fn reply_error(base: &str, endpoint: &str, query: &str) -> String {
    let reply = post(&format!("{base}/api/{endpoint}?{query}"), &naval());
    assert_eq!(reply.status, 400, "{}", reply.body);
    reply.error()
}

#[test]
fn a_sweep_without_values_takes_the_current_value_and_its_neighbours_within_range() {
    let base = shipped();
    let values = |key: &str| post(&format!("{base}/api/sweep/values?key={key}"), &naval()).json();
    assert_eq!(
        values("naval.group[0].distance"),
        serde_json::json!({"key": "naval.group.taranto.distance", "values": ["8", "6", "7", "9", "10"]})
    );
    assert_eq!(values("naval.group.flotilla.distance")["values"], serde_json::json!(["2", "0", "1", "3", "4"]));
    assert_eq!(
        values("naval.combat.p_end_after_round")["values"],
        serde_json::json!(["0.4", "0.3", "0.35", "0.45", "0.5"])
    );
    let name = post(&format!("{base}/api/sweep/values?key=naval.group.taranto.name"), &naval());
    assert!(name.status == 422 && name.error().contains("not a number of the config"), "{}", name.body);
    let id = queue(&base, "sweep", "key=naval.group.flotilla.distance&trials=2000");
    let done = poll_until(&base, &id, LONG, |s| s["state"] == "done");
    assert_eq!(done["result"]["axes"][0]["values"], serde_json::json!([2, 0, 1, 3, 4]));
    assert_eq!(done["result"]["trials"], 2000, "the what-if default trials come only from the query");
}

#[test]
fn the_trials_limit_counts_every_point_and_a_running_sweep_can_be_cancelled() {
    let small = start(Options { max_trials: 100_000, ..Options::default() });
    let over = post(&format!("{small}/api/sweep?key=naval.group[0].distance&values=7,8,9&trials=40000"), &naval());
    assert_eq!(over.status, 422, "{}", over.body);
    assert!(over.error().starts_with("trials × points: 120000 is more than a job may run here"), "{}", over.error());
    assert_eq!(get(&format!("{small}/api/run/1")).status, 404, "nothing was queued");
    let base = shipped();
    let id = queue(&base, "sweep", "key=naval.group[0].distance&values=7,8&trials=40000000");
    let running = poll_until(&base, &id, LONG, |s| s["trials_done"].as_u64() > Some(0));
    assert_eq!(running["state"], "running", "{running}");
    call("DELETE", &format!("{base}/api/run/{id}"), b"");
    let cancelled = poll_until(&base, &id, LONG, |s| s["state"] == "cancelled");
    assert_eq!(cancelled["reason"], "cancelled on request");
    assert!(cancelled.get("result").is_none() && cancelled["trials_done"].as_u64() < Some(80_000_000));
}

/// `POST /api/sweep/exact`: every value solved exactly, ascending, the current value among them with a
/// difference of 0, each fraction the command line's sweep gives for the same value; a value the rules refuse
/// says why, and nothing is sampled.
#[test]
fn an_exact_sweep_solves_every_value_as_the_cli_does() {
    let base = shipped();
    let url = format!("{base}/api/sweep/exact?key=naval.group.taranto.distance&values=10,-1,6,7");
    let reply = post(&url, &naval());
    assert_eq!(reply.status, 200, "{}", reply.body);
    let doc = reply.json();
    assert_eq!(
        (doc["key"].as_str(), doc["metric"].as_str()),
        (Some("naval.group.taranto.distance"), Some("mission.completed"))
    );
    let points = doc["points"].as_array().unwrap();
    let values: Vec<&str> = points.iter().map(|p| p["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["-1", "6", "7", "8", "10"], "ascending, the current value 8 added");
    assert_eq!(points[0]["state"], "refused");
    assert!(points[0]["reason"].as_str().unwrap().contains("-1 is out of range; allowed: 0 to 99"), "{}", points[0]);
    assert_eq!((points[3]["current"].as_bool(), points[3]["difference_fraction"].as_str()), (Some(true), Some("0")));
    assert_eq!(doc["too_large"], 0);
    let cli = cli_json(&["sweep", NAVAL, "--set", "naval.group.taranto.distance=8,6,7,10", "--trials", "100"]);
    for point in cli["points"].as_array().unwrap() {
        let value = point["settings"]["naval.group.taranto.distance"].to_string();
        let mine = points.iter().find(|p| p["value"] == value.as_str()).unwrap();
        assert_eq!(mine["exact_fraction"], point["metrics"][0]["exact_fraction"], "at {value}");
    }
    let seven = &points[2];
    assert_eq!(seven["difference_fraction"], "65/69984", "54367/93312 - 162841/279936, worked out exactly");
    let jobs = get(&format!("{base}/api/status")).json();
    assert_eq!(jobs["jobs"]["running"], 0, "nothing sampled");
    let typed =
        post(&format!("{base}/api/sweep/exact?key=naval.group.taranto.distance&values=8.0,7,7"), &naval()).json();
    let values: Vec<&str> = typed["points"].as_array().unwrap().iter().map(|p| p["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["7", "8"], "a typed 8.0 is the current value, each value once");
}
