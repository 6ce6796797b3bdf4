//! The `[cavalry]` config as written, with its published defaults, and its validation into a [`Cavalry`].
//!
//! [`CavalryConfig`] mirrors the TOML one to one (unknown keys are rejected by serde); every optional key has
//! its default filled in by serde, so the parsed value is also the "resolved config" written to the manifest.
//! [`CavalryConfig::resolve`] checks ranges and names and builds the model, reporting problems as
//! [`Invalid`] with the key path so the caller can point at the line.

use serde::{Deserialize, Serialize};

use super::{Cavalry, Facing, Formation, Order, TargetKind};
use crate::config::{Invalid, KeyPath, in_range};

/// `[cavalry]`: one or more cavalry units trying to intercept one moving enemy unit.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CavalryConfig {
    /// Sign of the leader rating in a morale check (C-9.3, A-2).
    #[serde(default)]
    pub leader_sign: LeaderSign,
    /// Which eligible units roll (C-3.2).
    #[serde(default)]
    pub attempts: Attempts,
    /// Farthest the moving enemy may be, in hexes (C-1.3).
    #[serde(default = "default_max_distance")]
    pub max_distance: i64,
    /// `[cavalry.table]`: the interception table, the highest d10 roll (0-9) that succeeds for each order of
    /// the interceptor (C-2, A-12).
    #[serde(default)]
    pub table: TableConfig,
    /// Whether a unit in hedgehog may still reaction fire; the seed says it may not fire (C-7.4).
    #[serde(default)]
    pub hedgehog_fires: bool,
    /// Whether the morale checks one interception brings (hedgehog, fire hits) are rolled as one (C-9.2).
    #[serde(default)]
    pub combine_checks: CombineChecks,
    /// `[cavalry.fire]`: the fire after an interception, the target's reaction fire and the interceptor's
    /// own: the chances of 0, 1, 2, ... hits by the firing unit's type, and the hits that call for a morale
    /// check (C-4.5, C-4.6, C-9.4; our reading, A-23).
    #[serde(default)]
    pub fire: FireConfig,
    /// `[[cavalry.interceptor]]`: one table per cavalry unit that may intercept, at least one; each eligible
    /// unit rolls once on the interception table (C-1, C-3.2).
    #[serde(default)]
    pub interceptor: Vec<InterceptorConfig>,
    /// `[cavalry.target]`: the moving enemy unit the interceptors try to stop, and how it reacts (C-1.4,
    /// C-6).
    pub target: TargetConfig,
}

/// How the morale checks that fall due during one interception are rolled (C-9.2).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CombineChecks {
    /// Each check is rolled when it falls due: the hedgehog check as the target reacts, the fire check after
    /// the interceptor's fire; only checks due at the same moment share a roll (C-9.2).
    #[default]
    WhenDue,
    /// The checks one interceptor's arrival and fire bring are one roll, after its fire, +1 for each after
    /// the first, as the seed's example combines a casualty check and a salvo check.
    PerInterception,
}

/// How the leader rating enters a morale check: `d10 − L` (series convention) or `d10 + L` (seed text).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LeaderSign {
    #[default]
    Subtract,
    Add,
}

/// `all`: every eligible unit rolls on its own (C-3.2). `until_success`: units roll in the listed order and
/// stop after the first success, since an intercepted unit's move ends (C-4.10).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Attempts {
    #[default]
    All,
    UntilSuccess,
}

/// `[cavalry.table]`: the highest d10 roll (0–9) that intercepts, by the interceptor's order (C-2).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableConfig {
    /// Highest d10 roll, 0 to 9, with which a unit under Charge orders intercepts: it succeeds with chance
    /// (charge + 1)/10 (C-2).
    #[serde(default = "default_charge")]
    pub charge: i64,
    /// Highest d10 roll, 0 to 9, with which a unit under Make Ready orders intercepts: it succeeds with
    /// chance (make_ready + 1)/10 (C-2).
    #[serde(default = "default_make_ready")]
    pub make_ready: i64,
    /// Highest d10 roll, 0 to 9, with which a unit under Receive Charge orders intercepts: it succeeds with
    /// chance (receive_charge + 1)/10 (C-2).
    #[serde(default = "default_receive_charge")]
    pub receive_charge: i64,
}

impl Default for TableConfig {
    fn default() -> Self {
        TableConfig {
            charge: default_charge(),
            make_ready: default_make_ready(),
            receive_charge: default_receive_charge(),
        }
    }
}

/// `[[cavalry.interceptor]]`: one intercepting cavalry unit.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterceptorConfig {
    /// Names the unit in its metrics (`cavalry.interceptor.<name>.…`); letters, digits, '-', '_' or '.',
    /// unique.
    pub name: String,
    /// Its current order, which picks its row of the interception table: `charge`, `make_ready`,
    /// `receive_charge`, or `rally`, under which it may not intercept (C-2, C-1.7, A-12).
    pub order: Order,
    /// Its formation (C-7): `broken` or `hedgehog` bars it (C-1.2, C-1.9); `shaken` halves its movement;
    /// a `shaken` or `open_order` unit fires `fire.shaken_hits` fewer hits (C-7.2, C-7.5).
    #[serde(default)]
    pub formation: Formation,
    /// Hexes from it to the moving enemy unit when the attempt is announced, 1 to 99 (C-3.1); farther than
    /// `cavalry.max_distance` it may not intercept (C-1.3).
    pub distance: i64,
    /// Whether it can reach a hex next to the enemy, each hex it enters one nearer (C-1.6, C-4.3); `false`
    /// bars it. The tool traces no paths.
    #[serde(default = "yes")]
    pub can_move_adjacent: bool,
    /// It has already used its one interception in this Wing activation, so it may not try again (C-1.5,
    ///
    #[serde(default)]
    pub already_intercepted: bool,
    /// Where it ends its move, against the target's facing as it arrives: `front`, `flank` or `rear`; it
    /// decides the target's reaction and fire, and horse in heavy infantry's rear forces a hedgehog attempt
    /// (C-6, C-8.3).
    #[serde(default)]
    pub ends_in: Facing,
    /// Movement allowance, halved when shaken; a reactor needs at least its enemy's to change facing or
    /// withdraw (C-5.3, C-5.4). Our default for horse, not from the seed.
    #[serde(default = "default_cavalry_movement")]
    pub movement: i64,
    /// Morale rating, for the check that reaction fire hits may call for (C-9.4).
    #[serde(default = "default_interceptor_morale")]
    pub morale: i64,
}

/// `[cavalry.target]`: the moving enemy unit.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TargetConfig {
    /// Its type: its row of the reaction table, so which reactions it has (C-6), its default movement, and
    /// which `cavalry.fire` list its reaction fire uses; a leader does not fire.
    pub kind: TargetKind,
    /// It is itself making an interception move, so it cannot be intercepted (C-1.4).
    #[serde(default)]
    pub moving_by_interception: bool,
    /// Its formation (C-7): `shaken` halves its movement; `shaken` and `open_order` fire `fire.shaken_hits`
    /// fewer hits; `column` breaks when fired on, `open_order` when hit (C-7.5, C-7.6); `hedgehog` has no
    /// flank or rear and does not fire (C-7.4); a `broken` unit cannot form hedgehog (C-8.1).
    #[serde(default)]
    pub formation: Formation,
    /// Its morale rating, 0 to 10: a morale check passes when the d10, modified by its leader and the
    /// checks rolled together, is at most this (C-9.1, C-10).
    pub morale: i64,
    /// Rating of the leader stacked with it, 0 to 9 (0: none): taken off its morale check roll, or added
    /// with `leader_sign = "add"` (C-9.1, C-9.3).
    #[serde(default)]
    pub leader: i64,
    /// Other morale checks rolled together with a hedgehog check, +1 each (C-9.2).
    #[serde(default)]
    pub extra_checks: i64,
    /// The reaction it prefers where the table allows more than one; the others follow in the order fire,
    /// hedgehog, face, withdraw (C-5.2).
    #[serde(default)]
    pub reaction: Reaction,
    /// Movement allowance; by default by kind (our reading: artillery 2, heavy infantry 3, light infantry 4,
    /// cavalry 6, leader 8), halved when shaken (C-5.3, C-5.4, C-7.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<i64>,
    /// Under Rally orders: any unit may then withdraw (C-5.4).
    #[serde(default)]
    pub rally_orders: bool,
}

/// The target's choice of reaction where it has one; a forced hedgehog (C-8.3) is never a choice.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reaction {
    /// Reaction fire at it, where the table allows it (C-4.5, C-6).
    #[default]
    Fire,
    /// Try to form hedgehog on a passed morale check: heavy infantry only (C-8).
    Hedgehog,
    /// Change facing toward it (C-5.3).
    Face,
    /// Withdraw out of its reach (C-5.4).
    Withdraw,
}

/// `[cavalry.fire]`: the fire that follows an interception, reaction fire and the interceptor's own (C-4.5,
/// C-4.6): by the firing unit's type, the chance of 0, 1, 2, ... fire combat hits. Our reading: the seed
/// gives no fire table, so these are a designer's numbers to edit.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct FireConfig {
    /// Chances of 0, 1, 2, ... fire combat hits when an artillery target fires: 1 to 10 chances from 0 to 1,
    /// adding up to 1 (C-4.5, A-23).
    pub artillery: Vec<f64>,
    /// Chances of 0, 1, 2, ... fire combat hits when a light infantry target fires: 1 to 10 chances from 0
    /// to 1, adding up to 1 (C-4.5, A-23).
    pub light_infantry: Vec<f64>,
    /// Chances of 0, 1, 2, ... fire combat hits when a heavy infantry target fires: 1 to 10 chances from 0
    /// to 1, adding up to 1 (C-4.5, A-23).
    pub heavy_infantry: Vec<f64>,
    /// Chances of 0, 1, 2, ... fire combat hits when cavalry fires: every interceptor's fire (C-4.6) and a
    /// cavalry target's reaction fire; 1 to 10 chances from 0 to 1, adding up to 1.
    pub cavalry: Vec<f64>,
    /// Hits fewer for a firer that is shaken, or in open order, which fires as shaken (C-7.2, C-7.5).
    pub shaken_hits: i64,
    /// Hits in one fire combat that call for a morale check, by morale 0 to 10 (C-9.4, A-21).
    pub check_hits: Vec<i64>,
}

impl Default for FireConfig {
    fn default() -> Self {
        FireConfig {
            artillery: vec![0.5, 0.3, 0.15, 0.05],
            light_infantry: vec![0.5, 0.35, 0.15],
            heavy_infantry: vec![0.4, 0.4, 0.2],
            cavalry: vec![0.7, 0.25, 0.05],
            shaken_hits: 1,
            check_hits: vec![1, 1, 1, 1, 1, 1, 1, 2, 3, 3, 3],
        }
    }
}

impl FireConfig {
    /// The hit chances of a firer of `kind`; a leader does not fire (C-6).
    pub fn hits(&self, kind: TargetKind) -> &[f64] {
        match kind {
            TargetKind::Artillery => &self.artillery,
            TargetKind::LightInfantry => &self.light_infantry,
            TargetKind::HeavyInfantry => &self.heavy_infantry,
            TargetKind::Cavalry => &self.cavalry,
            TargetKind::Leader => &[1.0],
        }
    }

    fn check(&self) -> Result<(), Invalid> {
        let path = |k: &str| KeyPath::root().key("cavalry").key("fire").key(k);
        for (key, p) in [
            ("artillery", &self.artillery),
            ("light_infantry", &self.light_infantry),
            ("heavy_infantry", &self.heavy_infantry),
            ("cavalry", &self.cavalry),
        ] {
            check_chances(p, || path(key))?;
        }
        in_range(self.shaken_hits, 0, 9, || path("shaken_hits"))?;
        if self.check_hits.len() != 11 {
            let msg = format!("{} entries; allowed: 11, one per morale 0 to 10", self.check_hits.len());
            return Err(Invalid::new(path("check_hits"), msg));
        }
        for (i, h) in self.check_hits.iter().enumerate() {
            in_range(*h, 1, 99, || path("check_hits").index(i))?;
        }
        Ok(())
    }
}

/// A list of chances of 0, 1, 2, ... hits: 1 to 10 entries, each 0 to 1, adding up to 1.
fn check_chances(p: &[f64], path: impl Fn() -> KeyPath) -> Result<(), Invalid> {
    if p.is_empty() || p.len() > 10 {
        return Err(Invalid::new(path(), format!("{} entries; allowed: 1 to 10 (chances of 0, 1, ... hits)", p.len())));
    }
    for (i, x) in p.iter().enumerate() {
        crate::config::probability(*x, || path().index(i))?;
    }
    let sum: f64 = p.iter().sum();
    if (sum - 1.0).abs() > 1e-9 {
        return Err(Invalid::new(path(), format!("the chances add up to {sum}; allowed: they add up to 1")));
    }
    Ok(())
}

fn default_max_distance() -> i64 {
    4
}
fn default_charge() -> i64 {
    5
}
fn default_make_ready() -> i64 {
    4
}
fn default_receive_charge() -> i64 {
    3
}
fn yes() -> bool {
    true
}
fn default_cavalry_movement() -> i64 {
    6
}
fn default_interceptor_morale() -> i64 {
    7
}

impl CavalryConfig {
    /// Validates every value and builds the model.
    pub fn resolve(&self) -> Result<Cavalry, Invalid> {
        let base = || KeyPath::root().key("cavalry");
        in_range(self.max_distance, 1, 99, || base().key("max_distance"))?;
        self.table.check()?;
        self.fire.check()?;
        self.target.check()?;
        self.check_interceptors()?;
        Ok(Cavalry::new(self))
    }

    fn check_interceptors(&self) -> Result<(), Invalid> {
        if self.interceptor.is_empty() {
            let path = KeyPath::root().key("cavalry").key("interceptor");
            return Err(Invalid::new(path, "at least one [[cavalry.interceptor]] is required".into()));
        }
        for (i, unit) in self.interceptor.iter().enumerate() {
            let path = || KeyPath::root().key("cavalry").key("interceptor").index(i);
            unit.check(path)?;
            if self.interceptor[..i].iter().any(|u| u.name == unit.name) {
                let msg = format!("duplicate interceptor name {:?}; names must be unique", unit.name);
                return Err(Invalid::new(path().key("name"), msg));
            }
        }
        Ok(())
    }

    /// The success threshold of an order's table row, or `None` for Rally (C-2).
    pub fn threshold(&self, order: Order) -> Option<i64> {
        match order {
            Order::Charge => Some(self.table.charge),
            Order::MakeReady => Some(self.table.make_ready),
            Order::ReceiveCharge => Some(self.table.receive_charge),
            Order::Rally => None,
        }
    }
}

impl TableConfig {
    fn check(&self) -> Result<(), Invalid> {
        let path = |k: &str| KeyPath::root().key("cavalry").key("table").key(k);
        in_range(self.charge, 0, 9, || path("charge"))?;
        in_range(self.make_ready, 0, 9, || path("make_ready"))?;
        in_range(self.receive_charge, 0, 9, || path("receive_charge"))?;
        Ok(())
    }
}

impl InterceptorConfig {
    fn check(&self, path: impl Fn() -> KeyPath) -> Result<(), Invalid> {
        crate::config::check_name(&self.name, || path().key("name"))?;
        in_range(self.distance, 1, 99, || path().key("distance"))?;
        in_range(self.movement, 0, 99, || path().key("movement"))?;
        in_range(self.morale, 0, 10, || path().key("morale"))?;
        Ok(())
    }
}

impl TargetConfig {
    fn check(&self) -> Result<(), Invalid> {
        let path = |k: &str| KeyPath::root().key("cavalry").key("target").key(k);
        in_range(self.morale, 0, 10, || path("morale"))?;
        in_range(self.leader, 0, 9, || path("leader"))?;
        in_range(self.extra_checks, 0, 9, || path("extra_checks"))?;
        in_range(self.movement.unwrap_or(0), 0, 99, || path("movement"))?;
        self.check_hedgehog(path)
    }

    /// Only heavy infantry forms hedgehog (C-8.1): another kind can neither prefer it as its reaction nor
    /// stand in it, where such a config used to be run as if the key were not there.
    fn check_hedgehog(&self, path: impl Fn(&str) -> KeyPath) -> Result<(), Invalid> {
        if self.kind == TargetKind::HeavyInfantry {
            return Ok(());
        }
        let kind = super::kind_name(self.kind);
        let article = if kind.starts_with('a') { "an" } else { "a" };
        let why = format!("only heavy infantry forms hedgehog (C-8.1), and this target is {article} {kind}");
        if self.reaction == Reaction::Hedgehog {
            let allowed = "allowed for it: \"fire\", \"face\" or \"withdraw\"";
            return Err(Invalid::new(path("reaction"), format!("\"hedgehog\": {why}; {allowed}")));
        }
        if self.formation == Formation::Hedgehog {
            let allowed = "allowed for it: normal, shaken, broken, open_order or column";
            return Err(Invalid::new(path("formation"), format!("\"hedgehog\": {why}; {allowed}")));
        }
        Ok(())
    }
}
