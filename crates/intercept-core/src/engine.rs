//! The Monte Carlo engine: seeded, chunked, parallel, and reproducible whatever the thread count.
//!
//! A [`Plan`] cuts a run's trials into fixed-size chunks. Chunk `i` runs on its own [`Sampler`] seeded from
//! `(seed, i)` only ([`chunk_rng`](crate::chance::chunk_rng)), so what a chunk draws never depends on which
//! thread runs it. Chunks run in parallel in windows and their results are consumed strictly in chunk order:
//! [`run`] merges [`Tally`]s, [`run_rows`] also hands per-trial [`TrialRows`] to a writer as its window
//! completes. Rows are made a [`Slice`] of at most [`SLICE_TRIALS`] trials at a time (a slice starts its
//! chunk's generator part-way, [`Sampler::in_chunk`]), so what is in memory depends neither on the trial
//! count nor on the chunk size.
//!
//! A [`Span`] says which chunks to run (all of them, a shard's share, or the rest of an interrupted run), the
//! counts of the chunks before it, and when to stop early: a stopping rule ([`Enough`]) or an interrupt
//! flag. Because results are consumed in chunk order, whatever stops a run leaves counts that cover a
//! contiguous run of chunks, which [`Ran`] reports, so a later run can pick up exactly where it stopped.

use std::ops::{ControlFlow, Range};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::chance::{Draws, PackedSampler, Sampler, Source};
use crate::memo::{self, PathMemo, Walk};
use crate::metrics::{Recorder, Tally};
use crate::model::{Model, play_trials};

/// How many chunks of counts run in parallel before their results are consumed in order.
pub const WINDOW: u64 = 64;

/// How many chunks of a run with a stopping rule each thread runs per window.
pub const ROWS_WINDOW_PER_THREAD: u64 = 2;

/// The most trials whose per-trial rows are made at once: a chunk's rows are made in slices of this many.
pub const SLICE_TRIALS: u64 = 1 << 13;

/// How many slices of per-trial rows each thread runs per window.
pub const SLICES_PER_THREAD: u64 = 8;

/// The trials of a run, cut into chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub trials: u64,
    pub seed: u64,
    pub chunk_size: u64,
    /// Which sampler the trials draw with.
    pub draws: Draws,
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

    /// How many trials the chunks of `chunks` run.
    pub fn trials_in(&self, chunks: Range<u64>) -> u64 {
        self.first_trial(chunks.end).min(self.trials) - self.first_trial(chunks.start).min(self.trials)
    }

    /// How many trials chunk `i` runs.
    pub fn chunk_len(&self, i: u64) -> u64 {
        self.chunk_size.min(self.trials - self.first_trial(i))
    }

    /// The chunks of `chunks` cut into slices of at most [`SLICE_TRIALS`] trials, in order.
    pub fn slices(&self, chunks: Range<u64>) -> impl Iterator<Item = Slice> + '_ {
        chunks.flat_map(move |chunk| {
            let len = self.chunk_len(chunk);
            (0..len.div_ceil(SLICE_TRIALS)).map(move |k| {
                let skip = k * SLICE_TRIALS;
                Slice { chunk, skip, len: SLICE_TRIALS.min(len - skip), last: skip + SLICE_TRIALS >= len }
            })
        })
    }
}

/// A run of consecutive trials within one chunk: trials `skip..skip + len` of chunk `chunk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    pub chunk: u64,
    pub skip: u64,
    pub len: u64,
    /// Whether it ends its chunk.
    pub last: bool,
}

/// A stopping rule: asked about the running total after each chunk is merged, in chunk order, so a run
/// stops at the same chunk whatever the thread count. `true` ends the run there.
pub type Enough<'a> = &'a (dyn Fn(&Tally) -> bool + Sync);

/// Which chunks of a plan to run, from which counts, and what may stop the run early.
pub struct Span<'a> {
    /// The chunks to run, in order.
    pub chunks: Range<u64>,
    /// The counts of the chunks already run before `chunks.start` (empty for a fresh run).
    pub before: Tally,
    /// A stopping rule, asked after each chunk.
    pub enough: Option<Enough<'a>>,
    /// Set (by a signal handler) to stop at the next chunk boundary; the chunks in flight finish first.
    pub interrupt: Option<&'a AtomicBool>,
}

impl Span<'_> {
    /// Every chunk of `plan`, from nothing, with no way to stop early.
    pub fn all<M: Model>(model: &M, plan: &Plan) -> Span<'static> {
        Span { chunks: 0..plan.chunks(), before: Tally::new(model.metrics()), enough: None, interrupt: None }
    }

    /// Where a run of the span starts: the counts before it, nothing run yet.
    fn start(&self) -> Ran {
        Ran { next: self.chunks.start, tally: self.before.clone(), interrupted: false }
    }

    fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// How far a span got: the counts of every chunk before `next` (those before the span included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    pub tally: Tally,
    /// The first chunk not run: the span's end, unless the stopping rule or an interrupt came first.
    pub next: u64,
    /// Whether the interrupt flag stopped the run.
    pub interrupted: bool,
}

/// Runs every trial of `plan` and returns the merged counts. `progress` hears of each finished chunk's trials.
pub fn run<M: Model>(model: &M, plan: &Plan, progress: &(dyn Fn(u64) + Sync)) -> Tally {
    run_span(model, plan, Span::all(model, plan), progress).tally
}

/// Runs the span's chunks in order until the stopping rule says so, the interrupt flag is set, or they run out.
/// With a stopping rule, chunks run in small windows (a few per thread), so little work past the stop is
/// thrown away.
pub fn run_span<M: Model>(model: &M, plan: &Plan, span: Span, progress: &(dyn Fn(u64) + Sync)) -> Ran {
    let window = if span.enough.is_some() { small_window() } else { WINDOW };
    let mut total = span.start();
    // One memo per worker thread, kept for the whole run: results do not depend on what a memo holds.
    let threads = if M::PATH_MEMO { rayon::current_num_threads() } else { 0 };
    let memos: Vec<Mutex<PathMemo>> = (0..threads).map(|_| Mutex::new(PathMemo::new(memo::BUDGET_BYTES))).collect();
    let work = |i| {
        if span.interrupted() {
            return None;
        }
        let tally = if M::PATH_MEMO {
            let slot = rayon::current_thread_index().unwrap_or(0) % memos.len();
            let mut memo = memos[slot].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            run_chunk_memo(model, plan, i, &mut memo)
        } else {
            run_chunk(model, plan, i)
        };
        progress(tally.trials);
        Some(tally)
    };
    let merge = |i, t: Option<Tally>| -> Result<ControlFlow<()>, std::convert::Infallible> {
        Ok(take(&mut total, i, t.as_ref(), &span))
    };
    let Ok(()) = in_windows(span.chunks.clone(), window, work, merge);
    total
}

/// Merges chunk `i`'s counts into `total`, or, when an interrupt skipped the chunk, stops there.
fn take(total: &mut Ran, i: u64, tally: Option<&Tally>, span: &Span) -> ControlFlow<()> {
    let Some(tally) = tally else {
        total.interrupted = true;
        return ControlFlow::Break(());
    };
    total.tally.merge(tally);
    total.next = i + 1;
    stop_if(span.enough, &total.tally)
}

/// A few chunks per thread: the window of runs that stop early.
pub(crate) fn small_window() -> u64 {
    ROWS_WINDOW_PER_THREAD * rayon::current_num_threads() as u64
}

/// A few slices per thread: the window of per-trial rows.
pub(crate) fn rows_window() -> u64 {
    SLICES_PER_THREAD * rayon::current_num_threads() as u64
}

fn stop_if(enough: Option<Enough>, total: &Tally) -> ControlFlow<()> {
    if enough.is_some_and(|e| e(total)) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
}

/// One chunk's counts, walking `memo` where it knows the path: the same counts as [`run_chunk`].
pub fn run_chunk_memo<M: Model>(model: &M, plan: &Plan, i: u64, memo: &mut PathMemo) -> Tally {
    match plan.draws {
        Draws::Paired => chunk_memo::<M, Sampler>(model, plan, i, memo),
        Draws::Packed => chunk_memo::<M, PackedSampler>(model, plan, i, memo),
    }
}

fn chunk_memo<M: Model, S: Walk>(model: &M, plan: &Plan, i: u64, memo: &mut PathMemo) -> Tally {
    let mut tally =
        chunk_counts(model, plan, i, |sampler: &mut S, tally| memo.play(model, sampler, tally.trials, tally));
    memo.flush(&mut tally, plan.chunk_len(i));
    completed(model, tally)
}

/// One chunk's counts, running the rules for every trial.
pub fn run_chunk<M: Model>(model: &M, plan: &Plan, i: u64) -> Tally {
    let counts = match plan.draws {
        Draws::Paired => chunk_counts(model, plan, i, |s: &mut Sampler, t| play_trials(model, s, t.trials, t)),
        Draws::Packed => chunk_counts(model, plan, i, |s: &mut PackedSampler, t| play_trials(model, s, t.trials, t)),
    };
    completed(model, counts)
}

/// Plays chunk `i`'s `tally.trials` trials with `play`, each on its own stream of the chunk's sampler.
fn chunk_counts<M: Model, S: Source>(model: &M, plan: &Plan, i: u64, play: impl FnOnce(&mut S, &mut Tally)) -> Tally {
    let mut sampler = S::in_chunk(plan.seed, i, 0);
    let mut tally = Tally::new(model.metrics());
    tally.trials = plan.chunk_len(i);
    play(&mut sampler, &mut tally);
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

/// Runs the span's chunks like [`run_span`], handing their rows to `write` in trial order, a slice at a
/// time. An interrupt stops at a chunk boundary: the slices of a chunk already begun all run, so the rows
/// written are exactly the trials of the chunks the counts cover.
pub fn run_rows<M: Model, E: Send>(
    model: &M,
    plan: &Plan,
    span: Span,
    progress: &(dyn Fn(u64) + Sync),
    mut write: impl FnMut(&TrialRows) -> Result<(), E>,
) -> Result<Ran, E> {
    let mut total = span.start();
    let mut chunk = Tally::new(model.metrics());
    let work = |s: Slice| {
        if s.skip == 0 && span.interrupted() {
            return None;
        }
        let out = run_slice_rows(model, plan, s);
        progress(out.0.trials);
        Some(out)
    };
    in_windows(plan.slices(span.chunks.clone()), rows_window(), work, |s, out: Option<(Tally, TrialRows)>| {
        let Some((tally, rows)) = out else { return Ok(take(&mut total, s.chunk, None, &span)) };
        write(&rows)?;
        chunk.merge(&tally);
        if !s.last {
            return Ok(ControlFlow::Continue(()));
        }
        let done = std::mem::replace(&mut chunk, Tally::new(model.metrics()));
        Ok(take(&mut total, s.chunk, Some(&done), &span))
    })?;
    Ok(total)
}

/// One chunk's counts and rows: the same draws as [`run_chunk`], so the counts agree.
pub fn run_chunk_rows<M: Model>(model: &M, plan: &Plan, i: u64) -> (Tally, TrialRows) {
    run_slice_rows(model, plan, Slice { chunk: i, skip: 0, len: plan.chunk_len(i), last: true })
}

/// One slice's counts and rows: the trials of its chunk it covers, on the same streams as the whole chunk.
pub fn run_slice_rows<M: Model>(model: &M, plan: &Plan, s: Slice) -> (Tally, TrialRows) {
    match plan.draws {
        Draws::Paired => slice_rows::<M, Sampler>(model, plan, s),
        Draws::Packed => slice_rows::<M, PackedSampler>(model, plan, s),
    }
}

fn slice_rows<M: Model, S: Source>(model: &M, plan: &Plan, s: Slice) -> (Tally, TrialRows) {
    let metrics = model.metrics();
    let owners = metrics.slot_owners();
    let mut sampler = S::in_chunk(plan.seed, s.chunk, s.skip);
    let mut rec = RowRecorder {
        owners: &owners,
        tally: Tally::new(metrics),
        // Zeroed up front (what a trial that reports nothing leaves), so a trial writes only what it reports.
        columns: (0..metrics.defs().len()).map(|_| vec![0; s.len as usize]).collect(),
        trial: 0,
    };
    for t in 0..s.len as usize {
        rec.trial = t;
        sampler.next_trial();
        model.trial(&mut sampler, &mut rec);
    }
    rec.tally.trials = s.len;
    metrics.complete(&mut rec.tally.counts, s.len);
    metrics.complete_rows(&mut rec.columns);
    (rec.tally, TrialRows { first_trial: plan.first_trial(s.chunk) + s.skip, columns: rec.columns })
}

/// Counts like a [`Tally`] and also keeps each trial's value of every metric.
struct RowRecorder<'a> {
    owners: &'a [(usize, u32)],
    tally: Tally,
    columns: Vec<Vec<u32>>,
    /// The trial being played, as an index into the slice's columns.
    trial: usize,
}

impl Recorder for RowRecorder<'_> {
    fn slot(&mut self, slot: usize) {
        self.tally.slot(slot);
        let (metric, value) = self.owners[slot];
        self.columns[metric][self.trial] = value;
    }
}

/// Runs `work` on every item of `items` (chunks, or slices), `window` items at a time in parallel, and
/// `consume`s the results in order. Stops at the first error from `consume`, or when it breaks (results
/// after it are dropped).
pub(crate) fn in_windows<I: Copy + Send + Sync, T: Send, E>(
    items: impl IntoIterator<Item = I>,
    window: u64,
    work: impl Fn(I) -> T + Sync,
    mut consume: impl FnMut(I, T) -> Result<ControlFlow<()>, E>,
) -> Result<(), E> {
    let mut items = items.into_iter();
    loop {
        let batch: Vec<I> = items.by_ref().take(window as usize).collect();
        if batch.is_empty() {
            return Ok(());
        }
        let results: Vec<T> = batch.par_iter().map(|&i| work(i)).collect();
        for (i, r) in batch.into_iter().zip(results) {
            if consume(i, r)?.is_break() {
                return Ok(());
            }
        }
    }
}
