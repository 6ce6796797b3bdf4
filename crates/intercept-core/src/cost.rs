//! What a study of many points will cost, estimated before any of it is done, and the budget it must fit.
//!
//! A sweep point or a sensitivity step costs memory while the study runs (its resolved scenario, its counts
//! and its exact values, then its rows in the charts and the page being drawn) and disk once it is written
//! (its cells in `report.html`, its marks in every chart, its counts in the manifest). Both grow with the
//! points times the metrics each point reports, at rates measured per [`Study`]. A study over
//! [`MEMORY_MOST`] or [`DISK_MOST`] is refused unless `--allow-large` says so, with the estimate in the
//! message: a 10,000-point sweep once ran for minutes and took 2.9 GB before anyone was told.

use crate::text::bytes;

crate::refusal! {
    /// Why a study would cost more than it may: the estimate, and the way out, in one sentence.
    TooCostly
}

/// What is studied over many points, each with its own cost per point and metric.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Study {
    /// A sweep: every point is a row of the page and a mark in every chart. Measured on sweeps of 340 to
    /// 9,900 points of 25 and 39 metrics: 1.1 to 1.4 kB written and 4.3 to 7.1 kB held per point and metric.
    Sweep,
    /// A sensitivity run: every step is a row of the table and a bar of each metric's tornado. Measured on
    /// 670 steps of 619 metrics: 22 bytes written and 1.1 kB held per step and metric.
    Sensitivity,
}

impl Study {
    /// Bytes held and bytes written per point (or step) and metric, a little above the most measured.
    fn per_cell(self) -> (u64, u64) {
        match self {
            Study::Sweep => (8_000, 1_500),
            Study::Sensitivity => (1_500, 100),
        }
    }
}

/// The most memory a study may take without `--allow-large`.
pub const MEMORY_MOST: u64 = 1_000_000_000;

/// The most disk a study may write without `--allow-large`.
pub const DISK_MOST: u64 = 500_000_000;

/// A study's estimated cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub metrics: u64,
    pub memory: u64,
    pub disk: u64,
}

impl Cost {
    /// The cost of a `study` of `points` points (or steps) of `metrics` metrics each.
    pub fn of(study: Study, points: u64, metrics: u64) -> Cost {
        let cells = points.saturating_mul(metrics.max(1));
        let (held, written) = study.per_cell();
        Cost { metrics, memory: cells.saturating_mul(held), disk: cells.saturating_mul(written) }
    }

    /// Whether the cost fits the budget; else why not, in a sentence that gives the estimate and the way out,
    /// `what` naming the study ("this sweep of 9,900 points").
    pub fn within_budget(&self, what: &str) -> Result<(), TooCostly> {
        if self.memory <= MEMORY_MOST && self.disk <= DISK_MOST {
            return Ok(());
        }
        Err(TooCostly::from(format!(
            "{what} of {} metrics each would hold about {} in memory and write about {} (every point is a row \
             of the page and a mark in each chart), more than the {} and {} allowed; study fewer values, or \
             on the command line add --allow-large to run it anyway",
            self.metrics,
            bytes(self.memory.into()),
            bytes(self.disk.into()),
            bytes(MEMORY_MOST.into()),
            bytes(DISK_MOST.into())
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ten_thousand_point_sweep_is_over_budget_and_a_small_one_is_not() {
        assert!(Cost::of(Study::Sweep, 400, 39).within_budget("this sweep of 400 points").is_ok());
        let e = Cost::of(Study::Sweep, 9_900, 25).within_budget("this sweep of 9,900 points").unwrap_err();
        let said =
            "this sweep of 9,900 points of 25 metrics each would hold about 2.0 GB in memory and write about 371 MB";
        assert!(e.0.starts_with(said), "{e}");
        assert!(Cost::of(Study::Sensitivity, 670, 619).within_budget("this run").is_ok());
        assert!(Cost::of(Study::Sensitivity, 6_070, 6_019).within_budget("this run").is_err());
    }
}
