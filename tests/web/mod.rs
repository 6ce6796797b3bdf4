//! What the workbench API tests share: a server started in-process on 127.0.0.1 and a free port, an HTTP
//! client that returns every status as it is, and the command line's answer for the same input.

#![allow(dead_code)]

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use intercept_web::{Options, Server};
use serde_json::Value;

/// A server on 127.0.0.1, a free port, with these options; its base URL (no trailing slash).
pub fn start(options: Options) -> String {
    let addr = Server::spawn(Options { bind: "127.0.0.1:0".parse().unwrap(), ..options }).expect("the server starts");
    format!("http://{addr}")
}

/// A server with the default options over the shipped configs.
pub fn shipped() -> String {
    start(Options::default())
}

/// A response: its status and body text.
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub content_type: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: not JSON: {}", self.body))
    }

    /// The `error` line of an error answer, which must be JSON.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_else(|| panic!("no error line: {}", self.body)).to_owned()
    }
}

fn agent() -> ureq::Agent {
    let config =
        ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(Duration::from_secs(60)));
    config.build().new_agent()
}

/// `method url` with `body`; every status is an answer, never an error.
pub fn call(method: &str, url: &str, body: &[u8]) -> Reply {
    let request = ureq::http::Request::builder().method(method).uri(url).body(body.to_vec()).unwrap();
    let mut response = agent().run(request).unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let content_type =
        response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let body = response.body_mut().with_config().limit(64 << 20).read_to_vec().unwrap();
    let body = String::from_utf8_lossy(&body).into_owned();
    Reply { status: response.status().as_u16(), body, content_type }
}

pub fn get(url: &str) -> Reply {
    call("GET", url, b"")
}

pub fn post(url: &str, body: &str) -> Reply {
    call("POST", url, body.as_bytes())
}

/// `intercept-sim ARGS` run in `dir`: its exit code, stdout and stderr.
pub fn cli(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("intercept-sim").unwrap().current_dir(dir).args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The one line the command line printed after `error: `.
pub fn cli_error(stderr: &str) -> String {
    let line = stderr.lines().find_map(|l| l.strip_prefix("error: "));
    line.unwrap_or_else(|| panic!("no error line: {stderr}")).to_owned()
}

/// The state of job `id`, polled until `done(state)` or `within` passes.
pub fn poll_until(base: &str, id: &str, within: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let status = get(&format!("{base}/api/run/{id}")).json();
        if done(&status) || start.elapsed() > within {
            return status;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts a run job of `config` (a shipped file) with `query`; its id.
pub fn start_job(base: &str, config: &str, query: &str) -> String {
    let reply = post(&format!("{base}/api/run?{query}"), &std::fs::read_to_string(config).unwrap());
    assert_eq!(reply.status, 202, "{}", reply.body);
    reply.json()["id"].as_str().unwrap().to_owned()
}
