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

/// A response: its status, headers and body text.
pub struct Reply {
    pub status: u16,
    pub body: String,
    pub content_type: String,
    /// Every header, its name in lower case, in order.
    pub headers: Vec<(String, String)>,
}

impl Reply {
    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: not JSON: {}", self.body))
    }

    /// The `error` line of an error answer, which must be JSON.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_else(|| panic!("no error line: {}", self.body)).to_owned()
    }
}

fn agent() -> ureq::Agent {
    // Redirects are answers too: the token's redirect is tested as it is sent.
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(60)));
    config.build().new_agent()
}

/// `method url` with `body`, as the pages send it: a `POST` or `PUT` says its body is JSON when it is a JSON
/// object, else TOML (the server refuses any other type); every status is an answer, never an error.
pub fn call(method: &str, url: &str, body: &[u8]) -> Reply {
    let json = body.first() == Some(&b'{');
    let kind = if json { "application/json" } else { "application/toml" };
    let headers: &[(&str, &str)] = if matches!(method, "POST" | "PUT") { &[("content-type", kind)] } else { &[] };
    call_with(method, url, headers, body)
}

/// `method url` with exactly these headers (besides `Host`) and `body`.
pub fn call_with(method: &str, url: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut request = ureq::http::Request::builder().method(method).uri(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(body.to_vec()).unwrap();
    let mut response = agent().run(request).unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let content_type =
        response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let headers = response.headers().iter().map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()));
    let headers = headers.collect();
    let body = response.body_mut().with_config().limit(64 << 20).read_to_vec().unwrap();
    let body = String::from_utf8_lossy(&body).into_owned();
    Reply { status: response.status().as_u16(), body, content_type, headers }
}

/// `request` (the whole HTTP/1.1 request as text, `Host` and all) sent as written on a new connection to
/// `base`'s address: for requests a client library would not send as asked (another `Host`). Its reply's
/// status line and the rest of the answer.
pub fn raw(base: &str, request: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, answer)
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
