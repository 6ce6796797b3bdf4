//! Configs: the TOML file as written ([`RawConfig`]) and the resolved run ([`Scenario`]).
//!
//! Loading is two steps, so that no work starts on a bad file. Parsing is strict: serde rejects unknown keys
//! and wrong types, and fills every default, so the parsed [`RawConfig`] is also the complete resolved config
//! that the manifest records. Resolving then checks ranges and names and builds the model. Every failure is a
//! [`ConfigError`] naming the file, the line and the key, and saying what is allowed; [`locate`] finds lines.
//!
//! What a config may say is documented from the same types: [`starter`] writes a rule set's commented
//! starter config, and [`reference`](mod@reference) its page in `docs/guide/reference/` (every key with its
//! type, allowed values, default and description, and the starter's metrics), from the JSON Schema.

pub mod files;
pub mod keys;
mod locate;
pub mod path;
pub mod reference;
pub mod run;
pub mod set;
pub mod starter;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use self::files::{Beside, Files, Included, NoFiles};
pub use self::path::{Invalid, KeyPath, in_range, probability};
pub use self::run::{FEWEST_EXACT_STATES, MOST_EXACT_LEAVES, MOST_EXACT_STATES, RunConfig, RunSettings};
use crate::ruleset::{Parsed, Registry, Rules, Unparsed, has_table, parse_run_only};
use crate::text::{ReadError, one_line, read_capped};

/// A config file as written, with every default filled in: the `[run]` table and one rule set's table,
/// kept as TOML so that this layer names no rule set (the rule set's [`crate::ruleset::Entry`] typed and
/// checked it). Serialised as the file's tables, `run` first.
#[derive(Clone, Debug, PartialEq)]
pub struct RawConfig {
    pub run: RunConfig,
    /// The rule set's table name ([`crate::ruleset::RuleSet::TABLE`]).
    pub table: String,
    /// That table, every default filled in.
    pub body: toml::Table,
}

impl Serialize for RawConfig {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("run", &self.run)?;
        map.serialize_entry(&self.table, &self.body)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for RawConfig {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(RawVisitor)
    }
}

impl RawConfig {
    /// The `name` of the table of a list at `path` (from the document root), if it has one and no earlier
    /// table of its list has the same (`--set` by that name would reach the earlier one).
    fn name_at(&self, path: &[path::Seg]) -> Option<String> {
        let [path::Seg::Key(top), path::Seg::Key(first), rest @ ..] = path else { return None };
        let mut value = self.body.get(first.as_str()).filter(|_| *top == self.table)?;
        let mut earlier: &[toml::Value] = &[];
        for seg in rest {
            value = match (seg, value) {
                (path::Seg::Key(k), toml::Value::Table(t)) => t.get(k.as_str())?,
                (path::Seg::Index(i), toml::Value::Array(a)) => {
                    earlier = &a[..(*i).min(a.len())];
                    a.get(*i)?
                }
                _ => return None,
            };
        }
        let name_of = |v: &toml::Value| v.get("name").and_then(toml::Value::as_str).map(str::to_owned);
        let name = name_of(value)?;
        (!earlier.iter().any(|v| name_of(v).as_deref() == Some(name.as_str()))).then_some(name)
    }
}

struct RawVisitor;

impl<'de> serde::de::Visitor<'de> for RawVisitor {
    type Value = RawConfig;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a config: a run table and one rule set's table")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RawConfig, A::Error> {
        let (mut run, mut table) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            if key == "run" {
                run = Some(map.next_value()?);
            } else if table.is_none() {
                table = Some((key, map.next_value()?));
            } else {
                return Err(serde::de::Error::custom(format!("a second rule set's table, {key}")));
            }
        }
        let (table, body) = table.ok_or_else(|| serde::de::Error::custom("no rule set's table"))?;
        Ok(RawConfig { run: run.unwrap_or_default(), table, body })
    }
}

/// A resolved scenario: everything a run needs, checked before any work starts.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub file: PathBuf,
    pub run: RunSettings,
    /// The rule set, resolved: its model and how to show it.
    pub rules: Box<dyn Rules>,
    /// The config with every default filled in, as recorded in the manifest.
    pub config: RawConfig,
}

impl Scenario {
    /// The scenario's rule set as `S` typed it, if its rule set is `S`: for a rule set's own commands.
    pub fn resolved<S: crate::ruleset::RuleSet + std::fmt::Debug>(&self) -> Option<&crate::ruleset::Resolved<S>> {
        self.rules.as_any().downcast_ref()
    }
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
#[error("{}{}: {}{}", crate::text::shown_path(file), line.map(|l| format!(":{l}")).unwrap_or_default(), key.as_ref().map(|k| format!("key '{}': ", one_line(k))).unwrap_or_default(), one_line(message))]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

/// The largest config file read: far above any real scenario, far below what would exhaust memory.
pub const MOST_BYTES: u64 = 1 << 20;

/// Reads, parses and resolves the config at `file`, whose rule set is one of the `registry`'s.
pub fn load(registry: &Registry, file: &Path, overrides: Overrides) -> Result<Scenario, ConfigError> {
    from_str_reading(registry, &read(file)?, file, overrides, &Beside::config(file))
}

/// The text of the config at `file`, refusing a file too large to be a config or not text.
fn read(file: &Path) -> Result<String, ConfigError> {
    let error = |message: String| ConfigError { file: file.to_owned(), line: None, key: None, message };
    let text = std::fs::File::open(file).map_err(ReadError::from).and_then(|f| read_capped(f, MOST_BYTES));
    text.map_err(|e| match e {
        ReadError::Io(e) => error(format!("cannot read the config: {}", crate::text::plain_io(&e))),
        ReadError::TooLarge { .. } => error(format!("the file is {e}, which no config is")),
        ReadError::NotText { .. } => error(e.to_string()),
    })
}

/// Parses and resolves config text; `file` names it in errors and gives the default run name. The text
/// may name no other file ([`NoFiles`]): [`load`] reads those beside a config file, [`from_str_reading`]
/// where its caller allows.
pub fn from_str(registry: &Registry, src: &str, file: &Path, overrides: Overrides) -> Result<Scenario, ConfigError> {
    from_str_reading(registry, src, file, overrides, &NoFiles)
}

/// [`from_str`], reading the files the config names through `files`.
pub fn from_str_reading(
    registry: &Registry,
    src: &str,
    file: &Path,
    overrides: Overrides,
    files: &dyn Files,
) -> Result<Scenario, ConfigError> {
    let parsed = parse(registry, src, files).map_err(|e| e.located(src, file))?;
    resolve(parsed, file, overrides, |e| locate::invalid(src, file, e))
}

/// Resolves a config held as a value, with every default filled in (a sweep's point, the config a manifest
/// recorded): no text is written or parsed. `file` names it in errors, which name the key but no line.
pub fn from_raw(registry: &Registry, raw: &RawConfig, file: &Path) -> Result<Scenario, ConfigError> {
    let error = |key: Option<String>, message: String| ConfigError { file: file.to_owned(), line: None, key, message };
    let entry = registry.find(&raw.table).ok_or_else(|| {
        let allowed = registry.tables().join(", ");
        error(None, format!("no rule set has the table [{}]; allowed: {allowed}", raw.table))
    })?;
    let parsed = entry.parse_table(raw.run.clone(), raw.body.clone()).map_err(|e| match e {
        Unparsed::Toml(e) => error(Some(raw.table.clone()), e.message().to_owned()),
        Unparsed::Included(Included::File(e)) => e,
        Unparsed::Included(Included::At(e)) => error(Some(keys::dotted(&e.path, |to| raw.name_at(to))), e.message),
    })?;
    resolve(parsed, file, Overrides::default(), |e| {
        let key = (!e.path.0.is_empty()).then(|| keys::dotted(&e.path, |to| raw.name_at(to)));
        error(key, e.message)
    })
}

/// Resolves a parsed config: `[run]` with its overrides, then the rule set's table; `invalid` places a
/// resolve error in the file.
fn resolve(
    parsed: Parsed,
    file: &Path,
    overrides: Overrides,
    invalid: impl FnOnce(Invalid) -> ConfigError,
) -> Result<Scenario, ConfigError> {
    let Parsed { mut run, body, table } = parsed;
    let named = run.name.is_some();
    run.name.get_or_insert_with(|| default_name(file));
    override_run(&mut run, overrides, file)?;
    let resolved = resolve_run(&run).and_then(|settings| Ok((settings, table.resolve()?)));
    let (settings, rules) = resolved.map_err(|mut e| {
        if !named && e.path == KeyPath::root().key("run").key("name") {
            e.message += "; it comes from the config file's name, so rename the file or set name in [run]";
        }
        invalid(e)
    })?;
    let config = RawConfig { run, table: rules.entry().table().to_owned(), body };
    Ok(Scenario { file: file.to_owned(), run: settings, rules, config })
}

/// Why config text did not parse: TOML or serde's error, or a resolve error found before resolving (no rule
/// set's table, or two).
enum ParseError {
    Toml(toml::de::Error),
    Invalid(Invalid),
    /// An error inside a file the config names, placed in that file.
    Elsewhere(ConfigError),
}

impl ParseError {
    fn located(self, src: &str, file: &Path) -> ConfigError {
        match self {
            ParseError::Toml(e) => locate::parse_error(src, file, &e),
            ParseError::Invalid(e) => locate::invalid(src, file, e),
            ParseError::Elsewhere(e) => e,
        }
    }
}

impl From<Unparsed> for ParseError {
    fn from(e: Unparsed) -> ParseError {
        match e {
            Unparsed::Toml(e) => ParseError::Toml(e),
            Unparsed::Included(Included::At(e)) => ParseError::Invalid(e),
            Unparsed::Included(Included::File(e)) => ParseError::Elsewhere(e),
        }
    }
}

/// The file's `[run]` table and its one rule set's table, parsed by that rule set.
fn parse(registry: &Registry, src: &str, files: &dyn Files) -> Result<Parsed, ParseError> {
    let doc = toml::de::DeTable::parse(src).map_err(ParseError::Toml)?;
    let tables = registry.tables();
    let present: Vec<&'static str> = tables.iter().copied().filter(|t| has_table(&doc, t)).collect();
    let Some(first) = present.first().and_then(|t| registry.find(t)) else {
        parse_run_only(doc, &tables).map_err(ParseError::Toml)?;
        let all = tables.iter().map(|t| format!("[{t}]")).collect::<Vec<_>>();
        let all = match all.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => all.join(""),
        };
        let first_table = tables.first().copied().unwrap_or("run");
        let msg =
            format!("the file has no rule-set table; add one: {all} (`intercept-sim init TABLE` writes a starter)");
        return Err(ParseError::Invalid(Invalid::new(KeyPath::root().key(first_table), msg)));
    };
    let parsed = first.parse(doc, &tables, files)?;
    if let [_, second, ..] = present.as_slice() {
        let msg = format!("a config holds one model; this one has {}", present.join(" and "));
        return Err(ParseError::Invalid(Invalid::new(KeyPath::root().key(second), msg)));
    }
    Ok(parsed)
}

/// Command-line values written over the file's `[run]` table.
fn override_run(run: &mut RunConfig, overrides: Overrides, file: &Path) -> Result<(), ConfigError> {
    let too_large = |key: &str, v: u64| ConfigError {
        file: file.to_owned(),
        line: None,
        key: Some(format!("run.{key}")),
        message: format!("{v} (from the command line) is too large; allowed: up to {}", i64::MAX),
    };
    if let Some(t) = overrides.trials {
        run.trials = i64::try_from(t).map_err(|_| too_large("trials", t))?;
    }
    if let Some(s) = overrides.seed {
        run.seed = i64::try_from(s).map_err(|_| too_large("seed", s))?;
    }
    Ok(())
}

fn default_name(file: &Path) -> String {
    file.file_stem().map_or_else(|| "run".into(), |s| s.to_string_lossy().into_owned())
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
        max_exact_states: {
            in_range(run.max_exact_states, FEWEST_EXACT_STATES, MOST_EXACT_STATES, || path("max_exact_states"))?;
            run.max_exact_states as u64
        },
        draws: run.draws,
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
