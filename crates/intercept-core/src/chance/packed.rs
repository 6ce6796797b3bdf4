//! The packed Monte Carlo source: a [`PackedSampler`] picks outcomes by cutting one uniform number into parts.
//!
//! A trial's random bits are one stream of 64-bit words. The sampler reads them as the binary digits of a
//! uniform number and keeps the part of the unit interval it still falls in: an interval `w` wide and the
//! number's place `u` in it (`0 <= u < w`). A node cuts that interval into one part per outcome, in
//! proportion to the weights ([`Dist::decode`]), and the part holding `u` is the outcome. The part becomes the
//! interval, widened back to at least 2^63 by reading as many fresh bits as it lost ([`PackedSampler::narrow`]):
//! given the outcomes so far, `u` is exactly uniform in `0..w`, so a pick is an independent draw whose
//! probability is within 2^-62 of the node's exact fraction. A node uses only the bits its outcome needs
//! (one for a fair yes/no, about 3.3 for a d10): one word serves many nodes.
//!
//! Because the interval is cut the same way whoever cuts it, which leaf a trial ends in is a function of its
//! bits alone, the property the path memo's leaf table relies on ([`crate::memo`]).
//!
//! The price: what a node reads depends on the outcomes and weights of the nodes before it, so two scenarios
//! that differ in one node's weights part ways for the rest of the trial. Runs that pair scenarios on common
//! random numbers (sweeps, sensitivity) pair less tightly than with the per-node [`super::Sampler`], which
//! stays the default ([`super::Draws`]).

use rand::Rng;
use rand_pcg::Pcg64Mcg;

use super::sampler::{GAMMA_INVERSE, chunk_rng_after, splitmix_next, splitmix64_inverse};
use super::{Chance, Dist, Part, Source, bound, boundary, part};

/// The width an interval is widened back to: at least this, below 2^64.
const HALF: u64 = 1 << 63;

/// The packed Monte Carlo source: the chunk's generator, and the current trial's stream and interval.
///
/// [`Source::next_trial`] seeds a SplitMix64 stream from one output of the chunk generator, so trial `t` of a
/// chunk always reads the same bits, however many the trials before it read. That keeps every trial of a
/// sweep on the same random numbers at every point (common random numbers), and SplitMix64's add-only state
/// keeps words cheap.
pub struct PackedSampler<R: Rng = Pcg64Mcg> {
    chunk: R,
    /// The trial's SplitMix64 state.
    stream: u64,
    /// The open interval: `w` wide (at least 2^63), the number's place `u` in it.
    u: u64,
    w: u64,
    /// Bits of the last word not read yet, left-aligned, and how many there are.
    bits: u64,
    avail: u32,
    /// The trial's first word, from which the memo's leaf table finds most trials' leaf.
    first: u64,
}

impl<R: Rng> PackedSampler<R> {
    /// A sampler for the chunk whose generator is `chunk`; call [`Source::next_trial`] before each trial.
    pub fn new(chunk: R) -> Self {
        PackedSampler { chunk, stream: 0, u: 0, w: HALF, bits: 0, avail: 0, first: 0 }
    }

    /// Begins the next trial as far as its first word (one output of the chunk generator seeds its stream):
    /// all the memo's leaf table needs. [`PackedSampler::resume`] readies the rest, when the trial is walked.
    #[inline]
    pub(crate) fn begin(&mut self) {
        self.stream = self.chunk.next_u64();
        self.first = self.word();
    }

    /// Readies the interval of a trial begun with [`PackedSampler::begin`]: 63 bits of its first word in,
    /// one kept for later.
    #[inline]
    pub(crate) fn resume(&mut self) {
        self.start(self.first);
    }

    /// Starts a trial whose first word is `x` (the rest of its words come from the stream as it stands).
    #[inline]
    pub(crate) fn start(&mut self, x: u64) {
        (self.first, self.u, self.w, self.bits, self.avail) = (x, x >> 1, HALF, x << 63, 1);
    }

    /// The trial's first word: the trial's leaf is a function of it, unless the trial reads further.
    #[inline]
    pub fn first_word(&self) -> u64 {
        self.first
    }

    /// How many 64-bit words the current trial has read (for the generator floor bench). The stream moves
    /// by SplitMix64's odd increment a word, so the count is the distance moved times that increment's
    /// inverse; where it stood after the first word is that word unmixed.
    pub fn words(&self) -> u64 {
        1 + self.stream.wrapping_sub(splitmix64_inverse(self.first)).wrapping_mul(GAMMA_INVERSE)
    }

    /// The next word of the trial's stream.
    #[inline]
    pub fn word(&mut self) -> u64 {
        splitmix_next(&mut self.stream)
    }

    /// The open interval: its width and the number's place in it.
    #[inline]
    pub fn interval(&self) -> (u64, u64) {
        (self.u, self.w)
    }

    /// Keeps the part `lo..hi` of the interval (which holds the number) and widens it back to at least 2^63.
    #[inline]
    pub fn narrow(&mut self, lo: u64, hi: u64) {
        self.u -= lo;
        self.w = hi - lo;
        let k = self.w.leading_zeros();
        if k > 0 {
            self.u = (self.u << k) | self.take(k);
            self.w <<= k;
        }
    }

    /// The next `k` bits of the stream (`1 <= k <= 63`), as a number.
    #[inline]
    fn take(&mut self, k: u32) -> u64 {
        if k <= self.avail {
            let v = self.bits >> (64 - k);
            (self.bits, self.avail) = (self.bits << k, self.avail - k);
            return v;
        }
        let have = if self.avail == 0 { 0 } else { self.bits >> (64 - self.avail) };
        let need = k - self.avail;
        let x = self.word();
        (self.bits, self.avail) = (x << need, 64 - need);
        (have << need) | (x >> (64 - need))
    }

    /// Keeps `p`'s part of the interval and returns its outcome.
    #[inline]
    fn keep(&mut self, p: Part) -> usize {
        self.narrow(p.lo, p.hi);
        p.outcome
    }
}

impl<R: Rng> Chance for PackedSampler<R> {
    #[inline]
    fn pick(&mut self, dist: &Dist) -> usize {
        if let Some(i) = dist.certain() {
            return i;
        }
        let p = dist.decode(self.u, self.w);
        self.keep(p)
    }

    /// The same outcome as picking from [`Dist::die`]`(n)`, without building its table: the outcome is
    /// within one of `u n / w`, then checked against the die's boundaries.
    #[inline]
    fn uniform(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let (u, w, n64) = (self.u, self.w, n as u64);
        let at = |k: usize| boundary(w, bound(k as u64, n64));
        let mut g = ((u128::from(u) * u128::from(n64)) / u128::from(w)) as usize;
        while g > 0 && at(g) > u {
            g -= 1;
        }
        while g + 1 < n && at(g + 1) <= u {
            g += 1;
        }
        self.keep(part(g, n - 1, w, |k| bound(k as u64 + 1, n64)))
    }
}

impl Source for PackedSampler {
    /// Passing over trials is advancing the chunk generator, one output a trial, as for [`super::Sampler`].
    fn in_chunk(seed: u64, chunk: u64, skip: u64) -> Self {
        PackedSampler::new(chunk_rng_after(seed, chunk, skip))
    }

    /// Starts the next trial's stream (one output of the chunk generator per trial) and reads its first word:
    /// 63 bits into the interval, one kept for later.
    #[inline]
    fn next_trial(&mut self) {
        self.begin();
        self.resume();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::chunk_rng;

    #[test]
    fn sampler_frequencies_match_weights() {
        let mut s = PackedSampler::new(chunk_rng(1, 0));
        let d = Dist::die(10);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            s.next_trial();
            counts[s.pick(&d)] += 1;
            counts[s.pick(&d)] += 1;
        }
        assert!(counts.iter().all(|&c| (19_000..21_000).contains(&c)), "{counts:?}");
    }

    /// Picks on one trial's stream are independent: a d6 after a 1-in-3 event is still fair, and the pair's
    /// counts match the product of the exact fractions (within 5 standard errors).
    #[test]
    fn picks_are_independent() {
        let (third, die) = (Dist::bernoulli(1, 3), Dist::die(6));
        let mut s = PackedSampler::new(chunk_rng(2, 0));
        let mut counts = [[0u32; 6]; 2];
        let n = 300_000;
        for _ in 0..n {
            s.next_trial();
            counts[usize::from(s.happens(&third))][s.pick(&die)] += 1;
        }
        for (yes, row) in counts.iter().enumerate() {
            let p = if yes == 1 { 1.0 / 18.0 } else { 2.0 / 18.0 };
            let sd = (p * (1.0 - p) / n as f64).sqrt();
            assert!(row.iter().all(|&c| (c as f64 / n as f64 - p).abs() < 5.0 * sd), "{counts:?}");
        }
    }

    /// Many nodes on one trial read the words they need: a fair yes/no costs one bit, so 640 of them read
    /// about 10 words.
    #[test]
    fn a_fair_yes_no_reads_one_bit() {
        let mut s = PackedSampler::new(chunk_rng(3, 0));
        s.next_trial();
        let coin = Dist::bernoulli(1, 2);
        (0..640).for_each(|_| {
            s.pick(&coin);
        });
        assert_eq!(s.words(), 11);
    }

    /// Value stability: these numbers are part of the reproducibility contract. If this test fails, every
    /// published seed gives different results; change it only with a major version.
    #[test]
    fn seeded_draws_are_pinned() {
        let mut s = PackedSampler::new(chunk_rng(42, 3));
        s.next_trial();
        let d10 = Dist::die(10);
        let draws: Vec<usize> = (0..8).map(|_| s.pick(&d10)).collect();
        assert_eq!(draws, PINNED_DRAWS);
        assert_ne!(chunk_rng(42, 3).next_u64(), chunk_rng(42, 4).next_u64());
        assert_ne!(chunk_rng(42, 3).next_u64(), chunk_rng(43, 3).next_u64());
    }

    const PINNED_DRAWS: [usize; 8] = [2, 8, 4, 5, 8, 1, 0, 0];
}
