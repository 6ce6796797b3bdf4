//! What a rule set gives the shared layers to show a run, as data: the shared layers (export, plot, report)
//! render it and name no rule set.
//!
//! A [`Presentation`] is computed once per run by the rule set ([`crate::ruleset::Rules::present`]): the
//! rules' title, the scenario in plain words, the headline metrics (the question a player of that game asks
//! first) and any [`Extra`] outputs. An [`Extra`] is a rule set's own result beyond the metric tables: a
//! [`DataTable`] written as `<name>.parquet`, a [`Picture`] of one of the kinds the plot layer draws
//! ([`Heatmap`], [`StackedBars`], [`Board`], [`Diagram`], [`Grid`], [`HexChart`], [`Reliability`]) written as `<name>.{png,svg}`, and the report's section
//! of them: a paragraph and a [`Table`] of [`Row`]s of [`Cell`]s. A scenario's own picture
//! ([`Presentation::picture`], [`crate::ruleset::RuleSet::scenario_picture`]) opens the report's scenario.

mod diagram;
mod grid;
mod hexes;

pub use self::diagram::{Arrow, Diagram, Node, Spot, Tone};
pub use self::grid::{Grid, Key, KeyShape, Mark, Outline, Route, Shade};
pub use self::hexes::{Ground, Hex, HexBox, HexChart, HexKey, HexKeyShape, HexMark, HexPath, Valued};
use crate::summary::MetricRow;

/// How a run is shown: computed from the resolved rule set and the run's summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Presentation {
    /// What the report's facts line calls the rules ([`crate::ruleset::RuleSet::TITLE`]).
    pub title: String,
    /// The scenario in plain words: a few sentences in the rules' vocabulary.
    pub plain: Vec<String>,
    /// The metrics that answer the question a player of the game asks first, most important first.
    pub headline: Vec<String>,
    /// That answer as a sentence in the rules' words, with its interval ([`crate::ruleset::RuleSet::answer`]):
    /// the first thing every page and the terminal show.
    pub answer: Option<String>,
    /// The readings the answer rests on, each with the key that changes it
    /// ([`crate::ruleset::RuleSet::assumptions`]): shown beside the answer wherever it is shown.
    pub assumptions: Vec<Assumption>,
    /// A picture of the scenario itself, before any trial ([`crate::ruleset::RuleSet::scenario_picture`]).
    pub picture: Option<Picture>,
    /// The rule set's own outputs, in the order they are written and shown.
    pub extras: Vec<Extra>,
}

/// A reading an answer rests on that a player might not guess (a default the text leaves open, a model
/// chosen), in a few words, and the config key that changes it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Assumption {
    /// The dotted config key, as `--set` names it.
    pub key: String,
    /// What it assumes, in the rules' words ("combat: the intercepting side wins 0.5 of the time, ...").
    pub said: String,
}

impl Assumption {
    pub fn new(key: &str, said: impl Into<String>) -> Assumption {
        Assumption { key: key.to_owned(), said: said.into() }
    }
}

/// The assumptions as one line: "Rests on: a, set by key; b, set by key."; empty when there are none.
pub fn rests_on(assumptions: &[Assumption]) -> String {
    if assumptions.is_empty() {
        return String::new();
    }
    let each: Vec<String> = assumptions.iter().map(|a| format!("{}, set by {}", a.said, a.key)).collect();
    format!("Rests on: {}.", each.join("; "))
}

/// Where a report shows an [`Extra`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Inside "The scenario", after the plain words: a picture of the setting.
    Scenario,
    /// In a section of its own, under this heading, after the headline odds: a result.
    Results(String),
}

/// One output of a rule set's own: a table, a picture, or both, and how the report shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct Extra {
    /// The file stem: `<name>.parquet` for the data, `<name>.png` and `<name>.svg` for the picture.
    pub name: String,
    pub placement: Placement,
    /// The report's paragraph before the picture.
    pub text: String,
    /// Written as `<name>.parquet`.
    pub data: Option<DataTable>,
    /// Drawn as `<name>.{png,svg}` and inline in the report, with `caption` under it.
    pub picture: Option<Picture>,
    pub caption: String,
    /// Shown in the report after the picture.
    pub table: Option<Table>,
}

/// A table of typed columns, written as Parquet.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DataTable {
    pub columns: Vec<(String, Values)>,
}

impl DataTable {
    /// Adds a column.
    pub fn column(mut self, name: &str, values: Values) -> DataTable {
        self.columns.push((name.to_owned(), values));
        self
    }
}

/// One column's values.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    Text(Vec<String>),
    U32(Vec<u32>),
    MaybeU32(Vec<Option<u32>>),
    U64(Vec<u64>),
    F64(Vec<f64>),
    MaybeF64(Vec<Option<f64>>),
}

/// The picture kinds the plot layer draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Picture {
    Heatmap(Heatmap),
    StackedBars(StackedBars),
    Board(Board),
    Diagram(Diagram),
    Grid(Grid),
    Hexes(HexChart),
    Reliability(Reliability),
}

/// Stated chances against what came of them (a reliability diagram): one point a bin at its mean stated
/// chance and the share observed, the observed share's interval as a bar through it, and the diagonal on
/// which stated and observed agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Reliability {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    pub bins: Vec<Reliable>,
}

/// One bin of a [`Reliability`] picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reliable {
    pub stated: f64,
    pub observed: f64,
    /// The observed share's interval.
    pub low: f64,
    pub high: f64,
}

impl Reliable {
    /// Whether the stated chance lies inside the observed share's interval.
    pub fn holds(&self) -> bool {
        self.low <= self.stated && self.stated <= self.high
    }
}

/// A grid of squares, each shaded from white (0) to deep red (1) with its value in percent written in it;
/// squares without a value are left blank. Row 0 is drawn at the top.
#[derive(Clone, Debug, PartialEq)]
pub struct Heatmap {
    pub title: String,
    pub columns: u32,
    pub rows: u32,
    pub x_desc: String,
    pub y_desc: String,
    pub cells: Vec<HeatCell>,
}

/// One shaded square of a [`Heatmap`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeatCell {
    pub col: u32,
    pub row: u32,
    /// From 0 to 1.
    pub value: f64,
}

/// One horizontal bar per item, split into segments that are shares of it, with a note at its right. The
/// first segment kind is drawn grey (an outcome off the scale), the second pale blue, and the rest on a scale
/// deepening to red.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedBars {
    pub title: String,
    pub x_desc: String,
    /// The segment kinds, in stacking order.
    pub legend: Vec<String>,
    pub bars: Vec<Bar>,
}

/// One bar of [`StackedBars`]: its label, each segment kind's share, and the note written at its right.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub shares: Vec<f64>,
    pub note: String,
}

/// A square board with lettered columns (`a`, `b`, ... from the left) and numbered rows (`1` at the
/// bottom): shaded squares, discs with a label, and one marked square.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub caption: String,
    pub size: u8,
    /// `size * size` squares, row by row from the bottom.
    pub squares: Vec<Square>,
    /// A square marked with an orange dot.
    pub marked: Option<u32>,
}

/// One square of a [`Board`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Square {
    pub shaded: bool,
    pub disc: Option<Disc>,
}

/// A disc on a [`Board`]: black or white, lettered.
#[derive(Clone, Debug, PartialEq)]
pub struct Disc {
    pub dark: bool,
    pub label: String,
}

/// Decimal places of every probability and mean shown to people: one precision everywhere, so a reader can
/// compare any two numbers on a page.
pub const DECIMALS: usize = 4;

/// A table for people: column headings and rows. A column whose first cell is a number is right-aligned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    pub id: Option<String>,
}

impl Table {
    /// An empty table with these column headings.
    pub fn new(columns: &[&str]) -> Table {
        Table { columns: columns.iter().map(|c| (*c).to_owned()).collect(), rows: Vec::new(), id: None }
    }

    /// Gives the table an element id (lowercase letters, digits and dashes), so it can be found on a page.
    pub fn with_id(mut self, id: &str) -> Table {
        assert!(plain_name(id), "table id {id:?}: use lowercase letters, digits and dashes");
        self.id = Some(id.to_owned());
        self
    }

    /// Appends a row.
    pub fn push(&mut self, row: Row) -> &mut Self {
        self.rows.push(row);
        self
    }
}

/// One table row: its cells, and `data-` attributes that name what it shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    pub cells: Vec<Cell>,
    pub data: Vec<(String, String)>,
}

impl Row {
    /// A row of these cells.
    pub fn new(cells: Vec<Cell>) -> Row {
        Row { cells, data: Vec::new() }
    }

    /// Adds the attribute `data-<name>="<value>"`; `name` is lowercase letters, digits and dashes.
    pub fn data(mut self, name: &str, value: &str) -> Row {
        assert!(plain_name(name), "data attribute {name:?}: use lowercase letters, digits and dashes");
        self.data.push((name.to_owned(), value.to_owned()));
        self
    }
}

/// One table cell: text, and the classes it carries (`num` for right-aligned numbers), and a note shown
/// under the text in smaller type (a metric's description).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cell {
    pub text: String,
    pub classes: Vec<String>,
    pub numeric: bool,
    pub note: Option<String>,
}

impl Cell {
    /// A cell of plain text.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), classes: Vec::new(), numeric: false, note: None }
    }

    /// A cell of text in a monospace font, for names such as metrics and config keys.
    pub fn name(text: impl Into<String>) -> Cell {
        Cell::text(text).class("name")
    }

    /// A right-aligned number, already formatted.
    pub fn number(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), classes: vec!["num".into()], numeric: true, note: None }
    }

    /// A probability or mean at the shown precision ([`DECIMALS`]).
    pub fn value(x: f64) -> Cell {
        Cell::number(fixed(x))
    }

    /// A value that may be unknown (an exact value that was not computed): a dash when `None`.
    pub fn maybe(x: Option<f64>) -> Cell {
        Cell::number(x.map_or_else(|| "\u{2014}".to_owned(), fixed))
    }

    /// Adds a note shown under the text in smaller type; an empty note adds nothing.
    pub fn note(mut self, note: &str) -> Cell {
        self.note = (!note.is_empty()).then(|| note.to_owned());
        self
    }

    /// Adds a class (lowercase letters, digits and dashes), for styling or for finding the cell.
    pub fn class(mut self, class: &str) -> Cell {
        assert!(plain_name(class), "class {class:?}: use lowercase letters, digits and dashes");
        self.classes.push(class.to_owned());
        self
    }
}

/// `x` at the shown precision ([`DECIMALS`]); never "-0.0000".
pub fn fixed(x: f64) -> String {
    let s = format!("{x:.DECIMALS$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') { s[1..].to_owned() } else { s }
}

/// A whole number with thousands separators: 1,000,000.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whether `name` is usable as a class, id or data-attribute name as written: lowercase letters, digits, dashes.
pub fn plain_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// An exact value as a decimal with its whole fraction, unless it is a whole number: "0.972994 (1261/1296)",
/// "0.000000" for exactly 0.
pub fn exact_text(r: &num_rational::BigRational) -> String {
    let x = crate::fraction::to_f64(r);
    if r.is_integer() { format!("{x:.6}") } else { format!("{x:.6} ({})", crate::fraction::text(r)) }
}

/// An exact chance for a sentence: "58.3% of the time (exactly 7/12)"; what a calculator's answer says after
/// its own words for the event.
pub fn how_often_exactly(r: &num_rational::BigRational) -> String {
    format!("{} of the time (exactly {})", percent(r), crate::fraction::text(r))
}

/// Bounds of a chance for a sentence: "between 43.12% and 43.18%", with as many decimals as tell the two
/// apart (two at least, six at most).
pub fn between(low: f64, high: f64) -> String {
    let digits = (2..=6).find(|&d| format!("{:.d$}", 100.0 * low) != format!("{:.d$}", 100.0 * high)).unwrap_or(6);
    format!("between {:.digits$}% and {:.digits$}%", 100.0 * low, 100.0 * high)
}

/// What a bounded answer leaves out: "0.06% of the chance tree left unexplored".
pub fn unexplored(residual: f64) -> String {
    let r = 100.0 * residual;
    let digits = if r >= 0.1 { 1 } else { (2..=8).find(|&d| r >= 10f64.powi(-(d as i32))).unwrap_or(8) };
    format!("{r:.digits$}% of the chance tree left unexplored")
}

/// An exact chance as a percentage with one decimal; one that is not certain never reads 100.0%, nor one
/// that is not impossible 0.0%.
pub fn percent(r: &num_rational::BigRational) -> String {
    let p = crate::fraction::to_f64(r) * 100.0;
    match p {
        p if p > 99.95 && p < 100.0 => ">99.9%".to_owned(),
        p if p > 0.0 && p < 0.05 => "<0.1%".to_owned(),
        p => format!("{p:.1}%"),
    }
}

/// A probability as a share of trials for a sentence, with its interval and exact value: "58.2% of the time
/// (95% interval 57.9% to 58.5%; exact 0.581708)". What a rule set's answer ([`Presentation::answer`]) says
/// after its own words for the event.
pub fn how_often(row: &MetricRow) -> String {
    let percent = |x: f64| format!("{:.1}%", 100.0 * x);
    // A summary of the exact solve alone ([`crate::summary::Summary::exact_only`]) has no estimate to show.
    if let (0, Some(x)) = (row.trials, row.exact) {
        return format!("{} of the time (exactly {})", percent(x), exact_cell(x, row.exact_fraction.as_deref()));
    }
    if let (0, Some(low), Some(high)) = (row.trials, row.exact_low, row.exact_high) {
        return format!(
            "{} of the time for certain ({})",
            between(low, high),
            unexplored(row.unexplored.unwrap_or_default())
        );
    }
    let exact =
        row.exact.map(|x| format!("; exact {}", exact_cell(x, row.exact_fraction.as_deref()))).unwrap_or_default();
    format!(
        "{} of the time (95% interval {} to {}{exact})",
        percent(row.estimate),
        percent(row.ci_low),
        percent(row.ci_high)
    )
}

/// An exact value as a decimal, with its fraction when it is short enough for a narrow table
/// ([`crate::fraction::short_text`]).
pub fn exact_cell(x: f64, fraction: Option<&str>) -> String {
    match fraction.and_then(crate::fraction::short) {
        Some(f) => format!("{x:.6} ({f})"),
        None => format!("{x:.6}"),
    }
}
