//! The cavalry scenario as a picture: the moving target in the middle, facing up, and each interceptor
//! around it on the side where it would end its move, its front, a flank or its rear (C-6), with its orders
//! and morale; an arrow from each interceptor to the target labelled with its chance to intercept on the
//! table (C-2), read from the unit's resolved roll, or the rule that bars it (C-1).

use super::config::{CavalryConfig, InterceptorConfig};
use super::words::{facing_name, formation_words, order_name};
use super::{Cavalry, Facing, barred_by, kind_name};
use crate::games::words::{count, odds_of};
use crate::present::{Arrow, Diagram, Node, Picture, Spot, Tone};

impl Cavalry {
    /// The target and its interceptors by facing, as a picture.
    pub fn picture(&self, cfg: &CavalryConfig) -> Picture {
        let t = &cfg.target;
        let target = Node {
            id: "target".to_owned(),
            label: kind_name(t.kind).to_owned(),
            note: format!("the target: morale {}, {}", t.morale, formation_words(t.formation)),
            spot: Spot::Centre,
            tone: Tone::First,
        };
        let mut nodes = vec![target];
        let mut arrows = Vec::new();
        let mut seen = [0u32; 3];
        for (unit, u) in self.units.iter().zip(&cfg.interceptor) {
            let n = &mut seen[unit.ends_in as usize];
            let note =
                format!("{}, morale {}, {}", order_name(u.order), unit.morale, count(u.distance, "hex", "hexes"));
            let tone = if unit.eligible { Tone::Second } else { Tone::Idle };
            let id = format!("unit-{}", unit.name);
            nodes.push(Node { id: id.clone(), label: unit.name.clone(), note, spot: bearing(unit.ends_in, *n), tone });
            *n += 1;
            let label = match unit.eligible {
                true => vec![format!("{}: {}", facing_name(unit.ends_in), odds_of(&unit.roll, 1))],
                false => vec![barred(cfg, u)],
            };
            arrows.push(Arrow { from: id, to: "target".to_owned(), label, faint: !unit.eligible });
        }
        Picture::Diagram(Diagram {
            title: "The interceptors around the target".to_owned(),
            notes: vec![
                "The target faces up: its front above, its flanks beside it, its rear below (C-6).".to_owned(),
                "Arrows: where each unit would end and its chance to intercept (C-2).".to_owned(),
            ],
            nodes,
            arrows,
        })
    }
}

/// Why a unit may not attempt, short: the first rule that bars it (C-1), by its ID.
fn barred(cfg: &CavalryConfig, u: &InterceptorConfig) -> String {
    let reasons = barred_by(cfg, u);
    let rule = reasons.first().and_then(|r| r.rsplit_once('(')).map(|(_, id)| id.trim_end_matches(')'));
    rule.map_or_else(|| "may not attempt".to_owned(), |id| format!("may not attempt ({id})"))
}

/// The `n`-th unit ending in `facing`: front above, flanks right and left in turn, rear below.
fn bearing(facing: Facing, n: u32) -> Spot {
    let side = match facing {
        Facing::Front => 0.0,
        Facing::Flank if n.is_multiple_of(2) => 90.0,
        Facing::Flank => 270.0,
        Facing::Rear => 180.0,
    };
    // Units on one side are fanned a little, in the order listed, so the drawing keeps that order.
    Spot::Around { bearing: side + f64::from(n) * 0.01 }
}
