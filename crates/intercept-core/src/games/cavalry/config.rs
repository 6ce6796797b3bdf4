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
    #[serde(default)]
    pub table: TableConfig,
    #[serde(default)]
    pub interceptor: Vec<InterceptorConfig>,
    pub target: TargetConfig,
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
    #[serde(default = "default_charge")]
    pub charge: i64,
    #[serde(default = "default_make_ready")]
    pub make_ready: i64,
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
    pub name: String,
    pub order: Order,
    #[serde(default)]
    pub formation: Formation,
    pub distance: i64,
    #[serde(default = "yes")]
    pub can_move_adjacent: bool,
    #[serde(default)]
    pub already_intercepted: bool,
    #[serde(default)]
    pub ends_in: Facing,
}

/// `[cavalry.target]`: the moving enemy unit.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TargetConfig {
    pub kind: TargetKind,
    #[serde(default)]
    pub moving_by_interception: bool,
    #[serde(default)]
    pub formation: Formation,
    pub morale: i64,
    #[serde(default)]
    pub leader: i64,
    /// Other morale checks rolled together with a hedgehog check, +1 each (C-9.2).
    #[serde(default)]
    pub extra_checks: i64,
    /// What the target does when reaction fire and a hedgehog attempt are both allowed (C-5.2).
    #[serde(default)]
    pub reaction: Reaction,
}

/// The target's choice of reaction where it has one; a forced hedgehog (C-8.3) is never a choice.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reaction {
    #[default]
    Fire,
    Hedgehog,
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

impl CavalryConfig {
    /// Validates every value and builds the model.
    pub fn resolve(&self) -> Result<Cavalry, Invalid> {
        let base = || KeyPath::root().key("cavalry");
        in_range(self.max_distance, 1, 99, || base().key("max_distance"))?;
        self.table.check()?;
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
        Ok(())
    }
}

impl TargetConfig {
    fn check(&self) -> Result<(), Invalid> {
        let path = |k: &str| KeyPath::root().key("cavalry").key("target").key(k);
        in_range(self.morale, 0, 10, || path("morale"))?;
        in_range(self.leader, 0, 9, || path("leader"))?;
        in_range(self.extra_checks, 0, 9, || path("extra_checks"))?;
        Ok(())
    }
}
