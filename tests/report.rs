//! `report.html` in a real browser. Headless Chromium loads the report of a naval run, a cavalry run and a
//! sweep: each page loads with nothing in the browser console, and every headline number it shows equals the
//! one in `summary.parquet` at the shown precision. A second test proves the console detector fires, on pages
//! broken on purpose. Every page is also loaded at a phone's width (390 px), measured by a script injected
//! into a copy of it: the page body does not scroll sideways and no chart text is drawn under 9 px. A run's
//! metrics that took one value in every trial are folded into one line per value, and the test checks that
//! every folded metric is constant in `summary.parquet`.
//!
//! Chromium is Debian's `chromium` package; when `/usr/bin/chromium` is missing it is installed once per test
//! binary (`apt-get install -y chromium`, after an `apt-get update` if that fails). These tests never skip:
//! a machine that cannot install it fails them with a message saying so.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use intercept_sim::output::report::{DECIMALS, Page};

#[path = "common/chromium.rs"]
mod browser;
use browser::chromium;
use polars::prelude::*;

/// The longest a page may take to load before the test gives up on the browser.
const LOAD_LIMIT: Duration = Duration::from_secs(120);

fn sim() -> Command {
    Command::cargo_bin("intercept-sim").expect("binary built")
}

fn shipped(config: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(config)
}

/// What the browser made of a page: the DOM after load, and every console message it logged.
struct Loaded {
    dom: String,
    console: Vec<String>,
}

/// Loads `page` in headless Chromium with a fresh profile and no network chatter, and returns the DOM after
/// the load event (`--dump-dom`) and the console messages from Chromium's log on stderr.
fn load(page: &Path) -> Loaded {
    let work = tempfile::tempdir().unwrap();
    let (out, err) = (work.path().join("dom.html"), work.path().join("log.txt"));
    let profile = work.path().join("profile");
    // Output goes to files, not pipes: Chromium's log can be long enough to fill a pipe and stall it.
    let mut child = Process::new(chromium())
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
        .args(["--disable-background-networking", "--disable-component-update", "--disable-sync"])
        .arg(format!("--user-data-dir={}", profile.display()))
        // Console messages are logged at INFO, so the default verbosity shows them; --v=1 only adds about
        // 9000 lines of Chromium internals and no console line.
        .arg("--enable-logging=stderr")
        .arg("--dump-dom")
        .arg(file_url(page))
        .stdin(Stdio::null())
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap())
        .spawn()
        .expect("chromium starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > LOAD_LIMIT {
            let _ = child.kill();
            panic!("chromium did not finish loading {} in {LOAD_LIMIT:?}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let log = std::fs::read_to_string(&err).unwrap_or_default();
    assert!(status.success(), "chromium failed on {}: {status}\n{log}", page.display());
    Loaded { dom: std::fs::read_to_string(&out).unwrap(), console: console_messages(&log) }
}

/// Every line of Chromium's log that reports something from the page's console. Chromium logs each console
/// message, whatever its level, as `INFO:CONSOLE:<line>] "<message>", source: <url> (<line>)`: the level of
/// `console.error` is not in the log. Since a report runs no script, any console message at all is the
/// browser complaining (a blocked resource, a policy violation, an uncaught error), so every one counts. The
/// other patterns catch the same complaints should a future Chromium log them differently.
fn console_messages(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| {
            l.contains(":CONSOLE")
                || l.contains("Uncaught")
                || l.contains("Content Security Policy")
                || l.contains("Refused to")
        })
        .map(str::to_owned)
        .collect()
}

fn file_url(path: &Path) -> String {
    let path = path.canonicalize().expect("the page exists");
    let mut url = "file://".to_owned();
    for c in path.to_string_lossy().chars() {
        match c {
            ' ' => url += "%20",
            '%' => url += "%25",
            '#' => url += "%23",
            '?' => url += "%3F",
            c => url.push(c),
        }
    }
    url
}

/// A metric row as the browser shows it: its `data-` attributes and the text of each cell by class.
#[derive(Debug)]
struct Shown {
    attrs: BTreeMap<String, String>,
    cells: BTreeMap<String, String>,
}

/// Every table row of the DOM that has a `data-kind` attribute: the headline and mean rows.
fn shown_metric_rows(dom: &str) -> Vec<Shown> {
    let mut rows = Vec::new();
    for chunk in dom.split("<tr").skip(1) {
        let Some((tag, rest)) = chunk.split_once('>') else { continue };
        let attrs = attributes(tag);
        if !attrs.contains_key("data-kind") {
            continue;
        }
        let body = rest.split("</tr>").next().unwrap_or_default();
        let mut cells = BTreeMap::new();
        for cell in body.split("<td").skip(1) {
            let Some((tag, rest)) = cell.split_once('>') else { continue };
            let text = unescape(rest.split("</td>").next().unwrap_or_default().trim());
            for class in attributes(tag).get("class").map_or("", String::as_str).split_whitespace() {
                cells.insert(class.to_owned(), text.clone());
            }
        }
        rows.push(Shown { attrs, cells });
    }
    rows
}

/// The `name="value"` attributes of a start tag, as the browser serialises them.
fn attributes(tag: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut rest = tag;
    while let Some((name, after)) = rest.split_once("=\"") {
        let Some((value, next)) = after.split_once('"') else { break };
        out.insert(name.trim().to_owned(), unescape(value));
        rest = next;
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// One row of `summary.parquet`.
struct Expected {
    kind: String,
    estimate: f64,
    ci_low: f64,
    ci_high: f64,
    exact: Option<f64>,
}

fn summary(dir: &Path) -> BTreeMap<String, Expected> {
    let df = ParquetReader::new(File::open(dir.join("summary.parquet")).unwrap()).finish().unwrap();
    let s = |n: &str| df.column(n).unwrap().str().unwrap().clone();
    let f = |n: &str| df.column(n).unwrap().f64().unwrap().clone();
    let (metric, kind) = (s("metric"), s("kind"));
    let (estimate, low, high, exact) = (f("estimate"), f("ci_low"), f("ci_high"), f("exact"));
    (0..df.height())
        .map(|i| {
            let row = Expected {
                kind: kind.get(i).unwrap().to_owned(),
                estimate: estimate.get(i).unwrap(),
                ci_low: low.get(i).unwrap(),
                ci_high: high.get(i).unwrap(),
                exact: exact.get(i),
            };
            (metric.get(i).unwrap().to_owned(), row)
        })
        .collect()
}

/// Whether `shown` is `value` rounded to the report's precision: within half a unit of its last digit.
fn shows(shown: &str, value: f64) -> bool {
    let Ok(x) = shown.parse::<f64>() else { return false };
    let decimals = shown.split_once('.').map_or(0, |(_, d)| d.len());
    decimals == DECIMALS && (x - value).abs() <= 0.5 * 10f64.powi(-(DECIMALS as i32)) + 1e-12
}

/// Runs `config` into a temporary folder, loads its report, and checks it against `summary.parquet`.
fn check_run_report(config: &str) {
    check_run_report_of(config, 20_000);
}

/// [`check_run_report`] with `trials` trials; returns the page as loaded.
fn check_run_report_of(config: &str, trials: u64) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let trials = trials.to_string();
    sim()
        .args(["run", shipped(config).to_str().unwrap(), "--trials", &trials, "--seed", "7", "--out"])
        .arg(&out)
        .assert()
        .success();
    let page = load(&out.join("report.html"));
    assert!(page.console.is_empty(), "{config}: console messages:\n{}", page.console.join("\n"));
    assert!(page.dom.contains("</html>") && page.dom.contains("<h1>"), "{config}: the page did not load");
    let command = format!("--seed 7 --trials {trials}");
    assert!(page.dom.contains(&command), "{config}: the reproduce command is on the page");

    let expected = summary(&out);
    let shown = shown_metric_rows(&page.dom);
    let places = place_metrics(&shipped(config));
    let folded = folded_metrics(&page.dom);
    for (metric, value) in &folded {
        let want = &expected[metric];
        assert_eq!(want.estimate, f64::from(*value), "{config}: {metric} is folded as always {value}");
        assert!(want.ci_low == want.ci_high || want.kind == "probability", "{config}: {metric} varies");
        assert!(want.exact.is_none_or(|x| x == f64::from(*value)), "{config}: {metric} is not exactly {value}");
    }
    for kind in ["probability", "mean"] {
        let rows = shown.iter().filter(|r| r.attrs["data-kind"] == kind).map(|r| r.attrs["data-metric"].as_str());
        let folded = folded.iter().map(|(m, _)| m.as_str()).filter(|m| expected[*m].kind == kind);
        let mut on_page: Vec<&str> = rows.chain(folded).collect();
        // A place's number (a destination square, a final location) has no meaningful mean: its map or
        // stacked bars stand in for it.
        let listed = |m: &str| !places.iter().any(|p| p == m);
        let mut in_parquet: Vec<&str> =
            expected.iter().filter(|(m, e)| e.kind == kind && listed(m)).map(|(m, _)| m.as_str()).collect();
        on_page.sort_unstable();
        in_parquet.sort_unstable();
        assert_eq!(on_page, in_parquet, "{config}: the {kind} metrics shown or folded are those of summary.parquet");
    }
    check_phone(&out.join("report.html"));
    assert!(shown.iter().any(|r| r.attrs["data-kind"] == "probability"), "{config}: no headline rows found");
    for row in &shown {
        let metric = &row.attrs["data-metric"];
        let want = &expected[metric];
        let cell = |class: &str| row.cells.get(class).unwrap_or_else(|| panic!("{metric}: no {class} cell"));
        for (class, value) in [("estimate", want.estimate), ("ci-low", want.ci_low), ("ci-high", want.ci_high)] {
            assert!(shows(cell(class), value), "{config}: {metric} {class} shows {} for {value}", cell(class));
        }
        match want.exact {
            Some(x) => assert!(shows(cell("exact"), x), "{config}: {metric} exact shows {} for {x}", cell("exact")),
            None => assert_eq!(cell("exact"), "\u{2014}", "{config}: {metric} has no exact value"),
        }
    }
    page.dom
}

#[test]
fn naval_run_report_loads_cleanly_and_shows_the_parquet_numbers() {
    let dom = check_run_report_of("configs/naval/three-level-chain.toml", 20_000);
    shows_the_scenario_picture(&dom, &["The interception chain against malta-convoy", "reach 0.9730 (1261/1296)"]);
}

/// The scenario's own picture stands in "The scenario", before the headline odds, and says `words`.
fn shows_the_scenario_picture(dom: &str, words: &[&str]) {
    let at = dom.find("aria-label=\"A picture of the scenario\"").expect("the scenario's picture");
    assert!(dom.find("id=\"the-scenario\"").unwrap() < at && at < dom.find("id=\"headline-odds\"").unwrap());
    for w in words {
        assert!(dom[at..].contains(w), "the picture says {w:?}");
    }
}

/// A naval page opens on its answer, folds the metrics that never vary (Operation Harpoon's late and
/// deferred joins that cannot happen) into one line, and shows each metric's description under its name.
#[test]
fn naval_run_report_opens_on_its_answer_and_folds_constant_metrics() {
    let dom = check_run_report_of("configs/naval/operation-harpoon.toml", 20_000);
    let answer = dom.find("<p class=\"answer\">The convoy force completes its mission").expect("the answer");
    assert!(answer < dom.find("id=\"the-scenario\"").unwrap(), "the answer comes first");
    let folded = folded_metrics(&dom);
    assert!(folded.contains(&("group.messina.joined_late".to_owned(), 0)), "{folded:?}");
    assert!(folded.contains(&("group.messina.movement".to_owned(), 3)), "{folded:?}");
    assert!(!dom.contains("data-metric=\"group.messina.joined_late\" data-kind"), "a folded metric has no row");
    assert!(dom.contains("<small class=\"about\">the mission carries on with its purpose"), "descriptions shown");
    assert!(dom.contains("data-quantiles=\"combat.rounds\""), "the medians and 90th percentiles are shown");
}

#[test]
fn cavalry_run_report_loads_cleanly_and_shows_the_parquet_numbers() {
    let dom = check_run_report_of("configs/cavalry/charge-on-pikes.toml", 20_000);
    shows_the_scenario_picture(&dom, &["The interceptors around the target"]);
}

#[test]
fn step_race_run_report_with_its_coverage_map_loads_cleanly() {
    let dom = check_run_report_of("configs/step-race/screen-with-waypoints.toml", 20_000);
    shows_the_scenario_picture(&dom, &["The tactical map", "mx1mc", "mx2lc", "1 start 7-1/1"]);
}

#[test]
fn card_game_run_report_with_its_final_locations_loads_cleanly() {
    check_run_report("configs/card-game/nomads-open-path.toml");
}

#[test]
fn board_game_run_report_with_its_start_position_loads_cleanly() {
    let dom = check_run_report_of("configs/board/greedy-vs-random.toml", 64);
    assert!(dom.contains("aria-label=\"The start position (C.2)"), "the board is drawn on the page");
    assert!(dom.contains("board.turns"), "the game lengths are on the page");
    assert!(!dom.contains('`'), "no literal backticks in the page's text");
    assert!(dom.contains("board.turns: probability of each bin of 5 values (bars, with 95% intervals), and"));
}

#[test]
fn sweep_report_loads_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = shipped("configs/naval/combined-combat.toml");
    sim()
        .args(["sweep", config.to_str().unwrap(), "--set", "naval.group.force-h.distance=3,5", "--trials", "5000"])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let page = load(&out.join("report.html"));
    assert!(page.console.is_empty(), "console messages:\n{}", page.console.join("\n"));
    assert!(page.dom.contains("--set naval.group.force-h.distance=3,5"), "the reproduce command is on the page");
    let answer = "<p class=\"answer\">At distance=3: The base-change force completes its mission";
    assert!(page.dom.contains(answer), "the page opens with the base point's answer");
    assert!(page.dom.contains("Across the points, mission.completed runs from"), "and how far it moves");
    check_phone(&out.join("report.html"));
    let points = page.dom.matches("data-metric=\"mission.intercepted\"").count();
    assert_eq!(points, 2, "one row per point for each metric");
    assert_eq!(page.dom.matches("data-metric=\"combat.rounds\"").count(), 2, "a distribution's mean too");
    let second = page.dom.find("<tr data-metric=\"combat.rounds\" data-point=\"5\">").expect("the second point");
    let row = &page.dom[second..second + page.dom[second..].find("</tr>").expect("a whole row")];
    assert!(row.contains("class=\"num difference\">-"), "fewer rounds, paired with the base point: {row}");
}

/// A sensitivity report: it loads cleanly, and the one-face change of the charge table entry (C-2) is shown
/// where the ranked table of the Lifeguard's odds puts it, at the top.
#[test]
fn sensitivity_report_loads_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = shipped("configs/cavalry/charge-on-pikes.toml");
    sim()
        .args(["sensitivity", config.to_str().unwrap(), "--only", "cavalry.table", "--out"])
        .arg(&out)
        .assert()
        .success();
    let page = load(&out.join("report.html"));
    assert!(page.console.is_empty(), "console messages:\n{}", page.console.join("\n"));
    assert!(page.dom.contains("--only cavalry.table"), "the reproduce command is on the page");
    let answer = "<p class=\"answer\">Of the values varied, cavalry.table.charge (now 5) moves cavalry.intercepted \
                  (0.800000, exact) most: one step down to 4 changes it by -0.050000;";
    assert!(page.dom.contains(answer), "the page opens with the value that moves the headline odds most");
    check_phone(&out.join("report.html"));
    let row = "<tr data-metric=\"cavalry.interceptor.lifeguard.succeeded\" data-key=\"cavalry.table.charge\">";
    let at = page.dom.find(row).expect("the charge entry's row");
    let cells = &page.dom[at..at + page.dom[at..].find("</tr>").expect("a whole row")];
    assert!(cells.contains(">1<") && cells.contains("-0.100000") && cells.contains("+0.100000"), "{cells}");
}

/// A detector that never fires proves nothing: pages broken on purpose must each be caught. One logs an error
/// from a script, one throws, and one is a real report page that asks for an image from the network, which
/// its Content-Security-Policy blocks.
#[test]
fn the_console_detector_fires_on_broken_pages() {
    let dir = tempfile::tempdir().unwrap();
    let scripted = |body: &str| {
        format!(
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" \
             content=\"default-src 'none'; script-src 'unsafe-inline'\"></head><body>{body}</body></html>"
        )
    };
    let mut report = Page::new("broken on purpose");
    report.section("A network image").paragraph("The next element is not allowed.");
    let network = report.html().replace("</main>", "<img src=\"https://example.com/x.png\" alt=\"\"></main>");
    let pages = [
        ("console-error.html", scripted("<script>console.error('deliberate error')</script>"), "deliberate error"),
        ("uncaught.html", scripted("<script>notAFunction()</script>"), "Uncaught ReferenceError"),
        ("network.html", network, "https://example.com/x.png"),
    ];
    for (name, html, want) in pages {
        let path = dir.path().join(name);
        std::fs::write(&path, html).unwrap();
        let console = load(&path).console;
        assert!(console.iter().any(|l| l.contains(want)), "{name}: {want:?} not detected in {console:?}");
    }
    // The same report page without the image is clean: the detector is not just firing on noise.
    let clean = dir.path().join("clean.html");
    std::fs::write(&clean, report.html()).unwrap();
    assert_eq!(load(&clean).console, Vec::<String>::new());
}

/// The metrics of `config` whose values name places: no page shows their mean.
fn place_metrics(config: &Path) -> Vec<String> {
    let registry = intercept_sim::core::games::shipped();
    let scenario = intercept_sim::core::config::load(&registry, config, Default::default()).expect("a shipped config");
    scenario.rules.metrics().defs().iter().filter(|d| d.place).map(|d| d.name.clone()).collect()
}

/// Every metric folded into an "always" line of a run's page, with the value it always took.
fn folded_metrics(dom: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for line in dom.split("<p class=\"always\" data-always=\"").skip(1) {
        let (value, rest) = line.split_once('"').expect("a value");
        let value: u32 = value.parse().expect("a whole value");
        let body = rest.split("</p>").next().unwrap_or_default();
        for span in body.split("data-metric=\"").skip(1) {
            out.push((unescape(span.split('"').next().unwrap_or_default()), value));
        }
    }
    out
}

/// The width of a phone's screen, in CSS pixels.
const PHONE: u32 = 390;

/// Loads `page` in a frame of a phone's width (a desktop browser's window cannot be made that narrow), with
/// a measuring script in the page around it, and checks what it measured: the page body does not scroll
/// sideways, and the smallest chart text is at least 9 px high as drawn.
fn check_phone(page: &Path) {
    let html = std::fs::read_to_string(page).unwrap();
    let srcdoc = html.replace('&', "&amp;").replace('"', "&quot;");
    let outer = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\"><iframe id=\"phone\" \
         width=\"{PHONE}\" height=\"844\" style=\"border:0\" srcdoc=\"{srcdoc}\"></iframe><script>{MEASURE}</script></body></html>"
    );
    let work = tempfile::tempdir().unwrap();
    let copy = work.path().join("phone.html");
    std::fs::write(&copy, outer).unwrap();
    let loaded = load(&copy);
    assert!(loaded.console.is_empty(), "{}: console messages:\n{}", page.display(), loaded.console.join("\n"));
    let measured = loaded.dom.split("<pre id=\"measured\">").nth(1).and_then(|m| m.split("</pre>").next());
    let measured: BTreeMap<&str, f64> = measured
        .expect("the measuring script ran")
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k, v.parse().unwrap()))
        .collect();
    // The frame's own scroll bar may take its share of the phone's width.
    let width = measured["width"];
    assert!((360.0..=f64::from(PHONE)).contains(&width), "{}: a phone's width: {measured:?}", page.display());
    assert!(measured["overflow"] <= 0.0, "{}: the page scrolls sideways on a phone: {measured:?}", page.display());
    assert!(measured["smallest"] >= 9.0, "{}: chart text under 9 px on a phone: {measured:?}", page.display());
    assert!(measured["charts"] >= 1.0, "{}: no chart measured: {measured:?}", page.display());
}

/// Measures the page as laid out: the viewport's width, how far the page is wider than it, and the height of
/// the smallest chart text as drawn (its font size times the chart's scale).
const MEASURE: &str = "
window.addEventListener('load', () => {
const doc = document.getElementById('phone').contentDocument;
const root = doc.documentElement;
let smallest = 1e9;
const charts = doc.querySelectorAll('figure svg');
for (const svg of charts) {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  for (const t of svg.querySelectorAll('text')) {
    const size = parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * scale;
    smallest = Math.min(smallest, size);
  }
}
const out = document.createElement('pre');
out.id = 'measured';
const overflow = root.scrollWidth - root.clientWidth;
out.textContent = `width=${root.clientWidth} overflow=${overflow} smallest=${smallest} charts=${charts.length}`;
document.body.appendChild(out);
});
";
