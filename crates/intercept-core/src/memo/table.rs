//! The leaf table: the memo's tree flattened into the leaf each first word of a trial ends in.
//!
//! The sampler reads a trial's bits as one uniform number and every node cuts the interval it still falls in
//! ([`crate::chance::Sampler`]), so each leaf of the tree is the set of numbers in one interval. A
//! [`LeafTable`] lists, in order, where those intervals start as values of the trial's first 64-bit word:
//! sorted *segments*, each one leaf or [`WALK`]. A segment is a leaf only when every number whose first word
//! falls in it ends in that leaf; the words where a leaf ends part-way (the trial needs more bits to decide),
//! and the parts of the tree not walked yet, are `WALK`: the memo walks its tape there, exactly as before. So
//! the table changes no trial's leaf, only how fast it is found: a look-up in a bucket index and a short scan.
//!
//! The table is built by going down the tape ([`LeafTable::build`]), keeping each record's interval in the
//! coordinates of the bits read so far: a record is reached by the numbers whose first `63 + c` bits, as an
//! integer `P`, lie in `start..start + w` (`c` counts the bits read after the first word's 63).

use super::tape::{LEAF, Tape, UNSEEN};

/// A segment of first words that must walk the tape.
pub(super) const WALK: u32 = u32::MAX;

/// The most bits read beyond the first 63 that a record's interval can be followed to: `63 + c` bits must
/// stay below 128.
const MOST_BITS_AFTER: u32 = 64;

/// Buckets of the index: about `2^BUCKET_BITS` a segment.
const BUCKET_BITS: u32 = 3;

/// An index entry naming its bucket's leaf outright: the whole bucket lies in that leaf's segment.
const WHOLE: u32 = 1 << 31;

/// The sorted segments of first words, each a leaf or [`WALK`], with an index on the words' top bits.
#[derive(Clone, Debug)]
pub(super) struct LeafTable {
    starts: Vec<u64>,
    tags: Vec<u32>,
    /// `index[x >> shift]`: `WHOLE | leaf` when the bucket of `x` lies wholly in one leaf's segment (most
    /// trials land in such a bucket, so most look-ups are this one read), else the segment holding the
    /// bucket's first word, to scan on from.
    index: Vec<u32>,
    shift: u32,
}

impl LeafTable {
    /// The leaf of the trials whose first word is `x`, or [`WALK`].
    #[inline]
    pub(super) fn find(&self, x: u64) -> u32 {
        let entry = self.index[(x >> self.shift) as usize];
        if entry & WHOLE != 0 {
            return entry & !WHOLE;
        }
        let mut i = entry as usize;
        while i + 1 < self.starts.len() && self.starts[i + 1] <= x {
            i += 1;
        }
        self.tags[i]
    }

    /// Where each segment starts, and where each bucket of the index starts.
    #[cfg(test)]
    pub(super) fn edges(&self) -> impl Iterator<Item = u64> + '_ {
        self.starts.iter().copied().chain((0..self.index.len() as u64).map(|b| b << self.shift))
    }

    /// What [`LeafTable::find`] answers, found by a binary search of the segments instead of the index.
    #[cfg(test)]
    pub(super) fn searched(&self, x: u64) -> u32 {
        self.tags[self.starts.partition_point(|&s| s <= x) - 1]
    }

    /// The table of what `tape` knows, or `None` if it would need more than `most` segments.
    pub(super) fn build(tape: &Tape, most: usize) -> Option<LeafTable> {
        let mut b = Builder { starts: Vec::new(), tags: Vec::new(), end: 0, most };
        b.visit(tape, 0, 0, 1 << 63, 0).then_some(())?;
        Some(b.finish())
    }
}

/// How many cells of `2^k` numbers `v` numbers make, rounded down and up (shifts: a u128 division is a slow
/// call).
fn cells(v: u128, k: u32) -> (u128, u128) {
    (v >> k, (v + (1 << k) - 1) >> k)
}

/// Segments as they are found, in order of first word.
struct Builder {
    starts: Vec<u64>,
    tags: Vec<u32>,
    /// The first word not covered yet.
    end: u128,
    most: usize,
}

impl Builder {
    /// Adds the segments of record `at`, reached by the numbers whose first `63 + c` bits lie in
    /// `start..start + w`. False if the table grew past its limit.
    fn visit(&mut self, tape: &Tape, at: usize, start: u128, w: u64, c: u32) -> bool {
        let link = tape.link(at);
        if link & LEAF != 0 || link == UNSEEN {
            let tag = if link == UNSEEN { WALK } else { (link & !LEAF) as u32 };
            return self.region(start, w, c, tag);
        }
        for (record, part) in tape.parts(at, w) {
            let width = part.hi - part.lo;
            if width == 0 {
                continue;
            }
            let (k, from) = (width.leading_zeros(), start + u128::from(part.lo));
            let fits = c + k <= MOST_BITS_AFTER;
            let ok = if fits {
                self.visit(tape, record, from << k, width << k, c + k)
            } else {
                self.region(from, width, c, WALK)
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Adds the first words of the numbers whose first `63 + c` bits lie in `start..start + w`: those wholly
    /// inside as `tag`, the one or two it shares with its neighbours as [`WALK`].
    fn region(&mut self, start: u128, w: u64, c: u32, tag: u32) -> bool {
        let end = start + u128::from(w);
        let (touched, inside) = match c {
            // The first word's last bit is not read yet: every word of the region is wholly inside.
            0 => ((start << 1, end << 1), (start << 1, end << 1)),
            // A first word is a cell of 2^(c - 1) numbers.
            _ => {
                let ((start_down, start_up), (end_down, end_up)) = (cells(start, c - 1), cells(end, c - 1));
                ((start_down, end_up), (start_up, end_down))
            }
        };
        if inside.0 >= inside.1 {
            return self.push(touched.0, touched.1, WALK);
        }
        self.push(touched.0, inside.0, WALK)
            && self.push(inside.0, inside.1, tag)
            && self.push(inside.1, touched.1, WALK)
    }

    /// Covers the words `from..to` with `tag` (a word already covered, shared with the region before, is
    /// [`WALK`] on both sides and stays so).
    fn push(&mut self, from: u128, to: u128, tag: u32) -> bool {
        let from = from.max(self.end);
        if from >= to {
            return true;
        }
        self.end = to;
        if self.tags.last() != Some(&tag) {
            self.starts.push(from as u64);
            self.tags.push(tag);
        }
        self.starts.len() <= self.most
    }

    /// The table, with a bucket index of about `2^BUCKET_BITS` buckets a segment.
    fn finish(self) -> LeafTable {
        let bits = (usize::BITS - self.starts.len().leading_zeros() + BUCKET_BITS).clamp(8, 20);
        let shift = 64 - bits;
        let mut index = vec![0; 1 << bits];
        // Segment by segment, the buckets whose first word it holds: those wholly inside it, then the one it
        // ends part-way through, if any, which scans from it.
        for (i, (&start, &tag)) in self.starts.iter().zip(&self.tags).enumerate() {
            let end = self.starts.get(i + 1).map_or(1 << 64, |&next| u128::from(next));
            let (from, (inside, touched)) = (cells(start.into(), shift).1 as usize, cells(end, shift));
            let (inside, touched) = (inside as usize, touched as usize);
            if from < inside {
                index[from..inside].fill(if tag < WHOLE { WHOLE | tag } else { i as u32 });
            }
            if from <= inside && inside < touched {
                index[inside] = i as u32;
            }
        }
        LeafTable { starts: self.starts, tags: self.tags, index, shift }
    }
}
