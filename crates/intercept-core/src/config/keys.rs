//! How a key is written: read in either form, printed in one, and a near name suggested for a mistyped one.
//!
//! A table of a list (`[[fleet.group]]`) can be named by its index, `fleet.group[0].spotting` or
//! `fleet.group.0.spotting`, or by its `name`, `fleet.group.taranto.spotting`. [`parts`] reads all three.
//! Every message and output prints one form, the one a user can paste into `--set` and that says which
//! table is meant without counting: the name where the table has one ([`element`]), else the index, dotted
//! ([`dotted`]). [`did_you_mean`] finds the nearest of the names a level allows, by edit distance.

use super::path::{KeyPath, Seg};

/// The parts of a dotted key, with an index in brackets read as one more part: `a.b[0].c` is `a`, `b`, `0`, `c`.
pub fn parts(key: &str) -> Vec<&str> {
    key.split('.').flat_map(|part| part.split(['[', ']']).filter(|p| !p.is_empty()).collect::<Vec<_>>()).collect()
}

/// How a key names table `index` of a list whose `name` is `name`: by the name, unless it would read as an
/// index or split at a dot.
pub fn element(name: Option<&str>, index: usize) -> String {
    match name {
        Some(name) if name.parse::<usize>().is_err() && !name.contains('.') && !name.is_empty() => name.to_owned(),
        _ => index.to_string(),
    }
}

/// `path` in the printed form, each index replaced by what `name_at` says the table at that point is called
/// (its `name`, if it has one): `fleet.group[0].spotting` is `fleet.group.taranto.spotting`.
pub fn dotted(path: &KeyPath, name_at: impl Fn(&[Seg]) -> Option<String>) -> String {
    let mut out: Vec<String> = Vec::with_capacity(path.0.len());
    for (i, seg) in path.0.iter().enumerate() {
        out.push(match seg {
            Seg::Key(k) => k.clone(),
            Seg::Index(n) => element(name_at(&path.0[..=i]).as_deref(), *n),
        });
    }
    out.join(".")
}

/// `"; did you mean 'x'?"` when one of `known` is near `word` (at most a third of its letters off, at least
/// one), else nothing.
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let most = (word.chars().count() / 3).max(1);
    let near = known.into_iter().map(|k| (edits(word, k), k)).filter(|(d, _)| *d <= most).min_by_key(|(d, _)| *d);
    near.map_or_else(String::new, |(_, k)| format!("; did you mean '{k}'?"))
}

/// The Levenshtein distance: the fewest letters inserted, deleted or changed to turn `a` into `b`.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            (diagonal, row[j + 1]) = (row[j + 1], next);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_read_the_same() {
        assert_eq!(parts("fleet.group[0].spotting"), ["fleet", "group", "0", "spotting"]);
        assert_eq!(parts("fleet.group.0.spotting"), ["fleet", "group", "0", "spotting"]);
        assert_eq!(parts("fleet.fire.check_hits[6]"), ["fleet", "fire", "check_hits", "6"]);
    }

    #[test]
    fn an_index_prints_as_the_tables_name() {
        let path = KeyPath::root().key("fleet").key("group").index(0).key("spotting");
        let named = dotted(&path, |_| Some("taranto".into()));
        assert_eq!(named, "fleet.group.taranto.spotting");
        assert_eq!(dotted(&path, |_| None), "fleet.group.0.spotting");
        assert_eq!(dotted(&path, |_| Some("7".into())), "fleet.group.0.spotting");
    }

    #[test]
    fn near_names_are_suggested() {
        assert_eq!(edits("tarnto", "taranto"), 1);
        assert_eq!(did_you_mean("tarnto", ["messina", "taranto"]), "; did you mean 'taranto'?");
        assert_eq!(did_you_mean("spoting", ["spotting", "distance"]), "; did you mean 'spotting'?");
        assert_eq!(did_you_mean("xyz", ["spotting", "distance"]), "");
    }
}
