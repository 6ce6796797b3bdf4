//! Is the evaluation's chance a chance? (issue 41.) [`calibrate`] plays fresh seeded self-play games (the
//! fit's kind of game, on another seed), takes one position of each at a ply drawn from the game's own
//! random numbers (positions of one game share its ending, so only one a game is independent), and sorts
//! them by the evaluation's stated chance into bins of equal count. In a calibrated evaluation each bin's
//! mean stated chance lies inside the 95% interval of the score its positions' sides to move went on to
//! make (a win 1, a draw ½, a loss 0: what the weights were fitted to), bar the one bin in twenty that
//! misses by chance.

use rayon::prelude::*;

use crate::chance::{Chance, Sampler};

use super::evaluation::Weights;
use super::fit::{FitPlan, game};

/// What the plan's seed is mixed with for the draw of each game's position.
const PICK_STREAM: u64 = 0x9e37_79b9_7f4a_7c15;

/// One bin of positions: the stated chances it spans and their mean, and the score made from them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bin {
    pub positions: usize,
    pub lowest: f64,
    pub highest: f64,
    pub stated: f64,
    pub observed: f64,
    /// The standard error of the observed mean score, from the scores' own spread.
    pub error: f64,
}

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_964;

impl Bin {
    /// The observed score's normal interval `z` standard errors wide each way ([`Z95`]: 95%).
    pub fn interval(&self, z: f64) -> (f64, f64) {
        (self.observed - z * self.error, self.observed + z * self.error)
    }

    /// Whether the mean stated chance lies inside that interval.
    pub fn holds(&self, z: f64) -> bool {
        let (low, high) = self.interval(z);
        low <= self.stated && self.stated <= high
    }
}

/// The calibration of `weights` on `plan.games` fresh games, in `bins` bins of equal count.
pub fn calibrate(weights: &Weights, plan: &FitPlan, bins: usize) -> Vec<Bin> {
    let mut pairs: Vec<(f64, f64)> =
        (0..plan.games).into_par_iter().filter_map(|g| one_position(weights, plan, g)).collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let size = pairs.len().div_ceil(bins.max(1)).max(1);
    pairs.chunks(size).map(bin).collect()
}

/// Game `g`'s drawn position: its stated chance and the score its side to move went on to make.
fn one_position(weights: &Weights, plan: &FitPlan, g: u64) -> Option<(f64, f64)> {
    let (_, samples) = game(plan, g);
    // Drawn from a stream of its own (the plan's seed with its bits mixed), not the game's: the game's
    // draws stay as the fit's, and the same game always gives the same position.
    let pick = Sampler::at_trial(plan.seed ^ PICK_STREAM, 1, g).uniform(samples.len().max(1));
    let s = samples.get(pick)?;
    let stated = weights.chance_of(&s.features);
    Some((stated, s.outcome))
}

fn bin(pairs: &[(f64, f64)]) -> Bin {
    let n = pairs.len() as f64;
    let stated = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let observed = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let spread = pairs.iter().map(|p| (p.1 - observed).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let (lowest, highest) = (pairs.first().map_or(0.0, |p| p.0), pairs.last().map_or(0.0, |p| p.0));
    Bin { positions: pairs.len(), lowest, highest, stated, observed, error: (spread / n).sqrt() }
}
