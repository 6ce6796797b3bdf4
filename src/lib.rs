//! intercept-sim: the odds of wargame interception rules, by seeded Monte Carlo and by exact enumeration.
//!
//! A config ([`config`]) resolves into a [`config::Scenario`] holding one rule set ([`models`]). Rules meet
//! chance only through [`chance::Chance`], so the same trial code runs under the seeded, chunked, parallel
//! [`engine`] and under the exact enumerator ([`exact`]). Counts become estimates with intervals ([`stats`],
//! [`summary`]), written as Parquet and JSON ([`export`]), charts ([`plot`]) and a self-contained HTML page
//! ([`report`]) into an output [`folder`] that takes a whole run or none. [`runner`] strings these together for
//! the command line.

pub mod chance;
pub mod config;
pub mod engine;
pub mod exact;
pub mod export;
pub mod folder;
pub mod memo;
pub mod metrics;
pub mod models;
pub mod odds;
pub mod outputs;
pub mod partial;
pub mod plot;
pub mod present;
pub mod record;
pub mod report;
pub mod ruleset;
pub mod runner;
pub mod sensitivity;
pub mod stats;
pub mod summary;
pub mod sweep;
pub mod text;
