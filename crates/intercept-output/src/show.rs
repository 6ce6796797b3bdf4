//! What the command line prints and the workbench serves, one [`View`] per answer: [`RunView`],
//! [`ExactView`], [`ScenarioView`], [`MetricsView`], [`SolveView`], and a sweep's and a sensitivity run's in [`sweep`] and
//! [`sensitivity`]. Each renders itself as a table for people, a JSON value for programs, and CSV where it is
//! a table; the command line prints the format asked ([`intercept_core::view::print`]).

pub mod decided;
pub mod sensitivity;
pub mod sweep;

use std::fmt::Write;
use std::path::Path;

use crate::export::{RunRecord, Timing};
use intercept_core::config::Scenario;
use intercept_core::cumulative::Quantile;
use intercept_core::exact::{self, Bounds, ExactTally};
use intercept_core::fraction;
use intercept_core::metrics::{MetricDef, MetricKind};
use intercept_core::present::{self, exact_cell, exact_text, rests_on};
use intercept_core::ruleset::Registry;
use intercept_core::summary::{MetricRow, Summary};
use intercept_core::text::{csv_line, shown_path};
use intercept_core::view::View;
use serde_json::json;

/// `solve`: the answer, written to `dir` as `files` files.
pub struct SolveView<'a> {
    pub answer: &'a intercept_core::solve::Answer,
    pub dir: &'a Path,
    pub files: usize,
}

impl View for SolveView<'_> {
    fn text(&self) -> String {
        let (files, dir) = (self.files, shown_path(self.dir));
        format!(
            "{}
wrote {files} files (solve.parquet, solve.png, solve.svg, report.html, manifest.json) to {dir}
",
            self.answer.text()
        )
    }

    fn json(&self) -> serde_json::Value {
        self.answer.json()
    }

    fn csv(&self) -> Option<String> {
        self.answer.csv()
    }
}

/// `run` and `merge`: a run's summary, written to `dir` as `files` files.
pub struct RunView<'a> {
    pub record: &'a RunRecord,
    pub dir: &'a Path,
    pub files: usize,
}

impl View for RunView<'_> {
    fn text(&self) -> String {
        run_table(self.record, self.dir, self.files)
    }

    fn json(&self) -> serde_json::Value {
        summary_value(self.record)
    }
}

/// `exact`: a scenario solved exactly.
pub struct ExactView<'a> {
    pub scenario: &'a Scenario,
    pub solved: &'a ExactTally,
}

impl View for ExactView<'_> {
    fn text(&self) -> String {
        exact_table(self.scenario, self.solved)
    }

    fn json(&self) -> serde_json::Value {
        exact_value(self.scenario, self.solved)
    }
}

/// `validate`: a scenario resolved, every default filled in.
pub struct ScenarioView<'a>(pub &'a Scenario);

impl View for ScenarioView<'_> {
    fn text(&self) -> String {
        scenario_text(self.0)
    }

    fn json(&self) -> serde_json::Value {
        scenario_value(self.0)
    }
}

/// `metrics`: a scenario's metrics, each with what it counts.
pub struct MetricsView<'a>(pub &'a Scenario);

impl View for MetricsView<'_> {
    fn text(&self) -> String {
        metrics_text(self.0)
    }

    fn json(&self) -> serde_json::Value {
        metrics_value(self.0)
    }

    fn csv(&self) -> Option<String> {
        Some(metrics_csv(self.0))
    }
}

/// `run`'s table: one line per metric, with interval and exact value.
fn run_table(record: &RunRecord, dir: &Path, files: usize) -> String {
    let mut out = String::new();
    let name = record.config.run.name.as_deref().unwrap_or_default();
    let (trials, seed) = (record.trials, record.seed);
    let _ = match record.timing {
        None => writeln!(out, "{name}: {trials} trials, seed {seed}, merged from shards"),
        Some(Timing { threads, wall_seconds: wall, trials_per_second }) => {
            let rate = intercept_core::stats::rate(trials_per_second);
            let threads = if threads == 1 { "1 thread".to_owned() } else { format!("{threads} threads") };
            // A resumed run's counts hold the trials of earlier processes too; the time is this one's.
            let ran = (trials_per_second * wall).round() as u64;
            match ran.abs_diff(trials) > trials / 200 {
                true => writeln!(
                    out,
                    "{name}: {trials} trials, seed {seed}; this process ran about {ran} of them on {threads} \
                     in {wall:.2} s ({rate})"
                ),
                false => writeln!(out, "{name}: {trials} trials, seed {seed}, {threads}, {wall:.2} s ({rate})"),
            }
        }
    };
    if record.partial {
        let (from, to) = (record.chunks.from, record.chunks.to);
        let _ = writeln!(out, "partial: these counts cover chunks {from}..{to} of the run (manifest.json says so)");
    }
    if let Some(answer) = &record.presentation.answer {
        let _ = writeln!(out, "{answer}");
    }
    let rests = rests_on(&record.presentation.assumptions);
    if !rests.is_empty() {
        let _ = writeln!(out, "{rests}");
    }
    let label = |r: &MetricRow| if r.kind == "mean" { format!("{} (mean)", r.metric) } else { r.metric.clone() };
    // A place's number has no meaningful mean: its table and chart are written beside the summary. A metric
    // that took one value in every trial is named in one line after the table instead of a row of its own.
    let shown: Vec<&MetricRow> = record.summary.metrics.iter().filter(|r| !r.place && r.always.is_none()).collect();
    let width = shown.iter().map(|r| label(r).len()).max().unwrap_or(6);
    let _ = writeln!(out, "{:width$}  {:>9}  {:>21}  exact", "metric", "estimate", "95% interval");
    for r in shown {
        let exact = r.exact.map_or("-".into(), |x| exact_cell(x, r.exact_fraction.as_deref()));
        let (name, est, low, high) = (label(r), r.estimate, r.ci_low, r.ci_high);
        let _ = writeln!(out, "{name:width$}  {est:>9.6}  [{low:>9.6}, {high:>9.6}]  {exact}");
    }
    out += &always_line(&record.summary);
    out += &quantiles_table(&record.summary);
    let _ = writeln!(out, "wrote {files} files to {}", shown_path(dir));
    out
}

/// The metrics that took one value in every trial (and exactly so, where solved), by value: "always 0: a, b;
/// always 1: c"; empty when there are none.
pub fn always_line(summary: &Summary) -> String {
    let folded = summary.always();
    if folded.is_empty() {
        return String::new();
    }
    let groups: Vec<String> = folded.iter().map(|(v, names)| format!("always {v}: {}", names.join(", "))).collect();
    format!("{}\n", groups.join("; "))
}

/// The median and 90th percentile of every count that varies, with 95% intervals and exact values.
fn quantiles_table(summary: &Summary) -> String {
    let rows: Vec<&MetricRow> = summary.metrics.iter().filter(|r| r.always.is_none()).collect();
    let rows: Vec<(&MetricRow, Quantile, Quantile)> =
        rows.into_iter().filter_map(|r| Some((r, r.median?, r.p90?))).collect();
    if rows.is_empty() {
        return String::new();
    }
    let width = rows.iter().map(|(r, ..)| r.metric.len()).max().unwrap_or(5).max(5);
    let mut out = format!(
        "{:width$}  {:>6}  {:>12}  {:>5}  {:>4}  {:>12}  {:>5}\n",
        "count", "median", "95% interval", "exact", "p90", "95% interval", "exact"
    );
    for (r, m, p) in rows {
        let _ = writeln!(out, "{:width$}  {}  {}", r.metric, quantile_cells(m, 6), quantile_cells(p, 4));
    }
    out
}

/// A quantile's cells: the estimate right-aligned in `width`, its interval and its exact value.
fn quantile_cells(q: Quantile, width: usize) -> String {
    let interval = format!("[{}, {}]", q.ci_low, q.ci_high);
    let exact = q.exact.map_or("-".to_owned(), |e| e.to_string());
    format!("{:>width$}  {interval:>12}  {exact:>5}", q.estimate)
}

/// `run --json`: the run's identity and every summary and distribution row; what the workbench serves for
/// a finished run.
pub fn summary_value(record: &RunRecord) -> serde_json::Value {
    let mut value = json!({
        "name": record.config.run.name,
        "seed": record.seed,
        "trials": record.trials,
        "metrics": record.summary.metrics,
        "distributions": record.summary.distributions,
    });
    if let Some(target) = record.precision {
        value["precision"] = json!({ "target": target, "reached": record.precision_reached });
    }
    value
}

/// `exact`'s table: every metric's exact value, then every distribution value's probability; for a solve
/// that set part of the tree aside, the bounds of each, under a line saying how much and why.
fn exact_table(scenario: &Scenario, solved: &ExactTally) -> String {
    let mut out = String::new();
    let metrics = scenario.rules.metrics();
    let _ = writeln!(out, "{}", exact_heading(scenario, solved));
    let rests = rests_on(&scenario.rules.assumptions());
    if !rests.is_empty() {
        let _ = writeln!(out, "{rests}");
    }
    let label = |def: &MetricDef| match (def.kind, def.given) {
        (MetricKind::Probability, _) => def.name.clone(),
        (_, None) => format!("{} mean", def.name),
        (_, Some(g)) => format!("{} mean, when {}", def.name, metrics.defs()[g].name),
    };
    // Names plus room for " mean"; the longer "... mean, when ..." of a conditional distribution widens it.
    let names = metrics.defs().iter().map(|d| d.name.len() + 4);
    let given = metrics.defs().iter().filter(|d| d.given.is_some()).map(|d| label(d).len());
    let width = names.chain(given).max().unwrap_or(6);
    let cell = |b: Option<&Bounds>| match b {
        None => "-".to_owned(),
        Some(b) if b.is_exact() => exact_text(&b.low),
        Some(b) => format!("{:.6} to {:.6}", fraction::to_f64(&b.low), fraction::to_f64(&b.high)),
    };
    let table = exact::bounds::Table::of(metrics, solved);
    for (def, v) in metrics.defs().iter().zip(table.metrics()) {
        let _ = writeln!(out, "{:width$}  {}", label(def), cell(v.as_ref()));
        if let MetricKind::Distribution { .. } = def.kind {
            for (v, b) in table.distribution(def).unwrap_or_default().iter().enumerate() {
                let _ = writeln!(out, "{:width$}  {}", format!("  = {v}"), cell(Some(b)));
            }
        }
    }
    out
}

/// The first line of `exact`'s table: how many leaves the tree has, or for bounds how much of it was left
/// unexplored and why.
fn exact_heading(scenario: &Scenario, solved: &ExactTally) -> String {
    let name = &scenario.run.name;
    match solved.cut {
        None => {
            // A count that reached u64::MAX is only a lower bound: the state enumerator counts leaves it never
            // walks.
            let leaves = match solved.leaves {
                u64::MAX => "more than 10^19".to_owned(),
                n => n.to_string(),
            };
            format!("{name}: exact, {leaves} leaves in the chance tree")
        }
        Some(cut) => {
            let why = cut.reason(scenario.run.max_exact_states);
            let left = present::unexplored(fraction::to_f64(&solved.residual));
            format!("{name}: bounds that hold for certain, {left}: the least likely paths were set aside, as {why}")
        }
    }
}

/// `exact --json`: every metric's exact value and fraction, the rule set's headline answer as a sentence
/// (`answer`, null when it has none), the readings it rests on (`assumptions`, each `{key, said}`) and the
/// metrics that give it (`headline`). For a solve that set part of the tree aside, each value's bounds
/// instead (`exact_low`, `exact_high` and their fractions, `exact` null), the probability left unexplored
/// (`residual`, `residual_fraction`) and why (`cut`).
fn exact_value(scenario: &Scenario, solved: &ExactTally) -> serde_json::Value {
    let metrics = scenario.rules.metrics();
    // The float and its exact fraction, or the bounds; a mean over no trials has neither.
    let cells = |b: Option<&Bounds>| match b {
        Some(b) if !b.is_exact() => json!({ "exact": null, "exact_fraction": null,
            "exact_low": fraction::to_f64(&b.low), "exact_low_fraction": fraction::text(&b.low),
            "exact_high": fraction::to_f64(&b.high), "exact_high_fraction": fraction::text(&b.high) }),
        b => {
            json!({ "exact": b.map(|b| fraction::to_f64(&b.low)), "exact_fraction": b.map(|b| fraction::text(&b.low)) })
        }
    };
    let with = |mut row: serde_json::Value, cells: serde_json::Value| {
        row.as_object_mut().expect("an object").extend(cells.as_object().expect("an object").clone());
        row
    };
    let table = exact::bounds::Table::of(metrics, solved);
    let bounds = table.metrics();
    let rows: Vec<_> = metrics
        .defs()
        .iter()
        .zip(&bounds)
        .map(|(d, b)| with(json!({ "metric": d.name, "kind": d.kind.label() }), cells(b.as_ref())))
        .collect();
    let values_of = |d: &MetricDef| match d.kind {
        MetricKind::Distribution { .. } => table.distribution(d).unwrap_or_default(),
        MetricKind::Probability => Vec::new(),
    };
    let dists: Vec<_> = metrics
        .defs()
        .iter()
        .flat_map(|d| values_of(d).into_iter().enumerate().map(move |(v, b)| (d, v, b)))
        .map(|(d, v, b)| with(json!({ "metric": d.name, "value": v }), cells(Some(&b))))
        .collect();
    // The headline answer as a sentence and the metrics that give it, for the workbench's editor.
    let shown = scenario.rules.present(&Summary::exact_only(metrics, solved), 0);
    let mut value = json!({ "name": scenario.run.name, "leaves": solved.leaves, "answer": shown.answer,
            "assumptions": shown.assumptions, "headline": shown.headline, "metrics": rows,
            "distributions": dists });
    if let Some(cut) = solved.cut {
        value["leaves"] = serde_json::Value::Null;
        value["residual"] = json!(fraction::to_f64(&solved.residual));
        value["residual_fraction"] = json!(fraction::text(&solved.residual));
        value["cut"] = json!(cut);
    }
    value
}

/// `validate`: the resolved config as TOML, then what it resolved to.
fn scenario_text(scenario: &Scenario) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}: valid. The resolved config, every default filled in:\n", scenario.file.display());
    let _ = writeln!(out, "{}", toml::to_string_pretty(&scenario.config).expect("toml"));
    let _ = writeln!(out, "# What it resolves to:");
    let _ = writeln!(out, "{}", serde_json::to_string_pretty(&scenario.rules.describe()).expect("json"));
    let names: Vec<&str> = scenario.rules.metrics().defs().iter().map(|d| d.name.as_str()).collect();
    let _ = writeln!(out, "# Metrics: {}", names.join(", "));
    out
}

/// `validate --json`.
fn scenario_value(scenario: &Scenario) -> serde_json::Value {
    let metrics: Vec<_> =
        scenario.rules.metrics().defs().iter().map(|d| json!({ "metric": d.name, "kind": d.kind.label() })).collect();
    json!({
        "config": scenario.config,
        "run": scenario.run,
        "resolved": scenario.rules.describe(),
        "metrics": metrics,
    })
}

/// `metrics`: each metric's name, kind and one-line description, the headline metrics first and marked.
fn metrics_text(scenario: &Scenario) -> String {
    let (defs, headline) = (scenario.rules.metrics().defs(), scenario.rules.headline());
    let ordered = headline_first(defs, &headline);
    let width = ordered.iter().map(|d| d.name.len()).max().unwrap_or(6);
    let mut out = format!(
        "{} ({}): {} metrics; * answers the question asked first\n",
        scenario.run.name,
        scenario.rules.entry().title(),
        defs.len()
    );
    for d in ordered {
        let mark = if headline.contains(&d.name) { '*' } else { ' ' };
        let kind = if d.place { "place" } else { d.kind.label() };
        let _ = writeln!(out, "{mark} {:width$}  {kind:<11}  {}", d.name, d.about);
    }
    out
}

/// `metrics --json`: the same, as a list of objects.
fn metrics_value(scenario: &Scenario) -> serde_json::Value {
    let headline = scenario.rules.headline();
    let defs = headline_first(scenario.rules.metrics().defs(), &headline);
    let row = |d: &&MetricDef| {
        json!({ "metric": d.name, "kind": if d.place { "place" } else { d.kind.label() },
        "headline": headline.contains(&d.name), "about": d.about })
    };
    json!(defs.iter().map(row).collect::<Vec<_>>())
}

/// `metrics --csv`: the same, one line per metric.
fn metrics_csv(scenario: &Scenario) -> String {
    let headline = scenario.rules.headline();
    let mut out = csv_line(&["metric", "kind", "headline", "about"]);
    for d in headline_first(scenario.rules.metrics().defs(), &headline) {
        let kind = if d.place { "place" } else { d.kind.label() };
        out += &csv_line(&[d.name.as_str(), kind, &headline.contains(&d.name).to_string(), &d.about]);
    }
    out
}

/// The metrics, the headline ones first in the rule set's order, then the rest in registration order.
fn headline_first<'a>(defs: &'a [MetricDef], headline: &[String]) -> Vec<&'a MetricDef> {
    let first = headline.iter().filter_map(|h| defs.iter().find(|d| &d.name == h));
    first.chain(defs.iter().filter(|d| !headline.contains(&d.name))).collect()
}

/// `schema` without a table: the rule sets and their tables.
pub fn tables(registry: &Registry) -> String {
    let mut out = String::from("table        rules\n");
    for set in registry.sets() {
        let _ = writeln!(out, "{:<12} {}", set.table(), set.title());
    }
    out + "\n`intercept-sim schema TABLE` prints the JSON Schema of a config with that table."
}

pub use intercept_core::text::bytes;

/// The one line a `--precision` run that stopped at its most trials before reaching its precision prints on
/// stderr: the target, the trials it stopped at, and the widest interval left. `None` for any other run.
pub fn precision_shortfall(record: &RunRecord) -> Option<String> {
    let target = record.precision.filter(|_| record.precision_reached == Some(false) && !record.unfinished())?;
    let half = |r: &&intercept_core::summary::MetricRow| (r.ci_high - r.ci_low) / 2.0;
    let widest = record.summary.probabilities().max_by(|a, b| half(a).total_cmp(&half(b)))?;
    Some(format!(
        "--precision {target} was not reached: the run stopped at its most trials ({}, --max-trials) with the 95% \
         interval of {} still {:.6} wide on each side; manifest.json says \"precision_reached\": false. Ask for \
         more with a larger --max-trials",
        record.trials,
        widest.metric,
        half(&widest)
    ))
}
