//! Small helpers for describing a scenario in plain words (each model's `plain_words`): odds as a decimal
//! with its fraction, counts with their noun, lists joined with "and".

use crate::chance::Dist;
use crate::fraction::{short_text, to_f64};

/// A config probability to 4 decimal places (the report's precision), with the fraction of the decimal the
/// config wrote, as a player would quote it: "0.6000 (3/5)".
pub(crate) fn odds(p: f64) -> String {
    odds_of(&Dist::bernoulli_f64(p), 1)
}

/// The probability of `dist`'s `outcome` to 4 decimal places, with its exact fraction when that is short.
pub(crate) fn odds_of(dist: &Dist, outcome: usize) -> String {
    let f = dist.fraction(outcome);
    match short_text(&f) {
        Some(text) => format!("{:.4} ({text})", to_f64(&f)),
        None => format!("{:.4}", to_f64(&f)),
    }
}

/// `n` with its noun, singular or plural: "1 die", "3 dice".
pub(crate) fn count(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A signed modifier as written in the rules: "+2", "−1" (with a true minus sign).
pub(crate) fn signed(n: i64) -> String {
    if n < 0 { format!("\u{2212}{}", -n) } else { format!("+{n}") }
}

/// Items joined as in prose: "a", "a and b", "a, b and c".
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_as_prose() {
        assert_eq!(odds(0.6), "0.6000 (3/5)");
        assert_eq!(odds(1.0), "1.0000");
        assert_eq!(odds(0.9022), "0.9022 (4511/5000)");
        assert_eq!(odds_of(&Dist::die(6), 2), "0.1667 (1/6)");
        assert_eq!(count(1, "die", "dice"), "1 die");
        assert_eq!(count(0, "die", "dice"), "0 dice");
        assert_eq!(signed(-2), "\u{2212}2");
        assert_eq!(and_list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }
}
