//! The exact interpreter: walks every branch of a trial's chance tree, each with its probability.
//!
//! [`enumerate`] runs the model's ordinary `trial` with a [`Replay`] source instead of a generator. A replay
//! answers the first picks from a recorded path and every new pick with its first possible outcome, so one run
//! of the trial visits one leaf. The path then advances like an odometer (depth first: the deepest node that
//! still has an untried outcome moves on, the nodes below it are forgotten) and the trial runs again, until
//! every leaf has been visited. A leaf's probability is the product of the picks along its path; an
//! [`ExactTally`] adds it to every slot the trial reported. A leaf budget turns a tree that is too large into
//! [`TooLarge`] rather than a hang.

use crate::chance::{Chance, Dist};
use crate::metrics::{Metrics, SlotLog};
use crate::models::Model;

/// The probability of every counter slot: `probs[s]` is the exact chance a trial reports slot `s`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactTally {
    pub probs: Vec<f64>,
    /// How many leaves the chance tree has.
    pub leaves: u64,
}

/// The tree has more leaves than the budget allows, or is one no budget would cover ([`Model::EXACT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", too_large(*.limit, *.unbounded))]
pub struct TooLarge {
    pub limit: u64,
    /// Whether the model's tree is never walked, whatever the limit (self-play).
    pub unbounded: bool,
}

fn too_large(limit: u64, unbounded: bool) -> String {
    match unbounded {
        true => "the chance tree holds every choice of every turn of a game, far too many leaves to walk; solve it \
                 by sampling (`run`)"
            .to_owned(),
        false => format!(
            "the chance tree has more than {limit} leaves; solve it by sampling (`run`) or raise run.max_exact_leaves"
        ),
    }
}

/// One pick on the current path.
#[derive(Clone, Copy, Debug)]
struct Node {
    choice: u32,
    /// The next outcome with non-zero weight after `choice`, if any.
    next: Option<u32>,
}

/// A chance source that replays a recorded path and extends it with first outcomes.
struct Replay<'a> {
    path: &'a mut Vec<Node>,
    depth: usize,
    prob: f64,
}

impl Chance for Replay<'_> {
    fn pick(&mut self, dist: &Dist) -> usize {
        let choice = match self.path.get(self.depth) {
            Some(node) => node.choice,
            None => next_live(dist, 0).expect("a distribution has a live outcome"),
        };
        let next = next_live(dist, choice + 1);
        if self.depth == self.path.len() {
            self.path.push(Node { choice, next });
        }
        self.path[self.depth].next = next;
        self.depth += 1;
        self.prob *= dist.probability(choice as usize);
        choice as usize
    }
}

/// The first outcome at or after `from` that can happen.
fn next_live(dist: &Dist, from: u32) -> Option<u32> {
    (from as usize..dist.len()).find(|&i| dist.weight(i) > 0).map(|i| i as u32)
}

/// The exact probability of every slot of `model`'s metrics, visiting at most `max_leaves` leaves.
pub fn enumerate<M: Model>(model: &M, max_leaves: u64) -> Result<ExactTally, TooLarge> {
    if !M::EXACT {
        return Err(TooLarge { limit: max_leaves, unbounded: true });
    }
    let mut tally = ExactTally { probs: vec![0.0; model.metrics().slots()], leaves: 0 };
    let mut path = Vec::new();
    let mut slots = Vec::new();
    loop {
        if tally.leaves == max_leaves {
            return Err(TooLarge { limit: max_leaves, unbounded: false });
        }
        let prob = run_leaf(model, &mut path, &mut slots);
        slots.drain(..).for_each(|s| tally.probs[s] += prob);
        tally.leaves += 1;
        if !advance(&mut path) {
            model.metrics().complete(&mut tally.probs, 1.0);
            // Completion subtracts floats: keep "1 - (sum of the rest)" from showing as -0.000000.
            tally.probs.iter_mut().for_each(|p| *p = p.clamp(0.0, 1.0));
            return Ok(tally);
        }
    }
}

fn run_leaf<M: Model>(model: &M, path: &mut Vec<Node>, slots: &mut Vec<usize>) -> f64 {
    let mut replay = Replay { path, depth: 0, prob: 1.0 };
    model.trial(&mut replay, &mut SlotLog(slots));
    debug_assert_eq!(replay.depth, replay.path.len(), "a trial must replay the same picks");
    replay.prob
}

/// Moves the path to the next leaf, depth first. Returns false when every leaf has been visited.
fn advance(path: &mut Vec<Node>) -> bool {
    while let Some(node) = path.pop() {
        if let Some(next) = node.next {
            path.push(Node { choice: next, next: None });
            return true;
        }
    }
    false
}

/// The exact mean of a distribution metric whose slots start at `slot` and span `width` values.
pub fn mean(probs: &[f64], slot: usize, width: usize) -> f64 {
    probs[slot..slot + width].iter().enumerate().map(|(v, p)| v as f64 * p).sum()
}

/// The exact value (probability or mean) of every metric, in `metrics` order.
pub fn metric_values(metrics: &Metrics, exact: &ExactTally) -> Vec<f64> {
    use crate::metrics::MetricKind;
    metrics
        .defs()
        .iter()
        .map(|d| match d.kind {
            MetricKind::Probability => exact.probs[d.slot],
            MetricKind::Distribution { .. } => mean(&exact.probs, d.slot, d.width()),
        })
        .collect()
}
