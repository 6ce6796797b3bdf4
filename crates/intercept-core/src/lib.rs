//! intercept-core: the odds of wargame interception rules, by seeded Monte Carlo and by exact enumeration.
//!
//! Each rule set is one folder of [`games`], behind the one interface of [`ruleset`]: its config table, its
//! model (a trial written once against [`chance::Chance`]), and how a run of it is shown, as data
//! ([`present`]). A config ([`config`]) resolves, through the [`ruleset::Registry`], into a
//! [`config::Scenario`]; the same trial runs under the seeded, chunked, parallel [`engine`] and under the
//! exact enumerator ([`exact`]). Counts become estimates with intervals ([`stats`], [`summary`]) and a
//! [`record::RunRecord`] ([`runner`]), which a partial run resumes from and shards merge into ([`partial`]).
//! [`sweep`] and [`sensitivity`] run a scenario over config values; [`odds`] answers one question exactly.
//!
//! Nothing here writes Parquet, draws charts or parses a command line: the `intercept-sim` crate does, over
//! this one.
//!
//! # Example
//!
//! A registered rule set's starter config, resolved, solved exactly and sampled under a seed; every
//! estimate carries its 95% interval, which holds the exact value:
//!
//! ```
//! use std::path::Path;
//!
//! use intercept_core::config::{self, Overrides};
//! use intercept_core::games::shipped;
//! use intercept_core::runner::{self, SampleOptions};
//!
//! let registry = shipped();
//! let starter = registry.sets()[0].starter().expect("a starter config");
//! let run = Overrides { trials: Some(20_000), seed: Some(7) };
//! let scenario = config::from_str(&registry, starter, Path::new("starter.toml"), run)?;
//! let record = runner::sample(&scenario, &SampleOptions::default(), &|_trials| {});
//! let headline = &scenario.rules.headline()[0];
//! let row = record.summary.metric(headline).expect("the headline metric is reported");
//! let exact = row.exact.expect("a starter scenario is solved exactly");
//! assert!(row.ci_low <= exact && exact <= row.ci_high, "{headline}: {row:?}");
//! let solved = runner::solve(&scenario)?;
//! assert!(solved.probs.iter().all(|p| (0.0..=1.0).contains(p)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod chance;
pub mod config;
pub mod cost;
pub mod cumulative;
pub mod decide;
pub mod engine;
pub mod exact;
pub mod fraction;
pub mod games;
pub mod hexmap;
pub mod memo;
pub mod metrics;
pub mod model;
pub mod odds;
pub mod partial;
pub mod plausible;
pub mod present;
pub mod record;
pub mod ruleset;
pub mod runner;
pub mod seal;
pub mod sensitivity;
pub mod solve;
pub mod stats;
pub mod summary;
pub mod sweep;
pub mod text;
pub mod view;
