//! What `sweep` prints: for each metric shown, every point's estimate with its interval and exact value and
//! its paired difference from the base point; or the same as JSON (`--json`) or as a CSV table (`--csv`).

use std::fmt::Write;
use std::path::Path;

use crate::export::sweep_text as text;
use intercept_core::present::exact_cell;
use intercept_core::sensitivity::Change;
use intercept_core::summary::MetricRow;
use intercept_core::sweep::{Axis, Point, SweepRecord};
use intercept_core::text::{csv_line, shown_path};
use intercept_core::view::View;
use serde_json::json;

/// One point's row of one metric, with its difference from the base point.
struct Shown<'a> {
    point: &'a Point,
    row: &'a MetricRow,
    change: Option<Change>,
}

/// Every point's row of `metric`, in grid order (a point without the metric is left out).
fn rows<'a>(points: &'a [Point], metric: &str) -> Vec<Shown<'a>> {
    let Some(base) = points.first() else { return Vec::new() };
    let row = |p: &'a Point| p.record.summary.metrics.iter().find(|r| r.metric == metric);
    points.iter().filter_map(|p| Some(Shown { point: p, row: row(p)?, change: p.difference(base, metric) })).collect()
}

/// A point's swept values, `key=value` each, by the key's last part.
pub(crate) fn settings(p: &Point) -> String {
    let short = |key: &str| key.rsplit('.').next().unwrap_or(key).to_owned();
    p.settings.iter().map(|s| format!("{}={}", short(&s.key), s.value)).collect::<Vec<_>>().join(" ")
}

/// `sweep`'s answer: its points and the metrics shown, written to `dir` as `files` files.
pub struct SweepView<'a> {
    pub record: &'a SweepRecord,
    pub axes: &'a [Axis],
    pub points: &'a [Point],
    pub shown: &'a [String],
    pub dir: &'a Path,
    pub files: usize,
}

impl View for SweepView<'_> {
    fn text(&self) -> String {
        table(self.record, self.points, self.shown, self.dir, self.files)
    }

    fn json(&self) -> serde_json::Value {
        value(self.record, self.points, self.shown)
    }

    fn csv(&self) -> Option<String> {
        Some(csv(self.axes, self.points, self.shown))
    }
}

/// The table: a block per metric shown, a line per point.
fn table(record: &SweepRecord, points: &[Point], shown: &[String], dir: &Path, files: usize) -> String {
    let mut out = String::new();
    let name = record.config.run.name.as_deref().unwrap_or_default();
    let (n, trials, seed) = (points.len(), record.trials, record.seed);
    let _ = writeln!(out, "{name} sweep: {n} points, {trials} trials each, seed {seed}");
    if record.partial {
        let (done, all) = (record.chunks.to, record.wanted.to);
        let _ = writeln!(out, "partial: these counts cover chunks 0..{done} of {all} (manifest.json says so)");
    }
    let _ = writeln!(out, "difference: each point minus the first, paired trial by trial, with its 95% interval");
    let width = points.iter().map(|p| settings(p).chars().count()).max().unwrap_or(0);
    for metric in shown {
        let rows = rows(points, metric);
        let mean = rows.first().is_some_and(|r| r.row.kind == "mean");
        let _ = writeln!(out, "\n{metric}{}", if mean { " (mean)" } else { "" });
        for r in rows {
            let (est, low, high) = (r.row.estimate, r.row.ci_low, r.row.ci_high);
            let exact = r.row.exact.map_or("-".into(), |x| exact_cell(x, r.row.exact_fraction.as_deref()));
            let change =
                r.change.map_or("(base)".into(), |c| format!("{:+.6} [{:+.6}, {:+.6}]", c.change, c.low, c.high));
            let s = settings(r.point);
            let _ = writeln!(out, "  {s:width$}  {est:>9.6}  [{low:>9.6}, {high:>9.6}]  {exact:<22}  {change}");
        }
    }
    let _ = writeln!(
        out,
        "\nwrote {files} files (sweep.parquet, charts, report.html, manifest.json) to {}",
        shown_path(dir)
    );
    out
}

/// `--json`: the sweep's identity, its axes, and every point's settings (typed) and metrics shown; what the
/// workbench serves for a sweep job.
pub fn value(record: &SweepRecord, points: &[Point], shown: &[String]) -> serde_json::Value {
    let point = |p: &Point| {
        let settings: serde_json::Map<String, serde_json::Value> = p
            .settings
            .iter()
            .zip(&p.values)
            .map(|(s, v)| (s.key.clone(), serde_json::to_value(v).unwrap_or_default()))
            .collect();
        let metrics: Vec<serde_json::Value> =
            shown.iter().flat_map(|m| rows(points, m)).filter(|r| std::ptr::eq(r.point, p)).map(metric_json).collect();
        json!({ "settings": settings, "metrics": metrics })
    };
    json!({
        "name": record.config.run.name,
        "seed": record.seed,
        "trials": record.trials,
        "partial": record.partial,
        "base_point": 0,
        "axes": axes_json(&record.axes, points),
        "points": points.iter().map(point).collect::<Vec<_>>(),
    })
}

fn metric_json(r: Shown) -> serde_json::Value {
    json!({
        "metric": r.row.metric,
        "kind": r.row.kind,
        "estimate": r.row.estimate,
        "ci_low": r.row.ci_low,
        "ci_high": r.row.ci_high,
        "exact": r.row.exact,
        "exact_fraction": r.row.exact_fraction,
        "difference": r.change.map(|c| c.change),
        "difference_low": r.change.map(|c| c.low),
        "difference_high": r.change.map(|c| c.high),
    })
}

/// Each axis's key and its values, typed like the key.
fn axes_json(axes: &[Axis], points: &[Point]) -> serde_json::Value {
    let typed = |a: usize, v: &String| {
        let at = points.iter().find(|p| &p.settings[a].value == v).map(|p| &p.values[a]);
        at.and_then(|t| serde_json::to_value(t).ok()).unwrap_or_else(|| v.clone().into())
    };
    let axis = |(a, axis): (usize, &Axis)| json!({ "key": axis.key, "values": axis.values.iter().map(|v| typed(a, v)).collect::<Vec<_>>() });
    axes.iter().enumerate().map(axis).collect::<Vec<_>>().into()
}

/// `--csv`: a header, then a row per point and metric shown: the swept values, the metric, its estimate,
/// interval and exact value, and the difference from the base point with its interval (empty on the base).
fn csv(axes: &[Axis], points: &[Point], shown: &[String]) -> String {
    let mut header: Vec<String> = axes.iter().map(|a| a.key.clone()).collect();
    header.extend(
        [
            "metric",
            "kind",
            "estimate",
            "ci_low",
            "ci_high",
            "exact",
            "exact_fraction",
            "difference",
            "difference_low",
            "difference_high",
        ]
        .map(str::to_owned),
    );
    let mut out = csv_line(&header);
    for metric in shown {
        for r in rows(points, metric) {
            let mut cells: Vec<String> = r.point.values.iter().map(text).collect();
            cells.extend([r.row.metric.clone(), r.row.kind.to_owned()]);
            cells.extend([r.row.estimate, r.row.ci_low, r.row.ci_high].map(|x| x.to_string()));
            let maybe = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
            cells.push(maybe(r.row.exact));
            cells.push(r.row.exact_fraction.clone().unwrap_or_default());
            cells.extend([r.change.map(|c| c.change), r.change.map(|c| c.low), r.change.map(|c| c.high)].map(maybe));
            out += &csv_line(&cells);
        }
    }
    out
}
