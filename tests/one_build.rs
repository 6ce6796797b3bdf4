//! README's two commands share one build: every package the binary depends on is built with the same features
//! whether the test-only crates are in the graph or not. A new dev-dependency that turns on one more feature of
//! a shared package (as criterion does for `either`, or assert_cmd for `regex-automata`) would make
//! `cargo test` compile that package, and everything above it, Polars included, a second time.
//!
//! `cargo tree` lists each package with its features, once for the normal graph (`-e normal,build`) and once
//! with the dev-dependencies; each package of the first must have the same feature list in the second.

use std::collections::BTreeMap;
use std::process::Command;

/// `package version -> features` of `cargo tree` with the given extra arguments, offline from the lock file.
fn packages(edges: &[&str]) -> BTreeMap<String, String> {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--locked", "--offline", "--prefix", "none", "-f", "{p}|{f}"])
        .args(edges)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .filter_map(|line| line.trim_end_matches(" (*)").split_once('|'))
        .map(|(p, f)| (p.split(" (").next().unwrap_or(p).to_string(), f.to_string()))
        .collect()
}

#[test]
fn test_only_crates_change_no_features_of_the_binarys_dependencies() {
    let normal = packages(&["-e", "normal,build"]);
    let with_tests = packages(&[]);
    let changed: Vec<String> = normal
        .iter()
        .filter(|(p, f)| with_tests.get(*p) != Some(f))
        .map(|(p, f)| format!("{p}: [{f}] -> [{}]", with_tests.get(p).map_or("?", String::as_str)))
        .collect();
    assert!(normal.len() > 100, "the tree lists the binary's dependencies ({} found)", normal.len());
    assert!(
        changed.is_empty(),
        "dev-dependencies turn on features the binary's build lacks, so `cargo test` would rebuild them; \
         ask for the same features from a normal dependency in Cargo.toml: {changed:#?}"
    );
}
