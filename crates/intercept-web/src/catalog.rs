//! What the server knows of the registered rule sets, each reached through its registry entry: the list
//! (`GET /api/rule-sets`), a config's JSON Schema (`GET /api/schema/{rule_set}`), the starter config
//! (`GET /api/starter/{rule_set}`), and the quick odds calculators (`GET /api/odds`, `GET /api/odds/{rule_set}`).

use std::path::Path as FilePath;

use axum::extract::{Path, RawQuery};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use intercept_core::config::starter;
use intercept_core::games::shipped;
use intercept_core::ruleset::{Entry, ToolError, answer_query};
use serde_json::{Value as Json, json};

use crate::error::{Answer, ApiError, json_text, off_runtime, parse_query};

/// The registered rule set whose table is `name` (`-` may stand for `_`), else 404 listing the tables.
pub fn rule_set(name: &str) -> Answer<&'static dyn Entry> {
    let registry = shipped();
    registry.find(&name.replace('-', "_")).ok_or_else(|| {
        ApiError::not_found(format!("no rule set has the table [{name}]; allowed: {}", registry.tables().join(", ")))
    })
}

pub async fn rule_sets() -> Response {
    let sets: Vec<_> = shipped()
        .sets()
        .iter()
        .map(|s| {
            json!({ "table": s.table(), "title": s.title(), "starter": s.starter().is_some(),
                    "calculator": s.calculator().is_some() })
        })
        .collect();
    axum::Json(json!({ "rule_sets": sets })).into_response()
}

/// The config's JSON Schema, each object's keys also listed in the order the rule set declares them
/// (`x-order`): a JSON object has no order of its own, and the form should read as the rule set is written
/// (names first, then the numbers that matter, then the readings), not alphabetically.
pub async fn schema(Path(name): Path<String>) -> Answer {
    let set = rule_set(&name)?;
    let mut schema = set.schema();
    if let Some(order) = declared(set) {
        add_order(&mut schema, &order);
    }
    Ok(json_text(StatusCode::OK, serde_json::to_string_pretty(&schema).map_err(ApiError::internal)?))
}

/// The rule set's starter config with every default filled in, as a TOML table: serialised from the config
/// types, so its keys come in the order the types declare them.
fn declared(set: &'static dyn Entry) -> Option<toml::Table> {
    let scenario = crate::config::scenario_alone(set.starter()?, "starter.toml", Default::default()).ok()?;
    toml::Table::try_from(&scenario.config).ok()
}

/// Adds `x-order` to every object schema `table` reaches: `table`'s keys first, in its order, then any other
/// property the schema names.
fn add_order(schema: &mut Json, table: &toml::Table) {
    let mut orders = Vec::new();
    collect_order(schema, schema, "", table, &mut orders);
    for (pointer, keys) in orders {
        if let Some(node) = schema.pointer_mut(&pointer).and_then(Json::as_object_mut) {
            node.insert("x-order".to_owned(), json!(keys));
        }
    }
}

fn collect_order(root: &Json, node: &Json, at: &str, table: &toml::Table, out: &mut Vec<(String, Vec<String>)>) {
    let (node, at) = follow(root, node, at.to_owned());
    let Some(props) = node["properties"].as_object() else { return };
    let mut keys: Vec<String> = table.keys().filter(|k| props.contains_key(*k)).cloned().collect();
    let rest: Vec<String> = props.keys().filter(|k| !keys.contains(k)).cloned().collect();
    keys.extend(rest);
    out.push((at.clone(), keys));
    for (key, value) in table {
        let Some(prop) = props.get(key) else { continue };
        let here = format!("{at}/properties/{}", key.replace('~', "~0").replace('/', "~1"));
        match value {
            toml::Value::Table(t) => collect_order(root, prop, &here, t, out),
            toml::Value::Array(items) => {
                if let Some(toml::Value::Table(first)) = items.first() {
                    let (prop, here) = follow(root, prop, here);
                    collect_order(root, &prop["items"], &format!("{here}/items"), first, out);
                }
            }
            _ => {}
        }
    }
}

/// What `node` (at JSON pointer `at`) stands for: its `$ref` followed, or an optional value's one non-null
/// choice, with the pointer to where that is.
fn follow<'a>(root: &'a Json, node: &'a Json, at: String) -> (&'a Json, String) {
    let target = node["$ref"].as_str().and_then(|r| r.strip_prefix('#'));
    if let Some((target, found)) = target.and_then(|t| Some((t, root.pointer(t)?))) {
        return follow(root, found, target.to_owned());
    }
    for choices in ["anyOf", "oneOf"] {
        let Some(options) = node[choices].as_array() else { continue };
        let real: Vec<usize> = (0..options.len()).filter(|&i| options[i]["type"] != "null").collect();
        if let [i] = real[..] {
            return follow(root, &options[i], format!("{at}/{choices}/{i}"));
        }
    }
    (node, at)
}

/// The starter config exactly as `intercept-sim init TABLE -o -` prints it.
pub async fn starter(Path(name): Path<String>) -> Answer {
    let set = rule_set(&name)?;
    let none = || ApiError::not_found(format!("the rule set [{}] ships no starter config", set.table()));
    let text = starter::commented(set, FilePath::new("starter")).ok_or_else(none)?;
    let text = text.map_err(ApiError::internal)?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text.trim_end().to_owned() + "\n").into_response())
}

pub async fn calculators() -> Response {
    let list: Vec<_> = shipped()
        .sets()
        .iter()
        .filter_map(|s| Some((s, s.calculator()?)))
        .map(|(s, c)| json!({ "rule_set": s.table(), "title": c.title(), "params": c.params() }))
        .collect();
    axum::Json(json!({ "calculators": list })).into_response()
}

/// The rule set's calculator answering the query: its `odds --json` document, or 400 naming the parameter.
pub async fn odds(Path(name): Path<String>, raw: RawQuery) -> Answer {
    let set = rule_set(&name)?;
    let none = || ApiError::not_found(format!("the rule set [{}] has no quick odds calculator", set.table()));
    let calculator = set.calculator().ok_or_else(none)?;
    let query = parse_query(raw.0.as_deref().unwrap_or(""))?;
    let answer = off_runtime(move || {
        answer_query(calculator, &query).map_err(|e| match e {
            ToolError::Param { .. } | ToolError::Input(_) => ApiError::bad_request(e.to_string()),
            ToolError::Failed(_) => ApiError::unprocessable(e.to_string()),
        })
    })
    .await?;
    Ok(json_text(StatusCode::OK, serde_json::to_string_pretty(&answer).map_err(ApiError::internal)?))
}
