//! [`Entry`]: a registered rule set, object-safe, implemented once for every [`RuleSet`]. It parses the rule
//! set's table out of a config file ([`Parsed`]), leaves it to be resolved ([`Unresolved`]), and gives the
//! JSON Schema of a config holding it, and its own commands ([`Tool`]).

use std::fmt::Debug;

use schemars::JsonSchema;

use super::file::{Document, parse_file};
use super::{Decision, Mount, Play, Resolved, RuleSet, Rules, Tool};
use crate::config::files::{Files, Included, NoFiles};
use crate::config::path::Invalid;
use crate::config::run::RunConfig;
use crate::decide::Unsolved;

/// A registered rule set, object-safe: reads its table out of a config file.
pub trait Entry: Send + Sync + Debug {
    /// [`RuleSet::TABLE`].
    fn table(&self) -> &'static str;
    /// [`RuleSet::TITLE`].
    fn title(&self) -> &'static str;
    /// Parses a whole config file holding this rule set's table: the `[run]` table, and this table both
    /// typed and as TOML with every default filled in. `tables` are every registered table, the only keys
    /// allowed beside `run`; those of other rule sets are skipped (the caller refuses a file with two).
    /// The files the table names (a map file) are read through `files` and held in it ([`RuleSet::include`]).
    fn parse(&'static self, doc: Document<'_>, tables: &[&'static str], files: &dyn Files) -> Result<Parsed, Unparsed>;
    /// Types this rule set's table held as a value (a config resolved before, changed by key), with the
    /// `[run]` table beside it: what [`Entry::parse`] gives for a file, with no text between.
    fn parse_table(&'static self, run: RunConfig, body: toml::Table) -> Result<Parsed, Unparsed>;
    /// The `step`-th decision of the scenario whose table, every default filled in, is `body`, with the
    /// decisions before it made ([`RuleSet::decision`]); the table need not resolve.
    fn decision(&self, body: &toml::Table, step: usize) -> Result<Option<Decision>, Unsolved>;
    /// The JSON Schema of a whole config file of this rule set: `[run]` and its table, every key with its
    /// type, allowed values, default and description.
    fn schema(&self) -> serde_json::Value;
    /// [`RuleSet::STARTER`].
    fn starter(&self) -> Option<&'static str>;
    /// [`RuleSet::TOOLS`].
    fn tools(&self) -> &'static [&'static dyn Tool];
    /// Its quick odds calculator: the tool mounted as `odds <name>`, if it has one.
    fn calculator(&self) -> Option<&'static dyn Tool> {
        self.tools().iter().copied().find(|t| matches!(t.mount(), Mount::Odds(_)))
    }
    /// [`RuleSet::PLAY`]: the rule set's game, played turn by turn from outside.
    fn play(&self) -> Option<&'static dyn Play>;
}

/// Why a config's table did not parse: TOML or serde's error, or a file it names ([`Included`]).
#[derive(Debug)]
pub enum Unparsed {
    Toml(toml::de::Error),
    Included(Included),
}

impl From<toml::de::Error> for Unparsed {
    fn from(e: toml::de::Error) -> Unparsed {
        Unparsed::Toml(e)
    }
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
    fn parse(&'static self, doc: Document<'_>, tables: &[&'static str], files: &dyn Files) -> Result<Parsed, Unparsed> {
        let (run, config) = parse_file::<S::Config>(doc, Some(S::TABLE), tables)?;
        let mut config = config.ok_or_else(|| <toml::de::Error as serde::de::Error>::missing_field(S::TABLE))?;
        self.include(&mut config, files).map_err(Unparsed::Included)?;
        let body = toml::Table::try_from(&config).map_err(<toml::de::Error as serde::de::Error>::custom)?;
        Ok(Parsed { run, body, table: Box::new(Typed { set: self, config }) })
    }
    fn parse_table(&'static self, run: RunConfig, body: toml::Table) -> Result<Parsed, Unparsed> {
        let mut config: S::Config = toml::Value::Table(body).try_into()?;
        self.include(&mut config, &NoFiles).map_err(Unparsed::Included)?;
        let body = toml::Table::try_from(&config).map_err(<toml::de::Error as serde::de::Error>::custom)?;
        Ok(Parsed { run, body, table: Box::new(Typed { set: self, config }) })
    }
    fn decision(&self, body: &toml::Table, step: usize) -> Result<Option<Decision>, Unsolved> {
        let config: S::Config = toml::Value::Table(body.clone())
            .try_into()
            .map_err(|e: toml::de::Error| Unsolved(e.message().to_owned()))?;
        RuleSet::decision(self, &config, step).map_err(|e| {
            let key = crate::config::keys::dotted(&e.path, |_| None);
            Unsolved(format!("{key}: {}", e.message))
        })
    }
    fn schema(&self) -> serde_json::Value {
        file_schema::<S::Config>(S::TABLE, S::TITLE)
    }
    fn starter(&self) -> Option<&'static str> {
        S::STARTER
    }
    fn tools(&self) -> &'static [&'static dyn Tool] {
        S::TOOLS
    }
    fn play(&self) -> Option<&'static dyn Play> {
        S::PLAY
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
