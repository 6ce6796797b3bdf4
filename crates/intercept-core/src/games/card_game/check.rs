//! `check card-game`: who may intercept, with the deciding rule, at each final location the config's move
//! allows (S-1..S-19), and the fight that follows (S-11, S-12), as text or JSON; each later mover of the
//! turn in the same way, as the board stands at the start of the turn (S-19). [`CardGameCheck`] is the tool.

use std::fmt::Write;

use serde_json::json;

use super::rules::{Location, Movement, Unit};
use super::{CardGame, CardGameRules, Fought, Verdict};
use crate::ruleset::{Input, Mount, Param, Resolved, Tool, ToolError, View};

/// `check card-game`: who may intercept the config's move, and why not the rest.
pub struct CardGameCheck;

impl Tool for CardGameCheck {
    fn mount(&self) -> Mount {
        Mount::Check("card-game")
    }

    fn title(&self) -> &'static str {
        "Who may intercept this Move and Attack, and which rule rules out the rest? Sorcery's final-location rule \
         (S-1..S-19), for the situation a [card_game] config describes, at each final location it allows."
    }

    fn examples(&self) -> &'static [&'static str] {
        &["check card-game configs/card-game/deterrent.toml"]
    }

    fn params(&self) -> Vec<Param> {
        Vec::new()
    }

    fn config(&self) -> Option<&'static str> {
        Some("The situation's config (TOML, with a [card_game] table).")
    }

    fn answer(&self, input: &Input<'_>) -> Result<Box<dyn View>, ToolError> {
        let given = input.config.ok_or_else(|| ToolError::Input("check card-game needs a config file".into()))?;
        let Some(game) = given.rules.as_any().downcast_ref::<Resolved<CardGameRules>>() else {
            let file = crate::text::shown_path(given.file);
            return Err(ToolError::Input(format!(
                "{file}: not a card-game config; check card-game needs a [card_game] table"
            )));
        };
        let config = &game.config;
        let paths = std::iter::once(&config.mover).chain(&config.then).map(|m| m.path.clone()).collect();
        Ok(Box::new(Checked { game: game.model.clone(), paths }))
    }
}

/// `check card-game`'s answer: the game and the movers' declared paths, in turn order.
struct Checked {
    game: CardGame,
    paths: Vec<Option<Vec<String>>>,
}

impl Checked {
    fn paths(&self) -> Vec<Option<&[String]>> {
        self.paths.iter().map(Option::as_deref).collect()
    }
}

impl View for Checked {
    fn text(&self) -> String {
        card_game_text(&self.game, &self.paths())
    }

    fn json(&self) -> serde_json::Value {
        card_game_json(&self.game, &self.paths())
    }
}

/// `check card-game`'s answer: each mover's move, then every final location it allows, with each unit's
/// verdict if the mover does not attack there and the fight that follows, and who may defend if it does.
/// `paths` are the movers' declared paths, in turn order.
fn card_game_text(game: &CardGame, paths: &[Option<&[String]>]) -> String {
    let mut out = String::new();
    for (j, path) in paths.iter().enumerate() {
        let then = if j == 0 { "" } else { "\nthen " };
        let _ = writeln!(out, "{then}{}", card_game_move(game, j, *path));
        mover_text(game, j, &mut out);
    }
    out
}

/// One mover's final locations, each with the verdicts and the fight.
fn mover_text(game: &CardGame, j: usize, out: &mut String) {
    let mover = &game.movers()[j];
    let attack = mover.attack_probability();
    for (end, p) in mover.ends() {
        let chance = if p < 1.0 { format!(" (chance {p:.4})") } else { String::new() };
        let _ = writeln!(out, "\nends at {}{chance}:", game.label(j, end));
        let verdicts = game.verdicts_of(j, end);
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
            if j > 0 {
                let _ = writeln!(out, "    (unless it intercepted an earlier mover this turn, or died: S-19)");
            }
            if let Some(f) = game.fight_at(j, end) {
                let _ = writeln!(out, "    {}", fight_words(&f));
            }
        }
        if attack > 0.0 {
            let defenders = who(&verdicts, |v| v.defend.is_ok());
            let _ = writeln!(out, "  if it attacks: no intercept, Defend instead (S-2); may defend: {defenders}");
        }
    }
}

/// The fight in one line.
fn fight_words(f: &Fought) -> String {
    let list = |units: &[&Unit]| units.iter().map(|u| u.name.as_str()).collect::<Vec<_>>().join(", ");
    let mover = if f.mover_dies { "the mover dies" } else { "the mover survives" };
    let killed =
        if f.killed.is_empty() { "no interceptor dies".to_owned() } else { format!("killed: {}", list(&f.killed)) };
    match (f.by_policy, f.intercept.is_empty()) {
        (true, true) => "fight: none; every fight open to them would be negative for their side (S-A5)".to_owned(),
        (true, false) => {
            let verb = if f.intercept.len() == 1 { "intercepts" } else { "intercept" };
            format!("fight: {} {verb}, by the policy; {mover}; {killed} (S-11, S-12)", list(&f.intercept))
        }
        (false, _) => format!("fight if all that may intercept do: {mover}; {killed} (S-11, S-12)"),
    }
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

/// The `j`-th mover's move in one line: who, how, from where, by which path, and whether it attacks.
fn card_game_move(game: &CardGame, j: usize, path: Option<&[String]>) -> String {
    let mover = &game.movers()[j];
    let unit = mover.unit();
    let how = match mover.movement() {
        Movement::MoveAndAttack => "Move and Attack",
        Movement::Teleport => "a teleport (not Move and Attack, S-4)",
        Movement::Forced => "forced movement (not Move and Attack, S-4)",
        Movement::Carried => "being carried (not Move and Attack, S-16)",
    };
    let start = game.label(j, unit.at);
    let route = match path {
        Some([]) => "takes no step (S-3)".to_owned(),
        Some(p) => format!("path {start} -> {}", p.join(" -> ")),
        None => format!("path open: any legal path of up to {} step(s)", 1 + unit.extra_steps),
    };
    let attack = match mover.attack_probability() {
        0.0 => "does not attack".to_owned(),
        1.0 => "attacks".to_owned(),
        p => format!("attacks with chance {p:.4}"),
    };
    format!("{} at {start}: {how}, {route}, {attack}", unit.name)
}

/// `check card-game --json`: per final location, `no_attack` (who may intercept, why not for the rest, and
/// the fight) when the mover may decline to attack, and `attack` (who may defend) when it may attack; the
/// movers after the first under `then`.
fn card_game_json(game: &CardGame, paths: &[Option<&[String]>]) -> serde_json::Value {
    let mut body = mover_json(game, 0, paths[0]);
    let then: Vec<_> = (1..paths.len()).map(|j| mover_json(game, j, paths[j])).collect();
    if !then.is_empty() {
        body["then"] = then.into();
    }
    body
}

fn mover_json(game: &CardGame, j: usize, path: Option<&[String]>) -> serde_json::Value {
    let mover = &game.movers()[j];
    let attack = mover.attack_probability();
    let end = |(at, p): (Location, f64)| {
        let verdicts = game.verdicts_of(j, at);
        let mut v = json!({ "at": game.label(j, at), "probability": p });
        if attack < 1.0 {
            let unit = |v: &Verdict| {
                let rule = v.intercept.err().map(|b| b.rule());
                json!({ "name": v.unit.name, "may_intercept": v.intercept.is_ok(), "rule": rule, "why": v.intercept.err().map(|b| b.to_string()) })
            };
            let units: Vec<_> = verdicts.iter().map(unit).collect();
            v["no_attack"] = json!({ "may_intercept": names(&verdicts, |v| v.intercept.is_ok()), "units": units });
            if let Some(f) = game.fight_at(j, at) {
                let list = |units: &[&Unit]| units.iter().map(|u| u.name.clone()).collect::<Vec<_>>();
                v["no_attack"]["fight"] = json!({
                    "by_policy": f.by_policy,
                    "intercept": list(&f.intercept),
                    "mover_dies": f.mover_dies,
                    "killed": list(&f.killed),
                });
            }
        }
        if attack > 0.0 {
            let unit =
                |v: &Verdict| json!({ "name": v.unit.name, "may_defend": v.defend.is_ok(), "why": v.defend.err() });
            let units: Vec<_> = verdicts.iter().map(unit).collect();
            v["attack"] = json!({ "may_intercept": [], "rule": "S-2", "may_defend": names(&verdicts, |v| v.defend.is_ok()), "units": units });
        }
        v
    };
    json!({
        "mover": mover.unit().name,
        "movement": mover.movement(),
        "from": game.label(j, mover.unit().at),
        "path": path,
        "p_attack": attack,
        "ends": mover.ends().into_iter().map(end).collect::<Vec<_>>(),
    })
}
