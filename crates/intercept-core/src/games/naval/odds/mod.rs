//! The naval rule set's two tools: `odds naval` ([`NavalOdds`]), the exact chance that n interception dice
//! reach a hex d hexes away (N-7, N-8), answered by the naval rules themselves through a one-group scenario
//! ([`crate::odds`]), or that several groups with their dice modifiers reach the mission ([`groups`]); and
//! `reach-table` ([`ReachTables`]), the [`ReachTable`] of every number of dice and distance. Each answer
//! prints as text, CSV or JSON.

mod groups;

use std::fmt::Write;
use std::sync::OnceLock;

use serde_json::json;

pub use self::groups::{DEFAULT_ACTIVITY, DEFAULT_FACTORS, GroupSpec, GroupsAnswer, GroupsQuestion, MOST_GROUPS};
use super::NavalRules;
use super::config::{Activity, MoveRule};
use crate::odds::{Answer, INTERCEPTOR, OddsError, answer};
use crate::present::{exact_text, how_often_exactly};
use crate::ruleset::{Format, Input, Mount, Param, ParamKind, Tool, ToolError, Values, View};
use crate::text::csv_line;

/// "What are my odds with `dice` dice at `distance` hexes?" (N-7, N-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavalQuestion {
    pub dice: u32,
    pub distance: u32,
    /// Movement halved, rounding up (N-8.2).
    pub pacific: bool,
    /// Read the highest die instead of the sum (the A-1 alternative).
    pub highest: bool,
}

impl NavalQuestion {
    /// The question as a scenario's `[naval]` table: one group, its base dice set to `dice` and no modifiers
    /// apply.
    pub fn table(&self) -> serde_json::Value {
        json!({
            "theater": if self.pacific { "pacific" } else { "europe" },
            "mission": { "name": "mission", "activity": DEFAULT_ACTIVITY, "factors": DEFAULT_FACTORS },
            "group": [{ "name": INTERCEPTOR, "target": "mission", "distance": self.distance, "factors": DEFAULT_FACTORS }],
            "rules": {
                "movement": if self.highest { "highest" } else { "sum" },
                "base_dice": { activity_word(DEFAULT_ACTIVITY): self.dice },
            },
        })
    }
}

/// The answer to `q`, by the naval rules alone.
pub fn ask(q: &NavalQuestion) -> Result<Answer, OddsError> {
    answer(&NavalRules, q.table())
}

/// `reach-table`: P(reach) by dice (rows, from 0) and distance in hexes (columns, from 1).
pub struct ReachTable {
    pub pacific: bool,
    pub highest: bool,
    /// `rows[n][d - 1]`: the chance that n dice reach d hexes.
    pub rows: Vec<Vec<f64>>,
}

impl ReachTable {
    pub fn new(pacific: bool, highest: bool, max_distance: u32) -> ReachTable {
        let rule = if highest { MoveRule::Highest } else { MoveRule::Sum };
        ReachTable { pacific, highest, rows: super::dice::reach_table(rule, pacific, max_distance) }
    }

    fn distances(&self) -> Vec<String> {
        (1..=self.rows[0].len()).map(|d| d.to_string()).collect()
    }
}

impl View for ReachTable {
    /// As a Markdown table, three decimals a cell.
    fn text(&self) -> String {
        let mut out = String::new();
        let how = if self.highest { "highest die" } else { "sum of the dice" };
        let theater = if self.pacific { "Pacific (total halved, rounded up)" } else { "Europe" };
        let _ = writeln!(out, "P(reach) by dice and distance in hexes: {theater}, {how}\n");
        let _ = writeln!(out, "| dice | {} |", self.distances().join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(self.rows[0].len()));
        for (n, row) in self.rows.iter().enumerate() {
            let cells: Vec<String> = row.iter().map(|&p| probability_cell(p)).collect();
            let _ = writeln!(out, "| {n} | {} |", cells.join(" | "));
        }
        out
    }

    /// As CSV, the same layout: a `dice` column, then one column per distance, every value in full.
    fn csv(&self) -> Option<String> {
        let mut out = csv_line(&[vec!["dice".to_owned()], self.distances()].concat());
        for (n, row) in self.rows.iter().enumerate() {
            out += &csv_line(&[vec![n.to_string()], row.iter().map(f64::to_string).collect()].concat());
        }
        Some(out)
    }

    /// As JSON: the rules read, the distances, and each number of dice with its row of chances.
    fn json(&self) -> serde_json::Value {
        let rows: Vec<_> = self.rows.iter().enumerate().map(|(n, r)| json!({ "dice": n, "p_reach": r })).collect();
        json!({
            "theater": if self.pacific { "pacific" } else { "europe" },
            "movement": if self.highest { "highest" } else { "sum" },
            "distances": (1..=self.rows[0].len()).collect::<Vec<_>>(),
            "rows": rows,
        })
    }
}

/// Three decimals, with exact 0 and 1 shown as such and values that round to them marked (as the rule book does).
fn probability_cell(p: f64) -> String {
    match p {
        0.0 => "0".into(),
        1.0 => "1".into(),
        p if p > 0.9995 => ">.999".into(),
        p if p < 0.0005 => "<.001".into(),
        p => format!("{p:.3}").trim_start_matches('0').to_owned(),
    }
}

/// `odds naval`'s answer: the question and its exact odds.
pub struct NavalAnswer {
    pub question: NavalQuestion,
    pub answer: Answer,
}

impl NavalAnswer {
    /// The chance the group moves 0, 1, 2, ... hexes.
    fn moved(&self) -> Vec<f64> {
        self.answer.distribution(&format!("group.{INTERCEPTOR}.movement")).unwrap_or_default()
    }
}

impl View for NavalAnswer {
    /// P(reach), then how far the group gets.
    fn text(&self) -> String {
        let (q, a) = (&self.question, &self.answer);
        let mut out = String::new();
        let theater = if q.pacific { "Pacific (total halved, rounding up)" } else { "Europe" };
        let how = if q.highest { "highest die" } else { "sum of the dice" };
        let _ = writeln!(out, "{} dice at {} hexes, {theater}, {how}", q.dice, q.distance);
        let reach = a.fraction(&format!("group.{INTERCEPTOR}.reached")).unwrap_or_default();
        let _ = writeln!(out, "P(reach) = {}\n", exact_text(&reach));
        let _ = writeln!(out, "hexes moved    probability");
        let moved = a.distribution_fractions(&format!("group.{INTERCEPTOR}.movement")).unwrap_or_default();
        for (hexes, p) in moved.iter().enumerate() {
            let label = if hexes as u32 == q.distance { format!("{hexes} (reached)") } else { hexes.to_string() };
            let _ = writeln!(out, "{label:<14} {}", exact_text(p));
        }
        out
    }

    /// The table of hexes moved, with whether that distance reaches the interception hex.
    fn csv(&self) -> Option<String> {
        let mut out = csv_line(&["hexes", "probability", "reached"]);
        for (hexes, p) in self.moved().into_iter().enumerate() {
            out += &csv_line(&[hexes.to_string(), p.to_string(), (hexes as u32 == self.question.distance).to_string()]);
        }
        Some(out)
    }

    /// The question, P(reach), and the chance of each number of hexes moved.
    fn json(&self) -> serde_json::Value {
        let (q, a) = (&self.question, &self.answer);
        let fractions = a.distribution_fractions(&format!("group.{INTERCEPTOR}.movement")).unwrap_or_default();
        let moved: Vec<_> = fractions
            .iter()
            .enumerate()
            .map(|(hexes, p)| {
                let (probability, fraction) = (crate::fraction::to_f64(p), crate::fraction::text(p));
                json!({ "hexes": hexes, "probability": probability, "fraction": fraction, "reached": hexes as u32 == q.distance })
            })
            .collect();
        let reach = a.fraction(&format!("group.{INTERCEPTOR}.reached")).unwrap_or_default();
        json!({
            "answer": naval_answer(q, &reach),
            "dice": q.dice, "distance": q.distance,
            "theater": if q.pacific { "pacific" } else { "europe" },
            "movement": if q.highest { "highest" } else { "sum" },
            "p_reach": crate::fraction::to_f64(&reach),
            "p_reach_fraction": crate::fraction::text(&reach),
            "moved": moved,
        })
    }
}

/// The answer in one sentence: "2 dice reach a hex 7 hexes away 58.3% of the time (exactly 7/12)."
fn naval_answer(q: &NavalQuestion, reach: &num_rational::BigRational) -> String {
    let dice = if q.dice == 1 { "1 die reaches".to_owned() } else { format!("{} dice reach", q.dice) };
    let hexes = if q.distance == 1 { "1 hex" } else { &format!("{} hexes", q.distance) };
    format!("{}{dice} a hex {hexes} away {}.", reading(q.pacific, q.highest), how_often_exactly(reach))
}

/// How the dice are read, as an answer's sentence opens: nothing for the sum in Europe.
fn reading(pacific: bool, highest: bool) -> &'static str {
    match (pacific, highest) {
        (true, true) => "In the Pacific (the total halved, rounding up), reading the highest die, ",
        (true, false) => "In the Pacific (the total halved, rounding up), ",
        (false, true) => "Reading the highest die, ",
        (false, false) => "",
    }
}

/// An activity as the config writes it: `sea_transport`.
fn activity_word(activity: Activity) -> &'static str {
    let words = activity_words();
    Activity::ALL.iter().position(|a| *a == activity).map_or("", |i| words[i])
}

/// Every activity as the config writes it, in the order of [`Activity::ALL`]: the choices of `--activity`.
fn activity_words() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let word = |a: &Activity| serde_json::to_value(a).ok().and_then(|v| v.as_str().map(str::to_owned));
        Activity::ALL.iter().map(|a| &*word(a).unwrap_or_default().leak()).collect()
    })
}

/// `odds naval`: the chance that n dice reach a hex d hexes away, and how far the group gets; or, given
/// `--group`s instead, that at least one of those groups reaches the mission, and each group's dice and chance.
pub struct NavalOdds;

/// The two switches both naval tools take.
fn switches() -> [Param; 2] {
    let flag = |name, help| Param { default: Some(json!(false)), ..Param::new(name, ParamKind::Flag, help) };
    [
        flag("pacific", "Halve the dice total, rounding up, as in the Pacific (N-8.2)."),
        flag("highest", "Read the highest die instead of the sum (the A-1 alternative)."),
    ]
}

impl Tool for NavalOdds {
    fn mount(&self) -> Mount {
        Mount::Odds("naval")
    }

    fn title(&self) -> &'static str {
        "Do n interception dice reach a hex d hexes away, or do these groups reach the mission? (N-4..N-8)"
    }

    fn examples(&self) -> &'static [&'static str] {
        &[
            "odds naval --dice 4 --distance 7 --pacific",
            "odds naval --group 7,slow-ships --group 7,non-operational-port",
            "odds naval --activity raider --group 7,codebreaking --group 7,spotting=2",
        ]
    }

    fn params(&self) -> Vec<Param> {
        let param = Param::new;
        let one_group =
            |name, kind, help| Param { required: true, alternative: Some("group"), ..param(name, kind, help) };
        let with_groups = |name, kind, default, help| Param {
            default: Some(default),
            requires: Some("group"),
            ..param(name, kind, help)
        };
        let mut params = vec![
            one_group(
                "dice",
                ParamKind::Whole { least: 0, most: 8 },
                "One group's interception dice, after modifiers (N-6); or give group instead.",
            ),
            one_group(
                "distance",
                ParamKind::Whole { least: 0, most: 99 },
                "Hexes from that group's base to its interception hex; or give group instead.",
            ),
            param("group", ParamKind::Text { value_name: groups::GROUP_SPEC, many: true }, GROUP_HELP),
            with_groups(
                "activity",
                ParamKind::Choice { allowed: activity_words() },
                json!(activity_word(DEFAULT_ACTIVITY)),
                "What the mission does, which sets the groups' base dice (N-4); with group.",
            ),
            with_groups(
                "factors",
                ParamKind::Whole { least: 0, most: 999 },
                json!(DEFAULT_FACTORS),
                "The mission's naval factors: under 10, one die fewer for every group (N-5.8); with group.",
            ),
        ];
        params.extend(switches());
        params
    }

    fn formats(&self) -> &'static [Format] {
        &[Format::Text, Format::Json, Format::Csv]
    }

    fn answer(&self, input: &Input<'_>) -> Result<Box<dyn View>, ToolError> {
        let v = &input.values;
        if !v.texts("group").is_empty() {
            return Ok(Box::new(groups_question(v)?.ask()?));
        }
        let q = NavalQuestion {
            dice: v.small("dice"),
            distance: v.small("distance"),
            pacific: v.flag("pacific"),
            highest: v.flag("highest"),
        };
        let answer = ask(&q).map_err(|e| ToolError::Failed(e.to_string()))?;
        Ok(Box::new(NavalAnswer { question: q, answer }))
    }
}

/// What `--group` takes, for its help.
const GROUP_HELP: &str = "A group intercepting the mission (level 1; repeatable, up to 8): its distance in hexes, \
     then any of spotting=N, codebreaking, mission-hex, slow-ships, non-operational-port (N-5), such as \
     6,slow-ships,spotting=2; instead of dice and distance.";

/// The groups question `v` asks: every `--group` read, at most [`MOST_GROUPS`].
fn groups_question(v: &Values) -> Result<GroupsQuestion, ToolError> {
    let written = v.texts("group");
    if written.len() > MOST_GROUPS {
        let message = format!("{} groups; allowed: 1 to {MOST_GROUPS}", written.len());
        return Err(ToolError::param("group", message));
    }
    let activity = v.choice("activity").and_then(|c| activity_words().iter().position(|w| *w == c));
    Ok(GroupsQuestion {
        groups: written.iter().map(|g| GroupSpec::read(g)).collect::<Result<_, _>>()?,
        activity: activity.map_or(DEFAULT_ACTIVITY, |i| Activity::ALL[i]),
        factors: v.small("factors"),
        pacific: v.flag("pacific"),
        highest: v.flag("highest"),
    })
}

/// `reach-table`: P(reach) for every number of dice and distance.
pub struct ReachTables;

impl Tool for ReachTables {
    fn mount(&self) -> Mount {
        Mount::Command("reach-table")
    }

    fn title(&self) -> &'static str {
        "Print the exact chance that n interception dice reach a hex d hexes away (naval rules N-8)."
    }

    fn examples(&self) -> &'static [&'static str] {
        &["reach-table --pacific --max-distance 8"]
    }

    fn params(&self) -> Vec<Param> {
        let mut params = switches().to_vec();
        let most = ParamKind::Whole { least: 1, most: 60 };
        params.push(Param { default: Some(json!(12)), ..Param::new("max_distance", most, "Largest distance shown.") });
        params
    }

    fn formats(&self) -> &'static [Format] {
        &[Format::Text, Format::Json, Format::Csv]
    }

    fn answer(&self, input: &Input<'_>) -> Result<Box<dyn View>, ToolError> {
        let v: &Values = &input.values;
        Ok(Box::new(ReachTable::new(v.flag("pacific"), v.flag("highest"), v.small("max_distance"))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(dice: u32, distance: u32, pacific: bool) -> f64 {
        let q = NavalQuestion { dice, distance, pacific, highest: false };
        ask(&q).expect("answers").value("group.interceptor.reached").expect("a metric")
    }

    /// T-1 and T-2 of the naval rules.
    #[test]
    fn naval_odds_are_the_rule_book_values() {
        assert!((reach(1, 4, false) - 1.0 / 2.0).abs() < 1e-12);
        assert!((reach(1, 3, false) - 2.0 / 3.0).abs() < 1e-12);
        assert!((reach(2, 5, false) - 5.0 / 6.0).abs() < 1e-12);
        assert!((reach(2, 7, false) - 7.0 / 12.0).abs() < 1e-12);
        assert!((reach(2, 4, true) - 7.0 / 12.0).abs() < 1e-12);
        assert!((reach(4, 7, true) - 287.0 / 432.0).abs() < 1e-12);
    }

    /// The calculator's sentence (T-1): the chance in words, with its exact fraction.
    #[test]
    fn the_answer_is_a_sentence() {
        let q = NavalQuestion { dice: 2, distance: 7, pacific: false, highest: false };
        let value = NavalAnswer { question: q, answer: ask(&q).expect("answers") }.json();
        assert_eq!(value["answer"], "2 dice reach a hex 7 hexes away 58.3% of the time (exactly 7/12).");
    }
}
