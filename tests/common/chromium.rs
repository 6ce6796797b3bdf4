//! Headless Chromium for the browser tests (tests/report.rs, tests/workbench_e2e.rs): Debian's `chromium`
//! package, installed with apt-get once per test binary when `/usr/bin/chromium` is missing. Never skipped:
//! a machine that cannot install it fails with a message saying so.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[path = "apt.rs"]
mod apt;

pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Chromium's path, installing it first if it is missing (once per test binary, whichever test asks first).
pub fn chromium() -> &'static Path {
    static READY: OnceLock<PathBuf> = OnceLock::new();
    READY.get_or_init(|| {
        if !Path::new(CHROMIUM).exists() {
            install_chromium();
        }
        assert!(Path::new(CHROMIUM).exists(), "apt-get reported success but {CHROMIUM} is still missing");
        PathBuf::from(CHROMIUM)
    })
}

/// Installs Debian's `chromium` package, or fails the test saying how to install it by hand.
fn install_chromium() {
    if let Err(failed) = apt::install(&["chromium"]) {
        panic!(
            "the browser tests need headless Chromium at {CHROMIUM} and could not install it: {failed}. Install \
             it as root with `apt-get update && apt-get install -y chromium` and run the tests again."
        );
    }
}
