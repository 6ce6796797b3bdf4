//! The report of a `sweep`: what was swept, the base scenario in plain words, each metric shown across the
//! points (every probability and every distribution's mean, or those `--metric` named: a chart and a table
//! each, with each point's paired difference from the base point), and the command that reproduces it.
//!
//! Each result row carries `data-metric` and `data-point` (the point's swept values, joined by ", ") and its
//! numbers sit in cells of class `estimate`, `ci-low`, `ci-high` and `exact`, as on a run's page, and
//! `difference`, `difference-low` and `difference-high` (empty on the base point's row).

use std::path::{Path, PathBuf};

use super::{Cell, Page, Row, Table, shell_word, thousands};
use crate::export::ExportError;
use crate::plot::sweep::{Line, charted, label, metric_row};
use crate::show::sweep::settings;
use intercept_core::config::Scenario;
use intercept_core::summary::MetricRow;
use intercept_core::sweep::{Axis, Point};

fn by_estimate(a: &(&Point, &MetricRow), b: &(&Point, &MetricRow)) -> std::cmp::Ordering {
    a.1.estimate.total_cmp(&b.1.estimate)
}

/// `report.html` of a sweep over `axes`, from its base scenario and its points in grid order.
pub struct SweepReport<'a> {
    pub scenario: &'a Scenario,
    pub axes: &'a [Axis],
    pub points: &'a [Point],
    /// The metrics `--metric` named; none for every metric.
    pub named: &'a [String],
}

impl SweepReport<'_> {
    /// Writes `report.html` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        Ok(vec![self.page()?.write(dir)?])
    }

    /// The whole page.
    pub fn page(&self) -> Result<Page, ExportError> {
        let mut page = Page::new(&format!("{} sweep", self.scenario.run.name));
        page.facts(self.facts());
        if let Some(answer) = self.answer() {
            page.answer(&answer);
        }
        self.swept(&mut page);
        page.section("The base scenario");
        page.paragraph(&format!("From {}, before the swept values are set.", self.scenario.file.display()));
        page.list(&self.scenario.rules.plain_words());
        self.results(&mut page)?;
        let config = toml::to_string_pretty(&self.scenario.config).expect("a resolved config serialises as TOML");
        page.reproduce(&self.command(), Some(&config));
        Ok(page)
    }

    /// The page's answer: the rule set's sentence at the base point, then how far its headline metric moves
    /// across the points.
    pub fn answer(&self) -> Option<String> {
        let base = self.points.first()?;
        let at = settings;
        let mut answer = format!("At {}: {}", at(base), base.record.presentation.answer.as_deref()?);
        let headline = self.scenario.rules.headline().into_iter().find(|h| metric_row(base, h).is_some());
        let rows = self.points.iter().filter_map(|p| Some((p, metric_row(p, headline.as_deref()?)?)));
        let (low, high) = (rows.clone().min_by(by_estimate), rows.max_by(by_estimate));
        if let (Some((lp, l)), Some((hp, h)), true) = (low, high, self.points.len() > 1) {
            let (lo, hi) = (l.estimate, h.estimate);
            answer +=
                &format!(" Across the points, {} runs from {lo:.4} ({}) to {hi:.4} ({}).", l.metric, at(lp), at(hp));
        }
        Some(answer)
    }

    fn facts(&self) -> Vec<String> {
        let run = &self.scenario.run;
        let mut facts = vec![
            self.scenario.rules.entry().title().to_owned(),
            format!("{} points", self.points.len()),
            format!("{} trials per point", thousands(run.trials)),
            format!("seed {}", run.seed),
        ];
        let done = self.points.first().map_or(0, |p| p.record.trials);
        if done < run.trials {
            facts.push(format!("partial: {} trials per point so far (interrupted)", thousands(done)));
        }
        facts.push(format!("intercept-sim {}", env!("CARGO_PKG_VERSION")));
        facts
    }

    fn swept(&self, page: &mut Page) {
        page.section("What was swept");
        page.paragraph(
            "Every combination of these values is one point, the first key varying slowest. Every point runs on the \
             same seed, so the points share their random numbers trial by trial (common random numbers): the \
             difference between two points is far less noisy than between two independent runs.",
        );
        let mut table = Table::new(&["key", "values"]);
        for axis in self.axes {
            table.push(Row::new(vec![Cell::name(&axis.key), Cell::name(axis.values.join(", "))]));
        }
        page.table(&table);
    }

    fn results(&self, page: &mut Page) -> Result<(), ExportError> {
        page.section("Results");
        page.paragraph(
            "Each metric at every point: the estimate with its 95% interval (the band: Wilson for a probability, \
             normal for a mean), and the exact value where the point's chance tree was small enough to walk (red \
             crosses). The difference is the point's minus the base point's (the first row), trial by trial on the \
             shared random numbers, with its 95% interval.",
        );
        let Some(base) = self.points.first() else { return Ok(()) };
        let shown = charted(self.points, self.named);
        let still: Vec<String> = base
            .record
            .summary
            .metrics
            .iter()
            .filter(|r| !r.place && !shown.contains(&r.metric) && self.named.is_empty())
            .filter_map(|r| Some(format!("{} (always {})", r.metric, r.always?)))
            .collect();
        if !still.is_empty() {
            page.paragraph(&format!("One value in every trial at every point, so not charted: {}.", still.join(", ")));
        }
        for (i, line) in Line::all(self.points, &shown).into_iter().enumerate() {
            page.subheading(line.metric);
            page.chart(&format!("{} at each point, with its 95% band and exact values", line.metric), &line)?;
            // A notebook shows the first metric's curve and table.
            if i == 0 {
                page.feature();
            }
            let mut columns: Vec<&str> = self.axes.iter().map(|a| a.key.as_str()).collect();
            columns.extend(["estimate", "95% low", "95% high", "exact", "difference", "95% low", "95% high"]);
            let mut table = Table::new(&columns);
            for point in self.points {
                let Some(r) = metric_row(point, line.metric) else { continue };
                let mut cells: Vec<Cell> = point.settings.iter().map(|s| Cell::name(&s.value)).collect();
                cells.push(Cell::value(r.estimate).class("estimate"));
                cells.push(Cell::value(r.ci_low).class("ci-low"));
                cells.push(Cell::value(r.ci_high).class("ci-high"));
                cells.push(Cell::maybe(r.exact).class("exact"));
                let change = point.difference(base, &r.metric);
                cells.push(Cell::maybe(change.map(|c| c.change)).class("difference"));
                cells.push(Cell::maybe(change.map(|c| c.low)).class("difference-low"));
                cells.push(Cell::maybe(change.map(|c| c.high)).class("difference-high"));
                table.push(Row::new(cells).data("metric", &r.metric).data("point", &label(point)));
            }
            page.table(&table);
            if i == 0 {
                page.feature();
            }
        }
        Ok(())
    }

    /// `intercept-sim sweep CONFIG --set KEY=V1,V2 ... --seed S --trials N`.
    pub fn command(&self) -> String {
        let mut words =
            vec!["intercept-sim".to_owned(), "sweep".into(), shell_word(&self.scenario.file.display().to_string())];
        for axis in self.axes {
            words.push("--set".into());
            words.push(shell_word(&format!("{}={}", axis.key, axis.values.join(","))));
        }
        for metric in self.named {
            words.extend(["--metric".into(), shell_word(metric)]);
        }
        let run = &self.scenario.run;
        words.extend(["--seed".into(), run.seed.to_string(), "--trials".into(), run.trials.to_string()]);
        words.join(" ")
    }
}
