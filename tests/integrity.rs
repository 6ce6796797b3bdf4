//! Run folders under faults and adversaries: two runs into one folder, failed and killed runs, planted
//! links, an unwritable folder, and every check that must come before the work. Each test here failed on
//! the code before the run folder was locked, staged and committed as a whole.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Output, Stdio};

use assert_cmd::Command;

const PIKES: &str = "configs/cavalry/charge-on-pikes.toml";
const CHAIN: &str = "configs/naval/three-level-chain.toml";
const RACE: &str = "configs/step-race/box-corner.toml";

fn sim() -> Command {
    Command::cargo_bin("intercept-sim").expect("binary built")
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("intercept-sim")
}

/// Every file of `dir` (hidden ones too) by name, with its bytes.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().into_string().unwrap(), std::fs::read(e.path()).unwrap_or_default()))
        .collect()
}

/// `run CONFIG --trials N --seed S --out DIR`, which must succeed.
fn run(config: &str, seed: u64, trials: u64, out: &Path) {
    let seed = seed.to_string();
    let trials = trials.to_string();
    sim()
        .args(["run", config, "--trials", &trials, "--seed", &seed, "--threads", "1", "--out"])
        .arg(out)
        .assert()
        .success();
}

fn spawn(config: &str, seed: u64, trials: u64, out: &Path) -> Child {
    Process::new(bin())
        .args(["run", config, "--trials", &trials.to_string(), "--seed", &seed.to_string(), "--threads", "1", "--out"])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Asserts the command failed with `code`, printing one line on stderr that holds `message`; returns it.
fn refused(out: &Output, code: i32, message: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(stderr.contains(message), "expected {message:?} in {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    stderr
}

/// Two runs started together into one folder, many times, over and over: each either finishes or is refused
/// at once with one line naming the folder and the run holding it, and the folder ends up holding exactly
/// the files of one whole run, byte for byte, whatever the interleaving. With two rule sets, the files
/// the later run does not write are gone.
#[test]
fn two_runs_into_one_folder_leave_one_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = [(PIKES, 1), (PIKES, 2), (CHAIN, 1)];
    let whole: Vec<BTreeMap<String, Vec<u8>>> = runs
        .iter()
        .enumerate()
        .map(|(i, (config, seed))| {
            let dir = tmp.path().join(format!("whole-{i}"));
            run(config, *seed, 2000, &dir);
            contents(&dir)
        })
        .collect();
    let mut refusals = 0;
    for round in 0..24 {
        let out = tmp.path().join("shared");
        let pair = if round % 2 == 0 { [0, 1] } else { [1, 2] };
        let children: Vec<Child> = pair.iter().map(|&r| spawn(runs[r].0, runs[r].1, 2000, &out)).collect();
        for child in children {
            let done = child.wait_with_output().unwrap();
            if done.status.code() != Some(0) {
                let line = refused(&done, 2, "another run is writing this folder (pid ");
                assert!(line.contains(&out.display().to_string()), "{line}");
                refusals += 1;
            }
        }
        let found = contents(&out);
        assert!(whole.contains(&found), "round {round}: the folder holds no one whole run: {:?}", found.keys());
    }
    println!("{refusals} of 48 runs refused");
}

/// A run that fails part-way through writing (here: a file-size limit, as a full disk would) leaves the
/// earlier run in the folder untouched and no temporary file; the per-trial writer likewise.
#[test]
fn a_failed_run_leaves_the_earlier_run_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run(PIKES, 1, 2000, &out);
    let before = contents(&out);
    for extra in [&[][..], &["--per-trial"][..]] {
        // Writes past 40 kB fail with "File too large" rather than killing the process.
        let script = format!(
            "trap '' XFSZ; ulimit -f 40; exec \"$0\" run {PIKES} --trials 300000 --seed 2 --out \"$1\" {}",
            extra.join(" ")
        );
        let done = Process::new("sh").args(["-c", &script]).arg(bin()).arg(&out).output().unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(1), "{extra:?}: {stderr}");
        assert_eq!(contents(&out), before, "{extra:?}: the earlier run, untouched, and nothing else");
    }
}

/// A run of another rule set into a folder leaves only its own files: the step race's coverage map does not
/// stay beside a cavalry run.
#[test]
fn a_later_run_removes_the_files_of_an_earlier_one_it_does_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, alone) = (tmp.path().join("out"), tmp.path().join("alone"));
    run(RACE, 1, 2000, &out);
    assert!(out.join("coverage.parquet").exists());
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    run(PIKES, 1, 2000, &out);
    run(PIKES, 1, 2000, &alone);
    let mut found = contents(&out);
    assert_eq!(found.remove("notes.txt").as_deref(), Some(&b"mine"[..]), "a file the tool did not write stays");
    assert_eq!(found, contents(&alone));
}

/// A killed run leaves its staging folder; the next run into the folder clears it. Two SIGTERMs (the second
/// quits at once) leave nothing at all.
#[test]
fn what_a_killed_run_leaves_is_cleared_and_a_run_that_quits_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    run(PIKES, 1, 2000, &out);
    let before = contents(&out);
    let mut child = spawn(CHAIN, 1, 400_000_000, &out);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(contents(&out).keys().any(|n| n.starts_with(".staging-")), "a killed run leaves its staging folder");
    run(PIKES, 1, 2000, &out);
    assert_eq!(contents(&out), before, "cleared by the next run");

    let child = Process::new(bin())
        .args(["run", CHAIN, "--trials", "400000000", "--per-trial", "--allow-large", "--out"])
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    for _ in 0..2 {
        Process::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let done = child.wait_with_output().unwrap();
    assert_eq!(done.status.code(), Some(130), "{}", String::from_utf8_lossy(&done.stderr));
    // Quitting at once leaves the earlier run (or, had the partial result been put in place before the
    // second signal, that one): a folder whose index lists exactly its files, and no temporary file.
    let left = contents(&out);
    assert!(left.keys().all(|n| !n.starts_with('.') || n == ".intercept-sim-files"), "{:?}", left.keys());
    let index = String::from_utf8(left[".intercept-sim-files"].clone()).unwrap();
    let files: Vec<&String> = left.keys().filter(|n| !n.starts_with('.')).collect();
    assert_eq!(index.lines().collect::<Vec<_>>(), files, "one whole run");
}

/// A link planted at a name the run writes, or at the old temporary names, is never written through.
#[cfg(unix)]
#[test]
fn planted_links_are_never_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    for name in [".partial-summary.parquet", ".partial-manifest.json", "summary.parquet", ".intercept-sim-files"] {
        std::os::unix::fs::symlink(&victim, out.join(name)).unwrap();
    }
    run(PIKES, 1, 2000, &out);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(!std::fs::symlink_metadata(out.join("summary.parquet")).unwrap().file_type().is_symlink());
    std::os::unix::fs::symlink(&victim, out.join(".intercept-sim.lock")).unwrap();
    let done = sim().args(["run", PIKES, "--out"]).arg(&out).output().unwrap();
    refused(&done, 2, "is a symbolic link, which is never followed");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

/// An output folder that cannot be written is refused before any trial runs, naming the flag.
#[test]
fn an_unwritable_folder_is_refused_before_the_work() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    for out in [file.clone(), file.join("below")] {
        let done = sim().args(["run", CHAIN, "--trials", "30000000", "--out"]).arg(&out).output().unwrap();
        refused(&done, 2, &format!("--out {}: cannot write the output folder", out.display()));
        assert!(done.stdout.is_empty(), "no trial ran");
    }
    // An immutable folder, where the file system has the attribute (ext4, xfs; not tmpfs) and we are root.
    let imm = tmp.path().join("imm");
    std::fs::create_dir(&imm).unwrap();
    if Process::new("chattr").arg("+i").arg(&imm).status().is_ok_and(|s| s.success()) {
        let done = sim().args(["run", CHAIN, "--trials", "30000000", "--out"]).arg(&imm).output().unwrap();
        Process::new("chattr").arg("-i").arg(&imm).status().unwrap();
        refused(&done, 2, "cannot write the output folder");
    }
}

/// Numbers the config could not hold, a shard with no chunks, a step too small to step, and a sweep naming
/// a key twice are refused before anything runs, naming the flag.
#[test]
fn arguments_out_of_range_are_refused_before_the_work() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = out.to_str().unwrap();
    let cases: [(&[&str], &str); 10] = [
        (&["run", PIKES, "--seed", "18446744073709551615", "--out", o], "--seed"),
        (&["run", PIKES, "--trials", "9223372036854775808", "--out", o], "--trials"),
        (&["run", PIKES, "--precision", "0.01", "--max-trials", "99999999999999999999", "--out", o], "--max-trials"),
        (&["replay", "configs/board/greedy-vs-random.toml", "--seed", "9223372036854775808"], "--seed"),
        (&["sweep", PIKES, "--seed", "9223372036854775808", "--set", "cavalry.table.charge=4,5", "--out", o], "--seed"),
        (&["run", PIKES, "--shard", "5/1000", "--out", o], "--shard 5/1000: the run has 16 chunks"),
        (&["sensitivity", PIKES, "--float-step", "1e-10", "--out", o], "--float-step"),
        (
            &["sweep", PIKES, "--set", "cavalry.table.charge=4,5", "--set", "cavalry.table.charge=6", "--out", o],
            "given twice",
        ),
        (&["sweep", PIKES, "--set", "cavalry.table.charge=4,4", "--out", o], "listed twice"),
        (&["run", PIKES, "--per-trial", "--trials", "1000000000000", "--out", o], "--allow-large"),
    ];
    for (args, message) in cases {
        let done = sim().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
}

/// A config file above 1 MiB is one line, at once, and never read whole; a long value is quoted cut short.
#[test]
fn oversized_configs_and_values_are_one_short_line() {
    let tmp = tempfile::tempdir().unwrap();
    let done = sim().args(["validate", "/dev/zero"]).output().unwrap();
    refused(&done, 2, "larger than 1 MiB");
    let src = std::fs::read_to_string(PIKES).unwrap();
    let long = tmp.path().join("long.toml");
    std::fs::write(&long, format!("# {}\n{src}", "x".repeat(2 << 20))).unwrap();
    refused(&sim().args(["validate"]).arg(&long).output().unwrap(), 2, "larger than 1 MiB");
    let named = tmp.path().join("named.toml");
    let name = "/".repeat(900_000);
    std::fs::write(&named, src.replacen("charge-on-pikes\"", &format!("{name}\""), 1)).unwrap();
    let line = refused(&sim().args(["validate"]).arg(&named).output().unwrap(), 2, "key 'run.name'");
    assert!(line.len() < 1000, "{} characters", line.len());
}

/// `exact` on a scenario with thousands of interceptors says "too large" within seconds instead of working
/// for minutes (13 before the leaf walk's budget), whether every unit rolls or they roll until one succeeds:
/// its few states carry distributions thousands of values long, which no cap on states bounds (issue 53);
/// 200 are solved by merging states (issue 37), and `run` fills its exact column from them.
#[test]
fn exact_refuses_a_huge_tree_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    for (units, attempts) in [(8000, "all"), (8000, "until_success")] {
        let path = tmp.path().join(format!("{units}-{attempts}.toml"));
        std::fs::write(&path, many_interceptors(units, attempts)).unwrap();
        let done = sim().arg("exact").arg(&path).output().unwrap();
        refused(&done, 1, "solve it by sampling (`run`) or raise run.max_exact_states");
    }
    // (A run of thousands of units spends its time drawing a chart of thousands of bars, so 200 here.)
    let config = tmp.path().join("200-all.toml");
    std::fs::write(&config, many_interceptors(200, "all")).unwrap();
    let out = tmp.path().join("run");
    sim().arg("run").arg(&config).args(["--trials", "64", "--out"]).arg(&out).assert().success();
    let exact = f64_column_with_nulls(&out.join("summary.parquet"), "exact");
    assert!(exact.iter().all(Option::is_some), "an exact column: {exact:?}");
}

/// A cavalry config with `n` charging interceptors, rolling under `attempts`.
fn many_interceptors(n: usize, attempts: &str) -> String {
    let mut src =
        format!("[cavalry]\nattempts = \"{attempts}\"\n[cavalry.target]\nkind = \"heavy_infantry\"\nmorale = 7\n");
    for i in 0..n {
        src += &format!("[[cavalry.interceptor]]\nname = \"h{i}\"\norder = \"charge\"\ndistance = 2\n");
    }
    src
}

/// trials.parquet is cut into row groups by bytes, not chunks: a run of one-trial chunks is not a file of
/// one-row groups.
#[test]
fn per_trial_row_groups_are_sized_by_bytes() {
    use polars::prelude::{ParquetReader, SerReader};
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("tiny-chunks.toml");
    let src = std::fs::read_to_string(PIKES).unwrap();
    std::fs::write(&config, src.replacen("[run]", "[run]\nchunk_size = 1", 1)).unwrap();
    let out = tmp.path().join("out");
    sim().arg("run").arg(&config).args(["--trials", "300000", "--per-trial", "--out"]).arg(&out).assert().success();
    let mut reader = ParquetReader::new(std::fs::File::open(out.join("trials.parquet")).unwrap());
    let groups = reader.get_metadata().unwrap().row_groups.len();
    assert_eq!(reader.num_rows().unwrap(), 300_000);
    assert!(groups <= 2, "{groups} row groups");
}

/// A column of a Parquet file as optional floats.
fn f64_column_with_nulls(file: &Path, name: &str) -> Vec<Option<f64>> {
    use polars::prelude::{DataType, ParquetReader, SerReader};
    let df = ParquetReader::new(std::fs::File::open(file).unwrap()).finish().unwrap();
    let column = df.column(name).unwrap().cast(&DataType::Float64).unwrap();
    let values = column.f64().unwrap();
    (0..values.len()).map(|i| values.get(i)).collect()
}
