//! `odds cavalry`: the exact chance of intercepting under an order (C-2), and of the target's hedgehog morale
//! check (C-9), answered by the cavalry rules themselves through a one-unit scenario ([`crate::odds`]).

use std::fmt::Write;

use super::CavalryRules;
use crate::odds::{Answer, INTERCEPTOR, OddsError, answer};
use num_rational::BigRational;

use crate::present::exact_text;
use crate::ruleset::Registry;

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

/// `odds cavalry`: P(intercept), and the target's morale check when asked.
pub fn cavalry_odds(q: &CavalryQuestion, a: &Answer) -> String {
    let mut out = String::new();
    let intercept = a.fraction("cavalry.intercepted").unwrap_or_default();
    let _ = writeln!(out, "{} orders: P(intercept) = {}", q.order, exact_text(&intercept));
    if let Some(morale) = q.morale {
        let attempted = a.fraction("target.hedgehog_attempted").unwrap_or_default();
        let formed = a.fraction("target.hedgehog_formed").unwrap_or_default();
        let checks = if q.checks == 1 { "1 check".to_owned() } else { format!("{} checks at once", q.checks) };
        let _ = writeln!(out, "morale check (morale {morale}, leader {}, {checks}):", q.leader);
        let passed = if attempted > BigRational::default() { exact_text(&(&formed / attempted)) } else { "-".into() };
        let _ = writeln!(out, "  P(pass) = {passed}");
        let _ = writeln!(out, "  P(intercepted, and the target forms hedgehog) = {}", exact_text(&formed));
    }
    out
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
}
