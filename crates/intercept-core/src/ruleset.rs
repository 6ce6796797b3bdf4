//! The one interface every rule set implements, and the registry that finds a config's rule set.
//!
//! A [`RuleSet`] is a rule set's whole contract with the shared layers: the config table it reads (its
//! typed `Config`), how that resolves into a [`Model`] (the trial, written once against
//! [`crate::chance::Chance`]), and everything needed to show a run of it, as data ([`Presentation`]). A
//! rule set is one folder; nothing outside it names it but the [`Registry`] that lists it.
//!
//! Generic code cannot hold "some rule set" by type, so each trait has an object-safe twin implemented once
//! for every rule set: an [`Entry`] is a registered rule set (it parses its table out of a config file), and
//! a [`Rules`] is a resolved one (a [`Resolved`] config and model). `Rules` runs the model under either
//! interpreter, the sampler ([`crate::engine`]) and the enumerator ([`crate::exact`]), each call
//! monomorphised for the model, so the only dynamic dispatch is one call per run, never per trial.

use std::any::Any;
use std::fmt::Debug;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use crate::config::path::Invalid;
use crate::config::run::RunConfig;
use crate::engine::{self, Plan, Ran, Slice, Span, TrialRows};
use crate::exact::{self, ExactTally, TooLarge};
use crate::metrics::{Metrics, Tally};
pub use crate::model::Model;
use crate::present::{Extra, Presentation};
use crate::summary::Summary;

/// A rule set: its config table, its model, and how a run of it is shown.
pub trait RuleSet: Send + Sync + 'static {
    /// The config table that holds a scenario of these rules: `[TABLE]`.
    const TABLE: &'static str;
    /// What reports call the rules: the game's rules and its title, in a few words.
    const TITLE: &'static str;
    /// The table as written, every default filled in by serde; unknown keys refused. Its JSON Schema,
    /// derived from the same type, is what forms and editors read ([`Entry::schema`]).
    type Config: Serialize + DeserializeOwned + JsonSchema + Clone + Debug + Send + Sync + 'static;
    /// The resolved scenario: the trial and its metrics.
    type Model: Model + Clone + Debug + Send + Sync + 'static;

    /// Checks ranges and names, and builds the model.
    fn resolve(&self, config: &Self::Config) -> Result<Self::Model, Invalid>;

    /// What the config resolved to, for `validate`: derived values a user would check.
    fn describe(&self, model: &Self::Model) -> serde_json::Value;

    /// The scenario in plain words: a few sentences in the rules' vocabulary.
    fn plain_words(&self, config: &Self::Config, model: &Self::Model) -> Vec<String>;

    /// The metrics that answer the question a player of this game asks first.
    fn headline(&self, model: &Self::Model) -> Vec<String>;

    /// The rule set's own outputs of a run whose summary is `summary` over `trials` trials.
    fn extras(&self, _config: &Self::Config, _model: &Self::Model, _summary: &Summary, _trials: u64) -> Vec<Extra> {
        Vec::new()
    }
}

/// The error a row sink may return: handed back unchanged by [`Rules::run_rows`].
pub type SinkError = Box<dyn std::error::Error + Send + Sync>;

/// A resolved rule set behind one object-safe interface: what the shared layers hold.
pub trait Rules: Send + Sync + Debug {
    /// The rule set's registry entry.
    fn entry(&self) -> &'static dyn Entry;
    /// The metrics the trial reports.
    fn metrics(&self) -> &Metrics;
    /// [`RuleSet::describe`].
    fn describe(&self) -> serde_json::Value;
    /// The scenario in plain words ([`RuleSet::plain_words`]).
    fn plain_words(&self) -> Vec<String>;
    /// The headline metrics ([`RuleSet::headline`]).
    fn headline(&self) -> Vec<String>;
    /// How a run with this summary is shown.
    fn present(&self, summary: &Summary, trials: u64) -> Presentation;
    /// Runs the span's chunks under the sampler ([`engine::run_span`]).
    fn run_span(&self, plan: &Plan, span: Span, progress: &(dyn Fn(u64) + Sync)) -> Ran;
    /// Runs the span's chunks, handing every trial's row to `sink` in trial order ([`engine::run_rows`]).
    fn run_rows(
        &self,
        plan: &Plan,
        span: Span,
        progress: &(dyn Fn(u64) + Sync),
        sink: &mut (dyn FnMut(&TrialRows) -> Result<(), SinkError> + Send),
    ) -> Result<Ran, SinkError>;
    /// The counts of every trial of `plan`.
    fn tally(&self, plan: &Plan) -> Tally;
    /// One slice's counts and rows ([`engine::run_slice_rows`]).
    fn slice_rows(&self, plan: &Plan, slice: Slice) -> (Tally, TrialRows);
    /// The exact probability of every slot, if the tree has at most `max_leaves` leaves.
    fn solve(&self, max_leaves: u64) -> Result<ExactTally, TooLarge>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn Rules>;
    /// The concrete [`Resolved`], for a rule set's own commands.
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn Rules> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A rule set's config and the model it resolved to.
#[derive(Debug)]
pub struct Resolved<S: RuleSet> {
    pub set: &'static S,
    pub config: S::Config,
    pub model: S::Model,
}

impl<S: RuleSet> Clone for Resolved<S> {
    fn clone(&self) -> Self {
        Resolved { set: self.set, config: self.config.clone(), model: self.model.clone() }
    }
}

impl<S: RuleSet + Debug> Rules for Resolved<S> {
    fn entry(&self) -> &'static dyn Entry {
        self.set
    }
    fn metrics(&self) -> &Metrics {
        self.model.metrics()
    }
    fn describe(&self) -> serde_json::Value {
        self.set.describe(&self.model)
    }
    fn plain_words(&self) -> Vec<String> {
        self.set.plain_words(&self.config, &self.model)
    }
    fn headline(&self) -> Vec<String> {
        self.set.headline(&self.model)
    }
    fn present(&self, summary: &Summary, trials: u64) -> Presentation {
        Presentation {
            title: S::TITLE.to_owned(),
            plain: self.plain_words(),
            headline: self.headline(),
            extras: self.set.extras(&self.config, &self.model, summary, trials),
        }
    }
    fn run_span(&self, plan: &Plan, span: Span, progress: &(dyn Fn(u64) + Sync)) -> Ran {
        engine::run_span(&self.model, plan, span, progress)
    }
    fn run_rows(
        &self,
        plan: &Plan,
        span: Span,
        progress: &(dyn Fn(u64) + Sync),
        sink: &mut (dyn FnMut(&TrialRows) -> Result<(), SinkError> + Send),
    ) -> Result<Ran, SinkError> {
        engine::run_rows(&self.model, plan, span, progress, sink)
    }
    fn tally(&self, plan: &Plan) -> Tally {
        engine::run(&self.model, plan, &|_| {})
    }
    fn slice_rows(&self, plan: &Plan, slice: Slice) -> (Tally, TrialRows) {
        engine::run_slice_rows(&self.model, plan, slice)
    }
    fn solve(&self, max_leaves: u64) -> Result<ExactTally, TooLarge> {
        exact::enumerate(&self.model, max_leaves)
    }
    fn clone_box(&self) -> Box<dyn Rules> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A registered rule set, object-safe: reads its table out of a config file.
pub trait Entry: Send + Sync + Debug {
    /// [`RuleSet::TABLE`].
    fn table(&self) -> &'static str;
    /// [`RuleSet::TITLE`].
    fn title(&self) -> &'static str;
    /// Parses a whole config file holding this rule set's table: the `[run]` table, and this table both
    /// typed and as TOML with every default filled in. `tables` are every registered table, the only keys
    /// allowed beside `run`; those of other rule sets are skipped (the caller refuses a file with two).
    fn parse(&'static self, src: &str, tables: &[&'static str]) -> Result<Parsed, toml::de::Error>;
    /// The JSON Schema of a whole config file of this rule set: `[run]` and its table, every key with its
    /// type, allowed values, default and description.
    fn schema(&self) -> serde_json::Value;
}

/// A config file parsed by its rule set's [`Entry`], not yet resolved.
pub struct Parsed {
    pub run: RunConfig,
    /// The rule set's table with every default filled in, as the manifest records it.
    pub body: toml::Table,
    pub table: Box<dyn Unresolved>,
}

/// A rule set's typed table, waiting for [`Unresolved::resolve`].
pub trait Unresolved: Send + Sync {
    fn resolve(&self) -> Result<Box<dyn Rules>, Invalid>;
}

struct Typed<S: RuleSet> {
    set: &'static S,
    config: S::Config,
}

impl<S: RuleSet + Debug> Unresolved for Typed<S> {
    fn resolve(&self) -> Result<Box<dyn Rules>, Invalid> {
        let model = self.set.resolve(&self.config)?;
        Ok(Box::new(Resolved { set: self.set, config: self.config.clone(), model }))
    }
}

impl<S: RuleSet + Debug> Entry for S {
    fn table(&self) -> &'static str {
        S::TABLE
    }
    fn title(&self) -> &'static str {
        S::TITLE
    }
    fn parse(&'static self, src: &str, tables: &[&'static str]) -> Result<Parsed, toml::de::Error> {
        let (run, config) = parse_file::<S::Config>(src, Some(S::TABLE), tables)?;
        let config = config.ok_or_else(|| <toml::de::Error as serde::de::Error>::missing_field(S::TABLE))?;
        let body = toml::Table::try_from(&config).map_err(<toml::de::Error as serde::de::Error>::custom)?;
        Ok(Parsed { run, body, table: Box::new(Typed { set: self, config }) })
    }
    fn schema(&self) -> serde_json::Value {
        file_schema::<S::Config>(S::TABLE, S::TITLE)
    }
}

/// The schema of a config file whose rule-set table `table` is typed `T`: an object of `run` and `table`,
/// nothing else, with the definitions both use.
fn file_schema<T: JsonSchema>(table: &str, title: &str) -> serde_json::Value {
    let mut generator = schemars::SchemaGenerator::default();
    let run = generator.subschema_for::<RunConfig>();
    let rules = generator.subschema_for::<T>();
    let defs: serde_json::Map<String, serde_json::Value> = generator.take_definitions(true).into_iter().collect();
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("intercept-sim config: {title}"),
        "type": "object",
        "properties": { "run": run, table: rules },
        "required": [table],
        "additionalProperties": false,
        "$defs": defs,
    })
}

/// Parses a config file's `[run]` table and its `table` (if given) typed as `T`, refusing any top-level key
/// but `run` and the registered `tables` with serde's own message, at the key's line.
pub fn parse_file<T: DeserializeOwned>(
    src: &str,
    table: Option<&'static str>,
    tables: &[&'static str],
) -> Result<(RunConfig, Option<T>), toml::de::Error> {
    let de = toml::de::Deserializer::parse(src)?;
    FileSeed::<T> { table, tables, typed: PhantomData }.deserialize(de)
}

struct FileSeed<'a, T> {
    table: Option<&'static str>,
    tables: &'a [&'static str],
    typed: PhantomData<T>,
}

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for FileSeed<'_, T> {
    type Value = (RunConfig, Option<T>);
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for FileSeed<'_, T> {
    type Value = (RunConfig, Option<T>);

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a config: a [run] table and one rule set's table")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut run, mut typed) = (None, None);
        while let Some(key) = map.next_key_seed(KeySeed { tables: self.tables })? {
            match key {
                "run" => run = Some(map.next_value::<RunConfig>()?),
                k if Some(k) == self.table => typed = Some(map.next_value::<T>()?),
                _ => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        Ok((run.unwrap_or_default(), typed))
    }
}

/// A top-level key: `run` or a registered table, else serde's "unknown field" error at the key.
struct KeySeed<'a> {
    tables: &'a [&'static str],
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = &'static str;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = &'static str;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a table name")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        if v == "run" {
            return Ok("run");
        }
        self.tables.iter().copied().find(|t| *t == v).ok_or_else(|| {
            let allowed: Vec<String> = std::iter::once("run").chain(self.tables.iter().copied()).map(quoted).collect();
            E::custom(format!("unknown field `{v}`, expected {}", one_of(&allowed)))
        })
    }
}

fn quoted(name: &str) -> String {
    format!("`{name}`")
}

/// serde's wording of a list of choices: "`a`", "`a` or `b`", "one of `a`, `b`, `c`".
fn one_of(names: &[String]) -> String {
    match names {
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", names.join(", ")),
    }
}

/// The rule sets a config may hold, each found by its table.
#[derive(Clone, Debug)]
pub struct Registry {
    sets: Vec<&'static dyn Entry>,
}

impl Registry {
    /// A registry of these rule sets, in the order errors list their tables.
    pub fn new(sets: Vec<&'static dyn Entry>) -> Registry {
        Registry { sets }
    }

    /// The same registry with one more rule set.
    pub fn with(mut self, set: &'static dyn Entry) -> Registry {
        self.sets.push(set);
        self
    }

    /// Every registered rule set.
    pub fn sets(&self) -> &[&'static dyn Entry] {
        &self.sets
    }

    /// Every registered table name.
    pub fn tables(&self) -> Vec<&'static str> {
        self.sets.iter().map(|s| s.table()).collect()
    }

    /// The rule set whose table is `table`.
    pub fn find(&self, table: &str) -> Option<&'static dyn Entry> {
        self.sets.iter().copied().find(|s| s.table() == table)
    }
}

/// The error kind [`Entry::parse`] gives for a file that holds none of the registered tables' typed
/// contents: used by [`crate::config`] to parse only `[run]` and refuse unknown keys.
pub type NoTable = IgnoredAny;

/// Used when no rule set's table is present: parses `[run]` and refuses unknown top-level keys.
pub fn parse_run_only(src: &str, tables: &[&'static str]) -> Result<RunConfig, toml::de::Error> {
    parse_file::<NoTable>(src, None, tables).map(|(run, _)| run)
}
