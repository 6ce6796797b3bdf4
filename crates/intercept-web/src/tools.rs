//! The pages of the quick calculators (`GET /calc`) and of a rule set's game (`GET /play/{rule_set}`):
//! server-rendered shells from templates in `assets/`, which small scripts of their own fill from the JSON
//! API (`/api/odds`, `/api/play/...`); and those scripts and their style sheet, built into the binary.
//! [`routes`] holds them all, so the server adds them in one line.

use axum::Router;
use axum::extract::Path;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use intercept_output::report::escape;

use crate::error::{Answer, ApiError};
use crate::play;

const CALC_PAGE: &str = include_str!("../assets/calc.html");
const PLAY_PAGE: &str = include_str!("../assets/play.html");

/// The assets of these pages: name, content type, text.
const ASSETS: &[(&str, &str, &str)] = &[
    ("calc.js", "text/javascript; charset=utf-8", include_str!("../assets/calc.js")),
    ("play.js", "text/javascript; charset=utf-8", include_str!("../assets/play.js")),
    ("tools.css", "text/css; charset=utf-8", include_str!("../assets/tools.css")),
];

/// The pages, their assets and the game API.
pub fn routes() -> Router<crate::State> {
    let mut router = Router::new()
        .route("/calc", get(calc))
        .route("/play/{rule_set}", get(game))
        .route("/api/play", get(play::games))
        .route("/api/play/{rule_set}/opening", post(play::opening))
        .route("/api/play/{rule_set}/position", post(play::position))
        .route("/api/play/{rule_set}/turn", post(play::turn))
        .route("/api/play/{rule_set}/advice", post(play::advice))
        .route("/api/play/{rule_set}/replay", post(play::replay));
    for &(name, kind, text) in ASSETS {
        router = router.route(&format!("/assets/{name}"), get(move || asset(kind, text)));
    }
    router
}

async fn asset(kind: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}

async fn calc() -> Html<&'static str> {
    Html(CALC_PAGE)
}

/// The game page of a rule set that has one; 404 (JSON) otherwise.
async fn game(Path(name): Path<String>) -> Answer {
    let set = crate::catalog::rule_set(&name)?;
    if set.play().is_none() {
        return Err(ApiError::not_found(format!("the rule set [{}] has no game to play", set.table())));
    }
    let page = PLAY_PAGE.replace("{{table}}", &escape(set.table())).replace("{{title}}", &escape(set.title()));
    Ok(Html(page).into_response())
}
