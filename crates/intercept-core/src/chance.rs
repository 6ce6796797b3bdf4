//! The chance interface: every random event of a rule set is one [`Dist`] node.
//!
//! Rules never touch a random generator. They hold [`Dist`]s prepared once at resolve time (a die, a d10 table
//! row, a Bernoulli from a config probability, the sum of n dice as one node with its exact convolution) and
//! ask a [`Chance`] source to pick an outcome. Two sources implement [`Chance`]: [`Sampler`] draws from a seeded
//! generator (Monte Carlo), and the enumerator in [`crate::exact`] replays every branch with its probability.
//! Because both run the same rules code, no rule is ever written twice.

use rand::Rng;
use rand_pcg::Pcg64Mcg;

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
        let split = (cum.len() == 2).then(|| cum[0]);
        let unit = weights.iter().all(|&w| w == 1);
        Dist { cum, only, total, split, unit }
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
        outcome_in(&self.cum, r)
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

    /// Picks a yes/no outcome of a [`Dist::bernoulli`] node.
    #[inline]
    fn happens(&mut self, dist: &Dist) -> bool {
        self.pick(dist) == 1
    }

    /// Picks one of `n` equally likely outcomes, for a choice whose number of outcomes is only known during
    /// play (a player picking one of its legal moves). Same as picking from [`Dist::die`].
    fn uniform(&mut self, n: usize) -> usize {
        self.pick(&Dist::die(n as u32))
    }
}

/// The Monte Carlo source: one uniform draw per node, mapped to an outcome by the exact integer thresholds.
///
/// A sampler holds its chunk's generator and the stream of the current trial. [`Sampler::next_trial`] seeds a
/// SplitMix64 stream from one output of the chunk generator, so trial `t` of a chunk always draws the same
/// numbers, however many the trials before it drew. That keeps every trial of a sweep on the same random
/// numbers at every point (common random numbers), and SplitMix64's add-only state keeps draws cheap.
pub struct Sampler<R: Rng = Pcg64Mcg> {
    chunk: R,
    trial: u64,
}

impl Sampler {
    /// The sampler of trial `trial` of a run seeded with `seed` in chunks of `chunk_size`, ready to draw:
    /// how one game of a self-play run is replayed on its own.
    pub fn at_trial(seed: u64, chunk_size: u64, trial: u64) -> Sampler {
        let mut s = Sampler::in_chunk(seed, trial / chunk_size, trial % chunk_size);
        s.next_trial();
        s
    }

    /// The sampler of chunk `chunk` with its first `skip` trials passed over: the next [`Sampler::next_trial`]
    /// starts trial `skip` of the chunk. Each trial takes one output of the chunk generator, so passing over
    /// trials is advancing the generator, which PCG does in a number of steps logarithmic in `skip`.
    pub fn in_chunk(seed: u64, chunk: u64, skip: u64) -> Sampler {
        let mut rng = chunk_rng(seed, chunk);
        rng.advance(u128::from(skip));
        Sampler::new(rng)
    }
}

impl<R: Rng> Sampler<R> {
    /// A sampler for the chunk whose generator is `chunk`; call [`Sampler::next_trial`] before each trial.
    pub fn new(chunk: R) -> Self {
        Sampler { chunk, trial: 0 }
    }

    /// Starts the next trial's stream: one draw of the chunk generator per trial.
    #[inline]
    pub fn next_trial(&mut self) {
        self.trial = self.chunk.next_u64();
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        splitmix_next(&mut self.trial)
    }

    /// A uniform integer in `0..n` by Lemire's multiply-and-reject method: unbiased, and it almost never
    /// needs a second draw for the small ranges of dice.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.accepted(n)) * u128::from(n)) >> 64) as u64
    }

    /// The raw 64-bit draw `x` that Lemire's method accepts for the range `0..n`; [`Sampler::below`] is the
    /// high word of `x * n`. Exposed so a caller can compare `x` with thresholds scaled by `2^64 / n`
    /// instead of multiplying.
    #[inline]
    pub fn accepted(&mut self, n: u64) -> u64 {
        let mut x = self.next_u64();
        if ((u128::from(x) * u128::from(n)) as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while ((u128::from(x) * u128::from(n)) as u64) < threshold {
                x = self.next_u64();
            }
        }
        x
    }
}

impl<R: Rng> Chance for Sampler<R> {
    #[inline]
    fn pick(&mut self, dist: &Dist) -> usize {
        if let Some(i) = dist.certain() {
            return i;
        }
        // Outcome i is drawn with probability exactly weight(i) / total(), the fraction the enumerator sums
        // ([`Dist::fraction`]): `below` rejects the few raw draws that would bias the range. How often it
        // rejects depends on the total: 2^64 mod 5 is 1 for the exact weights 2:2:1 of chances 0.4/0.4/0.2,
        // but the floats scaled to 2^53 (before config decimals were read exactly) summed to 2^53 + 1, which
        // redraws 1 raw draw in 2^11 and so moves the rest of that trial's stream: why seeded results moved
        // in a few trials per million then, with the probabilities unchanged to 2^-53.
        let r = self.below(dist.total());
        dist.outcome_at(r)
    }

    /// One draw, no table: the same outcome as picking from [`Dist::die`]`(n)`.
    #[inline]
    fn uniform(&mut self, n: usize) -> usize {
        if n <= 1 { 0 } else { self.below(n as u64) as usize }
    }
}

/// The generator for chunk `chunk` of a run seeded with `seed`.
///
/// Each chunk gets its own generator whose state is a SplitMix64 mix of `(seed, chunk)`, so a chunk's draws
/// depend on nothing but those two numbers: not on the thread that runs it, nor on the chunks before it.
/// (PCG stream numbers are not used to separate chunks: streams of one multiplier are known to correlate.)
pub fn chunk_rng(seed: u64, chunk: u64) -> Pcg64Mcg {
    let mut state = splitmix64(seed ^ splitmix64(chunk.wrapping_add(0x9E37_79B9_7F4A_7C15)));
    let hi = splitmix_next(&mut state);
    let lo = splitmix_next(&mut state);
    Pcg64Mcg::new((u128::from(hi) << 64) | u128::from(lo))
}

fn splitmix_next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    splitmix64(*state)
}

/// The SplitMix64 finaliser: a bijective mix in which every input bit affects every output bit.
pub(crate) fn splitmix64(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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

    #[test]
    fn equal_unit_weights_map_a_draw_to_itself() {
        let d = Dist::die(10);
        assert!((0..10).all(|r| d.outcome_at(r) == r as usize && outcome_in(d.cumulative(), r) == r as usize));
    }

    #[test]
    fn outcome_at_follows_cumulative_weights() {
        let d = Dist::from_weights(&[1, 0, 2]);
        assert_eq!(d.outcome_at(0), 0);
        assert_eq!(d.outcome_at(1), 2);
        assert_eq!(d.outcome_at(2), 2);
    }

    #[test]
    fn sampler_frequencies_match_weights() {
        let mut s = Sampler::new(chunk_rng(1, 0));
        let d = Dist::die(10);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[s.pick(&d)] += 1;
        }
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
    }

    /// Value stability: these numbers are part of the reproducibility contract. If this test fails, every
    /// published seed gives different results; change it only with a major version.
    #[test]
    fn seeded_draws_are_pinned() {
        let mut s = Sampler::new(chunk_rng(42, 3));
        s.next_trial();
        let draws: Vec<u64> = (0..8).map(|_| s.below(10)).collect();
        assert_eq!(draws, PINNED_DRAWS);
        assert_ne!(chunk_rng(42, 3).next_u64(), chunk_rng(42, 4).next_u64());
        assert_ne!(chunk_rng(42, 3).next_u64(), chunk_rng(43, 3).next_u64());
    }

    /// Trial `t` of a chunk draws the same numbers however many the trials before it drew: what keeps sweep
    /// points on common random numbers.
    #[test]
    fn a_trial_stream_does_not_depend_on_earlier_trials() {
        let third_trial = |draws_before: usize| {
            let mut s = Sampler::new(chunk_rng(5, 1));
            for _ in 0..2 {
                s.next_trial();
                (0..draws_before).for_each(|_| {
                    s.below(6);
                });
            }
            s.next_trial();
            (0..4).map(|_| s.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(third_trial(0), third_trial(7));
    }

    #[test]
    fn uniform_draws_as_a_die_would() {
        let draws = |uniform: bool| {
            let mut s = Sampler::at_trial(9, 4, 6);
            (1..40).map(|n| if uniform { s.uniform(n) } else { s.pick(&Dist::die(n as u32)) }).collect::<Vec<_>>()
        };
        assert_eq!(draws(true), draws(false));
    }

    #[test]
    fn at_trial_is_the_trial_of_its_chunk() {
        let mut s = Sampler::new(chunk_rng(9, 1));
        (0..3).for_each(|_| s.next_trial());
        assert_eq!(s.below(1 << 40), Sampler::at_trial(9, 4, 6).below(1 << 40));
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

    const PINNED_DRAWS: [u64; 8] = [2, 0, 2, 1, 6, 4, 2, 5];
}
