//! The realm of Sorcery (B.1) and the steps a unit may take across it with Move and Attack (B.2).
//!
//! A [`Realm`] is the 5×4 grid of [`Site`]s with the names a config gives some squares. A square with a
//! site has two locations, its surface and its subsurface (underground under land, underwater under water);
//! a square with no site is void and has one. [`Realm::step`] says whether one step is legal for a unit and,
//! if not, why, and [`Realm::step_cost`] whether Moves Freely makes it free; [`Realm::paths`] counts the
//! unit's legal declared paths by the location they end at, which is what a random choice of path needs,
//! and [`Realm::reach`] lists where it can get to, which is Defend's range of motion.
//!
//! An oversized unit (S-17) is placed by its part at the lowest column and row: [`Realm::cover`] gives every
//! location it occupies, and one of its steps moves every part the same way, legal only if every part's
//! step is.

use super::rules::Unusable;
use std::fmt;

pub use super::rules::{COLS, ROWS, Square};
use super::rules::{Cover, Freely, Keyword, Location, Region, Size, Unit};

/// The most legal declared paths the policy counts: Moves Freely can make free steps without end (only
/// the rule that no step repeats bounds a path), and Movement +5 with Airborne already makes some 300,000.
pub const MAX_PATHS: u64 = 1_000_000;

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
    pub fn location(&self, text: &str) -> Result<Location, Unusable> {
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
            return Err(Unusable::from(format!("{sq} has no {region} location; it has {}", listed(regions))));
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

    /// Every location a unit of `size` occupies with its part at the lowest column and row at `at`, or
    /// `None` if a part would be off the map or has no location on that level (S-17). Every part stands on
    /// the same level as `at`: above ground (a site's surface, or the void where there is no site), or
    /// below it (underground, underwater).
    pub fn cover(&self, at: Location, size: Size) -> Option<Cover> {
        if !size.oversized() {
            return Some(Cover::one(at));
        }
        let mut parts = [at; 4];
        let mut n = 0;
        for dr in 0..size.rows {
            for dc in 0..size.cols {
                parts[n] = self.part(at, dc, dr)?;
                n += 1;
            }
        }
        Some(Cover::of(&parts[..n]))
    }

    /// The part `dc` columns and `dr` rows from `at`, on `at`'s level.
    fn part(&self, at: Location, dc: u8, dr: u8) -> Option<Location> {
        let square = Square { col: at.square.col + dc, row: at.square.row + dr };
        if square.col >= COLS || square.row >= ROWS {
            return None;
        }
        let above = matches!(at.region, Region::Surface | Region::Void);
        let region = match (self.site(square), above) {
            (Site::Void, true) => Region::Void,
            (_, true) => Region::Surface,
            (Site::Land, false) => Region::Underground,
            (Site::Water, false) => Region::Underwater,
            (Site::Void, false) => return None,
        };
        Some(Location { square, region })
    }

    /// Whether the unit may take the step `from` → `to` (B.2), or why not. For an oversized unit, `from`
    /// and `to` place its first part, and every part takes the same step (S-17).
    pub fn step(&self, unit: &Unit, from: Location, to: Location) -> Result<(), Unusable> {
        if unit.has(Keyword::Immobile) {
            return Err(Unusable::from(format!("{} is Immobile and takes no steps (S-13)", unit.name)));
        }
        let needs = |from, to| step_needs(from, to).map_err(str::to_owned);
        let lacks = |needs: &[Keyword]| needs.iter().find(|k| !unit.has(**k)).copied();
        for (from, to) in self.part_steps(unit.size, from, to).ok_or_else(|| off_level(unit))? {
            if let Some(k) = lacks(needs(from, to)?) {
                return Err(Unusable::from(format!("{} needs {k:?} for that step and lacks it (B.2)", unit.name)));
            }
        }
        Ok(())
    }

    /// Whether the unit may take the step, without saying why not: what the search of paths asks.
    fn can_step(&self, unit: &Unit, from: Location, to: Location) -> bool {
        let legal = |(from, to)| step_needs(from, to).is_ok_and(|needs| needs.iter().all(|k| unit.has(*k)));
        !unit.has(Keyword::Immobile) && self.part_steps(unit.size, from, to).is_some_and(|mut p| p.all(legal))
    }

    /// Each part's step when the first part steps `from` → `to`, or `None` if a part has nowhere to go.
    fn part_steps(
        &self,
        size: Size,
        from: Location,
        to: Location,
    ) -> Option<impl Iterator<Item = (Location, Location)>> {
        let (before, after) = (self.cover(from, size)?, self.cover(to, size)?);
        Some((0..before.locations().len()).map(move |i| (before.locations()[i], after.locations()[i])))
    }

    /// What the step costs: 0 when the unit moves freely between those locations (B.2; for an oversized
    /// unit, every part's step must qualify), else 1.
    pub fn step_cost(&self, unit: &Unit, from: Location, to: Location) -> u32 {
        let free = |(from, to): (Location, Location)| {
            let ways = [Freely::Water, Freely::Void, Freely::Horizontally, Freely::Vertically];
            ways.into_iter().any(|way| unit.moves_freely(way) && self.qualifies(way, from, to))
        };
        let all_free = unit.freely != 0 && self.part_steps(unit.size, from, to).is_some_and(|mut p| p.all(free));
        u32::from(!all_free)
    }

    /// Whether a step meets a Moves Freely condition (B.2).
    fn qualifies(&self, way: Freely, from: Location, to: Location) -> bool {
        let (dc, dr) = (from.square.col.abs_diff(to.square.col), from.square.row.abs_diff(to.square.row));
        match way {
            Freely::Water => self.site(from.square) == Site::Water && self.site(to.square) == Site::Water,
            Freely::Void => from.region == Region::Void && to.region == Region::Void,
            Freely::Horizontally => (dc, dr) == (1, 0),
            Freely::Vertically => (dc, dr) == (0, 1),
        }
    }

    /// Every legal step from `from`.
    fn steps_from<'a>(&'a self, unit: &'a Unit, from: Location) -> impl Iterator<Item = Location> + 'a {
        let near = move |q: Square| q.col.abs_diff(from.square.col) <= 1 && q.row.abs_diff(from.square.row) <= 1;
        let locations = self.locations().filter(move |l| near(l.square) && *l != from);
        locations.filter(move |&to| self.can_step(unit, from, to))
    }

    /// The unit's legal declared paths from its location, of up to `steps` steps that cost one (free steps
    /// of Moves Freely not counted) with no step repeated (B.2), counted by the location they end at; the
    /// empty path (no step) counts once at the start (S-3). Refused past [`MAX_PATHS`] paths.
    pub fn paths(&self, unit: &Unit, steps: u32) -> Result<Vec<(Location, u64)>, Unusable> {
        let mut walk = Walk { ends: Vec::new(), taken: Vec::new(), paths: 0 };
        match self.walk(unit, unit.at, steps, &mut walk) {
            Some(()) => Ok(walk.ends),
            None => Err(Unusable::from(format!("{} has more than {MAX_PATHS} legal declared paths", unit.name))),
        }
    }

    fn walk(&self, unit: &Unit, at: Location, left: u32, walk: &mut Walk) -> Option<()> {
        walk.paths += 1;
        if walk.paths > MAX_PATHS {
            return None;
        }
        match walk.ends.iter_mut().find(|(l, _)| *l == at) {
            Some((_, n)) => *n += 1,
            None => walk.ends.push((at, 1)),
        }
        let affordable = |to| self.step_cost(unit, at, to) <= left;
        let next: Vec<Location> =
            self.steps_from(unit, at).filter(|&to| !walk.taken.contains(&(at, to)) && affordable(to)).collect();
        for to in next {
            walk.taken.push((at, to));
            self.walk(unit, to, left - self.step_cost(unit, at, to), walk)?;
            walk.taken.pop();
        }
        Some(())
    }

    /// Every location the unit can end at with up to `steps` steps that cost one, in the order first
    /// reached (fewest steps first): its range of motion (B.3, Defend). The fewest steps to a location
    /// never repeat a step, so the rule against repeated steps changes nothing here.
    pub fn reach(&self, unit: &Unit, steps: u32) -> Vec<Location> {
        let mut best: Vec<(Location, u32)> = vec![(unit.at, 0)];
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..best.len() {
                let (at, used) = best[i];
                for to in self.steps_from(unit, at) {
                    let cost = used + self.step_cost(unit, at, to);
                    if cost > steps {
                        continue;
                    }
                    match best.iter().position(|(l, _)| *l == to) {
                        Some(k) if best[k].1 <= cost => continue,
                        Some(k) => best[k].1 = cost,
                        None => best.push((to, cost)),
                    }
                    changed = true;
                }
            }
        }
        best.into_iter().map(|(l, _)| l).collect()
    }
}

/// A search of declared paths under way: where they end, the steps taken so far, and how many were counted.
struct Walk {
    ends: Vec<(Location, u64)>,
    taken: Vec<(Location, Location)>,
    paths: u64,
}

fn off_level(unit: &Unit) -> String {
    format!("{} ({}) would have a part off the map or where its level has no location (S-17)", unit.name, unit.size)
}

/// What one location-to-location step needs (B.2), or why it is never legal.
fn step_needs(from: Location, to: Location) -> Result<&'static [Keyword], &'static str> {
    let (dc, dr) = (from.square.col.abs_diff(to.square.col), from.square.row.abs_diff(to.square.row));
    match (dc.max(dr), dc + dr) {
        (0, 0) => switch_needs(from.region, to.region),
        (1, 1) => adjacent_needs(from.region, to.region),
        (1, 2) if from.region == Region::Surface && to.region == Region::Surface => Ok(&[Keyword::Airborne][..]),
        (1, 2) => Err("a diagonal step is only from surface to surface, for Airborne units (B.2)"),
        _ => Err("the squares are not adjacent; a step goes to a neighbouring square (B.2)"),
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

fn parse_region(text: &str) -> Result<Region, Unusable> {
    let all = [Region::Surface, Region::Underground, Region::Underwater, Region::Void];
    all.into_iter()
        .find(|r| r.to_string() == text.to_ascii_lowercase())
        .ok_or_else(|| Unusable(format!("{text:?} is not a region; allowed: surface, underground, underwater, void")))
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
    use crate::games::card_game::rules::{Freely, Size};

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
        Unit { keywords: keywords.to_vec(), extra_steps, ..Unit::new("u", true, at) }
    }

    fn ends(r: &Realm, u: &Unit, steps: u32) -> Vec<(String, u64)> {
        let mut ends: Vec<_> = r.paths(u, steps).unwrap().into_iter().map(|(l, n)| (r.label(l), n)).collect();
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

    /// B.2, Moves Freely in water: steps between water locations cost nothing. From 1-1 across the lake
    /// 1-1, C (2-1), 3-1 to the land at 4-1 is two free steps and one paid: one step's reach.
    #[test]
    fn moves_freely_makes_steps_free() {
        let r = realm(["WWWLL", "LLLLL", "LLLLL", "LLLLL"]);
        let mut u = unit("1-1", &[], 0, &r);
        assert!(!r.reach(&u, 1).contains(&r.location("4-1").unwrap()));
        u.add_freely(Freely::Water);
        assert_eq!(r.step_cost(&u, r.location("1-1").unwrap(), r.location("C").unwrap()), 0);
        assert_eq!(r.step_cost(&u, r.location("3-1").unwrap(), r.location("4-1").unwrap()), 1);
        assert!(r.reach(&u, 1).contains(&r.location("4-1").unwrap()));
        assert!(!r.reach(&u, 1).contains(&r.location("5-1").unwrap()), "4-1 to 5-1 is a second paid step");
    }

    /// S-17: a 2x2 unit at 1-1 covers 1-1, C, 1-2, 2-2; with one step it may stay, go right or go down (its
    /// other neighbours are off the map), and with Burrowing it may go below, since all four are land.
    #[test]
    fn an_oversized_unit_steps_as_one() {
        let r = realm(["LLLLL"; 4]);
        let giant = Unit { size: Size { cols: 2, rows: 2 }, ..unit("1-1", &[], 0, &r) };
        let cover: Vec<String> =
            r.cover(giant.at, giant.size).unwrap().locations().iter().map(|l| r.label(*l)).collect();
        assert_eq!(cover, ["1-1", "C", "1-2", "2-2"]);
        assert_eq!(ends(&r, &giant, 1), [("1-1".into(), 1), ("1-2".into(), 1), ("C".into(), 1)]);
        let mole = Unit { keywords: vec![Keyword::Burrowing], ..giant.clone() };
        assert!(ends(&r, &mole, 1).contains(&("1-1/underground".into(), 1)));
        // A lake under one part: the giant cannot burrow, since that part would need Submerge.
        let r = realm(["LWLLL", "LLLLL", "LLLLL", "LLLLL"]);
        assert!(!ends(&r, &mole, 1).iter().any(|(l, _)| l.contains("underground")));
        assert!(r.cover(r.location("5-1").unwrap(), giant.size).is_none(), "a part off the map");
    }
}
