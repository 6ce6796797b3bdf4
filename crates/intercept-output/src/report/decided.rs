//! The report of a `where`: the answer as a sentence, how the choices were searched, the base scenario in
//! plain words, the answer on the rule set's picture (every option coloured by its exact value, the best
//! line drawn), the table of options ranked (each row carries `data-option`; the value sits in cells of class
//! `exact`), and the command that reproduces it. [`write_decided`] writes it with the same answer as CSV,
//! JSON and the picture alone.

use std::path::{Path, PathBuf};

use super::{Cell, Page, Row, Table, shell_word, thousands};
use crate::export::{ExportError, write_text};
use crate::plot::picture_svg;
use crate::show::decided::DecidedView;
use intercept_core::config::Scenario;
use intercept_core::decide::Decided;
use intercept_core::fraction;
use intercept_core::present::Picture;
use intercept_core::view::View;

/// The picture of `decided` on `scenario` with its best line taken (the scenario as written when the line
/// cannot be taken), if the rule set draws one.
pub fn decided_picture(scenario: &Scenario, decided: &Decided) -> Option<Picture> {
    match decided.best_line(scenario) {
        Some(Ok(best)) => best.rules.decided_picture(decided),
        _ => scenario.rules.decided_picture(decided),
    }
}

/// Writes `where.csv`, `where.json`, `where.svg` (when the rule set draws the answer) and `report.html` of
/// `decided` into `dir`; returns the paths.
pub fn write_decided(
    scenario: &Scenario,
    decided: &Decided,
    metric_asked: Option<&str>,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExportError> {
    let view = DecidedView { name: &scenario.run.name, decided, wrote: None };
    let json = serde_json::to_string_pretty(&view.json()).expect("a JSON value prints") + "\n";
    let mut written =
        vec![text_file(dir, "where.csv", &view.csv().unwrap_or_default())?, text_file(dir, "where.json", &json)?];
    let picture = decided_picture(scenario, decided);
    if let Some(p) = &picture {
        let svg = picture_svg(p).map_err(|e| ExportError::Chart { path: dir.join("where.svg"), message: e.0 })?;
        written.push(text_file(dir, "where.svg", &svg)?);
    }
    let page = DecidedReport { scenario, decided, picture: picture.as_ref(), metric_asked }.page()?;
    written.push(page.write(dir)?);
    Ok(written)
}

fn text_file(dir: &Path, name: &str, text: &str) -> Result<PathBuf, ExportError> {
    let path = dir.join(name);
    write_text(&path, text)?;
    Ok(path)
}

/// `report.html` of a decision study of `scenario`.
pub struct DecidedReport<'a> {
    pub scenario: &'a Scenario,
    pub decided: &'a Decided,
    pub picture: Option<&'a Picture>,
    /// The `--metric` given, if one was: the command that reproduces it repeats it.
    pub metric_asked: Option<&'a str>,
}

impl DecidedReport<'_> {
    /// The whole page.
    pub fn page(&self) -> Result<Page, ExportError> {
        let d = self.decided;
        let view = DecidedView { name: &self.scenario.run.name, decided: d, wrote: None };
        let mut page = Page::new(&format!("{} where", self.scenario.run.name));
        page.facts([
            self.scenario.rules.entry().title().to_owned(),
            format!("{} exact solves", thousands(d.solves)),
            "exact: no sampling".to_owned(),
            format!("intercept-sim {}", env!("CARGO_PKG_VERSION")),
        ]);
        page.answer(&view.sentence());
        page.section("What was decided");
        page.paragraph(&format!(
            "{}, judged by {}, which the {} wants high. Every option was solved exactly with the best line below it: \
             each later choice made before the dice of its level by the side making it, best for that side given \
             the choices above it (ties go to the option listed first). Below the first choice, options that \
             cannot change a choice above were left unsolved (alpha-beta), which changes no value.",
            intercept_core::text::capitalised(&d.question),
            d.metric,
            d.favours,
        ));
        page.section("The base scenario");
        page.paragraph(&format!("From {}, before any choice is changed.", self.scenario.file.display()));
        page.list(&self.scenario.rules.plain_words());
        page.section("Results");
        if let Some(p) = self.picture {
            page.picture("Every option by its exact value, the best line drawn", p)?.feature();
        }
        page.table(&self.table()).feature();
        let config = toml::to_string_pretty(&self.scenario.config).expect("a resolved config serialises as TOML");
        page.reproduce(&self.command(), Some(&config));
        Ok(page)
    }

    fn table(&self) -> Table {
        let d = self.decided;
        let mut table = Table::new(&["rank", "option", &d.metric, "as a fraction", "then"]).with_id("options");
        let ranked = d.ranked.iter().map(|&i| (Some(i), &d.options[i]));
        let refused = d.options.iter().filter(|o| o.value.is_err()).map(|o| (None, o));
        for (rank, (i, o)) in ranked.enumerate().map(|(r, x)| (Some(r + 1), x)).chain(refused.map(|x| (None, x))) {
            let written = i.is_some() && i == d.written;
            let label = if written { format!("{} (as written)", o.label) } else { o.label.clone() };
            let cells = match &o.value {
                Ok(v) => vec![
                    Cell::number(rank.map(|r| r.to_string()).unwrap_or_default()),
                    Cell::name(&label),
                    Cell::maybe(Some(fraction::to_f64(v))).class("exact"),
                    Cell::number(fraction::text(v)),
                    Cell::text(DecidedView::line_of(o)),
                ],
                Err(why) => vec![
                    Cell::number(String::new()),
                    Cell::name(&label),
                    Cell::number(String::new()),
                    Cell::number(String::new()),
                    Cell::text(format!("refused: {}", why.0)),
                ],
            };
            table.push(Row::new(cells).data("option", &o.label));
        }
        table
    }

    fn command(&self) -> String {
        let mut words =
            vec!["intercept-sim".to_owned(), "where".to_owned(), shell_word(&self.scenario.file.display().to_string())];
        if let Some(m) = self.metric_asked {
            words.extend(["--metric".to_owned(), shell_word(m)]);
        }
        words.join(" ")
    }
}
