//! `odds cavalry`: the exact chance of intercepting under an order (C-2), the target's reaction by its unit
//! type and where the interceptor ends against its facing (C-6), and the target's hedgehog morale check (C-8,
//! C-9), answered by the cavalry rules themselves through a one-unit scenario ([`crate::odds`]), as
//! [`CavalryOdds`], printed as text or JSON; [`CavalryOddsTool`] is the tool that asks it.

use std::fmt::Write;

use serde_json::json;

use num_rational::BigRational;

use super::CavalryRules;
pub use super::react::Response;
use super::react::Situation;
use crate::fraction::{text, to_f64};
use crate::odds::{Answer, INTERCEPTOR, OddsError, answer};
use crate::present::{exact_text, how_often_exactly};
use crate::ruleset::{Input, Mount, Param, ParamKind, Resolved, Tool, ToolError, View};

/// "What are my odds of intercepting under this order, what does the target do, and does it pass its
/// morale check?" (C-2, C-6, C-9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CavalryQuestion {
    /// `charge`, `make_ready`, `receive_charge` or `rally`.
    pub order: String,
    /// The target's unit type, one of [`TARGETS`]: its rows of the reaction table (C-6).
    pub target: String,
    /// Where the interceptor ends against the target's facing, one of [`FACINGS`] (C-6).
    pub facing: String,
    /// The target's morale, to ask about its hedgehog morale check too.
    pub morale: Option<u32>,
    pub leader: u32,
    /// Morale checks rolled at once (C-9.2): 1 for a lone check.
    pub checks: u32,
}

/// The target's unit types, as `cavalry.target.kind` writes them ([`super::TargetKind`]).
pub const TARGETS: &[&str] = &["artillery", "light_infantry", "heavy_infantry", "cavalry", "leader"];
/// Where an interceptor may end against the target's facing, as interceptor `ends_in` writes it
/// ([`super::Facing`]).
pub const FACINGS: &[&str] = &["front", "flank", "rear"];
/// The question's target and facing when not given: heavy infantry with the interceptor in its rear, which
/// must attempt hedgehog (C-8.3), so the morale check is rolled whenever the interceptor gets in. The
/// calculator asked this before it had the two choices, so its answers stay as they were.
pub const DEFAULT_TARGET: &str = "heavy_infantry";
pub const DEFAULT_FACING: &str = "rear";

impl CavalryQuestion {
    /// The question as a scenario's `[cavalry]` table: one unit in reach, ending where the question says,
    /// next to the target.
    pub fn table(&self) -> serde_json::Value {
        json!({
            "interceptor": [{ "name": INTERCEPTOR, "order": self.order, "distance": 2, "ends_in": self.facing }],
            "target": {
                "kind": self.target,
                "morale": self.morale.unwrap_or(5),
                "leader": self.leader,
                "extra_checks": self.checks.saturating_sub(1),
            },
        })
    }

    /// The target and where the interceptor ends, in words: "heavy infantry, the interceptor in its rear".
    fn place(&self) -> String {
        format!("{}, the interceptor in its {}", self.target.replace('_', " "), self.facing)
    }
}

/// The answer to `q`, by the cavalry rules alone.
pub fn ask(q: &CavalryQuestion) -> Result<Answer, OddsError> {
    answer(&CavalryRules, q.table())
}

/// `odds cavalry`'s answer: P(intercept), the target's reaction, and its morale check when asked.
#[derive(Clone, Debug, PartialEq)]
pub struct CavalryOdds {
    pub question: CavalryQuestion,
    pub intercept: BigRational,
    /// What the target does when the interceptor ends next to it (C-6).
    pub reaction: Response,
    pub morale: Option<MoraleOdds>,
}

/// How the calculator words the target's reaction ([`Response`], as the reaction table gives it with its
/// preferred reaction left at fire and the movement allowances at their defaults; C-5.2, C-6, C-5.7).
impl Response {
    /// Its name in the JSON answer.
    pub fn name(self) -> &'static str {
        match self {
            Response::Fire => "fire",
            Response::Hedgehog => "hedgehog",
            Response::Face => "face",
            Response::Withdraw => "withdraw",
            Response::Nothing => "nothing",
        }
    }

    /// What the target does, in words with the rule.
    pub fn words(self) -> &'static str {
        match self {
            Response::Fire => "fires at the interceptor in reaction (C-4.5, C-6)",
            Response::Hedgehog => "must attempt hedgehog, with a morale check (C-8.2, C-8.3)",
            Response::Face => "turns to face the interceptor (C-5.3)",
            Response::Withdraw => "withdraws, leaving the interceptor nothing to engage (C-5.4)",
            Response::Nothing => "cannot react: the reaction table allows it nothing there (C-6)",
        }
    }
}

/// The target's hedgehog morale check (C-8.2, C-9).
#[derive(Clone, Debug, PartialEq)]
pub struct MoraleOdds {
    /// Whether the check is ever rolled: only after an interception, which Rally orders never make, and only
    /// by heavy infantry that attempts hedgehog (C-8.1, C-8.3).
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
        Ok(CavalryOdds { question: q.clone(), intercept, reaction: reaction(&a), morale })
    }

    /// The answer in a sentence or two: "A unit under make ready orders intercepts 50.0% of the time (exactly
    /// 1/2). A target of morale 6 with a leader rated 1 passes its hedgehog morale check 80.0% of the time …".
    pub fn answer(&self) -> String {
        let q = &self.question;
        let order = q.order.replace('_', " ");
        let out = match q.order.as_str() {
            "rally" => {
                "A unit under rally orders never intercepts: Rally orders may not intercept (C-1.7), and the table has \
                 no Rally row (C-2)."
                    .to_owned()
            }
            _ => format!(
                "A unit under {order} orders intercepts {}; then the target ({}) {}.",
                how_often_exactly(&self.intercept),
                q.place(),
                self.reaction.words()
            ),
        };
        match (&self.morale, q.morale) {
            (Some(m), Some(morale)) => out + &self.morale_sentence(m, morale),
            _ => out,
        }
    }

    /// The answer's sentence on the hedgehog morale check: its chance, and whether it is ever rolled.
    fn morale_sentence(&self, m: &MoraleOdds, morale: u32) -> String {
        let q = &self.question;
        let leader = if q.leader == 0 { String::new() } else { format!(" with a leader rated {}", q.leader) };
        let checks = if q.checks == 1 { String::new() } else { format!(", rolling {} checks at once", q.checks) };
        let pass = how_often_exactly(&m.pass);
        match (m.rolled, q.order.as_str()) {
            (true, _) => {
                format!(" A target of morale {morale}{leader} passes its hedgehog morale check {pass}{checks}.")
            }
            (false, "rally") => format!(
                " Its hedgehog morale check is never rolled; a target of morale {morale}{leader} would pass it {pass}{checks}."
            ),
            // Intercepted, it still never attempts hedgehog: the reaction above says why.
            (false, _) => format!(
                " It attempts no hedgehog there, so no hedgehog morale check is rolled; a target of morale \
                 {morale}{leader} would pass one {pass}{checks}."
            ),
        }
    }

    /// Why the hedgehog check is never rolled, when it is not.
    fn never_rolled(&self) -> String {
        let q = &self.question;
        if q.order == "rally" {
            return format!(
                "never rolled under {} orders: with no interception, the target never has to attempt hedgehog",
                q.order
            );
        }
        if q.target != "heavy_infantry" {
            return format!(
                "never rolled: {} never forms hedgehog, only heavy infantry does (C-8.1)",
                q.target.replace('_', " ")
            );
        }
        format!(
            "never rolled: with the interceptor in its {}, the target {}; only cavalry in its rear forces the \
             attempt (C-8.3)",
            q.facing,
            self.reaction.words()
        )
    }
}

impl View for CavalryOdds {
    /// As text, saying in words why a check is never rolled.
    fn text(&self) -> String {
        let q = &self.question;
        let mut out = format!("{} orders: P(intercept) = {}", q.order, exact_text(&self.intercept));
        out.push('\n');
        if q.order == "rally" {
            let _ = writeln!(out, "  {NO_RALLY}");
        } else {
            let _ = writeln!(out, "reaction ({}): the target {}", q.place(), self.reaction.words());
        }
        let (Some(m), Some(morale)) = (&self.morale, q.morale) else { return out };
        let checks = if q.checks == 1 { "1 check".to_owned() } else { format!("{} checks at once", q.checks) };
        let _ = writeln!(out, "morale check (morale {morale}, leader {}, {checks}):", q.leader);
        match m.rolled {
            true => writeln!(out, "  P(pass) = {}", exact_text(&m.pass)),
            false => writeln!(
                out,
                "  {}\n  P(pass) = {} if it were rolled ({})",
                self.never_rolled(),
                exact_text(&m.pass),
                match q.order.as_str() {
                    "rally" => "after an interception under another order",
                    _ => "by heavy infantry with cavalry in its rear",
                }
            ),
        }
        .expect("writing to a String");
        let _ = writeln!(out, "  P(intercepted, and the target forms hedgehog) = {}", exact_text(&m.formed));
        out
    }

    /// As JSON: the question, `p_intercept` and, for Rally, `can_intercept: false` with the rule; the morale
    /// check with `rolled` saying whether it ever is, and `p_pass` the chance it passes when it is.
    fn json(&self) -> serde_json::Value {
        let q = &self.question;
        let mut body = json!({
            "answer": self.answer(),
            "order": q.order,
            "target": q.target,
            "facing": q.facing,
            "reaction": self.reaction.name(),
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

/// `odds cavalry`: the order's chance, the target's reaction and its hedgehog morale check.
pub struct CavalryOddsTool;

impl Tool for CavalryOddsTool {
    fn mount(&self) -> Mount {
        Mount::Odds("cavalry")
    }

    fn title(&self) -> &'static str {
        "Does a unit under this order intercept, how does the target react, and does it pass its hedgehog morale \
         check? (C-2, C-6, C-9)"
    }

    fn examples(&self) -> &'static [&'static str] {
        &["odds cavalry --order charge --morale 7 --leader 1", "odds cavalry --order charge --morale 7 --facing front"]
    }

    fn params(&self) -> Vec<Param> {
        let whole = |least, most| ParamKind::Whole { least, most };
        let param = Param::new;
        let with_morale = |name, kind, default: u32, help| Param {
            default: Some(json!(default)),
            requires: Some("morale"),
            ..param(name, kind, help)
        };
        let choice = |name, allowed, default: &str, help| Param {
            default: Some(json!(default)),
            ..param(name, ParamKind::Choice { allowed }, help)
        };
        vec![
            Param {
                required: true,
                ..param("order", ParamKind::Choice { allowed: ORDERS }, "The interceptor's own order (C-2).")
            },
            choice(
                "target",
                TARGETS,
                DEFAULT_TARGET,
                "The target's unit type: its row of the reaction table (C-6); only heavy infantry forms hedgehog \
                 (C-8.1).",
            ),
            choice(
                "facing",
                FACINGS,
                DEFAULT_FACING,
                "Where the interceptor ends, against the target's facing (C-6); horse in heavy infantry's rear \
                 forces a hedgehog attempt (C-8.3).",
            ),
            param("morale", whole(0, 10), "The target's morale: also show its hedgehog morale check (C-9)."),
            with_morale(
                "leader",
                whole(0, 9),
                0,
                "The rating of the leader stacked with the target, subtracted from the roll (C-9.3).",
            ),
            with_morale("checks", whole(1, 10), 1, "Morale checks rolled at once: +1 each beyond the first (C-9.2)."),
        ]
    }

    fn answer(&self, input: &Input<'_>) -> Result<Box<dyn View>, ToolError> {
        let v = &input.values;
        let q = CavalryQuestion {
            order: v.choice("order").unwrap_or("charge").to_owned(),
            target: v.choice("target").unwrap_or(DEFAULT_TARGET).to_owned(),
            facing: v.choice("facing").unwrap_or(DEFAULT_FACING).to_owned(),
            morale: v.whole("morale").map(|_| v.small("morale")),
            leader: v.small("leader"),
            checks: v.small("checks"),
        };
        Ok(Box::new(CavalryOdds::of(&q).map_err(|e| ToolError::Failed(e.to_string()))?))
    }
}

/// The target's reaction in answer `a`'s scenario: the one interceptor's, with the target as it starts (not
/// in hedgehog, not broken), settled by the rules when the scenario resolved.
fn reaction(a: &Answer) -> Response {
    let resolved = a.rules.as_any().downcast_ref::<Resolved<CavalryRules>>();
    let model = &resolved.expect("a cavalry question's scenario").model;
    let start = Situation { in_hedgehog: false, broken: false };
    model.units[0].responses[start.index()]
}

/// The morale check's odds from answer `a` to `q`. When the check is never rolled (no interception, or no
/// hedgehog attempt), its chance of passing is read from the question under Charge orders against heavy
/// infantry with the interceptor in its rear, where it is: the check depends on the target's morale, its
/// leader and the checks rolled at once (C-9.1, C-9.2), never on the order, the unit type or the facing.
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
    let rolled =
        CavalryQuestion { order: "charge".into(), target: "heavy_infantry".into(), facing: "rear".into(), ..q.clone() };
    let charging = ask(&rolled)?;
    Ok(MoraleOdds { rolled: false, pass: passed(&charging).unwrap_or_default(), formed })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A question with the default target and facing (heavy infantry, interceptor in its rear).
    fn question(order: &str, morale: Option<u32>, leader: u32, checks: u32) -> CavalryQuestion {
        let (target, facing) = (DEFAULT_TARGET.into(), DEFAULT_FACING.into());
        CavalryQuestion { order: order.into(), target, facing, morale, leader, checks }
    }

    fn cavalry(order: &str, morale: Option<u32>, checks: u32) -> Answer {
        ask(&question(order, morale, 0, checks)).expect("answers")
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
        let odds = CavalryOdds::of(&question("rally", Some(6), 0, 1)).expect("answers");
        let m = odds.morale.as_ref().expect("a morale check asked for");
        assert!(!m.rolled && to_f64(&m.pass) == 0.7 && to_f64(&m.formed) == 0.0, "{m:?}");
        assert!(odds.text().contains("never rolled") && !odds.text().contains("= -"), "{}", odds.text());
    }

    /// The calculator's sentences (C-2, C-6, C-9): the order's chance and the target's reaction, then the
    /// morale check's chance, in words.
    #[test]
    fn the_answer_is_a_sentence() {
        assert_eq!(
            CavalryOdds::of(&question("make_ready", Some(6), 1, 1)).expect("answers").answer(),
            "A unit under make ready orders intercepts 50.0% of the time (exactly 1/2); then the target (heavy \
             infantry, the interceptor in its rear) must attempt hedgehog, with a morale check (C-8.2, C-8.3). A \
             target of morale 6 with a leader rated 1 passes its hedgehog morale check 80.0% of the time (exactly \
             4/5)."
        );
        let rally = question("rally", Some(6), 0, 1);
        assert!(CavalryOdds::of(&rally).expect("answers").answer().contains("would pass it 70.0% of the time"));
        // In its front the target fires: the verb is the target's (it once read "the target (...) reaction
        // fires at the interceptor").
        let front = CavalryQuestion { facing: "front".into(), ..question("make_ready", Some(6), 1, 1) };
        let fires = CavalryOdds::of(&front).expect("answers");
        assert_eq!(
            fires.answer(),
            "A unit under make ready orders intercepts 50.0% of the time (exactly 1/2); then the target (heavy \
             infantry, the interceptor in its front) fires at the interceptor in reaction (C-4.5, C-6). It \
             attempts no hedgehog there, so no hedgehog morale check is rolled; a target of morale 6 with a \
             leader rated 1 would pass one 80.0% of the time (exactly 4/5)."
        );
        let line = "reaction (heavy infantry, the interceptor in its front): the target fires at the interceptor in \
                    reaction (C-4.5, C-6)\n";
        assert!(fires.text().contains(line), "{}", fires.text());
    }

    /// Worked by hand from docs/rules/cavalry.md: a unit under Charge orders intercepts on 0-5 of the d10,
    /// 6/10 (C-2); heavy infantry of morale 7 with no leader passes a lone check on 0-7 of the d10 (C-9.1),
    /// 8/10 (C-10: clamp(7 + 0 - 1 + 2, 0, 10)/10).
    /// - In its rear the interceptor forces a hedgehog attempt (C-8.3): P(intercepted, and hedgehog formed)
    ///   = 6/10 × 8/10 = 12/25.
    /// - In its front or flank heavy infantry fires in reaction instead (C-6, its preferred reaction, C-5.2):
    ///   the check is never rolled, P = 0; it would still pass 8/10 were it rolled.
    /// - Light infantry never forms hedgehog (C-8.1); in its rear it has no fire (front or flank only) and
    ///   cannot turn (its 4 movement points are fewer than the horse's 6, C-5.7): it does nothing, P = 0.
    /// - A leader always withdraws (C-6) and has 8 movement points, at least the horse's 6 (C-5.7).
    ///
    /// P(intercept) is 6/10 throughout: the table has no modifiers (C-2).
    #[test]
    fn the_unit_type_and_the_facing_change_the_answer() {
        let ask = |target: &str, facing: &str| {
            let q =
                CavalryQuestion { target: target.into(), facing: facing.into(), ..question("charge", Some(7), 0, 1) };
            CavalryOdds::of(&q).expect("answers")
        };
        let fraction = |r: &BigRational| text(r);
        let rear = ask("heavy_infantry", "rear");
        let m = rear.morale.as_ref().unwrap();
        assert_eq!((rear.reaction, m.rolled, fraction(&m.formed)), (Response::Hedgehog, true, "12/25".to_owned()));
        for facing in ["front", "flank"] {
            let fires = ask("heavy_infantry", facing);
            let m = fires.morale.as_ref().unwrap();
            assert_eq!((fires.reaction, m.rolled, fraction(&m.formed)), (Response::Fire, false, "0".to_owned()));
            assert_eq!(fraction(&m.pass), "4/5", "{facing}: the chance it would pass");
            assert!(fires.text().contains(&format!("with the interceptor in its {facing}")), "{}", fires.text());
        }
        let light = ask("light_infantry", "rear");
        assert_eq!((light.reaction, light.morale.as_ref().unwrap().rolled), (Response::Nothing, false));
        assert!(light.text().contains("only heavy infantry does (C-8.1)"), "{}", light.text());
        assert_eq!(ask("leader", "front").reaction, Response::Withdraw);
        for odds in [&rear, &light] {
            assert_eq!(fraction(&odds.intercept), "3/5");
        }
    }

    /// The calculator's choices name every unit type and facing a config allows, in the same words.
    #[test]
    fn every_target_and_facing_is_a_choice() {
        let allowed = |schema: schemars::Schema| schema.get("enum").cloned();
        assert_eq!(allowed(schemars::schema_for!(super::super::TargetKind)), Some(json!(TARGETS)));
        assert_eq!(allowed(schemars::schema_for!(super::super::Facing)), Some(json!(FACINGS)));
    }
}
