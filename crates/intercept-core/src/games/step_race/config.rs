//! The `[step_race]` config as written, and its validation into a [`StepRace`].
//!
//! [`StepRaceConfig`] mirrors the TOML one to one (unknown keys are rejected by serde). Squares are written
//! `column-row` and regions (start, destinations, waypoints) `centre/radius`, the squares of an intercept
//! box clipped to the map (G-2); a single square is a region of radius 0.

use super::race::BadSquare;
use serde::{Deserialize, Serialize};

use super::StepRace;
use super::race::{BoxFilter, InterceptBox, Interceptor, Square};
use crate::config::{Invalid, KeyPath, check_name};

/// `[step_race]`: units with interception orders, and a mover drawn from regions of the map.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepRaceConfig {
    /// What the intercept box filters (G-8, G-A1): `point`, `destination` or `none`.
    #[serde(default)]
    pub box_filter: BoxFilter,
    /// `[[step_race.interceptor]]`: the units with an interception order, 1 to 100; each is raced against
    /// every leg on its own, and the earliest catch wins (G-1, G-A6).
    #[serde(default)]
    pub interceptor: Vec<InterceptorConfig>,
    /// `[step_race.mover]`: where the moving unit starts and goes, and its waypoint, each drawn uniformly from
    /// a region of the 15 by 15 map (G-3, G-4).
    pub mover: MoverConfig,
}

/// `[[step_race.interceptor]]`: a unit with an interception order (G-1) and its intercept box (G-2).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterceptorConfig {
    /// Names the unit in its metric (`step_race.interceptor.<name>.intercepted`); letters, digits, '-', '_'
    /// or '.', unique.
    pub name: String,
    /// Its square, `column-row`, each 0 to 14, such as `7-7`: it reaches a square in as many steps as king
    /// moves from here (G-5).
    pub at: String,
    /// Its intercept box, `centre/radius` such as `7-7/3`: every square within that many king moves of the
    /// centre, which need not be its own square (G-2); what it filters is `box_filter` (G-8, G-A1).
    #[serde(rename = "box")]
    pub boxed: String,
}

/// `[step_race.mover]`: where the moving unit starts and where it goes, each drawn uniformly from a region.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoverConfig {
    /// The start square, or a region the start is drawn from.
    pub start: String,
    /// The region the destination is drawn from; the start square itself is left out.
    #[serde(default = "whole_map")]
    pub destination: String,
    /// The chance, from 0 to 1, that the move goes by a waypoint, which splits it into two legs (G-3).
    #[serde(default)]
    pub waypoint: f64,
    /// The region the waypoint is drawn from. A waypoint drawn on the start or the destination is no
    /// waypoint: the move goes straight.
    #[serde(default = "whole_map")]
    pub waypoints: String,
}

fn whole_map() -> String {
    "7-7/7".to_owned()
}

/// A region as a box: `centre/radius`, or a square as a box of radius 0.
pub fn region_box(text: &str) -> Result<InterceptBox, BadSquare> {
    match text.contains('/') {
        true => text.parse::<InterceptBox>(),
        false => Ok(InterceptBox { centre: text.parse::<Square>()?, radius: 0 }),
    }
}

/// A region's squares: a square, or `centre/radius` clipped to the map.
pub fn region(text: &str) -> Result<Vec<Square>, BadSquare> {
    let boxed = region_box(text)?;
    let all = (0..15).flat_map(|row| (0..15).map(move |col| Square { col, row }));
    Ok(all.filter(|q| boxed.contains(*q)).collect())
}

impl StepRaceConfig {
    /// Checks every value and builds the model.
    pub fn resolve(&self) -> Result<StepRace, Invalid> {
        let base = || KeyPath::root().key("step_race");
        if self.interceptor.is_empty() {
            let msg = "at least one [[step_race.interceptor]] is required".to_owned();
            return Err(Invalid::new(base().key("interceptor"), msg));
        }
        if self.interceptor.len() > 100 {
            let msg = format!("{} interceptors; allowed: 1 to 100", self.interceptor.len());
            return Err(Invalid::new(base().key("interceptor"), msg));
        }
        let interceptors = self.interceptors()?;
        let names = self.interceptor.iter().map(|i| i.name.clone()).collect();
        let mover = |k: &str| base().key("mover").key(k);
        let parsed = |k: &str, text: &str| region(text).map_err(|m| Invalid::new(mover(k), m.0));
        let starts = parsed("start", &self.mover.start)?;
        let destinations = parsed("destination", &self.mover.destination)?;
        if destinations.len() == 1 && starts.contains(&destinations[0]) {
            let msg = format!("the only destination, {}, is also a start; a move must go somewhere", destinations[0]);
            return Err(Invalid::new(mover("destination"), msg));
        }
        let p = self.mover.waypoint;
        if !(0.0..=1.0).contains(&p) {
            return Err(Invalid::new(mover("waypoint"), format!("{p} is not a probability; allowed: 0 to 1")));
        }
        let waypoints = parsed("waypoints", &self.mover.waypoints)?;
        Ok(StepRace::new(interceptors, names, self.box_filter, starts, destinations, p, waypoints))
    }

    fn interceptors(&self) -> Result<Vec<Interceptor>, Invalid> {
        let mut seen = Vec::new();
        self.interceptor
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let path = || KeyPath::root().key("step_race").key("interceptor").index(i);
                check_name(&c.name, || path().key("name"))?;
                if seen.contains(&c.name) {
                    return Err(Invalid::new(
                        path().key("name"),
                        format!("{:?} is used twice; names must differ", c.name),
                    ));
                }
                seen.push(c.name.clone());
                let at = c.at.parse::<Square>().map_err(|m| Invalid::new(path().key("at"), m.0))?;
                let boxed = c.boxed.parse::<InterceptBox>().map_err(|m| Invalid::new(path().key("box"), m.0))?;
                Ok(Interceptor { at, boxed })
            })
            .collect()
    }
}
