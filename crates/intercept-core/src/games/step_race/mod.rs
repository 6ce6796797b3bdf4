//! The tactical step race (GITM / American-Mexican War OnLine; rules G-1..G-13 of
//! `docs/rules/tactical-step-race.md`): a unit with an interception order may stop a moving unit if it can reach
//! a square of the mover's path in no more steps than the mover takes to get there.
//!
//! The rules are pure geometry, with no dice: [`race`] holds them ([`race::race_move`] answers one move, and
//! `intercept-sim check step-race` asks it from the command line). [`StepRace`] makes them a model of the
//! engine: the mover's start, destination and optional waypoint are drawn from regions of the map
//! ([`config::StepRaceConfig`]), and a trial races that move. Besides the odds of interception it reports
//! the destination square and, when caught, the same square again in a second metric: the ratio of the two,
//! square by square, is the coverage map (P(intercepted | destination)), drawn as a heatmap.

pub mod check;
pub mod config;
pub mod coverage;
mod picture;
pub mod race;
mod set;

pub use set::StepRaceRules;

use crate::chance::{Chance, Dist};
use crate::metrics::{Metric, Metrics, Recorder};
use crate::model::Model;
use race::{BoxFilter, Interceptor, Square};

/// The number of squares of the tactical map, numbered `col + 15 * row` in the coverage metrics.
pub const SQUARES: u32 = 225;

/// The metric of each trial's destination square (its number, `col + 15 * row`).
pub const DESTINATION: &str = "mover.destination";
/// The metric of the destination square of a caught move (its number plus 1; 0 when not caught).
pub const CAUGHT_DESTINATION: &str = "mover.caught_destination";

/// A resolved step-race scenario.
#[derive(Clone, Debug)]
pub struct StepRace {
    interceptors: Vec<Interceptor>,
    names: Vec<String>,
    filter: BoxFilter,
    starts: Vec<Square>,
    start: Dist,
    destinations: Vec<Square>,
    /// For each start, the destinations other than it (indices into `destinations`), drawn uniformly.
    others: Vec<Vec<usize>>,
    destination: Vec<Dist>,
    waypoint: Dist,
    waypoints: Vec<Square>,
    way: Dist,
    metrics: Metrics,
    m: Slots,
    /// Every move's race, when there are at most [`TABLE_MOVES`] moves.
    races: Option<Vec<Option<Caught>>>,
}

/// The most moves (starts x (waypoints + 1) x destinations) whose races are tabled: 4 MB.
const TABLE_MOVES: usize = 1 << 20;

/// A drawn move, by index: start, waypoint (0 for none), destination.
#[derive(Clone, Copy, Debug)]
struct Drawn {
    start: usize,
    way: usize,
    end: usize,
}

/// Who caught a move, on which leg and at which step of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Caught {
    by: u8,
    leg: u8,
    step: u8,
}

#[derive(Clone, Debug)]
struct Slots {
    intercepted: Metric,
    by: Vec<Metric>,
    leg: Metric,
    step: Metric,
    destination: Metric,
    caught_destination: Metric,
}

impl StepRace {
    /// The model of these interceptors against a mover drawn from `starts`, `destinations` and, with
    /// probability `p_waypoint`, a waypoint from `waypoints`. Each start must leave some destination.
    pub fn new(
        interceptors: Vec<Interceptor>,
        names: Vec<String>,
        filter: BoxFilter,
        starts: Vec<Square>,
        destinations: Vec<Square>,
        p_waypoint: f64,
        waypoints: Vec<Square>,
    ) -> StepRace {
        let mut metrics = Metrics::default();
        let intercepted = metrics.probability("step_race.intercepted");
        metrics.describe(
            intercepted,
            "an interceptor reaches the mover's square in time on some leg and cuts the move short (G-6, G-7, G-12)",
        );
        let by = names
            .iter()
            .map(|n| {
                metrics.described_probability(
                    format!("step_race.interceptor.{n}.intercepted"),
                    format!(
                        "{n} is the one that intercepts: earliest step, then nearest, then listed first (G-7, G-A6)"
                    ),
                )
            })
            .collect();
        let leg = metrics.distribution("step_race.leg", 2);
        metrics.describe(
            leg,
            "the leg on which the mover is caught, 2 being the leg after the waypoint; 0 if not caught (G-3, G-12)",
        );
        let step = metrics.distribution("step_race.step", 14);
        metrics.describe(step, "the step of its leg at which the mover is caught; 0 if not caught (G-4, G-7)");
        let destination = metrics.places(DESTINATION, SQUARES - 1);
        metrics.describe(destination, "the move's destination square, numbered col + 15 * row (G-3)");
        let caught_destination = metrics.places(CAUGHT_DESTINATION, SQUARES);
        metrics.describe(
            caught_destination,
            "a caught move's destination square, numbered col + 15 * row plus 1; 0 if not caught (G-3, G-12)",
        );
        let m = Slots { intercepted, by, leg, step, destination, caught_destination };
        let uniform = |n: usize| Dist::from_weights(&vec![1; n]);
        let others: Vec<Vec<usize>> =
            starts.iter().map(|s| (0..destinations.len()).filter(|&d| destinations[d] != *s).collect()).collect();
        let destination = others.iter().map(|o| uniform(o.len())).collect();
        let mut model = StepRace {
            races: None,
            start: uniform(starts.len()),
            way: uniform(waypoints.len()),
            waypoint: Dist::bernoulli_f64(p_waypoint),
            interceptors,
            names,
            filter,
            starts,
            destinations,
            others,
            destination,
            waypoints,
            metrics,
            m,
        };
        model.races = model.table();
        model
    }

    /// Draws the move: the indices of its start, its waypoint (0 for none, else 1 + its index) and its
    /// destination (G-3).
    fn draw<C: Chance>(&self, chance: &mut C) -> Drawn {
        let start = chance.pick(&self.start);
        let end = self.others[start][chance.pick(&self.destination[start])];
        let way = if chance.happens(&self.waypoint) { 1 + chance.pick(&self.way) } else { 0 };
        Drawn { start, way, end }
    }

    /// The move's squares: a waypoint on the start or the destination is a straight move, since a leg of
    /// zero steps is not a move (G-9).
    fn points(&self, m: Drawn) -> ([Square; 3], usize) {
        let (start, end) = (self.starts[m.start], self.destinations[m.end]);
        match m.way.checked_sub(1).map(|w| self.waypoints[w]) {
            Some(w) if w != start && w != end => ([start, w, end], 3),
            _ => ([start, end, end], 2),
        }
    }

    /// The race of a drawn move (G-3..G-12): the first leg caught, its winner and its catch.
    fn race(&self, m: Drawn) -> Option<Caught> {
        let (points, n) = self.points(m);
        let mut legs = race::race_legs(&points[..n], &self.interceptors, self.filter).enumerate();
        legs.find_map(|(l, o)| o.result.ok().map(|(i, c)| Caught { by: i as u8, leg: l as u8 + 1, step: c.step as u8 }))
    }

    /// Every move's race, looked up by [`StepRace::slot`]: built once when there are few enough moves, since
    /// a race costs far more than the draws that pick it.
    fn table(&self) -> Option<Vec<Option<Caught>>> {
        let (s, w, d) = (self.starts.len(), self.waypoints.len() + 1, self.destinations.len());
        (s * w * d <= TABLE_MOVES).then(|| (0..s * w * d).map(|slot| self.race(self.drawn(slot))).collect())
    }

    /// A move's place in the table: start, then waypoint, then destination.
    fn slot(&self, m: Drawn) -> usize {
        (m.start * (self.waypoints.len() + 1) + m.way) * self.destinations.len() + m.end
    }

    /// The move at a place of the table: the inverse of [`StepRace::slot`].
    fn drawn(&self, slot: usize) -> Drawn {
        let (w, d) = (self.waypoints.len() + 1, self.destinations.len());
        Drawn { start: slot / (w * d), way: slot / d % w, end: slot % d }
    }

    /// What `validate` shows: the regions' sizes and the interceptors.
    pub fn describe(&self) -> serde_json::Value {
        let units: Vec<_> = self
            .interceptors
            .iter()
            .zip(&self.names)
            .map(|(i, n)| serde_json::json!({ "name": n, "at": i.at.to_string(), "box": i.boxed.to_string() }))
            .collect();
        serde_json::json!({
            "model": "step_race",
            "box_filter": self.filter,
            "interceptors": units,
            "starts": self.starts.len(),
            "destinations": self.destinations.len(),
            "waypoints": self.waypoints.len(),
            "p_waypoint": self.waypoint.probability(1),
        })
    }

    /// The scenario in plain words, for the report.
    pub fn plain_words(&self) -> Vec<String> {
        let filter = match self.filter {
            BoxFilter::Point => "the interception point must lie in the unit's intercept box (G-8)",
            BoxFilter::Destination => "the leg's destination must lie in the unit's intercept box (G-A1)",
            BoxFilter::None => "the intercept box filters nothing (G-A1)",
        };
        let mut words: Vec<String> = self
            .interceptors
            .iter()
            .zip(&self.names)
            .map(|(i, n)| format!("{n} stands on {} with an intercept box {} (G-1, G-2).", i.at, i.boxed))
            .collect();
        words.push(format!(
            "The mover starts on one of {} squares and heads for one of {} others, each equally likely; with \
             probability {:.4} it goes by a waypoint drawn from {} squares, each leg raced as a separate move (G-3).",
            self.starts.len(),
            self.destinations.len(),
            self.waypoint.probability(1),
            self.waypoints.len()
        ));
        words.push(format!(
            "A unit intercepts if it can reach a square of the leg in no more steps than the mover takes to get \
             there (G-6), at the earliest such step (G-7); {filter}; a one-square leg is never interceptable (G-9)."
        ));
        words
    }
}

impl Model for StepRace {
    // A destination is one of up to 224 squares: a memo walk would scan it six outcomes at a time.
    const PATH_MEMO: bool = false;

    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let m = self.draw(chance);
        let end = number(self.destinations[m.end]);
        rec.value(self.m.destination, end);
        let caught = match &self.races {
            Some(table) => table[self.slot(m)],
            None => self.race(m),
        };
        if let Some(c) = caught {
            rec.hit(self.m.intercepted);
            rec.hit(self.m.by[usize::from(c.by)]);
            rec.value(self.m.leg, u32::from(c.leg));
            rec.value(self.m.step, u32::from(c.step));
            rec.value(self.m.caught_destination, end + 1);
        }
    }
}

/// A square's number in the coverage metrics: `col + 15 * row`.
pub fn number(q: Square) -> u32 {
    (q.col + 15 * q.row) as u32
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::{self, Overrides};
    use crate::engine::{self, Plan};
    use crate::games::shipped;
    use crate::games::step_race::StepRaceRules;

    /// The race table is a cache of the race: a model too large to table (racing every trial) counts the
    /// same trials the same way.
    #[test]
    fn the_race_table_changes_no_count() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/step-race/screen-with-waypoints.toml"));
        let scenario = config::load(&shipped(), &path, Overrides::default()).expect("shipped config");
        let tabled = &scenario.resolved::<StepRaceRules>().expect("a step race").model;
        assert!(tabled.races.is_some(), "this scenario is small enough to table");
        let mut untabled = tabled.clone();
        untabled.races = None;
        let plan = Plan { trials: 50_000, seed: 3, chunk_size: 10_000, draws: Default::default() };
        assert_eq!(engine::run(tabled, &plan, &|_| {}), engine::run(&untabled, &plan, &|_| {}));
    }
}
