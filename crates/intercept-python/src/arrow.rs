//! Result tables to Python through the Arrow C stream interface (the `__arrow_c_stream__` protocol): a
//! data frame's columns handed over as they are, so polars, pyarrow and pandas take them without a copy and
//! without the wheel depending on any one of them.

use polars::prelude::{CompatLevel, DataFrame, SchemaExt};
use polars_arrow::array::{Array, StructArray};
use polars_arrow::datatypes::{ArrowDataType, Field};
use polars_arrow::ffi::{ArrowArrayStream, export_iterator};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// `frame` as an `arrow_array_stream` capsule: one struct array per record batch, its columns the frame's.
pub fn stream_capsule(py: Python<'_>, mut frame: DataFrame) -> PyResult<Bound<'_, PyCapsule>> {
    frame.rechunk_mut();
    let level = CompatLevel::newest();
    let fields: Vec<Field> = frame.schema().to_arrow(level).iter_values().cloned().collect();
    let dtype = ArrowDataType::Struct(fields);
    let batches: Vec<_> = frame.iter_chunks(level, false).collect();
    let of = dtype.clone();
    let arrays = batches.into_iter().map(move |batch| {
        let height = batch.height();
        Ok(Box::new(StructArray::new(of.clone(), height, batch.into_arrays(), None)) as Box<dyn Array>)
    });
    let stream = export_iterator(Box::new(arrays), Field::new("".into(), dtype, false));
    // The capsule holds the C struct itself. A consumer takes it by copying it out and nulling its
    // `release`; dropping what is left (the capsule's destructor) releases a stream no one took.
    PyCapsule::new_with_value_and_destructor(py, stream, c"arrow_array_stream", |stream: ArrowArrayStream, _| {
        drop(stream)
    })
}
