//! [`View`]: one answer of the command line or the workbench (a run's summary, an exact solve, a sweep, a
//! tool's answer) as one document that renders itself in each [`Format`] it offers, as hyperfine's exports
//! do: text for people, JSON as a value (printed by the command line, served by the workbench, never parsed
//! back), and CSV where the answer is a table. A command prints whichever format it was asked for
//! ([`print`]), so the formats of one answer cannot drift apart.

/// The formats an answer can be printed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Csv,
}

impl Format {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Csv => "csv",
        }
    }
}

/// One answer, in every format it offers: what a command prints and the workbench serves.
pub trait View {
    /// For people: what the command prints by default.
    fn text(&self) -> String;
    /// As a JSON value: `--json`, and what the workbench serves.
    fn json(&self) -> serde_json::Value;
    /// As CSV (a header line, then one line per row), for an answer that is a table.
    fn csv(&self) -> Option<String> {
        None
    }
}

/// `view` in `format`: the text to print, or `None` when the view has no such form.
pub fn print(view: &dyn View, format: Format) -> Option<String> {
    match format {
        Format::Text => Some(view.text()),
        Format::Json => Some(serde_json::to_string_pretty(&view.json()).expect("a JSON value prints")),
        Format::Csv => view.csv(),
    }
}
