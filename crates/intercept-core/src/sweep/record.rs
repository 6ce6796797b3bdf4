//! A sweep's `manifest.json`, and going on with an interrupted sweep from it.
//!
//! A [`SweepRecord`] holds the base config with every default filled in, the axes, the plan, the chunks the
//! counts cover, and every point's raw counts with its paired sums against the base point ([`PointCounts`]),
//! sealed by a SHA-256 digest as a run's manifest is. Like a run's, it holds nothing that depends on how the
//! sweep went (threads, timing), so a sweep interrupted and resumed writes the bytes of one made in one go.
//! [`resume`] reads it back, refusing one edited since (its digest), written by another version, or whose
//! counts do not fit its config, and returns the [`Resumed`] sweep ready to go on.

use crate::metrics::Implausible;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Axis, Counts, check, resolve};
use crate::config::set::Setting;
use crate::config::{RawConfig, Scenario};
use crate::engine::Plan;
use crate::metrics::Tally;
use crate::partial::{PartialError, read_manifest, recorded_scenario, unsealed};
use crate::record::ChunkRange;
use crate::ruleset::Registry;
use crate::runner;
use crate::seal::{self, Key};
use crate::sensitivity::paired::{PairSums, Paired, matching_metrics};

/// What a sweep's `manifest.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepRecord {
    pub tool: String,
    pub version: String,
    pub config_file: String,
    /// The base config (before the swept values are set) with every default filled in.
    pub config: RawConfig,
    pub axes: Vec<Axis>,
    /// The metrics `--metric` named, which the terminal and the page show; none for the headline metrics.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<String>,
    pub seed: u64,
    /// The trials each point's counts cover.
    pub trials: u64,
    pub chunk_size: u64,
    /// Whether the counts cover only some of the plan's chunks: an interrupted sweep.
    pub partial: bool,
    /// The chunks the counts cover, and those of the whole plan.
    pub chunks: ChunkRange,
    pub wanted: ChunkRange,
    /// Every point's counts, in grid order (the base point first).
    pub points: Vec<PointCounts>,
    /// The SHA-256 of everything above: `sweep --resume` refuses a manifest edited since it was written.
    #[serde(default)]
    pub digest: String,
    /// The key seal, when the sweep was given a key ([`crate::seal`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
}

/// One point's raw counts, and (but for the base point) its paired sums against the base point for each of
/// the base point's metrics (`None` where the point has no metric of that name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointCounts {
    pub counts: Vec<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<Option<PairSums>>,
}

impl SweepRecord {
    /// The sealed record of a sweep of `base` over `axes` that has counted `counts` of `plan`.
    pub fn new(base: &Scenario, axes: &[Axis], metrics: &[String], plan: &Plan, counts: &Counts) -> SweepRecord {
        let p = &counts.paired;
        let first = PointCounts { counts: p.base.counts.clone(), pairs: Vec::new() };
        let others = p
            .stepped
            .iter()
            .zip(&p.pairs)
            .map(|(t, pairs)| PointCounts { counts: t.counts.clone(), pairs: pairs.clone() });
        let mut record = SweepRecord {
            tool: "intercept-sim".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            config_file: base.file.display().to_string(),
            config: base.config.clone(),
            axes: axes.to_vec(),
            metrics: metrics.to_vec(),
            seed: plan.seed,
            trials: counts.trials(),
            chunk_size: plan.chunk_size,
            partial: counts.next < plan.chunks(),
            chunks: (0..counts.next).into(),
            wanted: (0..plan.chunks()).into(),
            points: std::iter::once(first).chain(others).collect(),
            digest: String::new(),
            mac: None,
        };
        record.digest = record.digest_now();
        record
    }

    /// Whether the sweep stopped before its last chunk, so `sweep --resume` can go on.
    pub fn unfinished(&self) -> bool {
        self.chunks.to < self.wanted.to
    }

    /// Reads `dir/manifest.json`, refusing one written by another version, edited since, or sealed otherwise
    /// than with `key`.
    pub fn read(dir: &Path, key: Option<&Key>) -> Result<SweepRecord, PartialError> {
        unsealed(&read_manifest(&dir.join("manifest.json"))?, dir, "sweep", key)
    }
}

seal::sealed_record!(SweepRecord);

/// An interrupted sweep, ready to go on: its base scenario, axes, shown metrics, resolved points and counts.
pub struct Resumed {
    pub base: Scenario,
    pub axes: Vec<Axis>,
    pub metrics: Vec<String>,
    pub points: Vec<(Vec<Setting>, Scenario)>,
    pub counts: Counts,
}

/// The interrupted sweep in `dir`, checked and ready to go on from where it stopped.
pub fn resume(registry: &Registry, dir: &Path, key: Option<&Key>) -> Result<Resumed, PartialError> {
    let record = SweepRecord::read(dir, key)?;
    if !record.unfinished() {
        return Err(refused(dir, "nothing to resume: it holds a finished sweep".to_owned()));
    }
    let base = recorded_scenario(registry, &record.config, &record.config_file)?;
    check(&record.axes).map_err(|m| refused(dir, m.0))?;
    let points = resolve(&base, &record.axes)?;
    let whole = |m: Implausible| refused(dir, format!("manifest.json does not hold a sweep's counts: {m}"));
    let counts = counts(&record, &points, &runner::plan(&base)).map_err(whole)?;
    plausible(&points, &record).map_err(|m| refused(dir, format!("manifest.json: {m}")))?;
    Ok(Resumed { base, axes: record.axes, metrics: record.metrics, points, counts })
}

/// Refuses a point whose counts a run of it could not have made ([`crate::plausible`]).
fn plausible(points: &[(Vec<Setting>, Scenario)], record: &SweepRecord) -> Result<(), Implausible> {
    for ((settings, scenario), p) in points.iter().zip(&record.points) {
        let tally = Tally { trials: record.trials, counts: p.counts.clone() };
        crate::plausible::check(scenario, &tally).map_err(|m| match settings.is_empty() {
            true => format!("the base point: {m}"),
            false => {
                let at: Vec<String> = settings.iter().map(|s| format!("{}={}", s.key, s.value)).collect();
                format!("the point {}: {m}", at.join(", "))
            }
        })?;
    }
    Ok(())
}

/// The record's counts, once checked against the plan and the points' metrics.
fn counts(record: &SweepRecord, points: &[(Vec<Setting>, Scenario)], plan: &Plan) -> Result<Counts, Implausible> {
    if (record.seed, record.chunk_size) != (plan.seed, plan.chunk_size) {
        return Err(Implausible::from("its seed or chunk size differs from its config's".to_owned()));
    }
    let (chunks, wanted) = (record.chunks, record.wanted);
    if wanted.from != 0 || wanted.to != plan.chunks() || chunks.from != 0 || chunks.to > wanted.to {
        return Err(Implausible::from(format!(
            "chunks {}..{} are not chunks of a plan of {}",
            chunks.from,
            chunks.to,
            plan.chunks()
        )));
    }
    let due = plan.trials_in(0..chunks.to);
    if record.trials != due {
        return Err(Implausible::from(format!("it counts {} trials where its chunks hold {due}", record.trials)));
    }
    if record.points.len() != points.len() {
        return Err(Implausible::from(format!(
            "it holds {} points where the axes make {}",
            record.points.len(),
            points.len()
        )));
    }
    let tallies = points.iter().zip(&record.points).map(|((_, scenario), p)| {
        scenario.rules.metrics().check_counts(&p.counts, due)?;
        Ok(Tally { trials: due, counts: p.counts.clone() })
    });
    let mut tallies = tallies.collect::<Result<Vec<Tally>, Implausible>>()?.into_iter();
    let base = tallies.next().expect("a grid has at least one point");
    let pairs = points.iter().zip(&record.points).skip(1).map(|((_, s), p)| pairs(&points[0].1, s, p, due));
    let pairs = pairs.collect::<Result<Vec<_>, Implausible>>()?;
    Ok(Counts { next: chunks.to, paired: Paired { base, pairs, stepped: tallies.collect() } })
}

/// A point's paired sums, refused unless they are one per base metric the point shares, over `trials`
/// trials, with a sum of squares at least the size of the sum (each difference is a whole number).
fn pairs(
    base: &Scenario,
    point: &Scenario,
    p: &PointCounts,
    trials: u64,
) -> Result<Vec<Option<PairSums>>, Implausible> {
    let matched = matching_metrics(base, point);
    let fits = |(m, s): (&Option<usize>, &Option<PairSums>)| match (m, s) {
        (None, None) => true,
        (Some(_), Some(s)) => s.trials == trials && s.sum.unsigned_abs() <= s.sum_sq,
        _ => false,
    };
    match matched.len() == p.pairs.len() && matched.iter().zip(&p.pairs).all(fits) {
        true => Ok(p.pairs.clone()),
        false => Err(Implausible::from("a point's paired sums do not fit its metrics or its trials".to_owned())),
    }
}

fn refused(dir: &Path, message: String) -> PartialError {
    PartialError::Refused { dir: dir.to_owned(), message }
}
