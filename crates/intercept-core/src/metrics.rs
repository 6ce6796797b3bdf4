//! Metrics: what a trial reports, and the [`Recorder`]s that count it.
//!
//! A model registers its metrics once, at resolve time, in a [`Metrics`] set: a *probability* metric counts
//! the trials in which something happened (`target.intercepted`), a *distribution* metric counts trials by a
//! small whole-number value (`target.interceptions`). Each metric owns one or more *slots* in a flat counter
//! array, and a trial reports by slot through a [`Recorder`], so the per-trial path is an array increment and
//! names are looked up only when results are written. [`Tally`] is the counting recorder of the sampler; the
//! enumerator and the per-trial writer bring their own.
//!
//! Three kinds of count are never made per trial, because they follow from the others or from the scenario:
//! value 0 of a distribution (trials minus the other values), a *derived* probability such as "at least one
//! interception" (the sum of a distribution's values from k up), and a *fixed* one settled at resolve time
//! (a unit's eligibility). [`Metrics::complete`] fills them in once per chunk, which keeps the hot path to the
//! increments that carry information.

use serde::Serialize;

crate::refusal! {
    /// Why counts read back from a file cannot be a run's: what is wrong with them, in one sentence.
    Implausible
}

/// A handle on a metric's first counter slot, handed out by [`Metrics`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Metric(u32);

impl Metric {
    /// Its first counter slot: for a distribution, the slot of value 0 (value `v` is `slot() + v`).
    pub(crate) fn slot(self) -> usize {
        self.0 as usize
    }
}

/// Whether a metric is a yes/no event or a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricKind {
    /// Counted in trials where the event happened; estimated with a Wilson interval.
    Probability,
    /// Counted per value `0..=max`; summarised by its mean and written whole to `distributions.parquet`.
    Distribution { max: u32 },
}

impl MetricKind {
    /// The summary's name for the estimate: `probability`, or `mean` for a distribution.
    pub fn label(self) -> &'static str {
        match self {
            MetricKind::Probability => "probability",
            MetricKind::Distribution { .. } => "mean",
        }
    }
}

/// One registered metric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetricDef {
    pub name: String,
    pub kind: MetricKind,
    /// Index of the metric's first slot.
    pub slot: usize,
    /// How a probability that trials do not report is filled in, if it is one of those.
    pub completion: Option<Completion>,
    /// One line for people: what the metric counts, with the rule IDs it follows ([`Metrics::describe`]).
    pub about: String,
    /// For a distribution counted only over the trials in which another metric happened (a group's movement
    /// over the trials it rolled in): that probability metric's index. Its value 0 is then that metric's
    /// count minus the other values, and its probabilities and mean are conditional on it.
    pub given: Option<usize>,
    /// Whether a distribution's values name places (squares, locations) rather than count something: its
    /// mean says nothing, so it is left out of the means and drawn by its rule set's own pictures instead.
    pub place: bool,
}

/// A probability that trials do not report, and how it is filled in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// It happened iff the distribution metric with index `source` took a value of at least `at_least`.
    AtLeast { source: usize, at_least: u32 },
    /// It happens in every trial or in none, as settled at resolve time.
    Fixed(bool),
}

impl MetricDef {
    /// How many counter slots the metric uses.
    pub fn width(&self) -> usize {
        match self.kind {
            MetricKind::Probability => 1,
            MetricKind::Distribution { max } => max as usize + 1,
        }
    }
}

/// The metrics of a scenario, in the order they are reported.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    defs: Vec<MetricDef>,
    slots: usize,
}

impl Metrics {
    /// Registers a yes/no metric.
    pub fn probability(&mut self, name: impl Into<String>) -> Metric {
        self.add(name.into(), MetricKind::Probability)
    }

    /// Registers a yes/no metric with its description ([`Metrics::describe`]).
    pub fn described_probability(&mut self, name: impl Into<String>, about: impl Into<String>) -> Metric {
        let m = self.probability(name);
        self.describe(m, about)
    }

    /// Registers a count metric taking values `0..=max`.
    pub fn distribution(&mut self, name: impl Into<String>, max: u32) -> Metric {
        self.add(name.into(), MetricKind::Distribution { max })
    }

    /// Registers a distribution whose values `0..=max` name places rather than count something ([`MetricDef::place`]).
    pub fn places(&mut self, name: impl Into<String>, max: u32) -> Metric {
        let m = self.distribution(name, max);
        self.defs.last_mut().expect("just added").place = true;
        m
    }

    /// Registers a count metric taking values `0..=max` in the trials where the probability metric `given`
    /// happened, and no value in the others ([`MetricDef::given`]). `given` must be reported by the trials.
    pub fn distribution_given(&mut self, name: impl Into<String>, max: u32, given: Metric) -> Metric {
        let index = self.index_of(given);
        let def = &self.defs[index];
        assert!(def.kind == MetricKind::Probability && def.completion.is_none(), "given a reported probability");
        let m = self.distribution(name, max);
        self.defs.last_mut().expect("just added").given = Some(index);
        m
    }

    /// The count (or probability) of the trials `def` is counted over, from `counts` over `total` trials:
    /// its `given` metric's, or all of them.
    pub fn base_of<T: Clone>(&self, def: &MetricDef, counts: &[T], total: T) -> T {
        def.given.map_or(total, |g| counts[self.defs[g].slot].clone())
    }

    /// Gives `metric` its one-line description: what it counts, in the rules' words, with the rule IDs it
    /// follows. Shown beside the metric's name wherever people read results.
    pub fn describe(&mut self, metric: Metric, about: impl Into<String>) -> Metric {
        let index = self.index_of(metric);
        self.defs[index].about = about.into();
        metric
    }

    /// Registers a probability that is not reported by trials but derived from the distribution metric
    /// `source`: the chance that it takes a value of at least `at_least`.
    pub fn at_least(&mut self, name: impl Into<String>, source: Metric, at_least: u32) -> Metric {
        let index = self.index_of(source);
        assert!(matches!(self.defs[index].kind, MetricKind::Distribution { .. }), "derived from a distribution");
        self.completed(name.into(), Completion::AtLeast { source: index, at_least })
    }

    /// Registers a probability settled at resolve time: 1 if `happens`, else 0, with no per-trial cost.
    pub fn fixed(&mut self, name: impl Into<String>, happens: bool) -> Metric {
        self.completed(name.into(), Completion::Fixed(happens))
    }

    /// The index of the registered metric `m`.
    /// Where `m` is in `defs`: they are registered in slot order, so a binary search (a scan made registering
    /// 8,000 interceptors' metrics take 0.8 s).
    fn index_of(&self, m: Metric) -> usize {
        self.defs.binary_search_by_key(&(m.0 as usize), |d| d.slot).expect("a registered metric")
    }

    fn completed(&mut self, name: String, completion: Completion) -> Metric {
        let m = self.add(name, MetricKind::Probability);
        self.defs.last_mut().expect("just added").completion = Some(completion);
        m
    }

    fn add(&mut self, name: String, kind: MetricKind) -> Metric {
        let slot = self.slots;
        let def = MetricDef { name, kind, slot, completion: None, about: String::new(), place: false, given: None };
        self.slots += def.width();
        self.defs.push(def);
        Metric(slot as u32)
    }

    /// The registered metrics, in registration order.
    pub fn defs(&self) -> &[MetricDef] {
        &self.defs
    }

    /// The total number of counter slots.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Fills in the counts trials do not report (value 0 of each distribution, derived and fixed
    /// probabilities), given per-slot `counts` over `total` trials. Works for integer counts and exact
    /// probabilities alike.
    pub fn complete<T>(&self, counts: &mut [T], total: T)
    where
        T: Clone + Default + std::iter::Sum<T> + std::ops::Sub<Output = T>,
    {
        for def in &self.defs {
            if let MetricKind::Distribution { max } = def.kind {
                let rest: T = counts[def.slot + 1..=def.slot + max as usize].iter().cloned().sum();
                counts[def.slot] = self.base_of(def, counts, total.clone()) - rest;
            }
        }
        for def in &self.defs {
            counts[def.slot] = match def.completion {
                Some(Completion::AtLeast { source, at_least }) => {
                    let src = &self.defs[source];
                    counts[src.slot + at_least as usize..src.slot + src.width()].iter().cloned().sum()
                }
                Some(Completion::Fixed(happens)) => {
                    if happens {
                        total.clone()
                    } else {
                        T::default()
                    }
                }
                None => counts[def.slot].clone(),
            };
        }
    }

    /// The same completion for per-trial rows: `columns[m][t]` is metric `m`'s value in trial `t`.
    pub fn complete_rows(&self, columns: &mut [Vec<u32>]) {
        for (m, def) in self.defs.iter().enumerate() {
            let Some(completion) = def.completion else { continue };
            let values: Vec<u32> = match completion {
                Completion::AtLeast { source, at_least } => {
                    columns[source].iter().map(|&v| u32::from(v >= at_least)).collect()
                }
                Completion::Fixed(happens) => vec![u32::from(happens); columns[m].len()],
            };
            columns[m] = values;
        }
    }

    /// Checks counts read back from a file against these metrics and `trials`: one count per slot, no
    /// probability counted in more trials than there were, each distribution's counts adding up to the
    /// trials, and the filled-in counts ([`Metrics::complete`]) what they must be. Says what is wrong.
    pub fn check_counts(&self, counts: &[u64], trials: u64) -> Result<(), Implausible> {
        if counts.len() != self.slots {
            return Err(Implausible::from(format!(
                "it holds {} counts where the run's metrics have {}",
                counts.len(),
                self.slots
            )));
        }
        for def in &self.defs {
            let mine = &counts[def.slot..def.slot + def.width()];
            let name = &def.name;
            match def.kind {
                MetricKind::Probability if mine[0] > trials => {
                    return Err(Implausible::from(format!("{name} is counted in {} trials of {trials}", mine[0])));
                }
                MetricKind::Distribution { .. } if checked_sum(mine) != Some(self.base_of(def, counts, trials)) => {
                    let base = self.base_of(def, counts, trials);
                    return Err(Implausible::from(format!("the counts of {name} do not add up to its {base} trials")));
                }
                _ => {}
            }
            let due = def.completion.map(|c| self.completion_count(counts, trials, c));
            if let Some(due) = due.filter(|&d| d != Some(mine[0])) {
                let due = due.map_or("more than fit in 64 bits".to_owned(), |d| d.to_string());
                return Err(Implausible::from(format!(
                    "{name} is counted in {} trials where the other counts give {due}",
                    mine[0]
                )));
            }
        }
        Ok(())
    }

    /// What a [`Completion`] gives, from consistent `counts`; `None` on overflow.
    fn completion_count(&self, counts: &[u64], trials: u64, completion: Completion) -> Option<u64> {
        match completion {
            Completion::Fixed(happens) => Some(if happens { trials } else { 0 }),
            Completion::AtLeast { source, at_least } => {
                let src = &self.defs[source];
                checked_sum(&counts[src.slot + at_least as usize..src.slot + src.width()])
            }
        }
    }

    /// For every slot, the index of its metric and the value it counts (0 or 1 for probability metrics).
    pub fn slot_owners(&self) -> Vec<(usize, u32)> {
        let mut owners = Vec::with_capacity(self.slots);
        for (m, def) in self.defs.iter().enumerate() {
            match def.kind {
                MetricKind::Probability => owners.push((m, 1)),
                MetricKind::Distribution { max } => owners.extend((0..=max).map(|v| (m, v))),
            }
        }
        owners
    }
}

/// Where a trial reports what happened. Each metric is reported at most once per trial; metrics with a
/// [`Completion`] are never reported.
pub trait Recorder {
    /// Counts one occurrence of slot `slot`.
    fn slot(&mut self, slot: usize);

    /// The probability metric `m` happened in this trial.
    #[inline]
    fn hit(&mut self, m: Metric) {
        self.slot(m.0 as usize);
    }

    /// The distribution metric `m` took value `v` in this trial. Value 0 is not counted: it is whatever the
    /// other values leave ([`Metrics::complete`]).
    #[inline]
    fn value(&mut self, m: Metric, v: u32) {
        if v > 0 {
            self.slot((m.0 + v) as usize);
        }
    }

    /// Reports `m` as happened when `yes` holds.
    #[inline]
    fn flag(&mut self, m: Metric, yes: bool) {
        if yes {
            self.hit(m);
        }
    }
}

/// Integer counts per slot over a number of trials: the result of a chunk, and of a whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub trials: u64,
    pub counts: Vec<u64>,
}

impl Tally {
    /// An empty tally for `metrics`.
    pub fn new(metrics: &Metrics) -> Tally {
        Tally { trials: 0, counts: vec![0; metrics.slots()] }
    }

    /// Adds `other`'s counts into this one, or says it would overflow (for counts read back from files; the
    /// engine's own counts are bounded by the trials, which fit).
    pub fn checked_merge(&mut self, other: &Tally) -> Option<()> {
        self.trials = self.trials.checked_add(other.trials)?;
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a = a.checked_add(*b)?;
        }
        Some(())
    }

    /// Adds `other`'s counts into this one.
    pub fn merge(&mut self, other: &Tally) {
        self.trials += other.trials;
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }
}

impl Recorder for Tally {
    #[inline]
    fn slot(&mut self, slot: usize) {
        self.counts[slot] += 1;
    }
}

/// The sum of `counts`, or `None` if it overflows.
fn checked_sum(counts: &[u64]) -> Option<u64> {
    counts.iter().try_fold(0u64, |sum, &c| sum.checked_add(c))
}

/// Counts nothing: for running a trial only for the picks it makes.
pub struct Ignore;

impl Recorder for Ignore {
    fn slot(&mut self, _: usize) {}
}

/// Lists the slots a trial reports, in order: one leaf of the exact tree, or one path of a memo.
pub struct SlotLog<'a>(pub &'a mut Vec<usize>);

impl Recorder for SlotLog<'_> {
    fn slot(&mut self, slot: usize) {
        self.0.push(slot);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_laid_out_in_order() {
        let mut m = Metrics::default();
        let a = m.probability("a");
        let d = m.distribution("d", 2);
        let b = m.probability("b");
        assert_eq!((a.0, d.0, b.0), (0, 1, 4));
        assert_eq!(m.slots(), 5);
        assert_eq!(m.slot_owners(), vec![(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]);
        let mut t = Tally::new(&m);
        t.value(d, 2);
        t.hit(b);
        assert_eq!(t.counts, vec![0, 0, 0, 1, 1]);
    }

    #[test]
    fn complete_fills_zero_values_and_derived_metrics() {
        let mut m = Metrics::default();
        let d = m.distribution("d", 2);
        m.at_least("any", d, 1);
        m.fixed("always", true);
        let mut counts = vec![0, 3, 2, 0, 0];
        m.complete(&mut counts, 10);
        assert_eq!(counts, vec![5, 3, 2, 5, 10]);
        let mut rows = vec![vec![0, 2, 1], vec![0, 0, 0], vec![0, 0, 0]];
        m.complete_rows(&mut rows);
        assert_eq!(rows[1], vec![0, 1, 1]);
        assert_eq!(rows[2], vec![1, 1, 1]);
    }

    #[test]
    fn counts_read_back_are_checked_against_the_metrics() {
        let mut m = Metrics::default();
        let d = m.distribution("d", 2);
        m.at_least("any", d, 1);
        m.fixed("always", true);
        m.probability("p");
        assert_eq!(m.check_counts(&[5, 3, 2, 5, 10, 4], 10), Ok(()));
        let refused = |counts: &[u64], trials| m.check_counts(counts, trials).unwrap_err();
        assert!(refused(&[5, 3, 2, 5, 10], 10).0.contains("holds 5 counts where the run's metrics have 6"));
        assert!(refused(&[5, 3, 2, 5, 10, 11], 10).0.contains("p is counted in 11 trials of 10"));
        assert!(refused(&[5, 3, 3, 6, 10, 4], 10).0.contains("the counts of d do not add up"));
        assert!(refused(&[u64::MAX, 3, 2, 5, 10, 4], 10).0.contains("the counts of d do not add up"));
        assert!(refused(&[5, 3, 2, 4, 10, 4], 10).0.contains("any is counted in 4 trials"));
        assert!(refused(&[5, 3, 2, 5, 9, 4], 10).0.contains("always is counted in 9 trials"));
        let mut t = Tally { trials: 1, counts: vec![u64::MAX] };
        assert_eq!(t.checked_merge(&Tally { trials: 1, counts: vec![1] }), None);
    }
}
