//! The step race of one move against its interceptors (rules G-1..G-13 of `docs/rules/tactical-step-race.md`).
//!
//! A [`Square`] is a tac square `column-row` on the 15×15 map. A [`Move`] is a start, an optional waypoint
//! and an end, raced as separate [`Leg`]s (G-3). An [`Interceptor`] stands on a square with an intercept
//! [`InterceptBox`] (G-2). [`race_leg`] steps the mover along a leg with exact rational positions (G-4) and finds
//! the earliest step at which the interceptor can be on the mover's square in time (G-6, G-7), subject to
//! the box filter (G-8, G-A1) and the one-square exception (G-9); [`race_move`] runs the legs in order
//! against every interceptor and stops the mover at the first interception (G-12, G-A6).

use std::fmt;

crate::refusal! {
    /// Why a square, a box or a move written on the command line or in a config cannot be used: what is allowed.
    BadSquare
}

/// Columns and rows run 0..=14 (G: every strategic square has a 15×15 tactical map).
pub const MAP: i32 = 15;

/// A tac square, `column-row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub col: i32,
    pub row: i32,
}

impl Square {
    /// Chebyshev (king-move) distance: the steps a unit needs between two squares (G-5, A.1).
    pub fn cheb(self, other: Square) -> i32 {
        (self.col - other.col).abs().max((self.row - other.row).abs())
    }

    /// Squared Euclidean distance, used only to break ties between straddled squares (G-A2).
    fn dist2(self, other: Square) -> i32 {
        (self.col - other.col).pow(2) + (self.row - other.row).pow(2)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.col, self.row)
    }
}

impl std::str::FromStr for Square {
    type Err = BadSquare;

    /// `column-row`, each 0 to 14.
    fn from_str(s: &str) -> Result<Square, BadSquare> {
        let bad = || format!("{s:?} is not a tac square; allowed: column-row, each 0 to 14, such as 7-7");
        let (c, r) = s.trim().split_once('-').ok_or_else(bad)?;
        let (col, row) = (c.parse::<i32>().map_err(|_| bad())?, r.parse::<i32>().map_err(|_| bad())?);
        let on_map = |x: i32| (0..MAP).contains(&x);
        if on_map(col) && on_map(row) { Ok(Square { col, row }) } else { Err(BadSquare(bad())) }
    }
}

/// An intercept box: every square within Chebyshev `radius` of `centre` (G-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterceptBox {
    pub centre: Square,
    pub radius: i32,
}

impl InterceptBox {
    pub fn contains(&self, q: Square) -> bool {
        self.centre.cheb(q) <= self.radius
    }
}

impl fmt::Display for InterceptBox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.centre, self.radius)
    }
}

impl std::str::FromStr for InterceptBox {
    type Err = BadSquare;

    /// `centre/radius`, such as `7-7/3`.
    fn from_str(s: &str) -> Result<InterceptBox, BadSquare> {
        let bad = |why: String| format!("{s:?} is not an intercept box ({why}); allowed: centre/radius such as 7-7/3");
        let (c, r) = s.split_once('/').ok_or_else(|| bad("no '/'".into()))?;
        let centre = c.parse::<Square>().map_err(|e| bad(e.0))?;
        let radius = r.trim().parse::<i32>().ok().filter(|r| (0..MAP).contains(r));
        let radius = radius.ok_or_else(|| bad("the radius must be a whole number from 0 to 14".into()))?;
        Ok(InterceptBox { centre, radius })
    }
}

/// What the intercept box filters (G-8, G-A1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoxFilter {
    /// The interception point must lie in the box (the recommended reading).
    #[default]
    Point,
    /// The leg's destination must lie in the box.
    Destination,
    /// The box is only a parameter of the order.
    None,
}

/// A unit with an interception order (G-1): where it stands and its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interceptor {
    pub at: Square,
    pub boxed: InterceptBox,
}

/// One straight leg of a move (G-3): `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    pub from: Square,
    pub to: Square,
}

impl Leg {
    /// The one-square steps of the leg: the Chebyshev length (G-4).
    pub fn steps(&self) -> i32 {
        self.from.cheb(self.to)
    }

    /// The squares the mover may be on after step `k`, and how many there are: one, or two when the exact
    /// position lies on the line between two squares (G-4 with G-A2). Positions are exact rationals with
    /// denominator N; only the minor axis can be fractional, so there are never more than two.
    pub fn squares_at(&self, k: i32) -> ([Square; 2], usize) {
        let n = self.steps();
        let (c0, c1) = nearest(self.from.col * n + k * (self.to.col - self.from.col), n);
        let (r0, r1) = nearest(self.from.row * n + k * (self.to.row - self.from.row), n);
        let first = Square { col: c0, row: r0 };
        match (c1, r1) {
            (Some(col), _) => ([first, Square { col, row: r0 }], 2),
            (_, Some(row)) => ([first, Square { col: c0, row }], 2),
            _ => ([first, first], 1),
        }
    }
}

/// The nearest whole number to `num / den` (`den > 0`, `num >= 0`), and at an exact half the other
/// neighbour too.
fn nearest(num: i32, den: i32) -> (i32, Option<i32>) {
    let (whole, rest) = (num / den, num % den);
    match (2 * rest).cmp(&den) {
        std::cmp::Ordering::Less => (whole, None),
        std::cmp::Ordering::Greater => (whole + 1, None),
        std::cmp::Ordering::Equal => (whole, Some(whole + 1)),
    }
}

/// Where and when an interceptor can engage the mover on a leg.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Catch {
    /// The step of the leg (1..=N) at which the mover is caught.
    pub step: i32,
    pub square: Square,
}

/// Why a leg cannot be intercepted by anyone, when it cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Immune {
    /// A leg of one square is never interceptable (G-9).
    OneSquare,
    /// No step of the leg is reachable in time, inside the box (G-6, G-8).
    OutOfReach,
}

/// The earliest step of `leg` at which `i` can be on the mover's square (G-6, G-7), subject to the box
/// filter (G-8); `Err` says why not.
pub fn race_leg(leg: &Leg, i: &Interceptor, filter: BoxFilter) -> Result<Catch, Immune> {
    let n = leg.steps();
    if n <= 1 {
        return Err(Immune::OneSquare);
    }
    if filter == BoxFilter::Destination && !i.boxed.contains(leg.to) {
        return Err(Immune::OutOfReach);
    }
    let allowed = |q: &Square| filter != BoxFilter::Point || i.boxed.contains(*q);
    (1..=n).find_map(|k| catch_at(leg, i, k, allowed)).ok_or(Immune::OutOfReach)
}

/// Step `k`'s catch, if a square of the mover there is reachable in `k` steps and allowed. Of two straddled
/// squares that both qualify, the one nearer the interceptor, then nearer the leg's end (G-A2).
fn catch_at(leg: &Leg, i: &Interceptor, k: i32, allowed: impl Fn(&Square) -> bool) -> Option<Catch> {
    let (squares, n) = leg.squares_at(k);
    let ok = squares[..n].iter().filter(|q| i.at.cheb(**q) <= k && allowed(q));
    let best = ok.min_by_key(|q| (i.at.cheb(**q), q.cheb(leg.to), q.dist2(leg.to)));
    best.map(|&square| Catch { step: k, square })
}

/// A whole move: its squares in order (start, the optional waypoint, end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub points: Vec<Square>,
}

/// What happened on one leg.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegOutcome {
    pub leg: Leg,
    /// The winning interceptor's index and its catch, or why the leg is immune to every interceptor.
    pub result: Result<(usize, Catch), Immune>,
}

/// Every leg raced, in order.
pub fn race_move(m: &Move, interceptors: &[Interceptor], filter: BoxFilter) -> Vec<LegOutcome> {
    race_legs(&m.points, interceptors, filter).collect()
}

/// The interception of a raced move, if any: the leg's number (from 1), the winner and its catch. The race
/// stops at the first catch, so it is the last leg raced.
pub fn caught(legs: &[LegOutcome]) -> Option<(usize, usize, Catch)> {
    legs.last().and_then(|l| l.result.ok()).map(|(i, c)| (legs.len(), i, c))
}

/// Races the legs through `points` in order against every interceptor, without allocating; the mover stops at
/// the first interception (G-12), so the legs after it are not raced. Each leg is a separate move (G-3); on
/// a leg, the earliest catch wins, then the shorter distance from the interceptor to the point, then the
/// interceptor listed first (G-A6).
pub fn race_legs<'a>(
    points: &'a [Square],
    interceptors: &'a [Interceptor],
    filter: BoxFilter,
) -> impl Iterator<Item = LegOutcome> + 'a {
    let mut caught = false;
    points.windows(2).map_while(move |w| {
        let leg = Leg { from: w[0], to: w[1] };
        let result = (!caught).then(|| best_catch(&leg, interceptors, filter))?;
        caught = result.is_ok();
        Some(LegOutcome { leg, result })
    })
}

/// The winning catch of `leg` among `interceptors` (G-A6), or why nobody can catch it.
pub fn best_catch(leg: &Leg, interceptors: &[Interceptor], filter: BoxFilter) -> Result<(usize, Catch), Immune> {
    let catches = interceptors.iter().enumerate().filter_map(|(n, i)| race_leg(leg, i, filter).ok().map(|c| (n, c)));
    let best = catches.min_by_key(|(n, c)| (c.step, interceptors[*n].at.cheb(c.square), *n));
    best.ok_or(if leg.steps() <= 1 { Immune::OneSquare } else { Immune::OutOfReach })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn squares(leg: &Leg, k: i32) -> Vec<Square> {
        let (squares, n) = leg.squares_at(k);
        squares[..n].to_vec()
    }

    #[test]
    fn exact_positions_round_to_the_nearest_square_and_straddle_at_a_half() {
        // G-4: 9-7 → 10-10 passes 9.33-8 and 9.67-9 (A.3, Ex 4).
        let leg = Leg { from: sq("9-7"), to: sq("10-10") };
        assert_eq!(squares(&leg, 1), vec![sq("9-8")]);
        assert_eq!(squares(&leg, 2), vec![sq("10-9")]);
        // tacmove.html: 3-1 → 7-3 passes 4-1.5, which straddles 4-1 and 4-2 (G-A2).
        let leg = Leg { from: sq("3-1"), to: sq("7-3") };
        assert_eq!(squares(&leg, 1), vec![sq("4-1"), sq("4-2")]);
    }

    #[test]
    fn squares_and_boxes_parse_and_refuse() {
        assert_eq!(sq("14-0"), Square { col: 14, row: 0 });
        assert!("15-3".parse::<Square>().is_err() && "7".parse::<Square>().is_err());
        let b: InterceptBox = "7-7/3".parse().unwrap();
        assert!(b.contains(sq("10-10")) && !b.contains(sq("11-10")));
        assert!("7-7/x".parse::<InterceptBox>().is_err() && "7-7".parse::<InterceptBox>().is_err());
    }
}
