//! The JSON Schema of each rule set's config is derived from the config types, so it is one source of truth
//! with the parser: every key of every shipped config is in it, typed, and a key the parser refuses is one
//! the schema leaves out.

mod common;

use intercept_core::config::{self, Overrides};
use intercept_core::games::shipped;
use serde_json::Value;

use common::shipped_configs;

/// The schema node `node` stands for: a `$ref` followed into `$defs`, an optional value's non-null branch.
fn resolve<'a>(schema: &'a Value, node: &'a Value) -> &'a Value {
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        return resolve(schema, &schema["$defs"][name]);
    }
    if let Some(branches) = node.get("anyOf").and_then(Value::as_array) {
        let typed = branches.iter().find(|b| b.get("type") != Some(&Value::from("null")));
        return typed.map_or(node, |b| resolve(schema, b));
    }
    node
}

/// Checks that every key of `value` is a property of `node`, recursively; `at` names the place.
fn covered(schema: &Value, node: &Value, value: &toml::Value, at: &str) {
    let node = resolve(schema, node);
    match value {
        // A table of names the user chooses (a map) has a schema for every value instead of properties.
        toml::Value::Table(table) if node.get("properties").is_none() => {
            for (key, v) in table {
                covered(schema, &node["additionalProperties"], v, &format!("{at}.{key}"));
            }
        }
        toml::Value::Table(table) => {
            assert_eq!(node["additionalProperties"], Value::Bool(false), "{at}: unknown keys refused");
            for (key, v) in table {
                let property = node["properties"].get(key).unwrap_or_else(|| panic!("{at}.{key} is in the schema"));
                covered(schema, property, v, &format!("{at}.{key}"));
            }
        }
        toml::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                covered(schema, &node["items"], item, &format!("{at}[{i}]"));
            }
        }
        _ => assert!(node.get("type").is_some() || node.get("enum").is_some() || node.get("oneOf").is_some()),
    }
}

#[test]
fn every_key_of_every_shipped_config_is_in_its_rule_sets_schema() {
    for path in shipped_configs() {
        let scenario = config::load(&shipped(), &path, Overrides::default()).expect("a shipped config");
        let schema = scenario.rules.entry().schema();
        let text = std::fs::read_to_string(&path).unwrap();
        let file: toml::Value = toml::from_str(&text).unwrap();
        covered(&schema, &schema, &file, &path.display().to_string());
        let filled = toml::Value::Table(toml::Table::try_from(&scenario.config).unwrap());
        covered(&schema, &schema, &filled, &format!("{} with every default", path.display()));
    }
}

#[test]
fn every_rule_set_has_a_schema_that_names_its_table_and_run() {
    for set in shipped().sets() {
        let schema = set.schema();
        let properties = schema["properties"].as_object().expect("an object schema");
        assert!(properties.contains_key("run") && properties.contains_key(set.table()), "{}", set.table());
        assert_eq!(schema["required"], serde_json::json!([set.table()]));
    }
}

/// The help `node` carries: its own description, or the one of the node its `$ref` (or an `anyOf`/`allOf`
/// choice other than null) leads to. An empty description is none.
fn description<'a>(schema: &'a Value, node: &'a Value) -> Option<&'a str> {
    if let Some(text) = node.get("description").and_then(Value::as_str).filter(|d| !d.trim().is_empty()) {
        return Some(text);
    }
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        return description(schema, &schema["$defs"][r.trim_start_matches("#/$defs/")]);
    }
    let choices = node.get("anyOf").or(node.get("allOf")).and_then(Value::as_array);
    choices
        .into_iter()
        .flatten()
        .filter(|b| b.get("type") != Some(&Value::from("null")))
        .find_map(|b| description(schema, b))
}

/// Every property under `node`, as `(key path, its schema)`: the keys of nested tables, of each list's items
/// and of a map's values included.
fn properties<'a>(schema: &'a Value, node: &'a Value, at: &str, out: &mut Vec<(String, &'a Value)>) {
    let node = resolve(schema, node);
    for (key, property) in node.get("properties").and_then(Value::as_object).into_iter().flatten() {
        let path = if at.is_empty() { key.clone() } else { format!("{at}.{key}") };
        out.push((path.clone(), property));
        properties(schema, property, &path, out);
    }
    if let Some(items) = node.get("items").filter(|i| i.is_object()) {
        properties(schema, items, &format!("{at}[]"), out);
    }
    if let Some(values) = node.get("additionalProperties").filter(|v| v.is_object()) {
        properties(schema, values, &format!("{at}.*"), out);
    }
}

/// Every key of every rule set's config has help: the editor of the workbench shows it under the key and
/// `init` writes it as the key's comment, so a new key without a doc comment on its config field fails here.
#[test]
fn every_key_of_every_rule_set_has_a_description() {
    for set in shipped().sets() {
        let schema = set.schema();
        let mut keys = Vec::new();
        properties(&schema, &schema, "", &mut keys);
        assert!(
            keys.iter().any(|(k, _)| k == "run.seed") && keys.len() > 10,
            "{}: the walk finds the keys",
            set.table()
        );
        let missing: Vec<&str> =
            keys.iter().filter(|(_, p)| description(&schema, p).is_none()).map(|(k, _)| k.as_str()).collect();
        assert!(
            missing.is_empty(),
            "[{}]: {} keys have no description; give their config fields a doc comment: {}",
            set.table(),
            missing.len(),
            missing.join(", ")
        );
    }
}

/// A choice whose values are described describes each of them, as its own `const`: schemars lumps the values
/// without a doc comment into one `enum`, which `init`'s comment and the editor's list of choices then show
/// as one value, or not at all.
#[test]
fn every_value_of_a_described_choice_is_described() {
    for set in shipped().sets() {
        let schema = set.schema();
        for (name, def) in schema["$defs"].as_object().expect("definitions") {
            for choice in def.get("oneOf").and_then(Value::as_array).into_iter().flatten() {
                let described = choice.get("description").and_then(Value::as_str).is_some_and(|d| !d.trim().is_empty());
                assert!(
                    choice.get("const").is_some() && described,
                    "[{}] {name}: {choice} has no description",
                    set.table()
                );
            }
        }
    }
}
