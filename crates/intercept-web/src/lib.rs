//! intercept-web: the workbench server, a local web application and JSON API over the rules core and its
//! outputs, every rule set reached through the registry's traits.
//!
//! [`Server::bind`] binds the address in [`Options`] and returns it with the future that serves; [`serve`]
//! runs that on its own runtime until Ctrl-C, for the command line, and [`Server::spawn`] on a thread of
//! its own, for tests. The routes are assembled in [`app`]:
//! the config endpoints ([`config`]), the Monte Carlo jobs ([`jobs`], [`run`]) with the sweep and sensitivity
//! jobs ([`study`]), inverse design ("find value for target", [`solve`]), the quick calculators and
//! rule-set catalog ([`catalog`]), the configs folder ([`scenarios`]), the start page ([`page`]), the
//! scenario editor ([`editor`]), and the calculator and game pages with the game API ([`tools`], [`play`], set-up by hand [`setup`]);
//! every error is a JSON [`error::ApiError`]. Every request passes [`guard`] first (its `Host`, its site, its
//! body's type and the token), and every exact solve a request asks for runs under [`solving::Solver`]'s
//! limits. [`reachable_at`] gives the addresses other machines can open an exposed server at.
//!
//! # Example
//!
//! A server on a free loopback port, asked for the registered rule sets; a request that names another host
//! (a DNS-rebinding page) is refused:
//!
//! ```
//! use std::io::{Read, Write};
//! use std::net::TcpStream;
//!
//! let options = intercept_web::Options { bind: "127.0.0.1:0".parse()?, ..Default::default() };
//! let addr = intercept_web::Server::spawn(options)?;
//! let get = |host: &str| -> std::io::Result<String> {
//!     let mut stream = TcpStream::connect(addr)?;
//!     write!(stream, "GET /api/rule-sets HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")?;
//!     let mut reply = String::new();
//!     stream.read_to_string(&mut reply)?;
//!     Ok(reply)
//! };
//! let listed = get(&addr.to_string())?;
//! assert!(listed.starts_with("HTTP/1.1 200") && listed.contains("\"rule_sets\""), "{listed}");
//! assert!(get("evil.example")?.starts_with("HTTP/1.1 4"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod addresses;
mod assets;
mod catalog;
mod config;
mod decide;
mod editor;
mod error;
mod exact_sweep;
mod guard;
mod jobs;
mod options;
mod page;
mod patch;
mod play;
mod run;
mod scenarios;
mod setup;
mod solve;
mod solving;
mod study;
mod tools;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

pub use self::addresses::reachable_at;
pub use self::guard::new_token;
pub use self::options::Options;

/// What every handler shares: the options, the jobs, the exact solves and the scenario cache.
pub(crate) struct Shared {
    pub options: Options,
    pub jobs: jobs::Jobs,
    pub exact: solving::Solver,
    pub scenarios: Arc<scenarios::Cache>,
}

pub(crate) type State = Arc<Shared>;

/// The workbench server.
pub struct Server;

impl Server {
    /// Binds `options.bind` (port 0 picks a free one) and returns the address bound and the future that
    /// serves until dropped; call it inside a tokio runtime.
    pub async fn bind(
        options: Options,
    ) -> std::io::Result<(SocketAddr, impl Future<Output = std::io::Result<()>> + Send + 'static)> {
        let (addr, serving, _) = Server::bind_shared(options).await?;
        Ok((addr, serving))
    }

    /// [`Server::bind`], keeping a hold of the shared state (to remove the job files once it stops).
    async fn bind_shared(
        mut options: Options,
    ) -> std::io::Result<(SocketAddr, impl Future<Output = std::io::Result<()>> + Send + 'static, State)> {
        let listener = tokio::net::TcpListener::bind(options.bind).await?;
        let addr = listener.local_addr()?;
        // The port asked may be 0: the guard's cookie and host checks want the one bound.
        options.bind = addr;
        let scenarios = scenarios::Cache::start(options.quick_leaves, options.quick_time);
        let (jobs, exact) = (jobs::Jobs::new(&options)?, solving::Solver::new(&options));
        let state = Arc::new(Shared { jobs, exact, scenarios, options });
        tokio::spawn(jobs::watch(Arc::clone(&state)));
        let served = Arc::clone(&state);
        Ok((addr, async move { axum::serve(listener, app(served)).await }, state))
    }
}

impl Server {
    /// Serves on a runtime of its own, on a thread of its own, for as long as the process lives: for tests
    /// and tools that start a server beside their own work. Returns the address it listens on.
    pub fn spawn(options: Options) -> std::io::Result<SocketAddr> {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
        let (addr, serving) = runtime.block_on(Server::bind(options))?;
        std::thread::spawn(move || runtime.block_on(serving));
        Ok(addr)
    }
}

/// Serves on a runtime of its own until Ctrl-C or SIGTERM, calling `bound` with the address once it
/// listens; then removes every job's files.
pub fn serve(options: Options, bound: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let served = runtime.block_on(async {
        let (addr, serving, state) = Server::bind_shared(options).await?;
        bound(addr);
        let served = tokio::select! {
            served = serving => served,
            _ = stopped() => Ok(()),
        };
        state.jobs.remove_files();
        served
    });
    // A request still solving stops at its next leaf; the process need not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    served
}

/// Ctrl-C, or (on Unix) the SIGTERM a service manager or `kill` sends.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = tokio::signal::ctrl_c() => {},
                _ = term.recv() => {},
            },
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Every route, with the body limit, the JSON 404 and 405, and the guard in front of them all.
fn app(state: State) -> Router {
    let limit = state.options.max_body;
    Router::new()
        .route("/", get(page::start))
        .route("/api/status", get(status))
        .route("/assets/{name}", get(assets::asset))
        .route("/edit", get(editor::page))
        .route("/api/picture", post(editor::picture))
        .route("/api/parse", post(editor::parse))
        .route("/api/set", post(editor::set))
        .route("/api/validate", post(config::validate))
        .route("/api/exact", post(config::exact))
        .route("/api/run", post(run::start))
        .route("/api/run/{id}", get(run::status).delete(run::cancel))
        .route("/api/run/{id}/cancel", post(run::cancel))
        .route("/api/run/{id}/files/{name}", get(run::file))
        .route("/api/sweep", post(study::start_sweep))
        .route("/api/sweep/values", post(study::values))
        .route("/api/sweep/exact", post(exact_sweep::sweep))
        .route("/api/sensitivity", post(study::start_sensitivity))
        .route("/api/where", post(decide::answer))
        .route("/api/solve", post(solve::solve))
        .route("/api/solve/keys", post(solve::keys))
        .route("/api/odds", get(catalog::calculators))
        .route("/api/odds/{rule_set}", get(catalog::odds))
        .route("/api/rule-sets", get(catalog::rule_sets))
        .route("/api/schema/{rule_set}", get(catalog::schema))
        .route("/api/starter/{rule_set}", get(catalog::starter))
        .route("/api/scenarios", get(scenarios::list))
        .route("/api/scenarios/{*path}", get(scenarios::read).put(scenarios::save))
        .merge(tools::routes())
        .fallback(error::not_found)
        .method_not_allowed_fallback(error::method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&state), guard::guard))
        .with_state(state)
}

/// `GET /api/status`: what the server is doing (exact solves and jobs) and whether it asks for a token.
async fn status(axum::extract::State(s): axum::extract::State<State>) -> axum::Json<serde_json::Value> {
    let (running, queued) = s.jobs.counts();
    axum::Json(serde_json::json!({
        "exact": { "running": s.exact.running(), "most": s.exact.most() },
        "jobs": { "running": running, "queued": queued },
        "token": s.options.token.is_some(),
    }))
}
