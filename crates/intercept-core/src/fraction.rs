//! Exact values as fractions: the enumerator's [`BigRational`]s written for people and files.
//!
//! [`text`] is the whole fraction ("0", "1", "1261/1296"), what `exact` prints and the Parquet files store;
//! [`short_text`] is the fraction for a narrow table, only when it is short and says more than the decimal;
//! [`to_f64`] is the nearest float, correctly rounded.

pub use num_rational::BigRational;
use num_traits::ToPrimitive;

/// The most digits a numerator or denominator may have for [`short_text`].
pub const SHORT_DIGITS: usize = 15;

/// The float nearest to `r` (ties to even): 0 is exactly 0.0.
pub fn to_f64(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

/// `r` in lowest terms as `n/d`, or the integer `n` when the denominator is 1.
pub fn text(r: &BigRational) -> String {
    r.to_string()
}

/// `r` as `n/d` when it is not an integer and both sides have at most [`SHORT_DIGITS`] digits.
pub fn short_text(r: &BigRational) -> Option<String> {
    let digits = |n: &num_bigint::BigInt| n.magnitude().to_string().len();
    let short = !r.is_integer() && digits(r.numer()) <= SHORT_DIGITS && digits(r.denom()) <= SHORT_DIGITS;
    short.then(|| text(r))
}

/// A fraction written by [`text`], for a narrow table: itself when [`short_text`] would show it.
pub fn short(text: &str) -> Option<&str> {
    let (num, den) = text.split_once('/')?;
    (num.len() <= SHORT_DIGITS && den.len() <= SHORT_DIGITS).then_some(text)
}

/// Parses a fraction written by [`text`].
pub fn parse(text: &str) -> Option<BigRational> {
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_as_text() {
        let r = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        assert_eq!(text(&r(0, 5)), "0");
        assert_eq!(text(&r(4, 4)), "1");
        assert_eq!(text(&r(2522, 2592)), "1261/1296");
        assert_eq!(short_text(&r(1261, 1296)).as_deref(), Some("1261/1296"));
        assert_eq!(short_text(&r(1, 1)), None);
        assert_eq!(short_text(&r(1, 10_i64.pow(16))), None);
        assert_eq!(to_f64(&r(1261, 1296)), 1261.0 / 1296.0);
        assert_eq!(to_f64(&r(0, 1)), 0.0);
        assert_eq!(parse("1261/1296"), Some(r(1261, 1296)));
    }
}
