//! The configs folder the server was started on: `GET /api/scenarios` lists its configs (recursive
//! `*.toml`), each with its rule set, run name and, once a background thread has solved it within a small
//! budget, the headline answer in words ([`Cache`], by the file's text); `GET /api/scenarios/{path}` reads one, and
//! `PUT /api/scenarios/{path}` saves one, checked first. One rule ([`not_a_config_path`]) says which paths
//! are configs: names of letters, digits, `-`, `_` and `.` (not first) joined by single `/`, the last ending
//! `.toml`. The list shows exactly the files whose path keeps it, and a path that breaks it is neither read
//! nor saved (400), so what is listed and what opens are the same set. Only files inside the folder are
//! reached: no `..`, no absolute path, nothing through a symlink out ([`inside`]).

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path as FilePath, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use axum::extract::rejection::StringRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use intercept_core::config::{Overrides, Scenario};
use intercept_core::exact;
use intercept_core::summary::Summary;
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
    /// The headline answer from the exact solve, once solved in the background.
    pub answer: Option<String>,
    /// Where that answer is: `solving` (ask again), `solved`, `too_large` (not solved within the list's
    /// budget: open it and run Monte Carlo) or `none` (the rule set gives no headline answer, or the config
    /// cannot be used).
    pub answer_state: AnswerState,
    /// Why it cannot be used, in the CLI's words.
    pub error: Option<String>,
}

/// Where a listed config's headline answer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerState {
    Solving,
    Solved,
    TooLarge,
    None,
}

/// Every config read so far, by the hash of its path and text, with its answer once the background solver
/// ([`answers`]) has one; a changed file is a new entry, read and solved afresh. The list never waits for a
/// solve, so one config with a huge chance tree in the folder never holds up the start page.
pub struct Cache {
    known: Mutex<HashMap<u64, Listed>>,
    todo: Mutex<Sender<(u64, Box<Scenario>)>>,
}

impl Cache {
    /// An empty cache, and the background thread that solves what it lists for headline answers, each
    /// within `quick_leaves` leaves and `quick_time`.
    pub fn start(quick_leaves: u64, quick_time: Duration) -> Arc<Cache> {
        let (todo, waiting) = std::sync::mpsc::channel();
        let cache = Arc::new(Cache { known: Mutex::default(), todo: Mutex::new(todo) });
        let weak = Arc::downgrade(&cache);
        std::thread::spawn(move || answers(&weak, &waiting, quick_leaves, quick_time));
        cache
    }
}

pub async fn list(State(s): State<crate::State>) -> Answer {
    let listed = off_runtime(move || listing(&s)).await?;
    Ok(axum::Json(json!({ "scenarios": listed })).into_response())
}

/// Every config of the folder, sorted by path: read and checked now (quick), with the headline answer where
/// the background solver has one.
pub fn listing(s: &crate::Shared) -> Answer<Vec<Listed>> {
    let root = root(&s.options.configs)?;
    let mut files = Vec::new();
    walk(&root, &root, &mut HashSet::from([root.clone()]), &mut files);
    files.sort();
    let listed: Vec<(u64, Listed)> = files.iter().map(|file| s.scenarios.listed(&root, file)).collect();
    // Only the texts in the folder now are kept: an edited file's old text goes.
    lock(&s.scenarios.known).retain(|key, _| listed.iter().any(|(k, _)| k == key));
    Ok(listed.into_iter().map(|(_, l)| l).collect())
}

impl Cache {
    /// The listing of `file`, from the cache when its text has not changed; a new text is checked and, when
    /// usable, queued to be solved.
    fn listed(&self, root: &FilePath, file: &FilePath) -> (u64, Listed) {
        let path = relative(root, file);
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => return (0, Listed::broken(&path, format!("{path}: cannot read it: {e}"))),
        };
        let key = hash(&path, &text);
        if let Some(known) = lock(&self.known).get(&key) {
            return (key, known.clone());
        }
        let (listed, scenario) = describe(root, path, &text);
        lock(&self.known).insert(key, listed.clone());
        if let Some(scenario) = scenario {
            let _ = lock(&self.todo).send((key, Box::new(scenario)));
        }
        (key, listed)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn hash(path: &str, text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (path, text).hash(&mut h);
    h.finish()
}

/// The background solver: each queued config solved for its headline answer within the budget, stopped at
/// its time limit; ends with the cache.
fn answers(cache: &Weak<Cache>, waiting: &Receiver<(u64, Box<Scenario>)>, leaves: u64, time: Duration) {
    while let Ok((key, scenario)) = waiting.recv() {
        let stop = Arc::new(AtomicBool::new(false));
        let alarm = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(time);
            alarm.store(true, Ordering::Relaxed);
        });
        let limit = scenario.run.max_exact_leaves.min(leaves);
        let solved = exact::halting(&stop, || scenario.rules.solve(limit));
        stop.store(true, Ordering::Relaxed);
        let (answer, state) = match solved {
            Ok(solved) => {
                let summary = Summary::exact_only(scenario.rules.metrics(), &solved);
                let answer = scenario.rules.present(&summary, 0).answer;
                let state = if answer.is_some() { AnswerState::Solved } else { AnswerState::None };
                (answer, state)
            }
            Err(_) => (None, AnswerState::TooLarge),
        };
        let Some(cache) = cache.upgrade() else { return };
        if let Some(listed) = lock(&cache.known).get_mut(&key) {
            (listed.answer, listed.answer_state) = (answer, state);
        }
    }
}

impl Listed {
    fn broken(path: &str, error: String) -> Listed {
        Listed {
            path: path.to_owned(),
            rule_set: None,
            title: None,
            name: None,
            answer: None,
            answer_state: AnswerState::None,
            error: Some(error),
        }
    }
}

/// A config's listing, read as the CLI reads it, and the scenario to solve when it is usable.
fn describe(root: &FilePath, path: String, text: &str) -> (Listed, Option<Scenario>) {
    let scenario = match scenario(root, text, &path, Overrides::default()) {
        Ok(s) => s,
        Err(e) => return (Listed::broken(&path, e.message), None),
    };
    let entry = scenario.rules.entry();
    let listed = Listed {
        path,
        rule_set: Some(entry.table().to_owned()),
        title: Some(entry.title().to_owned()),
        name: Some(scenario.run.name.clone()),
        answer: None,
        answer_state: AnswerState::Solving,
        error: None,
    };
    (listed, Some(scenario))
}

/// The configs under `root`: every file whose path inside it is a config path ([`not_a_config_path`]) and
/// that stays inside it, found through folders whose names keep the same rule (a hidden folder is not
/// entered), each real folder once (a link back up the tree is not followed round).
fn walk(root: &FilePath, dir: &FilePath, seen: &mut HashSet<PathBuf>, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.flatten().map(|e| e.path()) {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        let Ok(real) = path.canonicalize() else { continue };
        if !real.starts_with(root) || not_a_name(name).is_some() {
            continue;
        }
        let Ok(meta) = std::fs::metadata(&real) else { continue };
        if meta.is_dir() {
            if seen.insert(real) {
                walk(root, &path, seen, out);
            }
        } else if not_a_config_path(&relative(root, &path)).is_none() {
            out.push(path);
        }
    }
}

/// The longest name of one part of a config path (as a run name's).
const LONGEST_NAME: usize = 100;

/// What a config path may be, as the refusals say it.
const CONFIG_PATHS: &str = "allowed: names of 1 to 100 letters, digits, '-', '_' or '.' (not first), joined by \
                            single '/', the last ending .toml";

/// Why `path` (relative to the configs folder, `/` between parts) is not a config path, or `None` when it
/// is: each part a name ([`not_a_name`]), the last ending `.toml`. The one rule of what is listed, read and
/// saved.
fn not_a_config_path(path: &str) -> Option<String> {
    if let Some(why) = path.split('/').find_map(not_a_name) {
        return Some(why);
    }
    (!path.ends_with(".toml")).then(|| "it does not end .toml".to_owned())
}

/// Why `name` cannot be one part of a config path, or `None`: 1 to [`LONGEST_NAME`] ASCII letters, digits,
/// `-`, `_` or `.`, not starting with `.` (no hidden file, no `..`).
fn not_a_name(name: &str) -> Option<String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() {
        return Some("an empty name (a '/' at the start or the end, or two together)".to_owned());
    }
    if let Some(c) = name.chars().find(|&c| !plain(c)) {
        let said = match c {
            '\0' => "a NUL byte".to_owned(),
            '\\' => "a backslash".to_owned(),
            ' ' => "a space".to_owned(),
            c if c.is_control() => format!("the control character {c:?}"),
            c => format!("{c:?}"),
        };
        return Some(format!("{name:?} holds {said}"));
    }
    if name.starts_with('.') {
        return Some(format!("{name:?} starts with '.'"));
    }
    (name.len() > LONGEST_NAME).then(|| format!("{name:?} is longer than {LONGEST_NAME} characters"))
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

/// The file `path` names inside the configs folder: a config path ([`not_a_config_path`]) whose folder is
/// inside it and which, where it is a link, leads to a file inside it (as the list follows it; it is then
/// read and saved through). A bad path is 400; the file's own existence is the caller's concern.
fn inside(configs: &FilePath, path: &str) -> Answer<PathBuf> {
    if let Some(why) = not_a_config_path(path) {
        return Err(ApiError::bad_request(format!("{path:?}: not a config path: {why}; {CONFIG_PATHS}")));
    }
    let root = root(configs)?;
    let file = root.join(path);
    let parent = file.parent().unwrap_or(&root);
    let real_parent = parent
        .canonicalize()
        .map_err(|_| ApiError::not_found(format!("{path}: its folder does not exist in the configs folder")))?;
    let outside =
        || ApiError::bad_request(format!("{path}: leads outside the configs folder; allowed: files inside it"));
    if !real_parent.starts_with(&root) {
        return Err(outside());
    }
    let file = real_parent.join(file.file_name().unwrap_or_default());
    match std::fs::symlink_metadata(&file) {
        Ok(link) if link.file_type().is_symlink() => match file.canonicalize() {
            Ok(real) if real.starts_with(&root) && real.is_file() => Ok(real),
            _ => Err(outside()),
        },
        _ => Ok(file),
    }
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
    let configs = s.options.configs.clone();
    let status = off_runtime(move || {
        scenario(&configs, &text, &path, Overrides::default())?;
        write(&file, &path, &text, overwrite)
    })
    .await?;
    Ok((status, axum::Json(json!({ "saved": saved_name }))).into_response())
}

/// Gives the temporary file the mode `file` has, or, for a new file, the mode any file made in its folder
/// gets (read and write as the process's umask allows): a temporary file starts readable by its owner only.
#[cfg(unix)]
fn usual_mode(temp: &std::fs::File, file: &FilePath) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = match std::fs::metadata(file) {
        Ok(old) => old.permissions().mode() & 0o7777,
        Err(_) => 0o666 & !umask(),
    };
    temp.set_permissions(std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn usual_mode(_: &std::fs::File, _: &FilePath) -> std::io::Result<()> {
    Ok(())
}

/// The process's umask, as Linux reports it, else the common 022.
#[cfg(unix)]
fn umask() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find_map(|l| l.strip_prefix("Umask:"));
    line.and_then(|m| u32::from_str_radix(m.trim(), 8).ok()).unwrap_or(0o022)
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
    usual_mode(temp.as_file(), file).map_err(failed)?;
    match overwrite {
        true => temp.persist(file).map_err(|e| failed(e.error))?,
        false => temp.persist_noclobber(file).map_err(|e| match e.error.kind() {
            std::io::ErrorKind::AlreadyExists => conflict(),
            _ => failed(e.error),
        })?,
    };
    Ok(if exists { StatusCode::OK } else { StatusCode::CREATED })
}
