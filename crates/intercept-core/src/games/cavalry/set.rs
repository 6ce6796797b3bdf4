//! The rule set as the shared layers see it ([`RuleSet`]): the `[cavalry]` table, its model, and how a run
//! of it is shown.

use super::Cavalry;
use super::config::CavalryConfig;
use crate::config::Invalid;
use crate::present::{Assumption, Picture, how_often};
use crate::ruleset::{RuleSet, Tool};
use crate::summary::Summary;

/// The rules of the `[cavalry]` table.
#[derive(Clone, Copy, Debug, Default)]
pub struct CavalryRules;

impl RuleSet for CavalryRules {
    const TABLE: &'static str = "cavalry";
    const TITLE: &'static str = "cavalry rules (Musket & Pike)";
    const STARTER: Option<&'static str> = Some(include_str!("starter.toml"));
    const TOOLS: &'static [&'static dyn Tool] = &[&super::odds::CavalryOddsTool];
    type Config = CavalryConfig;
    type Model = Cavalry;

    fn resolve(&self, config: &Self::Config) -> Result<Cavalry, Invalid> {
        config.resolve()
    }

    fn describe(&self, model: &Cavalry) -> serde_json::Value {
        model.describe()
    }

    fn plain_words(&self, config: &Self::Config, model: &Cavalry) -> Vec<String> {
        model.plain_words(config)
    }

    fn headline(&self, _model: &Cavalry) -> Vec<String> {
        ["cavalry.intercepted", "target.morale_failed", "target.morale_lost"].map(str::to_owned).to_vec()
    }

    fn scenario_picture(&self, config: &Self::Config, model: &Cavalry) -> Option<Picture> {
        Some(model.picture(config))
    }

    /// The target's preferred reaction (it decides whether a hedgehog is tried at all where fire is allowed)
    /// and the fire table, which is our reading: the seed gives none.
    fn assumptions(&self, config: &Self::Config, _model: &Cavalry) -> Vec<Assumption> {
        let reaction = serde_json::to_value(config.target.reaction).ok();
        let reaction = reaction.as_ref().and_then(|v| v.as_str()).unwrap_or("fire");
        vec![
            Assumption::new(
                "cavalry.target.reaction",
                format!("the target prefers {reaction} where the table leaves it a choice (C-5.2)"),
            ),
            Assumption::new("cavalry.fire", "fire hits: our table, the seed gives none (C-4.5)"),
        ]
    }

    fn answer(&self, _config: &Self::Config, _model: &Cavalry, summary: &Summary) -> Option<String> {
        let intercepted = summary.metric("cavalry.intercepted")?;
        Some(format!("An interceptor charges home next to the target {}.", how_often(intercepted)))
    }
}

#[cfg(test)]
mod conformance {
    use std::path::Path;

    use crate::ruleset::conformance::check;

    /// The shared conformance suite, on this rule set, its configs in `configs/cavalry/` and its starter.
    #[test]
    fn the_rule_set_conforms() {
        let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/cavalry");
        let report = check(&super::CavalryRules, &crate::games::shipped(), &configs).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.configs.len() > 1, "the folder's configs and the starter are checked: {report:?}");
    }
}
