//! The `[card_game]` config as written, and its validation into a [`CardGame`].
//!
//! [`CardGameConfig`] mirrors the TOML one to one (unknown keys are rejected by serde): the realm's sites
//! and square names, the mover and what it does, the movers after it in the same turn, the other units, and
//! the policy for the choices the config leaves open. Locations are written as a square (a site's name or
//! `column-row`), optionally followed by `/region`; keywords as on the cards (`Airborne`, `Ranged 2`,
//! `Movement +1`, `Lance`, `Moves Freely in water`), with the states `tapped`, `summoned this turn` and
//! `interacted` among them. Every unit has a `power` and a `life` for the fight, and may be oversized.

use super::rules::Unusable;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::fight::Split;
use super::policy::{Intercept, MAX_JUDGED_AT, Worth};
use super::realm::{COLS, ROWS, Realm, Site, Square};
use super::rules::{Freely, Keyword, Location, Movement, Region, Size, Unit};
use super::{CardGame, Choice, MoverSetup, PathPolicy, Setup};
use crate::config::{Invalid, KeyPath, check_name, in_range, probability};

/// The most Movement +X a unit may have: paths grow as eight to the power of the steps.
const MAX_EXTRA_STEPS: u32 = 5;
/// The most units besides the movers.
const MAX_UNITS: usize = 30;
/// The most movers after the first in one turn.
const MAX_LATER_MOVERS: usize = 4;
/// The highest power or life: above any card's, an Avatar's life of 20 included.
const MAX_POWER: u32 = 99;

/// `[card_game]`: the board, the moving unit and its action, the other units, and the policy.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardGameConfig {
    /// `[card_game.realm]`: the realm's 5 by 4 squares, each a land site, a water site or void, and names
    /// for squares (B.1).
    #[serde(default)]
    pub realm: RealmConfig,
    /// `[card_game.mover]`: the unit that moves first, and what it does: how it moves (S-1, S-4), its path
    /// (S-3) and whether it attacks (S-2); only where it ends counts (S-5, S-6).
    pub mover: MoverConfig,
    /// Units of the mover's side that use Move and Attack after it, in order, in the same turn; a unit that
    /// intercepted one of them stays tapped for the rest of the turn (S-19).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<MoverConfig>,
    /// `[[card_game.unit]]`: every other unit on the board, up to 30: the enemy units that may intercept
    /// (S-7) and the mover's allies.
    #[serde(default)]
    pub unit: Vec<UnitConfig>,
    /// `[card_game.policy]`: how the choices the config leaves open are made: the path, the attack, who
    /// intercepts (S-A5), how the mover splits its strike (S-A7) and what a fight is worth (S-A8).
    #[serde(default)]
    pub policy: PolicyConfig,
}

/// `[card_game.realm]`: what stands on each square, and names for squares.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RealmConfig {
    /// Four rows of five squares, row 1 first: `L` a land site, `W` a water site, `.` void (no site).
    #[serde(default = "all_land")]
    pub rows: Vec<String>,
    /// Names for squares, such as `C = "2-1"`; units and paths may use them.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
}

impl Default for RealmConfig {
    fn default() -> Self {
        RealmConfig { rows: all_land(), names: BTreeMap::new() }
    }
}

fn all_land() -> Vec<String> {
    vec!["LLLLL".to_owned(); ROWS as usize]
}

/// `[card_game.mover]` (and each `[[card_game.then]]`): the unit that moves and what it does.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoverConfig {
    /// Names the mover in answers and metrics (a later mover's `card_game.mover.<name>.…`); letters, digits,
    /// '-', '_' or '.', each unit its own name.
    pub name: String,
    /// Where it starts: a square (a name from `realm.names`, or `column-row`), optionally followed by
    /// `/underground`, `/underwater` or `/void` (B.1); for an oversized unit, its part at the lowest column
    /// and row (S-17).
    pub at: String,
    /// Its keywords and states as on the cards, such as `Stealth`, `Airborne`, `Movement +1`, `Moves Freely
    /// in water`, `Lance`, `Avatar` or `interacted`: they set the steps it may take (B.2) and who may
    /// intercept it (S-8, S-9).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// The damage its strike deals (S-11): the card's power, or its attack power if split. Default 0, so a
    /// config that gives no powers has fights in which nobody is hurt.
    #[serde(default)]
    pub power: u32,
    /// The damage that kills it (S-12): left out, its power (a minion dies when its damage reaches its
    /// power); the defence power of a split-power card; an Avatar's life.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub life: Option<u32>,
    /// `"2x2"` (columns x rows) for an oversized unit, such as Mountain Giant; left out, 1 by 1 (S-17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// How it moves: its own Move and Attack (S-1), or a teleport, forced movement or being carried (S-4).
    #[serde(default = "move_and_attack")]
    pub movement: Movement,
    /// The locations it enters, in order (not its start); `[]` for no step (S-3). Left out, the policy
    /// picks a path among the legal ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<String>>,
    /// Whether it attacks after moving (S-2). Left out, the policy decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<bool>,
}

fn move_and_attack() -> Movement {
    Movement::MoveAndAttack
}

/// Whose unit it is, seen from the mover.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The opponent's: the units that may intercept.
    #[default]
    Enemy,
    /// The mover's own side.
    Ally,
}

/// `[[card_game.unit]]`: a unit on the board other than the movers.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitConfig {
    /// Names the unit in answers and, for an enemy, its metrics (`card_game.unit.<name>.…`); letters,
    /// digits, '-', '_' or '.', each unit its own name.
    pub name: String,
    /// `enemy`: the mover's opponent's, which may intercept (S-7); `ally`: the mover's own side's.
    #[serde(default)]
    pub side: Side,
    /// Where it stands: a square (a name from `realm.names`, or `column-row`), optionally followed by
    /// `/underground`, `/underwater` or `/void` (B.1); for an oversized unit, its part at the lowest column
    /// and row (S-17).
    pub at: String,
    /// Its keywords and states as on the cards, such as `Airborne`, `Ranged 2`, `Lance`, `strikes first`,
    /// `Avatar`, `Disabled`, `tapped` or `summoned this turn`: they decide whether it may intercept (S-7,
    /// S-9, S-13, S-14) and how it fights (S-12, S-15).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// The damage its strike deals (S-11): the card's power, or its attack power if split. Default 0, so a
    /// config that gives no powers has fights in which nobody is hurt.
    #[serde(default)]
    pub power: u32,
    /// The damage that kills it (S-12): left out, its power (a minion dies when its damage reaches its
    /// power); the defence power of a split-power card; an Avatar's life.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub life: Option<u32>,
    /// `"2x2"` (columns x rows) for an oversized unit, such as Mountain Giant; left out, 1 by 1 (S-17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// How it decides to intercept when it may: a chance, `"always"` or `"not_negative"`; left out, the
    /// policy's `intercept`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intercepts: Option<Intercept>,
}

/// What a fight needs of a unit, and its size, as written: the keys every unit has besides its name, place
/// and keywords.
#[derive(Clone, Copy, Debug)]
struct Body<'a> {
    power: u32,
    life: Option<u32>,
    size: Option<&'a str>,
}

/// `[card_game.policy]`: how the choices the config leaves open are made.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicyConfig {
    /// How an open path is picked: `each_path` (every legal declared path equally likely) or `each_end`
    /// (every reachable final location equally likely).
    #[serde(default)]
    pub path: PathPolicy,
    /// The chance that the mover attacks, when `attack` is left out.
    #[serde(default = "half")]
    pub attack: f64,
    /// How a unit which may intercept decides (S-7, S-A5): `"not_negative"` (its side sends the group of
    /// them whose fight is best for it, if that fight is not negative), `"always"`, or a chance that each
    /// intercepts for itself (1 means every one does).
    #[serde(default)]
    pub intercept: Intercept,
    /// How the mover's controller splits its strike among the interceptors (S-11): `most_kills` or
    /// `strongest_first`.
    #[serde(default)]
    pub split: Split,
    /// How `not_negative` weighs a fight: `units` (each unit killed or lost counts one) or `power`.
    #[serde(default)]
    pub worth: Worth,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        PolicyConfig {
            path: PathPolicy::default(),
            attack: half(),
            intercept: Intercept::default(),
            split: Split::default(),
            worth: Worth::default(),
        }
    }
}

fn half() -> f64 {
    0.5
}

fn base() -> KeyPath {
    KeyPath::root().key("card_game")
}

impl CardGameConfig {
    /// Checks every value and builds the model.
    pub fn resolve(&self) -> Result<CardGame, Invalid> {
        let realm = self.realm.resolve()?;
        let policy = &self.policy;
        probability(policy.attack, || base().key("policy").key("attack"))?;
        if let Some(p) = policy.intercept.chance() {
            probability(p, || base().key("policy").key("intercept"))?;
        }
        if self.then.len() > MAX_LATER_MOVERS {
            let msg = format!("{} movers after the first; allowed: up to {MAX_LATER_MOVERS}", self.then.len());
            return Err(Invalid::new(base().key("then"), msg));
        }
        let mut movers = vec![self.mover.setup(&realm, policy, || base().key("mover"))?];
        for (i, m) in self.then.iter().enumerate() {
            movers.push(m.setup(&realm, policy, || base().key("then").index(i))?);
        }
        self.distinct_movers()?;
        let units = self.units(&realm)?;
        let intercept = self.unit.iter().map(|u| u.intercepts.unwrap_or(policy.intercept)).collect();
        let setup = Setup { realm, movers, units, intercept, split: policy.split, worth: policy.worth };
        CardGame::new(setup).map_err(|c| {
            let msg = format!(
                "{} units may intercept {} at {}, and \"not_negative\" weighs every group of them; allowed: up to \
                 {MAX_JUDGED_AT} at one location, or give them a chance",
                c.units,
                self.mover_named(c.mover),
                c.at
            );
            Invalid::new(base().key("policy").key("intercept"), msg)
        })
    }

    fn mover_named(&self, j: usize) -> &str {
        if j == 0 { &self.mover.name } else { &self.then[j - 1].name }
    }

    /// Every mover is a unit of its own: each uses its Move and Attack once, since it taps (B.2).
    fn distinct_movers(&self) -> Result<(), Invalid> {
        for (i, m) in self.then.iter().enumerate() {
            let before = std::iter::once(&self.mover).chain(&self.then[..i]);
            if let Some(same) = before.into_iter().find(|b| b.name == m.name) {
                let msg = format!(
                    "{:?} already moves this turn from {}; Move and Attack taps a unit, so each mover is another unit",
                    m.name, same.at
                );
                return Err(Invalid::new(base().key("then").index(i).key("name"), msg));
            }
        }
        Ok(())
    }

    /// The other units, each in one place.
    fn units(&self, realm: &Realm) -> Result<Vec<Unit>, Invalid> {
        if self.unit.len() > MAX_UNITS {
            let msg = format!("{} units; allowed: up to {MAX_UNITS}", self.unit.len());
            return Err(Invalid::new(base().key("unit"), msg));
        }
        let mut units: Vec<Unit> = Vec::new();
        for (i, c) in self.unit.iter().enumerate() {
            let path = || base().key("unit").index(i);
            let unit = c.resolve(realm, path)?;
            let movers = std::iter::once(&self.mover).chain(&self.then).map(|m| (&m.name, &m.at));
            let placed = movers.chain(self.unit[..i].iter().map(|u| (&u.name, &u.at)));
            if let Some((_, there)) = placed.into_iter().find(|(n, _)| **n == unit.name) {
                let msg = format!(
                    "{:?} is already at {there}; a unit is in one place, so give each copy its own name",
                    unit.name
                );
                return Err(Invalid::new(path().key("name"), msg));
            }
            if let Some(p) = c.intercepts.and_then(|i| i.chance()) {
                probability(p, || path().key("intercepts"))?;
            }
            units.push(unit);
        }
        Ok(units)
    }
}

impl RealmConfig {
    fn resolve(&self) -> Result<Realm, Invalid> {
        let path = || base().key("realm").key("rows");
        if self.rows.len() != ROWS as usize {
            return Err(Invalid::new(
                path(),
                format!("{} rows; the realm has {ROWS} rows of {COLS} squares", self.rows.len()),
            ));
        }
        let mut sites = [[Site::Land; COLS as usize]; ROWS as usize];
        for (r, text) in self.rows.iter().enumerate() {
            let row: Vec<Site> =
                text.chars().filter(|c| !c.is_whitespace()).map(site).collect::<Option<_>>().ok_or_else(|| {
                    Invalid::new(
                        path().index(r),
                        format!("{text:?} holds a letter other than L (land), W (water) or . (void)"),
                    )
                })?;
            if row.len() != COLS as usize {
                return Err(Invalid::new(
                    path().index(r),
                    format!("{text:?} has {} squares; a row has {COLS}", row.len()),
                ));
            }
            sites[r].copy_from_slice(&row);
        }
        let names = self.names.iter().map(|(name, at)| {
            let key = || base().key("realm").key("names").key(name);
            check_name(name, key)?;
            Ok((name.clone(), at.parse::<Square>().map_err(|m| Invalid::new(key(), m.0))?))
        });
        Ok(Realm::new(sites, names.collect::<Result<_, Invalid>>()?))
    }
}

fn site(c: char) -> Option<Site> {
    match c.to_ascii_uppercase() {
        'L' => Some(Site::Land),
        'W' => Some(Site::Water),
        '.' => Some(Site::Void),
        _ => None,
    }
}

impl MoverConfig {
    /// The mover, its final locations and its attack, every value checked.
    fn setup(&self, realm: &Realm, policy: &PolicyConfig, path: impl Fn() -> KeyPath) -> Result<MoverSetup, Invalid> {
        let unit = self.unit(realm, &path)?;
        let ends = self.ends(realm, &unit, policy.path, &path)?;
        let attack = match (self.attack, self.movement) {
            (Some(true), m) if m != Movement::MoveAndAttack => {
                let msg = "only Move and Attack ends in an attack (B.2); a teleport, forced or carried move does not";
                return Err(Invalid::new(path().key("attack"), msg.to_owned()));
            }
            (_, m) if m != Movement::MoveAndAttack => Choice::Fixed(false),
            (Some(fixed), _) => Choice::Fixed(fixed),
            (None, _) => Choice::Chance(policy.attack),
        };
        Ok(MoverSetup { unit, movement: self.movement, ends, attack })
    }

    fn unit(&self, realm: &Realm, path: &impl Fn() -> KeyPath) -> Result<Unit, Invalid> {
        let body = Body { power: self.power, life: self.life, size: self.size.as_deref() };
        let unit = resolve_unit(&self.name, &self.at, &self.keywords, body, false, realm, path)?;
        if self.movement != Movement::MoveAndAttack {
            return Ok(unit);
        }
        // Move and Attack taps the unit (B.2), and a Disabled unit has no basic abilities (S-13).
        let unable = [
            (unit.tapped, "is tapped, and Move and Attack taps it (B.2)"),
            (unit.summoned_this_turn, "entered the realm this turn and cannot tap (S-14)"),
            (unit.has(Keyword::Disabled), "is Disabled and has no Move and Attack (S-13)"),
        ];
        match unable.into_iter().find(|(bars, _)| *bars) {
            Some((_, why)) => Err(Invalid::new(path().key("keywords"), format!("the mover {why}"))),
            None => Ok(unit),
        }
    }

    /// The final locations the mover may reach, each with its weight under the policy.
    fn ends(
        &self,
        realm: &Realm,
        mover: &Unit,
        policy: PathPolicy,
        path: &impl Fn() -> KeyPath,
    ) -> Result<Vec<(Location, u64)>, Invalid> {
        let Some(declared) = &self.path else {
            if self.movement != Movement::MoveAndAttack {
                let msg = "a teleport, forced or carried move needs its path: where the unit went".to_owned();
                return Err(Invalid::new(path().key("movement"), msg));
            }
            let steps = 1 + mover.extra_steps;
            return match (policy, realm.paths(mover, steps)) {
                (PathPolicy::EachPath, Ok(ends)) => Ok(ends),
                (PathPolicy::EachEnd, Ok(ends)) => Ok(ends.into_iter().map(|(l, _)| (l, 1)).collect()),
                // Too many paths to count (Moves Freely): where it can end is still known.
                (PathPolicy::EachEnd, Err(_)) => Ok(realm.reach(mover, steps).into_iter().map(|l| (l, 1)).collect()),
                (PathPolicy::EachPath, Err(why)) => {
                    let msg = format!("{why}; pick final locations with each_end, or declare the mover's path");
                    Err(Invalid::new(base().key("policy").key("path"), msg))
                }
            };
        };
        Ok(vec![(self.declared_end(realm, mover, declared, path)?, 1)])
    }

    /// Where a declared path ends, every step checked when the mover uses its own Move and Attack (B.2).
    fn declared_end(
        &self,
        realm: &Realm,
        mover: &Unit,
        declared: &[String],
        path: &impl Fn() -> KeyPath,
    ) -> Result<Location, Invalid> {
        let key = |i: usize| path().key("path").index(i);
        let free = self.movement != Movement::MoveAndAttack;
        let too_many = |steps: String| {
            let msg =
                format!("{steps}; {} may take up to {} (one, plus Movement +X)", mover.name, 1 + mover.extra_steps);
            Err(Invalid::new(path().key("path"), msg))
        };
        // Without Moves Freely every step costs one: a path too long is refused before its steps are checked.
        if !free && mover.freely == 0 && declared.len() as u32 > 1 + mover.extra_steps {
            return too_many(format!("{} steps", declared.len()));
        }
        let (mut at, mut taken, mut cost) = (mover.at, Vec::new(), 0);
        for (i, text) in declared.iter().enumerate() {
            let to = realm.location(text).map_err(|m| Invalid::new(key(i), m.0))?;
            if !free {
                realm
                    .step(mover, at, to)
                    .map_err(|m| Invalid::new(key(i), format!("{} -> {}: {m}", realm.label(at), text)))?;
                if taken.contains(&(at, to)) {
                    let msg = format!(
                        "the step {} -> {text} is taken twice; a path may not repeat a step (B.2)",
                        realm.label(at)
                    );
                    return Err(Invalid::new(key(i), msg));
                }
                cost += realm.step_cost(mover, at, to);
            }
            taken.push((at, to));
            at = to;
        }
        if cost > 1 + mover.extra_steps {
            return too_many(format!("{cost} steps that cost one (Moves Freely makes the others free)"));
        }
        if free && realm.cover(at, mover.size).is_none() {
            return Err(Invalid::new(path().key("path"), format!("{} does not fit there (S-17)", mover.name)));
        }
        Ok(at)
    }
}

impl UnitConfig {
    fn resolve(&self, realm: &Realm, path: impl Fn() -> KeyPath) -> Result<Unit, Invalid> {
        let body = Body { power: self.power, life: self.life, size: self.size.as_deref() };
        resolve_unit(&self.name, &self.at, &self.keywords, body, self.side == Side::Ally, realm, &path)
    }
}

/// A unit from its name, location, keywords, power and size; it must be able to stand where it is.
fn resolve_unit(
    name: &str,
    at: &str,
    keywords: &[String],
    body: Body,
    movers_side: bool,
    realm: &Realm,
    path: &impl Fn() -> KeyPath,
) -> Result<Unit, Invalid> {
    check_name(name, || path().key("name"))?;
    let at = realm.location(at).map_err(|m| Invalid::new(path().key("at"), m.0))?;
    let mut unit = Unit::new(name, movers_side, at);
    for (i, text) in keywords.iter().enumerate() {
        let trait_ = text.parse::<Trait>().map_err(|m| Invalid::new(path().key("keywords").index(i), m.0))?;
        trait_.apply(&mut unit);
    }
    if unit.extra_steps > MAX_EXTRA_STEPS {
        let msg = format!("Movement +{} in all; allowed: up to +{MAX_EXTRA_STEPS}", unit.extra_steps);
        return Err(Invalid::new(path().key("keywords"), msg));
    }
    body.apply(&mut unit, realm, path)?;
    avatar_rules(&unit, path)?;
    for part in unit.covers.locations() {
        let needs = match part.region {
            Region::Underground => Some(Keyword::Burrowing),
            Region::Underwater => Some(Keyword::Submerge),
            Region::Void => Some(Keyword::Voidwalk),
            Region::Surface => None,
        };
        if let Some(k) = needs.filter(|k| !unit.has(*k)) {
            return Err(Invalid::new(path().key("at"), format!("a unit {} needs {k:?} to be there", part.region)));
        }
    }
    Ok(unit)
}

impl Body<'_> {
    /// Gives `unit` its power, life and size, each checked.
    fn apply(&self, unit: &mut Unit, realm: &Realm, path: &impl Fn() -> KeyPath) -> Result<(), Invalid> {
        in_range(i64::from(self.power), 0, i64::from(MAX_POWER), || path().key("power"))?;
        let life = self.life.unwrap_or(self.power);
        in_range(i64::from(life), 0, i64::from(MAX_POWER), || path().key("life"))?;
        (unit.power, unit.life) = (self.power, life);
        if let Some(text) = self.size {
            unit.size = parse_size(text).map_err(|m| Invalid::new(path().key("size"), m.0))?;
        }
        unit.covers = realm.cover(unit.at, unit.size).ok_or_else(|| {
            let msg = format!("a {} unit there would have a part off the map, or in the void below ground", unit.size);
            Invalid::new(path().key("at"), msg)
        })?;
        Ok(())
    }
}

/// `"CxR"`: columns and rows, each 1 or 2 (S-17).
fn parse_size(text: &str) -> Result<Size, Unusable> {
    let bad = || format!("{text:?} is not a size; write columns x rows, such as \"2x2\", each 1 or 2");
    let (c, r) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (cols, rows) = (c.trim().parse::<u8>().map_err(|_| bad())?, r.trim().parse::<u8>().map_err(|_| bad())?);
    let fits = (1..=Size::MAX.cols).contains(&cols) && (1..=Size::MAX.rows).contains(&rows);
    if fits { Ok(Size { cols, rows }) } else { Err(Unusable(bad())) }
}

/// What an Avatar may not be (S-8, S-15, B.1): Stealthy, Disabled or Silenced, or anywhere but the surface.
fn avatar_rules(unit: &Unit, path: &impl Fn() -> KeyPath) -> Result<(), Invalid> {
    if !unit.has(Keyword::Avatar) {
        return Ok(());
    }
    let bars = [
        (unit.has(Keyword::Stealth), "only minions have Stealth (S-8)"),
        (unit.has(Keyword::Disabled) || unit.has(Keyword::Silenced), "an Avatar cannot be Disabled or Silenced"),
    ];
    if let Some((_, why)) = bars.into_iter().find(|(bars, _)| *bars) {
        return Err(Invalid::new(path().key("keywords"), format!("{} is an Avatar: {why}", unit.name)));
    }
    if unit.covers.locations().iter().any(|l| l.region != Region::Surface) {
        let msg = format!("{} is an Avatar, and Avatars only stand on the surface (B.1)", unit.name);
        return Err(Invalid::new(path().key("at"), msg));
    }
    Ok(())
}

/// A keyword or a state, as written in `keywords`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trait {
    Keyword(Keyword),
    MovementPlus(u32),
    MovesFreely(Freely),
    Tapped,
    SummonedThisTurn,
    Interacted,
}

impl Trait {
    fn apply(self, unit: &mut Unit) {
        match self {
            Trait::Keyword(k) if !unit.has(k) => unit.keywords.push(k),
            Trait::Keyword(_) => {}
            Trait::MovementPlus(x) => unit.extra_steps += x,
            Trait::MovesFreely(way) => unit.add_freely(way),
            Trait::Tapped => unit.tapped = true,
            Trait::SummonedThisTurn => unit.summoned_this_turn = true,
            Trait::Interacted => unit.interacted = true,
        }
    }
}

const KEYWORDS: &str = "Stealth, Airborne, Ranged, Ranged X, Movement +X, Moves Freely in water (or void, \
                        horizontally, vertically), Burrowing, Submerge, Voidwalk, Disabled, Silenced, Immobile, \
                        Lance, strikes first, Avatar, tapped, summoned this turn, interacted";

impl std::str::FromStr for Trait {
    type Err = Unusable;

    fn from_str(s: &str) -> Result<Trait, Unusable> {
        let words: Vec<String> = s.split([' ', '_']).filter(|w| !w.is_empty()).map(str::to_ascii_lowercase).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let keyword = |k| Ok(Trait::Keyword(k));
        let unknown = || format!("{s:?} is not a keyword this tool knows; allowed: {KEYWORDS}");
        match words.as_slice() {
            ["stealth"] => keyword(Keyword::Stealth),
            ["airborne"] => keyword(Keyword::Airborne),
            ["ranged"] => keyword(Keyword::Ranged),
            ["ranged", x] if x.parse::<u32>().is_ok() => keyword(Keyword::Ranged),
            ["burrowing"] => keyword(Keyword::Burrowing),
            ["submerge"] => keyword(Keyword::Submerge),
            ["voidwalk"] => keyword(Keyword::Voidwalk),
            ["disabled"] => keyword(Keyword::Disabled),
            ["silenced"] => keyword(Keyword::Silenced),
            ["immobile"] => keyword(Keyword::Immobile),
            ["lance"] => keyword(Keyword::Lance),
            ["strikes", "first"] => keyword(Keyword::StrikesFirst),
            ["avatar"] => keyword(Keyword::Avatar),
            ["moves", "freely", rest @ ..] => {
                moves_freely(rest).map(Trait::MovesFreely).ok_or_else(|| Unusable(unknown()))
            }
            ["tapped"] => Ok(Trait::Tapped),
            ["summoned", "this", "turn"] => Ok(Trait::SummonedThisTurn),
            ["interacted"] => Ok(Trait::Interacted),
            ["movement", x] => x
                .strip_prefix('+')
                .and_then(|n| n.parse().ok())
                .map(Trait::MovementPlus)
                .ok_or_else(|| Unusable(unknown())),
            ["movement", "+", x] => x.parse().map(Trait::MovementPlus).map_err(|_| Unusable(unknown())),
            _ => Err(Unusable(unknown())),
        }
    }
}

/// The condition of `Moves Freely ...` from the words after it: one of water, void, horizontally,
/// vertically, with any words around it ("in water", "between water locations").
fn moves_freely(words: &[&str]) -> Option<Freely> {
    let way = |w: &&str| match *w {
        "water" => Some(Freely::Water),
        "void" => Some(Freely::Void),
        "horizontally" => Some(Freely::Horizontally),
        "vertically" => Some(Freely::Vertically),
        _ => None,
    };
    let mut ways = words.iter().filter_map(way);
    let first = ways.next()?;
    ways.next().is_none().then_some(first)
}
