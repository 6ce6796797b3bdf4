//! The naval scenario as a picture: the interception chain (N-0, N-10), drawn as a [`Diagram`] level by
//! level, the mission on top and each group below the force it intercepts; an arrow from each group to its
//! target labelled with its dice, its distance and its exact chance to reach in the first round (N-4..N-8,
//! read from the group's resolved movement, never recomputed); and, on the bottom level, the combat hexes
//! where forces meet (N-10.3, N-12, N-17), with the deferrals that may join them (N-14).

use super::words::activity_name;
use super::{Force, Group, Naval, Place};
use crate::games::words::{and_list, count, odds_of};
use crate::present::{Arrow, Diagram, Node, Picture, Spot, Tone};

impl Naval {
    /// The chain of interceptions and the combat hexes, as a picture.
    pub fn picture(&self, activity: super::config::Activity) -> Picture {
        let mut nodes = vec![self.mission_node(activity)];
        let mut orders = vec![1u32; self.deepest() + 2];
        for g in &self.groups {
            nodes.push(group_node(g, &mut orders[g.level]));
        }
        let hexes = self.meetings.iter().map(|m| m.place).collect::<Vec<_>>();
        let level = self.deepest() as u32 + 1;
        nodes.extend(hexes.iter().enumerate().map(|(i, &p)| self.hex_node(p, i, level)));
        let mut arrows: Vec<Arrow> = self.groups.iter().map(|g| self.reach_arrow(g)).collect();
        arrows.extend(self.groups.iter().filter_map(|g| defer_arrow(g, &hexes)));
        Picture::Diagram(Diagram {
            title: format!("The interception chain against {}", self.mission_name),
            notes: vec![
                "Each level intercepts the level above it (N-0); arrows give the dice, the hexes to go and the \
                 exact chance to reach in the first round (N-7, N-8)."
                    .to_owned(),
                "Bottom: the combat hexes, fought deepest first (N-12).".to_owned(),
            ],
            nodes,
            arrows,
        })
    }

    fn force_id(&self, force: Force) -> String {
        match force {
            Force::Mission => "mission".to_owned(),
            Force::Group(i) => group_id(&self.groups[i]),
        }
    }

    fn deepest(&self) -> usize {
        self.groups.iter().map(|g| g.level).max().unwrap_or(0)
    }

    fn mission_node(&self, activity: super::config::Activity) -> Node {
        Node {
            id: "mission".to_owned(),
            label: self.mission_name.clone(),
            note: format!(
                "the mission: {}, {}",
                activity_name(activity),
                count(self.mission_factors.into(), "factor", "factors")
            ),
            spot: Spot::Level { level: 0, order: 0 },
            tone: Tone::First,
        }
    }

    /// A combat hex: where a force is met, on its way out or home, and who meets it there.
    fn hex_node(&self, place: Place, i: usize, level: u32) -> Node {
        let met = self.name_of(place.force);
        let label = match (place.home, place.force) {
            (0, Force::Mission) => format!("{met}'s interception hex"),
            (0, Force::Group(_)) => format!("where {met} is met"),
            (hex, _) => format!("{met}'s way home, hex {hex}"),
        };
        // Each side by level (N-0): a group an even number of levels from the force met sails with it (an
        // escort aimed at the same hex, N-10.3); the others are its opponents.
        let met_level = match place.force {
            Force::Mission => 0,
            Force::Group(g) => self.groups[g].level,
        };
        let here = self.groups.iter().filter(|g| g.place == place);
        let (with, against): (Vec<&Group>, Vec<&Group>) = here.partition(|g| g.level % 2 == met_level % 2);
        let names = |gs: &[&Group]| gs.iter().map(|g| g.name.clone()).collect::<Vec<_>>();
        let side = [vec![met.to_owned()], names(&with)].concat();
        Node {
            id: format!("hex-{i}"),
            label,
            note: format!("combat: {} against {}", and_list(&names(&against)), and_list(&side)),
            spot: Spot::Level { level, order: i as u32 },
            tone: Tone::Place,
        }
    }

    /// The group's attempt on its target: dice, distance and P(reach) (N-6..N-8), or why it makes none.
    fn reach_arrow(&self, g: &Group) -> Arrow {
        let mut label =
            vec![format!("{}, {}", count(g.dice.dice.into(), "die", "dice"), count(g.distance.into(), "hex", "hexes"))];
        label.push(match g.first_move.in_range() {
            true => format!("reach {}", odds_of(&g.first_move.dist, g.distance as usize)),
            false => "out of range (A-3)".to_owned(),
        });
        if g.aim.returning() {
            label.push("on its way home (N-17)".to_owned());
        }
        Arrow { from: group_id(g), to: self.force_id(g.target), label, faint: !g.first_move.in_range() || g.submarine }
    }
}

fn group_node(g: &Group, order: &mut u32) -> Node {
    let side = if g.level % 2 == 1 { "defender" } else { "moving player" };
    let mut note = format!("level {}, {side}, {}", g.level, count(g.factors.into(), "factor", "factors"));
    if g.submarine {
        note += ", submarine (N-19)";
    }
    let spot = Spot::Level { level: g.level as u32, order: *order };
    *order += 1;
    let tone = if g.withheld {
        Tone::Idle
    } else if g.level % 2 == 1 {
        Tone::Second
    } else {
        Tone::First
    };
    Node { id: group_id(g), label: g.name.clone(), note, spot, tone }
}

/// A group that may defer joins the combat at its fellow's hex instead (N-14).
fn defer_arrow(g: &Group, hexes: &[Place]) -> Option<Arrow> {
    let place = g.defer?.place;
    let hex = hexes.iter().position(|&p| p == place)?;
    let label = vec!["may join here instead (N-14)".to_owned()];
    Some(Arrow { from: group_id(g), to: format!("hex-{hex}"), label, faint: true })
}

fn group_id(g: &Group) -> String {
    format!("group-{}", g.name)
}
