//! One form edit made in a config's TOML text, keeping everything else as it was written (comments, order,
//! spacing): what the editor's every change does (`POST /api/set`). [`edit`] makes an [`Edit`] with a
//! format-preserving TOML editor (toml_edit): a value replaced keeps the comment after it, a key added goes
//! after its table's last value, a table added to a list (`[[game.unit]]`) goes after the list's last one,
//! and a key or list item removed takes only its own lines (the comment introducing a list stays with it). It then checks that the new text reads as the
//! old one with only that change made, and refuses otherwise (the editor then says so and changes nothing).

use toml_edit::{ArrayOfTables, DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// One step of a key's path: a table's key or a list's index.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(untagged)]
pub enum Part {
    Key(String),
    Index(usize),
}

intercept_output::refusal! {
    /// Why an edit of a config's text cannot be made: what is wrong, in one sentence.
    BadEdit
}

/// A change to the text.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// The key at the path set to a TOML literal, or removed (`None`).
    Set(Option<String>),
    /// An empty table added at the end of the list of tables at the path.
    Append,
    /// The list item at the path (ending with its index) removed.
    Remove,
}

/// `text` with `edit` made at `path`.
pub fn edit(text: &str, path: &[Part], edit: &Edit) -> Result<String, BadEdit> {
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| e.message().to_owned())?;
    match edit {
        Edit::Set(literal) => set(doc.as_table_mut(), path, literal.as_deref())?,
        Edit::Append => append(doc.as_table_mut(), path)?,
        Edit::Remove => remove_item(doc.as_table_mut(), path)?,
    }
    let edited = doc.to_string();
    check(text, &edited, path, edit)?;
    Ok(edited)
}

/// `key = literal` in the table at `parents` (made when missing), keeping the comment after an old value.
fn set(root: &mut Table, path: &[Part], literal: Option<&str>) -> Result<(), BadEdit> {
    let Some((Part::Key(key), parents)) = path.split_last() else {
        return Err(BadEdit::from("the path must end with a key"));
    };
    let Some(literal) = literal else {
        if let Ok(table) = table_at(root, parents, false) {
            table.remove(key);
        }
        return Ok(());
    };
    let mut value: Value = literal.parse().map_err(|e: toml_edit::TomlError| format!("{literal}: {}", e.message()))?;
    let table = table_at(root, parents, true)?;
    match table.get_mut(key) {
        Some(Item::Value(old)) => {
            *value.decor_mut() = old.decor().clone();
            *old = value;
        }
        Some(_) => return Err(BadEdit::from(format!("{key} is a table, not a value"))),
        None => {
            table.insert(key, Item::Value(value));
        }
    }
    Ok(())
}

/// A new empty table at the end of the list at `path` (the list made when missing).
fn append(root: &mut Table, path: &[Part]) -> Result<(), BadEdit> {
    let Some((Part::Key(key), parents)) = path.split_last() else {
        return Err(BadEdit::from("the path must end with a key"));
    };
    let table = table_at(root, parents, true)?;
    match table.get_mut(key) {
        Some(Item::ArrayOfTables(list)) => list.push(Table::new()),
        Some(Item::Value(Value::Array(list))) => list.push(InlineTable::new()),
        Some(_) => return Err(BadEdit::from(format!("{key} is not a list of tables"))),
        None => {
            let mut list = ArrayOfTables::new();
            list.push(Table::new());
            table.insert(key, Item::ArrayOfTables(list));
        }
    }
    Ok(())
}

/// Removes the list item at `path` (a key, then the item's index).
fn remove_item(root: &mut Table, path: &[Part]) -> Result<(), BadEdit> {
    let Some((Part::Index(i), rest)) = path.split_last() else {
        return Err(BadEdit::from("the path must end with an index"));
    };
    let Some((Part::Key(key), parents)) = rest.split_last() else {
        return Err(BadEdit::from("an index must follow a key"));
    };
    let table = table_at(root, parents, false)?;
    let missing = || format!("{key} has no item {i}");
    match table.get_mut(key) {
        Some(Item::ArrayOfTables(list)) if *i < list.len() => {
            // The comment above a list's first table introduces the list: it stays, on the new first one.
            let intro = (*i == 0).then(|| list.get(0).map(|t| t.decor().clone())).flatten();
            list.remove(*i);
            if let (Some(intro), Some(first)) = (intro, list.get_mut(0)) {
                let bare = first.decor().prefix().and_then(|p| p.as_str()).is_none_or(|p| p.trim().is_empty());
                if bare {
                    first.decor_mut().set_prefix(intro.prefix().and_then(|p| p.as_str()).unwrap_or("").to_owned());
                }
            }
        }
        Some(Item::Value(Value::Array(list))) if *i < list.len() => {
            list.remove(*i);
        }
        _ => return Err(missing().into()),
    }
    Ok(())
}

/// The table (or inline table) at `path` under `table`, missing tables made when `make`.
fn table_at<'a>(table: &'a mut dyn TableLike, path: &[Part], make: bool) -> Result<&'a mut dyn TableLike, BadEdit> {
    let Some((first, rest)) = path.split_first() else { return Ok(table) };
    let Part::Key(key) = first else { return Err(BadEdit::from("an index must follow a key")) };
    if make && table.get(key).is_none() {
        // A table made only to hold another is implicit: no empty `[a]` header above `[a.b]`.
        let mut made = Table::new();
        made.set_implicit(true);
        table.insert(key, Item::Table(made));
    }
    let not_there = || format!("the table {key} is not in the text");
    let item = table.get_mut(key).ok_or_else(not_there)?;
    let (index, after) = match rest.split_first() {
        Some((Part::Index(i), after)) => (Some(*i), after),
        _ => (None, rest),
    };
    let no_item = || format!("{key} has no item {}", index.unwrap_or(0));
    match (item, index) {
        (Item::ArrayOfTables(list), Some(i)) => table_at(list.get_mut(i).ok_or_else(no_item)?, after, make),
        (Item::Value(Value::Array(list)), Some(i)) => match list.get_mut(i) {
            Some(Value::InlineTable(t)) => table_at(t, after, make),
            _ => Err(no_item().into()),
        },
        (item, None) => table_at(item.as_table_like_mut().ok_or_else(not_there)?, after, make),
        _ => Err(BadEdit::from(format!("{key} is not a list"))),
    }
}

/// Refuses an edit unless the new text reads as the old with only that change made.
fn check(old: &str, new: &str, path: &[Part], edit: &Edit) -> Result<(), BadEdit> {
    let mut expected: toml::Value = toml::from_str(old).map_err(|e| e.message().to_owned())?;
    expect(&mut expected, path, edit)?;
    let got: toml::Value = toml::from_str(new).map_err(|e| format!("the edit does not read: {}", e.message()))?;
    if got != expected {
        return Err(BadEdit::from("the edit would change more than the key".to_owned()));
    }
    Ok(())
}

/// What `edit` at `path` makes of the parsed document.
fn expect(doc: &mut toml::Value, path: &[Part], edit: &Edit) -> Result<(), BadEdit> {
    let value = match edit {
        Edit::Set(Some(l)) => Some(l.parse::<toml::Value>().map_err(|e| format!("{l}: {}", e.message()))?),
        _ => None,
    };
    let lost = || "the key's table is not in the text".to_owned();
    let (last, parents) = path.split_last().ok_or_else(lost)?;
    let mut here = doc;
    for part in parents {
        here = match (here, part) {
            (toml::Value::Table(t), Part::Key(k)) => t.entry(k.clone()).or_insert_with(|| toml::Table::new().into()),
            (toml::Value::Array(a), Part::Index(i)) => a.get_mut(*i).ok_or_else(lost)?,
            _ => return Err(lost().into()),
        };
    }
    match (here, last, edit) {
        (toml::Value::Table(t), Part::Key(k), Edit::Set(_)) => {
            match value {
                Some(v) => t.insert(k.clone(), v),
                None => t.remove(k),
            };
        }
        (toml::Value::Table(t), Part::Key(k), Edit::Append) => {
            let list = t.entry(k.clone()).or_insert_with(|| toml::Value::Array(Vec::new()));
            list.as_array_mut().ok_or_else(lost)?.push(toml::Table::new().into());
        }
        (toml::Value::Array(a), Part::Index(i), Edit::Remove) if *i < a.len() => {
            a.remove(*i);
        }
        _ => return Err(lost().into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# top comment\n[run]\nname = \"x\" # the name\ntrials = 10\n\n[a]\nb = 1   # keep me\n\n# the items\n[[a.item]]\nname = \"p\"\nd = 2 # two\n\n# the second\n[[a.item]]\nname = \"q\"\n";

    fn path(parts: &[&str]) -> Vec<Part> {
        parts.iter().map(|p| p.parse().map_or(Part::Key(p.to_string()), Part::Index)).collect()
    }

    fn set_key(text: &str, at: &[Part], literal: Option<&str>) -> Result<String, BadEdit> {
        edit(text, at, &Edit::Set(literal.map(str::to_owned)))
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
        assert!(!out.contains("b = 1") && out.contains("[a]\n\n# the items"), "{out}");
        let out = set_key(TEXT, &path(&["c", "e"]), Some("true")).unwrap();
        assert!(out.ends_with("\n[c]\ne = true\n"), "{out}");
        let out = set_key("[a]\n[a.x]\ny = 1\n", &path(&["a", "z"]), Some("1")).unwrap();
        assert_eq!(toml::from_str::<toml::Value>(&out).unwrap()["a"]["z"].as_integer(), Some(1), "{out}");
    }

    #[test]
    fn a_list_item_is_added_and_removed_keeping_every_comment() {
        let out = edit(TEXT, &path(&["a", "item"]), &Edit::Append).unwrap();
        assert!(out.starts_with(TEXT.trim_end()) && out.ends_with("\n[[a.item]]\n"), "{out}");
        let out = edit(TEXT, &path(&["a", "item", "0"]), &Edit::Remove).unwrap();
        for kept in ["# top comment", "# the name", "# keep me", "# the second", "name = \"q\""] {
            assert!(out.contains(kept), "{kept}: {out}");
        }
        assert!(!out.contains("name = \"p\"") && !out.contains("# two"), "{out}");
        let out = edit("[run]\nname = \"x\"\n", &path(&["game", "unit"]), &Edit::Append).unwrap();
        assert!(out.ends_with("[[game.unit]]\n") && !out.contains("[game]\n"), "{out}");
        assert!(edit(TEXT, &path(&["a", "item", "5"]), &Edit::Remove).is_err(), "no such item");
    }

    #[test]
    fn an_edit_that_cannot_be_made_is_refused() {
        assert!(set_key("a = 1 b = 2", &path(&["a"]), Some("3")).is_err(), "not TOML");
        assert!(set_key(TEXT, &path(&["a", "b"]), Some("1 2")).is_err(), "not a value");
        assert!(set_key(TEXT, &path(&["a", "item"]), Some("1")).is_err(), "a list of tables is no value");
    }
}
