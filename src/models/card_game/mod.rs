//! Intercept in the card game Sorcery: Contested Realm (rules S-1..S-19 of `rules/card-game-intercept.md`).
//!
//! [`rules`] holds who may intercept a unit that used Move and Attack, and which rule rules each other unit
//! out. The config, the random policy for the choices a config leaves open, and the command line come next
//! (issue 6); nothing outside this module uses it yet.

pub mod rules;
