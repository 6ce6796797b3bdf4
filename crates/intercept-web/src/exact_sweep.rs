//! `POST /api/sweep/exact?key=K&values=A,B,C&metric=M&name=FILE`: one key swept exactly, the answer the
//! what-if panel shows first. Every value is set as `sweep --set` sets it and its scenario solved by the same
//! enumerator as `exact`; each point gives the metric's exact value and its exact difference from the
//! current value (which is always among the points). Values are answered in ascending order. A value the
//! rules refuse says why; one whose tree is too large says so (`too_large` counts them), and the page offers
//! Monte Carlo for it. The sweep is the core's ([`intercept_core::sweep::exact`]); here it is read from the
//! query and written as JSON. The whole sweep is one bounded solve ([`crate::solving::Solver`]): stopped at
//! the time limit and when the page that asked goes away.

use axum::extract::rejection::StringRejection;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use intercept_core::fraction;
use intercept_core::sweep;
use intercept_core::sweep::exact::{self, Unsolved};
use serde_json::{Value, json};

use crate::config::scenario;
use crate::error::{Answer, ApiError, body, json_text};
use crate::run::run_query;
use crate::study::{no_values, sweep_query};

pub async fn sweep(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let text = body(text)?;
    let (overrides, name, rest) = run_query(raw.0, &["key", "values", "metric"])?;
    let configs = s.options.configs.clone();
    let document = s
        .exact
        .solve(move || {
            let base = scenario(&configs, &text, &name, overrides)?;
            let (key, values, metrics, _) = sweep_query(&rest)?;
            let metric = exact::metric(&base, &metrics).map_err(|e| ApiError::unprocessable(e.0))?;
            let around = sweep::around(&base, &key).map_err(no_values)?;
            let points =
                exact::Points::new(around, values).map_err(|e| ApiError::bad_request(format!("values: {e}")))?;
            Ok(document(&exact::solve(&base, &points, &metric)).to_string())
        })
        .await?;
    Ok(json_text(StatusCode::OK, document))
}

/// The sweep as the page reads it: each point's value, state and whether it is the current value; a solved
/// point's exact value and difference, as numbers and as fractions; any other's reason.
fn document(swept: &exact::ExactSweep) -> Value {
    let points: Vec<Value> = swept
        .points
        .iter()
        .map(|p| {
            let (value, current) = (&p.value, p.current);
            match &p.state {
                exact::State::Solved { exact, difference } => json!({
                    "value": value, "state": "solved", "current": current,
                    "exact": fraction::to_f64(exact), "exact_fraction": fraction::text(exact),
                    "difference": difference.as_ref().map(fraction::to_f64),
                    "difference_fraction": difference.as_ref().map(fraction::text),
                }),
                exact::State::Unsolved(why) => {
                    let state = match why {
                        Unsolved::NoValue(_) => "none",
                        Unsolved::Refused(_) => "refused",
                        Unsolved::TooLarge(_) => "too_large",
                    };
                    json!({ "value": value, "state": state, "current": current, "reason": why.to_string() })
                }
            }
        })
        .collect();
    let (key, metric, current, too_large) = (&swept.key, &swept.metric, &swept.current, swept.too_large());
    json!({ "key": key, "metric": metric, "current": current, "too_large": too_large, "points": points })
}
