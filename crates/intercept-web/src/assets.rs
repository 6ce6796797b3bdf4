//! The pages' scripts and style sheets, built into the binary so the workbench works offline
//! (`GET /assets/{name}`), and the media type of any file the server sends, by its extension.

use axum::extract::Path;
use axum::http::header;
use axum::response::IntoResponse;

use crate::error::{Answer, ApiError};

/// Every asset the pages load, by name.
const ASSETS: &[(&str, &str)] = &[
    ("style.css", include_str!("../assets/style.css")),
    ("dom.js", include_str!("../assets/dom.js")),
    ("start.js", include_str!("../assets/start.js")),
    ("editor.css", include_str!("../assets/editor.css")),
    ("form.js", include_str!("../assets/form.js")),
    ("editor.js", include_str!("../assets/editor.js")),
    ("whatif.js", include_str!("../assets/whatif.js")),
    ("solve.js", include_str!("../assets/solve.js")),
    ("map.js", include_str!("../assets/map.js")),
    ("tools.css", include_str!("../assets/tools.css")),
    ("calc.js", include_str!("../assets/calc.js")),
    ("play.js", include_str!("../assets/play.js")),
];

pub async fn asset(Path(name): Path<String>) -> Answer {
    let (_, text) =
        ASSETS.iter().find(|(n, _)| *n == name).ok_or_else(|| ApiError::not_found(format!("no asset {name:?}")))?;
    Ok(([(header::CONTENT_TYPE, content_type(&name))], *text).into_response())
}

/// The media type of a file, by its extension.
pub fn content_type(name: &str) -> String {
    let ext = name.rsplit('.').next().unwrap_or("");
    match ext {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "csv" => "text/csv; charset=utf-8",
        "toml" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
    .to_owned()
}
