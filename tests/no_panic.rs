//! A panic anywhere in the command line or the server is a bug (issue 35): every command that reads a config,
//! and every workbench endpoint that does, is run over a corpus of configs with their numbers set to values
//! that broke or could break the arithmetic (long decimals, exponents, the edges of 64-bit integers), and
//! must answer with a result or a refusal: never exit 101 (a panic) and never a 500.

mod web;

use std::path::Path;
use std::time::Duration;

use intercept_web::Options;
use web::{call_with, get, poll_until, start};

/// The values each number of the corpus is set to in turn.
const VALUES: [&str; 16] = [
    "0.123456789",
    "1e-9",
    "0.30000000000000004",
    "0.999999999999999999",
    "0.000000000000000001",
    "2.5e-7",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "-1",
    "0",
    "1e308",
    "nan",
    "-0.0",
    "4294967296",
    "65537",
];

/// How many numbers of each config are set, and to how many values each.
const NUMBERS: usize = 4;
const EACH: usize = 2;

/// The shipped configs left out of the corpus: the largest chance trees, and the expert's 200-game matches,
/// whose 300 trials would take several minutes a run (games to 1,000 turns at hundreds of playouts a turn).
/// `mcts-vs-greedy.toml` fuzzes the same seat keys (player, budget, depth) and the turn limit.
const TOO_LONG: [&str; 5] = [
    "operation-harpoon.toml",
    "screen-with-waypoints.toml",
    "expert-vs-mcts.toml",
    "expert-vs-mcts-equal-nodes.toml",
    "expert-vs-greedy.toml",
];

/// The corpus: every shipped config but those [`TOO_LONG`] to run, each with `NUMBERS` of its numbers (spread over
/// the file) set in turn to `EACH` of [`VALUES`], chosen by position so that every value is used; each
/// entry named by its config, line and value.
fn corpus() -> Vec<(String, String)> {
    let mut configs: Vec<_> = std::fs::read_dir("configs")
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .filter(|p| !TOO_LONG.iter().any(|big| p.ends_with(big)))
        .collect();
    configs.sort();
    let mut out = Vec::new();
    let mut next = 0;
    for path in configs {
        let src = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = src.lines().collect();
        let numbers: Vec<usize> = (0..lines.len()).filter(|&i| number_value(lines[i]).is_some()).collect();
        let stride = (numbers.len() / NUMBERS).max(1);
        for &i in numbers.iter().step_by(stride).take(NUMBERS) {
            for _ in 0..EACH {
                let value = VALUES[next % VALUES.len()];
                next += 1;
                let (key, _) = lines[i].split_once('=').unwrap();
                let mut edited = lines.clone();
                let line = format!("{key}= {value}");
                edited[i] = &line;
                let name = format!("{}:{}={value}", path.display(), i + 1);
                out.push((name, edited.join("\n")));
            }
        }
    }
    out.extend(reported());
    out
}

/// The configs the adversary reported panicking (issue 35), as they were written.
fn reported() -> Vec<(String, String)> {
    let chain = std::fs::read_to_string("configs/naval/three-level-chain.toml").unwrap();
    let edits: [&[(&str, &str)]; 5] = [
        &[("p_end_after_round = 0.4", "p_end_after_round = 0.123456789")],
        &[
            ("p_end_after_round = 0.4", "p_end_after_round = 0.401"),
            ("p_intercepting_side_wins = 0.5", "p_intercepting_side_wins = 0.500001"),
        ],
        &[("p_end_after_round = 0.4", "p_end_after_round = 0.30000000000000004")],
        &[("p_end_after_round = 0.4", "p_end_after_round = 1e-9")],
        &[("p_intercepting_side_wins = 0.5", "p_intercepting_side_wins = 0.30000000000000004")],
    ];
    let edited =
        |edits: &[(&str, &str)]| edits.iter().fold(chain.clone(), |text, (from, to)| text.replacen(from, to, 1));
    edits
        .iter()
        .map(|e| (format!("the reported {}", e.iter().map(|(_, to)| *to).collect::<Vec<_>>().join(", ")), edited(e)))
        .collect()
}

/// The number a `key = number` line holds, if it holds one.
fn number_value(line: &str) -> Option<&str> {
    let (key, value) = line.split_once('=')?;
    let value = value.split('#').next()?.trim();
    let plain_key = key.trim().chars().all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
    let number = value.starts_with(|c: char| c.is_ascii_digit() || c == '-') && value.parse::<f64>().is_ok();
    (plain_key && number).then_some(value)
}

#[test]
fn the_corpus_sets_every_value() {
    let corpus = corpus();
    assert!(corpus.len() >= 100, "{} entries", corpus.len());
    for value in VALUES {
        assert!(corpus.iter().any(|(name, _)| name.ends_with(&format!("={value}"))), "{value} is used");
    }
}

/// Every command that reads a config, over the corpus: none may panic.
#[test]
fn no_command_panics_on_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("fuzzed.toml");
    let out = tmp.path().join("out");
    for (k, (name, text)) in corpus().into_iter().enumerate() {
        std::fs::write(&config, &text).unwrap();
        let mut commands: Vec<Vec<&str>> = vec![
            vec!["validate"],
            vec!["metrics"],
            vec!["exact", "--json"],
            vec!["run", "--trials", "300", "--threads", "1", "-q", "--json"],
        ];
        // The slower studies on a share of the corpus, so the test stays within a minute or two.
        if k % 4 == 0 {
            commands.push(vec!["sensitivity", "--trials", "200", "--threads", "1", "-q"]);
        }
        for args in commands {
            let output = assert_cmd::Command::cargo_bin("intercept-sim")
                .unwrap()
                .arg(args[0])
                .arg(&config)
                .args(&args[1..])
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            let code = output.status.code();
            assert!(matches!(code, Some(0..=2)), "{} on {name}: exit {code:?}: {stderr}", args[0]);
            assert!(!stderr.contains("panicked"), "{} on {name}: {stderr}", args[0]);
            if out.exists() {
                std::fs::remove_dir_all(&out).unwrap();
            }
        }
    }
}

/// Every workbench endpoint that reads a config, over the corpus: never a 500, and a job never ends failed.
#[test]
fn no_endpoint_answers_500_on_the_corpus() {
    let base = start(Options { configs: Path::new("configs").to_owned(), ..Options::default() });
    let toml = [("Content-Type", "application/toml")];
    for (k, (name, text)) in corpus().into_iter().enumerate() {
        let mut endpoints = vec!["validate", "exact", "parse", "picture", "run?trials=300"];
        if k % 4 == 0 {
            endpoints.push("sensitivity?trials=200");
        }
        for endpoint in endpoints {
            let url = format!("{base}/api/{endpoint}");
            let reply = call_with("POST", &url, &toml, text.as_bytes());
            assert!(reply.status != 500 && reply.status != 0, "{endpoint} on {name}: {} {}", reply.status, reply.body);
            if reply.status == 202 {
                let id = reply.json()["id"].as_str().unwrap().to_owned();
                let done = |s: &serde_json::Value| !matches!(s["state"].as_str(), Some("queued" | "running"));
                let status = poll_until(&base, &id, Duration::from_secs(60), done);
                assert_ne!(status["state"], "failed", "{endpoint} on {name}: {status}");
                let _ = call_with("DELETE", &format!("{base}/api/run/{id}"), &[], b"");
            }
        }
    }
    assert_eq!(get(&format!("{base}/api/status")).status, 200, "the server still answers");
}
