//! Partial results end to end: shards merged, and an interrupted run resumed, each writing exactly the bytes
//! of a run made in one go; and the folders `merge` and `--resume` must refuse.

mod stopped;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use polars::prelude::{ParquetReader, SerReader};

const CHAIN: &str = "configs/naval/three-level-chain.toml";

fn sim() -> Command {
    Command::cargo_bin("intercept-sim").expect("binary built")
}

/// Runs the chain with `extra` arguments into `out`, which must succeed.
fn run(out: &Path, extra: &[&str]) {
    sim().args(["run", CHAIN, "--trials", "400000"]).args(extra).arg("--out").arg(out).assert().success();
}

fn shards(tmp: &Path, seed: &str) -> Vec<PathBuf> {
    (0..3)
        .map(|k| {
            let dir = tmp.join(format!("shard-{seed}-{k}"));
            run(&dir, &["--seed", seed, "--shard", &format!("{k}/3"), "--threads", "1"]);
            dir
        })
        .collect()
}

#[test]
fn three_shards_merge_into_the_bytes_of_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let single = tmp.path().join("single");
    run(&single, &["--seed", "5"]);
    let parts = shards(tmp.path(), "5");
    let manifest = std::fs::read_to_string(parts[1].join("manifest.json")).unwrap();
    assert!(manifest.contains("\"partial\": true"), "a shard is a partial result");
    let merged = tmp.path().join("merged");
    // In any order: the chunks say where each shard belongs.
    sim().args(["merge"]).args([&parts[2], &parts[0], &parts[1]]).arg("--out").arg(&merged).assert().success();
    stopped::assert_same_files(&single, &merged, 15);
}

/// Merges `dirs` into a fresh folder, which must fail with exit 2 and one line containing `message`, and
/// write nothing.
fn merge_refused(tmp: &Path, dirs: &[&PathBuf], message: &str) {
    let out = tmp.join("refused");
    let assert = sim().arg("merge").args(dirs).arg("--out").arg(&out).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains(message) && stderr.trim().lines().count() == 1, "{message}: {stderr}");
    assert!(!out.exists(), "nothing written");
}

#[test]
fn merge_refuses_a_missing_repeated_or_foreign_shard() {
    let tmp = tempfile::tempdir().unwrap();
    let parts = shards(tmp.path(), "5");
    let other_seed = shards(tmp.path(), "6");
    merge_refused(tmp.path(), &[&parts[0], &parts[2]], "are missing: no shard given covers them");
    merge_refused(tmp.path(), &[&parts[0], &parts[1]], "are missing: no shard given covers them");
    merge_refused(tmp.path(), &[&parts[0], &parts[1], &parts[1], &parts[2]], "repeats chunks");
    merge_refused(tmp.path(), &[&parts[0], &other_seed[1], &parts[2]], "its seed differs");
    let other_config = tmp.path().join("other-config");
    sim()
        .args(["run", CHAIN, "--trials", "400001", "--seed", "5", "--shard", "1/3", "--out"])
        .arg(&other_config)
        .assert()
        .success();
    merge_refused(tmp.path(), &[&parts[0], &other_config, &parts[2]], "its config differs");
    merge_refused(tmp.path(), &[&tmp.path().join("nowhere")], "cannot read the run's manifest");
}

/// SIGTERM part-way through a run, then `--resume`: the folder ends with the bytes of an uninterrupted run.
#[test]
fn an_interrupted_run_resumes_into_the_bytes_of_an_uninterrupted_one() {
    let tmp = tempfile::tempdir().unwrap();
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    let trials = LONG_RUN;
    sim().args(["run", CHAIN, "--trials", trials, "--out"]).arg(&whole).assert().success();
    let stderr = interrupted(&cut, trials, &[], Duration::from_millis(1500));
    assert!(stderr.contains("intercept-sim run --resume"), "{stderr}");
    stopped::assert_partial(&cut, LONG_RUN.parse().unwrap());
    sim().args(["run", "--resume"]).arg(&cut).assert().success();
    stopped::assert_same_files(&whole, &cut, 15);
    let again = sim().args(["run", "--resume"]).arg(&cut).assert().code(2);
    let stderr = String::from_utf8_lossy(&again.get_output().stderr).into_owned();
    assert!(stderr.contains("nothing to resume"), "{stderr}");
}

/// Trials of a chain run that SIGTERM at 1.5 s must stop part-way: about 4 s of a test build's work on two
/// threads at the path memo's 50 M trials/s (40 M, a second's work on a fast machine, could finish first).
const LONG_RUN: &str = "200000000";

/// Interrupts `run` with `--trials trials` and `extra` arguments into `out` after `after`; returns its stderr.
fn interrupted(out: &Path, trials: &str, extra: &[&str], after: Duration) -> String {
    let mut args: Vec<&OsStr> =
        ["run", CHAIN, "--trials", trials].into_iter().chain(extra.iter().copied()).map(OsStr::new).collect();
    args.extend([OsStr::new("--out"), out.as_os_str()]);
    stopped::interrupted(&args, after)
}

/// An interrupted `--per-trial` run leaves a whole `trials.parquet` of the chunks it finished, one row per
/// trial the manifest counts; such a run cannot be resumed, and says why.
#[test]
fn an_interrupted_per_trial_run_leaves_a_whole_parquet_file() {
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut");
    interrupted(&cut, "20000000", &["--per-trial"], Duration::from_millis(1500));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cut.join("manifest.json")).unwrap()).unwrap();
    let trials = manifest["trials"].as_u64().unwrap();
    let file = std::fs::File::open(cut.join("trials.parquet")).unwrap();
    let rows = ParquetReader::new(file).finish().expect("a whole Parquet file").height();
    assert_eq!(rows as u64, trials);
    assert!(trials > 0 && trials < 20_000_000, "{trials}");
    let refused = sim().args(["run", "--resume"]).arg(&cut).assert().code(2);
    assert!(String::from_utf8_lossy(&refused.get_output().stderr).contains("cannot be resumed"));
}

#[test]
fn a_bad_shard_is_refused() {
    for shard in ["3/3", "1", "a/b", "-1/3", "0/0"] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let assert = sim().args(["run", CHAIN, "--shard", shard, "--out"]).arg(&out).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains("--shard"), "{shard}: {stderr}");
        assert!(!out.exists(), "{shard}: nothing written");
    }
}

/// Rewrites `dir/manifest.json` through `edit`, laid out as the tool writes it; with `reseal`, its digest is
/// made to match again, as a careful forger would (one without the job's key, whose key seal stays as it
/// was), so that only the key or the checks of the counts can catch the edit.
fn edit_manifest(dir: &Path, reseal: bool, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = dir.join("manifest.json");
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut doc);
    let mut record: intercept_sim::output::export::RunRecord = serde_json::from_value(doc).unwrap();
    if reseal {
        record.set_digest();
    }
    std::fs::write(&path, intercept_sim::core::seal::text(&record)).unwrap();
}

/// A copy of the shard folders with `edit` made to shard `k`'s manifest.
fn edited(
    tmp: &Path,
    parts: &[PathBuf],
    k: usize,
    reseal: bool,
    edit: impl FnOnce(&mut serde_json::Value),
) -> Vec<PathBuf> {
    static EDITS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let copy = tmp.join(format!("edited-{}", EDITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    let dirs: Vec<PathBuf> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let to = copy.join(i.to_string());
            std::fs::create_dir_all(&to).unwrap();
            std::fs::copy(p.join("manifest.json"), to.join("manifest.json")).unwrap();
            to
        })
        .collect();
    edit_manifest(&dirs[k], reseal, edit);
    dirs
}

/// A shard's manifest edited by hand is refused by `merge`, in one line, exit 2, whether its digest was left
/// as it was or made to match: a count beyond the trials, a count that wraps a sum, trials that are not the
/// chunks', counts cut short in the first shard or a later one.
#[test]
fn merge_refuses_an_edited_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let parts = shards(tmp.path(), "5");
    let plus_a_billion =
        |d: &mut serde_json::Value| d["counts"][0] = (d["counts"][0].as_u64().unwrap() + 1_000_000_000).into();
    let cases: Vec<(Vec<PathBuf>, &str)> = vec![
        (edited(tmp.path(), &parts, 1, false, plus_a_billion), "was changed after the run wrote it"),
        (edited(tmp.path(), &parts, 1, true, plus_a_billion), "mission.intercepted is counted in"),
        (edited(tmp.path(), &parts, 2, true, |d| d["counts"][0] = u64::MAX.into()), "is counted in"),
        (
            edited(tmp.path(), &parts, 0, true, |d| d["trials"] = (d["trials"].as_u64().unwrap() * 10).into()),
            "trials where its chunks hold",
        ),
        (
            edited(tmp.path(), &parts, 0, true, |d| drop(d["counts"].as_array_mut().unwrap().pop())),
            "counts where the run's metrics have",
        ),
        (
            edited(tmp.path(), &parts, 2, true, |d| drop(d["counts"].as_array_mut().unwrap().remove(3))),
            "counts where the run's metrics have",
        ),
    ];
    for (dirs, message) in cases {
        let refs: Vec<&PathBuf> = dirs.iter().collect();
        merge_refused(tmp.path(), &refs, message);
    }
}

/// An interrupted run whose manifest was edited is refused by `--resume` before any trial runs.
#[test]
fn resume_refuses_an_edited_manifest_before_running() {
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut");
    interrupted(&cut, LONG_RUN, &[], Duration::from_millis(1500));
    edit_manifest(&cut, true, |d| drop(d["counts"].as_array_mut().unwrap().pop()));
    let before = std::fs::read(cut.join("manifest.json")).unwrap();
    let assert = sim().args(["run", "--resume"]).arg(&cut).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("counts where the run's metrics have") && stderr.trim().lines().count() == 1, "{stderr}");
    assert_eq!(std::fs::read(cut.join("manifest.json")).unwrap(), before, "nothing ran, nothing written");
}

/// A count of `slot` in `d` lowered by `by`.
fn lowered(d: &mut serde_json::Value, slot: usize, by: u64) {
    d["counts"][slot] = (d["counts"][slot].as_u64().unwrap() - by).into();
}

/// The slot of mission.completed in the chain's counts.
const COMPLETED: usize = 2;

/// Counts forged and re-sealed, as a forger who knows the format would (issue 35): a count lowered, a count
/// zeroed, a config changed in every shard. The digest matches and the counts fit their trials, but a run of
/// the config could not have made them, and the exact values say so.
#[test]
fn merge_refuses_forged_counts_against_the_exact_values() {
    let tmp = tempfile::tempdir().unwrap();
    let parts = shards(tmp.path(), "5");
    let cases: Vec<(Vec<PathBuf>, &str)> = vec![
        (edited(tmp.path(), &parts, 1, true, |d| lowered(d, COMPLETED, 5_000)), "its count of mission.completed is"),
        (edited(tmp.path(), &parts, 2, true, |d| d["counts"][COMPLETED] = 0.into()), "mission.completed is 0 in"),
    ];
    for (dirs, message) in cases {
        merge_refused(tmp.path(), &dirs.iter().collect::<Vec<_>>(), message);
    }
    // The config's combat odds changed in every shard, so that they still agree with each other.
    let mut dirs = parts.clone();
    for k in 0..3 {
        dirs = edited(tmp.path(), &dirs, k, true, |d| {
            d["config"]["naval"]["combat"]["p_intercepting_side_wins"] = 0.6.into()
        });
    }
    merge_refused(tmp.path(), &dirs.iter().collect::<Vec<_>>(), "the counts were forged or damaged");
}

/// An interrupted run whose count was lowered and re-sealed is refused by `--resume` before any trial runs.
#[test]
fn resume_refuses_a_forged_partial_count() {
    let tmp = tempfile::tempdir().unwrap();
    let cut = tmp.path().join("cut");
    interrupted(&cut, LONG_RUN, &[], Duration::from_millis(1500));
    edit_manifest(&cut, true, |d| {
        let done = d["counts"][COMPLETED].as_u64().unwrap();
        lowered(d, COMPLETED, done / 10);
    });
    let assert = sim().args(["run", "--resume"]).arg(&cut).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("its count of mission.completed") && stderr.trim().lines().count() == 1, "{stderr}");
}

/// Shards sealed with the job's key merge only with that key; a seed changed and re-sealed without the key,
/// which the counts cannot reveal, is refused by the key seal, and so is a manifest whose seal was removed.
#[test]
fn a_job_key_seals_the_shards_against_forgery() {
    let tmp = tempfile::tempdir().unwrap();
    let key = tmp.path().join("job.key");
    std::fs::write(&key, "a secret the shards of this job share\n").unwrap();
    let parts: Vec<PathBuf> = (0..2)
        .map(|k| {
            let dir = tmp.path().join(format!("keyed-{k}"));
            let shard = format!("{k}/2");
            let args = ["--seed", "5", "--shard", shard.as_str(), "--threads", "1", "--key-file"];
            sim()
                .args(["run", CHAIN, "--trials", "100000"])
                .args(args)
                .arg(&key)
                .arg("--out")
                .arg(&dir)
                .assert()
                .success();
            dir
        })
        .collect();
    let merged = tmp.path().join("merged");
    sim().arg("merge").args(&parts).arg("--key-file").arg(&key).arg("-q").arg("--out").arg(&merged).assert().success();
    let manifest = std::fs::read_to_string(merged.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"mac\": \""), "the merged run is sealed with the key too");
    // The key may come from the environment instead.
    let from_env = tmp.path().join("from-env");
    let secret = std::fs::read_to_string(&key).unwrap();
    sim()
        .arg("merge")
        .args(&parts)
        .env("INTERCEPT_SIM_KEY", secret.trim())
        .arg("-q")
        .arg("--out")
        .arg(&from_env)
        .assert()
        .success();
    stopped::assert_same_files(&merged, &from_env, 15);

    let refused = |dirs: &[PathBuf], key_given: bool, message: &str| {
        let out = tmp.path().join("refused");
        let mut cmd = sim();
        cmd.arg("merge").args(dirs).env_remove("INTERCEPT_SIM_KEY");
        if key_given {
            cmd.arg("--key-file").arg(&key);
        }
        let assert = cmd.arg("--out").arg(&out).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(message) && stderr.trim().lines().count() == 1, "{message}: {stderr}");
        assert!(!out.exists(), "nothing written");
    };
    refused(&parts, false, "is sealed with a key: give the job's key");
    let mut reseeded = parts.clone();
    for k in 0..2 {
        reseeded = edited(tmp.path(), &reseeded, k, true, |d| d["seed"] = 6.into());
    }
    refused(&reseeded, true, "key seal does not match");
    let unsealed = edited(tmp.path(), &parts, 1, true, |d| drop(d.as_object_mut().unwrap().remove("mac")));
    refused(&unsealed, true, "has no key seal, but a key was given");
    let short = tmp.path().join("short.key");
    std::fs::write(&short, "secret").unwrap();
    let assert = sim()
        .arg("merge")
        .args(&parts)
        .arg("--key-file")
        .arg(&short)
        .arg("--out")
        .arg(tmp.path().join("x"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("a key must have 16 to 4096 bytes"), "{stderr}");
}
