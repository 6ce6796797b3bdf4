//! The [`Diagram`] picture kind, drawn as a self-contained SVG document ([`svg`]): no script, no font file,
//! no link, so a page can inline it and a server can send it as it is.
//!
//! The drawing is 440 units wide with a `viewBox`, so it scales to any width; its smallest text is 13 units,
//! which stays above 9.5 px on a phone's 390 px screen. A [`Layout`] places every box first: level by level
//! from the top ([`Spot::Level`]), or around a centre ([`Spot::Centre`], [`Spot::Around`]: the nodes above,
//! below, right and left of it by bearing). Arrows run from box edge to box edge, spread where several meet
//! one box; each label sits in the gap next to the arrow's source (or, for an arrow going down, its target),
//! pushed sideways where labels would overlap.

use std::collections::BTreeMap;
use std::fmt::Write;

use intercept_core::present::{Arrow, Diagram, Node, Spot, Tone};

/// The drawing's width in its own units.
pub(super) const WIDTH: f64 = 440.0;
pub(super) const MARGIN: f64 = 8.0;
const GAP: f64 = 10.0;
/// The smallest text (notes and arrow labels), the box labels and the title.
pub(super) const SMALL: f64 = 13.0;
pub(super) const LABEL: f64 = 14.0;
pub(super) const TITLE: f64 = 16.0;
pub(super) const LINE: f64 = 16.0;
const PAD: f64 = 6.0;
/// The widest an arrow's label is drawn: half the drawing, less a little.
const LABEL_WIDTH: f64 = 200.0;

/// `diagram` as an SVG document.
pub fn svg(diagram: &Diagram) -> String {
    let layout = Layout::new(diagram);
    let (mut body, _) = heading(&diagram.title, &diagram.notes);
    for (i, arrow) in diagram.arrows.iter().enumerate() {
        body += &layout.arrow_line(diagram, i, arrow);
    }
    for node in &diagram.nodes {
        body += &layout.node_box(node);
    }
    body += &layout.labels(diagram);
    document(layout.height, &body)
}

/// The title and the notes under it, centred, and the height they take.
pub(super) fn heading(title: &str, notes: &[String]) -> (String, f64) {
    heading_in(WIDTH, title, notes)
}

/// [`heading`] on a page `width` units wide.
pub(super) fn heading_in(width: f64, title: &str, notes: &[String]) -> (String, f64) {
    let mut y = MARGIN + TITLE;
    let mut body = text(width / 2.0, y, TITLE, "middle", "bold", "#222", title);
    for line in notes.iter().flat_map(|n| wrap(n, width - 2.0 * MARGIN, SMALL)) {
        y += LINE;
        body += &text(width / 2.0, y, SMALL, "middle", "normal", "#555", &line);
    }
    (body, y)
}

/// `body` as a whole SVG document [`WIDTH`] wide and `height` tall, on white.
pub(super) fn document(height: f64, body: &str) -> String {
    document_in(WIDTH, height, body)
}

/// [`document`] `width` units wide.
pub(super) fn document_in(width: f64, height: f64, body: &str) -> String {
    let (width, height) = (width.ceil(), height.ceil());
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n{body}</svg>\n"
    )
}

/// A placed box: its corner, size and text lines.
#[derive(Clone, Debug)]
struct Placed {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    label: Vec<String>,
    note: Vec<String>,
}

impl Placed {
    fn centre(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// A point of the drawing.
type Point = (f64, f64);
/// An arrow's start, end, and its label's centre.
type Route = (Point, Point, Point);

/// Where every box stands, and how tall the drawing is.
struct Layout {
    boxes: BTreeMap<String, Placed>,
    /// For each arrow: where it starts and ends, and where its label is centred.
    ends: Vec<Route>,
    /// Each arrow's label, wrapped to at most [`LABEL_WIDTH`].
    labels: Vec<Vec<String>>,
    height: f64,
}

impl Layout {
    fn new(d: &Diagram) -> Layout {
        let notes: usize = d.notes.iter().map(|n| wrap(n, WIDTH - 2.0 * MARGIN, SMALL).len()).sum();
        let top = MARGIN + TITLE + LINE * notes as f64 + 2.0 * GAP;
        let labels: Vec<Vec<String>> =
            d.arrows.iter().map(|a| a.label.iter().flat_map(|l| wrap(l, LABEL_WIDTH, SMALL)).collect()).collect();
        let most_lines = labels.iter().map(Vec::len).max().unwrap_or(0) as f64;
        let gap = most_lines * LINE + 3.0 * GAP;
        let around = d.nodes.iter().any(|n| !matches!(n.spot, Spot::Level { .. }));
        let (boxes, height) = if around { compass(d, top, gap, most_lines) } else { levels(d, top, gap) };
        let mut layout = Layout { boxes, ends: Vec::new(), labels, height: height + MARGIN };
        let places = layout.places(d);
        layout.ends = (0..d.arrows.len()).map(|i| layout.route(d, i, places[i], gap)).collect();
        layout.spread_labels();
        layout
    }

    /// For each arrow, its place among the arrows meeting the same box, from left to right by where they
    /// start, and how many meet it: worked out once for all arrows, since per arrow it made a diagram of
    /// thousands of units take minutes.
    fn places(&self, d: &Diagram) -> Vec<(usize, usize)> {
        let mut meeting: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, a) in d.arrows.iter().enumerate() {
            meeting.entry(a.to.as_str()).or_default().push(i);
        }
        let x = |i: usize| self.boxes.get(&d.arrows[i].from).map_or(0.0, |b| b.centre().0);
        let mut places = vec![(0, 1); d.arrows.len()];
        for group in meeting.values_mut() {
            // A stable sort, as before: arrows starting level keep their order.
            group.sort_by(|&p, &q| x(p).total_cmp(&x(q)));
            for (rank, &i) in group.iter().enumerate() {
                places[i] = (rank, group.len());
            }
        }
        places
    }

    /// An arrow's two ends, on the facing edges of its boxes (spread among the arrows meeting the target
    /// box), and its label's centre: in the gap beside its source, on the arrow's side (under the box when the
    /// arrow runs sideways).
    fn route(&self, d: &Diagram, i: usize, (rank, meeting): (usize, usize), gap: f64) -> Route {
        let a = &d.arrows[i];
        let (Some(from), Some(to)) = (self.boxes.get(&a.from), self.boxes.get(&a.to)) else {
            return ((0.0, 0.0), (0.0, 0.0), (0.0, 0.0));
        };
        let (rank, meeting) = (rank as f64, meeting as f64);
        let spread = (to.w / (meeting + 1.0)).min(24.0);
        let offset = (rank - (meeting - 1.0) / 2.0) * spread;
        let (fc, tc) = (from.centre(), to.centre());
        let level_gap = (fc.1 - tc.1).abs() > (from.h + to.h) / 2.0;
        let (start, end) = match level_gap {
            true if fc.1 > tc.1 => ((fc.0, from.y), (tc.0 + offset, to.y + to.h)),
            true => ((fc.0, from.y + from.h), (tc.0 + offset, to.y)),
            false if fc.0 < tc.0 => ((from.x + from.w, fc.1), (to.x, tc.1 + offset)),
            false => ((from.x, fc.1), (to.x + to.w, tc.1 + offset)),
        };
        let label = match level_gap {
            true if fc.1 > tc.1 => along(start, end, from.y - gap / 2.0),
            true => along(start, end, from.y + from.h + gap / 2.0),
            false => (from.centre().0, from.y + from.h + LINE * self.labels[i].len() as f64 / 2.0 + 4.0),
        };
        (start, end, label)
    }

    /// Pushes labels that share a band sideways until none overlap, keeping them on the drawing; a label
    /// that no longer fits beside the others goes under them.
    fn spread_labels(&mut self) {
        let mut order: Vec<usize> = (0..self.ends.len()).collect();
        order.sort_by(|&a, &b| self.ends[a].2.0.total_cmp(&self.ends[b].2.0));
        for (k, &i) in order.iter().enumerate() {
            let w = label_width(&self.labels[i]);
            let (wanted, mut y) = self.ends[i].2;
            let mut x = wanted;
            for &j in &order[..k] {
                let (xj, yj) = self.ends[j].2;
                let tall = LINE * (self.labels[i].len() + self.labels[j].len()) as f64 / 2.0 + 2.0;
                let wide = (w + label_width(&self.labels[j])) / 2.0 + 4.0;
                if (y - yj).abs() < tall && (x - xj).abs() < wide {
                    x = (xj + wide).min(WIDTH - MARGIN - w / 2.0);
                    // Short of room on the right: the other label steps left as far as it can, else this one goes under.
                    let short = wide - (x - xj);
                    let room = xj - label_width(&self.labels[j]) / 2.0 - MARGIN;
                    if short > 0.0 && room >= short {
                        self.ends[j].2.0 -= short;
                    } else if short > 0.0 {
                        (x, y) = (wanted, yj + tall);
                    }
                }
            }
            self.ends[i].2 = (x.min(WIDTH - MARGIN - w / 2.0).max(MARGIN + w / 2.0), y);
        }
    }

    fn node_box(&self, node: &Node) -> String {
        let Some(b) = self.boxes.get(&node.id) else { return String::new() };
        let (fill, stroke, ink) = colours(node.tone);
        let dash = if node.tone == Tone::Place { " stroke-dasharray=\"5 3\"" } else { "" };
        let mut out = format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"6\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"{dash}/>\n",
            b.x, b.y, b.w, b.h
        );
        let mut y = b.y + PAD + LABEL;
        for line in &b.label {
            out += &text(b.x + b.w / 2.0, y, LABEL, "middle", "bold", ink, line);
            y += LINE;
        }
        for line in &b.note {
            out += &text(b.x + b.w / 2.0, y, SMALL, "middle", "normal", ink, line);
            y += LINE;
        }
        out
    }

    fn arrow_line(&self, d: &Diagram, i: usize, arrow: &Arrow) -> String {
        let ((x1, y1), (x2, y2), _) = self.ends[i];
        if !self.boxes.contains_key(&arrow.from) || !self.boxes.contains_key(&d.arrows[i].to) {
            return String::new();
        }
        let colour = if arrow.faint { "#999" } else { "#333" };
        let dash = if arrow.faint { " stroke-dasharray=\"6 4\"" } else { "" };
        let (len, (ux, uy)) = direction((x1, y1), (x2, y2));
        let (bx, by) = (x2 - ux * 10.0, y2 - uy * 10.0);
        let head = format!(
            "{x2:.1},{y2:.1} {:.1},{:.1} {:.1},{:.1}",
            bx - uy * 5.0,
            by + ux * 5.0,
            bx + uy * 5.0,
            by - ux * 5.0
        );
        if len < 1.0 {
            return String::new();
        }
        format!(
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"{colour}\" stroke-width=\"1.6\"{dash}/>\n\
             <polygon points=\"{head}\" fill=\"{colour}\"/>\n"
        )
    }

    /// Every arrow's label on a white ground, over the lines.
    fn labels(&self, d: &Diagram) -> String {
        let mut out = String::new();
        for ((arrow, lines), &(_, _, (x, y))) in d.arrows.iter().zip(&self.labels).zip(&self.ends) {
            if lines.is_empty() || !self.boxes.contains_key(&arrow.from) {
                continue;
            }
            let (w, h) = (label_width(lines), LINE * lines.len() as f64 + 4.0);
            let _ = writeln!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"3\" fill=\"#fff\" fill-opacity=\"0.92\"/>",
                x - w / 2.0,
                y - h / 2.0
            );
            let ink = if arrow.faint { "#666" } else { "#222" };
            for (k, line) in lines.iter().enumerate() {
                let ly = y - h / 2.0 + 2.0 + LINE * (k as f64 + 1.0) - 3.5;
                out += &text(x, ly, SMALL, "middle", "normal", ink, line);
            }
        }
        out
    }
}

/// Nodes on levels, level 0 at the top, each level's nodes in order from the left.
fn levels(d: &Diagram, top: f64, gap: f64) -> (BTreeMap<String, Placed>, f64) {
    let mut rows: BTreeMap<u32, Vec<(u32, &Node)>> = BTreeMap::new();
    for n in &d.nodes {
        if let Spot::Level { level, order } = n.spot {
            rows.entry(level).or_default().push((order, n));
        }
    }
    let mut boxes = BTreeMap::new();
    let mut y = top;
    for row in rows.values_mut() {
        row.sort_by_key(|(order, _)| *order);
        let nodes: Vec<&Node> = row.iter().map(|(_, n)| *n).collect();
        y += place_row(&nodes, y, MARGIN, WIDTH - 2.0 * MARGIN, &mut boxes) + gap;
    }
    (boxes, y - gap)
}

/// Places `nodes` side by side across `width` from `x`, their tops at `y`; returns the row's height.
fn place_row(nodes: &[&Node], y: f64, x: f64, width: f64, boxes: &mut BTreeMap<String, Placed>) -> f64 {
    let n = nodes.len().max(1) as f64;
    let w = ((width - (n - 1.0) * GAP) / n).min(190.0);
    let start = x + (width - n * w - (n - 1.0) * GAP) / 2.0;
    let placed: Vec<Placed> =
        nodes.iter().enumerate().map(|(i, node)| sized(node, start + i as f64 * (w + GAP), y, w)).collect();
    let tall = placed.iter().map(|p| p.h).fold(0.0, f64::max);
    for (node, mut p) in nodes.iter().zip(placed) {
        p.h = tall;
        boxes.insert(node.id.clone(), p);
    }
    tall
}

/// A box of width `w` at `x`, `y`, as tall as its wrapped text.
fn sized(node: &Node, x: f64, y: f64, w: f64) -> Placed {
    let label = wrap(&node.label, w - 2.0 * PAD, LABEL);
    let note = wrap(&node.note, w - 2.0 * PAD, SMALL);
    let h = 2.0 * PAD + LINE * (label.len() + note.len()) as f64 + 2.0;
    Placed { x, y, w, h, label, note }
}

/// Nodes around a centre: a row above it (bearings within 45° of up), one below, a column on each side.
fn compass(d: &Diagram, top: f64, gap: f64, label_lines: f64) -> (BTreeMap<String, Placed>, f64) {
    let mut sides: [Vec<(f64, &Node)>; 4] = Default::default();
    for n in &d.nodes {
        if let Spot::Around { bearing } = n.spot {
            let b = bearing.rem_euclid(360.0);
            let side = ((b + 45.0) / 90.0).floor() as usize % 4;
            sides[side].push((b, n));
        }
    }
    for s in &mut sides {
        s.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let mut boxes = BTreeMap::new();
    let mut y = top;
    for chunk in nodes(&sides[0]).chunks(3) {
        y += place_row(chunk, y, MARGIN, WIDTH - 2.0 * MARGIN, &mut boxes) + gap;
    }
    let column = (WIDTH - 2.0 * MARGIN - 2.0 * GAP) / 3.0;
    let label_room = label_lines * LINE + GAP;
    let stack = |list: Vec<&Node>, x: f64, boxes: &mut BTreeMap<String, Placed>| {
        let mut at = y;
        for n in list {
            at += place_row(&[n], at, x, column, boxes) + label_room;
        }
        at - y
    };
    let right = stack(nodes(&sides[1]), WIDTH - MARGIN - column, &mut boxes);
    let mut left_side = sides[3].clone();
    left_side.reverse();
    let left = stack(nodes(&left_side), MARGIN, &mut boxes);
    let centre: Vec<&Node> = d.nodes.iter().filter(|n| n.spot == Spot::Centre).collect();
    let middle = sized_height(&centre, column);
    let band = right.max(left).max(middle);
    place_row(&centre, y + (band - middle) / 2.0, MARGIN + column + GAP, column, &mut boxes);
    y += band + gap;
    for chunk in nodes(&sides[2]).chunks(3) {
        y += place_row(chunk, y, MARGIN, WIDTH - 2.0 * MARGIN, &mut boxes) + gap;
    }
    (boxes, y - gap)
}

fn nodes<'a>(side: &[(f64, &'a Node)]) -> Vec<&'a Node> {
    side.iter().map(|(_, n)| *n).collect()
}

fn sized_height(nodes: &[&Node], w: f64) -> f64 {
    nodes.iter().map(|n| sized(n, 0.0, 0.0, w).h).fold(0.0, f64::max)
}

/// The point of the segment from `a` to `b` at height `y` (its middle if the segment is level).
fn along(a: (f64, f64), b: (f64, f64), y: f64) -> (f64, f64) {
    if (b.1 - a.1).abs() < 1e-9 {
        return ((a.0 + b.0) / 2.0, y);
    }
    let t = ((y - a.1) / (b.1 - a.1)).clamp(0.0, 1.0);
    (a.0 + t * (b.0 - a.0), y)
}

fn direction(a: (f64, f64), b: (f64, f64)) -> (f64, (f64, f64)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    (len, if len > 0.0 { (dx / len, dy / len) } else { (0.0, 1.0) })
}

fn label_width(lines: &[String]) -> f64 {
    lines.iter().map(|l| text_width(l, SMALL)).fold(0.0, f64::max) + 8.0
}

/// Fill, outline and text colour of a tone.
pub(super) fn colours(tone: Tone) -> (&'static str, &'static str, &'static str) {
    match tone {
        Tone::First => ("#dbe9f6", "#1f64b4", "#0d2a4d"),
        Tone::Second => ("#fbe0d5", "#c0392b", "#4d120b"),
        Tone::Place => ("#fff6d6", "#b8860b", "#4d3800"),
        Tone::Idle => ("#f0f0f0", "#9a9a9a", "#666"),
    }
}

/// How wide `s` is drawn at `size`: DejaVu Sans averages a little over half its size per character.
pub(super) fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * 0.6
}

/// `s` in lines no wider than `width` at `size`, broken at spaces (a longer word stands on its own line).
pub(super) fn wrap(s: &str, width: f64, size: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in s.split_whitespace() {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), size) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

pub(super) fn text(x: f64, y: f64, size: f64, anchor: &str, weight: &str, fill: &str, s: &str) -> String {
    format!(
        "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" text-anchor=\"{anchor}\" font-weight=\"{weight}\" fill=\"{fill}\">{}</text>\n",
        xml(s)
    )
}

/// Text made safe inside an SVG element.
pub(super) fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
