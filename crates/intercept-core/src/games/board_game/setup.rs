//! A position of Intercept set up by hand, for [`super::play`]: the [`Palette`] of what a cell may hold (each
//! side's passage stone, rest stone and doubles of 3 and 4, I-4, and the ball), one [`Edit`] at a time on a
//! [`Wire`] position, and [`check`], which refuses a set-up no game can be played from, one line per reason.

use super::position::{Colour, Position};
use super::turns::Variant;
use super::types::BadPosition;
use super::wire::{Side, Wire, WireStack, side_name as name};
use crate::ruleset::{Edit, Palette, PieceKind};

/// The palette's id of the ball; a stack's id is its side and size, `white-2`.
const BALL: &str = "ball";

/// Each side's four stacks (I-4), then the ball.
pub fn palette() -> Palette {
    let roles = [(1, "passage stone (P)"), (2, "rest stone (R)"), (3, "double of 3 (D3)"), (4, "double of 4 (D4)")];
    let mut pieces = Vec::new();
    for side in Side::BOTH.map(Side::name) {
        for (size, role) in roles {
            let text = format!("{}{} {role}", side[..1].to_uppercase(), &side[1..]);
            pieces.push(PieceKind { id: format!("{side}-{size}"), text, side: Some(side.to_owned()) });
        }
    }
    pieces.push(PieceKind { id: BALL.to_owned(), text: "The ball".to_owned(), side: None });
    Palette { pieces, sides: Side::BOTH.map(|s| s.name().to_owned()).to_vec() }
}

/// `wire` after `edit`, read back so that a cell name off the board or a stone on a goal is refused at once.
pub fn edit(mut wire: Wire, edit: &Edit) -> Result<Wire, BadPosition> {
    match edit {
        Edit::Place { square, piece } => place(&mut wire, square, piece.as_deref())?,
        Edit::ToMove { side } => wire.to_move = Side::named(side)?,
        Edit::Clear => wire.stacks.clear(),
    }
    let p = wire.read()?;
    if let Some(s) = wire.stacks.iter().find(|s| p.named(&s.at).is_some_and(|c| p.is_goal(c))) {
        return Err(BadPosition::from(format!("{} is a goal: no stone stands on a goal (I-17)", s.at)));
    }
    Ok(wire)
}

fn place(wire: &mut Wire, square: &str, piece: Option<&str>) -> Result<(), BadPosition> {
    if piece == Some(BALL) {
        wire.ball = square.to_owned();
        return Ok(());
    }
    wire.stacks.retain(|s| s.at != square);
    if let Some(id) = piece {
        let (colour, size) = stack_named(id)?;
        wire.stacks.push(WireStack { at: square.to_owned(), colour, size, under: None });
    }
    Ok(())
}

/// A palette id of a stack, `white-1` to `black-4`.
fn stack_named(id: &str) -> Result<(Side, u8), BadPosition> {
    let refuse = || {
        let ids: Vec<_> = palette().pieces.into_iter().map(|k| k.id).collect();
        format!("piece {id:?} is not allowed; allowed: {}", ids.join(", "))
    };
    let (side, size) = id.split_once('-').ok_or_else(refuse)?;
    let size = size.parse().ok().filter(|s| (1..=4).contains(s)).ok_or_else(refuse)?;
    Ok((Side::named(side).map_err(|_| refuse())?, size))
}

/// Why no game can be played from `p`, if so: the ball already in a goal (I-18), a stone on a goal (I-17),
/// the ball on a stack that cannot carry it (I-13, I-22), a side without stacks or with two doubles (I-4), or
/// the side to move without a legal turn.
pub fn check(p: &Position, variant: Variant) -> Result<(), BadPosition> {
    if p.is_goal(p.ball) {
        return Err(BadPosition::from(format!(
            "the ball is on the goal {}: that game is over already (I-18)",
            p.name(p.ball)
        )));
    }
    if let Some(c) = p.cells().find(|&c| p.is_goal(c) && p.at(c).is_some()) {
        return Err(BadPosition::from(format!("{} is a goal: no stone stands on a goal (I-17)", p.name(c))));
    }
    carrier(p)?;
    for side in [Colour::White, Colour::Black] {
        stacks_of(p, side)?;
    }
    if p.turns(variant).is_empty() {
        return Err(BadPosition::from(format!("{} is to move and has no legal turn", name(p.to_move))));
    }
    Ok(())
}

/// The ball lies alone or on an uncovered rest stone or size-4 double (I-13, I-22).
fn carrier(p: &Position) -> Result<(), BadPosition> {
    match p.at(p.ball) {
        Some(piece) if piece.under.is_some() => Err(BadPosition::from(format!(
            "the ball is on the covering stack on {}; a covered stack never carries it (I-22)",
            p.name(p.ball)
        ))),
        Some(piece) if !piece.top.is_rest_type() => Err(BadPosition::from(format!(
            "the ball is on a stack of {} on {}; only a rest stone or a double of 4 carries it (I-13)",
            piece.top.size,
            p.name(p.ball)
        ))),
        _ => Ok(()),
    }
}

/// `side` has a stack on the board, and one double at most (I-4).
fn stacks_of(p: &Position, side: Colour) -> Result<(), BadPosition> {
    let own: Vec<_> = p.cells().filter(|&c| p.at(c).is_some_and(|x| x.top.colour == side)).collect();
    if own.is_empty() {
        return Err(BadPosition::from(format!("{} has no stack on the board", name(side))));
    }
    let doubles: Vec<_> = own.iter().filter(|&&c| p.at(c).is_some_and(|x| x.top.is_double())).collect();
    if doubles.len() > 1 {
        let at: Vec<_> = doubles.iter().map(|&&c| p.name(c)).collect();
        return Err(BadPosition::from(format!(
            "{} has {} doubles ({}); a side has one double (I-4)",
            name(side),
            at.len(),
            at.join(", ")
        )));
    }
    Ok(())
}
