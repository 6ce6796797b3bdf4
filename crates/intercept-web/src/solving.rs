//! [`Solver`]: every exact solve a request asks for, bounded. At most [`crate::Options::max_exact`] run at
//! once (a request beyond waits [`crate::Options::exact_wait`], then is 503); each is stopped after
//! [`crate::Options::exact_time`] (422, saying it is too large to solve here) and at once when its client
//! leaves: the handler's future is dropped with the connection, and dropping it sets the flag every walk
//! inside [`intercept_core::exact::halting`] checks at each leaf. The permit travels with the blocking work,
//! so a stopped solve counts against the limit until it has really ended.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::http::StatusCode;
use intercept_core::exact;
use tokio::sync::Semaphore;

use crate::error::{Answer, ApiError};

/// The exact solves of the server's requests: how many may run, and how many do.
pub struct Solver {
    permits: Arc<Semaphore>,
    most: usize,
    running: Arc<AtomicUsize>,
    time: Duration,
    wait: Duration,
}

impl Solver {
    pub fn new(options: &crate::Options) -> Solver {
        let most = options.max_exact.max(1);
        Solver {
            permits: Arc::new(Semaphore::new(most)),
            most,
            running: Arc::default(),
            time: options.exact_time,
            wait: options.exact_wait,
        }
    }

    /// Solves running now, counted until each has really stopped.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// The most that run at once.
    pub fn most(&self) -> usize {
        self.most
    }

    /// Runs `work` (which may walk chance trees) off the async runtime under the limits: 503 when no solve
    /// frees up in time, 422 when it runs out of time, stopped when the caller's future is dropped.
    pub async fn solve<T: Send + 'static>(&self, work: impl FnOnce() -> Answer<T> + Send + 'static) -> Answer<T> {
        self.bounded(work, out_of_time).await
    }

    /// [`Solver::solve`] for a search of many exact solves (`solve`'s values of a key): out of time, it
    /// advises a narrower range rather than sampling, which cannot answer a search.
    pub async fn search<T: Send + 'static>(&self, work: impl FnOnce() -> Answer<T> + Send + 'static) -> Answer<T> {
        self.bounded(work, search_out_of_time).await
    }

    async fn bounded<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Answer<T> + Send + 'static,
        too_long: fn(Duration) -> ApiError,
    ) -> Answer<T> {
        let permit = tokio::time::timeout(self.wait, Arc::clone(&self.permits).acquire_owned()).await;
        let permit = match permit {
            Ok(Ok(permit)) => permit,
            _ => {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("the server is already solving {} scenarios exactly; try again in a moment", self.most),
                ));
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_when_gone = StopOnDrop(Arc::clone(&stop));
        let running = Arc::clone(&self.running);
        let flag = Arc::clone(&stop);
        running.fetch_add(1, Ordering::Relaxed);
        let task = tokio::task::spawn_blocking(move || {
            let _counted = Uncount(running, permit);
            exact::halting(&flag, work)
        });
        tokio::select! {
            done = task => done.map_err(ApiError::internal)?,
            _ = tokio::time::sleep(self.time) => Err(too_long(self.time)),
        }
    }
}

/// The 422 of a solve stopped at the time limit.
pub fn out_of_time(time: Duration) -> ApiError {
    ApiError::unprocessable(format!(
        "not solved exactly within {} s, the most one solve may take here: the chance tree is too large to \
         solve at once; run Monte Carlo (or `intercept-sim exact` on the command line)",
        time.as_secs_f64()
    ))
}

/// The 422 of a search stopped at the time limit.
pub fn search_out_of_time(time: Duration) -> ApiError {
    ApiError::unprocessable(format!(
        "not answered within {} s, the most one search may take here: its exact solves of every value take \
         longer; narrow the ranges (KEY=LO..HI), or run `intercept-sim solve` on the command line, which has \
         no time limit",
        time.as_secs_f64()
    ))
}

/// Sets the flag when dropped: the request's future ended, answered or abandoned.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Counts a solve as ended and frees its place (the permit, dropped with it), when the blocking work returns.
struct Uncount(Arc<AtomicUsize>, #[allow(dead_code)] tokio::sync::OwnedSemaphorePermit);

impl Drop for Uncount {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}
