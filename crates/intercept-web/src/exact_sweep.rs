//! `POST /api/sweep/exact?key=K&values=A,B,C&metric=M&name=FILE`: one key swept exactly, the answer the
//! what-if panel shows first. Every value is set as `sweep --set` sets it and its scenario solved by the same
//! enumerator as `exact`; each point gives the metric's exact value and its exact difference from the
//! current value (which is always among the points). Values are answered in ascending order. A value the
//! rules refuse says why; one whose tree is too large says so (`too_large` counts them), and the page offers
//! Monte Carlo for it. The
//! whole sweep is one bounded solve ([`crate::solving::Solver`]): stopped at the time limit and when the
//! page that asked goes away.

use axum::extract::rejection::StringRejection;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use intercept_core::config::Scenario;
use intercept_core::config::set::{self, Setting};
use intercept_core::fraction::{self, BigRational};
use intercept_core::{exact, runner};
use intercept_output::study;
use serde_json::{Value, json};

use crate::config::scenario;
use crate::error::{Answer, ApiError, body, json_text};
use crate::run::run_query;
use crate::study::{around, sweep_query};

/// The most values one exact sweep may solve.
pub const MOST_VALUES: usize = 41;

pub async fn sweep(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let text = body(text)?;
    let (overrides, name, rest) = run_query(raw.0, &["key", "values", "metric"])?;
    let configs = s.options.configs.clone();
    let document = s
        .exact
        .solve(move || {
            let base = scenario(&configs, &text, &name, overrides)?;
            let (key, values, metrics, _) = sweep_query(&rest)?;
            let metric = one_metric(&base, &metrics)?;
            let (key, current, values) = points(&base, &key, values)?;
            Ok(solve_points(&base, &key, &current, &values, &metric).to_string())
        })
        .await?;
    Ok(json_text(StatusCode::OK, document))
}

/// The metric to sweep: the one named, else the rule set's headline metric.
fn one_metric(base: &Scenario, named: &[String]) -> Answer<String> {
    let metrics = study::sweep_metrics(base, named).map_err(|e| ApiError::unprocessable(e.0))?;
    metrics.into_iter().next().ok_or_else(|| ApiError::unprocessable("the scenario has no metric to sweep"))
}

/// The key as sweeps print it, its current value, and the values to solve: those given (else the default
/// values around the current one), the current value added when missing, ascending, each once.
fn points(base: &Scenario, key: &str, given: Option<Vec<String>>) -> Answer<(String, String, Vec<String>)> {
    let (printed, defaults) = around(base, key)?;
    let current = defaults[0].clone();
    let mut values = given.unwrap_or(defaults);
    if values.len() > MOST_VALUES {
        return Err(ApiError::bad_request(format!(
            "values: {} values; allowed: at most {MOST_VALUES} in one exact sweep",
            values.len()
        )));
    }
    // The current value once, as the rules print it (a typed "8.0" is the current 8).
    let same = |a: &str, b: &str| a == b || a.parse::<f64>().ok().is_some_and(|x| b.parse::<f64>().ok() == Some(x));
    values.retain(|v| !same(v, &current));
    values.push(current.clone());
    values.sort_by(|a, b| match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.total_cmp(&y),
        _ => a.cmp(b),
    });
    values.dedup_by(|a, b| same(a, b));
    Ok((printed, current, values))
}

/// The exact value of `metric` at each value, and its difference from the current value's.
fn solve_points(base: &Scenario, key: &str, current: &str, values: &[String], metric: &str) -> Value {
    let solved: Vec<Result<Option<BigRational>, (&str, String)>> =
        values.iter().map(|v| solve_one(base, key, v, metric)).collect();
    let at_current = values.iter().position(|v| v == current).and_then(|i| solved[i].clone().ok().flatten());
    let points: Vec<Value> = values
        .iter()
        .zip(&solved)
        .map(|(value, point)| match point {
            Ok(Some(p)) => {
                let difference = at_current.as_ref().map(|c| p - c);
                json!({
                    "value": value, "state": "solved", "current": value == current,
                    "exact": fraction::to_f64(p), "exact_fraction": fraction::text(p),
                    "difference": difference.as_ref().map(fraction::to_f64),
                    "difference_fraction": difference.as_ref().map(fraction::text),
                })
            }
            Ok(None) => json!({ "value": value, "state": "none", "current": value == current,
                                "reason": format!("{metric} has no value here: no trial counts it") }),
            Err((state, reason)) => {
                json!({ "value": value, "state": state, "current": value == current, "reason": reason })
            }
        })
        .collect();
    let too_large = solved.iter().filter(|p| matches!(p, Err(("too_large", _)))).count();
    json!({ "key": key, "metric": metric, "current": current, "too_large": too_large, "points": points })
}

/// One value solved: its metric's exact value (`None` for a mean over no trials), or why it has none
/// (`refused` by the rules, `too_large` to solve).
fn solve_one(
    base: &Scenario,
    key: &str,
    value: &str,
    metric: &str,
) -> Result<Option<BigRational>, (&'static str, String)> {
    let setting = Setting { key: key.to_owned(), value: value.to_owned() };
    let stepped = set::apply(base, &[setting]).map_err(|e| ("refused", e.to_string()))?;
    let solved = runner::solve(&stepped).map_err(|e| ("too_large", e.to_string()))?;
    let metrics = stepped.rules.metrics();
    let at = metrics.defs().iter().position(|d| d.name == metric);
    let at = at.ok_or(("none", format!("no metric {metric} at {key} = {value}")))?;
    Ok(exact::metric_fractions(metrics, &solved).swap_remove(at))
}
