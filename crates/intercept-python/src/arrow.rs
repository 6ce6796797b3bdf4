//! Result tables to Python through the Arrow C stream interface (the `__arrow_c_stream__` protocol): a
//! data frame's columns handed over as they are, so polars, pyarrow and pandas take them without a copy and
//! without the wheel depending on any one of them.

use polars::prelude::{CompatLevel, DataFrame, SchemaExt};
use polars_arrow::array::{Array, PrimitiveArray, StructArray};
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

/// Where each fixed-width column of `frame` keeps its values (its one chunk's value buffer), by name: a
/// consumer that reads the stream in place shows the same addresses.
pub fn addresses(frame: &DataFrame) -> Vec<(String, usize)> {
    fn values<T: polars_arrow::types::NativeType>(array: &dyn Array) -> Option<usize> {
        let array = array.as_any().downcast_ref::<PrimitiveArray<T>>()?;
        Some(array.values().as_ptr() as usize)
    }
    let mut found = Vec::new();
    for column in frame.columns() {
        let series = column.as_materialized_series();
        let [chunk] = series.chunks().as_slice() else { continue };
        let chunk = chunk.as_ref();
        let address = values::<f64>(chunk)
            .or_else(|| values::<u64>(chunk))
            .or_else(|| values::<i64>(chunk))
            .or_else(|| values::<u32>(chunk))
            .or_else(|| values::<i32>(chunk));
        found.extend(address.map(|a| (column.name().to_string(), a)));
    }
    found
}
