//! The naval scenario in plain words, for the report: the mission, how dice become movement, each group's
//! target, level, dice and chance to reach, and the combat odds, in the vocabulary of rules N-0..N-19.
//!
//! Dice counts, reach odds and levels are read from the resolved [`Naval`] model (the dice modifiers by name
//! from [`DiceCount::terms`](super::dice::DiceCount)), so the words cannot disagree with the trials.

use super::config::{
    Abandon, Activity, CombatModel, HomeAfter, MoveRule, NavalConfig, OnFail, Origin, Placement, Theater,
};
use super::{Defer, Force, Group, Naval};
use crate::games::words::{count, odds, odds_of, signed};

impl Naval {
    /// Sentences describing the scenario: the mission and movement rule, one per group, then the combats.
    pub fn plain_words(&self, cfg: &NavalConfig) -> Vec<String> {
        let mut out = vec![mission_words(cfg), movement_words(cfg)];
        out.extend((0..self.groups.len()).map(|i| self.group_words(cfg, i)));
        out.push(combat_words(cfg, self.groups.iter().any(|g| g.submarine)));
        out.extend(later_words(cfg));
        out
    }

    pub(super) fn name_of(&self, force: Force) -> &str {
        match force {
            Force::Mission => &self.mission_name,
            Force::Group(i) => &self.groups[i].name,
        }
    }

    fn group_words(&self, cfg: &NavalConfig, i: usize) -> String {
        let (g, raw) = (&self.groups[i], &cfg.group[i]);
        let side = if g.level % 2 == 1 { "defender" } else { "moving player" };
        let target = self.name_of(g.target);
        let mut s = format!(
            "{} ({}, level {}, {side}) {} {target}",
            g.name,
            count(raw.factors, "factor", "factors"),
            g.level,
            verb(g.level)
        );
        s += &match (g.aim.returning(), raw.at_interception_hex) {
            (true, _) => home_words(cfg, g.aim.home),
            (false, true) => {
                format!(" in {target}'s own interception hex, fighting in the combined combat there (N-10.3)")
            }
            (false, false) => String::new(),
        };
        s += &format!(", {} from its base", count(g.distance as i64, "hex", "hexes"));
        s += &self.reach_words(cfg, g, raw);
        s.push('.');
        for extra in self.flag_words(cfg, i) {
            s += " ";
            s += &extra;
        }
        s
    }

    /// How the group gets to its hex and how likely it is to get there in the first round.
    fn reach_words(&self, cfg: &NavalConfig, g: &Group, raw: &super::config::GroupConfig) -> String {
        let p = odds_of(&g.first_move.dist, g.distance as usize);
        if raw.origin == Origin::Patrol {
            let hexes = count(cfg.rules.patrol_auto_move, "hex", "hexes");
            return format!(
                ": from its patrol hex it moves {hexes} in the first round without rolling (N-7), so it reaches its hex with probability {p}"
            );
        }
        let dice = g.dice.dice as i64;
        let why = dice_reason(cfg, g, raw);
        let reach = match dice {
            0 => format!("with no dice it reaches only its base hex (N-6.3), probability {p}"),
            _ => format!("it reaches its hex (N-8) with probability {p}"),
        };
        format!(", with {} ({why}; N-4..N-6): {reach}", count(dice, "die", "dice"))
    }

    /// Range, submarine, withheld, what it does on falling short, waiting for a delayed target, and
    /// deferral (A-3, N-9, N-14, N-15.3, N-18, N-19).
    fn flag_words(&self, cfg: &NavalConfig, i: usize) -> Vec<String> {
        let g = &self.groups[i];
        let mut out = Vec::new();
        if !g.first_move.in_range() {
            out.push("Its hex lies beyond its largest first move, so under rules.max_range it does not attempt at all (A-3).".into());
        }
        if g.submarine {
            out.push("As a submarine it attacks on its own and never counts as reaching the hex (N-19).".into());
        } else if !g.aim.returning() {
            out.push(match g.on_fail {
                OnFail::CloseIn => "If it falls short while another group reaches, it closes in, one die after each \
                                    combat round (N-9.1, N-15)."
                    .into(),
                OnFail::Abort => {
                    "If it falls short while another group reaches, it aborts and goes home (N-9.1).".into()
                }
            });
        }
        if let Some(d) = g.defer {
            out.push(self.defer_words(cfg, d));
        }
        if super::trial::has(self.waits, i) {
            out.push(format!(
                "If {} falls short and closes in, it tries after each of that group's delayed rolls instead, and \
                 any combat is fought at once (N-15.3).",
                self.name_of(g.target)
            ));
        }
        if g.withheld {
            out.push("It is withheld from the fighting, so it is not inverted afterwards (N-18.2).".into());
        }
        out
    }
}

impl Naval {
    /// Where a deferring group stands and how it closes on the combat it defers to (N-14.2, N-14.3).
    fn defer_words(&self, cfg: &NavalConfig, d: Defer) -> String {
        let fellow = self.name_of(d.place.force);
        let join = format!("It may defer to join the combat where {fellow} is counter-intercepted");
        let hexes = |n: u32| count(n as i64, "hex", "hexes");
        match (cfg.deferral.placement, d.along, d.off) {
            (Placement::Fixed, _, 0) => format!("{join}, at once (N-14.2)."),
            (Placement::Fixed, _, off) => format!(
                "{join}, waiting {} away whatever its roll and closing one die a round after the first; if it \
                 misses that combat it carries on as if it had never deferred (the fixed placement, N-14.3).",
                hexes(off)
            ),
            (placement, along, off) => {
                let stands = match placement {
                    Placement::Closest => "as close to that combat as its first roll allows",
                    _ => "as far along its path as its first roll allows",
                };
                format!(
                    "{join}, which lies {} off its path at its hex {along}: it stands {stands}, joins at once if \
                     it stands there (N-14.2), else closes one die a round after the first, and if that combat \
                     ends first heads on to its own hex from where it stands (N-14.3).",
                    hexes(off)
                )
            }
        }
    }
}

/// Which forces going home the group waits for, and at which hex on the way (N-17.2, N-17.4).
fn home_words(cfg: &NavalConfig, hex: u8) -> String {
    let whom = match cfg.way_home.after {
        HomeAfter::DefeatOrAbort => "after a defeat, a turn-back or an abort",
        HomeAfter::Any => "whatever happened on the way out",
    };
    let at = if cfg.way_home.max_interceptions > 1 {
        format!(", at interception hex {hex} on that way")
    } else {
        String::new()
    };
    format!(" only on its way home {whom}{at} (N-17.2)")
}

/// The readings of the later steps that differ from the defaults, or that always apply: counter-interceptions
/// of delayed groups, giving up, retargeting, the way home (N-15, N-17, A-9, A-20).
fn later_words(cfg: &NavalConfig) -> Option<String> {
    let d = &cfg.delayed;
    let mut out = Vec::new();
    match d.abandon {
        Abandon::Never => {}
        Abandon::AfterRolls => out.push(format!(
            "A delayed interception gives up after {} that do not bring it to its hex (N-15.1).",
            count(d.abandon_after, "roll", "rolls")
        )),
        Abandon::OnceDecided => out.push(
            "A delayed or deferring group gives up once the combat it heads for ends without it (N-15.1).".into(),
        ),
    }
    if d.retarget {
        out.push(
            "A delayed group that missed a combat the mission won rolls its dice again for a hex further along the \
             mission's route, and fights it there if it reaches (A-9)."
                .into(),
        );
    }
    if cfg.way_home.max_interceptions > 1 {
        out.push(format!(
            "A force going home may be intercepted at up to {} on the way (N-17.4, A-20).",
            count(cfg.way_home.max_interceptions, "hex", "hexes")
        ));
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// "intercepts", "counter-intercepts", "counter-counter-intercepts", then the level by number (N-0, N-11).
fn verb(level: usize) -> String {
    match level {
        1..=3 => format!("{}intercepts", "counter-".repeat(level - 1)),
        n => format!("intercepts, at level {n},"),
    }
}

/// How a group's dice come about: "4 base against sea transport, +2 spotting, −1 slow ships", and the clamp
/// where there is one (N-4..N-6), read from its [`DiceCount`](super::dice::DiceCount).
pub(super) fn dice_reason(cfg: &NavalConfig, g: &Group, raw: &super::config::GroupConfig) -> String {
    let mut why = format!("{} base{}", g.dice.base, base_reason(cfg, g, raw));
    for &(what, n) in &g.dice.terms {
        why += &format!(", {} {what}", signed(n));
    }
    let (total, dice) = (g.dice.base + g.dice.modifiers, g.dice.dice as i64);
    if total != dice {
        why += &format!(" = {}, clamped to {dice}", signed(total).trim_start_matches('+'));
    }
    why
}

/// Why the base dice are what they are (N-4, N-4.1, N-17.2).
fn base_reason(cfg: &NavalConfig, g: &Group, raw: &super::config::GroupConfig) -> String {
    if g.aim.returning() {
        " for a force returning to base".into()
    } else if g.level == 1 {
        format!(" against {}", activity_name(cfg.mission.activity))
    } else if raw.origin == Origin::Port {
        " from port".into()
    } else {
        String::new()
    }
}

fn mission_words(cfg: &NavalConfig) -> String {
    let m = &cfg.mission;
    let theater = match cfg.theater {
        Theater::Europe => "Europe",
        Theater::Pacific => "the Pacific",
    };
    format!(
        "The moving player's mission force, {} ({}), carries out {} in {theater}. The defender intercepts at level 1, the moving \
         player counter-intercepts at level 2, and so on (N-0); every level rolls first, then the combats are \
         fought deepest first (N-12).",
        m.name,
        count(m.factors, "naval factor", "naval factors"),
        activity_name(m.activity)
    )
}

fn movement_words(cfg: &NavalConfig) -> String {
    let read = match cfg.rules.movement {
        MoveRule::Sum => "the total of its dice",
        MoveRule::Highest => "its highest die (the A-1 alternative to the total)",
    };
    let halved = match (cfg.theater, cfg.rules.pacific_halving) {
        (Theater::Pacific, true) => ", halved and rounded up in the Pacific (N-8.2),",
        (Theater::Pacific, false) => " (Pacific halving is turned off)",
        (Theater::Europe, _) => "",
    };
    format!(
        "A group moves as many hexes toward its interception hex as {read}{halved} and reaches it if that is at \
         least its distance (N-8.1, N-8.4); dice are at most {} after all modifiers (N-6.1).",
        cfg.rules.max_dice
    )
}

fn combat_words(cfg: &NavalConfig, submarines: bool) -> String {
    let c = &cfg.combat;
    let ends = format!(
        "A naval combat ends after each round with probability {}, after {} at most",
        odds(c.p_end_after_round),
        count(c.max_rounds, "round", "rounds"),
    );
    let mut s = match c.model {
        CombatModel::Fixed => {
            format!(
                "{ends}, and the intercepting side wins it with probability {} (N-16).",
                odds(c.p_intercepting_side_wins)
            )
        }
        CombatModel::Strength => format!("{ends}. {}", strength_words(cfg)),
    };
    let air = &cfg.air;
    let losses =
        if air.losses_percent > 0 { format!(", losing {}% of its factors", air.losses_percent) } else { String::new() };
    if air.p_attack_en_route > 0.0 {
        s += &format!(
            " Each force sailing to a combat is attacked from the air with probability {}{losses}, and then turns \
             back with probability {} (N-13).",
            odds(air.p_attack_en_route),
            odds(air.p_turn_back)
        );
    }
    if air.p_attack_going_home > 0.0 {
        s += &format!(
            " A force going home is attacked from the air on the way with probability {}{losses} (N-13.1, N-17.2).",
            odds(air.p_attack_going_home)
        );
    }
    if submarines {
        s += &format!(
            " A submarine's attack succeeds with probability {} (N-19).",
            odds(cfg.submarine.p_attack_succeeds)
        );
    }
    s
}

/// The strength model in words: the bands, and the losses of a lost round (N-16.4).
fn strength_words(cfg: &NavalConfig) -> String {
    let c = &cfg.combat;
    let bands: Vec<String> = c.band.iter().map(|b| format!("{} from {}:1", odds(b.p_win), b.ratio)).collect();
    format!(
        "Each round goes to the intercepting side with a chance set by the ratio of the factors present on the two \
         sides ({}); the side that loses a round loses {}% of each force's factors, rounded up, and the side that \
         loses the last round loses the combat (N-16.4, the strength model).",
        bands.join(", "),
        c.losses_percent
    )
}

/// The mission's activity as the rules name it (N-4).
pub(super) fn activity_name(activity: Activity) -> &'static str {
    match activity {
        Activity::Raider => "a raid",
        Activity::BaseChange => "a base change",
        Activity::Patrol => "a patrol",
        Activity::CarrierMission => "a carrier mission",
        Activity::NavalNr => "a naval NR",
        Activity::Displaced => "a displacement",
        Activity::ReturningToBase => "a return to base",
        Activity::SeaSupply => "sea supply",
        Activity::SeaTransport => "sea transport",
        Activity::SeaborneInvasion => "a seaborne invasion",
        Activity::ShoreBombardment => "a shore bombardment",
        Activity::SeaEscort => "sea escort",
        Activity::ConvoyRoute => "a convoy route",
        Activity::PatrolInHex => "a patrol that stays on station in its patrol hex",
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::{Overrides, from_str};
    use crate::ruleset::Registry;

    fn words(groups: &str) -> Vec<String> {
        let src = format!("[naval.mission]\nname = \"convoy\"\nactivity = \"sea_transport\"\nfactors = 12\n{groups}");
        let scenario = from_str(
            &Registry::new(vec![&crate::games::naval::NavalRules]),
            &src,
            Path::new("t.toml"),
            Overrides::default(),
        )
        .expect("a valid config");
        scenario.rules.plain_words()
    }

    /// T-5 in words: every modifier named with its sign, the clamp shown, the reach odds from the model.
    #[test]
    fn dice_are_explained_term_by_term() {
        let w = words(
            "[[naval.group]]\nname = \"home\"\ntarget = \"convoy\"\ndistance = 8\nfactors = 5\nspotting = 2\n\
             slow_ships = true\n\
             [[naval.group]]\nname = \"far\"\ntarget = \"convoy\"\ndistance = 9\nfactors = 20\nspotting = 3\n\
             codebreaking = true\n\
             [[naval.group]]\nname = \"counter\"\ntarget = \"home\"\ndistance = 2\nfactors = 5\nslow_ships = true\n",
        );
        assert!(w[0].contains("convoy (12 naval factors), carries out sea transport in Europe"), "{}", w[0]);
        let home = &w[2];
        assert!(home.starts_with("home (5 factors, level 1, defender) intercepts convoy, 8 hexes"), "{home}");
        let dice = "with 5 dice (4 base against sea transport, +2 spotting, \u{2212}1 slow ships; N-4..N-6): it \
                    reaches its hex (N-8) with probability 0.9973 (2585/2592)";
        assert!(home.contains(dice), "{home}");
        assert!(w[3].contains("with 8 dice (4 base against sea transport, +3 spotting, +1 codebreaking;"), "{}", w[3]);
        let counter = &w[4];
        assert!(counter.contains("level 2, moving player) counter-intercepts home"), "{counter}");
        let clamped = "with 0 dice (1 base from port, \u{2212}1 slow ships, \u{2212}1 small enemy force = \u{2212}1, \
                       clamped to 0; N-4..N-6): with no dice it reaches only its base hex (N-6.3), probability 0.0000";
        assert!(counter.contains(clamped), "{counter}");
    }
}
