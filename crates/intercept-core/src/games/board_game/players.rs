//! Players of Intercept and whole games between them.
//!
//! A [`Player`] picks one of the legal turns of a position. [`Random`] picks uniformly; [`Greedy`] takes a
//! winning transfer when there is one, and otherwise the turn that leaves the ball nearest the goal it
//! attacks, ties broken at random. [`play_game`] plays one game to a win or to the turn limit (a draw) and
//! returns a [`Game`]: who won, in how many turns, and how often each side stole the ball.

use crate::chance::Chance;

use super::position::{Cell, Colour, Position};
use super::turns::{Action, Turn, Variant, turns_into};

/// Chooses a turn: an index into `turns`, which is never empty.
/// Every random choice goes through the [`Chance`] interface, so a game is one trial of the engine.
pub trait Player {
    fn choose<C: Chance>(&self, p: &Position, turns: &[Turn], chance: &mut C) -> usize;
}

/// Every legal turn equally likely.
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

impl Player for Random {
    fn choose<C: Chance>(&self, _: &Position, turns: &[Turn], chance: &mut C) -> usize {
        chance.uniform(turns.len())
    }
}

/// A winning transfer if there is one, else the turn that brings the ball nearest the goal it attacks, and
/// among those the one that brings its stones nearest the ball.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Player for Greedy {
    fn choose<C: Chance>(&self, p: &Position, turns: &[Turn], chance: &mut C) -> usize {
        let aims = Aims::new(p);
        // The best aim and how many turns share it, in one pass: no list is built.
        let (best, ties) =
            turns.iter().map(|t| aims.of(t)).fold(((u8::MAX, u32::MAX), 0), |(best, n), a| match a.cmp(&best) {
                std::cmp::Ordering::Less => (a, 1),
                std::cmp::Ordering::Equal => (best, n + 1),
                std::cmp::Ordering::Greater => (best, n),
            });
        let pick = chance.uniform(ties);
        let mut nearest = (0..turns.len()).filter(|&i| aims.of(&turns[i]) == best);
        nearest.nth(pick).expect("a turn of the best aim")
    }
}

/// How far `t` leaves the ball from the goal the side to move attacks: 0 for a win, and 0 on a board
/// without that goal (the test diagrams), where the aim cannot tell turns apart.
pub fn goal_distance(p: &Position, t: &Turn) -> u8 {
    p.target().map_or(0, |goal| p.distance(t.ball_to.unwrap_or(p.ball), goal))
}

/// The greedy player's aim for the turns of one position (lower is better: the ball's distance from the goal
/// the side to move attacks, 0 for a win, then how far its stacks stand from the ball), with what every turn shares worked out once:
/// the side to move's stacks and how far they stand from the ball where it lies.
pub struct Aims<'a> {
    p: &'a Position,
    /// The side to move's stacks (covering stacks included): the first `stacks` of `mine`.
    mine: [Cell; 225],
    stacks: usize,
    /// Their distances from the ball where it lies, all told.
    crowd_here: u32,
    /// The ball's distance from the goal where it lies: the first aim of every turn without a transfer.
    goal_here: u8,
}

impl<'a> Aims<'a> {
    pub fn new(p: &'a Position) -> Aims<'a> {
        let (mut mine, mut stacks) = ([0; 225], 0);
        for c in p.stacks_of(p.to_move) {
            (mine[stacks], stacks) = (c, stacks + 1);
        }
        let crowd_here = mine[..stacks].iter().map(|&c| u32::from(p.distance(c, p.ball))).sum();
        let goal_here = goal_distance(p, &Turn { action: Action::Pass, ball_to: None });
        Aims { p, mine, stacks, crowd_here, goal_here }
    }

    pub fn of(&self, t: &Turn) -> (u8, u32) {
        // Most turns leave the ball where it lies: their distance is worked out already.
        let goal = if t.ball_to.is_none() { self.goal_here } else { goal_distance(self.p, t) };
        (goal, self.crowding(t))
    }

    /// How far the side to move's stacks stand from the ball after `t`, all told: the greedy player's
    /// second aim, bringing its stones up to pass and receive. Only a move changes where they stand, and only
    /// the moving stack's cell (a covered enemy stack left behind is not ours), so no position is built.
    fn crowding(&self, t: &Turn) -> u32 {
        let p = self.p;
        let ball = t.ball_to.unwrap_or(p.ball);
        let away = |c| u32::from(p.distance(c, ball));
        let before = match t.ball_to {
            None => self.crowd_here,
            Some(_) => self.mine[..self.stacks].iter().map(|&c| away(c)).sum(),
        };
        match t.action {
            Action::Move { from, to, .. } => before - away(from) + away(to),
            Action::Resize { .. } | Action::Pass => before,
        }
    }
}

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// `None` for a draw at the turn limit.
    pub winner: Option<Colour>,
    pub turns: u32,
    /// Steals by White, then by Black: turns that took the ball off an enemy stone (I-14).
    pub steals: [u32; 2],
}

thread_local! {
    /// The legal turns of the position a game is at, kept from game to game so a game allocates nothing.
    static TURN_BUFFER: std::cell::Cell<Vec<Turn>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Plays `white` against `black` from `start` until a win or `limit` turns. `seen` hears each turn with the
/// position it was played in (a replay prints them; a run ignores them).
pub fn play_game<W: Player, B: Player, C: Chance>(
    start: &Position,
    white: &W,
    black: &B,
    v: Variant,
    limit: u32,
    chance: &mut C,
    seen: &mut dyn FnMut(&Position, Turn),
) -> Game {
    let mut p = *start;
    let mut game = Game { winner: None, turns: 0, steals: [0; 2] };
    // The thread's turn buffer, taken for the game (an empty one if a game is already playing on it).
    let mut turns = TURN_BUFFER.take();
    while game.turns < limit {
        turns_into(&p, v, &mut turns);
        let i = match p.to_move {
            Colour::White => white.choose(&p, &turns, chance),
            Colour::Black => black.choose(&p, &turns, chance),
        };
        let turn = turns[i];
        seen(&p, turn);
        if p.steals(turn) {
            game.steals[p.to_move.index()] += 1;
        }
        p.play_in_place(turn);
        game.turns += 1;
        if let Some(w) = p.winner() {
            game.winner = Some(w);
            break;
        }
    }
    TURN_BUFFER.set(turns);
    game
}
