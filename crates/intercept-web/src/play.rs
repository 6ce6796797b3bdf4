//! A rule set's game played over HTTP, through its registry entry's [`Play`] (no rule set named here):
//! `GET /api/play` lists the rule sets that have a game; `POST /api/play/{rule_set}/opening` (body: config
//! TOML, or empty for the starter) and `/position` (body `{position}`) answer a [`Shown`] position with its
//! status, legal turns, board picture as SVG and the picture's squares in words; `/turn` (body `{position,
//! turn}`) plays a turn (422 with the one-line refusal when it is illegal); `/advice` (body `{position, seed?,
//! budget?}`) asks the rule set's search player, its budget capped ([`MAX_BUDGET`]), for its turn, playout
//! score and expected line, with the rule set's evaluation of the position; `/replay` (body `{toml, game,
//! name?}`) replays a game of a run. Setting a position up by hand is [`crate::setup`]'s. Everything that
//! computes runs off the async runtime.

use axum::Json;
use axum::extract::Path;
use axum::extract::rejection::StringRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use intercept_core::config::Overrides;
use intercept_core::games::shipped;
use intercept_core::ruleset::{Entry, Play, PlayError};
use intercept_output::plot::picture_svg;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::catalog::rule_set;
use crate::config::{DEFAULT_NAME, scenario_alone};
use crate::error::{Answer, ApiError, body, off_runtime};

/// The most playouts one advice request may spend, so that no request holds a core for long (the game page's
/// Hard): with today's searches (a playout runs to the search's depth) 0.06 to 0.22 s in a middle game and
/// about 0.015 s from the opening, and about 27 MB at its peak while it runs (over HTTP, release build, 2
/// cores, 2026-11-27; the median of 11 seeds).
pub const MAX_BUDGET: u32 = 10_000;
/// The playouts advice spends when the request names none (the game page's Medium): 0.003 to 0.01 s in a
/// middle game, about 0.0015 s from the opening (measured as [`MAX_BUDGET`], 2026-11-27).
pub const DEFAULT_BUDGET: u32 = 300;
/// The most advice searches that run at once: a search cannot be stopped midway, so a burst of requests
/// waits for a place ([`SEARCH_WAIT`], then 503) instead of taking a search's memory each (16 Hard requests at
/// once peaked at 438 MB; four hold about 110 MB).
pub const MOST_SEARCHES: usize = 4;
/// How long an advice request waits for a place among [`MOST_SEARCHES`].
pub const SEARCH_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The places of the advice searches running now.
static SEARCHES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(MOST_SEARCHES);

/// `GET /api/play`: the rule sets that have a game.
pub async fn games() -> Response {
    let sets: Vec<_> = shipped()
        .sets()
        .iter()
        .filter(|s| s.play().is_some())
        .map(|s| json!({ "table": s.table(), "title": s.title(), "page": format!("/play/{}", s.table()) }))
        .collect();
    Json(json!({ "games": sets })).into_response()
}

/// Rule set `name` and its game: 404 when there is no such rule set or it has no game.
pub fn game(name: &str) -> Answer<(&'static dyn Entry, &'static dyn Play)> {
    let set = rule_set(name)?;
    let none = || ApiError::not_found(format!("the rule set [{}] has no game to play", set.table()));
    Ok((set, set.play().ok_or_else(none)?))
}

/// A position as the pages show it: the position itself, whose turn, its legal turns, its picture, and the
/// picture's squares in words (the page's names for them, read to someone who cannot see the picture).
pub(crate) fn shown(play: &dyn Play, position: Value) -> Result<Value, PlayError> {
    let status = play.status(&position)?;
    let turns = play.turns(&position)?;
    let svg = picture_svg(&play.picture(&position)?).map_err(|e| PlayError::Refused(e.0))?;
    let squares = play.squares(&position)?;
    Ok(json!({ "position": position, "status": status, "turns": turns, "svg": svg, "squares": squares }))
}

/// A refusal of the game: 422 with its one line.
pub(crate) fn refused(e: PlayError) -> ApiError {
    ApiError::unprocessable(e.to_string())
}

/// Runs `work` off the async runtime and answers its JSON with 200.
pub(crate) async fn blocking(work: impl FnOnce() -> Answer<Value> + Send + 'static) -> Answer {
    Ok((StatusCode::OK, Json(off_runtime(work).await?)).into_response())
}

/// `POST /api/play/{rule_set}/opening`: the opening of the config in the body, or of the starter config.
pub async fn opening(Path(name): Path<String>, text: Result<String, StringRejection>) -> Answer {
    let ((set, play), text) = (game(&name)?, body(text)?);
    let table = set.table();
    blocking(move || {
        let text = if text.trim().is_empty() { starter(set)? } else { text };
        let scenario = scenario_alone(&text, DEFAULT_NAME, Overrides::default())?;
        same_rule_set(DEFAULT_NAME, table, scenario.rules.entry().table())?;
        let position = play.opening(scenario.rules.as_ref()).map_err(refused)?;
        shown(play, position).map_err(refused)
    })
    .await
}

fn starter(set: &dyn Entry) -> Answer<String> {
    set.starter().map(str::to_owned).ok_or_else(|| {
        ApiError::unprocessable(format!("the rule set [{}] ships no starter config; send a config", set.table()))
    })
}

fn same_rule_set(file: &str, table: &str, found: &str) -> Answer<()> {
    if table == found {
        return Ok(());
    }
    Err(ApiError::unprocessable(format!("{file}: a config of [{found}], not [{table}]; send a [{table}] config")))
}

/// The JSON body, whatever its content type (so a plain `curl --data` works): 400 naming what is wrong with
/// it, 413 beyond the body limit.
pub(crate) fn read<T: DeserializeOwned>(text: Result<String, StringRejection>) -> Answer<T> {
    let text = body(text)?;
    serde_json::from_str(&text).map_err(|e| ApiError::bad_request(format!("the request body: {e}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct At {
    pub(crate) position: Value,
}

/// `POST /api/play/{rule_set}/position`: any position shown, as the opening is.
pub async fn position(Path(name): Path<String>, at: Result<String, StringRejection>) -> Answer {
    let ((_, play), at) = (game(&name)?, read::<At>(at)?);
    blocking(move || shown(play, at.position).map_err(refused)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    position: Value,
    turn: String,
}

/// `POST /api/play/{rule_set}/turn`: the position after the turn, or 422 when the turn is refused.
pub async fn turn(Path(name): Path<String>, m: Result<String, StringRejection>) -> Answer {
    let ((_, play), m) = (game(&name)?, read::<Move>(m)?);
    blocking(move || {
        let next = play.apply(&m.position, &m.turn).map_err(refused)?;
        let mut answer = shown(play, next).map_err(refused)?;
        answer["played"] = json!(m.turn);
        Ok(answer)
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ask {
    position: Value,
    seed: Option<u64>,
    budget: Option<u32>,
}

/// `POST /api/play/{rule_set}/advice`: the search player's best turn, its rating and expected line, and the
/// evaluation of the position, the same for the same seed.
pub async fn advice(Path(name): Path<String>, ask: Result<String, StringRejection>) -> Answer {
    let ((_, play), ask) = (game(&name)?, read::<Ask>(ask)?);
    let budget = ask.budget.unwrap_or(DEFAULT_BUDGET);
    if !(1..=MAX_BUDGET).contains(&budget) {
        let line = format!("budget: {budget} is not allowed; allowed: 1 to {MAX_BUDGET} playouts");
        return Err(ApiError::bad_request(line));
    }
    let seed = ask.seed.unwrap_or(1);
    let Ok(Ok(place)) = tokio::time::timeout(SEARCH_WAIT, SEARCHES.acquire()).await else {
        let line = format!("the server is already searching {MOST_SEARCHES} positions; try again in a moment");
        return Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, line));
    };
    blocking(move || {
        // The place is held until the search has ended, even when its client has gone.
        let _place = place;
        let advice = play.advise(&ask.position, budget, seed).map_err(refused)?;
        let chance = advice.evaluation.as_ref().map(|e| e.win_chance);
        let mut answer = serde_json::to_value(advice).map_err(ApiError::internal)?;
        // `win_chance` at the top was once a copy of the playout score, which is no chance of winning; scripts
        // written against it now read what the name says, the evaluation's chance for the side to move, and
        // find no such key where the rule set has no evaluation rather than a number that means something else.
        if let Some(chance) = chance {
            answer["win_chance"] = json!(chance);
        }
        answer["budget"] = json!(budget);
        answer["seed"] = json!(seed);
        Ok(answer)
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    toml: String,
    game: u64,
    name: Option<String>,
}

/// `POST /api/play/{rule_set}/replay`: game `game` of the config's run, every position with its turn.
pub async fn replay(Path(name): Path<String>, g: Result<String, StringRejection>) -> Answer {
    let ((set, play), g) = (game(&name)?, read::<Game>(g)?);
    let table = set.table();
    blocking(move || {
        let file = g.name.as_deref().unwrap_or(DEFAULT_NAME);
        let scenario = scenario_alone(&g.toml, file, Overrides::default())?;
        same_rule_set(file, table, scenario.rules.entry().table())?;
        play.replay(&scenario, g.game).map_err(refused)
    })
    .await
}
