//! The run's progress bar: on stderr, only when stderr is a terminal, and only once a run has taken
//! about a second, so quick runs and piped output stay clean; never under `--quiet`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

const DELAY: Duration = Duration::from_secs(1);

/// Set once by `--quiet`, before any bar exists: no bar is drawn, and tables are not printed.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences every progress bar (and, through [`quiet`], the command's table) for `--quiet`.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was asked for.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A progress bar over a run's trials, advanced from worker threads.
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    shown: AtomicBool,
    terminal: bool,
}

impl Progress {
    pub fn new(trials: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(trials), ProgressDrawTarget::hidden());
        let style =
            ProgressStyle::with_template("{bar:40} {percent:>3}% {human_pos}/{human_len} trials, {rate}, eta {eta}")
                .expect("a valid template")
                .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", crate::core::stats::rate(state.per_sec()));
                });
        bar.set_style(style);
        Progress {
            bar,
            start: Instant::now(),
            shown: AtomicBool::new(false),
            terminal: std::io::stderr().is_terminal() && !quiet(),
        }
    }

    /// Counts `trials` more finished trials.
    pub fn advance(&self, trials: u64) {
        self.bar.inc(trials);
        if self.terminal && self.start.elapsed() > DELAY && !self.shown.swap(true, Ordering::Relaxed) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
