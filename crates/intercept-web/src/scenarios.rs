//! The configs folder the server was started on: `GET /api/scenarios` lists its configs (recursive
//! `*.toml`), each with its rule set, run name and, when the exact solve is quick, the headline answer in
//! words ([`Cache`], refreshed when a file changes); `GET /api/scenarios/{path}` reads one, and
//! `PUT /api/scenarios/{path}` saves one, checked first. Only `.toml` files inside the folder are reached:
//! no `..`, no absolute path, nothing through a symlink out ([`inside`]).

use std::collections::HashMap;
use std::path::{Component, Path as FilePath, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use axum::extract::rejection::StringRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use intercept_output::config::Overrides;
use intercept_output::summary::Summary;
use serde::Serialize;
use serde_json::json;

use crate::config::scenario;
use crate::error::{Answer, ApiError, body, off_runtime, query};

/// One config of the folder, as listed.
#[derive(Clone, Debug, Serialize)]
pub struct Listed {
    /// Its path inside the folder, with `/` between parts.
    pub path: String,
    pub rule_set: Option<String>,
    pub title: Option<String>,
    pub name: Option<String>,
    /// The headline answer from the exact solve, when the tree is small enough to solve at once.
    pub answer: Option<String>,
    /// Why it cannot be used, in the CLI's words.
    pub error: Option<String>,
}

/// The listing of each file, with the modification time it was read at.
#[derive(Default)]
pub struct Cache(Mutex<HashMap<PathBuf, (SystemTime, Listed)>>);

pub async fn list(State(s): State<crate::State>) -> Answer {
    let listed = off_runtime(move || listing(&s)).await?;
    Ok(axum::Json(json!({ "scenarios": listed })).into_response())
}

/// Every config of the folder, sorted by path, from the cache where the file has not changed.
pub fn listing(s: &crate::Shared) -> Answer<Vec<Listed>> {
    let root = root(&s.options.configs)?;
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files.sort();
    let mut cache = s.scenarios.0.lock().unwrap_or_else(|e| e.into_inner());
    let mut listed = Vec::new();
    for (file, modified) in files {
        let fresh = cache.get(&file).filter(|(at, _)| *at == modified).map(|(_, l)| l.clone());
        let entry = fresh.unwrap_or_else(|| describe(&root, &file, s.options.quick_leaves));
        cache.insert(file, (modified, entry.clone()));
        listed.push(entry);
    }
    Ok(listed)
}

/// The `*.toml` files under `dir` that stay inside `root`, with their modification times.
fn walk(root: &FilePath, dir: &FilePath, out: &mut Vec<(PathBuf, SystemTime)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.flatten().map(|e| e.path()) {
        let Ok(real) = path.canonicalize() else { continue };
        if !real.starts_with(root) {
            continue;
        }
        let Ok(meta) = std::fs::metadata(&real) else { continue };
        if meta.is_dir() {
            walk(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push((path, meta.modified().unwrap_or(SystemTime::UNIX_EPOCH)));
        }
    }
}

/// A config's listing: read as the CLI reads it, solved for the headline answer when quick.
fn describe(root: &FilePath, file: &FilePath, quick_leaves: u64) -> Listed {
    let path = relative(root, file);
    let mut listed = Listed { path, rule_set: None, title: None, name: None, answer: None, error: None };
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => return Listed { error: Some(format!("{}: cannot read it: {e}", listed.path)), ..listed },
    };
    let scenario = match scenario(&text, &listed.path, Overrides::default()) {
        Ok(s) => s,
        Err(e) => return Listed { error: Some(e.message), ..listed },
    };
    listed.rule_set = Some(scenario.rules.entry().table().to_owned());
    listed.title = Some(scenario.rules.entry().title().to_owned());
    listed.name = Some(scenario.run.name.clone());
    if let Ok(solved) = scenario.rules.solve(scenario.run.max_exact_leaves.min(quick_leaves)) {
        let summary = Summary::exact_only(scenario.rules.metrics(), &solved);
        listed.answer = scenario.rules.present(&summary, 0).answer;
    }
    listed
}

/// `file`'s path inside `root`, with `/` between parts.
fn relative(root: &FilePath, file: &FilePath) -> String {
    let inner = file.strip_prefix(root).unwrap_or(file);
    inner.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The configs folder, resolved.
fn root(configs: &FilePath) -> Answer<PathBuf> {
    configs
        .canonicalize()
        .map_err(|e| ApiError::not_found(format!("the configs folder {} cannot be read: {e}", configs.display())))
}

/// `path` inside the configs folder: relative, plain parts only, ending `.toml`, and (where it exists)
/// not a symlink leading out. Bad paths are 400; the file's own existence is the caller's concern.
fn inside(configs: &FilePath, path: &str) -> Answer<PathBuf> {
    let rel = FilePath::new(path);
    let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain || path.contains('\\') || !path.ends_with(".toml") || rel.file_stem().is_none() {
        return Err(ApiError::bad_request(format!(
            "{path:?}: not a config path; allowed: a relative path of plain names ending .toml, inside the configs folder"
        )));
    }
    let root = root(configs)?;
    let file = root.join(rel);
    let parent = file.parent().unwrap_or(&root);
    let real_parent = parent
        .canonicalize()
        .map_err(|_| ApiError::not_found(format!("{path}: its folder does not exist in the configs folder")))?;
    let out =
        !real_parent.starts_with(&root) || std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_symlink());
    if out {
        return Err(ApiError::bad_request(format!(
            "{path}: leads outside the configs folder; allowed: files inside it"
        )));
    }
    Ok(real_parent.join(rel.file_name().unwrap_or_default()))
}

pub async fn read(State(s): State<crate::State>, Path(path): Path<String>) -> Answer {
    let file = inside(&s.options.configs, &path)?;
    let text = tokio::fs::read_to_string(&file).await.map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ApiError::not_found(format!("{path}: no such config")),
        _ => ApiError::unprocessable(format!("{path}: cannot read it: {e}")),
    })?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// Saves the config in the body as `path`: checked as the CLI would check it, written under an exclusive
/// temporary name and renamed into place; 409 if the file exists, unless `?overwrite=1`.
pub async fn save(
    State(s): State<crate::State>,
    Path(path): Path<String>,
    raw: RawQuery,
    text: Result<String, StringRejection>,
) -> Answer {
    let text = body(text)?;
    let overwrite = match query(raw.0, &["overwrite"])?.first().map(|(_, v)| v.as_str()) {
        None | Some("0" | "false") => false,
        Some("" | "1" | "true") => true,
        Some(v) => return Err(ApiError::bad_request(format!("overwrite: {v:?} is not allowed; allowed: 1 or 0"))),
    };
    let file = inside(&s.options.configs, &path)?;
    let saved_name = path.clone();
    let status = off_runtime(move || {
        scenario(&text, &path, Overrides::default())?;
        write(&file, &path, &text, overwrite)
    })
    .await?;
    Ok((status, axum::Json(json!({ "saved": saved_name }))).into_response())
}

/// Writes `text` to `file` through a temporary file in its folder: 201 when new, 200 when replaced.
fn write(file: &FilePath, path: &str, text: &str, overwrite: bool) -> Answer<StatusCode> {
    let exists = file.exists();
    let conflict = || ApiError::new(StatusCode::CONFLICT, format!("{path}: exists; add ?overwrite=1 to replace it"));
    if exists && !overwrite {
        return Err(conflict());
    }
    let folder = file.parent().unwrap_or(FilePath::new("."));
    let failed = |e: std::io::Error| ApiError::unprocessable(format!("{path}: cannot write it: {e}"));
    let mut temp = tempfile::Builder::new().prefix(".saving-").tempfile_in(folder).map_err(failed)?;
    std::io::Write::write_all(&mut temp, text.as_bytes()).map_err(failed)?;
    match overwrite {
        true => temp.persist(file).map_err(|e| failed(e.error))?,
        false => temp.persist_noclobber(file).map_err(|e| match e.error.kind() {
            std::io::ErrorKind::AlreadyExists => conflict(),
            _ => failed(e.error),
        })?,
    };
    Ok(if exists { StatusCode::OK } else { StatusCode::CREATED })
}
