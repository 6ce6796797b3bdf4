//! Configs: the TOML file as written ([`RawConfig`]) and the resolved run ([`Scenario`]).
//!
//! Loading is two steps, so that no work starts on a bad file. Parsing is strict: serde rejects unknown keys
//! and wrong types, and fills every default, so the parsed [`RawConfig`] is also the complete resolved config
//! that the manifest records. Resolving then checks ranges and names and builds the model. Every failure is a
//! [`ConfigError`] naming the file, the line and the key, and saying what is allowed; [`locate`] finds lines.

mod locate;
mod path;
pub mod set;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use self::path::{Invalid, KeyPath, in_range, probability};
use crate::models::ModelSpec;
use crate::models::board_game::config::BoardConfig;
use crate::models::card_game::config::CardGameConfig;
use crate::models::cavalry::config::CavalryConfig;
use crate::models::naval::config::NavalConfig;
use crate::models::step_race::config::StepRaceConfig;
use crate::text::{ReadError, one_line, read_capped};

/// A config file as written, with every default filled in.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawConfig {
    #[serde(default)]
    pub run: RunConfig,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cavalry: Option<CavalryConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub naval: Option<NavalConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_race: Option<StepRaceConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_game: Option<CardGameConfig>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardConfig>,
}

/// `[run]`: how many trials, which seed, and where results go.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Folder under `reports/`; defaults to the config file's stem.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default = "default_trials")]
    pub trials: i64,
    #[serde(default = "default_seed")]
    pub seed: i64,
    /// Trials per chunk: each chunk has its own generator, so this is part of what a seed means.
    #[serde(default = "default_chunk_size")]
    pub chunk_size: i64,
    /// The largest chance tree `exact` (and the exact column of `run`) will walk.
    #[serde(default = "default_max_exact_leaves")]
    pub max_exact_leaves: i64,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            name: None,
            trials: default_trials(),
            seed: default_seed(),
            chunk_size: default_chunk_size(),
            max_exact_leaves: default_max_exact_leaves(),
        }
    }
}

fn default_trials() -> i64 {
    1_000_000
}
fn default_seed() -> i64 {
    1
}
fn default_chunk_size() -> i64 {
    65_536
}
fn default_max_exact_leaves() -> i64 {
    1_000_000
}

/// The largest `run.max_exact_leaves`: a walk to this many leaves takes a few seconds at most, so that
/// `exact` never hangs on a tree it will not finish; larger trees are for sampling.
pub const MOST_EXACT_LEAVES: i64 = 10_000_000;

/// The run settings, validated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunSettings {
    pub name: String,
    pub trials: u64,
    pub seed: u64,
    pub chunk_size: u64,
    pub max_exact_leaves: u64,
}

/// A resolved scenario: everything a run needs, checked before any work starts.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub file: PathBuf,
    pub run: RunSettings,
    pub model: ModelSpec,
    /// The config with every default filled in, as recorded in the manifest.
    pub config: RawConfig,
}

/// Command-line values that take precedence over the file's `[run]` table.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overrides {
    pub trials: Option<u64>,
    pub seed: Option<u64>,
}

/// A config that cannot be used: where, which key, and what is allowed. Shown on one line, with any long
/// value from the file cut short ([`one_line`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {}{}", file.display(), line.map(|l| format!(":{l}")).unwrap_or_default(), key.as_ref().map(|k| format!("key '{}': ", one_line(k))).unwrap_or_default(), one_line(message))]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

/// The largest config file read: far above any real scenario, far below what would exhaust memory.
pub const MOST_BYTES: u64 = 1 << 20;

/// Reads, parses and resolves the config at `file`.
pub fn load(file: &Path, overrides: Overrides) -> Result<Scenario, ConfigError> {
    from_str(&read(file)?, file, overrides)
}

/// The text of the config at `file`, refusing a file too large to be a config or not text.
fn read(file: &Path) -> Result<String, ConfigError> {
    let error = |message: String| ConfigError { file: file.to_owned(), line: None, key: None, message };
    let text = std::fs::File::open(file).map_err(ReadError::from).and_then(|f| read_capped(f, MOST_BYTES));
    text.map_err(|e| match e {
        ReadError::Io(e) => error(format!("cannot read the config: {e}")),
        ReadError::TooLarge { .. } => error(format!("the file is {e}, which no config is")),
        ReadError::NotText { .. } => error(e.to_string()),
    })
}

/// Parses and resolves config text; `file` names it in errors and gives the default run name.
pub fn from_str(src: &str, file: &Path, overrides: Overrides) -> Result<Scenario, ConfigError> {
    let mut config: RawConfig = toml::from_str(src).map_err(|e| locate::parse_error(src, file, &e))?;
    let named = config.run.name.is_some();
    config.run.name.get_or_insert_with(|| default_name(file));
    let too_large = |key: &str, v: u64| ConfigError {
        file: file.to_owned(),
        line: None,
        key: Some(format!("run.{key}")),
        message: format!("{v} (from the command line) is too large; allowed: up to {}", i64::MAX),
    };
    if let Some(t) = overrides.trials {
        config.run.trials = i64::try_from(t).map_err(|_| too_large("trials", t))?;
    }
    if let Some(s) = overrides.seed {
        config.run.seed = i64::try_from(s).map_err(|_| too_large("seed", s))?;
    }
    resolve(config, file).map_err(|mut e| {
        if !named && e.path == KeyPath::root().key("run").key("name") {
            e.message += "; it comes from the config file's name, so rename the file or set name in [run]";
        }
        locate::invalid(src, file, e)
    })
}

fn default_name(file: &Path) -> String {
    file.file_stem().map_or_else(|| "run".into(), |s| s.to_string_lossy().into_owned())
}

fn resolve(config: RawConfig, file: &Path) -> Result<Scenario, Invalid> {
    let run = resolve_run(&config.run)?;
    let model = resolve_model(&config)?;
    Ok(Scenario { file: file.to_owned(), run, model, config })
}

/// The model of the one model table the config holds.
fn resolve_model(config: &RawConfig) -> Result<ModelSpec, Invalid> {
    let present = [
        ("cavalry", config.cavalry.is_some()),
        ("naval", config.naval.is_some()),
        ("step_race", config.step_race.is_some()),
        ("card_game", config.card_game.is_some()),
        ("board", config.board.is_some()),
    ];
    let tables: Vec<&str> = present.iter().filter(|(_, p)| *p).map(|(t, _)| *t).collect();
    let all = "[cavalry], [naval], [step_race], [card_game] or [board]";
    match tables.as_slice() {
        [] => Err(Invalid::new(KeyPath::root().key("cavalry"), format!("no model table; add one: {all}"))),
        [_] => Ok(match (&config.cavalry, &config.naval, &config.step_race, &config.card_game, &config.board) {
            (Some(cavalry), ..) => ModelSpec::Cavalry(cavalry.resolve()?),
            (_, Some(naval), ..) => ModelSpec::Naval(Box::new(naval.resolve()?)),
            (_, _, Some(race), ..) => ModelSpec::StepRace(Box::new(race.resolve()?)),
            (_, _, _, Some(game), _) => ModelSpec::CardGame(Box::new(game.resolve()?)),
            (.., Some(board)) => ModelSpec::BoardGame(Box::new(board.resolve()?)),
            _ => unreachable!("one table is present"),
        }),
        [_, second, ..] => {
            let msg = format!("a config holds one model; this one has {}", tables.join(" and "));
            Err(Invalid::new(KeyPath::root().key(second), msg))
        }
    }
}

fn resolve_run(run: &RunConfig) -> Result<RunSettings, Invalid> {
    let path = |k: &str| KeyPath::root().key("run").key(k);
    let at_least = |v: i64, min: i64, k: &str| {
        if v >= min {
            Ok(v as u64)
        } else {
            Err(Invalid::new(path(k), format!("{v} is too small; allowed: {min} or more")))
        }
    };
    let name = run.name.clone().unwrap_or_default();
    check_name(&name, || path("name"))?;
    Ok(RunSettings {
        trials: at_least(run.trials, 1, "trials")?,
        seed: at_least(run.seed, 0, "seed")?,
        chunk_size: at_least(run.chunk_size, 1, "chunk_size")?,
        max_exact_leaves: {
            in_range(run.max_exact_leaves, 1, MOST_EXACT_LEAVES, || path("max_exact_leaves"))?;
            run.max_exact_leaves as u64
        },
        name,
    })
}

/// Checks a name used in a metric name or a folder name: letters, digits, `-`, `_`, `.`, and no way out of
/// the folder it names (`..`, `/`, an absolute path).
pub fn check_name(name: &str, path: impl FnOnce() -> KeyPath) -> Result<(), Invalid> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if !name.is_empty() && name.chars().all(plain) && !name.starts_with('.') && name.len() <= 100 {
        return Ok(());
    }
    let msg = format!(
        "{name:?} is not allowed; use 1 to 100 letters, digits, '-', '_' or '.' (not first), with no '/' or '..'"
    );
    Err(Invalid::new(path(), msg))
}
