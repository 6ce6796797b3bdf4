//! [`Options`]: where the server listens, who may reach it, which configs folder it serves, and its limits.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The server's address, configs folder and limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to listen on; port 0 picks a free one.
    pub bind: SocketAddr,
    /// The folder of configs the scenario endpoints list, read and write.
    pub configs: PathBuf,
    /// The largest request body, in bytes (413 beyond it).
    pub max_body: usize,
    /// The most trials one job may run (422 beyond it).
    pub max_trials: u64,
    /// The longest a job may run before it is stopped as failed.
    pub job_time: Duration,
    /// Jobs running at once.
    pub max_running: usize,
    /// Jobs waiting to run (429 beyond it).
    pub max_queued: usize,
    /// A job nobody polled for this long is cancelled: the page that started it was closed.
    pub idle: Duration,
    /// How long a finished job (and its files) is kept.
    pub keep: Duration,
    /// The most finished jobs kept; the oldest go first.
    pub keep_count: usize,
    /// Worker threads of each running job.
    pub threads_per_job: usize,
    /// The most chance-tree leaves the scenario list solves for a headline answer (within
    /// [`Options::quick_time`]): bigger trees are listed as too large.
    pub quick_leaves: u64,
    /// The longest the scenario list spends solving one config for its headline answer, in the background.
    pub quick_time: Duration,
    /// The longest one exact solve may take (`/api/exact`, an exact sweep); it is stopped after that, and
    /// at once when its client leaves.
    pub exact_time: Duration,
    /// Exact solves running at once; a request beyond waits up to [`Options::exact_wait`], then is 503.
    pub max_exact: usize,
    /// How long a request waits for one of the [`Options::max_exact`] solves to finish.
    pub exact_wait: Duration,
    /// The token every request must carry (`Authorization: Bearer`, the cookie the first page sets, or
    /// `?token=`), or `None` for no token: required whenever the server listens beyond this machine.
    pub token: Option<String>,
    /// Host names the server answers to besides this machine's loopback names and IP addresses (a page
    /// whose `Host` is any other name was sent here by a DNS record, and is refused).
    pub allowed_hosts: Vec<String>,
}

impl Default for Options {
    fn default() -> Options {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Options {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            configs: PathBuf::from("configs"),
            max_body: 256 * 1024,
            max_trials: 100_000_000,
            job_time: Duration::from_secs(600),
            max_running: 2,
            max_queued: 8,
            idle: Duration::from_secs(60),
            keep: Duration::from_secs(3600),
            keep_count: 32,
            threads_per_job: (cores / 2).max(1),
            quick_leaves: 10_000_000,
            quick_time: Duration::from_secs(2),
            exact_time: Duration::from_secs(10),
            max_exact: 2,
            exact_wait: Duration::from_secs(5),
            token: None,
            allowed_hosts: Vec::new(),
        }
    }
}
