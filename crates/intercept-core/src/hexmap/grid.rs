//! The grid: hex tokens in rows of text, the offset layout that places them, and the `CCRR` labels wargame
//! maps print on each hex.
//!
//! Offset coordinates follow Red Blob Games' hex guide: a flat-topped map is drawn in columns, every other
//! column pushed half a hex down; a pointy-topped map in rows, every other row pushed half a hex right.
//! [`Lower`] says which by the column (or row) numbers printed on the map, not by a zero-based index, so a
//! map is described as its printed labels read.

use serde::{Deserialize, Serialize};

use super::MapError;

/// How the hexes sit: flat-topped hexes in columns, or pointy-topped hexes in rows.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// Flat-topped hexes in vertical columns (most wargame maps): a hex touches the hexes above and below
    /// it and two in each neighbouring column.
    #[default]
    Columns,
    /// Pointy-topped hexes in horizontal rows: a hex touches the hexes left and right of it and two in each
    /// neighbouring row.
    Rows,
}

/// Which columns (with `layout = "columns"`) sit half a hex lower, or which rows (with `"rows"`) sit half a
/// hex to the right: those with an odd or an even printed number.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Lower {
    Odd,
    #[default]
    Even,
}

/// What a hex is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// `~`: open sea.
    Sea,
    /// `#`: land; ships enter it only where it holds a port.
    Land,
    /// `=`: a sea hex in a strait, passable unless the scenario closes it; passing one opens a further
    /// interception hex (N-2.3 d).
    Strait,
}

impl Terrain {
    /// The tokens of the grid, as the guide lists them.
    pub const TOKENS: &'static str = "'~' sea, '#' land, '=' strait";

    fn of(token: &str) -> Option<Terrain> {
        match token {
            "~" => Some(Terrain::Sea),
            "#" => Some(Terrain::Land),
            "=" => Some(Terrain::Strait),
            _ => None,
        }
    }

    /// The grid token of the terrain.
    pub fn token(self) -> char {
        match self {
            Terrain::Sea => '~',
            Terrain::Land => '#',
            Terrain::Strait => '=',
        }
    }
}

/// The most hexes a map may have: a real game board has a few thousand.
pub const MOST_HEXES: usize = 40_000;

/// The parsed grid: its size, layout, the label of its top-left hex and every hex's terrain, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub layout: Layout,
    pub lower: Lower,
    /// The printed column and row numbers of the top-left hex.
    pub first: (u32, u32),
    pub columns: u32,
    pub rows: u32,
    /// Digits of a label's column part and of its row part: two each, more on a map that needs them.
    digits: (usize, usize),
    pub terrain: Vec<Terrain>,
}

impl Grid {
    /// Reads `text`, one row of whitespace-separated tokens a line (blank lines skipped), the top-left hex
    /// labelled `first`.
    pub fn parse(text: &str, layout: Layout, lower: Lower, first: &str) -> Result<Grid, MapError> {
        let rows: Vec<Vec<&str>> =
            text.lines().map(|l| l.split_whitespace().collect::<Vec<_>>()).filter(|r| !r.is_empty()).collect();
        let Some(width) = rows.first().map(Vec::len) else {
            return Err(MapError::key("grid", "the grid is empty; write one line of hex tokens a row"));
        };
        let first = parse_first(first)?;
        let too_many = rows.len().checked_mul(width).is_none_or(|n| n > MOST_HEXES);
        if too_many {
            let msg = format!("{} rows of {width} hexes; allowed: at most {MOST_HEXES} hexes", rows.len());
            return Err(MapError::key("grid", &msg));
        }
        let last = (first.0 + width as u32 - 1, first.1 + rows.len() as u32 - 1);
        let digits = (digits(last.0), digits(last.1));
        let mut grid =
            Grid { layout, lower, first, columns: width as u32, rows: rows.len() as u32, digits, terrain: Vec::new() };
        for (r, row) in rows.iter().enumerate() {
            if row.len() != width {
                let label = grid.row_label(r as u32);
                let msg = format!(
                    "row {label} has {} hexes where the first row has {width}; every row has the same number",
                    row.len()
                );
                return Err(MapError::key("grid", &msg));
            }
            for (c, token) in row.iter().enumerate() {
                let Some(t) = Terrain::of(token) else {
                    let hex = grid.label(grid.index(c as u32, r as u32));
                    let token = crate::text::clip(token, 10);
                    let msg = format!("unknown token {token:?}; allowed: {}", Terrain::TOKENS);
                    return Err(MapError::hex(&hex, "grid", &msg));
                };
                grid.terrain.push(t);
            }
        }
        Ok(grid)
    }

    pub fn len(&self) -> usize {
        self.terrain.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
    }

    fn index(&self, c: u32, r: u32) -> u32 {
        r * self.columns + c
    }

    /// Column and row (zero-based) of hex `i`.
    pub fn position(&self, i: u32) -> (u32, u32) {
        (i % self.columns, i / self.columns)
    }

    /// Where hex `i`'s centre is drawn, in units of the hex's corner radius, the top-left hex's centre at
    /// (0, 0) before any pushed column or row: Red Blob's offset coordinates to pixels, flat-topped for
    /// columns, pointy-topped for rows.
    pub fn centre(&self, i: u32) -> (f64, f64) {
        let (c, r) = self.position(i);
        let root3 = 3f64.sqrt();
        match self.layout {
            Layout::Columns => {
                let half = if self.pushed(i64::from(self.first.0 + c)) { 0.5 } else { 0.0 };
                (1.5 * f64::from(c), root3 * (f64::from(r) + half))
            }
            Layout::Rows => {
                let half = if self.pushed(i64::from(self.first.1 + r)) { 0.5 } else { 0.0 };
                (root3 * (f64::from(c) + half), 1.5 * f64::from(r))
            }
        }
    }

    /// The printed label of hex `i`: column then row, each zero-padded (`0712`).
    pub fn label(&self, i: u32) -> String {
        let (c, r) = self.position(i);
        format!("{:0w$}{:0h$}", self.first.0 + c, self.first.1 + r, w = self.digits.0, h = self.digits.1)
    }

    fn row_label(&self, r: u32) -> String {
        format!("{:0h$}", self.first.1 + r, h = self.digits.1)
    }

    /// The hex a label names, if it is on the grid.
    pub fn find(&self, label: &str) -> Option<u32> {
        let (w, h) = self.digits;
        if label.len() != w + h || !label.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let c = label[..w].parse::<u32>().ok()?.checked_sub(self.first.0)?;
        let r = label[w..].parse::<u32>().ok()?.checked_sub(self.first.1)?;
        (c < self.columns && r < self.rows).then(|| self.index(c, r))
    }

    /// The hexes touching hex `i` on the grid, in a fixed order.
    pub fn neighbours(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        let (c, r) = self.position(i);
        let (c, r) = (c as i64, r as i64);
        let offsets = match self.layout {
            // A column pushed down touches the rows level with it and one below in the next columns.
            Layout::Columns => {
                let down = self.pushed(self.first.0 as i64 + c);
                let side = if down { [0, 1] } else { [-1, 0] };
                [(0, -1), (0, 1), (-1, side[0]), (-1, side[1]), (1, side[0]), (1, side[1])]
            }
            Layout::Rows => {
                let right = self.pushed(self.first.1 as i64 + r);
                let side = if right { [0, 1] } else { [-1, 0] };
                [(-1, 0), (1, 0), (side[0], -1), (side[1], -1), (side[0], 1), (side[1], 1)]
            }
        };
        offsets.into_iter().filter_map(move |(dc, dr)| {
            let (nc, nr) = (c + dc, r + dr);
            let inside = (0..self.columns as i64).contains(&nc) && (0..self.rows as i64).contains(&nr);
            inside.then(|| self.index(nc as u32, nr as u32))
        })
    }

    /// Whether the column (or row) printed `number` is the one pushed half a hex.
    fn pushed(&self, number: i64) -> bool {
        (number % 2 == 1) == (self.lower == Lower::Odd)
    }
}

/// The label of the top-left hex: column digits then row digits, an even count, split in half.
fn parse_first(first: &str) -> Result<(u32, u32), MapError> {
    let ok = first.len() >= 4
        && first.len().is_multiple_of(2)
        && first.len() <= 8
        && first.bytes().all(|b| b.is_ascii_digit());
    if !ok {
        let first = crate::text::clip(first, 12);
        let msg = format!("{first:?} is not a hex label; allowed: column then row digits, as \"0101\"");
        return Err(MapError::key("first", &msg));
    }
    let half = first.len() / 2;
    Ok((first[..half].parse().unwrap_or(0), first[half..].parse().unwrap_or(0)))
}

fn digits(n: u32) -> usize {
    n.to_string().len().max(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(layout: Layout, lower: Lower) -> Grid {
        Grid::parse("~ ~ ~ ~\n~ ~ ~ ~\n~ ~ ~ ~\n~ ~ ~ ~\n", layout, lower, "0101").unwrap()
    }

    fn around(g: &Grid, label: &str) -> Vec<String> {
        let mut n: Vec<String> = g.neighbours(g.find(label).unwrap()).map(|i| g.label(i)).collect();
        n.sort();
        n
    }

    /// Red Blob's offset neighbours, by the printed numbers: with even columns lower, column 02 touches
    /// rows r and r+1 of columns 01 and 03; column 03 touches rows r-1 and r of 02 and 04.
    #[test]
    fn columns_touch_the_rows_their_offset_gives() {
        let g = grid(Layout::Columns, Lower::Even);
        assert_eq!(around(&g, "0202"), ["0102", "0103", "0201", "0203", "0302", "0303"]);
        assert_eq!(around(&g, "0302"), ["0201", "0202", "0301", "0303", "0401", "0402"]);
        let odd = grid(Layout::Columns, Lower::Odd);
        assert_eq!(around(&odd, "0202"), ["0101", "0102", "0201", "0203", "0301", "0302"]);
    }

    #[test]
    fn rows_touch_the_columns_their_offset_gives() {
        let g = grid(Layout::Rows, Lower::Even);
        assert_eq!(around(&g, "0202"), ["0102", "0201", "0203", "0301", "0302", "0303"]);
        assert_eq!(around(&g, "0203"), ["0102", "0103", "0104", "0202", "0204", "0303"]);
    }

    #[test]
    fn every_neighbour_is_mutual() {
        for layout in [Layout::Columns, Layout::Rows] {
            for lower in [Lower::Odd, Lower::Even] {
                let g = grid(layout, lower);
                for i in 0..g.len() as u32 {
                    for n in g.neighbours(i) {
                        assert!(g.neighbours(n).any(|m| m == i), "{layout:?} {lower:?}: {i} {n}");
                    }
                }
            }
        }
    }

    #[test]
    fn labels_round_trip_and_widen_past_99() {
        let g = grid(Layout::Columns, Lower::Even);
        assert_eq!(g.label(5), "0202");
        assert_eq!(g.find("0404"), Some(15));
        assert_eq!(g.find("0505"), None);
        assert_eq!(g.find("404"), None);
        let wide = Grid::parse("~ ~\n~ ~\n", Layout::Columns, Lower::Even, "9901").unwrap();
        assert_eq!(wide.label(1), "10001");
        assert_eq!(wide.find("09901"), Some(0));
    }

    #[test]
    fn ragged_rows_and_unknown_tokens_are_named() {
        let e = Grid::parse("~ ~ ~\n~ ~\n", Layout::Columns, Lower::Even, "0101").unwrap_err();
        assert_eq!(e.to_string(), "grid: row 02 has 2 hexes where the first row has 3; every row has the same number");
        let e = Grid::parse("~ ~ ~\n~ x ~\n", Layout::Columns, Lower::Even, "0101").unwrap_err();
        assert_eq!(e.to_string(), "grid: hex 0202: unknown token \"x\"; allowed: '~' sea, '#' land, '=' strait");
    }
}
