//! How a command ends: a [`Failure`] (its exit code and one-line message), and the printing of what it
//! answers ([`emit`], [`show_view`]), which every command and every rule set's tool goes through.

use std::io::Write;

use crate::core::config::ConfigError;
use crate::core::view::{Format, View, print};
use crate::progress;

/// Why the command failed, and with which exit code.
pub(crate) struct Failure {
    pub(crate) code: u8,
    pub(crate) message: String,
}

impl From<ConfigError> for Failure {
    fn from(e: ConfigError) -> Self {
        bad_input(e.to_string())
    }
}

/// Prints to stdout; a reader that stops early (`| head`) is not an error.
pub(crate) fn emit(text: String) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{}", text.trim_end()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(failed(e)),
        _ => Ok(()),
    }
}

/// Prints `view` in `format`: its table for people unless `--quiet` asked for silence, its JSON or CSV
/// always.
pub(crate) fn show_view(view: &dyn View, format: Format) -> Result<(), Failure> {
    match (format, print(view, format)) {
        (Format::Text, Some(text)) => emit_table(text),
        (_, Some(text)) => emit(text),
        (_, None) => Err(failed(format!("this answer has no {} form", format.name()))),
    }
}

/// Prints a table for people, unless `--quiet` asked for silence.
fn emit_table(text: String) -> Result<(), Failure> {
    if progress::quiet() { Ok(()) } else { emit(text) }
}

/// Bad input: a config, an argument or a folder that cannot be used (exit 2).
pub(crate) fn bad_input(message: String) -> Failure {
    Failure { code: 2, message }
}

/// A run that failed: exit 1.
pub(crate) fn failed(e: impl std::fmt::Display) -> Failure {
    Failure { code: 1, message: e.to_string() }
}
