//! intercept-output: what a run leaves behind and what the command line and the workbench show of it.
//!
//! The core's modules are re-exported here, so this crate reads as one library: a [`config::Scenario`] runs
//! through [`runner`] into a [`export::RunRecord`], which [`outputs`] writes as Parquet ([`export`]), charts
//! ([`plot`]) and a self-contained HTML page ([`report`]) into an output [`folder`] that takes a whole run or
//! none; [`show`] renders the same results as terminal tables, CSV and the `--json` documents that the
//! command line prints and the workbench serves. The shared layers here render what a rule set gives as data
//! ([`present`]) and name no rule set.

pub use intercept_core::{
    chance, config, cost, cumulative, engine, exact, fraction, games, memo, metrics, model, odds, partial, plausible,
    present, record, ruleset, runner, seal, sensitivity, stats, summary, sweep, text,
};

pub mod export;
pub mod folder;
pub mod outputs;
pub mod plot;
pub mod report;
pub mod show;
pub mod study;
