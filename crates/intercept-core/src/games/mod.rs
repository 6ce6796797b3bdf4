//! The registry of rule sets: every rule set is one folder here, and this is the one place that lists them.
//!
//! Each folder holds a rule set's raw config and its resolution, its rules and trial (written against
//! [`crate::chance::Chance`]), and what the shared layers need to show a run of it, all behind
//! [`crate::ruleset::RuleSet`]. [`shipped`] registers them, in the order a config error lists their tables.

pub mod board_game;
pub mod card_game;
pub mod cavalry;
pub mod naval;
pub mod step_race;
mod words;

use crate::ruleset::Registry;

/// The five shipped rule sets.
pub fn shipped() -> Registry {
    Registry::new(vec![
        &cavalry::CavalryRules,
        &naval::NavalRules,
        &step_race::StepRaceRules,
        &card_game::CardGameRules,
        &board_game::BoardGameRules,
    ])
}
