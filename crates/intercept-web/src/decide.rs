//! `POST /api/where?name=FILE&metric=M`: the scenario's map and where to act on it, the editor's live map.
//! The answer is `where --json`'s document for the same text (`where`), the map drawn with every option
//! by its exact value (`map`, SVG, every hex a polygon with `data-hex`), and each option's settings with the
//! best line below it taken (`choices`): what a click on that hex puts in the text, so that the answer the
//! page then solves is the value `where` gives that hex. A scenario with a map but no choice to make, or one
//! whose choices are refused (too many to solve, a metric no side owns), still gets its map, with the reason
//! (`refused`); one with no map gets `map: null`. The whole study is one bounded solve
//! ([`crate::solving::Solver`]): stopped at the time limit and when the page that asked goes away.

use axum::extract::rejection::StringRejection;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use intercept_core::config::Scenario;
use intercept_core::decide::{self, Decided};
use intercept_core::view::View;
use intercept_output::plot::picture_svg;
use intercept_output::report::decided_picture;
use intercept_output::show::decided::DecidedView;
use serde_json::{Value, json};

use crate::config::scenario;
use crate::error::{Answer, body, json_text};
use crate::run::run_query;

pub async fn answer(State(s): State<crate::State>, raw: RawQuery, text: Result<String, StringRejection>) -> Answer {
    let text = body(text)?;
    let (overrides, name, rest) = run_query(raw.0, &["metric"])?;
    let metric = rest.into_iter().find(|(k, _)| k == "metric").map(|(_, v)| v);
    let configs = s.options.configs.clone();
    let document = s
        .exact
        .search(move || {
            let base = scenario(&configs, &text, &name, overrides)?;
            document(&base, metric.as_deref()).map(|d| d.to_string())
        })
        .await?;
    Ok(json_text(StatusCode::OK, document))
}

/// The document for `base`: its map and where to act on it, or the reason there is no answer.
fn document(base: &Scenario, metric: Option<&str>) -> Answer<Value> {
    let plain_map = || base.rules.map_picture().and_then(|p| picture_svg(&p).ok());
    let plan = match decide::plan(base, metric) {
        Ok(plan) => plan,
        Err(why) => return Ok(json!({ "map": plain_map(), "where": null, "choices": [], "refused": why.0 })),
    };
    let decided = plan.decide();
    if decided.best().is_none() {
        // A stopped study (time limit, client gone) is never answered: the solver drops its result.
        let why = decided.options.iter().find_map(|o| o.value.as_ref().err()).map(|e| e.0.clone());
        return Ok(json!({ "map": plain_map(), "where": null, "choices": [], "refused": why }));
    }
    let map = decided_picture(base, &decided).and_then(|p| picture_svg(&p).ok()).or_else(plain_map);
    let view = DecidedView { name: &base.run.name, decided: &decided, wrote: None };
    Ok(json!({ "map": map, "where": view.json(), "choices": choices(&decided), "refused": null }))
}

/// Every option with a value: the settings that take it and the best line below it.
fn choices(decided: &Decided) -> Vec<Value> {
    decided
        .options
        .iter()
        .filter(|o| o.value.is_ok())
        .map(|o| {
            let settings: Vec<Value> =
                o.settings_with_line().map(|s| json!({ "key": s.key, "value": s.value })).collect();
            json!({ "option": o.label, "settings": settings })
        })
        .collect()
}
