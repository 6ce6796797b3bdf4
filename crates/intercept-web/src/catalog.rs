//! What the server knows of the registered rule sets, each reached through its registry entry: the list
//! (`GET /api/rule-sets`), a config's JSON Schema (`GET /api/schema/{rule_set}`), the starter config
//! (`GET /api/starter/{rule_set}`), and the quick odds calculators (`GET /api/odds`, `GET /api/odds/{rule_set}`).

use std::path::Path as FilePath;

use axum::extract::{Path, RawQuery};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use intercept_output::config::starter;
use intercept_output::games::shipped;
use intercept_output::ruleset::{CalcError, Entry};
use serde_json::json;

use crate::error::{Answer, ApiError, json_text, off_runtime, parse_query};

/// The registered rule set whose table is `name` (`-` may stand for `_`), else 404 listing the tables.
pub fn rule_set(name: &str) -> Answer<&'static dyn Entry> {
    let registry = shipped();
    registry.find(&name.replace('-', "_")).ok_or_else(|| {
        ApiError::not_found(format!("no rule set has the table [{name}]; allowed: {}", registry.tables().join(", ")))
    })
}

pub async fn rule_sets() -> Response {
    let sets: Vec<_> = shipped()
        .sets()
        .iter()
        .map(|s| {
            json!({ "table": s.table(), "title": s.title(), "starter": s.starter().is_some(),
                    "calculator": s.calculator().is_some() })
        })
        .collect();
    axum::Json(json!({ "rule_sets": sets })).into_response()
}

pub async fn schema(Path(name): Path<String>) -> Answer {
    let schema = rule_set(&name)?.schema();
    Ok(json_text(StatusCode::OK, serde_json::to_string_pretty(&schema).map_err(ApiError::internal)?))
}

/// The starter config exactly as `intercept-sim init TABLE -o -` prints it.
pub async fn starter(Path(name): Path<String>) -> Answer {
    let set = rule_set(&name)?;
    let none = || ApiError::not_found(format!("the rule set [{}] ships no starter config", set.table()));
    let text = starter::commented(set, FilePath::new("starter")).ok_or_else(none)?;
    let text = text.map_err(ApiError::internal)?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text.trim_end().to_owned() + "\n").into_response())
}

pub async fn calculators() -> Response {
    let list: Vec<_> = shipped()
        .sets()
        .iter()
        .filter_map(|s| Some((s, s.calculator()?)))
        .map(|(s, c)| json!({ "rule_set": s.table(), "title": c.title(), "params": c.params() }))
        .collect();
    axum::Json(json!({ "calculators": list })).into_response()
}

/// The rule set's calculator answering the query: its `odds --json` document, or 400 naming the parameter.
pub async fn odds(Path(name): Path<String>, raw: RawQuery) -> Answer {
    let set = rule_set(&name)?;
    let none = || ApiError::not_found(format!("the rule set [{}] has no quick odds calculator", set.table()));
    let calculator = set.calculator().ok_or_else(none)?;
    let query = parse_query(raw.0.as_deref().unwrap_or(""))?;
    let answer = off_runtime(move || {
        calculator.answer(&query).map_err(|e| match e {
            CalcError::Param { .. } => ApiError::bad_request(e.to_string()),
            CalcError::Failed(_) => ApiError::unprocessable(e.to_string()),
        })
    })
    .await?;
    Ok(json_text(StatusCode::OK, serde_json::to_string_pretty(&answer).map_err(ApiError::internal)?))
}
