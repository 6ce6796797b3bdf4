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
