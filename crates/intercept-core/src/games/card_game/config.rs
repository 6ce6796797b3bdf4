//! The `[card_game]` config as written, and its validation into a [`CardGame`].
//!
//! [`CardGameConfig`] mirrors the TOML one to one (unknown keys are rejected by serde): the realm's sites
//! and square names, the mover and what it does, the other units, and the policy for the choices the
//! config leaves open. Locations are written as a square (a site's name or `column-row`), optionally
//! followed by `/region`; keywords as on the cards (`Airborne`, `Ranged 2`, `Movement +1`), with the states
//! `tapped` and `summoned this turn` among them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::realm::{COLS, ROWS, Realm, Site, Square};
use super::rules::{Keyword, Location, Movement, Region, Unit};
use super::{CardGame, Choice, PathPolicy};
use crate::config::{Invalid, KeyPath, check_name, probability};

/// The most Movement +X a unit may have: paths grow as eight to the power of the steps.
const MAX_EXTRA_STEPS: u32 = 5;
/// The most units besides the mover.
const MAX_UNITS: usize = 30;

/// `[card_game]`: the board, the moving unit and its action, the other units, and the policy.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardGameConfig {
    #[serde(default)]
    pub realm: RealmConfig,
    pub mover: MoverConfig,
    #[serde(default)]
    pub unit: Vec<UnitConfig>,
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

/// `[card_game.mover]`: the unit that moves and what it does.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoverConfig {
    pub name: String,
    pub at: String,
    #[serde(default)]
    pub keywords: Vec<String>,
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

/// `[[card_game.unit]]`: a unit on the board other than the mover.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitConfig {
    pub name: String,
    #[serde(default)]
    pub side: Side,
    pub at: String,
    #[serde(default)]
    pub keywords: Vec<String>,
    /// The chance that it intercepts when it may; left out, the policy's `intercept`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intercepts: Option<f64>,
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
    /// The chance that a unit which may intercept does (S-7, S-A5): 1 means every one does.
    #[serde(default = "one")]
    pub intercept: f64,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        PolicyConfig { path: PathPolicy::default(), attack: half(), intercept: one() }
    }
}

fn half() -> f64 {
    0.5
}
fn one() -> f64 {
    1.0
}

fn base() -> KeyPath {
    KeyPath::root().key("card_game")
}

impl CardGameConfig {
    /// Checks every value and builds the model.
    pub fn resolve(&self) -> Result<CardGame, Invalid> {
        let realm = self.realm.resolve()?;
        let mover = self.mover.unit(&realm)?;
        let units = self.units(&realm)?;
        let policy = &self.policy;
        probability(policy.attack, || base().key("policy").key("attack"))?;
        probability(policy.intercept, || base().key("policy").key("intercept"))?;
        let ends = self.mover.ends(&realm, &mover, policy.path)?;
        let attack = match (self.mover.attack, self.mover.movement) {
            (Some(true), m) if m != Movement::MoveAndAttack => {
                let msg = "only Move and Attack ends in an attack (B.2); a teleport, forced or carried move does not";
                return Err(Invalid::new(base().key("mover").key("attack"), msg.to_owned()));
            }
            (_, m) if m != Movement::MoveAndAttack => Choice::Fixed(false),
            (Some(fixed), _) => Choice::Fixed(fixed),
            (None, _) => Choice::Chance(policy.attack),
        };
        let chances = self.unit.iter().map(|u| u.intercepts.unwrap_or(policy.intercept)).collect();
        Ok(CardGame::new(realm, mover, self.mover.movement, units, ends, attack, chances))
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
            let mover = std::iter::once((&self.mover.name, &self.mover.at));
            let placed = mover.chain(self.unit[..i].iter().map(|u| (&u.name, &u.at)));
            if let Some((_, there)) = placed.into_iter().find(|(n, _)| **n == unit.name) {
                let msg = format!(
                    "{:?} is already at {there}; a unit is in one place, so give each copy its own name",
                    unit.name
                );
                return Err(Invalid::new(path().key("name"), msg));
            }
            if let Some(p) = c.intercepts {
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
            Ok((name.clone(), at.parse::<Square>().map_err(|m| Invalid::new(key(), m))?))
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
    fn unit(&self, realm: &Realm) -> Result<Unit, Invalid> {
        let path = || base().key("mover");
        let unit = resolve_unit(&self.name, &self.at, &self.keywords, false, realm, path)?;
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
    fn ends(&self, realm: &Realm, mover: &Unit, policy: PathPolicy) -> Result<Vec<(Location, u64)>, Invalid> {
        let Some(path) = &self.path else {
            if self.movement != Movement::MoveAndAttack {
                let msg = "a teleport, forced or carried move needs its path: where the unit went".to_owned();
                return Err(Invalid::new(base().key("mover").key("movement"), msg));
            }
            let ends = realm.paths(mover, 1 + mover.extra_steps);
            return Ok(match policy {
                PathPolicy::EachPath => ends,
                PathPolicy::EachEnd => ends.into_iter().map(|(l, _)| (l, 1)).collect(),
            });
        };
        Ok(vec![(self.declared_end(realm, mover, path)?, 1)])
    }

    /// Where a declared path ends, every step checked when the mover uses its own Move and Attack (B.2).
    fn declared_end(&self, realm: &Realm, mover: &Unit, path: &[String]) -> Result<Location, Invalid> {
        let key = |i: usize| base().key("mover").key("path").index(i);
        let free = self.movement != Movement::MoveAndAttack;
        if !free && path.len() as u32 > 1 + mover.extra_steps {
            let msg = format!(
                "{} steps; {} may take up to {} (one, plus Movement +X)",
                path.len(),
                mover.name,
                1 + mover.extra_steps
            );
            return Err(Invalid::new(base().key("mover").key("path"), msg));
        }
        let mut at = mover.at;
        let mut taken = Vec::new();
        for (i, text) in path.iter().enumerate() {
            let to = realm.location(text).map_err(|m| Invalid::new(key(i), m))?;
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
            }
            taken.push((at, to));
            at = to;
        }
        Ok(at)
    }
}

impl UnitConfig {
    fn resolve(&self, realm: &Realm, path: impl Fn() -> KeyPath) -> Result<Unit, Invalid> {
        resolve_unit(&self.name, &self.at, &self.keywords, self.side == Side::Ally, realm, path)
    }
}

/// A unit from its name, location and keywords; it must be able to stand where it is.
fn resolve_unit(
    name: &str,
    at: &str,
    keywords: &[String],
    movers_side: bool,
    realm: &Realm,
    path: impl Fn() -> KeyPath,
) -> Result<Unit, Invalid> {
    check_name(name, || path().key("name"))?;
    let at = realm.location(at).map_err(|m| Invalid::new(path().key("at"), m))?;
    let mut unit = Unit {
        name: name.to_owned(),
        movers_side,
        at,
        keywords: Vec::new(),
        extra_steps: 0,
        tapped: false,
        summoned_this_turn: false,
    };
    for (i, text) in keywords.iter().enumerate() {
        let trait_ = text.parse::<Trait>().map_err(|m| Invalid::new(path().key("keywords").index(i), m))?;
        trait_.apply(&mut unit);
    }
    if unit.extra_steps > MAX_EXTRA_STEPS {
        let msg = format!("Movement +{} in all; allowed: up to +{MAX_EXTRA_STEPS}", unit.extra_steps);
        return Err(Invalid::new(path().key("keywords"), msg));
    }
    let needs = match at.region {
        Region::Underground => Some(Keyword::Burrowing),
        Region::Underwater => Some(Keyword::Submerge),
        Region::Void => Some(Keyword::Voidwalk),
        Region::Surface => None,
    };
    match needs.filter(|k| !unit.has(*k)) {
        Some(k) => Err(Invalid::new(path().key("at"), format!("a unit {} needs {k:?} to be there", at.region))),
        None => Ok(unit),
    }
}

/// A keyword or a state, as written in `keywords`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trait {
    Keyword(Keyword),
    MovementPlus(u32),
    Tapped,
    SummonedThisTurn,
}

impl Trait {
    fn apply(self, unit: &mut Unit) {
        match self {
            Trait::Keyword(k) if !unit.has(k) => unit.keywords.push(k),
            Trait::Keyword(_) => {}
            Trait::MovementPlus(x) => unit.extra_steps += x,
            Trait::Tapped => unit.tapped = true,
            Trait::SummonedThisTurn => unit.summoned_this_turn = true,
        }
    }
}

const KEYWORDS: &str = "Stealth, Airborne, Ranged, Ranged X, Movement +X, Burrowing, Submerge, Voidwalk, \
                        Disabled, Silenced, Immobile, tapped, summoned this turn";

impl std::str::FromStr for Trait {
    type Err = String;

    fn from_str(s: &str) -> Result<Trait, String> {
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
            ["tapped"] => Ok(Trait::Tapped),
            ["summoned", "this", "turn"] => Ok(Trait::SummonedThisTurn),
            ["movement", x] => {
                x.strip_prefix('+').and_then(|n| n.parse().ok()).map(Trait::MovementPlus).ok_or_else(unknown)
            }
            ["movement", "+", x] => x.parse().map(Trait::MovementPlus).map_err(|_| unknown()),
            _ => Err(unknown()),
        }
    }
}
