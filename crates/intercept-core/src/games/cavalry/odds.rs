//! `odds cavalry`: the exact chance of intercepting under an order (C-2), and of the target's hedgehog morale
//! check (C-9), answered by the cavalry rules themselves through a one-unit scenario ([`crate::odds`]), as
//! [`CavalryOdds`], printed as text or JSON; the [`CavalryCalculator`] asks the same question from query pairs.

use std::fmt::Write;

use serde_json::json;

use num_rational::BigRational;

use super::CavalryRules;
use crate::fraction::{text, to_f64};
use crate::odds::{Answer, INTERCEPTOR, OddsError, answer};
use crate::present::{exact_text, how_often_exactly};
use crate::ruleset::{CalcError, Calculator, Param, ParamKind, Registry, Values};

/// "What are my odds of intercepting under this order, and of the target's morale check?" (C-2, C-9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CavalryQuestion {
    /// `charge`, `make_ready`, `receive_charge` or `rally`.
    pub order: String,
    /// The target's morale, to ask about its hedgehog morale check too.
    pub morale: Option<u32>,
    pub leader: u32,
    /// Morale checks rolled at once (C-9.2): 1 for a lone check.
    pub checks: u32,
}

impl CavalryQuestion {
    /// The question as a scenario: one unit in reach; with a morale, it ends in the rear of heavy infantry,
    /// which must attempt hedgehog (C-8.3), so the target's morale check is rolled whenever it gets in.
    pub fn config(&self) -> String {
        let (kind, ends_in) =
            if self.morale.is_some() { ("heavy_infantry", "rear") } else { ("light_infantry", "front") };
        format!(
            "[run]\nname = \"odds\"\n\n[[cavalry.interceptor]]\nname = \"{INTERCEPTOR}\"\norder = \"{}\"\n\
             distance = 2\nends_in = \"{ends_in}\"\n\n[cavalry.target]\nkind = \"{kind}\"\nmorale = {}\n\
             leader = {}\nextra_checks = {}\n",
            self.order,
            self.morale.unwrap_or(5),
            self.leader,
            self.checks.saturating_sub(1)
        )
    }
}

/// The answer to `q`, by the cavalry rules alone.
pub fn ask(q: &CavalryQuestion) -> Result<Answer, OddsError> {
    answer(&Registry::new(vec![&CavalryRules]), &q.config())
}

/// `odds cavalry`'s answer: P(intercept), and the target's morale check when asked.
#[derive(Clone, Debug, PartialEq)]
pub struct CavalryOdds {
    pub question: CavalryQuestion,
    pub intercept: BigRational,
    pub morale: Option<MoraleOdds>,
}

/// The target's hedgehog morale check (C-8.2, C-9).
#[derive(Clone, Debug, PartialEq)]
pub struct MoraleOdds {
    /// Whether the check is ever rolled: only after an interception, which Rally orders never make.
    pub rolled: bool,
    /// The chance the check passes when it is rolled.
    pub pass: BigRational,
    /// The chance of an interception after which the target forms hedgehog.
    pub formed: BigRational,
}

/// Why a unit under Rally orders has no chance, in the rules' words.
const NO_RALLY: &str = "a unit under Rally orders may not intercept (C-1.7); the table has no Rally row (C-2)";

impl CavalryOdds {
    /// The answer to `q`, by the cavalry rules alone.
    pub fn of(q: &CavalryQuestion) -> Result<CavalryOdds, OddsError> {
        let a = ask(q)?;
        let intercept = a.fraction("cavalry.intercepted").unwrap_or_default();
        let morale = q.morale.map(|_| morale_odds(q, &a)).transpose()?;
        Ok(CavalryOdds { question: q.clone(), intercept, morale })
    }

    /// As text, saying in words why a check is never rolled.
    pub fn text(&self) -> String {
        let q = &self.question;
        let mut out = format!("{} orders: P(intercept) = {}", q.order, exact_text(&self.intercept));
        out.push('\n');
        if q.order == "rally" {
            let _ = writeln!(out, "  {NO_RALLY}");
        }
        let (Some(m), Some(morale)) = (&self.morale, q.morale) else { return out };
        let checks = if q.checks == 1 { "1 check".to_owned() } else { format!("{} checks at once", q.checks) };
        let _ = writeln!(out, "morale check (morale {morale}, leader {}, {checks}):", q.leader);
        match m.rolled {
            true => writeln!(out, "  P(pass) = {}", exact_text(&m.pass)),
            false => writeln!(
                out,
                "  never rolled under {} orders: with no interception, the target never has to attempt hedgehog\n  \
                 P(pass) = {} if it were rolled (after an interception under another order)",
                q.order,
                exact_text(&m.pass)
            ),
        }
        .expect("writing to a String");
        let _ = writeln!(out, "  P(intercepted, and the target forms hedgehog) = {}", exact_text(&m.formed));
        out
    }

    /// The answer in a sentence or two: "A unit under make ready orders intercepts 50.0% of the time (exactly
    /// 1/2). A target of morale 6 with a leader rated 1 passes its hedgehog morale check 80.0% of the time …".
    pub fn answer(&self) -> String {
        let q = &self.question;
        let order = q.order.replace('_', " ");
        let mut out = match q.order.as_str() {
            "rally" => {
                "A unit under rally orders never intercepts: Rally orders may not intercept (C-1.7), and the table has \
                 no Rally row (C-2)."
                    .to_owned()
            }
            _ => format!("A unit under {order} orders intercepts {}.", how_often_exactly(&self.intercept)),
        };
        let (Some(m), Some(morale)) = (&self.morale, q.morale) else { return out };
        let leader = if q.leader == 0 { String::new() } else { format!(" with a leader rated {}", q.leader) };
        let checks = if q.checks == 1 { String::new() } else { format!(", rolling {} checks at once", q.checks) };
        let pass = how_often_exactly(&m.pass);
        out += &match m.rolled {
            true => format!(" A target of morale {morale}{leader} passes its hedgehog morale check {pass}{checks}."),
            false => format!(
                " Its hedgehog morale check is never rolled; a target of morale {morale}{leader} would pass it {pass}{checks}."
            ),
        };
        out
    }

    /// As JSON: the question, `p_intercept` and, for Rally, `can_intercept: false` with the rule; the morale
    /// check with `rolled` saying whether it ever is, and `p_pass` the chance it passes when it is.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(&self.value()).expect("JSON")
    }

    /// [`CavalryOdds::json`]'s document as a value.
    pub fn value(&self) -> serde_json::Value {
        let q = &self.question;
        let mut body = json!({
            "answer": self.answer(),
            "order": q.order,
            "can_intercept": q.order != "rally",
            "p_intercept": to_f64(&self.intercept),
            "p_intercept_fraction": text(&self.intercept),
        });
        if q.order == "rally" {
            body["why_not"] = json!(NO_RALLY);
        }
        if let (Some(m), Some(morale)) = (&self.morale, q.morale) {
            body["morale_check"] = json!({
                "morale": morale, "leader": q.leader, "checks": q.checks,
                "rolled": m.rolled, "p_pass": to_f64(&m.pass), "p_pass_fraction": text(&m.pass),
                "p_intercepted_and_hedgehog": to_f64(&m.formed),
                "p_intercepted_and_hedgehog_fraction": text(&m.formed),
            });
        }
        body
    }
}

/// The orders of the d10 interception table's rows, and Rally (C-2).
pub const ORDERS: &[&str] = &["charge", "make_ready", "receive_charge", "rally"];

/// `odds cavalry` as a [`Calculator`]: the same question and JSON, from query pairs.
pub struct CavalryCalculator;

impl Calculator for CavalryCalculator {
    fn title(&self) -> &'static str {
        "Does a unit under this order intercept, and does the target pass its hedgehog morale check? (C-2, C-9)"
    }

    fn params(&self) -> Vec<Param> {
        let whole = |least, most| ParamKind::Whole { least, most };
        let param = |name, kind, help| Param { name, kind, default: None, required: false, requires: None, help };
        let with_morale = |name, kind, default: u32, help| Param {
            default: Some(json!(default)),
            requires: Some("morale"),
            ..param(name, kind, help)
        };
        vec![
            Param {
                required: true,
                ..param("order", ParamKind::Choice { allowed: ORDERS }, "The interceptor's own order (C-2).")
            },
            param("morale", whole(0, 10), "The target's morale: also show its hedgehog morale check (C-9)."),
            with_morale("leader", whole(0, 9), 0, "The rating of the leader stacked with the target (C-9.3)."),
            with_morale("checks", whole(1, 10), 1, "Morale checks rolled at once: +1 each beyond the first (C-9.2)."),
        ]
    }

    fn answer(&self, query: &[(String, String)]) -> Result<serde_json::Value, CalcError> {
        let v = Values::read(&self.params(), query)?;
        let q = CavalryQuestion {
            order: v.choice("order").unwrap_or("charge").to_owned(),
            morale: v.whole("morale"),
            leader: v.whole("leader").unwrap_or(0),
            checks: v.whole("checks").unwrap_or(1),
        };
        let odds = CavalryOdds::of(&q).map_err(|e| CalcError::Failed(e.to_string()))?;
        Ok(odds.value())
    }
}

/// The morale check's odds from answer `a` to `q`. When the check is never rolled (no interception), its
/// chance of passing is read from the same question under Charge orders: the check depends on the target's
/// morale, its leader and the checks rolled at once (C-9.1, C-9.2), never on the interceptor's order.
fn morale_odds(q: &CavalryQuestion, a: &Answer) -> Result<MoraleOdds, OddsError> {
    let passed = |a: &Answer| {
        let attempted = a.fraction("target.hedgehog_attempted").unwrap_or_default();
        (attempted > BigRational::default())
            .then(|| a.fraction("target.hedgehog_formed").unwrap_or_default() / attempted)
    };
    let formed = a.fraction("target.hedgehog_formed").unwrap_or_default();
    if let Some(pass) = passed(a) {
        return Ok(MoraleOdds { rolled: true, pass, formed });
    }
    let charging = ask(&CavalryQuestion { order: "charge".into(), ..q.clone() })?;
    Ok(MoraleOdds { rolled: false, pass: passed(&charging).unwrap_or_default(), formed })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cavalry(order: &str, morale: Option<u32>, checks: u32) -> Answer {
        let q = CavalryQuestion { order: order.into(), morale, leader: 0, checks };
        ask(&q).expect("answers")
    }

    /// T-7 and T-8 of the cavalry rules.
    #[test]
    fn cavalry_odds_are_the_rule_book_values() {
        for (order, p) in [("charge", 0.6), ("make_ready", 0.5), ("receive_charge", 0.4), ("rally", 0.0)] {
            assert!((cavalry(order, None, 1).value("cavalry.intercepted").unwrap() - p).abs() < 1e-12, "{order}");
        }
        let passed =
            |a: &Answer| a.value("target.hedgehog_formed").unwrap() / a.value("target.hedgehog_attempted").unwrap();
        assert!((passed(&cavalry("charge", Some(7), 1)) - 0.8).abs() < 1e-12);
        assert!((passed(&cavalry("charge", Some(7), 2)) - 0.7).abs() < 1e-12);
    }

    /// Rally orders never intercept, so the check is never rolled: the answer says so, and still gives the
    /// chance the check passes when it is (7/10 at morale 6, C-9.1).
    #[test]
    fn rally_answers_the_morale_check_in_words() {
        let q = CavalryQuestion { order: "rally".into(), morale: Some(6), leader: 0, checks: 1 };
        let odds = CavalryOdds::of(&q).expect("answers");
        let m = odds.morale.as_ref().expect("a morale check asked for");
        assert!(!m.rolled && to_f64(&m.pass) == 0.7 && to_f64(&m.formed) == 0.0, "{m:?}");
        assert!(odds.text().contains("never rolled") && !odds.text().contains("= -"), "{}", odds.text());
    }

    /// The calculator's sentences (C-2, C-9): the order's chance, then the morale check's, in words.
    #[test]
    fn the_answer_is_a_sentence() {
        let q = CavalryQuestion { order: "make_ready".into(), morale: Some(6), leader: 1, checks: 1 };
        assert_eq!(
            CavalryOdds::of(&q).expect("answers").answer(),
            "A unit under make ready orders intercepts 50.0% of the time (exactly 1/2). A target of morale 6 with a \
             leader rated 1 passes its hedgehog morale check 80.0% of the time (exactly 4/5)."
        );
        let rally = CavalryQuestion { order: "rally".into(), morale: Some(6), leader: 0, checks: 1 };
        assert!(CavalryOdds::of(&rally).expect("answers").answer().contains("would pass it 70.0% of the time"));
    }
}
