//! What the tests of rule sets share: a scenario from TOML text, and its exact metric values.
#![allow(dead_code, reason = "each test binary that includes this module uses some of its helpers")]
use std::path::Path;

use intercept_core::config::{self, Overrides, Scenario};
use intercept_core::exact::{metric_fractions, metric_values};
use intercept_core::fraction::BigRational;
use intercept_core::games::shipped;
use intercept_core::runner;

/// A scenario from config text, which must be valid.
pub fn load(src: &str) -> Scenario {
    config::from_str(&shipped(), src, Path::new("test.toml"), Overrides::default())
        .unwrap_or_else(|e| panic!("valid config: {e:?}\n{src}"))
}

/// The exact value of metric `name`.
pub fn exact(s: &Scenario, name: &str) -> f64 {
    let metrics = s.rules.metrics();
    let values = metric_values(metrics, &runner::solve(s).expect("small tree"));
    let i = metrics.defs().iter().position(|d| d.name == name).unwrap_or_else(|| panic!("no metric {name}"));
    values[i]
}

/// Equal to within rounding.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// The exact value of metric `name` as a fraction.
pub fn fraction(s: &Scenario, name: &str) -> BigRational {
    let metrics = s.rules.metrics();
    let values = metric_fractions(metrics, &runner::solve(s).expect("small tree"));
    let i = metrics.defs().iter().position(|d| d.name == name).unwrap_or_else(|| panic!("no metric {name}"));
    values[i].clone().unwrap_or_else(|| panic!("{name} has an exact value"))
}

/// The fraction `num / den`.
pub fn ratio(num: u64, den: u64) -> BigRational {
    BigRational::new(num.into(), den.into())
}
