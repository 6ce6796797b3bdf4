//! The types every Parquet file is written with, as the Arrow schema in its footer declares them (what
//! pyarrow and other readers go by): text as plain strings, never the string_view type older readers lack,
//! and a sweep's swept values typed like their keys, so an integer key sorts -2, -1, 0.

use std::fs::File;
use std::path::Path;

use assert_cmd::Command;
use polars::prelude::*;
use polars_arrow::datatypes::ArrowDataType;

const CHAIN: &str = "configs/naval/three-level-chain.toml";
const PIKES: &str = "configs/cavalry/charge-on-pikes.toml";
const GREEDY: &str = "configs/board/greedy-vs-random.toml";

fn sim() -> Command {
    Command::cargo_bin("intercept-sim").expect("binary built")
}

/// Each column's name and Arrow type, from the `ARROW:schema` the file's footer holds.
fn arrow_types(path: &Path) -> Vec<(String, ArrowDataType)> {
    let meta = polars_parquet::read::read_metadata(&mut File::open(path).unwrap()).unwrap();
    let pairs = meta.key_value_metadata().as_ref().expect("key-value metadata");
    let encoded = pairs.iter().find(|kv| kv.key == "ARROW:schema").and_then(|kv| kv.value.clone()).expect("a schema");
    let bytes = base64(&encoded);
    // An IPC message may open with a continuation marker and a length.
    let message = if bytes[..4] == [255; 4] { &bytes[8..] } else { &bytes[..] };
    let (schema, _, _) = polars_arrow::io::ipc::read::deserialize_schema(message).unwrap();
    schema.iter_values().map(|f| (f.name.to_string(), f.dtype.clone())).collect()
}

/// Standard base64, padded.
fn base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sextets: Vec<u32> =
        text.bytes().filter(|&b| b != b'=').map(|b| ALPHABET.iter().position(|&a| a == b).unwrap() as u32).collect();
    let mut out = Vec::new();
    for group in sextets.chunks(4) {
        let n = group.iter().enumerate().fold(0u32, |n, (i, &s)| n | s << (18 - 6 * i));
        out.extend(n.to_be_bytes()[1..group.len()].iter());
    }
    out
}

/// Refuses any column of `path` written as a view type.
fn no_views(path: &Path) {
    for (name, dtype) in arrow_types(path) {
        let view = matches!(dtype, ArrowDataType::Utf8View | ArrowDataType::BinaryView);
        assert!(!view, "{}: column {name} is written as {dtype:?}", path.display());
    }
}

/// The Arrow type of `column` in `path`.
fn arrow_type(path: &Path, column: &str) -> ArrowDataType {
    arrow_types(path).into_iter().find(|(n, _)| n == column).expect("the column").1
}

/// Sweeps `config` over `set` into a fresh folder and returns its `sweep.parquet`'s path.
fn swept(tmp: &Path, name: &str, config: &str, set: &str, trials: &str) -> std::path::PathBuf {
    let out = tmp.join(name);
    sim().args(["sweep", config, "--set", set, "--trials", trials, "--out"]).arg(&out).assert().success();
    out.join("sweep.parquet")
}

#[test]
fn swept_values_are_typed_like_their_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        ("int", CHAIN, "naval.rules.slow_ships=0,-2,-1", "2000", ArrowDataType::Int64, DataType::Int64),
        ("float", CHAIN, "naval.combat.p_end_after_round=0.5,0.25", "2000", ArrowDataType::Float64, DataType::Float64),
        (
            "bool",
            GREEDY,
            "board.variant.steal_requires_moved_piece=false,true",
            "8",
            ArrowDataType::Boolean,
            DataType::Boolean,
        ),
        (
            "text",
            PIKES,
            "cavalry.interceptor.lifeguard.order=charge,rally",
            "2000",
            ArrowDataType::LargeUtf8,
            DataType::String,
        ),
    ];
    for (name, config, set, trials, arrow, polars) in cases {
        let path = swept(tmp.path(), name, config, set, trials);
        let key = set.split_once('=').unwrap().0;
        assert_eq!(arrow_type(&path, key), arrow, "{name}");
        no_views(&path);
        let df = ParquetReader::new(File::open(&path).unwrap()).finish().unwrap();
        assert_eq!(df.column(key).unwrap().dtype(), &polars, "{name}");
    }
    // Sorted as numbers, not as text ("-1" < "-2" < "0").
    let df = ParquetReader::new(File::open(tmp.path().join("int/sweep.parquet")).unwrap()).finish().unwrap();
    let sorted =
        df.column("naval.rules.slow_ships").unwrap().as_materialized_series().sort(Default::default()).unwrap();
    let mut values: Vec<i64> = sorted.i64().unwrap().into_no_null_iter().collect();
    values.dedup();
    assert_eq!(values, [-2, -1, 0]);
}

/// A run's files and a sensitivity run's: no column is a view type, and the stepped values are numbers.
#[test]
fn no_file_writes_a_string_view() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    sim().args(["run", CHAIN, "--trials", "2000", "--out"]).arg(&run).assert().success();
    let sens = tmp.path().join("sens");
    let args = ["sensitivity", PIKES, "--only", "cavalry.table", "--trials", "2000", "--out"];
    sim().args(args).arg(&sens).assert().success();
    let mut parquet = 0;
    for dir in [&run, &sens] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "parquet") {
                no_views(&path);
                parquet += 1;
            }
        }
    }
    assert!(parquet >= 3, "summary, distributions and sensitivity at least");
    assert_eq!(arrow_type(&run.join("summary.parquet"), "metric"), ArrowDataType::LargeUtf8);
    let sensitivity = sens.join("sensitivity.parquet");
    assert_eq!(arrow_type(&sensitivity, "value"), ArrowDataType::Int64, "a d10 table entry is a whole number");
    assert_eq!(arrow_type(&sensitivity, "stepped"), ArrowDataType::Int64);
}
