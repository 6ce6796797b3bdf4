//! The values a sweep of a key takes when none are given: its current value and up to [`REACH`] steps each
//! way ([`around`]), what the workbench offers for a key and sweeps, sampled or [`super::exact`], by default.

use crate::config::Scenario;
use crate::config::set::{self, BadSetting, Setting};
use crate::sensitivity::DEFAULT_FLOAT_STEP;

/// How many steps each way a default sweep goes from the current value.
pub const REACH: i64 = 2;

/// A key and the values a sweep of it takes when none are given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Around {
    /// The key as sweeps print it ([`set::canonical`]): `group.0` reads `group.<its name>`.
    pub key: String,
    /// The current value first (the base point every other is paired with), then the others ascending.
    pub values: Vec<String>,
}

impl Around {
    /// The key's value in the scenario, as a setting writes it.
    pub fn current(&self) -> &str {
        &self.values[0]
    }
}

/// Why a key has no values around it, in the command line's words (the file, `--set KEY:`, what is wrong).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoValues {
    /// The key names nothing in the config: the setting's refusal, with a near name if there is one.
    Unknown(BadSetting),
    /// The key names no number of the config (a name, a flag, a choice): a sweep of it must be given its
    /// values.
    NotANumber(BadSetting),
}

impl std::fmt::Display for NoValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoValues::Unknown(e) | NoValues::NotANumber(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NoValues {}

/// `key` as sweeps print it, and the values a sweep of it takes when none are given: its current value
/// first, then up to [`REACH`] steps down and up (one for a whole number, [`DEFAULT_FLOAT_STEP`] for a
/// decimal), ascending, leaving out any value the rules refuse.
pub fn around(base: &Scenario, key: &str) -> Result<Around, NoValues> {
    let file = base.file.display();
    let printed =
        set::canonical(base, key).map_err(|e| NoValues::Unknown(format!("{file}: --set {key}: {e}").into()))?;
    let knob = set::numeric_keys(base)
        .into_iter()
        .find(|k| k.key == printed)
        .ok_or_else(|| NoValues::NotANumber(format!("{file}: --set {key}: not a number of the config").into()))?;
    let value = |by: i64| knob.value.stepped(by, DEFAULT_FLOAT_STEP);
    let allowed = |v: &String| set::apply(base, &[Setting { key: printed.clone(), value: v.clone() }]).is_ok();
    let current = value(0);
    let others = (-REACH..=REACH).filter(|&by| by != 0).map(value).filter(allowed);
    let values = std::iter::once(current).chain(others).collect();
    Ok(Around { key: printed, values })
}
