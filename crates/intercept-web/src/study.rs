//! Study jobs (the page's what-if panel), as `intercept_output::study` names a sweep or a sensitivity run:
//! `POST /api/sweep` (one key over a list of values, as `sweep --set`) and
//! `POST /api/sensitivity` (every number under `--only` prefixes one step each way, as `sensitivity`), both
//! queued as [`Work`] on the same job machinery as a run, polled and cancelled through `/api/run/{id}`,
//! done with the same document as the command line's `--json` for the same config, trials and seed.
//! `POST /api/sweep/values` gives the values a sweep of a key takes when none are given
//! ([`intercept_core::sweep::around`]).
//! A [`SensitivityRun`] is a sensitivity run ready to play.

use std::sync::atomic::Ordering;

use axum::extract::rejection::StringRejection;
use axum::extract::{RawQuery, State};
use axum::response::IntoResponse;
use intercept_core::config::set;
use intercept_core::config::{Overrides, Scenario};
use intercept_core::sensitivity::{self, DEFAULT_FLOAT_STEP, Scope, Step};
use intercept_core::sweep::{self, Axis, NoValues};
use intercept_core::{exact, runner};
use intercept_output::show;
use intercept_output::study::{self, SweepStart};
use serde_json::json;

use crate::config::scenario;
use crate::error::{Answer, ApiError, body, off_runtime};
use crate::jobs::{Finished, Job, JobFailed, Task, Work};
use crate::run::{enqueue, run_query};

/// The trials per point (or per stepped value) when the query names none: enough for an interval of about
/// ±0.007 on a probability, few enough to answer in seconds.
pub const STUDY_TRIALS: u64 = 20_000;

/// A sensitivity run ready to play: the scenario, its scope and steps, the metrics its document shows.
pub struct SensitivityRun {
    scenario: Scenario,
    scope: Scope,
    steps: Vec<Step>,
    shown: Vec<String>,
    files: bool,
}

impl Task for SensitivityRun {
    fn kind(&self) -> &'static str {
        "sensitivity"
    }

    /// The most trials it can play: the base and every allowed step sampled (fewer once some are solved).
    fn trials(&self) -> u64 {
        let allowed = self.steps.iter().filter(|s| s.scenario.is_ok()).count() as u64;
        self.scenario.run.trials.saturating_mul(1 + allowed)
    }

    fn play(self: Box<Self>, job: &Job, threads: usize) -> Result<Finished, JobFailed> {
        sensitivity(job, *self, threads)
    }
}

/// A sweep, as `sweep`; writing its files when asked.
struct Sweep {
    start: SweepStart,
    files: bool,
}

impl Task for Sweep {
    fn kind(&self) -> &'static str {
        "sweep"
    }

    fn trials(&self) -> u64 {
        self.start.trials_left()
    }

    fn play(self: Box<Self>, job: &Job, threads: usize) -> Result<Finished, JobFailed> {
        sweep(job, self.start, self.files, threads)
    }
}

/// `POST /api/sweep?key=K&values=A,B,C&trials=N&seed=S&name=FILE&files=1`.
pub async fn start_sweep(
    State(s): State<crate::State>,
    raw: RawQuery,
    text: Result<String, StringRejection>,
) -> Answer {
    queue_study(&s, raw, text, &["key", "values", "metric", "files"], "trials × points", |base, rest| {
        let (key, values, metric, files) = sweep_query(&rest)?;
        let values = match values {
            Some(values) => values,
            None => sweep::around(&base, &key).map_err(no_values)?.values,
        };
        let axes = vec![Axis { key, values }];
        let start = SweepStart::new(base, axes, metric, false).map_err(|e| ApiError::unprocessable(e.0))?;
        Ok(Box::new(Sweep { start, files }) as Work)
    })
    .await
}

/// `POST /api/sensitivity?only=K&only=L,M&trials=N&seed=S&name=FILE&files=1`.
pub async fn start_sensitivity(
    State(s): State<crate::State>,
    raw: RawQuery,
    text: Result<String, StringRejection>,
) -> Answer {
    queue_study(&s, raw, text, &["only", "metric", "files"], "trials × (1 + steps)", |scenario, rest| {
        let only: Vec<String> = listed(&rest, "only");
        let shown =
            study::shown_metrics(&scenario, &listed(&rest, "metric")).map_err(|e| ApiError::unprocessable(e.0))?;
        let (scope, steps) = study::sensitivity_steps(&scenario, &only, DEFAULT_FLOAT_STEP, false)
            .map_err(|e| ApiError::unprocessable(e.0))?;
        let files = flag(&rest)?;
        Ok(Box::new(SensitivityRun { scenario, scope, steps, shown, files }) as Work)
    })
    .await
}

/// Queues the what-if job that `make` builds from the posted config and the rest of the query (whose names
/// beyond a run's are `extra`): the config is resolved off the runtime with the query's trials, seed and name,
/// [`STUDY_TRIALS`] when it names none. `counted` says what the trials limit counts.
async fn queue_study(
    s: &crate::State,
    raw: RawQuery,
    text: Result<String, StringRejection>,
    extra: &[&str],
    counted: &str,
    make: impl FnOnce(Scenario, Vec<(String, String)>) -> Answer<Work> + Send + 'static,
) -> Answer {
    let text = body(text)?;
    let (overrides, name, rest) = run_query(raw.0, extra)?;
    let configs = s.options.configs.clone();
    let work = off_runtime(move || make(scenario(&configs, &text, &name, study_trials(overrides))?, rest)).await?;
    enqueue(s, work, counted)
}

/// `POST /api/sweep/values?key=K&name=FILE`: the key as sweeps print it and the values a sweep of it takes
/// when none are given.
pub async fn values(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let text = body(text)?;
    let (_, name, rest) = run_query(raw.0, &["key"])?;
    let configs = s.options.configs.clone();
    off_runtime(move || {
        let base = scenario(&configs, &text, &name, Overrides::default())?;
        let key = one(&rest, "key")?;
        let around = sweep::around(&base, &key).map_err(no_values)?;
        Ok(axum::Json(json!({ "key": around.key, "values": around.values })).into_response())
    })
    .await
}

/// The trials of a sweep or sensitivity job: the query's, else [`STUDY_TRIALS`].
fn study_trials(overrides: Overrides) -> Overrides {
    Overrides { trials: overrides.trials.or(Some(STUDY_TRIALS)), ..overrides }
}

type SweepQuery = (String, Option<Vec<String>>, Vec<String>, bool);

/// The sweep's key, its values if given (`values=A,B,C`, read as `--set KEY=A,B,C` is), metrics and files flag.
pub(crate) fn sweep_query(rest: &[(String, String)]) -> Answer<SweepQuery> {
    let key = one(rest, "key")?;
    let values = match rest.iter().find(|(k, _)| k == "values") {
        None => None,
        Some((_, v)) => match set::values_of(v) {
            values if values.is_empty() => {
                return Err(ApiError::bad_request("values: empty; allowed: V1,V2,... such as values=1,2,3"));
            }
            values => Some(values),
        },
    };
    Ok((key, values, listed(rest, "metric"), flag(rest)?))
}

/// The one value of query name `name`; 400 when missing.
fn one(rest: &[(String, String)], name: &str) -> Answer<String> {
    let found = rest.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim().to_owned());
    found.filter(|v| !v.is_empty()).ok_or_else(|| {
        ApiError::bad_request(format!(
            "{name}: missing; allowed: a dotted key of the config, such as {name}=<table>.<key>"
        ))
    })
}

/// Every value of query name `name`, repeated or comma-separated.
fn listed(rest: &[(String, String)], name: &str) -> Vec<String> {
    let values = rest.iter().filter(|(k, _)| k == name).flat_map(|(_, v)| v.split(','));
    values.map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned).collect()
}

/// `files=1` (or `true`): write the command line's files too; `0`/`false` or absent: only the document.
fn flag(rest: &[(String, String)]) -> Answer<bool> {
    match rest.iter().find(|(k, _)| k == "files").map(|(_, v)| v.as_str()) {
        None | Some("0" | "false") => Ok(false),
        Some("1" | "true") => Ok(true),
        Some(v) => Err(ApiError::bad_request(format!("files: {v:?} is not allowed; allowed: 0, 1, true, false"))),
    }
}

/// A key with no values around it, 422; one that is no number is told how to give its values.
pub(crate) fn no_values(e: NoValues) -> ApiError {
    match e {
        NoValues::Unknown(e) => ApiError::unprocessable(e.0),
        NoValues::NotANumber(e) => ApiError::unprocessable(format!("{e}; give the values to sweep: values=V1,V2,...")),
    }
}

/// Plays a sweep job and renders its `sweep --json` document (and its files when asked).
fn sweep(job: &Job, start: SweepStart, write: bool, threads: usize) -> Result<Finished, JobFailed> {
    // The points are solved on the pool's thread that plays them: the job's flag must stop those walks too.
    let stop = job.stop_flag();
    let play = || exact::halting(stop, || start.play(Some(stop.as_ref()), &|n| job.advance(n)));
    let swept = runner::pool(Some(threads)).install(play);
    if swept.record.unfinished() {
        return Err("stopped".into());
    }
    let (folder, names) = job.files(write, |dir| swept.write(dir))?;
    Ok((folder, names, swept.value()))
}

/// Plays a sensitivity job: the exact steps solved first (which fixes the trials left to sample), then the
/// rest sampled; renders its `sensitivity --json` document (and its files when asked).
fn sensitivity(job: &Job, t: SensitivityRun, threads: usize) -> Result<Finished, JobFailed> {
    let solved = sensitivity::solve(&t.scenario, t.steps);
    job.total.store(solved.trials_to_sample(), Ordering::Relaxed);
    let sampled = runner::pool(Some(threads))
        .install(|| solved.sample_until(Some(job.stop_flag().as_ref()), &|n| job.advance(n)));
    let s = sampled.ok_or("stopped")?;
    let shown: Vec<usize> = t.shown.iter().filter_map(|m| s.metric(m)).collect();
    let document = show::sensitivity::value(&t.scenario.run.name, &s, &shown);
    let (folder, names) = job.files(t.files, |dir| study::write_sensitivity(&t.scenario, &t.scope, &s, dir))?;
    Ok((folder, names, document))
}
