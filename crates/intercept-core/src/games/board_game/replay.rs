//! One game of a self-play run, replayed on its own: `intercept-sim replay`.
//!
//! Game `g` of a run is trial `g` of the engine, so [`Replay::of`] plays it again on that trial's sampler
//! ([`Sampler::at_trial`]) and keeps every turn with the position it was played in. The [`Replay`] prints as
//! a text record (or JSON), each turn in words ([`Position::notation`]) and, when asked, the board after it.

use std::fmt::{self, Write};

use serde_json::json;

use super::players::Game;
use super::position::{Colour, Position};
use super::turns::Turn;
use super::{BoardGame, BoardGameRules, Seat};
use crate::chance::{Draws, PackedSampler, Sampler, Source};
use crate::ruleset::{Input, Mount, Param, ParamKind, Resolved, Tool, ToolError, View};

/// `intercept-sim replay`: one game of a self-play run, turn by turn.
pub struct Replays;

/// The largest game number or seed: what a config can hold (TOML integers are 64-bit signed).
const MOST: u64 = i64::MAX as u64;

impl Tool for Replays {
    fn mount(&self) -> Mount {
        Mount::Command("replay")
    }

    fn title(&self) -> &'static str {
        "Play one game of a [board] self-play run again and print it turn by turn, with the board after each."
    }

    fn examples(&self) -> &'static [&'static str] {
        &[
            "replay configs/board/mcts-vs-greedy.toml --game 3",
            "replay configs/board/greedy-vs-random.toml --moves-only",
        ]
    }

    fn params(&self) -> Vec<Param> {
        let param = |name, kind, default, help| Param { default, ..Param::new(name, kind, help) };
        let whole = ParamKind::Whole { least: 0, most: MOST };
        vec![
            param(
                "game",
                whole.clone(),
                Some(json!(0)),
                "Which game of the run, numbered from 0: the same game `run` played as trial N.",
            ),
            param("seed", whole, None, "The run's seed, instead of the config's (as `run --seed`)."),
            param(
                "moves_only",
                ParamKind::Flag,
                Some(json!(false)),
                "Print the moves only, without the board after each turn.",
            ),
        ]
    }

    fn config(&self) -> Option<&'static str> {
        Some("The self-play config (TOML, with a [board] table).")
    }

    fn answer(&self, input: &Input<'_>) -> Result<Box<dyn View>, ToolError> {
        let given = input.config.ok_or_else(|| ToolError::Input("replay needs a config file".into()))?;
        let Some(resolved) = given.rules.as_any().downcast_ref::<Resolved<BoardGameRules>>() else {
            let file = given.file.display();
            return Err(ToolError::Input(format!("{file}: not a self-play config; replay needs a [board] table")));
        };
        let (v, run) = (&input.values, given.run);
        let index = v.whole("game").unwrap_or(0);
        if index >= run.trials {
            let (n, last) = (run.trials, run.trials - 1);
            let message = format!("the run has {n} games, numbered 0 to {last}, so there is no game {index}");
            return Err(ToolError::param("game", message));
        }
        let seed = v.whole("seed").unwrap_or(run.seed);
        let mut replay = Replay::of(&resolved.model, seed, run.chunk_size, index, run.draws);
        replay.boards = !v.flag("moves_only");
        Ok(Box::new(replay))
    }
}

/// A game of a run, turn by turn.
pub struct Replay {
    /// The game's index in the run.
    pub index: u64,
    pub first: Colour,
    pub start: Position,
    /// Each turn and the position it was played in.
    pub turns: Vec<(Position, Turn)>,
    pub game: Game,
    seats: [Seat; 2],
    /// Whether to print the board after every turn, or the moves only.
    pub boards: bool,
}

impl Replay {
    /// Game `index` of a run of `model` seeded with `seed` in chunks of `chunk_size` that drew with `draws`
    /// (`[run] draws`): the same game the run played, turn for turn.
    pub fn of(model: &BoardGame, seed: u64, chunk_size: u64, index: u64, draws: Draws) -> Replay {
        let mut turns = Vec::new();
        let mut note = |p: &Position, t| turns.push((*p, t));
        let (first, game) = match draws {
            Draws::Paired => model.game(&mut Sampler::at_trial(seed, chunk_size, index), &mut note),
            Draws::Packed => model.game(&mut PackedSampler::at_trial(seed, chunk_size, index), &mut note),
        };
        let start = *model.start(first);
        Replay { index, first, start, turns, game, seats: model.seats, boards: true }
    }

    /// How the game ended, in one line.
    pub fn result(&self) -> String {
        let [w, b] = self.game.steals;
        let how = match self.game.winner {
            Some(side) => format!("{} ({}) wins", side.title(), self.seats[side.index()].describe()),
            None => "Draw: no goal".to_owned(),
        };
        format!("{how} after {} turns; steals: White {w}, Black {b}.", self.game.turns)
    }
}

impl View for Replay {
    fn text(&self) -> String {
        self.to_string()
    }

    /// `replay --json`: the players, each turn (side, move in words, and the board after it unless moves
    /// only), and the result.
    fn json(&self) -> serde_json::Value {
        let [white, black] = self.seats.map(|s| s.describe());
        let turns = self.turns.iter().enumerate().map(|(i, (p, turn))| {
            let mut t = json!({ "turn": i + 1, "side": p.to_move.title(), "move": p.notation(*turn) });
            if self.boards {
                t["board"] = json!(p.play(*turn).to_string());
            }
            t
        });
        let [w, b] = self.game.steals;
        json!({
            "game": self.index, "white": white, "black": black, "first": self.first.title(),
            "turns": turns.collect::<Vec<_>>(),
            "result": { "winner": self.game.winner.map(Colour::title), "turns": self.game.turns,
                "steals": { "white": w, "black": b }, "text": self.result() },
        })
    }
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [white, black] = self.seats.map(|s| s.describe());
        writeln!(
            f,
            "Game {}: White ({white}) against Black ({black}); {} moves first.",
            self.index,
            self.first.title()
        )?;
        writeln!(f, "\nStart\n{}", self.start)?;
        for (i, (p, turn)) in self.turns.iter().enumerate() {
            let mut line = format!("{:>3}. {:<5} {}", i + 1, p.to_move.title(), p.notation(*turn));
            if self.boards {
                let _ = writeln!(line, "\n{}", p.play(*turn));
            }
            writeln!(f, "{line}")?;
        }
        writeln!(f, "{}", self.result())
    }
}
