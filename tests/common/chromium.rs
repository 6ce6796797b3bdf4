//! Headless Chromium for the browser tests (tests/report.rs, tests/workbench_e2e.rs): Debian's `chromium`
//! package, installed with apt-get once per test binary when `/usr/bin/chromium` is missing. Never skipped:
//! a machine that cannot install it fails with a message saying so.

use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::sync::OnceLock;

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

/// `apt-get install -y chromium`, and if that fails, `apt-get update` and the install again. apt waits for a
/// lock held by another apt process instead of failing at once.
fn install_chromium() {
    let apt = |args: &[&str]| {
        Process::new("apt-get")
            .args(["-o", "DPkg::Lock::Timeout=600"])
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    if apt(&["install", "-y", "chromium"]) {
        return;
    }
    let updated = apt(&["update"]);
    if !apt(&["install", "-y", "chromium"]) {
        panic!(
            "the browser tests need headless Chromium at {CHROMIUM} and could not install it: `apt-get install -y \
             chromium` failed (apt-get update {}). Install it as root with `apt-get update && apt-get install -y \
             chromium` and run the tests again.",
            if updated { "succeeded" } else { "failed too" }
        );
    }
}
