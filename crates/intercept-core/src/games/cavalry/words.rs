//! The cavalry scenario in plain words, for the report: the target, how the interceptors roll, and each
//! interceptor's order, distance, where it ends, eligibility and odds, in the vocabulary of rules C-1..C-10.
//!
//! Every fact is read from the resolved [`Cavalry`] model where the model settles it (eligibility, the table
//! roll, the target's response to each unit, the morale check), so the words cannot disagree with the trials.

use super::config::{Attempts, CavalryConfig, InterceptorConfig, LeaderSign, Reaction};
use super::react::{Response, Situation};
use super::{Cavalry, Facing, Formation, Order, TargetKind, Unit, barred_by, kind_name};
use crate::games::words::{and_list, count, odds_of};

impl Cavalry {
    /// Sentences describing the scenario: the target first, then how units roll, then one per interceptor.
    pub fn plain_words(&self, cfg: &CavalryConfig) -> Vec<String> {
        let mut out = vec![self.target_words(cfg)];
        out.extend(self.hedgehog_words(cfg));
        out.push(attempts_words(cfg.attempts, self.units.len()));
        out.extend(self.units.iter().zip(&cfg.interceptor).map(|(unit, u)| self.unit_words(cfg, unit, u)));
        out.push(fire_words(cfg));
        out
    }

    fn target_words(&self, cfg: &CavalryConfig) -> String {
        let t = &cfg.target;
        let mut s = format!(
            "The moving enemy unit is {}, {}, morale {}",
            article(kind_name(t.kind)),
            formation_words(t.formation),
            t.morale
        );
        s += &match (t.leader, cfg.leader_sign) {
            (0, _) => ", with no leader stacked with it".to_owned(),
            (l, LeaderSign::Subtract) => {
                format!(", stacked with a leader rated {l}, subtracted from its rolls (C-9.3)")
            }
            (l, LeaderSign::Add) => {
                format!(", stacked with a leader rated {l}, added to its rolls as the seed reads (C-9.3)")
            }
        };
        s += &format!(", movement allowance {} (C-5.7)", self.target.movement);
        if t.rally_orders {
            s += ", under Rally orders, so it may withdraw (C-5.4)";
        }
        s.push('.');
        if t.moving_by_interception {
            s += " It is itself moving by interception, so it cannot be intercepted (C-1.4).";
        }
        s
    }

    /// The hedgehog attempt and its morale check, for heavy infantry that could form hedgehog (C-8, C-9).
    fn hedgehog_words(&self, cfg: &CavalryConfig) -> Option<String> {
        let t = &cfg.target;
        if t.kind != TargetKind::HeavyInfantry {
            return None;
        }
        if t.formation == Formation::Hedgehog {
            return Some("It is already in hedgehog: it has no flank or rear hexes (C-7.4).".into());
        }
        if t.formation == Formation::Broken {
            return Some("Being Formation Broken, it cannot form hedgehog (C-8.1).".into());
        }
        let sign = if cfg.leader_sign == LeaderSign::Subtract { "\u{2212}" } else { "+" };
        let mut roll = "d10".to_owned();
        if t.leader > 0 {
            roll += &format!(" {sign} {} (leader)", t.leader);
        }
        if t.extra_checks > 0 {
            let others = count(t.extra_checks, "other check", "other checks");
            roll += &format!(" + {} ({others} rolled with it, C-9.2)", t.extra_checks);
        }
        let choice = match t.reaction {
            Reaction::Hedgehog => "attempts hedgehog rather than firing",
            _ => "fires rather than attempting hedgehog",
        };
        Some(format!(
            "A hedgehog attempt needs a passed morale check (C-8.2, C-9): {roll} \u{2264} {}, probability {} at its \
             starting morale; each failed check costs it one morale point. Against cavalry in its front or flank it \
             {choice} (C-5.2).",
            t.morale,
            odds_of(self.check_dist(self.target.morale, 0), 1),
        ))
    }

    fn unit_words(&self, cfg: &CavalryConfig, unit: &Unit, u: &InterceptorConfig) -> String {
        let mut s = format!("{}, under {} orders", unit.name, order_name(u.order));
        if u.formation != Formation::Normal {
            s += &format!(", {}", formation_words(u.formation));
        }
        s += &format!(", {} from the target", count(u.distance, "hex", "hexes"));
        if !unit.eligible {
            return format!("{s}, may not attempt: {}.", and_list(&barred_by(cfg, u)));
        }
        let t = cfg.threshold(u.order).unwrap_or(0);
        s += &format!(
            ", intercepts on a d10 roll of 0\u{2013}{t} (C-2), probability {}. It would end in the target's {}",
            odds_of(&unit.roll, 1),
            facing_name(unit.ends_in)
        );
        s += &format!(", where {}", self.response_words(unit));
        s.push('.');
        s
    }

    /// What the target does to this unit, out of hedgehog and, if it can be in hedgehog by then, in it.
    fn response_words(&self, unit: &Unit) -> String {
        let [outside, inside, ..] = unit.responses;
        if self.target.formation == Formation::Hedgehog {
            return response_name(inside, Facing::Front);
        }
        let first = response_name(outside, unit.ends_in);
        let can_be_in_hedgehog = self.target.can_form_hedgehog(Situation { in_hedgehog: false, broken: false });
        if can_be_in_hedgehog && inside != outside {
            let then = match inside {
                Response::Fire => "fires at it in reaction instead",
                _ => "does not react to it",
            };
            return format!(
                "{first}; if the target is in hedgehog by then, it has no flank or rear (C-7.4) and {then}"
            );
        }
        first
    }
}

/// What follows each interception: fire both ways, the checks its hits call for, and how they are rolled
/// (C-4.5, C-4.6, C-9.2, C-9.4).
fn fire_words(cfg: &CavalryConfig) -> String {
    let h = &cfg.fire.check_hits;
    let mut s = format!(
        "After the target's reaction, an interceptor that was not left behind by a withdrawal fires at it (C-4.6). \
         Hits follow the chances of [cavalry.fire] by the firer's type, {} fewer for a shaken firer or one in open \
         order; {} hit{} call for a morale check at the target's morale {} (C-9.4, A-21).",
        cfg.fire.shaken_hits,
        h[cfg.target.morale.clamp(0, 10) as usize],
        if h[cfg.target.morale.clamp(0, 10) as usize] == 1 { "" } else { "s" },
        cfg.target.morale,
    );
    s += match cfg.combine_checks {
        super::config::CombineChecks::WhenDue => " Each check is rolled when it falls due (C-9.2).",
        super::config::CombineChecks::PerInterception => {
            " The checks one interception brings are rolled as one, +1 for each after the first (C-9.2)."
        }
    };
    if cfg.target.formation == Formation::Column {
        s += " In column, the target drops to Formation Broken as soon as it is fired on (C-7.6).";
    }
    s
}

fn attempts_words(attempts: Attempts, units: usize) -> String {
    let order = match (attempts, units) {
        (Attempts::All, 2..) => " Successful interceptors are resolved in the order listed.",
        _ => "",
    };
    match attempts {
        Attempts::All => {
            format!("Every eligible interceptor rolls once; a failed roll uses up its interception (C-3.2).{order}")
        }
        Attempts::UntilSuccess => "Interceptors roll in the order listed until one succeeds, since the intercepted \
                                   unit's move ends (C-4.10)."
            .to_owned(),
    }
}

fn response_name(response: Response, facing: Facing) -> String {
    match (response, facing) {
        (Response::Fire, _) => "the target fires at it in reaction (C-4.5, C-6)".into(),
        (Response::Hedgehog, Facing::Rear) => "the target must attempt hedgehog (C-8.3)".into(),
        (Response::Hedgehog, _) => "the target attempts hedgehog (C-5.2, C-8)".into(),
        (Response::Face, _) => "the target changes facing toward it, so it engages the target's front (C-5.3)".into(),
        (Response::Withdraw, _) => "the target withdraws, leaving it nothing to engage (C-5.4)".into(),
        (Response::Nothing, _) => "it draws no reaction (C-6)".into(),
    }
}

pub(super) fn order_name(order: Order) -> &'static str {
    match order {
        Order::Charge => "Charge",
        Order::MakeReady => "Make Ready",
        Order::ReceiveCharge => "Receive Charge",
        Order::Rally => "Rally",
    }
}

pub(super) fn facing_name(facing: Facing) -> &'static str {
    match facing {
        Facing::Front => "front",
        Facing::Flank => "flank",
        Facing::Rear => "rear",
    }
}

/// A formation as the rules name it, with its abbreviation (C-7).
pub(super) fn formation_words(formation: Formation) -> &'static str {
    match formation {
        Formation::Normal => "in normal formation (FN)",
        Formation::Shaken => "shaken (FS)",
        Formation::Broken => "broken (FB)",
        Formation::Hedgehog => "in hedgehog (HH)",
        Formation::OpenOrder => "in open order (OO)",
        Formation::Column => "in column (COL)",
    }
}

fn article(noun: &str) -> String {
    let vowel = noun.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::{Overrides, from_str};
    use crate::ruleset::Registry;

    fn words(src: &str) -> Vec<String> {
        let scenario = from_str(
            &Registry::new(vec![&crate::games::cavalry::CavalryRules]),
            src,
            Path::new("t.toml"),
            Overrides::default(),
        )
        .expect("a valid config");
        scenario.rules.plain_words()
    }

    #[test]
    fn each_interceptor_gets_its_odds_or_the_rule_that_bars_it() {
        let w = words(
            "[[cavalry.interceptor]]\nname = \"guard\"\norder = \"charge\"\ndistance = 3\nends_in = \"rear\"\n\
             [[cavalry.interceptor]]\nname = \"idle\"\norder = \"rally\"\ndistance = 2\n\
             [[cavalry.interceptor]]\nname = \"far\"\norder = \"make_ready\"\ndistance = 6\nformation = \"broken\"\n\
             [cavalry.target]\nkind = \"heavy_infantry\"\nmorale = 6\nleader = 1\n",
        );
        assert!(w[0].starts_with("The moving enemy unit is a heavy infantry unit, in normal formation (FN), morale 6"));
        assert!(w[1].contains("d10 \u{2212} 1 (leader) \u{2264} 6, probability 0.8000 (4/5)"), "{}", w[1]);
        let guard = &w[3];
        assert!(guard.contains("on a d10 roll of 0\u{2013}5 (C-2), probability 0.6000 (3/5)"), "{guard}");
        assert!(guard.contains("the target must attempt hedgehog (C-8.3)"), "{guard}");
        assert!(w[4].ends_with("may not attempt: it is under Rally orders (C-1.7)."), "{}", w[4]);
        let far = &w[5];
        assert!(
            far.contains("it is Formation Broken (C-1.2) and the enemy is more than 4 hexes away (C-1.3)"),
            "{far}"
        );
    }
}
