//! A scenario on its map, resolved away: the mission's route checked hex by hex (N-2.1), each group's base
//! and interception hex checked against the route or path it must lie on (N-2.2, N-2.4), and from the
//! geometry every number the rules read: each group's distance (N-8.3), the counter-interception dice in
//! the interception hex (N-5.4), the mission-hex die (N-5.3), and where a deferring group's path passes
//! the combat it defers to (N-14.2, N-14.3). [`NavalConfig::charted`] gives the [`Chart`] and the typed
//! config it equals, which the rules resolve as if its distances had been typed: so a map scenario equals
//! its typed scenario by construction.

use super::{GroupConfig, Leg, MapConfig, NavalConfig, Origin};
use crate::config::KeyPath;
use crate::config::path::Invalid;
use crate::hexmap::{HexMap, Node};

/// The most a typed distance may be, and so the farthest a map may put an interception hex from a base.
const MOST_HEXES: u32 = 99;

/// The scenario's places on its map.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub map: HexMap,
    /// The map's name, if it has one.
    pub name: Option<String>,
    /// Straits shut in this scenario.
    pub closed: Vec<Node>,
    /// The mission's route, from where it sails.
    pub route: Vec<Node>,
    /// Each group's base, interception hex and path between them, in the config's order.
    pub groups: Vec<Charted>,
}

/// One group on the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Charted {
    pub base: Node,
    pub hex: Node,
    /// The shortest legal path from its base to its hex, both included (N-8.3).
    pub path: Vec<Node>,
}

fn naval() -> KeyPath {
    KeyPath::root().key("naval")
}

fn group_key(i: usize, key: &str) -> KeyPath {
    naval().key("group").index(i).key(key)
}

/// Labels of `nodes` for a message: the first dozen, then how many more.
fn listed(map: &HexMap, nodes: &[Node]) -> String {
    let mut shown: Vec<String> = nodes.iter().take(12).map(|n| map.label(*n)).collect();
    if nodes.len() > 12 {
        shown.push(format!("and {} more", nodes.len() - 12));
    }
    shown.join(", ")
}

impl NavalConfig {
    /// Refuses the keys only a map gives meaning to when there is none.
    pub(super) fn check_unmapped(&self) -> Result<(), Invalid> {
        let msg = "applies only with a [naval.map]; without one, each group's distance is typed";
        if !self.mission.route.is_empty() {
            return Err(Invalid::new(naval().key("mission").key("route"), msg.into()));
        }
        for (i, g) in self.group.iter().enumerate() {
            let written = [("base", g.base.is_some()), ("intercept_at", g.intercept_at.is_some())];
            if let Some((key, _)) = written.iter().find(|(_, w)| *w) {
                return Err(Invalid::new(group_key(i, key), msg.into()));
            }
        }
        Ok(())
    }

    /// With a map: its chart, and this config with every number the map gives typed in and the map left
    /// out.
    pub fn charted(&self, m: &MapConfig) -> Result<(Chart, NavalConfig), Invalid> {
        let map = m.hex_map()?;
        let closed = closed_straits(&map, m)?;
        let route = self.route_on(&map, &closed)?;
        let levels = self.levels()?;
        let mut order: Vec<usize> = (0..self.group.len()).collect();
        order.sort_by_key(|i| levels[*i]);
        let mut groups: Vec<Option<Charted>> = vec![None; self.group.len()];
        for i in order {
            groups[i] = Some(self.place(i, &map, &closed, &route, &groups)?);
        }
        let groups: Vec<Charted> = groups.into_iter().flatten().collect();
        let chart = Chart { map, name: m.name.clone(), closed, route, groups };
        chart.one_hex_a_force(self)?;
        let typed = chart.typed(self, m)?;
        Ok((chart, typed))
    }

    /// The mission's route: known places, each passable and one move from the last, none twice (N-2.1).
    pub(super) fn route_on(&self, map: &HexMap, closed: &[Node]) -> Result<Vec<Node>, Invalid> {
        let key = || naval().key("mission").key("route");
        let err = |msg: String| Err(Invalid::new(key(), msg));
        if self.mission.route.len() < 2 {
            return err("a route lists where the force sails from and at least one hex more, as \
                        [\"gibraltar\", \"0305\", ...] (N-2.1)"
                .into());
        }
        let mut route: Vec<Node> = Vec::new();
        for (i, entry) in self.mission.route.iter().enumerate() {
            let at = format!("entry {} ({})", i + 1, crate::text::clip(entry, 12));
            let Some(node) = map.node(entry) else {
                return err(format!("{at} is not a hex, port, strait or box of the map; {}", allowed(map)));
            };
            if let Some(why) = impassable(map, node, closed) {
                return err(format!("{at} {why}; a route goes by sea, open straits, ports and boxes"));
            }
            if let Some(&last) = route.last()
                && map.step(last, node).is_none()
            {
                let before = map.label(last);
                return err(format!(
                    "{at} is not one move from entry {i} ({before}); each entry touches the one before"
                ));
            }
            let inner = i > 0 && i + 1 < self.mission.route.len();
            if inner && map.is_port(node) {
                return err(format!("{at} is a port's hex; a route starts or ends at a port, never sails through one"));
            }
            if route.contains(&node) {
                return err(format!("{at} is entered twice; a route enters each hex once"));
            }
            route.push(node);
        }
        Ok(route)
    }

    /// Group `i` on the map: its base, its hex on the route or path it must lie on, and its path there.
    fn place(
        &self,
        i: usize,
        map: &HexMap,
        closed: &[Node],
        route: &[Node],
        placed: &[Option<Charted>],
    ) -> Result<Charted, Invalid> {
        let g = &self.group[i];
        typed_only(i, g)?;
        let (base, hex) = self.ends(i, map, closed)?;
        let (whose, on) = match self.group.iter().position(|t| t.name == g.target) {
            None => (format!("the {} force's route", self.mission.name), route),
            Some(t) => {
                let path = placed[t].as_ref().map_or(&[][..], |c| &c.path[..]);
                (format!("{}'s path from its base to its interception hex", g.target), path)
            }
        };
        if !on[1.min(on.len())..].contains(&hex) {
            let msg = format!(
                "{} is not on {whose} after its start; allowed: {} (N-2.2, N-2.4)",
                map.label(hex),
                listed(map, &on[1.min(on.len())..])
            );
            return Err(Invalid::new(group_key(i, "intercept_at"), msg));
        }
        let path = sea_path(i, map, closed, base, hex)?;
        let charted = Charted { base, hex, path };
        let distance = charted.spaces(map).last().copied().unwrap_or(0);
        if distance > MOST_HEXES {
            let msg = format!(
                "{} is {distance} hexes from {}; allowed: at most {MOST_HEXES}",
                map.label(hex),
                map.label(base)
            );
            return Err(Invalid::new(group_key(i, "intercept_at"), msg));
        }
        Ok(charted)
    }

    /// Group `t`'s path from its base to the hex written as its `intercept_at`, as [`NavalConfig::charted`]
    /// finds it, unchecked against its target's route: the hexes a group aimed at it may choose from.
    pub(super) fn charted_path(&self, t: usize, map: &HexMap, closed: &[Node]) -> Result<Vec<Node>, Invalid> {
        let (base, hex) = self.ends(t, map, closed)?;
        sea_path(t, map, closed, base, hex)
    }

    /// Group `i`'s base and the hex written as its `intercept_at`.
    fn ends(&self, i: usize, map: &HexMap, closed: &[Node]) -> Result<(Node, Node), Invalid> {
        let g = &self.group[i];
        let base = self.base_of(i, g, map, closed)?;
        let Some(hex_name) = &g.intercept_at else {
            let msg = "missing: with a map, the group's interception hex, by label (N-2.2)";
            return Err(Invalid::new(group_key(i, "intercept_at"), msg.into()));
        };
        let Some(hex) = map.node(hex_name) else {
            let msg = format!("{:?} is not a hex of the map; {}", crate::text::clip(hex_name, 12), allowed(map));
            return Err(Invalid::new(group_key(i, "intercept_at"), msg));
        };
        Ok((base, hex))
    }

    /// Where group `i` sails from: a port or box, or for a patrol its patrol hex at sea (N-7).
    fn base_of(&self, i: usize, g: &GroupConfig, map: &HexMap, closed: &[Node]) -> Result<Node, Invalid> {
        let key = || group_key(i, "base");
        let Some(name) = &g.base else {
            let msg = "missing: with a map, where the group sails from, a port or box by name (N-8.3)";
            return Err(Invalid::new(key(), msg.into()));
        };
        let shown = crate::text::clip(name, 20);
        let Some(node) = map.node(name) else {
            return Err(Invalid::new(key(), format!("{shown:?} is not a place of the map; {}", allowed(map))));
        };
        let from_port = map.is_port(node) || map.is_box(node);
        match g.origin {
            Origin::Port if !from_port => {
                let ports: Vec<&str> = map.ports().map(|(n, _)| n).chain(map.boxes().map(|(n, _, _)| n)).collect();
                let msg = format!("{shown:?} holds no port; a group sails from a port or box: {}", ports.join(", "));
                Err(Invalid::new(key(), msg))
            }
            Origin::Patrol if from_port || impassable(map, node, closed).is_some() => {
                let msg = format!("{shown:?} is not a sea hex; a patrol's base is its patrol hex at sea (N-7)");
                Err(Invalid::new(key(), msg))
            }
            _ => Ok(node),
        }
    }
}

/// Group `i`'s shortest legal path from `base` to `hex` (N-8.3), or the error saying none leads there.
fn sea_path(i: usize, map: &HexMap, closed: &[Node], base: Node, hex: Node) -> Result<Vec<Node>, Invalid> {
    map.paths_from(base, closed).path(hex).ok_or_else(|| {
        let msg = format!("no sea path leads from {} to {}{}", map.label(base), map.label(hex), shut(map, closed));
        Invalid::new(group_key(i, "intercept_at"), msg)
    })
}

/// The keys a map gives, refused when also typed.
fn typed_only(i: usize, g: &GroupConfig) -> Result<(), Invalid> {
    let typed = [
        ("distance", g.distance.is_some()),
        ("at_interception_hex", g.at_interception_hex),
        ("in_mission_hex", g.in_mission_hex),
        ("defer_along", g.defer_along != 0),
        ("defer_distance", g.defer_distance != 0),
    ];
    match typed.iter().find(|(_, written)| *written) {
        Some((key, _)) => Err(Invalid::new(
            group_key(i, key),
            "comes from the map in a scenario with a [naval.map]; leave it out".into(),
        )),
        None => Ok(()),
    }
}

/// The straits the scenario closes, by name.
pub(super) fn closed_straits(map: &HexMap, m: &MapConfig) -> Result<Vec<Node>, Invalid> {
    m.closed_straits
        .iter()
        .map(|name| {
            map.straits().find(|(n, _)| n == name).map(|(_, h)| h).ok_or_else(|| {
                let names: Vec<&str> = map.straits().map(|(n, _)| n).collect();
                let names = if names.is_empty() { "none: the map has no strait".into() } else { names.join(", ") };
                let msg = format!("{:?} is not a strait of the map; allowed: {names}", crate::text::clip(name, 20));
                Invalid::new(naval().key("map").key("closed_straits"), msg)
            })
        })
        .collect()
}

/// Why ships may not be on `node`, if they may not.
fn impassable(map: &HexMap, node: Node, closed: &[Node]) -> Option<String> {
    if map.passable(node, closed) {
        return None;
    }
    Some(match map.strait(node) {
        Some(s) => format!("is the strait {s:?}, which naval.map.closed_straits closes"),
        None => "is land".into(),
    })
}

/// The closed straits, as the end of a message about a path that was not found.
fn shut(map: &HexMap, closed: &[Node]) -> String {
    match closed {
        [] => String::new(),
        _ => format!(
            " (closed straits: {})",
            closed.iter().filter_map(|c| map.strait(*c)).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn allowed(map: &HexMap) -> String {
    let (first, last) = (map.grid.label(0), map.grid.label(map.grid.len() as u32 - 1));
    format!("allowed: labels {first} to {last}, or a port, strait or box by name")
}

impl Chart {
    /// All groups aimed at one force on one leg meet it at one hex (N-2.2), but those counter-intercepting
    /// at their target's own interception hex, who fight in its combat (N-10.3).
    fn one_hex_a_force(&self, cfg: &NavalConfig) -> Result<(), Invalid> {
        let apart = |i: usize| !self.at_target_hex(cfg, i);
        for (i, g) in cfg.group.iter().enumerate().filter(|(i, _)| apart(*i)) {
            let first = cfg.group[..i].iter().enumerate().find(|(j, h)| {
                (&h.target, h.leg, h.return_hex) == (&g.target, g.leg, g.return_hex)
                    && apart(*j)
                    && self.groups[*j].hex != self.groups[i].hex
            });
            if let Some((j, h)) = first {
                let msg = format!(
                    "{} meets {} at {}, but {} at {}: all groups aimed at one force meet it at one hex (N-2.2)",
                    g.name,
                    g.target,
                    self.map.label(self.groups[i].hex),
                    h.name,
                    self.map.label(self.groups[j].hex)
                );
                return Err(Invalid::new(group_key(i, "intercept_at"), msg));
            }
        }
        Ok(())
    }

    /// Whether group `i` counter-intercepts at its target's own interception hex (N-5.4, N-10.3).
    fn at_target_hex(&self, cfg: &NavalConfig, i: usize) -> bool {
        let g = &cfg.group[i];
        let target = cfg.group.iter().position(|t| t.name == g.target);
        target.is_some_and(|t| g.leg == Leg::Out && self.groups[t].hex == self.groups[i].hex)
    }

    /// The config the chart equals: every distance typed, the interception-hex and mission-hex dice and the
    /// deferrals' geometry set from the map, the map and its keys left out.
    fn typed(&self, cfg: &NavalConfig, m: &MapConfig) -> Result<NavalConfig, Invalid> {
        let mut typed = cfg.clone();
        typed.map = None;
        typed.mission.route.clear();
        typed.theater = theater(cfg, m)?;
        for (i, g) in typed.group.iter_mut().enumerate() {
            let c = &self.groups[i];
            g.distance = Some(i64::from(c.spaces(&self.map).last().copied().unwrap_or(0)));
            g.base = None;
            g.intercept_at = None;
            g.at_interception_hex = self.at_target_hex(cfg, i);
            let mission_hex = self.route.last() == Some(&c.hex);
            g.in_mission_hex = cfg.mission.activity.has_mission_hex()
                && mission_hex
                && g.leg == Leg::Out
                && g.target == cfg.mission.name;
        }
        for i in 0..cfg.group.len() {
            if let Some((along, off)) = self.deferral(cfg, i) {
                typed.group[i].defer_along = i64::from(along);
                typed.group[i].defer_distance = i64::from(off);
            }
        }
        Ok(typed)
    }

    /// Where deferring group `i`'s path passes the combat it defers to: the hex of its path nearest that
    /// combat, `along` spaces from its base, and the combat `off` spaces from it (0 when the path runs
    /// through it, N-14.2); nearest first, then earliest on the path (N-14.3).
    fn deferral(&self, cfg: &NavalConfig, i: usize) -> Option<(u32, u32)> {
        let fellow = cfg.group[i].defer_to.as_ref()?;
        let combat = (0..cfg.group.len())
            .find(|&j| cfg.group[j].target == *fellow && cfg.group[j].leg == Leg::Out && !self.at_target_hex(cfg, j))
            .map(|j| self.groups[j].hex)?;
        let c = &self.groups[i];
        let from_combat = self.map.paths_from(combat, &self.closed);
        c.path
            .iter()
            .zip(c.spaces(&self.map))
            .filter_map(|(h, along)| Some((from_combat.distance(*h)?, along)))
            .min()
            .map(|(off, along)| (along, off))
    }
}

impl Chart {
    /// Adds what the map gave to a description of the model: the route, and each group's base, hex, path and
    /// the numbers the map set, for `validate` to show.
    pub fn describe(&self, typed: &NavalConfig, out: &mut serde_json::Value) {
        let labels = |nodes: &[Node]| nodes.iter().map(|n| self.map.label(*n)).collect::<Vec<_>>();
        let closed: Vec<&str> = self.closed.iter().filter_map(|c| self.map.strait(*c)).collect();
        out["map"] = serde_json::json!({
            "name": self.name, "hexes": self.map.grid.len(), "route": labels(&self.route), "closed_straits": closed,
        });
        let Some(groups) = out.get_mut("groups").and_then(serde_json::Value::as_array_mut) else { return };
        for ((g, c), t) in groups.iter_mut().zip(&self.groups).zip(&typed.group) {
            g["base"] = self.map.label(c.base).into();
            g["intercept_at"] = self.map.label(c.hex).into();
            g["path"] = labels(&c.path).into();
            g["at_interception_hex"] = t.at_interception_hex.into();
            g["in_mission_hex"] = t.in_mission_hex.into();
            if t.defer_to.is_some() {
                g["defer_along"] = t.defer_along.into();
                g["defer_distance"] = t.defer_distance.into();
            }
        }
    }
}

impl Charted {
    /// The spaces entered from its base to each place of its path, 0 at the base, its distance last (N-8.3):
    /// a shortest path's spaces to each of its places are that place's least distance from the base.
    fn spaces(&self, map: &HexMap) -> Vec<u32> {
        let steps = self.path.windows(2).map(|w| map.step(w[0], w[1]).unwrap_or(1));
        std::iter::once(0).chain(steps.scan(0, |total, s| Some(*total + s).inspect(|t| *total = *t))).collect()
    }
}

/// The theatre: the map's, which `naval.theater` may repeat but not contradict.
fn theater(cfg: &NavalConfig, m: &MapConfig) -> Result<super::Theater, Invalid> {
    use super::Theater;
    match (m.theater, cfg.theater) {
        (Some(Theater::Europe), Theater::Pacific) => Err(Invalid::new(
            naval().key("theater"),
            "\"pacific\", but the map shows europe (naval.map.theater); leave naval.theater out with a map".into(),
        )),
        (Some(t), _) => Ok(t),
        (None, t) => Ok(t),
    }
}
