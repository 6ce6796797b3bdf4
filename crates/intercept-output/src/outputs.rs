//! A run's output files: every [`Output`] in the order they are written, and sampling that streams
//! `trials.parquet` while it runs.
//!
//! [`outputs`] lists the files every run writes, one small type per format: the Parquet tables, the charts,
//! the rule set's own tables and pictures, the report and, last, the manifest. [`sample`] is
//! [`runner::sample`] with the per-trial Parquet writer as the row sink when asked.

use std::path::{Path, PathBuf};

use crate::export::{
    DistributionsParquet, ExportError, ExtraTables, Manifest, Output, RunRecord, SummaryParquet, TrialsWriter,
};
use crate::plot::{Charts, Pictures};
use crate::report::RunReport;
use intercept_core::config::Scenario;
use intercept_core::engine::TrialRows;
use intercept_core::ruleset::SinkError;
use intercept_core::runner::{self, SampleOptions};

/// Runs the scenario like [`runner::sample`], writing `trials.parquet` into `per_trial` while it runs.
pub fn sample(
    scenario: &Scenario,
    opts: &SampleOptions,
    per_trial: Option<&Path>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<RunRecord, ExportError> {
    let Some(dir) = per_trial else { return Ok(runner::sample(scenario, opts, progress)) };
    let mut writer = TrialsWriter::create(dir, scenario.rules.metrics())?;
    let mut sink = |rows: &TrialRows| writer.write(rows).map_err(|e| Box::new(e) as SinkError);
    let record = runner::sample_rows(scenario, opts, progress, &mut sink).map_err(|e| match e.downcast() {
        Ok(e) => *e,
        Err(e) => unreachable!("the trials writer is the only sink: {e}"),
    })?;
    writer.finish()?;
    Ok(record)
}

/// Every output file of a run, in the order they are written.
pub fn outputs() -> Vec<Box<dyn Output>> {
    vec![
        Box::new(SummaryParquet),
        Box::new(DistributionsParquet),
        Box::new(ExtraTables),
        Box::new(Charts),
        Box::new(Pictures),
        Box::new(RunReport),
        Box::new(Manifest),
    ]
}

/// Writes every output of `record` into `dir` (which must exist); returns the paths written.
pub fn export(record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
    let mut written = Vec::new();
    for output in outputs() {
        written.extend(output.write(record, dir)?);
    }
    Ok(written)
}
