//! The board of a self-play run: the 13×13 start position of Intercept (C.2) as a board picture, each stack
//! a disc (white or black, lettered P passage, R rest, D3 double as in the text board), the goal cells
//! shaded and the ball marked, shown in the report's scenario and written as `board.{png,svg}`.

use super::FirstPlayer;
use super::position::{Colour, Position, glyph};
use crate::present::{Board, Disc, Extra, Picture, Placement, Square};

/// The start position of a run in which `first` moves first, as an output.
pub fn extra(first: FirstPlayer) -> Extra {
    let first = match first {
        FirstPlayer::Black => "Black moves first",
        FirstPlayer::White => "White moves first",
        FirstPlayer::Random => "a coin toss decides who moves first",
    };
    let caption = format!("The start position (C.2); {first}");
    Extra {
        name: "board".to_owned(),
        placement: Placement::Scenario,
        text: "Each game starts here: White's stacks at the bottom, Black's at the top, the goals (green) in the \
               middle of the back rows and the ball (orange) alone in the centre. P is a passage stone, R a rest \
               stack of two, D3 the double. The replay command (intercept-sim replay) prints any game of the run turn by turn."
            .to_owned(),
        data: None,
        picture: Some(Picture::Board(board(&Position::start(), &caption))),
        caption,
        table: None,
    }
}

/// A position as a board picture.
pub fn board(p: &Position, caption: &str) -> Board {
    let square = |c| Square { shaded: p.is_goal(c), disc: p.at(c).map(|piece| disc(piece.top, piece.under.is_some())) };
    Board {
        caption: caption.to_owned(),
        size: p.size,
        squares: p.cells().map(square).collect(),
        marked: Some(p.ball.into()),
    }
}

/// A stack's disc: its colour, and its glyph with `+` when it covers another stack.
fn disc(top: super::position::Stack, covers: bool) -> Disc {
    Disc { dark: top.colour == Colour::Black, label: glyph(top).to_uppercase() + if covers { "+" } else { "" } }
}
