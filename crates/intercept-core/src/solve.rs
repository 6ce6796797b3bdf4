//! Inverse design: which value of a config key gives the odds asked for ("how many dice must the group roll
//! to reach at least half the time?"), answered exactly.
//!
//! A [`Target`] is a metric, a relation and an exact value (`mission.completed<=1/2`); a [`Vary`] is the
//! whole-number key to move and, optionally, its range. [`scan`] solves the scenario exactly at every value
//! of the key (the range given, else every value the rules accept within [`REACH`] of the current one) and
//! gives a [`Scan`]: each value's exact chance, the values that meet the target, runs of values that give
//! the same chance (plateaus), and, when none meets it exactly, the two values that bracket it and the
//! closest. It renders itself as a [`View`]: an answer sentence, then a table.

use std::fmt::Write;

use num_traits::Signed;
use serde_json::json;

use crate::config::Scenario;
use crate::config::set::{self, Number, Setting};
use crate::exact::metric_fractions;
use crate::fraction::{self, BigRational};
use crate::runner;
use crate::view::View;

crate::refusal! {
    /// Why a target, a key or a scan cannot be used: what is wrong and what is allowed, in one sentence.
    BadSolve
}

/// How far from its current value a key is scanned each way when no range is given.
pub const REACH: i64 = 64;

/// The most values one scan solves.
pub const MOST_VALUES: u64 = 1_000;

/// The most chance-tree leaves one scan walks in all (ten times the largest single `exact`): its cost is
/// estimated from the first value solved and refused before the rest if it would pass this.
pub const MOST_LEAVES: u64 = 100_000_000;

/// How the metric must stand to the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    AtMost,
    AtLeast,
    Equal,
}

impl Relation {
    fn holds(self, got: &BigRational, want: &BigRational) -> bool {
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

    fn symbol(self) -> &'static str {
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

/// The key to move, and the range to scan: `KEY` or `KEY=LO..HI`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vary {
    pub key: String,
    pub range: Option<(i64, i64)>,
}

impl std::str::FromStr for Vary {
    type Err = BadSolve;

    fn from_str(text: &str) -> Result<Vary, BadSolve> {
        let bad = || {
            BadSolve(format!(
                "{text:?} is not a key to vary; allowed: KEY or KEY=LO..HI with whole numbers LO <= HI, such as \
                 <table>.rules.max_dice=0..8"
            ))
        };
        let Some((key, range)) = text.split_once('=') else {
            return match text.trim() {
                "" => Err(bad()),
                key => Ok(Vary { key: key.to_owned(), range: None }),
            };
        };
        let (lo, hi) = range.split_once("..").ok_or_else(bad)?;
        let (lo, hi) = (lo.trim().parse::<i64>().map_err(|_| bad())?, hi.trim().parse::<i64>().map_err(|_| bad())?);
        if key.trim().is_empty() || lo > hi || hi.abs_diff(lo) >= MOST_VALUES {
            return Err(bad());
        }
        Ok(Vary { key: key.trim().to_owned(), range: Some((lo, hi)) })
    }
}

/// One value of the key: the chance it gives, or why the rules refuse it.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub value: i64,
    pub exact: BigRational,
    pub meets: bool,
}

/// A key scanned exactly over its values.
#[derive(Clone, Debug, PartialEq)]
pub struct Scan {
    pub name: String,
    /// The key as sweeps print it.
    pub key: String,
    pub metric: String,
    pub target: Target,
    /// The key's value in the config.
    pub current: i64,
    pub points: Vec<Point>,
    /// The values of the range the rules refuse (a range given wider than the key allows).
    pub refused: Vec<i64>,
}

/// Solves `base` exactly at every value of `vary`'s key, against `target`.
pub fn scan(base: &Scenario, target: &Target, vary: &Vary) -> Result<Scan, BadSolve> {
    let file = base.file.display();
    let key = set::canonical(base, &vary.key).map_err(|e| BadSolve(format!("{file}: --vary {}: {e}", vary.key)))?;
    let knob = set::numeric_keys(base).into_iter().find(|k| k.key == key);
    let Some(Number::Int(current)) = knob.map(|k| k.value) else {
        return Err(BadSolve(format!(
            "{file}: --vary {key}: not a whole number of the config; allowed: a key whose value is a whole number"
        )));
    };
    let metric = match &target.metric {
        Some(m) => m.clone(),
        None => base.rules.headline().into_iter().next().unwrap_or_default(),
    };
    let index = base.rules.metrics().defs().iter().position(|d| d.name == metric).ok_or_else(|| {
        BadSolve(format!("{file}: --target {metric}: no such metric; `intercept-sim metrics {file}` lists them"))
    })?;
    // Each value is resolved once: `None` where the rules refuse it.
    let resolve = |value: i64| set::apply(base, &[Setting { key: key.clone(), value: value.to_string() }]).ok();
    let values: Vec<(i64, Option<Scenario>)> = match vary.range {
        Some((lo, hi)) => (lo..=hi).map(|v| (v, resolve(v))).collect(),
        None => around(current, resolve).into_iter().map(|(v, s)| (v, Some(s))).collect(),
    };
    let (mut points, mut refused) = (Vec::with_capacity(values.len()), Vec::new());
    for (value, scenario) in &values {
        let value = *value;
        let Some(scenario) = scenario else {
            refused.push(value);
            continue;
        };
        let solved = runner::solve(scenario)
            .map_err(|e| BadSolve(format!("{file}: {key} = {value}: {e}; a scan needs every value solved exactly")))?;
        let (exact, leaves) = (metric_fractions(scenario.rules.metrics(), &solved).swap_remove(index), solved.leaves);
        let estimate = leaves.saturating_mul(values.len() as u64);
        if points.is_empty() && estimate > MOST_LEAVES {
            let n = values.len();
            return Err(BadSolve(format!(
                "{file}: --vary {key}: {n} values of about {leaves} leaves each would walk about {estimate} leaves, \
                 more than the {MOST_LEAVES} a scan may; narrow the range (KEY=LO..HI)"
            )));
        }
        if let Some(exact) = exact {
            let meets = target.relation.holds(&exact, &target.value);
            points.push(Point { value, exact, meets });
        }
    }
    if points.is_empty() {
        return Err(BadSolve(format!("{file}: --vary {key}: the rules refuse every value of the range")));
    }
    Ok(Scan { name: base.run.name.clone(), key, metric, target: target.clone(), current, points, refused })
}

/// The values within [`REACH`] of `current` that `resolve` accepts, each with what it made of it, going each
/// way until the first refused; `current` itself is taken as accepted when it is.
fn around<T>(current: i64, resolve: impl Fn(i64) -> Option<T>) -> Vec<(i64, T)> {
    let step = |v: i64| resolve(v).map(|t| (v, t));
    let down = (1..=REACH).map_while(|d| current.checked_sub(d).and_then(step));
    let up = (1..=REACH).map_while(|d| current.checked_add(d).and_then(step));
    let mut values: Vec<(i64, T)> = down.chain(step(current)).chain(up).collect();
    values.sort_unstable_by_key(|(v, _)| *v);
    values
}

/// A run of neighbouring values that give the same chance.
#[derive(Clone, Debug, PartialEq)]
pub struct Plateau {
    pub from: i64,
    pub to: i64,
    pub exact: BigRational,
    pub meets: bool,
}

impl Scan {
    /// The values grouped into runs of equal chance, in order.
    pub fn plateaus(&self) -> Vec<Plateau> {
        let mut out: Vec<Plateau> = Vec::new();
        for p in &self.points {
            match out.last_mut() {
                Some(last) if last.exact == p.exact && last.to + 1 == p.value => last.to = p.value,
                _ => out.push(Plateau { from: p.value, to: p.value, exact: p.exact.clone(), meets: p.meets }),
            }
        }
        out
    }

    /// Two neighbouring values whose chances lie either side of the target value, when none hits it exactly.
    pub fn bracket(&self) -> Option<(&Point, &Point)> {
        let want = &self.target.value;
        let side = |p: &Point| (p.exact > *want) as i8 - (p.exact < *want) as i8;
        self.points.windows(2).find(|w| side(&w[0]) * side(&w[1]) < 0).map(|w| (&w[0], &w[1]))
    }

    /// The value whose chance is nearest the target value (the lower value on a tie).
    pub fn closest(&self) -> &Point {
        let distance = |p: &Point| (&p.exact - &self.target.value).abs();
        let mut best = &self.points[0];
        for p in &self.points[1..] {
            if distance(p) < distance(best) {
                best = p;
            }
        }
        best
    }

    fn range(&self) -> (i64, i64) {
        (self.points[0].value, self.points[self.points.len() - 1].value)
    }

    fn wanted(&self) -> String {
        let v = &self.target.value;
        format!("{} {} ({})", self.target.relation.words(), percent(v), fraction::text(v))
    }

    /// The answer in a sentence or two.
    pub fn answer(&self) -> String {
        let (lo, hi) = self.range();
        let (key, metric) = (&self.key, &self.metric);
        let meeting: Vec<Plateau> = self.plateaus().into_iter().filter(|p| p.meets).collect();
        if meeting.is_empty() {
            let c = self.closest();
            let plateaus = self.plateaus();
            let near = plateaus.iter().find(|p| (p.from..=p.to).contains(&c.value)).expect("every value has a run");
            let mut out = format!(
                "No value of {key} from {lo} to {hi} gives {metric} {}; the closest: {}.",
                self.wanted(),
                plateau_words(near)
            );
            if let (Relation::Equal, Some((a, b))) = (self.target.relation, self.bracket()) {
                let _ = write!(
                    out,
                    " The value lies between {} ({}) and {} ({}).",
                    a.value,
                    fraction::text(&a.exact),
                    b.value,
                    fraction::text(&b.exact)
                );
            }
            return out;
        }
        let mut runs: Vec<String> = meeting.iter().take(6).map(plateau_words).collect();
        if meeting.len() > 6 {
            runs.push("...".to_owned());
        }
        format!("{metric} is {} when {key} is {}: {}.", self.wanted(), spans(&meeting), runs.join(", "))
    }
}

/// "4 gives 58.3% (7/12)" for one value, "any of 4..6 gives 58.3% (7/12)" for a run.
fn plateau_words(p: &Plateau) -> String {
    let values = if p.from == p.to { p.from.to_string() } else { format!("any of {}..{}", p.from, p.to) };
    format!("{values} gives {} ({})", percent(&p.exact), fraction::text(&p.exact))
}

/// The spans of neighbouring values among `runs`: "2..8", or "0..1 and 7..8".
fn spans(runs: &[Plateau]) -> String {
    let mut spans: Vec<(i64, i64)> = Vec::new();
    for r in runs {
        match spans.last_mut() {
            Some(last) if last.1 + 1 == r.from => last.1 = r.to,
            _ => spans.push((r.from, r.to)),
        }
    }
    let words: Vec<String> =
        spans.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}..{b}") }).collect();
    words.join(" and ")
}

/// A chance as a percentage with one decimal; one that is not certain never reads 100.0%, nor one that is
/// not impossible 0.0%.
fn percent(r: &BigRational) -> String {
    let p = fraction::to_f64(r) * 100.0;
    match p {
        p if p > 99.95 && p < 100.0 => ">99.9%".to_owned(),
        p if p > 0.0 && p < 0.05 => "<0.1%".to_owned(),
        p => format!("{p:.1}%"),
    }
}

impl View for Scan {
    fn text(&self) -> String {
        let mut out = format!("{}\n\n", self.answer());
        let t = &self.target;
        let _ = writeln!(
            out,
            "{:>8}  {:>9}  {:<24}  {} {} {}",
            "value",
            "chance",
            "exact",
            self.metric,
            t.relation.symbol(),
            fraction::text(&t.value)
        );
        for p in &self.points {
            let here = if p.value == self.current { " (the config's)" } else { "" };
            let (chance, exact) = (fraction::to_f64(&p.exact), fraction::text(&p.exact));
            let _ = writeln!(
                out,
                "{:>8}  {chance:>9.6}  {exact:<24}  {}{here}",
                p.value,
                if p.meets { "yes" } else { "no" }
            );
        }
        if !self.refused.is_empty() {
            let values: Vec<String> = self.refused.iter().map(i64::to_string).collect();
            let _ = writeln!(out, "the rules refuse {} = {}", self.key, values.join(", "));
        }
        out
    }

    fn json(&self) -> serde_json::Value {
        let point = |p: &Point| json!({ "value": p.value, "exact": fraction::to_f64(&p.exact), "exact_fraction": fraction::text(&p.exact), "meets": p.meets });
        let plateau = |p: &Plateau| json!({ "from": p.from, "to": p.to, "exact_fraction": fraction::text(&p.exact), "meets": p.meets });
        let bracket = self.bracket().map(|(a, b)| json!([a.value, b.value]));
        json!({
            "answer": self.answer(),
            "name": self.name,
            "key": self.key,
            "current": self.current,
            "target": { "metric": self.metric, "relation": self.target.relation.symbol(),
                        "value": fraction::to_f64(&self.target.value), "fraction": fraction::text(&self.target.value) },
            "points": self.points.iter().map(point).collect::<Vec<_>>(),
            "plateaus": self.plateaus().iter().map(plateau).collect::<Vec<_>>(),
            "bracket": bracket,
            "closest": self.closest().value,
            "refused": self.refused,
        })
    }

    fn csv(&self) -> Option<String> {
        let mut out = crate::text::csv_line(&["value", "exact", "exact_fraction", "meets"]);
        for p in &self.points {
            let row = [
                p.value.to_string(),
                fraction::to_f64(&p.exact).to_string(),
                fraction::text(&p.exact),
                p.meets.to_string(),
            ];
            out += &crate::text::csv_line(&row);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use num_traits::Zero;

    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

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
        assert_eq!("a.b=0..8".parse::<Vary>().unwrap(), Vary { key: "a.b".into(), range: Some((0, 8)) });
        assert!("a.b=8..0".parse::<Vary>().is_err());
        assert!("a.b=x..2".parse::<Vary>().is_err());
    }

    #[test]
    fn around_stops_at_the_first_refused_value_each_way() {
        let values = |found: Vec<(i64, ())>| found.into_iter().map(|(v, _)| v).collect::<Vec<_>>();
        assert_eq!(values(around(3, |v| (0..=8).contains(&v).then_some(()))), (0..=8).collect::<Vec<_>>());
        assert_eq!(around(0, |v| (v >= 0).then_some(())).len() as i64, REACH + 1);
    }

    #[test]
    fn zero_and_sign_are_exact() {
        assert!(exact_number("0").unwrap().is_zero());
        assert_eq!(exact_number("-0.25"), Some(r(-1, 4)));
    }
}
