//! Debian packages the tests need from the system (Chromium for the browser tests, Slurm and munge for the
//! scheduler test): `install` runs apt-get non-interactively, as root, with a package mirror.

use std::process::Command as Process;

/// `apt-get install -y PACKAGES`, and if that fails, `apt-get update` and the install again. apt waits for a
/// lock held by another apt process instead of failing at once. The error says what failed, in one line.
pub fn install(packages: &[&str]) -> Result<(), String> {
    let apt = |args: &[&str]| {
        Process::new("apt-get")
            .args(["-o", "DPkg::Lock::Timeout=600"])
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    let install = [&["install", "-y"][..], packages].concat();
    if apt(&install) {
        return Ok(());
    }
    let updated = apt(&["update"]);
    if apt(&install) {
        return Ok(());
    }
    let update = if updated { "succeeded" } else { "failed too" };
    Err(format!("`apt-get install -y {}` failed (apt-get update {update})", packages.join(" ")))
}
