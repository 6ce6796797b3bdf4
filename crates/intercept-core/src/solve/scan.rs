//! A whole-number key scanned: the scenario solved exactly at every value of the key.

use std::fmt::Write;

use num_traits::{Signed, ToPrimitive};
use serde_json::json;

use super::{
    Asked, BadSolve, MOST_VALUES, MOST_WORK, Measure, REACH, Relation, Row, Target, Vary, amount, header, rows_csv,
    target_json, wanted, work_words,
};
use crate::config::Scenario;
use crate::config::set::{self, Number, Setting};
use crate::exact::{self, ExactTally, TooLarge, metric_fractions};
use crate::fraction::{self, BigRational};
use crate::runner;
use crate::view::View;

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
    /// Whether the metric is a chance (else a mean).
    pub chance: bool,
    /// The units of exact work the solves spent in all.
    pub work: u64,
}

/// Solves `base` exactly at every value of `vary`'s whole-number key, against `target`.
pub fn scan(base: &Scenario, target: &Target, vary: &Vary) -> Result<Scan, BadSolve> {
    scan_or_too_large(base, target, vary)?.map_err(|e| too_large_to_scan(base, vary, &e))
}

/// Why a scan was refused: a value's chance tree too large to solve exactly.
pub(crate) fn too_large_to_scan(base: &Scenario, vary: &Vary, e: &TooLarge) -> BadSolve {
    let file = base.file.display();
    BadSolve(format!("{file}: --vary {}: {e}; a scan needs every value solved exactly", vary.key))
}

/// [`scan`], or why a value's chance tree is too large to solve exactly.
pub(crate) fn scan_or_too_large(
    base: &Scenario,
    target: &Target,
    vary: &Vary,
) -> Result<Result<Scan, TooLarge>, BadSolve> {
    let file = base.file.display();
    let Asked { key, current, metric, index, chance } = Asked::new(base, target, &vary.key)?;
    let (current, values) = whole_values(base, &key, current, vary)?;
    let refused: Vec<i64> = values.iter().filter(|(_, s)| s.is_none()).map(|(v, _)| *v).collect();
    let accepted: Vec<(i64, &Scenario)> = values.iter().filter_map(|(v, s)| Some((*v, s.as_ref()?))).collect();
    let Some((&(_, first), rest)) = accepted.split_first() else {
        return Err(BadSolve(format!("{file}: --vary {key}: the rules refuse every value of the range")));
    };
    // The first value alone, whose work estimates the scan's: refused before the rest if it would pass the
    // budget; then the rest, each solve on its own thread.
    let first = match runner::solve(first) {
        Ok(solved) => solved,
        Err(too_large) => return Ok(Err(too_large)),
    };
    let estimate = first.work.saturating_mul(accepted.len() as u64);
    if estimate > MOST_WORK {
        return Err(BadSolve(format!(
            "{file}: --vary {key}: {} values, the first of which took {}, would take {}, more than the {} a \
             search may; narrow the range (KEY=LO..HI)",
            accepted.len(),
            work_words(first.work),
            work_words(estimate),
            crate::present::thousands(MOST_WORK)
        )));
    }
    let mut solved: Vec<Result<ExactTally, TooLarge>> = vec![Ok(first)];
    solved.extend(exact::in_parallel(rest, |(_, scenario)| runner::solve(scenario)));
    let (mut points, mut work) = (Vec::with_capacity(accepted.len()), 0u64);
    for ((value, scenario), solved) in accepted.iter().zip(solved) {
        let solved = match solved {
            Ok(solved) => solved,
            Err(too_large) => return Ok(Err(too_large)),
        };
        work = work.saturating_add(solved.work);
        if let Some(exact) = metric_fractions(scenario.rules.metrics(), &solved).swap_remove(index) {
            let meets = target.relation.holds(&exact, &target.value);
            points.push(Point { value: *value, exact, meets });
        }
    }
    if points.is_empty() {
        return Err(BadSolve(format!("{file}: --vary {key}: {metric} has no value at any value of the range")));
    }
    let name = base.run.name.clone();
    Ok(Ok(Scan { name, key, metric, target: target.clone(), current, points, refused, chance, work }))
}

/// Values of a key, each with the scenario it resolves to, or `None` where the rules refuse it.
pub(crate) type Values = Vec<(i64, Option<Scenario>)>;

/// The values of whole-number key `key` (canonical, its value `current`) to solve, each resolved once:
/// `vary`'s range, each value `None` where the rules refuse it, or every value they accept within
/// [`REACH`]; and the key's value as a whole number.
pub(crate) fn whole_values(
    base: &Scenario,
    key: &str,
    current: Number,
    vary: &Vary,
) -> Result<(i64, Values), BadSolve> {
    let file = base.file.display();
    let Number::Int(current) = current else {
        return Err(BadSolve(format!(
            "{file}: --vary {key}: not a whole number of the config; allowed: a key whose value is a whole number"
        )));
    };
    let range = match &vary.range {
        None => None,
        Some((lo, hi)) => {
            let whole = |r: &BigRational| r.is_integer().then(|| r.to_integer().to_i64()).flatten();
            match (whole(lo), whole(hi)) {
                (Some(lo), Some(hi)) if hi.abs_diff(lo) < MOST_VALUES => Some((lo, hi)),
                _ => {
                    return Err(BadSolve(format!(
                        "{file}: --vary {key}: {key} is a whole number; allowed: a range of whole numbers LO..HI \
                         at most {MOST_VALUES} values long"
                    )));
                }
            }
        }
    };
    let resolve = |value: i64| set::apply(base, &[Setting { key: key.to_owned(), value: value.to_string() }]).ok();
    let values = match range {
        Some((lo, hi)) => (lo..=hi).map(|v| (v, resolve(v))).collect(),
        None => around(current, resolve).into_iter().map(|(v, s)| (v, Some(s))).collect(),
    };
    Ok((current, values))
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

    /// Each value solved, exactly.
    pub fn rows(&self) -> Vec<Row> {
        let row = |p: &Point| Row {
            outer: None,
            label: p.value.to_string(),
            value: p.value as f64,
            measure: Measure::Exact(p.exact.clone()),
            meets: Some(p.meets),
        };
        self.points.iter().map(row).collect()
    }

    /// The values that meet the target, as spans ("2..8", "0..1 and 7..8"); `None` when none does.
    pub fn meeting(&self) -> Option<String> {
        let meeting: Vec<Plateau> = self.plateaus().into_iter().filter(|p| p.meets).collect();
        (!meeting.is_empty()).then(|| spans(&meeting))
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
                wanted(&self.target, self.chance),
                plateau_words(near, self.chance)
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
        let mut runs: Vec<String> = meeting.iter().take(6).map(|p| plateau_words(p, self.chance)).collect();
        if meeting.len() > 6 {
            runs.push("...".to_owned());
        }
        format!(
            "{metric} is {} when {key} is {}: {}.",
            wanted(&self.target, self.chance),
            spans(&meeting),
            runs.join(", ")
        )
    }
}

/// "4 gives 58.3% (7/12)" for one value, "any of 4..6 gives 58.3% (7/12)" for a run.
fn plateau_words(p: &Plateau, chance: bool) -> String {
    let values = if p.from == p.to { p.from.to_string() } else { format!("any of {}..{}", p.from, p.to) };
    format!("{values} gives {}", amount(&p.exact, chance))
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

impl View for Scan {
    fn text(&self) -> String {
        let mut out = format!("{}\n\n", self.answer());
        let _ = writeln!(
            out,
            "{:>8}  {:>9}  {:<24}  {}",
            "value",
            if self.chance { "chance" } else { "mean" },
            "exact",
            header(&self.metric, &self.target)
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
            "target": target_json(&self.metric, &self.target),
            "points": self.points.iter().map(point).collect::<Vec<_>>(),
            "plateaus": self.plateaus().iter().map(plateau).collect::<Vec<_>>(),
            "bracket": bracket,
            "closest": self.closest().value,
            "refused": self.refused,
        })
    }

    fn csv(&self) -> Option<String> {
        Some(rows_csv(None, &self.rows()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn around_stops_at_the_first_refused_value_each_way() {
        let values = |found: Vec<(i64, ())>| found.into_iter().map(|(v, _)| v).collect::<Vec<_>>();
        assert_eq!(values(around(3, |v| (0..=8).contains(&v).then_some(()))), (0..=8).collect::<Vec<_>>());
        assert_eq!(around(0, |v| (v >= 0).then_some(())).len() as i64, REACH + 1);
    }
}
