//! Inverse design, the editor's "find value for target" action: `POST /api/solve?target=T&vary=K&name=FILE`
//! (the body the TOML) answers which values of key `K` give the metric the target asks for, with the same
//! document as `solve --target T --vary K --json` on the command line ([`intercept_core::solve::solve`]);
//! `vary` may be given twice (the frontier of pairs) and `digits` sets a decimal key's decimals, as there.
//! The whole solve is one bounded solve ([`crate::solving::Solver`]): at most a few at once, stopped at the
//! time limit and as soon as the page that asked goes away. `POST /api/solve/keys?name=FILE` lists the keys
//! the scenario can vary: every number of its resolved config, by the dotted key `--vary` takes.

use axum::extract::RawQuery;
use axum::extract::State;
use axum::extract::rejection::StringRejection;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use intercept_core::config::Overrides;
use intercept_core::config::set::{self, Number};
use intercept_core::solve::{self, Target, Vary};
use serde_json::json;

use crate::config::{DEFAULT_NAME, json, scenario};
use crate::error::{Answer, ApiError, body, json_text, off_runtime, query};

/// The decimals a decimal key's value is given to when the query names none (the command line's default).
pub const DIGITS: usize = 6;

/// The most decimals the query may ask (the command line's limit).
pub const MOST_DIGITS: usize = 30;

/// What `POST /api/solve` is asked, read from its query.
struct Asked {
    name: String,
    target: Target,
    vary: Vec<Vary>,
    digits: usize,
}

/// `POST /api/solve?target=T&vary=K[&vary=K2][&digits=N][&name=FILE]`: the command line's `solve --json`.
pub async fn solve(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let text = body(text)?;
    let asked = asked(raw.0)?;
    let configs = s.options.configs.clone();
    let document = s
        .exact
        .search(move || {
            let base = scenario(&configs, &text, &asked.name, Overrides::default())?;
            let answer = solve::solve(&base, &asked.target, &asked.vary, asked.digits)
                .map_err(|e| ApiError::unprocessable(e.0))?;
            Ok(json(&answer))
        })
        .await?;
    Ok(json_text(StatusCode::OK, document))
}

/// The query of `POST /api/solve`: 400 when a parameter is missing, unknown, repeated where it may not be, or
/// not a target, a key or a number of decimals (the target's and key's messages are the command line's).
fn asked(raw: Option<String>) -> Answer<Asked> {
    let (mut name, mut target, mut vary, mut digits) = (DEFAULT_NAME.to_owned(), None, Vec::new(), None);
    for (k, v) in query(raw, &["target", "vary", "digits", "name"])? {
        match k.as_str() {
            "target" if target.is_some() => return Err(ApiError::bad_request("target: given twice; allowed: one")),
            "target" => target = Some(v.parse::<Target>().map_err(|e| ApiError::bad_request(e.0))?),
            "vary" => vary.push(v.parse::<Vary>().map_err(|e| ApiError::bad_request(e.0))?),
            "digits" => digits = Some(decimals(&v)?),
            _ => name = v,
        }
    }
    let target = target.ok_or_else(|| {
        ApiError::bad_request("target: missing; allowed: [METRIC]<=V, >=V or =V, such as target=<=1/2 (the headline metric) or target=<metric>>=50%")
    })?;
    if !(1..=2).contains(&vary.len()) {
        return Err(ApiError::bad_request(format!(
            "vary: {} given; allowed: one or two keys to vary, such as vary=<table>.<key>",
            vary.len()
        )));
    }
    Ok(Asked { name, target, vary, digits: digits.unwrap_or(DIGITS) })
}

fn decimals(v: &str) -> Answer<usize> {
    match v.trim().parse::<usize>() {
        Ok(n) if (1..=MOST_DIGITS).contains(&n) => Ok(n),
        _ => Err(ApiError::bad_request(format!(
            "digits: {:?} is not allowed; allowed: a whole number from 1 to {MOST_DIGITS}",
            intercept_core::text::clip(v, 40)
        ))),
    }
}

/// `POST /api/solve/keys?name=FILE`: `{"keys": [{"key", "value", "whole"}]}`, every number of the
/// scenario's resolved config outside `[run]` (as `sensitivity` and `solve --vary` name them), in the
/// config's order; 422 with the command line's message when the config cannot be used.
pub async fn keys(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let (text, name) = (body(text)?, crate::config::name(raw.0)?);
    let configs = s.options.configs.clone();
    off_runtime(move || {
        let base = scenario(&configs, &text, &name, Overrides::default())?;
        let keys: Vec<serde_json::Value> = set::numeric_keys(&base)
            .into_iter()
            .map(|k| match k.value {
                Number::Int(i) => json!({ "key": k.key, "value": i, "whole": true }),
                Number::Float(x) => json!({ "key": k.key, "value": x, "whole": false }),
            })
            .collect();
        Ok(axum::Json(json!({ "keys": keys })).into_response())
    })
    .await
}
