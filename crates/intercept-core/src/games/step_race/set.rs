//! The rule set as the shared layers see it ([`RuleSet`]): the `[step_race]` table, its model, and how a run
//! of it is shown.

use super::StepRace;
use super::config::StepRaceConfig;
use crate::config::Invalid;
use crate::present::{Extra, Picture, how_often};
use crate::ruleset::{RuleSet, Tool};
use crate::summary::Summary;

/// The rules of the `[step_race]` table.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepRaceRules;

impl RuleSet for StepRaceRules {
    const TABLE: &'static str = "step_race";
    const TITLE: &'static str = "tactical step race (GITM)";
    const STARTER: Option<&'static str> = Some(include_str!("starter.toml"));
    const TOOLS: &'static [&'static dyn Tool] = &[&super::check::StepRaceCheck];
    type Config = StepRaceConfig;
    type Model = StepRace;

    fn resolve(&self, config: &Self::Config) -> Result<StepRace, Invalid> {
        config.resolve()
    }

    fn describe(&self, model: &StepRace) -> serde_json::Value {
        model.describe()
    }

    fn plain_words(&self, _config: &Self::Config, model: &StepRace) -> Vec<String> {
        model.plain_words()
    }

    fn scenario_picture(&self, config: &Self::Config, model: &StepRace) -> Option<Picture> {
        Some(model.picture(config))
    }

    fn headline(&self, _model: &StepRace) -> Vec<String> {
        vec!["step_race.intercepted".to_owned()]
    }

    fn answer(&self, _config: &Self::Config, _model: &StepRace, summary: &Summary) -> Option<String> {
        let intercepted = summary.metric("step_race.intercepted")?;
        Some(format!("An interceptor cuts the mover's move short {}.", how_often(intercepted)))
    }

    fn extras(&self, _config: &Self::Config, _model: &StepRace, summary: &Summary, _trials: u64) -> Vec<Extra> {
        super::coverage::extra(summary).into_iter().collect()
    }
}

#[cfg(test)]
mod conformance {
    use std::path::Path;

    use crate::ruleset::conformance::check;

    /// The shared conformance suite, on this rule set, its configs in `configs/step-race/` and its starter.
    #[test]
    fn the_rule_set_conforms() {
        let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/step-race");
        let report = check(&super::StepRaceRules, &crate::games::shipped(), &configs).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.configs.len() > 1, "the folder's configs and the starter are checked: {report:?}");
    }
}
