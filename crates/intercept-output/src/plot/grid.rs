//! The [`Grid`] picture kind, drawn as a self-contained SVG document ([`svg`]) with the diagram's page, type
//! sizes and colours ([`super::diagram`]): 440 units wide with a `viewBox`, smallest text 13 units.
//!
//! The cells fill the width under the title, column numbers above and row numbers on the left; then, in
//! this order so the later stays readable over the earlier, the shaded cells, the grid lines, the outlines,
//! the routes (a line per leg with an arrowhead past its middle), the marks with their labels, and each
//! route's numbered points; the legend ([`Key`]s) goes under the map, one swatch and wrapped text a line.

use std::fmt::Write;

use super::diagram::{LINE, MARGIN, SMALL, WIDTH, colours, document, heading, text, text_width, wrap, xml};
use intercept_core::present::{Grid, Key, KeyShape, Mark, Outline, Route, Tone};

/// Room for the row numbers on the left and the column numbers above.
const AXIS: f64 = 22.0;
/// The largest cell, so a small map does not fill a page.
const MOST: f64 = 40.0;
/// The legend's swatch and the gap after it.
const SWATCH: f64 = 14.0;

/// `grid` as an SVG document.
pub fn svg(grid: &Grid) -> String {
    let (mut body, top) = heading(&grid.title, &grid.notes);
    let map = Map::new(grid, top + LINE);
    body += &map.axes();
    body += &map.cells(grid);
    for (n, o) in grid.outlines.iter().enumerate() {
        body += &map.outline(o, n);
    }
    for r in &grid.routes {
        body += &map.route(r);
    }
    for m in &grid.marks {
        body += &map.mark(m);
    }
    for r in &grid.routes {
        body += &map.points(r);
    }
    let (legend, bottom) = legend(&grid.keys, map.bottom() + 2.0 * LINE);
    body += &legend;
    document(bottom + MARGIN, &body)
}

/// Where the cells are drawn: the top-left corner of cell 0-0 and the side of a cell.
struct Map {
    x: f64,
    y: f64,
    cell: f64,
    columns: u32,
    rows: u32,
}

impl Map {
    /// The map under the heading, whose last line is at `top`, as wide as the page allows.
    fn new(grid: &Grid, top: f64) -> Map {
        let (columns, rows) = (grid.columns.max(1), grid.rows.max(1));
        let cell = ((WIDTH - 2.0 * MARGIN - AXIS) / f64::from(columns)).min(MOST);
        let x = MARGIN + AXIS + (WIDTH - 2.0 * MARGIN - AXIS - cell * f64::from(columns)) / 2.0;
        Map { x, y: top + AXIS, cell, columns, rows }
    }

    fn bottom(&self) -> f64 {
        self.y + self.cell * f64::from(self.rows)
    }

    /// The centre of the point (column, row).
    fn at(&self, (col, row): (f64, f64)) -> (f64, f64) {
        (self.x + (col + 0.5) * self.cell, self.y + (row + 0.5) * self.cell)
    }

    /// Column numbers above the map and row numbers left of it.
    fn axes(&self) -> String {
        let mut out = String::new();
        for c in 0..self.columns {
            let (x, _) = self.at((f64::from(c), 0.0));
            out += &text(x, self.y - 6.0, SMALL, "middle", "normal", "#555", &c.to_string());
        }
        for r in 0..self.rows {
            let (_, y) = self.at((0.0, f64::from(r)));
            out += &text(self.x - 5.0, y + SMALL / 3.0, SMALL, "end", "normal", "#555", &r.to_string());
        }
        out
    }

    /// The shaded cells, then every cell's outline in light grey.
    fn cells(&self, grid: &Grid) -> String {
        let mut out = String::new();
        for s in &grid.shades {
            let _ = writeln!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{c:.1}\" height=\"{c:.1}\" fill=\"{}\"/>",
                self.x + f64::from(s.col) * self.cell,
                self.y + f64::from(s.row) * self.cell,
                shade(s.tone),
                c = self.cell
            );
        }
        let (w, h) = (self.cell * f64::from(self.columns), self.cell * f64::from(self.rows));
        let mut lines = String::new();
        for c in 0..=self.columns {
            let x = self.x + f64::from(c) * self.cell;
            let _ = write!(lines, "M{x:.1} {:.1}V{:.1}", self.y, self.y + h);
        }
        for r in 0..=self.rows {
            let y = self.y + f64::from(r) * self.cell;
            let _ = write!(lines, "M{:.1} {y:.1}H{:.1}", self.x, self.x + w);
        }
        let _ = writeln!(out, "<path d=\"{lines}\" stroke=\"#c8c8c8\" stroke-width=\"1\" fill=\"none\"/>");
        out
    }

    /// An outline, set in by a little more for each earlier one so that equal rectangles stay apart.
    fn outline(&self, o: &Outline, n: usize) -> String {
        let inset = 2.0 + 2.5 * (n % 3) as f64;
        let (x0, y0) = (self.x + f64::from(o.cols.0) * self.cell, self.y + f64::from(o.rows.0) * self.cell);
        let w = f64::from(o.cols.1.saturating_sub(o.cols.0) + 1) * self.cell - 2.0 * inset;
        let h = f64::from(o.rows.1.saturating_sub(o.rows.0) + 1) * self.cell - 2.0 * inset;
        let (_, stroke, ink) = colours(o.tone);
        let dash = if o.faint { " stroke-dasharray=\"7 4\"" } else { "" };
        let mut out = format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"2.5\"{dash}/>\n",
            x0 + inset,
            y0 + inset
        );
        out += &halo(x0 + inset + 3.0, y0 + inset + SMALL, "start", ink, &o.label);
        out
    }

    /// A route's legs, each with an arrowhead past its middle showing the way it goes.
    fn route(&self, r: &Route) -> String {
        let (_, stroke, _) = colours(r.tone);
        let dash = if r.faint { " stroke-dasharray=\"8 5\"" } else { "" };
        let mut out = String::new();
        for leg in r.points.windows(2) {
            let ((x1, y1), (x2, y2)) = (self.at(leg[0]), self.at(leg[1]));
            let _ = writeln!(
                out,
                "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{stroke}\" stroke-width=\"3\"{dash}/>"
            );
            out += &head((x1, y1), (x2, y2), stroke);
        }
        out
    }

    /// Each of a route's points as a ring numbered from 1.
    fn points(&self, r: &Route) -> String {
        let (_, stroke, ink) = colours(r.tone);
        let mut out = String::new();
        for (n, p) in r.points.iter().enumerate() {
            let (x, y) = self.at(*p);
            let _ = writeln!(
                out,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"9.5\" fill=\"#fff\" stroke=\"{stroke}\" stroke-width=\"2.5\"/>"
            );
            out += &text(x, y + SMALL / 3.0 + 0.5, SMALL, "middle", "bold", ink, &(n + 1).to_string());
        }
        out
    }

    /// A disc on its cell and its label above it to the right, or to the left where the page ends.
    fn mark(&self, m: &Mark) -> String {
        let (x, y) = self.at((f64::from(m.col), f64::from(m.row)));
        let (fill, stroke, ink) = colours(m.tone);
        let r = self.cell * 0.36;
        let mut out = format!(
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"{stroke}\" stroke=\"{fill}\" stroke-width=\"1.5\"/>\n"
        );
        let right = x + r + 3.0 + text_width(&m.label, SMALL) <= WIDTH - MARGIN;
        let (lx, anchor) = if right { (x + r + 3.0, "start") } else { (x - r - 3.0, "end") };
        out += &halo(lx, y - r, anchor, ink, &m.label);
        out
    }
}

/// An arrowhead on the leg from `a` to `b`, three fifths of the way along, pointing at `b`.
fn head(a: (f64, f64), b: (f64, f64), colour: &str) -> String {
    head_on(a, b, (0.6, 7.0), (14.0, 7.0), colour)
}

/// An arrowhead on the leg from `a` to `b`, pointing at `b`: its tip at `share` of the way along and `past`
/// further, `length` long and twice `half` wide; nothing on a leg shorter than 1.
pub(super) fn head_on(
    a: (f64, f64),
    b: (f64, f64),
    (share, past): (f64, f64),
    (length, half): (f64, f64),
    colour: &str,
) -> String {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    if len < 1.0 {
        return String::new();
    }
    let (ux, uy) = (dx / len, dy / len);
    arrowhead((a.0 + dx * share + ux * past, a.1 + dy * share + uy * past), (ux, uy), length, half, colour)
}

/// An arrowhead with its tip at `tip`, pointing along the unit vector `u`, `length` long and twice `half`
/// wide.
fn arrowhead(tip: (f64, f64), (ux, uy): (f64, f64), length: f64, half: f64, colour: &str) -> String {
    let (tx, ty) = tip;
    let (bx, by) = (tx - ux * length, ty - uy * length);
    format!(
        "<polygon points=\"{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}\" fill=\"{colour}\"/>\n",
        bx - uy * half,
        by + ux * half,
        bx + uy * half,
        by - ux * half
    )
}

/// Bold text with a white rim, readable over lines and shaded cells (or hexes).
pub(super) fn halo(x: f64, y: f64, anchor: &str, ink: &str, s: &str) -> String {
    format!(
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{SMALL}\" text-anchor=\"{anchor}\" font-weight=\"bold\" fill=\"{ink}\" \
         stroke=\"#fff\" stroke-width=\"3.5\" stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>\n",
        xml(s)
    )
}

/// The legend from `top`: a swatch, then the wrapped text; and where it ends.
fn legend(keys: &[Key], top: f64) -> (String, f64) {
    let mut out = String::new();
    let mut y = top - LINE;
    for key in keys {
        let lines = wrap(&key.text, WIDTH - 2.0 * MARGIN - SWATCH - 8.0, SMALL);
        out += &swatch(key, MARGIN, y + 4.0);
        for line in &lines {
            out += &text(MARGIN + SWATCH + 8.0, y + LINE, SMALL, "start", "normal", "#222", line);
            y += LINE;
        }
        y += 4.0;
    }
    (out, y)
}

/// A key's swatch, its top-left corner at (`x`, `y`).
fn swatch(key: &Key, x: f64, y: f64) -> String {
    let (fill, stroke, _) = colours(key.tone);
    let (cx, cy, s) = (x + SWATCH / 2.0, y + SWATCH / 2.0, SWATCH);
    match key.shape {
        KeyShape::Cell => {
            format!(
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{s}\" height=\"{s}\" fill=\"{}\" stroke=\"#c8c8c8\"/>\n",
                shade(key.tone)
            )
        }
        KeyShape::Outline { faint } => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"2.5\"{}/>\n",
            x + 1.0,
            y + 1.0,
            s - 2.0,
            s - 2.0,
            if faint { " stroke-dasharray=\"4 2\"" } else { "" }
        ),
        KeyShape::Point => {
            format!(
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"6\" fill=\"#fff\" stroke=\"{stroke}\" stroke-width=\"2.5\"/>\n"
            )
        }
        KeyShape::Mark => {
            format!(
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"6\" fill=\"{stroke}\" stroke=\"{fill}\" stroke-width=\"1.5\"/>\n"
            )
        }
    }
}

/// The fill of a shaded cell: deeper than a box's fill, so that shaded cells stand out on the map.
fn shade(tone: Tone) -> &'static str {
    match tone {
        Tone::First => "#b9d3ee",
        Tone::Second => "#f3b6a6",
        Tone::Place => "#f5c451",
        Tone::Idle => "#dddddd",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Grid {
        Grid {
            title: "A map".to_owned(),
            notes: vec!["how to read it".to_owned()],
            columns: 4,
            rows: 3,
            shades: vec![intercept_core::present::Shade { col: 1, row: 1, tone: Tone::Place }],
            outlines: vec![Outline {
                cols: (0, 1),
                rows: (0, 2),
                tone: Tone::Second,
                faint: true,
                label: "area <a>".to_owned(),
            }],
            routes: vec![Route { points: vec![(0.0, 0.0), (3.0, 2.0)], tone: Tone::First, faint: false }],
            marks: vec![Mark { col: 3, row: 0, tone: Tone::Second, label: "a unit & its long name".to_owned() }],
            keys: vec![Key { shape: KeyShape::Mark, tone: Tone::Second, text: "a unit".to_owned() }],
        }
    }

    /// Cells are capped in size, centred, and a mark's label at the right edge goes to its left; text is escaped.
    #[test]
    fn a_small_map_is_centred_with_its_labels_escaped_and_on_the_page() {
        let svg = svg(&sample());
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains(">area &lt;a&gt;</text>") && svg.contains(">a unit &amp; its long name</text>"));
        let map = Map::new(&sample(), 0.0);
        assert_eq!(map.cell, MOST);
        assert!((map.x - MARGIN - AXIS - (WIDTH - 2.0 * MARGIN - AXIS - 4.0 * MOST) / 2.0).abs() < 1e-9);
        assert!(
            svg.contains("text-anchor=\"end\" font-weight=\"bold\" fill=\"#4d120b\" stroke=\"#fff\""),
            "label to the left"
        );
        assert_eq!(svg.matches("<polygon").count(), 1, "one arrowhead for one leg");
        assert_eq!(svg.matches("r=\"9.5\"").count(), 2, "a numbered ring per point");
    }
}
