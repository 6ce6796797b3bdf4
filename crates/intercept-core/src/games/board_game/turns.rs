//! The legal turns of Intercept: one action (a stack's step or jump sequence, or the double's size change),
//! then an optional chain of ball transfers (I-2).
//!
//! [`moves_from`] lists where one stack may go (I-5..I-10, I-19..I-23); [`transfers`] lists the single
//! transfers from the ball's cell (I-13..I-17); [`turns`] puts them together into every distinct [`Turn`],
//! and [`Position::play`] plays one. Two jump sequences that land on the same cell make the same move,
//! since nothing is captured (I-6), and two transfer chains that leave the ball on the same cell make the
//! same turn, so a turn is identified by its action and the ball's final cell.

use serde::{Deserialize, Serialize};

use super::position::{Cell, Colour, NO_BALL, Piece, Position};

/// The eight directions (I-1).
const DIRECTIONS: [(i8, i8); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

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

/// A whole turn: the action, then the cell the transfer chain leaves the ball on, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// Where the stack on `from` may move (I-5..I-10), each destination once, with whether it covers.
pub fn moves_from(p: &Position, from: Cell) -> Vec<(Cell, bool)> {
    moves_covering(p, from, p.cover_of(p.to_move))
}

/// [`moves_from`], given the cell the side to move already covers, if any (I-21).
fn moves_covering(p: &Position, from: Cell, covering: Option<Cell>) -> Vec<(Cell, bool)> {
    let Some(mover) = p.at(from) else { return Vec::new() };
    // I-12: the ball carrier stays put; a covered stack lies under its coverer and never moves (I-20).
    if from == p.ball || mover.top.colour != p.to_move {
        return Vec::new();
    }
    let can_cover = covering.is_none_or(|c| c == from);
    let mut search = Search { p, from, mover, can_cover, landed: vec![from], found: Vec::new() };
    for d in DIRECTIONS {
        search.step(d);
    }
    search.jumps(from);
    if mover.top.is_double() {
        for d in DIRECTIONS {
            search.slide_then_jump(d);
        }
    }
    search.found
}

/// The stacks `by` may cover, wherever its stacks stand (I-19, I-22): see [`coverable`].
pub fn cover_targets(p: &Position, by: Colour) -> Vec<Cell> {
    p.cells().filter(|&c| coverable_by(p, by, c)).collect()
}

/// Whether the stack on `c` may be covered by the side to move (I-19, I-22).
fn coverable(p: &Position, c: Cell) -> bool {
    coverable_by(p, p.to_move, c)
}

/// Whether `by` may cover the stack on `c`: an enemy stack, not covered, not carrying the ball, next to its
/// owner's goal.
fn coverable_by(p: &Position, by: Colour, c: Cell) -> bool {
    let Some(piece) = p.at(c) else { return false };
    let enemy = by.other();
    let Some(goal) = p.goal_of(enemy) else { return false };
    piece.top.colour == enemy && piece.under.is_none() && c != p.ball && p.distance(c, goal) == 1
}

/// Whether the stack `mover` may jump the piece on `over` (I-6, I-8, I-9, I-23).
fn jumpable(p: &Position, mover: Piece, over: Cell) -> bool {
    let Some(piece) = p.at(over) else { return false };
    if over == p.ball {
        return false; // I-8: nobody jumps the ball carrier
    }
    match (mover.top.is_double(), piece.top.is_double()) {
        (_, false) => true,
        // I-9: the double jumps the enemy double (its own is itself).
        (true, true) => piece.top.colour != mover.top.colour,
        (false, true) => false,
    }
}

/// The moves of one stack: its steps, and the landings of its jump sequences, each once.
struct Search<'a> {
    p: &'a Position,
    from: Cell,
    mover: Piece,
    /// Whether the mover may still cover a stack (I-21).
    can_cover: bool,
    /// The cells a jump sequence has landed on, which keeps it from looping (I-7).
    landed: Vec<Cell>,
    found: Vec<(Cell, bool)>,
}

impl Search<'_> {
    fn add(&mut self, to: Cell, cover: bool) {
        if !self.found.contains(&(to, cover)) {
            self.found.push((to, cover));
        }
    }

    /// A step in direction `d` to an open cell (I-5), or onto a stack to cover it (I-19).
    fn step(&mut self, d: (i8, i8)) {
        let Some(to) = self.p.towards(self.from, d) else { return };
        if self.p.is_open(to) {
            self.add(to, false);
        } else if self.can_cover && coverable(self.p, to) {
            self.add(to, true);
        }
    }

    /// Every landing of a jump sequence from `at` (I-6, I-7): each landing is a move; a covering landing
    /// ends the sequence (I-22).
    fn jumps(&mut self, at: Cell) {
        for d in DIRECTIONS {
            let Some(over) = self.p.towards(at, d) else { continue };
            if over == self.from || !jumpable(self.p, self.mover, over) {
                continue;
            }
            if let Some(to) = self.p.towards(over, d) {
                self.land(to);
            }
        }
    }

    /// Lands a jump on `to`: an open cell continues the sequence, a coverable stack ends it.
    fn land(&mut self, to: Cell) {
        if self.landed.contains(&to) {
            return;
        }
        if self.p.is_open(to) {
            self.add(to, false);
            self.landed.push(to);
            self.jumps(to);
        } else if self.can_cover && coverable(self.p, to) {
            self.add(to, true);
        }
    }

    /// The double's slide over one or more empty cells in direction `d`, then a jump the same way (I-9,
    /// I-10).
    fn slide_then_jump(&mut self, d: (i8, i8)) {
        let p = self.p;
        let mut at = self.from;
        let mut slid = 0;
        while let Some(next) = p.towards(at, d).filter(|&c| p.is_open(c)) {
            at = next;
            slid += 1;
        }
        let over = p.towards(at, d).filter(|&c| slid > 0 && jumpable(p, self.mover, c));
        if let Some(to) = over.and_then(|o| p.towards(o, d)) {
            self.land(to);
        }
    }
}

/// Every single transfer of the side to move from the ball's cell, as (passer, receiver), skipping
/// receivers in `visited` (I-13..I-17, I-A6).
pub fn transfers(p: &Position, visited: &[Cell]) -> Vec<(Cell, Cell)> {
    transfers_at(p, p.ball, visited)
}

/// [`transfers`] with the ball on `ball`.
fn transfers_at(p: &Position, ball: Cell, visited: &[Cell]) -> Vec<(Cell, Cell)> {
    let me = p.to_move;
    if ball == NO_BALL {
        return Vec::new();
    }
    let receives = |c: Cell| match p.at(c) {
        Some(x) => x.top.colour == me && x.top.is_rest_type(),
        None => p.target() == Some(c), // I-17: only the adversary's goal
    };
    let mut found = Vec::new();
    for passer in around(p, ball).filter(|&c| p.passer(c)) {
        let receivers = around(p, passer).filter(|&r| p.distance(ball, r) == 2 && !visited.contains(&r));
        found.extend(receivers.filter(|&r| receives(r)).map(|r| (passer, r)));
    }
    found
}

/// The eight neighbours of `c` on the board.
fn around(p: &Position, c: Cell) -> impl Iterator<Item = Cell> + '_ {
    DIRECTIONS.iter().filter_map(move |&d| p.towards(c, d))
}

/// Every distinct turn of the side to move (I-2): each action, then no transfer or each final cell of a
/// transfer chain.
pub fn turns(p: &Position, v: Variant) -> Vec<Turn> {
    let mut out = Vec::new();
    let mut all = actions(p);
    if !v.action_mandatory && all != [Action::Pass] {
        all.push(Action::Pass);
    }
    let passer_near = around(p, p.ball).any(|c| p.passer(c));
    for action in all {
        out.push(Turn { action, ball_to: None });
        if matches!(action, Action::Resize { .. }) && !v.size_change_allows_transfer {
            continue;
        }
        if !may_transfer(p, action, passer_near) {
            continue;
        }
        let after = p.acted(action);
        let moved = match action {
            Action::Move { to, .. } => Some(to),
            _ => None,
        };
        for end in chain_ends(&after, moved, v) {
            out.push(Turn { action, ball_to: Some(end) });
        }
    }
    out
}

/// Whether a transfer may follow `action`. A transfer needs a passage-type stone of the side to move next
/// to the ball (I-13), and an action changes only the cell it moves to or resizes, so with no such stone
/// beforehand only an action on a cell next to the ball can make one. Most turns of a game with the ball
/// lying alone need no position built to know they have no transfer.
fn may_transfer(p: &Position, action: Action, passer_near: bool) -> bool {
    passer_near
        || match action {
            Action::Move { to, .. } => p.distance(to, p.ball) == 1,
            Action::Resize { at } => p.distance(at, p.ball) == 1,
            Action::Pass => false,
        }
}

/// Every action of the side to move; `Pass` alone when there is none (I-A2).
pub fn actions(p: &Position) -> Vec<Action> {
    let mut out = Vec::new();
    let covering = p.cover_of(p.to_move);
    for from in p.cells() {
        out.extend(moves_covering(p, from, covering).into_iter().map(|(to, cover)| Action::Move { from, to, cover }));
        let mine = p.at(from).filter(|x| x.top.colour == p.to_move && x.under.is_none());
        // I-11; I-12: a size-4 double carrying the ball keeps its size.
        if mine.is_some_and(|x| x.top.is_double()) && from != p.ball {
            out.push(Action::Resize { at: from });
        }
    }
    if out.is_empty() {
        out.push(Action::Pass);
    }
    out
}

/// Every cell a transfer chain can leave the ball on, each once (I-15); a chain stops at the goal (I-18).
/// Under `steal_requires_moved_piece`, a first transfer off an enemy stone must use the stack that moved.
fn chain_ends(p: &Position, moved: Option<Cell>, v: Variant) -> Vec<Cell> {
    let mut ends = Vec::new();
    let mut visited = vec![p.ball];
    let stolen = p.ball_on_enemy();
    let allowed = |(passer, to): (Cell, Cell)| {
        !(v.steal_requires_moved_piece && stolen) || moved.is_some_and(|m| m == passer || m == to)
    };
    for (_, to) in transfers_at(p, p.ball, &visited).into_iter().filter(|&t| allowed(t)) {
        follow(p, to, &mut visited, &mut ends);
    }
    ends
}

/// Records the ball arriving on `to` and every chain that goes on from there (I-15).
fn follow(p: &Position, to: Cell, visited: &mut Vec<Cell>, ends: &mut Vec<Cell>) {
    if !ends.contains(&to) {
        ends.push(to);
    }
    if p.target() != Some(to) {
        visited.push(to);
        extend_chain(p, to, visited, ends);
        visited.pop();
    }
}

fn extend_chain(p: &Position, at: Cell, visited: &mut Vec<Cell>, ends: &mut Vec<Cell>) {
    for (_, to) in transfers_at(p, at, visited) {
        follow(p, to, visited, ends);
    }
}

impl Position {
    /// The position after `action`, the same side still to move (for its transfers).
    pub fn acted(&self, action: Action) -> Position {
        let mut p = self.clone();
        match action {
            Action::Move { from, to, cover } => {
                let moving = p.at(from).expect("a stack to move");
                // The coverer leaves the covered stack behind, free again (I-21).
                p.set(from, moving.under.map(|top| Piece { top, under: None }));
                let under = if cover { p.at(to).map(|x| x.top) } else { None };
                p.set(to, Some(Piece { top: moving.top, under }));
            }
            Action::Resize { at } => {
                let mut piece = p.at(at).expect("the double");
                piece.top.size = 7 - piece.top.size;
                p.set(at, Some(piece));
            }
            Action::Pass => {}
        }
        p
    }

    /// The position after a whole turn, the other side to move.
    pub fn play(&self, turn: Turn) -> Position {
        let mut p = self.acted(turn.action);
        if let Some(to) = turn.ball_to {
            p.ball = to;
        }
        p.to_move = p.to_move.other();
        p
    }

    /// The side that has won: the ball on a goal cell is its attacker's win (I-18).
    pub fn winner(&self) -> Option<Colour> {
        [Colour::White, Colour::Black].into_iter().find(|&s| self.goal_of(s.other()) == Some(self.ball))
    }

    pub fn turns(&self, v: Variant) -> Vec<Turn> {
        turns(self, v)
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
