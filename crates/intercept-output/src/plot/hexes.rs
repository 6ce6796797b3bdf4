//! The [`HexChart`] picture kind, drawn as a self-contained SVG document ([`svg`]) with the diagram's page,
//! type sizes and colours ([`super::diagram`]): 440 units wide with a `viewBox`, smallest text 13 units.
//!
//! The map fills the width under the title (hexes no larger than [`MOST`]), with room left and right for the
//! off-map boxes; then, in this order so the later stays readable over the earlier: every hex in its ground's
//! colour (a valued hex in its value's, darker where better for the side asking), each box joined by thin
//! lines to its hexes, the paths with an arrowhead at their end, the rings and discs with their labels; the
//! legend goes under the map, the value scale first. Every hex is a polygon carrying `data-hex` (its printed
//! label) and a `<title>` (the label, and a valued hex's words), so a page can find a hex by its label and a
//! pointer shows what it is.

use std::fmt::Write;

use super::diagram::{LINE, MARGIN, SMALL, WIDTH, colours, document_in, heading_in, text, text_width, wrap, xml};
use super::grid::{halo, head_on};
use intercept_core::present::{Ground, HexBox, HexChart, HexKey, HexKeyShape, HexMark, HexPath, Tone};

/// The largest corner radius of a hex, so a small map does not fill a page.
const MOST: f64 = 22.0;
/// The widest page: a map wider than this at [`MOST`] is drawn with smaller hexes. A page narrower than
/// the diagrams' [`WIDTH`] is widened to it.
const WIDEST: f64 = 880.0;
/// Room beside the map for an off-map box.
const BOX_ROOM: f64 = 90.0;
/// The legend's swatch and the gap after it.
const SWATCH: f64 = 14.0;

const SEA: &str = "#d6e8f5";
const LAND: &str = "#ece4cc";
const STRAIT: &str = "#9cc3e4";
const EDGE: &str = "#ffffff";
/// The value scale's ends: the worst for the side asking (pale) and the best (deep green).
const WORST: (u8, u8, u8) = (0xf6, 0xe8, 0xa6);
const BEST: (u8, u8, u8) = (0x1a, 0x6b, 0x3a);

/// `chart` as an SVG document.
pub fn svg(chart: &HexChart) -> String {
    let page = page_width(chart);
    let (mut body, top) = heading_in(page, &chart.title, &chart.notes);
    let map = Map::new(chart, page, top + LINE);
    body += &map.hexes(chart);
    for b in &chart.boxes {
        body += &map.offmap(chart, b);
    }
    let mut placed = Vec::new();
    for p in &chart.paths {
        body += &map.path(chart, p, &mut placed);
    }
    for m in &chart.marks {
        body += &map.mark(chart, m, &mut placed);
    }
    let (legend, bottom) = legend(chart, page, map.bottom + 2.0 * LINE);
    body += &legend;
    document_in(page, bottom + MARGIN, &body)
}

/// The extent of the hexes' centres (left, right, top, bottom) and how far a hex reaches past its centre
/// across and down, in radii.
fn extent(chart: &HexChart) -> ((f64, f64, f64, f64), (f64, f64)) {
    let xs = chart.hexes.iter().map(|h| h.centre.0);
    let ys = chart.hexes.iter().map(|h| h.centre.1);
    let (x0, x1) = (xs.clone().fold(f64::INFINITY, f64::min), xs.fold(f64::NEG_INFINITY, f64::max));
    let (y0, y1) = (ys.clone().fold(f64::INFINITY, f64::min), ys.fold(f64::NEG_INFINITY, f64::max));
    let bounds = if x0.is_finite() { (x0, x1, y0, y1) } else { (0.0, 0.0, 0.0, 0.0) };
    // A hex reaches 1 (flat) or sqrt(3)/2 (pointy) radii across from its centre, and the other way up.
    let half = 3f64.sqrt() / 2.0;
    (bounds, if chart.flat { (1.0, half) } else { (half, 1.0) })
}

fn box_room(chart: &HexChart) -> f64 {
    if chart.boxes.is_empty() { 0.0 } else { BOX_ROOM }
}

/// The page's width: the map at [`MOST`] with its margins and box room, between [`WIDTH`] and [`WIDEST`].
fn page_width(chart: &HexChart) -> f64 {
    let ((x0, x1, _, _), (reach_x, _)) = extent(chart);
    (MOST * (x1 - x0 + 2.0 * reach_x) + 2.0 * MARGIN + 2.0 * box_room(chart)).clamp(WIDTH, WIDEST).ceil()
}

/// Where the hexes are drawn: the corner radius, and the offset added to a centre's scaled coordinates.
struct Map {
    /// The page's width.
    page: f64,
    radius: f64,
    dx: f64,
    dy: f64,
    /// The map's middle across, in page units: boxes left of it go on the left.
    middle: f64,
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    flat: bool,
}

impl Map {
    /// The map under the heading, whose last line is at `top`, as wide as the page allows.
    fn new(chart: &HexChart, page: f64, top: f64) -> Map {
        let ((x0, x1, y0, y1), (reach_x, reach_y)) = extent(chart);
        let room = box_room(chart);
        let width = page - 2.0 * MARGIN - 2.0 * room;
        let radius = (width / (x1 - x0 + 2.0 * reach_x)).min(MOST);
        let drawn = radius * (x1 - x0 + 2.0 * reach_x);
        let left = MARGIN + room + (width - drawn) / 2.0;
        let dx = left + radius * (reach_x - x0);
        let dy = top + radius * (reach_y - y0);
        let bottom = top + radius * (y1 - y0 + 2.0 * reach_y);
        Map {
            page,
            radius,
            dx,
            dy,
            middle: left + drawn / 2.0,
            left,
            right: left + drawn,
            top,
            bottom,
            flat: chart.flat,
        }
    }

    fn at(&self, chart: &HexChart, hex: usize) -> (f64, f64) {
        let (x, y) = chart.hexes.get(hex).map_or((0.0, 0.0), |h| h.centre);
        (self.dx + x * self.radius, self.dy + y * self.radius)
    }

    /// The corners of the hex centred at (`x`, `y`).
    fn corners(&self, (x, y): (f64, f64)) -> String {
        let start = if self.flat { 0.0 } else { 30.0 };
        let mut out = String::new();
        for k in 0..6 {
            let a = (start + 60.0 * f64::from(k)).to_radians();
            let _ = write!(
                out,
                "{}{:.1},{:.1}",
                if k > 0 { " " } else { "" },
                x + self.radius * a.cos(),
                y + self.radius * a.sin()
            );
        }
        out
    }

    /// Every hex in its ground's colour, or its value's.
    fn hexes(&self, chart: &HexChart) -> String {
        let mut fill: Vec<String> = chart.hexes.iter().map(|h| ground(h.ground).to_owned()).collect();
        let mut said: Vec<String> =
            chart.hexes.iter().map(|h| if h.said.is_empty() { h.label.clone() } else { h.said.clone() }).collect();
        for v in &chart.valued {
            if let Some(f) = fill.get_mut(v.hex) {
                *f = scale(v.goodness);
                said[v.hex] = v.said.clone();
            }
        }
        let mut out = String::new();
        for (i, h) in chart.hexes.iter().enumerate() {
            let _ = writeln!(
                out,
                "<polygon data-hex=\"{}\" points=\"{}\" fill=\"{}\" stroke=\"{EDGE}\" stroke-width=\"1\"><title>{}</title></polygon>",
                xml(&h.label),
                self.corners(self.at(chart, i)),
                fill[i],
                xml(&said[i])
            );
        }
        out
    }

    /// A box beside the map edge nearer its hexes, a thin dashed line to each, its name inside.
    fn offmap(&self, chart: &HexChart, b: &HexBox) -> String {
        let joined: Vec<(f64, f64)> = b.joins.iter().map(|&h| self.at(chart, h)).collect();
        let Some(&(_, y)) = joined.first() else { return String::new() };
        let x_mean = joined.iter().map(|p| p.0).sum::<f64>() / joined.len() as f64;
        let (w, h) = (BOX_ROOM - 12.0, 2.0 * LINE + 6.0);
        let x = if x_mean < self.middle { self.left - BOX_ROOM + 2.0 } else { self.right + 10.0 };
        let top = (y - h / 2.0).max(self.top);
        let (_, stroke, ink) = colours(Tone::Idle);
        let mut out = String::new();
        let edge = if x_mean < self.middle { x + w } else { x };
        for (jx, jy) in &joined {
            let _ = writeln!(
                out,
                "<line x1=\"{edge:.1}\" y1=\"{:.1}\" x2=\"{jx:.1}\" y2=\"{jy:.1}\" stroke=\"{stroke}\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>",
                top + h / 2.0
            );
        }
        let _ = writeln!(
            out,
            "<rect x=\"{x:.1}\" y=\"{top:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"4\" fill=\"#f4f4f4\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>"
        );
        for (n, line) in [&b.label, &b.note].into_iter().enumerate() {
            out += &text(x + w / 2.0, top + LINE * (n as f64 + 1.0), SMALL, "middle", "normal", ink, line);
        }
        out
    }

    /// A path's legs through its hexes' centres, an arrowhead into the last, its label at its start.
    fn path(&self, chart: &HexChart, p: &HexPath, placed: &mut Vec<Rect>) -> String {
        let points: Vec<(f64, f64)> = p.hexes.iter().map(|&h| self.at(chart, h)).collect();
        let (_, stroke, ink) = colours(p.tone);
        let dash = if p.faint { " stroke-dasharray=\"6 4\"" } else { "" };
        let mut out = String::new();
        let mut d = String::new();
        for (n, (x, y)) in points.iter().enumerate() {
            let _ = write!(d, "{}{x:.1} {y:.1}", if n == 0 { "M" } else { " L" });
        }
        if points.len() >= 2 {
            let _ = writeln!(
                out,
                "<path d=\"{d}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"2.5\" stroke-linejoin=\"round\"{dash}/>"
            );
            out += &head(points[points.len() - 2], points[points.len() - 1], stroke);
        }
        if let Some(&(x, y)) = points.first()
            && !p.label.is_empty()
        {
            out += &self.label_beside(x, y, self.radius * 0.5, ink, &p.label, placed);
        }
        out
    }

    /// A disc on its hex, or a ring round it, with its label beside it.
    fn mark(&self, chart: &HexChart, m: &HexMark, placed: &mut Vec<Rect>) -> String {
        let (x, y) = self.at(chart, m.hex);
        let (fill, stroke, ink) = colours(m.tone);
        let mut out = String::new();
        let r = if m.ring { self.radius * 1.05 } else { self.radius * 0.45 };
        if m.ring {
            let _ = writeln!(
                out,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"3\"/>"
            );
        } else {
            let _ = writeln!(
                out,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"{stroke}\" stroke=\"{fill}\" stroke-width=\"1.5\"/>"
            );
        }
        if !m.label.is_empty() {
            out += &self.label_beside(x, y, r, ink, &m.label, placed);
        }
        out
    }

    /// `label` beside a point (`r` from it): above and right, else above and left, below and right, below and
    /// left, the first place on the page clear of the labels already `placed`, else the first on the page.
    fn label_beside(&self, x: f64, y: f64, r: f64, ink: &str, label: &str, placed: &mut Vec<Rect>) -> String {
        let w = text_width(label, SMALL);
        let spots = [(1.0, -1.0), (-1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(side, up): (f64, f64)| {
            let lx = x + side * (r + 2.0);
            let baseline = if up < 0.0 { y - r * 0.6 } else { y + r * 0.6 + SMALL };
            let left = if side > 0.0 { lx } else { lx - w };
            (lx, baseline, side, Rect { x0: left, y0: baseline - SMALL, x1: left + w, y1: baseline + 3.0 })
        });
        let on_page = |b: &Rect| b.x0 >= MARGIN && b.x1 <= self.page - MARGIN;
        let clear = |b: &Rect| !placed.iter().any(|p| p.overlaps(b));
        let pick = spots
            .iter()
            .find(|s| on_page(&s.3) && clear(&s.3))
            .or_else(|| spots.iter().find(|s| on_page(&s.3)))
            .unwrap_or(&spots[0]);
        placed.push(pick.3);
        halo(pick.0, pick.1, if pick.2 > 0.0 { "start" } else { "end" }, ink, label)
    }
}

/// A label's box on the page.
#[derive(Clone, Copy, Debug)]
struct Rect {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Rect {
    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// An arrowhead pointing into `b`, its tip a little short of `b`'s centre, along the leg from `a`.
fn head(a: (f64, f64), b: (f64, f64), colour: &str) -> String {
    head_on(a, b, (1.0, -2.0), (11.0, 5.5), colour)
}

fn ground(g: Ground) -> &'static str {
    match g {
        Ground::Sea => SEA,
        Ground::Land => LAND,
        Ground::Strait => STRAIT,
    }
}

/// The colour of `goodness` (0 worst to 1 best) on the value scale.
fn scale(goodness: f64) -> String {
    let t = if goodness.is_finite() { goodness.clamp(0.0, 1.0) } else { 0.0 };
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(WORST.0, BEST.0), mix(WORST.1, BEST.1), mix(WORST.2, BEST.2))
}

/// The legend from `top`: the value scale, if any, then a swatch and wrapped text a key; and where it ends.
fn legend(chart: &HexChart, page: f64, top: f64) -> (String, f64) {
    let mut out = String::new();
    let mut y = top - LINE;
    let width = page - 2.0 * MARGIN - SWATCH - 8.0;
    if !chart.valued.is_empty() {
        let stops: String = (0..=4)
            .map(|k| {
                let t = f64::from(k) / 4.0;
                format!(
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"3.5\" height=\"{SWATCH}\" fill=\"{}\"/>",
                    MARGIN + 3.5 * f64::from(k),
                    y + 4.0,
                    scale(t)
                )
            })
            .collect();
        let _ = writeln!(out, "{stops}");
        for line in wrap(&chart.scale, width, SMALL) {
            out += &text(MARGIN + SWATCH + 8.0, y + LINE, SMALL, "start", "normal", "#222", &line);
            y += LINE;
        }
        y += 4.0;
    }
    for key in &chart.keys {
        out += &swatch(key, MARGIN, y + 4.0);
        for line in wrap(&key.text, width, SMALL) {
            out += &text(MARGIN + SWATCH + 8.0, y + LINE, SMALL, "start", "normal", "#222", &line);
            y += LINE;
        }
        y += 4.0;
    }
    (out, y)
}

/// A key's swatch, its top-left corner at (`x`, `y`).
fn swatch(key: &HexKey, x: f64, y: f64) -> String {
    let (fill, stroke, _) = colours(key.tone);
    let (cx, cy) = (x + SWATCH / 2.0, y + SWATCH / 2.0);
    match key.shape {
        HexKeyShape::Path { faint } => format!(
            "<line x1=\"{x:.1}\" y1=\"{cy:.1}\" x2=\"{:.1}\" y2=\"{cy:.1}\" stroke=\"{stroke}\" stroke-width=\"2.5\"{}/>\n",
            x + SWATCH,
            if faint { " stroke-dasharray=\"4 2\"" } else { "" }
        ),
        HexKeyShape::Disc => {
            format!(
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"5\" fill=\"{stroke}\" stroke=\"{fill}\" stroke-width=\"1.5\"/>\n"
            )
        }
        HexKeyShape::Ring => {
            format!(
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"6\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"2.5\"/>\n"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use intercept_core::present::{Hex, Valued};

    /// Three flat-topped hexes in a row of columns, the middle one land, one box: a small map.
    fn sample() -> HexChart {
        let hex = |label: &str, x: f64, y: f64, ground| Hex {
            label: label.to_owned(),
            centre: (x, y),
            ground,
            said: String::new(),
        };
        HexChart {
            title: "A strait".to_owned(),
            flat: true,
            hexes: vec![
                hex("0101", 0.0, 0.0, Ground::Sea),
                hex("0201", 1.5, 0.87, Ground::Land),
                hex("0301", 3.0, 0.0, Ground::Strait),
            ],
            valued: vec![Valued { hex: 0, value: 0.25, goodness: 1.0, said: "0101: <best>".into() }],
            scale: "the chance".to_owned(),
            boxes: vec![HexBox { label: "ocean".to_owned(), note: "2 spaces".to_owned(), joins: vec![2] }],
            paths: vec![HexPath { hexes: vec![0, 2], tone: Tone::First, faint: false, label: "convoy".to_owned() }],
            marks: vec![HexMark { hex: 1, tone: Tone::Place, ring: true, label: "here & there".to_owned() }],
            keys: vec![HexKey { shape: HexKeyShape::Ring, tone: Tone::Place, text: "a ring".to_owned() }],
            ..HexChart::default()
        }
    }

    /// Every hex is a polygon named by its label, a valued hex in the scale's best colour with its words as its
    /// title (escaped), the page never narrower than a diagram's and the hexes capped in size.
    #[test]
    fn a_small_map_names_every_hex_and_colours_the_valued_one() {
        let svg = svg(&sample());
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polygon data-hex=").count(), 3);
        assert!(svg.contains("data-hex=\"0101\" points=") && svg.contains(&format!("fill=\"{}\"", scale(1.0))));
        assert!(svg.contains("<title>0101: &lt;best&gt;</title>") && svg.contains("<title>0201</title>"));
        assert!(
            svg.contains(">here &amp; there</text>")
                && svg.contains(">ocean</text>")
                && svg.contains(">2 spaces</text>")
        );
        assert_eq!(page_width(&sample()), WIDTH, "a small map keeps a diagram's page");
        assert_eq!(Map::new(&sample(), WIDTH, 0.0).radius, MOST);
        assert_eq!(scale(0.0), "#f6e8a6");
    }

    /// A label goes where it clears the labels placed before it.
    #[test]
    fn a_second_label_at_the_same_hex_moves_aside() {
        let map = Map::new(&sample(), WIDTH, 0.0);
        let mut placed = Vec::new();
        let first = map.label_beside(300.0, 100.0, 10.0, "#000", "first label", &mut placed);
        let second = map.label_beside(300.0, 100.0, 10.0, "#000", "second label", &mut placed);
        assert!(first.contains("text-anchor=\"start\"") && second.contains("text-anchor=\"end\""));
        assert!(!placed[0].overlaps(&placed[1]));
    }
}
