//! The legal turns of Intercept: one action (a stack's step or jump sequence, or the double's size change),
//! then an optional chain of ball transfers (I-2).
//!
//! [`moves_from`] lists where one stack may go (I-5..I-10, I-19..I-23); [`transfers`] lists the single
//! transfers from the ball's cell (I-13..I-17); [`turns`] puts them together into every distinct [`Turn`],
//! and [`Position::play`] plays one; [`turns_into`] lists them into a buffer the caller keeps, and
//! [`Position::play_in_place`] plays one without a copy, so a playout allocates nothing a ply;
//! [`can_score`] tells whether the side to move can score at once ([`scores`]), listing only the turns a
//! transfer may end. The generator itself is [`super::generate`], on the position's fixed-size board ([`super::board`]). Two
//! jump sequences that land on the same cell make the same move, since nothing is captured (I-6), and two
//! transfer chains that leave the ball on the same cell make the same turn, so a turn is identified by its
//! action and the ball's final cell. [`Turn`], [`Action`] and the rule [`Variant`]s are defined in `types`,
//! which the generator reads too, and re-exported here.

pub use super::types::{Action, Turn, Variant};

use super::board::{self, Squares};
use super::generate::Generator;
use super::position::{Cell, Colour, Position};

/// Where the stack on `from` may move (I-5..I-10), each destination once, with whether it covers.
pub fn moves_from(p: &Position, from: Cell) -> Vec<(Cell, bool)> {
    // I-12: the ball carrier stays put; a covered stack lies under its coverer and never moves (I-20).
    if from == p.ball || !p.at(from).is_some_and(|x| x.top.colour == p.to_move) {
        return Vec::new();
    }
    let mut none = Vec::new();
    let mut g = Generator::new(p, Variant::default(), &mut none);
    let n = g.moves(p.board_index(from));
    g.destinations(n).map(|to| (p.cell_at(to), p.board.0[to] != board::EMPTY)).collect()
}

/// The stacks `by` may cover, wherever its stacks stand (I-19, I-22): an enemy stack, not covered, not
/// carrying the ball, next to its owner's goal.
pub fn cover_targets(p: &Position, by: Colour) -> Vec<Cell> {
    let enemy = by.other();
    let coverable = |c: Cell, goal: Cell| {
        p.at(c).is_some_and(|x| x.top.colour == enemy && x.under.is_none()) && c != p.ball && p.distance(c, goal) == 1
    };
    let Some(goal) = p.goal_of(enemy) else { return Vec::new() };
    p.cells().filter(|&c| coverable(c, goal)).collect()
}

/// Every single transfer of the side to move from the ball's cell, as (passer, receiver), skipping
/// receivers in `visited` (I-13..I-17, I-A6).
pub fn transfers(p: &Position, visited: &[Cell]) -> Vec<(Cell, Cell)> {
    if p.ball >= p.size * p.size {
        return Vec::new();
    }
    let mut none = Vec::new();
    let g = Generator::new(p, Variant::default(), &mut none);
    let mut seen = Squares::default();
    visited.iter().for_each(|&c| seen.add(p.board_index(c)));
    let t = g.transfers(p.board_index(p.ball), &seen);
    t.pairs[..t.n].iter().map(|&(a, b)| (p.cell_at(a.into()), p.cell_at(b.into()))).collect()
}

/// Every distinct turn of the side to move (I-2): each action, then no transfer or each final cell of a
/// transfer chain.
pub fn turns(p: &Position, v: Variant) -> Vec<Turn> {
    let mut out = Vec::new();
    turns_into(p, v, &mut out);
    out
}

/// [`turns`] into `out`, which is cleared first: a caller that keeps `out` from position to position
/// allocates nothing once it has grown to the longest list.
pub fn turns_into(p: &Position, v: Variant, out: &mut Vec<Turn>) {
    out.clear();
    Generator::new(p, v, out).all();
}

/// Whether the side to move has a turn that puts the ball on the goal it attacks (I-18): one of [`turns`],
/// found among the turns a transfer may end, listed into `scratch`, which a caller keeps.
pub fn can_score(p: &Position, v: Variant, scratch: &mut Vec<Turn>) -> bool {
    if p.target().is_none() || p.no_transfer() {
        return false;
    }
    scratch.clear();
    Generator::new(p, v, scratch).transfers_only().all();
    scratch.iter().any(|t| scores(p, t))
}

/// Whether turn `t` of the side to move in `p` puts the ball on the goal it attacks (I-18).
pub fn scores(p: &Position, t: &Turn) -> bool {
    t.ball_to.is_some() && t.ball_to == p.target()
}

/// Every action of the side to move; `Pass` alone when there is none (I-A2).
pub fn actions(p: &Position) -> Vec<Action> {
    let mut out = Vec::new();
    Generator::new(p, Variant::default(), &mut out).actions_only().all();
    out.into_iter().map(|t| t.action).collect()
}

impl Position {
    /// The position after `action`, the same side still to move (for its transfers).
    pub fn acted(&self, action: Action) -> Position {
        let mut p = *self;
        p.act(action);
        p
    }

    /// Plays `action` in place.
    fn act(&mut self, action: Action) {
        match action {
            Action::Move { from, to, cover } => {
                let (from, to) = (self.board_index(from), self.board_index(to));
                board::apply_move(&mut self.board.0, from, to, cover);
            }
            Action::Resize { at } => {
                let at = self.board_index(at);
                board::apply_resize(&mut self.board.0, at);
            }
            Action::Pass => {}
        }
    }

    /// The position after a whole turn, the other side to move.
    pub fn play(&self, turn: Turn) -> Position {
        let mut p = *self;
        p.play_in_place(turn);
        p
    }

    /// Plays a whole turn in place: the action, the ball to its last cell, the other side to move.
    pub fn play_in_place(&mut self, turn: Turn) {
        self.act(turn.action);
        if let Some(to) = turn.ball_to {
            self.ball = to;
        }
        self.to_move = self.to_move.other();
    }

    /// The side that has won: the ball on a goal cell is its attacker's win (I-18).
    pub fn winner(&self) -> Option<Colour> {
        [Colour::White, Colour::Black].into_iter().find(|&s| self.goal_of(s.other()) == Some(self.ball))
    }

    pub fn turns(&self, v: Variant) -> Vec<Turn> {
        turns(self, v)
    }

    /// Whether no turn can move the ball: it is off the board, or no piece stands within two squares of it
    /// (but its carrier), so no passer stands by it (I-13) and no action can put one there. A step ends
    /// next to the ball only from within two of it (I-5), a jump or a slide only over a piece next to where
    /// it lands (I-6, I-9), and a size change is made in place (I-11).
    pub fn no_transfer(&self) -> bool {
        self.ball >= self.size * self.size || board::alone(&self.board.0, self.board_index(self.ball))
    }

    /// Whether `turn` takes the ball off an enemy stone (a steal, I-14).
    pub fn steals(&self, turn: Turn) -> bool {
        turn.ball_to.is_some() && self.ball_on_enemy()
    }

    /// `turn` in words, for a replay: `g2-g4`, `f3-f12 covers`, `g1 resizes to 4`, `pass`, then where the
    /// transfers leave the ball (`ball g7-e9`), marked when it is a steal.
    pub fn notation(&self, turn: Turn) -> String {
        let action = match turn.action {
            Action::Move { from, to, cover } => {
                format!("{}-{}{}", self.name(from), self.name(to), if cover { " covers" } else { "" })
            }
            Action::Resize { at } => {
                format!("{} resizes to {}", self.name(at), 7 - self.at(at).map_or(0, |x| x.top.size))
            }
            Action::Pass => "pass".to_owned(),
        };
        match turn.ball_to {
            None => action,
            Some(to) => {
                let steal = if self.steals(turn) { " (steal)" } else { "" };
                format!("{action}, ball {}-{}{steal}", self.name(self.ball), self.name(to))
            }
        }
    }
}
