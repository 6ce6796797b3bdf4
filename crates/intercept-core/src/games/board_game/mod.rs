//! The board game Intercept (Henri Vergne, 1993; rules I-1..I-23 of `docs/rules/intercept-board-game.md`): an
//! abstract game on a 13×13 board whose core is interception, stealing the ball by passing it away from the
//! opponent.
//!
//! [`position`] holds the board ([`position::Position`], its stacks and the ball) and reads the diagram
//! strings the rules are illustrated with; [`turns`] generates every legal turn, an action and then an
//! optional chain of transfers, and plays it. [`players`] and [`mcts`] choose turns, and play whole games;
//! [`replay`] plays one game of a run again, turn by turn.
//!
//! [`BoardGame`] makes self-play a model of the engine: one trial is one game between the two [`Seat`]s of a
//! `[board]` config ([`config::BoardConfig`]), every random choice (the coin toss for the first player, each
//! player's tie-breaks and playouts) drawn through the [`Chance`] interface, so game `g` of a run depends on
//! the seed and `g` alone. It reports who won, how long the game lasted and how often each side stole the
//! ball. Its chance tree (every choice of every turn) is far too large to enumerate, so it is sampled only.

mod board;
pub mod calibration;
pub mod config;
pub mod evaluation;
pub mod fit;
mod generate;
pub mod mcts;
pub mod picture;
pub mod play;
pub mod players;
pub mod position;
pub mod replay;
mod set;
pub mod setup;

pub use set::BoardGameRules;
pub mod turns;
mod types;
pub mod wire;

use serde::{Deserialize, Serialize};

use crate::chance::Chance;
use crate::metrics::{Metric, Metrics, Recorder};
use crate::model::Model;
use mcts::{Leaf, Mcts};
use players::{Game, Greedy, Player, Random, play_game};
use position::{Colour, Position};
use turns::{Turn, Variant};

/// Who moves first in each game (I-A1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    /// The rules' reading: White begins.
    #[default]
    White,
    /// Black begins.
    Black,
    /// A fair coin toss per game, so neither seat has the first move more often.
    Random,
}

/// The player in one seat.
#[derive(Clone, Copy, Debug)]
pub enum Seat {
    Random,
    Greedy,
    Mcts(Mcts),
}

impl Player for Seat {
    fn choose<C: Chance>(&self, p: &Position, turns: &[Turn], chance: &mut C) -> usize {
        match self {
            Seat::Random => Random.choose(p, turns, chance),
            Seat::Greedy => Greedy.choose(p, turns, chance),
            Seat::Mcts(m) => m.choose(p, turns, chance),
        }
    }
}

impl Seat {
    /// Whether the seat searches by the fitted evaluation (the `expert`).
    pub fn evaluates(&self) -> bool {
        matches!(self, Seat::Mcts(Mcts { leaf: Leaf::Evaluation(_), .. }))
    }

    /// The player in a few words: `greedy`, `MCTS, 50 playouts, depth 6`, `expert, 300 playouts, depth 2`.
    pub fn describe(&self) -> String {
        match self {
            Seat::Random => "random".into(),
            Seat::Greedy => "greedy".into(),
            Seat::Mcts(m @ Mcts { leaf: Leaf::Lean, .. }) => {
                format!("MCTS, {} playouts, depth {}", m.budget, m.depth)
            }
            Seat::Mcts(m) => format!("expert, {} playouts, depth {}", m.budget, m.depth),
        }
    }
}

/// A resolved self-play match.
#[derive(Clone, Debug)]
pub struct BoardGame {
    /// White's seat, then Black's.
    pub seats: [Seat; 2],
    pub first: FirstPlayer,
    pub turn_limit: u32,
    pub variant: Variant,
    /// The start position with White to move, then with Black to move (C.2).
    starts: [Position; 2],
    metrics: Metrics,
    m: Slots,
}

#[derive(Clone, Debug)]
struct Slots {
    first_wins: Metric,
    first_losses: Metric,
    draws: Metric,
    wins: [Metric; 2],
    turns: Metric,
    steals: Metric,
    side_steals: [Metric; 2],
}

/// The metric of each game's length in turns: a game cut off at the limit counts the limit.
pub const TURNS: &str = "board.turns";

impl BoardGame {
    pub fn new(seats: [Seat; 2], first: FirstPlayer, turn_limit: u32, variant: Variant) -> BoardGame {
        let mut metrics = Metrics::default();
        let m = Slots {
            first_wins: metrics.probability("board.first_player.wins"),
            first_losses: metrics.probability("board.first_player.losses"),
            draws: metrics.probability("board.draws"),
            wins: [metrics.probability("board.white.wins"), metrics.probability("board.black.wins")],
            turns: metrics.distribution(TURNS, turn_limit),
            steals: metrics.distribution("board.steals", turn_limit),
            side_steals: [
                metrics.distribution("board.white.steals", turn_limit),
                metrics.distribution("board.black.steals", turn_limit),
            ],
        };
        for (metric, about) in [
            (m.first_wins, "the side that moves first brings the ball onto the goal it attacks and wins (I-3, I-18)"),
            (
                m.first_losses,
                "the side that moves second brings the ball onto the goal it attacks and wins (I-3, I-18)",
            ),
            (m.draws, "no side wins within the turn limit, and the game is a draw (I-18)"),
            (m.wins[0], "White brings the ball onto Black's goal, g13, and wins (I-18)"),
            (m.wins[1], "Black brings the ball onto White's goal, g1, and wins (I-18)"),
            (m.turns, "turns played in the game, both sides together; a draw counts the turn limit (I-2, I-18)"),
            (m.steals, "turns that take the ball off an enemy stone, both sides together (I-13, I-14)"),
            (m.side_steals[0], "turns in which White takes the ball off a Black stone (I-13, I-14)"),
            (m.side_steals[1], "turns in which Black takes the ball off a White stone (I-13, I-14)"),
        ] {
            metrics.describe(metric, about);
        }
        let starts = [Position::start_with(Colour::White), Position::start_with(Colour::Black)];
        BoardGame { seats, first, turn_limit, variant, starts, metrics, m }
    }

    /// One game, as a trial plays it: who moves first (a coin toss, if so configured), then the game from
    /// the start position; `seen` hears each turn played. A replay calls this too, so it plays the same game.
    pub fn game<C: Chance>(&self, chance: &mut C, seen: &mut dyn FnMut(&Position, Turn)) -> (Colour, Game) {
        let first = self.first_player(chance);
        let [white, black] = &self.seats;
        (first, play_game(self.start(first), white, black, self.variant, self.turn_limit, chance, seen))
    }

    /// The start position with `first` to move (C.2, I-A1).
    pub fn start(&self, first: Colour) -> &Position {
        &self.starts[first.index()]
    }

    /// Who moves first in this game: the config's side, or a coin toss.
    fn first_player<C: Chance>(&self, chance: &mut C) -> Colour {
        match self.first {
            FirstPlayer::White => Colour::White,
            FirstPlayer::Black => Colour::Black,
            FirstPlayer::Random if chance.uniform(2) == 0 => Colour::White,
            FirstPlayer::Random => Colour::Black,
        }
    }

    fn record<R: Recorder>(&self, first: Colour, game: &Game, rec: &mut R) {
        rec.flag(self.m.first_wins, game.winner == Some(first));
        rec.flag(self.m.first_losses, game.winner == Some(first.other()));
        rec.flag(self.m.draws, game.winner.is_none());
        if let Some(w) = game.winner {
            rec.hit(self.m.wins[w.index()]);
        }
        rec.value(self.m.turns, game.turns);
        rec.value(self.m.steals, game.steals[0] + game.steals[1]);
        rec.value(self.m.side_steals[0], game.steals[0]);
        rec.value(self.m.side_steals[1], game.steals[1]);
    }

    /// What the config resolved to, for `validate`.
    pub fn describe(&self) -> serde_json::Value {
        serde_json::json!({
            "white": self.seats[0].describe(),
            "black": self.seats[1].describe(),
            "first_player": self.first,
            "turn_limit": self.turn_limit,
            "size_change_allows_transfer": self.variant.size_change_allows_transfer,
            "steal_requires_moved_piece": self.variant.steal_requires_moved_piece,
            "action_mandatory": self.variant.action_mandatory,
            "legal_turns_at_start": self.starts[0].turns(self.variant).len(),
        })
    }

    /// The match in plain words, for the report.
    pub fn plain_words(&self) -> Vec<String> {
        let first = match self.first {
            FirstPlayer::White => "White moves first in every game (I-A1)".to_owned(),
            FirstPlayer::Black => "Black moves first in every game (I-A1 switched)".to_owned(),
            FirstPlayer::Random => "a coin toss decides who moves first in each game".to_owned(),
        };
        let v = self.variant;
        let transfer = if v.size_change_allows_transfer { "still allows" } else { "ends the turn without" };
        let steal = if v.steal_requires_moved_piece { "only by the stack moved this turn" } else { "by any stack" };
        let pass = if v.action_mandatory {
            "must act when it can (I-A2)"
        } else {
            "may pass instead of acting (I-A2 switched)"
        };
        vec![
            format!(
                "One trial is one game of Intercept: White ({}) against Black ({}); {first}.",
                self.seats[0].describe(),
                self.seats[1].describe()
            ),
            format!("A game not won within {} turns is a draw.", self.turn_limit),
            format!("A size change {transfer} a transfer (I-11, I-A4); the ball may be stolen {steal} (I-16, I-A7)."),
            format!("A side {pass}."),
        ]
    }
}

impl Model for BoardGame {
    /// A game's picks (one per turn, among tens of turns) make every path new: a memo would only cost.
    const PATH_MEMO: bool = false;
    const EXACT: bool = false;

    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let (first, game) = self.game(chance, &mut |_, _| {});
        self.record(first, &game, rec);
    }
}
