//! Debian packages the tests need from the system (Chromium for the browser tests, Slurm and munge for the
//! scheduler test): `install` runs apt-get non-interactively, as root, with a package mirror.

use std::process::Command as Process;

/// `apt-get install -y PACKAGES`, and if that fails, `apt-get update` and the install again. apt waits for a
/// lock held by another apt process instead of failing at once. The error says what failed, in one line,
/// ending with apt-get's last error.
pub fn install(packages: &[&str]) -> Result<(), String> {
    let install = [&["install", "-y"][..], packages].concat();
    if apt(&install).is_ok() {
        return Ok(());
    }
    let update = match apt(&["update"]) {
        Ok(()) => "succeeded".to_owned(),
        Err(error) => format!("failed too: {error}"),
    };
    let packages = packages.join(" ");
    apt(&install).map_err(|last| format!("`apt-get install -y {packages}` failed: {last} (apt-get update {update})"))
}

/// Runs apt-get with `args`; the error is the last line it printed on stderr (its reason).
fn apt(args: &[&str]) -> Result<(), String> {
    let out = Process::new("apt-get")
        .args(["-o", "DPkg::Lock::Timeout=600"])
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .map_err(|e| format!("apt-get could not start: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(stderr.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("no message").trim().to_owned())
}
