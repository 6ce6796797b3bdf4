//! The `[board]` config as written, and its validation into a [`BoardGame`].
//!
//! [`BoardConfig`] mirrors the TOML one to one: the two seats ([`SeatConfig`], a player kind and, for the
//! tree search, its budget and depth), who moves first (I-A1), the turn limit after which a game is a draw,
//! and the rule variants (the engine's [`Variant`], read as written: one key per open question's flag). Unknown keys, players and
//! variant names are refused by serde; [`BoardConfig::resolve`] checks the numbers.

use serde::{Deserialize, Serialize};

use super::mcts::{EXPERT_DEPTH, Leaf, Mcts};
use super::turns::Variant;
use super::{BoardGame, FirstPlayer, Seat};
use crate::config::{Invalid, KeyPath, in_range};

/// The most turns a game may last before it is a draw: the turn metrics count every value up to it.
pub const MAX_TURN_LIMIT: i64 = 2_000;
/// The most playouts per turn of the tree search: beyond it one game takes minutes.
pub const MAX_BUDGET: i64 = 100_000;
/// The most random turns per playout.
pub const MAX_DEPTH: i64 = 1_000;
/// The tree search's playouts per turn and turns per playout when a config leaves them out.
pub const DEFAULT_BUDGET: i64 = 200;
pub const DEFAULT_DEPTH: i64 = 8;

/// `[board]`: a self-play match of the board game Intercept, one game per trial.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardConfig {
    /// `[board.white]`: who plays White: a player kind and, for the tree search, its budget and depth.
    pub white: SeatConfig,
    /// `[board.black]`: who plays Black: a player kind and, for the tree search, its budget and depth.
    pub black: SeatConfig,
    /// Who moves first (I-A1): `white` (the rules' reading), `black`, or `random`, a coin toss per game.
    #[serde(default)]
    pub first_player: FirstPlayer,
    /// A game not won after this many turns (both sides' together) is a draw.
    #[serde(default = "default_turn_limit")]
    pub turn_limit: i64,
    /// `[board.variant]`: the rules engine's [`Variant`] as written, every flag defaulting to the rules
    /// file's reading.
    #[serde(default)]
    pub variant: Variant,
}

fn default_turn_limit() -> i64 {
    200
}

/// The kinds of player a seat may hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    /// Every legal turn equally likely.
    #[default]
    Random,
    /// A winning transfer, else the ball nearest the goal, else its stones nearest the ball.
    Greedy,
    /// Monte Carlo tree search with `budget` playouts per turn, scored by where the ball lies.
    Mcts,
    /// The tree search with the fitted evaluation: its root's turns ranked by it, and its short playouts
    /// scored by it (issue 41).
    Expert,
}

impl PlayerKind {
    /// The name as written in a config.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Mcts => "mcts",
            PlayerKind::Expert => "expert",
        }
    }
}

/// `[board.white]`, `[board.black]`: who plays a side.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatConfig {
    /// Who plays this side, one of the player kinds below; only `mcts` and `expert` take a `budget` and a
    /// `depth`.
    pub player: PlayerKind,
    /// Tree search only: playouts per turn (default 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<i64>,
    /// Tree search only: turns per playout before it is scored, by where the ball lies for `mcts` (default
    /// 8), by the evaluation for `expert` (default 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<i64>,
}

impl BoardConfig {
    /// Checks every value and builds the model.
    pub fn resolve(&self) -> Result<BoardGame, Invalid> {
        let base = || KeyPath::root().key("board");
        in_range(self.turn_limit, 1, MAX_TURN_LIMIT, || base().key("turn_limit"))?;
        let variant = self.variant;
        let white = self.white.resolve(variant, || base().key("white"))?;
        let black = self.black.resolve(variant, || base().key("black"))?;
        Ok(BoardGame::new([white, black], self.first_player, self.turn_limit as u32, variant))
    }
}

impl SeatConfig {
    fn resolve(&self, variant: Variant, path: impl Fn() -> KeyPath) -> Result<Seat, Invalid> {
        if !matches!(self.player, PlayerKind::Mcts | PlayerKind::Expert) {
            let given = [("budget", self.budget), ("depth", self.depth)];
            if let Some((key, _)) = given.iter().find(|(_, v)| v.is_some()) {
                let msg = format!(
                    "{key} applies to player = \"mcts\" or \"expert\" only; this seat is {}",
                    self.player.name()
                );
                return Err(Invalid::new(path().key(key), msg));
            }
        }
        let budget = self.budget.unwrap_or(DEFAULT_BUDGET);
        in_range(budget, 1, MAX_BUDGET, || path().key("budget"))?;
        let default_depth = if self.player == PlayerKind::Expert { i64::from(EXPERT_DEPTH) } else { DEFAULT_DEPTH };
        let depth = self.depth.unwrap_or(default_depth);
        in_range(depth, 0, MAX_DEPTH, || path().key("depth"))?;
        let search = Mcts { budget: budget as u32, depth: depth as u32, variant, leaf: Leaf::Lean };
        Ok(match self.player {
            PlayerKind::Random => Seat::Random,
            PlayerKind::Greedy => Seat::Greedy,
            PlayerKind::Mcts => Seat::Mcts(search),
            PlayerKind::Expert => Seat::Mcts(Mcts { depth: depth as u32, ..Mcts::expert(budget as u32, variant) }),
        })
    }
}
