//! Long work run the way a Python library should run it: in Rust on a thread of its own with the GIL
//! released, while the calling thread wakes every [`TICK`] to run Python's signal handlers and to pass the
//! progress so far to a callback.
//!
//! Ctrl-C sets the work's stop flag, which runs read between chunks and exact walks read at their next leaf
//! ([`exact::halting`]); once the work has stopped, the `KeyboardInterrupt` is raised and whatever the work
//! had done is dropped. A callback that raises stops the work the same way. Nothing here names a rule set or a
//! kind of work: [`supervised`] takes any closure given the stop flag and a progress counter.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use intercept_sim::core::exact;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread looks for Ctrl-C and reports progress: quick enough to feel immediate,
/// rare enough to cost nothing (the work's own thread is never woken).
const TICK: Duration = Duration::from_millis(50);

/// What the work is given: the flag to stop at, and the counter of the trials it has played.
pub struct Watch<'a> {
    pub stop: &'a Arc<AtomicBool>,
    pub advance: &'a (dyn Fn(u64) + Sync),
}

/// Runs `work` off the GIL and returns its answer; Ctrl-C (or a `progress` callback that raises) stops it at
/// its next chunk and raises instead. `progress(done, total)` is called from the calling thread, with the
/// GIL, whenever the count has moved, and once at the end.
pub fn supervised<T: Send>(
    py: Python<'_>,
    total: u64,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(Watch<'_>) -> T + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let done = AtomicU64::new(0);
    let advance = |n: u64| {
        done.fetch_add(n, Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        let (send, mut answers) = mpsc::channel();
        let (stop, advance) = (&stop, &advance);
        scope.spawn(move || {
            let answer = exact::halting(stop, || work(Watch { stop, advance }));
            let _ = send.send(answer);
        });
        let mut shown = 0;
        loop {
            let (got, back) = py.detach(move || (answers.recv_timeout(TICK), answers));
            answers = back;
            let answer = match got {
                Ok(answer) => Some(answer),
                Err(RecvTimeoutError::Timeout) => None,
                // The work's thread ended without answering: it panicked, and the scope raises it on leaving.
                Err(RecvTimeoutError::Disconnected) => return Err(PyRuntimeError::new_err("the work failed")),
            };
            let count = done.load(Ordering::Relaxed);
            let reported = match (progress, count != shown || answer.is_some()) {
                (Some(callback), true) => callback.call1((count, total)).map(drop),
                _ => Ok(()),
            };
            shown = count;
            let checked = reported.and_then(|()| py.check_signals());
            match (checked, answer) {
                (Err(e), _) => {
                    stop.store(true, Ordering::Relaxed);
                    // The work stops at its next chunk or leaf; what it had done is dropped with its answer.
                    let _ = py.detach(move || answers.recv());
                    return Err(e);
                }
                (Ok(()), Some(answer)) => return Ok(answer),
                (Ok(()), None) => {}
            }
        }
    })
}
