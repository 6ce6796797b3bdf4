//! `check step-race` ([`StepRaceCheck`]): one move raced against units with interception orders, leg by leg,
//! with no config file: each leg's outcome and the verdict ([`RaceAnswer`]), as text or JSON.

use super::race::BadSquare;
use std::fmt::Write;

use serde_json::json;

use super::race::{self, BoxFilter, Immune, InterceptBox, Interceptor, LegOutcome, Move, Square, caught};
use crate::ruleset::{Input, Mount, Param, ParamKind, Tool, ToolError, Values, View};

/// `check step-race`: can these units intercept this move?
pub struct StepRaceCheck;

/// The box filters `--box-filter` allows, as `step_race.box_filter` writes them (G-8, G-A1).
const FILTERS: &[&str] = &["point", "destination", "none"];

impl Tool for StepRaceCheck {
    fn mount(&self) -> Mount {
        Mount::Check("step-race")
    }

    fn title(&self) -> &'static str {
        "Can these units intercept this tactical move? The step race of GITM (rules G-1..G-13)."
    }

    fn examples(&self) -> &'static [&'static str] {
        &["check step-race --interceptor 7-7 --box 7-7/3 --move 5-2,5-4,8-4"]
    }

    fn params(&self) -> Vec<Param> {
        let text = |name, value_name, many, help| Param {
            required: true,
            ..Param::new(name, ParamKind::Text { value_name, many }, help)
        };
        vec![
            text(
                "interceptor",
                "SQUARE",
                true,
                "A unit with an interception order, by its square column-row (repeatable).",
            ),
            text(
                "box",
                "CENTRE/RADIUS",
                true,
                "Its intercept box, centre/radius (G-2); one for each --interceptor, in order, or one for them all.",
            ),
            text(
                "move",
                "SQUARES",
                false,
                "The move: start, an optional waypoint, and the destination, such as 5-2,5-4,8-4 (G-3).",
            ),
            Param {
                default: Some(json!("point")),
                ..Param::new(
                    "box_filter",
                    ParamKind::Choice { allowed: FILTERS },
                    "What the box filters (G-8, G-A1): the interception point, the destination, or nothing.",
                )
            },
        ]
    }

    fn answer(&self, input: &Input<'_>) -> Result<Box<dyn View>, ToolError> {
        let v = &input.values;
        let interceptors = interceptors(v)?;
        let filter = match v.choice("box_filter") {
            Some("destination") => BoxFilter::Destination,
            Some("none") => BoxFilter::None,
            _ => BoxFilter::Point,
        };
        let moves = v.texts("move").first().map_or("", String::as_str);
        let moves = parse_move(moves).map_err(|e| ToolError::param("move", e.0))?;
        let legs = race::race_move(&moves, &interceptors, filter);
        Ok(Box::new(RaceAnswer { interceptors, filter, legs }))
    }
}

/// The interceptors, each with its box: one box for each, or one for all.
fn interceptors(v: &Values) -> Result<Vec<Interceptor>, ToolError> {
    let squares = v.texts("interceptor").iter().map(|s| s.parse::<Square>());
    let squares = squares.collect::<Result<Vec<_>, _>>().map_err(|e| ToolError::param("interceptor", e.0))?;
    let boxes = v.texts("box").iter().map(|s| s.parse::<InterceptBox>());
    let boxes = boxes.collect::<Result<Vec<_>, _>>().map_err(|e| ToolError::param("box", e.0))?;
    if boxes.len() != 1 && boxes.len() != squares.len() {
        let (b, i) = (boxes.len(), squares.len());
        return Err(ToolError::param(
            "box",
            format!("{b} boxes for {i} interceptors; give one for each, in order, or one for all"),
        ));
    }
    let boxed = |n: usize| boxes[n.min(boxes.len() - 1)];
    Ok(squares.iter().enumerate().map(|(n, &at)| Interceptor { at, boxed: boxed(n) }).collect())
}

/// Two or three squares, start to end, with no leg of zero steps (a waypoint equal to the start is not a move).
fn parse_move(s: &str) -> Result<Move, BadSquare> {
    let points = s.split(',').map(str::parse::<Square>).collect::<Result<Vec<_>, _>>()?;
    if !(2..=3).contains(&points.len()) {
        return Err(BadSquare::from(format!(
            "{s:?} has {} squares; allowed: start,end or start,waypoint,end",
            points.len()
        )));
    }
    if let Some(w) = points.windows(2).find(|w| w[0] == w[1]) {
        return Err(BadSquare::from(format!(
            "{s:?} stays on {} for a whole leg; a waypoint must differ from the squares before and after it",
            w[0]
        )));
    }
    Ok(Move { points })
}

/// `check step-race`'s answer: the interceptors, and each leg raced.
pub struct RaceAnswer {
    pub interceptors: Vec<Interceptor>,
    pub filter: BoxFilter,
    pub legs: Vec<LegOutcome>,
}

impl View for RaceAnswer {
    fn text(&self) -> String {
        step_race_text(&self.interceptors, self.filter, &self.legs)
    }

    fn json(&self) -> serde_json::Value {
        step_race_json(&self.interceptors, &self.legs)
    }
}

/// Each leg raced, then the verdict.
fn step_race_text(interceptors: &[Interceptor], filter: BoxFilter, legs: &[LegOutcome]) -> String {
    let mut out = String::new();
    let rule = match filter {
        BoxFilter::Point => "the interception point must lie in it",
        BoxFilter::Destination => "the leg's destination must lie in it",
        BoxFilter::None => "it filters nothing",
    };
    for i in interceptors {
        let _ = writeln!(out, "interceptor at {}, intercept box {} ({rule})", i.at, i.boxed);
    }
    for (n, l) in legs.iter().enumerate() {
        let steps = if l.leg.steps() == 1 { "1 step".to_owned() } else { format!("{} steps", l.leg.steps()) };
        let head = format!("leg {}: {} -> {}, {steps}", n + 1, l.leg.from, l.leg.to);
        let _ = match l.result {
            Ok((i, c)) => {
                writeln!(out, "{head}: intercepted by {} at {} on step {}", interceptors[i].at, c.square, c.step)
            }
            Err(Immune::OneSquare) => writeln!(out, "{head}: not interceptable (a one-square move, G-9)"),
            Err(Immune::OutOfReach) => {
                writeln!(out, "{head}: not interceptable (no square of it reachable in time{})", boxed(filter))
            }
        };
    }
    let _ = writeln!(out, "verdict: {}", verdict(interceptors, legs));
    out
}

fn boxed(filter: BoxFilter) -> &'static str {
    if filter == BoxFilter::None { "" } else { " within the box" }
}

fn verdict(interceptors: &[Interceptor], legs: &[LegOutcome]) -> String {
    match caught(legs) {
        Some((leg, i, c)) => {
            format!("intercepted at {} (leg {leg}, step {}) by the unit at {}", c.square, c.step, interceptors[i].at)
        }
        None => "not interceptable".to_owned(),
    }
}

/// The verdict, and each leg with its result.
fn step_race_json(interceptors: &[Interceptor], legs: &[LegOutcome]) -> serde_json::Value {
    let leg = |l: &LegOutcome| {
        let mut v = json!({ "from": l.leg.from.to_string(), "to": l.leg.to.to_string(), "steps": l.leg.steps() });
        v["result"] = match l.result {
            Ok((i, c)) => {
                json!({ "intercepted": true, "by": interceptors[i].at.to_string(), "square": c.square.to_string(), "step": c.step })
            }
            Err(Immune::OneSquare) => json!({ "intercepted": false, "why": "one_square" }),
            Err(Immune::OutOfReach) => json!({ "intercepted": false, "why": "out_of_reach" }),
        };
        v
    };
    let verdict = match caught(legs) {
        Some((leg, i, c)) => {
            json!({ "intercepted": true, "leg": leg, "step": c.step, "square": c.square.to_string(), "by": interceptors[i].at.to_string() })
        }
        None => json!({ "intercepted": false }),
    };
    json!({ "verdict": verdict, "legs": legs.iter().map(leg).collect::<Vec<_>>() })
}
