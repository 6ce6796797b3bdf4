//! A sixth rule set joins through the public traits alone: a coin-flip interception, defined here in the test
//! tree, runs through sampling, the exact enumerator, Parquet export and the report without any change to a
//! shared file.
//!
//! The rules (C for coin): `[coin]` sends `interceptors` units after a target; each reaches it on heads, a
//! fair coin unless `heads_in` of `sides` says otherwise (C-1); the target is intercepted when at least one
//! reaches it (C-2). With 3 fair coins it is intercepted with probability 7/8, and 0, 1, 2, 3 units reach
//! it with probabilities 1/8, 3/8, 3/8, 1/8.
//!
//! A new rule set copies this: its rules, config, model and metrics in a folder of its own, and a test at
//! the end of its `set.rs` that calls the conformance suite (`ruleset::conformance::check`) on it and its
//! `configs/<name>/` folder, as `the_toy_passes_the_conformance_suite` does for `[coin]` here.

use std::path::Path;

use intercept_sim::core::chance::{Chance, Dist};
use intercept_sim::core::config::Invalid;
use intercept_sim::core::config::{self, KeyPath, Overrides, in_range};
use intercept_sim::core::exact::metric_values;
use intercept_sim::core::games::shipped;
use intercept_sim::core::metrics::{Metric, Metrics, Recorder};
use intercept_sim::core::present::{Bar, DataTable, Extra, Picture, Placement, StackedBars, Values};
use intercept_sim::core::ruleset::{Model, RuleSet, conformance};
use intercept_sim::core::runner::{self, SampleOptions};
use intercept_sim::core::stats::{Z999, wilson};
use intercept_sim::core::summary::Summary;
use intercept_sim::output::outputs;
use polars::prelude::*;
use serde::{Deserialize, Serialize};

/// `[coin]` as written.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct CoinConfig {
    interceptors: i64,
    #[serde(default = "one")]
    heads_in: i64,
    #[serde(default = "two")]
    sides: i64,
}

fn one() -> i64 {
    1
}
fn two() -> i64 {
    2
}

/// The resolved coin-flip scenario.
#[derive(Clone, Debug)]
struct Coins {
    n: u32,
    heads: Dist,
    metrics: Metrics,
    reached: Metric,
}

impl Model for Coins {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let reached = (0..self.n).filter(|_| chance.happens(&self.heads)).count() as u32;
        rec.value(self.reached, reached);
    }
}

/// The coin-flip rules, known to nothing in the library.
#[derive(Debug)]
struct CoinRules;

impl RuleSet for CoinRules {
    const TABLE: &'static str = "coin";
    const TITLE: &'static str = "coin-flip interception (a test's toy)";
    type Config = CoinConfig;
    type Model = Coins;

    fn resolve(&self, c: &CoinConfig) -> Result<Coins, Invalid> {
        let at = |key: &str| KeyPath::root().key("coin").key(key);
        in_range(c.interceptors, 1, 8, || at("interceptors"))?;
        in_range(c.sides, 1, 100, || at("sides"))?;
        in_range(c.heads_in, 0, c.sides, || at("heads_in"))?;
        let mut metrics = Metrics::default();
        let n = c.interceptors as u32;
        let reached = metrics.distribution("coin.reached", n);
        metrics.describe(reached, "interceptors whose coin comes up heads (C-1)");
        let intercepted = metrics.at_least("coin.intercepted", reached, 1);
        metrics.describe(intercepted, "at least one interceptor reaches the target (C-2)");
        Ok(Coins { n, heads: Dist::bernoulli(c.heads_in as u64, c.sides as u64), metrics, reached })
    }

    fn describe(&self, model: &Coins) -> serde_json::Value {
        serde_json::json!({ "interceptors": model.n, "p_heads": model.heads.probability(1) })
    }

    fn plain_words(&self, _: &CoinConfig, model: &Coins) -> Vec<String> {
        vec![format!("{} interceptors each flip a coin; heads reaches the target.", model.n)]
    }

    fn headline(&self, _: &Coins) -> Vec<String> {
        vec!["coin.intercepted".to_owned()]
    }

    fn extras(&self, _: &CoinConfig, model: &Coins, summary: &Summary, _: u64) -> Vec<Extra> {
        let rows: Vec<_> = summary.distributions.iter().filter(|r| r.metric == "coin.reached").collect();
        let shares: Vec<f64> = rows.iter().map(|r| r.exact.unwrap_or(r.probability)).collect();
        let data = DataTable::default()
            .column("reached", Values::U32(rows.iter().map(|r| r.value).collect()))
            .column("share", Values::F64(shares.clone()));
        let legend = (0..=model.n).map(|k| format!("{k} reached")).collect();
        let bars = vec![Bar { label: "all trials".into(), shares, note: String::new() }];
        let picture = StackedBars { title: "Coins".into(), x_desc: "share".into(), legend, bars };
        vec![Extra {
            name: "coins".into(),
            placement: Placement::Results("Coins that came up heads".into()),
            text: "How many interceptors reached the target.".into(),
            data: Some(data),
            picture: Some(Picture::StackedBars(picture)),
            caption: "Interceptors that reached the target".into(),
            table: None,
        }]
    }
}

static COIN: CoinRules = CoinRules;

const CONFIG: &str = "[run]\nname = \"coins\"\ntrials = 200000\nseed = 3\n\n[coin]\ninterceptors = 3\n";

fn scenario() -> config::Scenario {
    let registry = shipped().with(&COIN);
    config::from_str(&registry, CONFIG, Path::new("coins.toml"), Overrides::default()).expect("a valid toy config")
}

#[test]
fn the_toy_resolves_and_solves_exactly() {
    let scenario = scenario();
    assert_eq!(scenario.config.table, "coin");
    let exact = runner::solve(&scenario).expect("a tree of 8 leaves");
    assert_eq!(exact.leaves, 8);
    let values = metric_values(scenario.rules.metrics(), &exact);
    let names: Vec<&str> = scenario.rules.metrics().defs().iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["coin.reached", "coin.intercepted"]);
    assert!((values[1] - 7.0 / 8.0).abs() < 1e-15 && (values[0] - 1.5).abs() < 1e-15);
}

#[test]
fn the_toys_samples_agree_with_its_exact_odds() {
    let record = runner::sample(&scenario(), &SampleOptions::default(), &|_| {});
    let row = record.summary.metrics.iter().find(|r| r.metric == "coin.intercepted").expect("the headline");
    let ci = wilson(row.successes.expect("a probability"), row.trials, Z999);
    assert!(ci.low <= 7.0 / 8.0 && 7.0 / 8.0 <= ci.high, "7/8 in [{}, {}]", ci.low, ci.high);
    assert_eq!(row.exact, Some(7.0 / 8.0));
    assert_eq!(record.presentation.headline, ["coin.intercepted"]);
}

#[test]
fn the_toy_writes_parquet_charts_and_its_report() {
    let record = runner::sample(&scenario(), &SampleOptions::default(), &|_| {});
    let dir = tempfile::tempdir().unwrap();
    let written = outputs::export(&record, dir.path()).expect("every output");
    let names: Vec<String> = written.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for file in ["summary.parquet", "distributions.parquet", "coins.parquet", "coins.svg", "report.html"] {
        assert!(names.iter().any(|n| n == file), "{file} written: {names:?}");
    }
    let coins = ParquetReader::new(std::fs::File::open(dir.path().join("coins.parquet")).unwrap()).finish().unwrap();
    let shares: Vec<f64> = coins.column("share").unwrap().f64().unwrap().into_no_null_iter().collect();
    assert_eq!(shares, [0.125, 0.375, 0.375, 0.125]);
    let page = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    for text in ["coin-flip interception (a test&#39;s toy)", "Coins that came up heads", "heads reaches the target"] {
        assert!(page.contains(text), "the report shows {text:?}");
    }
    let manifest = std::fs::read_to_string(dir.path().join("manifest.json")).unwrap();
    assert!(manifest.contains("\"coin\": {\n      \"interceptors\": 3,"), "the manifest records [coin]:\n{manifest}");
}

#[test]
fn a_bad_toy_config_is_refused_at_its_line() {
    let registry = shipped().with(&COIN);
    let bad = CONFIG.replace("interceptors = 3", "interceptors = 3\nspeed = 2");
    let e = config::from_str(&registry, &bad, Path::new("coins.toml"), Overrides::default()).unwrap_err();
    assert_eq!((e.line, e.key.as_deref()), (Some(8), Some("coin.speed")), "{e}");
    let unknown = config::from_str(&shipped(), CONFIG, Path::new("coins.toml"), Overrides::default()).unwrap_err();
    assert!(unknown.to_string().contains("unknown field `coin`"), "{unknown}");
}

/// The shared conformance suite, on `[coin]` and a configs folder of its own: the test a rule set's `set.rs`
/// ends with.
#[test]
fn the_toy_passes_the_conformance_suite() {
    let dir = tempfile::tempdir().unwrap();
    let loaded = CONFIG.replace("interceptors = 3", "interceptors = 2\nheads_in = 2\nsides = 3");
    for (name, text) in [("coins.toml", CONFIG), ("loaded-coins.toml", loaded.as_str())] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let report = conformance::check(&COIN, &shipped().with(&COIN), dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((report.configs.len(), report.solved()), (2, 2), "both configs held against exact odds: {report:?}");
}
