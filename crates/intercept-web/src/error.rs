//! [`ApiError`]: every error the API answers, as `{"error": "<one line>"}` with its status; the JSON 404 and
//! 405 of unknown routes and methods; and the checked request body ([`Body`]).

use axum::Json;
use axum::extract::rejection::StringRejection;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answer: a status and the one line that says what was wrong and what is allowed.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
    /// A worker that could not finish: the machine's trouble, not the request's.
    pub fn internal(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

pub type Answer<T = Response> = Result<T, ApiError>;

/// A JSON document already rendered as text (the CLI's `--json` output), sent as is.
pub fn json_text(status: StatusCode, text: String) -> Response {
    (status, [(axum::http::header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// The request body as text: 413 beyond the body limit, 400 if it is not UTF-8.
pub fn body(body: Result<String, StringRejection>) -> Answer<String> {
    body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "the request body is larger than this server accepts")
        }
        status => ApiError::new(status, format!("the request body cannot be read: {}", e.body_text())),
    })
}

pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(format!("no such page or endpoint: {}", uri.path()))
}

pub async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, format!("{method} is not allowed on {}", uri.path()))
}

/// Runs `work` off the async runtime (it may solve a chance tree, run a search or read files), so it never
/// holds up other requests; a worker that could not finish is the server's trouble (500).
pub async fn off_runtime<T: Send + 'static>(work: impl FnOnce() -> Answer<T> + Send + 'static) -> Answer<T> {
    tokio::task::spawn_blocking(work).await.map_err(ApiError::internal)?
}

/// Query pairs, refusing any name not in `allowed`.
pub fn query(raw: Option<String>, allowed: &[&str]) -> Answer<Vec<(String, String)>> {
    let pairs = parse_query(raw.as_deref().unwrap_or(""))?;
    match pairs.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        Some((k, _)) if allowed.is_empty() => Err(ApiError::bad_request(format!("{k}: no query parameter is allowed"))),
        Some((k, _)) => {
            Err(ApiError::bad_request(format!("{k}: no such query parameter; allowed: {}", allowed.join(", "))))
        }
        None => Ok(pairs),
    }
}

/// Query text as decoded name and value pairs, in order.
pub fn parse_query(raw: &str) -> Answer<Vec<(String, String)>> {
    serde_urlencoded::from_str(raw).map_err(|e| ApiError::bad_request(format!("the query cannot be read: {e}")))
}
