//! Every metric of every shipped config says what it counts, in one line that cites the rules it follows.

mod common;

use intercept_core::config::{self, Overrides};
use intercept_core::games::shipped;

use common::shipped_configs;

/// Whether `text` cites a rule ID: an uppercase letter, '-', a digit ("N-8", "C-4.5", "I-18").
fn cites_a_rule(text: &str) -> bool {
    text.as_bytes().windows(3).any(|w| w[0].is_ascii_uppercase() && w[1] == b'-' && w[2].is_ascii_digit())
}

#[test]
fn every_metric_says_what_it_counts_and_which_rules_it_follows() {
    let configs = shipped_configs();
    assert!(configs.len() >= 5, "the shipped configs are found");
    for path in configs {
        let scenario = config::load(&shipped(), &path, Overrides::default()).expect("a shipped config loads");
        let defs = scenario.rules.metrics().defs();
        assert!(!defs.is_empty(), "{}: no metrics", path.display());
        for def in defs {
            let (name, about) = (&def.name, &def.about);
            let at = path.display();
            assert!(!about.trim().is_empty(), "{at}: {name} has no description");
            assert!(cites_a_rule(about), "{at}: {name} cites no rule ID: {about:?}");
            assert!(about.chars().count() <= 140, "{at}: {name}'s description is over 140 characters: {about:?}");
            assert!(!about.contains('\n'), "{at}: {name}'s description is more than one line: {about:?}");
        }
    }
}

#[test]
fn a_rule_id_is_a_letter_a_dash_and_a_digit() {
    assert!(cites_a_rule("reaches the hex (N-8)") && cites_a_rule("(C-4.5, C-6)") && cites_a_rule("I-18"));
    assert!(!cites_a_rule("") && !cites_a_rule("col + 15 * row") && !cites_a_rule("G-A6") && !cites_a_rule("n-8"));
}
