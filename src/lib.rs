//! intercept-sim: the command line over the rules core ([`intercept_core`]) and its outputs
//! ([`intercept_output`]), with the workbench server ([`intercept_web`]).
//!
//! Each crate is re-exported under its own name, never flattened, so a path says which crate it is in
//! ([`core`], [`output`], [`web`]): a [`core::config::Scenario`] runs through [`core::runner`] into a
//! [`output::export::RunRecord`], which [`output::outputs`] writes as Parquet, charts and a report into an
//! output [`output::folder`]; [`output::show`] prints it. [`app::main`] is the command line itself, what the
//! binary and the Python package's console script run.
//!
//! # Example
//!
//! Each rule set's own commands are [`core::ruleset::Tool`]s reached through the registry, the command line and
//! the workbench alike; here every one that needs no config and no value is asked with its defaults:
//!
//! ```
//! use intercept_sim::core::games::shipped;
//! use intercept_sim::core::ruleset::answer_query;
//!
//! let registry = shipped();
//! let tools = registry.sets().iter().flat_map(|set| set.tools().iter().copied());
//! let ready = tools.filter(|t| t.config().is_none() && t.params().iter().all(|p| !p.required));
//! let mut asked = 0;
//! for tool in ready {
//!     let answer = answer_query(tool, &[])?;
//!     assert!(answer.is_object(), "{}: {answer}", tool.mount().name());
//!     asked += 1;
//! }
//! assert!(asked >= 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod app;
mod cli;
mod failure;
mod format;
mod generate;
mod interrupt;
mod progress;
mod tools;

/// The rules core: rule sets, configs, the sampler and the exact solver.
pub use intercept_core as core;
/// What a run leaves behind and what is shown of it: Parquet, charts, reports, text and JSON.
pub use intercept_output as output;
/// The workbench server.
pub use intercept_web as web;
