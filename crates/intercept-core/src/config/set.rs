//! Setting one config key from the command line: `run.seed=7`, `<table>.rules.speed=-2`, `<table>.unit.h.range=7`.
//!
//! A [`Setting`] names a key by its dotted path in the config with every default filled in (so a key left to
//! its default can be set too); an array of tables (`[[<table>.unit]]`) is entered by a table's `name` or its
//! index, dotted or in brackets ([`keys::parts`]); a mistyped part gets a near name suggested. [`apply`] writes the value into the resolved config, typed like the value it replaces, and
//! resolves the result again, so the setting passes the same validation as a config file. [`numeric_keys`]
//! lists every number of a scenario's rules as a [`Knob`] that a setting can move (what `sensitivity` varies).

use toml::Value;

use super::{ConfigError, RawConfig, Scenario, from_raw, keys};
use crate::ruleset::Registry;

crate::refusal! {
    /// Why a setting cannot be used (a `--set`, a sweep's axis, a `--only` prefix, a step): what it named or
    /// gave, and what is allowed, in one sentence.
    BadSetting
}
/// A key and one value for it, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub key: String,
    pub value: String,
}

/// `KEY=V1,V2,...` into the key and its values; an empty list or a missing `=` is refused.
pub fn parse_list(arg: &str) -> Result<(String, Vec<String>), BadSetting> {
    let Some((key, values)) = arg.split_once('=') else {
        return Err(BadSetting(format!("{arg:?} has no '='; write KEY=V1,V2,... such as run.seed=1,2,3")));
    };
    let values = values_of(values);
    if key.trim().is_empty() || values.is_empty() {
        return Err(BadSetting(format!("{arg:?} needs a key and at least one value, such as run.seed=1,2,3")));
    }
    Ok((key.trim().to_owned(), values))
}

/// `V1,V2,...` into its values, blanks dropped.
pub fn values_of(list: &str) -> Vec<String> {
    list.split(',').map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned).collect()
}

/// The scenario with `settings` applied to its resolved config, resolved again.
pub fn apply(scenario: &Scenario, settings: &[Setting]) -> Result<Scenario, ConfigError> {
    let mut doc = Value::try_from(&scenario.config).expect("a resolved config is TOML");
    for s in settings {
        set(&mut doc, s).map_err(|e| setting_error(scenario, std::slice::from_ref(s), e.0))?;
    }
    let raw: RawConfig =
        doc.try_into().map_err(|e: toml::de::Error| setting_error(scenario, settings, e.message().to_owned()))?;
    from_raw(&Registry::new(vec![scenario.rules.entry()]), &raw, &scenario.file).map_err(|e| {
        let message = e.key.as_ref().map_or(e.message.clone(), |k| format!("key '{k}': {}", e.message));
        // The resolved config does not say which setting broke it: name them all.
        setting_error(scenario, settings, message)
    })
}

/// `raw` with `settings` written in, typed like the values they replace, not resolved: a step of a search
/// whose config resolves only once every choice is made ([`crate::decide`]).
pub fn apply_raw(raw: &RawConfig, settings: &[Setting]) -> Result<RawConfig, BadSetting> {
    let mut doc = Value::try_from(raw).map_err(|e| BadSetting(e.to_string()))?;
    for s in settings {
        set(&mut doc, s)?;
    }
    doc.try_into().map_err(|e: toml::de::Error| BadSetting(e.message().to_owned()))
}

fn setting_error(scenario: &Scenario, settings: &[Setting], message: String) -> ConfigError {
    let given: Vec<String> = settings.iter().map(|s| format!("--set {}={}", s.key, s.value)).collect();
    ConfigError {
        file: scenario.file.clone(),
        line: None,
        key: None,
        message: format!("{}: {message}", given.join(" ")),
    }
}

/// Writes `s` into `doc`, typed like the value it replaces.
fn set(doc: &mut Value, s: &Setting) -> Result<(), BadSetting> {
    let here = find(doc, &s.key)?;
    *here = typed(here, &s.value)?;
    Ok(())
}

/// The value at the dotted `key` of `doc`.
fn find<'a>(doc: &'a mut Value, key: &str) -> Result<&'a mut Value, BadSetting> {
    let mut here = doc;
    let parts = keys::parts(key);
    for (i, part) in parts.iter().enumerate() {
        let known = names(here);
        here = step(here, part).ok_or_else(|| unknown(&parts[..i], part, &known))?;
    }
    Ok(here)
}

/// `key` (or a prefix of keys) in the printed form, given either way: each list index replaced by how
/// [`element`] names its table, so `fleet.group[0]` and `fleet.group.0` read `fleet.group.taranto`. A part
/// naming nothing is refused as [`apply`] refuses it, with a near name if there is one.
pub fn canonical(scenario: &Scenario, key: &str) -> Result<String, BadSetting> {
    let mut doc = Value::try_from(&scenario.config).expect("a resolved config is TOML");
    let (mut here, parts) = (&mut doc, keys::parts(key));
    let mut printed = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        let known = names(here);
        printed.push(match &*here {
            Value::Array(items) => position(items, part).map_or_else(|| part.to_string(), |j| element(&items[j], j)),
            _ => part.to_string(),
        });
        here = step(here, part).ok_or_else(|| unknown(&parts[..i], part, &known))?;
    }
    Ok(printed.join("."))
}

/// Which table of a list `part` names, as [`step`] reads it: an index, or a table's `name`.
fn position(items: &[Value], part: &str) -> Option<usize> {
    let named = || items.iter().position(|v| v.get("name").and_then(Value::as_str) == Some(part));
    part.parse::<usize>().ok().filter(|&i| i < items.len()).or_else(named)
}

/// `s`'s value typed like its key's value in the scenario's resolved config: what a sweep's column holds.
pub fn typed_value(scenario: &Scenario, s: &Setting) -> Result<Value, BadSetting> {
    let mut doc = Value::try_from(&scenario.config).expect("a resolved config is TOML");
    typed(find(&mut doc, &s.key)?, &s.value)
}

/// One step down a path: a table's key, or a table of an array by its `name` or index.
fn step<'a>(here: &'a mut Value, part: &str) -> Option<&'a mut Value> {
    match here {
        Value::Table(t) => t.get_mut(part),
        Value::Array(items) => position(items, part).map(|i| &mut items[i]),
        _ => None,
    }
}

/// What a key may name next at `here`: a table's keys, or the names of a list's tables.
fn names(here: &Value) -> Vec<String> {
    match here {
        Value::Table(t) => t.keys().cloned().collect(),
        Value::Array(items) => items.iter().filter_map(|v| v.get("name")?.as_str().map(str::to_owned)).collect(),
        _ => Vec::new(),
    }
}

fn unknown(parent: &[&str], part: &str, known: &[String]) -> BadSetting {
    let at = if parent.is_empty() { "the config".to_owned() } else { format!("'{}'", parent.join(".")) };
    let near = keys::did_you_mean(part, known.iter().map(String::as_str));
    if !near.is_empty() || known.is_empty() {
        return BadSetting(format!("{at} has no key or name '{part}'{near}"));
    }
    let some: Vec<&str> = known.iter().take(8).map(String::as_str).collect();
    let more = if known.len() > some.len() { ", ..." } else { "" };
    BadSetting(format!("{at} has no key or name '{part}'; allowed: {}{more}", some.join(", ")))
}

/// `text` as a value of the same type as `old`.
fn typed(old: &Value, text: &str) -> Result<Value, BadSetting> {
    let wrong = |what: &str| Err(BadSetting(format!("{text:?} is not {what}, as this key needs")));
    match old {
        Value::Integer(_) => text.parse().map(Value::Integer).or_else(|_| wrong("a whole number")),
        Value::Float(_) => text.parse().map(Value::Float).or_else(|_| wrong("a number")),
        Value::Boolean(_) => text.parse().map(Value::Boolean).or_else(|_| wrong("true or false")),
        Value::String(_) => Ok(Value::String(text.to_owned())),
        _ => Err(BadSetting("this key is a table or a list; set one of its keys instead".to_owned())),
    }
}

/// A number in a scenario's resolved config, by its dotted key: what `sensitivity` moves a step each way.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    pub key: String,
    pub value: Number,
}

/// A config number as TOML types it: whole numbers step by one, decimals by a chosen step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

/// The grain a stepped decimal is rounded to: 9 decimals, so that 0.5 + 0.05 reads 0.55, not
/// 0.55000000000000004.
const GRAIN: f64 = 1e9;

/// `x` rounded to the grain.
fn on_grain(x: f64) -> f64 {
    (x * GRAIN).round() / GRAIN
}

/// Checks a decimal step: at least one grain (a smaller step would round to no step at all), at most
/// 10^9, and on the grain itself (else the steps taken would not be the step given).
pub fn check_float_step(step: f64) -> Result<f64, BadSetting> {
    let allowed = "allowed: 0.000000001 to 1000000000, with at most 9 decimals, such as 0.05";
    if !(1.0 / GRAIN..=1e9).contains(&step) {
        return Err(BadSetting(format!("{step} is not a usable step; {allowed}")));
    }
    if (on_grain(step) - step).abs() > step * 1e-12 {
        return Err(BadSetting(format!(
            "{step} has more than 9 decimals, which a stepped value is rounded to; {allowed}"
        )));
    }
    Ok(step)
}

impl Number {
    /// The value `steps` steps away (`float_step` each for a decimal), written as a setting would be.
    pub fn stepped(self, steps: i64, float_step: f64) -> String {
        match self {
            Number::Int(i) => i.saturating_add(steps).to_string(),
            Number::Float(x) => format_float(on_grain(x + steps as f64 * float_step)),
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Float(x) => f.write_str(&format_float(*x)),
        }
    }
}

/// A decimal as a setting writes it: `0.55`, and `0.0` rather than `0`, so it still reads as a decimal.
fn format_float(x: f64) -> String {
    let text = format!("{x}");
    if text.contains(['.', 'e', 'i', 'N']) { text } else { format!("{text}.0") }
}

/// Every number of the scenario's resolved config outside `[run]` (which says how to run, not what the
/// rules are), by the dotted key [`apply`] accepts, keys of a table in alphabetical order and tables of a
/// list in the list's order.
pub fn numeric_keys(scenario: &Scenario) -> Vec<Knob> {
    let doc = Value::try_from(&scenario.config).expect("a resolved config is TOML");
    let mut knobs = Vec::new();
    if let Value::Table(top) = &doc {
        for (key, value) in top.iter().filter(|(k, _)| k.as_str() != "run") {
            collect(value, key.clone(), &mut knobs);
        }
    }
    knobs
}

/// The sections that hold the scenario's numbers, by their first two key parts (`<table>.rules`,
/// `<table>.unit`), in key order: what `sensitivity --only` can name.
pub fn sections(scenario: &Scenario) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for knob in numeric_keys(scenario) {
        let section = knob.key.split('.').take(2).collect::<Vec<_>>().join(".");
        if !out.contains(&section) {
            out.push(section);
        }
    }
    out
}

fn collect(value: &Value, key: String, knobs: &mut Vec<Knob>) {
    match value {
        Value::Integer(i) => knobs.push(Knob { key, value: Number::Int(*i) }),
        Value::Float(x) => knobs.push(Knob { key, value: Number::Float(*x) }),
        Value::Table(t) => {
            // Sorted, as the sections and steps have always been listed, whatever order the table keeps.
            let mut entries: Vec<(&String, &Value)> = t.iter().collect();
            entries.sort_unstable_by_key(|(k, _)| *k);
            entries.into_iter().for_each(|(k, v)| collect(v, format!("{key}.{k}"), knobs));
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect(item, format!("{key}.{}", element(item, i)), knobs);
            }
        }
        _ => {}
    }
}

/// How a key names a table of a list ([`keys::element`]).
fn element(item: &Value, index: usize) -> String {
    keys::element(item.get("name").and_then(Value::as_str), index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_read_as_settings() {
        assert_eq!(Number::Int(-1).stepped(-1, 0.05), "-2");
        assert_eq!(Number::Float(0.5).stepped(1, 0.05), "0.55");
        assert_eq!(Number::Float(0.05).stepped(-1, 0.05), "0.0");
        assert_eq!(Number::Float(0.4).to_string(), "0.4");
    }
}
