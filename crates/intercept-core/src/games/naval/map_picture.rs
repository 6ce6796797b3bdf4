//! The naval scenario on its map, as a [`HexChart`]: sea, land and straits, the ports, the off-map boxes
//! (N-8.3), the mission's declared route (N-2.1), each group's path from its base to its interception hex
//! (N-2.2, N-2.4) coloured by side, a level's arrows ending where the level below meets it (N-0), and the
//! interception hexes ringed with the groups that meet there. A `where` answer ([`Decided`]) adds the value
//! of every option on the route, the best ringed, the hex as written marked.

use super::Naval;
use super::config::chart::Chart;
use crate::decide::Decided;
use crate::fraction;
use crate::games::words::and_list;
use crate::hexmap::{HexMap, Node, Terrain};
use crate::present::{
    Extra, Ground, Hex, HexBox, HexChart, HexKey, HexKeyShape, HexMark, HexPath, Picture, Placement, Tone, Valued,
};

/// The hex `node` is on the map, if it is one rather than an off-map box.
fn hex_of(map: &HexMap, node: Node) -> Option<usize> {
    (!map.is_box(node)).then_some(node as usize)
}

/// The moving side's colour and the defender's, by level (N-0: odd levels intercept for the defender).
fn tone(level: usize) -> Tone {
    if level % 2 == 1 { Tone::Second } else { Tone::First }
}

impl Naval {
    /// The run report's map, in the scenario's section: `None` without a map.
    pub fn map_extra(&self) -> Option<Extra> {
        let chart = self.map_chart()?;
        Some(Extra {
            name: "map".to_owned(),
            placement: Placement::Scenario,
            text: "The scenario on its map: the mission's route, each group's path from its base to where it \
                   meets its target, and the interception hexes (N-2)."
                .to_owned(),
            data: None,
            picture: Some(Picture::Hexes(chart)),
            caption: "Blue: the moving side; red: the defender's groups; rings: interception hexes.".to_owned(),
            table: None,
        })
    }

    /// The scenario on its map.
    pub fn map_chart(&self) -> Option<HexChart> {
        self.chart_drawn(None)
    }

    /// The scenario on its map, the `best` hex's ring in the choosing side's colour under its label.
    fn chart_drawn(&self, best: Option<(usize, String)>) -> Option<HexChart> {
        let (chart, _) = &**self.chart.as_ref()?;
        let map = &chart.map;
        let mut hexes: Vec<Hex> = (0..map.grid.len() as u32)
            .map(|i| Hex {
                label: map.grid.label(i),
                centre: map.grid.centre(i),
                ground: match map.grid.terrain[i as usize] {
                    Terrain::Sea => Ground::Sea,
                    Terrain::Land => Ground::Land,
                    Terrain::Strait => Ground::Strait,
                },
                said: String::new(),
            })
            .collect();
        for (name, n) in map.ports().chain(map.straits()) {
            if let Some(h) = hexes.get_mut(n as usize) {
                h.said = format!("{} ({name})", h.label);
            }
        }
        let boxes = map
            .boxes()
            .map(|(name, joins, spaces)| HexBox {
                label: name.to_owned(),
                note: format!("{spaces} spaces"),
                joins: joins.iter().map(|&j| j as usize).collect(),
            })
            .collect();
        let hexes_of = |nodes: &[Node]| nodes.iter().filter_map(|&n| hex_of(map, n)).collect();
        let mut paths =
            vec![HexPath { hexes: hexes_of(&chart.route), tone: Tone::First, faint: true, label: String::new() }];
        for (g, c) in self.groups.iter().zip(&chart.groups) {
            paths.push(HexPath { hexes: hexes_of(&c.path), tone: tone(g.level), faint: false, label: String::new() });
        }
        let mut marks = self.port_marks(chart);
        marks.extend(self.meeting_marks(chart, best));
        Some(HexChart {
            title: format!(
                "{} on the map{}",
                self.mission_name,
                chart.name.as_ref().map(|n| format!(": {n}")).unwrap_or_default()
            ),
            notes: vec![
                "Each group sails its shortest sea path from its base to where it meets its target (N-8.3).".to_owned(),
            ],
            flat: map.grid.layout == crate::hexmap::Layout::Columns,
            hexes,
            valued: Vec::new(),
            scale: String::new(),
            boxes,
            paths,
            marks,
            keys: vec![
                key(
                    HexKeyShape::Path { faint: true },
                    Tone::First,
                    format!("the {} force's declared route (N-2.1)", self.mission_name),
                ),
                key(
                    HexKeyShape::Path { faint: false },
                    Tone::Second,
                    "a defender's group, base to interception hex".into(),
                ),
                key(HexKeyShape::Path { faint: false }, Tone::First, "a moving player's group, base to its hex".into()),
                key(HexKeyShape::Ring, Tone::Place, "an interception hex and who meets there".into()),
                key(HexKeyShape::Disc, Tone::Idle, "a port".into()),
            ],
        })
    }

    /// Every port as a disc, named where a group is based or the route starts or ends.
    fn port_marks(&self, chart: &Chart) -> Vec<HexMark> {
        let used: Vec<Node> = chart
            .groups
            .iter()
            .map(|c| c.base)
            .chain(chart.route.first().copied())
            .chain(chart.route.last().copied())
            .collect();
        chart
            .map
            .ports()
            .filter_map(|(name, n)| hex_of(&chart.map, n).map(|hex| (name, n, hex)))
            .map(|(name, n, hex)| HexMark {
                hex,
                tone: Tone::Idle,
                ring: false,
                label: if used.contains(&n) { name.to_owned() } else { String::new() },
            })
            .collect()
    }

    /// A ring on each hex where groups meet their target, labelled with the hex and the groups; the `best`
    /// hex's ring (added if no group meets there) in the second tone, labelled as the best.
    fn meeting_marks(&self, chart: &Chart, best: Option<(usize, String)>) -> Vec<HexMark> {
        let mut hexes: Vec<(usize, Vec<String>)> = Vec::new();
        for (g, c) in self.groups.iter().zip(&chart.groups) {
            let Some(hex) = hex_of(&chart.map, c.hex) else { continue };
            match hexes.iter_mut().find(|(h, _)| *h == hex) {
                Some((_, names)) => names.push(g.name.clone()),
                None => hexes.push((hex, vec![g.name.clone()])),
            }
        }
        if let Some((hex, _)) = &best
            && !hexes.iter().any(|(h, _)| h == hex)
        {
            hexes.push((*hex, Vec::new()));
        }
        hexes
            .into_iter()
            .map(|(hex, names)| {
                let (tone, name) = match &best {
                    Some((b, label)) if *b == hex => (Tone::Second, label.clone()),
                    _ => (Tone::Place, chart.map.label(hex as Node)),
                };
                let label = if names.is_empty() { name } else { format!("{name}: {}", and_list(&names)) };
                HexMark { hex, tone, ring: true, label }
            })
            .collect()
    }

    /// The map of a `where` answer, drawn on this scenario (the best line taken): every option of the first
    /// decision coloured by its value, darkest where best for the side choosing; the best ringed.
    pub fn decided_chart(&self, decided: &Decided) -> Option<HexChart> {
        let (chart, _) = &**self.chart.as_ref()?;
        let on_map = |label: &str| chart.map.node(label).and_then(|n| hex_of(&chart.map, n));
        let best = decided.best().and_then(|b| {
            let v = b.value.as_ref().map(fraction::to_f64).unwrap_or(0.0);
            on_map(&b.label).map(|hex| (hex, format!("best: {} ({:.1}%)", b.label, 100.0 * v)))
        });
        let mut picture = self.chart_drawn(best)?;
        let values: Vec<(usize, f64, &str)> = decided
            .options
            .iter()
            .filter_map(|o| {
                let v = fraction::to_f64(o.value.as_ref().ok()?);
                Some((on_map(&o.label)?, v, o.label.as_str()))
            })
            .collect();
        let (low, high) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v.1), h.max(v.1)));
        let span = high - low;
        let maximises = decided.maximises();
        picture.valued = values
            .iter()
            .map(|&(hex, value, label)| {
                let up = if span > 0.0 { (value - low) / span } else { 1.0 };
                Valued {
                    hex,
                    value,
                    goodness: if maximises { up } else { 1.0 - up },
                    said: format!("{label}: {} {:.1}%", decided.metric, 100.0 * value),
                }
            })
            .collect();
        let better = if maximises { "high" } else { "low" };
        picture.scale = format!(
            "{} at each hex of the route, from {:.1}% to {:.1}%; darkest where best for the {} (who wants it {better})",
            decided.metric,
            100.0 * low,
            100.0 * high,
            decided.side
        );
        picture.title = format!("Where {}", decided.question.trim_start_matches("where "));
        picture.notes =
            vec!["Paths: the best line, each side's choice best for it below (SoP steps 3 and 8).".to_owned()];
        let written = decided.written.map(|i| &decided.options[i]);
        if let Some(w) = written.filter(|w| decided.best().is_none_or(|b| b.label != w.label))
            && let Some(hex) = on_map(&w.label)
        {
            let v = w.value.as_ref().map(|v| format!(" ({:.1}%)", 100.0 * fraction::to_f64(v))).unwrap_or_default();
            picture.marks.push(HexMark {
                hex,
                tone: Tone::Idle,
                ring: true,
                label: format!("as written: {}{v}", w.label),
            });
        }
        picture.keys.insert(0, key(HexKeyShape::Ring, Tone::Second, format!("the best hex for the {}", decided.side)));
        Some(picture)
    }
}

fn key(shape: HexKeyShape, tone: Tone, text: String) -> HexKey {
    HexKey { shape, tone, text }
}
