//! Pointing at the line: turns parse and resolve errors into [`ConfigError`]s with a line and a key.
//!
//! The config is parsed a second time, only on error, into toml's spanned document ([`DeTable`]). A parse
//! error's byte span is matched to the innermost key around it; a resolve error's [`KeyPath`] is followed
//! down the document to the key's own span (or to its nearest written parent, for a key left to its default).
//! Text that is not TOML has no document, so a syntax error's key is read off the lines above it instead.
//! Messages are serde's and toml's, reworded where they name Rust types or leave the fix unsaid.

use std::ops::Range;
use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::path::Seg;
use super::{ConfigError, Invalid, KeyPath, keys};

/// A serde or syntax error from parsing `src`.
pub fn parse_error(src: &str, file: &Path, err: &toml::de::Error) -> ConfigError {
    let span = err.span();
    let line = span.as_ref().map(|s| line_of(src, s.start));
    let message = plain_message(err.message());
    let Ok(doc) = DeTable::parse(src) else {
        // Not TOML at all: there is no document to search, so the key is read off the lines of text.
        let path = line.map(|l| key_on_line(src, l)).unwrap_or_default();
        let message = format!("not valid TOML: {message}{}", syntax_hint(&message));
        let key = (!path.0.is_empty()).then(|| keys::dotted(&path, |_| None));
        return ConfigError { file: file.to_owned(), line, key, message };
    };
    let mut path = span.map(|s| key_at(doc.get_ref(), s.start)).unwrap_or_default();
    let mut message = message;
    if let Some(field) = quoted_after(&message, "missing field ") {
        path = path.key(field);
        message = "missing, and required: it has no default".into();
    }
    if let Some(field) = quoted_after(&message, "unknown field ") {
        let expected = message.split_once("expected ").map_or("", |(_, e)| e);
        let near = keys::did_you_mean(field, expected.split('`').skip(1).step_by(2));
        message = format!("{message}{near}");
    }
    let key = key_name(&path, doc.get_ref());
    if let Some(key) = key.as_ref().filter(|_| message.contains("expected an array")) {
        message = format!("{message}; write each entry as its own [[{key}]] table");
    }
    ConfigError { file: file.to_owned(), line, key, message }
}

/// A resolve error at a key path of `src`.
pub fn invalid(src: &str, file: &Path, err: Invalid) -> ConfigError {
    let line = span_of(src, &err.path).map(|s| line_of(src, s.start));
    let key = match DeTable::parse(src) {
        Ok(doc) => key_name(&err.path, doc.get_ref()),
        Err(_) => (!err.path.0.is_empty()).then(|| keys::dotted(&err.path, |_| None)),
    };
    ConfigError { file: file.to_owned(), line, key, message: err.message }
}

/// The path as shown in a message, as `--set` takes it ([`keys::dotted`]: a table of a list by its name), or
/// `None` for the document root.
fn key_name(path: &KeyPath, doc: &DeTable<'_>) -> Option<String> {
    (!path.0.is_empty()).then(|| keys::dotted(path, |to| name_at(doc, to)))
}

/// The `name` of the table at `path` in `doc`, if it is written there and no earlier table of its list has
/// the same name (`--set` by that name would reach the earlier one).
fn name_at(doc: &DeTable<'_>, path: &[Seg]) -> Option<String> {
    let mut value = doc.get(path.first().and_then(|s| if let Seg::Key(k) = s { Some(k.as_str()) } else { None })?)?;
    let mut earlier = &[][..];
    for seg in &path[1..] {
        value = match (seg, value.get_ref()) {
            (Seg::Key(k), DeValue::Table(t)) => t.get(k.as_str())?,
            (Seg::Index(i), DeValue::Array(a)) => {
                earlier = &a[..(*i).min(a.len())];
                a.get(*i)?
            }
            _ => return None,
        };
    }
    let name = table_name(value.get_ref())?;
    (!earlier.iter().any(|v| table_name(v.get_ref()).as_deref() == Some(name.as_str()))).then_some(name)
}

/// The `name` a table of a list is written with.
fn table_name(value: &DeValue<'_>) -> Option<String> {
    let DeValue::Table(t) = value else { return None };
    match t.get("name")?.get_ref() {
        DeValue::String(name) => Some(name.to_string()),
        _ => None,
    }
}

/// serde's messages on one line, with Rust and serde type names in words a config writer knows.
fn plain_message(message: &str) -> String {
    let one_line = message.trim().replace('\n', " ");
    let plain = [
        ("expected i64", "expected an integer"),
        ("expected u64", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected a boolean", "expected a boolean (true or false)"),
        ("expected a sequence", "expected an array"),
        ("invalid type: map", "invalid type: table"),
        ("invalid type: sequence", "invalid type: array"),
    ]
    .iter()
    .fold(out_of_64_bits(&one_line).unwrap_or(one_line), |m, (from, to)| m.replace(from, to));
    match plain.split_once("expected struct ") {
        Some((before, after)) => {
            format!("{before}expected a table{}", after.trim_start_matches(|c: char| c.is_alphanumeric()))
        }
        None => plain,
    }
}

/// toml reads an integer too large for 64 bits as an `i128`, which serde then calls the wrong type.
fn out_of_64_bits(message: &str) -> Option<String> {
    let (number, _) = message.strip_prefix("invalid type: integer `")?.split_once("` as i128")?;
    Some(format!("integer {number} is out of range; allowed: {} to {}", i64::MIN, i64::MAX))
}

/// What a TOML syntax error most likely means, in words, after toml's own message.
fn syntax_hint(message: &str) -> &'static str {
    if message.starts_with("duplicate key") {
        " (each key and each [table] may be written only once)"
    } else if message.contains("string") && (message.contains("expected `\"`") || message.contains("expected `'`")) {
        " (an unclosed string: end it with the same quote on the same line)"
    } else if message.starts_with("key with no value") {
        " (each line must be a `key = value` pair, a [table] header, or a # comment)"
    } else {
        ""
    }
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
///
/// A table opened by a `[header]` spans only its header, not the keys under it, so every key in the document
/// is searched, not just those inside a matching parent. The smallest matching span wins, and the deeper path
/// on a tie: a table written only as part of a longer header (`game` in `[game.table]`) spans just its
/// own name, while the longer header's table spans the whole header.
fn key_at(doc: &DeTable<'_>, offset: usize) -> KeyPath {
    let mut best = None;
    search_table(doc, offset, &mut Vec::new(), &mut best);
    best.map(|(_, path)| KeyPath(path)).unwrap_or_default()
}

/// The best match so far: the length of its span, and its path.
type Best = Option<(usize, Vec<Seg>)>;

fn search_table(table: &DeTable<'_>, offset: usize, path: &mut Vec<Seg>, best: &mut Best) {
    for (k, v) in table.iter() {
        path.push(Seg::Key(k.get_ref().to_string()));
        consider(&[k.span(), v.span()], offset, path, best);
        search_value(v, offset, path, best);
        path.pop();
    }
}

fn search_value(value: &Spanned<DeValue<'_>>, offset: usize, path: &mut Vec<Seg>, best: &mut Best) {
    match value.get_ref() {
        DeValue::Table(t) => search_table(t, offset, path, best),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Seg::Index(i));
                consider(&[item.span()], offset, path, best);
                search_value(item, offset, path, best);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Records `path` as the best match if one of its `spans` holds `offset` and is smaller than the best so far.
fn consider(spans: &[Range<usize>], offset: usize, path: &[Seg], best: &mut Best) {
    let Some(len) = spans.iter().filter(|s| holds((*s).clone(), offset)).map(|s| s.len().max(1)).min() else {
        return;
    };
    if best.as_ref().is_none_or(|(b, p)| len < *b || (len == *b && path.len() > p.len())) {
        *best = Some((len, path.to_vec()));
    }
}

/// For text that is not valid TOML: the key written on 1-based `line`, read off the text line by line (the
/// last `[header]` above it, with array indexes counted from `[[header]]`s, then the key before an `=`). A best
/// effort for the message only: a `[` at the start of a line inside a multi-line string can mislead it.
fn key_on_line(src: &str, line: usize) -> KeyPath {
    let mut table = KeyPath::root();
    let mut arrays: Vec<(Vec<String>, usize)> = Vec::new();
    for text in src.lines().take(line) {
        let text = text.trim();
        let header = match text.strip_prefix("[[") {
            Some(rest) => rest.split("]]").next().and_then(split_key).map(|keys| (keys, true)),
            None => text
                .strip_prefix('[')
                .and_then(|rest| rest.split(']').next())
                .and_then(split_key)
                .map(|keys| (keys, false)),
        };
        if let Some((keys, is_array)) = header {
            if is_array {
                match arrays.iter_mut().find(|(k, _)| *k == keys) {
                    Some((_, count)) => *count += 1,
                    None => arrays.push((keys.clone(), 1)),
                }
            }
            table = KeyPath::root();
            for (i, key) in keys.iter().enumerate() {
                table = table.key(key);
                if let Some((_, count)) = arrays.iter().find(|(k, _)| k[..] == keys[..=i]) {
                    table = table.index(count - 1);
                }
            }
            continue;
        }
        if text.starts_with('[') {
            table = KeyPath::root();
        }
    }
    let text = src.lines().nth(line.saturating_sub(1)).unwrap_or_default().trim();
    match text.split_once('=').and_then(|(k, _)| split_key(k)) {
        Some(keys) if !text.starts_with('[') => keys.iter().fold(table, |p, k| p.key(k)),
        _ => table,
    }
}

/// The parts of a dotted key (`a.b`, `a."b c"`), or `None` if `text` is not one.
fn split_key(text: &str) -> Option<Vec<String>> {
    let mut keys = Vec::new();
    let mut rest = text.trim();
    loop {
        let (key, after) = match rest.chars().next()? {
            q @ ('"' | '\'') => {
                let end = rest[1..].find(q)? + 1;
                (rest[1..end].to_string(), &rest[end + 1..])
            }
            _ => {
                let end =
                    rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
                (rest[..end].to_string(), &rest[end..])
            }
        };
        if key.is_empty() && !rest.starts_with(['"', '\'']) {
            return None;
        }
        keys.push(key);
        let after = after.trim_start();
        if after.is_empty() {
            return Some(keys);
        }
        rest = after.strip_prefix('.')?.trim_start();
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
            (Seg::Key(k), DeValue::Table(t)) => {
                t.iter().find(|(key, _)| key.get_ref() == k).map(|(key, v)| (key.span(), v))
            }
            (Seg::Index(i), DeValue::Array(a)) => a.get(*i).map(|v| (v.span(), v)),
            _ => None,
        };
        let Some((span, v)) = next else { break };
        best = Some(span);
        value = v.get_ref();
    }
    best
}
