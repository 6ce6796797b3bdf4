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
    pub help: &'static str,
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
            check_present(p, &values)?;
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

/// A required parameter must be given, and one that `requires` another only with it.
fn check_present(p: &Param, values: &Values) -> Result<(), ToolError> {
    let given = values.get(p.name).is_some();
    if p.required && !given {
        return Err(ToolError::param(p.name, format!("missing; {}", allowed(&p.kind))));
    }
    match p.requires {
        Some(other) if given && values.get(other).is_none() => {
            Err(ToolError::param(p.name, format!("only with {other}; give {other} too, or leave {} out", p.name)))
        }
        _ => Ok(()),
    }
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
        let p = |name, kind, required, requires| Param { name, kind, default: None, required, requires, help: "" };
        vec![p("dice", whole, true, None), p("wide", ParamKind::Flag, false, Some("dice"))]
    }

    fn read(pairs: &[(&str, &str)]) -> Result<Values, ToolError> {
        let query: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        Values::read(&params(), &query)
    }

    #[test]
    fn values_are_checked_against_the_description() {
        assert_eq!(read(&[("dice", "3"), ("wide", "")]).unwrap().whole("dice"), Some(3));
        let err = |pairs| read(pairs).unwrap_err().to_string();
        assert_eq!(err(&[("dice", "9")]), "dice: \"9\" is not allowed; allowed: a whole number from 0 to 8");
        assert_eq!(err(&[]), "dice: missing; allowed: a whole number from 0 to 8");
        assert_eq!(err(&[("dice", "1"), ("dice", "2")]), "dice: given twice; give it once");
        assert_eq!(err(&[("die", "1")]), "die: no such parameter; allowed: dice, wide");
        assert_eq!(err(&[("dice", "1"), ("wide", "maybe")]), "wide: \"maybe\" is not allowed; allowed: true or false");
    }
}
