//! `check step-race`: one move raced against units with interception orders, leg by leg, with no config
//! file: each leg's outcome and the verdict, as text or JSON.

use std::fmt::Write;

use serde_json::json;

use super::race::{BoxFilter, Immune, Interceptor, LegOutcome, caught};

/// `check step-race`'s answer: each leg raced, then the verdict.
pub fn step_race_text(interceptors: &[Interceptor], filter: BoxFilter, legs: &[LegOutcome]) -> String {
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

/// `check step-race --json`.
pub fn step_race_json(interceptors: &[Interceptor], legs: &[LegOutcome]) -> String {
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
    let body = json!({ "verdict": verdict, "legs": legs.iter().map(leg).collect::<Vec<_>>() });
    serde_json::to_string_pretty(&body).expect("JSON")
}
