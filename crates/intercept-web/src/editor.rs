//! The scenario editor: its page (`GET /edit`, a server-rendered shell that `assets/editor.js` fills from
//! the config's JSON Schema, naming the configs folder), the picture of a scenario (`POST /api/picture`, the SVG the report shows) and
//! config text read into JSON for the form (`POST /api/parse`), and one form edit made in the config text
//! keeping its comments (`POST /api/set`, [`crate::patch`]). Rule-set neutral: the picture comes from
//! the rule set through [`intercept_output::plot::scenario_svg`].

use axum::extract::rejection::StringRejection;
use axum::extract::{RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse};
use intercept_core::config::Overrides;
use intercept_output::plot::scenario_svg;
use intercept_output::report::escape;

use crate::config::{name, scenario};
use crate::error::{Answer, ApiError, body, json_text, off_runtime};
use crate::patch::Edit;

const PAGE: &str = include_str!("../assets/editor.html");

/// The editor's shell, naming the configs folder as the server was given it (the what-if panel's commands
/// name files in it); the script reads `?path=`, `?rule_set=` or the `#s=` share hash itself.
pub async fn page(State(s): State<crate::State>) -> Html<String> {
    Html(PAGE.replace("{{configs}}", &escape(&s.options.configs.display().to_string())))
}

/// The scenario's picture as SVG; 204 when its rule set draws none; the CLI's error when it cannot be used.
pub async fn picture(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let configs = s.options.configs.clone();
    let (text, name) = (body(text)?, name(raw.0)?);
    match off_runtime(move || Ok(scenario_svg(&scenario(&configs, &text, &name, Overrides::default())?))).await? {
        Some(svg) => Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response()),
        None => Ok(StatusCode::NO_CONTENT.into_response()),
    }
}

/// Config text as a JSON value, for the form to refill from; 422 with the TOML reader's line when it is not
/// TOML (whether it is a usable config is `/api/validate`'s question).
pub async fn parse(raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let (text, name) = (body(text)?, name(raw.0)?);
    let value: toml::Table =
        toml::from_str(&text).map_err(|e| ApiError::unprocessable(format!("{name}: {}", e.message().trim())))?;
    Ok(json_text(StatusCode::OK, serde_json::to_string(&value).map_err(ApiError::internal)?))
}

/// What `POST /api/set` is asked: the TOML text, a path (keys and list indexes), and the change: `op` `set`
/// (the default) puts `value`, a TOML literal, at the key (`null` removes it), `append` adds an empty table to
/// the list at the path, `remove` removes the list item the path ends with.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Asked {
    text: String,
    path: Vec<crate::patch::Part>,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    op: Op,
}

#[derive(Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Op {
    #[default]
    Set,
    Append,
    Remove,
}

/// One form edit made in the TOML text, keeping its comments and order: `{"text": ...}`, or
/// `{"text": null, "reason": ...}` when it cannot be made in place (the editor then changes nothing and says
/// why); 400 when the request is not such a JSON object.
pub async fn set(raw: RawQuery, request: Result<String, StringRejection>) -> Answer {
    let (request, _) = (body(request)?, name(raw.0)?);
    let asked: Asked = serde_json::from_str(&request).map_err(|e| {
        ApiError::bad_request(format!("the request is not {{\"text\", \"path\", \"value\", \"op\"}}: {e}"))
    })?;
    let change = match asked.op {
        Op::Set => Edit::Set(asked.value),
        Op::Append => Edit::Append,
        Op::Remove => Edit::Remove,
    };
    let answer = off_runtime(move || {
        Ok(match crate::patch::edit(&asked.text, &asked.path, &change) {
            Ok(text) => serde_json::json!({ "text": text }),
            Err(reason) => serde_json::json!({ "text": null, "reason": reason.to_string() }),
        })
    })
    .await?;
    Ok(axum::Json(answer).into_response())
}
