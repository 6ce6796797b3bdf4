//! intercept-sim: the command line over the rules core ([`intercept_core`]) and its outputs
//! ([`intercept_output`]).
//!
//! Both crates' modules are re-exported here, so tests, benchmarks and the binary read one library: a
//! [`config::Scenario`] runs through [`runner`] into a [`export::RunRecord`], which [`outputs`] writes as
//! Parquet, charts and a report into an output [`folder`]; [`show`] prints it.

pub use intercept_output::*;
