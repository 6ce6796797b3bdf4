//! `trials.parquet`: every trial's outcome, streamed as the trials finish.
//!
//! [`TrialsWriter`] gathers the rows of consecutive trials, which the engine hands over a slice at a time in
//! trial order, into one buffer column per metric, each held at its width in the file (a byte for a yes/no
//! metric, four for a count), and writes a row group once it holds [`ROW_GROUP_BYTES`] of values. The
//! buffers move into the row group without a copy and are made again, the same size, after it is written,
//! so the writer's memory is the same whatever the trial count. What does grow is the Parquet footer's list
//! of row groups, which the file format keeps until the end: about 2.6 kB per column per group, which
//! groups this large keep to a few megabytes for a hundred million trials. A group's size depends only on
//! the metrics, never on the chunk size or the threads, so the bytes are the same however the run went.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::io::parquet::write::BatchedWriter;
use polars::prelude::*;

use super::{ExportError, create, parquet_err, parquet_writer};
use intercept_core::engine::TrialRows;
use intercept_core::metrics::{MetricKind, Metrics};

/// The bytes of trial values (before compression) in one row group of `trials.parquet`.
pub const ROW_GROUP_BYTES: u64 = 64 << 20;

/// The bytes one trial's row takes before compression: 8 for the trial number, 1 for each yes/no metric
/// (a byte, though Parquet packs them as bits), 4 for each count.
pub fn row_bytes(metrics: &Metrics) -> u64 {
    8 + metrics.defs().iter().map(|d| if d.kind == MetricKind::Probability { 1 } else { 4 }).sum::<u64>()
}

/// One metric's values for the row group being gathered.
enum Buffer {
    Flags(Vec<bool>),
    Counts(Vec<u32>),
}

impl Buffer {
    fn new(flag: bool, rows: usize) -> Buffer {
        if flag { Buffer::Flags(Vec::with_capacity(rows)) } else { Buffer::Counts(Vec::with_capacity(rows)) }
    }

    fn extend(&mut self, values: &[u32]) {
        match self {
            Buffer::Flags(v) => v.extend(values.iter().map(|&x| x == 1)),
            Buffer::Counts(v) => v.extend_from_slice(values),
        }
    }

    /// The values as a column, leaving the buffer empty (and without capacity: it is made again later).
    fn take(&mut self, name: &str) -> Column {
        match self {
            Buffer::Flags(v) => Column::new(name.into(), std::mem::take(v)),
            Buffer::Counts(v) => Column::new(name.into(), std::mem::take(v)),
        }
    }
}

/// Streams `trials.parquet` a row group at a time (see the module's note).
pub struct TrialsWriter {
    path: PathBuf,
    writer: BatchedWriter<File>,
    names: Vec<String>,
    flags: Vec<bool>,
    /// The first trial of the group being gathered, its rows so far, and the rows of a whole group.
    first_trial: u64,
    rows: usize,
    buffers: Vec<Buffer>,
    group_rows: usize,
}

impl TrialsWriter {
    /// Starts `dir/trials.parquet` with a `trial` column and one column per metric of `metrics`.
    pub fn create(dir: &Path, metrics: &Metrics) -> Result<TrialsWriter, ExportError> {
        let path = dir.join("trials.parquet");
        let names: Vec<String> = metrics.defs().iter().map(|d| d.name.clone()).collect();
        let flags: Vec<bool> = metrics.defs().iter().map(|d| d.kind == MetricKind::Probability).collect();
        let mut schema = Schema::default();
        schema.with_column("trial".into(), DataType::UInt64);
        for (name, flag) in names.iter().zip(&flags) {
            schema.with_column(name.as_str().into(), if *flag { DataType::Boolean } else { DataType::UInt32 });
        }
        let writer = parquet_writer(create(&path)?).batched(&schema).map_err(|e| parquet_err(&path, e))?;
        let group_rows = (ROW_GROUP_BYTES / row_bytes(metrics)).max(1) as usize;
        let buffers = flags.iter().map(|&f| Buffer::new(f, group_rows)).collect();
        Ok(TrialsWriter { path, writer, names, flags, first_trial: 0, rows: 0, buffers, group_rows })
    }

    /// Appends the rows of the trials that follow those already written, writing each group once it is full.
    pub fn write(&mut self, rows: &TrialRows) -> Result<(), ExportError> {
        let n = rows.columns.first().map_or(0, Vec::len);
        let mut from = 0;
        while from < n {
            if self.rows == 0 {
                self.first_trial = rows.first_trial + from as u64;
            }
            let take = (self.group_rows - self.rows).min(n - from);
            for (buffer, values) in self.buffers.iter_mut().zip(&rows.columns) {
                buffer.extend(&values[from..from + take]);
            }
            (self.rows, from) = (self.rows + take, from + take);
            if self.rows == self.group_rows {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Writes the gathered rows as one row group and makes the buffers again.
    fn flush(&mut self) -> Result<(), ExportError> {
        if self.rows == 0 {
            return Ok(());
        }
        let trials: Vec<u64> = (self.first_trial..self.first_trial + self.rows as u64).collect();
        let mut columns = vec![Column::new("trial".into(), trials)];
        columns.extend(self.buffers.iter_mut().zip(&self.names).map(|(b, name)| b.take(name)));
        let df = DataFrame::new_infer_height(columns).map_err(|e| parquet_err(&self.path, e))?;
        self.writer.write_batch(&df).map_err(|e| parquet_err(&self.path, e))?;
        drop(df);
        self.rows = 0;
        self.buffers = self.flags.iter().map(|&f| Buffer::new(f, self.group_rows)).collect();
        Ok(())
    }

    /// Writes the last row group and closes the file.
    pub fn finish(mut self) -> Result<PathBuf, ExportError> {
        self.flush()?;
        self.writer.finish().map_err(|e| parquet_err(&self.path, e))?;
        Ok(self.path)
    }
}
