//! [`Jobs`]: the Monte Carlo work the server holds. A [`Job`] (a run, a sweep or a sensitivity run: its
//! [`Work`], a [`Task`] the endpoints that queue it define) waits in a bounded queue, runs on one of
//! `max_running` worker threads (each run on its own pool of `threads_per_job`, so a job never blocks a
//! request), reports its trials as they finish, and ends done, failed or cancelled; its files are written
//! into a folder of its own (inside the server's one folder of job files, removed when the server stops)
//! that goes when the job is forgotten. A job's stop flag also stops any exact solve it is in the middle of
//! ([`intercept_core::exact::halting`]), so a cancelled job frees its worker at once. [`watch`] stops jobs past the time limit
//! or not polled for a while (the page that started them was closed) and forgets old finished jobs.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use intercept_core::exact;
use serde::Serialize;

use crate::Options;

intercept_output::refusal! {
    /// Why a job failed, as its status reports it: one sentence.
    JobFailed
}

/// Where a job is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Queued,
    Running,
    Done,
    Failed,
    Cancelled,
}

impl State {
    fn finished(self) -> bool {
        matches!(self, State::Done | State::Failed | State::Cancelled)
    }
}

/// One kind of Monte Carlo work a job plays (a run, a sweep, a sensitivity run), defined beside the endpoint
/// that queues it: the queue knows only this.
pub trait Task: Send {
    /// The name the status gives the job's kind.
    fn kind(&self) -> &'static str;
    /// The trials the work will play, every point or step counted (at most that, for a sensitivity run).
    fn trials(&self) -> u64;
    /// Plays the work on `threads` threads, reporting its trials to `job` as they finish, and stopping when
    /// its stop flag is raised.
    fn play(self: Box<Self>, job: &Job, threads: usize) -> Result<Finished, JobFailed>;
}

/// What a job plays: one kind of work, one queue.
pub type Work = Box<dyn Task>;

/// One job: its work (taken by the worker that plays it), progress, and once finished its result.
pub struct Job {
    pub id: u64,
    pub kind: &'static str,
    work: Mutex<Option<Work>>,
    /// The trials it plays in all (a sensitivity run learns it once its exact steps are solved).
    pub total: AtomicU64,
    pub done: AtomicU64,
    stop: Arc<AtomicBool>,
    pub status: Mutex<Status>,
    /// The folder the job's own folder of files goes into: the server's folder of job files.
    root: PathBuf,
}

/// What changes over a job's life.
pub struct Status {
    pub state: State,
    /// Why it failed or was cancelled.
    pub reason: Option<String>,
    /// Why it is being stopped, set before its stop flag.
    stopping: Option<(State, String)>,
    /// Its `--json` document (`run`, `sweep` or `sensitivity`), once done: read once here, not at every poll.
    pub result: Option<serde_json::Value>,
    /// The folder holding its files, and their names.
    pub folder: Option<tempfile::TempDir>,
    pub files: Vec<String>,
    pub polled: Instant,
    started: Option<Instant>,
    finished: Option<Instant>,
}

/// Why a job was not taken.
pub enum Refused {
    QueueFull,
}

/// Every job, and the queue the workers take them from.
pub struct Jobs {
    table: Mutex<HashMap<u64, Arc<Job>>>,
    queue: Arc<Queue>,
    next: AtomicU64,
    /// The folder every job's files go into, removed when the server stops ([`Jobs::remove_files`]).
    files: tempfile::TempDir,
}

/// The jobs waiting for a worker, at most `most`; a job cancelled while waiting leaves its place at once.
struct Queue {
    waiting: Mutex<VecDeque<Arc<Job>>>,
    ready: Condvar,
    most: usize,
}

impl Jobs {
    /// An empty table with `max_running` workers waiting on a queue of `max_queued`, and a new folder for
    /// their files in the system's temporary folder.
    pub fn new(options: &Options) -> std::io::Result<Jobs> {
        let files = tempfile::Builder::new().prefix("intercept-sim-jobs-").tempdir()?;
        let queue = Arc::new(Queue { waiting: Mutex::default(), ready: Condvar::new(), most: options.max_queued });
        for _ in 0..options.max_running.max(1) {
            let (queue, threads) = (Arc::clone(&queue), options.threads_per_job);
            std::thread::spawn(move || work(&queue, threads));
        }
        Ok(Jobs { table: Mutex::default(), queue, next: AtomicU64::new(1), files })
    }

    /// Removes every job's files: the server is stopping (a job still writing fails, and is gone with it).
    pub fn remove_files(&self) {
        let _ = std::fs::remove_dir_all(self.files.path());
    }

    /// Jobs running, and jobs waiting.
    pub fn counts(&self) -> (usize, usize) {
        let states: Vec<State> = self.all().iter().map(|j| j.status().state).collect();
        let count = |s: State| states.iter().filter(|&&x| x == s).count();
        (count(State::Running), count(State::Queued))
    }

    /// Queues `work`; refused when the queue is full.
    pub fn start(&self, work: Work) -> Result<Arc<Job>, Refused> {
        let mut waiting = lock(&self.queue.waiting);
        waiting.retain(|job| job.status().state == State::Queued);
        if waiting.len() >= self.queue.most {
            return Err(Refused::QueueFull);
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let job = Arc::new(Job::new(id, work, self.files.path().to_owned()));
        waiting.push_back(Arc::clone(&job));
        lock(&self.table).insert(id, Arc::clone(&job));
        self.queue.ready.notify_one();
        Ok(job)
    }

    /// The job `id`, if it is kept.
    pub fn get(&self, id: u64) -> Option<Arc<Job>> {
        lock(&self.table).get(&id).cloned()
    }

    fn all(&self) -> Vec<Arc<Job>> {
        lock(&self.table).values().cloned().collect()
    }
}

impl Job {
    fn new(id: u64, work: Work, root: PathBuf) -> Job {
        let status = Status {
            state: State::Queued,
            reason: None,
            stopping: None,
            result: None,
            folder: None,
            files: Vec::new(),
            polled: Instant::now(),
            started: None,
            finished: None,
        };
        let (kind, total) = (work.kind(), AtomicU64::new(work.trials()));
        let work = Mutex::new(Some(work));
        let (done, stop, status) = (AtomicU64::new(0), Arc::default(), Mutex::new(status));
        Job { id, kind, work, total, done, stop, status, root }
    }

    /// The trials the job plays in all.
    pub fn trials(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// Counts `n` more trials played.
    pub fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    /// The flag that asks the work to stop at its next chunk (and any exact walk at its next leaf).
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// A new folder of the job's own for its files, when `wanted`, with what `write` puts in it and the names
    /// of the files written; otherwise no folder and no files.
    pub fn files<E: std::fmt::Display>(
        &self,
        wanted: bool,
        write: impl FnOnce(&std::path::Path) -> Result<Vec<PathBuf>, E>,
    ) -> Result<(Option<tempfile::TempDir>, Vec<String>), JobFailed> {
        if !wanted {
            return Ok((None, Vec::new()));
        }
        let folder = tempfile::Builder::new().prefix("job-").tempdir_in(&self.root).map_err(|e| e.to_string())?;
        let written = write(folder.path()).map_err(|e| e.to_string())?;
        let names = written.iter().filter_map(|p| p.file_name()?.to_str().map(str::to_owned)).collect();
        Ok((Some(folder), names))
    }

    pub fn status(&self) -> MutexGuard<'_, Status> {
        lock(&self.status)
    }

    /// Asks the job to stop at its next chunk, ending as `state` for `reason`; a finished job is left be.
    pub fn stop(&self, state: State, reason: &str) {
        let mut status = self.status();
        if status.state.finished() || status.stopping.is_some() {
            return;
        }
        status.stopping = Some((state, reason.to_owned()));
        self.stop.store(true, Ordering::Relaxed);
        if status.state == State::Queued {
            finish(&mut status, state, Some(reason.to_owned()));
        }
    }

    /// The path of file `name` of a done job, if it wrote one by that name.
    pub fn file(&self, name: &str) -> Option<PathBuf> {
        let status = self.status();
        let folder = status.folder.as_ref()?;
        status.files.iter().any(|f| f == name).then(|| folder.path().join(name))
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A worker that panicked left the data as it was; the table is still usable.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn finish(status: &mut Status, state: State, reason: Option<String>) {
    status.state = state;
    status.reason = reason;
    status.finished = Some(Instant::now());
}

/// The next job waiting, once there is one.
fn next(queue: &Queue) -> Arc<Job> {
    let mut waiting = lock(&queue.waiting);
    loop {
        if let Some(job) = waiting.pop_front() {
            return job;
        }
        waiting = queue.ready.wait(waiting).unwrap_or_else(|e| e.into_inner());
    }
}

/// A worker: takes the next queued job and runs it, for as long as the server lives.
fn work(queue: &Queue, threads: usize) {
    loop {
        let job = next(queue);
        {
            let mut status = job.status();
            if status.state != State::Queued {
                continue;
            }
            status.state = State::Running;
            status.started = Some(Instant::now());
        }
        let ended = exact::halting(job.stop_flag(), || run(&job, threads));
        let mut status = job.status();
        match (ended, status.stopping.take()) {
            (_, Some((state, reason))) => finish(&mut status, state, Some(reason)),
            (Ok((folder, files, document)), None) => {
                (status.folder, status.files, status.result) = (folder, files, Some(document));
                finish(&mut status, State::Done, None);
            }
            (Err(e), None) => finish(&mut status, State::Failed, Some(e.0)),
        }
    }
}

/// What a finished job leaves: the folder of its files (if it wrote any), their names, and its document.
pub type Finished = (Option<tempfile::TempDir>, Vec<String>, serde_json::Value);

/// Plays the job's work on `threads` threads.
fn run(job: &Job, threads: usize) -> Result<Finished, JobFailed> {
    let work = lock(&job.work).take().ok_or("the job was already played")?;
    work.play(job, threads)
}

/// Every quarter second: stops jobs past the time limit or not polled within `idle`, and forgets finished
/// jobs older than `keep` or beyond the newest `keep_count`.
pub async fn watch(state: crate::State) {
    let o = state.options.clone();
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let jobs = state.jobs.all();
        for job in &jobs {
            police(job, &o);
        }
        forget(&state.jobs, &o);
    }
}

fn police(job: &Job, o: &Options) {
    let (state, polled, started) = {
        let s = job.status();
        (s.state, s.polled, s.started)
    };
    if state.finished() {
        return;
    }
    if polled.elapsed() > o.idle {
        let reason = format!("not polled for {} s: the page that started it was closed", o.idle.as_secs_f64());
        job.stop(State::Cancelled, &reason);
    } else if started.is_some_and(|s| s.elapsed() > o.job_time) {
        let reason =
            format!("ran longer than the {} s a job may take here; ask for fewer trials", o.job_time.as_secs_f64());
        job.stop(State::Failed, &reason);
    }
}

fn forget(jobs: &Jobs, o: &Options) {
    let mut table = lock(&jobs.table);
    let mut finished: Vec<(u64, Instant)> = table.values().filter_map(|j| Some((j.id, j.status().finished?))).collect();
    finished.sort_by_key(|(_, at)| std::cmp::Reverse(*at));
    for (n, (id, at)) in finished.into_iter().enumerate() {
        if n >= o.keep_count || at.elapsed() > o.keep {
            table.remove(&id);
        }
    }
}
