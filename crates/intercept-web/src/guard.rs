//! What keeps other websites and other machines out of the workbench, checked on every request before any
//! route runs ([`guard`]), as the trusted local servers do (Jupyter, VS Code's server, Vite's dev server):
//!
//! - **`Host`** must be one of this machine's names for itself: `localhost` (or a `*.localhost` name), an IP
//!   address of this machine, or a name given with `--allow-host`. A website whose DNS name is made to point
//!   at 127.0.0.1 (DNS rebinding) sends its own name, and is refused with 421 before it reads or writes
//!   anything.
//! - **Other sites**: a request whose `Origin` is not this server's, or that the browser marks as sent from
//!   another site (`Sec-Fetch-Site: cross-site` or `same-site`), is refused with 403. Only a plain link
//!   (a top-level navigation to a page) may come from elsewhere: it shows a page and changes nothing.
//! - **No simple request changes anything**: every `POST` and `PUT` must say its body is
//!   `application/toml` or `application/json` (415 otherwise). A browser cannot send those types to another
//!   site without asking first (a CORS preflight), and that question is refused, so a form or a `no-cors`
//!   fetch on some other page cannot start work here.
//! - **The token** ([`crate::Options::token`]), whenever one is set (always when the server listens
//!   beyond this machine): the `Authorization: Bearer TOKEN` header, the cookie the first page sets, or
//!   `?token=TOKEN` on the URL the server printed (a page opened that way is sent on without it, the
//!   token kept in a cookie only this site gets). 401 without it, and 401 for a wrong token on the URL or
//!   in the header even when the cookie holds the right one.
//!
//! Every answer, refusals too, carries the security headers of [`secure`]: a content security policy that
//! lets the pages load only this server's own scripts and styles and be framed by nobody.

use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::Options;
use crate::error::ApiError;

/// The content types a state-changing request may declare: neither is one a browser sends to another site
/// without a preflight.
pub const BODY_TYPES: [&str; 2] = ["application/toml", "application/json"];

/// Checks the request (host, site, body type, token), then runs it; every answer gets the security headers.
pub async fn guard(State(s): State<crate::State>, mut request: Request, next: Next) -> Response {
    let local = host(request.headers()).is_ok_and(|h| loopback(&h));
    let mut response = match check(&s.options, &mut request) {
        Ok(Pass::Run { cookie }) => {
            let mut response = next.run(request).await;
            if let Some(cookie) = cookie {
                response.headers_mut().append(header::SET_COOKIE, cookie);
            }
            response
        }
        Ok(Pass::Redirect { to, cookie }) => {
            let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response();
            response.headers_mut().append(header::SET_COOKIE, cookie);
            response
        }
        Err(refused) => refused.into_response(),
    };
    secure(response.headers_mut(), local);
    response
}

/// What a request that passed the checks does next.
enum Pass {
    /// Runs, setting the token's cookie when it came on the URL.
    Run { cookie: Option<HeaderValue> },
    /// A page opened with `?token=`: sent on to the same address without it, with the cookie set.
    Redirect { to: HeaderValue, cookie: HeaderValue },
}

fn check(options: &Options, request: &mut Request) -> Result<Pass, ApiError> {
    let host = host(request.headers())?;
    if !allowed_host(options, &host) {
        return Err(ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "Host {host:?}: not a name of this workbench; allowed: localhost, this machine's IP addresses{} \
                 (a website whose name was pointed at this machine is refused; add a name with --allow-host)",
                extra_hosts(options)
            ),
        ));
    }
    same_site(request, &host)?;
    body_type(request)?;
    token(options, request)
}

/// The `Host` header, as sent: 400 without one (HTTP/1.1 requires it).
fn host(headers: &HeaderMap) -> Result<String, ApiError> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    host.map(str::to_owned).ok_or_else(|| ApiError::bad_request("no Host header; allowed: this workbench's address"))
}

fn extra_hosts(options: &Options) -> String {
    options.allowed_hosts.iter().map(|h| format!(", {h}")).collect()
}

/// The name part of a `Host` value: without its port, an IPv6 address without its brackets.
fn name_of(host: &str) -> &str {
    match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => {
            host.rsplit_once(':').map_or(host, |(name, port)| if port.parse::<u16>().is_ok() { name } else { host })
        }
    }
}

/// Whether `host` is `localhost`, a `*.localhost` name or a loopback address: the names a browser trusts
/// over plain HTTP as it trusts HTTPS (a "potentially trustworthy origin").
fn loopback(host: &str) -> bool {
    let name = name_of(host).trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost") || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether `host` names this server: a loopback name or address, the address it is bound to (any address
/// when it listens on all of them: an IP address cannot be pointed elsewhere by DNS), or a name allowed.
pub fn allowed_host(options: &Options, host: &str) -> bool {
    if loopback(host) {
        return true;
    }
    let name = name_of(host).trim_end_matches('.').to_ascii_lowercase();
    if let Ok(ip) = name.parse::<IpAddr>() {
        let bound = options.bind.ip();
        return ip == bound || bound.is_unspecified();
    }
    options.allowed_hosts.iter().any(|h| h.eq_ignore_ascii_case(&name))
}

/// Refuses a request another site sent: a foreign `Origin`, or one the browser marks as cross-site. A
/// top-level navigation to a page may come from anywhere: it can only show the page.
fn same_site(request: &Request, host: &str) -> Result<(), ApiError> {
    let headers = request.headers();
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_ascii_lowercase);
    let foreign = |what: String| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!("{what}: requests from another site are refused; open the workbench at its own address"),
        )
    };
    if let Some(origin) = text("origin").filter(|o| *o != format!("http://{}", host.to_ascii_lowercase())) {
        return Err(foreign(format!("Origin {origin}")));
    }
    let site = text("sec-fetch-site");
    let from_elsewhere = matches!(site.as_deref(), Some("cross-site" | "same-site"));
    let navigation = request.method() == Method::GET
        && text("sec-fetch-mode").as_deref() == Some("navigate")
        && !request.uri().path().starts_with("/api/");
    if from_elsewhere && !navigation {
        return Err(foreign(format!("Sec-Fetch-Site {}", site.unwrap_or_default())));
    }
    Ok(())
}

/// Refuses a `POST` or `PUT` whose body is not declared `application/toml` or `application/json`.
fn body_type(request: &Request) -> Result<(), ApiError> {
    if !matches!(*request.method(), Method::POST | Method::PUT) {
        return Ok(());
    }
    let declared = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let essence = declared.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if BODY_TYPES.contains(&essence.as_str()) {
        return Ok(());
    }
    let got = if declared.is_empty() { "none".to_owned() } else { format!("{declared:?}") };
    Err(ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        format!(
            "Content-Type {got}: refused; allowed: application/toml (config text) or application/json \
             (curl: -H 'Content-Type: application/toml')"
        ),
    ))
}

/// The name of the cookie that carries the token: one per port, so two workbenches on one machine keep
/// their own.
fn cookie_name(options: &Options) -> String {
    format!("intercept-sim-token-{}", options.bind.port())
}

/// Checks the token when one is set; a valid `?token=` is taken off the URL (and, for a page, sent on).
fn token(options: &Options, request: &mut Request) -> Result<Pass, ApiError> {
    let Some(token) = options.token.as_deref() else { return Ok(Pass::Run { cookie: None }) };
    let (rest, on_url) = strip_token(request.uri());
    let header = bearer(request.headers());
    // A token the request itself names (on the URL or in the header) must be this one, whatever else it
    // carries: a stale address or a script's wrong token is told so, never let through on the cookie.
    let mut named = on_url.iter().map(|t| ("?token=", t.as_str())).chain(header.map(|t| ("Authorization: Bearer", t)));
    if let Some((given, _)) = named.find(|(_, t)| !same(t, token)) {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            format!(
                "{given}: not this workbench's token (each start makes a new one unless INTERCEPT_SIM_TOKEN \
                 sets it); allowed: the token in the address it printed when it started"
            ),
        ));
    }
    let cookie_name = cookie_name(options);
    let by_cookie = cookies(request.headers(), &cookie_name).any(|t| same(&t, token));
    let (by_header, by_url) = (header.is_some(), !on_url.is_empty());
    if !(by_header || by_cookie || by_url) {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "this workbench needs its token: open the address it printed (…/?token=…), or send \
             Authorization: Bearer TOKEN",
        ));
    }
    let cookie = by_url.then(|| {
        let text = format!("{cookie_name}={token}; HttpOnly; SameSite=Strict; Path=/");
        HeaderValue::from_str(&text).expect("a token is plain text")
    });
    if by_url {
        let page = request.method() == Method::GET && !request.uri().path().starts_with("/api/");
        if let (true, Some(cookie)) = (page, cookie.clone()) {
            let to = HeaderValue::from_str(&rest).expect("the same URL, shorter");
            return Ok(Pass::Redirect { to, cookie });
        }
        *request.uri_mut() = rest.parse().expect("the same URL, shorter");
    }
    Ok(Pass::Run { cookie })
}

/// The URL's path and query without any `token=` pair, and every token it carried.
fn strip_token(uri: &Uri) -> (String, Vec<String>) {
    let Some(query) = uri.query() else { return (uri.path().to_owned(), Vec::new()) };
    let mut tokens = Vec::new();
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| match pair.strip_prefix("token=") {
            Some(t) => {
                tokens.push(t.to_owned());
                false
            }
            None => true,
        })
        .collect();
    let rest = if kept.is_empty() { uri.path().to_owned() } else { format!("{}?{}", uri.path(), kept.join("&")) };
    (rest, tokens)
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim)
}

fn cookies<'a>(headers: &'a HeaderMap, name: &'a str) -> impl Iterator<Item = String> + 'a {
    let pairs = headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';'));
    pairs.filter_map(move |pair| pair.trim().strip_prefix(name)?.strip_prefix('=').map(str::to_owned))
}

/// Whether two tokens are equal, in a time that does not depend on where they differ.
fn same(given: &str, token: &str) -> bool {
    let (a, b) = (given.as_bytes(), token.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A new token: 128 bits from the operating system's random source, as hex.
pub fn new_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(format!("no random source for a token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The headers every answer carries: only this server's own scripts, styles and connections; no framing;
/// no guessing of content types; no address (which may hold the token) sent to other sites. The page's
/// window is kept from other sites' windows (`Cross-Origin-Opener-Policy`) only on a `local` address
/// ([`loopback`]): over plain HTTP at any other address the browser ignores that header and logs an error
/// on every page, so it is not sent there.
pub fn secure(headers: &mut HeaderMap, local: bool) {
    const POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
                          connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                          frame-ancestors 'none'";
    let set = [
        (header::CONTENT_SECURITY_POLICY, POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::HeaderName::from_static("cross-origin-resource-policy"), "same-origin"),
    ];
    for (name, value) in set {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if local {
        headers.insert(
            header::HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(addr: &str) -> Options {
        Options { bind: addr.parse().unwrap(), allowed_hosts: vec!["box.lan".into()], ..Options::default() }
    }

    #[test]
    fn only_this_machines_names_are_hosts() {
        let o = bound("127.0.0.1:8080");
        for ok in
            ["localhost:8080", "LOCALHOST", "app.localhost:1", "127.0.0.1:8080", "127.0.0.2", "[::1]:8080", "box.lan"]
        {
            assert!(allowed_host(&o, ok), "{ok}");
        }
        for bad in ["evil.example:8080", "evil.example", "localhost.evil.example", "192.168.1.9:8080", "[::2]:80", ""] {
            assert!(!allowed_host(&o, bad), "{bad}");
        }
        assert!(allowed_host(&bound("192.168.1.9:80"), "192.168.1.9"), "the address bound");
        assert!(allowed_host(&bound("0.0.0.0:80"), "10.0.0.7:80"), "any address when bound to all");
        assert!(!allowed_host(&bound("0.0.0.0:80"), "evil.example"), "never a name not allowed");
    }

    #[test]
    fn the_token_is_taken_off_the_url() {
        let uri: Uri = "/api/run?trials=5&token=abc&seed=1".parse().unwrap();
        assert_eq!(strip_token(&uri), ("/api/run?trials=5&seed=1".to_owned(), vec!["abc".to_owned()]));
        let uri: Uri = "/?token=abc".parse().unwrap();
        assert_eq!(strip_token(&uri), ("/".to_owned(), vec!["abc".to_owned()]));
        let uri: Uri = "/?token=wrong&token=abc".parse().unwrap();
        assert_eq!(strip_token(&uri), ("/".to_owned(), vec!["wrong".to_owned(), "abc".to_owned()]), "every one");
        assert!(same("abc", "abc") && !same("abd", "abc") && !same("ab", "abc"));
        assert_eq!(new_token().unwrap().len(), 32);
    }
}
