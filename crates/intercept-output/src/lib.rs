//! intercept-output: what a run leaves behind and what the command line and the workbench show of it.
//!
//! Over the rules core ([`intercept_core`], always named as such): a [`intercept_core::config::Scenario`]
//! runs through [`intercept_core::runner`] into a [`export::RunRecord`], which [`outputs`] writes as Parquet
//! ([`export`]), charts ([`plot`]) and a self-contained HTML page ([`report`]) into an output [`folder`] that
//! takes a whole run or none; [`show`] renders the same results as views ([`intercept_core::view::View`]):
//! terminal tables, CSV and the `--json` documents that the command line prints and the workbench serves.
//! The shared layers here render what a rule set gives as data ([`intercept_core::present`]) and name no rule
//! set.
//!
//! # Example
//!
//! A registered rule set's starter config run under a seed and written as a run folder: the summary and
//! distributions as Parquet, the charts, `report.html` and the manifest that names every file's digest:
//!
//! ```
//! use std::path::Path;
//!
//! use intercept_core::config::{self, Overrides};
//! use intercept_core::games::shipped;
//! use intercept_output::outputs;
//! use intercept_core::runner::SampleOptions;
//!
//! let registry = shipped();
//! let starter = registry.sets()[0].starter().expect("a starter config");
//! let run = Overrides { trials: Some(10_000), seed: Some(1) };
//! let scenario = config::from_str(&registry, starter, Path::new("starter.toml"), run)?;
//! let record = outputs::sample(&scenario, &SampleOptions::default(), None, &|_trials| {})?;
//! let folder = tempfile::tempdir()?;
//! let written = outputs::export(&record, folder.path())?;
//! for file in ["summary.parquet", "report.html", "manifest.json"] {
//!     assert!(written.iter().any(|w| w.ends_with(file)), "{file} in {written:?}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use intercept_core::refusal;

pub mod export;
pub mod folder;
pub mod outputs;
pub mod plot;
pub mod report;
pub mod show;
pub mod study;
