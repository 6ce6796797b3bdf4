//! `[naval.map]`: the hex map a scenario is fought on, written inline or read from a map file that several
//! scenarios share ([`MapConfig`]). A map file is TOML holding one `[map]` table with the same keys as an
//! inline map; it is read once as the scenario loads ([`MapConfig::include`]) and then held inline, its file
//! name kept in `source`, so a manifest records the whole map and nothing reads the file again.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Theater;
use crate::config::KeyPath;
use crate::config::files::{Files, Included, in_file, parse_included};
use crate::config::path::Invalid;
use crate::hexmap::{Drawing, HexMap, Layout, Lower, MapError, OffMap};

/// `[naval.map]`: the map, inline or by `file`, and what the scenario says of it (`closed_straits`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapConfig {
    /// A map file to read the map from, relative to this config's folder: TOML with one `[map]` table holding
    /// the keys below from `name` on. Read once as the scenario loads and then held here inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The map file an inline map was read from: recorded, never read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Straits (by name) that naval movement may not pass in this scenario, such as one held by a neutral
    /// power (N-8.3: straits only where naval movement allows); every other strait is open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed_straits: Vec<String>,
    /// The map's name, as pictures title it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The theatre the map shows: `europe`, or `pacific`, where every dice total is halved (N-8.2). It sets
    /// `naval.theater`, which then need not be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theater: Option<Theater>,
    /// `columns` (the default): flat-topped hexes in columns, as most wargame maps; `rows`: pointy-topped
    /// hexes in rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    /// Which columns (or, with `layout = "rows"`, rows) sit half a hex lower (to the right): those with an
    /// `even` printed number (the default) or an `odd` one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower: Option<Lower>,
    /// The printed label of the grid's top-left hex, column digits then row digits: "0101" by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// The hexes, one line of tokens a row from the top, separated by spaces: `~` sea, `#` land, `=` a strait.
    /// Every row holds the same number of hexes; hexes are named by their printed `CCRR` label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    /// Ports by name, each the label of a coastal land hex (`taranto = "1510"`): where groups are based
    /// and forces sail from; ships may enter and leave a port's hex.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ports: BTreeMap<String, String>,
    /// Straits by name, each the label of a `=` hex (`messina = "1309"`); passing one opens a further
    /// interception hex (N-2.3 d).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub straits: BTreeMap<String, String>,
    /// Off-map boxes by name: `[naval.map.boxes.atlantic]` with `joins`, the map hexes it is entered from,
    /// and `spaces`, the spaces entering it counts (N-8.3).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub boxes: BTreeMap<String, OffMap>,
}

/// A map file: one `[map]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    map: MapConfig,
}

fn at(key: &str) -> KeyPath {
    KeyPath::root().key("naval").key("map").key(key)
}

impl MapConfig {
    /// The map's drawing for [`HexMap::build`], with the defaults of the keys left out.
    fn drawing(&self) -> Drawing<'_> {
        Drawing {
            layout: self.layout.unwrap_or_default(),
            lower: self.lower.unwrap_or_default(),
            first: self.first.as_deref().unwrap_or("0101"),
            grid: self.grid.as_deref().unwrap_or_default(),
            ports: &self.ports,
            straits: &self.straits,
            boxes: &self.boxes,
        }
    }

    /// The checked map; its error at the key of `[naval.map]` it is about.
    pub fn hex_map(&self) -> Result<HexMap, Invalid> {
        self.hex_map_in(at, "a map needs its hexes: a grid of tokens here, or file = \"NAME\" naming a map file")
    }

    /// Reads the map file `file` names (if it does) through `files`, checks it, and holds its map inline.
    pub fn include(&mut self, files: &dyn Files) -> Result<(), Included> {
        let Some(name) = self.file.take() else { return Ok(()) };
        let drawn = [
            ("grid", self.grid.is_some()),
            ("ports", !self.ports.is_empty()),
            ("straits", !self.straits.is_empty()),
            ("boxes", !self.boxes.is_empty()),
            ("layout", self.layout.is_some()),
            ("lower", self.lower.is_some()),
            ("first", self.first.is_some()),
            ("theater", self.theater.is_some()),
            ("name", self.name.is_some()),
        ];
        if let Some((key, _)) = drawn.iter().find(|(_, written)| *written) {
            let msg = "the map comes from file; give its keys in the map file, or the whole map here without file";
            return Err(Invalid::new(at(key), msg.into()).into());
        }
        let (path, text) = files.read(&name).map_err(|e| Invalid::new(at("file"), e.0))?;
        let MapFile { map } = parse_included(&path, &text)?;
        let in_map = |k: &str| KeyPath::root().key("map").key(k);
        for (key, written) in [
            ("file", map.file.is_some()),
            ("source", map.source.is_some()),
            ("closed_straits", !map.closed_straits.is_empty()),
        ] {
            if written {
                let msg = "belongs in a scenario's [naval.map], not in a map file";
                return Err(Included::File(in_file(&path, &text, Invalid::new(in_map(key), msg.into()))));
            }
        }
        if let Err(e) = map.hex_map_in(in_map, "a map file's [map] needs its grid of hex tokens") {
            return Err(Included::File(in_file(&path, &text, e)));
        }
        let closed = std::mem::take(&mut self.closed_straits);
        *self = MapConfig { source: Some(name), closed_straits: closed, ..map };
        Ok(())
    }

    /// The checked map, its errors at the keys of the table `key` names; `no_grid` says what a map without
    /// a grid lacks.
    fn hex_map_in(&self, key: impl Fn(&str) -> KeyPath, no_grid: &str) -> Result<HexMap, Invalid> {
        if self.grid.is_none() {
            return Err(Invalid::new(key("grid"), no_grid.into()));
        }
        HexMap::build(&self.drawing()).map_err(|e| placed(e, key))
    }
}

/// A map error at its key under `key`'s table: `ports.taranto` is the key `taranto` of `ports`.
fn placed(e: MapError, key: impl Fn(&str) -> KeyPath) -> Invalid {
    // Keys are `grid`, `ports.NAME`, `straits.NAME`, `boxes.NAME` and `boxes.NAME.joins`/`.spaces`; a name
    // may hold a '.', so only the known ends are split off.
    let path = match e.key.split_once('.') {
        None => key(&e.key),
        Some((table, rest)) => {
            let end = [".joins", ".spaces"].into_iter().find(|end| table == "boxes" && rest.ends_with(end));
            match end {
                Some(end) => key(table).key(&rest[..rest.len() - end.len()]).key(&end[1..]),
                None => key(table).key(rest),
            }
        }
    };
    Invalid::new(path, e.said())
}
