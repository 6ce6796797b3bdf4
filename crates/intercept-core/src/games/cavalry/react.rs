//! How the intercepted unit reacts to a cavalry interceptor ending next to it: the reaction table (C-6)
//! with its four columns, fire, hedgehog, facing change and withdraw, one reaction per trigger (C-5.2).
//!
//! [`Target::response`] picks the [`Response`]: a forced hedgehog attempt first (cavalry in heavy
//! infantry's rear, C-8.3); otherwise the target's preferred reaction if the table allows it, then the others
//! in the order fire, hedgehog, face, withdraw. Facing change and withdraw need at least the enemy's
//! movement allowance (C-5.7) and a unit that can move: not in hedgehog, not Formation Broken.

use super::config::Reaction;
use super::{Facing, Target, TargetKind};

/// What the target does when an interceptor ends next to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Response {
    Fire,
    Hedgehog,
    Face,
    Withdraw,
    Nothing,
}

/// The fallback order after the preferred reaction.
const ORDER: [Reaction; 4] = [Reaction::Fire, Reaction::Hedgehog, Reaction::Face, Reaction::Withdraw];

/// The target's situation when a reaction falls due, as far as it changes the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Situation {
    pub in_hedgehog: bool,
    pub broken: bool,
}

impl Situation {
    /// The index of this situation in a unit's table of responses.
    pub fn index(self) -> usize {
        usize::from(self.in_hedgehog) + 2 * usize::from(self.broken)
    }

    pub const ALL: [Situation; 4] = [
        Situation { in_hedgehog: false, broken: false },
        Situation { in_hedgehog: true, broken: false },
        Situation { in_hedgehog: false, broken: true },
        Situation { in_hedgehog: true, broken: true },
    ];
}

impl Target {
    /// The reaction to a cavalry interceptor with movement allowance `enemy_movement` ending in `facing`.
    pub(super) fn response(&self, facing: Facing, enemy_movement: i64, now: Situation) -> Response {
        // A unit in hedgehog has no flank or rear hexes (C-7.4).
        let facing = if now.in_hedgehog { Facing::Front } else { facing };
        if self.kind == TargetKind::HeavyInfantry && facing == Facing::Rear && self.can_form_hedgehog(now) {
            return Response::Hedgehog;
        }
        let allowed = |r: Reaction| self.allows(r, facing, enemy_movement, now);
        let first = std::iter::once(self.reaction).chain(ORDER).find(|&r| allowed(r));
        match first {
            Some(Reaction::Fire) => Response::Fire,
            Some(Reaction::Hedgehog) => Response::Hedgehog,
            Some(Reaction::Face) => Response::Face,
            Some(Reaction::Withdraw) => Response::Withdraw,
            None => Response::Nothing,
        }
    }

    /// Whether the reaction table allows `reaction` now (C-6).
    fn allows(&self, reaction: Reaction, facing: Facing, enemy_movement: i64, now: Situation) -> bool {
        let moves = !now.in_hedgehog && !now.broken && self.movement >= enemy_movement;
        match reaction {
            Reaction::Fire => (!now.in_hedgehog || self.hedgehog_fires) && self.fires_at(facing),
            Reaction::Hedgehog => {
                self.kind == TargetKind::HeavyInfantry && facing != Facing::Rear && self.can_form_hedgehog(now)
            }
            Reaction::Face => moves && self.faces_toward(facing),
            Reaction::Withdraw => moves && (self.kind == TargetKind::Leader || self.rally_orders),
        }
    }

    /// The fire column: artillery at its front, infantry and cavalry at front and flank (C-6).
    fn fires_at(&self, facing: Facing) -> bool {
        match self.kind {
            TargetKind::Artillery => facing == Facing::Front,
            TargetKind::LightInfantry | TargetKind::HeavyInfantry | TargetKind::Cavalry => facing != Facing::Rear,
            TargetKind::Leader => false,
        }
    }

    /// The facing change column, for an enemy ending in a flank or rear hex (9.2.2): infantry turns from
    /// either, cavalry from its flank (its table row has no facing change against the rear).
    fn faces_toward(&self, facing: Facing) -> bool {
        match self.kind {
            TargetKind::LightInfantry | TargetKind::HeavyInfantry => facing != Facing::Front,
            TargetKind::Cavalry => facing == Facing::Flank,
            TargetKind::Artillery | TargetKind::Leader => false,
        }
    }

    /// Whether the target could form hedgehog now: heavy infantry, not broken, not already in it (C-8.1);
    /// shaken units may, since every attempt here is a reaction (C-8.4).
    pub(super) fn can_form_hedgehog(&self, now: Situation) -> bool {
        self.kind == TargetKind::HeavyInfantry && !now.broken && !now.in_hedgehog
    }
}
