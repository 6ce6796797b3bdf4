//! The [`HexChart`] picture kind: a hex map (sea, land and strait hexes at their drawn centres), hexes
//! coloured by a value (a chance, darker where it is better for the side asking, [`Valued`]), paths of hexes
//! with an arrowhead at their end ([`HexPath`]), labelled marks on hexes ([`HexMark`]), and off-map boxes
//! beside the hexes they join ([`HexBox`]). What a rule set draws when its scenario is a hex map: where the
//! forces sail from, which way, where they can meet, and what each choice of hex is worth. Every hex carries
//! its printed label, so a page can make the hexes it names clickable. Colours are the diagram's [`Tone`]s.

use super::diagram::Tone;

/// What a hex is, as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    Sea,
    Land,
    /// A sea hex in a strait: sea, drawn with a strait's band.
    Strait,
}

/// One hex: its printed label, its centre (in units of the corner radius), its ground, and what a pointer
/// over it shows (its label when empty).
#[derive(Clone, Debug, PartialEq)]
pub struct Hex {
    pub label: String,
    pub centre: (f64, f64),
    pub ground: Ground,
    pub said: String,
}

/// A hex map, drawn hex by hex in the order given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HexChart {
    pub title: String,
    /// Lines under the title: how to read the picture.
    pub notes: Vec<String>,
    /// Flat-topped hexes (in columns), else pointy-topped (in rows).
    pub flat: bool,
    pub hexes: Vec<Hex>,
    /// Hexes coloured by a value, each with its words; the best for the side asking is drawn darkest.
    pub valued: Vec<Valued>,
    /// What the colours of [`HexChart::valued`] measure, shown under the map with the range.
    pub scale: String,
    pub boxes: Vec<HexBox>,
    pub paths: Vec<HexPath>,
    pub marks: Vec<HexMark>,
    /// Under the map: what each colour and shape means.
    pub keys: Vec<HexKey>,
}

/// A hex coloured by `value` (a chance), with `said` as its whole description (`1511: mission.completed
/// 55.9%`). `goodness` orders the colours: 1 is the best for the side asking, 0 the worst.
#[derive(Clone, Debug, PartialEq)]
pub struct Valued {
    pub hex: usize,
    pub value: f64,
    pub goodness: f64,
    pub said: String,
}

/// An off-map box: drawn beside the map edge nearer its joined hexes, its label over a note (`2 spaces`).
#[derive(Clone, Debug, PartialEq)]
pub struct HexBox {
    pub label: String,
    pub note: String,
    pub joins: Vec<usize>,
}

/// A line through the centres of `hexes` in order, an arrowhead at the last; a faint path is dashed.
/// `label` is written at its start.
#[derive(Clone, Debug, PartialEq)]
pub struct HexPath {
    pub hexes: Vec<usize>,
    pub tone: Tone,
    pub faint: bool,
    pub label: String,
}

/// A mark on a hex: a disc (a port, a base) or a ring round the hex (a chosen hex), with a label beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct HexMark {
    pub hex: usize,
    pub tone: Tone,
    pub ring: bool,
    pub label: String,
}

/// One line of the legend: a swatch in `tone` of `shape`, then `text`.
#[derive(Clone, Debug, PartialEq)]
pub struct HexKey {
    pub shape: HexKeyShape,
    pub tone: Tone,
    pub text: String,
}

/// The swatch of a legend line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexKeyShape {
    /// A [`HexPath`] (dashed when faint).
    Path { faint: bool },
    /// A disc [`HexMark`].
    Disc,
    /// A ring [`HexMark`].
    Ring,
}
