//! Scale-out on a real scheduler. A one-node Slurm cluster (Debian's `slurm-wlm` and `munge`, installed with
//! apt-get when missing, started by `common/slurm.rs` in a temporary folder) runs the documented job scripts
//! of docs/slurm/ unchanged: `submit.sh` submits a job array of three shards of a shipped config and a merge
//! that depends on them, and the merged folder must hold, byte for byte, the files of one `run` with the
//! same config, trials and seed. The test skips, with one line saying why, only when the packages cannot be
//! installed (not root, no package mirror); any other failure fails it and prints the daemons' and jobs' logs.
//! A second test checks that docs/scale-out.md shows each script exactly as it is.

mod stopped;

#[path = "common/slurm.rs"]
mod slurm;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use slurm::Cluster;

const CONFIG: &str = "configs/naval/three-level-chain.toml";
/// Five chunks of 65,536 trials, so the three shards cover chunks 0..1, 1..3 and 3..5.
const TRIALS: &str = "300000";
const SEED: &str = "1941";
/// How long the array and the merge may take together, from submission to an empty queue.
const JOBS_LIMIT: Duration = Duration::from_secs(90);
/// The scripts in docs/slurm/, each shown in docs/scale-out.md.
const SCRIPTS: [&str; 3] = ["submit.sh", "shards.sbatch", "merge.sbatch"];

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_documented_job_array_merges_into_the_bytes_of_one_run() {
    if let Err(reason) = slurm::installed() {
        println!("skipped: the Slurm packages cannot be installed here: {reason}");
        return;
    }
    let started = Instant::now();
    let cluster = Cluster::start();
    let out = cluster.dir().join("run");
    let sim = assert_cmd::cargo::cargo_bin("intercept-sim");
    let mut submit = cluster.command("bash");
    // From the repository's root, as the docs say; the jobs write only under OUT, in the temporary folder.
    submit.arg("docs/slurm/submit.sh").current_dir(repo("."));
    submit.env("CONFIG", CONFIG).env("TRIALS", TRIALS).env("SEED", SEED).env("SHARDS", "3").env("CPUS", "1");
    submit.env("INTERCEPT_SIM", &sim).env("OUT", &out);
    println!("{}", cluster.output(&mut submit).trim());
    let jobs = cluster.finished_jobs(JOBS_LIMIT);
    assert_eq!(jobs.len(), 4, "three array tasks and the merge: {jobs:#?}");
    for job in &jobs {
        assert!(job.contains(" JobState=COMPLETED "), "every job completes: {job}");
    }
    let single = cluster.dir().join("single");
    let mut run = std::process::Command::new(&sim);
    run.args(["run", CONFIG, "--trials", TRIALS, "--seed", SEED, "--out"]).arg(&single).current_dir(repo("."));
    cluster.output(&mut run);
    stopped::assert_same_files(&single, &out.join("merged"), 15);
    println!("the cluster started, ran the array and the merge, and matched one run in {:?}", started.elapsed());
}

#[test]
fn the_docs_show_the_job_scripts_as_they_are() {
    let doc = std::fs::read_to_string(repo("docs/scale-out.md")).unwrap();
    for script in SCRIPTS {
        let text = std::fs::read_to_string(repo(&format!("docs/slurm/{script}"))).unwrap();
        let shown = doc.contains(&format!("```bash\n{text}```\n"));
        assert!(shown, "docs/scale-out.md shows docs/slurm/{script} exactly as it is, in a ```bash block");
    }
}
