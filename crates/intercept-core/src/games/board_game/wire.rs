//! A position of Intercept as JSON, for play from outside ([`super::play`]): the board's size, the side to
//! move, the ball's and goals' cells by name (C.1), every stack (its cell, colour, size and the enemy stack
//! it covers, I-4, I-19), the rule variants that decide the legal turns (C.5), and the turns played against
//! the match's turn limit (a draw there, I-18). [`Wire::read`] checks a position written by hand and
//! refuses what no game can hold, one line per error.

use super::types::BadPosition;
use serde::{Deserialize, Serialize};

use super::position::{Colour, Piece, Position, Stack};
use super::turns::Variant;

/// The whole state of a game in progress, as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wire {
    pub size: u8,
    pub to_move: Side,
    pub ball: String,
    pub white_goal: String,
    pub black_goal: String,
    pub stacks: Vec<WireStack>,
    pub variant: Variant,
    pub turns_played: u32,
    pub turn_limit: u32,
}

/// One side, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    White,
    Black,
}

/// A stack on a cell, and the enemy stack it covers (I-19).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireStack {
    pub at: String,
    pub colour: Side,
    pub size: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub under: Option<Under>,
}

/// A covered stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Under {
    pub colour: Side,
    pub size: u8,
}

impl Side {
    pub fn colour(self) -> Colour {
        match self {
            Side::White => Colour::White,
            Side::Black => Colour::Black,
        }
    }

    pub fn of(c: Colour) -> Side {
        match c {
            Colour::White => Side::White,
            Colour::Black => Side::Black,
        }
    }

    /// Both sides, white first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The side's name, as positions write it.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The side named `name`; refused in one line naming the two.
    pub fn named(name: &str) -> Result<Side, BadPosition> {
        Side::BOTH
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| BadPosition(format!("side {name:?} is not allowed; allowed: white, black")))
    }
}

pub(super) fn side_name(c: Colour) -> &'static str {
    Side::of(c).name()
}

impl Wire {
    /// `p` as written, `turns_played` of `turn_limit` turns into the game.
    pub fn write(p: &Position, variant: Variant, turns_played: u32, turn_limit: u32) -> Wire {
        let goal = |side| p.goal_of(side).map(|c| p.name(c)).unwrap_or_default();
        let stacks = p.cells().filter_map(|c| p.at(c).map(|piece| stack(p, c, piece))).collect();
        Wire {
            size: p.size,
            to_move: Side::of(p.to_move),
            ball: p.name(p.ball),
            white_goal: goal(Colour::White),
            black_goal: goal(Colour::Black),
            stacks,
            variant,
            turns_played,
            turn_limit,
        }
    }

    /// The position written, checked: a square board of 3 to 15, every cell on it and used once, stacks of
    /// 1 to 4 stones (I-4), a covered stack of the other colour, the goals and the ball on the board.
    pub fn read(&self) -> Result<Position, BadPosition> {
        if !(3..=15).contains(&self.size) {
            return Err(BadPosition::from(format!("size {}: a board is 3 to 15 cells a side", self.size)));
        }
        let probe = Position::blank(self.size, [None; 2], 0, Colour::White);
        let cell = |name: &str, what: &str| {
            probe.named(name).ok_or_else(|| format!("{what} {name:?} is not a cell of the board"))
        };
        let goals = [Some(cell(&self.white_goal, "white_goal")?), Some(cell(&self.black_goal, "black_goal")?)];
        let mut p = Position::blank(self.size, goals, cell(&self.ball, "ball")?, self.to_move.colour());
        for s in &self.stacks {
            let at = cell(&s.at, "stack at")?;
            if p.at(at).is_some() {
                return Err(BadPosition::from(format!("two stacks on {}", s.at)));
            }
            let top = checked(s.colour, s.size, &s.at)?;
            let under = s.under.map(|u| checked(u.colour, u.size, &s.at)).transpose()?;
            if under.is_some_and(|u| u.colour == top.colour) {
                return Err(BadPosition::from(format!(
                    "the stack on {} covers a stack of its own colour (I-19)",
                    s.at
                )));
            }
            p.set(at, Some(Piece { top, under }));
        }
        Ok(p)
    }
}

fn checked(side: Side, size: u8, at: &str) -> Result<Stack, BadPosition> {
    match size {
        1..=4 => Ok(Stack { colour: side.colour(), size }),
        _ => Err(BadPosition::from(format!("the stack on {at} has {size} stones; a stack has 1 to 4 (I-4)"))),
    }
}

fn stack(p: &Position, c: u8, piece: Piece) -> WireStack {
    WireStack {
        at: p.name(c),
        colour: Side::of(piece.top.colour),
        size: piece.top.size,
        under: piece.under.map(|u| Under { colour: Side::of(u.colour), size: u.size }),
    }
}
