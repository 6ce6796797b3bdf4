//! Every output of every shipped config, pinned by SHA-256: `run` (every file it writes, `trials.parquet`
//! and the folder's index included), `run --json`, `exact` and `validate`, for each config in `configs/`.
//!
//! The pins were taken before the code moved into one folder per rule set, so a restructuring that changes
//! a single byte of any result fails here. A change that is meant to alter outputs renews the pins with
//! `PIN_WRITE=1 cargo test --test pinned_outputs` and says so in its commit.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use sha2::{Digest, Sha256};

const PINS: &str = "tests/pinned/outputs.sha256";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped configs, relative to the repository root as a user names them.
fn configs() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for set in std::fs::read_dir(root().join("configs")).unwrap() {
        for file in std::fs::read_dir(set.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                all.push(path.strip_prefix(root()).unwrap().to_owned());
            }
        }
    }
    all.sort();
    all
}

/// Runs the tool from the repository root; its stdout, or stderr when it fails.
fn sim(args: &[&str]) -> Vec<u8> {
    let out = Command::cargo_bin("intercept-sim").unwrap().current_dir(root()).args(args).output().unwrap();
    if out.status.success() { out.stdout } else { out.stderr }
}

/// `run --json` without its timings, which are the only bytes that vary between runs.
fn without_timing(json: &[u8]) -> String {
    let text = String::from_utf8_lossy(json);
    text.lines()
        .filter(|l| !["\"wall_seconds\"", "\"trials_per_second\"", "\"threads\""].iter().any(|k| l.contains(k)))
        .collect::<Vec<_>>()
        .join("\n")
}

fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// `digest  name` for every file under `dir`, named from `dir`, in byte order of the names.
fn folder_digests(dir: &Path, prefix: &str, lines: &mut Vec<String>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        lines.push(format!("{}  {prefix}/{name}", digest(&std::fs::read(&f).unwrap())));
    }
}

/// Every pinned output of one config.
fn config_digests(config: &Path, tmp: &Path, lines: &mut Vec<String>) {
    let name = config.file_stem().unwrap().to_string_lossy().into_owned();
    let trials = if config.starts_with("configs/board") { "6" } else { "20000" };
    let (c, out) = (config.to_str().unwrap(), tmp.join(&name));
    let run = ["run", c, "--trials", trials, "--per-trial", "--out", out.to_str().unwrap()];
    sim(&run);
    folder_digests(&out, &name, lines);
    let json_out = tmp.join(format!("{name}-json"));
    let json = without_timing(&sim(&["run", c, "--trials", trials, "--json", "--out", json_out.to_str().unwrap()]));
    lines.push(format!("{}  {name}.json", digest(json.as_bytes())));
    lines.push(format!("{}  {name}.exact", digest(&sim(&["exact", c]))));
    lines.push(format!("{}  {name}.validate", digest(&sim(&["validate", c]))));
}

#[test]
fn every_output_of_every_shipped_config_is_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    for config in configs() {
        config_digests(&config, tmp.path(), &mut lines);
    }
    let now = lines.join("\n") + "\n";
    if std::env::var_os("PIN_WRITE").is_some() {
        std::fs::write(root().join(PINS), &now).unwrap();
    }
    let pinned = std::fs::read_to_string(root().join(PINS)).unwrap();
    let changed: Vec<&str> = now.lines().filter(|l| !pinned.lines().any(|p| p == *l)).collect();
    assert!(changed.is_empty() && now == pinned, "outputs changed from the pins in {PINS}:\n{}", changed.join("\n"));
}
