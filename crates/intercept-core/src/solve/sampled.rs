//! A whole-number key whose chance tree is too large to solve exactly: paired Monte Carlo bisection.
//!
//! Every value tried plays the config's trials on the config's seed, so all values share their random
//! numbers trial by trial (common random numbers) and their difference is far less noisy than their
//! intervals. Taking the metric to move one way with the key, [`bisect`] tries the range's ends, then halves
//! the values between a value that meets the target and one that does not, until the two are neighbours
//! or a value's 95% interval straddles the target (it cannot tell which side that value is on); the answer
//! says which, with every value's interval.

use std::fmt::Write;

use serde_json::json;

use super::{Asked, BadSolve, Measure, Relation, Row, Target, Vary, rows_csv, scan::whole_values, target_json, wanted};
use crate::config::Scenario;
use crate::exact::TooLarge;
use crate::runner::{self, SampleOptions};
use crate::view::View;

/// The most trials a bisection may play in all.
pub const MOST_TRIALS: u64 = 200_000_000;

/// What a value's interval says of the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Meets,
    Fails,
    /// The 95% interval holds the target's value.
    Unsure,
}

/// A value tried: its estimate and 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub value: i64,
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    pub verdict: Verdict,
}

/// A whole-number key's boundary found by sampling.
#[derive(Clone, Debug)]
pub struct Bisection {
    pub name: String,
    pub key: String,
    pub metric: String,
    pub target: Target,
    pub chance: bool,
    pub range: (i64, i64),
    /// The values tried, in order of value.
    pub probes: Vec<Probe>,
    pub trials: u64,
    pub seed: u64,
    /// Why it was not solved exactly.
    pub why: String,
}

/// Finds where `vary`'s whole-number key meets `target` by sampling, the exact solve having failed with `why`.
pub fn bisect(base: &Scenario, target: &Target, vary: &Vary, why: &TooLarge) -> Result<Bisection, BadSolve> {
    let file = base.file.display();
    let Asked { key, current, metric, chance, .. } = Asked::new(base, target, &vary.key)?;
    let (_, values) = whole_values(base, &key, current, vary)?;
    let accepted: Vec<(i64, &Scenario)> = values.iter().filter_map(|(v, s)| Some((*v, s.as_ref()?))).collect();
    let (Some(first), Some(last)) = (accepted.first(), accepted.last()) else {
        return Err(BadSolve(format!("{file}: --vary {key}: the rules refuse every value of the range")));
    };
    let (trials, seed) = (base.run.trials, base.run.seed);
    let most_probes = (accepted.len() as f64).log2().ceil() as u64 + 2;
    if trials.saturating_mul(most_probes) > MOST_TRIALS {
        return Err(BadSolve(format!(
            "{file}: --vary {key}: {why}, and sampling it takes up to {most_probes} values of run.trials = {trials} \
             trials, more than the {MOST_TRIALS} a search may; lower run.trials"
        )));
    }
    // Stopped with the exact walks (a server's request whose client left): each run at its next chunk.
    let stop = crate::exact::halt_flag();
    let options = SampleOptions { interrupt: stop.clone(), ..SampleOptions::default() };
    let probe = |i: usize| -> Result<Probe, BadSolve> {
        let (value, scenario) = accepted[i];
        let record = runner::sample(scenario, &options, &|_| {});
        if stop.as_ref().is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(BadSolve(format!("{file}: --vary {key}: the search was stopped before it finished")));
        }
        let row = record.summary.metric(&metric).expect("the metric was checked");
        let verdict = verdict(target, row.ci_low, row.ci_high);
        Ok(Probe { value, estimate: row.estimate, low: row.ci_low, high: row.ci_high, verdict })
    };
    let mut probes = vec![probe(0)?];
    if accepted.len() > 1 {
        probes.push(probe(accepted.len() - 1)?);
    }
    let (mut lo, mut hi) = (0, accepted.len() - 1);
    let decided = |p: &Probe| p.verdict != Verdict::Unsure;
    if probes.len() == 2 && decided(&probes[0]) && decided(&probes[1]) && probes[0].verdict != probes[1].verdict {
        let low_side = probes[0].verdict;
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let p = probe(mid)?;
            let verdict = p.verdict;
            probes.push(p);
            match verdict {
                Verdict::Unsure => break,
                v if v == low_side => lo = mid,
                _ => hi = mid,
            }
        }
    }
    probes.sort_by_key(|p| p.value);
    Ok(Bisection {
        name: base.run.name.clone(),
        key,
        metric,
        target: target.clone(),
        chance,
        range: (first.0, last.0),
        probes,
        trials,
        seed,
        why: why.to_string(),
    })
}

/// Whether an interval from `low` to `high` meets `target`, fails it, or cannot tell. An exact target is
/// taken as a boundary: the side above it "meets", so bisection finds where the metric crosses it.
fn verdict(target: &Target, low: f64, high: f64) -> Verdict {
    let v = crate::fraction::to_f64(&target.value);
    let (above, below) = (low > v, high < v);
    match (target.relation, above, below) {
        (_, false, false) => Verdict::Unsure,
        (Relation::AtMost, _, true) | (Relation::AtLeast | Relation::Equal, true, _) => Verdict::Meets,
        _ => Verdict::Fails,
    }
}

impl Bisection {
    /// The answer in a sentence or two.
    pub fn answer(&self) -> String {
        let (key, metric) = (&self.key, &self.metric);
        let (lo, hi) = self.range;
        let head = format!(
            "Sampled, as the chance tree is too large to solve exactly, every value on the same {} trials (seed {}), \
             taking {metric} to move one way with {key}: ",
            self.trials, self.seed
        );
        let want = wanted(&self.target, self.chance);
        let unsure: Vec<&Probe> = self.probes.iter().filter(|p| p.verdict == Verdict::Unsure).collect();
        let meets = |p: &Probe| p.verdict == Verdict::Meets;
        let first = &self.probes[0];
        let last = &self.probes[self.probes.len() - 1];
        let body = if let Some(u) = unsure.first() {
            format!(
                "the 95% interval at {} = {} holds the target, so sampling cannot say which side of it that value is \
                 on; {}",
                key,
                u.value,
                self.said(u)
            )
        } else if self.probes.iter().all(meets) {
            format!("{metric} is {want} anywhere from {lo} to {hi}: {}, {}", self.said(first), self.said(last))
        } else if !self.probes.iter().any(meets) {
            format!("no value from {lo} to {hi} gives {metric} {want}: {}, {}", self.said(first), self.said(last))
        } else {
            let i = self.probes.windows(2).position(|w| w[0].verdict != w[1].verdict).unwrap_or(0);
            let (a, b) = (&self.probes[i], &self.probes[i + 1]);
            let (meet, other) = if meets(a) { (a, b) } else { (b, a) };
            let span = if meets(a) { format!("{lo}..{}", a.value) } else { format!("{}..{hi}", b.value) };
            match self.target.relation {
                Relation::Equal => format!(
                    "{metric} crosses {} between {} = {} and {}: {}, {}",
                    super::amount(&self.target.value, self.chance),
                    key,
                    a.value,
                    b.value,
                    self.said(a),
                    self.said(b)
                ),
                _ => format!("{metric} is {want} when {key} is {span}: {}, {}", self.said(meet), self.said(other)),
            }
        };
        format!("{head}{body}.")
    }

    /// "5 gives 48.2% (95% interval 47.9% to 48.5%)".
    fn said(&self, p: &Probe) -> String {
        let show = |x: f64| match self.chance {
            true if x > 0.0 && x < 0.0005 => "<0.1%".to_owned(),
            true if x < 1.0 && x > 0.9995 => ">99.9%".to_owned(),
            true => format!("{:.1}%", x * 100.0),
            false => format!("{x:.4}"),
        };
        format!("{} gives {} (95% interval {} to {})", p.value, show(p.estimate), show(p.low), show(p.high))
    }

    /// The values tried.
    pub fn rows(&self) -> Vec<Row> {
        let row = |p: &Probe| Row {
            outer: None,
            label: p.value.to_string(),
            value: p.value as f64,
            measure: Measure::Sampled { estimate: p.estimate, low: p.low, high: p.high },
            meets: match p.verdict {
                Verdict::Meets => Some(true),
                Verdict::Fails => Some(false),
                Verdict::Unsure => None,
            },
        };
        self.probes.iter().map(row).collect()
    }
}

impl View for Bisection {
    fn text(&self) -> String {
        let mut out = format!("{}\n\n", self.answer());
        let _ = writeln!(
            out,
            "{:>8}  {:>9}  {:>9}  {:>9}  {}",
            "value",
            "estimate",
            "95% low",
            "95% high",
            super::header(&self.metric, &self.target)
        );
        for p in &self.probes {
            let says = match p.verdict {
                Verdict::Meets => "yes",
                Verdict::Fails => "no",
                Verdict::Unsure => "cannot tell",
            };
            let _ = writeln!(out, "{:>8}  {:>9.6}  {:>9.6}  {:>9.6}  {says}", p.value, p.estimate, p.low, p.high);
        }
        let _ = writeln!(out, "not solved exactly: {}", self.why);
        out
    }

    fn json(&self) -> serde_json::Value {
        let probe = |p: &Probe| json!({ "value": p.value, "estimate": p.estimate, "ci_low": p.low, "ci_high": p.high, "verdict": format!("{:?}", p.verdict).to_lowercase() });
        json!({
            "answer": self.answer(),
            "name": self.name,
            "key": self.key,
            "method": "sampled",
            "trials": self.trials,
            "seed": self.seed,
            "why": self.why,
            "target": target_json(&self.metric, &self.target),
            "probes": self.probes.iter().map(probe).collect::<Vec<_>>(),
        })
    }

    fn csv(&self) -> Option<String> {
        Some(rows_csv(None, &self.rows()))
    }
}
