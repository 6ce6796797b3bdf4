//! The rule set as the shared layers see it ([`RuleSet`]): the `[board]` table, its model, and how a run
//! of it is shown.

use super::config::BoardConfig;
use super::{BoardGame, Seat};
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

    /// A match of two different players is about who wins it; one of a player against itself, about the
    /// first move's worth.
    fn headline(&self, model: &BoardGame) -> Vec<String> {
        let metrics = if is_match(model) {
            ["board.white.wins", "board.draws", "board.black.wins"]
        } else {
            ["board.first_player.wins", "board.draws", "board.first_player.losses"]
        };
        metrics.map(str::to_owned).to_vec()
    }

    fn answer(&self, _config: &Self::Config, model: &BoardGame, summary: &Summary) -> Option<String> {
        if is_match(model) {
            let [white, black] = model.seats.map(|s| s.describe());
            let wins = summary.metric("board.white.wins")?;
            return Some(format!("White ({white}) wins {} against Black ({black}).", how_often(wins)));
        }
        let wins = summary.metric("board.first_player.wins")?;
        Some(format!("The side that moves first wins {}.", how_often(wins)))
    }

    /// The opening board (C.2), which the run's own board output also shows in the report's scenario.
    fn scenario_picture(&self, config: &Self::Config, _model: &BoardGame) -> Option<Picture> {
        super::picture::extra(config.first_player).picture
    }

    /// The start position; and when a seat plays by the evaluation, how well its chances are calibrated.
    fn extras(&self, config: &Self::Config, model: &BoardGame, _summary: &Summary, _trials: u64) -> Vec<Extra> {
        let mut extras = vec![super::picture::extra(config.first_player)];
        if model.seats.iter().any(Seat::evaluates) {
            extras.push(super::calibration::Measured::shipped().extra());
        }
        extras
    }
}

/// Whether the two seats hold different players (kinds, budgets or depths).
fn is_match(model: &BoardGame) -> bool {
    model.seats[0].describe() != model.seats[1].describe()
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
