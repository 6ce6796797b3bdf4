//! The Monte Carlo engine: seeded, chunked, parallel, and reproducible whatever the thread count.
//!
//! A [`Plan`] cuts a run's trials into fixed-size chunks. Chunk `i` runs on its own [`Sampler`] seeded from
//! `(seed, i)` only ([`chunk_rng`]), so what a chunk draws never depends on which thread runs it. Chunks run in
//! parallel in windows and their results are consumed strictly in chunk order: [`run`] merges [`Tally`]s,
//! [`run_rows`] also hands each chunk's per-trial [`TrialRows`] to a writer as its window completes, with a
//! window of a few chunks per thread, so memory stays bounded whatever the trial count.

use std::ops::ControlFlow;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::chance::{Sampler, chunk_rng};
use crate::memo::{self, PathMemo};
use crate::metrics::{Recorder, Tally};
use crate::models::Model;

/// How many chunks of counts run in parallel before their results are consumed in order.
pub const WINDOW: u64 = 64;

/// How many chunks of per-trial rows (or of a run with a stopping rule) each thread runs per window.
pub const ROWS_WINDOW_PER_THREAD: u64 = 2;

/// The trials of a run, cut into chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub trials: u64,
    pub seed: u64,
    pub chunk_size: u64,
}

impl Plan {
    /// How many chunks the run has (the last one may be short).
    pub fn chunks(&self) -> u64 {
        self.trials.div_ceil(self.chunk_size)
    }

    /// The index of the first trial of chunk `i`.
    pub fn first_trial(&self, i: u64) -> u64 {
        i * self.chunk_size
    }

    /// How many trials chunk `i` runs.
    pub fn chunk_len(&self, i: u64) -> u64 {
        self.chunk_size.min(self.trials - self.first_trial(i))
    }
}

/// A stopping rule: asked about the running total after each chunk is merged, in chunk order, so a run
/// stops at the same chunk whatever the thread count. `true` ends the run there.
pub type Enough<'a> = &'a (dyn Fn(&Tally) -> bool + Sync);

/// Runs every trial of `plan` and returns the merged counts. `progress` hears of each finished chunk's trials.
pub fn run<M: Model>(model: &M, plan: &Plan, progress: &(dyn Fn(u64) + Sync)) -> Tally {
    run_until(model, plan, progress, None)
}

/// Runs `plan`'s chunks in order until `enough` says so or they run out; returns the merged counts. With a
/// stopping rule, chunks run in small windows (a few per thread), so little work past the stop is thrown away.
pub fn run_until<M: Model>(model: &M, plan: &Plan, progress: &(dyn Fn(u64) + Sync), enough: Option<Enough>) -> Tally {
    let window = if enough.is_some() { small_window() } else { WINDOW };
    let mut total = Tally::new(model.metrics());
    // One memo per worker thread, kept for the whole run: results do not depend on what a memo holds.
    let memos: Vec<Mutex<PathMemo>> =
        (0..rayon::current_num_threads()).map(|_| Mutex::new(PathMemo::new(memo::BUDGET_BYTES))).collect();
    let work = |i| {
        let slot = rayon::current_thread_index().unwrap_or(0) % memos.len();
        let mut memo = memos[slot].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let tally = run_chunk_memo(model, plan, i, &mut memo);
        progress(tally.trials);
        tally
    };
    let merge = |_, t: Tally| -> Result<ControlFlow<()>, std::convert::Infallible> {
        total.merge(&t);
        Ok(stop_if(enough, &total))
    };
    let Ok(()) = in_windows(plan, window, work, merge);
    total
}

/// A few chunks per thread: the window of runs that stop early and of per-trial rows.
fn small_window() -> u64 {
    ROWS_WINDOW_PER_THREAD * rayon::current_num_threads() as u64
}

fn stop_if(enough: Option<Enough>, total: &Tally) -> ControlFlow<()> {
    if enough.is_some_and(|e| e(total)) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
}

/// One chunk's counts, walking `memo` where it knows the path: the same counts as [`run_chunk`].
pub fn run_chunk_memo<M: Model>(model: &M, plan: &Plan, i: u64, memo: &mut PathMemo) -> Tally {
    let mut tally = chunk_counts(model, plan, i, |sampler, tally| memo.trial(model, sampler, tally));
    memo.flush(&mut tally, plan.chunk_len(i));
    completed(model, tally)
}

/// One chunk's counts, running the rules for every trial.
pub fn run_chunk<M: Model>(model: &M, plan: &Plan, i: u64) -> Tally {
    completed(model, chunk_counts(model, plan, i, |sampler, tally| model.trial(sampler, tally)))
}

/// Plays chunk `i`'s trials with `play`, each on its own stream of the chunk's sampler.
fn chunk_counts<M: Model>(model: &M, plan: &Plan, i: u64, mut play: impl FnMut(&mut Sampler, &mut Tally)) -> Tally {
    let mut sampler = Sampler::new(chunk_rng(plan.seed, i));
    let mut tally = Tally::new(model.metrics());
    tally.trials = plan.chunk_len(i);
    for _ in 0..tally.trials {
        sampler.next_trial();
        play(&mut sampler, &mut tally);
    }
    tally
}

/// The counts with what trials do not report filled in ([`crate::metrics::Metrics::complete`]).
fn completed<M: Model>(model: &M, mut tally: Tally) -> Tally {
    model.metrics().complete(&mut tally.counts, tally.trials);
    tally
}

/// What every trial of one chunk reported: `columns[m][t]` is metric `m`'s value in the chunk's trial `t`
/// (0 or 1 for a probability metric).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrialRows {
    pub first_trial: u64,
    pub columns: Vec<Vec<u32>>,
}

/// Runs `plan`'s chunks in order until `enough` says so, handing each chunk's rows to `write` in chunk order;
/// returns the merged counts.
pub fn run_rows<M: Model, E: Send>(
    model: &M,
    plan: &Plan,
    progress: &(dyn Fn(u64) + Sync),
    enough: Option<Enough>,
    mut write: impl FnMut(&TrialRows) -> Result<(), E>,
) -> Result<Tally, E> {
    let mut total = Tally::new(model.metrics());
    let work = |i| {
        let out = run_chunk_rows(model, plan, i);
        progress(out.0.trials);
        out
    };
    let window = small_window();
    in_windows(plan, window, work, |_, (tally, rows): (Tally, TrialRows)| {
        total.merge(&tally);
        write(&rows)?;
        Ok(stop_if(enough, &total))
    })?;
    Ok(total)
}

/// One chunk's counts and rows: the same draws as [`run_chunk`], so the counts agree.
pub fn run_chunk_rows<M: Model>(model: &M, plan: &Plan, i: u64) -> (Tally, TrialRows) {
    let metrics = model.metrics();
    let owners = metrics.slot_owners();
    let n = plan.chunk_len(i);
    let mut sampler = Sampler::new(chunk_rng(plan.seed, i));
    let mut rec = RowRecorder {
        owners: &owners,
        tally: Tally::new(metrics),
        columns: vec![Vec::with_capacity(n as usize); metrics.defs().len()],
    };
    for _ in 0..n {
        rec.columns.iter_mut().for_each(|c| c.push(0));
        sampler.next_trial();
        model.trial(&mut sampler, &mut rec);
    }
    rec.tally.trials = n;
    metrics.complete(&mut rec.tally.counts, n);
    metrics.complete_rows(&mut rec.columns);
    (rec.tally, TrialRows { first_trial: plan.first_trial(i), columns: rec.columns })
}

/// Counts like a [`Tally`] and also keeps each trial's value of every metric.
struct RowRecorder<'a> {
    owners: &'a [(usize, u32)],
    tally: Tally,
    columns: Vec<Vec<u32>>,
}

impl Recorder for RowRecorder<'_> {
    fn slot(&mut self, slot: usize) {
        self.tally.slot(slot);
        let (metric, value) = self.owners[slot];
        *self.columns[metric].last_mut().expect("a row was started") = value;
    }
}

/// Runs `work` on every chunk, `window` chunks at a time in parallel, and `consume`s the results in chunk
/// order. Stops at the first error from `consume`, or when it breaks (results after it are dropped).
pub(crate) fn in_windows<T: Send, E>(
    plan: &Plan,
    window: u64,
    work: impl Fn(u64) -> T + Sync,
    mut consume: impl FnMut(u64, T) -> Result<ControlFlow<()>, E>,
) -> Result<(), E> {
    let chunks = plan.chunks();
    let mut start = 0;
    while start < chunks {
        let end = (start + window).min(chunks);
        let results: Vec<T> = (start..end).into_par_iter().map(&work).collect();
        for (i, r) in (start..end).zip(results) {
            if consume(i, r)?.is_break() {
                return Ok(());
            }
        }
        start = end;
    }
    Ok(())
}
