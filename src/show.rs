//! What the command line prints: tables for people, JSON for programs.

use std::fmt::Write;
use std::path::Path;

use intercept_sim::config::Scenario;
use intercept_sim::exact::{self, ExactTally};
use intercept_sim::export::{RunRecord, Timing};
use intercept_sim::metrics::MetricKind;
use intercept_sim::models::card_game::rules::{Location, Movement};
use intercept_sim::models::card_game::{CardGame, Verdict};
use intercept_sim::models::is_place;
use intercept_sim::models::step_race::race::{BoxFilter, Immune, Interceptor, LegOutcome, caught};
use intercept_sim::odds::{Answer, CavalryQuestion, INTERCEPTOR, NavalQuestion};
use intercept_sim::sensitivity::{Change, Sensitivity};
use intercept_sim::stats::fraction;
use intercept_sim::summary::MetricRow;
use intercept_sim::sweep::Point;
use serde_json::json;

/// `run`'s table: one line per metric, with interval and exact value.
pub fn run_table(record: &RunRecord, dir: &Path, files: usize) -> String {
    let mut out = String::new();
    let name = record.config.run.name.as_deref().unwrap_or_default();
    let (trials, seed) = (record.trials, record.seed);
    let _ = match record.timing {
        None => writeln!(out, "{name}: {trials} trials, seed {seed}, merged from shards"),
        Some(Timing { threads, wall_seconds: wall, trials_per_second }) => {
            let rate = intercept_sim::stats::rate(trials_per_second);
            writeln!(out, "{name}: {trials} trials, seed {seed}, {threads} threads, {wall:.2} s ({rate})")
        }
    };
    if record.partial {
        let (from, to) = (record.chunks.from, record.chunks.to);
        let _ = writeln!(out, "partial: these counts cover chunks {from}..{to} of the run (manifest.json says so)");
    }
    let label = |r: &MetricRow| if r.kind == "mean" { format!("{} (mean)", r.metric) } else { r.metric.clone() };
    // A place's number has no meaningful mean: its table and chart are written beside the summary.
    let shown: Vec<&MetricRow> = record.summary.metrics.iter().filter(|r| !is_place(&r.metric)).collect();
    let width = shown.iter().map(|r| label(r).len()).max().unwrap_or(6);
    let _ = writeln!(out, "{:width$}  {:>9}  {:>21}  exact", "metric", "estimate", "95% interval");
    for r in shown {
        let exact = r.exact.map_or("-".into(), exact_text);
        let (name, est, low, high) = (label(r), r.estimate, r.ci_low, r.ci_high);
        let _ = writeln!(out, "{name:width$}  {est:>9.6}  [{low:>9.6}, {high:>9.6}]  {exact}");
    }
    let _ = writeln!(out, "wrote {files} files to {}", dir.display());
    out
}

/// `run --json`: the run's identity and every summary and distribution row.
pub fn summary_json(record: &RunRecord) -> String {
    let value = json!({
        "name": record.config.run.name,
        "seed": record.seed,
        "trials": record.trials,
        "metrics": record.summary.metrics,
        "distributions": record.summary.distributions,
    });
    serde_json::to_string_pretty(&value).expect("json")
}

/// An exact value as a decimal, with the fraction when it is a ratio of small integers.
fn exact_text(x: f64) -> String {
    match fraction(x, 10_000) {
        Some((n, d)) if d > 1 => format!("{x:.6} ({n}/{d})"),
        _ => format!("{x:.6}"),
    }
}

/// `exact`'s table: every metric's exact value, then every distribution value's probability.
pub fn exact_table(scenario: &Scenario, solved: &ExactTally) -> String {
    let mut out = String::new();
    let metrics = scenario.model.metrics();
    let values = exact::metric_values(metrics, solved);
    let _ = writeln!(out, "{}: exact, {} leaves in the chance tree", scenario.run.name, solved.leaves);
    let width = metrics.defs().iter().map(|d| d.name.len()).max().unwrap_or(6) + 4;
    for (def, v) in metrics.defs().iter().zip(values) {
        let label = if matches!(def.kind, MetricKind::Distribution { .. }) {
            format!("{} mean", def.name)
        } else {
            def.name.clone()
        };
        let _ = writeln!(out, "{label:width$}  {}", exact_text(v));
        if let MetricKind::Distribution { max } = def.kind {
            for v in 0..=max {
                let _ =
                    writeln!(out, "{:width$}  {}", format!("  = {v}"), exact_text(solved.probs[def.slot + v as usize]));
            }
        }
    }
    out
}

/// `exact --json`.
pub fn exact_json(scenario: &Scenario, solved: &ExactTally) -> String {
    let metrics = scenario.model.metrics();
    let values = exact::metric_values(metrics, solved);
    let rows: Vec<_> = metrics
        .defs()
        .iter()
        .zip(&values)
        .map(|(d, v)| json!({ "metric": d.name, "kind": d.kind.label(), "exact": v }))
        .collect();
    let dists: Vec<_> = metrics
        .defs()
        .iter()
        .filter_map(|d| match d.kind {
            MetricKind::Distribution { max } => Some((0..=max).map(move |v| (d, v))),
            MetricKind::Probability => None,
        })
        .flatten()
        .map(|(d, v)| json!({ "metric": d.name, "value": v, "exact": solved.probs[d.slot + v as usize] }))
        .collect();
    let value = json!({ "name": scenario.run.name, "leaves": solved.leaves, "metrics": rows, "distributions": dists });
    serde_json::to_string_pretty(&value).expect("json")
}

/// `validate`: the resolved config as TOML, then what it resolved to.
pub fn scenario_text(scenario: &Scenario) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}: valid. The resolved config, every default filled in:\n", scenario.file.display());
    let _ = writeln!(out, "{}", toml::to_string_pretty(&scenario.config).expect("toml"));
    let _ = writeln!(out, "# What it resolves to:");
    let _ = writeln!(out, "{}", serde_json::to_string_pretty(&scenario.model.describe()).expect("json"));
    let names: Vec<&str> = scenario.model.metrics().defs().iter().map(|d| d.name.as_str()).collect();
    let _ = writeln!(out, "# Metrics: {}", names.join(", "));
    out
}

/// `validate --json`.
pub fn scenario_json(scenario: &Scenario) -> String {
    let metrics: Vec<_> =
        scenario.model.metrics().defs().iter().map(|d| json!({ "metric": d.name, "kind": d.kind.label() })).collect();
    let value = json!({
        "config": scenario.config,
        "run": scenario.run,
        "resolved": scenario.model.describe(),
        "metrics": metrics,
    });
    serde_json::to_string_pretty(&value).expect("json")
}

/// `reach-table`: P(reach) by dice and distance, as a Markdown table.
pub fn reach_table(pacific: bool, highest: bool, max_distance: u32) -> String {
    use intercept_sim::models::naval::config::MoveRule;
    let rule = if highest { MoveRule::Highest } else { MoveRule::Sum };
    let table = intercept_sim::models::naval::dice::reach_table(rule, pacific, max_distance);
    let mut out = String::new();
    let how = if highest { "highest die" } else { "sum of the dice" };
    let theater = if pacific { "Pacific (total halved, rounded up)" } else { "Europe" };
    let _ = writeln!(out, "P(reach) by dice and distance in hexes: {theater}, {how}\n");
    let header: Vec<String> = (1..=max_distance).map(|d| d.to_string()).collect();
    let _ = writeln!(out, "| dice | {} |", header.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(max_distance as usize));
    for (n, row) in table.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|&p| probability_cell(p)).collect();
        let _ = writeln!(out, "| {n} | {} |", cells.join(" | "));
    }
    out
}

/// Three decimals, with exact 0 and 1 shown as such and values that round to them marked (as the rule book does).
fn probability_cell(p: f64) -> String {
    match p {
        0.0 => "0".into(),
        1.0 => "1".into(),
        p if p > 0.9995 => ">.999".into(),
        p if p < 0.0005 => "<.001".into(),
        p => format!("{p:.3}").trim_start_matches('0').to_owned(),
    }
}

/// `odds naval`: P(reach), then how far the group gets.
pub fn naval_odds(q: &NavalQuestion, a: &Answer) -> String {
    let mut out = String::new();
    let theater = if q.pacific { "Pacific (total halved, rounding up)" } else { "Europe" };
    let how = if q.highest { "highest die" } else { "sum of the dice" };
    let _ = writeln!(out, "{} dice at {} hexes, {theater}, {how}", q.dice, q.distance);
    let reach = a.value(&format!("group.{INTERCEPTOR}.reached")).unwrap_or_default();
    let _ = writeln!(out, "P(reach) = {}\n", exact_text(reach));
    let _ = writeln!(out, "hexes moved    probability");
    let moved = a.distribution(&format!("group.{INTERCEPTOR}.movement")).unwrap_or_default();
    for (hexes, &p) in moved.iter().enumerate() {
        let label = if hexes as u32 == q.distance { format!("{hexes} (reached)") } else { hexes.to_string() };
        let _ = writeln!(out, "{label:<14} {}", exact_text(p));
    }
    out
}

/// `odds cavalry`: P(intercept), and the target's morale check when asked.
pub fn cavalry_odds(q: &CavalryQuestion, a: &Answer) -> String {
    let mut out = String::new();
    let intercept = a.value("cavalry.intercepted").unwrap_or_default();
    let _ = writeln!(out, "{} orders: P(intercept) = {}", q.order, exact_text(intercept));
    if let Some(morale) = q.morale {
        let attempted = a.value("target.hedgehog_attempted").unwrap_or_default();
        let formed = a.value("target.hedgehog_formed").unwrap_or_default();
        let checks = if q.checks == 1 { "1 check".to_owned() } else { format!("{} checks at once", q.checks) };
        let _ = writeln!(out, "morale check (morale {morale}, leader {}, {checks}):", q.leader);
        let passed = if attempted > 0.0 { exact_text(formed / attempted) } else { "-".into() };
        let _ = writeln!(out, "  P(pass) = {passed}");
        let _ = writeln!(out, "  P(intercepted, and the target forms hedgehog) = {}", exact_text(formed));
    }
    out
}

/// `sweep`'s table: each point's settings, then its probabilities with intervals and exact values.
pub fn sweep_table(points: &[Point], dir: &Path, files: usize) -> String {
    let mut out = String::new();
    for p in points {
        let settings: Vec<String> = p.settings.iter().map(|s| format!("{}={}", s.key, s.value)).collect();
        let _ = writeln!(out, "{}  ({} trials, seed {})", settings.join(" "), p.record.trials, p.record.seed);
        for r in p.record.summary.metrics.iter().filter(|r| r.kind == "probability") {
            let exact = r.exact.map_or("-".into(), exact_text);
            let _ = writeln!(out, "  {:40} {:.6}  [{:.6}, {:.6}]  {exact}", r.metric, r.estimate, r.ci_low, r.ci_high);
        }
    }
    let _ = writeln!(out, "wrote {files} files (sweep.parquet, charts and report.html) to {}", dir.display());
    out
}

/// `sensitivity`'s table for metric `m`: every knob that changes it, largest change first.
pub fn sensitivity_table(name: &str, s: &Sensitivity, m: usize) -> String {
    let mut out = String::new();
    let base = &s.metrics[m];
    let how = if base.exact { "exact".to_owned() } else { format!("estimated from {} trials", s.trials) };
    let _ = writeln!(out, "{name}: {} = {:.6} ({how}); change when one value moves one step:", base.name, base.value);
    let (moving, still): (Vec<_>, Vec<_>) = s.ranked(m).into_iter().partition(|r| !r.changes_nothing());
    let width = moving.iter().map(|r| r.knob.key.len()).max().unwrap_or(3).max(3);
    let cells = moving.iter().map(|r| change_cell(r.down).chars().count()).max().unwrap_or(0).max(13);
    let _ = writeln!(out, "rank  {:width$}  {:>8}  {:cells$}  one step up", "key", "value", "one step down");
    for (i, r) in moving.iter().enumerate() {
        let (down, up) = (change_cell(r.down), change_cell(r.up));
        let value = r.knob.value.to_string();
        let _ = writeln!(out, "{:>4}  {:width$}  {value:>8}  {down:cells$}  {up}", i + 1, r.knob.key);
    }
    if !still.is_empty() {
        let keys = if still.len() == 1 { "key changes" } else { "keys change" };
        let _ = writeln!(out, "      {} more {keys} nothing (see sensitivity.parquet)", still.len());
    }
    out
}

/// A step's cell: the value stepped to and the change, with its 95% half-width when sampled.
fn change_cell(side: Option<(&str, Change)>) -> String {
    match side {
        None => "refused".to_owned(),
        Some((to, c)) if c.exact => format!("to {to}: {:+.6}", c.change),
        Some((to, c)) => format!("to {to}: {:+.6} ±{:.6}", c.change, (c.high - c.low) / 2.0),
    }
}

/// What `sensitivity` did besides the tables: how it measured, the refused steps, the files.
pub fn sensitivity_footer(s: &Sensitivity, dir: &Path, files: usize) -> String {
    let mut out = String::new();
    let steps = s.steps.len() - s.refused().count();
    let sampled = s.changes.iter().flatten().flatten().filter(|c| !c.exact).count();
    let _ = match sampled {
        0 => writeln!(out, "{steps} steps, every change exact"),
        _ => writeln!(
            out,
            "{steps} steps; changes not solved exactly were sampled on common random numbers ({} trials per value, \
             seed {}); ± is the 95% half-width of the change",
            s.trials, s.seed
        ),
    };
    for (step, why) in s.refused() {
        let _ = writeln!(out, "refused: {} to {}: {why}", step.knob.key, step.value);
    }
    let _ =
        writeln!(out, "wrote {files} files (sensitivity.parquet, tornado charts, report.html) to {}", dir.display());
    out
}

/// `check step-race`'s answer: each leg raced, then the verdict.
pub fn step_race_text(interceptors: &[Interceptor], filter: BoxFilter, legs: &[LegOutcome]) -> String {
    let mut out = String::new();
    let rule = match filter {
        BoxFilter::Point => "the interception point must lie in it",
        BoxFilter::Destination => "the leg's destination must lie in it",
        BoxFilter::None => "it filters nothing",
    };
    for i in interceptors {
        let _ = writeln!(out, "interceptor at {}, intercept box {} ({rule})", i.at, i.boxed);
    }
    for (n, l) in legs.iter().enumerate() {
        let steps = if l.leg.steps() == 1 { "1 step".to_owned() } else { format!("{} steps", l.leg.steps()) };
        let head = format!("leg {}: {} -> {}, {steps}", n + 1, l.leg.from, l.leg.to);
        let _ = match l.result {
            Ok((i, c)) => {
                writeln!(out, "{head}: intercepted by {} at {} on step {}", interceptors[i].at, c.square, c.step)
            }
            Err(Immune::OneSquare) => writeln!(out, "{head}: not interceptable (a one-square move, G-9)"),
            Err(Immune::OutOfReach) => {
                writeln!(out, "{head}: not interceptable (no square of it reachable in time{})", boxed(filter))
            }
        };
    }
    let _ = writeln!(out, "verdict: {}", verdict(interceptors, legs));
    out
}

fn boxed(filter: BoxFilter) -> &'static str {
    if filter == BoxFilter::None { "" } else { " within the box" }
}

fn verdict(interceptors: &[Interceptor], legs: &[LegOutcome]) -> String {
    match caught(legs) {
        Some((leg, i, c)) => {
            format!("intercepted at {} (leg {leg}, step {}) by the unit at {}", c.square, c.step, interceptors[i].at)
        }
        None => "not interceptable".to_owned(),
    }
}

/// `check step-race --json`.
pub fn step_race_json(interceptors: &[Interceptor], legs: &[LegOutcome]) -> String {
    let leg = |l: &LegOutcome| {
        let mut v = json!({ "from": l.leg.from.to_string(), "to": l.leg.to.to_string(), "steps": l.leg.steps() });
        v["result"] = match l.result {
            Ok((i, c)) => {
                json!({ "intercepted": true, "by": interceptors[i].at.to_string(), "square": c.square.to_string(), "step": c.step })
            }
            Err(Immune::OneSquare) => json!({ "intercepted": false, "why": "one_square" }),
            Err(Immune::OutOfReach) => json!({ "intercepted": false, "why": "out_of_reach" }),
        };
        v
    };
    let verdict = match caught(legs) {
        Some((leg, i, c)) => {
            json!({ "intercepted": true, "leg": leg, "step": c.step, "square": c.square.to_string(), "by": interceptors[i].at.to_string() })
        }
        None => json!({ "intercepted": false }),
    };
    let body = json!({ "verdict": verdict, "legs": legs.iter().map(leg).collect::<Vec<_>>() });
    serde_json::to_string_pretty(&body).expect("JSON")
}

/// `check card-game`'s answer: the move, then every final location it allows, with each unit's verdict if
/// the mover does not attack there and who may defend if it does.
pub fn card_game_text(game: &CardGame, path: Option<&[String]>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", card_game_move(game, path));
    let attack = game.attack_probability();
    for (end, p) in game.ends() {
        let chance = if p < 1.0 { format!(" (chance {p:.4})") } else { String::new() };
        let _ = writeln!(out, "\nends at {}{chance}:", game.realm().label(end));
        let verdicts = game.verdicts(end);
        if attack < 1.0 {
            let _ = writeln!(out, "  if it does not attack:");
            let width = verdicts.iter().map(|v| v.unit.name.len()).max().unwrap_or(0);
            for v in &verdicts {
                let _ = match v.intercept {
                    Ok(()) => writeln!(out, "    {:width$}  may intercept", v.unit.name),
                    Err(why) => writeln!(out, "    {:width$}  may not intercept: {why}", v.unit.name),
                };
            }
            let many = names(&verdicts, |v| v.intercept.is_ok()).len() > 1;
            let together = if many { "; all that choose to fight it together in one fight (S-11)" } else { "" };
            let _ = writeln!(out, "    verdict: may intercept: {}{together}", who(&verdicts, |v| v.intercept.is_ok()));
        }
        if attack > 0.0 {
            let defenders = who(&verdicts, |v| v.defend.is_ok());
            let _ = writeln!(out, "  if it attacks: no intercept, Defend instead (S-2); may defend: {defenders}");
        }
    }
    out
}

/// The names of the units whose verdict passes `ok`, or "nobody".
fn who(verdicts: &[Verdict], ok: fn(&Verdict) -> bool) -> String {
    let names = names(verdicts, ok);
    if names.is_empty() { "nobody".to_owned() } else { names.join(", ") }
}

/// The names of the units whose verdict passes `ok`, in config order.
fn names<'a>(verdicts: &[Verdict<'a>], ok: fn(&Verdict) -> bool) -> Vec<&'a str> {
    verdicts.iter().filter(|v| ok(v)).map(|v| v.unit.name.as_str()).collect()
}

/// The move in one line: who, how, from where, by which path, and whether it attacks.
fn card_game_move(game: &CardGame, path: Option<&[String]>) -> String {
    let mover = game.mover();
    let how = match game.movement() {
        Movement::MoveAndAttack => "Move and Attack",
        Movement::Teleport => "a teleport (not Move and Attack, S-4)",
        Movement::Forced => "forced movement (not Move and Attack, S-4)",
        Movement::Carried => "being carried (not Move and Attack, S-16)",
    };
    let start = game.realm().label(mover.at);
    let route = match path {
        Some([]) => "takes no step (S-3)".to_owned(),
        Some(p) => format!("path {start} -> {}", p.join(" -> ")),
        None => format!("path open: any legal path of up to {} step(s)", 1 + mover.extra_steps),
    };
    let attack = match game.attack_probability() {
        0.0 => "does not attack".to_owned(),
        1.0 => "attacks".to_owned(),
        p => format!("attacks with chance {p:.4}"),
    };
    format!("{} at {start}: {how}, {route}, {attack}", mover.name)
}

/// `check card-game --json`: per final location, `no_attack` (who may intercept, and why not for the rest)
/// when the mover may decline to attack, and `attack` (who may defend) when it may attack.
pub fn card_game_json(game: &CardGame, path: Option<&[String]>) -> String {
    let attack = game.attack_probability();
    let end = |(at, p): (Location, f64)| {
        let verdicts = game.verdicts(at);
        let mut v = json!({ "at": game.realm().label(at), "probability": p });
        if attack < 1.0 {
            let unit = |v: &Verdict| {
                let rule = v.intercept.err().map(|b| b.rule());
                json!({ "name": v.unit.name, "may_intercept": v.intercept.is_ok(), "rule": rule, "why": v.intercept.err().map(|b| b.to_string()) })
            };
            let units: Vec<_> = verdicts.iter().map(unit).collect();
            v["no_attack"] = json!({ "may_intercept": names(&verdicts, |v| v.intercept.is_ok()), "units": units });
        }
        if attack > 0.0 {
            let unit =
                |v: &Verdict| json!({ "name": v.unit.name, "may_defend": v.defend.is_ok(), "why": v.defend.err() });
            let units: Vec<_> = verdicts.iter().map(unit).collect();
            v["attack"] = json!({ "may_intercept": [], "rule": "S-2", "may_defend": names(&verdicts, |v| v.defend.is_ok()), "units": units });
        }
        v
    };
    let body = json!({
        "mover": game.mover().name,
        "movement": game.movement(),
        "from": game.realm().label(game.mover().at),
        "path": path,
        "p_attack": attack,
        "ends": game.ends().into_iter().map(end).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&body).expect("JSON")
}

/// A size in bytes, in decimal units: `356 MB`, `1.7 TB`.
pub fn bytes(n: u128) -> String {
    let units = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB", "ZB"];
    let mut size = n as f64;
    let mut unit = 0;
    while size >= 1000.0 && unit + 1 < units.len() {
        size /= 1000.0;
        unit += 1;
    }
    match unit {
        0 => format!("{n} bytes"),
        _ if size < 10.0 => format!("{size:.1} {}", units[unit]),
        _ => format!("{size:.0} {}", units[unit]),
    }
}
