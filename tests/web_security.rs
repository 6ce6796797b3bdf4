//! The workbench against an attacker, over real HTTP: each reproducer of the security review refused, and
//! the legitimate use beside it still answered.
//!
//! 1. DNS rebinding: a request naming another host (`Host: evil.example`) reads and writes nothing (421).
//! 2. Other sites: a foreign `Origin` or a cross-site fetch is 403; a body a form or a `no-cors` fetch can
//!    send (text/plain, form data, none) is 415, so no such request starts a job or saves a file.
//! 3. Exact solves: stopped within 2 s of the client leaving, stopped at the time limit, at most
//!    `max_exact` at once; the start page answers at once with a config in the folder that takes minutes
//!    to solve.
//! 4. The token: asked whenever set (and always when `serve --bind` exposes the server), taken from the
//!    header, the cookie or the printed URL; a wrong one on the URL or in the header refused beside the
//!    right cookie; an exposed server prints a working URL for each address other machines can use.
//!
//! Also: the security headers on every answer, a saved config's file mode, and job files removed when the
//! server stops. The browser's view of the same attacks is tests/workbench_e2e.rs (`attack.mjs`).

mod web;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use intercept_web::Options;
use web::{call, call_with, get, raw, start};

const NAVAL: &str = "configs/naval/three-level-chain.toml";
const CAVALRY: &str = "configs/cavalry/charge-on-pikes.toml";
const DEEP: &str = "tests/web/beyond-exact.toml";

fn configs_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for set in ["naval", "cavalry"] {
        std::fs::create_dir(dir.path().join(set)).unwrap();
    }
    std::fs::copy(NAVAL, dir.path().join("naval/three-level-chain.toml")).unwrap();
    std::fs::copy(CAVALRY, dir.path().join("cavalry/charge-on-pikes.toml")).unwrap();
    dir
}

fn port(base: &str) -> &str {
    base.rsplit(':').next().unwrap()
}

/// A request as text, with `Host: host`, the headers given and `body`.
fn request(method: &str, path: &str, host: &str, headers: &[&str], body: &str) -> String {
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn status(base: &str) -> serde_json::Value {
    get(&format!("{base}/api/status")).json()
}

#[test]
fn a_rebound_host_reads_and_writes_nothing() {
    let dir = configs_copy();
    let base = start(Options { configs: dir.path().to_owned(), ..Options::default() });
    let evil = format!("evil.example:{}", port(&base));
    let file = "/api/scenarios/naval/three-level-chain.toml";
    let (code, answer) = raw(&base, &request("GET", file, &evil, &[], ""));
    assert_eq!(code, 421, "{answer}");
    assert!(answer.contains("not a name of this workbench") && !answer.contains("malta-convoy"), "{answer}");
    let text = std::fs::read_to_string(CAVALRY).unwrap();
    let toml = ["Content-Type: application/toml"];
    let put = request("PUT", "/api/scenarios/cavalry/x.toml", &evil, &toml, &text);
    assert_eq!(raw(&base, &put).0, 421);
    let over = request("PUT", &format!("{file}?overwrite=1"), &evil, &toml, "[run]\n");
    assert_eq!(raw(&base, &over).0, 421);
    assert!(!dir.path().join("cavalry/x.toml").exists(), "nothing written");
    assert_eq!(std::fs::read_to_string(dir.path().join("naval/three-level-chain.toml")).unwrap(), read(NAVAL));
    assert_eq!(raw(&base, &request("GET", "/", &evil, &[], "")).0, 421, "not even the start page");
    for host in [format!("127.0.0.1:{}", port(&base)), format!("localhost:{}", port(&base)), "[::1]".to_owned()] {
        let (code, answer) = raw(&base, &request("GET", file, &host, &[], ""));
        assert_eq!(code, 200, "{host}: {answer}");
    }
    assert_eq!(raw(&base, &request("PUT", "/api/scenarios/cavalry/x.toml", "localhost", &toml, &text)).0, 201);
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn another_site_starts_no_job_and_saves_nothing() {
    let dir = configs_copy();
    let base = start(Options { configs: dir.path().to_owned(), ..Options::default() });
    let text = read(CAVALRY);
    let run = format!("{base}/api/run?trials=3000000");
    let evil = [("origin", "http://evil.example"), ("content-type", "application/toml")];
    let reply = call_with("POST", &run, &evil, text.as_bytes());
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert!(reply.error().starts_with("Origin http://evil.example: requests from another site are refused"));
    // What a no-cors fetch or a plain HTML form can send, with or without the Origin a browser adds.
    for kind in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""] {
        let mut headers = vec![("content-type", kind)];
        headers.retain(|(_, v)| !v.is_empty());
        let reply = call_with("POST", &run, &headers, text.as_bytes());
        assert_eq!(reply.status, 415, "{kind}: {}", reply.body);
        assert!(reply.error().contains("allowed: application/toml (config text) or application/json"));
        headers.push(("origin", "null"));
        assert_eq!(call_with("POST", &run, &headers, text.as_bytes()).status, 403, "{kind} from a sandboxed page");
    }
    let set = format!("{base}/api/set");
    let edit = r#"{"text": "a = 1\n", "path": ["a"], "value": "2"}"#;
    assert_eq!(call_with("POST", &set, &[("content-type", "text/plain")], edit.as_bytes()).status, 415);
    let save = format!("{base}/api/scenarios/cavalry/x.toml");
    assert_eq!(call_with("PUT", &save, &evil, text.as_bytes()).status, 403);
    assert_eq!(call_with("PUT", &save, &[("content-type", "text/plain")], text.as_bytes()).status, 415);
    assert!(!dir.path().join("cavalry/x.toml").exists(), "nothing saved");
    let jobs = &status(&base)["jobs"];
    assert_eq!((jobs["running"].as_u64(), jobs["queued"].as_u64()), (Some(0), Some(0)), "no job started");
    // The preflight a cross-origin fetch with these types must pass first is refused, with no CORS header.
    let preflight = [("origin", "http://evil.example"), ("access-control-request-method", "POST")];
    let reply = call_with("OPTIONS", &run, &preflight, b"");
    assert_eq!(reply.status, 403);
    assert!(reply.header("access-control-allow-origin").is_none());
    // The same requests from the workbench's own pages work.
    let own = format!("http://127.0.0.1:{}", port(&base));
    let mine = [("origin", own.as_str()), ("content-type", "application/toml"), ("sec-fetch-site", "same-origin")];
    let reply = call_with("POST", &run, &mine, text.as_bytes());
    assert_eq!(reply.status, 202, "{}", reply.body);
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    assert_eq!(call_with("PUT", &save, &mine, text.as_bytes()).status, 201);
    let ok = call_with("POST", &set, &[("content-type", "application/json")], edit.as_bytes());
    assert_eq!(ok.json()["text"], "a = 2\n");
    // Another site's image or no-cors GET of a job neither reads it nor keeps it alive; a link to a page works.
    let job = format!("{base}/api/run/{id}");
    assert_eq!(
        call_with("GET", &job, &[("sec-fetch-site", "cross-site"), ("sec-fetch-mode", "no-cors")], b"").status,
        403
    );
    assert_eq!(call_with("GET", &job, &[("sec-fetch-site", "same-site")], b"").status, 403);
    let link = [("sec-fetch-site", "cross-site"), ("sec-fetch-mode", "navigate")];
    assert_eq!(call_with("GET", &format!("{base}/"), &link, b"").status, 200);
    assert_eq!(call_with("GET", &job, &link, b"").status, 403, "a link into the API is no page");
    assert_eq!(call("DELETE", &job, b"").status, 200);
}

/// Starts `POST /api/exact` of the beyond-exact scenario on a connection of its own and leaves after `after`.
fn abandoned_solve(base: &str, after: Duration) -> Instant {
    use std::io::Read;
    let text = read(DEEP);
    let req =
        request("POST", "/api/exact", &format!("127.0.0.1:{}", port(base)), &["Content-Type: application/toml"], &text);
    let mut stream = std::net::TcpStream::connect(base.trim_start_matches("http://")).unwrap();
    stream.write_all(req.as_bytes()).unwrap();
    stream.set_read_timeout(Some(after)).unwrap();
    let mut nothing = [0u8; 1];
    let read = stream.read(&mut nothing);
    assert!(read.is_err(), "beyond-exact is not solved within {after:?}");
    drop(stream);
    Instant::now()
}

/// Waits until no exact solve runs; how long that took.
fn until_no_solve(base: &str, within: Duration) -> Duration {
    let start = Instant::now();
    while status(base)["exact"]["running"] != 0 {
        assert!(start.elapsed() < within, "a solve still runs after {within:?}: {}", status(base));
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

#[test]
fn an_abandoned_solve_stops_within_two_seconds() {
    let base = start(Options { exact_time: Duration::from_secs(600), ..Options::default() });
    let left = abandoned_solve(&base, Duration::from_millis(800));
    let stopped = until_no_solve(&base, Duration::from_secs(10));
    assert!(left.elapsed() <= Duration::from_secs(2), "stopped {stopped:?} after the client left");
    eprintln!("the abandoned solve stopped {stopped:?} after the client left");
}

#[test]
fn a_solve_stops_at_the_time_limit_and_few_run_at_once() {
    let limits = Options {
        exact_time: Duration::from_secs(1),
        max_exact: 1,
        exact_wait: Duration::from_millis(300),
        ..Options::default()
    };
    let base = start(limits);
    let url = format!("{base}/api/exact?name=beyond-exact.toml");
    let first = std::thread::spawn(move || call("POST", &url, read(DEEP).as_bytes()));
    while status(&base)["exact"]["running"] != 1 {
        std::thread::sleep(Duration::from_millis(10));
    }
    let busy = call("POST", &format!("{base}/api/exact"), read(NAVAL).as_bytes());
    assert_eq!(busy.status, 503, "{}", busy.body);
    assert!(busy.error().contains("already solving 1 scenarios exactly"), "{}", busy.body);
    let timed_out = first.join().unwrap();
    assert_eq!(timed_out.status, 422, "{}", timed_out.body);
    assert!(timed_out.error().starts_with("not solved exactly within 1 s"), "{}", timed_out.body);
    until_no_solve(&base, Duration::from_secs(2));
    assert_eq!(call("POST", &format!("{base}/api/exact"), read(NAVAL).as_bytes()).status, 200, "free again");
}

/// Issue 51 item 7: a search of many exact solves (`solve` with two keys, 73 x 71 distances of the chain)
/// cut at the time limit says to narrow the ranges, not to run Monte Carlo, which cannot answer it; and every
/// one of its solves, on whichever thread, stops with it.
#[test]
fn a_search_out_of_time_advises_narrower_ranges() {
    let base = start(Options { exact_time: Duration::from_millis(500), ..Options::default() });
    let query = "target=%3C%3D1%2F2&vary=naval.group.taranto.distance&vary=naval.group.messina.distance";
    let reply = call("POST", &format!("{base}/api/solve?{query}"), read(NAVAL).as_bytes());
    assert_eq!(reply.status, 422, "{}", reply.body);
    let said = reply.error();
    assert!(said.starts_with("not answered within 0.5 s, the most one search may take here"), "{said}");
    assert!(said.contains("narrow the ranges (KEY=LO..HI)") && !said.contains("Monte Carlo"), "{said}");
    until_no_solve(&base, Duration::from_secs(2));
}

#[test]
fn the_start_page_never_waits_for_a_solve() {
    let dir = configs_copy();
    std::fs::copy(DEEP, dir.path().join("naval/beyond-exact.toml")).unwrap();
    let quick = Options { configs: dir.path().to_owned(), quick_time: Duration::from_secs(3), ..Options::default() };
    let base = start(quick);
    let mut times = Vec::new();
    for _ in 0..5 {
        let asked = Instant::now();
        let page = get(&format!("{base}/"));
        times.push(asked.elapsed());
        assert_eq!(page.status, 200);
        assert!(page.body.contains("beyond-exact.toml"), "{}", page.body);
    }
    // The bound the review set is 200 ms (it answers in a few ms here); the median of five, so that one
    // scheduling hiccup on a busy machine does not decide it, and every one under a second.
    times.sort();
    assert!(times[2] < Duration::from_millis(200) && times[4] < Duration::from_secs(1), "GET / took {times:?}");
    eprintln!("GET / with beyond-exact in the folder: {times:?}");
    let start = Instant::now();
    let deep = loop {
        let list = get(&format!("{base}/api/scenarios")).json();
        let deep =
            list["scenarios"].as_array().unwrap().iter().find(|s| s["path"] == "naval/beyond-exact.toml").cloned();
        let deep = deep.unwrap();
        if deep["answer_state"] != "solving" || start.elapsed() > Duration::from_secs(30) {
            break deep;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(deep["answer_state"], "too_large", "{deep}");
    let page = get(&format!("{base}/")).body;
    assert!(page.contains("too large to solve at once: open it and run Monte Carlo"), "{page}");
}

#[test]
fn the_token_is_asked_and_taken_from_header_cookie_or_url() {
    let base = start(Options { token: Some("s3cret".into()), ..Options::default() });
    for path in ["/", "/api/status", "/assets/style.css", "/edit"] {
        let reply = get(&format!("{base}{path}"));
        assert_eq!(reply.status, 401, "{path}");
        assert!(reply.error().starts_with("this workbench needs its token"), "{}", reply.body);
    }
    assert_eq!(call_with("GET", &format!("{base}/api/status"), &[("authorization", "Bearer wrong")], b"").status, 401);
    let ok = call_with("GET", &format!("{base}/api/status"), &[("authorization", "Bearer s3cret")], b"");
    assert_eq!((ok.status, ok.json()["token"].as_bool()), (200, Some(true)));
    let opened = get(&format!("{base}/edit?path=x.toml&token=s3cret"));
    assert_eq!((opened.status, opened.header("location")), (303, Some("/edit?path=x.toml")), "sent on without it");
    let cookie = opened.header("set-cookie").unwrap().to_owned();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    let pair = cookie.split(';').next().unwrap();
    assert_eq!(call_with("GET", &format!("{base}/"), &[("cookie", pair)], b"").status, 200);
    let api = get(&format!("{base}/api/rule-sets?token=s3cret"));
    assert_eq!(api.status, 200, "the API takes it on the URL too, without a redirect: {}", api.body);
    // A wrong token named by the request is refused even beside the right cookie (issue 51), and says which.
    let wrong_url = "?token=: not this workbench's token (each start makes a new one unless INTERCEPT_SIM_TOKEN \
                     sets it); allowed: the token in the address it printed when it started";
    for path in ["/?token=wrong", "/api/status?token=wrong", "/edit?path=x.toml&token=s3cret&token=wrong"] {
        let reply = call_with("GET", &format!("{base}{path}"), &[("cookie", pair)], b"");
        assert_eq!((reply.status, reply.error()), (401, wrong_url.to_owned()), "{path}");
        assert!(reply.header("set-cookie").is_none(), "{path}: no cookie set");
    }
    let headers = [("cookie", pair), ("authorization", "Bearer wrong")];
    let reply = call_with("GET", &format!("{base}/api/status"), &headers, b"");
    assert_eq!(reply.status, 401, "a wrong bearer token beside the right cookie");
    assert!(reply.error().starts_with("Authorization: Bearer: not this workbench's token"), "{}", reply.body);
    // An old cookie (a server started before on this port) does not stand in the way of the right token.
    let stale = cookie.split('=').next().unwrap().to_owned() + "=old";
    let reopened = call_with("GET", &format!("{base}/?token=s3cret"), &[("cookie", stale.as_str())], b"");
    assert_eq!((reopened.status, reopened.header("location")), (303, Some("/")), "{}", reopened.body);
    let text = read(CAVALRY);
    let post = [("authorization", "Bearer s3cret"), ("content-type", "application/toml")];
    assert_eq!(call_with("POST", &format!("{base}/api/exact"), &post, text.as_bytes()).status, 200);
}

/// `intercept-sim serve ARGS --configs DIR`, its first line, and the child (killed on drop).
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(args: &[&str], configs: &Path, tmp: &Path) -> (Served, String) {
    let (served, mut lines) = serve_saying(args, configs, tmp, |_| 0);
    (served, lines.remove(0))
}

/// [`serve`], with every line it prints once it listens: the first, then as many as `more(first)` says.
fn serve_saying(args: &[&str], configs: &Path, tmp: &Path, more: impl Fn(&str) -> usize) -> (Served, Vec<String>) {
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("intercept-sim"))
        .arg("serve")
        .args(args)
        .arg("--configs")
        .arg(configs)
        .env("TMPDIR", tmp)
        .env_remove("INTERCEPT_SIM_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut lines = vec![String::new()];
    out.read_line(&mut lines[0]).unwrap();
    for _ in 0..more(&lines[0]) {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        lines.push(line);
    }
    (Served(child), lines)
}

#[test]
fn an_exposed_server_asks_for_the_token_it_prints() {
    let (dir, tmp) = (configs_copy(), tempfile::tempdir().unwrap());
    // Its first line, then a line per address of this machine's interfaces (or one saying there is none).
    let port = |first: &str| first.trim_end().rsplit(':').next().unwrap().split('/').next().unwrap().to_owned();
    let addresses = |port: &str| intercept_web::reachable_at(format!("0.0.0.0:{port}").parse().unwrap());
    let more = |first: &str| addresses(&port(first)).len().max(1);
    let (_served, said) = serve_saying(&["--bind", "0.0.0.0", "--port", "0"], dir.path(), tmp.path(), more);
    let line = &said[0];
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| panic!("{line}"));
    let (base, token) = url.split_once("/?token=").unwrap_or_else(|| panic!("no token in {url}"));
    // Other machines are shown the addresses they can use (issue 51), each opening the workbench.
    let others: Vec<&str> = said[1..].iter().filter_map(|l| l.trim().strip_prefix("from other machines: ")).collect();
    let expected = addresses(&port(line));
    if expected.is_empty() {
        assert_eq!(
            others,
            ["no network address found on this machine; allow the name they know it by with --allow-host NAME"]
        );
    } else {
        let urls: Vec<String> = expected.iter().map(|a| format!("http://{a}/?token={token}")).collect();
        assert_eq!(others, urls, "{said:?}");
        assert!(expected.iter().all(|a| !a.ip().is_loopback()), "{expected:?}");
        for other in others {
            assert_eq!(get(other).status, 303, "{other} opens the workbench");
        }
    }
    assert_eq!(token.len(), 32, "{url}");
    assert_eq!(get(&format!("{base}/api/scenarios")).status, 401, "no token, no answer");
    let bearer = format!("Bearer {token}");
    let listed = call_with("GET", &format!("{base}/api/scenarios"), &[("authorization", bearer.as_str())], b"");
    assert_eq!(listed.status, 200);
    assert_eq!(get(url).status, 303, "the printed URL opens the workbench");
    let (_loopback, line) = serve(&["--port", "0"], dir.path(), tmp.path());
    assert!(!line.contains("token"), "none asked on 127.0.0.1 by default: {line}");
    let (_asked, line) = serve(&["--port", "0", "--token"], dir.path(), tmp.path());
    assert!(line.contains("/?token="), "--token asks for one on 127.0.0.1 too: {line}");
}

#[test]
fn every_answer_carries_the_security_headers() {
    let base = start(Options::default());
    for path in ["/", "/edit", "/assets/editor.js", "/api/rule-sets", "/api/nothing", "/calc"] {
        let reply = get(&format!("{base}{path}"));
        let csp = reply.header("content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP"));
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{path}: {csp}");
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(reply.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(reply.header("referrer-policy"), Some("no-referrer"), "{path}");
    }
    let (code, answer) = raw(&base, &request("GET", "/", "evil.example", &[], ""));
    assert!(code == 421 && answer.to_ascii_lowercase().contains("content-security-policy"), "refusals too");
}

/// `Cross-Origin-Opener-Policy` goes only with a loopback address or `localhost`: over plain HTTP at any
/// other address (as other machines reach an exposed workbench) Chromium ignores it and logs "The
/// Cross-Origin-Opener-Policy header has been ignored, because the URL's origin was untrustworthy" as a
/// console error on every page (issue 51; tests/e2e/plain.mjs opens every page that way).
#[test]
fn the_opener_policy_goes_only_where_the_browser_takes_it() {
    let base = start(Options { allowed_hosts: vec!["workbench.lan".into()], ..Options::default() });
    let port = port(&base);
    let opener = |host: &str| {
        let (code, answer) = raw(&base, &request("GET", "/", host, &[], ""));
        assert_eq!(code, 200, "{host}: {answer}");
        let head = answer.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
        assert!(head.contains("content-security-policy"), "{host}: the other headers stay: {head}");
        head.contains("cross-origin-opener-policy: same-origin")
    };
    for local in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")] {
        assert!(opener(&local), "{local}: a trustworthy origin gets it");
    }
    assert!(!opener(&format!("workbench.lan:{port}")), "plain HTTP elsewhere does not");
}

#[test]
fn a_saved_config_gets_the_folders_usual_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = configs_copy();
    let base = start(Options { configs: dir.path().to_owned(), ..Options::default() });
    let text = read(CAVALRY);
    assert_eq!(call("PUT", &format!("{base}/api/scenarios/cavalry/new.toml"), text.as_bytes()).status, 201);
    let mode = |p: &str| std::fs::metadata(dir.path().join(p)).unwrap().permissions().mode() & 0o777;
    // What any file made in the folder gets under this process's umask (the server runs in this process).
    let made = dir.path().join("cavalry/made.toml");
    std::fs::write(&made, "").unwrap();
    assert_eq!(mode("cavalry/new.toml"), mode("cavalry/made.toml"), "not the 0600 of a temporary file");
    let kept = dir.path().join("cavalry/charge-on-pikes.toml");
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    let over = format!("{base}/api/scenarios/cavalry/charge-on-pikes.toml?overwrite=1");
    assert_eq!(call("PUT", &over, text.as_bytes()).status, 200);
    assert_eq!(mode("cavalry/charge-on-pikes.toml"), 0o640, "a replaced file keeps its mode");
}

#[test]
fn job_files_are_removed_when_the_server_stops() {
    let (dir, tmp) = (configs_copy(), tempfile::tempdir().unwrap());
    let (served, line) = serve(&["--port", "0"], dir.path(), tmp.path());
    let base = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_owned();
    let reply = call("POST", &format!("{base}/api/run?trials=20000"), read(CAVALRY).as_bytes());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    web::poll_until(&base, &id, Duration::from_secs(120), |s| s["state"] == "done");
    let folders = || std::fs::read_dir(tmp.path()).unwrap().flatten().filter(|e| e.path().is_dir()).count();
    let files: Vec<_> = walk(tmp.path());
    assert!(files.iter().any(|f| f.ends_with("summary.parquet")), "the job wrote its files in TMPDIR: {files:?}");
    let pid = served.0.id().to_string();
    assert!(Process::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let mut served = served;
    let ended = served.0.wait().unwrap();
    assert!(ended.success(), "SIGTERM stops the server cleanly: {ended}");
    assert_eq!(folders(), 0, "no job folder left: {:?}", walk(tmp.path()));
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        match entry.path().is_dir() {
            true => out.extend(walk(&entry.path())),
            false => out.push(entry.path()),
        }
    }
    out
}
