//! Decisions are studies: "where should I intercept?" chooses among config values and solves each choice
//! exactly, as `sweep`, `sensitivity` and `solve` vary a scenario and compare. A rule set names the
//! decisions its sides make before the dice of each level ([`Decision`], through
//! [`crate::ruleset::RuleSet::decision`]), in the order they are made; [`decide`] plays them in turn, each
//! side choosing what is best for it given the choices above it (a choice made before the dice of its
//! level, SoP steps 3 and 8, is a config value, searched level by level), and solves the scenario exactly at
//! every end. The answer ([`Decided`]) lists every option of the first decision with its exact value and
//! the answers chosen below it, ranked for the side that chooses.
//!
//! The search is exact: every option of the first decision is solved with the best line below it; below,
//! alpha-beta leaves unsolved the options that cannot change a choice above, without changing any value or
//! choice (ties go to the option listed first either way). The ends of the whole tree are counted and
//! bounded before any solve ([`MOST_SOLVES`]).

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use num_rational::BigRational;

use crate::config::set::{self, Setting};
use crate::config::{RawConfig, Scenario};
use crate::exact;
use crate::ruleset::{Entry, Registry};

crate::refusal! {
    /// Why a decision study is refused before it starts: the command line's message.
    Refused
}

crate::refusal! {
    /// Why an option has no value: its config is refused, its tree too large, or the decisions below it
    /// cannot be read; in a sentence.
    Unsolved
}

/// A decision a side makes before the dice of its level: which of some options to take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The side choosing, in the rule set's words (`defender`).
    pub side: String,
    /// What is chosen, in words: "where the defender intercepts the malta-convoy force".
    pub question: String,
    /// The choice as done, to be followed by "at" and an option: "the defender intercepts the malta-convoy
    /// force".
    pub act: String,
    pub options: Vec<Choice>,
}

/// One option: its label (an interception hex) and the config values that take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub settings: Vec<Setting>,
}

/// A choice made below an option, on the line each side plays best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picked {
    pub side: String,
    pub act: String,
    pub label: String,
    /// The config values that take it.
    pub settings: Vec<Setting>,
}

/// One option of the first decision: its exact value once every decision below it is made best for the
/// side making it, and those choices; or why it has none.
#[derive(Clone, Debug, PartialEq)]
pub struct Considered {
    pub label: String,
    /// The config values that take it.
    pub settings: Vec<Setting>,
    pub value: Result<BigRational, Unsolved>,
    pub line: Vec<Picked>,
}

/// A decision study's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    /// The metric every choice is judged by, and the side a high value of it favours.
    pub metric: String,
    pub favours: String,
    /// The first decision: who makes it, what it is, and its options in the order listed.
    pub side: String,
    pub question: String,
    pub options: Vec<Considered>,
    /// The option the config takes as written, if it takes one of them.
    pub written: Option<usize>,
    /// The options with a value, best first for the side making the first decision.
    pub ranked: Vec<usize>,
    /// The exact solves made.
    pub solves: u64,
}

impl Considered {
    /// The config values that take this option and, below it, the best line.
    pub fn settings_with_line(&self) -> impl Iterator<Item = &Setting> {
        self.settings.iter().chain(self.line.iter().flat_map(|p| &p.settings))
    }
}

impl Decided {
    /// Whether the side making the first decision wants the metric high.
    pub fn maximises(&self) -> bool {
        self.side == self.favours
    }

    /// The best option, if any has a value.
    pub fn best(&self) -> Option<&Considered> {
        self.ranked.first().map(|&i| &self.options[i])
    }

    /// The scenario with the best option and the best line below it taken: what a picture of the answer
    /// draws. `None` if no option has a value.
    pub fn best_line(&self, scenario: &Scenario) -> Option<Result<Scenario, crate::config::ConfigError>> {
        let best = self.best()?;
        let settings: Vec<Setting> = best.settings_with_line().cloned().collect();
        Some(set::apply(scenario, &settings))
    }
}

/// The most exact solves one study makes: every end of the decisions' tree is one.
pub const MOST_SOLVES: u64 = 20_000;

/// Chooses every decision of `scenario` in turn, each best for its side, judged by the exact value of
/// `metric` (the rule set's first headline metric when `None`): [`plan`], then [`Plan::decide`].
pub fn decide(scenario: &Scenario, metric: Option<&str>) -> Result<Decided, Refused> {
    Ok(plan(scenario, metric)?.decide())
}

/// A decision study checked and bounded, before any solve: its metric known and judged by a side, its first
/// decision read, every end of its tree counted within [`MOST_SOLVES`].
pub struct Plan<'a> {
    scenario: &'a Scenario,
    metric: String,
    favours: String,
    first: Decision,
}

/// Checks a decision study of `scenario` and bounds its cost, refusing what cannot be answered: what a
/// caller does before it opens a folder or starts a job.
pub fn plan<'a>(scenario: &'a Scenario, metric: Option<&str>) -> Result<Plan<'a>, Refused> {
    let metric = match metric {
        Some(m) => m.to_owned(),
        None => scenario
            .rules
            .headline()
            .into_iter()
            .next()
            .ok_or_else(|| Refused::from("the rules name no headline metric".to_owned()))?,
    };
    let metrics = scenario.rules.metrics();
    if !metrics.defs().iter().any(|d| d.name == metric) {
        let known: Vec<&str> = metrics.defs().iter().map(|d| d.name.as_str()).collect();
        return Err(Refused(format!("--metric {metric}: no such metric; allowed: {}", known.join(", "))));
    }
    let Some(favours) = scenario.rules.favours(&metric) else {
        return Err(Refused(format!(
            "--metric {metric}: the rules cannot tell whose good a high {metric} is; pick a metric of a mission or a \
             group's reaching, fighting or winning"
        )));
    };
    let search = Search::new(scenario, &metric);
    let raw = &scenario.config;
    let Some(first) = search.decision(raw, 0).map_err(|e| Refused(e.0))? else {
        return Err(Refused(format!(
            "{}: the scenario leaves no choice to make before the dice; with a map, each interception hex is one",
            crate::text::shown_path(&scenario.file)
        )));
    };
    // Bounded before any solve: every end of the tree, whether or not alpha-beta will reach it.
    search.count(raw, 0)?;
    Ok(Plan { scenario, metric, favours, first })
}

impl Plan<'_> {
    /// Solves every option of the first decision with the best line below it: the answer.
    pub fn decide(self) -> Decided {
        let Plan { scenario, metric, favours, first } = self;
        let search = Search::new(scenario, &metric);
        let raw = &scenario.config;
        // On rayon's threads, each solve stopping when the caller's flag is set (exact::halting).
        let options: Vec<Considered> = exact::in_parallel(&first.options, |choice| {
            let found = set::apply_raw(raw, &choice.settings)
                .map_err(|e| Unsolved(e.0))
                .and_then(|r| search.best(&r, 1, &favours, &Window::default()));
            let (label, settings) = (choice.label.clone(), choice.settings.clone());
            match found {
                Ok((value, line)) => Considered { label, settings, value: Ok(value), line },
                Err(why) => Considered { label, settings, value: Err(why), line: Vec::new() },
            }
        });
        // The option that changes nothing is the one written.
        let written =
            first.options.iter().position(|c| set::apply_raw(raw, &c.settings).is_ok_and(|r| r.body == raw.body));
        let maximises = first.side == favours;
        let mut ranked: Vec<usize> = (0..options.len()).filter(|&i| options[i].value.is_ok()).collect();
        ranked.sort_by(|&a, &b| {
            let (x, y) = (options[a].value.as_ref().ok(), options[b].value.as_ref().ok());
            if maximises { y.cmp(&x) } else { x.cmp(&y) }
        });
        let solves = search.solved.load(Ordering::Relaxed);
        Decided { metric, favours, side: first.side, question: first.question, options, written, ranked, solves }
    }
}

/// A value and the choices below it that give it.
type Line = (BigRational, Vec<Picked>);

/// The values a choice below can take and still matter above (alpha-beta): above `low`, which the side
/// that wants the metric high is already sure of, and below `high`, which the other side is sure of.
#[derive(Clone, Debug, Default)]
struct Window {
    low: Option<BigRational>,
    high: Option<BigRational>,
}

impl Window {
    /// The window for the next option of a side (`maximises` the metric or not) whose best so far is `best`.
    fn narrowed(&self, best: Option<&BigRational>, maximises: bool) -> Window {
        let Some(best) = best else { return self.clone() };
        let tighter = |edge: &Option<BigRational>, keep_larger: bool| match edge {
            Some(e) if (e > best) == keep_larger => e.clone(),
            _ => best.clone(),
        };
        match maximises {
            true => Window { low: Some(tighter(&self.low, true)), high: self.high.clone() },
            false => Window { low: self.low.clone(), high: Some(tighter(&self.high, false)) },
        }
    }

    /// Whether a side's best `value` has reached the edge its opponent above holds it to.
    fn reached(&self, value: &BigRational, maximises: bool) -> bool {
        match maximises {
            true => self.high.as_ref().is_some_and(|h| value >= h),
            false => self.low.as_ref().is_some_and(|l| value <= l),
        }
    }
}

/// The rule set's decisions and solves of one scenario.
struct Search<'a> {
    entry: &'static dyn Entry,
    file: &'a Path,
    metric: &'a str,
    /// The exact solves made so far.
    solved: AtomicU64,
}

impl Search<'_> {
    fn new<'a>(scenario: &'a Scenario, metric: &'a str) -> Search<'a> {
        Search { entry: scenario.rules.entry(), file: &scenario.file, metric, solved: AtomicU64::new(0) }
    }

    fn decision(&self, raw: &RawConfig, step: usize) -> Result<Option<Decision>, Unsolved> {
        self.entry.decision(&raw.body, step)
    }

    /// The ends of the decisions' tree below `raw`, refused past [`MOST_SOLVES`].
    fn count(&self, raw: &RawConfig, step: usize) -> Result<u64, Refused> {
        let Some(d) = self.decision(raw, step).map_err(|e| Refused(e.0))? else { return Ok(1) };
        let mut total = 0u64;
        for choice in &d.options {
            // An option that does not apply is solved as one refusal.
            total += match set::apply_raw(raw, &choice.settings) {
                Ok(next) => self.count(&next, step + 1)?,
                Err(_) => 1,
            };
            if total > MOST_SOLVES {
                return Err(Refused(format!(
                    "the choices multiply to more than {MOST_SOLVES} exact solves; fix some of them in the config"
                )));
            }
        }
        Ok(total)
    }

    /// The value of the best line below `raw`, from decision `step` on, each side choosing for itself, and
    /// that line. Only values inside `window` matter to the choices above (alpha-beta): once a side's best
    /// reaches the edge its opponent above would never let it pass, its other options are not solved, and
    /// the value returned is only a bound, which the caller discards. Reaching the edge, not passing it,
    /// stops the search, so of options with equal values the one listed first is kept, as without it.
    fn best(&self, raw: &RawConfig, step: usize, favours: &str, window: &Window) -> Result<Line, Unsolved> {
        let Some(d) = self.decision(raw, step)? else { return self.solve(raw).map(|v| (v, Vec::new())) };
        let maximises = d.side == favours;
        let mut best: Option<(BigRational, Vec<Picked>, &Choice)> = None;
        let mut refusal = None;
        for choice in &d.options {
            let narrowed = window.narrowed(best.as_ref().map(|b| &b.0), maximises);
            let found = set::apply_raw(raw, &choice.settings)
                .map_err(|e| Unsolved(e.0))
                .and_then(|r| self.best(&r, step + 1, favours, &narrowed));
            match found {
                Ok((value, line)) => {
                    let better = best.as_ref().is_none_or(|(b, _, _)| if maximises { value > *b } else { value < *b });
                    if better {
                        best = Some((value, line, choice));
                    }
                }
                Err(why) => refusal = refusal.or(Some(why)),
            }
            if best.as_ref().is_some_and(|(b, _, _)| window.reached(b, maximises)) {
                break;
            }
        }
        let Some((value, below, choice)) = best else {
            return Err(refusal.unwrap_or_else(|| Unsolved(format!("{} has no option", d.question))));
        };
        let (label, settings) = (choice.label.clone(), choice.settings.clone());
        let mut line = vec![Picked { side: d.side.clone(), act: d.act.clone(), label, settings }];
        line.extend(below);
        Ok((value, line))
    }

    /// The metric's exact value with every decision made.
    fn solve(&self, raw: &RawConfig) -> Result<BigRational, Unsolved> {
        self.solved.fetch_add(1, Ordering::Relaxed);
        let scenario = crate::config::from_raw(&Registry::new(vec![self.entry]), raw, self.file)
            .map_err(|e| Unsolved(e.to_string()))?;
        let solved = crate::runner::solve(&scenario).map_err(|e| Unsolved(e.to_string()))?;
        let metrics = scenario.rules.metrics();
        let at = metrics.defs().iter().position(|d| d.name == self.metric);
        let value = at.and_then(|at| exact::metric_fractions(metrics, &solved).swap_remove(at));
        value.ok_or_else(|| Unsolved(format!("no trial counts {} here", self.metric)))
    }
}
