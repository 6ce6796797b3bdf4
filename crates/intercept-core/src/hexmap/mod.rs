//! Hex maps written by hand: a [`Grid`] of terrain tokens with its offset layout and printed `CCRR` labels,
//! named ports and straits on it, and off-map boxes joined to it ([`HexMap`]); and the shortest legal sea
//! paths across it ([`Paths`]).
//!
//! A map is data a rule set resolves away (design: "a map is data, resolved away"): the rules read the
//! distances and paths it gives, never the map. This layer knows hexes, terrain and places, and nothing of any
//! rule set's words; a rule set's config holds the map table and hands its parts here as a [`Drawing`].
//!
//! Ships move through sea and strait hexes, out of a port's hex (coastal land) or into it to end there,
//! never through it, and into and out of boxes through the hexes a box joins. Entering a hex counts one space, entering a box its
//! `spaces` (N-8.3's "off-map boxes count as spaces").

mod grid;
mod paths;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use self::grid::{Grid, Layout, Lower, MOST_HEXES, Terrain};
pub use self::paths::{Paths, UNREACHED};

/// A place on a map: a hex (`0..grid.len()`) or an off-map box (after the hexes, in name order).
pub type Node = u32;

/// An off-map box as written: the map hexes it joins and the spaces entering it counts.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OffMap {
    /// Labels of the map hexes (sea, strait or port) a force enters the box from and leaves it to.
    pub joins: Vec<String>,
    /// The spaces a force counts for entering the box, 1 to 20.
    pub spaces: i64,
}

/// The most spaces one box may count.
pub const MOST_BOX_SPACES: i64 = 20;

/// A map's parts as a rule set's config holds them: the grid and its layout, and the named places.
pub struct Drawing<'a> {
    pub layout: Layout,
    pub lower: Lower,
    pub first: &'a str,
    pub grid: &'a str,
    pub ports: &'a BTreeMap<String, String>,
    pub straits: &'a BTreeMap<String, String>,
    pub boxes: &'a BTreeMap<String, OffMap>,
}

/// Why a map cannot be used: the map key it is about, the hex if one, and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {}{message}", hex.as_ref().map(|h| format!("hex {h}: ")).unwrap_or_default())]
pub struct MapError {
    /// The key of the map table (`grid`, `ports.taranto`, `boxes.atlantic.joins`).
    pub key: String,
    pub hex: Option<String>,
    pub message: String,
}

impl MapError {
    pub fn key(key: &str, message: &str) -> MapError {
        MapError { key: key.to_owned(), hex: None, message: message.to_owned() }
    }

    pub fn hex(hex: &str, key: &str, message: &str) -> MapError {
        MapError { key: key.to_owned(), hex: Some(hex.to_owned()), message: message.to_owned() }
    }

    /// The message with its hex, without the key: what a config error at the key says.
    pub fn said(&self) -> String {
        format!("{}{}", self.hex.as_ref().map(|h| format!("hex {h}: ")).unwrap_or_default(), self.message)
    }
}

/// One off-map box, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Boxed {
    name: String,
    joins: Vec<u32>,
    spaces: u32,
}

/// A checked map: its grid and its named places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexMap {
    pub grid: Grid,
    /// Ports by name, each on its hex.
    ports: BTreeMap<String, u32>,
    straits: BTreeMap<String, u32>,
    boxes: Vec<Boxed>,
    /// Whether each hex holds a port.
    port_on: Vec<bool>,
    /// Every place's moves, `moves[starts[n]..starts[n + 1]]`: the place entered and the spaces it counts.
    starts: Vec<u32>,
    moves: Vec<(Node, u32)>,
}

impl HexMap {
    /// Checks a drawing: every row as wide as the first, every token known, every place named once, every
    /// port coastal land, every strait token named, every box joined to hexes ships can enter.
    pub fn build(d: &Drawing<'_>) -> Result<HexMap, MapError> {
        let grid = Grid::parse(d.grid, d.layout, d.lower, d.first)?;
        let mut map = HexMap {
            port_on: vec![false; grid.len()],
            grid,
            ports: BTreeMap::new(),
            straits: BTreeMap::new(),
            boxes: Vec::new(),
            starts: Vec::new(),
            moves: Vec::new(),
        };
        let mut names: BTreeMap<&str, &str> = BTreeMap::new();
        let lists: [(&str, Vec<&String>); 3] = [
            ("ports", d.ports.keys().collect()),
            ("straits", d.straits.keys().collect()),
            ("boxes", d.boxes.keys().collect()),
        ];
        for (kind, list) in lists {
            for name in list {
                check_place_name(name, kind)?;
                if let Some(earlier) = names.insert(name, kind) {
                    let msg =
                        format!("{name:?} is also the name of one of the {earlier}; every place has its own name");
                    return Err(MapError::key(&format!("{kind}.{name}"), &msg));
                }
            }
        }
        map.place_straits(d.straits)?;
        map.place_boxes(d.boxes)?;
        map.place_ports(d.ports)?;
        map.link();
        Ok(map)
    }

    /// Lists every place's moves once, so a search reads them without building them.
    fn link(&mut self) {
        let (mut starts, mut moves) = (vec![0], Vec::new());
        for node in 0..self.nodes() as u32 {
            moves.extend(self.moves_of(node));
            starts.push(moves.len() as u32);
        }
        (self.starts, self.moves) = (starts, moves);
    }

    fn place_straits(&mut self, straits: &BTreeMap<String, String>) -> Result<(), MapError> {
        for (name, label) in straits {
            let key = format!("straits.{name}");
            let hex = self.hex_at(label, &key)?;
            if self.grid.terrain[hex as usize] != Terrain::Strait {
                let msg = format!("the strait {name:?} is on a hex whose token is not '='; mark the strait's hex '='");
                return Err(MapError::hex(label, &key, &msg));
            }
            if let Some((other, _)) = self.straits.iter().find(|(_, h)| **h == hex) {
                return Err(MapError::hex(label, &key, &format!("the strait {other:?} is on this hex already")));
            }
            self.straits.insert(name.clone(), hex);
        }
        let unnamed = (0..self.grid.len() as u32)
            .find(|h| self.grid.terrain[*h as usize] == Terrain::Strait && !self.straits.values().any(|s| s == h));
        match unnamed {
            Some(h) => Err(MapError::hex(
                &self.grid.label(h),
                "straits",
                "a strait hex ('=') with no name; name it under [map.straits], as messina = \"LABEL\"",
            )),
            None => Ok(()),
        }
    }

    fn place_boxes(&mut self, boxes: &BTreeMap<String, OffMap>) -> Result<(), MapError> {
        for (name, b) in boxes {
            let key = format!("boxes.{name}");
            if !(1..=MOST_BOX_SPACES).contains(&b.spaces) {
                let msg = format!("{} is out of range; allowed: 1 to {MOST_BOX_SPACES}", b.spaces);
                return Err(MapError::key(&format!("{key}.spaces"), &msg));
            }
            if b.joins.is_empty() {
                return Err(MapError::key(&format!("{key}.joins"), "a box joins at least one map hex"));
            }
            let mut joins = Vec::new();
            for label in &b.joins {
                let hex = self.hex_at(label, &format!("{key}.joins"))?;
                if self.grid.terrain[hex as usize] == Terrain::Land {
                    let msg = "a box joins sea, strait or port hexes; this one is land";
                    return Err(MapError::hex(label, &format!("{key}.joins"), msg));
                }
                joins.push(hex);
            }
            self.boxes.push(Boxed { name: name.clone(), joins, spaces: b.spaces as u32 });
        }
        Ok(())
    }

    fn place_ports(&mut self, ports: &BTreeMap<String, String>) -> Result<(), MapError> {
        for (name, label) in ports {
            let key = format!("ports.{name}");
            let hex = self.hex_at(label, &key)?;
            if self.grid.terrain[hex as usize] != Terrain::Land {
                let msg = format!("the port {name:?} is on open water; a port is a coastal land hex ('#')");
                return Err(MapError::hex(label, &key, &msg));
            }
            if self.is_port(hex) {
                let other = self.port(hex).unwrap_or_default().to_owned();
                return Err(MapError::hex(label, &key, &format!("the port {other:?} is on this hex already")));
            }
            let coastal = self.grid.neighbours(hex).any(|n| self.grid.terrain[n as usize] != Terrain::Land)
                || self.boxes.iter().any(|b| b.joins.contains(&hex));
            if !coastal {
                let msg =
                    format!("the port {name:?} has no sea beside it; a port needs a sea or strait hex next to it");
                return Err(MapError::hex(label, &key, &msg));
            }
            self.ports.insert(name.clone(), hex);
            self.port_on[hex as usize] = true;
        }
        Ok(())
    }

    /// The hex `label` names, or an error at `key` saying the map's extent.
    fn hex_at(&self, label: &str, key: &str) -> Result<u32, MapError> {
        self.grid.find(label).ok_or_else(|| {
            let (first, last) = (self.grid.label(0), self.grid.label(self.grid.len() as u32 - 1));
            let label = crate::text::clip(label, 12);
            MapError::key(key, &format!("{label:?} is not a hex of the map; allowed: labels {first} to {last}"))
        })
    }

    /// The place a name or label means: a port, a strait or a box by name, else a hex by its label.
    pub fn node(&self, name: &str) -> Option<Node> {
        if let Some(h) = self.ports.get(name).or_else(|| self.straits.get(name)) {
            return Some(*h);
        }
        if let Some(b) = self.boxes.iter().position(|b| b.name == name) {
            return Some(self.grid.len() as u32 + b as u32);
        }
        self.grid.find(name)
    }

    /// How a place is printed: a box by its name, a hex by its label.
    pub fn label(&self, node: Node) -> String {
        match self.box_of(node) {
            Some(b) => b.name.clone(),
            None => self.grid.label(node),
        }
    }

    /// The number of places: hexes, then boxes.
    pub fn nodes(&self) -> usize {
        self.grid.len() + self.boxes.len()
    }

    fn box_of(&self, node: Node) -> Option<&Boxed> {
        (node as usize).checked_sub(self.grid.len()).and_then(|b| self.boxes.get(b))
    }

    pub fn is_box(&self, node: Node) -> bool {
        self.box_of(node).is_some()
    }

    /// Whether `node` is a port's hex: where a path starts or ends, never passes ([`Paths`]).
    pub fn is_port(&self, node: Node) -> bool {
        self.port_on.get(node as usize).copied().unwrap_or(false)
    }

    /// The name of the port on `node`, if it holds one.
    pub fn port(&self, node: Node) -> Option<&str> {
        self.ports.iter().find(|(_, h)| **h == node && !self.is_box(node)).map(|(n, _)| n.as_str())
    }

    /// Every port, by name.
    pub fn ports(&self) -> impl Iterator<Item = (&str, Node)> {
        self.ports.iter().map(|(n, h)| (n.as_str(), *h))
    }

    /// Every strait, by name.
    pub fn straits(&self) -> impl Iterator<Item = (&str, Node)> {
        self.straits.iter().map(|(n, h)| (n.as_str(), *h))
    }

    /// The strait on `node`, if it is one.
    pub fn strait(&self, node: Node) -> Option<&str> {
        self.straits.iter().find(|(_, h)| **h == node).map(|(n, _)| n.as_str())
    }

    /// Every box, by name, with the hexes it joins and its spaces.
    pub fn boxes(&self) -> impl Iterator<Item = (&str, &[u32], u32)> {
        self.boxes.iter().map(|b| (b.name.as_str(), b.joins.as_slice(), b.spaces))
    }

    /// Whether ships may be on `node`: sea, a strait not in `closed`, a box, or a port's hex (where a path
    /// starts or ends, never passes: [`Paths`]).
    pub fn passable(&self, node: Node, closed: &[Node]) -> bool {
        if self.is_box(node) {
            return true;
        }
        match self.grid.terrain.get(node as usize) {
            Some(Terrain::Sea) => true,
            Some(Terrain::Strait) => !closed.contains(&node),
            Some(Terrain::Land) => self.is_port(node),
            None => false,
        }
    }

    /// The places one move from `node` and the spaces entering each counts (1 a hex, a box its `spaces`),
    /// passable or not.
    pub fn steps(&self, node: Node) -> &[(Node, u32)] {
        let n = node as usize;
        match (self.starts.get(n), self.starts.get(n + 1)) {
            (Some(&a), Some(&b)) => &self.moves[a as usize..b as usize],
            _ => &[],
        }
    }

    fn moves_of(&self, node: Node) -> Vec<(Node, u32)> {
        if let Some(b) = self.box_of(node) {
            return b.joins.iter().map(|h| (*h, 1)).collect();
        }
        let mut out: Vec<(Node, u32)> = self.grid.neighbours(node).map(|n| (n, 1)).collect();
        let first_box = self.grid.len() as u32;
        for (i, b) in self.boxes.iter().enumerate() {
            if b.joins.contains(&node) {
                out.push((first_box + i as u32, b.spaces));
            }
        }
        out
    }

    /// The spaces entering `to` from `from` counts, if they are one move apart.
    pub fn step(&self, from: Node, to: Node) -> Option<u32> {
        self.steps(from).iter().find(|(n, _)| *n == to).map(|(_, c)| *c)
    }

    /// The shortest legal paths from `from` to every place, with the straits in `closed` shut.
    pub fn paths_from(&self, from: Node, closed: &[Node]) -> Paths {
        Paths::from(self, from, closed)
    }
}

/// A place's name: plain letters, digits, '-', '_', '.', not first a '.', and not digits only, which would
/// read as a hex label.
fn check_place_name(name: &str, kind: &str) -> Result<(), MapError> {
    let key = format!("{kind}.{name}");
    crate::config::check_name(name, crate::config::KeyPath::root).map_err(|e| MapError::key(&key, &e.message))?;
    if name.bytes().all(|b| b.is_ascii_digit()) {
        return Err(MapError::key(&key, "a name of digits only reads as a hex label; use letters"));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
