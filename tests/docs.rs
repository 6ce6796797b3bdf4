//! Every command the documentation shows in a ```console block is run, and what it prints must be what the
//! page says: README.md, CONTRIBUTING.md and every page of docs/ (docs/rules/ holds the rules' texts, which
//! show no commands).
//!
//! A block holds one or more `$ intercept-sim ...` lines, each run from the repository root by `sh` with
//! this build's binary first on PATH, followed by its stdout as printed. A line `? N` right after the
//! command is its exit status (0 when absent). In the output, a line `...` stands for any number of lines
//! and `[..]` for any text within a line (a timing, a path); stderr is not compared. Folders a command writes
//! under `/tmp/` go into a temporary folder of the test's instead. Blocks that must not run (a server, a
//! long run, Slurm) are tagged `text` or `bash`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command shown in a page, with what it should print.
#[derive(Debug)]
struct Shown {
    /// `file:line` of the command.
    at: String,
    command: String,
    status: i32,
    expected: Vec<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The pages that may show commands.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    for dir in ["docs", "docs/guide"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        found.sort();
        pages.extend(found);
    }
    pages
}

/// The commands of every ```console block of `page`.
fn shown(page: &Path) -> Vec<Shown> {
    let text = std::fs::read_to_string(page).unwrap();
    let name = page.strip_prefix(root()).unwrap().display().to_string();
    let mut out: Vec<Shown> = Vec::new();
    let mut in_console = false;
    for (n, line) in text.lines().enumerate() {
        match (in_console, line.trim_end()) {
            (false, l) => in_console = l == "```console",
            (true, "```") => in_console = false,
            (true, l) if l.starts_with("$ ") => out.push(Shown {
                at: format!("{name}:{}", n + 1),
                command: l[2..].to_owned(),
                status: 0,
                expected: Vec::new(),
            }),
            (true, l) => {
                let last = out.last_mut().unwrap_or_else(|| panic!("{name}:{}: output before any `$ ` command", n + 1));
                match l.strip_prefix("? ") {
                    Some(code) if last.expected.is_empty() => last.status = code.parse().expect("`? N`: a number"),
                    _ => last.expected.push(l.to_owned()),
                }
            }
        }
    }
    assert!(!in_console, "{name}: a ```console block is not closed");
    out
}

/// Whether `line` matches `pattern`, where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the `lines` printed match the `expected` ones, where a line `...` stands for any lines.
fn lines_match(expected: &[String], lines: &[&str]) -> bool {
    match expected.split_first() {
        None => lines.is_empty(),
        Some((dots, rest)) if dots == "..." => (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..])),
        Some((first, rest)) => lines.first().is_some_and(|l| line_matches(first, l)) && lines_match(rest, &lines[1..]),
    }
}

/// Lines without trailing blanks, and without blank lines at the end.
fn trimmed(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

#[test]
fn every_console_block_prints_what_the_page_says() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_intercept-sim"));
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let scratch = tempfile::tempdir().unwrap();
    let all: Vec<Shown> = pages().iter().flat_map(|p| shown(p)).collect();
    assert!(all.len() >= 20, "the pages show their commands: {} found", all.len());
    let mut failures = Vec::new();
    for s in &all {
        assert!(
            s.command.starts_with("intercept-sim "),
            "{}: a console command runs intercept-sim: {}",
            s.at,
            s.command
        );
        let tmp = format!("{}/", scratch.path().display());
        let command = s.command.replace("/tmp/", &tmp);
        let out = Command::new("sh").arg("-c").arg(&command).env("PATH", &path).current_dir(root()).output().unwrap();
        // What the page shows under /tmp/ the command wrote into the scratch folder.
        let stdout = String::from_utf8_lossy(&out.stdout).replace(&tmp, "/tmp/");
        let expected: Vec<String> = {
            let mut e = s.expected.clone();
            while e.last().is_some_and(|l| l.is_empty()) {
                e.pop();
            }
            e
        };
        let status = out.status.code().unwrap_or(-1);
        if status != s.status || !lines_match(&expected, &trimmed(&stdout)) {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let first = first_difference(&expected, &trimmed(&stdout));
            failures.push(format!(
                "{}: $ {}\nexit {status} (page says {}); {first}\nstdout:\n{stdout}\nstderr:\n{stderr}",
                s.at, s.command, s.status
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} commands differ from their page:\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

/// Where the printed lines first part from the page's, for the failure message (up to the first `...`).
fn first_difference(expected: &[String], lines: &[&str]) -> String {
    let pairs = expected.iter().take_while(|e| *e != "...").zip(lines.iter().map(Some).chain(std::iter::repeat(None)));
    for (n, (e, l)) in pairs.enumerate() {
        if !l.is_some_and(|l| line_matches(e, l)) {
            return format!("line {}: page says {e:?}, printed {:?}", n + 1, l.copied().unwrap_or("(nothing)"));
        }
    }
    "the lines after the page's last `...` differ (or the page shows fewer lines)".to_owned()
}

#[test]
fn the_matcher_reads_dots_and_elided_text() {
    let e = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&e(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(lines_match(&e(&["a", "..."]), &["a"]));
    assert!(!lines_match(&e(&["a", "d"]), &["a", "b", "d"]));
    assert!(line_matches("took [..] s, wrote [..] files", "took 0.89 s, wrote 12 files"));
    assert!(!line_matches("took [..] s", "took 0.89 ms"));
    assert!(line_matches("[..]", "anything"));
    assert!(!line_matches("P = 1/2", "P = 1/3"));
}
