//! The Monte Carlo job endpoints: `POST /api/run` queues a run of the config in the body (202 with its id),
//! `GET /api/run/{id}` reports the state and progress of any job (a run, sweep or sensitivity run; its
//! `--json` document once done),
//! `DELETE /api/run/{id}` or `POST /api/run/{id}/cancel` cancels it, and `GET /api/run/{id}/files/{name}`
//! downloads one of the files it wrote.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::extract::rejection::StringRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use intercept_core::config::{Overrides, Scenario};
use intercept_core::runner::SampleOptions;
use intercept_output::{outputs, show};
use serde_json::json;

use crate::config::{DEFAULT_NAME, scenario};
use crate::error::{Answer, ApiError, body, off_runtime, query};
use crate::jobs::{self, Finished, Job, JobFailed, Refused, Task, Work};

/// The largest seed or trial count: what a config can hold (TOML integers are 64-bit signed).
const MOST: u64 = i64::MAX as u64;

pub async fn start(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let text = body(text)?;
    let (overrides, name, _) = run_query(raw.0, &[])?;
    let configs = s.options.configs.clone();
    let scenario = off_runtime(move || scenario(&configs, &text, &name, overrides)).await?;
    enqueue(&s, Box::new(Trials(scenario)), "trials")
}

/// A Monte Carlo run of the scenario, as `run`.
struct Trials(Scenario);

impl Task for Trials {
    fn kind(&self) -> &'static str {
        "run"
    }

    fn trials(&self) -> u64 {
        self.0.run.trials
    }

    /// Runs the scenario's trials and writes its files into the job's folder.
    fn play(self: Box<Self>, job: &Job, threads: usize) -> Result<Finished, JobFailed> {
        let opts = SampleOptions {
            threads: Some(threads),
            interrupt: Some(Arc::clone(job.stop_flag())),
            ..Default::default()
        };
        let record = outputs::sample(&self.0, &opts, None, &|n| job.advance(n)).map_err(|e| e.to_string())?;
        if record.unfinished() {
            return Err("stopped".into());
        }
        let (folder, names) = job.files(true, |dir| outputs::export(&record, dir))?;
        Ok((folder, names, show::summary_value(&record)))
    }
}

/// Queues `work` (202 with its id), unless it would play more trials than a job may here (422: `counted`
/// says how its trials are counted) or the queue is full (429).
pub fn enqueue(s: &crate::State, work: Work, counted: &str) -> Answer {
    let (asked, most) = (work.trials(), s.options.max_trials);
    if asked > most {
        return Err(ApiError::unprocessable(format!(
            "{counted}: {asked} is more than a job may run here; allowed: 1 to {most} (--max-trials)"
        )));
    }
    let job = s.jobs.start(work).map_err(|Refused::QueueFull| {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too many jobs queued; wait for one to finish, or cancel one")
    })?;
    Ok((StatusCode::ACCEPTED, axum::Json(json!({ "id": job.id.to_string() }))).into_response())
}

/// A job's query: the overrides of `[run]`, the name messages give the body, and the other pairs.
pub type RunQuery = (Overrides, String, Vec<(String, String)>);

/// `?trials=N&seed=S&name=FILE`: overrides of the config's `[run]`, and the name messages give the body;
/// with the pairs of the `extra` names a job of another kind takes, in order.
pub fn run_query(raw: Option<String>, extra: &[&str]) -> Answer<RunQuery> {
    let (mut overrides, mut name, mut rest) = (Overrides::default(), DEFAULT_NAME.to_owned(), Vec::new());
    let allowed: Vec<&str> = ["trials", "seed", "name"].iter().chain(extra).copied().collect();
    for (k, v) in query(raw, &allowed)? {
        match k.as_str() {
            "trials" => overrides.trials = Some(whole(&k, &v, 1)?),
            "seed" => overrides.seed = Some(whole(&k, &v, 0)?),
            "name" => name = v,
            _ => rest.push((k, v)),
        }
    }
    Ok((overrides, name, rest))
}

fn whole(key: &str, v: &str, least: u64) -> Answer<u64> {
    match v.parse::<u64>() {
        Ok(n) if (least..=MOST).contains(&n) => Ok(n),
        _ => Err(ApiError::bad_request(format!(
            "{key}: {:?} is not allowed; allowed: a whole number from {least} to {MOST}",
            intercept_core::text::clip(v, 40)
        ))),
    }
}

/// The job `id`, counting the request as a poll.
fn job(s: &crate::State, id: &str) -> Answer<Arc<Job>> {
    let job = id.parse().ok().and_then(|id| s.jobs.get(id));
    let job = job.ok_or_else(|| ApiError::not_found(format!("no job {id:?}: it never was, or has been forgotten")))?;
    job.status().polled = Instant::now();
    Ok(job)
}

pub async fn status(State(s): State<crate::State>, Path(id): Path<String>) -> Answer {
    let job = job(&s, &id)?;
    let status = job.status();
    let mut body = json!({
        "id": job.id.to_string(),
        "kind": job.kind,
        "state": status.state,
        "trials_done": job.done.load(Ordering::Relaxed).min(job.trials()),
        "trials": job.trials(),
    });
    if let Some(reason) = &status.reason {
        body["reason"] = json!(reason);
    }
    if let Some(result) = &status.result {
        body["result"] = result.clone();
        body["files"] = json!(status.files);
    }
    Ok(axum::Json(body).into_response())
}

pub async fn cancel(State(s): State<crate::State>, Path(id): Path<String>) -> Answer {
    let job = job(&s, &id)?;
    job.stop(jobs::State::Cancelled, "cancelled on request");
    let state = job.status().state;
    Ok(axum::Json(json!({ "id": job.id.to_string(), "state": state })).into_response())
}

pub async fn file(State(s): State<crate::State>, Path((id, name)): Path<(String, String)>) -> Answer {
    let job = job(&s, &id)?;
    let path = job.file(&name).ok_or_else(|| ApiError::not_found(format!("job {id} has no file {name:?}")))?;
    let bytes = tokio::fs::read(&path).await.map_err(|e| ApiError::not_found(format!("{name}: {e}")))?;
    let disposition = format!("attachment; filename=\"{name}\"");
    Ok((
        [(header::CONTENT_TYPE, crate::assets::content_type(&name)), (header::CONTENT_DISPOSITION, disposition)],
        bytes,
    )
        .into_response())
}
