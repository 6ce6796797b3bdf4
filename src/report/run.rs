//! The report of a `run`: the scenario in plain words, the headline odds with their intervals and exact
//! values, the means, every distribution, and the command that reproduces it.
//!
//! [`RunReport`] is an [`Output`], so every run writes it next to `summary.parquet`, from the same
//! [`RunRecord`]. Each headline row carries `data-metric` and `data-kind` attributes and its numbers sit in
//! cells of class `estimate`, `ci-low`, `ci-high` and `exact`, so a test can check the page against the
//! Parquet file.

use std::path::{Path, PathBuf};

use super::{Cell, Page, Row, Table, shell_word, thousands};
use crate::export::{ExportError, Output, RunRecord};
use crate::fraction;
use crate::plot::{Distribution, Headline, seen};
use crate::present::Placement;
use crate::summary::MetricRow;

/// `report.html` of a run.
pub struct RunReport;

impl Output for RunReport {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        Ok(vec![page(record)?.write(dir)?])
    }
}

/// The whole page of a run.
pub(crate) fn page(record: &RunRecord) -> Result<Page, ExportError> {
    let name = record.config.run.name.as_deref().unwrap_or("run");
    let mut page = Page::new(name);
    page.facts(facts(record));
    page.section("The scenario");
    page.paragraph(&format!("From {}.", record.config_file)).list(&record.presentation.plain);
    extras(&mut page, record, false)?;
    headline(&mut page, record)?;
    extras(&mut page, record, true)?;
    means(&mut page, record);
    distributions(&mut page, record)?;
    let config = toml::to_string_pretty(&record.config).expect("a resolved config serialises as TOML");
    page.reproduce(&command(record), Some(&config));
    Ok(page)
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
            page.chart(&extra.caption, picture)?;
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
    format!("intercept-sim run {} --seed {} {trials}", shell_word(&record.config_file), record.seed)
}

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
    let fractions = summary.probabilities().any(|r| fraction_of(r).is_some());
    let mut columns = vec!["metric", "estimate", "95% low", "95% high", "exact"];
    columns.extend(fractions.then_some("as a fraction"));
    let mut table = Table::new(&columns).with_id("headline");
    for r in summary.probabilities() {
        table.push(metric_row(r, fractions));
    }
    page.table(&table);
    page.chart(
        "Every probability with its 95% interval (blue) and its exact value (red cross)",
        &Headline::new(summary),
    )?;
    Ok(())
}

/// One metric's row: name, estimate, interval, exact value, and the fraction if asked.
fn metric_row(r: &MetricRow, fractions: bool) -> Row {
    let mut cells = vec![
        Cell::name(&r.metric),
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
    let means = record.summary.metrics.iter().filter(|r| r.kind == "mean" && !r.place);
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
}

fn distributions(page: &mut Page, record: &RunRecord) -> Result<(), ExportError> {
    let charts = Distribution::all(&record.summary);
    if charts.is_empty() {
        return Ok(());
    }
    page.section("Distributions");
    page.paragraph(
        "How often each count took each value, with 95% Wilson intervals and the exact probabilities. Values \
         no trial took (and none can take, where solved) are left out of the tables; distributions.parquet \
         holds every value.",
    );
    for chart in &charts {
        let (metric, rows) = (chart.metric, &chart.rows);
        page.subheading(metric);
        page.chart(&format!("{metric}: probability of each value (bars, 95% intervals) and exact (red)"), chart)?;
        let mut table = Table::new(&["value", "trials", "probability", "95% low", "95% high", "exact"]);
        for r in rows.iter().filter(|r| seen(r)) {
            let cells = vec![
                Cell::number(r.value.to_string()),
                Cell::number(thousands(r.count)),
                Cell::value(r.probability).class("estimate"),
                Cell::value(r.ci_low).class("ci-low"),
                Cell::value(r.ci_high).class("ci-high"),
                Cell::maybe(r.exact).class("exact"),
            ];
            table.push(Row::new(cells).data("distribution", metric).data("value", &r.value.to_string()));
        }
        page.table(&table);
    }
    Ok(())
}
