//! The rule sets' own commands on the command line: every [`Tool`] of the registry becomes a subcommand
//! (`odds <name>`, `check <name>` or a command of its own), its flags and help built from the tool's
//! parameter descriptions, so a rule set with a new tool touches nothing here.
//!
//! Flags are read as the text given and handed to [`Values::read`], the same check a page's form goes
//! through, so a value is refused in the same words wherever it was asked; clap adds what a terminal user
//! expects on top (the choices in help, a "similar value" hint, `requires`).

use std::path::PathBuf;

use crate::core::config::{self, Overrides};
use crate::core::games::shipped;
use crate::core::ruleset::{Format, Given, Input, Mount, Param, ParamKind, Registry, Tool, ToolError, Values};
use clap::builder::PossibleValuesParser;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use crate::failure::{Failure, bad_input};
use crate::format as flags;

/// The groups tools are mounted under, with their help.
const GROUPS: [(&str, &str); 2] = [
    ("odds", "Exact odds of one interception from a few numbers, no config file needed."),
    ("check", "Answer one interception situation under the rules: who may intercept, and why."),
];

/// `command` with every registered tool mounted.
pub fn mount(mut command: Command, registry: &Registry) -> Command {
    let tools: Vec<&'static dyn Tool> = registry.sets().iter().flat_map(|s| s.tools().iter().copied()).collect();
    for (group, about) in GROUPS {
        let members: Vec<Command> =
            tools.iter().filter(|t| group_of(t.mount()) == Some(group)).map(|t| sub(*t)).collect();
        if !members.is_empty() {
            let grouped = Command::new(group).about(about).subcommand_required(true).subcommands(members);
            command = command.subcommand(grouped);
        }
    }
    for tool in tools.iter().filter(|t| matches!(t.mount(), Mount::Command(_))) {
        command = command.subcommand(sub(*tool));
    }
    command
}

fn group_of(mount: Mount) -> Option<&'static str> {
    match mount {
        Mount::Odds(_) => Some("odds"),
        Mount::Check(_) => Some("check"),
        Mount::Command(_) => None,
    }
}

/// The tool's subcommand: its config file, its parameters, and the formats it prints.
fn sub(tool: &'static dyn Tool) -> Command {
    let mut command = Command::new(tool.mount().name());
    if let Some(help) = tool.config() {
        command = command.arg(Arg::new("config").value_name("CONFIG").required(true).help(help));
    }
    command = formats(command.args(tool.params().iter().map(flag)), tool.formats());
    // After the format flags: adding derived flags also sets the command's text from their struct's doc.
    command.about(tool.title()).long_about(None).after_help(examples(tool.examples()))
}

/// "Example:" and the command lines, as help ends.
pub fn examples(lines: &[&str]) -> String {
    let head = if lines.len() == 1 { "Example:" } else { "Examples:" };
    lines.iter().fold(head.to_owned(), |text, line| format!("{text}\n  intercept-sim {line}"))
}

/// The flag of one parameter: `--max-distance` for `max_distance`. One with an alternative is left to
/// [`Values::read`] to require, which knows when the alternative stands in for it.
fn flag(p: &Param) -> Arg {
    let required = p.required && p.alternative.is_none();
    let mut arg = Arg::new(p.name).long(p.name.replace('_', "-")).help(p.help).required(required);
    if let Some(other) = p.requires {
        arg = arg.requires(other);
    }
    let default = p.default.as_ref().map(|d| d.as_str().map_or_else(|| d.to_string(), str::to_owned));
    arg = match &p.kind {
        ParamKind::Flag => return arg.action(ArgAction::SetTrue),
        ParamKind::Whole { least, most } => {
            arg.value_name("N").help(format!("{} [allowed: {least} to {most}]", p.help))
        }
        ParamKind::Choice { allowed } => {
            arg.value_name(p.name.to_uppercase()).value_parser(PossibleValuesParser::new(allowed.iter().copied()))
        }
        ParamKind::Text { value_name, many } => {
            arg.value_name(*value_name).action(if *many { ArgAction::Append } else { ArgAction::Set })
        }
    };
    match default {
        Some(d) => arg.default_value(d),
        None => arg,
    }
}

/// The format flags for a tool that prints more than text: the same definitions the other commands derive.
fn formats(command: Command, offered: &[Format]) -> Command {
    match (offered.contains(&Format::Csv), offered.len() > 1) {
        (true, _) => flags::Format::augment_args(command),
        (false, true) => flags::TextOrJson::augment_args(command),
        (false, false) => command,
    }
}

/// A tool asked on the command line: the tool, and its own arguments.
pub struct Asked {
    tool: &'static dyn Tool,
    matches: ArgMatches,
}

/// The tool the parsed command line names, if it names one.
pub fn asked(registry: &Registry, matches: &ArgMatches) -> Option<Asked> {
    let (name, sub) = matches.subcommand()?;
    let (group, name, matches) = match (name, sub.subcommand()) {
        ("odds" | "check", Some((tool, m))) => (Some(name), tool, m),
        _ => (None, name, sub),
    };
    let mut tools = registry.sets().iter().flat_map(|s| s.tools().iter().copied());
    let tool = tools.find(|t| group_of(t.mount()) == group && t.mount().name() == name)?;
    Some(Asked { tool, matches: matches.clone() })
}

/// Answers the tool and prints its answer in the format asked.
pub fn answer(asked: Asked) -> Result<(), Failure> {
    let Asked { tool, matches } = asked;
    let params = tool.params();
    let values = Values::read(&params, &given(&params, &matches)).map_err(tool_failure)?;
    let file = matches.try_get_one::<String>("config").ok().flatten().map(PathBuf::from);
    let scenario = file.map(|f| config::load(&shipped(), &f, Overrides::default())).transpose()?;
    let config = scenario.as_ref().map(|s| Given { file: &s.file, run: &s.run, rules: s.rules.as_ref() });
    let answer = tool.answer(&Input { values, config }).map_err(tool_failure)?;
    crate::failure::show_view(answer.as_ref(), format(tool, &matches))
}

/// The values given on the command line, as name and text pairs (defaults are left to [`Values::read`], so
/// that `requires` counts only what was given).
fn given(params: &[Param], matches: &ArgMatches) -> Vec<(String, String)> {
    let typed = |p: &&Param| matches.value_source(p.name) == Some(ValueSource::CommandLine);
    let mut pairs = Vec::new();
    for p in params.iter().filter(typed) {
        match p.kind {
            ParamKind::Flag => pairs.push((p.name.to_owned(), matches.get_flag(p.name).to_string())),
            _ => pairs.extend(
                matches.get_many::<String>(p.name).into_iter().flatten().map(|v| (p.name.to_owned(), v.clone())),
            ),
        }
    }
    pairs
}

/// The format asked for, read as the flags were added ([`formats`]).
fn format(tool: &dyn Tool, matches: &ArgMatches) -> Format {
    let offered = tool.formats();
    let csv = offered.contains(&Format::Csv).then(|| flags::Format::from_arg_matches(matches).map(|f| f.asked()));
    let json = (offered.len() > 1).then(|| flags::TextOrJson::from_arg_matches(matches).map(|f| f.asked()));
    csv.or(json).and_then(Result::ok).unwrap_or(Format::Text)
}

/// A refused parameter is named by its flag; a question the rules cannot answer is a failed run.
fn tool_failure(e: ToolError) -> Failure {
    match e {
        ToolError::Param { name, message } => bad_input(format!("--{}: {message}", name.replace('_', "-"))),
        ToolError::Input(message) => bad_input(message),
        ToolError::Failed(_) => Failure { code: 1, message: e.to_string() },
    }
}
