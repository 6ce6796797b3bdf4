//! `check card-game`: who may intercept, with the deciding rule, at each final location the config's move
//! allows (S-1..S-19), as text or JSON.

use std::fmt::Write;

use serde_json::json;

use super::rules::{Location, Movement};
use super::{CardGame, CardGameRules, Verdict};
use crate::config::Scenario;

/// The answer for a resolved scenario, as text or JSON; refused when the scenario is not a card game's.
pub fn answer(scenario: &Scenario, json: bool) -> Result<String, String> {
    let Some(game) = scenario.resolved::<CardGameRules>() else {
        let file = scenario.file.display();
        return Err(format!("{file}: not a card-game config; check card-game needs a [card_game] table"));
    };
    let path = game.config.mover.path.as_deref();
    Ok(if json { card_game_json(&game.model, path) } else { card_game_text(&game.model, path) })
}

/// `check card-game`'s answer: the move, then every final location it allows, with each unit's verdict if
/// the mover does not attack there and who may defend if it does.
pub fn card_game_text(game: &CardGame, path: Option<&[String]>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", card_game_move(game, path));
    let attack = game.attack_probability();
    for (end, p) in game.ends() {
        let chance = if p < 1.0 { format!(" (chance {p:.4})") } else { String::new() };
        let _ = writeln!(out, "\nends at {}{chance}:", game.realm().label(end));
        let verdicts = game.verdicts(end);
        if attack < 1.0 {
            let _ = writeln!(out, "  if it does not attack:");
            let width = verdicts.iter().map(|v| v.unit.name.len()).max().unwrap_or(0);
            for v in &verdicts {
                let _ = match v.intercept {
                    Ok(()) => writeln!(out, "    {:width$}  may intercept", v.unit.name),
                    Err(why) => writeln!(out, "    {:width$}  may not intercept: {why}", v.unit.name),
                };
            }
            let many = names(&verdicts, |v| v.intercept.is_ok()).len() > 1;
            let together = if many { "; all that choose to fight it together in one fight (S-11)" } else { "" };
            let _ = writeln!(out, "    verdict: may intercept: {}{together}", who(&verdicts, |v| v.intercept.is_ok()));
        }
        if attack > 0.0 {
            let defenders = who(&verdicts, |v| v.defend.is_ok());
            let _ = writeln!(out, "  if it attacks: no intercept, Defend instead (S-2); may defend: {defenders}");
        }
    }
    out
}

/// The names of the units whose verdict passes `ok`, or "nobody".
fn who(verdicts: &[Verdict], ok: fn(&Verdict) -> bool) -> String {
    let names = names(verdicts, ok);
    if names.is_empty() { "nobody".to_owned() } else { names.join(", ") }
}

/// The names of the units whose verdict passes `ok`, in config order.
fn names<'a>(verdicts: &[Verdict<'a>], ok: fn(&Verdict) -> bool) -> Vec<&'a str> {
    verdicts.iter().filter(|v| ok(v)).map(|v| v.unit.name.as_str()).collect()
}

/// The move in one line: who, how, from where, by which path, and whether it attacks.
fn card_game_move(game: &CardGame, path: Option<&[String]>) -> String {
    let mover = game.mover();
    let how = match game.movement() {
        Movement::MoveAndAttack => "Move and Attack",
        Movement::Teleport => "a teleport (not Move and Attack, S-4)",
        Movement::Forced => "forced movement (not Move and Attack, S-4)",
        Movement::Carried => "being carried (not Move and Attack, S-16)",
    };
    let start = game.realm().label(mover.at);
    let route = match path {
        Some([]) => "takes no step (S-3)".to_owned(),
        Some(p) => format!("path {start} -> {}", p.join(" -> ")),
        None => format!("path open: any legal path of up to {} step(s)", 1 + mover.extra_steps),
    };
    let attack = match game.attack_probability() {
        0.0 => "does not attack".to_owned(),
        1.0 => "attacks".to_owned(),
        p => format!("attacks with chance {p:.4}"),
    };
    format!("{} at {start}: {how}, {route}, {attack}", mover.name)
}

/// `check card-game --json`: per final location, `no_attack` (who may intercept, and why not for the rest)
/// when the mover may decline to attack, and `attack` (who may defend) when it may attack.
pub fn card_game_json(game: &CardGame, path: Option<&[String]>) -> String {
    let attack = game.attack_probability();
    let end = |(at, p): (Location, f64)| {
        let verdicts = game.verdicts(at);
        let mut v = json!({ "at": game.realm().label(at), "probability": p });
        if attack < 1.0 {
            let unit = |v: &Verdict| {
                let rule = v.intercept.err().map(|b| b.rule());
                json!({ "name": v.unit.name, "may_intercept": v.intercept.is_ok(), "rule": rule, "why": v.intercept.err().map(|b| b.to_string()) })
            };
            let units: Vec<_> = verdicts.iter().map(unit).collect();
            v["no_attack"] = json!({ "may_intercept": names(&verdicts, |v| v.intercept.is_ok()), "units": units });
        }
        if attack > 0.0 {
            let unit =
                |v: &Verdict| json!({ "name": v.unit.name, "may_defend": v.defend.is_ok(), "why": v.defend.err() });
            let units: Vec<_> = verdicts.iter().map(unit).collect();
            v["attack"] = json!({ "may_intercept": [], "rule": "S-2", "may_defend": names(&verdicts, |v| v.defend.is_ok()), "units": units });
        }
        v
    };
    let body = json!({
        "mover": game.mover().name,
        "movement": game.movement(),
        "from": game.realm().label(game.mover().at),
        "path": path,
        "p_attack": attack,
        "ends": game.ends().into_iter().map(end).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&body).expect("JSON")
}
