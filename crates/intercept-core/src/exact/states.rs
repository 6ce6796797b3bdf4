//! The exact interpreter for [`Stepped`] models: a distribution over states, equal states merged after every
//! step, so the work is distinct states times the branching of one step, not the leaves of the whole tree.
//!
//! States wait in [`Bucket`]s by their progress ([`Stepped::progress`]), and the least advanced bucket is
//! stepped first, so a state is stepped once every path to it has arrived, however many steps each took.
//! A bucket maps each state to its [`Entry`]: the summed weight of the paths that lead there, how many paths
//! those are, and the distribution of every accumulated value over them. One step of one state is walked
//! leaf by leaf with the same odometer as the leaf walk ([`super::Replay`]); its leaves are grouped by where
//! they lead (the next state, or the end) and what they added, so a state with a hundred leaves that lead to
//! three states costs three merges.
//!
//! Every weight of a bucket is an integer over the bucket's one denominator: merging two states is adding
//! two integers, and no greatest common divisor is taken until the very end. A step's moves are over the
//! bucket's denominator times the least common multiple of the step's probabilities; a bucket they join
//! that has another denominator is brought to the least common multiple of the two. The slots a step reports
//! are added to per-slot sums kept by denominator ([`Sums`]).
//!
//! The leaf count is kept exactly as the leaf walk counts it (paths multiply and add like weights), so
//! `exact` still says how many leaves the tree has, however many it did not need to visit.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::limbs::{Limbs, add_mul, add_mul_wide, from_big, to_big};
use super::sums::{Leaf, Path};
use super::{Cut, ExactTally, HALT, LEAST_WORK, Limits, Node, Prune, Replay, TooLarge, WORK_PER_LEAF, advance, tally};
use crate::metrics::SlotLog;
use crate::model::{Accumulated, Accumulators, Flow, Stepped};

/// The paths that reach one state after some steps, all weights over the frontier's denominator.
#[derive(Clone, Debug)]
struct Entry {
    weight: Limbs,
    /// How many paths of the chance tree end here (saturating).
    paths: u128,
    /// `counts[i][v]`: the weight of those paths whose count `i` is `v` so far (trailing zeros left out).
    counts: Vec<Vec<Limbs>>,
    /// `flags[i]`: the weight of those paths that have set flag `i`.
    flags: Vec<Limbs>,
    /// The picks of one path that leads here, for the check of merged states ([`super::suffix`]).
    #[cfg(debug_assertions)]
    path: Vec<u32>,
}

/// A scaled probability: one limb in almost every step, any number in the rest.
enum Scale {
    One(u64),
    Wide(Limbs),
}

impl Scale {
    fn of(n: &BigUint) -> Scale {
        match from_big(n).as_slice() {
            [] => Scale::One(0),
            [k] => Scale::One(*k),
            wide => Scale::Wide(wide.to_vec()),
        }
    }

    /// `acc += x * self`. Returns its cost in [`Budget`] units: one per eight limbs of `x`, at least one.
    fn add_to(&self, acc: &mut Limbs, x: &[u64]) -> u64 {
        match self {
            Scale::One(k) => add_mul(acc, x, *k),
            Scale::Wide(k) => add_mul_wide(acc, x, k),
        }
        1 + x.len() as u64 / 8
    }
}

impl Entry {
    fn empty(acc: &Accumulators) -> Entry {
        Entry {
            weight: Limbs::new(),
            paths: 0,
            counts: vec![Vec::new(); acc.counts.len()],
            flags: vec![Limbs::new(); acc.flags.len()],
            #[cfg(debug_assertions)]
            path: Vec::new(),
        }
    }

    fn start(acc: &Accumulators) -> Entry {
        let mut e = Entry::empty(acc);
        e.weight = vec![1];
        e.paths = 1;
        e.counts.iter_mut().for_each(|c| c.push(vec![1]));
        e
    }

    /// Adds the paths of `from` that took a move with `leaves` leaves, scaled weight `n`, adding `delta`.
    /// Returns its cost.
    fn absorb(&mut self, from: &Entry, delta: &Accumulated, n: &Scale, leaves: u128, acc: &Accumulators) -> u64 {
        let mut cost = n.add_to(&mut self.weight, &from.weight);
        self.paths = self.paths.saturating_add(from.paths.saturating_mul(leaves));
        for (i, (&(_, max), values)) in acc.counts.iter().zip(&from.counts).enumerate() {
            let target = &mut self.counts[i];
            for (v, w) in values.iter().enumerate().filter(|(_, w)| !w.is_empty()) {
                let at = (v as u64 + u64::from(delta.counts[i])).min(u64::from(max)) as usize;
                if target.len() <= at {
                    target.resize(at + 1, Limbs::new());
                }
                cost += n.add_to(&mut target[at], w);
            }
        }
        for (i, w) in from.flags.iter().enumerate() {
            let set = delta.flags >> i & 1 != 0;
            cost += n.add_to(&mut self.flags[i], if set { &from.weight } else { w });
        }
        cost
    }

    /// Multiplies every weight by `up`. Returns its cost.
    fn rescale(&mut self, up: &Scale) -> u64 {
        let mut cost = 0;
        let all = std::iter::once(&mut self.weight).chain(self.counts.iter_mut().flatten()).chain(&mut self.flags);
        for w in all.filter(|w| !w.is_empty()) {
            let mut out = Limbs::new();
            cost += up.add_to(&mut out, w);
            *w = out;
        }
        cost
    }

    /// Adds what the paths of `from` that ended with a move of scaled weight `n` over denominator `den`,
    /// adding `delta`, report at the end: their counts and flags. Returns its cost.
    fn finish(&self, delta: &Accumulated, n: &Scale, den: u32, acc: &Accumulators, sums: &mut Sums) -> u64 {
        let mut cost = 0;
        for (i, (&(m, max), values)) in acc.counts.iter().zip(&self.counts).enumerate() {
            for (v, w) in values.iter().enumerate().filter(|(_, w)| !w.is_empty()) {
                let value = (v as u64 + u64::from(delta.counts[i])).min(u64::from(max)) as usize;
                if value > 0 {
                    cost += sums.add(m.slot() + value, den, w, n);
                }
            }
        }
        for (i, (&m, w)) in acc.flags.iter().zip(&self.flags).enumerate() {
            let set = delta.flags >> i & 1 != 0;
            cost += sums.add(m.slot(), den, if set { &self.weight } else { w }, n);
        }
        cost
    }
}

/// Per-slot sums of probability, each kept as numerators per denominator: the denominators are few (each
/// bucket's, times its step's least common multiple), and are registered once, so adding to a slot is adding
/// integers, and fractions are formed once, at the end.
struct Sums {
    /// For each slot, its numerators by denominator id.
    slots: Vec<Vec<(u32, Limbs)>>,
    denominators: Vec<BigUint>,
    ids: FxMap<BigUint, u32>,
}

impl Sums {
    fn new(slots: usize) -> Sums {
        Sums { slots: vec![Vec::new(); slots], denominators: Vec::new(), ids: FxMap::default() }
    }

    /// The id of denominator `d`.
    fn denominator(&mut self, d: &BigUint) -> u32 {
        if let Some(&id) = self.ids.get(d) {
            return id;
        }
        let id = u32::try_from(self.denominators.len()).expect("fewer denominators than buckets");
        self.denominators.push(d.clone());
        self.ids.insert(d.clone(), id);
        id
    }

    /// `slot += x * n / denominator[den]`. Returns its cost.
    fn add(&mut self, slot: usize, den: u32, x: &[u64], n: &Scale) -> u64 {
        let sums = &mut self.slots[slot];
        // The latest denominator is the likeliest: search from the end.
        let at = match sums.iter().rposition(|(d, _)| *d == den) {
            Some(at) => at,
            None => {
                sums.push((den, Limbs::new()));
                sums.len() - 1
            }
        };
        n.add_to(&mut sums[at].1, x)
    }

    /// What [`Sums::fractions`] costs in budget units: a greatest common divisor of numbers of `n` limbs
    /// takes about `n^2` limb operations, some sixteen to a unit.
    fn reduction_cost(&self) -> u64 {
        let den_limbs: Vec<u64> = self.denominators.iter().map(|d| d.to_u64_digits().len() as u64).collect();
        let sums = self.slots.iter().flatten();
        sums.map(|(d, num)| (num.len() as u64).max(den_limbs[*d as usize]).pow(2) / 16 + 1).sum()
    }

    fn fractions(self) -> Vec<BigRational> {
        let dens = &self.denominators;
        let fraction = |(d, num): &(u32, Limbs)| {
            BigRational::new(BigInt::from(to_big(num)), BigInt::from(dens[*d as usize].clone()))
        };
        self.slots.iter().map(|sums| sums.iter().map(fraction).fold(BigRational::zero(), |a, b| a + b)).collect()
    }
}

/// The states a trial can be in at one point of its progress ([`Stepped::progress`]), every weight over
/// one denominator.
struct Bucket<S> {
    den: BigUint,
    states: FxMap<S, Entry>,
}

impl<S> Bucket<S> {
    /// Brings the bucket to a denominator that `incoming` divides, and returns what a weight over
    /// `incoming` must be multiplied by to be over it; with the cost of rescaling.
    fn common(&mut self, incoming: &BigUint) -> (BigUint, u64) {
        if self.states.is_empty() {
            self.den = incoming.clone();
        }
        if &self.den == incoming {
            return (BigUint::one(), 0);
        }
        let common = self.den.lcm(incoming);
        let mut cost = 0;
        if common != self.den {
            let up = Scale::of(&(&common / &self.den));
            for entry in self.states.values_mut() {
                cost += entry.rescale(&up);
            }
            self.den = common.clone();
        }
        (&common / incoming, cost)
    }
}

/// The hash of states and moves: rustc's FxHash, a multiply and a rotate per word. Every leaf of every step
/// hashes the state it leads to, and SipHash, built to resist keys chosen by an attacker, was a tenth of a
/// solve; keys are compared in full all the same, so a collision costs time, never a wrong merge.
#[derive(Clone, Copy, Default)]
struct Fx(u64);

impl Fx {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        }
        for &byte in words.remainder() {
            self.add(u64::from(byte));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// What one step does from one state: where its leaves lead, with what probability and how many leaves,
/// and the probability of each slot it reports.
struct Moves<S> {
    to: FxMap<(Option<S>, Accumulated), (Prob, u128, Trace)>,
    reports: FxMap<usize, Prob>,
}

/// The picks of a move's first leaf in debug builds, for the check of merged states; nothing otherwise.
#[cfg(debug_assertions)]
type Trace = Vec<u32>;
#[cfg(not(debug_assertions))]
type Trace = ();

fn trace(path: &[Node]) -> Trace {
    #[cfg(debug_assertions)]
    return path.iter().map(|n| n.choice).collect();
    #[cfg(not(debug_assertions))]
    let _ = path;
}

/// [`Moves`] with each probability made one fraction.
struct Step<S> {
    to: Vec<(Option<S>, Accumulated, BigRational, u128, Trace)>,
    reports: Vec<(usize, BigRational)>,
}

impl<S> Moves<S> {
    fn step(self) -> Step<S> {
        let to = self.to.into_iter().map(|((to, delta), (p, n, t))| (to, delta, p.fraction(), n, t)).collect();
        Step { to, reports: self.reports.into_iter().map(|(slot, p)| (slot, p.fraction())).collect() }
    }
}

/// A sum of leaf probabilities: numerators added per denominator, as the leaf walk's sums are (a step's
/// leaves have few denominators), and made one fraction once the step is walked.
#[derive(Default)]
struct Prob {
    by_den: Vec<(u128, u128)>,
    /// Leaves whose denominator outgrew `u128`.
    big: Option<BigRational>,
}

impl Prob {
    fn add(&mut self, leaf: &Leaf) {
        match leaf {
            Leaf::Small { num, den } => match self.by_den.iter_mut().find(|(d, _)| d == den) {
                // Numerators over one denominator add up to at most it: the leaves' probabilities sum to 1.
                Some((_, sum)) => *sum += num,
                None => self.by_den.push((*den, *num)),
            },
            Leaf::Big { num, den } => {
                let p = BigRational::new(num.clone().into(), den.clone().into());
                self.big = Some(self.big.take().map_or(p.clone(), |b| b + p));
            }
            Leaf::TooLong => unreachable!("a walk stops at a leaf too long to multiply out"),
        }
    }

    fn fraction(&self) -> BigRational {
        let small = self.by_den.iter().map(|&(den, num)| BigRational::new(num.into(), den.into()));
        small.chain(self.big.clone()).fold(BigRational::zero(), |a, b| a + b)
    }
}

/// What a solve may spend: the leaves of steps it walks (a step of `s` states with `l` leaves each is
/// `s * l`), at most `max_leaves`, and its work in all, picks, states copied and additions of numerators
/// alike, at most [`WORK_PER_LEAF`] times that (at least [`LEAST_WORK`]): a state space that is small but
/// carries long distributions (thousands of interceptors, each adding to a count), or one that is simply too
/// large (`benches/data/grand-armada.toml`), is refused within about a second. The shipped scenarios use
/// at most 900,000 units.
struct Budget {
    leaves: u64,
    work: u64,
    most_leaves: u64,
    most_work: u64,
    deadline: Option<std::time::Instant>,
}

impl Budget {
    fn new(max_leaves: u64) -> Budget {
        let most_work = max_leaves.saturating_mul(WORK_PER_LEAF).max(LEAST_WORK);
        Budget { leaves: 0, work: 0, most_leaves: max_leaves, most_work, deadline: None }
    }

    /// What a solve that may set states aside has, over all its passes: [`WORK_PER_STATE`] units a state of
    /// its cap, and the time. A few states can carry long distributions (thousands of units each adding to a
    /// count), which no cap on states bounds: such a solve is refused within about as long as the cap's
    /// states take.
    fn capped(max_states: u64, deadline: Option<std::time::Instant>) -> Budget {
        let most_work = max_states.saturating_mul(WORK_PER_STATE);
        Budget { leaves: 0, work: 0, most_leaves: u64::MAX, most_work, deadline }
    }

    /// Whether the deadline has passed.
    fn late(&self) -> bool {
        self.deadline.is_some_and(|d| std::time::Instant::now() >= d)
    }

    /// Spends one leaf of `picks` picks that copied and hashed a state of `bytes` bytes; false once over
    /// budget. A pick and 32 bytes of state cost about as much: a state of 340 bytes costs more to carry
    /// than its few picks, and counting only picks let a refusal take two seconds.
    fn leaf(&mut self, picks: usize, bytes: usize) -> bool {
        self.leaves += 1;
        // The clock is read every 1,024 leaves: reading it at each cost as much as a small leaf.
        let late = self.leaves.is_multiple_of(1024) && self.late();
        self.spend(picks as u64 + 1 + bytes as u64 / 32) && self.leaves <= self.most_leaves && !late
    }

    /// Spends `units` of work; false once over budget.
    fn spend(&mut self, units: u64) -> bool {
        self.work = self.work.saturating_add(units);
        self.work <= self.most_work
    }
}

/// The exact probability of every slot of a stepped `model`, within the [`Budget`] of `max_leaves`.
///
/// States wait in buckets by their progress and the least advanced bucket is taken first, so a state is
/// stepped only once every path to it has arrived, however many steps each took: a combat that lasts one
/// round and one that lasts three lead to states that merge.
pub fn solve<M: Stepped>(model: &M, max_leaves: u64) -> Result<ExactTally, TooLarge> {
    solve_within(model, max_leaves, None)
}

/// [`solve`], and given `prune`, certified bounds where it would refuse.
///
/// The solve is tried exactly first, carrying at most [`Prune::max_states`] states at once. Past that, it
/// is made again in passes that set aside every state less likely than a floor as its turn comes: 2^-1, then
/// 2^-2, 2^-3 and on down while a pass stays within the cap. A state's probability when its turn comes is
/// final (every path to it has arrived), and a lower floor keeps every state a higher one kept, with at least
/// the same probability (compared exactly, in integers), so each pass explores every path the one before did
/// and leaves less aside. Each pass's bounds hold; the answer carries every pass's sums
/// ([`ExactTally::coarser`]) and its bounds are the intersection of theirs, since a path a finer pass follows
/// further may report a metric before it is set aside, which widens a bound taken from that pass alone. A
/// larger cap runs every pass a smaller one ran, and more: its bounds lie within the smaller's
/// (tests/bounds.rs). States whose step has paths too long to multiply out are set aside too. At the deadline
/// the passes finished answer; if none has, the pass under way sets aside everything still waiting. The budget
/// of `max_leaves` does not apply: the cap bounds the memory and the deadline the time. Whatever is set aside
/// is added exactly, and what ended and what was set aside add up to 1 (checked in debug builds).
pub fn solve_within<M: Stepped>(model: &M, max_leaves: u64, prune: Option<Prune>) -> Result<ExactTally, TooLarge> {
    let too_large = TooLarge { limit: max_leaves, unbounded: false, halted: false, states: true, capped: None };
    let Some(prune) = prune else {
        return match pass(model, &mut Budget::new(max_leaves), None) {
            Ok(answer) => Ok(answer),
            Err(Failed::Halted) => Err(TooLarge { halted: true, ..too_large }),
            Err(_) => Err(too_large),
        };
    };
    let mut passes: Vec<ExactTally> = Vec::new();
    let mut budget = Budget::capped(prune.max_states, prune.deadline);
    // The answer: the finest pass, carrying the sums of the others.
    let answer = |mut passes: Vec<ExactTally>, cut: Option<Cut>| {
        let mut last = passes.pop()?;
        last.coarser = passes.into_iter().map(|p| (p.fractions, p.residual)).collect();
        last.cut = cut.or(last.cut);
        Some(last)
    };
    for floor in std::iter::once(None).chain((1..=MOST_FLOOR).map(Some)) {
        let settings = Pass { floor, max_states: prune.max_states, set_aside_when_late: passes.is_empty() };
        match pass(model, &mut budget, Some(settings)) {
            Ok(exact) if exact.is_exact() => return Ok(exact),
            Ok(bounded) => passes.push(bounded),
            Err(Failed::Halted) => return Err(TooLarge { halted: true, ..too_large }),
            Err(Failed::Late(late)) => {
                passes.extend(late.map(|b| *b));
                return answer(passes, Some(Cut::Time)).ok_or(too_large);
            }
            // Not even exactly within the cap: the floors from 2^-1 down.
            Err(Failed::OverCap) if floor.is_none() => {}
            // Over the cap at 2^-1: the cap is below the states of a step.
            Err(Failed::OverCap) => break,
            // The work of the cap's states spent: the passes finished answer, if any has.
            Err(Failed::Budget) if floor.is_none() => {}
            Err(Failed::Budget) if !passes.is_empty() => break,
            Err(Failed::Budget) => return Err(TooLarge { capped: Some(prune.max_states), ..too_large }),
        }
    }
    answer(passes, None).ok_or(too_large)
}

/// Units of work a solve that may set states aside spends at most, over all its passes, per state of its cap
/// ([`Prune::max_states`]).
const WORK_PER_STATE: u64 = 4_000;

/// The lowest floor a pass tries, as an exponent: 2^-120, below which a state is a rounding error of any
/// answer shown.
const MOST_FLOOR: u32 = 120;

/// How one pass of [`solve_within`] keeps within the cap.
#[derive(Clone, Copy)]
struct Pass {
    /// `Some(k)`: a state less likely than 2^-k is set aside when its turn comes; `None`: none is.
    floor: Option<u32>,
    max_states: u64,
    /// At the deadline, set aside what waits and answer (the first pass), rather than fail.
    set_aside_when_late: bool,
}

/// Why a pass gave no answer.
enum Failed {
    /// Stopped from outside ([`super::halting`]).
    Halted,
    /// Over its budget of work.
    Budget,
    /// More than the cap's states waiting at once.
    OverCap,
    /// Past the deadline: what it had, everything still waiting set aside, if it was to answer.
    Late(Option<Box<ExactTally>>),
}

/// One pass of the solve: exact within `budget` (no `pass`), or setting aside the states below the floor
/// and failing over the cap.
fn pass<M: Stepped>(model: &M, budget: &mut Budget, settings: Option<Pass>) -> Result<ExactTally, Failed> {
    let halt = HALT.with(|h| h.borrow().clone());
    let acc = model.accumulators();
    let slots = model.metrics().slots();
    // Two more slots: the probability of the paths that ended, and of those set aside.
    let (ended, aside) = (slots, slots + 1);
    let mut sums = Sums::new(slots + 2);
    let start = model.start();
    let mut pending: BTreeMap<u64, Bucket<M::State>> = BTreeMap::new();
    let first = Bucket { den: BigUint::one(), states: std::iter::once((start.clone(), Entry::start(acc))).collect() };
    pending.insert(model.progress(&start), first);
    let mut leaves = 0u128;
    let mut cut: Option<Cut> = None;
    let stopped = || halt.as_ref().is_some_and(|h| h.load(std::sync::atomic::Ordering::Relaxed));
    #[cfg(debug_assertions)]
    let mut merges = 0u64;
    while let Some((at, mut bucket)) = pending.pop_first() {
        let bucket_den = sums.denominator(&bucket.den);
        if let Some(k) = settings.and_then(|p| p.floor) {
            let den = &bucket.den;
            bucket.states.retain(|_, e| {
                let keep = at_floor(&e.weight, k, den);
                if !keep {
                    sums.add(aside, bucket_den, &e.weight, &Scale::One(1));
                    cut = Some(Cut::States);
                }
                keep
            });
        }
        let mut steps = Vec::with_capacity(bucket.states.len());
        let mut states = bucket.states.into_iter();
        while let Some((state, entry)) = states.next() {
            // `walk` checks the flag at every leaf; whether it stopped for that or for the budget is told here.
            match walk(model, &state, budget, halt.as_deref()) {
                Ok(moves) => steps.push((entry, moves)),
                Err(_) if stopped() => return Err(Failed::Halted),
                Err(_) if settings.is_none() => return Err(Failed::Budget),
                Err(Stop::TooLong) => {
                    cut = cut.max(Some(Cut::LongPaths));
                    sums.add(aside, bucket_den, &entry.weight, &Scale::One(1));
                }
                Err(Stop::Budget) if !budget.late() => return Err(Failed::Budget),
                Err(Stop::Budget) if settings.is_some_and(|p| p.set_aside_when_late) => {
                    // The time is up: this state, the rest of its bucket (walked or not) and every bucket after
                    // it are set aside.
                    let rest = std::iter::once(entry).chain(states.by_ref().map(|(_, e)| e));
                    for e in rest.chain(steps.drain(..).map(|(e, _)| e)) {
                        sums.add(aside, bucket_den, &e.weight, &Scale::One(1));
                    }
                    set_aside_all(&mut pending, &mut sums, aside);
                    return Err(Failed::Late(Some(Box::new(finished(
                        model,
                        sums,
                        Some(Cut::Time),
                        u64::MAX,
                        budget.work,
                    )))));
                }
                Err(Stop::Budget) => return Err(Failed::Late(None)),
            }
        }
        // Most moves share a few denominators (powers of 6 and 10): the least common multiple of the distinct
        // ones, not of every move's.
        let distinct: std::collections::HashSet<BigUint, BuildHasherDefault<Fx>> =
            steps.iter().flat_map(|(_, m)| denominators(m)).collect();
        let lcm = distinct.iter().fold(BigUint::one(), |l, d| l.lcm(d));
        let den = &bucket.den * &lcm;
        let den_id = sums.denominator(&den);
        // What a move's weight is multiplied by to join each bucket it leads to.
        let mut factors: FxMap<u64, BigUint> = FxMap::default();
        for (entry, moves) in steps {
            let mut cost = 0;
            for (slot, p) in moves.reports {
                cost += sums.add(slot, den_id, &entry.weight, &Scale::of(&scaled(&p, &lcm)));
            }
            for (to, delta, p, count, _trace) in moves.to {
                let n = scaled(&p, &lcm);
                cost += match to {
                    Some(state) => {
                        let key = model.progress(&state);
                        debug_assert!(key > at, "a step moves a trial on: {at} to {key}");
                        let target =
                            pending.entry(key).or_insert_with(|| Bucket { den: den.clone(), states: FxMap::default() });
                        let factor = factors.entry(key).or_insert_with(|| {
                            let (f, rescaled) = target.common(&den);
                            cost += rescaled;
                            f
                        });
                        let n = if factor.is_one() { Scale::of(&n) } else { Scale::of(&(n * &*factor)) };
                        #[cfg(debug_assertions)]
                        let merged = target.states.contains_key(&state);
                        let e = target.states.entry(state).or_insert_with(|| Entry::empty(acc));
                        #[cfg(debug_assertions)]
                        check_merge(model, acc, e, &entry.path, &_trace, merged, &mut merges);
                        e.absorb(&entry, &delta, &n, count, acc)
                    }
                    None => {
                        leaves = leaves.saturating_add(entry.paths.saturating_mul(count));
                        let n = Scale::of(&n);
                        sums.add(ended, den_id, &entry.weight, &n) + entry.finish(&delta, &n, den_id, acc, &mut sums)
                    }
                };
            }
            if !budget.spend(cost) {
                return Err(Failed::Budget);
            }
        }
        if let Some(p) = settings
            && over_cap(&pending, p)
        {
            return Err(Failed::OverCap);
        }
    }
    // Reducing the sums to fractions is most of the time of a solve whose few states carry long distributions
    // of huge numbers: it is budgeted too.
    if !budget.spend(sums.reduction_cost()) {
        return Err(Failed::Budget);
    }
    let leaves = if cut.is_some() { u64::MAX } else { u64::try_from(leaves).unwrap_or(u64::MAX) };
    Ok(finished(model, sums, cut, leaves, budget.work))
}

/// Whether more states wait than the pass's cap allows: more than the cap that its floor keeps (a state
/// whose probability so far is already at the floor; more paths to it only add), or more than four times
/// the cap in all.
fn over_cap<S>(pending: &BTreeMap<u64, Bucket<S>>, p: Pass) -> bool {
    let all: u64 = pending.values().map(|b| b.states.len() as u64).sum();
    if all <= p.max_states {
        return false;
    }
    let Some(k) = p.floor else { return true };
    if all > p.max_states.saturating_mul(4) {
        return true;
    }
    let kept = |b: &Bucket<S>| b.states.values().filter(|e| at_floor(&e.weight, k, &b.den)).count() as u64;
    pending.values().map(kept).sum::<u64>() > p.max_states
}

/// Whether `weight / den` is at least 2^-k, exactly: by the numbers' lengths in bits, and where those do not
/// tell, by comparing `weight * 2^k` with `den`.
fn at_floor(weight: &Limbs, k: u32, den: &BigUint) -> bool {
    let bits = match weight.last() {
        None => return false,
        Some(top) => 64 * weight.len() as u64 - u64::from(top.leading_zeros()),
    };
    let (shifted, den_bits) = (bits + u64::from(k), den.bits());
    match shifted.cmp(&den_bits) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => (to_big(weight) << k) >= *den,
    }
}

/// The tally of a pass's sums: the slots, and what was set aside as the residual.
fn finished<M: Stepped>(model: &M, sums: Sums, cut: Option<Cut>, leaves: u64, work: u64) -> ExactTally {
    let mut fractions = sums.fractions();
    let residual = fractions.pop().expect("the slot of what was set aside");
    let ended = fractions.pop().expect("the slot of what ended");
    debug_assert!((&ended + &residual).is_one(), "ended and set aside add up to 1, not {}", ended + &residual);
    ExactTally { residual, cut, ..tally(model.metrics(), fractions, leaves, work) }
}

/// Sets aside every state still waiting.
fn set_aside_all<S>(pending: &mut BTreeMap<u64, Bucket<S>>, sums: &mut Sums, aside: usize) {
    for bucket in std::mem::take(pending).into_values() {
        let den = sums.denominator(&bucket.den);
        for entry in bucket.states.into_values() {
            sums.add(aside, den, &entry.weight, &Scale::One(1));
        }
    }
}

/// In debug builds, gives a new entry its path, and checks a sample of merges: the first 20 of a solve and
/// one in 50 up to the 7,500th ([`super::suffix`]).
#[cfg(debug_assertions)]
fn check_merge<M: Stepped>(
    model: &M,
    acc: &Accumulators,
    e: &mut Entry,
    from: &[u32],
    step: &[u32],
    merged: bool,
    merges: &mut u64,
) {
    let path: Vec<u32> = from.iter().chain(step).copied().collect();
    if !merged {
        e.path = path;
        return;
    }
    *merges += 1;
    if *merges <= 20 || ((*merges).is_multiple_of(50) && *merges <= 7_500) {
        super::suffix::same_future(model, acc, &e.path, &path);
    }
}

/// The leaf walk below this many picks in all: on the shipped scenarios of a few thousand leaves it was two
/// to four times faster than carrying states (the benches' exact groups), which pay for hashing and merging
/// before they save anything.
const SMALL_TREE: f64 = 50_000.0;

/// An exact interpreter: the leaf walk or [`solve`].
type Interpreter<M> = fn(&M, u64) -> Result<ExactTally, TooLarge>;

/// The exact answer of a stepped model, by whichever interpreter suits its tree: the leaf walk first for a
/// small tree ([`SMALL_TREE`], by the leaf walk's random descents), else [`solve`] first; where the first
/// runs out, the other. A tree whose paths hardly ever meet again can be within the leaf walk's budget and
/// not within this one's, since each of its states is carried step by step; a long thin tree the descents
/// took for small can be the other way round. Both give the same fractions (tests/states.rs); a refusal is
/// the first one's. What a stepped model's [`crate::model::Model::solve`] calls.
pub fn solve_or_walk<M: Stepped>(model: &M, max_leaves: u64) -> Result<ExactTally, TooLarge> {
    let (first, second): (Interpreter<M>, Interpreter<M>) =
        if super::small_tree(model, SMALL_TREE) { (super::enumerate, solve) } else { (solve, super::enumerate) };
    match first(model, max_leaves) {
        // A refusal is the first one's, unless the second was stopped from outside.
        Err(e) if !e.halted => second(model, max_leaves).map_err(|later| if later.halted { later } else { e }),
        answer => answer,
    }
}

/// [`solve_or_walk`] within `limits`: given [`Limits::prune`], a small tree is walked leaf by leaf as
/// before, and any other is solved by merging states with its cap and deadline ([`solve_within`]): exact
/// wherever no state had to be set aside, however long that took within the deadline, else bounds.
pub fn solve_or_walk_within<M: Stepped>(model: &M, limits: &Limits) -> Result<ExactTally, TooLarge> {
    let Some(prune) = limits.prune else { return solve_or_walk(model, limits.max_leaves) };
    if super::small_tree(model, SMALL_TREE) {
        match super::enumerate(model, limits.max_leaves) {
            Err(e) if !e.halted => {}
            answer => return answer,
        }
    }
    solve_within(model, limits.max_leaves, Some(prune))
}

/// `p * lcm` as an integer: `lcm` is a multiple of `p`'s denominator.
fn scaled(p: &BigRational, lcm: &BigUint) -> BigUint {
    let (num, den) = (p.numer().magnitude(), p.denom().magnitude());
    num * (lcm / den)
}

/// The denominators of every probability of `step`.
fn denominators<S>(step: &Step<S>) -> impl Iterator<Item = BigUint> + '_ {
    let to = step.to.iter().map(|(_, _, p, _, _)| p);
    to.chain(step.reports.iter().map(|(_, p)| p)).map(|p| p.denom().magnitude().clone())
}

/// Why a step could not be walked.
enum Stop {
    /// Over budget, past the deadline, or stopped from outside.
    Budget,
    /// A leaf's path is too long to multiply out.
    TooLong,
}

/// Walks every leaf of one step from `state`, grouping the leaves by where they lead.
fn walk<M: Stepped>(
    model: &M,
    state: &M::State,
    budget: &mut Budget,
    halt: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Step<M::State>, Stop> {
    let mut moves = Moves { to: FxMap::default(), reports: FxMap::default() };
    let (mut path, mut products, mut slots) = (Vec::new(), Path::default(), Vec::new());
    loop {
        // A step can have many leaves: a solve stopped from outside stops within one, not one step.
        if halt.is_some_and(|h| h.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(Stop::Budget);
        }
        let (next, delta, flow) = run_step(model, state, &mut path, &mut slots);
        if !budget.leaf(path.len(), std::mem::size_of::<M::State>()) {
            return Err(Stop::Budget);
        }
        let leaf = products.leaf(&path);
        if matches!(leaf, Leaf::TooLong) {
            return Err(Stop::TooLong);
        }
        for &slot in &slots {
            moves.reports.entry(slot).or_default().add(&leaf);
        }
        slots.clear();
        let to = (flow == Flow::Go).then_some(next);
        let (sum, count, _) = moves.to.entry((to, delta)).or_insert_with(|| (Prob::default(), 0, trace(&path)));
        sum.add(&leaf);
        *count += 1;
        if !advance(&mut path) {
            // Each move is made a fraction and merged: about as much work as a leaf of eight picks.
            let moves_made = (moves.to.len() + moves.reports.len()) as u64;
            return if budget.spend(8 * moves_made) { Ok(moves.step()) } else { Err(Stop::Budget) };
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
