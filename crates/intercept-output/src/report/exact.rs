//! What `exact` answers, as a page: the rule set's answer, how the tree was solved, every metric exactly (a
//! probability's fraction, a mean's value) and the headline chart with the exact values alone. What a
//! notebook shows for `Scenario.exact()`; the command line's `exact` prints the same numbers as text.

use super::{Cell, Page, Row, Table, thousands};
use crate::export::ExportError;
use crate::plot::Headline;
use intercept_core::config::Scenario;
use intercept_core::exact::ExactTally;
use intercept_core::fraction;
use intercept_core::summary::{MetricRow, Summary};

/// The page of `scenario` solved exactly (`solved`).
pub fn exact_page(scenario: &Scenario, solved: &ExactTally) -> Result<Page, ExportError> {
    let summary = Summary::exact_only(scenario.rules.metrics(), solved);
    let shown = scenario.rules.present(&summary, 0);
    let mut page = Page::new(&format!("{} exact", scenario.run.name));
    let leaves = match solved.leaves {
        u64::MAX => "more than 10^19".to_owned(),
        n => thousands(n),
    };
    page.facts([
        shown.title.clone(),
        format!("exact: {leaves} leaves"),
        format!("intercept-sim {}", env!("CARGO_PKG_VERSION")),
    ]);
    if let Some(answer) = &shown.answer {
        page.answer(answer);
    }
    page.section("Every metric, exactly");
    page.paragraph(&format!(
        "Every probability and mean the rules report, exactly: the chance tree of {leaves} leaves walked, or solved \
         by merging equal states between steps; no trial was sampled."
    ));
    let mut table = Table::new(&["metric", "exact", "as a fraction"]).with_id("exact");
    for r in &summary.metrics {
        table.push(row(r));
    }
    page.table(&table).feature();
    page.chart("Every probability's exact value", &Headline::new(&summary, &shown.headline))?.feature();
    Ok(page)
}

/// One metric's row: its name, exact value (a mean's for a count), and the fraction when it is short.
fn row(r: &MetricRow) -> Row {
    let short = r.exact_fraction.as_deref().and_then(fraction::short).unwrap_or_default();
    let cells = vec![Cell::name(&r.metric).note(&r.about), Cell::maybe(r.exact).class("exact"), Cell::number(short)];
    Row::new(cells).data("metric", &r.metric).data("kind", r.kind)
}
