//! Reading a whole config file for one rule set: `[run]` and that rule set's table, typed by serde straight
//! from the parsed TOML [`Document`], whose values keep their places in the text, so every error keeps the
//! line of the key it is about.

use std::marker::PhantomData;

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use crate::config::run::RunConfig;

/// A config file parsed once as TOML, every key and value with its span in the text: read for which tables
/// it holds, then typed by the rule set whose table it is.
pub type Document<'a> = toml::Spanned<toml::de::DeTable<'a>>;

/// Whether the document has the top-level key `table`.
pub fn has_table(doc: &Document<'_>, table: &str) -> bool {
    doc.get_ref().keys().any(|k| k.get_ref() == table)
}

/// Types a config file's `[run]` table and its `table` (if given) as `T`, refusing any top-level key but
/// `run` and the registered `tables` with serde's own message, at the key's line.
pub fn parse_file<T: DeserializeOwned>(
    doc: Document<'_>,
    table: Option<&'static str>,
    tables: &[&'static str],
) -> Result<(RunConfig, Option<T>), toml::de::Error> {
    FileSeed::<T> { table, tables, typed: PhantomData }.deserialize(toml::de::Deserializer::from(doc))
}

struct FileSeed<'a, T> {
    table: Option<&'static str>,
    tables: &'a [&'static str],
    typed: PhantomData<T>,
}

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for FileSeed<'_, T> {
    type Value = (RunConfig, Option<T>);
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for FileSeed<'_, T> {
    type Value = (RunConfig, Option<T>);

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a config: a [run] table and one rule set's table")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut run, mut typed) = (None, None);
        while let Some(key) = map.next_key_seed(KeySeed { tables: self.tables })? {
            match key {
                "run" => run = Some(map.next_value::<RunConfig>()?),
                k if Some(k) == self.table => typed = Some(map.next_value::<T>()?),
                _ => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        Ok((run.unwrap_or_default(), typed))
    }
}

/// A top-level key: `run` or a registered table, else serde's "unknown field" error at the key.
struct KeySeed<'a> {
    tables: &'a [&'static str],
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = &'static str;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = &'static str;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a table name")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        if v == "run" {
            return Ok("run");
        }
        self.tables.iter().copied().find(|t| *t == v).ok_or_else(|| {
            let allowed: Vec<String> = std::iter::once("run").chain(self.tables.iter().copied()).map(quoted).collect();
            E::custom(format!("unknown field `{v}`, expected {}", one_of(&allowed)))
        })
    }
}

fn quoted(name: &str) -> String {
    format!("`{name}`")
}

/// serde's wording of a list of choices: "`a`", "`a` or `b`", "one of `a`, `b`, `c`".
fn one_of(names: &[String]) -> String {
    match names {
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        _ => format!("one of {}", names.join(", ")),
    }
}

/// For a file with no rule set's table: parses `[run]` and refuses unknown top-level keys, so such a file
/// gets the same errors, in the same order, as one with a table.
pub fn parse_run_only(doc: Document<'_>, tables: &[&'static str]) -> Result<RunConfig, toml::de::Error> {
    parse_file::<IgnoredAny>(doc, None, tables).map(|(run, _)| run)
}
