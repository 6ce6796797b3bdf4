//! The conformance suite every rule set calls from a test in its own folder: [`check`] loads each of its
//! shipped configs and its starter, and checks what the shared layers take on trust.
//!
//! For the rule set and every `*.toml` config of its configs folder, plus its starter config
//! ([`Entry::starter`]), the suite checks that:
//!
//! - the rule set is registered under its table, and the folder holds at least one config;
//! - the config loads through the registry ([`crate::config::load`]) and its table is the rule set's;
//! - the headline metrics ([`super::Rules::headline`]) are not empty and each is a registered metric;
//! - metric names are unique and each metric has its one-line description
//!   ([`crate::metrics::MetricDef::about`]);
//! - the answer sentence ([`super::RuleSet::answer`]) is one non-empty line, and if the rule set gives one for
//!   any of its configs it gives one for all of them (a rule set may give none at all);
//! - where the exact interpreter solves the config within its leaf budget (capped at [`MOST_LEAVES`], to
//!   keep the suite fast), a seeded run of [`SAMPLED_TRIALS`] trials is plausible against the exact values
//!   ([`crate::plausible::against`]: no slot's count more than about 7 standard errors off, none possible
//!   where the exact chance is 0 or 1). A config whose tree is larger, or a rule set whose trials are never
//!   walked (self-play), is sampled for [`UNSOLVED_TRIALS`] trials only, for its answer sentence;
//! - the JSON Schema ([`Entry::schema`]) describes every key of the config with its defaults filled in: every
//!   key path of `[run]` and of the rule set's table appears as a property, following `$ref`s into
//!   `$defs`, arrays' `items` and every `anyOf`/`oneOf`/`allOf` option. A map of free keys (a schema
//!   `additionalProperties`) covers its keys, and a schema with no constraints at all covers everything
//!   below it.
//!
//! The starter is resolved as `intercept-sim init` reads it ([`crate::config::starter::resolved`]), every
//! default filled in, and checked like any config.
//!
//! Every failure is collected, not only the first: a [`Nonconformance`] lists each one with the config it was
//! found in and what is wrong, and its message names the rule set.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use super::{Entry, Registry};
use crate::config::{self, ConfigError, Overrides, Scenario};
use crate::engine::Plan;
use crate::exact::TooLarge;
use crate::metrics::Implausible;
use crate::summary::Summary;
use crate::text::{plain_io, shown_path};
use crate::{plausible, runner};

/// Trials of the seeded run held against the exact values: enough to catch a sampler and an exact walk that
/// run different rules, few enough for a debug build.
pub const SAMPLED_TRIALS: u64 = 20_000;

/// Trials of the run of a config that is not solved: only its answer sentence is checked.
pub const UNSOLVED_TRIALS: u64 = 10;

/// The most leaves the suite lets the exact walk visit, whatever the config's `run.max_exact_leaves`: a
/// config whose tree is larger is not held against exact values here (the core's own tests solve the
/// shipped configs in full).
pub const MOST_LEAVES: u64 = 1_000_000;

/// Trials per chunk of the suite's sampled runs: small, so that a run spreads over the threads.
const CHUNK: u64 = 2_500;

/// What the suite checked of one config.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The config, as failures name it: its file, or "its starter config".
    pub config: String,
    /// The leaves of its chance tree where it was solved exactly, or why it was not.
    pub exact: Result<u64, TooLarge>,
    /// Trials of the suite's sampled run.
    pub trials: u64,
    /// The answer sentence after that run, if the rule set gives one.
    pub answer: Option<String>,
}

/// What a conforming rule set was checked on.
#[derive(Clone, Debug)]
pub struct Report {
    /// The rule set's table.
    pub table: &'static str,
    /// Each config checked, the folder's in file-name order, then the starter.
    pub configs: Vec<Checked>,
}

impl Report {
    /// How many configs were held against their exact values.
    pub fn solved(&self) -> usize {
        self.configs.iter().filter(|c| c.exact.is_ok()).count()
    }
}

/// A rule set that does not conform: every failure found, each with its config.
#[derive(Debug)]
pub struct Nonconformance {
    /// The rule set's table and title.
    pub table: &'static str,
    pub title: &'static str,
    pub failures: Vec<Failure>,
}

impl fmt::Display for Nonconformance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.failures.len();
        write!(f, "the rule set [{}] ({}) does not conform ({n} failure{}):", self.table, self.title, plural(n))?;
        for failure in &self.failures {
            write!(f, "\n  [{}] {}: {}", self.table, failure.config, failure.problem)?;
        }
        Ok(())
    }
}

impl std::error::Error for Nonconformance {}

/// One failure: the config it was found in (or the rule set itself, or its configs folder) and what is wrong.
#[derive(Debug)]
pub struct Failure {
    pub config: String,
    pub problem: Problem,
}

/// What is wrong.
#[derive(Debug, thiserror::Error)]
pub enum Problem {
    #[error("the registry has no rule set with the table [{0}], or another one under it")]
    NotRegistered(&'static str),
    #[error("the configs folder cannot be read: {0}")]
    Unreadable(String),
    #[error("the configs folder holds no *.toml config")]
    NoConfigs,
    #[error("it does not load: {0}")]
    DoesNotLoad(ConfigError),
    #[error("it holds the table [{found}], not the rule set's")]
    WrongTable { found: String },
    #[error("it names no headline metric")]
    NoHeadline,
    #[error("its headline metric `{0}` is not one of its registered metrics")]
    UnknownHeadline(String),
    #[error("the metric `{0}` is registered more than once")]
    DuplicateMetric(String),
    #[error("the metric `{0}` has no description (Metrics::describe)")]
    Undescribed(String),
    #[error("its answer sentence is not one non-empty line: {0:?}")]
    AnswerNotOneLine(String),
    #[error("it gives no answer sentence, where the rule set's other configs do")]
    NoAnswer,
    #[error(
        "a seeded run of {trials} trials disagrees with its exact solve, so the sampler and the exact interpreter \
         do not run the same rules: {why}"
    )]
    SamplingDisagrees { trials: u64, why: Implausible },
    #[error("the JSON Schema has no property for the key `{0}`")]
    KeyNotInSchema(String),
}

/// Checks the rule set `set`, registered in `registry`, on every `*.toml` config of the folder `configs`
/// and on its starter config: what the module's overview lists.
pub fn check(set: &'static dyn Entry, registry: &Registry, configs: &Path) -> Result<Report, Nonconformance> {
    // `crates/x/../../configs/y` is shown as the folder it is.
    let configs = &configs.canonicalize().unwrap_or_else(|_| configs.to_owned());
    let mut suite = Suite { set, failures: Vec::new(), checked: Vec::new() };
    if registry.find(set.table()).is_none_or(|found| found.title() != set.title()) {
        suite.fail("the registry", Problem::NotRegistered(set.table()));
    }
    match config_files(configs) {
        Ok(files) if files.is_empty() => suite.fail(&shown_path(configs), Problem::NoConfigs),
        Ok(files) => {
            for file in files {
                let shown = shown_path(&file);
                match config::load(registry, &file, Overrides::default()) {
                    Ok(scenario) => suite.scenario(shown, &scenario),
                    Err(e) => suite.fail(&shown, Problem::DoesNotLoad(e)),
                }
            }
        }
        Err(e) => suite.fail(&shown_path(configs), Problem::Unreadable(plain_io(&e))),
    }
    suite.starter();
    suite.answers_everywhere();
    let Suite { failures, checked, .. } = suite;
    if failures.is_empty() {
        Ok(Report { table: set.table(), configs: checked })
    } else {
        Err(Nonconformance { table: set.table(), title: set.title(), failures })
    }
}

/// The failures found so far and the configs checked.
struct Suite {
    set: &'static dyn Entry,
    failures: Vec<Failure>,
    checked: Vec<Checked>,
}

impl Suite {
    fn fail(&mut self, config: &str, problem: Problem) {
        self.failures.push(Failure { config: config.to_owned(), problem });
    }

    /// Every check of one loaded config.
    fn scenario(&mut self, config: String, scenario: &Scenario) {
        if scenario.config.table != self.set.table() {
            self.fail(&config, Problem::WrongTable { found: scenario.config.table.clone() });
            return;
        }
        self.metrics(&config, scenario);
        self.schema(&config, scenario);
        let (checked, disagrees) = sampled(config, scenario);
        if let Some(problem) = disagrees {
            self.fail(&checked.config, problem);
        }
        if let Some(answer) = checked.answer.as_ref().filter(|a| a.trim().is_empty() || a.lines().count() != 1) {
            self.fail(&checked.config, Problem::AnswerNotOneLine(answer.clone()));
        }
        self.checked.push(checked);
    }

    /// The headline names registered metrics; every metric is named once and described.
    fn metrics(&mut self, config: &str, scenario: &Scenario) {
        let defs = scenario.rules.metrics().defs();
        let headline = scenario.rules.headline();
        if headline.is_empty() {
            self.fail(config, Problem::NoHeadline);
        }
        for name in headline.into_iter().filter(|h| !defs.iter().any(|d| d.name == *h)) {
            self.fail(config, Problem::UnknownHeadline(name));
        }
        let mut seen = HashSet::new();
        for def in defs {
            if !seen.insert(def.name.as_str()) {
                self.fail(config, Problem::DuplicateMetric(def.name.clone()));
            }
            if def.about.trim().is_empty() {
                self.fail(config, Problem::Undescribed(def.name.clone()));
            }
        }
    }

    /// Every key of the config, defaults filled in, is a property of the rule set's JSON Schema.
    fn schema(&mut self, config: &str, scenario: &Scenario) {
        let schema = self.set.schema();
        let table = toml::Table::try_from(&scenario.config).expect("a resolved config is a TOML table");
        let walk = Walk { root: &schema };
        let mut missing = Vec::new();
        walk.table(&table, &[&schema], "", &mut missing);
        for key in missing {
            self.fail(config, Problem::KeyNotInSchema(key));
        }
    }

    /// The starter, resolved as `init` reads it.
    fn starter(&mut self) {
        const NAME: &str = "its starter config";
        match config::starter::resolved(self.set, Path::new("starter.toml")) {
            None => {}
            Some(Ok(scenario)) => self.scenario(NAME.to_owned(), &scenario),
            Some(Err(e)) => self.fail(NAME, Problem::DoesNotLoad(e)),
        }
    }

    /// A rule set that answers for one of its configs answers for all of them.
    fn answers_everywhere(&mut self) {
        if !self.checked.iter().any(|c| c.answer.is_some()) {
            return;
        }
        let silent: Vec<String> =
            self.checked.iter().filter(|c| c.answer.is_none()).map(|c| c.config.clone()).collect();
        for config in silent {
            self.fail(&config, Problem::NoAnswer);
        }
    }
}

/// Solves `scenario` within the suite's budget, samples it under its own seed, and holds the counts against
/// the exact values: what was checked, and the disagreement if there is one.
fn sampled(config: String, scenario: &Scenario) -> (Checked, Option<Problem>) {
    let exact = scenario.rules.solve(scenario.run.max_exact_leaves.min(MOST_LEAVES));
    // An unsolved config's few trials may each be a long game: one chunk each, so they run side by side.
    let (trials, chunk_size) = if exact.is_ok() { (SAMPLED_TRIALS, CHUNK) } else { (UNSOLVED_TRIALS, 1) };
    let plan = Plan { trials, seed: scenario.run.seed, chunk_size, draws: scenario.run.draws };
    let tally = runner::tally(scenario, &plan);
    let disagrees = exact.as_ref().ok().and_then(|exact| plausible::against(scenario, exact, &tally).err());
    let summary = Summary::new(scenario.rules.metrics(), &tally, exact.as_ref().ok());
    let answer = scenario.rules.present(&summary, tally.trials).answer;
    let problem = disagrees.map(|why| Problem::SamplingDisagrees { trials, why });
    (Checked { config, exact: exact.map(|e| e.leaves), trials, answer }, problem)
}

/// The `*.toml` files of `dir`, in file-name order.
fn config_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "toml") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Walks a TOML value beside the JSON Schema that should describe it.
struct Walk<'a> {
    root: &'a Json,
}

/// How deep `$ref`s and options are followed: far beyond any config's schema, short of a cycle's loop.
const DEEPEST: usize = 64;

impl<'a> Walk<'a> {
    /// The schemas `node` stands for: itself, what its `$ref` points at, and each of its `anyOf`, `oneOf` and
    /// `allOf` options, followed in turn.
    fn options(&self, node: &'a Json, out: &mut Vec<&'a Json>, depth: usize) {
        if depth > DEEPEST || out.iter().any(|seen| std::ptr::eq(*seen, node)) {
            return;
        }
        out.push(node);
        let target = node.get("$ref").and_then(Json::as_str).and_then(|r| r.strip_prefix('#'));
        if let Some(found) = target.and_then(|t| self.root.pointer(t)) {
            self.options(found, out, depth + 1);
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            for option in node.get(key).and_then(Json::as_array).into_iter().flatten() {
                self.options(option, out, depth + 1);
            }
        }
    }

    /// Every option of every node in `nodes`.
    fn all_options(&self, nodes: &[&'a Json]) -> Vec<&'a Json> {
        let mut out = Vec::new();
        for node in nodes {
            self.options(node, &mut out, 0);
        }
        out
    }

    /// Adds to `missing` every key path under `table` (at `path`) that none of `nodes` describes.
    fn table(&self, table: &toml::Table, nodes: &[&'a Json], path: &str, missing: &mut Vec<String>) {
        let options = self.all_options(nodes);
        if options.iter().any(|o| free(o)) {
            return;
        }
        for (key, value) in table {
            let at = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
            let inner: Vec<&Json> = options
                .iter()
                .filter_map(|o| o.get("properties").and_then(|p| p.get(key.as_str())).or_else(|| open_map(o)))
                .collect();
            if inner.is_empty() {
                missing.push(at);
            } else {
                self.value(value, &inner, &at, missing);
            }
        }
    }

    /// The same for any value: a table's keys, an array's items.
    fn value(&self, value: &toml::Value, nodes: &[&'a Json], path: &str, missing: &mut Vec<String>) {
        match value {
            toml::Value::Table(t) => self.table(t, nodes, path, missing),
            toml::Value::Array(items) => {
                let options = self.all_options(nodes);
                if options.iter().any(|o| free(o)) {
                    return;
                }
                for (i, item) in items.iter().enumerate() {
                    let at = format!("{path}[{i}]");
                    let inner: Vec<&Json> = options
                        .iter()
                        .filter_map(|o| o.get("prefixItems").and_then(|p| p.get(i)).or_else(|| o.get("items")))
                        .collect();
                    match (inner.is_empty(), item) {
                        (true, toml::Value::Table(t)) if !t.is_empty() => missing.push(format!("{at} (no `items`)")),
                        (true, _) => {}
                        (false, _) => self.value(item, &inner, &at, missing),
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether a schema constrains nothing (`true`, or only words for people), so that it covers any value.
fn free(node: &Json) -> bool {
    const WORDS: &[&str] = &["description", "title", "default", "examples", "deprecated", "$comment"];
    match node {
        Json::Bool(b) => *b,
        Json::Object(o) => o.keys().all(|k| WORDS.contains(&k.as_str())),
        _ => false,
    }
}

/// The schema of a map's free keys (`additionalProperties`), if `node` is such a map.
fn open_map(node: &Json) -> Option<&Json> {
    node.get("additionalProperties").filter(|a| a.is_object() || **a == Json::Bool(true))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn missing(schema: &Json, value: toml::Table) -> Vec<String> {
        let mut out = Vec::new();
        Walk { root: schema }.table(&value, &[schema], "", &mut out);
        out
    }

    #[test]
    fn the_schema_walk_follows_refs_items_and_options() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "t": { "$ref": "#/$defs/T" },
                "free": true,
            },
            "$defs": {
                "T": {
                    "type": "object",
                    "properties": {
                        "list": { "type": "array", "items": { "$ref": "#/$defs/Item" } },
                        "either": { "anyOf": [{ "type": "null" }, { "$ref": "#/$defs/Item" }] },
                        "names": { "type": "object", "additionalProperties": { "type": "string" } },
                    },
                },
                "Item": { "oneOf": [{ "properties": { "a": {} } }, { "properties": { "b": {} } }] },
            },
        });
        let table = |v: Json| toml::Table::try_from(v).unwrap();
        let good = serde_json::json!({
            "free": { "anything": 1 },
            "t": { "list": [{ "a": 1 }, { "b": 2 }], "either": { "b": 3 }, "names": { "x": "y", "z": "w" } },
        });
        assert_eq!(missing(&schema, table(good)), Vec::<String>::new());
        let bad = serde_json::json!({ "stray": 1, "t": { "list": [{ "a": 1 }, { "c": 2 }], "either": { "d": 3 } } });
        let mut found = missing(&schema, table(bad));
        found.sort();
        assert_eq!(found, ["stray", "t.either.d", "t.list[1].c"]);
    }

    /// Two toy rule sets: `[flip]` conforms, `[flop]` breaks every rule the suite checks but one.
    mod toys {
        use schemars::JsonSchema;
        use serde::{Deserialize, Serialize};

        use crate::chance::{Chance, Dist};
        use crate::config::Invalid;
        use crate::exact::{ExactTally, TooLarge, enumerate};
        use crate::metrics::{Metric, Metrics, Recorder};
        use crate::present::how_often;
        use crate::ruleset::{Model, RuleSet};
        use crate::summary::Summary;

        #[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct FlipConfig {
            pub coins: i64,
        }

        /// `[flop]`, with a key its schema leaves out.
        #[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct FlopConfig {
            pub coins: i64,
            #[serde(default)]
            #[schemars(skip)]
            pub hidden: i64,
        }

        /// `coins` coins, each heads `heads_in` times in 4; `lie` solves it with 3 in 4 instead.
        #[derive(Clone, Debug)]
        pub struct Flips {
            coins: u32,
            heads_in: u64,
            lie: bool,
            metrics: Metrics,
            heads: Metric,
        }

        impl Model for Flips {
            fn metrics(&self) -> &Metrics {
                &self.metrics
            }
            fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
                let coin = Dist::bernoulli(self.heads_in, 4);
                let heads = (0..self.coins).filter(|_| chance.happens(&coin)).count() as u32;
                rec.value(self.heads, heads);
            }
            fn solve(&self, max_leaves: u64) -> Result<ExactTally, TooLarge> {
                let lied = Flips { heads_in: 3, lie: false, ..self.clone() };
                enumerate(if self.lie { &lied } else { self }, max_leaves)
            }
        }

        fn flips(table: &str, coins: i64, lie: bool) -> Flips {
            let mut metrics = Metrics::default();
            let coins = coins.clamp(1, 8) as u32;
            let heads = metrics.distribution(format!("{table}.heads"), coins);
            metrics.describe(heads, "coins that come up heads");
            let any = metrics.at_least(format!("{table}.any"), heads, 1);
            metrics.describe(any, "at least one coin comes up heads");
            if lie {
                metrics.probability(format!("{table}.heads"));
            }
            Flips { coins, heads_in: 2, lie, metrics, heads }
        }

        #[derive(Debug)]
        pub struct Sound;

        impl RuleSet for Sound {
            const TABLE: &'static str = "flip";
            const TITLE: &'static str = "fair coins (a test's toy)";
            const STARTER: Option<&'static str> = Some("[flip]\ncoins = 2\n");
            type Config = FlipConfig;
            type Model = Flips;
            fn resolve(&self, config: &FlipConfig) -> Result<Flips, Invalid> {
                Ok(flips(Self::TABLE, config.coins, false))
            }
            fn describe(&self, _: &Flips) -> serde_json::Value {
                serde_json::Value::Null
            }
            fn plain_words(&self, _: &FlipConfig, _: &Flips) -> Vec<String> {
                Vec::new()
            }
            fn headline(&self, _: &Flips) -> Vec<String> {
                vec!["flip.any".to_owned()]
            }
            fn answer(&self, _: &FlipConfig, _: &Flips, summary: &Summary) -> Option<String> {
                Some(format!("A coin comes up heads {}.", how_often(summary.metric("flip.any")?)))
            }
        }

        #[derive(Debug)]
        pub struct Faulty;

        impl RuleSet for Faulty {
            const TABLE: &'static str = "flop";
            const TITLE: &'static str = "unfair coins (a test's toy)";
            type Config = FlopConfig;
            type Model = Flips;
            fn resolve(&self, config: &FlopConfig) -> Result<Flips, Invalid> {
                Ok(flips(Self::TABLE, config.coins, true))
            }
            fn describe(&self, _: &Flips) -> serde_json::Value {
                serde_json::Value::Null
            }
            fn plain_words(&self, _: &FlopConfig, _: &Flips) -> Vec<String> {
                Vec::new()
            }
            fn headline(&self, _: &Flips) -> Vec<String> {
                vec!["flop.any".to_owned(), "flop.nothing".to_owned()]
            }
            fn answer(&self, config: &FlopConfig, _: &Flips, _: &Summary) -> Option<String> {
                (config.coins > 1).then(|| "Two\nlines.".to_owned())
            }
        }
    }

    static SOUND: toys::Sound = toys::Sound;
    static FAULTY: toys::Faulty = toys::Faulty;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    #[test]
    fn a_conforming_rule_set_passes_on_its_configs_and_its_starter() {
        let registry = Registry::new(vec![&SOUND, &FAULTY]);
        let dir = folder(&[("one.toml", "[flip]\ncoins = 1\n"), ("three.toml", "[flip]\ncoins = 3\n")]);
        let report = check(&SOUND, &registry, dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let checked: Vec<&str> = report.configs.iter().map(|c| c.config.rsplit('/').next().unwrap()).collect();
        assert_eq!(checked, ["one.toml", "three.toml", "its starter config"]);
        assert_eq!(report.solved(), 3);
        assert!(report.configs.iter().all(|c| c.trials == SAMPLED_TRIALS && c.answer.is_some()), "{report:?}");
    }

    #[test]
    fn every_failure_is_found_and_named() {
        let registry = Registry::new(vec![&SOUND, &FAULTY]);
        let files =
            [("a.toml", "[flop]\ncoins = 2\n"), ("b.toml", "[flip]\ncoins = 1\n"), ("c.toml", "[flop]\ncoins = 1\n")];
        let dir = folder(&files);
        let e = check(&FAULTY, &registry, dir.path()).unwrap_err();
        let found: Vec<(&str, String)> = e
            .failures
            .iter()
            .map(|f| {
                (
                    f.config.rsplit('/').next().unwrap(),
                    format!("{:?}", f.problem).split(['(', ' ']).next().unwrap().to_owned(),
                )
            })
            .collect();
        let expected = [
            ("a.toml", "UnknownHeadline"),
            ("a.toml", "DuplicateMetric"),
            ("a.toml", "Undescribed"),
            ("a.toml", "KeyNotInSchema"),
            ("a.toml", "SamplingDisagrees"),
            ("a.toml", "AnswerNotOneLine"),
            ("b.toml", "WrongTable"),
            ("c.toml", "UnknownHeadline"),
            ("c.toml", "DuplicateMetric"),
            ("c.toml", "Undescribed"),
            ("c.toml", "KeyNotInSchema"),
            ("c.toml", "SamplingDisagrees"),
            ("c.toml", "NoAnswer"),
        ];
        let expected: Vec<(&str, String)> = expected.iter().map(|(c, p)| (*c, (*p).to_owned())).collect();
        assert_eq!(found, expected, "{e}");
        let message = e.to_string();
        assert!(
            message.starts_with("the rule set [flop] (unfair coins (a test's toy)) does not conform (13 failures):")
        );
        assert!(message.contains("a.toml: its headline metric `flop.nothing` is not one of its registered metrics"));
        assert!(message.contains("a.toml: the JSON Schema has no property for the key `flop.hidden`"), "{message}");
        let empty = folder(&[]);
        let e = check(&FAULTY, &Registry::new(vec![&SOUND]), empty.path()).unwrap_err();
        let problems: Vec<String> = e.failures.iter().map(|f| f.problem.to_string()).collect();
        assert_eq!(
            problems,
            [
                "the registry has no rule set with the table [flop], or another one under it",
                "the configs folder holds no *.toml config"
            ]
        );
    }

    #[test]
    fn a_nonconformance_names_the_rule_set_the_config_and_the_problem() {
        let e = Nonconformance {
            table: "toy",
            title: "a toy",
            failures: vec![Failure { config: "configs/toy/a.toml".into(), problem: Problem::NoHeadline }],
        };
        assert_eq!(
            e.to_string(),
            "the rule set [toy] (a toy) does not conform (1 failure):\n  [toy] configs/toy/a.toml: it names no \
             headline metric"
        );
    }
}
