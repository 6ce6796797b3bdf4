//! The workbench's load test, `benches/load.sh`, run short against the test build: wrk on loopback POSTs
//! exact requests, then sends cheap requests to an idle server and to one running two Monte Carlo jobs. The
//! script fails on any error, non-2xx answer or job that stops; this test checks it runs clean and prints its
//! three rows. Latency is not judged here (timed tests are flaky on a shared machine): the figures in README
//! come from the script run on the release build.

use std::path::Path;
use std::process::Command;

#[test]
fn load_script_runs_clean_on_loopback() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("benches/load.sh"))
        .env("BIN", assert_cmd::cargo::cargo_bin("intercept-sim"))
        .env("LOAD_SECONDS", "2")
        .env("LOAD_REQUESTS", "300")
        .current_dir(root)
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "load.sh failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains(" POST ") || l.contains(" GET ")).collect();
    assert_eq!(rows.len(), 3, "three measurements:\n{stdout}");
    assert!(rows[2].contains("two Monte Carlo jobs running"), "{stdout}");
}
