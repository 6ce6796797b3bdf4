//! Quick odds: one question answered exactly from a few numbers, with no config file.
//!
//! A rule set's question (its own type, in its folder) is turned into a small scenario, its config table
//! built as a value, and then resolved and solved like any other ([`answer`]), so the odds come from the same
//! rules code as a full run, never from a formula written a second time. An [`Answer`] holds the resolved
//! rule set and its exact probabilities; reading a metric from it is [`Answer::value`].

use std::fmt::Debug;

use num_rational::BigRational;

use crate::config::path::Invalid;
use crate::config::run::RunConfig;
use crate::exact::{ExactTally, TooLarge, metric_fractions};
use crate::ruleset::{Resolved, RuleSet, Rules};

/// The name of the one intercepting group or unit in a question's scenario.
pub const INTERCEPTOR: &str = "interceptor";

/// A question's scenario, its exact probabilities and the exact value of every metric.
#[derive(Debug)]
pub struct Answer {
    /// The question's scenario, resolved.
    pub rules: Box<dyn Rules>,
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
        let index = self.rules.metrics().defs().iter().position(|d| d.name == name)?;
        self.values[index].clone()
    }

    /// The exact probability of each value `0..=max` of distribution metric `name`.
    pub fn distribution(&self, name: &str) -> Option<Vec<f64>> {
        let metrics = self.rules.metrics();
        let def = metrics.defs().iter().find(|d| d.name == name)?;
        crate::exact::distribution(metrics, &self.exact, def)
    }

    /// The exact probability of each value `0..=max` of distribution metric `name`, as fractions.
    pub fn distribution_fractions(&self, name: &str) -> Option<Vec<BigRational>> {
        let metrics = self.rules.metrics();
        let def = metrics.defs().iter().find(|d| d.name == name)?;
        crate::exact::distribution_fractions(metrics, &self.exact, def)
    }
}

/// Why a question could not be answered: a bug in the rule set's question, since its parameters are
/// checked before it is asked, or a tree too large to solve.
#[derive(Debug, thiserror::Error)]
pub enum OddsError {
    #[error("the question's config table does not parse: {0}")]
    Shape(#[from] serde_json::Error),
    #[error("the question's scenario is refused: {}: {}", .0.path, .0.message)]
    Invalid(Invalid),
    #[error("{0}")]
    TooLarge(#[from] TooLarge),
}

/// Resolves and solves the scenario whose `set` table is `table` (every key not given at its default).
pub fn answer<S: RuleSet + Debug>(set: &'static S, table: serde_json::Value) -> Result<Answer, OddsError> {
    let config: S::Config = serde_json::from_value(table)?;
    let model = set.resolve(&config).map_err(OddsError::Invalid)?;
    let rules: Box<dyn Rules> = Box::new(Resolved { set, config, model });
    let exact = rules.solve(most_leaves())?;
    let values = metric_fractions(rules.metrics(), &exact);
    Ok(Answer { rules, exact, values })
}

/// The largest tree a question walks: a config's default (`[run] max_exact_leaves`).
fn most_leaves() -> u64 {
    u64::try_from(RunConfig::default().max_exact_leaves).unwrap_or(0)
}
