//! Intercept played from outside ([`Play`]): the opening of a `[board]` scenario, the legal turns of any
//! position, a turn played, and the tree-search player's advice, over the same positions, turns
//! ([`super::turns`]) and search ([`Mcts`]) a self-play run uses. Positions travel as [`Wire`] JSON; a turn's
//! id is its action and where the transfers leave the ball (`g2-g4`, `f3xf12` covering, `g1=` resizing,
//! `pass`, then `>e9`), unique among a position's turns since a turn is its action and the ball's last cell.
//! Positions set up by hand go through [`super::setup`].

use serde_json::Value;

use super::mcts::Mcts;
use super::position::{Colour, Position};
use super::replay::Replay;
use super::turns::{Action, Turn};
use super::wire::{Wire, side_name};
use super::{BoardGameRules, FirstPlayer};
use crate::chance::Sampler;
use crate::config::Scenario;
use crate::present::Picture;
use crate::ruleset::{
    Advice, Edit, LegendEntry, Palette, Play, PlayError, Resolved, Rules, SquareText, Status, TurnChoice,
};

/// The board game, played turn by turn from outside.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoardPlay;

impl Play for BoardPlay {
    fn opening(&self, rules: &dyn Rules) -> Result<Value, PlayError> {
        let Some(r) = rules.as_any().downcast_ref::<Resolved<BoardGameRules>>() else {
            return Err(PlayError::Refused("not a self-play scenario; play needs a [board] table".to_owned()));
        };
        // A coin toss has no one answer outside a run: the rules' reading, White, opens (I-A1).
        let first = if r.model.first == FirstPlayer::Black { Colour::Black } else { Colour::White };
        Ok(json(&Wire::write(r.model.start(first), r.model.variant, 0, r.model.turn_limit)))
    }

    fn turns(&self, position: &Value) -> Result<Vec<TurnChoice>, PlayError> {
        let (wire, p) = read(position)?;
        Ok(legal(&wire, &p).iter().map(|&t| choice(&p, t)).collect())
    }

    fn apply(&self, position: &Value, turn: &str) -> Result<Value, PlayError> {
        let (wire, p) = read(position)?;
        let turns = legal(&wire, &p);
        let Some(&t) = turns.iter().find(|&&t| id(&p, t) == turn) else {
            let why = if turns.is_empty() { "the game is over" } else { "not one of this position's turns" };
            return Err(PlayError::Illegal(format!("{turn:?}: {why} ({} legal)", turns.len())));
        };
        Ok(json(&Wire::write(&p.play(t), wire.variant, wire.turns_played + 1, wire.turn_limit)))
    }

    fn status(&self, position: &Value) -> Result<Status, PlayError> {
        let (wire, p) = read(position)?;
        let winner = p.winner().map(|w| side_name(w).to_owned());
        Ok(Status {
            to_move: side_name(p.to_move).to_owned(),
            over: over(&wire, &p),
            winner,
            turns_played: wire.turns_played,
        })
    }

    fn advise(&self, position: &Value, budget: u32, seed: u64) -> Result<Advice, PlayError> {
        let (wire, p) = read(position)?;
        let turns = legal(&wire, &p);
        if turns.is_empty() {
            return Err(PlayError::Refused("the game is over: there is no turn to advise".to_owned()));
        }
        let search = Mcts::expert(budget.max(1), wire.variant);
        let (found, line) = search.search_line(&p, &turns, &mut Sampler::at_trial(seed, 1, 0), LINE);
        let turn = choice(&p, turns[found.index]);
        let mut at = p;
        let line = line
            .into_iter()
            .map(|t| {
                let c = choice(&at, t);
                at.play_in_place(t);
                c
            })
            .collect();
        let evaluation = super::evaluation::judge(&p, wire.variant);
        Ok(Advice {
            turn,
            playout_score: found.score,
            visits: found.visits,
            playouts: found.playouts,
            line,
            evaluation,
        })
    }

    fn picture(&self, position: &Value) -> Result<Picture, PlayError> {
        let (wire, p) = read(position)?;
        let caption = format!("{} to move, after {} turns", side_name(p.to_move), wire.turns_played);
        Ok(Picture::Board(super::picture::board(&p, &caption)))
    }

    fn squares(&self, position: &Value) -> Result<Vec<SquareText>, PlayError> {
        Ok(super::picture::square_texts(&read(position)?.1))
    }

    fn legend(&self) -> Vec<LegendEntry> {
        super::picture::legend()
    }

    fn replay(&self, scenario: &Scenario, game: u64) -> Result<Value, PlayError> {
        let Some(r) = scenario.resolved::<BoardGameRules>() else {
            return Err(PlayError::Refused("not a self-play scenario; replay needs a [board] table".to_owned()));
        };
        let run = &scenario.run;
        if game >= run.trials {
            return Err(PlayError::Refused(format!(
                "game {game}: the run has {} games, 0 to {}",
                run.trials,
                run.trials - 1
            )));
        }
        let replay = Replay::of(&r.model, run.seed, run.chunk_size, game, run.draws);
        let (variant, limit) = (r.model.variant, r.model.turn_limit);
        let steps = replay.turns.iter().enumerate().map(|(i, (p, t))| {
            serde_json::json!({ "position": json(&Wire::write(p, variant, i as u32, limit)), "turn": choice(p, *t) })
        });
        let last = replay.turns.last().map_or_else(|| replay.start, |(p, t)| p.play(*t));
        let end = json(&Wire::write(&last, variant, replay.game.turns, limit));
        Ok(
            serde_json::json!({ "game": game, "turns": steps.collect::<Vec<_>>(), "end": end, "result": replay.result() }),
        )
    }

    fn palette(&self) -> Palette {
        super::setup::palette()
    }

    fn edit(&self, position: &Value, edit: &Edit) -> Result<Value, PlayError> {
        let (wire, _) = read(position)?;
        Ok(json(&super::setup::edit(wire, edit).map_err(|e| PlayError::Refused(e.0))?))
    }

    fn set_up(&self, position: &Value) -> Result<Value, PlayError> {
        let (wire, p) = read(position)?;
        super::setup::check(&p, wire.variant).map_err(|e| PlayError::Refused(e.0))?;
        Ok(json(&Wire::write(&p, wire.variant, 0, wire.turn_limit)))
    }
}

/// The most turns of the expected line an advice shows: the advised turn and the next three.
const LINE: usize = 4;

/// Whether the game is over: won, or the turn limit reached (I-18).
fn over(wire: &Wire, p: &Position) -> bool {
    p.winner().is_some() || wire.turns_played >= wire.turn_limit
}

/// The position's legal turns: none once the game is over.
fn legal(wire: &Wire, p: &Position) -> Vec<Turn> {
    if over(wire, p) { Vec::new() } else { p.turns(wire.variant) }
}

fn read(position: &Value) -> Result<(Wire, Position), PlayError> {
    let wire: Wire = serde_json::from_value(position.clone()).map_err(|e| PlayError::Position(e.to_string()))?;
    let p = wire.read().map_err(|e| PlayError::Position(e.0))?;
    Ok((wire, p))
}

fn json(wire: &Wire) -> Value {
    serde_json::to_value(wire).expect("a position serialises")
}

fn choice(p: &Position, t: Turn) -> TurnChoice {
    TurnChoice { id: id(p, t), text: p.notation(t) }
}

/// A turn's id: its action, then `>` and the ball's last cell when it is transferred.
fn id(p: &Position, t: Turn) -> String {
    let action = match t.action {
        Action::Move { from, to, cover } => format!("{}{}{}", p.name(from), if cover { "x" } else { "-" }, p.name(to)),
        Action::Resize { at } => format!("{}=", p.name(at)),
        Action::Pass => "pass".to_owned(),
    };
    t.ball_to.map_or(action.clone(), |to| format!("{action}>{}", p.name(to)))
}
