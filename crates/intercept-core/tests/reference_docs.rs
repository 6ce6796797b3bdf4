//! The reference pages of `docs/guide/reference/` are what the rule sets generate now: every registered rule
//! set's page ([`reference::page`]) and the index ([`reference::index`]) are made afresh and compared with the
//! committed files. After a change to a config type's keys or doc comments, or to a metric, write them again
//! with `REFERENCE_WRITE=1 cargo test -p intercept-core --test reference_docs` and commit them.

use std::path::{Path, PathBuf};

use intercept_core::config::reference::{self, REGENERATE};
use intercept_core::games::shipped;

/// The folder of the pages, from the workspace root.
const FOLDER: &str = "docs/guide/reference";

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(FOLDER)
}

/// Every page as it is generated now: file name and text.
fn pages() -> Vec<(String, String)> {
    let registry = shipped();
    let mut pages: Vec<(String, String)> = registry
        .sets()
        .iter()
        .map(|set| {
            let text = reference::page(*set).unwrap_or_else(|e| panic!("the page of [{}]: {e}", set.table()));
            (reference::file_name(*set), text)
        })
        .collect();
    pages.push(("README.md".to_owned(), reference::index(&registry)));
    pages
}

/// The Markdown files in the folder now.
fn committed() -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(folder()) else { return Vec::new() };
    let mut names: Vec<String> =
        entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n.ends_with(".md")).collect();
    names.sort();
    names
}

/// Writes `text` to `path` under a temporary name first, so that no reader sees half a page.
fn write(path: &Path, text: &str) {
    let tmp = path.with_extension("md.tmp");
    std::fs::write(&tmp, text).unwrap_or_else(|e| panic!("{}: {e}", tmp.display()));
    std::fs::rename(&tmp, path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn the_reference_pages_are_up_to_date() {
    let pages = pages();
    let dir = folder();
    let stale: Vec<String> = committed().into_iter().filter(|n| !pages.iter().any(|(p, _)| p == n)).collect();
    if std::env::var_os("REFERENCE_WRITE").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &pages {
            write(&dir.join(name), text);
        }
        for name in &stale {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
    }
    let differ: Vec<&str> = pages
        .iter()
        .filter(|(name, text)| std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(text.as_str()))
        .map(|(name, _)| name.as_str())
        .collect();
    let stale: Vec<String> = committed().into_iter().filter(|n| !pages.iter().any(|(p, _)| p == n)).collect();
    assert!(
        differ.is_empty() && stale.is_empty(),
        "the reference pages in {FOLDER}/ are out of date (differ or missing: {differ:?}; no longer generated: \
         {stale:?}); write them again with `{REGENERATE}` and commit them"
    );
}

#[test]
fn every_page_lists_every_table_and_the_headline_metrics() {
    for set in shipped().sets() {
        let page = reference::page(*set).unwrap();
        let at = |s: &str| page.find(s).unwrap_or_else(|| panic!("[{}]: {s} not found", set.table()));
        assert!(at("### `[run]`") < at(&format!("### `[{}]`", set.table())), "[{}]: [run] first", set.table());
        assert!(at("## Keys") < at("## Metrics"));
        assert!(page.contains(REGENERATE), "[{}] says how to write it again", set.table());
        let schema = set.schema();
        for (name, def) in schema["$defs"].as_object().unwrap() {
            for key in def["properties"].as_object().into_iter().flat_map(|p| p.keys()) {
                let dotted = format!(".{key}`");
                assert!(page.contains(&dotted) || page.contains(&format!(".{key}]")), "[{}] {name}.{key}", set.table());
            }
        }
        let scenario = intercept_core::config::starter::resolved(*set, Path::new("starter.toml")).unwrap().unwrap();
        for metric in scenario.rules.metrics().defs() {
            assert!(page.contains(&format!("| `{}`", metric.name)), "[{}] {}", set.table(), metric.name);
        }
        for headline in scenario.rules.headline() {
            assert!(page.contains(&format!("| `{headline}` **headline** |")), "[{}] {headline}", set.table());
        }
    }
}
