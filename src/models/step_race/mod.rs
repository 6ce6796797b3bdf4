//! The tactical step race (GITM / American-Mexican War OnLine; rules G-1..G-13 of
//! `rules/tactical-step-race.md`): a unit with an interception order may stop a moving unit if it can reach
//! a square of the mover's path in no more steps than the mover takes to get there.
//!
//! The rules are pure geometry, with no dice: [`race`] holds them ([`race::race_move`] answers one move).
//! `intercept-sim check step-race` asks it about one situation from the command line.

pub mod race;
