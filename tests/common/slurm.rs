//! A single-node Slurm cluster in a temporary folder, for tests/slurm.rs. `Cluster` starts Debian's `munged`,
//! `slurmctld` and `slurmd` directly as root (there is no systemd in a container), each in the foreground with
//! its key, `slurm.conf`, state, pid file and log in the folder and the daemons on free ports, so nothing
//! outside the folder is read or written. Dropping it cancels what is still queued, stops the daemons and
//! removes the folder; when the test failed it prints every log first.

use std::fs::File;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

#[path = "apt.rs"]
mod apt;

/// Debian's packages: the daemons, the commands (`sbatch`, `srun`, `sinfo`, ...) and the authentication.
const PACKAGES: [&str; 2] = ["slurm-wlm", "munge"];
const MUNGED: &str = "/usr/sbin/munged";
const SLURMCTLD: &str = "/usr/sbin/slurmctld";
const SLURMD: &str = "/usr/sbin/slurmd";
const PROGRAMS: [&str; 6] = [MUNGED, SLURMCTLD, SLURMD, "/usr/bin/sbatch", "/usr/bin/srun", "/usr/bin/sinfo"];

/// How long the node may take to register with the controller and show as idle.
const NODE_LIMIT: Duration = Duration::from_secs(30);
/// How long a daemon may take to stop on SIGTERM before it is killed.
const STOP_LIMIT: Duration = Duration::from_secs(10);

/// Installs Slurm and munge with apt-get when they are missing. The error is the one reason a test may skip
/// for: the packages cannot be installed here. A package that installs but lacks a program fails the test.
pub fn installed() -> Result<(), String> {
    if PROGRAMS.iter().all(|p| Path::new(p).exists()) {
        return Ok(());
    }
    apt::install(&PACKAGES)?;
    let missing: Vec<_> = PROGRAMS.iter().filter(|p| !Path::new(p).exists()).collect();
    assert!(missing.is_empty(), "apt-get installed {PACKAGES:?} but {missing:?} are still missing");
    Ok(())
}

/// The daemons of a one-node cluster and the folder that holds everything they read and write.
pub struct Cluster {
    /// Started in order (munged, slurmctld, slurmd); stopped in reverse order.
    daemons: Vec<(&'static str, Child)>,
    dir: tempfile::TempDir,
}

impl Cluster {
    /// Starts munged, slurmctld and slurmd and waits until the node is idle.
    pub fn start() -> Cluster {
        let dir = tempfile::tempdir().unwrap();
        // munged refuses a socket under a folder others cannot search; only root can write in it.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cluster = Cluster { daemons: Vec::new(), dir };
        let node = node_config();
        cluster.write_config(&node);
        cluster.start_munged();
        cluster.spawn("slurmctld", Process::new(SLURMCTLD).arg("-D"));
        cluster.spawn("slurmd", Process::new(SLURMD).args(["-D", "-N", node_name(&node)]));
        // sinfo fails until slurmctld listens: that is "not yet", like a node still registering.
        cluster.wait("the node to show as idle in sinfo", NODE_LIMIT, || {
            let state = cluster.command("sinfo").args(["-h", "-N", "-o", "%t"]).output().ok()?;
            (state.status.success() && state.stdout == b"idle\n").then_some(())
        });
        cluster
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A Slurm command (`sbatch`, `squeue`, ... or a script that calls them) talking to this cluster only.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Process {
        let mut command = Process::new(program);
        command.env("SLURM_CONF", self.path("slurm.conf"));
        command
    }

    /// What `command` printed; it must succeed.
    pub fn output(&self, command: &mut Process) -> String {
        let out = command.output().unwrap_or_else(|e| panic!("{command:?} could not start: {e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{command:?} failed ({}): {stderr}", out.status);
        String::from_utf8(out.stdout).unwrap()
    }

    /// Waits until the queue is empty, then returns one line per job (`scontrol show job -o`), finished ones
    /// included: slurmctld keeps them for `MinJobAge`, 300 s by default.
    pub fn finished_jobs(&self, limit: Duration) -> Vec<String> {
        self.wait("the queue to empty", limit, || {
            self.output(self.command("squeue").args(["-h", "-o", "%i"])).trim().is_empty().then_some(())
        });
        let jobs = self.output(self.command("scontrol").args(["show", "job", "-o"]));
        jobs.lines().map(str::to_owned).collect()
    }

    /// Polls `ready` until it gives a value, failing the test after `limit`.
    pub fn wait<T>(&self, what: &str, limit: Duration, mut ready: impl FnMut() -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(value) = ready() {
                return value;
            }
            assert!(start.elapsed() < limit, "gave up after {limit:?} waiting for {what}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A minimal single-node `slurm.conf`: root runs everything, processes are tracked through /proc rather
    /// than cgroups, no accounting; a merge whose shards failed is cancelled rather than left pending.
    fn write_config(&self, node: &str) {
        let [ctld_port, slurmd_port] = free_ports();
        let dir = self.dir.path().display();
        let host = node_name(node);
        for state in ["ctld", "slurmd"] {
            std::fs::create_dir(self.path(state)).unwrap();
        }
        let config = format!(
            "ClusterName=intercept\nSlurmctldHost={host}(127.0.0.1)\nSlurmctldPort={ctld_port}\n\
             SlurmdPort={slurmd_port}\nSlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\n\
             CredType=cred/munge\nAuthInfo=socket={dir}/munge.socket\nStateSaveLocation={dir}/ctld\n\
             SlurmdSpoolDir={dir}/slurmd\nSlurmctldPidFile={dir}/slurmctld.pid\nSlurmdPidFile={dir}/slurmd.pid\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\nSelectType=select/cons_tres\n\
             SelectTypeParameters=CR_Core\nMpiDefault=none\nMailProg=/bin/true\nReturnToService=2\n\
             DependencyParameters=kill_invalid_depend\n{node} NodeAddr=127.0.0.1 State=UNKNOWN\n\
             PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP\n"
        );
        std::fs::write(self.path("slurm.conf"), config).unwrap();
    }

    /// munged with a fresh random key (mode 0600, as munged demands), waiting for its socket.
    fn start_munged(&mut self) {
        let mut key = [0u8; 1024];
        File::open("/dev/urandom").unwrap().read_exact(&mut key).unwrap();
        let mut file = std::fs::OpenOptions::new();
        file.write(true).create_new(true).mode(0o600).open(self.path("munge.key")).unwrap().write_all(&key).unwrap();
        let mut munged = Process::new(MUNGED);
        munged.arg("-F");
        for (option, name) in [("key-file", "munge.key"), ("socket", "munge.socket"), ("pid-file", "munged.pid")] {
            munged.arg(format!("--{option}={}", self.path(name).display()));
        }
        munged.arg(format!("--seed-file={}", self.path("munged.seed").display()));
        self.spawn("munged", &mut munged);
        let socket = self.path("munge.socket");
        self.wait("munged's socket", NODE_LIMIT, || socket.exists().then_some(()));
    }

    /// Starts a daemon in a process group of its own (so that stopping it reaches its helpers too), its
    /// output going to `NAME.log` in the folder.
    fn spawn(&mut self, name: &'static str, command: &mut Process) {
        let log = File::create(self.path(&format!("{name}.log"))).unwrap();
        command.env("SLURM_CONF", self.path("slurm.conf")).process_group(0).stdin(Stdio::null());
        command.stdout(log.try_clone().unwrap()).stderr(log);
        let child = command.spawn().unwrap_or_else(|e| panic!("{name} could not start: {e}"));
        self.daemons.push((name, child));
    }

    /// Every log in the folder: the daemons' and the jobs' (any `*.log` or `*.out`, at any depth).
    fn print_logs(&self) {
        for log in logs(self.dir.path()) {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            eprintln!("===== {}\n{text}", log.display());
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.print_logs();
        }
        let running = self.daemons.iter_mut().all(|(_, child)| child.try_wait().is_ok_and(|s| s.is_none()));
        if self.daemons.len() == 3 && running {
            // Jobs still queued or running when a test fails: their processes must not outlive the test.
            let _ = self.command("scancel").args(["--user", "root"]).status();
            let empty = || self.command("squeue").args(["-h"]).output().is_ok_and(|o| o.stdout.is_empty());
            let start = Instant::now();
            while !empty() && start.elapsed() < STOP_LIMIT {
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        while let Some((name, child)) = self.daemons.pop() {
            stop(name, child);
        }
    }
}

/// SIGTERM to the daemon's process group, then SIGKILL if it has not exited after `STOP_LIMIT`.
fn stop(name: &str, mut child: Child) {
    let group = format!("-{}", child.id());
    let signal = |signal: &str| {
        let _ = Process::new("kill").args([signal, "--", &group]).stderr(Stdio::null()).status();
    };
    signal("-TERM");
    let start = Instant::now();
    while child.try_wait().ok().flatten().is_none() {
        if start.elapsed() > STOP_LIMIT {
            eprintln!("{name} did not stop on SIGTERM within {STOP_LIMIT:?}: killed");
            signal("-KILL");
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    signal("-KILL"); // helpers left in the group (slurmctld's slurmscriptd) once the daemon itself is gone
}

/// This machine as `slurmd -C` sees it: `NodeName=HOST CPUs=... RealMemory=...`, its real CPUs and memory.
fn node_config() -> String {
    let out = Process::new(SLURMD).arg("-C").env_remove("SLURM_CONF").output().unwrap();
    assert!(out.status.success(), "slurmd -C failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().next().unwrap_or_default().to_owned();
    assert!(line.starts_with("NodeName="), "slurmd -C describes the node on its first line: {text}");
    line
}

fn node_name(node: &str) -> &str {
    node.split_whitespace().next().and_then(|n| n.strip_prefix("NodeName=")).unwrap()
}

/// Two ports nothing listens on, for slurmctld and slurmd (held together so that they differ).
fn free_ports() -> [u16; 2] {
    let listeners = [(); 2].map(|_| TcpListener::bind("127.0.0.1:0").unwrap());
    listeners.map(|l| l.local_addr().unwrap().port())
}

fn logs(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(logs(&path));
        } else if path.extension().is_some_and(|e| e == "log" || e == "out") {
            found.push(path);
        }
    }
    found.sort();
    found
}
