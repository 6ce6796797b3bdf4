//! Playing a sweep's points together, chunk by chunk, each paired with the base point.
//!
//! [`run`] cuts the plan's remaining chunks into slices and plays each slice for every point
//! ([`paired::slice`]): the base point's per-trial rows, then each other point's, reduced at once to exact
//! integer sums of the per-trial differences, so memory holds two points' rows per slice whatever the grid.
//! Slices are merged in order and a chunk's sums join the [`Counts`] only once all its slices have, so an
//! interrupt stops at a chunk boundary and the counts cover exactly the chunks before [`Counts::next`]:
//! the same integers whatever the thread count, and a resumed sweep ends with the counts of one made in one go.

use std::convert::Infallible;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::Scenario;
use crate::engine::{self, Plan, Slice};
use crate::sensitivity::paired::{self, Paired};

/// What a sweep has counted: the chunks before `next`, for every point.
pub struct Counts {
    /// The first chunk not yet counted.
    pub next: u64,
    /// The base point's counts, each other point's, and their paired sums against the base.
    pub paired: Paired,
}

impl Counts {
    /// Nothing counted yet, for the points of a grid (the base point first).
    pub fn new(points: &[&Scenario]) -> Counts {
        let (base, stepped) = points.split_first().expect("a grid has at least one point");
        let matches: Vec<Vec<Option<usize>>> = stepped.iter().map(|s| paired::matching_metrics(base, s)).collect();
        Counts { next: 0, paired: Paired::empty(base, stepped, &matches) }
    }

    /// The trials each point's counts cover.
    pub fn trials(&self) -> u64 {
        self.paired.base.trials
    }
}

/// How far [`run`] got.
pub struct Ran {
    pub counts: Counts,
    /// Whether the interrupt flag stopped it before the plan's last chunk.
    pub interrupted: bool,
}

/// Plays the chunks of `plan` from `from.next` on for every point (the base point first), adding to `from`,
/// until they run out or `interrupt` is set. `progress` hears of every trial played, of every point.
pub fn run(
    points: &[&Scenario],
    plan: &Plan,
    from: Counts,
    interrupt: Option<&AtomicBool>,
    progress: &(dyn Fn(u64) + Sync),
) -> Ran {
    let (base, stepped) = points.split_first().expect("a grid has at least one point");
    let matches: Vec<Vec<Option<usize>>> = stepped.iter().map(|s| paired::matching_metrics(base, s)).collect();
    let empty = || Paired::empty(base, stepped, &matches);
    let (mut total, mut chunk, mut interrupted) = (from, empty(), false);
    let work = |s: Slice| {
        if s.skip == 0 && interrupt.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return None;
        }
        let out = paired::slice(base, stepped, &matches, plan, s);
        progress(s.len * points.len() as u64);
        Some(out)
    };
    let slices = plan.slices(total.next..plan.chunks());
    let Ok(()) = engine::in_windows(slices, engine::rows_window(), work, |s, out: Option<Paired>| {
        let Some(out) = out else {
            interrupted = true;
            return Ok::<_, Infallible>(ControlFlow::Break(()));
        };
        paired::merge(&mut chunk, &out);
        if s.last {
            paired::merge(&mut total.paired, &std::mem::replace(&mut chunk, empty()));
            total.next = s.chunk + 1;
        }
        Ok(ControlFlow::Continue(()))
    });
    Ran { counts: total, interrupted }
}
