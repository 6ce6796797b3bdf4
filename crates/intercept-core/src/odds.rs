//! Quick odds: one question answered exactly from a few numbers, with no config file.
//!
//! A rule set's question (its own type, in its folder) is written out as a small scenario config and then
//! resolved and solved like any other ([`answer`]), so the odds come from the same rules code as a full run,
//! never from a formula written a second time. An [`Answer`] holds the resolved scenario and its exact
//! probabilities; reading a metric from it is [`Answer::value`].

use std::path::Path;

use crate::config::{self, ConfigError, Overrides, Scenario};
use num_rational::BigRational;

use crate::exact::{ExactTally, TooLarge, metric_fractions};
use crate::ruleset::Registry;

/// The name of the one intercepting group or unit in a question's scenario.
pub const INTERCEPTOR: &str = "interceptor";

/// A question's scenario, its exact probabilities and the exact value of every metric.
#[derive(Debug)]
pub struct Answer {
    pub scenario: Scenario,
    pub exact: ExactTally,
    values: Vec<Option<BigRational>>,
}

impl Answer {
    /// The exact value of metric `name` (a probability, or a distribution's mean).
    pub fn value(&self, name: &str) -> Option<f64> {
        self.fraction(name).as_ref().map(crate::fraction::to_f64)
    }

    /// The exact value of metric `name` as a fraction.
    pub fn fraction(&self, name: &str) -> Option<BigRational> {
        let index = self.scenario.rules.metrics().defs().iter().position(|d| d.name == name)?;
        self.values[index].clone()
    }

    /// The exact probability of each value `0..=max` of distribution metric `name`.
    pub fn distribution(&self, name: &str) -> Option<Vec<f64>> {
        let metrics = self.scenario.rules.metrics();
        let def = metrics.defs().iter().find(|d| d.name == name)?;
        crate::exact::distribution(metrics, &self.exact, def)
    }

    /// The exact probability of each value `0..=max` of distribution metric `name`, as fractions.
    pub fn distribution_fractions(&self, name: &str) -> Option<Vec<BigRational>> {
        let metrics = self.scenario.rules.metrics();
        let def = metrics.defs().iter().find(|d| d.name == name)?;
        crate::exact::distribution_fractions(metrics, &self.exact, def)
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

/// Resolves and solves a question's scenario `config`, written for one of the `registry`'s rule sets.
pub fn answer(registry: &Registry, config: &str) -> Result<Answer, OddsError> {
    let scenario = config::from_str(registry, config, Path::new("odds"), Overrides::default())?;
    let exact = crate::runner::solve(&scenario)?;
    let values = metric_fractions(scenario.rules.metrics(), &exact);
    Ok(Answer { scenario, exact, values })
}
