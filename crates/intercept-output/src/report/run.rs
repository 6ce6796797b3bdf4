//! The report of a `run`: the rule set's answer in one sentence, the scenario in plain words, the headline
//! odds with their intervals and exact values, the means, medians and 90th percentiles, every distribution
//! with its "at least" and "at most" shares, and the command that reproduces it.
//!
//! [`RunReport`] is an [`Output`], so every run writes it next to `summary.parquet`, from the same
//! [`RunRecord`]. Each headline row carries `data-metric` and `data-kind` attributes and its numbers sit in
//! cells of class `estimate`, `ci-low`, `ci-high` and `exact`, so a test can check the page against the
//! Parquet file. Metrics that took one value in every trial are folded into one line per value
//! ([`Page::folded`]) instead of rows of their own.

use std::path::{Path, PathBuf};

use super::{Cell, Page, Row, Table, fixed, shell_word, thousands};
use crate::export::{ExportError, Output, RunRecord};
use crate::plot::{Distribution, Headline, seen};
use intercept_core::cumulative::Quantile;
use intercept_core::fraction;
use intercept_core::present::Placement;
use intercept_core::summary::{DistRow, MetricRow, Share};

/// `report.html` of a run.
pub struct RunReport;

impl Output for RunReport {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        Ok(vec![page(record)?.write(dir)?])
    }
}

/// The whole page of a run.
pub fn page(record: &RunRecord) -> Result<Page, ExportError> {
    let name = record.config.run.name.as_deref().unwrap_or("run");
    let mut page = Page::new(name);
    page.facts(facts(record));
    if let Some(answer) = &record.presentation.answer {
        page.answer(answer);
    }
    let rests = intercept_core::present::rests_on(&record.presentation.assumptions);
    if !rests.is_empty() {
        page.paragraph(&rests);
    }
    page.section("The scenario");
    page.paragraph(&format!("From {}.", record.config_file)).list(&record.presentation.plain);
    scenario_picture(&mut page, record)?;
    extras(&mut page, record, false)?;
    headline(&mut page, record)?;
    extras(&mut page, record, true)?;
    means(&mut page, record);
    distributions(&mut page, record)?;
    let config = toml::to_string_pretty(&record.config).expect("a resolved config serialises as TOML");
    if record.file_changed {
        page.paragraph(&format!(
            "{} has changed since this run began, and the run went on from the config it recorded: save the \
             resolved config below as {CHANGED_FILE} to reproduce it.",
            record.config_file
        ));
    }
    page.reproduce(&command(record), Some(&config));
    Ok(page)
}

/// The scenario's own picture, unless one of the rule set's outputs already shows the setting in a picture
/// of the same kind (a board beside a board; a map beside a chain diagram is a second view).
fn scenario_picture(page: &mut Page, record: &RunRecord) -> Result<(), ExportError> {
    let p = &record.presentation;
    let same = |e: &intercept_core::present::Extra| {
        e.picture
            .as_ref()
            .zip(p.picture.as_ref())
            .is_some_and(|(a, b)| std::mem::discriminant(a) == std::mem::discriminant(b))
    };
    let shown = p.extras.iter().any(|e| e.placement == Placement::Scenario && same(e));
    match &p.picture {
        Some(picture) if !shown => page.picture("A picture of the scenario", picture).map(|_| ()),
        _ => Ok(()),
    }
}

/// The rule set's own outputs shown in the scenario, or (`results`) those shown as results, each in a
/// section of its own: the paragraph, the picture and the table.
fn extras(page: &mut Page, record: &RunRecord, results: bool) -> Result<(), ExportError> {
    for extra in &record.presentation.extras {
        match (&extra.placement, results) {
            (Placement::Results(heading), true) => page.section(heading),
            (Placement::Scenario, false) => page,
            _ => continue,
        };
        page.paragraph(&extra.text);
        if let Some(picture) = &extra.picture {
            page.picture(&extra.caption, picture)?;
        }
        if let Some(table) = &extra.table {
            page.table(table);
        }
    }
    Ok(())
}

fn facts(record: &RunRecord) -> Vec<String> {
    let mut facts = vec![
        record.presentation.title.clone(),
        format!("{} trials", thousands(record.trials)),
        format!("seed {}", record.seed),
    ];
    if record.partial {
        facts.push(format!("partial: chunks {}..{}", record.chunks.from, record.chunks.to));
    }
    if let Some(p) = record.precision {
        facts.push(format!("precision {p}"));
    }
    facts.push(format!("{} {}", record.tool, record.version));
    facts
}

/// The exact command that reproduces the run: `--trials` for a fixed count, or `--precision` with the most
/// trials it may take, as `run` read them (the config's trial count is then that most).
pub(crate) fn command(record: &RunRecord) -> String {
    let trials = match record.precision {
        Some(p) => format!("--precision {p} --max-trials {}", record.config.run.trials),
        None => format!("--trials {}", record.trials),
    };
    let file = if record.file_changed { CHANGED_FILE } else { record.config_file.as_str() };
    format!("intercept-sim run {} --seed {} {trials}", shell_word(file), record.seed)
}

/// What the reproduce command calls the resolved config when the run's own file has changed since.
const CHANGED_FILE: &str = "resolved.toml";

fn headline(page: &mut Page, record: &RunRecord) -> Result<(), ExportError> {
    let summary = &record.summary;
    page.section("Headline odds");
    let exact = match record.exact_leaves {
        Some(leaves) => {
            format!("the exact values come from walking all {} leaves of the chance tree", thousands(leaves))
        }
        None => "the chance tree was too large to walk, so there are no exact values".to_owned(),
    };
    page.paragraph(&format!(
        "Every probability the rules report: the share of {} trials in which it happened, with its 95% Wilson \
         interval; {exact}.",
        thousands(record.trials)
    ));
    let varying: Vec<&MetricRow> = summary.probabilities().filter(|r| r.always.is_none()).collect();
    let fractions = varying.iter().any(|r| fraction_of(r).is_some());
    let mut columns = vec!["metric", "estimate", "95% low", "95% high", "exact"];
    columns.extend(fractions.then_some("as a fraction"));
    let mut table = Table::new(&columns).with_id("headline");
    for r in varying {
        table.push(metric_row(r, fractions));
    }
    page.table(&table).feature();
    folded(page, record);
    page.chart(
        "Every probability with its 95% interval (blue) and its exact value (red cross)",
        &Headline::new(summary, &record.presentation.headline),
    )?
    .feature();
    Ok(())
}

/// One metric's row: name, estimate, interval, exact value, and the fraction if asked.
fn metric_row(r: &MetricRow, fractions: bool) -> Row {
    let mut cells = vec![
        Cell::name(&r.metric).note(&r.about),
        Cell::value(r.estimate).class("estimate"),
        Cell::value(r.ci_low).class("ci-low"),
        Cell::value(r.ci_high).class("ci-high"),
        Cell::maybe(r.exact).class("exact"),
    ];
    if fractions {
        cells.push(Cell::number(fraction_of(r).unwrap_or_default()).class("fraction"));
    }
    Row::new(cells).data("metric", &r.metric).data("kind", r.kind)
}

/// A metric's exact fraction, when it is short enough for the table (and is not 0 or 1); longer ones are in
/// summary.parquet's `exact_fraction`.
fn fraction_of(r: &MetricRow) -> Option<String> {
    r.exact_fraction.as_deref().and_then(fraction::short).map(str::to_owned)
}

fn means(page: &mut Page, record: &RunRecord) {
    let means = record.summary.metrics.iter().filter(|r| r.kind == "mean" && !r.place && r.always.is_none());
    let means: Vec<&MetricRow> = means.collect();
    if means.is_empty() {
        return;
    }
    page.section("Means");
    page.paragraph("The mean of every count the rules report, with its 95% normal interval.");
    let fractions = means.iter().any(|r| fraction_of(r).is_some());
    let mut columns = vec!["metric", "mean", "95% low", "95% high", "exact"];
    columns.extend(fractions.then_some("as a fraction"));
    let mut table = Table::new(&columns).with_id("means");
    for r in means {
        table.push(metric_row(r, fractions));
    }
    page.table(&table);
    quantiles(page, record);
}

/// The metrics that took one value in every trial, one line per value, after a sentence saying why.
fn folded(page: &mut Page, record: &RunRecord) {
    let always = record.summary.always();
    if always.is_empty() {
        return;
    }
    let exactly = if record.exact_leaves.is_some() { ", and exactly so," } else { "" };
    page.paragraph(&format!(
        "These metrics took the same value in every trial{exactly} so they have no row of their own (means \
         included):"
    ));
    for (value, names) in always {
        page.folded(value, &names);
    }
}

/// The median and 90th percentile of every count that varies, with their 95% intervals and exact values.
fn quantiles(page: &mut Page, record: &RunRecord) {
    let rows: Vec<&MetricRow> = record.summary.metrics.iter().filter(|r| r.always.is_none()).collect();
    let rows: Vec<_> = rows.into_iter().filter_map(|r| Some((r, r.median?, r.p90?))).collect();
    if rows.is_empty() {
        return;
    }
    page.paragraph(
        "The median (half the trials at or below it) and the 90th percentile (90% at or below it) of every \
         count, with 95% intervals read from the intervals of the \"at most\" shares.",
    );
    let columns = ["count", "median", "95% interval", "exact", "90th percentile", "95% interval", "exact"];
    let mut table = Table::new(&columns).with_id("quantiles");
    for (r, median, p90) in rows {
        let mut cells = vec![Cell::name(&r.metric)];
        cells.extend(quantile_cells(median, "median"));
        cells.extend(quantile_cells(p90, "p90"));
        table.push(Row::new(cells).data("quantiles", &r.metric));
    }
    page.table(&table);
}

/// A quantile's cells: estimate, interval and exact value, of classes `<name>`, `<name>-ci` and `<name>-exact`.
fn quantile_cells(q: Quantile, name: &str) -> [Cell; 3] {
    let exact = q.exact.map_or_else(|| "\u{2014}".to_owned(), |e| e.to_string());
    [
        Cell::number(q.estimate.to_string()).class(name),
        Cell::number(format!("{} to {}", q.ci_low, q.ci_high)).class(&format!("{name}-ci")),
        Cell::number(exact).class(&format!("{name}-exact")),
    ]
}

fn distributions(page: &mut Page, record: &RunRecord) -> Result<(), ExportError> {
    let charts = Distribution::all(&record.summary);
    if charts.is_empty() {
        return Ok(());
    }
    page.section("Distributions");
    page.paragraph(
        "How often each count took each value, with 95% Wilson intervals and the exact probabilities, and how \
         often it took that value or more (at least) and that value or less (at most). Values no trial took \
         (and none can take, where solved) are left out of the tables; distributions.parquet holds every \
         value, with the intervals of the at-least and at-most shares.",
    );
    for chart in &charts {
        page.subheading(chart.metric);
        page.chart(&chart.caption(), chart)?;
        page.table(&distribution_table(chart.metric, &chart.rows));
    }
    Ok(())
}

/// Every value of a distribution that some trial took or can take: its trials, probability, interval and
/// exact value, then its at-least and at-most shares with their intervals and, where solved, exact values.
fn distribution_table(metric: &str, rows: &[&DistRow]) -> Table {
    let solved = rows.iter().any(|r| r.exact.is_some());
    let mut columns = vec!["value", "trials", "probability", "95% low", "95% high", "exact", "at least"];
    columns.extend(["95% interval", "at most", "95% interval"]);
    columns.extend(if solved { &["exact at least", "exact at most"][..] } else { &[] });
    let mut table = Table::new(&columns);
    for r in rows.iter().filter(|r| seen(r)) {
        let mut cells = vec![
            Cell::number(r.value.to_string()),
            Cell::number(thousands(r.count)),
            Cell::value(r.probability).class("estimate"),
            Cell::value(r.ci_low).class("ci-low"),
            Cell::value(r.ci_high).class("ci-high"),
            Cell::maybe(r.exact).class("exact"),
        ];
        cells.extend(share_cells(&r.at_least, "at-least"));
        cells.extend(share_cells(&r.at_most, "at-most"));
        if solved {
            cells.push(Cell::maybe(r.at_least.exact).class("at-least-exact"));
            cells.push(Cell::maybe(r.at_most.exact).class("at-most-exact"));
        }
        table.push(Row::new(cells).data("distribution", metric).data("value", &r.value.to_string()));
    }
    table
}

/// A cumulative share's cells: its estimate (class `<name>`) and its interval (class `<name>-ci`).
fn share_cells(share: &Share, name: &str) -> [Cell; 2] {
    let interval = format!("{} to {}", fixed(share.ci_low), fixed(share.ci_high));
    [Cell::value(share.probability).class(name), Cell::number(interval).class(&format!("{name}-ci"))]
}
