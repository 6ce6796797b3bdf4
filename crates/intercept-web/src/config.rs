//! `POST /api/validate` and `POST /api/exact`: config text in, the CLI's `validate --json` / `exact --json`
//! document out, or its one-line error as JSON. The text is read exactly as the CLI reads a file of that
//! name ([`scenario`]), so every message is the CLI's. The solve is bounded ([`crate::solving`]).

use std::path::Path;

use axum::extract::rejection::StringRejection;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use intercept_core::config::files::Inside;
use intercept_core::config::{self, Overrides, Scenario};
use intercept_core::games::shipped;
use intercept_core::runner;
use intercept_core::view::{Format, View, print};
use intercept_output::show;

use crate::error::{Answer, ApiError, body, json_text, off_runtime, query};

/// The file name messages use when the query names none.
pub const DEFAULT_NAME: &str = "scenario.toml";

pub async fn validate(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let (text, name) = (body(text)?, name(raw.0)?);
    let configs = s.options.configs.clone();
    blocking(move || Ok(json(&show::ScenarioView(&scenario(&configs, &text, &name, Overrides::default())?)))).await
}

/// Solved under the server's limits ([`crate::solving::Solver`]): stopped when the client leaves or time
/// runs out, at most a few at once.
pub async fn exact(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let (text, name) = (body(text)?, name(raw.0)?);
    let configs = s.options.configs.clone();
    let document = s
        .exact
        .solve(move || {
            let scenario = scenario(&configs, &text, &name, Overrides::default())?;
            let solved = runner::solve(&scenario).map_err(|e| ApiError::unprocessable(format!("{name}: {e}")))?;
            Ok(json(&show::ExactView { scenario: &scenario, solved: &solved }))
        })
        .await?;
    Ok(json_text(StatusCode::OK, document))
}

/// The `?name=FILE` the messages call the text, `scenario.toml` by default.
pub fn name(raw: Option<String>) -> Answer<String> {
    let pairs = query(raw, &["name"])?;
    Ok(pairs.into_iter().next().map_or(DEFAULT_NAME.to_owned(), |(_, v)| v))
}

/// Config text read as the CLI reads a file named `name` in the served folder `configs`: the files it names
/// (a map file) are read from beside it, never from outside that folder ([`Inside`]); 422 with its message if
/// it cannot be used.
pub fn scenario(configs: &Path, text: &str, name: &str, overrides: Overrides) -> Answer<Scenario> {
    let folder = Path::new(name).parent().map(Path::to_owned).unwrap_or_default();
    let files = Inside { root: configs.to_owned(), folder };
    config::from_str_reading(&shipped(), text, Path::new(name), overrides, &files)
        .map_err(|e| ApiError::unprocessable(e.to_string()))
}

/// Config text that names no other file (a game's, a starter's): one that does is refused, saying so.
pub fn scenario_alone(text: &str, name: &str, overrides: Overrides) -> Answer<Scenario> {
    config::from_str(&shipped(), text, Path::new(name), overrides).map_err(|e| ApiError::unprocessable(e.to_string()))
}

/// The view's JSON as the command line prints it (`--json`).
pub(crate) fn json(view: &dyn View) -> String {
    print(view, Format::Json).unwrap_or_default()
}

/// Runs `work` off the async runtime (it may solve a chance tree) and answers its JSON text with 200.
async fn blocking(work: impl FnOnce() -> Answer<String> + Send + 'static) -> Answer {
    Ok(json_text(StatusCode::OK, off_runtime(work).await?))
}
