//! The pages of the quick calculators (`GET /calc`) and of a rule set's game (`GET /play/{rule_set}`):
//! server-rendered shells from templates in `assets/`, which small scripts of their own fill from the JSON
//! API (`/api/odds`, `/api/play/...`). [`routes`] holds them and the game API, so the server adds them in
//! one line.

use axum::Router;
use axum::extract::Path;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use intercept_core::ruleset::LegendEntry;
use intercept_output::report::escape;

use crate::error::Answer;
use crate::{play, setup};

const CALC_PAGE: &str = include_str!("../assets/calc.html");
const PLAY_PAGE: &str = include_str!("../assets/play.html");

/// The pages and the game API.
pub fn routes() -> Router<crate::State> {
    Router::new()
        .route("/calc", get(calc))
        .route("/play/{rule_set}", get(game))
        .route("/api/play", get(play::games))
        .route("/api/play/{rule_set}/opening", post(play::opening))
        .route("/api/play/{rule_set}/position", post(play::position))
        .route("/api/play/{rule_set}/turn", post(play::turn))
        .route("/api/play/{rule_set}/advice", post(play::advice))
        .route("/api/play/{rule_set}/replay", post(play::replay))
        .route("/api/play/{rule_set}/palette", get(setup::palette))
        .route("/api/play/{rule_set}/edit", post(setup::edit))
        .route("/api/play/{rule_set}/setup", post(setup::set_up))
}

async fn calc() -> Html<&'static str> {
    Html(CALC_PAGE)
}

/// The game page of a rule set that has one, with the legend of its board; 404 (JSON) otherwise.
async fn game(Path(name): Path<String>) -> Answer {
    let (set, game) = play::game(&name)?;
    let page = PLAY_PAGE
        .replace("{{table}}", &escape(set.table()))
        .replace("{{title}}", &escape(set.title()))
        .replace("{{legend}}", &legend(&game.legend()));
    Ok(Html(page).into_response())
}

/// The legend as the terms of a description list: each mark, then what it means.
fn legend(entries: &[LegendEntry]) -> String {
    let item = |e: &LegendEntry| format!("<dt>{}</dt><dd>{}</dd>", escape(&e.mark), escape(&e.meaning));
    entries.iter().map(item).collect()
}
