//! The report of a `sensitivity` run: what was varied, the base scenario in plain words, for every probability
//! metric a step changes its tornado chart and ranked table, the steps the rules refuse, and the command that
//! reproduces it.
//!
//! Each ranked row carries `data-metric` and `data-key`; its changes sit in cells of class `change-down` and
//! `change-up`, to six decimals (a change is often far smaller than the odds it moves).

use std::path::{Path, PathBuf};

use super::{Cell, Page, Row, Table, shell_word, thousands};
use crate::export::ExportError;
use crate::plot::tornado::Tornado;
use intercept_core::config::Scenario;
use intercept_core::metrics::MetricKind;
use intercept_core::sensitivity::{Change, DEFAULT_FLOAT_STEP, Scope, Sensitivity};

/// `report.html` of a sensitivity run of `scenario` over `scope`.
pub struct SensitivityReport<'a> {
    pub scenario: &'a Scenario,
    pub scope: &'a Scope,
    pub sensitivity: &'a Sensitivity,
}

impl SensitivityReport<'_> {
    /// Writes `report.html` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        Ok(vec![self.page()?.write(dir)?])
    }

    /// The whole page.
    pub fn page(&self) -> Result<Page, ExportError> {
        let mut page = Page::new(&format!("{} sensitivity", self.scenario.run.name));
        page.facts(self.facts());
        if let Some(answer) = self.answer() {
            page.answer(&answer);
        }
        self.varied(&mut page);
        page.section("The base scenario");
        page.paragraph(&format!("From {}, at the values it gives.", self.scenario.file.display()));
        page.list(&self.scenario.rules.plain_words());
        self.results(&mut page)?;
        self.refused(&mut page);
        let config = toml::to_string_pretty(&self.scenario.config).expect("a resolved config serialises as TOML");
        page.reproduce(&self.command(), Some(&config));
        Ok(page)
    }

    /// The page's answer: which value moves the rule set's headline metric most, and by how much each way.
    pub fn answer(&self) -> Option<String> {
        let s = self.sensitivity;
        let headline = self.scenario.rules.headline();
        let m = headline.iter().find_map(|h| s.metric(h))?;
        let top = s.ranked(m).into_iter().next().filter(|r| !r.changes_nothing())?;
        let base = &s.metrics[m];
        let how = if base.exact { "exact" } else { "estimated" };
        let side = |(to, c): (&str, Change)| match c.exact {
            true => format!("to {to} changes it by {:+.6}", c.change),
            false => format!("to {to} changes it by {:+.6} (95% interval {:+.6} to {:+.6})", c.change, c.low, c.high),
        };
        let sides: Vec<String> = [
            top.down.map(|d| format!("one step down {}", side(d))),
            top.up.map(|u| format!("one step up {}", side(u))),
        ]
        .into_iter()
        .flatten()
        .collect();
        Some(format!(
            "Of the values varied, {} (now {}) moves {} ({:.6}, {how}) most: {}.",
            top.knob.key,
            top.knob.value,
            base.name,
            base.value,
            sides.join("; ")
        ))
    }

    fn facts(&self) -> Vec<String> {
        let s = self.sensitivity;
        let allowed = s.steps.len() - s.refused().count();
        let how = match s.trials {
            0 => "every change exact".to_owned(),
            n => format!("sampled where not exact: {} trials per value", thousands(n)),
        };
        let version = format!("intercept-sim {}", env!("CARGO_PKG_VERSION"));
        vec![
            self.scenario.rules.entry().title().to_owned(),
            format!("{allowed} steps"),
            how,
            format!("seed {}", s.seed),
            version,
        ]
    }

    fn varied(&self, page: &mut Page) {
        page.section("What was varied");
        let only = match self.scope.only.as_slice() {
            [] => "Every number of the config outside [run]".to_owned(),
            only => format!("Every number of the config under {}", only.join(", ")),
        };
        page.paragraph(&format!(
            "{only} moved one step down and one step up, one at a time: whole numbers by 1, decimals by {}. Each \
             change is exact (the difference of two exact solutions) where both chance trees are small enough; \
             otherwise it is sampled on common random numbers, trial t playing on the same random numbers at \
             both values, and shown with the 95% half-width of the change.",
            self.scope.float_step
        ));
    }

    fn results(&self, page: &mut Page) -> Result<(), ExportError> {
        page.section("Results");
        let s = self.sensitivity;
        let probabilities = (0..s.metrics.len()).filter(|&m| s.metrics[m].kind == MetricKind::Probability);
        let mut unmoved = Vec::new();
        for (i, m) in probabilities.enumerate() {
            let Some(tornado) = Tornado::of(s, m) else {
                unmoved.push(s.metrics[m].name.clone());
                continue;
            };
            page.subheading(tornado.metric);
            // A notebook shows the first metric's chart and table: the headline's.
            page.chart(&format!("Change in {} when one value moves one step", tornado.metric), &tornado)?;
            if i == 0 {
                page.feature();
            }
            page.table(&self.ranked(m));
            if i == 0 {
                page.feature();
            }
        }
        if !unmoved.is_empty() {
            page.subheading("Metrics no step changes");
            page.paragraph(&unmoved.join(", "));
        }
        Ok(())
    }

    /// Metric `m`'s ranked table: every knob that changes it, largest change first.
    fn ranked(&self, m: usize) -> Table {
        let s = self.sensitivity;
        let base = &s.metrics[m];
        let mut table = Table::new(&["rank", "key", "value", "down to", "change", "up to", "change"]);
        let moving = s.ranked(m).into_iter().filter(|r| !r.changes_nothing());
        for (i, r) in moving.enumerate() {
            let mut cells = vec![Cell::number((i + 1).to_string()), Cell::name(&r.knob.key)];
            cells.push(Cell::number(r.knob.value.to_string()));
            cells.extend(side(r.down, "change-down"));
            cells.extend(side(r.up, "change-up"));
            table.push(Row::new(cells).data("metric", &base.name).data("key", &r.knob.key));
        }
        table
    }

    fn refused(&self, page: &mut Page) {
        let refused: Vec<String> = self
            .sensitivity
            .telling_refusals()
            .map(|(step, why)| format!("{} to {}: {why}", step.knob.key, step.value))
            .collect();
        if !refused.is_empty() {
            page.section("Steps the rules refuse");
            page.paragraph("These values fail the same checks as a config file, so they were not run.");
            page.list(&refused);
        }
    }

    /// `intercept-sim sensitivity CONFIG [--only P]... [--float-step X] --seed S --trials N`.
    pub fn command(&self) -> String {
        let file = shell_word(&self.scenario.file.display().to_string());
        let mut words = vec!["intercept-sim".to_owned(), "sensitivity".into(), file];
        for prefix in &self.scope.only {
            words.extend(["--only".into(), shell_word(prefix)]);
        }
        if self.scope.float_step != DEFAULT_FLOAT_STEP {
            words.extend(["--float-step".into(), self.scope.float_step.to_string()]);
        }
        let run = &self.scenario.run;
        words.extend(["--seed".into(), run.seed.to_string(), "--trials".into(), run.trials.to_string()]);
        words.join(" ")
    }
}

/// A step's two cells: the value stepped to and the change (with its half-width when sampled).
fn side(side: Option<(&str, Change)>, class: &str) -> [Cell; 2] {
    match side {
        None => [Cell::text("-"), Cell::text("")],
        Some((to, c)) if c.exact => [Cell::number(to), Cell::number(format!("{:+.6}", c.change)).class(class)],
        Some((to, c)) => {
            let text = format!("{:+.6} ± {:.6}", c.change, (c.high - c.low) / 2.0);
            [Cell::number(to), Cell::number(text).class(class)]
        }
    }
}
