//! Pointing at the line: turns parse and resolve errors into [`ConfigError`]s with a line and a key.
//!
//! The config is parsed a second time, only on error, into toml's spanned document ([`DeTable`]). A parse
//! error's byte span is matched to the innermost key around it; a resolve error's [`KeyPath`] is followed
//! down the document to the key's own span (or to its nearest written parent, for a key left to its default).

use std::ops::Range;
use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::path::Seg;
use super::{ConfigError, Invalid, KeyPath};

/// A serde or syntax error from parsing `src`.
pub fn parse_error(src: &str, file: &Path, err: &toml::de::Error) -> ConfigError {
    let span = err.span();
    let mut path = span.clone().map(|s| key_at(src, s.start)).unwrap_or_default();
    let message = plain_message(err.message());
    if let Some(field) = quoted_after(&message, "missing field ") {
        path = path.key(field);
    }
    let key = (!path.0.is_empty()).then(|| path.to_string());
    let message = if key.is_none() && DeTable::parse(src).is_err() { format!("not valid TOML: {message}") } else { message };
    ConfigError { file: file.to_owned(), line: span.map(|s| line_of(src, s.start)), key, message }
}

/// A resolve error at a key path of `src`.
pub fn invalid(src: &str, file: &Path, err: Invalid) -> ConfigError {
    let line = span_of(src, &err.path).map(|s| line_of(src, s.start));
    let key = (!err.path.0.is_empty()).then(|| err.path.to_string());
    ConfigError { file: file.to_owned(), line, key, message: err.message }
}

/// serde's messages on one line, with Rust type names in words a config writer knows.
fn plain_message(message: &str) -> String {
    let one_line = message.trim().replace('\n', " ");
    [("expected i64", "expected an integer"), ("expected u64", "expected a whole number"), ("expected f64", "expected a number")]
        .iter()
        .fold(one_line, |m, (from, to)| m.replace(from, to))
}

/// The text between backticks right after `prefix` in `message`, if the message starts with `prefix`.
fn quoted_after<'m>(message: &'m str, prefix: &str) -> Option<&'m str> {
    message.strip_prefix(prefix)?.strip_prefix('`')?.split('`').next()
}

/// The 1-based line of byte `offset`.
fn line_of(src: &str, offset: usize) -> usize {
    src[..offset.min(src.len())].matches('\n').count() + 1
}

/// The path of the innermost key whose name or value holds byte `offset`.
fn key_at(src: &str, offset: usize) -> KeyPath {
    let mut path = KeyPath::root();
    if let Ok(doc) = DeTable::parse(src) {
        descend_table(doc.get_ref(), offset, &mut path);
    }
    path
}

fn descend_table(table: &DeTable<'_>, offset: usize, path: &mut KeyPath) {
    let hit = table.iter().find(|(k, v)| holds(k.span(), offset) || holds(v.span(), offset));
    if let Some((k, v)) = hit {
        path.0.push(Seg::Key(k.get_ref().to_string()));
        descend_value(v, offset, path);
    }
}

fn descend_value(value: &Spanned<DeValue<'_>>, offset: usize, path: &mut KeyPath) {
    match value.get_ref() {
        DeValue::Table(t) => descend_table(t, offset, path),
        DeValue::Array(items) => {
            if let Some((i, item)) = items.iter().enumerate().find(|(_, v)| holds(v.span(), offset)) {
                path.0.push(Seg::Index(i));
                descend_value(item, offset, path);
            }
        }
        _ => {}
    }
}

fn holds(span: Range<usize>, offset: usize) -> bool {
    span.start <= offset && offset < span.end.max(span.start + 1)
}

/// The span of the key at `path`, or of its nearest parent that is written in the file.
fn span_of(src: &str, path: &KeyPath) -> Option<Range<usize>> {
    let doc = DeTable::parse(src).ok()?;
    let mut best = None;
    let mut value: &DeValue<'_> = &DeValue::Table(doc.get_ref().clone());
    for seg in &path.0 {
        let next = match (seg, value) {
            (Seg::Key(k), DeValue::Table(t)) => t.iter().find(|(key, _)| key.get_ref() == k).map(|(key, v)| (key.span(), v)),
            (Seg::Index(i), DeValue::Array(a)) => a.get(*i).map(|v| (v.span(), v)),
            _ => None,
        };
        let Some((span, v)) = next else { break };
        best = Some(span);
        value = v.get_ref();
    }
    best
}
