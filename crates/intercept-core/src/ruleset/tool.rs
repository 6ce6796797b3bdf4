//! [`Tool`]: one of a rule set's own commands (a quick odds calculator, a situation checker, a replay),
//! object-safe so that the command line and the workbench reach it through the rule set's
//! [`super::Entry`] without naming the rule set.
//!
//! A tool says where the command line puts it ([`Mount`]: `odds <name>`, `check <name>` or a command of its
//! own), describes its parameters once ([`super::Param`]) so that flags, help and forms are all built from
//! them, and answers with a [`View`]: one answer that renders itself as text, JSON or CSV, so the
//! command line prints it in the format asked and a page takes its JSON as a value, never as text to parse.

use std::path::Path;

use super::{Param, Rules, ToolError, Values};
use crate::config::run::RunSettings;
use crate::view::{Format, View};

/// Where the command line mounts a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mount {
    /// `intercept-sim odds <name>`: exact odds from a few numbers, no config file.
    Odds(&'static str),
    /// `intercept-sim check <name>`: one situation answered under the rules.
    Check(&'static str),
    /// `intercept-sim <name>`: a command of its own.
    Command(&'static str),
}

impl Mount {
    /// The tool's own name: the last word of its command.
    pub fn name(self) -> &'static str {
        match self {
            Mount::Odds(n) | Mount::Check(n) | Mount::Command(n) => n,
        }
    }
}

/// The config file a tool was given ([`Tool::config`]), loaded and resolved by the caller.
#[derive(Clone, Copy)]
pub struct Given<'a> {
    pub file: &'a Path,
    pub run: &'a RunSettings,
    /// Its rule set, resolved: a tool reaches its own typed config through [`Rules::as_any`].
    pub rules: &'a dyn Rules,
}

/// What a tool is asked: its parameters' values, checked against [`Tool::params`], and the config file if
/// it takes one.
pub struct Input<'a> {
    pub values: Values,
    pub config: Option<Given<'a>>,
}

/// One of a rule set's own commands.
pub trait Tool: Send + Sync {
    /// Where the command line puts it.
    fn mount(&self) -> Mount;
    /// What it answers, in a sentence: the command's help.
    fn title(&self) -> &'static str;
    /// Command lines that show it at work, each as typed after `intercept-sim `.
    fn examples(&self) -> &'static [&'static str];
    /// Its parameters, in the order help and a form show them.
    fn params(&self) -> Vec<Param>;
    /// What the config file it takes is, for its help (a positional argument); `None` if it takes none.
    fn config(&self) -> Option<&'static str> {
        None
    }
    /// The formats it prints in, text first.
    fn formats(&self) -> &'static [Format] {
        &[Format::Text, Format::Json]
    }
    /// The answer to `input`.
    fn answer(&self, input: &Input<'_>) -> Result<Box<dyn View>, ToolError>;
}

/// Answers the query pairs `query` (a page's form) with the tool's JSON document: for tools that take no
/// config file.
pub fn answer_query(tool: &dyn Tool, query: &[(String, String)]) -> Result<serde_json::Value, ToolError> {
    let values = Values::read(&tool.params(), query)?;
    Ok(tool.answer(&Input { values, config: None })?.json())
}
