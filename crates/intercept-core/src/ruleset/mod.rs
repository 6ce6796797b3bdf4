//! The one interface every rule set implements, and the registry that finds a config's rule set.
//!
//! A [`RuleSet`] is a rule set's whole contract with the shared layers: the config table it reads (its
//! typed `Config`), how that resolves into a [`Model`] (the trial, written once against
//! [`crate::chance::Chance`]), and everything needed to show a run of it, as data ([`Presentation`]). A
//! rule set is one folder; nothing outside it names it but the [`Registry`] that lists it.
//!
//! Generic code cannot hold "some rule set" by type, so each trait has an object-safe twin implemented once
//! for every rule set: an [`Entry`] is a registered rule set (it parses its table out of a config file), and
//! a [`Rules`] is a resolved one (a [`Resolved`] config and model). `Rules` runs the model under either
//! interpreter, the sampler ([`crate::engine`]) and the enumerator ([`crate::exact`]), each call
//! monomorphised for the model, so the only dynamic dispatch is one call per run, never per trial. A rule
//! set may also have commands of its own ([`Tool`]: quick odds, a situation checker, a replay), reached
//! through its `Entry`.
//!
//! [`conformance`] is the suite every rule set calls from a test in its own folder: its configs load, its
//! headline metrics are registered and described, its answer is one line, sampling agrees with the exact
//! values, and its JSON Schema describes every key.

pub mod conformance;
mod entry;
mod file;
mod params;
mod play;
mod registry;
mod tool;

use std::any::Any;
use std::fmt::Debug;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

pub use self::entry::{Entry, Parsed, Unparsed, Unresolved};
pub use self::file::{Document, has_table, parse_file, parse_run_only};
pub use self::params::{Param, ParamKind, ToolError, Value, Values};
pub use self::play::{
    Advice, Edit, Evaluation, LegendEntry, Palette, PieceKind, Play, PlayError, SquareText, Status, TurnChoice,
};
pub use self::registry::Registry;
pub use self::tool::{Given, Input, Mount, Tool, answer_query};
use crate::config::files::{Files, Included};
use crate::config::path::Invalid;
pub use crate::decide::{Choice, Decided, Decision};
use crate::engine::{self, Plan, Ran, Slice, Span, TrialRows};
use crate::exact::{self, ExactTally, TooLarge};
use crate::metrics::{Metrics, Tally};
pub use crate::model::Model;
use crate::present::{Assumption, Extra, Picture, Presentation};
use crate::summary::Summary;
pub use crate::view::{Format, View};

/// A rule set: its config table, its model, and how a run of it is shown.
pub trait RuleSet: Send + Sync + 'static {
    /// The config table that holds a scenario of these rules: `[TABLE]`.
    const TABLE: &'static str;
    /// What reports call the rules: the game's rules and its title, in a few words.
    const TITLE: &'static str;
    /// A small scenario of these rules, as config text, that `intercept-sim init` writes out with every key
    /// and its comment ([`crate::config::starter`]); its opening comment says what it sets up.
    const STARTER: Option<&'static str> = None;
    /// The rule set's own commands ([`Tool`]): quick odds, a situation checker, a replay.
    const TOOLS: &'static [&'static dyn Tool] = &[];
    /// The rule set's game played turn by turn from outside ([`Play`]), if it has one.
    const PLAY: Option<&'static dyn Play> = None;
    /// The table as written, every default filled in by serde; unknown keys refused. Its JSON Schema,
    /// derived from the same type, is what forms and editors read ([`Entry::schema`]).
    type Config: Serialize + DeserializeOwned + JsonSchema + Clone + Debug + Send + Sync + 'static;
    /// The resolved scenario: the trial and its metrics.
    type Model: Model + Clone + Debug + Send + Sync + 'static;

    /// Reads the files the config names (a map file) through `files` and holds their content in the config,
    /// as if written there, so that the config is whole without them: what a manifest records, what a sweep
    /// changes. Called once as a config is parsed; a config held as a value reads through
    /// [`crate::config::files::NoFiles`].
    fn include(&self, _config: &mut Self::Config, _files: &dyn Files) -> Result<(), Included> {
        Ok(())
    }

    /// Checks ranges and names, and builds the model.
    fn resolve(&self, config: &Self::Config) -> Result<Self::Model, Invalid>;

    /// What the config resolved to, for `validate`: derived values a user would check.
    fn describe(&self, model: &Self::Model) -> serde_json::Value;

    /// The scenario in plain words: a few sentences in the rules' vocabulary.
    fn plain_words(&self, config: &Self::Config, model: &Self::Model) -> Vec<String>;

    /// The metrics that answer the question a player of this game asks first.
    fn headline(&self, model: &Self::Model) -> Vec<String>;

    /// The headline answer of a run whose summary is `summary`, as one sentence in the rules' words with
    /// its interval (most rule sets end it with [`crate::present::how_often`]); `None` if it has none.
    fn answer(&self, _config: &Self::Config, _model: &Self::Model, _summary: &Summary) -> Option<String> {
        None
    }

    /// The readings its answers rest on that a player might not guess (a default the rule text leaves
    /// open, the model chosen), each with the key that changes it: every page that shows an answer shows
    /// them beside it. Whether each was written or left at its default, the page tells from the file.
    fn assumptions(&self, _config: &Self::Config, _model: &Self::Model) -> Vec<Assumption> {
        Vec::new()
    }

    /// Why this scenario never reads the number at `key` (a dotted key of its config, as `set` spells it),
    /// if it does not: a reading that passes it by, in one sentence naming the key that chose the reading
    /// (a fixed chance of winning under a combat model that does not use it). `None` where it is read, or the
    /// rule set cannot tell. What `solve` says when a key changes nothing.
    fn unread(&self, _config: &Self::Config, _model: &Self::Model, _key: &str) -> Option<String> {
        None
    }

    /// The `step`-th decision a side makes before the dice of its level (SoP steps 3 and 8), given the
    /// config with the decisions before it made: which of some options to take, each a set of config
    /// values. `None` once every decision is made, or where the rules have none. What `where` searches
    /// ([`crate::decide`]); the config need not resolve until every decision is made.
    fn decision(&self, _config: &Self::Config, _step: usize) -> Result<Option<Decision>, Invalid> {
        Ok(None)
    }

    /// The side whose good a high value of `metric` is, in [`Decision::side`]'s words, if one's is.
    fn favours(&self, _model: &Self::Model, _metric: &str) -> Option<String> {
        None
    }

    /// A picture of the scenario (who acts on whom, the map, the board), drawn before any trial; `None` if
    /// the rule set has none.
    fn scenario_picture(&self, _config: &Self::Config, _model: &Self::Model) -> Option<Picture> {
        None
    }

    /// A picture of the place the scenario happens (its map), if it has one: what a page lets a player click
    /// to choose where to act.
    fn map_picture(&self, _config: &Self::Config, _model: &Self::Model) -> Option<Picture> {
        None
    }

    /// A picture of a decision study's answer ([`crate::decide`]) drawn on this scenario, which has the best
    /// line taken; `None` if the rule set has none.
    fn decided_picture(&self, _config: &Self::Config, _model: &Self::Model, _decided: &Decided) -> Option<Picture> {
        None
    }

    /// The rule set's own outputs of a run whose summary is `summary` over `trials` trials.
    fn extras(&self, _config: &Self::Config, _model: &Self::Model, _summary: &Summary, _trials: u64) -> Vec<Extra> {
        Vec::new()
    }
}

/// The error a row sink may return: handed back unchanged by [`Rules::run_rows`].
pub type SinkError = Box<dyn std::error::Error + Send + Sync>;

/// A resolved rule set behind one object-safe interface: what the shared layers hold.
pub trait Rules: Send + Sync + Debug {
    /// The rule set's registry entry.
    fn entry(&self) -> &'static dyn Entry;
    /// The metrics the trial reports.
    fn metrics(&self) -> &Metrics;
    /// [`RuleSet::describe`].
    fn describe(&self) -> serde_json::Value;
    /// The scenario in plain words ([`RuleSet::plain_words`]).
    fn plain_words(&self) -> Vec<String>;
    /// The headline metrics ([`RuleSet::headline`]).
    fn headline(&self) -> Vec<String>;
    /// A picture of the scenario ([`RuleSet::scenario_picture`]).
    fn scenario_picture(&self) -> Option<Picture>;
    /// The scenario's map ([`RuleSet::map_picture`]).
    fn map_picture(&self) -> Option<Picture>;
    /// A picture of a decision study's answer ([`RuleSet::decided_picture`]).
    fn decided_picture(&self, decided: &Decided) -> Option<Picture>;
    /// The readings its answers rest on ([`RuleSet::assumptions`]).
    fn assumptions(&self) -> Vec<Assumption>;
    /// The side a high value of `metric` favours ([`RuleSet::favours`]).
    fn favours(&self, metric: &str) -> Option<String>;
    /// Why it never reads the number at `key`, if it does not ([`RuleSet::unread`]).
    fn unread(&self, key: &str) -> Option<String>;
    /// How a run with this summary is shown.
    fn present(&self, summary: &Summary, trials: u64) -> Presentation;
    /// Runs the span's chunks under the sampler ([`engine::run_span`]).
    fn run_span(&self, plan: &Plan, span: Span, progress: &(dyn Fn(u64) + Sync)) -> Ran;
    /// Runs the span's chunks, handing every trial's row to `sink` in trial order ([`engine::run_rows`]).
    fn run_rows(
        &self,
        plan: &Plan,
        span: Span,
        progress: &(dyn Fn(u64) + Sync),
        sink: &mut (dyn FnMut(&TrialRows) -> Result<(), SinkError> + Send),
    ) -> Result<Ran, SinkError>;
    /// The counts of every trial of `plan`.
    fn tally(&self, plan: &Plan) -> Tally;
    /// One slice's counts and rows ([`engine::run_slice_rows`]).
    fn slice_rows(&self, plan: &Plan, slice: Slice) -> (Tally, TrialRows);
    /// The exact probability of every slot, by the model's exact interpreter ([`Model::solve`]) within
    /// `max_leaves`.
    fn solve(&self, max_leaves: u64) -> Result<ExactTally, TooLarge>;
    /// The same within `limits`: given [`exact::Limits::prune`], certified bounds where an exact answer is
    /// beyond the budget ([`Model::solve_within`]).
    fn solve_within(&self, limits: &exact::Limits) -> Result<ExactTally, TooLarge>;
    /// The same by the leaf walk, whatever the model's own interpreter: what a stepped model's merged
    /// states are checked against.
    fn solve_by_leaves(&self, max_leaves: u64) -> Result<ExactTally, TooLarge>;
    /// The same by merging states, if the model is stepped ([`Model::solve_by_states`]).
    fn solve_by_states(&self, max_leaves: u64) -> Option<Result<ExactTally, TooLarge>>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn Rules>;
    /// The concrete [`Resolved`], for a rule set's own commands.
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn Rules> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A rule set's config and the model it resolved to.
#[derive(Debug)]
pub struct Resolved<S: RuleSet> {
    pub set: &'static S,
    pub config: S::Config,
    pub model: S::Model,
}

impl<S: RuleSet> Clone for Resolved<S> {
    fn clone(&self) -> Self {
        Resolved { set: self.set, config: self.config.clone(), model: self.model.clone() }
    }
}

impl<S: RuleSet + Debug> Rules for Resolved<S> {
    fn entry(&self) -> &'static dyn Entry {
        self.set
    }
    fn metrics(&self) -> &Metrics {
        self.model.metrics()
    }
    fn describe(&self) -> serde_json::Value {
        self.set.describe(&self.model)
    }
    fn plain_words(&self) -> Vec<String> {
        self.set.plain_words(&self.config, &self.model)
    }
    fn headline(&self) -> Vec<String> {
        self.set.headline(&self.model)
    }
    fn scenario_picture(&self) -> Option<Picture> {
        self.set.scenario_picture(&self.config, &self.model)
    }
    fn map_picture(&self) -> Option<Picture> {
        self.set.map_picture(&self.config, &self.model)
    }
    fn decided_picture(&self, decided: &Decided) -> Option<Picture> {
        self.set.decided_picture(&self.config, &self.model, decided)
    }
    fn assumptions(&self) -> Vec<Assumption> {
        self.set.assumptions(&self.config, &self.model)
    }
    fn favours(&self, metric: &str) -> Option<String> {
        self.set.favours(&self.model, metric)
    }
    fn unread(&self, key: &str) -> Option<String> {
        self.set.unread(&self.config, &self.model, key)
    }
    fn present(&self, summary: &Summary, trials: u64) -> Presentation {
        Presentation {
            title: S::TITLE.to_owned(),
            plain: self.plain_words(),
            headline: self.headline(),
            answer: self.set.answer(&self.config, &self.model, summary),
            assumptions: self.assumptions(),
            picture: self.scenario_picture(),
            extras: self.set.extras(&self.config, &self.model, summary, trials),
        }
    }
    fn run_span(&self, plan: &Plan, span: Span, progress: &(dyn Fn(u64) + Sync)) -> Ran {
        engine::run_span(&self.model, plan, span, progress)
    }
    fn run_rows(
        &self,
        plan: &Plan,
        span: Span,
        progress: &(dyn Fn(u64) + Sync),
        sink: &mut (dyn FnMut(&TrialRows) -> Result<(), SinkError> + Send),
    ) -> Result<Ran, SinkError> {
        engine::run_rows(&self.model, plan, span, progress, sink)
    }
    fn tally(&self, plan: &Plan) -> Tally {
        engine::run(&self.model, plan, &|_| {})
    }
    fn slice_rows(&self, plan: &Plan, slice: Slice) -> (Tally, TrialRows) {
        engine::run_slice_rows(&self.model, plan, slice)
    }
    fn solve(&self, max_leaves: u64) -> Result<ExactTally, TooLarge> {
        self.model.solve(max_leaves)
    }
    fn solve_within(&self, limits: &exact::Limits) -> Result<ExactTally, TooLarge> {
        self.model.solve_within(limits)
    }
    fn solve_by_leaves(&self, max_leaves: u64) -> Result<ExactTally, TooLarge> {
        exact::enumerate(&self.model, max_leaves)
    }
    fn solve_by_states(&self, max_leaves: u64) -> Option<Result<ExactTally, TooLarge>> {
        self.model.solve_by_states(max_leaves)
    }
    fn clone_box(&self) -> Box<dyn Rules> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
