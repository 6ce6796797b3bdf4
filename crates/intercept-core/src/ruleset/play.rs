//! [`Play`]: a rule set's game played from outside, one turn at a time, by a page or a script that does not
//! know the rules. Everything goes in and out as JSON: a position is a JSON value the rule set writes and
//! reads back ([`Play::opening`], [`Play::apply`]), a turn is named by a stable id ([`TurnChoice`]), and
//! the rule set's own player answers with its best turn and how it rates the position ([`Advice`]). A position
//! may also be set up by hand: the rule set describes what a square may hold ([`Palette`]), applies one
//! [`Edit`] at a time, and checks the result before a game is played from it ([`Play::set_up`]).
//!
//! A rule set that has a game offers it through [`crate::ruleset::RuleSet::PLAY`], reached from its
//! registry entry ([`crate::ruleset::Entry::play`]). Errors are one line each ([`PlayError`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Rules;
use crate::config::Scenario;
use crate::present::Picture;

/// A game played turn by turn from outside, object-safe, JSON in and out.
pub trait Play: Send + Sync {
    /// The position a game of the resolved scenario `rules` starts from.
    fn opening(&self, rules: &dyn Rules) -> Result<Value, PlayError>;
    /// Every legal turn of `position`, in a stable order; none when the game is over.
    fn turns(&self, position: &Value) -> Result<Vec<TurnChoice>, PlayError>;
    /// The position after the turn whose id is `turn`; an illegal turn is refused.
    fn apply(&self, position: &Value, turn: &str) -> Result<Value, PlayError>;
    /// Whose turn it is, and whether the game is over and who won.
    fn status(&self, position: &Value) -> Result<Status, PlayError>;
    /// The rule set's search player's best turn in `position` with `budget` playouts, the same for the
    /// same `seed`; refused when the game is over.
    fn advise(&self, position: &Value, budget: u32, seed: u64) -> Result<Advice, PlayError>;
    /// `position` as a picture.
    fn picture(&self, position: &Value) -> Result<Picture, PlayError>;
    /// Every square of [`Play::picture`]'s board, in the picture's order, with its name and what it holds
    /// in words: what a page tells someone who cannot see the picture.
    fn squares(&self, position: &Value) -> Result<Vec<SquareText>, PlayError>;
    /// What the marks of the picture mean (colours, shapes, letters), for a legend beside it.
    fn legend(&self) -> Vec<LegendEntry>;
    /// Game `game` of the scenario's run, as the run played it: every position from the start, each with
    /// the turn played in it.
    fn replay(&self, scenario: &Scenario, game: u64) -> Result<Value, PlayError>;
    /// What a position is set up from: the pieces a square may hold, and the sides that may be to move.
    fn palette(&self) -> Palette;
    /// `position` after one edit of its set-up; an edit no position can hold is refused. The result need not
    /// be playable yet (set-up goes through such positions); [`Play::set_up`] checks that.
    fn edit(&self, position: &Value, edit: &Edit) -> Result<Value, PlayError>;
    /// `position` as the start of a new game (no turns played yet), refused in one line when it cannot be
    /// played from: the game over already, a side to move without a turn, pieces the rules do not allow.
    fn set_up(&self, position: &Value) -> Result<Value, PlayError>;
}

/// What a position is set up from, for a page's palette.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Palette {
    pub pieces: Vec<PieceKind>,
    /// The sides' names, as [`Status::to_move`] writes them.
    pub sides: Vec<String>,
}

/// One kind of piece a square may hold: its id (what [`Edit::Place`] takes), a name for people, and whose it
/// is (none for a piece of neither side).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceKind {
    pub id: String,
    pub text: String,
    pub side: Option<String>,
}

/// One square of a position's picture: its name (what [`Edit::Place`] takes) and what it holds, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquareText {
    pub name: String,
    pub text: String,
}

/// One mark of a position's picture, and what it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegendEntry {
    pub mark: String,
    pub meaning: String,
}

/// One change to a position being set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case", deny_unknown_fields)]
pub enum Edit {
    /// Put a piece of the palette on `square`, or empty it (`piece` none).
    Place { square: String, piece: Option<String> },
    /// Give the move to `side`.
    ToMove { side: String },
    /// Take every piece off the board.
    Clear,
}

/// A legal turn: its stable id (what [`Play::apply`] takes) and a short text for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnChoice {
    pub id: String,
    pub text: String,
}

/// Whose turn it is, and how the game ended if it has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    pub to_move: String,
    pub over: bool,
    /// The winner's name when the game is over and not drawn.
    pub winner: Option<String>,
    /// Turns played so far.
    pub turns_played: u32,
}

/// The search player's choice and its score for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    pub turn: TurnChoice,
    /// The side to move's mean score, 0 to 1, of the search's playouts through the turn, as the rule set's
    /// search scores a playout (a win 1, a loss 0, and where a short playout stops, the rule set's own
    /// score of the position, or its evaluation's chance). Not a chance of winning: it says where playouts
    /// through the turn end, and [`Advice::evaluation`] states the chance.
    pub playout_score: f64,
    /// Playouts through the chosen turn, and in all.
    pub visits: u32,
    pub playouts: u32,
    /// The line of play the search expects (its principal variation): the advised turn, then the reply it
    /// tried most, and so on while a reply was tried more than once.
    pub line: Vec<TurnChoice>,
    /// The rule set's evaluation of the position, when it has one.
    pub evaluation: Option<Evaluation>,
}

/// A rule set's evaluation of a position: how likely the side to move is to win, and why, in a line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// The chance, 0 to 1, that the side to move wins, as the rule set's evaluation states it (checked
    /// against self-play outcomes by the rule set's calibration).
    pub win_chance: f64,
    /// What the chance rests on, in one sentence.
    pub why: String,
}

/// Why a request to play was refused, in one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The JSON is not a position of this game.
    #[error("not a position: {0}")]
    Position(String),
    /// The turn is not legal in the position.
    #[error("illegal turn: {0}")]
    Illegal(String),
    /// The request does not fit: another rule set's scenario, a game past the run's end, a finished game.
    #[error("{0}")]
    Refused(String),
}
