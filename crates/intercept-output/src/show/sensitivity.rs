//! What `sensitivity` prints: for each metric shown, every value's change one step down and up, ranked by
//! the larger; what was refused; and the same as JSON (`--json`) or a CSV table (`--csv`).

use std::fmt::Write;
use std::path::Path;

use serde_json::json;

use intercept_core::sensitivity::{Change, Ranked, Sensitivity};
use intercept_core::text::{csv_line, shown_path};
use intercept_core::view::View;

/// `sensitivity`'s answer: the run named `name`, the metrics shown (their indices), written to `dir` as
/// `files` files.
pub struct SensitivityView<'a> {
    pub name: &'a str,
    pub sensitivity: &'a Sensitivity,
    pub shown: &'a [usize],
    pub dir: &'a Path,
    pub files: usize,
}

impl View for SensitivityView<'_> {
    fn text(&self) -> String {
        let tables: Vec<String> = self.shown.iter().map(|&m| table(self.name, self.sensitivity, m)).collect();
        tables.join("\n") + &footer(self.sensitivity, self.dir, self.files)
    }

    fn json(&self) -> serde_json::Value {
        value(self.name, self.sensitivity, self.shown)
    }

    fn csv(&self) -> Option<String> {
        Some(csv(self.sensitivity, self.shown))
    }
}

/// `sensitivity`'s table for metric `m`: every knob that changes it, largest change first.
fn table(name: &str, s: &Sensitivity, m: usize) -> String {
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
        None => "-".to_owned(),
        Some((to, c)) if c.exact => format!("to {to}: {:+.6}", c.change),
        Some((to, c)) => format!("to {to}: {:+.6} ±{:.6}", c.change, (c.high - c.low) / 2.0),
    }
}

/// What `sensitivity` did besides the tables: how it measured, the refused steps, the files.
fn footer(s: &Sensitivity, dir: &Path, files: usize) -> String {
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
    let limits: Vec<String> =
        s.steps.iter().filter(|s| s.at_limit).map(|s| format!("{} to {}", s.knob.key, s.value)).collect();
    if !limits.is_empty() {
        let n = limits.len();
        let _ = writeln!(
            out,
            "{n} steps would leave their key's allowed values and were not run (-): {}",
            limits.join(", ")
        );
    }
    for (step, why) in s.telling_refusals() {
        let _ = writeln!(out, "refused: {} to {}: {why}", step.knob.key, step.value);
    }
    // Besides sensitivity.parquet and report.html, a PNG and an SVG of each metric's tornado chart.
    let charts = match files.saturating_sub(2) {
        0 => String::new(),
        n => format!(", {} tornado charts", n / 2),
    };
    let _ = writeln!(out, "wrote {files} files (sensitivity.parquet, report.html{charts}) to {}", shown_path(dir));
    out
}

/// `--json`: how the changes were measured, and for each metric shown its base value and every value that
/// changes it, ranked, with the step each way (`null` where the step was not run); what the workbench
/// serves for a sensitivity job.
pub fn value(name: &str, s: &Sensitivity, shown: &[usize]) -> serde_json::Value {
    let metric = |&m: &usize| {
        let base = &s.metrics[m];
        let (moving, still): (Vec<_>, Vec<_>) = s.ranked(m).into_iter().partition(|r| !r.changes_nothing());
        json!({
            "metric": base.name, "kind": base.kind.label(), "base": base.value, "exact": base.exact,
            "ranked": moving.iter().map(ranked_json).collect::<Vec<_>>(),
            "unchanged": still.iter().map(|r| &r.knob.key).collect::<Vec<_>>(),
        })
    };
    let refused = |(step, why): (&intercept_core::sensitivity::Step, &str)| json!({ "key": step.knob.key, "stepped": number(&step.value), "why": why });
    json!({
        "name": name, "trials": s.trials, "seed": s.seed,
        "metrics": shown.iter().map(metric).collect::<Vec<_>>(),
        "refused": s.telling_refusals().map(refused).collect::<Vec<_>>(),
        "at_limit": s.steps.iter().filter(|s| s.at_limit).map(|s| json!({ "key": s.knob.key, "stepped": number(&s.value) })).collect::<Vec<_>>(),
    })
}

fn ranked_json(r: &Ranked) -> serde_json::Value {
    let side = |side: Option<(&str, Change)>| {
        side.map(|(to, c)| json!({ "stepped": number(to), "stepped_value": c.value, "change": c.change, "change_low": c.low, "change_high": c.high, "exact": c.exact }))
    };
    json!({ "key": r.knob.key, "value": number(&r.knob.value.to_string()), "down": side(r.down), "up": side(r.up) })
}

/// A config value as a JSON number, typed as TOML wrote it: `8`, `0.55`.
fn number(text: &str) -> serde_json::Value {
    let whole = text.parse::<i64>().ok().map(serde_json::Value::from);
    whole.or_else(|| text.parse::<f64>().ok().map(serde_json::Value::from)).unwrap_or_else(|| text.into())
}

/// `--csv`: a header, then a row per metric shown, value that changes it (ranked) and step run, with the
/// columns of `sensitivity.parquet`.
fn csv(s: &Sensitivity, shown: &[usize]) -> String {
    let mut out = csv_line(&[
        "metric",
        "rank",
        "key",
        "value",
        "step",
        "stepped",
        "base",
        "stepped_value",
        "change",
        "change_low",
        "change_high",
        "method",
    ]);
    for &m in shown {
        let base = &s.metrics[m];
        let moving = s.ranked(m).into_iter().filter(|r| !r.changes_nothing());
        for (i, r) in moving.enumerate() {
            for (step, side) in [("down", r.down), ("up", r.up)] {
                let Some((to, c)) = side else { continue };
                let method = if c.exact { "exact" } else { "sampled" };
                let numbers = [base.value, c.value, c.change, c.low, c.high].map(|x| x.to_string());
                let head = [base.name.clone(), (i + 1).to_string(), r.knob.key.clone(), r.knob.value.to_string()];
                let cells: Vec<String> =
                    head.into_iter().chain([step.into(), to.into()]).chain(numbers).chain([method.into()]).collect();
                out += &csv_line(&cells);
            }
        }
    }
    out
}
