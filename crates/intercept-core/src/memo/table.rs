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

/// The sorted segments of first words, each a leaf or [`WALK`], with an index on the words' top bits.
#[derive(Debug)]
pub(super) struct LeafTable {
    starts: Vec<u64>,
    tags: Vec<u32>,
    /// `index[x >> shift]`: the segment holding the first word of `x`'s bucket.
    index: Vec<u32>,
    shift: u32,
}

impl LeafTable {
    /// The leaf of the trials whose first word is `x`, or [`WALK`].
    #[inline]
    pub(super) fn find(&self, x: u64) -> u32 {
        let mut i = self.index[(x >> self.shift) as usize] as usize;
        while i + 1 < self.starts.len() && self.starts[i + 1] <= x {
            i += 1;
        }
        self.tags[i]
    }

    /// Where each segment starts.
    #[cfg(test)]
    pub(super) fn starts(&self) -> &[u64] {
        &self.starts
    }

    /// The table of what `tape` knows, or `None` if it would need more than `most` segments.
    pub(super) fn build(tape: &Tape, most: usize) -> Option<LeafTable> {
        let mut b = Builder { starts: Vec::new(), tags: Vec::new(), end: 0, most };
        b.visit(tape, 0, 0, 1 << 63, 0).then_some(())?;
        Some(b.finish())
    }
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
            _ => {
                let cell = 1u128 << (c - 1);
                ((start / cell, end.div_ceil(cell)), (start.div_ceil(cell), end / cell))
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

    /// The table, with a bucket index of about two buckets a segment.
    fn finish(self) -> LeafTable {
        let bits = (usize::BITS - self.starts.len().leading_zeros() + 1).clamp(8, 20);
        let shift = 64 - bits;
        let mut index = Vec::with_capacity(1 << bits);
        let mut i = 0;
        for bucket in 0..1u64 << bits {
            let first = bucket << shift;
            while i + 1 < self.starts.len() && self.starts[i + 1] <= first {
                i += 1;
            }
            index.push(i as u32);
        }
        LeafTable { starts: self.starts, tags: self.tags, index, shift }
    }
}
