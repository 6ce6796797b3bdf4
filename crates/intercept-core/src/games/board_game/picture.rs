//! The board of a self-play run: the 13×13 start position of Intercept (C.2) as a board picture, each stack
//! a disc (white or black, lettered P passage, R rest, D3 double as in the text board), the goal cells
//! shaded and the ball marked, shown in the report's scenario and written as `board.{png,svg}`. For the game
//! page, the same picture in words: each square's contents ([`square_texts`]) and the [`legend`] of its marks.

use super::FirstPlayer;
use super::position::{Colour, Position, Stack, glyph};
use super::wire::side_name;
use crate::present::{Board, Disc, Extra, Picture, Placement, Square};
use crate::ruleset::{LegendEntry, SquareText};

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

/// What the picture's marks mean, as [`board`] and [`disc`] draw them (I-4, I-18, I-19).
pub fn legend() -> Vec<LegendEntry> {
    [
        ("White disc with a black rim", "a White stack"),
        ("Black disc", "a Black stack"),
        ("P", "a passage stone: a stack of 1 (I-4)"),
        ("R", "a rest stone: a stack of 2 (I-4)"),
        ("D3, D4", "the double: a stack of 3 or 4 (I-4)"),
        ("+ after the letters", "the stack covers an enemy stack (I-19)"),
        ("Green square", "a goal: White wins with the ball on g13, Black on g1 (I-18)"),
        ("Orange dot", "the ball"),
    ]
    .map(|(mark, meaning)| LegendEntry { mark: mark.to_owned(), meaning: meaning.to_owned() })
    .to_vec()
}

/// Every square of `p` in the picture's order, with what it holds in words: `e5: white stack of 2 (rest
/// stone, R)`, `g1: White's goal`, `g7: the ball`, `d4: empty`.
pub fn square_texts(p: &Position) -> Vec<SquareText> {
    p.cells().map(|c| SquareText { name: p.name(c), text: holds(p, c) }).collect()
}

fn holds(p: &Position, c: u8) -> String {
    let goal = [Colour::White, Colour::Black].into_iter().find(|&s| p.goal_of(s) == Some(c));
    let mut parts: Vec<String> = goal.map(|s| format!("{}'s goal", s.title())).into_iter().collect();
    if let Some(piece) = p.at(c) {
        let under = piece.under.map(|u| format!(" covering a {}", stack_words(u))).unwrap_or_default();
        parts.push(stack_words(piece.top) + &under);
    }
    if c == p.ball {
        parts.push(if parts.is_empty() { "the ball" } else { "with the ball" }.to_owned());
    }
    if parts.is_empty() { "empty".to_owned() } else { parts.join(", ") }
}

/// `white stack of 2 (rest stone, R)`: its side, its size and its role by size (I-4), with its letters.
fn stack_words(s: Stack) -> String {
    let role = match s.size {
        1 => "passage stone",
        2 => "rest stone",
        _ => "double",
    };
    format!("{} stack of {} ({role}, {})", side_name(s.colour), s.size, glyph(s).to_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::board_game::position::Piece;

    /// The words of a square name what the picture draws there: a covering stack with the stack it covers
    /// (I-19), the ball on a stack, a goal (C.2: White's goal g1, Black's g13).
    #[test]
    fn a_square_says_what_it_holds() {
        let mut p = Position::start();
        let (c5, g13) = (p.named("c5").unwrap(), p.named("g13").unwrap());
        let top = Stack { colour: Colour::White, size: 1 };
        p.set(c5, Some(Piece { top, under: Some(Stack { colour: Colour::Black, size: 2 }) }));
        p.ball = c5;
        let said = |name: &str| holds(&p, p.named(name).unwrap());
        assert_eq!(
            said("c5"),
            "white stack of 1 (passage stone, P) covering a black stack of 2 (rest stone, R), with the ball"
        );
        assert_eq!(
            (said("g1"), holds(&p, g13), said("g7")),
            ("White's goal".into(), "Black's goal".into(), "empty".into())
        );
        assert_eq!(square_texts(&p).len(), 13 * 13);
    }
}
