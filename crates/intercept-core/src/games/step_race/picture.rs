//! The step-race scenario as a picture ([`Grid`]): the 15×15 tactical map (row 0 the north edge, A.0), each
//! unit with an interception order on its square with its intercept box outlined (G-1, G-2), the mover's
//! path through its regions in order, start (1), waypoint (2, when the move may go by one, G-3) and
//! destination, joining the centres the config names, and shaded the squares where some possible move is
//! cut off (G-6, G-7, G-8), found by racing every leg the mover can take.
//!
//! There is no terrain to draw: the rules ignore it (G-5, G-A5).

use std::collections::BTreeSet;

use super::StepRace;
use super::config::{StepRaceConfig, region_box};
use super::race::{BoxFilter, InterceptBox, Leg, MAP, Square, best_catch};
use crate::games::words::count;
use crate::present::{Grid, Key, KeyShape, Mark, Outline, Picture, Route, Shade, Tone};

/// A region of the config: its text, its centre and radius (0 for a square).
struct Region<'a> {
    text: &'a str,
    boxed: InterceptBox,
}

impl Region<'_> {
    /// The region of a config the rule set resolved, so its text reads.
    fn of(text: &str) -> Region<'_> {
        Region { text, boxed: region_box(text).expect("a resolved config's regions read") }
    }

    fn whole_map(&self) -> bool {
        let c = self.boxed.centre;
        [
            Square { col: 0, row: 0 },
            Square { col: MAP - 1, row: MAP - 1 },
            Square { col: 0, row: MAP - 1 },
            Square { col: MAP - 1, row: 0 },
        ]
        .iter()
        .all(|q| c.cheb(*q) <= self.boxed.radius)
    }

    /// The region's squares as columns and rows, clipped to the map.
    fn span(&self) -> ((u32, u32), (u32, u32)) {
        let (c, r) = (self.boxed.centre, self.boxed.radius);
        let clip = |x: i32| x.clamp(0, MAP - 1) as u32;
        ((clip(c.col - r), clip(c.col + r)), (clip(c.row - r), clip(c.row + r)))
    }

    fn point(&self) -> (f64, f64) {
        (f64::from(self.boxed.centre.col), f64::from(self.boxed.centre.row))
    }
}

impl StepRace {
    /// The map, the units, the mover's path and where interception can happen, as a picture.
    pub fn picture(&self, cfg: &StepRaceConfig) -> Picture {
        let m = &cfg.mover;
        let via = self.waypoint.probability(1) > 0.0;
        let mut stops = vec![("start", Region::of(&m.start), self.starts.len())];
        if via {
            stops.push(("waypoint", Region::of(&m.waypoints), self.waypoints.len()));
        }
        stops.push(("destination", Region::of(&m.destination), self.destinations.len()));
        let caught = self.catch_squares();
        let located = stops.iter().filter(|(_, r, _)| !r.whole_map());
        let mut notes = vec!["Squares are column-row; row 0 is the north edge.".to_owned()];
        if located.clone().count() > 1 {
            notes.push("The blue line joins the mover's numbered stops in the order it goes.".to_owned());
        }
        let mut keys = self.path_keys(&stops);
        keys.extend(self.unit_keys());
        keys.push(Key { shape: KeyShape::Cell, tone: Tone::Place, text: caught_words(caught.len(), self.filter) });
        Picture::Grid(Grid {
            title: "The tactical map".to_owned(),
            notes,
            columns: MAP as u32,
            rows: MAP as u32,
            shades: caught.iter().map(|q| Shade { col: q.col as u32, row: q.row as u32, tone: Tone::Place }).collect(),
            outlines: self.outlines(&stops),
            routes: vec![Route {
                points: located.map(|(_, r, _)| r.point()).collect(),
                tone: Tone::First,
                faint: false,
            }],
            marks: self.marks(),
            keys,
        })
    }

    /// Each unit's box, then each of the mover's regions larger than a square and smaller than the map.
    fn outlines(&self, stops: &[(&str, Region, usize)]) -> Vec<Outline> {
        let boxes = self.interceptors.iter().map(|i| {
            let (cols, rows) = Region { text: "", boxed: i.boxed }.span();
            Outline { cols, rows, tone: Tone::Second, faint: false, label: i.boxed.to_string() }
        });
        let regions = stops.iter().filter(|(_, r, _)| r.boxed.radius > 0 && !r.whole_map()).map(|(what, r, _)| {
            let (cols, rows) = r.span();
            Outline { cols, rows, tone: Tone::First, faint: *what != "start", label: format!("{what} {}", r.text) }
        });
        boxes.chain(regions).collect()
    }

    fn marks(&self) -> Vec<Mark> {
        let at = self.interceptors.iter().zip(&self.names);
        at.map(|(i, n)| Mark { col: i.at.col as u32, row: i.at.row as u32, tone: Tone::Second, label: n.clone() })
            .collect()
    }

    /// One legend line per stop of the path, in order, numbered as on the map; a stop anywhere on the map has
    /// no point to draw, so no number.
    fn path_keys(&self, stops: &[(&str, Region, usize)]) -> Vec<Key> {
        let p = self.waypoint.probability(1);
        let mut number = 0;
        let mut line = |(what, r, squares): &(&str, Region, usize)| {
            let region = match (r.whole_map(), r.boxed.radius) {
                (true, _) => "anywhere on the map".to_owned(),
                (false, 0) => format!("the square {}", r.boxed.centre),
                (false, _) => format!("one of {} (outlined)", count(*squares as i64, "square", "squares")),
            };
            let when = if *what == "waypoint" { format!(", with probability {p:.4} (G-3)") } else { String::new() };
            let at = if r.whole_map() { String::new() } else { format!("{} ", number + 1) };
            number += usize::from(!r.whole_map());
            Key { shape: KeyShape::Point, tone: Tone::First, text: format!("{at}{what} {}: {region}{when}", r.text) }
        };
        stops.iter().map(&mut line).collect()
    }

    fn unit_keys(&self) -> Vec<Key> {
        let at = self.interceptors.iter().zip(&self.names);
        at.map(|(i, n)| Key {
            shape: KeyShape::Mark,
            tone: Tone::Second,
            text: format!("{n} stands on {}; its intercept box {} is outlined (G-1, G-2)", i.at, i.boxed),
        })
        .collect()
    }

    /// Every square where some move the mover can draw is cut off: each leg it can race, raced (G-3, G-12).
    fn catch_squares(&self) -> BTreeSet<Square> {
        let mut caught = BTreeSet::new();
        let mut race = |from: Square, to: Square| {
            let result = best_catch(&Leg { from, to }, &self.interceptors, self.filter);
            result.map(|(_, c)| caught.insert(c.square)).is_ok()
        };
        let p = self.waypoint.probability(1);
        let mut second = BTreeSet::new();
        for &s in &self.starts {
            for &d in self.destinations.iter().filter(|&&d| d != s) {
                if p < 1.0 || self.waypoints.contains(&s) || self.waypoints.contains(&d) {
                    race(s, d);
                }
            }
            for &w in self.waypoints.iter().filter(|&&w| p > 0.0 && w != s) {
                if !race(s, w) {
                    second.insert((w, s));
                }
            }
        }
        let ends: BTreeSet<(Square, Square)> = second
            .iter()
            .flat_map(|&(w, s)| self.destinations.iter().filter(move |&&d| d != s && d != w).map(move |&d| (w, d)))
            .collect();
        for (w, d) in ends {
            race(w, d);
        }
        caught
    }
}

/// The legend line of the shaded squares.
fn caught_words(squares: usize, filter: BoxFilter) -> String {
    let within = match filter {
        BoxFilter::Point => ", always inside the catching unit's box (G-8)",
        BoxFilter::Destination | BoxFilter::None => "",
    };
    match squares {
        0 => "No move the mover can draw is intercepted anywhere (G-6).".to_owned(),
        n => format!(
            "Where interception can happen: the {} on which some possible move is cut off (G-6, G-7){within}",
            count(n as i64, "square", "squares")
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::{self, Overrides};
    use crate::games::shipped;
    use crate::present::{Grid, Picture};

    const VIA: &str = r#"
[[step_race.interceptor]]
name = "screen"
at = "8-8"
box = "8-8/2"

[step_race.mover]
start = "7-1/1"
destination = "12-12/2"
waypoint = 0.25
waypoints = "3-3/1"
"#;

    fn grid(text: &str) -> Grid {
        let scenario = config::from_str(&shipped(), text, Path::new("t.toml"), Overrides::default()).unwrap();
        match scenario.rules.scenario_picture() {
            Some(Picture::Grid(g)) => g,
            other => panic!("not a map: {other:?}"),
        }
    }

    #[test]
    fn the_path_goes_through_the_waypoint_region_in_order() {
        let g = grid(VIA);
        assert_eq!(g.routes[0].points, vec![(7.0, 1.0), (3.0, 3.0), (12.0, 12.0)]);
        let keys: Vec<&str> = g.keys.iter().map(|k| k.text.as_str()).collect();
        assert!(keys[0].starts_with("1 start 7-1/1: one of 9 squares"), "{keys:?}");
        assert!(keys[1].starts_with("2 waypoint 3-3/1: one of 9 squares") && keys[1].contains("0.2500"), "{keys:?}");
        assert!(keys[2].starts_with("3 destination 12-12/2: one of 25 squares"), "{keys:?}");
        assert_eq!((g.marks[0].label.as_str(), g.marks[0].col, g.marks[0].row), ("screen", 8, 8));
        let labels: Vec<&str> = g.outlines.iter().map(|o| o.label.as_str()).collect();
        assert_eq!(labels, ["8-8/2", "start 7-1/1", "waypoint 3-3/1", "destination 12-12/2"]);
    }

    /// A region covering the whole map has no point on the path; the seed's situation (GITM-S4) shows its
    /// catch on 10-10, the corner of the box, among the shaded squares, all inside the box (G-8).
    #[test]
    fn a_whole_map_destination_is_no_point_and_the_catches_lie_in_the_box() {
        let g = grid(include_str!("starter.toml"));
        assert_eq!(g.routes[0].points, vec![(9.0, 7.0)]);
        assert!(g.keys[1].text.starts_with("destination 7-7/7: anywhere on the map"), "{:?}", g.keys[1]);
        assert!(g.shades.iter().any(|s| (s.col, s.row) == (10, 10)));
        assert!(g.shades.iter().all(|s| (4..=10).contains(&s.col) && (4..=10).contains(&s.row)));
    }
}
