//! The [`Grid`] picture kind: a map of numbered square cells (column and row from 0, row 0 at the top) with
//! shaded cells ([`Shade`]), outlined rectangles of cells ([`Outline`]), labelled marks standing on cells
//! ([`Mark`]) and routes through points in order ([`Route`]), explained by a legend ([`Key`]). What a rule
//! set draws when its scenario is a place: who stands where, which way something moves, and where things can
//! happen. Colours are the diagram's [`Tone`]s, so the two kinds read alike.

use super::diagram::Tone;

/// A map of `columns` x `rows` cells, numbered from 0 along its edges, row 0 at the top.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Grid {
    pub title: String,
    /// Lines of text under the title: how to read the picture.
    pub notes: Vec<String>,
    pub columns: u32,
    pub rows: u32,
    pub shades: Vec<Shade>,
    pub outlines: Vec<Outline>,
    pub routes: Vec<Route>,
    pub marks: Vec<Mark>,
    /// Under the map: what each colour and shape means, in the order given.
    pub keys: Vec<Key>,
}

/// A cell filled in a tone's pale colour (the fill of a [`Tone::Place`] cell is the warm one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shade {
    pub col: u32,
    pub row: u32,
    pub tone: Tone,
}

/// The cells from `cols.0` to `cols.1` and `rows.0` to `rows.1` (inclusive), outlined in a tone's colour;
/// a faint outline is dashed. `label` is written at its top-left corner, inside.
#[derive(Clone, Debug, PartialEq)]
pub struct Outline {
    pub cols: (u32, u32),
    pub rows: (u32, u32),
    pub tone: Tone,
    pub faint: bool,
    pub label: String,
}

/// A line through `points` in order (column, row; a fractional point lies between cells), with an
/// arrowhead on every leg and each point numbered in a ring from 1; a faint route is dashed.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    pub points: Vec<(f64, f64)>,
    pub tone: Tone,
    pub faint: bool,
}

/// A disc on a cell in a tone's colour, with a short `label` written beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub col: u32,
    pub row: u32,
    pub tone: Tone,
    pub label: String,
}

/// One line of the legend: a swatch of `shape` in `tone`, then `text`.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    pub shape: KeyShape,
    pub tone: Tone,
    pub text: String,
}

/// The swatch of a legend line: what it explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyShape {
    /// A [`Shade`]d cell.
    Cell,
    /// An [`Outline`] (dashed when faint).
    Outline { faint: bool },
    /// A [`Route`]'s numbered point.
    Point,
    /// A [`Mark`].
    Mark,
}
