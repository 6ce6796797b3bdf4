//! Validation of the `[naval]` table: names, targets (no self-target, no cycle, no unknown or same-side
//! target, depth within `max_depth`), ranges and the rules that forbid a combination, each reported as an
//! [`Invalid`] at its key before any trial runs.

use super::{GroupConfig, Leg, NavalConfig, Origin, Side};
use crate::config::{Invalid, KeyPath, in_range, probability};
use crate::games::naval::Naval;

fn naval() -> KeyPath {
    KeyPath::root().key("naval")
}

impl NavalConfig {
    /// Validates every value and builds the model; a scenario on a map is charted first, and the model built
    /// from the typed config its chart equals ([`NavalConfig::charted`]).
    pub fn resolve(&self) -> Result<Naval, Invalid> {
        let Some(m) = &self.map else {
            self.check_unmapped()?;
            return self.resolve_typed();
        };
        let (chart, typed) = self.charted(m)?;
        let mut naval = typed.resolve_typed()?;
        naval.chart = Some(std::sync::Arc::new((chart, typed)));
        Ok(naval)
    }

    fn resolve_typed(&self) -> Result<Naval, Invalid> {
        in_range(self.max_depth, 1, 8, || naval().key("max_depth"))?;
        crate::config::check_name(&self.mission.name, || naval().key("mission").key("name"))?;
        in_range(self.mission.factors, 0, 999, || naval().key("mission").key("factors"))?;
        self.check_probabilities()?;
        self.check_rules()?;
        let levels = self.levels()?;
        for (i, g) in self.group.iter().enumerate() {
            self.check_group(i, g, levels[i])?;
        }
        Ok(Naval::new(self, &levels))
    }

    fn check_probabilities(&self) -> Result<(), Invalid> {
        self.combat.check(|| naval().key("combat"))?;
        self.air.check(|| naval().key("air"))?;
        self.delayed.check(|| naval().key("delayed"))?;
        self.way_home.check(|| naval().key("way_home"))?;
        probability(self.submarine.p_attack_succeeds, || naval().key("submarine").key("p_attack_succeeds"))
    }

    fn check_rules(&self) -> Result<(), Invalid> {
        let r = &self.rules;
        let path = |k: &str| naval().key("rules").key(k);
        in_range(r.max_dice, 0, 8, || path("max_dice"))?;
        in_range(r.patrol_auto_move, 0, 99, || path("patrol_auto_move"))?;
        in_range(r.spotting_max, 0, 8, || path("spotting_max"))?;
        in_range(r.small_force_threshold, 0, 999, || path("small_force_threshold"))?;
        let modifiers = [
            ("codebreaking", r.codebreaking),
            ("mission_hex", r.mission_hex),
            ("counter_in_interception_hex", r.counter_in_interception_hex),
            ("counter_from_port", r.counter_from_port),
            ("slow_ships", r.slow_ships),
            ("submarine", r.submarine),
            ("nonoperational_port", r.nonoperational_port),
            ("small_force", r.small_force),
        ];
        for (key, value) in modifiers {
            in_range(value, -8, 8, || path(key))?;
        }
        for (activity, dice) in &r.base_dice {
            let name = serde_json::to_value(activity).ok().and_then(|v| v.as_str().map(str::to_owned));
            in_range(*dice, 0, 8, || path("base_dice").key(&name.unwrap_or_default()))?;
        }
        Ok(())
    }

    fn check_group(&self, i: usize, g: &GroupConfig, level: usize) -> Result<(), Invalid> {
        let path = || naval().key("group").index(i);
        let Some(distance) = g.distance else {
            let msg = "missing: the hexes from its base to its interception hex, 0 to 99 (N-8.3); or give a \
                       [naval.map] and the group's base and intercept_at";
            return Err(Invalid::new(path().key("distance"), msg.into()));
        };
        in_range(distance, 0, 99, || path().key("distance"))?;
        in_range(g.factors, 0, 999, || path().key("factors"))?;
        in_range(g.spotting, 0, 99, || path().key("spotting"))?;
        in_range(g.retarget_distance.unwrap_or(0), 0, 99, || path().key("retarget_distance"))?;
        if g.retarget_distance.is_some() && !self.delayed.retarget {
            let msg = "applies only with naval.delayed.retarget = true (A-9); allowed here: left out";
            return Err(Invalid::new(path().key("retarget_distance"), msg.into()));
        }
        self.check_return_leg(i, g)?;
        self.check_deferral(i, g)?;
        if level as i64 > self.max_depth && g.leg == Leg::Out {
            let msg = format!(
                "this group is at level {level}, deeper than naval.max_depth = {} (N-11.2); allowed: \
                 a max_depth of {level} or more, up to 8",
                self.max_depth
            );
            return Err(Invalid::new(path().key("target"), msg));
        }
        if g.at_interception_hex && level < 2 {
            let msg = "only a counter-interception (a group targeting a group) can aim at the interception hex";
            return Err(Invalid::new(path().key("at_interception_hex"), msg.into()));
        }
        if g.origin == Origin::Patrol && level >= 2 && !g.at_interception_hex && g.leg == Leg::Out {
            let msg = "a patrol may counter-intercept only at an interception hex (N-7.2); allowed: \
                       at_interception_hex = true, or origin = \"port\"";
            return Err(Invalid::new(path().key("origin"), msg.into()));
        }
        if g.in_mission_hex && (level != 1 || !self.mission.activity.has_mission_hex()) {
            let msg = "applies only to a group intercepting a seaborne_invasion or shore_bombardment mission";
            return Err(Invalid::new(path().key("in_mission_hex"), msg.into()));
        }
        if self.group.iter().any(|h| h.name == g.target && h.submarine) {
            let msg =
                format!("target {:?} is a submarine group, and submarines cannot be intercepted (N-1.8)", g.target);
            return Err(Invalid::new(path().key("target"), msg));
        }
        let side = if level % 2 == 1 { Side::Defender } else { Side::Moving };
        if g.side.is_some_and(|s| s != side) {
            let msg =
                format!("its target {:?} is on this side too; a group targets a force of the other side", g.target);
            return Err(Invalid::new(path().key("side"), msg));
        }
        Ok(())
    }

    /// A return-leg interception is one level, aimed at a force going home: nothing aims at it, and it has
    /// no interception-hex or mission-hex bonus (N-17.2, N-17.4).
    fn check_return_leg(&self, i: usize, g: &GroupConfig) -> Result<(), Invalid> {
        let path = || naval().key("group").index(i);
        if self.group.iter().any(|h| h.name == g.target && h.leg == Leg::Return) {
            let msg = format!("target {:?} intercepts on the return leg, and nothing may intercept it", g.target);
            return Err(Invalid::new(path().key("target"), msg));
        }
        let hexes = self.way_home.max_interceptions;
        let allowed = if g.leg == Leg::Return { hexes } else { 1 };
        if !(1..=allowed).contains(&g.return_hex) {
            let msg = match g.leg {
                Leg::Return => {
                    format!(
                        "{} is out of range; allowed: 1 to naval.way_home.max_interceptions = {hexes} (N-17.4, A-20)",
                        g.return_hex
                    )
                }
                Leg::Out => "applies only to a group with leg = \"return\"; allowed: 1 or left out".into(),
            };
            return Err(Invalid::new(path().key("return_hex"), msg));
        }
        if g.leg == Leg::Return && (g.at_interception_hex || g.in_mission_hex) {
            let key = if g.at_interception_hex { "at_interception_hex" } else { "in_mission_hex" };
            let msg = "does not apply to a group with leg = \"return\", which meets its target on the way home";
            return Err(Invalid::new(path().key(key), msg.into()));
        }
        Ok(())
    }

    /// A deferring group joins the combat where a fellow interceptor of the same force is met by its
    /// counter-interceptors, and is not itself counter-intercepted (N-14.1).
    fn check_deferral(&self, i: usize, g: &GroupConfig) -> Result<(), Invalid> {
        let path = || naval().key("group").index(i);
        in_range(g.defer_distance, 0, 99, || path().key("defer_distance"))?;
        in_range(g.defer_along, 0, g.hexes(), || path().key("defer_along"))?;
        let Some(fellow) = &g.defer_to else {
            let given = [("defer_distance", g.defer_distance), ("defer_along", g.defer_along)];
            return match given.iter().find(|(_, v)| *v != 0) {
                Some((key, _)) => {
                    let msg = "applies only to a group that defers, with defer_to (N-14); allowed here: 0 or left out";
                    Err(Invalid::new(path().key(key), msg.into()))
                }
                None => Ok(()),
            };
        };
        let err = |msg: String| Err(Invalid::new(path().key("defer_to"), msg));
        let Some(f) = self.group.iter().find(|h| &h.name == fellow && h.name != g.name) else {
            return err(format!("{fellow:?} is not another group's name"));
        };
        if g.leg == Leg::Return {
            let msg = "a group with leg = \"return\" cannot defer: deferring joins a combat on the way out (N-14.1); \
                       leave defer_to out";
            return err(msg.into());
        }
        if f.target != g.target || f.leg != g.leg {
            return err(format!("{fellow:?} must intercept the same force on its way out, as this group does"));
        }
        if !self.group.iter().any(|h| h.target == *fellow && !h.at_interception_hex) {
            return err(format!("no group counter-intercepts {fellow:?} on its way, so there is no combat to join"));
        }
        if self.group.iter().any(|h| h.target == g.name) || g.submarine {
            return err("a group that is itself counter-intercepted, or a submarine, cannot defer (N-14.1)".into());
        }
        Ok(())
    }

    /// Each group's level: 1 + its target's (the mission is level 0). Rejects unknown targets, self-targets,
    /// duplicate names and cycles, naming the offending key.
    pub(super) fn levels(&self) -> Result<Vec<usize>, Invalid> {
        let path = |i: usize, k: &str| naval().key("group").index(i).key(k);
        if self.group.is_empty() || self.group.len() > crate::games::naval::MAX_GROUPS {
            let msg = format!(
                "{} groups; allowed: 1 to {} [[naval.group]] tables",
                self.group.len(),
                crate::games::naval::MAX_GROUPS
            );
            return Err(Invalid::new(naval().key("group"), msg));
        }
        for (i, g) in self.group.iter().enumerate() {
            crate::config::check_name(&g.name, || path(i, "name"))?;
            if g.name == self.mission.name || self.group[..i].iter().any(|h| h.name == g.name) {
                return Err(Invalid::new(
                    path(i, "name"),
                    format!("duplicate name {:?}; names must be unique", g.name),
                ));
            }
        }
        (0..self.group.len()).map(|i| self.level_of(i, &mut Vec::new())).collect()
    }

    fn level_of(&self, i: usize, seen: &mut Vec<usize>) -> Result<usize, Invalid> {
        let g = &self.group[i];
        let path = || naval().key("group").index(i).key("target");
        if g.target == g.name {
            return Err(Invalid::new(path(), format!("group {:?} targets itself", g.name)));
        }
        if g.target == self.mission.name {
            return Ok(1);
        }
        let Some(t) = self.group.iter().position(|h| h.name == g.target) else {
            let mut known: Vec<&str> = vec![self.mission.name.as_str()];
            known.extend(self.group.iter().map(|h| h.name.as_str()));
            let near = crate::config::keys::did_you_mean(&g.target, known.iter().copied());
            let message = format!("unknown target {:?}{near}; allowed: {}", g.target, known.join(", "));
            return Err(Invalid::new(path(), message));
        };
        if seen.contains(&i) {
            return Err(Invalid::new(path(), format!("targets form a cycle through {:?}", g.name)));
        }
        seen.push(i);
        Ok(self.level_of(t, seen)? + 1)
    }
}
