//! The report of a `solve`: the answer, what was solved and how, the base scenario in plain words, the
//! chart of the metric across the key's range with the target line, the table of values (each row carries
//! `data-value`, and `data-outer` for two keys; the metric sits in cells of class `exact`), a decimal key's
//! polynomial and roots, and the command that reproduces it.

use std::path::{Path, PathBuf};

use super::{Cell, Page, Row, Table, shell_word, thousands};
use crate::export::ExportError;
use crate::plot::solve::SolveChart;
use intercept_core::config::Scenario;
use intercept_core::fraction;
use intercept_core::solve::{Answer, Curve, Measure, curve};

/// `report.html` of a solve of `scenario`.
pub struct SolveReport<'a> {
    pub scenario: &'a Scenario,
    pub answer: &'a Answer,
}

impl SolveReport<'_> {
    /// Writes `report.html` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        Ok(vec![self.page()?.write(dir)?])
    }

    /// The whole page.
    pub fn page(&self) -> Result<Page, ExportError> {
        let mut page = Page::new(&format!("{} solve", self.scenario.run.name));
        page.facts(self.facts());
        page.answer(&self.answer.answer());
        self.method(&mut page);
        page.section("The base scenario");
        page.paragraph(&format!("From {}, before the key is moved.", self.scenario.file.display()));
        page.list(&self.scenario.rules.plain_words());
        page.section("Results");
        let chart = SolveChart::of(self.answer);
        page.chart("The metric across the key's range; dashed: the target", &chart)?.feature();
        page.table(&self.table()).feature();
        if let Answer::Decimal(c) = self.answer {
            curve_details(&mut page, c);
        }
        let config = toml::to_string_pretty(&self.scenario.config).expect("a resolved config serialises as TOML");
        page.reproduce(&command(self.scenario, self.answer), Some(&config));
        Ok(page)
    }

    fn facts(&self) -> Vec<String> {
        let solved = match self.answer {
            Answer::Whole(s) => format!("{} values solved exactly", s.points.len()),
            Answer::Decimal(c) => format!("{} exact solves", c.solves),
            Answer::Pair(p) => format!("{} values of the first key", p.rows.len()),
            Answer::Sampled(b) => format!("{} values sampled", b.probes.len()),
        };
        let how = match self.answer {
            Answer::Sampled(b) => format!("sampled: {} trials per value, seed {}", thousands(b.trials), b.seed),
            _ => "exact: no sampling".to_owned(),
        };
        vec![
            self.scenario.rules.entry().title().to_owned(),
            solved,
            how,
            format!("intercept-sim {}", env!("CARGO_PKG_VERSION")),
        ]
    }

    fn method(&self, page: &mut Page) {
        page.section("What was solved");
        let text = match self.answer {
            Answer::Whole(_) => {
                "The key is a whole number: the scenario was solved exactly at every value of the range, and each \
                 value's exact chance compared with the target. Neighbouring values with the same chance are named \
                 as one run."
            }
            Answer::Decimal(_) => {
                "The key is a decimal that sets the chance of a chance node, so the metric is a polynomial in it (a \
                 ratio of two for a mean over some trials). The polynomial was found exactly by solving the \
                 scenario exactly at short decimal values of the key and interpolating, adding values until three \
                 in a row lay on it; its roots against the target were isolated by Sturm sequences and narrowed by \
                 bisection on exact fractions, so each lies inside the interval given."
            }
            Answer::Sampled(_) => {
                "The chance tree is too large to solve exactly, so the key's boundary was found by sampling: every \
                 value tried plays the same seeded trials (common random numbers). Taking the metric to move one \
                 way with the key, the range's ends were tried, then the values between one that meets the target \
                 and one that does not were halved until the two were neighbours, or until a value's 95% interval \
                 held the target, so that sampling could not say which side it is on."
            }
            Answer::Pair(_) => {
                "Two keys: the second was solved exactly at each value of the first (every whole value, or ten equal \
                 steps of a decimal). Each line of the chart is one value of the first key; where it crosses the \
                 dashed target line is the frontier of pairs."
            }
        };
        page.paragraph(text);
    }

    fn table(&self) -> Table {
        let outer = match self.answer {
            Answer::Pair(p) => Some(p.outer.as_str()),
            _ => None,
        };
        let mut columns: Vec<&str> = outer.into_iter().collect();
        match self.answer {
            Answer::Sampled(_) => columns.extend(["value", "estimate", "interval", "meets the target"]),
            _ => columns.extend(["value", "exact", "fraction", "meets the target"]),
        }
        let mut table = Table::new(&columns);
        for r in self.answer.rows() {
            let mut cells: Vec<Cell> = r.outer.iter().map(Cell::name).collect();
            cells.push(Cell::name(&r.label));
            match &r.measure {
                Measure::Exact(x) => {
                    cells.push(Cell::value(fraction::to_f64(x)).class("exact"));
                    cells.push(Cell::name(fraction::short_text(x).unwrap_or_else(|| fraction::text(x))));
                }
                Measure::Sampled { estimate, low, high } => {
                    cells.push(Cell::value(*estimate).class("estimate"));
                    cells.push(Cell::name(format!("95% interval {low:.6} to {high:.6}")));
                }
            }
            cells.push(Cell::name(match r.meets {
                Some(true) => "yes",
                Some(false) => "no",
                None => "cannot tell",
            }));
            let mut row = Row::new(cells).data("value", &r.label);
            if let Some(outer) = &r.outer {
                row = row.data("outer", outer);
            }
            table.push(row);
        }
        table
    }
}

/// A decimal key's polynomial and roots.
fn curve_details(page: &mut Page, c: &Curve) {
    page.subheading("The polynomial");
    let terms = |p: &intercept_core::solve::poly::Poly| {
        let c: Vec<String> = p.coefficients().iter().map(fraction::text).collect();
        c.join(", ")
    };
    let mut text = format!(
        "{} = N(x) / B(x) with x = {}; coefficients from the constant term up: N: {}; B: {}.",
        c.metric,
        c.key,
        terms(&c.numerator),
        terms(&c.base)
    );
    if c.base.degree() == 0 {
        text = format!(
            "{} as a polynomial in x = {}, coefficients from the constant term up: {}.",
            c.metric,
            c.key,
            terms(&c.numerator)
        );
    }
    page.paragraph(&text);
    if c.roots.is_empty() {
        return;
    }
    let mut table = Table::new(&["root", "lies in", "slope there"]);
    for r in &c.roots {
        let within = match r.exact() {
            Some(_) => "exactly".to_owned(),
            None => format!("({}, {}]", fraction::text(&r.lo), fraction::text(&r.hi)),
        };
        let value = r.exact().and_then(curve::decimal).unwrap_or_else(|| format!("{:.12}", fraction::to_f64(&r.mid())));
        table.push(Row::new(vec![Cell::name(value), Cell::name(within), Cell::value(c.slope(&r.mid()))]));
    }
    page.table(&table);
}

/// `intercept-sim solve CONFIG --target ... --vary KEY=LO..HI ...`: the command that gives this answer again.
pub fn command(scenario: &Scenario, answer: &Answer) -> String {
    let mut words = vec!["intercept-sim".to_owned(), "solve".into(), shell_word(&scenario.file.display().to_string())];
    let (metric, target) = match answer {
        Answer::Whole(s) => (&s.metric, &s.target),
        Answer::Decimal(c) => (&c.metric, &c.target),
        Answer::Pair(p) => (&p.metric, &p.target),
        Answer::Sampled(b) => (&b.metric, &b.target),
    };
    let value = fraction::text(&target.value);
    words.extend(["--target".into(), shell_word(&format!("{metric}{}{value}", target.relation.symbol()))]);
    let mut varies = Vec::new();
    let digits = match answer {
        Answer::Pair(p) => {
            let first = p.rows.first().map(|r| r.0.clone()).unwrap_or_default();
            let last = p.rows.last().map(|r| r.0.clone()).unwrap_or_default();
            varies.push(format!("{}={first}..{last}", p.outer));
            p.rows.first().and_then(|(_, a)| vary(a, &mut varies))
        }
        a => vary(a, &mut varies),
    };
    for v in varies {
        words.extend(["--vary".into(), shell_word(&v)]);
    }
    if let Some(d) = digits.filter(|&d| d != curve::DIGITS) {
        words.extend(["--digits".into(), d.to_string()]);
    }
    words.join(" ")
}

/// One key's `KEY=LO..HI` pushed onto `varies`; a decimal key's digits.
fn vary(answer: &Answer, varies: &mut Vec<String>) -> Option<usize> {
    match answer {
        Answer::Whole(s) => {
            let (lo, hi) = (s.points.first().map_or(0, |p| p.value), s.points.last().map_or(0, |p| p.value));
            varies.push(format!("{}={lo}..{hi}", s.key));
            None
        }
        Answer::Decimal(c) => {
            let end = |x| curve::decimal(x).unwrap_or_default();
            varies.push(format!("{}={}..{}", c.key, end(&c.range.0), end(&c.range.1)));
            Some(c.digits)
        }
        Answer::Sampled(b) => {
            varies.push(format!("{}={}..{}", b.key, b.range.0, b.range.1));
            None
        }
        Answer::Pair(_) => None,
    }
}
