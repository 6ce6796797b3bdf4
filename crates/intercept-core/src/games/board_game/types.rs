//! The plain values the board game's files share, so that each of them reads this file rather than one
//! another: a [`Cell`] number; a side ([`Colour`]); a [`Stack`], one player's stones on a cell, its role set
//! by its size (I-4), and a [`Piece`], what stands on a cell: a stack, possibly covering an enemy stack
//! (I-19); a turn ([`Turn`]), its [`Action`] and where its transfers leave the ball; and the rule
//! [`Variant`]s that decide which turns are legal (C.5). [`super::position`] re-exports the first four with
//! the position, and [`super::turns`] the last three with the turn generator.

use serde::{Deserialize, Serialize};

crate::refusal! {
    /// Why a position (written out, set up by hand, or sent by a page) cannot be used: what is wrong.
    BadPosition
}

/// A cell's number, `col + size * row`.
pub type Cell = u8;

/// A side. White starts on rows 1-2 and attacks upward (C.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// White 0, Black 1: the index of per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side's name in a sentence: `White`, `Black`.
    pub fn title(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }
}

/// One player's stones on a cell: 1 a passage stone, 2 a rest stone, 3 or 4 the double (I-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    pub colour: Colour,
    pub size: u8,
}

impl Stack {
    pub fn is_double(self) -> bool {
        self.size >= 3
    }

    /// Passes the ball: a passage stone or a size-3 double (I-4, I-13).
    pub fn is_passage_type(self) -> bool {
        matches!(self.size, 1 | 3)
    }

    /// Receives the ball: a rest stone or a size-4 double (I-4, I-13).
    pub fn is_rest_type(self) -> bool {
        matches!(self.size, 2 | 4)
    }
}

/// What stands on a cell: a stack, and the enemy stack it covers, if any (I-19, I-20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub top: Stack,
    pub under: Option<Stack>,
}

/// The turn's action (I-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A stack moves by a step or a jump sequence; `cover` when it lands on an enemy stack (I-19).
    Move { from: Cell, to: Cell, cover: bool },
    /// The double changes between size 3 and 4 (I-11).
    Resize { at: Cell },
    /// No action is possible (I-A2).
    Pass,
}

/// A whole turn: the action, then the cell the transfer chain leaves the ball on, if any. Its six bytes are
/// padded to eight so that the generator writes a turn as one word, not in three pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(align(8))]
pub struct Turn {
    pub action: Action,
    pub ball_to: Option<Cell>,
}

/// Rule variants the open questions leave to a config (C.5): `[board.variant]`, each key defaulting to the
/// rules file's reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Variant {
    /// I-11, I-A4: whether a size change still allows the turn's transfer (false: the strict "whole turn"
    /// reading).
    pub size_change_allows_transfer: bool,
    /// I-16, I-A7: whether a steal (the ball taken from an enemy stone) needs the passer or the receiver to
    /// be the stack that moved this turn.
    pub steal_requires_moved_piece: bool,
    /// I-2, I-A2: whether a side with a legal action must take one; when false it may always pass (and still
    /// transfer).
    pub action_mandatory: bool,
}

impl Default for Variant {
    fn default() -> Self {
        Variant { size_change_allows_transfer: true, steal_requires_moved_piece: false, action_mandatory: true }
    }
}
