//! The exact interpreter: walks every branch of a trial's chance tree, each with its probability.
//!
//! [`enumerate`] runs the model's ordinary `trial` with a [`Replay`] source instead of a generator. A replay
//! answers the first picks from a recorded path and every new pick with its first possible outcome, so one run
//! of the trial visits one leaf. The path then advances like an odometer (depth first: the deepest node that
//! still has an untried outcome moves on, the nodes below it are forgotten) and the trial runs again, until
//! every leaf has been visited. A leaf's probability is the product of the picks along its path, a ratio of
//! integers (a pick's weight over its node's total, [`Dist`]); an [`ExactTally`] adds it to every slot the
//! trial reported, in rational arithmetic ([`crate::exact::sums`]), so an outcome that cannot happen is
//! exactly 0 and every value has its exact fraction ([`crate::fraction`]).
//!
//! A tree that is too large is [`TooLarge`] within about a second, never a hang. The walk replays a leaf's
//! whole path, so its cost is the number of picks over all leaves, not the leaves alone: it stops at
//! `max_leaves` leaves or at [`PICKS_PER_LEAF`] times that many picks (at least [`LEAST_PICKS`]),
//! whichever comes first. Before it starts, a few random descents estimate both (Knuth's estimator: the
//! product of the branching along a path uniformly chosen at each node has the tree's leaf count as its
//! mean), and a tree whose estimates are a hundred times over the budget in most descents is refused at
//! once, so a scenario with thousands of units is not walked up to the limit first.
//!
//! [`Model`], the trait every rule set's trial implements, is defined here rather than in [`crate::model`]
//! (which re-exports it): its default [`Model::solve`] is this walk, and the walk runs a `Model`, so the two
//! live in one file and the walk reads nothing of [`crate::model`].
//!
//! A caller that may have to give up sooner (a server whose client left, a job past its time) runs the work
//! inside [`halting`]: every walk it starts on that thread then stops at its next leaf once the flag is set,
//! and answers [`TooLarge`] with `halted` set.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use num_rational::BigRational;
use num_traits::{One, Zero};

pub use self::bounds::{Bounds, distribution_bounds, metric_bounds, slot_bounds};
use self::sums::{Leaf, Path, Sums};
use crate::chance::{Chance, Dist};
use crate::fraction::to_f64;
use crate::metrics::{MetricDef, MetricKind, Metrics, Recorder, SlotLog};

pub mod bounds;
mod limbs;
pub mod states;
#[cfg(debug_assertions)]
mod suffix;
mod sums;

/// A resolved rule set, ready to run trials.
pub trait Model: Sync {
    /// Whether the engine should walk a path memo instead of running the rules for every trial. It never
    /// changes a result; a model whose chance nodes are wide (hundreds of equally likely squares) is faster
    /// without it, since the memo's tape scans a wide node six outcomes at a time.
    const PATH_MEMO: bool = true;

    /// Whether the exact enumerator may walk the chance tree. False for self-play, whose tree holds every
    /// choice of every turn of a game: `exact` reports it too large at once instead of walking its leaves.
    const EXACT: bool = true;

    /// The metrics the trial reports, registered at resolve time.
    fn metrics(&self) -> &Metrics;

    /// Plays one trial: every random event through `chance`, every outcome to `rec`.
    fn trial<C: crate::chance::Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R);

    /// The exact probability of every slot: by default the leaf walk ([`crate::exact::enumerate`]) within
    /// `max_leaves`; a [`Stepped`](crate::model::Stepped) model answers with
    /// [`crate::exact::states::solve`].
    fn solve(&self, max_leaves: u64) -> Result<ExactTally, TooLarge>
    where
        Self: Sized,
    {
        crate::exact::enumerate(self, max_leaves)
    }

    /// [`Model::solve`] within `limits`: exact where the budget allows and, with [`Limits::prune`], certified
    /// bounds beyond it. By default the leaf walk, its unvisited leaves set aside; a
    /// [`Stepped`](crate::model::Stepped) model answers with [`crate::exact::states::solve_within`].
    fn solve_within(&self, limits: &Limits) -> Result<ExactTally, TooLarge>
    where
        Self: Sized,
    {
        match limits.prune {
            None => self.solve(limits.max_leaves),
            Some(prune) => crate::exact::enumerate_within(self, limits.max_leaves, Some(prune)),
        }
    }

    /// The exact probability of every slot by merging states ([`crate::exact::states::solve`]), if the
    /// model is [`Stepped`](crate::model::Stepped): what tests check against the leaf walk, whichever
    /// interpreter [`Model::solve`] picks.
    fn solve_by_states(&self, _max_leaves: u64) -> Option<Result<ExactTally, TooLarge>>
    where
        Self: Sized,
    {
        None
    }
}

/// The probability of every counter slot: `fractions[s]` is the exact chance a trial reports slot `s`, and
/// `probs[s]` the nearest float to it. A solve that set part of the tree aside ([`Limits::prune`]) has a
/// `residual`: the exact probability of the paths it did not follow to their end, so each slot's chance
/// lies between its fraction here and that plus the residual ([`bounds`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ExactTally {
    pub probs: Vec<f64>,
    pub fractions: Vec<BigRational>,
    /// The probability of the chance tree left unexplored: 0 for an exact answer.
    pub residual: BigRational,
    /// Why the solve left part of the tree unexplored, if it did.
    pub cut: Option<Cut>,
    /// The slot fractions and residual of the coarser passes of a solve made in passes
    /// ([`states::solve_within`]): each pass's bounds hold, and [`bounds`] intersects them.
    pub coarser: Vec<(Vec<BigRational>, BigRational)>,
    /// How many leaves the chance tree has (`u64::MAX` for more: a solve by merging states counts paths it
    /// never walks).
    pub leaves: u64,
    /// The units of work the solve spent, about one chance node each: the leaf walk's picks, or the merging
    /// solver's picks, states carried and sums ([`states`]). What a search of many solves estimates its
    /// cost by: unlike `leaves`, it grows with the time a solve takes, however the tree was solved.
    pub work: u64,
}

impl ExactTally {
    /// Whether every path of the chance tree was followed to its end.
    pub fn is_exact(&self) -> bool {
        self.residual.is_zero()
    }
}

/// What an exact solve may spend, and what it does once it has: refuse ([`TooLarge`]) or, given
/// [`Limits::prune`], answer with certified bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The leaf budget of an exact answer ([`Model::solve`]).
    pub max_leaves: u64,
    /// Bounds allowed: how far to go before setting the least likely part of the tree aside.
    pub prune: Option<Prune>,
}

impl Limits {
    /// An exact answer within `max_leaves`, or a refusal.
    pub fn exact(max_leaves: u64) -> Limits {
        Limits { max_leaves, prune: None }
    }
}

/// How a solve allowed to answer with bounds ([`Limits::prune`]) keeps within its means. It tries the exact
/// answer first, as [`Model::solve`] would; beyond that budget, the merging solver carries at most
/// `max_states` states at once, setting the least likely aside into the residual, and at `deadline` sets
/// aside everything not yet explored. A model that is not stepped walks leaves until its budget or the
/// deadline, and sets aside the leaves it did not visit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prune {
    pub max_states: u64,
    pub deadline: Option<std::time::Instant>,
}

/// Why a solve answered with bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// More states than [`Prune::max_states`] at once: the least likely were set aside.
    States,
    /// Paths too long to multiply out exactly were set aside.
    LongPaths,
    /// The leaf walk's budget ran out before every leaf was visited.
    Leaves,
    /// The time limit came before the solve ended.
    Time,
}

impl Cut {
    /// Why, in words, for a solve that carried at most `max_states` states: "the solve carries at most
    /// run.max_exact_states = 20000 states at once".
    pub fn reason(self, max_states: u64) -> String {
        match self {
            Cut::States => format!("the solve carries at most run.max_exact_states = {max_states} states at once"),
            Cut::LongPaths => "some paths are too long to multiply out exactly".to_owned(),
            Cut::Leaves => "the leaf walk reached run.max_exact_leaves".to_owned(),
            Cut::Time => "the time limit came first".to_owned(),
        }
    }
}

/// The picks a walk may make per leaf of its budget: replaying paths this long costs about as much as the
/// leaves themselves.
pub const PICKS_PER_LEAF: u64 = 16;

/// The fewest picks a walk may make, whatever the leaf budget: a small budget still lets a small but deep
/// tree be walked, in well under a second.
pub const LEAST_PICKS: u64 = 1 << 24;

/// Units of work a solve by merging states ([`states::solve`]) may spend per leaf of its budget.
pub const WORK_PER_LEAF: u64 = 4;

/// The fewest units of work a solve by merging states may spend, whatever its budget.
pub const LEAST_WORK: u64 = 1 << 22;

/// How many random descents estimate a tree's size before it is walked.
const DESCENTS: u32 = 32;

/// How far over the budget a descent's estimate must be to count against the tree.
const OVER: f64 = 100.0;

/// The tree has more leaves than the budget allows, paths too long to replay within it, or is one no
/// budget would cover ([`Model::EXACT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", too_large(self))]
pub struct TooLarge {
    pub limit: u64,
    /// Whether the model's tree is never walked, whatever the limit (self-play).
    pub unbounded: bool,
    /// Whether the walk was stopped from outside ([`halting`]) before it reached the limit.
    pub halted: bool,
    /// Whether it was the state enumerator ([`states`]) that ran out, rather than the leaf walk.
    pub states: bool,
    /// For a solve that could answer with bounds, its cap on states ([`Prune::max_states`]): it spent the
    /// work of that many states before any pass could answer.
    pub capped: Option<u64>,
}

fn too_large(e: &TooLarge) -> String {
    let most = crate::config::run::MOST_EXACT_LEAVES;
    let limit = e.limit;
    let raise = if limit < most as u64 { format!(" or raise run.max_exact_leaves (up to {most})") } else { "".into() };
    if let Some(states) = e.capped {
        let most = crate::config::run::MOST_EXACT_STATES;
        format!(
            "solving it, even with bounds, takes more work than run.max_exact_states = {states} allows: its states \
             carry long distributions or its steps have many leaves; solve it by sampling (`run`) or raise \
             run.max_exact_states (up to {most})"
        )
    } else if e.halted {
        "the exact walk was stopped before it visited every leaf; solve it by sampling (`run`)".to_owned()
    } else if e.unbounded {
        "the chance tree holds every choice of every turn of a game, far too many leaves to walk; solve it by \
         sampling (`run`)"
            .to_owned()
    } else if e.states {
        format!(
            "solving it exactly takes more than run.max_exact_leaves = {limit} allows: its steps have more than \
             {limit} leaves from the states they merge, or need more than {} units of work; solve it by sampling \
             (`run`){raise}",
            limit.saturating_mul(WORK_PER_LEAF).max(LEAST_WORK)
        )
    } else {
        format!(
            "the chance tree has more than {limit} leaves, or paths too long to replay {limit} of them; solve it by \
             sampling (`run`){raise}"
        )
    }
}

/// One pick on the current path.
#[derive(Clone, Copy, Debug)]
struct Node {
    choice: u32,
    /// The next outcome with non-zero weight after `choice`, if any.
    next: Option<u32>,
    /// The pick's probability, `weight / total`.
    weight: u64,
    total: u64,
}

/// A chance source that replays a recorded path and extends it with first outcomes.
struct Replay<'a> {
    path: &'a mut Vec<Node>,
    depth: usize,
}

impl Chance for Replay<'_> {
    fn pick(&mut self, dist: &Dist) -> usize {
        let choice = match self.path.get(self.depth) {
            Some(node) => node.choice,
            None => next_live(dist, 0).expect("a distribution has a live outcome"),
        };
        let next = next_live(dist, choice + 1);
        let (weight, total) = (dist.weight(choice as usize), dist.total());
        if self.depth == self.path.len() {
            self.path.push(Node { choice, next, weight, total });
        }
        let node = &mut self.path[self.depth];
        (node.next, node.weight, node.total) = (next, weight, total);
        self.depth += 1;
        choice as usize
    }
}

/// The first outcome at or after `from` that can happen.
fn next_live(dist: &Dist, from: u32) -> Option<u32> {
    (from as usize..dist.len()).find(|&i| dist.weight(i) > 0).map(|i| i as u32)
}

/// The exact probability of every slot of `model`'s metrics, visiting at most `max_leaves` leaves and
/// [`PICKS_PER_LEAF`] times as many picks (at least [`LEAST_PICKS`]).
pub fn enumerate<M: Model>(model: &M, max_leaves: u64) -> Result<ExactTally, TooLarge> {
    enumerate_within(model, max_leaves, None)
}

/// [`enumerate`], and given `prune`, bounds where it would refuse: the walk stops at its budget or at the
/// deadline and sets aside the leaves it has not visited, their probability (one minus the visited leaves')
/// the residual. A tree far over the budget is still refused at once: the leaves a walk visits first are a
/// corner of it, and bounds from them would be 0% to 100%.
pub fn enumerate_within<M: Model>(model: &M, max_leaves: u64, prune: Option<Prune>) -> Result<ExactTally, TooLarge> {
    let too_large = TooLarge { limit: max_leaves, unbounded: !M::EXACT, halted: false, states: false, capped: None };
    let halt = HALT.with(|h| h.borrow().clone());
    let halted = || halt.as_ref().is_some_and(|h| h.load(Ordering::Relaxed));
    let max_picks = max_leaves.saturating_mul(PICKS_PER_LEAF).max(LEAST_PICKS);
    if !M::EXACT || far_too_large(model, max_leaves, max_picks) {
        return Err(too_large);
    }
    let slots_count = model.metrics().slots();
    // One more slot, every leaf's: the probability visited, so that what is set aside is known exactly.
    let mut sums = Sums::new(slots_count + 1);
    let mut path = Vec::new();
    let mut products = Path::default();
    let mut slots = Vec::new();
    let (mut leaves, mut picks) = (0u64, 0u64);
    let timed_out = |leaves: u64| {
        leaves.is_multiple_of(1024) && prune.and_then(|p| p.deadline).is_some_and(|d| std::time::Instant::now() >= d)
    };
    // What the walk visited, and as the residual the rest: 0 once every leaf is visited.
    let visited = |sums: Sums, leaves, picks, cut: Option<Cut>| {
        let mut fractions = sums.fractions();
        let residual = BigRational::one() - fractions.pop().expect("the visited slot");
        debug_assert!(cut.is_some() || residual.is_zero(), "the leaves' probabilities add up to 1, less {residual}");
        ExactTally { residual, cut, ..tally(model.metrics(), fractions, leaves, picks) }
    };
    loop {
        let spent = leaves == max_leaves || picks > max_picks;
        if spent || timed_out(leaves) {
            return match prune {
                Some(_) => Ok(visited(sums, u64::MAX, picks, Some(if spent { Cut::Leaves } else { Cut::Time }))),
                None => Err(too_large),
            };
        }
        if halted() {
            return Err(TooLarge { halted: true, ..too_large });
        }
        run_leaf(model, &mut path, &mut slots);
        let leaf = products.leaf(&path);
        if matches!(leaf, Leaf::TooLong) {
            return match prune {
                Some(_) => Ok(visited(sums, u64::MAX, picks, Some(Cut::LongPaths))),
                None => Err(too_large),
            };
        }
        slots.push(slots_count);
        sums.add(&leaf, &slots);
        slots.clear();
        leaves += 1;
        picks += cost(&leaf, path.len());
        if !advance(&mut path) {
            return Ok(visited(sums, leaves, picks, None));
        }
        products.forget_from(path.len() - 1);
    }
}

thread_local! {
    /// The flag that stops every walk started on this thread, while [`halting`] runs.
    static HALT: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `work` with every exact walk it starts on this thread stopping at its next leaf once `stop` is set
/// (answering [`TooLarge`] with `halted`). A thread-local rather than a parameter: the walks a job may start
/// sit below a run, a sweep's points or a sensitivity run's steps, each of which solves on the thread that
/// plays it, and a caller that can be stopped should not need every layer between to carry its flag.
pub fn halting<T>(stop: &Arc<AtomicBool>, work: impl FnOnce() -> T) -> T {
    /// Puts the flag that was there back, however `work` ends.
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            HALT.with(|h| *h.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(HALT.with(|h| h.borrow_mut().replace(Arc::clone(stop))));
    work()
}

/// The flag [`halting`] set on this thread, if any: what work that samples rather than walks hands on to
/// its runs (`SampleOptions::interrupt`), so that it stops with the walks.
pub fn halt_flag() -> Option<Arc<AtomicBool>> {
    HALT.with(|h| h.borrow().clone())
}

/// `work` on each of `items` on rayon's threads, the answers in order, each walk stopping as the calling
/// thread's would: the flag [`halting`] set here is set again on whichever thread runs an item, since a
/// thread-local does not travel with the work. What a search of many independent solves runs them by.
pub fn in_parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use rayon::prelude::*;
    let flag = halt_flag();
    items
        .par_iter()
        .map(|item| match &flag {
            Some(flag) => halting(flag, || work(item)),
            None => work(item),
        })
        .collect()
}

/// What a leaf counts against the pick budget: its picks, or for a leaf whose probability outgrew `u128`
/// the work of multiplying them as big fractions, which grows with the square of the path's length. Without
/// this a tree of very long paths (units rolling until one succeeds) would be walked for minutes before it
/// is refused, where the float walk stopped within a second.
fn cost(leaf: &Leaf, picks: usize) -> u64 {
    let picks = picks as u64;
    match leaf {
        Leaf::Small { .. } | Leaf::TooLong => picks,
        Leaf::Big { .. } => picks.saturating_mul(picks / BIG_PICKS_PER_UNIT + 1),
    }
}

/// How many big-fraction picks of a path cost one more pick each, per [`cost`].
const BIG_PICKS_PER_UNIT: u64 = 16;

/// The tally of the walk's slot `fractions`, with the slots trials do not report filled in.
fn tally(metrics: &Metrics, mut fractions: Vec<BigRational>, leaves: u64, work: u64) -> ExactTally {
    metrics.complete(&mut fractions, BigRational::one());
    let probs = fractions.iter().map(to_f64).collect();
    ExactTally { probs, fractions, leaves, work, residual: BigRational::zero(), cut: None, coarser: Vec::new() }
}

/// Whether most of [`DESCENTS`] random descents put the tree's leaves or picks [`OVER`] times over budget.
///
/// A descent's leaf estimate exceeds `x` with probability at most (leaves / x), and its pick estimate
/// likewise, so a tree within budget has each descent over by a factor of 100 with probability at most
/// 2%, and most of 32 descents over with a probability below 10^-18. The descents are seeded, so the
/// answer is the same every time.
fn far_too_large<M: Model>(model: &M, max_leaves: u64, max_picks: u64) -> bool {
    let mut descent = Descent { state: 0x5EED, width: 1.0, picks: 0 };
    let over = (0..DESCENTS).filter(|_| {
        descent.width = 1.0;
        descent.picks = 0;
        model.trial(&mut descent, &mut crate::metrics::Ignore);
        let (leaves, picks) = (descent.width, descent.width * (descent.picks as f64 + 1.0));
        leaves >= OVER * max_leaves as f64 || picks >= OVER * max_picks as f64
    });
    over.count() as u32 > DESCENTS / 2
}

/// Whether [`DESCENTS`] random descents put the picks of walking the whole tree (its leaves times their
/// paths) under `picks` on average (Knuth's estimator, unbiased: a single descent's estimate is often far
/// below a lopsided tree's size, the mean much less so): a tree the leaf walk finishes faster than the
/// state enumerator ([`states::solve_or_walk`]).
pub(crate) fn small_tree<M: Model>(model: &M, picks: f64) -> bool {
    let mut descent = Descent { state: 0x5EED, width: 1.0, picks: 0 };
    let total: f64 = (0..DESCENTS)
        .map(|_| {
            (descent.width, descent.picks) = (1.0, 0);
            model.trial(&mut descent, &mut crate::metrics::Ignore);
            descent.width * (descent.picks as f64 + 1.0)
        })
        .sum();
    total / f64::from(DESCENTS) < picks
}

/// A chance source that picks uniformly among the live outcomes of each node and multiplies their numbers.
struct Descent {
    state: u64,
    /// The product of the live outcomes of the nodes picked so far.
    width: f64,
    picks: u64,
}

impl Chance for Descent {
    fn pick(&mut self, dist: &Dist) -> usize {
        let live = || (0..dist.len()).filter(|&i| dist.weight(i) > 0);
        let n = live().count();
        self.width *= n as f64;
        self.picks += 1;
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let r = crate::chance::splitmix64(self.state);
        live().nth(((u128::from(r) * n as u128) >> 64) as usize).expect("a distribution has a live outcome")
    }
}

fn run_leaf<M: Model>(model: &M, path: &mut Vec<Node>, slots: &mut Vec<usize>) {
    let mut replay = Replay { path, depth: 0 };
    model.trial(&mut replay, &mut SlotLog(slots));
    debug_assert_eq!(replay.depth, replay.path.len(), "a trial must replay the same picks");
}

/// Moves the path to the next leaf, depth first. Returns false when every leaf has been visited.
fn advance(path: &mut Vec<Node>) -> bool {
    while let Some(node) = path.pop() {
        if let Some(next) = node.next {
            path.push(Node { choice: next, next: None, ..node });
            return true;
        }
    }
    false
}

/// The exact mean of a distribution metric whose slot fractions start at `slot` and span `width` values.
pub fn mean(fractions: &[BigRational], slot: usize, width: usize) -> BigRational {
    fractions[slot..slot + width].iter().enumerate().map(|(v, p)| p * BigRational::from_integer(v.into())).sum()
}

/// The exact probability of each value `0..=max` of distribution metric `def`: over all trials, or over those
/// its `given` metric counts ([`crate::metrics::MetricDef::given`]); `None` when no trial is counted.
pub fn distribution_fractions(metrics: &Metrics, exact: &ExactTally, def: &MetricDef) -> Option<Vec<BigRational>> {
    let base = metrics.base_of(def, &exact.fractions, BigRational::one());
    let values = &exact.fractions[def.slot..def.slot + def.width()];
    (!base.is_zero()).then(|| values.iter().map(|p| p / &base).collect())
}

/// [`distribution_fractions`] as the nearest floats.
pub fn distribution(metrics: &Metrics, exact: &ExactTally, def: &MetricDef) -> Option<Vec<f64>> {
    distribution_fractions(metrics, exact, def).map(|d| d.iter().map(to_f64).collect())
}

/// The exact value (probability or mean) of every metric, in `metrics` order, as a fraction; `None` for the
/// mean of a distribution whose `given` metric no trial counts.
pub fn metric_fractions(metrics: &Metrics, exact: &ExactTally) -> Vec<Option<BigRational>> {
    let value = |d: &MetricDef| match d.kind {
        MetricKind::Probability => Some(exact.fractions[d.slot].clone()),
        MetricKind::Distribution { .. } => {
            let base = metrics.base_of(d, &exact.fractions, BigRational::one());
            (!base.is_zero()).then(|| mean(&exact.fractions, d.slot, d.width()) / base)
        }
    };
    metrics.defs().iter().map(value).collect()
}

/// [`metric_fractions`] as the nearest floats (NaN for a mean over no trials).
pub fn metric_values(metrics: &Metrics, exact: &ExactTally) -> Vec<f64> {
    metric_fractions(metrics, exact).iter().map(|f| f.as_ref().map_or(f64::NAN, to_f64)).collect()
}
