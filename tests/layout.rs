//! One rule set, one folder: outside the rule-set folders (`crates/intercept-core/src/games/<rule set>/`),
//! only the registry may name a rule set (the command line included: it mounts each rule set's own commands
//! from the registry), and the config layer never reaches into the rule sets.
//!
//! "Naming" is a case-insensitive match of any of [`NAMES`] (the rule sets' table, folder and game names) in
//! a source file under `src/` or `crates/*/src/` or a web asset of the workbench, comments included: a shared layer that says "naval" in a
//! doc example has started to know about a rule set.

use std::path::{Path, PathBuf};

/// How the source can name a rule set: tables, folders, commands and the games' own titles.
const NAMES: &[&str] = &[
    "naval",
    "cavalry",
    "step_race",
    "step-race",
    "step race",
    "card_game",
    "card-game",
    "card game",
    "board_game",
    "board-game",
    "board game",
    "[board]",
    "musket",
    "world at war",
    "sorcery",
    "gitm",
];

/// The one file allowed to name rule sets: the registry.
const ALLOWED: &[&str] = &["crates/intercept-core/src/games/mod.rs"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The workspace's source files, relative to the root, outside the rule-set folders.
fn shared_sources() -> Vec<String> {
    let mut all = Vec::new();
    sources(&root().join("src"), &mut all);
    for krate in std::fs::read_dir(root().join("crates")).unwrap() {
        sources(&krate.unwrap().path().join("src"), &mut all);
    }
    let games = root().join("crates/intercept-core/src/games");
    let in_a_folder = |p: &PathBuf| p.strip_prefix(&games).is_ok_and(|rest| rest.components().count() > 1);
    let mut shared: Vec<String> = all
        .iter()
        .filter(|p| !in_a_folder(p))
        .map(|p| p.strip_prefix(root()).unwrap().to_string_lossy().into_owned())
        .collect();
    // The workbench's pages are shared too: every rule set is edited and calculated through them.
    for entry in std::fs::read_dir(root().join("crates/intercept-web/assets")).unwrap() {
        let path = entry.unwrap().path();
        shared.push(path.strip_prefix(root()).unwrap().to_string_lossy().into_owned());
    }
    shared.sort();
    shared
}

fn names_a_rule_set(file: &str) -> Option<&'static str> {
    let text = std::fs::read_to_string(root().join(file)).unwrap().to_lowercase();
    NAMES.iter().copied().find(|n| text.contains(n))
}

#[test]
fn only_the_registry_names_a_rule_set() {
    let shared = shared_sources();
    assert!(shared.len() > 30, "the sources are found: {shared:?}");
    let naming: Vec<(String, &str)> =
        shared.iter().filter_map(|f| names_a_rule_set(f).map(|n| (f.clone(), n))).collect();
    let stray: Vec<&(String, &str)> = naming.iter().filter(|(f, _)| !ALLOWED.contains(&f.as_str())).collect();
    assert!(stray.is_empty(), "shared files that name a rule set (file, name): {stray:?}");
    assert!(naming.len() <= 1, "only the registry names rule sets: {naming:?}");
}

#[test]
fn the_shared_core_reaches_the_rule_sets_only_through_the_registry() {
    for file in shared_sources().iter().filter(|f| f.starts_with("crates/intercept-core/src/")) {
        if file.ends_with("games/mod.rs") {
            continue;
        }
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        assert!(!text.contains("crate::games"), "{file} imports a rule set's folder");
    }
}

/// The core builds without the command line's, the tables' and the charts' crates: a change to a rule never
/// recompiles against Polars, and a program that wants the engine as a library does not pull them.
#[test]
fn the_core_depends_on_no_polars_plotters_or_clap() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = std::process::Command::new(cargo)
        .current_dir(root())
        .args(["tree", "--locked", "--offline", "-p", "intercept-core", "-e", "normal", "--prefix", "none"])
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8(out.stdout).unwrap();
    assert!(tree.lines().count() > 10, "the core's dependencies are listed:\n{tree}");
    for heavy in ["polars", "plotters", "clap"] {
        assert!(!tree.lines().any(|l| l.starts_with(heavy)), "intercept-core depends on {heavy}:\n{tree}");
    }
}

/// The files of the library crates and the binary that may parse TOML or JSON text, each with the text it
/// reads: text that comes from outside the process (a file, a request, the program's own source). Anything
/// made inside the process is handed on as a value; text written only to be parsed again is an interface
/// spelt twice, and loses the types and the error's place on the way.
const PARSING: &[(&str, &str)] = &[
    ("crates/intercept-core/src/config/mod.rs", "a config file's text, as read"),
    ("crates/intercept-core/src/config/locate.rs", "the same text again, to find the line an error is on"),
    ("crates/intercept-core/src/config/starter.rs", "the starter configs compiled into the program"),
    ("crates/intercept-core/src/seal.rs", "a manifest read back from a run folder"),
    ("crates/intercept-web/src/config.rs", "a request's config text"),
    ("crates/intercept-web/src/editor.rs", "a request's body"),
    ("crates/intercept-web/src/play.rs", "a request's body"),
    ("crates/intercept-web/src/patch.rs", "a config file's text and its edit, to check the edit changes one key"),
    (
        "crates/intercept-python/src/scenario.rs",
        "a config's text handed in by Python (`Scenario.from_toml`), or a dict's JSON (`from_dict`), written as \
         TOML once so that the one config reader checks it as it checks a file",
    ),
    ("crates/intercept-python/src/game.rs", "a position handed in by Python as JSON (`Game.from_position`)"),
    (
        "crates/intercept-core/src/config/files.rs",
        "a file a config names (a map file), read once as the config loads and then held in it as a value",
    ),
];

/// Calls that parse TOML or JSON text.
const PARSERS: &[&str] = &[
    "toml::from_str",
    "serde_json::from_str",
    "serde_json::from_slice",
    "DeTable::parse",
    "config::from_str",
    "parse::<toml::Value>",
    "parse::<toml::Table>",
    "parse::<serde_json::Value>",
];

#[test]
fn no_text_is_made_to_be_parsed_again() {
    for file in all_sources() {
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        // A file's unit tests (after `#[cfg(test)]`) and its doc examples may parse what they write out.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let parses: Vec<&&str> = PARSERS.iter().filter(|p| code.contains(**p)).collect();
        let allowed = PARSING.iter().any(|(f, _)| *f == file);
        assert!(parses.is_empty() || allowed, "{file} parses text ({parses:?}); hand on the value instead");
    }
    for (file, _) in PARSING {
        assert!(root().join(file).exists(), "{file} is listed but gone");
    }
}

/// Every `.rs` file of the library crates and the binary, relative to the root.
fn all_sources() -> Vec<String> {
    let mut all = Vec::new();
    sources(&root().join("src"), &mut all);
    for krate in std::fs::read_dir(root().join("crates")).unwrap() {
        sources(&krate.unwrap().path().join("src"), &mut all);
    }
    all.iter().map(|p| p.strip_prefix(root()).unwrap().to_string_lossy().into_owned()).collect()
}

/// The library crates say why they refuse with an error type of their own (what failed, at which seam),
/// never a bare `String`: strings are made where the binary prints.
#[test]
fn no_library_function_fails_with_a_bare_string() {
    let library: Vec<String> = all_sources().into_iter().filter(|f| f.starts_with("crates/")).collect();
    assert!(library.len() > 50, "the library sources are found");
    let bare = regex_free_bare_string_errors(&library);
    assert!(bare.is_empty(), "fails with a bare String (file:line): {bare:?}");
}

/// `file:line` of every `Result<_, String>` and `type Err = String` in `files`.
fn regex_free_bare_string_errors(files: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let result =
                code.find("Result<").is_some_and(|at| code[at..].split('>').next().unwrap_or("").ends_with(", String"));
            if result || code.contains("type Err = String") {
                found.push(format!("{file}:{}", n + 1));
            }
        }
    }
    found
}
