//! The reference pages of `docs/guide/reference/`: one Markdown page per registered rule set, with every key
//! of a config holding its table and every metric of its starter config, generated so that no hand-kept
//! table drifts from the rules.
//!
//! The keys come from the JSON Schema that `intercept-sim schema` prints ([`Entry::schema`]): one Markdown
//! table per table of the config, `[run]` first, each key with its type, allowed values, default and
//! description (the config types' doc comments). Keys come in the order the schema gives (`x-order`), else in
//! the order the config types declare them, read from the starter config with every default filled in (as
//! the workbench orders its form), then any others by name. The metrics are the starter's
//! ([`super::starter::resolved`]), each with its kind and its one-line description
//! ([`crate::metrics::MetricDef::about`]), the headline ones marked. Nothing here names a rule set: [`page`]
//! reads everything through its [`Entry`]. `crates/intercept-core/tests/reference_docs.rs` writes the pages
//! and fails when the committed ones differ ([`REGENERATE`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

use serde_json::{Map, Value as Json};

use super::ConfigError;
use super::run::RunConfig;
use crate::metrics::{Completion, MetricKind, Metrics};
use crate::ruleset::{Entry, Registry, Rules};

/// The command that writes the pages afresh.
pub const REGENERATE: &str = "REFERENCE_WRITE=1 cargo test -p intercept-core --test reference_docs";

/// The test that writes the pages and checks them.
const WRITER: &str = "crates/intercept-core/tests/reference_docs.rs";

/// The deepest a table may be nested in a config (`[a.b.c...]`): far beyond any rule set's, and a guard
/// against a schema whose types refer to themselves.
pub const MOST_DEPTH: usize = 8;

/// Why a reference page cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    /// The rule set's starter config, whose metrics the page lists, does not load.
    #[error("the starter config of [{table}] does not load: {source}")]
    Starter { table: &'static str, source: ConfigError },
    /// The schema nests tables deeper than [`MOST_DEPTH`], as a type that holds itself would.
    #[error("the schema of [{table}] nests tables deeper than {MOST_DEPTH} levels, at {at}")]
    TooDeep { table: &'static str, at: String },
}

/// The file name of rule set `set`'s page in `docs/guide/reference/`: its table's name.
pub fn file_name(set: &dyn Entry) -> String {
    format!("{}.md", set.table())
}

/// The reference page of rule set `set`: its keys and its starter's metrics, as Markdown.
pub fn page(set: &'static dyn Entry) -> Result<String, ReferenceError> {
    let scenario = super::starter::resolved(set, Path::new("starter.toml"))
        .transpose()
        .map_err(|source| ReferenceError::Starter { table: set.table(), source })?;
    let sample = scenario.as_ref().and_then(|s| toml::Table::try_from(&s.config).ok());
    let mut out = format!("# `[{}]` reference: {}\n\n", set.table(), set.title());
    let _ = writeln!(out, "{}\n", generated("the rule set's config schema and starter config"));
    out += "## Keys\n\n";
    let _ = writeln!(
        out,
        "Every key of a config holding the `[{}]` table, one table of keys for each table of the config. \
         A key is *required* when a config must give it; *unset* when it may be left out, and its description \
         says what then applies. A list's tables are written `[[...]]`, and their keys dotted with `[]`. \
         `intercept-sim init {}` writes a commented starter config; `intercept-sim schema {}` prints the JSON \
         Schema this page is made from.\n",
        set.table(),
        set.table(),
        set.table()
    );
    keys(&mut out, &set.schema(), set.table(), sample.as_ref())?;
    out += "## Metrics\n\n";
    match scenario {
        Some(scenario) => metrics(&mut out, set, scenario.rules.as_ref()),
        None => {
            out += "The rule set ships no starter config, so no metrics are listed here: \
                        `intercept-sim metrics FILE` lists those of a config.\n"
        }
    }
    Ok(out)
}

/// The index of the reference pages: every registered rule set's page.
pub fn index(registry: &Registry) -> String {
    let mut out = "# Reference: every key and metric\n\n".to_owned();
    let _ = writeln!(out, "{}\n", generated("the registered rule sets"));
    out += "One page per rule set: every key of a config holding its table (type, allowed values, default, \
            description) and the metrics of its starter config, each with its kind and description. The \
            guide's pages say how the rules are read; these pages list what a config may say.\n\n";
    for set in registry.sets() {
        let _ = writeln!(out, "- [`[{}]`]({}): {}", set.table(), file_name(*set), set.title());
    }
    out
}

/// The line saying the page is generated from `source`, by what, and how to write it again.
fn generated(source: &str) -> String {
    format!(
        "Generated from {source} by `{WRITER}`, which fails when this page is out of date; do not edit it by \
         hand. To write it again: `{REGENERATE}`."
    )
}

/// The `## Keys` tables of a config whose schema is `schema` and whose rule set's table is `table`: `[run]`
/// first, then the rule set's table and its tables. `sample` is a config of it with every default filled in,
/// whose keys give the order the config types declare them in. Fails on tables nested deeper than
/// [`MOST_DEPTH`].
fn keys(
    out: &mut String,
    schema: &Json,
    table: &'static str,
    sample: Option<&toml::Table>,
) -> Result<(), ReferenceError> {
    let walk = Walk { table, defs: &schema["$defs"], orders: RefCell::default() };
    let mut tops: Vec<&str> = vec!["run", table];
    tops.extend(walk.order(schema, &samples(sample), None).into_iter().filter(|k| *k != "run" && *k != table));
    for top in tops {
        let prop = &schema["properties"][top];
        if prop.is_null() {
            continue;
        }
        let sample = sample.and_then(|s| s.get(top)).and_then(toml::Value::as_table);
        let defaults = if top == "run" { run_defaults() } else { Map::new() };
        let (header, dotted, required) = (format!("[{top}]"), top.to_owned(), is_required(schema, top));
        let place = Place { header, dotted, depth: 1, required, defaults };
        walk.section(out, &place, prop, &samples(sample))?;
    }
    Ok(())
}

/// Where a table is in the config: its TOML header (`[a.b]`, `[[a.list]]`), its keys' dotted prefix
/// (`a.list[]`), how deep it is nested, whether its parent requires it, and the defaults of its keys that
/// its parent's default states (a table's default is stated once, as a whole, where it is a key).
struct Place {
    header: String,
    dotted: String,
    depth: usize,
    required: bool,
    defaults: Map<String, Json>,
}

/// A walk over the schema's tables.
struct Walk<'a> {
    /// The rule set's table, for errors.
    table: &'static str,
    /// The schema's definitions, to follow `$ref`s.
    defs: &'a Json,
    /// The order of the keys of each definition a sample has shown, for its other uses: a list of tables of
    /// the same type as a table of the starter, but absent from it.
    orders: RefCell<HashMap<String, Vec<String>>>,
}

impl Walk<'_> {
    /// What `node` stands for once its `$ref` is followed, or an optional value's one non-null choice.
    fn resolve<'a>(&'a self, node: &'a Json) -> &'a Json {
        if let Some(name) = node["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
            return self.resolve(&self.defs[name]);
        }
        for choices in ["anyOf", "oneOf", "allOf"] {
            let Some(options) = node[choices].as_array() else { continue };
            let real: Vec<&Json> = options.iter().filter(|o| o["type"] != "null").collect();
            if let [only] = real[..]
                && (real.len() < options.len() || choices == "allOf")
            {
                return self.resolve(only);
            }
        }
        node
    }

    /// Whether a key described by `prop` is a table of its own (a table whose keys the schema names), a list
    /// of such tables, or a plain key (a value, a list of values, or a table of free keys).
    fn shape(&self, prop: &Json) -> Shape {
        let inner = self.resolve(prop);
        if inner["properties"].is_object() {
            Shape::Table
        } else if types(inner).contains(&"array") && self.resolve(&inner["items"])["properties"].is_object() {
            Shape::List
        } else if inner["additionalProperties"].is_object()
            && self.resolve(&inner["additionalProperties"])["properties"].is_object()
        {
            Shape::Named
        } else {
            Shape::Key
        }
    }

    /// The definition a key's value is (`$ref`), if it is one, through an optional value's one choice.
    fn definition<'b>(&self, node: &'b Json) -> Option<&'b str> {
        if let Some(name) = node["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
            return Some(name);
        }
        let options = node["anyOf"].as_array().or(node["oneOf"].as_array()).or(node["allOf"].as_array());
        match options.map(|o| o.iter().filter(|o| o["type"] != "null").collect::<Vec<_>>()).as_deref() {
            Some([only]) => self.definition(only),
            _ => None,
        }
    }

    /// The keys of the table `node` (definition `def`), in order: its `x-order`, else the order of the keys
    /// of `samples` (tables as the config types write them) or of another table of the same definition,
    /// then any other key, by name.
    fn order<'b>(&'b self, node: &'b Json, samples: &[&toml::Table], def: Option<&str>) -> Vec<&'b str> {
        let Some(props) = self.resolve(node)["properties"].as_object() else { return Vec::new() };
        let resolved = self.resolve(node);
        let mut keys: Vec<&'b str> = Vec::new();
        let stated = resolved["x-order"].as_array().or(node["x-order"].as_array());
        let named = stated.into_iter().flatten().filter_map(Json::as_str);
        let sampled = samples.iter().flat_map(|t| t.keys().map(String::as_str));
        let seen: Vec<String> = def.and_then(|d| self.orders.borrow().get(d).cloned()).unwrap_or_default();
        for key in named.chain(sampled).chain(seen.iter().map(String::as_str)) {
            if let Some((k, _)) = props.get_key_value(key)
                && !keys.contains(&k.as_str())
            {
                keys.push(k);
            }
        }
        if let Some(def) = def.filter(|_| !samples.is_empty()) {
            let known = keys.iter().map(|k| (*k).to_owned()).collect();
            self.orders.borrow_mut().entry(def.to_owned()).or_insert(known);
        }
        let mut rest: Vec<&'b str> = props.keys().map(String::as_str).filter(|k| !keys.contains(k)).collect();
        rest.sort_unstable();
        keys.extend(rest);
        keys
    }

    /// The section of the table at `place`, described by `prop` (`required` in its parent), then its tables:
    /// a heading, what it is, and its plain keys as a Markdown table. `samples` are its tables in the starter.
    fn section(
        &self,
        out: &mut String,
        place: &Place,
        prop: &Json,
        samples: &[&toml::Table],
    ) -> Result<(), ReferenceError> {
        if place.depth > MOST_DEPTH {
            return Err(ReferenceError::TooDeep { table: self.table, at: place.header.clone() });
        }
        let list = self.shape(prop) == Shape::List;
        let def = if list { self.definition(&self.resolve(prop)["items"]) } else { self.definition(prop) };
        let node = if list { self.resolve(&self.resolve(prop)["items"]) } else { self.resolve(prop) };
        let _ = writeln!(out, "### `{}`\n", place.header);
        let about = description(prop).or(description(node)).unwrap_or_default();
        let about =
            about.strip_prefix(&format!("`{}`: ", place.header)).map_or(about.clone(), crate::text::capitalised);
        let intro = [Some(about), presence(prop, place.required, list)].into_iter().flatten().filter(|s| !s.is_empty());
        let intro: Vec<String> = intro.collect();
        if !intro.is_empty() {
            let _ = writeln!(out, "{}\n", intro.join(" "));
        }
        let keys = self.order(node, samples, def);
        let plain: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| matches!(self.shape(&node["properties"][*k]), Shape::Key | Shape::Named))
            .collect();
        if plain.is_empty() {
            out.push_str("No keys of its own: its tables follow.\n\n");
        } else {
            out.push_str("| key | type | allowed | default | description |\n|---|---|---|---|---|\n");
            for key in plain {
                let dotted = format!("{}.{key}", place.dotted);
                let inherited = place.defaults.get(key);
                self.row(out, &dotted, &node["properties"][key], is_required(node, key), inherited);
            }
            out.push('\n');
        }
        for key in keys {
            let sub = &node["properties"][key];
            let shape = self.shape(sub);
            let inner: Vec<&toml::Table> = samples.iter().filter_map(|t| t.get(key)).flat_map(tables).collect();
            let path = place.header.trim_matches(['[', ']']);
            let (header, dotted) = match shape {
                Shape::Key => continue,
                Shape::Table => (format!("[{path}.{key}]"), format!("{}.{key}", place.dotted)),
                Shape::List => (format!("[[{path}.{key}]]"), format!("{}.{key}[]", place.dotted)),
                Shape::Named => {
                    let place = Place {
                        header: format!("[{path}.{key}.NAME]"),
                        dotted: format!("{}.{key}.NAME", place.dotted),
                        depth: place.depth + 1,
                        required: false,
                        defaults: Map::new(),
                    };
                    self.section(out, &place, &self.resolve(sub)["additionalProperties"], &[])?;
                    continue;
                }
            };
            let stated = sub.get("default").or(place.defaults.get(key)).and_then(Json::as_object);
            let defaults = if shape == Shape::Table { stated.cloned().unwrap_or_default() } else { Map::new() };
            let place = Place { header, dotted, depth: place.depth + 1, required: is_required(node, key), defaults };
            self.section(out, &place, sub, &inner)?;
        }
        Ok(())
    }

    /// The row of the plain key `dotted`, described by `prop`; `inherited` is its default as its table's
    /// default states it.
    fn row(&self, out: &mut String, dotted: &str, prop: &Json, required: bool, inherited: Option<&Json>) {
        let inner = self.resolve(prop);
        let (names, described) = self.choices(prop);
        let mut allowed: Vec<String> = names.clone();
        if allowed.is_empty() && types(inner).contains(&"array") {
            let (items, _) = self.choices(&inner["items"]);
            allowed.extend(items.iter().map(|i| format!("each {i}")));
        }
        allowed.extend(range(inner).or_else(|| range(self.resolve(&inner["items"])).map(|r| format!("each {r}"))));
        let default = if required {
            "required".to_owned()
        } else {
            let stated = prop.get("default").filter(|d| !d.is_null());
            stated.or(inherited.filter(|d| !d.is_null())).map_or("unset".to_owned(), |d| format!("`{}`", toml_text(d)))
        };
        let mut about = description(prop).or(description(inner)).unwrap_or_default();
        if !described.is_empty() {
            about = format!("{about} {}", described.join(" ")).trim().to_owned();
        }
        let _ = writeln!(
            out,
            "| `{dotted}` | {} | {} | {} | {} |",
            self.type_name(prop),
            cell(&allowed.join(", ")),
            cell(&default),
            cell(&about)
        );
    }

    /// The type of a key in words: `integer`, `list of strings`, `number or string`; a value that may be
    /// left out is the type it takes when given.
    fn type_name(&self, prop: &Json) -> String {
        let node = self.resolve(prop);
        let choices = node["anyOf"].as_array().or(node["oneOf"].as_array());
        if let Some(choices) = choices.filter(|c| !c.iter().all(|c| c.get("const").is_some())) {
            let mut names: Vec<String> = Vec::new();
            for name in choices.iter().filter(|c| c["type"] != "null").map(|c| self.type_name(c)) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            return names.join(" or ");
        }
        if node.get("enum").is_some() || node.get("oneOf").is_some() || node.get("const").is_some() {
            return "string".to_owned();
        }
        let kinds: Vec<&str> = types(node).into_iter().filter(|t| *t != "null").collect();
        let words: Vec<String> = kinds
            .iter()
            .map(|t| match *t {
                "array" => format!("list of {}", plural(&self.type_name(&node["items"]))),
                "object" => match node.get("additionalProperties").filter(|a| a.is_object()) {
                    Some(values) => format!("table of {}", plural(&self.type_name(values))),
                    None => "table".to_owned(),
                },
                other => other.to_owned(),
            })
            .collect();
        if words.is_empty() { "any".to_owned() } else { words.join(" or ") }
    }

    /// The values a key may take where the schema lists them, and those it describes (`value: what it
    /// means`): an `enum`, the constants of a `oneOf`, and the choices of an `anyOf` (a choice that is no
    /// constant named by its type).
    fn choices(&self, prop: &Json) -> (Vec<String>, Vec<String>) {
        let node = self.resolve(prop);
        let (mut names, mut described) = (Vec::new(), Vec::new());
        for value in node["enum"].as_array().into_iter().flatten() {
            names.push(format!("`{}`", toml_text(value)));
        }
        if let Some(value) = node.get("const") {
            names.push(format!("`{}`", toml_text(value)));
        }
        let options = node["oneOf"].as_array().or(node["anyOf"].as_array());
        for option in options.into_iter().flatten().filter(|o| o["type"] != "null") {
            let about = description(option);
            let inner = self.resolve(option);
            if inner.get("const").is_some() || inner.get("enum").is_some() || inner.get("oneOf").is_some() {
                let (more, more_described) = self.choices(option);
                // A choice of several values, each described, is said by its values alone.
                if let (Some(about), [one]) = (&about, &more[..])
                    && more_described.is_empty()
                {
                    described.push(format!("{one}: {about}"));
                }
                names.extend(more);
                described.extend(more_described);
            } else {
                let name = format!("a {}", self.type_name(option));
                described.extend(about.map(|a| format!("{}: {a}", crate::text::capitalised(&name))));
                names.push(name);
            }
        }
        (names, described)
    }
}

/// What a section says of whether its table must be given, and its default when it is a list.
fn presence(prop: &Json, required: bool, list: bool) -> Option<String> {
    if required {
        return Some(if list { "Required: at least one table." } else { "Required." }.to_owned());
    }
    match prop.get("default") {
        Some(Json::Array(items)) if list && items.is_empty() => Some("None by default.".to_owned()),
        Some(Json::Array(items)) if list => {
            let each: Vec<String> = items.iter().map(|i| format!("`{}`", toml_text(i))).collect();
            Some(format!("By default {} tables: {}.", items.len(), each.join(", ")))
        }
        None | Some(Json::Null) => Some("May be left out.".to_owned()),
        Some(_) => None,
    }
}

/// How a key of a table is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A value, a list of values, or a table of free keys: one row.
    Key,
    /// A table whose keys the schema names: a section of its own.
    Table,
    /// A list of such tables: a section, its keys dotted with `[]`.
    List,
    /// A table of tables by free names, each with the keys the schema names: one row for the table, and a
    /// section for its named tables, their keys dotted with `NAME`.
    Named,
}

/// The `type` of a schema node, as a list (`"integer"` or `["integer", "null"]`).
fn types(node: &Json) -> Vec<&str> {
    match &node["type"] {
        Json::String(t) => vec![t.as_str()],
        Json::Array(ts) => ts.iter().filter_map(Json::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether the table `node` requires `key`.
fn is_required(node: &Json, key: &str) -> bool {
    node["required"].as_array().is_some_and(|r| r.iter().any(|k| k == key))
}

/// A node's description on one line, each intra-doc link (``[`Name`]``) left as its code.
fn description(node: &Json) -> Option<String> {
    let text = node["description"].as_str()?.split_whitespace().collect::<Vec<_>>().join(" ");
    Some(unlinked(&text))
}

/// `text` with every ``[`Name`]`` not followed by `(` written as `` `Name` ``.
fn unlinked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("[`") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        match from[2..].find("`]") {
            Some(end) if !from[2 + end + 2..].starts_with('(') => {
                out.push_str(&from[1..2 + end + 1]);
                rest = &from[2 + end + 2..];
            }
            _ => {
                out.push('[');
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A type's name for many of them: `strings`, `integers`, `lists of numbers`.
fn plural(name: &str) -> String {
    match name.split_once(' ') {
        Some((first, rest)) => format!("{first}s {rest}"),
        None if name == "any" => "values".to_owned(),
        None => format!("{name}s"),
    }
}

/// The range a node's `minimum` and `maximum` state, if any.
fn range(node: &Json) -> Option<String> {
    match (node.get("minimum"), node.get("maximum")) {
        (Some(lo), Some(hi)) => Some(format!("{lo} to {hi}")),
        (Some(lo), None) => Some(format!("at least {lo}")),
        (None, Some(hi)) => Some(format!("at most {hi}")),
        (None, None) => None,
    }
}

/// A value as TOML spells it: strings quoted, tables inline with their keys by name (however the JSON map
/// is ordered).
fn toml_text(value: &Json) -> String {
    match value {
        Json::Array(items) => format!("[{}]", items.iter().map(toml_text).collect::<Vec<_>>().join(", ")),
        Json::Object(map) if map.is_empty() => "{}".to_owned(),
        Json::Object(map) => {
            let mut pairs: Vec<String> = map.iter().map(|(k, v)| format!("{k} = {}", toml_text(v))).collect();
            pairs.sort_unstable();
            format!("{{ {} }}", pairs.join(", "))
        }
        other => other.to_string(),
    }
}

/// `text` fit for a cell of a Markdown table: one line, its `|` escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The tables a value of the starter holds: itself if a table, each table if a list.
fn tables(value: &toml::Value) -> Vec<&toml::Table> {
    match value {
        toml::Value::Table(t) => vec![t],
        toml::Value::Array(items) => items.iter().filter_map(toml::Value::as_table).collect(),
        _ => Vec::new(),
    }
}

/// `sample`, if any, as a list of tables.
fn samples(sample: Option<&toml::Table>) -> Vec<&toml::Table> {
    sample.into_iter().collect()
}

/// The defaults of the `[run]` table, which this layer owns: every key of [`RunConfig::default`], `draws`
/// included, which a config written out leaves out at its default (so the schema states none for it).
fn run_defaults() -> Map<String, Json> {
    let run = RunConfig::default();
    let mut map = match serde_json::to_value(&run) {
        Ok(Json::Object(map)) => map,
        _ => Map::new(),
    };
    if let Ok(draws) = serde_json::to_value(run.draws) {
        map.insert("draws".to_owned(), draws);
    }
    map
}

/// The `## Metrics` table of the starter of `set`, resolved as `rules`.
fn metrics(out: &mut String, set: &dyn Entry, rules: &dyn Rules) {
    let headline = rules.headline();
    let _ = writeln!(
        out,
        "The metrics of the starter config (`intercept-sim init {}`), in the order they are reported. A metric \
         named after a unit or a place carries the starter's names: a config with other units has the same \
         metrics under its own names, and some metrics appear only under some settings, so a config may \
         have metrics this list lacks: `intercept-sim metrics FILE` lists a config's own. The headline \
         metrics, which a run's answer is given in, are marked **headline**.\n",
        set.table()
    );
    out.push_str("| metric | kind | description |\n|---|---|---|\n");
    let all: &Metrics = rules.metrics();
    for def in all.defs() {
        let mark = if headline.contains(&def.name) { " **headline**" } else { "" };
        let kind = match (def.kind, def.completion) {
            (MetricKind::Probability, None) => "probability".to_owned(),
            (MetricKind::Probability, Some(Completion::Fixed(_))) => "probability, settled by the config".to_owned(),
            (MetricKind::Probability, Some(Completion::AtLeast { source, at_least })) => {
                format!("probability: `{}` at least {at_least}", all.defs()[source].name)
            }
            (MetricKind::Distribution { .. }, _) => {
                let what = if def.place { "distribution of places" } else { "distribution" };
                let given = def.given.map(|g| format!(", over the trials of `{}`", all.defs()[g].name));
                format!("{what}{}", given.unwrap_or_default())
            }
        };
        let _ = writeln!(out, "| `{}`{mark} | {} | {} |", def.name, cell(&kind), cell(&unlinked(&def.about)));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A config's schema as schemars writes one: a `$ref`, an optional key, a list of tables, a described
    /// choice, a table of free keys and a range.
    fn schema() -> Json {
        json!({
            "properties": {
                "run": { "$ref": "#/$defs/Run" },
                "toy": { "$ref": "#/$defs/Toy" },
            },
            "required": ["toy"],
            "$defs": {
                "Run": { "type": "object", "description": "`[run]`: how many trials.", "properties": {
                    "trials": { "type": "integer", "default": 10, "description": "Trials." },
                    "draws": { "$ref": "#/$defs/Draws", "description": "How trials draw." },
                } },
                "Draws": { "oneOf": [
                    { "const": "paired", "type": "string", "description": "One word a node." },
                    { "const": "packed", "type": "string", "description": "One number, cut." },
                ] },
                "Toy": { "type": "object", "description": "`[toy]`: a toy.", "required": ["unit"],
                    "x-order": ["zeta", "alpha"],
                    "properties": {
                        "alpha": { "type": ["integer", "null"], "minimum": 0, "maximum": 9,
                                   "description": "Alpha | beta, see [`Thing`]." },
                        "zeta": { "type": "string", "enum": ["a", "b"], "default": "a" },
                        "names": { "type": "object", "additionalProperties": { "type": "string" }, "default": {} },
                        "side": { "anyOf": [{ "$ref": "#/$defs/Draws" }, { "type": "null" }] },
                        "unit": { "type": "array", "items": { "$ref": "#/$defs/Unit" } },
                        "then": { "type": "array", "items": { "$ref": "#/$defs/Unit" }, "default": [] },
                        "rules": { "$ref": "#/$defs/Rules", "default": { "dice": 2 } },
                    } },
                "Rules": { "type": "object", "properties": { "dice": { "type": ["integer", "null"] } } },
                "Unit": { "type": "object", "required": ["name"], "properties": {
                    "name": { "type": "string", "description": "Its name." },
                    "at": { "type": "array", "items": { "type": "number" }, "default": [0.5] },
                } },
            },
        })
    }

    fn written(sample: Option<&toml::Table>) -> String {
        let mut out = String::new();
        keys(&mut out, &schema(), "toy", sample).unwrap();
        out
    }

    #[test]
    fn every_key_is_a_row_of_its_table_run_first() {
        let out = written(None);
        let at = |s: &str| out.find(s).unwrap_or_else(|| panic!("{s} in:\n{out}"));
        assert!(at("### `[run]`") < at("### `[toy]`") && at("### `[toy]`") < at("### `[[toy.unit]]`"), "{out}");
        assert!(out.contains("| `run.trials` | integer |  | `10` | Trials. |"), "{out}");
        let draws = "| `run.draws` | string | `\"paired\"`, `\"packed\"` | `\"paired\"` | How trials draw. \
                     `\"paired\"`: One word a node. `\"packed\"`: One number, cut. |";
        assert!(out.contains(draws), "the run table's unstated default is filled in:\n{out}");
        assert!(out.contains("| `toy.alpha` | integer | 0 to 9 | unset | Alpha \\| beta, see `Thing`. |"), "{out}");
        assert!(out.contains("| `toy.names` | table of strings |  | `{}` |"), "{out}");
        assert!(out.contains("| `toy.side` | string | `\"paired\"`, `\"packed\"` | unset |"), "{out}");
        assert!(out.contains("| `toy.unit[].name` | string |  | required | Its name. |"), "{out}");
        assert!(out.contains("| `toy.unit[].at` | list of numbers |  | `[0.5]` |"), "{out}");
        assert!(
            out.contains("\n\nA toy. Required.\n"),
            "the section says what its table is, without its header: {out}"
        );
        assert!(out.contains("Required: at least one table."), "{out}");
        assert!(at("`toy.zeta`") < at("`toy.alpha`") && at("`toy.alpha`") < at("`toy.names`"), "x-order: {out}");
    }

    #[test]
    fn keys_come_in_the_order_a_sample_config_declares_them() {
        let sample: toml::Table =
            toml::from_str("[toy]\nside = \"paired\"\nnames = {}\n[[toy.unit]]\nname = \"a\"\nat = []\n").unwrap();
        let mut schema = schema();
        schema["$defs"]["Toy"].as_object_mut().unwrap().remove("x-order");
        let mut out = String::new();
        keys(&mut out, &schema, "toy", Some(&sample)).unwrap();
        let at = |s: &str| out.find(s).unwrap();
        assert!(at("`toy.side`") < at("`toy.names`") && at("`toy.names`") < at("`toy.alpha`"), "{out}");
        assert!(at("`toy.alpha`") < at("`toy.zeta`"), "the rest by name: {out}");
        assert!(at("`toy.unit[].name`") < at("`toy.unit[].at`"), "{out}");
        assert!(at("`toy.then[].name`") < at("`toy.then[].at`"), "a list absent from the sample, as its type: {out}");
    }

    #[test]
    fn a_key_without_a_default_of_its_own_takes_its_tables() {
        let out = written(None);
        assert!(out.contains("| `toy.rules.dice` | integer |  | `2` |"), "{out}");
        assert!(out.contains("### `[[toy.then]]`\n\nNone by default.\n"), "{out}");
    }

    #[test]
    fn a_schema_that_holds_itself_is_refused() {
        let schema = json!({ "properties": { "toy": { "$ref": "#/$defs/Toy" } }, "$defs": {
            "Toy": { "type": "object", "properties": { "inner": { "$ref": "#/$defs/Toy" } } } } });
        let mut out = String::new();
        let refused = keys(&mut out, &schema, "toy", None).unwrap_err();
        let ReferenceError::TooDeep { at, .. } = &refused else { panic!("{refused}") };
        assert!(refused.to_string().contains("nests tables deeper than 8 levels"), "{refused}");
        assert!(at.starts_with("[toy.inner.inner"), "{refused}");
    }

    #[test]
    fn intra_doc_links_become_code() {
        assert_eq!(unlinked("a [`B`] and [`C`](x) [d"), "a `B` and [`C`](x) [d");
    }
}
