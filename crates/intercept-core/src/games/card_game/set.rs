//! The rule set as the shared layers see it ([`RuleSet`]): the `[card_game]` table, its model, and how a run
//! of it is shown.

use super::CardGame;
use super::config::CardGameConfig;
use super::policy::{Intercept, Rule};
use crate::config::Invalid;
use crate::present::{Assumption, Extra, how_often};
use crate::ruleset::{RuleSet, Tool};
use crate::summary::Summary;

/// The rules of the `[card_game]` table.
#[derive(Clone, Copy, Debug, Default)]
pub struct CardGameRules;

impl RuleSet for CardGameRules {
    const TABLE: &'static str = "card_game";
    const TITLE: &'static str = "card-game intercept (Sorcery: Contested Realm)";
    const STARTER: Option<&'static str> = Some(include_str!("starter.toml"));
    const TOOLS: &'static [&'static dyn Tool] = &[&super::check::CardGameCheck];
    type Config = CardGameConfig;
    type Model = CardGame;

    fn resolve(&self, config: &Self::Config) -> Result<CardGame, Invalid> {
        config.resolve()
    }

    fn describe(&self, model: &CardGame) -> serde_json::Value {
        model.describe()
    }

    /// How the units that may intercept decide (S-A5): the text leaves it to the players.
    fn assumptions(&self, config: &Self::Config, _model: &CardGame) -> Vec<Assumption> {
        let said = match config.policy.intercept {
            Intercept::Rule(Rule::NotNegative) => {
                "interceptors: a side sends its best group, and only if the fight is not negative for it (S-A5)"
                    .to_owned()
            }
            Intercept::Rule(Rule::Always) | Intercept::Chance(1.0) => {
                "interceptors: every unit that may intercept does (S-A5)".to_owned()
            }
            Intercept::Chance(p) => {
                format!("interceptors: each unit that may intercept does so {p} of the time (S-A5)")
            }
        };
        vec![Assumption::new("card_game.policy.intercept", said)]
    }

    fn plain_words(&self, _config: &Self::Config, model: &CardGame) -> Vec<String> {
        model.plain_words()
    }

    fn headline(&self, _model: &CardGame) -> Vec<String> {
        vec!["card_game.interceptors".to_owned(), "card_game.mover_killed".to_owned()]
    }

    fn answer(&self, _config: &Self::Config, _model: &CardGame, summary: &Summary) -> Option<String> {
        let intercepted = summary.metric("card_game.intercepted")?;
        Some(format!("The mover is intercepted at its final location {}.", how_often(intercepted)))
    }

    fn extras(&self, _config: &Self::Config, model: &CardGame, summary: &Summary, trials: u64) -> Vec<Extra> {
        let locations = super::final_location::extra(model, summary, trials);
        locations.into_iter().chain(super::final_location::fights_extra(model, summary, trials)).collect()
    }
}

#[cfg(test)]
mod conformance {
    use std::path::Path;

    use crate::ruleset::conformance::check;

    /// The shared conformance suite, on this rule set, its configs in `configs/card-game/` and its starter.
    #[test]
    fn the_rule_set_conforms() {
        let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/card-game");
        let report = check(&super::CardGameRules, &crate::games::shipped(), &configs).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.configs.len() > 1, "the folder's configs and the starter are checked: {report:?}");
    }
}
