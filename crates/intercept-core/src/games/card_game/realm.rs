//! The realm of Sorcery (B.1) and the steps a unit may take across it with Move and Attack (B.2).
//!
//! A [`Realm`] is the 5×4 grid of [`Site`]s with the names a config gives some squares. A square with a
//! site has two locations, its surface and its subsurface (underground under land, underwater under water);
//! a square with no site is void and has one. [`Realm::step`] says whether one step is legal for a unit and,
//! if not, why; [`Realm::paths`] counts the unit's legal declared paths by the location they end at, which
//! is what a random choice of path needs and what Defend's range of motion is.

use std::fmt;

pub use super::rules::{COLS, ROWS, Square};
use super::rules::{Keyword, Location, Region, Unit};

/// What stands on a square (B.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// A land site: surface and underground.
    Land,
    /// A water site: surface and underwater.
    Water,
    /// No site: one location, the void.
    Void,
}

/// The board: a site (or none) on every square, and the squares' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Realm {
    sites: [[Site; COLS as usize]; ROWS as usize],
    names: Vec<(String, Square)>,
}

impl Realm {
    /// A realm of these rows of sites (row 1 first) and square names.
    pub fn new(sites: [[Site; COLS as usize]; ROWS as usize], names: Vec<(String, Square)>) -> Realm {
        Realm { sites, names }
    }

    pub fn site(&self, q: Square) -> Site {
        self.sites[q.row as usize][q.col as usize]
    }

    /// The regions a square has: surface and subsurface under a site, the void otherwise (B.1).
    pub fn regions(&self, q: Square) -> &'static [Region] {
        match self.site(q) {
            Site::Land => &[Region::Surface, Region::Underground],
            Site::Water => &[Region::Surface, Region::Underwater],
            Site::Void => &[Region::Void],
        }
    }

    /// Every location of the realm, square by square (row 1 first), surface before subsurface.
    pub fn locations(&self) -> impl Iterator<Item = Location> + '_ {
        let squares = (0..ROWS).flat_map(|row| (0..COLS).map(move |col| Square { col, row }));
        squares.flat_map(|q| self.regions(q).iter().map(move |&region| Location { square: q, region }))
    }

    /// A location written as a square (a name or `column-row`), then optionally `/region`; a square alone is
    /// its surface, or its void when it has no site.
    pub fn location(&self, text: &str) -> Result<Location, String> {
        let (sq, region) = text.split_once('/').map_or((text, None), |(s, r)| (s, Some(r)));
        let square = match self.names.iter().find(|(n, _)| n == sq.trim()) {
            Some(&(_, q)) => q,
            None => sq.trim().parse::<Square>()?,
        };
        let regions = self.regions(square);
        let region = match region.map(str::trim) {
            None => regions[0],
            Some(r) => parse_region(r)?,
        };
        if !regions.contains(&region) {
            return Err(format!("{sq} has no {region} location; it has {}", listed(regions)));
        }
        Ok(Location { square, region })
    }

    /// A location as a config writes it: the square's name if it has one, and the region unless surface.
    pub fn label(&self, at: Location) -> String {
        let square = self.names.iter().find(|(_, q)| *q == at.square).map_or(at.square.to_string(), |(n, _)| n.clone());
        match at.region {
            Region::Surface => square,
            region => format!("{square}/{region}"),
        }
    }

    /// Whether the unit may take the step `from` → `to` (B.2), or why not.
    pub fn step(&self, unit: &Unit, from: Location, to: Location) -> Result<(), String> {
        if unit.has(Keyword::Immobile) {
            return Err(format!("{} is Immobile and takes no steps (S-13)", unit.name));
        }
        let (dc, dr) = (from.square.col.abs_diff(to.square.col), from.square.row.abs_diff(to.square.row));
        let needs = match (dc.max(dr), dc + dr) {
            (0, 0) => switch_needs(from.region, to.region),
            (1, 1) => adjacent_needs(from.region, to.region),
            (1, 2) if from.region == Region::Surface && to.region == Region::Surface => Ok(&[Keyword::Airborne][..]),
            (1, 2) => Err("a diagonal step is only from surface to surface, for Airborne units (B.2)"),
            _ => Err("the squares are not adjacent; a step goes to a neighbouring square (B.2)"),
        };
        let needs = needs.map_err(str::to_owned)?;
        match needs.iter().find(|k| !unit.has(**k)) {
            None => Ok(()),
            Some(k) => Err(format!("{} needs {k:?} for that step and lacks it (B.2)", unit.name)),
        }
    }

    /// Every legal step from `from`.
    fn steps_from<'a>(&'a self, unit: &'a Unit, from: Location) -> impl Iterator<Item = Location> + 'a {
        let near = move |q: Square| q.col.abs_diff(from.square.col) <= 1 && q.row.abs_diff(from.square.row) <= 1;
        let locations = self.locations().filter(move |l| near(l.square) && *l != from);
        locations.filter(move |&to| self.step(unit, from, to).is_ok())
    }

    /// The unit's legal declared paths from its location, of up to `steps` steps with no step repeated
    /// (B.2), counted by the location they end at; the empty path (no step) counts once at the start (S-3).
    pub fn paths(&self, unit: &Unit, steps: u32) -> Vec<(Location, u64)> {
        let mut ends: Vec<(Location, u64)> = Vec::new();
        let mut taken = Vec::new();
        self.walk(unit, unit.at, steps, &mut taken, &mut ends);
        ends
    }

    fn walk(
        &self,
        unit: &Unit,
        at: Location,
        left: u32,
        taken: &mut Vec<(Location, Location)>,
        ends: &mut Vec<(Location, u64)>,
    ) {
        match ends.iter_mut().find(|(l, _)| *l == at) {
            Some((_, n)) => *n += 1,
            None => ends.push((at, 1)),
        }
        if left == 0 {
            return;
        }
        let next: Vec<Location> = self.steps_from(unit, at).filter(|&to| !taken.contains(&(at, to))).collect();
        for to in next {
            taken.push((at, to));
            self.walk(unit, to, left - 1, taken, ends);
            taken.pop();
        }
    }
}

/// What a step within one square needs: Burrowing between surface and underground, Submerge between
/// surface and underwater (B.2).
fn switch_needs(from: Region, to: Region) -> Result<&'static [Keyword], &'static str> {
    use Region::*;
    match (from, to) {
        (Surface, Underground) | (Underground, Surface) => Ok(&[Keyword::Burrowing]),
        (Surface, Underwater) | (Underwater, Surface) => Ok(&[Keyword::Submerge]),
        _ => Err("a step must change the location"),
    }
}

/// What an orthogonal step needs, by the regions it leaves and enters (B.2; underground and underwater
/// moves from the Burrowing and Submerge codex entries).
fn adjacent_needs(from: Region, to: Region) -> Result<&'static [Keyword], &'static str> {
    use Region::*;
    match (from, to) {
        (Surface, Surface) => Ok(&[]),
        (Void, _) | (_, Void) => Ok(&[Keyword::Voidwalk]),
        (Underground, Underground) => Ok(&[Keyword::Burrowing]),
        (Underwater, Underwater) => Ok(&[Keyword::Submerge]),
        (Underground, Underwater) | (Underwater, Underground) => Ok(&[Keyword::Burrowing, Keyword::Submerge]),
        _ => Err("a step to a neighbouring square stays on the surface or below it; it cannot rise or dive"),
    }
}

fn parse_region(text: &str) -> Result<Region, String> {
    let all = [Region::Surface, Region::Underground, Region::Underwater, Region::Void];
    all.into_iter()
        .find(|r| r.to_string() == text.to_ascii_lowercase())
        .ok_or_else(|| format!("{text:?} is not a region; allowed: surface, underground, underwater, void"))
}

fn listed(regions: &[Region]) -> String {
    regions.iter().map(Region::to_string).collect::<Vec<_>>().join(" and ")
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Region::Surface => "surface",
            Region::Underground => "underground",
            Region::Underwater => "underwater",
            Region::Void => "void",
        };
        f.write_str(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn realm(rows: [&str; 4]) -> Realm {
        let site = |c| match c {
            'W' => Site::Water,
            '.' => Site::Void,
            _ => Site::Land,
        };
        let mut sites = [[Site::Land; COLS as usize]; ROWS as usize];
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                sites[r][c] = site(ch);
            }
        }
        Realm::new(sites, vec![("C".to_owned(), Square { col: 1, row: 0 })])
    }

    fn unit(at: &str, keywords: &[Keyword], extra_steps: u32, r: &Realm) -> Unit {
        let at = r.location(at).unwrap();
        let keywords = keywords.to_vec();
        Unit {
            name: "u".into(),
            movers_side: true,
            at,
            keywords,
            extra_steps,
            tapped: false,
            summoned_this_turn: false,
        }
    }

    fn ends(r: &Realm, u: &Unit, steps: u32) -> Vec<(String, u64)> {
        let mut ends: Vec<_> = r.paths(u, steps).into_iter().map(|(l, n)| (r.label(l), n)).collect();
        ends.sort();
        ends
    }

    /// B.2: a plain unit steps orthogonally on the surface; the empty path counts at the start (S-3).
    #[test]
    fn a_plain_step_from_the_corner() {
        let r = realm(["LLLLL"; 4]);
        let u = unit("1-1", &[], 0, &r);
        assert_eq!(ends(&r, &u, 1), [("1-1".into(), 1), ("1-2".into(), 1), ("C".into(), 1)]);
    }

    /// B.2: Airborne adds the diagonal; Burrowing the step below; each is a legal step of its own.
    #[test]
    fn keywords_add_steps() {
        let r = realm(["LLLLL"; 4]);
        let flyer = unit("1-1", &[Keyword::Airborne], 0, &r);
        assert!(ends(&r, &flyer, 1).contains(&("2-2".into(), 1)));
        let mole = unit("1-1", &[Keyword::Burrowing], 0, &r);
        assert!(ends(&r, &mole, 1).contains(&("1-1/underground".into(), 1)));
        assert!(r.step(&unit("1-1", &[], 0, &r), r.location("1-1").unwrap(), r.location("2-2").unwrap()).is_err());
    }

    /// B.2: two steps from the corner, no step repeated: back to the start by either neighbour (2 paths),
    /// and on to the three squares two steps away (2-2 by two routes).
    #[test]
    fn two_steps_count_every_path() {
        let r = realm(["LLLLL"; 4]);
        let u = unit("1-1", &[], 1, &r);
        let want = [("1-1", 3), ("1-2", 1), ("1-3", 1), ("2-2", 2), ("3-1", 1), ("C", 1)];
        let want: Vec<(String, u64)> = want.iter().map(|(l, n)| (l.to_string(), *n)).collect();
        assert_eq!(ends(&r, &u, 2), want);
    }

    /// B.1: the void has one location, and only Voidwalk enters it; water has its underwater below.
    #[test]
    fn void_and_water() {
        let r = realm([".WLLL", "LLLLL", "LLLLL", "LLLLL"]);
        assert!(r.location("1-1").is_ok_and(|l| l.region == Region::Void));
        assert!(r.location("1-1/surface").is_err());
        assert!(r.location("C/underwater").is_ok() && r.location("C/underground").is_err());
        let walker = unit("1-2", &[Keyword::Voidwalk], 0, &r);
        assert!(ends(&r, &walker, 1).contains(&("1-1/void".into(), 1)));
        assert!(!ends(&r, &unit("1-2", &[], 0, &r), 1).iter().any(|(l, _)| l == "1-1/void"));
    }
}
