//! Two keys at once: for each value of the first, where the second meets the target (the frontier of pairs).

use std::fmt::Write;

use serde_json::json;

use super::scan::whole_values;
use super::{Answer, Asked, BadSolve, MOST_WORK, Row, Target, Vary, curve, rows_csv, wanted, work_words};
use crate::config::Scenario;
use crate::config::set::{self, Number, Setting};
use crate::exact;
use crate::fraction::BigRational;
use crate::view::View;

/// How many equal steps a decimal first key is taken in.
const STEPS: i64 = 10;

/// The frontier of two keys: each value of the first (`outer`), and the second's answer there.
#[derive(Clone, Debug)]
pub struct Pair {
    pub name: String,
    pub outer: String,
    pub inner: String,
    pub metric: String,
    pub target: Target,
    pub chance: bool,
    /// Each value of the first key as a setting writes it, and the second key solved there.
    pub rows: Vec<(String, Answer)>,
    /// The first key's values the rules refuse.
    pub refused: Vec<String>,
}

/// Solves the second of `vary`'s keys at each value of the first: every whole value, or ten equal steps of a
/// decimal's range.
pub fn solve(base: &Scenario, target: &Target, outer: &Vary, inner: &Vary, digits: usize) -> Result<Pair, BadSolve> {
    let file = base.file.display();
    let asked = Asked::new(base, target, &outer.key)?;
    let inner_key = Asked::new(base, target, &inner.key)?.key;
    if inner_key == asked.key {
        return Err(BadSolve(format!("{file}: --vary {inner_key} is given twice; allowed: two different keys")));
    }
    let values: Vec<(String, Option<Scenario>)> = match asked.current {
        Number::Int(_) => {
            let (_, values) = whole_values(base, &asked.key, asked.current, outer)?;
            values.into_iter().map(|(v, s)| (v.to_string(), s)).collect()
        }
        Number::Float(_) => decimal_steps(base, &asked.key, outer)?,
    };
    let refused: Vec<String> = values.iter().filter(|(_, s)| s.is_none()).map(|(v, _)| v.clone()).collect();
    let accepted: Vec<(&String, &Scenario)> = values.iter().filter_map(|(v, s)| Some((v, s.as_ref()?))).collect();
    let Some((first, rest)) = accepted.split_first() else {
        return Err(BadSolve(format!("{file}: --vary {}: the rules refuse every value of the range", asked.key)));
    };
    let solve_at = |&(value, scenario): &(&String, &Scenario)| {
        super::solve_one(scenario, target, inner, digits, false)
            .map_err(|e| BadSolve(format!("{} = {value}: {}", asked.key, e.0)))
    };
    // The first value of the first key alone, whose work estimates the whole search's: refused before the
    // rest if it would pass the budget; then the rest, each on its own thread.
    let answer = solve_at(first)?;
    let estimate = work(&answer).saturating_mul(accepted.len() as u64);
    if estimate > MOST_WORK {
        return Err(BadSolve(format!(
            "{file}: {} values of {}, the first of which took {}, would take {}, more than the {} a search may; \
             narrow the ranges (KEY=LO..HI)",
            accepted.len(),
            asked.key,
            work_words(work(&answer)),
            work_words(estimate),
            crate::present::thousands(MOST_WORK)
        )));
    }
    let mut answers = vec![Ok(answer)];
    answers.extend(exact::in_parallel(rest, solve_at));
    let rows = accepted.iter().zip(answers).map(|((value, _), answer)| Ok(((*value).clone(), answer?)));
    let rows = rows.collect::<Result<Vec<_>, BadSolve>>()?;
    Ok(Pair {
        name: base.run.name.clone(),
        outer: asked.key,
        inner: inner_key,
        metric: asked.metric,
        target: target.clone(),
        chance: asked.chance,
        rows,
        refused,
    })
}

/// Ten equal steps across a decimal key's range (0..1 unless given), each resolved.
fn decimal_steps(base: &Scenario, key: &str, vary: &Vary) -> Result<Vec<(String, Option<Scenario>)>, BadSolve> {
    let (lo, hi) =
        vary.range.clone().unwrap_or((BigRational::from_integer(0.into()), BigRational::from_integer(1.into())));
    let step = |k: i64| &lo + (&hi - &lo) * BigRational::new(k.into(), STEPS.into());
    let values = (0..=STEPS).filter_map(|k| curve::decimal(&step(k)));
    let resolve = |value: &str| set::apply(base, &[Setting { key: key.to_owned(), value: value.to_owned() }]).ok();
    let out: Vec<(String, Option<Scenario>)> = values
        .map(|v| {
            let s = resolve(&v);
            (v, s)
        })
        .collect();
    if out.len() as i64 != STEPS + 1 {
        return Err(BadSolve(format!(
            "{}: --vary {key}: allowed: a range whose tenths are short decimals",
            base.file.display()
        )));
    }
    Ok(out)
}

/// The units of exact work an answer's solves spent.
fn work(answer: &Answer) -> u64 {
    match answer {
        Answer::Whole(s) => s.work,
        Answer::Decimal(c) => c.work,
        Answer::Pair(_) | Answer::Sampled(_) => 0,
    }
}

impl Pair {
    /// The answer in a sentence or two: the pairs that meet the target, the first key's values with the same
    /// answer for the second taken together.
    pub fn answer(&self) -> String {
        let mut groups: Vec<(String, String, Option<String>)> = Vec::new();
        for (value, answer) in &self.rows {
            let meeting = answer.meeting();
            match groups.last_mut() {
                Some(last) if last.2 == meeting => last.1 = value.clone(),
                _ => groups.push((value.clone(), value.clone(), meeting)),
            }
        }
        let span = |(a, b, _): &(String, String, Option<String>)| if a == b { a.clone() } else { format!("{a}..{b}") };
        let meets: Vec<String> = groups
            .iter()
            .filter_map(|g| g.2.as_ref().map(|m| format!("{} and {} is {m}", span(g), self.inner)))
            .collect();
        let never: Vec<String> = groups.iter().filter(|g| g.2.is_none()).map(span).collect();
        let (outer, metric) = (&self.outer, &self.metric);
        let mut out = if meets.is_empty() {
            format!("No pair of values gives {metric} {}", wanted(&self.target, self.chance))
        } else {
            format!("{metric} is {} when {outer} is {}", wanted(&self.target, self.chance), list(&meets))
        };
        if !meets.is_empty() && !never.is_empty() {
            let _ = write!(out, "; with {outer} {} no value of {} does", list(&never), self.inner);
        }
        out + "."
    }
}

impl Pair {
    /// Every row of the second key's tables, under the first key's value.
    pub fn rows(&self) -> Vec<Row> {
        let under = |(value, answer): &(String, Answer)| {
            answer.rows().into_iter().map(|r| Row { outer: Some(value.clone()), ..r }).collect::<Vec<_>>()
        };
        self.rows.iter().flat_map(under).collect()
    }
}

/// "a", "a or b", "a, b or c".
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl View for Pair {
    fn text(&self) -> String {
        let mut out = format!("{}\n\n", self.answer());
        let width = self.outer.len().max(8);
        let _ = writeln!(
            out,
            "{:>width$}  {} where {} {}",
            self.outer,
            self.inner,
            self.metric,
            wanted(&self.target, self.chance)
        );
        for (value, answer) in &self.rows {
            let _ = writeln!(out, "{value:>width$}  {}", answer.meeting().unwrap_or_else(|| "none".to_owned()));
        }
        if !self.refused.is_empty() {
            let _ = writeln!(out, "the rules refuse {} = {}", self.outer, self.refused.join(", "));
        }
        out
    }

    fn json(&self) -> serde_json::Value {
        let row = |(value, answer): &(String, Answer)| json!({ "value": value, "meeting": answer.meeting(), "answer": answer.json() });
        json!({
            "answer": self.answer(),
            "name": self.name,
            "keys": [self.outer, self.inner],
            "target": super::target_json(&self.metric, &self.target),
            "rows": self.rows.iter().map(row).collect::<Vec<_>>(),
            "refused": self.refused,
        })
    }

    fn csv(&self) -> Option<String> {
        Some(rows_csv(Some(&self.outer), &self.rows()))
    }
}
