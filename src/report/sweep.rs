//! The report of a `sweep`: what was swept, the base scenario in plain words, every probability metric across
//! the points (a chart and a table each), and the command that reproduces it.
//!
//! Each result row carries `data-metric` and `data-point` (the point's swept values, joined by ", ") and its
//! numbers sit in cells of class `estimate`, `ci-low`, `ci-high` and `exact`, as on a run's page.

use std::path::{Path, PathBuf};

use super::{Cell, Page, Row, Table, shell_word, thousands};
use crate::config::Scenario;
use crate::export::ExportError;
use crate::plot::sweep::{Line, label};
use crate::sweep::{Axis, Point};

/// `report.html` of a sweep over `axes`, from its base scenario and its points in grid order.
pub struct SweepReport<'a> {
    pub scenario: &'a Scenario,
    pub axes: &'a [Axis],
    pub points: &'a [Point],
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
        self.swept(&mut page);
        page.section("The base scenario");
        page.paragraph(&format!("From {}, before the swept values are set.", self.scenario.file.display()));
        page.list(&self.scenario.rules.plain_words());
        self.results(&mut page)?;
        let config = toml::to_string_pretty(&self.scenario.config).expect("a resolved config serialises as TOML");
        page.reproduce(&self.command(), Some(&config));
        Ok(page)
    }

    fn facts(&self) -> Vec<String> {
        let run = &self.scenario.run;
        let mut facts = vec![
            self.scenario.rules.entry().title().to_owned(),
            format!("{} points", self.points.len()),
            format!("{} trials per point", thousands(run.trials)),
            format!("seed {}", run.seed),
        ];
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
            "Each probability at every point: the estimate with its 95% Wilson interval (the band), and the exact \
             value where the point's chance tree was small enough to walk (red crosses).",
        );
        let keys: Vec<&str> = self.axes.iter().map(|a| a.key.as_str()).collect();
        for line in Line::all(self.points) {
            page.subheading(line.metric);
            page.chart(&format!("{} at each point, with its 95% band and exact values", line.metric), &line)?;
            let mut columns = keys.clone();
            columns.extend(["estimate", "95% low", "95% high", "exact"]);
            let mut table = Table::new(&columns);
            for point in self.points {
                let Some(r) = point.record.summary.metrics.iter().find(|r| r.metric == line.metric) else { continue };
                let mut cells: Vec<Cell> = point.settings.iter().map(|s| Cell::name(&s.value)).collect();
                cells.push(Cell::value(r.estimate).class("estimate"));
                cells.push(Cell::value(r.ci_low).class("ci-low"));
                cells.push(Cell::value(r.ci_high).class("ci-high"));
                cells.push(Cell::maybe(r.exact).class("exact"));
                table.push(Row::new(cells).data("metric", &r.metric).data("point", &label(point)));
            }
            page.table(&table);
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
        let run = &self.scenario.run;
        words.extend(["--seed".into(), run.seed.to_string(), "--trials".into(), run.trials.to_string()]);
        words.join(" ")
    }
}
