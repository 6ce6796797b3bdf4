//! `intercept-sim init`: a rule set's starter config, every key written out with a comment saying what it
//! means, its allowed values, range and default.
//!
//! Nothing here is written by hand per key, so the comments never drift from the rules: the values are the
//! rule set's small starter scenario ([`crate::ruleset::Entry::starter`]) resolved like any config, every
//! default filled in, and the comments are read from the same JSON Schema that `intercept-sim schema`
//! prints ([`crate::ruleset::Entry::schema`]). [`commented`] writes the file; a [`Schema`] walks the schema
//! beside the TOML table it describes.

use std::fmt::Write;
use std::path::Path;

use serde_json::Value as Json;
use toml::Value;

use super::{ConfigError, Overrides, Scenario, from_str};
use crate::ruleset::{Entry, Registry};

/// Widest comment line written, so the file reads in a terminal.
const WIDTH: usize = 110;

/// The starter config of rule set `set`, as it would be written to `file` (whose name becomes the run's
/// name), commented from the schema. `None` when the rule set ships no starter.
pub fn commented(set: &'static dyn Entry, file: &Path) -> Option<Result<String, ConfigError>> {
    let src = set.starter()?;
    Some(resolved(set, file)?.map(|scenario| {
        let table = toml::Table::try_from(&scenario.config).expect("a resolved config is a TOML table");
        let schema = set.schema();
        let mut out = header(set, src);
        Schema { defs: &schema["$defs"] }.sections(&mut out, "", &table, &schema, true);
        out
    }))
}

/// The starter config of rule set `set` resolved as if read from `file` (whose name becomes the run's name),
/// every default filled in: what [`commented`] writes out, as a value. `None` when the rule set ships none.
pub fn resolved(set: &'static dyn Entry, file: &Path) -> Option<Result<Scenario, ConfigError>> {
    Some(from_str(&Registry::new(vec![set]), set.starter()?, file, Overrides::default()))
}

/// The starter's own opening comment (its situation), then how to use the file.
fn header(set: &dyn Entry, src: &str) -> String {
    let mut out =
        format!("# A starter config for the {} ([{}]), written by `intercept-sim init`.\n", set.title(), set.table());
    for line in src.lines().take_while(|l| l.starts_with('#')) {
        let _ = writeln!(out, "{line}");
    }
    out + "#\n# Every key is written out with its value; each comment says what the key means, with the rules it\n\
        # follows, its allowed values and its default. Keys left at their default may be deleted.\n\
        #   intercept-sim validate FILE    check it\n#   intercept-sim exact FILE       exact odds\n\
        #   intercept-sim run FILE         seeded trials, report.html\n"
}

/// The schema's definitions, to follow `$ref`s.
struct Schema<'a> {
    defs: &'a Json,
}

impl Schema<'_> {
    /// What `node` stands for once its `$ref` (or an optional value's non-null choice) is followed.
    fn resolve<'a>(&'a self, node: &'a Json) -> &'a Json {
        if let Some(name) = node["$ref"].as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
            return self.resolve(&self.defs[name]);
        }
        let choices = node["anyOf"].as_array().or(node["allOf"].as_array());
        match choices.and_then(|c| c.iter().find(|n| n["type"] != "null")) {
            Some(inner) => self.resolve(inner),
            None => node,
        }
    }

    /// The schema of key `key` of a table described by `node`.
    fn property<'a>(&'a self, node: &'a Json, key: &str) -> &'a Json {
        &self.resolve(node)["properties"][key]
    }

    /// Whether `value`, described by `node`, is written as its own `[table]` or `[[table]]` section: a table
    /// whose keys the schema names (a map of free keys is written inline).
    fn is_section(&self, node: &Json, value: &Value) -> bool {
        let named = |n: &Json| self.resolve(n)["properties"].is_object();
        match value {
            Value::Table(_) => named(node),
            Value::Array(items) => !items.is_empty() && items.iter().all(Value::is_table) && named(&node["items"]),
            _ => false,
        }
    }

    /// The table at `path`: its plain keys, then each sub-table as a section, as TOML requires. Keys are
    /// `commented` but in the second and later tables of an array, which repeat the first one's keys.
    fn sections(&self, out: &mut String, path: &str, table: &toml::Table, node: &Json, commented: bool) {
        for (key, value) in table.iter().filter(|(k, v)| !self.is_section(self.property(node, k), v)) {
            if commented {
                self.comment(out, self.property(node, key));
            }
            let _ = writeln!(out, "{key} = {value}");
        }
        for (key, value) in table.iter().filter(|(k, v)| self.is_section(self.property(node, k), v)) {
            let (prop, inner) =
                (self.property(node, key), if path.is_empty() { key.clone() } else { format!("{path}.{key}") });
            match value {
                Value::Table(t) => self.section(out, (&format!("[{inner}]"), &inner), prop, prop, t, commented),
                Value::Array(items) => {
                    for (n, t) in items.iter().filter_map(Value::as_table).enumerate() {
                        let first = commented && n == 0;
                        self.section(out, (&format!("[[{inner}]]"), &inner), prop, &prop["items"], t, first);
                    }
                }
                _ => unreachable!("a section is a table or an array of tables"),
            }
        }
    }

    /// One section: a blank line, what the table is (unless not `commented`), its header, then its keys.
    fn section(
        &self,
        out: &mut String,
        (header, path): (&str, &str),
        prop: &Json,
        node: &Json,
        table: &toml::Table,
        commented: bool,
    ) {
        out.push('\n');
        if commented {
            let about = prop["description"].as_str().or(self.resolve(node)["description"].as_str());
            wrapped(out, "", about.unwrap_or_default());
        }
        let _ = writeln!(out, "{header}");
        self.sections(out, path, table, node, commented);
    }

    /// A key's comment: its description, then one line of facts (type, allowed values, range, default).
    fn comment(&self, out: &mut String, prop: &Json) {
        let inner = self.resolve(prop);
        let about = prop["description"].as_str().or(inner["description"].as_str()).unwrap_or_default();
        wrapped(out, "", about);
        self.allowed(out, inner);
        let mut line: Vec<String> = kind(inner).into_iter().collect();
        line.extend(range(inner));
        line.extend(prop.get("default").and_then(short).map(|d| format!("default: {d}")));
        if !line.is_empty() {
            wrapped(out, "", &line.join("; "));
        }
    }

    /// The allowed values of a choice: one line for a plain list, one line each when they are described.
    fn allowed(&self, out: &mut String, inner: &Json) {
        if let Some(values) = inner["enum"].as_array() {
            let names: Vec<String> = values.iter().map(|v| v.as_str().map_or(v.to_string(), str::to_owned)).collect();
            wrapped(out, "", &format!("allowed: {}", names.join(", ")));
        }
        for choice in inner["oneOf"].as_array().into_iter().flatten() {
            let name = choice["const"].as_str().or(choice["enum"][0].as_str()).unwrap_or("?");
            let about = choice["description"].as_str().unwrap_or_default().split_whitespace().collect::<Vec<_>>();
            let line = if about.is_empty() { name.to_owned() } else { format!("{name}: {}", about.join(" ")) };
            wrapped(out, "    ", &line);
        }
    }
}

/// What kind of value a key takes, in words, for the types a reader might misjudge.
fn kind(node: &Json) -> Option<String> {
    let word = match node["type"].as_str()? {
        "integer" => "a whole number",
        "number" => "a number",
        "boolean" => "true or false",
        "array" => "a list",
        _ => return None,
    };
    Some(word.to_owned())
}

/// The key's range, when the schema states one.
fn range(node: &Json) -> Option<String> {
    match (node["minimum"].as_f64(), node["maximum"].as_f64()) {
        (Some(lo), Some(hi)) => Some(format!("from {lo} to {hi}")),
        (Some(lo), None) => Some(format!("at least {lo}")),
        (None, Some(hi)) => Some(format!("at most {hi}")),
        (None, None) => None,
    }
}

/// A default short enough for one comment line, in TOML's spelling; none for a value left unset.
fn short(default: &Json) -> Option<String> {
    let text = match default {
        Json::Object(_) => return None,
        Json::Null => return None,
        other => other.to_string(),
    };
    (text.len() <= 60).then_some(text)
}

/// `text` as comment lines at most [`WIDTH`] wide, each line after the first of a paragraph indented by
/// `indent` more; the text's own line breaks are kept.
fn wrapped(out: &mut String, indent: &str, text: &str) {
    for paragraph in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut line = format!("# {indent}");
        for word in paragraph.split_whitespace() {
            if line.len() + word.len() + 1 > WIDTH && line.trim_end().len() > 2 + indent.len() {
                let _ = writeln!(out, "{}", line.trim_end());
                line = format!("# {indent}  ");
            }
            line.push_str(word);
            line.push(' ');
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_comments_wrap_and_keep_their_line_breaks() {
        let mut out = String::new();
        let long = "word ".repeat(40);
        wrapped(&mut out, "", &format!("{long}\nsecond"));
        assert!(out.lines().all(|l| l.len() <= WIDTH && l.starts_with('#')), "{out}");
        assert_eq!(out.lines().last(), Some("# second"));
    }
}
