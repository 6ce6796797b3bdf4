//! Interceptors per final location, for a card-game run: where the mover ended, and, among the trials that
//! ended there, how often it attacked (S-2), went unintercepted, or was intercepted by 1, 2, ... units.
//!
//! The card game reports every trial's final location and outcome in one distribution metric
//! ([`FINAL`]); a [`Place`] unpacks one location's values into [`Outcome`]s, each with its Wilson interval
//! among the trials that ended there and the exact share where the tree was solved. The labels come from
//! the run's own config, resolved again. [`FinalLocationsParquet`] writes `final-locations.parquet`; the
//! chart is [`crate::plot::final_location`].

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::export::{ExportError, Output, RunRecord, write_parquet};
use crate::models::card_game::FINAL;
use crate::stats::{Z95, wilson};
use crate::summary::DistRow;

/// One final location of the mover.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub location: String,
    /// Trials that ended here, and their share of all trials (exact where solved).
    pub trials: u64,
    pub share: f64,
    pub exact_share: Option<f64>,
    /// What happened after the mover ended here: attacked, then 0, 1, 2, ... interceptors.
    pub outcomes: Vec<Outcome>,
}

/// One outcome at a final location, as a share of the trials that ended there.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// `None` when the mover attacked; otherwise how many units intercepted.
    pub interceptors: Option<u32>,
    pub count: u64,
    pub estimate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub exact: Option<f64>,
}

impl Outcome {
    /// `attacked`, `not intercepted`, `1 interceptor`, `2 interceptors`, ...
    pub fn label(&self) -> String {
        match self.interceptors {
            None => "attacked".to_owned(),
            Some(0) => "not intercepted".to_owned(),
            Some(1) => "1 interceptor".to_owned(),
            Some(k) => format!("{k} interceptors"),
        }
    }
}

/// The mover's final locations, or `None` when the run is not a card game.
pub fn places(record: &RunRecord) -> Option<Vec<Place>> {
    let game = record.config.card_game.as_ref()?.resolve().ok()?;
    let rows: Vec<&DistRow> = record.summary.distributions.iter().filter(|r| r.metric == FINAL).collect();
    let stride = game.k_max() as usize + 2;
    let ends = game.ends();
    if rows.len() != ends.len() * stride {
        return None;
    }
    let place =
        |(e, (at, _)): (usize, _)| unpack(game.realm().label(at), &rows[e * stride..(e + 1) * stride], record.trials);
    Some(ends.into_iter().enumerate().map(place).collect())
}

/// One location's values: `0..=k_max` interceptors, then the attack.
fn unpack(location: String, rows: &[&DistRow], all: u64) -> Place {
    let trials: u64 = rows.iter().map(|r| r.count).sum();
    let exact_share = rows.iter().map(|r| r.exact).sum::<Option<f64>>();
    let share = if all > 0 { trials as f64 / all as f64 } else { 0.0 };
    let attack = rows.len() - 1;
    let order = std::iter::once(attack).chain(0..attack);
    let outcomes = order
        .map(|i| {
            let ci = wilson(rows[i].count, trials, Z95);
            let exact = rows[i].exact.zip(exact_share).filter(|(_, s)| *s > 0.0).map(|(p, s)| p / s);
            let interceptors = (i != attack).then_some(i as u32);
            Outcome {
                interceptors,
                count: rows[i].count,
                estimate: ci.estimate,
                ci_low: ci.low,
                ci_high: ci.high,
                exact,
            }
        })
        .collect();
    Place { location, trials, share, exact_share, outcomes }
}

/// `final-locations.parquet`: one row per final location and outcome (card games only).
pub struct FinalLocationsParquet;

impl Output for FinalLocationsParquet {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let Some(places) = places(record) else { return Ok(Vec::new()) };
        let path = dir.join("final-locations.parquet");
        let mut df = frame(&places).map_err(|e| ExportError::Parquet { path: path.clone(), source: e })?;
        write_parquet(&path, &mut df)
    }
}

fn frame(places: &[Place]) -> PolarsResult<DataFrame> {
    let rows: Vec<(&Place, &Outcome)> = places.iter().flat_map(|p| p.outcomes.iter().map(move |o| (p, o))).collect();
    df! {
        "location" => rows.iter().map(|(p, _)| p.location.as_str()).collect::<Vec<_>>(),
        "location_share" => rows.iter().map(|(p, _)| p.share).collect::<Vec<_>>(),
        "location_share_exact" => rows.iter().map(|(p, _)| p.exact_share).collect::<Vec<_>>(),
        "outcome" => rows.iter().map(|(_, o)| o.label()).collect::<Vec<_>>(),
        "interceptors" => rows.iter().map(|(_, o)| o.interceptors).collect::<Vec<_>>(),
        "trials_here" => rows.iter().map(|(p, _)| p.trials).collect::<Vec<_>>(),
        "count" => rows.iter().map(|(_, o)| o.count).collect::<Vec<_>>(),
        "estimate" => rows.iter().map(|(_, o)| o.estimate).collect::<Vec<_>>(),
        "ci_low" => rows.iter().map(|(_, o)| o.ci_low).collect::<Vec<_>>(),
        "ci_high" => rows.iter().map(|(_, o)| o.ci_high).collect::<Vec<_>>(),
        "exact" => rows.iter().map(|(_, o)| o.exact).collect::<Vec<_>>(),
    }
}
