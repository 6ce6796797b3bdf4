//! The board game Intercept (Henri Vergne, 1993; rules I-1..I-23 of `rules/intercept-board-game.md`): an
//! abstract game on a 13×13 board whose core is interception, stealing the ball by passing it away from the
//! opponent.
//!
//! [`position`] holds the board ([`position::Position`], its stacks and the ball) and reads the diagram
//! strings the rules are illustrated with; [`turns`] generates every legal turn, an action and then an
//! optional chain of transfers, and plays it. Players, self-play runs and the command line come next
//! (issue 7).

pub mod mcts;
pub mod players;
pub mod position;
pub mod turns;
