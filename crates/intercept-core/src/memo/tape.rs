//! The tape: a memo's chance tree laid out in cache lines, so one step of a walk is one line read.
//!
//! Each edge of the tree (an outcome of a node) is a [`Line`] of its own, a *record*: word 0 links to where
//! the outcome leads, word 1 is the total weight of the node it leads to and words 2..8 its first 6
//! thresholds. A step reads the
//! record it stands on, compares the draw with the thresholds and moves to the record of the outcome picked,
//! so a walk is a chain of single line reads with no second load in between. Line 0 is the root record.
//!
//! A node with `n` outcomes is `h` head lines and then its `n` records. Head word 0 packs the parent's head
//! line and the outcome in the parent (to retrace a path); word 1 is `e`; words 2.. hold the thresholds
//! beyond the first 6, if any (`e` of them), continuing into further head lines. Few nodes have any: zero
//! weights first are not thresholds, and the movement of n dice cannot be below n.
//!
//! Thresholds are scaled. The sampler's outcome is the number of cumulative weights `c` at or below
//! `r`, the high word of `x * total` for the accepted raw draw `x` ([`Sampler::accepted`]); since `r >= c`
//! exactly when `x > ceil(c 2^64 / total) - 1`, the tape stores that scaled value, one less than the node's
//! bound ([`Dist::bounds`]), and a step compares `x` directly. Zero weights before the first live outcome
//! (bound 0, which would need a threshold of -1) are counted in `z` instead. Outcomes after the last live one
//! have no threshold, as a draw never passes it, and unused slots hold `u64::MAX`, which no draw exceeds.
//!
//! The packed sampler ([`PackedSampler`]) reads the same thresholds as the ends of each outcome's part of its
//! interval: threshold `t` ends at `floor(w (t + 1) / 2^64)`, the boundary [`Dist::decode`] cuts at, and an
//! unused slot ends at `w`, where no outcome starts. [`Walk`] is how either sampler takes a step.

use crate::chance::{Dist, PackedSampler, Part, Sampler, Source};

/// A link to nowhere yet.
pub(super) const UNSEEN: u64 = 0;
/// A link to leaf `l` is `LEAF | l`. A link to a node packs the line of its first record (bits 0..32), `z`
/// (bits 32..44) and `e` (bits 44..56).
pub(super) const LEAF: u64 = 1 << 63;
/// The most outcomes a remembered node may have, so that `z` and `e` fit their 12 bits.
pub(super) const MAX_LEN: usize = 1 << 12;
/// Thresholds kept in a record.
const INLINE: usize = 6;
/// Head words before the extra thresholds.
const HEAD: usize = 2;

/// One cache line of the tape.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
struct Line([u64; 8]);

const BLANK: Line = Line([UNSEEN, u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX, u64::MAX]);

/// A sampler the memo can walk its tape with.
pub(crate) trait Walk: Source {
    /// Walks `tape` from the root record, drawing each node's outcome ([`Tape::walk`]).
    fn walk(&mut self, tape: &Tape) -> (u64, usize, u64);
    /// The trial's first word, when the trial's leaf is a function of it alone unless it reads further: what
    /// the memo's leaf table looks up.
    fn first_word(&self) -> Option<u64>;
    /// Begins the next trial as far as [`Walk::first_word`] needs.
    fn begin(&mut self) {
        self.next_trial();
    }
    /// Readies the rest of a trial begun with [`Walk::begin`], before it is walked or run: a trial the leaf
    /// table finds never pays for it.
    fn resume(&mut self) {}
}

impl Walk for Sampler {
    #[inline]
    fn walk(&mut self, tape: &Tape) -> (u64, usize, u64) {
        tape.walk(|rec| tape.step(rec, self))
    }

    #[inline]
    fn first_word(&self) -> Option<u64> {
        None
    }
}

impl Walk for PackedSampler {
    #[inline]
    fn walk(&mut self, tape: &Tape) -> (u64, usize, u64) {
        tape.walk(|rec| tape.step_packed(rec, self))
    }

    #[inline]
    fn first_word(&self) -> Option<u64> {
        Some(PackedSampler::first_word(self))
    }

    #[inline]
    fn begin(&mut self) {
        PackedSampler::begin(self);
    }

    #[inline]
    fn resume(&mut self) {
        PackedSampler::resume(self);
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Tape {
    lines: Vec<Line>,
}

/// How many head lines a node with `e` extra thresholds has.
fn head_lines(e: usize) -> usize {
    1 + (e + HEAD).saturating_sub(8).div_ceil(8)
}

/// The head line of the node a link leads to.
fn head_of(link: u64) -> usize {
    link as u32 as usize - head_lines(zeros_and_extras(link).1)
}

impl Tape {
    pub(crate) fn new() -> Tape {
        Tape { lines: vec![BLANK] }
    }

    pub(super) fn bytes(&self) -> usize {
        self.lines.len() * std::mem::size_of::<Line>()
    }

    /// The link of record `at`.
    #[inline]
    pub(super) fn link(&self, at: usize) -> u64 {
        self.lines[at].0[0]
    }

    /// Walks from the root record, taking a `step` at each node, to the first record whose link is a leaf or
    /// unseen: returns that link, its record, and the link that led to the record's node ([`UNSEEN`] at the
    /// root). Each step reads one line once.
    #[inline]
    fn walk(&self, mut step: impl FnMut(&[u64; 8]) -> usize) -> (u64, usize, u64) {
        let (mut from, mut at) = (UNSEEN, 0);
        loop {
            let rec = &self.lines[at].0;
            let link = rec[0];
            if link & LEAF != 0 || link == UNSEEN {
                return (link, at, from);
            }
            (from, at) = (link, step(rec));
        }
    }

    /// One step from record `rec`, whose link leads to a node: draws that node's outcome and returns the
    /// record of the outcome picked.
    #[inline]
    fn step(&self, rec: &[u64; 8], sampler: &mut Sampler) -> usize {
        let x = sampler.accepted(rec[1]);
        rec[0] as u32 as usize + self.outcome(rec, |t| t < x)
    }

    /// The outcome of the node record `rec` links to: how many of its thresholds a step has `passed`, plus
    /// its leading zero weights. Written once for both samplers; the inline thresholds are summed without a
    /// branch to mispredict.
    #[inline]
    fn outcome(&self, rec: &[u64; 8], passed: impl Fn(u64) -> bool) -> usize {
        let (z, e) = zeros_and_extras(rec[0]);
        let n = |t: u64| usize::from(passed(t));
        let mut outcome = z + (n(rec[2]) + n(rec[3])) + (n(rec[4]) + n(rec[5])) + (n(rec[6]) + n(rec[7]));
        if e > 0 {
            outcome += self.extras(head_of(rec[0]), e).filter(|&t| passed(t)).count();
        }
        outcome
    }

    /// One packed step from record `rec`: picks the outcome whose part of the sampler's interval holds its
    /// number, narrows the interval to that part and returns the record of the outcome picked.
    #[inline]
    fn step_packed(&self, rec: &[u64; 8], sampler: &mut PackedSampler) -> usize {
        let (u, w) = sampler.interval();
        let p = self.part(rec, self.outcome(rec, |t| end(w, t) <= u), w);
        sampler.narrow(p.lo, p.hi);
        rec[0] as u32 as usize + p.outcome
    }

    /// Outcome `outcome`'s part of an interval `w` wide, for the node record `rec` links to.
    fn part(&self, rec: &[u64; 8], outcome: usize, w: u64) -> Part {
        let lo = if outcome == 0 { 0 } else { self.end_of(rec, outcome - 1, w) };
        Part { outcome, lo, hi: self.end_of(rec, outcome, w) }
    }

    /// Where outcome `k`'s part of an interval `w` wide ends, for the node record `rec` links to.
    fn end_of(&self, rec: &[u64; 8], k: usize, w: u64) -> u64 {
        let (z, e) = zeros_and_extras(rec[0]);
        match k.checked_sub(z) {
            None => 0,
            Some(j) if j < INLINE => end(w, rec[2 + j]),
            Some(j) if j < INLINE + e => end(w, self.extra(head_of(rec[0]), j - INLINE)),
            Some(_) => w,
        }
    }

    /// The parts of the node record `at` links to, in an interval `w` wide, each with its outcome's record,
    /// in order up to the last that reaches the interval's end.
    pub(super) fn parts(&self, at: usize, w: u64) -> impl Iterator<Item = (usize, Part)> + '_ {
        let rec = &self.lines[at].0;
        let first = rec[0] as u32 as usize;
        let mut done = false;
        (0..).map_while(move |o| {
            let p = (!done).then(|| self.part(rec, o, w))?;
            done = p.hi == w;
            Some((first + o, p))
        })
    }

    /// The thresholds beyond the first 6 of the node at head line `head`.
    fn extras(&self, head: usize, e: usize) -> impl Iterator<Item = u64> + '_ {
        (0..e).map(move |i| self.extra(head, i))
    }

    /// Threshold `INLINE + i` of the node at head line `head`.
    fn extra(&self, head: usize, i: usize) -> u64 {
        let word = HEAD + i;
        self.lines[head + word / 8].0[word % 8]
    }

    /// Points record `at` to leaf `leaf`.
    pub(super) fn set_leaf(&mut self, at: usize, leaf: usize) {
        self.lines[at].0[0] = LEAF | leaf as u64;
    }

    /// The head line of the node whose record `at` is, or 0 for the root record.
    pub(super) fn owner(&self, at: usize, from: u64) -> usize {
        if at == 0 { 0 } else { head_of(from) }
    }

    /// Adds a node for `dist` at record `at` of the node at head line `parent` (0 for the root record);
    /// returns its head line.
    pub(super) fn grow(&mut self, parent: usize, at: usize, dist: &Dist) -> usize {
        let bounds = dist.bounds();
        let z = bounds.iter().take_while(|&&b| b == 0).count();
        let thresholds: Vec<u64> = bounds[z..].iter().map(|&b| b - 1).collect();
        let e = thresholds.len().saturating_sub(INLINE);
        let head = self.lines.len();
        let outcome = if parent == 0 { 0 } else { at - self.first_record(parent) };
        let mut words = vec![parent as u64 | (outcome as u64) << 32, e as u64];
        words.extend_from_slice(&thresholds[INLINE.min(thresholds.len())..]);
        words.resize(head_lines(e) * 8, u64::MAX);
        self.lines.extend(words.chunks_exact(8).map(|w| Line(w.try_into().expect("8 words"))));
        self.lines.resize(self.lines.len() + dist.len(), BLANK);
        let rec = &mut self.lines[at].0;
        rec[0] = (head + head_lines(e)) as u64 | (z as u64) << 32 | (e as u64) << 44;
        rec[1] = dist.total();
        rec[2..].fill(u64::MAX);
        rec[2..2 + INLINE.min(thresholds.len())].copy_from_slice(&thresholds[..INLINE.min(thresholds.len())]);
        head
    }

    /// The line of the first record of the node at head line `head`.
    fn first_record(&self, head: usize) -> usize {
        head + head_lines(self.lines[head].0[1] as usize)
    }

    /// Writes into `path` the outcomes from the root down to record `at` of the node at head line `head`.
    pub(super) fn trace(&self, mut head: usize, at: usize, path: &mut Vec<u32>) {
        path.clear();
        if head == 0 {
            return;
        }
        path.push((at - self.first_record(head)) as u32);
        loop {
            let w = self.lines[head].0[0];
            if w as u32 == 0 {
                break;
            }
            path.push((w >> 32) as u16 as u32);
            head = w as u32 as usize;
        }
        path.reverse();
    }

    pub(super) fn len(&self) -> usize {
        self.lines.len()
    }
}

/// `z` (leading zero weights) and `e` (thresholds beyond the first 6) of the node a link leads to.
#[inline]
fn zeros_and_extras(link: u64) -> (usize, usize) {
    ((link >> 32) as usize & 0xFFF, (link >> 44) as usize & 0xFFF)
}

/// Where a part whose threshold is `t` ends in an interval `w` wide: `floor(w (t + 1) / 2^64)`, which is
/// [`crate::chance::boundary`] at the bound `t + 1`, and `w` for an unused slot.
#[inline]
fn end(w: u64, t: u64) -> u64 {
    ((u128::from(w) * u128::from(t) + u128::from(w)) >> 64) as u64
}
