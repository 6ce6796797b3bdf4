//! The exact interpreter for [`Stepped`] models: a distribution over states, equal states merged after every
//! step, so the work is distinct states times the branching of one step, not the leaves of the whole tree.
//!
//! The frontier maps each state a trial can be in after `k` steps to its [`Entry`]: the summed weight of the
//! paths that lead there, how many paths those are, and the distribution of every accumulated value over
//! them. One step of one state is walked leaf by leaf with the same odometer as the leaf walk
//! ([`super::Replay`]); its leaves are grouped by where they lead (the next state, or the end) and what they
//! added, so a state with a hundred leaves that lead to three states costs three merges.
//!
//! Every weight of the frontier is an integer over one denominator shared by the frontier, multiplied by
//! the least common multiple of the step's probabilities at each step: merging two states is adding two
//! integers, and no greatest common divisor is taken until the very end. The slots a step reports are added
//! to per-slot sums over the same denominator.
//!
//! The leaf count is kept exactly as the leaf walk counts it (paths multiply and add like weights), so
//! `exact` still says how many leaves the tree has, however many it did not need to visit.

use std::collections::HashMap;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::sums::{Leaf, Path};
use super::{ExactTally, HALT, Node, Replay, TooLarge, advance, tally};
use crate::metrics::SlotLog;
use crate::model::{Accumulated, Accumulators, Flow, Stepped};

/// The paths that reach one state after some steps, all weights over the frontier's denominator.
#[derive(Clone, Debug)]
struct Entry {
    weight: BigUint,
    /// How many paths of the chance tree end here (saturating).
    paths: u128,
    /// `counts[i][v]`: the weight of those paths whose count `i` is `v` so far (trailing zeros left out).
    counts: Vec<Vec<BigUint>>,
    /// `flags[i]`: the weight of those paths that have set flag `i`.
    flags: Vec<BigUint>,
}

impl Entry {
    fn empty(acc: &Accumulators) -> Entry {
        Entry {
            weight: BigUint::zero(),
            paths: 0,
            counts: vec![Vec::new(); acc.counts.len()],
            flags: vec![BigUint::zero(); acc.flags.len()],
        }
    }

    fn start(acc: &Accumulators) -> Entry {
        let mut e = Entry::empty(acc);
        e.weight = BigUint::one();
        e.paths = 1;
        e.counts.iter_mut().for_each(|c| c.push(BigUint::one()));
        e
    }

    /// Adds the paths of `from` that took a move with `leaves` leaves, scaled weight `n`, adding `delta`.
    fn absorb(&mut self, from: &Entry, delta: &Accumulated, n: &BigUint, leaves: u128, acc: &Accumulators) {
        self.weight += &from.weight * n;
        self.paths = self.paths.saturating_add(from.paths.saturating_mul(leaves));
        for (i, (&(_, max), values)) in acc.counts.iter().zip(&from.counts).enumerate() {
            let target = &mut self.counts[i];
            for (v, w) in values.iter().enumerate().filter(|(_, w)| !w.is_zero()) {
                let at = (v as u64 + u64::from(delta.counts[i])).min(u64::from(max)) as usize;
                if target.len() <= at {
                    target.resize(at + 1, BigUint::zero());
                }
                target[at] += w * n;
            }
        }
        for (i, w) in from.flags.iter().enumerate() {
            let set = delta.flags >> i & 1 != 0;
            self.flags[i] += if set { &from.weight } else { w } * n;
        }
    }

    /// Adds what the paths of `from` that ended with a move of scaled weight `n`, adding `delta`, report
    /// at the end: their counts and flags.
    fn finish(&self, delta: &Accumulated, n: &BigUint, acc: &Accumulators, sums: &mut [BigUint]) {
        for (i, (&(m, max), values)) in acc.counts.iter().zip(&self.counts).enumerate() {
            for (v, w) in values.iter().enumerate().filter(|(_, w)| !w.is_zero()) {
                let value = (v as u64 + u64::from(delta.counts[i])).min(u64::from(max)) as usize;
                if value > 0 {
                    sums[m.slot() + value] += w * n;
                }
            }
        }
        for (i, (&m, w)) in acc.flags.iter().zip(&self.flags).enumerate() {
            let set = delta.flags >> i & 1 != 0;
            sums[m.slot()] += if set { &self.weight } else { w } * n;
        }
    }
}

/// What one step does from one state: where its leaves lead, with what probability and how many leaves,
/// and the probability of each slot it reports.
struct Moves<S> {
    to: HashMap<(Option<S>, Accumulated), (BigRational, u128)>,
    reports: HashMap<usize, BigRational>,
}

/// The exact probability of every slot of a stepped `model`, walking at most `max_leaves` leaves of steps
/// in all (a step of `s` states with `l` leaves each is `s * l`).
pub fn solve<M: Stepped>(model: &M, max_leaves: u64) -> Result<ExactTally, TooLarge> {
    let too_large = TooLarge { limit: max_leaves, unbounded: false, halted: false };
    let halt = HALT.with(|h| h.borrow().clone());
    let acc = model.accumulators();
    let mut sums = vec![BigUint::zero(); model.metrics().slots()];
    let mut denominator = BigUint::one();
    let mut frontier = vec![(model.start(), Entry::start(acc))];
    let (mut leaves, mut walked) = (0u128, 0u64);
    while !frontier.is_empty() {
        let mut steps = Vec::with_capacity(frontier.len());
        for (state, entry) in frontier {
            if halt.as_ref().is_some_and(|h| h.load(std::sync::atomic::Ordering::Relaxed)) {
                return Err(TooLarge { halted: true, ..too_large });
            }
            let moves = walk(model, &state, &mut walked, max_leaves).ok_or(too_large)?;
            steps.push((entry, moves));
        }
        let lcm = steps.iter().flat_map(|(_, m)| denominators(m)).fold(BigUint::one(), |l, d| l.lcm(&d));
        sums.iter_mut().for_each(|s| *s *= &lcm);
        denominator *= &lcm;
        let mut next: HashMap<M::State, Entry> = HashMap::new();
        for (entry, moves) in steps {
            for (slot, p) in moves.reports {
                sums[slot] += &entry.weight * scaled(&p, &lcm);
            }
            for ((to, delta), (p, count)) in moves.to {
                let n = scaled(&p, &lcm);
                match to {
                    Some(state) => {
                        next.entry(state).or_insert_with(|| Entry::empty(acc)).absorb(&entry, &delta, &n, count, acc)
                    }
                    None => {
                        leaves = leaves.saturating_add(entry.paths.saturating_mul(count));
                        entry.finish(&delta, &n, acc, &mut sums);
                    }
                }
            }
        }
        frontier = next.into_iter().collect();
    }
    let denominator = BigInt::from(denominator);
    let fractions = sums.into_iter().map(|s| BigRational::new(BigInt::from(s), denominator.clone())).collect();
    Ok(tally(model.metrics(), fractions, u64::try_from(leaves).unwrap_or(u64::MAX)))
}

/// `p * lcm` as an integer: `lcm` is a multiple of `p`'s denominator.
fn scaled(p: &BigRational, lcm: &BigUint) -> BigUint {
    let (num, den) = (p.numer().magnitude(), p.denom().magnitude());
    num * (lcm / den)
}

/// The denominators of every probability in `moves`.
fn denominators<S>(moves: &Moves<S>) -> impl Iterator<Item = BigUint> + '_ {
    let to = moves.to.values().map(|(p, _)| p);
    to.chain(moves.reports.values()).map(|p| p.denom().magnitude().clone())
}

/// Walks every leaf of one step from `state`, grouping the leaves by where they lead. `None` once `walked`
/// passes `max_leaves`, or a leaf's path is too long to multiply out.
fn walk<M: Stepped>(model: &M, state: &M::State, walked: &mut u64, max_leaves: u64) -> Option<Moves<M::State>> {
    let mut moves = Moves { to: HashMap::new(), reports: HashMap::new() };
    let (mut path, mut products, mut slots) = (Vec::new(), Path::default(), Vec::new());
    loop {
        *walked += 1;
        if *walked > max_leaves {
            return None;
        }
        let (next, delta, flow) = run_step(model, state, &mut path, &mut slots);
        let p = match products.leaf(&path) {
            Leaf::Small { num, den } => BigRational::new(num.into(), den.into()),
            Leaf::Big { num, den } => BigRational::new(num.into(), den.into()),
            Leaf::TooLong => return None,
        };
        for &slot in &slots {
            *moves.reports.entry(slot).or_insert_with(BigRational::zero) += &p;
        }
        slots.clear();
        let to = (flow == Flow::Go).then_some(next);
        let (sum, count) = moves.to.entry((to, delta)).or_insert_with(|| (BigRational::zero(), 0));
        *sum += p;
        *count += 1;
        if !advance(&mut path) {
            return Some(moves);
        }
        products.forget_from(path.len() - 1);
    }
}

/// Runs one step from a copy of `state` along `path`, extending it with first outcomes: the state it leads
/// to, what it added, and whether the trial goes on.
fn run_step<M: Stepped>(
    model: &M,
    state: &M::State,
    path: &mut Vec<Node>,
    slots: &mut Vec<usize>,
) -> (M::State, Accumulated, Flow) {
    let mut next = state.clone();
    let mut delta = Accumulated::default();
    let mut replay = Replay { path, depth: 0 };
    let flow = model.step(&mut next, &mut delta, &mut replay, &mut SlotLog(slots));
    debug_assert_eq!(replay.depth, replay.path.len(), "a step must replay the same picks");
    (next, delta, flow)
}
