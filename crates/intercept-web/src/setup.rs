//! A position of a rule set's game set up by hand over HTTP, through its [`Play`] (no rule set named here):
//! `GET /api/play/{rule_set}/palette` lists what a square may hold and the sides; `POST .../edit` (body
//! `{position, edit}`, an [`Edit`]) answers the edited position as [`crate::play`] shows positions, 422 with
//! one line for an edit no position can hold; `POST .../setup` (body `{position}`) checks the position as the
//! start of a new game and shows it, 422 with the one-line reason when no game can be played from it.

use axum::Json;
use axum::extract::Path;
use axum::extract::rejection::StringRejection;
use axum::response::IntoResponse;
use intercept_core::ruleset::{Edit, Play, PlayError};
use serde::Deserialize;
use serde_json::Value;

use crate::error::Answer;
use crate::play::{At, blocking, game, read, refused, shown};

/// `GET /api/play/{rule_set}/palette`.
pub async fn palette(Path(name): Path<String>) -> Answer {
    let (_, play) = game(&name)?;
    Ok(Json(play.palette()).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Editing {
    position: Value,
    edit: Edit,
}

/// `POST /api/play/{rule_set}/edit`: the position after one edit, shown.
pub async fn edit(Path(name): Path<String>, e: Result<String, StringRejection>) -> Answer {
    let ((_, play), e) = (game(&name)?, read::<Editing>(e)?);
    blocking(move || show(play, play.edit(&e.position, &e.edit))).await
}

/// `POST /api/play/{rule_set}/setup`: the position checked as a new game's start, shown.
pub async fn set_up(Path(name): Path<String>, at: Result<String, StringRejection>) -> Answer {
    let ((_, play), at) = (game(&name)?, read::<At>(at)?);
    blocking(move || show(play, play.set_up(&at.position))).await
}

fn show(play: &dyn Play, position: Result<Value, PlayError>) -> Answer<Value> {
    shown(play, position.map_err(refused)?).map_err(refused)
}
