//! Intercept in Sorcery: Contested Realm (rules S-1..S-19 of `docs/rules/card-game-intercept.md`): who may
//! intercept a unit that used Move and Attack, and, for each unit that may not, the rule that rules it out.
//!
//! A [`Location`] is a square and a [`Region`] (surface, underground, underwater, void). A [`Unit`] stands
//! at a location with its [`Keyword`]s, power and state; an oversized one covers several ([`Cover`], S-17).
//! An [`Action`] is what the moving unit did: how it moved ([`Movement`]), where it ended (every location
//! it covers there), and whether it attacked. [`may_intercept`] answers for one unit with the reason
//! ([`Barred`]) when it may not; [`interceptors`] lists every unit that may, and all of them that choose to
//! intercept fight the mover together in one fight (S-11, resolved in [`super::fight`]).

use std::fmt;

crate::refusal! {
    /// Why a value written in a card-game config cannot be used: what is wrong, and what is allowed.
    Unusable
}

/// Columns of the realm.
pub const COLS: u8 = 5;
/// Rows of the realm.
pub const ROWS: u8 = 4;

/// A square of the realm, 0-based; written `column-row` from `1-1` to `5-4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub col: u8,
    pub row: u8,
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.col + 1, self.row + 1)
    }
}

impl std::str::FromStr for Square {
    type Err = Unusable;

    fn from_str(s: &str) -> Result<Square, Unusable> {
        let bad = || format!("{s:?} is not a square; write column-row, from 1-1 to {COLS}-{ROWS}, or a site's name");
        let (c, r) = s.split_once('-').ok_or_else(bad)?;
        let (col, row) = (c.trim().parse::<u8>().map_err(|_| bad())?, r.trim().parse::<u8>().map_err(|_| bad())?);
        if !(1..=COLS).contains(&col) || !(1..=ROWS).contains(&row) {
            return Err(Unusable::from(format!("square {s} is off the map; columns 1 to {COLS}, rows 1 to {ROWS}")));
        }
        Ok(Square { col: col - 1, row: row - 1 })
    }
}

/// A location's region (B.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Region {
    Surface,
    Underground,
    Underwater,
    Void,
}

/// A location: a square of the 5×4 realm and a region of it (B.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub square: Square,
    pub region: Region,
}

/// A keyword or state the intercept and fight rules look at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Keyword {
    Stealth,
    Airborne,
    Ranged,
    Burrowing,
    Submerge,
    Voidwalk,
    Disabled,
    Silenced,
    Immobile,
    /// Carries a Lance: its strike against units deals +1 damage and strikes first (S-12).
    Lance,
    /// Card text makes it strike first in a fight (S-12).
    StrikesFirst,
    /// An Avatar: damage is life lost, and it cannot die in the fight (S-15).
    Avatar,
}

/// A condition under which a step of basic movement costs no step (Moves Freely, B.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freely {
    /// Between two locations of water sites (surface or underwater).
    Water,
    /// Between two void locations.
    Void,
    /// To the neighbouring square in the same row.
    Horizontally,
    /// To the neighbouring square in the same column.
    Vertically,
}

impl Freely {
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// How many squares a unit takes up: 1 by 1, or more for an oversized unit (S-17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub cols: u8,
    pub rows: u8,
}

impl Size {
    /// The size of every unit that is not oversized.
    pub const ONE: Size = Size { cols: 1, rows: 1 };
    /// The largest size the tool takes: 2 by 2, as the game's oversized minions (Mountain Giant).
    pub const MAX: Size = Size { cols: 2, rows: 2 };

    pub fn oversized(self) -> bool {
        self != Size::ONE
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

/// The most locations a unit covers: those of [`Size::MAX`].
const MAX_COVER: usize = (Size::MAX.cols * Size::MAX.rows) as usize;

/// The locations a unit occupies: one, or every part of an oversized unit (S-17). A fixed array, so that
/// no trial allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cover {
    parts: [Location; MAX_COVER],
    len: u8,
}

impl Cover {
    /// One location.
    pub fn one(at: Location) -> Cover {
        Cover { parts: [at; MAX_COVER], len: 1 }
    }

    /// These locations, at most [`MAX_COVER`] of them.
    pub fn of(parts: &[Location]) -> Cover {
        let mut cover = Cover::one(parts[0]);
        cover.parts[..parts.len()].copy_from_slice(parts);
        cover.len = parts.len() as u8;
        cover
    }

    pub fn locations(&self) -> &[Location] {
        &self.parts[..self.len as usize]
    }

    pub fn contains(&self, at: Location) -> bool {
        self.locations().contains(&at)
    }

    /// The locations both cover.
    pub fn shared<'a>(&'a self, other: &'a Cover) -> impl Iterator<Item = Location> + 'a {
        self.locations().iter().copied().filter(|l| other.contains(*l))
    }
}

/// A unit on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub name: String,
    /// Whether it belongs to the player whose unit moves.
    pub movers_side: bool,
    /// Where it stands: for an oversized unit, its part at the lowest column and row (S-17).
    pub at: Location,
    pub size: Size,
    /// Every location it occupies: `at` alone unless it is oversized (S-17).
    pub covers: Cover,
    pub keywords: Vec<Keyword>,
    /// Extra steps of Movement +X, all copies added up (B.2).
    pub extra_steps: u32,
    /// The Moves Freely conditions it has, one bit per [`Freely`] (B.2).
    pub freely: u8,
    pub tapped: bool,
    /// A minion that entered the realm during this (the mover's) turn (S-14).
    pub summoned_this_turn: bool,
    /// It has interacted with the realm (struck, dealt damage, cast a spell, used a special ability), so
    /// its Stealth is gone (S-8).
    pub interacted: bool,
    /// The damage its strike deals (S-11): its power, or its attack power if its power is split.
    pub power: u32,
    /// The damage that kills it (S-12): its power, or its defence power if split; an Avatar's life.
    pub life: u32,
}

impl Unit {
    /// A unit of power 0 at `at`, 1 by 1, with no keyword and untapped.
    pub fn new(name: &str, movers_side: bool, at: Location) -> Unit {
        Unit {
            name: name.to_owned(),
            movers_side,
            at,
            size: Size::ONE,
            covers: Cover::one(at),
            keywords: Vec::new(),
            extra_steps: 0,
            freely: 0,
            tapped: false,
            summoned_this_turn: false,
            interacted: false,
            power: 0,
            life: 0,
        }
    }

    pub fn has(&self, k: Keyword) -> bool {
        self.keywords.contains(&k)
    }

    /// Whether it moves freely under `way` (B.2).
    pub fn moves_freely(&self, way: Freely) -> bool {
        self.freely & way.bit() != 0
    }

    /// Gives it Moves Freely under `way`.
    pub fn add_freely(&mut self, way: Freely) {
        self.freely |= way.bit();
    }

    /// Whether it still has Stealth (S-8): a minion loses it once it interacts with the realm, and a
    /// Silenced one has lost its Stealth mark.
    pub fn stealthy(&self) -> bool {
        self.has(Keyword::Stealth) && !self.interacted && !self.has(Keyword::Silenced)
    }
}

/// How the mover got to its final location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Movement {
    /// Its own Move and Attack basic ability, with zero or more steps (S-1, S-3).
    MoveAndAttack,
    /// A teleport such as Blink (S-4).
    Teleport,
    /// Pushed, pulled or dragged by an effect (S-4).
    Forced,
    /// Carried by another unit (S-16).
    Carried,
}

/// What the moving unit did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub movement: Movement,
    /// Where its movement ended: only this location counts (S-5, S-6).
    pub end: Location,
    /// Every location it occupies there: `end` alone unless it is oversized (S-17).
    pub covers: Cover,
    pub attacked: bool,
}

impl Action {
    /// A unit that is not oversized moved by `movement` to `end`.
    pub fn new(movement: Movement, end: Location, attacked: bool) -> Action {
        Action { movement, end, covers: Cover::one(end), attacked }
    }
}

/// The rule that keeps a unit from intercepting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Barred {
    /// The mover did not use its own Move and Attack (S-1, S-4, S-16).
    NotMoveAndAttack,
    /// The mover attacked: Defend, not Intercept (S-2).
    Attacked,
    /// The mover still has Stealth (S-8).
    Stealth,
    /// The unit is on the mover's side (S-7).
    Friendly,
    /// The unit is not at the mover's final location, square and region (S-5, S-6), nor at any location
    /// an oversized mover covers there (S-17).
    NotThere,
    /// The unit is tapped (S-7).
    Tapped,
    /// The unit is Disabled and has no basic abilities (S-13).
    Disabled,
    /// The unit entered the realm this turn and cannot tap to pay a cost (S-14).
    SummonedThisTurn,
    /// The mover is Airborne on the surface and the unit has neither Airborne nor Ranged (S-9, S-10).
    AirborneMover,
}

impl Barred {
    /// The rule's ID.
    pub fn rule(self) -> &'static str {
        match self {
            Barred::NotMoveAndAttack => "S-4",
            Barred::Attacked => "S-2",
            Barred::Stealth => "S-8",
            Barred::Friendly | Barred::Tapped => "S-7",
            Barred::NotThere => "S-5",
            Barred::Disabled => "S-13",
            Barred::SummonedThisTurn => "S-14",
            Barred::AirborneMover => "S-9",
        }
    }
}

impl fmt::Display for Barred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self {
            Barred::NotMoveAndAttack => "the mover did not use its own Move and Attack",
            Barred::Attacked => "the mover attacked, so its enemies may defend instead",
            Barred::Stealth => "the mover has Stealth",
            Barred::Friendly => "it is on the mover's side",
            Barred::NotThere => "it is not at the mover's final location",
            Barred::Tapped => "it is tapped",
            Barred::Disabled => "it is Disabled and has no basic abilities",
            Barred::SummonedThisTurn => "it entered the realm this turn and cannot tap",
            Barred::AirborneMover => "the mover is Airborne and it has neither Airborne nor Ranged",
        };
        write!(f, "{why} ({})", self.rule())
    }
}

/// Whether `unit` may intercept `mover` after `action`; the first rule that rules it out if not. The
/// action's rules come first, since they rule out every unit at once.
pub fn may_intercept(action: &Action, mover: &Unit, unit: &Unit) -> Result<(), Barred> {
    action_allows(action, mover)?;
    let checks = [
        (unit.movers_side, Barred::Friendly),
        (action.covers.shared(&unit.covers).next().is_none(), Barred::NotThere),
        (unit.tapped, Barred::Tapped),
        (unit.has(Keyword::Disabled), Barred::Disabled),
        (unit.summoned_this_turn, Barred::SummonedThisTurn),
        (airborne_out_of_reach(action, mover, unit), Barred::AirborneMover),
    ];
    checks.into_iter().find_map(|(bars, why)| bars.then_some(why)).map_or(Ok(()), Err)
}

/// The rules that rule out every unit: how the mover moved, whether it attacked, Stealth.
pub fn action_allows(action: &Action, mover: &Unit) -> Result<(), Barred> {
    match action.movement {
        Movement::MoveAndAttack if action.attacked => Err(Barred::Attacked),
        Movement::MoveAndAttack if mover.stealthy() => Err(Barred::Stealth),
        Movement::MoveAndAttack => Ok(()),
        _ => Err(Barred::NotMoveAndAttack),
    }
}

/// S-9, S-10: Airborne protects the mover only on the surface, and not from Airborne or Ranged units. An
/// oversized mover is protected from a unit only if every location they share is a surface (S-17).
fn airborne_out_of_reach(action: &Action, mover: &Unit, unit: &Unit) -> bool {
    let on_surface = action.covers.shared(&unit.covers).all(|l| l.region == Region::Surface);
    let protected = mover.has(Keyword::Airborne) && on_surface;
    protected && !unit.has(Keyword::Airborne) && !unit.has(Keyword::Ranged)
}

/// Every unit of `units` that may intercept, in order: if several choose to, they fight the mover together
/// in one fight (S-11).
pub fn interceptors<'a>(action: &Action, mover: &Unit, units: &'a [Unit]) -> Vec<&'a Unit> {
    units.iter().filter(|u| may_intercept(action, mover, u).is_ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sites A, B, C, ... stand on row 1, from column 1.
    fn at(square: &str, region: Region) -> Location {
        Location { square: Square { col: square.as_bytes()[0] - b'A', row: 0 }, region }
    }

    fn unit(name: &str, movers_side: bool, square: &str, keywords: &[Keyword]) -> Unit {
        Unit { keywords: keywords.to_vec(), ..Unit::new(name, movers_side, at(square, Region::Surface)) }
    }

    fn moved_to(square: &str, attacked: bool) -> Action {
        Action::new(Movement::MoveAndAttack, at(square, Region::Surface), attacked)
    }

    fn place(u: &mut Unit, region: Region) {
        u.at.region = region;
        u.covers = Cover::one(u.at);
    }

    fn names<'a>(units: &[&'a Unit]) -> Vec<&'a str> {
        units.iter().map(|u| u.name.as_str()).collect()
    }

    /// SOR-S1 (Deterrent): the Troll at C may intercept; the queens at B may not; an attack means Defend.
    #[test]
    fn sor_s1_deterrent() {
        let wizard = unit("apprentice-wizard", true, "C", &[]);
        let board = [
            unit("bosk-troll", false, "C", &[]),
            unit("queen-of-midland", false, "B", &[]),
            unit("queen-guinevere", false, "B", &[]),
        ];
        assert_eq!(names(&interceptors(&moved_to("C", false), &wizard, &board)), ["bosk-troll"]);
        assert_eq!(may_intercept(&moved_to("C", false), &wizard, &board[1]), Err(Barred::NotThere));
        assert_eq!(may_intercept(&moved_to("C", true), &wizard, &board[0]), Err(Barred::Attacked));
    }

    /// SOR-S2, SOR-S3: only the final location counts, not the squares passed or the start (S-5, S-6).
    #[test]
    fn sor_s2_s3_only_the_final_location() {
        let nomads = unit("rimland-nomads", true, "A", &[]);
        let troll = unit("bosk-troll", false, "C", &[]);
        assert_eq!(may_intercept(&moved_to("A", false), &nomads, &troll), Err(Barred::NotThere));
    }

    /// SOR-S4: a teleport is not Move and Attack; SOR-D8: nor is being pushed (S-4).
    #[test]
    fn sor_s4_d8_only_move_and_attack() {
        let wizard = unit("apprentice-wizard", true, "C", &[]);
        let troll = unit("bosk-troll", false, "C", &[]);
        for movement in [Movement::Teleport, Movement::Forced, Movement::Carried] {
            let action = Action::new(movement, at("C", Region::Surface), false);
            assert_eq!(may_intercept(&action, &wizard, &troll), Err(Barred::NotMoveAndAttack));
        }
    }

    /// SOR-S5: tapping for Move and Attack without moving or attacking can be intercepted (S-3).
    #[test]
    fn sor_s5_without_moving() {
        let unicorn = unit("autumn-unicorn", true, "B", &[]);
        let warriors = unit("amazon-warriors", false, "B", &[]);
        assert_eq!(may_intercept(&moved_to("B", false), &unicorn, &warriors), Ok(()));
    }

    #[test]
    fn sor_d1_stealth_and_d5_tapped() {
        let sneak = unit("sneak", true, "C", &[Keyword::Stealth]);
        assert_eq!(may_intercept(&moved_to("C", false), &sneak, &unit("x", false, "C", &[])), Err(Barred::Stealth));
        let mover = unit("mover", true, "C", &[]);
        let (a, mut b) = (unit("a", false, "C", &[]), unit("b", false, "C", &[]));
        b.tapped = true;
        assert_eq!(names(&interceptors(&moved_to("C", false), &mover, &[a, b])), ["a"]);
    }

    /// SOR-D2, SOR-D3: Airborne is reached only by Airborne or Ranged, and only on the surface (S-9, S-10).
    #[test]
    fn sor_d2_d3_airborne() {
        let flyer = unit("flyer", true, "C", &[Keyword::Airborne]);
        let board = [
            unit("x", false, "C", &[]),
            unit("y", false, "C", &[Keyword::Airborne]),
            unit("z", false, "C", &[Keyword::Ranged]),
        ];
        assert_eq!(names(&interceptors(&moved_to("C", false), &flyer, &board)), ["y", "z"]);
        let diver = unit("diver", true, "C", &[Keyword::Airborne, Keyword::Submerge]);
        let mut w = unit("w", false, "C", &[Keyword::Submerge]);
        place(&mut w, Region::Underwater);
        let below = Action::new(Movement::MoveAndAttack, at("C", Region::Underwater), false);
        assert_eq!(may_intercept(&below, &diver, &w), Ok(()));
    }

    /// SOR-D4: the same square in another region is another location (S-5).
    #[test]
    fn sor_d4_another_region() {
        let mover = unit("mover", true, "C", &[]);
        let mut mole = unit("mole", false, "C", &[Keyword::Burrowing]);
        place(&mut mole, Region::Underground);
        assert_eq!(may_intercept(&moved_to("C", false), &mover, &mole), Err(Barred::NotThere));
    }

    /// SOR-D6: two units that may intercept both do, in one fight (S-11).
    #[test]
    fn sor_d6_one_fight() {
        let mover = unit("mover", true, "C", &[]);
        let board = [unit("a", false, "C", &[]), unit("b", false, "C", &[])];
        assert_eq!(names(&interceptors(&moved_to("C", false), &mover, &board)), ["a", "b"]);
    }

    /// SOR-D7: Disabled may not; Silenced and Immobile may (S-13). SOR-D9: summoned this turn may not (S-14).
    #[test]
    fn sor_d7_d9_unit_states() {
        let mover = unit("mover", true, "C", &[]);
        let action = moved_to("C", false);
        assert_eq!(may_intercept(&action, &mover, &unit("d", false, "C", &[Keyword::Disabled])), Err(Barred::Disabled));
        assert_eq!(may_intercept(&action, &mover, &unit("s", false, "C", &[Keyword::Silenced])), Ok(()));
        assert_eq!(may_intercept(&action, &mover, &unit("i", false, "C", &[Keyword::Immobile])), Ok(()));
        let mut fresh = unit("fresh", false, "C", &[]);
        fresh.summoned_this_turn = true;
        assert_eq!(may_intercept(&action, &mover, &fresh), Err(Barred::SummonedThisTurn));
    }

    /// S-8: Stealth is lost once the minion interacts with the realm, and a Silenced minion has lost its
    /// Stealth mark: either way it may be intercepted again.
    #[test]
    fn stealth_is_lost_by_interacting_or_silence() {
        let troll = unit("troll", false, "C", &[]);
        let mut sneak = unit("sneak", true, "C", &[Keyword::Stealth]);
        assert_eq!(may_intercept(&moved_to("C", false), &sneak, &troll), Err(Barred::Stealth));
        sneak.interacted = true;
        assert_eq!(may_intercept(&moved_to("C", false), &sneak, &troll), Ok(()));
        let hushed = unit("hushed", true, "C", &[Keyword::Stealth, Keyword::Silenced]);
        assert_eq!(may_intercept(&moved_to("C", false), &hushed, &troll), Ok(()));
    }

    /// S-17: an oversized mover is "there" at every location it covers; S-9 spares it only where every
    /// shared location is a surface.
    #[test]
    fn an_oversized_mover_is_at_every_location_it_covers() {
        let (c, d) = (at("C", Region::Surface), at("D", Region::Surface));
        let giant =
            Unit { size: Size { cols: 2, rows: 1 }, covers: Cover::of(&[c, d]), ..unit("giant", true, "C", &[]) };
        let action = Action { covers: giant.covers, ..moved_to("C", false) };
        assert_eq!(may_intercept(&action, &giant, &unit("at-d", false, "D", &[])), Ok(()));
        assert_eq!(may_intercept(&action, &giant, &unit("at-e", false, "E", &[])), Err(Barred::NotThere));
        let flyer = Unit { keywords: vec![Keyword::Airborne], ..giant.clone() };
        assert_eq!(may_intercept(&action, &flyer, &unit("at-d", false, "D", &[])), Err(Barred::AirborneMover));
    }
}
