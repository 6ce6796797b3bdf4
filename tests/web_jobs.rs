//! The workbench's Monte Carlo jobs over real HTTP: a job queued, running with its trials rising, done with
//! the `run --json` document and its files; cancelled; and the limits (trials, time, concurrent jobs, a page
//! that stops polling), each with its JSON error.

mod web;

use std::path::Path;
use std::time::Duration;

use intercept_web::Options;
use web::{call, cli, get, poll_until, post, start, start_job};

const CAVALRY: &str = "configs/cavalry/charge-on-pikes.toml";
const NAVAL: &str = "configs/naval/three-level-chain.toml";
const LONG: Duration = Duration::from_secs(120);

fn one_at_a_time() -> Options {
    Options { max_running: 1, max_queued: 2, threads_per_job: 1, ..Options::default() }
}

#[test]
fn a_job_is_queued_runs_with_trials_rising_and_is_done_with_the_cli_document() {
    let base = start(one_at_a_time());
    let long = start_job(&base, NAVAL, "trials=100000000");
    let job = start_job(&base, CAVALRY, "trials=3000000&seed=11");
    assert_eq!(get(&format!("{base}/api/run/{job}")).json()["state"], "queued");
    let running = poll_until(&base, &long, LONG, |s| s["trials_done"].as_u64() > Some(0));
    assert_eq!(running["state"], "running");
    let later = poll_until(&base, &long, LONG, |s| s["trials_done"].as_u64() > running["trials_done"].as_u64());
    assert!(later["trials_done"].as_u64() < later["trials"].as_u64(), "{later}");
    let cancelled = call("DELETE", &format!("{base}/api/run/{long}"), b"").json();
    assert!(cancelled["state"] == "running" || cancelled["state"] == "cancelled", "{cancelled}");
    let seen = poll_until(&base, &job, LONG, |s| s["state"] != "queued");
    assert!(seen["state"] == "running" || seen["state"] == "done", "{seen}");
    let done = poll_until(&base, &job, LONG, |s| s["state"] == "done");
    assert_eq!((done["trials_done"].as_u64(), done["trials"].as_u64()), (Some(3_000_000), Some(3_000_000)));
    let out = tempfile::tempdir().unwrap();
    let args = ["run", CAVALRY, "--trials", "3000000", "--seed", "11", "--json", "-q", "--out"];
    let (code, stdout, _) = cli(Path::new("."), &[&args[..], &[out.path().to_str().unwrap()]].concat());
    assert_eq!(code, 0);
    assert_eq!(done["result"], serde_json::from_str::<serde_json::Value>(&stdout).unwrap());
    assert_eq!(poll_until(&base, &long, LONG, |s| s["state"] == "cancelled")["reason"], "cancelled on request");
    files_are_served(&base, &job, &done);
}

/// Every file the job wrote can be downloaded, and nothing else.
fn files_are_served(base: &str, job: &str, done: &serde_json::Value) {
    let files: Vec<&str> = done["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    for name in ["summary.parquet", "distributions.parquet", "report.html", "manifest.json"] {
        assert!(files.contains(&name), "{name} in {files:?}");
    }
    let parquet = get(&format!("{base}/api/run/{job}/files/summary.parquet"));
    assert!(parquet.status == 200 && parquet.body.starts_with("PAR1"), "a Parquet file");
    let report = get(&format!("{base}/api/run/{job}/files/report.html"));
    assert!(report.content_type.starts_with("text/html") && report.body.contains("charge-on-pikes"));
    for name in ["config.toml", "..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd"] {
        assert_eq!(get(&format!("{base}/api/run/{job}/files/{name}")).status, 404, "{name}");
    }
}

#[test]
fn a_queued_job_is_cancelled_at_once_and_an_unknown_one_is_404() {
    let base = start(one_at_a_time());
    let long = start_job(&base, NAVAL, "trials=100000000");
    let queued = start_job(&base, CAVALRY, "");
    let reply = post(&format!("{base}/api/run/{queued}/cancel"), "");
    assert_eq!((reply.status, reply.json()["state"].as_str()), (200, Some("cancelled")));
    call("DELETE", &format!("{base}/api/run/{long}"), b"");
    let ended = poll_until(&base, &long, LONG, |s| s["state"] == "cancelled");
    assert_eq!(ended["state"], "cancelled", "{ended}");
    assert_eq!(get(&format!("{base}/api/run/{queued}")).json()["trials_done"], 0);
    for id in ["999", "x"] {
        let reply = get(&format!("{base}/api/run/{id}"));
        assert_eq!(reply.status, 404, "{id}");
        assert!(reply.error().starts_with(&format!("no job \"{id}\"")), "{}", reply.body);
    }
}

#[test]
fn trials_beyond_the_limit_and_bad_queries_are_refused() {
    let base = start(Options { max_trials: 1000, ..one_at_a_time() });
    let text = std::fs::read_to_string(CAVALRY).unwrap();
    let reply = post(&format!("{base}/api/run?trials=1001"), &text);
    assert_eq!(reply.status, 422);
    assert_eq!(reply.error(), "trials: 1001 is more than a job may run here; allowed: 1 to 1000 (--max-trials)");
    let reply = post(&format!("{base}/api/run"), &text);
    assert_eq!(reply.status, 422, "the config's own trial count is over the limit too");
    for (query, error) in [
        ("trials=0", "trials: \"0\" is not allowed; allowed: a whole number from 1 to 9223372036854775807"),
        ("seed=-1", "seed: \"-1\" is not allowed; allowed: a whole number from 0 to 9223372036854775807"),
        ("threads=4", "threads: no such query parameter; allowed: trials, seed, name"),
    ] {
        let reply = post(&format!("{base}/api/run?{query}"), &text);
        assert_eq!((reply.status, reply.error()), (400, error.to_owned()), "{query}");
    }
    let reply = post(&format!("{base}/api/run?trials=10&name=mine.toml"), "[cavalry]\nmax_distance = 0\n");
    assert_eq!(reply.status, 422);
    assert!(reply.error().starts_with("mine.toml:"), "{}", reply.body);
}

#[test]
fn a_full_queue_is_429() {
    let base = start(Options { max_running: 1, max_queued: 1, threads_per_job: 1, ..Options::default() });
    let first = start_job(&base, NAVAL, "trials=100000000");
    poll_until(&base, &first, LONG, |s| s["state"] == "running");
    let second = start_job(&base, NAVAL, "trials=100000000");
    let reply = post(&format!("{base}/api/run?trials=10"), &std::fs::read_to_string(CAVALRY).unwrap());
    assert_eq!(reply.status, 429);
    assert_eq!(reply.error(), "too many jobs queued; wait for one to finish, or cancel one");
    assert_eq!(get(&format!("{base}/api/rule-sets")).status, 200, "other requests are answered meanwhile");
    for id in [&first, &second] {
        call("DELETE", &format!("{base}/api/run/{id}"), b"");
    }
}

#[test]
fn a_job_past_the_time_limit_fails_with_the_reason() {
    let base = start(Options { job_time: Duration::from_millis(500), ..one_at_a_time() });
    let job = start_job(&base, NAVAL, "trials=100000000");
    let failed = poll_until(&base, &job, LONG, |s| s["state"] == "failed");
    assert_eq!(failed["state"], "failed", "{failed}");
    let reason = failed["reason"].as_str().unwrap();
    assert!(reason.starts_with("ran longer than the 0.5 s a job may take here"), "{reason}");
    assert!(failed["trials_done"].as_u64() < failed["trials"].as_u64() && failed.get("result").is_none());
}

#[test]
fn a_job_nobody_polls_is_cancelled() {
    let base = start(Options { idle: Duration::from_millis(600), ..one_at_a_time() });
    let job = start_job(&base, NAVAL, "trials=100000000");
    std::thread::sleep(Duration::from_millis(1500));
    let status = get(&format!("{base}/api/run/{job}")).json();
    assert_eq!(status["state"], "cancelled", "{status}");
    assert!(status["reason"].as_str().unwrap().starts_with("not polled for"), "{status}");
}

#[test]
fn a_job_cancelled_while_queued_leaves_its_place() {
    let base = start(Options { max_running: 1, max_queued: 1, threads_per_job: 1, ..Options::default() });
    let running = start_job(&base, NAVAL, "trials=100000000");
    poll_until(&base, &running, LONG, |s| s["state"] == "running");
    let queued = start_job(&base, NAVAL, "trials=100000000");
    assert_eq!(post(&format!("{base}/api/run/{queued}/cancel"), "").json()["state"], "cancelled");
    let next = start_job(&base, CAVALRY, "trials=1000");
    assert_eq!(get(&format!("{base}/api/run/{next}")).json()["state"], "queued");
    call("DELETE", &format!("{base}/api/run/{running}"), b"");
    assert_eq!(poll_until(&base, &next, LONG, |s| s["state"] == "done")["state"], "done");
}
