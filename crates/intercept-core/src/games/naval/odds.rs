//! `odds naval` and `reach-table`: the exact chance that n interception dice reach a hex d hexes away
//! (N-7, N-8), answered by the naval rules themselves through a one-group scenario ([`crate::odds`]).

use std::fmt::Write;

use super::NavalRules;
use super::config::MoveRule;
use crate::odds::{Answer, INTERCEPTOR, OddsError, answer};
use crate::present::exact_text;
use crate::ruleset::Registry;

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
    /// The question as a scenario: one group, its base dice set to `dice` and no modifiers apply.
    pub fn config(&self) -> String {
        let theater = if self.pacific { "pacific" } else { "europe" };
        let movement = if self.highest { "highest" } else { "sum" };
        format!(
            "[run]\nname = \"odds\"\n\n[naval]\ntheater = \"{theater}\"\n\n[naval.mission]\nname = \"mission\"\n\
             activity = \"sea_transport\"\nfactors = 20\n\n[[naval.group]]\nname = \"{INTERCEPTOR}\"\n\
             target = \"mission\"\ndistance = {}\nfactors = 20\n\n[naval.rules]\nmovement = \"{movement}\"\n\n\
             [naval.rules.base_dice]\nsea_transport = {}\n",
            self.distance, self.dice
        )
    }
}

/// The answer to `q`, by the naval rules alone.
pub fn ask(q: &NavalQuestion) -> Result<Answer, OddsError> {
    answer(&Registry::new(vec![&NavalRules]), &q.config())
}

/// `reach-table`: P(reach) by dice and distance, as a Markdown table.
pub fn reach_table(pacific: bool, highest: bool, max_distance: u32) -> String {
    let rule = if highest { MoveRule::Highest } else { MoveRule::Sum };
    let table = super::dice::reach_table(rule, pacific, max_distance);
    let mut out = String::new();
    let how = if highest { "highest die" } else { "sum of the dice" };
    let theater = if pacific { "Pacific (total halved, rounded up)" } else { "Europe" };
    let _ = writeln!(out, "P(reach) by dice and distance in hexes: {theater}, {how}\n");
    let header: Vec<String> = (1..=max_distance).map(|d| d.to_string()).collect();
    let _ = writeln!(out, "| dice | {} |", header.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(max_distance as usize));
    for (n, row) in table.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|&p| probability_cell(p)).collect();
        let _ = writeln!(out, "| {n} | {} |", cells.join(" | "));
    }
    out
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

/// `odds naval`: P(reach), then how far the group gets.
pub fn naval_odds(q: &NavalQuestion, a: &Answer) -> String {
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
}
