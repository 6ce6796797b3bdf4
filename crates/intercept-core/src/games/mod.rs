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

/// Command lines that show the shipped rule sets at work, for the command line's help: which command's help
/// shows it (`""` for the top level), the line as typed after `intercept-sim `, and what it does (may be empty).
/// Each rule set's own tools carry their examples themselves ([`crate::ruleset::Tool::examples`]).
pub const EXAMPLES: &[(&str, &str, &str)] = &[
    ("", "validate configs/cavalry/charge-on-pikes.toml", "check a config, show every default"),
    ("", "exact configs/cavalry/charge-on-pikes.toml", "exact odds, as fractions"),
    ("", "run configs/cavalry/charge-on-pikes.toml", "1,000,000 seeded trials -> reports/charge-on-pikes/"),
    ("", "run CONFIG --trials 100000000 --seed 7 --json", "more trials, another seed, JSON on stdout"),
    ("", "odds naval --dice 4 --distance 7 --pacific", "exact odds of one roll, no config file"),
    ("", "odds cavalry --order charge --morale 7", "the d10 table and a hedgehog morale check"),
    ("", "sweep CONFIG --set naval.rules.slow_ships=-2,-1,0", "one rule value over a grid, common seeds"),
    ("", "sensitivity CONFIG --only naval.rules", "which rule value moves the odds most"),
    ("", "run --resume reports/three-level-chain", "finish a run stopped with Ctrl-C"),
    ("", "run CONFIG --shard 0/3 --out shards/0", "one third of a run; then `merge` the shards"),
    ("metrics", "metrics configs/cavalry/charge-on-pikes.toml", ""),
    ("schema", "schema", "the rule sets' tables"),
    ("schema", "schema naval", "the schema of a config with a [naval] table"),
    ("sweep", "sweep configs/naval/three-level-chain.toml --set naval.rules.slow_ships=-2,-1,0", ""),
    ("sweep", "sweep configs/naval/three-level-chain.toml --set naval.group.taranto.distance=3,4,5", ""),
    ("sensitivity", "sensitivity configs/naval/three-level-chain.toml", ""),
    (
        "sensitivity",
        "sensitivity configs/naval/three-level-chain.toml --only naval.rules --metric mission.completed",
        "",
    ),
    ("solve", "solve configs/naval/three-level-chain.toml --target '<=1/2' --vary naval.rules.counter_from_port", ""),
    (
        "solve",
        "solve configs/cavalry/charge-on-pikes.toml --target 'target.hedgehog_formed>=1/2' --vary cavalry.target.morale=0..10",
        "",
    ),
    ("init", "init cavalry", "writes cavalry.toml"),
    ("init", "init naval -o my-convoy.toml", ""),
    ("init", "init step-race -o -", "to stdout"),
];
