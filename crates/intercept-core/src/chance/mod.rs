//! The chance interface: every random event of a rule set is one [`Dist`] node.
//!
//! Rules never touch a random generator. They hold [`Dist`]s prepared once at resolve time (a die, a d10 table
//! row, a Bernoulli from a config probability, the sum of n dice as one node with its exact convolution) and
//! ask a [`Chance`] source to pick an outcome. Two sources implement [`Chance`]: [`Sampler`] draws from a seeded
//! generator (Monte Carlo), and the enumerator in [`crate::exact`] replays every branch with its probability.
//! Because both run the same rules code, no rule is ever written twice.
//!
//! Two samplers draw the trials of a run, chosen by the run's [`Draws`]: the default [`Sampler`] reads one
//! 64-bit word per node, so scenarios that differ in one node still share every other node's draw (common
//! random numbers); the [`PackedSampler`] cuts one uniform number into parts node by node
//! ([`Dist::decode`]), so one word serves several nodes and a known tree can be looked up instead of walked.
//! Both implement [`Source`], what the engine needs to run a chunk.

mod packed;
mod sampler;

pub use self::packed::PackedSampler;
pub(crate) use self::sampler::splitmix64;
pub use self::sampler::{Sampler, chunk_rng};

/// How a run's trials draw their random numbers (`[run] draws` in a config).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Draws {
    /// One 64-bit word per chance node ([`Sampler`]): sweeps and sensitivity runs pair their points closely.
    #[default]
    Paired,
    /// One uniform number cut node by node ([`PackedSampler`]): the fastest, but scenarios that differ in one
    /// node part ways for the rest of the trial.
    Packed,
}

/// A Monte Carlo source the engine runs chunks on: seeded per chunk, one stream per trial.
pub trait Source: Chance + Sized {
    /// The source of chunk `chunk` of a run seeded with `seed`, its first `skip` trials passed over.
    fn in_chunk(seed: u64, chunk: u64, skip: u64) -> Self;
    /// Starts the next trial's stream.
    fn next_trial(&mut self);

    /// The source of trial `trial` of a run seeded with `seed` in chunks of `chunk_size`, ready to draw:
    /// how one game of a self-play run is replayed on its own.
    fn at_trial(seed: u64, chunk_size: u64, trial: u64) -> Self {
        let mut s = Self::in_chunk(seed, trial / chunk_size, trial % chunk_size);
        s.next_trial();
        s
    }
}

/// A finite distribution over outcomes `0..len()`, with exact integer weights.
///
/// Weights are integers so that the sampler's thresholds are exact (a d10 row "0-5" is weights 4 and 6 out
/// of 10, not a float compared against 0.6) and the enumerator's probabilities are exact ratios.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dist {
    /// `cum[i]` is the total weight of outcomes `0..=i`; the last entry is the total.
    cum: Box<[u64]>,
    /// The one outcome with non-zero weight, when there is only one: picked without a draw.
    only: Option<u32>,
    /// The total weight, kept beside the handle so a draw needs no second memory access.
    total: u64,
    /// For two outcomes, the weight of outcome 0: outcome 1 is picked iff the draw is at least this.
    split: Option<u64>,
    /// Whether every outcome has weight 1 (a die, a square drawn from a region): the draw is the outcome.
    unit: bool,
    /// `bounds[i]` is where outcome `i` ends in a unit interval, in units of 2^-64: `ceil(cum[i] 2^64 / total)`,
    /// for the outcomes before the last one with a weight (which ends at 1).
    bounds: Box<[u64]>,
    /// How many outcomes lead with a zero weight: their cumulative weight 0 is at or below every draw.
    zeros: usize,
    /// The cumulative weights a draw is compared with, `cum[zeros..last live outcome]`: those before are 0,
    /// those after the total, above every draw. The sum of n dice capped at a distance leads with n zeros.
    /// A copy made once, not `cum` sliced at each pick: slicing there cost more than the shorter scan saved
    /// (callgrind, grand-armada).
    live: Box<[u64]>,
}

/// The outcome a draw picked, and the ends of its part of the interval that was open: `lo..hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub outcome: usize,
    pub lo: u64,
    pub hi: u64,
}

/// Where a part ending at `bound` (in units of 2^-64) ends within an interval `w` wide.
#[inline]
pub fn boundary(w: u64, bound: u64) -> u64 {
    ((u128::from(w) * u128::from(bound)) >> 64) as u64
}

/// `ceil(c 2^64 / total)`: where a cumulative weight `c < total` ends in a unit interval, in units of 2^-64.
pub fn bound(c: u64, total: u64) -> u64 {
    (u128::from(c) << 64).div_ceil(u128::from(total)) as u64
}

/// The part of outcome `outcome` (of `last + 1`) in an interval `w` wide, given where each outcome but the
/// last ends (`bound_at`): the one rule by which both the sampler and the memo's tape cut an interval.
#[inline]
pub fn part(outcome: usize, last: usize, w: u64, bound_at: impl Fn(usize) -> u64) -> Part {
    let lo = if outcome == 0 { 0 } else { boundary(w, bound_at(outcome - 1)) };
    let hi = if outcome == last { w } else { boundary(w, bound_at(outcome)) };
    Part { outcome, lo, hi }
}

/// The integer total a probability given as a float is scaled to when its decimal is too long to read exactly
/// (more than [`MOST_DECIMALS`] places): 2^53, so every f64 in 0..1 keeps its precision.
const PROBABILITY_SCALE: u64 = 1 << 53;

/// The most decimal places a config probability may have to be read as an exact decimal: 10^18 fits u64.
const MOST_DECIMALS: usize = 18;

/// The weight of probability `p` out of [`PROBABILITY_SCALE`].
fn scaled(p: f64) -> u64 {
    (p * PROBABILITY_SCALE as f64).round() as u64
}

/// The shortest decimal that reads back as `p` (what the config said), as `(digits, places)`: `p` is
/// `digits / 10^places`. `None` for a negative, non-finite or over-long decimal.
fn decimal(p: f64) -> Option<(u64, usize)> {
    // Display prints the shortest round-trip decimal and never an exponent: 0.4 is "0.4", 1e-7 "0.0000001".
    let text = format!("{p}");
    let (whole, places) = text.split_once('.').unwrap_or((&text, ""));
    if places.len() > MOST_DECIMALS || !whole.bytes().chain(places.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = whole.parse::<u64>().ok()?.checked_mul(10u64.pow(places.len() as u32))?;
    Some((digits.checked_add(if places.is_empty() { 0 } else { places.parse().ok()? })?, places.len()))
}

/// Integer weights in exact proportion to the decimals of `p`, over one common power of ten and reduced by
/// their greatest common divisor; `None` when a decimal is too long to read exactly.
fn decimal_weights(p: &[f64]) -> Option<Vec<u64>> {
    let decimals: Vec<(u64, usize)> = p.iter().map(|&x| decimal(x)).collect::<Option<_>>()?;
    let places = decimals.iter().map(|d| d.1).max().unwrap_or(0);
    let weights: Vec<u64> =
        decimals.iter().map(|&(d, k)| d.checked_mul(10u64.pow((places - k) as u32))).collect::<Option<_>>()?;
    weights.iter().try_fold(0u64, |t, &w| t.checked_add(w))?;
    let common = weights.iter().fold(0, |g, &w| gcd(g, w)).max(1);
    Some(weights.iter().map(|w| w / common).collect())
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Dist {
    /// A distribution with the given integer weights. At least one weight must be non-zero.
    pub fn from_weights(weights: &[u64]) -> Dist {
        let mut total = 0u64;
        let cum: Box<[u64]> = weights
            .iter()
            .map(|w| {
                total = total.checked_add(*w).expect("distribution weights overflow u64");
                total
            })
            .collect();
        assert!(total > 0, "a distribution needs a non-zero weight");
        let mut live = weights.iter().enumerate().filter(|(_, w)| **w > 0);
        let first = live.next().map(|(i, _)| i as u32);
        let only = if live.next().is_none() { first } else { None };
        // Outcomes after the last live one get no part: they end where it does, at 1.
        let last_live = weights.iter().rposition(|&w| w > 0).unwrap_or(0);
        let bounds = cum[..last_live].iter().map(|&c| bound(c, total)).collect();
        let split = (cum.len() == 2).then(|| cum[0]);
        let unit = weights.iter().all(|&w| w == 1);
        let zeros = weights.iter().take_while(|&&w| w == 0).count().min(last_live);
        // Yes/no and unit nodes never scan: an empty slice allocates nothing.
        let live = if split.is_some() || unit { Box::default() } else { cum[zeros..last_live].into() };
        Dist { cum, only, total, split, unit, bounds, zeros, live }
    }

    /// One fair die with `sides` faces: outcome `i` is the face `i + 1`.
    pub fn die(sides: u32) -> Dist {
        Dist::from_weights(&vec![1; sides as usize])
    }

    /// A yes/no event that happens with probability `yes / total`: outcome 1 is "yes", outcome 0 is "no".
    pub fn bernoulli(yes: u64, total: u64) -> Dist {
        assert!(yes <= total && total > 0, "bernoulli({yes}, {total}) is not a probability");
        Dist::from_weights(&[total - yes, yes])
    }

    /// A yes/no event with a probability given as a float (a config value), read as the exact decimal the
    /// config wrote: 0.4 is 2 in 5 ([`Dist::from_probabilities`]).
    pub fn bernoulli_f64(p: f64) -> Dist {
        assert!((0.0..=1.0).contains(&p), "probability {p} outside 0..1");
        match decimal(p) {
            // The complement is taken in the decimal: 1 - 0.7 as floats is 0.30000000000000004.
            Some((digits, places)) => {
                let total = 10u64.pow(places as u32);
                let common = gcd(total, digits);
                Dist::bernoulli(digits / common, total / common)
            }
            None => Dist::bernoulli(scaled(p), PROBABILITY_SCALE),
        }
    }

    /// A distribution over `0..p.len()` with the given probabilities (config values), read as the exact
    /// decimals the config wrote (the shortest decimal each float reads back from): 0.25 and 0.75 are weights
    /// 1 and 3 of 4. The total is the weights' sum, so probabilities that add up to 1 only within rounding
    /// are taken in proportion. A decimal longer than 18 places is scaled to 2^53 instead, exact to 2^-53.
    pub fn from_probabilities(p: &[f64]) -> Dist {
        let weights = decimal_weights(p).unwrap_or_else(|| p.iter().map(|&x| scaled(x)).collect());
        Dist::from_weights(&weights)
    }

    /// How many outcomes the distribution has (including zero-weight ones).
    pub fn len(&self) -> usize {
        self.cum.len()
    }

    /// Always false: a distribution has at least one outcome.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The cumulative weights: entry `i` is the total weight of outcomes `0..=i`.
    pub fn cumulative(&self) -> &[u64] {
        &self.cum
    }

    /// The total weight.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The integer weight of outcome `i`.
    pub fn weight(&self, i: usize) -> u64 {
        self.cum[i] - if i == 0 { 0 } else { self.cum[i - 1] }
    }

    /// The probability of outcome `i`.
    pub fn probability(&self, i: usize) -> f64 {
        self.weight(i) as f64 / self.total() as f64
    }

    /// The probability of outcome `i` as an exact fraction.
    pub fn fraction(&self, i: usize) -> num_rational::BigRational {
        num_rational::BigRational::new(self.weight(i).into(), self.total().into())
    }

    /// The outcome to pick without drawing, when only one outcome can happen.
    #[inline]
    pub fn certain(&self) -> Option<usize> {
        self.only.map(|i| i as usize)
    }

    /// The outcome whose cumulative range holds `r`, for `r` in `0..total()`.
    #[inline]
    pub fn outcome_at(&self, r: u64) -> usize {
        // Yes/no nodes (table rolls, checks) are most nodes: one compare, no branch to mispredict.
        if let Some(split) = self.split {
            return usize::from(r >= split);
        }
        if self.unit {
            return r as usize;
        }
        self.zeros + outcome_in(&self.live, r)
    }

    /// Where each outcome before the last live one ends in a unit interval, in units of 2^-64.
    pub fn bounds(&self) -> &[u64] {
        &self.bounds
    }

    /// The outcome whose part of an interval `w` wide holds `u` (`u < w`), with that part.
    ///
    /// Outcome `i`'s part is `boundary(w, bounds[i - 1])..boundary(w, bounds[i])`: each end is within 1 of
    /// its exact place, so the width is less than 2 from `w weight(i) / total()`, and for the sampler's
    /// `w >= 2^63` a pick's probability is within 2^-62 of the exact fraction.
    #[inline]
    pub fn decode(&self, u: u64, w: u64) -> Part {
        let b = &self.bounds;
        // Yes/no nodes (table rolls, checks) are most nodes: one multiply and one compare.
        if let [only] = **b {
            let end = boundary(w, only);
            return if u >= end { Part { outcome: 1, lo: end, hi: w } } else { Part { outcome: 0, lo: 0, hi: end } };
        }
        // Short nodes (a die, movement capped at a distance): count the boundaries at or below `u` without a
        // branch to mispredict; long ones: binary search.
        let outcome = if b.len() <= 16 {
            b.iter().map(|&t| usize::from(boundary(w, t) <= u)).sum()
        } else {
            b.partition_point(|&t| boundary(w, t) <= u)
        };
        part(outcome, b.len(), w, |k| b[k])
    }
}

/// The outcome whose range holds `r`, given cumulative weights `cum` (`r` below the last).
#[inline]
pub fn outcome_in(cum: &[u64], r: u64) -> usize {
    // Short nodes (movement capped at a distance, a die): count the thresholds at or below `r`, which
    // compiles to compares and adds without a branch to mispredict; long ones: binary search.
    if cum.len() <= 16 { cum.iter().map(|&c| usize::from(c <= r)).sum() } else { cum.partition_point(|&c| c <= r) }
}

/// A source of outcomes for the rules: the only way a rule set meets chance.
pub trait Chance {
    /// Picks one outcome of `dist`, an index in `0..dist.len()`.
    fn pick(&mut self, dist: &Dist) -> usize;

    /// Picks a yes/no outcome of a [`Dist::bernoulli`] node. Inlined always, as the sampler's pick is: it is
    /// nothing but the pick.
    #[inline(always)]
    fn happens(&mut self, dist: &Dist) -> bool {
        self.pick(dist) == 1
    }

    /// Picks one of `n` equally likely outcomes, for a choice whose number of outcomes is only known during
    /// play (a player picking one of its legal moves). Same as picking from [`Dist::die`].
    fn uniform(&mut self, n: usize) -> usize {
        self.pick(&Dist::die(n as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_and_probabilities() {
        let d = Dist::bernoulli(6, 10);
        assert_eq!(d.len(), 2);
        assert_eq!(d.weight(1), 6);
        assert_eq!(d.probability(0), 0.4);
        assert_eq!(d.certain(), None);
        assert_eq!(Dist::bernoulli(10, 10).certain(), Some(1));
        assert_eq!(Dist::bernoulli(0, 10).certain(), Some(0));
    }

    /// Every outcome's part of an interval is less than 2 from its exact share, and zero weights get no part:
    /// first, inside and last, over widths from 2^63 to 2^64 - 1 and totals up to near 2^64.
    #[test]
    fn parts_are_the_exact_shares_within_one() {
        let dists = [
            vec![1; 10],
            vec![0, 0, 1, 2, 0, 3],
            vec![1, 0, 0, 0, 0, 1],
            vec![7, 13],
            vec![3, 0, 0],
            vec![u64::MAX / 3, 5, u64::MAX / 2, 0, 0, 0],
            (1..40).collect(),
        ];
        for weights in dists {
            let d = Dist::from_weights(&weights);
            for w in [1 << 63, (1 << 63) + 12_345, u64::MAX - 7, u64::MAX] {
                let mut lo = 0;
                for (i, &wt) in weights.iter().enumerate() {
                    let (share, total) = (u128::from(w) * u128::from(wt), u128::from(d.total()));
                    let p = if lo < w { d.decode(lo, w) } else { Part { outcome: i, lo, hi: w } };
                    let width = if p.outcome == i { u128::from(p.hi - p.lo) } else { 0 };
                    assert!((width * total).abs_diff(share) < 2 * total, "{weights:?} outcome {i}: {width} wide");
                    assert!(wt > 0 || width == 0, "{weights:?}: zero weight {i} got a part");
                    lo += width as u64;
                }
                assert_eq!(lo, w, "{weights:?}: the parts cover the interval");
            }
        }
    }

    /// A config's 0.35/0.65 is 7 and 13 of 20, so outcome 1 starts at ceil(7 2^64 / 20) of the unit interval:
    /// the exactly rounded point.
    #[test]
    fn config_weights_cut_the_interval_at_the_exact_point() {
        let d = Dist::from_probabilities(&[0.35, 0.65]);
        assert_eq!((d.weight(0), d.total()), (7, 20));
        assert_eq!(d.bounds(), [((7u128 << 64).div_ceil(20)) as u64]);
        let w = u64::MAX;
        let cut = boundary(w, d.bounds()[0]);
        assert_eq!((d.decode(cut - 1, w).outcome, d.decode(cut, w).outcome), (0, 1));
    }

    #[test]
    fn config_probabilities_are_exact_decimals() {
        assert_eq!((Dist::bernoulli_f64(0.4).weight(1), Dist::bernoulli_f64(0.4).total()), (2, 5));
        assert_eq!((Dist::bernoulli_f64(0.7).weight(0), Dist::bernoulli_f64(0.7).total()), (3, 10));
        assert_eq!(Dist::bernoulli_f64(1.0).certain(), Some(1));
        assert_eq!(Dist::bernoulli_f64(0.0).certain(), Some(0));
        assert_eq!(Dist::bernoulli_f64(1e-7).total(), 10_000_000);
        let d = Dist::from_probabilities(&[0.25, 0.5, 0.25]);
        assert_eq!((d.weight(0), d.weight(1), d.weight(2), d.total()), (1, 2, 1, 4));
        // Thirds written to 16 places add up to 1 only within rounding: read in proportion.
        let third = Dist::from_probabilities(&[1.0 / 3.0; 3]);
        assert_eq!((third.weight(0), third.total()), (1, 3));
        // Too long to read as a decimal: scaled to 2^53.
        assert_eq!(Dist::bernoulli_f64(1e-20).total(), PROBABILITY_SCALE);
    }

    #[test]
    fn equal_unit_weights_map_a_draw_to_itself() {
        let d = Dist::die(10);
        assert!((0..10).all(|r| d.outcome_at(r) == r as usize && outcome_in(d.cumulative(), r) == r as usize));
    }

    /// Leading and trailing zero weights are left out of the scan: every draw picks what counting all the
    /// cumulative weights at or below it picks.
    #[test]
    fn the_scan_skips_zero_weights_at_either_end() {
        for weights in
            [vec![0, 0, 1, 2, 0, 3, 0], vec![0, 0, 0, 0, 1, 4, 10, 21, 35], vec![0, 5, 0, 0], vec![2, 0, 1, 0]]
        {
            let d = Dist::from_weights(&weights);
            for r in 0..d.total() {
                let all = d.cumulative().iter().filter(|&&c| c <= r).count();
                assert_eq!(d.outcome_at(r), all, "{weights:?} at {r}");
            }
        }
    }

    #[test]
    fn outcome_at_follows_cumulative_weights() {
        let d = Dist::from_weights(&[1, 0, 2]);
        assert_eq!(d.outcome_at(0), 0);
        assert_eq!(d.outcome_at(1), 2);
        assert_eq!(d.outcome_at(2), 2);
    }

    /// A config's 0.35/0.65 is 7 and 13 of 20, so the raw draw range splits at ceil(7 * 2^64 / 20), the
    /// exactly rounded point: the sampler picks outcome 1 with probability 0.35 to within 2^-64.
    #[test]
    fn config_weights_split_the_draw_range_at_the_exact_point() {
        let d = Dist::from_probabilities(&[0.35, 0.65]);
        assert_eq!((d.weight(0), d.total()), (7, 20));
        let split = ((7u128 << 64).div_ceil(20)) as u64;
        let outcome = |x: u64| d.outcome_at(((u128::from(x) * 20) >> 64) as u64);
        assert_eq!((outcome(split - 1), outcome(split)), (0, 1));
        assert_eq!((outcome(0), outcome(u64::MAX)), (0, 1));
    }

    /// Exact decimal weights keep the total small, so a pick almost never takes a second raw draw:
    /// `below` redraws `2^64 mod total` raw values of 2^64. The float weights of 0.4/0.4/0.2 scaled to 2^53
    /// summed to 2^53 + 1, which redrew about 1 raw draw in 2^11.
    #[test]
    fn exact_weights_almost_never_redraw() {
        let redrawn = |total: u64| ((1u128 << 64) % u128::from(total)) as u64;
        let hits = Dist::from_probabilities(&[0.4, 0.4, 0.2]);
        assert_eq!((hits.weight(0), hits.weight(2), hits.total()), (2, 1, 5));
        assert_eq!(redrawn(hits.total()), 1);
        let floats: u64 = [0.4f64, 0.4, 0.2].iter().map(|&p| scaled(p)).sum();
        assert_eq!(floats, PROBABILITY_SCALE + 1);
        assert_eq!(redrawn(floats), floats - (1 << 11));
    }

    /// What both samplers promise, checked on each: a trial's stream does not depend on the trials before
    /// it (common random numbers across sweep points), `uniform` picks what a die would, and `at_trial` is
    /// the trial of its chunk.
    fn promises<S: Source>() {
        let third_trial = |draws_before: usize| {
            let mut s = S::in_chunk(5, 1, 0);
            for _ in 0..2 {
                s.next_trial();
                (0..draws_before).for_each(|_| {
                    s.uniform(6);
                });
            }
            s.next_trial();
            (0..40).map(|_| s.uniform(1000)).collect::<Vec<_>>()
        };
        assert_eq!(third_trial(0), third_trial(70));
        let draws = |uniform: bool| {
            let mut s = S::at_trial(9, 4, 6);
            (1..400).map(|n| if uniform { s.uniform(n) } else { s.pick(&Dist::die(n as u32)) }).collect::<Vec<_>>()
        };
        assert_eq!(draws(true), draws(false));
        let mut s = S::in_chunk(9, 1, 0);
        (0..3).for_each(|_| s.next_trial());
        assert_eq!(s.uniform(1 << 40), S::at_trial(9, 4, 6).uniform(1 << 40));
    }

    #[test]
    fn both_samplers_keep_their_promises() {
        promises::<Sampler>();
        promises::<PackedSampler>();
    }
}
