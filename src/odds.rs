//! Quick odds: one question answered exactly from a few numbers, with no config file.
//!
//! A [`NavalQuestion`] (n dice against a hex d hexes away) or a [`CavalryQuestion`] (an order, and optionally
//! a morale check) is written out as a one-group or one-unit scenario config and then resolved and solved like
//! any other ([`answer`]), so the odds come from the same rules code as a full run, never from a formula
//! written a second time. An [`Answer`] holds the resolved scenario and its exact probabilities; reading a
//! metric from it is [`Answer::value`].

use std::path::Path;

use crate::config::{self, ConfigError, Overrides, Scenario};
use crate::exact::{ExactTally, TooLarge, metric_values};

/// "What are my odds with `dice` dice at `distance` hexes?" (N-7, N-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavalQuestion {
    pub dice: u32,
    pub distance: u32,
    /// Movement halved, rounding up (N-8.2).
    pub pacific: bool,
    /// Read the highest die instead of the sum (the A-1 alternative).
    pub highest: bool,
}

/// "What are my odds of intercepting under this order, and of the target's morale check?" (C-2, C-9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CavalryQuestion {
    /// `charge`, `make_ready`, `receive_charge` or `rally`.
    pub order: String,
    /// The target's morale, to ask about its hedgehog morale check too.
    pub morale: Option<u32>,
    pub leader: u32,
    /// Morale checks rolled at once (C-9.2): 1 for a lone check.
    pub checks: u32,
}

/// The name of the one intercepting group or unit in a question's scenario.
pub const INTERCEPTOR: &str = "interceptor";

impl NavalQuestion {
    /// The question as a scenario: one group, its base dice set to `dice` and no modifiers apply.
    pub fn config(&self) -> String {
        let theater = if self.pacific { "pacific" } else { "europe" };
        let movement = if self.highest { "highest" } else { "sum" };
        format!(
            "[run]\nname = \"odds\"\n\n[naval]\ntheater = \"{theater}\"\n\n[naval.mission]\nname = \"mission\"\n\
             activity = \"sea_transport\"\nfactors = 20\n\n[[naval.group]]\nname = \"{INTERCEPTOR}\"\n\
             target = \"mission\"\ndistance = {}\nfactors = 20\n\n[naval.rules]\nmovement = \"{movement}\"\n\n\
             [naval.rules.base_dice]\nsea_transport = {}\n",
            self.distance, self.dice
        )
    }
}

impl CavalryQuestion {
    /// The question as a scenario: one unit in reach; with a morale, it ends in the rear of heavy infantry,
    /// which must attempt hedgehog (C-8.3), so the target's morale check is rolled whenever it gets in.
    pub fn config(&self) -> String {
        let (kind, ends_in) =
            if self.morale.is_some() { ("heavy_infantry", "rear") } else { ("light_infantry", "front") };
        format!(
            "[run]\nname = \"odds\"\n\n[[cavalry.interceptor]]\nname = \"{INTERCEPTOR}\"\norder = \"{}\"\n\
             distance = 2\nends_in = \"{ends_in}\"\n\n[cavalry.target]\nkind = \"{kind}\"\nmorale = {}\n\
             leader = {}\nextra_checks = {}\n",
            self.order,
            self.morale.unwrap_or(5),
            self.leader,
            self.checks.saturating_sub(1)
        )
    }
}

/// A question's scenario, its exact probabilities and the exact value of every metric.
#[derive(Debug)]
pub struct Answer {
    pub scenario: Scenario,
    pub exact: ExactTally,
    values: Vec<f64>,
}

impl Answer {
    /// The exact value of metric `name` (a probability, or a distribution's mean).
    pub fn value(&self, name: &str) -> Option<f64> {
        let index = self.scenario.model.metrics().defs().iter().position(|d| d.name == name)?;
        Some(self.values[index])
    }

    /// The exact probability of each value `0..=max` of distribution metric `name`.
    pub fn distribution(&self, name: &str) -> Option<&[f64]> {
        let def = self.scenario.model.metrics().defs().iter().find(|d| d.name == name)?;
        Some(&self.exact.probs[def.slot..def.slot + def.width()])
    }
}

/// Why a question could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum OddsError {
    #[error("{0}")]
    Invalid(#[from] ConfigError),
    #[error("{0}")]
    TooLarge(#[from] TooLarge),
}

/// Resolves and solves a question's scenario `config`.
pub fn answer(config: &str) -> Result<Answer, OddsError> {
    let scenario = config::from_str(config, Path::new("odds"), Overrides::default())?;
    let exact = crate::runner::solve(&scenario)?;
    let values = metric_values(scenario.model.metrics(), &exact);
    Ok(Answer { scenario, exact, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(dice: u32, distance: u32, pacific: bool) -> f64 {
        let q = NavalQuestion { dice, distance, pacific, highest: false };
        answer(&q.config()).expect("answers").value("group.interceptor.reached").expect("a metric")
    }

    /// T-1 and T-2 of the naval rules.
    #[test]
    fn naval_odds_are_the_rule_book_values() {
        assert!((reach(1, 4, false) - 1.0 / 2.0).abs() < 1e-12);
        assert!((reach(1, 3, false) - 2.0 / 3.0).abs() < 1e-12);
        assert!((reach(2, 5, false) - 5.0 / 6.0).abs() < 1e-12);
        assert!((reach(2, 7, false) - 7.0 / 12.0).abs() < 1e-12);
        assert!((reach(2, 4, true) - 7.0 / 12.0).abs() < 1e-12);
        assert!((reach(4, 7, true) - 287.0 / 432.0).abs() < 1e-12);
    }

    fn cavalry(order: &str, morale: Option<u32>, checks: u32) -> Answer {
        let q = CavalryQuestion { order: order.into(), morale, leader: 0, checks };
        answer(&q.config()).expect("answers")
    }

    /// T-7 and T-8 of the cavalry rules.
    #[test]
    fn cavalry_odds_are_the_rule_book_values() {
        for (order, p) in [("charge", 0.6), ("make_ready", 0.5), ("receive_charge", 0.4), ("rally", 0.0)] {
            assert!((cavalry(order, None, 1).value("cavalry.intercepted").unwrap() - p).abs() < 1e-12, "{order}");
        }
        let passed =
            |a: &Answer| a.value("target.hedgehog_formed").unwrap() / a.value("target.hedgehog_attempted").unwrap();
        assert!((passed(&cavalry("charge", Some(7), 1)) - 0.8).abs() < 1e-12);
        assert!((passed(&cavalry("charge", Some(7), 2)) - 0.7).abs() < 1e-12);
    }
}
