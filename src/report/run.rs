//! The report of a `run`: the scenario in plain words, the headline odds with their intervals and exact
//! values, the means, every distribution, and the command that reproduces it.
//!
//! [`RunReport`] is an [`Output`], so every run writes it next to `summary.parquet`, from the same
//! [`RunRecord`]. Each headline row carries `data-metric` and `data-kind` attributes and its numbers sit in
//! cells of class `estimate`, `ci-low`, `ci-high` and `exact`, so a test can check the page against the
//! Parquet file.

use std::path::{Path, PathBuf};

use super::{Cell, Page, Row, Table, rules_name, shell_word, thousands};
use crate::export::{ExportError, Output, RunRecord};
use crate::models::is_place;
use crate::plot::board::Board;
use crate::plot::coverage::Heatmap;
use crate::plot::final_location::Stacked;
use crate::plot::{Distribution, Headline, seen};
use crate::stats::fraction;
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
    page.paragraph(&format!("From {}.", record.config_file)).list(&record.plain);
    board(&mut page, record)?;
    headline(&mut page, record)?;
    coverage(&mut page, record)?;
    final_locations(&mut page, record)?;
    means(&mut page, record);
    distributions(&mut page, record)?;
    let config = toml::to_string_pretty(&record.config).expect("a resolved config serialises as TOML");
    page.reproduce(&command(record), Some(&config));
    Ok(page)
}

/// A self-play run's start position, as a board diagram.
fn board(page: &mut Page, record: &RunRecord) -> Result<(), ExportError> {
    let Some(board) = Board::of(record) else { return Ok(()) };
    page.paragraph(
        "Each game starts here: White's stacks at the bottom, Black's at the top, the goals (green) in the \
         middle of the back rows and the ball (orange) alone in the centre. P is a passage stone, R a rest \
         stack of two, D3 the double; `intercept-sim replay` prints any game of the run turn by turn.",
    );
    let caption = board.caption.clone();
    page.chart(&caption, &board)?;
    Ok(())
}

/// A step race's coverage map: P(intercepted | destination) square by square.
fn coverage(page: &mut Page, record: &RunRecord) -> Result<(), ExportError> {
    let Some(cells) = crate::coverage::cells(&record.summary) else { return Ok(()) };
    page.section("Coverage map");
    page.paragraph(
        "Each destination square of the tactical map shaded by the chance that a move there is intercepted, in \
         percent (exact where the chance tree was solved). Blank squares are not destinations. Every square's \
         estimate, interval and exact value are in coverage.parquet.",
    );
    page.chart("P(intercepted | destination) on the 15x15 tactical map", &Heatmap { cells })?;
    Ok(())
}

/// A card game's final locations: what happened at each, as shares of the trials that ended there.
fn final_locations(page: &mut Page, record: &RunRecord) -> Result<(), ExportError> {
    let Some(places) = crate::final_location::places(record) else { return Ok(()) };
    page.section("Interceptors by final location");
    page.paragraph(
        "Each location the mover may end at, and what happened among the trials that ended there: it attacked \
         (Defend, not Intercept: S-2), or it did not and 0, 1, 2, ... units intercepted it together (S-11). \
         The same figures are in final-locations.parquet.",
    );
    page.chart("Outcomes at each final location", &Stacked { places: places.clone() })?;
    let mut table =
        Table::new(&["location", "ends here", "outcome", "trials", "share", "95% low", "95% high", "exact"]);
    for p in &places {
        for o in &p.outcomes {
            let cells = vec![
                Cell::name(&p.location),
                Cell::value(p.exact_share.unwrap_or(p.share)),
                Cell::name(o.label()),
                Cell::number(thousands(o.count)),
                Cell::value(o.estimate).class("estimate"),
                Cell::value(o.ci_low).class("ci-low"),
                Cell::value(o.ci_high).class("ci-high"),
                Cell::maybe(o.exact).class("exact"),
            ];
            table.push(Row::new(cells).data("location", &p.location).data("outcome", &o.label()));
        }
    }
    page.table(&table);
    Ok(())
}

fn facts(record: &RunRecord) -> Vec<String> {
    let mut facts = vec![
        rules_name(&record.config).to_owned(),
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
    let fractions = summary.probabilities().any(|r| fraction_of(r.exact).is_some());
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
        cells.push(Cell::number(fraction_of(r.exact).unwrap_or_default()).class("fraction"));
    }
    Row::new(cells).data("metric", &r.metric).data("kind", r.kind)
}

/// An exact value as a fraction of small integers, when it is one (and is not 0 or 1).
fn fraction_of(exact: Option<f64>) -> Option<String> {
    match fraction(exact?, 10_000) {
        Some((n, d)) if d > 1 => Some(format!("{n}/{d}")),
        _ => None,
    }
}

fn means(page: &mut Page, record: &RunRecord) {
    let means = record.summary.metrics.iter().filter(|r| r.kind == "mean" && !is_place(&r.metric));
    let means: Vec<&MetricRow> = means.collect();
    if means.is_empty() {
        return;
    }
    page.section("Means");
    page.paragraph("The mean of every count the rules report, with its 95% normal interval.");
    let fractions = means.iter().any(|r| fraction_of(r.exact).is_some());
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
