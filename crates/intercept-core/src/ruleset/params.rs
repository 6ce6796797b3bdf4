//! The parameters of a rule set's [`super::Tool`]: each described once ([`Param`]: name, [`ParamKind`] with
//! the allowed values, default, help), so that the command line's flags, its help and a page's form are all
//! built from the same description. [`Values::read`] checks the name and value pairs a flag line or a query
//! gives against it (unknown, repeated, out of range, missing), so every tool refuses bad input with the same
//! one-line [`ToolError`] naming the parameter and what is allowed, wherever it was asked.

use serde::Serialize;

/// One parameter of a tool.
#[derive(Clone, Debug, Serialize)]
pub struct Param {
    pub name: &'static str,
    #[serde(flatten)]
    pub kind: ParamKind,
    /// The value taken when it is not given; `None` for a parameter that must be given or may be left out.
    pub default: Option<serde_json::Value>,
    /// Whether it must be given.
    pub required: bool,
    /// Another parameter that must be given with this one.
    pub requires: Option<&'static str>,
    /// Another parameter that may be given instead of this one (and of every other that names it): this one is
    /// then required only when that one is not given, and may not be given with it.
    pub alternative: Option<&'static str>,
    pub help: &'static str,
}

impl Param {
    /// A parameter that may be left out, with no default and nothing it requires or stands in for: the
    /// start of every description, the rest set by struct update (`Param { required: true, ..Param::new(...) }`).
    pub fn new(name: &'static str, kind: ParamKind, help: &'static str) -> Param {
        Param { name, kind, default: None, required: false, requires: None, alternative: None, help }
    }
}

/// A parameter's type and allowed values.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ParamKind {
    /// A whole number from `least` to `most`.
    Whole { least: u64, most: u64 },
    /// A yes/no switch: `true`/`false` (also `1`/`0`, `on`, or empty as in `?flag`).
    Flag,
    /// One of `allowed`.
    Choice { allowed: &'static [&'static str] },
    /// Text the tool reads itself (such as a square, `7-7`), shown as `value_name`; given once, or any number
    /// of times when `many`.
    Text { value_name: &'static str, many: bool },
}

/// Why a tool could not answer: bad input (a parameter, or the config it was given), or a question its rules
/// cannot resolve.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// A parameter's value cannot be used; `message` says what is allowed.
    #[error("{name}: {message}")]
    Param { name: String, message: String },
    /// The input as a whole cannot be used (a config of another rule set): a whole sentence.
    #[error("{0}")]
    Input(String),
    #[error("cannot answer: {0}")]
    Failed(String),
}

impl ToolError {
    /// Parameter `name`'s value refused, saying why.
    pub fn param(name: &str, message: String) -> ToolError {
        ToolError::Param { name: name.to_owned(), message }
    }
}

/// A value read for a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Whole(u64),
    Flag(bool),
    Choice(String),
    Text(Vec<String>),
}

/// The checked values of a calculator's parameters: those given, and the defaults of the rest.
#[derive(Clone, Debug, Default)]
pub struct Values(Vec<(&'static str, Value)>);

impl Values {
    /// Checks `query` against `params`: every name known and given once, every value allowed, every
    /// required parameter given, and every `requires` met.
    pub fn read(params: &[Param], query: &[(String, String)]) -> Result<Values, ToolError> {
        let mut values = Values::default();
        for (name, text) in query {
            let param = params.iter().find(|p| p.name == name).ok_or_else(|| unknown(params, name))?;
            match (&param.kind, values.get_mut(param.name)) {
                (ParamKind::Text { many: true, .. }, Some(Value::Text(texts))) => texts.push(text.clone()),
                (_, Some(_)) => return Err(ToolError::param(name, "given twice; give it once".into())),
                (_, None) => values.0.push((param.name, parse(param, text)?)),
            }
        }
        for p in params {
            check_alternative(params, p, &values)?;
        }
        for p in params {
            check_present(params, p, &values)?;
        }
        let defaults: Vec<_> = params
            .iter()
            .filter(|p| values.get(p.name).is_none())
            .filter_map(|p| Some((p.name, default_value(&p.kind, p.default.as_ref()?)?)))
            .collect();
        values.0.extend(defaults);
        Ok(values)
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The whole number `name`, if given or defaulted.
    pub fn whole(&self, name: &str) -> Option<u64> {
        match self.get(name) {
            Some(Value::Whole(n)) => Some(*n),
            _ => None,
        }
    }

    /// The whole number `name` as a `u32`, or 0 when not given: for a parameter whose range fits (a range
    /// beyond `u32` saturates rather than wraps).
    pub fn small(&self, name: &str) -> u32 {
        self.whole(name).map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Every text given for `name`, in order (none when not given).
    pub fn texts(&self, name: &str) -> &[String] {
        match self.get(name) {
            Some(Value::Text(t)) => t,
            _ => &[],
        }
    }

    /// Whether switch `name` is on (off when not given).
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Flag(true)))
    }

    /// The choice `name`, if given or defaulted.
    pub fn choice(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(Value::Choice(c)) => Some(c),
            _ => None,
        }
    }
}

fn unknown(params: &[Param], name: &str) -> ToolError {
    let names: Vec<&str> = params.iter().map(|p| p.name).collect();
    ToolError::param(name, format!("no such parameter; allowed: {}", names.join(", ")))
}

/// A parameter may not be given with its alternative.
fn check_alternative(params: &[Param], p: &Param, values: &Values) -> Result<(), ToolError> {
    match p.alternative {
        Some(other) if values.get(p.name).is_some() && values.get(other).is_some() => {
            Err(ToolError::param(p.name, format!("not with {other}; give {}, not both", either(params, other))))
        }
        _ => Ok(()),
    }
}

/// A required parameter must be given (unless its alternative is, or none of its fellows that share that
/// alternative is, when the message names both ways), and one that `requires` another only with it.
fn check_present(params: &[Param], p: &Param, values: &Values) -> Result<(), ToolError> {
    let given = |name: &str| values.get(name).is_some();
    if p.required && !given(p.name) {
        let message = match p.alternative {
            Some(other) if given(other) => None,
            Some(other) if !fellows(params, other).any(given) => {
                Some(format!("missing; give {}", either(params, other)))
            }
            _ => Some(format!("missing; {}", allowed(&p.kind))),
        };
        if let Some(message) = message {
            return Err(ToolError::param(p.name, message));
        }
    }
    match p.requires {
        Some(other) if given(p.name) && !given(other) => {
            Err(ToolError::param(p.name, format!("only with {other}; give {other} too, or leave {} out", p.name)))
        }
        _ => Ok(()),
    }
}

/// The parameters that `other` may be given instead of.
fn fellows<'a>(params: &'a [Param], other: &'a str) -> impl Iterator<Item = &'static str> + 'a {
    params.iter().filter(move |q| q.alternative == Some(other)).map(|q| q.name)
}

/// The two ways to ask: "dice and distance, or group".
fn either(params: &[Param], other: &str) -> String {
    format!("{}, or {other}", fellows(params, other).collect::<Vec<_>>().join(" and "))
}

fn parse(p: &Param, text: &str) -> Result<Value, ToolError> {
    let shown = crate::text::clip(text, 40);
    let bad = || ToolError::param(p.name, format!("{shown:?} is not allowed; {}", allowed(&p.kind)));
    match &p.kind {
        ParamKind::Whole { least, most } => match text.trim().parse::<u64>() {
            Ok(n) if (*least..=*most).contains(&n) => Ok(Value::Whole(n)),
            _ => Err(bad()),
        },
        ParamKind::Flag => match text {
            "" | "1" | "true" | "on" | "yes" => Ok(Value::Flag(true)),
            "0" | "false" | "off" | "no" => Ok(Value::Flag(false)),
            _ => Err(bad()),
        },
        ParamKind::Choice { allowed } => {
            allowed.iter().find(|a| **a == text).map(|a| Value::Choice((*a).to_owned())).ok_or_else(bad)
        }
        ParamKind::Text { .. } => Ok(Value::Text(vec![text.to_owned()])),
    }
}

/// What a parameter of this kind allows, as an error message ends.
fn allowed(kind: &ParamKind) -> String {
    match kind {
        ParamKind::Whole { least, most } => format!("allowed: a whole number from {least} to {most}"),
        ParamKind::Flag => "allowed: true or false".to_owned(),
        ParamKind::Choice { allowed } => format!("allowed: {}", allowed.join(", ")),
        ParamKind::Text { value_name, .. } => format!("allowed: {value_name}"),
    }
}

fn default_value(kind: &ParamKind, d: &serde_json::Value) -> Option<Value> {
    match kind {
        ParamKind::Whole { .. } => d.as_u64().map(Value::Whole),
        ParamKind::Flag => d.as_bool().map(Value::Flag),
        ParamKind::Choice { .. } => d.as_str().map(|s| Value::Choice(s.to_owned())),
        ParamKind::Text { .. } => d.as_str().map(|s| Value::Text(vec![s.to_owned()])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Vec<Param> {
        let whole = ParamKind::Whole { least: 0, most: 8 };
        let p = |name, kind, required, requires| Param { required, requires, ..Param::new(name, kind, "") };
        let instead = |p: Param| Param { alternative: Some("group"), ..p };
        let group = ParamKind::Text { value_name: "SPEC", many: true };
        vec![
            instead(p("dice", whole.clone(), true, None)),
            p("wide", ParamKind::Flag, false, Some("dice")),
            instead(p("distance", whole, true, None)),
            p("group", group, false, None),
        ]
    }

    fn read(pairs: &[(&str, &str)]) -> Result<Values, ToolError> {
        let query: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        Values::read(&params(), &query)
    }

    #[test]
    fn values_are_checked_against_the_description() {
        assert_eq!(read(&[("dice", "3"), ("distance", "1"), ("wide", "")]).unwrap().whole("dice"), Some(3));
        let err = |pairs: &[(&str, &str)]| read(pairs).unwrap_err().to_string();
        let distance = ("distance", "1");
        assert_eq!(err(&[("dice", "9"), distance]), "dice: \"9\" is not allowed; allowed: a whole number from 0 to 8");
        assert_eq!(err(&[("dice", "1"), ("dice", "2"), distance]), "dice: given twice; give it once");
        assert_eq!(err(&[("die", "1")]), "die: no such parameter; allowed: dice, wide, distance, group");
        let maybe = [("dice", "1"), distance, ("wide", "maybe")];
        assert_eq!(err(&maybe), "wide: \"maybe\" is not allowed; allowed: true or false");
    }

    /// Parameters given instead of another: either way, not both, and neither is refused naming both ways.
    #[test]
    fn an_alternative_is_either_way_never_both() {
        let groups = read(&[("group", "8"), ("group", "6,slow")]).unwrap();
        assert_eq!(groups.texts("group"), ["8", "6,slow"]);
        assert_eq!(groups.whole("dice"), None);
        let err = |pairs: &[(&str, &str)]| read(pairs).unwrap_err().to_string();
        assert_eq!(err(&[]), "dice: missing; give dice and distance, or group");
        assert_eq!(err(&[("wide", "")]), "dice: missing; give dice and distance, or group");
        assert_eq!(err(&[("dice", "2")]), "distance: missing; allowed: a whole number from 0 to 8");
        let both = "dice: not with group; give dice and distance, or group, not both";
        assert_eq!(err(&[("dice", "2"), ("distance", "7"), ("group", "8")]), both);
        assert_eq!(err(&[("group", "8"), ("dice", "2")]), both);
        assert_eq!(
            err(&[("distance", "7"), ("group", "8")]),
            "distance: not with group; give dice and distance, or group, not both"
        );
    }
}
