//! The sides' decisions on a map, for `where` ([`crate::decide`]): first where the defender intercepts the
//! mission force on its route (N-2.2), then, level by level, where the other side meets each force aimed at
//! (N-2.4: a hex of that force's path from its base to its own interception hex, that hex included), each
//! made before the dice of its level (SoP steps 3 and 8). All groups aimed at one force on the way out move
//! together: one hex a force (N-2.2). Groups on the return leg keep the hexes written.

use super::{Leg, NavalConfig};
use crate::config::path::Invalid;
use crate::config::set::Setting;
use crate::decide::{Choice, Decision};

impl NavalConfig {
    /// The `step`-th decision, with the decisions before it made: `None` without a map or once all are made.
    pub fn decision(&self, step: usize) -> Result<Option<Decision>, Invalid> {
        let Some(m) = &self.map else { return Ok(None) };
        let forces = self.forces_aimed_at()?;
        let Some(&(force, level)) = forces.get(step) else { return Ok(None) };
        let map = m.hex_map()?;
        let closed = super::chart::closed_straits(&map, m)?;
        let (act, on) = match force {
            None => {
                let route = self.route_on(&map, &closed)?;
                (format!("the defender intercepts the {} force", self.mission.name), route)
            }
            Some(t) => {
                let g = &self.group[t];
                let path = self.charted_path(t, &map, &closed)?;
                let player = if level % 2 == 1 { "defender" } else { "moving player" };
                (format!("the {player} meets {} on its way", g.name), path)
            }
        };
        let question = format!("where {act}");
        let target = force.map_or(self.mission.name.as_str(), |t| self.group[t].name.as_str());
        let aimed: Vec<&str> =
            self.group.iter().filter(|g| g.target == target && g.leg == Leg::Out).map(|g| g.name.as_str()).collect();
        let options = on[1.min(on.len())..]
            .iter()
            .map(|&hex| {
                let label = map.label(hex);
                let settings = aimed
                    .iter()
                    .map(|name| Setting { key: format!("naval.group.{name}.intercept_at"), value: label.clone() })
                    .collect();
                Choice { label, settings }
            })
            .collect();
        let side = if level % 2 == 1 { "defender" } else { "moving" };
        Ok(Some(Decision { side: side.into(), question, act, options }))
    }

    /// The forces groups are aimed at on the way out, each with the level of the groups aimed at it: the
    /// mission (`None`) first, then groups by level, as listed.
    fn forces_aimed_at(&self) -> Result<Vec<(Option<usize>, usize)>, Invalid> {
        let levels = self.levels()?;
        let aimed = |name: &str| self.group.iter().any(|g| g.target == name && g.leg == Leg::Out);
        let mut forces = Vec::new();
        if aimed(&self.mission.name) {
            forces.push((None, 1));
        }
        let deepest = levels.iter().copied().max().unwrap_or(0);
        for level in 1..=deepest {
            for (j, g) in self.group.iter().enumerate() {
                if levels[j] == level && g.leg == Leg::Out && aimed(&g.name) {
                    forces.push((Some(j), level + 1));
                }
            }
        }
        Ok(forces)
    }
}
