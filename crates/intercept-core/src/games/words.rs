//! Small helpers for describing a scenario in plain words (each model's `plain_words`): odds as a decimal
//! with its fraction, counts with their noun, lists joined with "and".

use crate::present::fraction_text;

/// A probability to 4 decimal places (the report's precision), with the fraction when it is a ratio of
/// small integers, as a player would quote it: "0.6000 (3/5)".
pub(crate) fn odds(p: f64) -> String {
    match fraction_text(p) {
        Some(f) => format!("{p:.4} ({f})"),
        None => format!("{p:.4}"),
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
        assert_eq!(count(1, "die", "dice"), "1 die");
        assert_eq!(count(0, "die", "dice"), "0 dice");
        assert_eq!(signed(-2), "\u{2212}2");
        assert_eq!(and_list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }
}
