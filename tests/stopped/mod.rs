//! What the tests of interrupted work share (`run` and `sweep`): stopping a command part-way with SIGTERM,
//! checking the partial folder it leaves, and comparing a resumed folder with one made in one go.

#![allow(dead_code)]

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// Runs `intercept-sim` with `args`, sends it SIGTERM after `after`, and returns its stderr; it must exit 130.
pub fn interrupted(args: &[&std::ffi::OsStr], after: Duration) -> String {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("intercept-sim"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let killed = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(130), "an interrupted command exits 130: {stderr}");
    stderr
}

/// The folder of a command stopped part-way: its manifest says partial, with some but not all of `total`
/// trials done, and no temporary file is left.
pub fn assert_partial(dir: &Path, total: u64) {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["partial"], true);
    let done = manifest["trials"].as_u64().unwrap();
    assert!(done > 0 && done < total, "some chunks done, not all: {done}");
    let names = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap());
    assert!(names.into_iter().all(|n| !n.starts_with('.') || n == ".intercept-sim-files"), "no temporary file left");
}

/// Every file of `a` and `b`, by name: the two folders must hold the same names (at least `least` of them)
/// with the same bytes.
pub fn assert_same_files(a: &Path, b: &Path, least: usize) {
    let names = |d: &Path| {
        let mut n: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        n.sort();
        n
    };
    assert_eq!(names(a), names(b), "the same files");
    assert!(names(a).len() >= least, "a whole folder's files: {:?}", names(a));
    for name in names(a) {
        let same = std::fs::read(a.join(&name)).unwrap() == std::fs::read(b.join(&name)).unwrap();
        assert!(same, "{name} differs between {} and {}", a.display(), b.display());
    }
}
