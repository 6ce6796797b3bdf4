//! Inverse design: which value of a config key gives the odds asked for ("how many dice must the group roll
//! to reach at least half the time?", "what chance of ending a round makes combats last two rounds on
//! average?"), answered exactly.
//!
//! A [`Target`] is a metric, a relation and an exact value (`mission.completed<=1/2`); a [`Vary`] is the
//! key to move and, optionally, its range. [`solve`] answers with an [`Answer`]:
//! - a whole-number key is scanned ([`scan`]): the scenario solved exactly at every value, giving a
//!   [`Scan`] with the values that meet the target, runs of equal chance, and the closest and bracketing
//!   values when none does;
//! - a decimal key ([`curve`]) moves chance nodes' weights, so the metric is a polynomial in it (a ratio of
//!   two for a mean over some trials): a [`Curve`] finds that polynomial exactly by interpolating exact
//!   solves ([`poly::Newton`]) and the key's values where it meets the target by isolating its roots with
//!   Sturm sequences, each root given inside an exact interval with the slope there.
//!
//! Each renders itself as a [`View`]: an answer sentence, then a table.

use serde_json::json;

use crate::config::Scenario;
use crate::config::set::{self, Number};
use crate::fraction::{self, BigRational};
use crate::view::View;

pub mod curve;
pub mod pair;
pub mod poly;
pub mod sampled;
pub mod scan;

pub use self::curve::Curve;
pub use self::pair::Pair;
pub use self::sampled::Bisection;
pub use self::scan::{Plateau, Point, Scan, scan};

crate::refusal! {
    /// Why a target, a key or a scan cannot be used: what is wrong and what is allowed, in one sentence.
    BadSolve
}

/// How far from its current value a key is scanned each way when no range is given.
pub const REACH: i64 = 64;

/// The most values one scan solves.
pub const MOST_VALUES: u64 = 1_000;

/// The most units of exact work ([`crate::exact::ExactTally::work`], about one chance node each) one search
/// spends in all: ten times what the largest single `exact` may (`run.max_exact_leaves` at its most, each
/// leaf [`crate::exact::PICKS_PER_LEAF`] picks long). Its cost is estimated from the first value solved and
/// refused before the rest if it would pass this. Work, not leaves: a solve by merging states counts
/// leaves it never walks, more than 10^19 for a tree it solves in a second.
pub const MOST_WORK: u64 = 10 * crate::config::run::MOST_EXACT_LEAVES as u64 * crate::exact::PICKS_PER_LEAF;

/// "about 1,234,567 units of exact work": a cost in the words of a refusal.
pub(crate) fn work_words(units: u64) -> String {
    format!("about {} units of exact work", crate::present::thousands(units))
}

/// How the metric must stand to the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    AtMost,
    AtLeast,
    Equal,
}

impl Relation {
    pub(crate) fn holds(self, got: &BigRational, want: &BigRational) -> bool {
        match self {
            Relation::AtMost => got <= want,
            Relation::AtLeast => got >= want,
            Relation::Equal => got == want,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Relation::AtMost => "at most",
            Relation::AtLeast => "at least",
            Relation::Equal => "exactly",
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Relation::AtMost => "<=",
            Relation::AtLeast => ">=",
            Relation::Equal => "=",
        }
    }
}

/// What the metric should be: `METRIC<=V`, `METRIC>=V`, `METRIC=V` (`<` and `>` read as `<=` and `>=`), or
/// the same without the metric for the rule set's headline metric; V a fraction (`7/12`), a decimal (`0.5`)
/// or a percentage (`50%`).
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// `None`: the rule set's first headline metric.
    pub metric: Option<String>,
    pub relation: Relation,
    pub value: BigRational,
}

impl std::str::FromStr for Target {
    type Err = BadSolve;

    fn from_str(text: &str) -> Result<Target, BadSolve> {
        let at = text.find(['<', '>', '=']);
        let (metric, rest) = match at {
            Some(i) => (text[..i].trim(), &text[i..]),
            None => ("", text),
        };
        let (relation, number) = match rest.trim_start() {
            r if r.starts_with("<=") => (Relation::AtMost, &r[2..]),
            r if r.starts_with(">=") => (Relation::AtLeast, &r[2..]),
            r if r.starts_with('<') => (Relation::AtMost, &r[1..]),
            r if r.starts_with('>') => (Relation::AtLeast, &r[1..]),
            r if r.starts_with('=') => (Relation::Equal, &r[1..]),
            r => (Relation::Equal, r),
        };
        let value = exact_number(number.trim()).ok_or_else(|| {
            BadSolve(format!(
                "{text:?} is not a target; allowed: [METRIC]<=V, >=V or =V, with V a fraction, a decimal or a \
                 percentage, such as mission.completed<=1/2 or >=50%"
            ))
        })?;
        let metric = (!metric.is_empty()).then(|| metric.to_owned());
        Ok(Target { metric, relation, value })
    }
}

/// `7/12`, `0.5` or `50%` as an exact fraction.
pub fn exact_number(text: &str) -> Option<BigRational> {
    if let Some(percent) = text.strip_suffix('%') {
        return exact_number(percent.trim()).map(|p| p / BigRational::from_integer(100.into()));
    }
    if text.contains('/') {
        return fraction::parse(text);
    }
    let (whole, decimals) = text.split_once('.').unwrap_or((text, ""));
    let digits = format!("{whole}{decimals}");
    let plain = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    let signless = digits.strip_prefix('-').unwrap_or(&digits);
    if signless.is_empty() || !plain(signless) || !plain(decimals) || decimals.len() > 30 {
        return None;
    }
    let numerator: num_bigint::BigInt = digits.parse().ok()?;
    let denominator = num_bigint::BigInt::from(10).pow(decimals.len() as u32);
    Some(BigRational::new(numerator, denominator))
}

/// The key to move, and the range to scan: `KEY` or `KEY=LO..HI`, the ends exact numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vary {
    pub key: String,
    pub range: Option<(BigRational, BigRational)>,
}

impl std::str::FromStr for Vary {
    type Err = BadSolve;

    fn from_str(text: &str) -> Result<Vary, BadSolve> {
        let bad = || {
            BadSolve(format!(
                "{text:?} is not a key to vary; allowed: KEY or KEY=LO..HI with numbers LO < HI, such as \
                 <table>.rules.max_dice=0..8 or <table>.combat.p_end_after_round=0.2..0.8"
            ))
        };
        let Some((key, range)) = text.split_once('=') else {
            return match text.trim() {
                "" => Err(bad()),
                key => Ok(Vary { key: key.to_owned(), range: None }),
            };
        };
        let (lo, hi) = range.split_once("..").ok_or_else(bad)?;
        let end = |s: &str| exact_number(s.trim()).filter(|_| !s.contains(['%', '/'])).ok_or_else(bad);
        let (lo, hi) = (end(lo)?, end(hi)?);
        if key.trim().is_empty() || lo >= hi {
            return Err(bad());
        }
        Ok(Vary { key: key.trim().to_owned(), range: Some((lo, hi)) })
    }
}

/// One row of an answer's table: a value of the key (under a value of the first key, for two), the metric
/// there, and whether it meets the target.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The first key's value, for two keys.
    pub outer: Option<String>,
    /// The key's value as a setting writes it.
    pub label: String,
    pub value: f64,
    pub measure: Measure,
    /// `None` where a sampled value's interval holds the target.
    pub meets: Option<bool>,
}

/// A metric's value: exact, or estimated with its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub enum Measure {
    Exact(BigRational),
    Sampled { estimate: f64, low: f64, high: f64 },
}

impl Measure {
    /// The exact value's nearest float, or the estimate.
    pub fn point(&self) -> f64 {
        match self {
            Measure::Exact(x) => fraction::to_f64(x),
            Measure::Sampled { estimate, .. } => *estimate,
        }
    }
}

/// Rows as CSV: the first key's column (for two keys), the key's, then the metric's exact value (its float and
/// fraction) or its estimate and 95% interval, and whether it meets the target (empty when sampling cannot
/// tell).
pub(crate) fn rows_csv(outer: Option<&str>, rows: &[Row]) -> String {
    let sampled = rows.iter().any(|r| matches!(r.measure, Measure::Sampled { .. }));
    let mut header: Vec<&str> = outer.into_iter().collect();
    header.push("value");
    header.extend(if sampled {
        ["estimate", "ci_low", "ci_high"].as_slice()
    } else {
        ["exact", "exact_fraction"].as_slice()
    });
    header.push("meets");
    let mut out = crate::text::csv_line(&header);
    for r in rows {
        let mut row: Vec<String> = r.outer.iter().cloned().collect();
        row.push(r.label.clone());
        match &r.measure {
            Measure::Exact(x) => row.extend([fraction::to_f64(x).to_string(), fraction::text(x)]),
            Measure::Sampled { estimate, low, high } => row.extend([estimate, low, high].map(f64::to_string)),
        }
        row.push(r.meets.map(|m| m.to_string()).unwrap_or_default());
        out += &crate::text::csv_line(&row);
    }
    out
}

/// What [`solve`] found: a whole-number key scanned, or a decimal key's curve.
#[derive(Clone, Debug)]
pub enum Answer {
    Whole(Scan),
    Decimal(Box<Curve>),
    /// Two keys: the second solved at each value of the first.
    Pair(Pair),
    /// A whole-number key whose tree is too large to solve exactly, bisected by sampling.
    Sampled(Bisection),
}

impl Answer {
    fn view(&self) -> &dyn View {
        match self {
            Answer::Whole(s) => s,
            Answer::Decimal(c) => c.as_ref(),
            Answer::Pair(p) => p,
            Answer::Sampled(b) => b,
        }
    }

    /// The answer in a sentence or two.
    pub fn answer(&self) -> String {
        match self {
            Answer::Whole(s) => s.answer(),
            Answer::Decimal(c) => c.answer(),
            Answer::Pair(p) => p.answer(),
            Answer::Sampled(b) => b.answer(),
        }
    }

    /// The table of values: each value of the key solved (of a decimal key, equal steps across the range),
    /// under each value of the first key for two.
    pub fn rows(&self) -> Vec<Row> {
        match self {
            Answer::Whole(s) => s.rows(),
            Answer::Decimal(c) => c.rows(),
            Answer::Pair(p) => p.rows(),
            Answer::Sampled(b) => b.rows(),
        }
    }

    /// Where the key meets the target, as spans; `None` when nowhere (and for two keys).
    pub fn meeting(&self) -> Option<String> {
        match self {
            Answer::Whole(s) => s.meeting(),
            Answer::Decimal(c) => c.meeting(),
            Answer::Pair(_) | Answer::Sampled(_) => None,
        }
    }
}

impl View for Answer {
    fn text(&self) -> String {
        self.view().text()
    }

    fn json(&self) -> serde_json::Value {
        self.view().json()
    }

    fn csv(&self) -> Option<String> {
        self.view().csv()
    }
}

/// The values of `vary`'s keys that meet `target`. One key: every value of a whole-number key solved
/// exactly, or the exact polynomial of a decimal key and its roots, given to `digits` decimals. Two keys: the
/// second solved so at each value of the first.
pub fn solve(base: &Scenario, target: &Target, vary: &[Vary], digits: usize) -> Result<Answer, BadSolve> {
    match vary {
        [one] => solve_one(base, target, one, digits, true),
        [outer, inner] => pair::solve(base, target, outer, inner, digits).map(Answer::Pair),
        _ => Err(BadSolve(format!("{}: allowed: one or two --vary keys", base.file.display()))),
    }
}

/// One key solved: a whole-number key scanned (or, with `sampling`, bisected by sampling when its tree is
/// too large; a frontier's rows stay exact), a decimal key's curve.
fn solve_one(base: &Scenario, target: &Target, vary: &Vary, digits: usize, sampling: bool) -> Result<Answer, BadSolve> {
    match Asked::new(base, target, &vary.key)?.current {
        Number::Int(_) => match scan::scan_or_too_large(base, target, vary)? {
            Ok(scan) => Ok(Answer::Whole(scan)),
            Err(too_large) if sampling => sampled::bisect(base, target, vary, &too_large).map(Answer::Sampled),
            Err(too_large) => Err(scan::too_large_to_scan(base, vary, &too_large)),
        },
        Number::Float(_) => curve::solve(base, target, vary, digits).map(|c| Answer::Decimal(Box::new(c))),
    }
}

/// A target and a key checked against the scenario: the key's canonical spelling and value, and the metric.
pub(crate) struct Asked {
    pub key: String,
    pub current: Number,
    pub metric: String,
    /// The metric's place among the scenario's metrics.
    pub index: usize,
    /// Whether the metric is a chance (else a mean).
    pub chance: bool,
}

impl Asked {
    pub fn new(base: &Scenario, target: &Target, key: &str) -> Result<Asked, BadSolve> {
        let file = base.file.display();
        let key = set::canonical(base, key).map_err(|e| BadSolve(format!("{file}: --vary {key}: {e}")))?;
        let knob = set::numeric_keys(base).into_iter().find(|k| k.key == key);
        let Some(current) = knob.map(|k| k.value) else {
            return Err(BadSolve(format!(
                "{file}: --vary {key}: not a number of the config; allowed: a key whose value is a number"
            )));
        };
        let metric = match &target.metric {
            Some(m) => m.clone(),
            None => base.rules.headline().into_iter().next().unwrap_or_default(),
        };
        let index = base.rules.metrics().defs().iter().position(|d| d.name == metric).ok_or_else(|| {
            BadSolve(format!("{file}: --target {metric}: no such metric; `intercept-sim metrics {file}` lists them"))
        })?;
        let chance = base.rules.metrics().defs()[index].kind == crate::metrics::MetricKind::Probability;
        Ok(Asked { key, current, metric, index, chance })
    }
}

/// A metric's value in words: a chance "58.3% (7/12)", a mean "1.75 (7/4)" or "2"; a fraction too long to
/// read is left to the table ("35.6%").
pub(crate) fn amount(v: &BigRational, chance: bool) -> String {
    let exact = if v.is_integer() { Some(fraction::text(v)) } else { fraction::short_text(v) };
    let shown = match chance {
        true => crate::present::percent(v),
        false if v.is_integer() => return fraction::text(v),
        false => format!("{:.4}", fraction::to_f64(v)),
    };
    match exact {
        Some(exact) => format!("{shown} ({exact})"),
        None => shown,
    }
}

/// The target's value in words: "at most 50.0% (1/2)".
pub(crate) fn wanted(target: &Target, chance: bool) -> String {
    format!("{} {}", target.relation.words(), amount(&target.value, chance))
}

/// The target in the table's header: "mission.completed <= 1/2".
pub(crate) fn header(metric: &str, target: &Target) -> String {
    format!("{metric} {} {}", target.relation.symbol(), fraction::text(&target.value))
}

/// The target as JSON.
pub(crate) fn target_json(metric: &str, target: &Target) -> serde_json::Value {
    json!({ "metric": metric, "relation": target.relation.symbol(),
            "value": fraction::to_f64(&target.value), "fraction": fraction::text(&target.value) })
}

/// `n/d`, for the tests of this module's files.
#[cfg(test)]
pub(crate) fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[cfg(test)]
mod tests {
    use num_traits::Zero;

    use super::*;

    #[test]
    fn targets_read_fractions_decimals_and_percentages() {
        let t = |s: &str| s.parse::<Target>().unwrap();
        assert_eq!(
            t("mission.completed<=1/2"),
            Target { metric: Some("mission.completed".into()), relation: Relation::AtMost, value: r(1, 2) }
        );
        assert_eq!(t(">=50%").value, r(1, 2));
        assert_eq!(t("x=0.125"), Target { metric: Some("x".into()), relation: Relation::Equal, value: r(1, 8) });
        assert_eq!(t("0.5").relation, Relation::Equal);
        assert!("x<=half".parse::<Target>().is_err());
        assert!("x<=0.5.5".parse::<Target>().is_err());
    }

    #[test]
    fn keys_read_an_optional_range() {
        assert_eq!("a.b".parse::<Vary>().unwrap(), Vary { key: "a.b".into(), range: None });
        assert_eq!("a.b=0..8".parse::<Vary>().unwrap(), Vary { key: "a.b".into(), range: Some((r(0, 1), r(8, 1))) });
        assert_eq!("a.b=0.2..0.75".parse::<Vary>().unwrap().range, Some((r(1, 5), r(3, 4))));
        assert!("a.b=8..0".parse::<Vary>().is_err());
        assert!("a.b=1..1".parse::<Vary>().is_err());
        assert!("a.b=x..2".parse::<Vary>().is_err());
    }

    #[test]
    fn zero_and_sign_are_exact() {
        assert!(exact_number("0").unwrap().is_zero());
        assert_eq!(exact_number("-0.25"), Some(r(-1, 4)));
    }
}
