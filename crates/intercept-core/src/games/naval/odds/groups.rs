//! `odds naval --group ...`: do several groups, each with its own distance and dice modifiers, reach the
//! mission? The first level of an interception chain (N-4..N-8), asked from the table without a scenario
//! file: the groups are written as one scenario, every group at level 1 aimed at the mission, and solved
//! exactly by the naval rules themselves ([`crate::odds::answer`]). The chance that at least one reaches is
//! the scenario's `mission.intercepted` (N-8.6), each group's its `group.<name>.reached`, and each group's
//! dice the [`DiceCount`] the rules settled when the scenario resolved, so no rule is written here twice.

use std::fmt::Write;

use num_rational::BigRational;
use serde_json::json;

use super::super::NavalRules;
use super::super::config::Activity;
use super::super::dice::DiceCount;
use super::super::words::{activity_name, dice_reason};
use crate::config::path::Seg;
use crate::fraction::{text, to_f64};
use crate::games::words::count;
use crate::odds::{Answer, OddsError, answer};
use crate::present::{exact_text, how_often_exactly};
use crate::ruleset::{Resolved, ToolError, View};
use crate::text::csv_line;

/// The most groups one question takes: few enough that the scenario solves at once at the distances groups
/// are sent (8 groups of 4 dice at 11 to 18 hexes: 0.1 s in a debug build).
pub const MOST_GROUPS: usize = 8;

/// The mission's activity when none is given: a sea transport, as in the starter config (N-4).
pub const DEFAULT_ACTIVITY: Activity = Activity::SeaTransport;

/// The mission's naval factors when none are given: too many for the small-force die (N-5.8).
pub const DEFAULT_FACTORS: u32 = 20;

/// How a `--group` is written, for help and messages.
pub const GROUP_SPEC: &str = "DISTANCE[,MODIFIER...]";

/// The modifiers a `--group` may name that are switches, each with the `[[naval.group]]` key and value it
/// sets (N-5.2, N-5.3, N-5.5, N-5.7); `spotting=N` (N-5.1) is the one that takes a number.
const SWITCHES: [(&str, &str, bool); 4] = [
    ("codebreaking", "codebreaking", true),
    ("mission-hex", "in_mission_hex", true),
    ("slow-ships", "slow_ships", true),
    ("non-operational-port", "port_operational", false),
];

/// `spotting=N`: the modifier with a number, and the `[[naval.group]]` key it sets.
const SPOTTING: &str = "spotting";

/// The range of `spotting=N`: the spotting factors a group's config allows (N-5.1).
const MOST_SPOTTING: u32 = 99;

/// The most hexes a group may be from its interception hex, as its config allows.
const MOST_DISTANCE: u32 = 99;

/// One intercepting group as `--group` gives it: its distance and the keys its modifiers set.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupSpec {
    /// As written, for messages.
    pub written: String,
    pub distance: u32,
    /// `[[naval.group]]` keys and values, in the order written.
    pub keys: Vec<(&'static str, serde_json::Value)>,
}

impl GroupSpec {
    /// Reads `DISTANCE[,MODIFIER...]`, such as `6,slow-ships,spotting=2`: strict, every part known and each
    /// modifier given once.
    pub fn read(written: &str) -> Result<GroupSpec, ToolError> {
        let refuse = |why: String| refusal(written, why);
        let mut parts = written.split(',').map(str::trim);
        let first = parts.next().unwrap_or_default();
        let distance = whole(first, MOST_DISTANCE).ok_or_else(|| {
            refuse(format!(
                "the distance {first:?} is not a whole number from 0 to {MOST_DISTANCE}; write {GROUP_SPEC}, such as \
                 6,slow-ships,spotting=2"
            ))
        })?;
        let mut keys: Vec<(&'static str, serde_json::Value)> = Vec::new();
        for part in parts {
            let (key, value) = modifier(part, &refuse)?;
            if keys.iter().any(|(k, _)| *k == key) {
                return Err(refuse(format!("{} given twice; give it once", part.split('=').next().unwrap_or(part))));
            }
            keys.push((key, value));
        }
        Ok(GroupSpec { written: written.to_owned(), distance, keys })
    }

    /// The word of `--group` that sets config key `key`, for a message about it.
    fn word_for(key: &str) -> &'static str {
        SWITCHES.iter().find(|(_, k, _)| *k == key).map_or(SPOTTING, |(word, _, _)| word)
    }
}

/// `--group` as written refused, saying why.
fn refusal(written: &str, why: String) -> ToolError {
    ToolError::param("group", format!("{:?}: {why}", crate::text::clip(written, 60)))
}

/// The `[[naval.group]]` key and value of one modifier, or its refusal by `refuse`, saying why.
fn modifier(part: &str, refuse: &dyn Fn(String) -> ToolError) -> Result<(&'static str, serde_json::Value), ToolError> {
    if let Some((_, key, value)) = SWITCHES.iter().find(|(word, _, _)| *word == part) {
        return Ok((key, json!(value)));
    }
    match part.split_once('=') {
        Some((SPOTTING, n)) => whole(n, MOST_SPOTTING).map(|n| (SPOTTING, json!(n))).ok_or_else(|| {
            refuse(format!(
                "{part} is not allowed; allowed: spotting=N with N a whole number from 0 to {MOST_SPOTTING}"
            ))
        }),
        _ => Err(refuse(format!("no modifier {part:?}; allowed: {}", modifier_words()))),
    }
}

/// Every modifier a `--group` may name, as its help and its messages list them.
pub fn modifier_words() -> String {
    let switches = SWITCHES.iter().map(|(word, _, _)| *word);
    std::iter::once("spotting=N").chain(switches).collect::<Vec<_>>().join(", ")
}

fn whole(text: &str, most: u32) -> Option<u32> {
    text.parse::<u32>().ok().filter(|n| *n <= most)
}

/// "Do these groups reach the mission?": the groups, the mission they intercept, and how dice are read.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupsQuestion {
    pub groups: Vec<GroupSpec>,
    /// What the mission is doing: the groups' base dice (N-4).
    pub activity: Activity,
    /// The mission's naval factors: under the threshold, one die fewer (N-5.8).
    pub factors: u32,
    /// Movement halved, rounding up (N-8.2).
    pub pacific: bool,
    /// Read the highest die instead of the sum (the A-1 alternative).
    pub highest: bool,
}

/// The name of group `i` (from 0) in the question's scenario.
fn name(i: usize) -> String {
    format!("group-{}", i + 1)
}

impl GroupsQuestion {
    /// The question as a scenario's `[naval]` table: every group aimed at the mission (level 1) with its
    /// modifiers, every other key at its default. What a group that falls short does (N-9.1) comes after the
    /// first rolls, all the answer reads, so each aborts: the scenario stays small enough to solve at once.
    pub fn table(&self) -> serde_json::Value {
        let groups: Vec<serde_json::Value> = self
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let mut group = json!({
                    "name": name(i), "target": "mission", "distance": g.distance,
                    "factors": DEFAULT_FACTORS, "on_fail": "abort",
                });
                for (key, value) in &g.keys {
                    group[*key] = value.clone();
                }
                group
            })
            .collect();
        json!({
            "theater": if self.pacific { "pacific" } else { "europe" },
            "mission": { "name": "mission", "activity": self.activity, "factors": self.factors },
            "group": groups,
            "rules": { "movement": if self.highest { "highest" } else { "sum" } },
        })
    }

    /// The answer, by the naval rules alone; a modifier the rules refuse for this mission is named with its
    /// group.
    pub fn ask(&self) -> Result<GroupsAnswer, ToolError> {
        let answer = answer(&NavalRules, self.table()).map_err(|e| self.refusal(e))?;
        let resolved = answer.rules.as_any().downcast_ref::<Resolved<NavalRules>>();
        let Resolved { config, model, .. } = resolved.expect("a naval question's scenario");
        let reach = |i: usize| answer.fraction(&format!("group.{}.reached", name(i))).unwrap_or_default();
        let groups = (model.groups.iter().zip(&config.group).enumerate())
            .map(|(i, (g, raw))| GroupOdds {
                distance: g.distance,
                dice: g.dice.clone(),
                why: dice_reason(config, g, raw),
                reach: reach(i),
            })
            .collect();
        let any = answer.fraction("mission.intercepted").unwrap_or_default();
        Ok(GroupsAnswer { question: self.clone(), any, groups, answer })
    }

    /// Why the rules refuse the question: a group's key refused is that group's `--group` refused, in the
    /// rules' words; a scenario too large to solve at once, said so.
    fn refusal(&self, e: OddsError) -> ToolError {
        if let OddsError::Invalid(invalid) = &e
            && let [Seg::Key(_), Seg::Key(_), Seg::Index(i), Seg::Key(key)] = &invalid.path.0[..]
            && let Some(g) = self.groups.get(*i)
        {
            return refusal(&g.written, format!("{} {}", GroupSpec::word_for(key), invalid.message));
        }
        match e {
            OddsError::TooLarge(_) => ToolError::Failed(format!(
                "{} at these distances are more than the quick odds solve exactly; ask about fewer groups, or write \
                 them as [[naval.group]] tables and run the scenario",
                count(self.groups.len() as i64, "group", "groups")
            )),
            e => ToolError::Failed(e.to_string()),
        }
    }
}

/// One group's part of the answer: its dice as the rules count them and its own chance to reach.
#[derive(Debug)]
pub struct GroupOdds {
    pub distance: u32,
    pub dice: DiceCount,
    /// How its dice come about, in words: "4 base against sea transport, −1 slow ships".
    pub why: String,
    pub reach: BigRational,
}

/// `odds naval --group ...`'s answer: the chance that at least one group reaches, then each group's.
#[derive(Debug)]
pub struct GroupsAnswer {
    pub question: GroupsQuestion,
    /// At least one group reaches the mission's interception hex (N-8.6).
    pub any: BigRational,
    pub groups: Vec<GroupOdds>,
    /// The scenario solved.
    pub answer: Answer,
}

impl GroupsAnswer {
    /// The answer in one sentence: "At least one of 2 groups reaches the mission's interception hex 96.1% of
    /// the time (exactly 623/648)."
    pub fn sentence(&self) -> String {
        let q = &self.question;
        let who = match q.groups.len() {
            1 => "1 group reaches".to_owned(),
            n => format!("at least one of {n} groups reaches"),
        };
        let text = format!(
            "{}{who} the mission's interception hex {}.",
            super::reading(q.pacific, q.highest),
            how_often_exactly(&self.any)
        );
        crate::text::capitalised(&text)
    }
}

/// A group's modifiers as the rules name them, for a CSV cell: "+1 codebreaking; -1 slow ships".
fn modifiers(dice: &DiceCount) -> String {
    dice.terms.iter().map(|&(what, n)| format!("{n:+} {what}")).collect::<Vec<_>>().join("; ")
}

impl View for GroupsAnswer {
    /// The sentence, the mission and the reading of the dice, then each group: its dice and how they come
    /// about, and its chance to reach.
    fn text(&self) -> String {
        let q = &self.question;
        let mut out = self.sentence() + "\n";
        let theater = if q.pacific { "Pacific (total halved, rounding up)" } else { "Europe" };
        let how = if q.highest { "highest die" } else { "sum of the dice" };
        let mission = activity_name(q.activity);
        let factors = count(i64::from(q.factors), "naval factor", "naval factors");
        let groups = count(q.groups.len() as i64, "group", "groups");
        let _ = writeln!(out, "{groups} against {mission} ({factors}), {theater}, {how}\n");
        for (i, g) in self.groups.iter().enumerate() {
            let _ = writeln!(
                out,
                "group {}, {}: {} ({}; N-4..N-6); P(reach) = {}",
                i + 1,
                count(i64::from(g.distance), "hex", "hexes"),
                count(i64::from(g.dice.dice), "die", "dice"),
                g.why,
                exact_text(&g.reach)
            );
        }
        out
    }

    /// A row per group: its distance, base dice, modifiers, dice and chance to reach, in full and exactly.
    fn csv(&self) -> Option<String> {
        let mut out = csv_line(&["group", "distance", "base_dice", "modifiers", "dice", "p_reach", "p_reach_fraction"]);
        for (i, g) in self.groups.iter().enumerate() {
            out += &csv_line(&[
                (i + 1).to_string(),
                g.distance.to_string(),
                g.dice.base.to_string(),
                modifiers(&g.dice),
                g.dice.dice.to_string(),
                to_f64(&g.reach).to_string(),
                text(&g.reach),
            ]);
        }
        Some(out)
    }

    /// The sentence, the question, the chance that at least one reaches, and each group's dice (with how they
    /// are counted: the base and each modifier by name, and in words) and chance to reach, every chance also as
    /// an exact fraction.
    fn json(&self) -> serde_json::Value {
        let q = &self.question;
        let groups: Vec<_> = self
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let terms: Vec<_> =
                    g.dice.terms.iter().map(|&(what, n)| json!({ "modifier": what, "dice": n })).collect();
                json!({
                    "group": i + 1, "distance": g.distance, "dice": g.dice.dice,
                    "dice_count": { "base": g.dice.base, "modifiers": terms }, "dice_from": g.why,
                    "p_reach": to_f64(&g.reach), "p_reach_fraction": text(&g.reach),
                })
            })
            .collect();
        json!({
            "answer": self.sentence(),
            "activity": q.activity, "factors": q.factors,
            "theater": if q.pacific { "pacific" } else { "europe" },
            "movement": if q.highest { "highest" } else { "sum" },
            "p_intercept": to_f64(&self.any), "p_intercept_fraction": text(&self.any),
            "groups": groups,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    fn question(activity: Activity, groups: &[&str]) -> GroupsQuestion {
        let groups = groups.iter().map(|g| GroupSpec::read(g).expect("a group")).collect();
        GroupsQuestion { groups, activity, factors: DEFAULT_FACTORS, pacific: false, highest: false }
    }

    /// Two groups 7 hexes out against a raid, worked by hand from the reach table (T-1): 1 base die (N-4) and
    /// codebreaking's +1 (N-5.2) make 2 dice, which reach 7 hexes 7/12 of the time; +2 spotting (N-5.1) makes
    /// 3, which reach 49/54; at least one of the two, rolled apart (N-3.1): 1 - (5/12)(5/54) = 623/648.
    #[test]
    fn two_groups_reach_as_worked_by_hand() {
        let a = question(Activity::Raider, &["7,codebreaking", "7,spotting=2"]).ask().expect("answers");
        let dice: Vec<u32> = a.groups.iter().map(|g| g.dice.dice).collect();
        assert_eq!(dice, [2, 3]);
        assert_eq!((a.groups[0].reach.clone(), a.groups[1].reach.clone()), (r(7, 12), r(49, 54)));
        assert_eq!(a.any, r(1, 1) - r(5, 12) * r(5, 54));
        assert_eq!(a.any, r(623, 648));
        assert_eq!(
            a.sentence(),
            "At least one of 2 groups reaches the mission's interception hex 96.1% of the time (exactly 623/648)."
        );
        assert_eq!(a.groups[1].why, "1 base against a raid, +2 spotting");
    }

    /// The same dice from the default mission, a sea transport's 4 base dice (N-4): slow ships −1 (N-5.5)
    /// and a non-operational port −2 (N-5.7); as JSON, fractions as strings and the modifiers by name.
    #[test]
    fn modifiers_take_dice_away_and_the_json_names_them() {
        let a = question(DEFAULT_ACTIVITY, &["7,slow-ships", "7,non-operational-port"]).ask().expect("answers");
        let json = a.json();
        assert_eq!(json["p_intercept_fraction"], "623/648");
        assert_eq!(json["groups"][0]["p_reach_fraction"], "49/54");
        assert_eq!(json["groups"][1]["p_reach_fraction"], "7/12");
        let count = json!({ "base": 4, "modifiers": [{ "modifier": "non-operational port", "dice": -2 }] });
        assert_eq!(json["groups"][1]["dice_count"], count);
        assert_eq!(json["groups"][0]["dice_from"], "4 base against sea transport, \u{2212}1 slow ships");
        let csv = a.csv().expect("a table");
        assert_eq!(csv.lines().nth(1), Some("1,7,4,-1 slow ships,3,0.9074074074074074,49/54"));
    }

    /// A small mission costs every group a die (N-5.8); spotting counts at most 3 (N-5.1); one group alone
    /// reaches as its dice do (T-1: 4 dice at 9 hexes, .946).
    #[test]
    fn small_forces_and_spotting_follow_the_rules() {
        let mut q = question(DEFAULT_ACTIVITY, &["9", "9,spotting=7"]);
        q.factors = 9;
        let a = q.ask().expect("answers");
        let dice: Vec<u32> = a.groups.iter().map(|g| g.dice.dice).collect();
        assert_eq!(dice, [3, 6], "4 base -1 small force; 4 +3 spotting -1");
        assert_eq!(a.groups[0].reach, r(20, 27), "3 dice reach 9 hexes 160/216 of the time (T-1: .741)");
        let one = question(DEFAULT_ACTIVITY, &["9"]).ask().expect("answers");
        assert_eq!(one.any, one.groups[0].reach);
        assert!(one.sentence().starts_with("1 group reaches the mission's interception hex 94.6% of the time"));
    }

    /// `--group` is strict: the distance, each modifier and its number checked, each given once, and a
    /// modifier the rules refuse for this mission named in the rules' words.
    #[test]
    fn a_bad_group_is_refused_naming_the_bad_part() {
        let err = |g: &str| GroupSpec::read(g).unwrap_err().to_string();
        assert_eq!(
            err("6,slow"),
            "group: \"6,slow\": no modifier \"slow\"; allowed: spotting=N, codebreaking, mission-hex, slow-ships, \
             non-operational-port"
        );
        assert!(err("x").starts_with("group: \"x\": the distance \"x\" is not a whole number from 0 to 99;"));
        assert!(err("100").contains("the distance \"100\" is not"));
        assert!(err("6,spotting=-1").contains("spotting=-1 is not allowed; allowed: spotting=N with N a whole number"));
        assert_eq!(
            err("6, slow-ships ,slow-ships"),
            "group: \"6, slow-ships ,slow-ships\": slow-ships given twice; give it once"
        );
        let refused = question(DEFAULT_ACTIVITY, &["4", "7,mission-hex"]).ask().unwrap_err().to_string();
        assert_eq!(
            refused,
            "group: \"7,mission-hex\": mission-hex applies only to a group intercepting a seaborne_invasion or \
             shore_bombardment mission"
        );
        let invasion = question(Activity::SeaborneInvasion, &["7,mission-hex"]).ask().expect("answers");
        assert_eq!(invasion.groups[0].dice.dice, 5, "4 base +1 mission hex (N-5.3)");
    }

    /// The help of `--group` names every modifier it reads, and how many groups it takes.
    #[test]
    fn the_help_names_every_modifier() {
        let help = super::super::GROUP_HELP;
        for word in modifier_words().split(", ") {
            assert!(help.contains(word), "{word}");
        }
        assert!(help.contains(&format!("up to {MOST_GROUPS})")), "{help}");
    }

    /// The tool answers the groups when they are given, through the same checked values as a page's form.
    #[test]
    fn the_tool_answers_groups_given_as_a_form_does() {
        let pairs = [("group", "7,codebreaking"), ("group", "7,spotting=2"), ("activity", "raider")];
        let query: Vec<(String, String)> = pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        let answer = crate::ruleset::answer_query(&super::super::NavalOdds, &query).expect("answers");
        assert_eq!(answer["p_intercept_fraction"], "623/648");
        assert_eq!(answer["factors"], DEFAULT_FACTORS);
    }
}
