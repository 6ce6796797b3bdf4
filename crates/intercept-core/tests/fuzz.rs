//! Fuzzing the two readers of untrusted text, the config parser and the manifest reader (`merge`,
//! `run --resume`), and the arithmetic behind them: every decimal key set to decimals of 1 to 18 places and
//! to exponents, then solved exactly and sampled. Every input must give a scenario or one short line, never a
//! panic; a manifest that is accepted must hold counts that make sense. Runs 256 cases per target in the
//! suite, in the dev profile so that every overflow panics; for a longer run (100,000 cases of the decimal
//! target took 29 minutes in the dev profile, on one core):
//!
//! ```sh
//! PROPTEST_CASES=100000 cargo test -p intercept-core --test fuzz
//! ```

mod common;

use std::path::Path;
use std::sync::OnceLock;

use intercept_core::config::set::{self, Number, Setting};
use intercept_core::config::{self, Overrides, Scenario};
use intercept_core::games::shipped;
use intercept_core::partial::Stored;
use intercept_core::record::RunRecord;
use intercept_core::runner::{self, SampleOptions};
use proptest::prelude::*;
use serde_json::Value;

use common::shipped_configs;

/// Every shipped config's text.
fn shipped_texts() -> &'static Vec<String> {
    static CONFIGS: OnceLock<Vec<String>> = OnceLock::new();
    CONFIGS.get_or_init(|| shipped_configs().iter().map(|p| std::fs::read_to_string(p).unwrap()).collect())
}

/// Asserts `message` is one line of a readable length.
fn one_short_line(message: &str) {
    assert!(!message.contains('\n'), "one line: {message}");
    assert!(message.chars().count() < 1200, "{} characters: {message}", message.len());
}

/// A config mutated the ways a typo, a paste or a hostile edit would: a number replaced, a line dropped or
/// repeated, a key and value inserted, bytes overwritten.
fn mutated_config() -> impl Strategy<Value = String> {
    let numbers = prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| format!("{x:?}")),
        Just("99999999999999999999999".to_owned()),
        Just("-0".to_owned()),
        Just("nan".to_owned()),
        Just("\"text\"".to_owned()),
        Just("[]".to_owned()),
        Just("{ a = 1 }".to_owned()),
    ];
    let insert = "[a-z_\\.]{1,20} = [0-9a-z\"\\[\\]\\.\\-]{0,12}";
    (0..shipped_texts().len(), any::<prop::sample::Index>(), 0..4u8, numbers, insert, "\\PC{0,8}").prop_map(
        |(config, at, how, number, line, bytes)| {
            let src = &shipped_texts()[config];
            let lines: Vec<&str> = src.lines().collect();
            let i = at.index(lines.len());
            let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
            match how {
                0 => out[i] = replace_value(lines[i], &number),
                1 => drop(out.remove(i)),
                2 => out.insert(i, line),
                _ => {
                    let cut = lines[i].char_indices().map(|(b, _)| b).nth(at.index(lines[i].chars().count() + 1));
                    out[i] = format!("{}{bytes}", &lines[i][..cut.unwrap_or(lines[i].len())]);
                }
            }
            out.join("\n")
        },
    )
}

/// The line with the value after its `=` replaced by `value`.
fn replace_value(line: &str, value: &str) -> String {
    match line.split_once('=') {
        Some((key, _)) => format!("{key}= {value}"),
        None => line.to_owned(),
    }
}

proptest! {
    #[test]
    fn any_mutated_config_resolves_or_is_one_line(src in mutated_config()) {
        if let Err(e) = config::from_str(&shipped(), &src, Path::new("fuzz.toml"), Overrides::default()) {
            let message = e.to_string();
            prop_assert!(message.starts_with("fuzz.toml"), "{}", message);
            one_short_line(&message);
        }
    }

    #[test]
    fn any_text_resolves_or_is_one_line(src in "\\PC{0,400}") {
        if let Err(e) = config::from_str(&shipped(), &src, Path::new("fuzz.toml"), Overrides::default()) {
            one_short_line(&e.to_string());
        }
    }
}

/// The shipped scenarios with their decimal keys (every probability, chance and ratio a config holds, defaults
/// included), made to run 64 trials: together they hold every decimal key of every rule set.
fn decimal_keys() -> &'static Vec<(Scenario, Vec<String>)> {
    static KEYS: OnceLock<Vec<(Scenario, Vec<String>)>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let overrides = Overrides { trials: Some(64), seed: Some(1) };
        let scenarios = shipped_configs().into_iter().map(|p| config::load(&shipped(), &p, overrides).unwrap());
        let keyed = scenarios.map(|s| {
            let keys = set::numeric_keys(&s).into_iter().filter(|k| matches!(k.value, Number::Float(_)));
            let keys: Vec<String> = keys.map(|k| k.key).collect();
            (s, keys)
        });
        keyed.filter(|(_, keys)| !keys.is_empty()).collect()
    })
}

/// The most leaves a fuzzed scenario's tree is solved with: larger trees are refused (quickly) and sampled.
const SMALL_TREE: u64 = 20_000;

/// A decimal as a config may write it: 1 to 18 places, or a mantissa and an exponent, mostly within 0..1.
fn long_decimal() -> impl Strategy<Value = String> {
    prop_oneof![
        (1usize..=18, any::<u64>())
            .prop_map(|(places, digits)| format!("0.{:0>places$}", digits % 10u64.pow(places as u32))),
        ("[1-9]", "[0-9]{0,17}", 1u32..=40).prop_map(|(lead, rest, e)| match rest.is_empty() {
            true => format!("{lead}e-{e}"),
            false => format!("{lead}.{rest}e-{e}"),
        }),
        (0u32..=3, 1usize..=18).prop_map(|(whole, places)| format!("{whole}.{}", "9".repeat(places))),
        Just("0.30000000000000004".to_owned()),
        Just("1.0".to_owned()),
        Just("0.0".to_owned()),
    ]
}

proptest! {
    #[test]
    fn any_decimal_in_any_decimal_key_is_solved_or_refused_in_one_line(
        which in any::<prop::sample::Index>(), key in any::<prop::sample::Index>(), value in long_decimal()
    ) {
        let (base, keys) = &decimal_keys()[which.index(decimal_keys().len())];
        let setting = Setting { key: keys[key.index(keys.len())].clone(), value };
        match set::apply(base, &[setting]) {
            Ok(scenario) => {
                // Solved exactly when the tree stays small, and sampled: neither may overflow.
                let _ = scenario.rules.solve(SMALL_TREE);
                let record = runner::sample(&scenario, &SampleOptions { threads: Some(1), ..SampleOptions::default() }, &|_| {});
                prop_assert_eq!(record.trials, 64);
            }
            Err(e) => one_short_line(&e.to_string()),
        }
    }
}

/// The manifests of a whole run and of one shard of it, as a run writes them.
fn manifests() -> &'static Vec<String> {
    static MANIFESTS: OnceLock<Vec<String>> = OnceLock::new();
    MANIFESTS.get_or_init(|| {
        let overrides = Overrides { trials: Some(5000), seed: Some(3) };
        let mut texts = Vec::new();
        for config in [
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/cavalry/charge-on-pikes.toml"),
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/naval/three-level-chain.toml"),
        ] {
            let mut scenario = config::load(&shipped(), Path::new(config), overrides).unwrap();
            scenario.run.chunk_size = 1000;
            scenario.config.run.chunk_size = 1000;
            for wanted in [None, Some(1..3)] {
                let opts = SampleOptions { wanted, threads: Some(1), ..SampleOptions::default() };
                let record = runner::sample(&scenario, &opts, &|_| {});
                texts.push(intercept_core::seal::text(&record));
            }
        }
        texts
    })
}

/// A number a hostile or careless edit might put anywhere.
fn edited_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<u64>().prop_map(Value::from),
        Just(Value::from(u64::MAX)),
        Just(Value::from(0)),
        (0u64..100_000).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        Just(Value::from(1_000_000_000u64)),
        Just(Value::Null),
    ]
}

/// A manifest with one field edited and its digest made to match again: what only the checks of the counts
/// against the config can catch.
fn resealed_manifest() -> impl Strategy<Value = String> {
    let fields = prop_oneof![
        Just("counts"),
        Just("trials"),
        Just("seed"),
        Just("chunk_size"),
        Just("partial"),
        Just("chunks.from"),
        Just("chunks.to"),
        Just("wanted.from"),
        Just("wanted.to"),
        Just("shorter"),
        Just("longer"),
    ];
    (0..manifests().len(), fields, any::<prop::sample::Index>(), edited_number()).prop_map(|(m, field, at, number)| {
        let mut doc: Value = serde_json::from_str(&manifests()[m]).unwrap();
        let counts = doc["counts"].as_array_mut().unwrap();
        let i = at.index(counts.len());
        match field {
            "counts" => counts[i] = number,
            "shorter" => drop(counts.remove(i)),
            "longer" => counts.insert(i, number),
            "partial" => doc["partial"] = Value::Bool(!doc["partial"].as_bool().unwrap()),
            path => {
                let mut here = &mut doc;
                for part in path.split('.') {
                    here = &mut here[part];
                }
                *here = number;
            }
        }
        reseal(doc)
    })
}

/// The manifest with its digest recomputed and laid out as the tool writes it; as edited if it no longer
/// reads as one.
fn reseal(doc: Value) -> String {
    match serde_json::from_value::<RunRecord>(doc.clone()) {
        Ok(mut record) => {
            record.set_digest();
            intercept_core::seal::text(&record)
        }
        Err(_) => serde_json::to_string_pretty(&doc).unwrap(),
    }
}

/// Reads a manifest as `merge` and `--resume` do; an accepted one must have counts that fit its trials.
fn read_back(text: &str) {
    let checked =
        Stored::parse(text, Path::new("fuzz"), None).and_then(|s| s.scenario(&shipped()).map(|scenario| (s, scenario)));
    match checked {
        Ok((stored, scenario)) => {
            let tally = stored.tally();
            let summary = intercept_core::summary::Summary::new(scenario.rules.metrics(), &tally, None);
            assert!(summary.probabilities().all(|r| (0.0..=1.0).contains(&r.estimate) || tally.trials == 0));
        }
        Err(e) => one_short_line(&e.to_string()),
    }
}

proptest! {
    #[test]
    fn a_resealed_manifest_is_read_or_refused_in_one_line(text in resealed_manifest()) {
        read_back(&text);
    }

    #[test]
    fn a_manifest_with_bytes_changed_is_refused_in_one_line(
        m in 0..4usize, at in any::<prop::sample::Index>(), bytes in "\\PC{0,6}"
    ) {
        let text = &manifests()[m];
        let changed = overwritten(text, at, &bytes);
        read_back(&changed);
        let accepted = Stored::parse(&changed, Path::new("fuzz"), None).and_then(|s| s.scenario(&shipped())).is_ok();
        // Even an edit of white space alone is refused: only the bytes as written are read back.
        prop_assert!(!accepted || changed == *text, "an edited manifest was accepted");
    }
}

/// `text` with `bytes` written over it from a character chosen by `at`.
fn overwritten(text: &str, at: prop::sample::Index, bytes: &str) -> String {
    let cut = text.char_indices().map(|(b, _)| b).nth(at.index(text.chars().count())).unwrap_or(0);
    let rest: String = text[cut..].chars().skip(bytes.chars().count()).collect();
    format!("{}{bytes}{rest}", &text[..cut])
}

#[test]
fn an_unknown_field_or_changed_white_space_is_refused_even_when_resealed() {
    for text in manifests() {
        let mut doc: Value = serde_json::from_str(text).unwrap();
        doc["note"] = Value::from("added by hand");
        let unknown = serde_json::to_string_pretty(&doc).unwrap() + "\n";
        let spaced = text.replacen(": ", ":  ", 1);
        let crlf = text.replace('\n', "\r\n");
        for changed in [unknown, spaced, crlf, text.trim_end().to_owned()] {
            let e = Stored::parse(&changed, Path::new("fuzz"), None).unwrap_err().to_string();
            assert!(e.contains("is not as the run wrote it") || e.contains("digest does not match"), "{e}");
        }
    }
}

#[test]
fn an_untouched_manifest_is_read_back() {
    for text in manifests() {
        let stored = Stored::parse(text, Path::new("fuzz"), None).unwrap();
        stored.scenario(&shipped()).unwrap();
    }
}
