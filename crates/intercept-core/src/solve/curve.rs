//! A decimal key solved exactly: the metric as a polynomial in the key, and where it meets the target.
//!
//! A decimal key is a chance (`p_end_after_round`): it sets the weights of chance nodes, so each leaf's
//! probability, and any probability the trial reports, is a polynomial in it, and a mean over some trials is
//! the ratio of two. [`solve`] finds both polynomials exactly without a second interpreter: it solves the
//! scenario exactly at exact decimal values of the key spread over the range and interpolates
//! ([`Newton`]), adding values until [`CHECKS`] in a row lie on the polynomial so far (a degree found, and
//! checked). The key's values that meet the target are then the pieces of the range between the roots of
//! `numerator - target * base`, isolated by Sturm sequences and narrowed by bisection on rationals
//! ([`poly::roots`]): each root inside an exact interval, with the metric's slope there.

use std::fmt::Write;

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use serde_json::json;

use super::poly::{self, Newton, Poly, Root};
use super::{
    Asked, BadSolve, MOST_WORK, Measure, Relation, Row, Target, Vary, amount, header, rows_csv, target_json, wanted,
    work_words,
};
use crate::config::Scenario;
use crate::config::set::{self, Number, Setting};
use crate::exact::{ExactTally, mean, metric_fractions};
use crate::fraction::{self, BigRational};
use crate::metrics::MetricKind;
use crate::runner;
use crate::view::View;

/// How many decimals a root is given to, unless asked otherwise.
pub const DIGITS: usize = 6;

/// The most decimals a root may be asked to.
pub const MOST_DIGITS: usize = 30;

/// How many values in a row must lie on the polynomial found so far before its degree is taken as found.
pub const CHECKS: usize = 3;

/// The highest degree looked for: the most values solved is this and [`CHECKS`] more, and one more.
pub const MOST_DEGREE: usize = 60;

/// The most decimals a range's end may have: the values solved must be exact decimals the config reads
/// exactly (18 places at most), and they split the range into 128ths, 7 places more.
const RANGE_DECIMALS: usize = 10;

/// How many equal steps the table shows across the range.
const STEPS: i64 = 10;

/// A decimal key's metric, exactly, across a range.
#[derive(Clone, Debug)]
pub struct Curve {
    pub name: String,
    pub key: String,
    pub metric: String,
    pub target: Target,
    /// The key's value in the config.
    pub current: f64,
    pub range: (BigRational, BigRational),
    /// The metric is `numerator / base` (`base` is 1 but for a mean over some trials).
    pub numerator: Poly,
    pub base: Poly,
    /// How many exact solves found them.
    pub solves: usize,
    /// The distinct values of the key where the metric equals the target, in order.
    pub roots: Vec<Root>,
    /// The pieces of the range where the metric meets the target, in order.
    pub spans: Vec<(Bound, Bound)>,
    /// How many decimals a root is given to.
    pub digits: usize,
    /// Whether the metric is a chance (else a mean).
    pub chance: bool,
    /// The units of exact work the solves spent in all.
    pub work: u64,
    /// Why the scenario never reads the key, where its rule set can tell ([`crate::ruleset::Rules::unread`]).
    pub unread: Option<String>,
    /// The metrics whose exact values differ between the values of the key solved.
    pub changes: Vec<String>,
}

/// An end of a span: an end of the range, or a root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Lo,
    Hi,
    Root(usize),
}

/// Finds the metric of `target` as a function of `vary`'s decimal key exactly, and where it meets the target,
/// roots given to `digits` decimals.
pub fn solve(base: &Scenario, target: &Target, vary: &Vary, digits: usize) -> Result<Curve, BadSolve> {
    let file = base.file.display();
    let Asked { key, current, metric, index, chance } = Asked::new(base, target, &vary.key)?;
    let Number::Float(current) = current else {
        return Err(BadSolve(format!("{file}: --vary {key}: not a decimal of the config")));
    };
    let resolve = |x: &BigRational| {
        let value = decimal(x).ok_or_else(|| BadSolve(format!("{file}: --vary {key}: {x} is not a decimal")))?;
        set::apply(base, &[Setting { key: key.clone(), value: value.clone() }])
            .map_err(|e| BadSolve(format!("{file}: --vary {key}: the rules refuse {value}: {e}")))
    };
    let range = match &vary.range {
        Some((lo, hi)) if places(lo).max(places(hi)) <= RANGE_DECIMALS => (lo.clone(), hi.clone()),
        Some(_) => {
            return Err(BadSolve(format!(
                "{file}: --vary {key}: allowed: a range whose ends have at most {RANGE_DECIMALS} decimals"
            )));
        }
        None if (0.0..=1.0).contains(&current) => (BigRational::zero(), BigRational::one()),
        None => {
            return Err(BadSolve(format!(
                "{file}: --vary {key}: {current} is not a chance, so give the range to search: {key}=LO..HI"
            )));
        }
    };
    let def = &base.rules.metrics().defs()[index];
    let (mut numerator, mut denominator) = (Newton::default(), Newton::default());
    let (mut in_a_row, mut walked, mut solves) = (0, 0u64, 0);
    // Every metric at the first value, and those any later value changes: what a key that leaves the
    // metric asked for alone does change.
    let (mut first, mut moved) = (None, vec![false; base.rules.metrics().defs().len()]);
    for t in dyadic().take(MOST_DEGREE + CHECKS + 1) {
        let x = &range.0 + (&range.1 - &range.0) * t;
        let scenario = resolve(&x)?;
        let solved = runner::solve(&scenario).map_err(|e| {
            BadSolve(format!(
                "{file}: {key} = {}: {e}; solving a decimal key needs exact solves",
                decimal(&x).unwrap_or_default()
            ))
        })?;
        let all = metric_fractions(scenario.rules.metrics(), &solved);
        let first = first.get_or_insert_with(|| all.clone());
        moved.iter_mut().zip(first.iter().zip(&all)).for_each(|(m, (a, b))| *m |= a != b);
        let (n, b) = parts(&scenario, &solved, index, def.kind);
        let on = numerator.add(x.clone(), &n) & denominator.add(x, &b);
        (in_a_row, solves) = (if on { in_a_row + 1 } else { 0 }, solves + 1);
        walked = walked.saturating_add(solved.work);
        if in_a_row == CHECKS {
            break;
        }
        if walked.saturating_add(solved.work) > MOST_WORK {
            return Err(BadSolve(format!(
                "{file}: --vary {key}: {solves} exact solves of {} each have taken {}, and the next would pass the {} \
                 a search may; scan it with `sweep`",
                work_words(solved.work),
                work_words(walked),
                crate::present::thousands(MOST_WORK)
            )));
        }
    }
    if in_a_row < CHECKS {
        return Err(BadSolve(format!(
            "{file}: --vary {key}: {metric} is not a polynomial of degree at most {MOST_DEGREE} in {key} (as it is \
             when {key} is the chance of a chance node), so it has no exact root here; scan it with `sweep`"
        )));
    }
    let (numerator, base_poly) = (numerator.poly(), denominator.poly());
    let unread = base.rules.unread(&key);
    let defs = base.rules.metrics().defs();
    let changes = defs.iter().zip(&moved).filter(|(_, m)| **m).map(|(d, _)| d.name.clone()).collect();
    let mut curve = Curve {
        name: base.run.name.clone(),
        key,
        metric,
        target: target.clone(),
        current,
        range,
        numerator,
        base: base_poly,
        solves,
        roots: Vec::new(),
        spans: Vec::new(),
        digits,
        chance,
        work: walked,
        unread,
        changes,
    };
    curve.find_spans();
    Ok(curve)
}

/// The numerator and base of metric `index` of the scenario solved: a chance over 1, or a mean's sum over
/// the chance of the trials it is taken over.
fn parts(scenario: &Scenario, solved: &ExactTally, index: usize, kind: MetricKind) -> (BigRational, BigRational) {
    let metrics = scenario.rules.metrics();
    let def = &metrics.defs()[index];
    match kind {
        MetricKind::Probability => (solved.fractions[def.slot].clone(), BigRational::one()),
        MetricKind::Distribution { .. } => (
            mean(&solved.fractions, def.slot, def.width()),
            metrics.base_of(def, &solved.fractions, BigRational::one()),
        ),
    }
}

/// 0, 1, 1/2, 1/4, 3/4, 1/8, 3/8, ...: each new value halves a gap, so any number of them is spread over the
/// range, and all are short decimals.
fn dyadic() -> impl Iterator<Item = BigRational> {
    let ends = [BigRational::zero(), BigRational::one()].into_iter();
    let halves = (1u32..).flat_map(|level| {
        let d = BigInt::from(2).pow(level);
        (1..(1u64 << level)).step_by(2).map(move |j| BigRational::new(j.into(), d.clone()))
    });
    ends.chain(halves)
}

/// The decimal places `x` needs, or more than [`RANGE_DECIMALS`] when it is not a short decimal.
fn places(x: &BigRational) -> usize {
    (0..=RANGE_DECIMALS)
        .find(|&k| (x * BigRational::from_integer(BigInt::from(10).pow(k as u32))).is_integer())
        .unwrap_or(RANGE_DECIMALS + 1)
}

/// `x` written as an exact decimal, if it has at most 30 places.
pub fn decimal(x: &BigRational) -> Option<String> {
    let k = (0..=30u32).find(|&k| (x * BigRational::from_integer(BigInt::from(10).pow(k))).is_integer())?;
    let scaled = (x * BigRational::from_integer(BigInt::from(10).pow(k))).to_integer();
    let digits = scaled.magnitude().to_string();
    let sign = if scaled.is_negative() { "-" } else { "" };
    if k == 0 {
        return Some(format!("{sign}{digits}.0"));
    }
    let padded = format!("{digits:0>width$}", width = k as usize + 1);
    let (whole, frac) = padded.split_at(padded.len() - k as usize);
    Some(format!("{sign}{whole}.{frac}"))
}

/// `x` rounded to `digits` decimals, for reading.
fn rounded(x: &BigRational, digits: usize) -> String {
    decimal(x)
        .filter(|d| d.split('.').nth(1).is_some_and(|f| f.len() <= digits))
        .unwrap_or_else(|| format!("{:.digits$}", fraction::to_f64(x)))
}

/// `x` rounded down (`up` false) or up to `digits` decimals, exactly.
fn outward(x: &BigRational, digits: usize, up: bool) -> String {
    let scale = BigRational::from_integer(BigInt::from(10).pow(digits as u32));
    let scaled = x * &scale;
    let whole = if up { scaled.ceil() } else { scaled.floor() };
    let text = decimal(&(whole / scale)).unwrap_or_default();
    let places = text.split('.').nth(1).map_or(0, str::len);
    text + &"0".repeat(digits.saturating_sub(places))
}

impl Curve {
    /// The metric at `x`, exactly; `None` where it is a mean over no trials.
    pub fn at(&self, x: &BigRational) -> Option<BigRational> {
        let b = self.base.eval(x);
        (!b.is_zero()).then(|| self.numerator.eval(x) / b)
    }

    /// The metric's slope at `x`: d(numerator / base) / dx.
    pub fn slope(&self, x: &BigRational) -> f64 {
        let (n, b) = (self.numerator.eval(x), self.base.eval(x));
        let (dn, db) = (self.numerator.derivative().eval(x), self.base.derivative().eval(x));
        if b.is_zero() {
            return f64::NAN;
        }
        fraction::to_f64(&((dn * &b - n * db) / (&b * &b)))
    }

    /// `numerator - target * base`: zero where the metric equals the target, the same sign as its
    /// difference from it elsewhere (the base is a chance, never negative).
    fn gap(&self) -> Poly {
        self.numerator.minus_times(&self.target.value, &self.base)
    }

    fn find_spans(&mut self) {
        let (lo, hi) = self.range.clone();
        let gap = self.gap();
        if gap.is_zero() {
            self.spans = vec![(Bound::Lo, Bound::Hi)];
            return;
        }
        let width = BigRational::new(1.into(), BigInt::from(10).pow(self.digits as u32 + 2));
        let mut roots = poly::roots(&gap, &lo, &hi, &width);
        // Each piece: where it starts and ends, and a point inside it (none when it is empty).
        let mut pieces: Vec<(Bound, Bound, Option<BigRational>)> = Vec::new();
        let first = roots.first().map_or(Some(hi.clone()), |r| (r.exact() != Some(&lo)).then(|| lo.clone()));
        pieces.push((Bound::Lo, roots.first().map_or(Bound::Hi, |_| Bound::Root(0)), first));
        for i in 0..roots.len() {
            let point = roots[i].exact().cloned().unwrap_or_else(|| roots[i].mid());
            pieces.push((Bound::Root(i), Bound::Root(i), Some(point)));
            let inside = if i + 1 < roots.len() {
                let (left, right) = roots.split_at_mut(i + 1);
                Some(poly::between(&gap, &left[i], &mut right[0]))
            } else {
                (roots[i].exact() != Some(&hi)).then(|| hi.clone())
            };
            let end = if i + 1 < roots.len() { Bound::Root(i + 1) } else { Bound::Hi };
            pieces.push((Bound::Root(i), end, inside));
        }
        let mut spans: Vec<(Bound, Bound)> = Vec::new();
        for (from, to, point) in pieces {
            let Some(point) = point else { continue };
            let meets = match (from, to) {
                (Bound::Root(i), Bound::Root(j)) if i == j => !self.base.eval(&point).is_zero(),
                _ => self.meets_at(&point),
            };
            match spans.last_mut() {
                Some(last) if meets && last.1 == from => last.1 = to,
                _ if meets => spans.push((from, to)),
                _ => {}
            }
        }
        self.roots = roots;
        self.spans = spans;
    }

    /// Whether the metric meets the target at `x`, a point that is not a root.
    fn meets_at(&self, x: &BigRational) -> bool {
        self.at(x).is_some_and(|v| {
            self.target.relation != Relation::Equal && self.target.relation.holds(&v, &self.target.value)
        })
    }

    /// A bound as it reads.
    fn bound(&self, b: Bound) -> String {
        match b {
            Bound::Lo => rounded(&self.range.0, self.digits),
            Bound::Hi => rounded(&self.range.1, self.digits),
            Bound::Root(i) => self.root_text(&self.roots[i]),
        }
    }

    fn root_text(&self, r: &Root) -> String {
        match r.exact() {
            Some(x) => decimal(x).unwrap_or_else(|| format!("{:.digits$}", fraction::to_f64(x), digits = self.digits)),
            None => format!("{:.digits$}", fraction::to_f64(&r.mid()), digits = self.digits),
        }
    }

    /// A span in words: "at most 0.381966", "from 0.2 to 0.4", "0.381966".
    fn span_words(&self, (from, to): (Bound, Bound)) -> String {
        match (from, to) {
            (Bound::Lo, Bound::Hi) => format!("anywhere from {} to {}", self.bound(from), self.bound(to)),
            (Bound::Lo, _) => format!("at most {}", self.bound(to)),
            (_, Bound::Hi) => format!("at least {}", self.bound(from)),
            (a, b) if a == b => self.bound(a),
            _ => format!("from {} to {}", self.bound(from), self.bound(to)),
        }
    }

    /// Where each root lies exactly, and the metric's slope there: "exactly 2/3, slope -1" or "in
    /// [0.38196600, 0.38196602], slope -2.2361", each led by the root when there are several.
    fn root_details(&self) -> Vec<String> {
        let d = self.digits + 2;
        let several = self.roots.len() > 1;
        let detail = |r: &Root| {
            let (at, slope) = match r.exact() {
                Some(x) if decimal(x).is_some() => ("exactly".to_owned(), self.slope(x)),
                Some(x) => (format!("{} exactly", fraction::text(x)), self.slope(x)),
                None => {
                    (format!("in [{}, {}]", outward(&r.lo, d, false), outward(&r.hi, d, true)), self.slope(&r.mid()))
                }
            };
            let lead = if several { format!("{} ", self.root_text(r)) } else { String::new() };
            format!("{lead}{at}, slope {slope:.4}")
        };
        self.roots.iter().map(detail).collect()
    }

    /// The value of the range whose metric is nearest the target: an end, or a peak or trough between.
    fn closest(&self) -> (String, f64) {
        let (lo, hi) = &self.range;
        let mut candidates: Vec<(String, f64)> = Vec::new();
        for x in [lo, hi] {
            if let Some(v) = self.at(x) {
                candidates.push((
                    format!("{} gives {}", rounded(x, self.digits), amount(&v, self.chance)),
                    fraction::to_f64(&v),
                ));
            }
        }
        let turn = self
            .numerator
            .derivative()
            .times(&self.base)
            .minus_times(&BigRational::one(), &self.numerator.times(&self.base.derivative()));
        if !turn.is_zero() {
            let width = BigRational::new(1.into(), BigInt::from(10).pow(self.digits as u32 + 2));
            for r in poly::roots(&turn, lo, hi, &width) {
                if let Some(v) = self.at(&r.mid()) {
                    let v = fraction::to_f64(&v);
                    let about = if self.chance { format!("{:.1}%", v * 100.0) } else { format!("{v:.4}") };
                    candidates.push((format!("about {} gives about {about}", self.root_text(&r)), v));
                }
            }
        }
        let want = fraction::to_f64(&self.target.value);
        let distance = |c: &(String, f64)| (c.1 - want).abs();
        candidates.into_iter().min_by(|a, b| distance(a).total_cmp(&distance(b))).unwrap_or_default()
    }

    /// The values that meet the target, as spans ("at most 0.381966"); `None` when none does.
    pub fn meeting(&self) -> Option<String> {
        let spans: Vec<String> = self.spans.iter().map(|&s| self.span_words(s)).collect();
        (!spans.is_empty()).then(|| spans.join(" or "))
    }

    /// Whether the metric is the same at every value of the key: the rules never read it here.
    fn constant(&self) -> bool {
        self.numerator.degree() == 0 && self.base.degree() == 0
    }

    /// The answer for a key that changes nothing: the metric's one value, whether it meets the target, and
    /// why the rules pass the key by.
    fn unchanged(&self) -> String {
        let (key, metric) = (&self.key, &self.metric);
        let (lo, hi) = (self.bound(Bound::Lo), self.bound(Bound::Hi));
        let Some(value) = self.at(&self.range.0) else {
            return format!("{metric} has no value for any {key} from {lo} to {hi}.");
        };
        let wanted = wanted(&self.target, self.chance);
        let verdict = match self.target.relation.holds(&value, &self.target.value) {
            true => format!("it is {wanted} for every {key} from {lo} to {hi}"),
            false => format!("no value of {key} from {lo} to {hi} makes it {wanted}"),
        };
        let why = match (&self.unread, self.changes.as_slice()) {
            (Some(why), _) => format!("{}{}", why[..1].to_uppercase(), &why[1..]),
            (None, []) => "It changes none of the scenario's metrics: under the readings the scenario rests on, \
                           the rules do not read it"
                .to_owned(),
            (None, changes) => {
                let shown: Vec<&str> = changes.iter().take(3).map(String::as_str).collect();
                let more = if changes.len() > 3 { format!(" and {} more", changes.len() - 3) } else { String::new() };
                format!("The rules do read it: it changes {}{more}, only not {metric}", shown.join(", "))
            }
        };
        format!(
            "{key} does not change {metric} in this scenario: {metric} is {} whatever its value, so {verdict}. {why}.",
            amount(&value, self.chance)
        )
    }

    /// The answer in a sentence or two.
    pub fn answer(&self) -> String {
        let (key, metric) = (&self.key, &self.metric);
        if self.constant() {
            return self.unchanged();
        }
        if self.spans.is_empty() {
            let (lo, hi) = (self.bound(Bound::Lo), self.bound(Bound::Hi));
            return format!(
                "No value of {key} from {lo} to {hi} gives {metric} {}; the closest: {}.",
                wanted(&self.target, self.chance),
                self.closest().0
            );
        }
        let spans: Vec<String> = self.spans.iter().map(|&s| self.span_words(s)).collect();
        let mut out = format!("{metric} is {} when {key} is {}", wanted(&self.target, self.chance), spans.join(" or "));
        let details = self.root_details();
        if !details.is_empty() {
            let _ = write!(out, " ({})", details.join("; "));
        }
        out + "."
    }

    /// `n` equal steps across the range: `n + 1` values of the key.
    pub fn steps(&self, n: i64) -> Vec<BigRational> {
        let (lo, hi) = &self.range;
        (0..=n).map(|k| lo + (hi - lo) * BigRational::new(k.into(), n.into())).collect()
    }

    /// The table's rows: the metric exactly at [`STEPS`] equal steps across the range.
    pub fn rows(&self) -> Vec<Row> {
        let row = |x: BigRational| {
            let exact = self.at(&x)?;
            let meets = self.target.relation.holds(&exact, &self.target.value);
            let (label, value) = (rounded(&x, MOST_DIGITS), fraction::to_f64(&x));
            Some(Row { outer: None, label, value, measure: Measure::Exact(exact), meets: Some(meets) })
        };
        self.steps(STEPS).into_iter().filter_map(row).collect()
    }

    fn degree_words(&self) -> String {
        let n = self.numerator.degree();
        if self.constant() {
            return "the same at every value of the key".to_owned();
        }
        match self.base.degree() {
            0 => format!("a polynomial of degree {n} in the key"),
            d => format!("a ratio of polynomials of degrees {n} and {d} in the key"),
        }
    }
}

impl View for Curve {
    fn text(&self) -> String {
        let mut out = format!("{}\n\n", self.answer());
        let _ = writeln!(out, "{} is {}, found from {} exact solves.\n", self.metric, self.degree_words(), self.solves);
        let _ = writeln!(
            out,
            "{:>10}  {:>9}  {:<24}  {}",
            "value",
            if self.chance { "chance" } else { "mean" },
            "exact",
            header(&self.metric, &self.target)
        );
        for x in self.steps(STEPS) {
            let Some(v) = self.at(&x) else { continue };
            let here = if fraction::to_f64(&x) == self.current { " (the config's)" } else { "" };
            let meets = if self.target.relation.holds(&v, &self.target.value) { "yes" } else { "no" };
            let (chance, exact) = (fraction::to_f64(&v), fraction::text(&v));
            let exact = match fraction::short(&exact) {
                Some(short) => short.to_owned(),
                None if !exact.contains('/') => exact,
                None => format!("{chance:.12}"),
            };
            let _ = writeln!(out, "{:>10}  {chance:>9.6}  {exact:<24}  {meets}{here}", rounded(&x, self.digits));
        }
        out
    }

    fn json(&self) -> serde_json::Value {
        let fractions = |p: &Poly| p.coefficients().iter().map(fraction::text).collect::<Vec<_>>();
        let root = |r: &Root| {
            json!({ "value": fraction::to_f64(&r.mid()), "lo": fraction::text(&r.lo), "hi": fraction::text(&r.hi),
                    "exact": r.exact().map(fraction::text), "slope": self.slope(&r.mid()) })
        };
        let bound = |b: Bound| match b {
            Bound::Lo => json!(fraction::to_f64(&self.range.0)),
            Bound::Hi => json!(fraction::to_f64(&self.range.1)),
            Bound::Root(i) => json!(fraction::to_f64(&self.roots[i].mid())),
        };
        let points = self.steps(STEPS).iter().filter_map(|x| {
            self.at(x).map(|v| json!({ "value": fraction::to_f64(x), "exact": fraction::to_f64(&v), "exact_fraction": fraction::text(&v), "meets": self.target.relation.holds(&v, &self.target.value) }))
        }).collect::<Vec<_>>();
        json!({
            "answer": self.answer(),
            "name": self.name,
            "key": self.key,
            "current": self.current,
            "range": [fraction::to_f64(&self.range.0), fraction::to_f64(&self.range.1)],
            "target": target_json(&self.metric, &self.target),
            "numerator": fractions(&self.numerator),
            "base": fractions(&self.base),
            "solves": self.solves,
            "roots": self.roots.iter().map(root).collect::<Vec<_>>(),
            "spans": self.spans.iter().map(|&(a, b)| json!([bound(a), bound(b)])).collect::<Vec<_>>(),
            "points": points,
        })
    }

    fn csv(&self) -> Option<String> {
        Some(rows_csv(None, &self.rows()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::solve::r;

    #[test]
    fn decimals_are_written_exactly() {
        assert_eq!(decimal(&r(3, 8)).as_deref(), Some("0.375"));
        assert_eq!(decimal(&r(1, 1)).as_deref(), Some("1.0"));
        assert_eq!(decimal(&r(-1, 20)).as_deref(), Some("-0.05"));
        assert_eq!(decimal(&r(1, 3)), None);
        assert_eq!(outward(&r(1, 3), 4, false), "0.3333");
        assert_eq!(outward(&r(1, 3), 4, true), "0.3334");
    }

    #[test]
    fn the_values_solved_halve_the_gaps() {
        let first: Vec<BigRational> = dyadic().take(5).collect();
        assert_eq!(first, [r(0, 1), r(1, 1), r(1, 2), r(1, 4), r(3, 4)]);
        assert!(dyadic().take(MOST_DEGREE + CHECKS + 1).all(|t| places(&t) <= 7));
    }
}
