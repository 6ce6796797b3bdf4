//! Setting one key in a config's TOML text, keeping everything else as it was written (comments, order,
//! spacing): what a form edit in the editor does (`POST /api/set`). [`set_key`] finds the key with the TOML
//! parser's byte spans and replaces its value's text, inserts a line after the last value of its table, or
//! removes its line; then checks that the new text reads as the old one with only that key changed, and
//! refuses otherwise (the editor then writes the whole text from the form).

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// One step of a key's path: a table's key or an array's index.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(untagged)]
pub enum Part {
    Key(String),
    Index(usize),
}

/// `text` with the key at `path` set to the TOML `literal` (removed when `None`).
pub fn set_key(text: &str, path: &[Part], literal: Option<&str>) -> Result<String, String> {
    let (last, parents) = match path.split_last() {
        Some((Part::Key(k), parents)) => (k.as_str(), parents),
        _ => return Err("the path must end with a key".to_owned()),
    };
    let root = DeTable::parse(text).map_err(|e| e.message().to_owned())?;
    let table = walk(root.get_ref(), parents);
    let edited = match (table, table.and_then(|t| entry(t, last)), literal) {
        (_, Some(value), Some(lit)) => splice(text, value.span(), lit),
        (_, Some(value), None) => remove_line(text, value.span())?,
        (_, None, None) => text.to_owned(),
        (Some(table), None, Some(lit)) => insert(text, table, last, lit)?,
        (None, None, Some(lit)) => append_table(text, parents, last, lit)?,
    };
    check(text, &edited, path, literal)?;
    Ok(edited)
}

/// The table at `path` under `table`, if every step is there.
fn walk<'a, 'i>(table: &'a DeTable<'i>, path: &[Part]) -> Option<&'a DeTable<'i>> {
    let Some((first, rest)) = path.split_first() else { return Some(table) };
    let Part::Key(key) = first else { return None };
    let mut value = entry(table, key)?.get_ref();
    let mut rest = rest;
    while let (DeValue::Array(items), Some((Part::Index(i), more))) = (value, rest.split_first()) {
        value = items.get(*i)?.get_ref();
        rest = more;
    }
    match value {
        DeValue::Table(t) => walk(t, rest),
        _ => None,
    }
}

fn entry<'a, 'i>(table: &'a DeTable<'i>, key: &str) -> Option<&'a Spanned<DeValue<'i>>> {
    table.iter().find(|(k, _)| k.get_ref().as_ref() == key).map(|(_, v)| v)
}

fn splice(text: &str, span: Range<usize>, with: &str) -> String {
    [&text[..span.start], with, &text[span.end..]].concat()
}

/// The end of the line holding byte `at` (before its newline).
fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |n| at + n)
}

/// Removes the line of the value at `span` (its key's line, when the value ends it).
fn remove_line(text: &str, span: Range<usize>) -> Result<String, String> {
    let start = text[..span.start].rfind('\n').map_or(0, |n| n + 1);
    let end = line_end(text, span.end);
    let rest = text[span.end..end].trim_start();
    if !(rest.is_empty() || rest.starts_with('#')) {
        return Err("the key shares its line with another".to_owned());
    }
    Ok([&text[..start], &text[(end + 1).min(text.len())..]].concat())
}

/// A new `key = literal` line after the table's last plain value.
fn insert(text: &str, table: &DeTable, key: &str, literal: &str) -> Result<String, String> {
    let plain = table.values().filter(|v| !matches!(v.get_ref(), DeValue::Table(_) | DeValue::Array(_)));
    let last = plain.map(|v| v.span().end).max().ok_or("the table has no value to write the key after")?;
    let at = line_end(text, last);
    Ok(splice(text, at..at, &format!("\n{} = {literal}", bare(key))))
}

/// A new table at the end of the text holding `key = literal`, when the path has no array in it.
fn append_table(text: &str, parents: &[Part], key: &str, literal: &str) -> Result<String, String> {
    let names: Option<Vec<String>> =
        parents.iter().map(|p| if let Part::Key(k) = p { Some(bare(k)) } else { None }).collect();
    let names = names.filter(|n| !n.is_empty()).ok_or("the key's table is in a list that does not have it")?;
    let gap = if text.ends_with('\n') { "" } else { "\n" };
    Ok(format!("{text}{gap}\n[{}]\n{} = {literal}\n", names.join("."), bare(key)))
}

fn bare(key: &str) -> String {
    let plain = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain { key.to_owned() } else { serde_json::to_string(key).expect("a string") }
}

/// Refuses an edit unless the new text reads as the old with only the key at `path` changed.
fn check(old: &str, new: &str, path: &[Part], literal: Option<&str>) -> Result<(), String> {
    let mut expected: toml::Value = toml::from_str(old).map_err(|e| e.message().to_owned())?;
    let value = literal
        .map(|l| toml::from_str::<toml::Table>(&format!("v = {l}")).map_err(|e| format!("{l}: {}", e.message())))
        .transpose()?
        .and_then(|mut t| t.remove("v"));
    put(&mut expected, path, value).ok_or("the key's table is not in the text")?;
    let got: toml::Value = toml::from_str(new).map_err(|e| format!("the edit does not read: {}", e.message()))?;
    if got != expected {
        return Err("the edit would change more than the key".to_owned());
    }
    Ok(())
}

/// Sets (or removes) the value at `path` of `doc`, making missing tables.
fn put(doc: &mut toml::Value, path: &[Part], value: Option<toml::Value>) -> Option<()> {
    let (last, parents) = path.split_last()?;
    let mut here = doc;
    for part in parents {
        here = match (here, part) {
            (toml::Value::Table(t), Part::Key(k)) => t.entry(k.clone()).or_insert_with(|| toml::Table::new().into()),
            (toml::Value::Array(a), Part::Index(i)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    let (toml::Value::Table(t), Part::Key(k)) = (here, last) else { return None };
    match value {
        Some(v) => t.insert(k.clone(), v),
        None => t.remove(k),
    };
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# top comment\n[run]\nname = \"x\" # the name\ntrials = 10\n\n[a]\nb = 1   # keep me\n\n[[a.item]]\nname = \"p\"\nd = 2 # two\n\n[[a.item]]\nname = \"q\"\n";

    fn path(parts: &[&str]) -> Vec<Part> {
        parts.iter().map(|p| p.parse().map_or(Part::Key(p.to_string()), Part::Index)).collect()
    }

    #[test]
    fn a_value_is_replaced_in_place_keeping_comments() {
        let out = set_key(TEXT, &path(&["a", "item", "0", "d"]), Some("7")).unwrap();
        assert_eq!(out, TEXT.replace("d = 2 # two", "d = 7 # two"));
        let out = set_key(TEXT, &path(&["a", "b"]), Some("2.5")).unwrap();
        assert!(out.contains("b = 2.5   # keep me") && out.starts_with("# top comment"));
    }

    #[test]
    fn a_missing_key_is_added_after_its_table_and_a_cleared_one_removed() {
        let out = set_key(TEXT, &path(&["a", "item", "1", "d"]), Some("3")).unwrap();
        assert!(out.ends_with("name = \"q\"\nd = 3\n"), "{out}");
        let out = set_key(TEXT, &path(&["a", "b"]), None).unwrap();
        assert!(!out.contains("b = 1") && out.contains("[a]\n\n[[a.item]]"), "{out}");
        let out = set_key(TEXT, &path(&["c", "e"]), Some("true")).unwrap();
        assert!(out.ends_with("\n[c]\ne = true\n"), "{out}");
    }

    #[test]
    fn an_edit_that_cannot_be_made_in_place_is_refused() {
        assert!(set_key("a = 1 b = 2", &path(&["a"]), Some("3")).is_err(), "not TOML");
        assert!(set_key("[a]\n[a.x]\ny = 1\n", &path(&["a", "z"]), Some("1")).is_err(), "no value to follow");
        assert!(set_key(TEXT, &path(&["a", "b"]), Some("1 2")).is_err(), "not a value");
    }
}
