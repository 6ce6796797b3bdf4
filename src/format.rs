//! The output format flags, defined once for every command: `--format text|json|csv` and its short forms
//! `--json` and `--csv` ([`Format`]), or `--format text|json` and `--json` for an answer with no table
//! ([`TextOrJson`]). The commands above derive them; a rule set's own commands ([`crate::tools`]) add the same
//! definitions to the commands they build.

use crate::core::view::Format as Shape;
use clap::Args;

/// How a command whose answer is a table prints it: as text, JSON or CSV.
#[derive(Args, Debug)]
pub struct Format {
    /// How to print the answer [default: text].
    #[arg(long, value_name = "FORMAT", value_parser = ["text", "json", "csv"], conflicts_with_all = ["json", "csv"])]
    pub format: Option<String>,
    /// Print JSON on stdout instead of text (--format json).
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the table as CSV on stdout, a header line then one line per row (--format csv).
    #[arg(long)]
    pub csv: bool,
}

/// How a command whose answer has no table form prints it: as text or JSON.
#[derive(Args, Debug)]
pub struct TextOrJson {
    /// How to print the answer [default: text].
    #[arg(long, value_name = "FORMAT", value_parser = ["text", "json"], conflicts_with = "json")]
    pub format: Option<String>,
    /// Print JSON on stdout instead of text (--format json).
    #[arg(long)]
    pub json: bool,
}

impl Format {
    /// The format asked for.
    pub fn asked(&self) -> Shape {
        chosen(self.format.as_deref(), self.json, self.csv)
    }
}

impl TextOrJson {
    /// The format asked for: text or JSON.
    pub fn asked(&self) -> Shape {
        chosen(self.format.as_deref(), self.json, false)
    }
}

/// `--format`'s value, else `--json` or `--csv` (its short forms), else text.
fn chosen(format: Option<&str>, json: bool, csv: bool) -> Shape {
    match (format, json, csv) {
        (Some("json"), ..) | (None, true, _) => Shape::Json,
        (Some("csv"), ..) | (None, _, true) => Shape::Csv,
        _ => Shape::Text,
    }
}
