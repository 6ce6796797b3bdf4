//! Sweeps: one scenario over a grid of config values, every point on the same seed and chunk streams.
//!
//! Each [`Axis`] is a config key and the values it takes; the grid is every combination ([`grid`]), the first
//! axis varying slowest. Every point is resolved before any trial runs ([`resolve`]), so a bad value stops the
//! sweep with nothing written. Points share the seed, so chunk `i` of every point draws from the same
//! generator: common random numbers, which make the difference between two points far less noisy than two
//! independent runs would. Each [`Point`] holds the settings and the run's record.

use crate::config::set::{self, Setting};
use crate::config::{ConfigError, Scenario};
use crate::record::RunRecord;
use crate::runner::{self, SampleOptions};

/// One swept key and its values, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub key: String,
    pub values: Vec<String>,
}

/// The most points a sweep may have: each is a whole run.
pub const MOST_POINTS: u64 = 10_000;

/// Refuses axes that name a key twice, list a value twice, or make a grid of more than [`MOST_POINTS`]
/// points: a repeated key would give every point two values for it, and a repeated value two equal points.
pub fn check(axes: &[Axis]) -> Result<(), String> {
    for (i, axis) in axes.iter().enumerate() {
        let key = crate::text::clip(&axis.key, 80);
        if axes[..i].iter().any(|a| a.key == axis.key) {
            return Err(format!(
                "--set {key} is given twice; give each key once, with all its values: --set {key}=V1,V2,..."
            ));
        }
        let repeated = axis.values.iter().enumerate().find(|(j, v)| axis.values[..*j].contains(v));
        if let Some((_, value)) = repeated {
            let value = crate::text::clip(value, 40);
            return Err(format!("--set {key}: the value {value} is listed twice; list each value once"));
        }
    }
    let points = axes.iter().try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64)).unwrap_or(u64::MAX);
    if points > MOST_POINTS {
        return Err(format!(
            "--set: the grid has {points} points (every combination of the values); allowed: up to {MOST_POINTS}"
        ));
    }
    Ok(())
}

/// Every combination of the axes' values, the first axis varying slowest.
pub fn grid(axes: &[Axis]) -> Vec<Vec<Setting>> {
    axes.iter().fold(vec![Vec::new()], |points, axis| {
        points
            .iter()
            .flat_map(|p| {
                axis.values.iter().map(move |v| {
                    let mut p = p.clone();
                    p.push(Setting { key: axis.key.clone(), value: v.clone() });
                    p
                })
            })
            .collect()
    })
}

/// Every point of the grid, resolved.
pub fn resolve(base: &Scenario, axes: &[Axis]) -> Result<Vec<(Vec<Setting>, Scenario)>, ConfigError> {
    grid(axes).into_iter().map(|settings| Ok((settings.clone(), set::apply(base, &settings)?))).collect()
}

/// A point's settings and its run.
pub struct Point {
    pub settings: Vec<Setting>,
    pub record: RunRecord,
}

/// Runs every point with `opts`, in grid order.
pub fn run(points: Vec<(Vec<Setting>, Scenario)>, opts: &SampleOptions) -> Vec<Point> {
    points
        .into_iter()
        .map(|(settings, scenario)| Point { settings, record: runner::sample(&scenario, opts, &|_| {}) })
        .collect()
}
