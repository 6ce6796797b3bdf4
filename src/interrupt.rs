//! Ctrl-C and SIGTERM during a run: the first asks the engine to stop at the next chunk boundary, so the
//! chunks already finished are written out as a partial result; a second quits at once. Outputs are written
//! to a staging folder and put in place only when whole ([`crate::output::folder`]), and quitting at once
//! removes the staging folder first, so it leaves neither a truncated file nor a temporary one.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};

use crate::core::engine::Plan;
use crate::core::sweep::SweepRecord;
use crate::core::text::shown_path;
use crate::output::export::RunRecord;

use crate::failure::Failure;

static STOP: LazyLock<Arc<AtomicBool>> = LazyLock::new(Arc::default);

/// Installs the handler (for SIGINT, SIGTERM and SIGHUP) and returns the flag it sets.
pub fn install() -> Arc<AtomicBool> {
    install_saying("stopping: finishing the chunks in progress and writing a partial result (again to quit now)")
}

/// Installs the handler for a command that keeps no partial result (sensitivity): the first stop still
/// ends the work in progress cleanly, so the command can say what happened.
pub fn install_without_partial() -> Arc<AtomicBool> {
    install_saying(
        "stopping: a sensitivity run keeps no partial result; ending the work in progress (again to quit now)",
    )
}

fn install_saying(message: &'static str) -> Arc<AtomicBool> {
    let handler = move || {
        if STOP.swap(true, Ordering::Relaxed) {
            quit();
        }
        eprintln!("\n{message}");
    };
    // Failing to install the handler only loses the graceful stop: the run itself is unaffected.
    let _ = ctrlc::set_handler(handler);
    Arc::clone(&STOP)
}

/// Removes what this process was staging (after a commit in progress, if any) and exits with status 130.
fn quit() {
    crate::output::folder::abandon();
    std::process::exit(130);
}

/// The failure an interrupted run ends with (exit status 130), saying how to go on.
pub fn stopped(record: &RunRecord, dir: &Path) -> Failure {
    // The trials of the chunks the run was asked for: all of them, or a shard's share.
    let run = &record.config.run;
    let plan = Plan { trials: run.trials as u64, seed: record.seed, chunk_size: record.chunk_size, draws: run.draws };
    let wanted = plan.trials_in(record.wanted.from..record.wanted.to);
    let message = format!(
        "interrupted after {} of {wanted} trials; {} holds them as a partial result. Go on with: intercept-sim run --resume {}",
        record.trials,
        shown_path(dir),
        shown_path(dir)
    );
    Failure { code: 130, message }
}

/// The failure an interrupted sensitivity run ends with (exit status 130): nothing was kept.
pub fn sensitivity_stopped(dir: &Path) -> Failure {
    let message = format!(
        "interrupted: a sensitivity run keeps no partial result, so nothing was written to {}; run it again \
         (--only KEY, fewer --trials or a larger --float-step make it shorter)",
        shown_path(dir)
    );
    Failure { code: 130, message }
}

/// The failure an interrupted sweep ends with (exit status 130), saying how to go on.
pub fn sweep_stopped(record: &SweepRecord, dir: &Path) -> Failure {
    let (trials, wanted) = (record.trials, record.config.run.trials);
    let message = format!(
        "interrupted after {trials} of {wanted} trials of each point; {} holds them as a partial result. Go on \
         with: intercept-sim sweep --resume {}",
        shown_path(dir),
        shown_path(dir)
    );
    Failure { code: 130, message }
}
