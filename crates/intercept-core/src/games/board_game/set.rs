//! The rule set as the shared layers see it ([`RuleSet`]): the `[board]` table, its model, and how a run
//! of it is shown.

use super::BoardGame;
use super::config::BoardConfig;
use crate::config::Invalid;
use crate::present::{Extra, Picture, how_often};
use crate::ruleset::{Play, RuleSet, Tool};
use crate::summary::Summary;

/// The rules of the `[board]` table.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoardGameRules;

impl RuleSet for BoardGameRules {
    const TABLE: &'static str = "board";
    const TITLE: &'static str = "the board game Intercept (self-play)";
    const STARTER: Option<&'static str> = Some(include_str!("starter.toml"));
    const TOOLS: &'static [&'static dyn Tool] = &[&super::replay::Replays];
    const PLAY: Option<&'static dyn Play> = Some(&super::play::BoardPlay);
    type Config = BoardConfig;
    type Model = BoardGame;

    fn resolve(&self, config: &Self::Config) -> Result<BoardGame, Invalid> {
        config.resolve()
    }

    fn describe(&self, model: &BoardGame) -> serde_json::Value {
        model.describe()
    }

    fn plain_words(&self, _config: &Self::Config, model: &BoardGame) -> Vec<String> {
        model.plain_words()
    }

    fn headline(&self, _model: &BoardGame) -> Vec<String> {
        ["board.first_player.wins", "board.draws", "board.first_player.losses"].map(str::to_owned).to_vec()
    }

    fn answer(&self, _config: &Self::Config, _model: &BoardGame, summary: &Summary) -> Option<String> {
        let wins = summary.metric("board.first_player.wins")?;
        Some(format!("The side that moves first wins {}.", how_often(wins)))
    }

    /// The opening board (C.2), which the run's own board output also shows in the report's scenario.
    fn scenario_picture(&self, config: &Self::Config, _model: &BoardGame) -> Option<Picture> {
        super::picture::extra(config.first_player).picture
    }

    fn extras(&self, config: &Self::Config, _model: &BoardGame, _summary: &Summary, _trials: u64) -> Vec<Extra> {
        vec![super::picture::extra(config.first_player)]
    }
}

#[cfg(test)]
mod conformance {
    use std::path::Path;

    use crate::ruleset::conformance::check;

    /// The shared conformance suite, on this rule set, its configs in `configs/board/` and its starter.
    #[test]
    fn the_rule_set_conforms() {
        let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/board");
        let report =
            check(&super::BoardGameRules, &crate::games::shipped(), &configs).unwrap_or_else(|e| panic!("{e}"));
        assert!(report.configs.len() > 1, "the folder's configs and the starter are checked: {report:?}");
    }
}
