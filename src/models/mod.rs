//! Rule sets. Each rule set is one module with its raw config, its resolution into a model, and its trial.
//!
//! A [`Model`] is a resolved rule set: its [`Metrics`] and a `trial` written against the [`Chance`] interface
//! and reporting to a [`Recorder`]. The sampler and the enumerator both run that same `trial`, monomorphised
//! for each source, so the per-trial path has no dynamic dispatch. [`ModelSpec`] holds whichever model a
//! config resolved to; [`ModelVisitor`] lets generic code (the engine, the enumerator) run it without a match
//! per call site.

pub mod board_game;
pub mod card_game;
pub mod cavalry;
pub mod naval;
pub mod step_race;
mod words;

use crate::chance::Chance;
use crate::config::RawConfig;
use crate::metrics::{Metrics, Recorder};

/// The distribution metrics whose values name a place rather than count something (the step race's
/// destination squares, the card game's final locations): their means say nothing, so the terminal and the
/// report's means leave them out, and they are drawn as a map and as stacked bars instead of bar charts.
pub const PLACE_METRICS: [&str; 3] = [step_race::DESTINATION, step_race::CAUGHT_DESTINATION, card_game::FINAL];

/// Whether `metric` names a place ([`PLACE_METRICS`]).
pub fn is_place(metric: &str) -> bool {
    PLACE_METRICS.contains(&metric)
}

/// A resolved rule set, ready to run trials.
pub trait Model: Sync {
    /// Whether the engine should walk a path memo instead of running the rules for every trial. It never
    /// changes a result; a model whose chance nodes are wide (hundreds of equally likely squares) is faster
    /// without it, since the memo's tape scans a wide node six outcomes at a time.
    const PATH_MEMO: bool = true;

    /// Whether the exact enumerator may walk the chance tree. False for self-play, whose tree holds every
    /// choice of every turn of a game: `exact` reports it too large at once instead of walking its leaves.
    const EXACT: bool = true;

    /// The metrics the trial reports, registered at resolve time.
    fn metrics(&self) -> &Metrics;

    /// Plays one trial: every random event through `chance`, every outcome to `rec`.
    fn trial<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R);
}

/// Whatever model a config resolved to.
#[derive(Clone, Debug)]
pub enum ModelSpec {
    Cavalry(cavalry::Cavalry),
    Naval(Box<naval::Naval>),
    StepRace(Box<step_race::StepRace>),
    CardGame(Box<card_game::CardGame>),
    BoardGame(Box<board_game::BoardGame>),
}

/// Generic code that runs on any model: implement it once, call [`ModelSpec::visit`].
pub trait ModelVisitor {
    type Output;
    fn visit<M: Model>(self, model: &M) -> Self::Output;
}

impl ModelSpec {
    /// Runs `visitor` on the concrete model.
    pub fn visit<V: ModelVisitor>(&self, visitor: V) -> V::Output {
        match self {
            ModelSpec::Cavalry(m) => visitor.visit(m),
            ModelSpec::Naval(m) => visitor.visit(m.as_ref()),
            ModelSpec::StepRace(m) => visitor.visit(m.as_ref()),
            ModelSpec::CardGame(m) => visitor.visit(m.as_ref()),
            ModelSpec::BoardGame(m) => visitor.visit(m.as_ref()),
        }
    }

    /// What the config resolved to, for `validate`: derived values a user would check (eligibility,
    /// dice counts, per-roll probabilities).
    pub fn describe(&self) -> serde_json::Value {
        match self {
            ModelSpec::Cavalry(m) => m.describe(),
            ModelSpec::Naval(m) => m.describe(),
            ModelSpec::StepRace(m) => m.describe(),
            ModelSpec::CardGame(m) => m.describe(),
            ModelSpec::BoardGame(m) => m.describe(),
        }
    }

    /// The scenario in plain words, for the report: a few sentences in the rules' vocabulary, derived from
    /// the resolved model (the same facts as [`ModelSpec::describe`]) and the config it was resolved from.
    pub fn plain_words(&self, config: &RawConfig) -> Vec<String> {
        match (self, &config.cavalry, &config.naval) {
            (ModelSpec::Cavalry(m), Some(cfg), _) => m.plain_words(cfg),
            (ModelSpec::Naval(m), _, Some(cfg)) => m.plain_words(cfg),
            (ModelSpec::StepRace(m), _, _) => m.plain_words(),
            (ModelSpec::CardGame(m), _, _) => m.plain_words(),
            (ModelSpec::BoardGame(m), _, _) => m.plain_words(),
            // A model is only ever resolved from its own table; nothing to describe otherwise.
            _ => Vec::new(),
        }
    }

    /// The model's metrics.
    pub fn metrics(&self) -> &Metrics {
        match self {
            ModelSpec::Cavalry(m) => m.metrics(),
            ModelSpec::Naval(m) => m.metrics(),
            ModelSpec::StepRace(m) => m.metrics(),
            ModelSpec::CardGame(m) => m.metrics(),
            ModelSpec::BoardGame(m) => m.metrics(),
        }
    }
}
