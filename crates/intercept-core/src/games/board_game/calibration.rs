//! Is the evaluation's chance a chance? (issue 41.) [`calibrate`] plays fresh seeded self-play games (the
//! fit's kind of game, on another seed), takes one position of each at a ply drawn from the game's own
//! random numbers (positions of one game share its ending, so only one a game is independent), and sorts
//! them by the evaluation's stated chance into bins of equal count. In a calibrated evaluation each bin's
//! mean stated chance lies inside the 95% interval of the score its positions' sides to move went on to
//! make (a win 1, a draw ½, a loss 0: what the weights were fitted to), bar the one bin in twenty that
//! misses by chance.

use rayon::prelude::*;

use crate::chance::{Chance, Sampler};
use crate::stats::Z95;

use super::evaluation::Weights;
use super::fit::{FitPlan, game};
use crate::present::{
    Cell, DataTable, Extra, Picture, Placement, Reliability, Reliable, Row, Table, Values, thousands,
};

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

impl Bin {
    /// The observed score's normal interval `z` standard errors wide each way ([`Z95`]: 95%).
    pub fn interval(&self, z: f64) -> (f64, f64) {
        (self.observed - z * self.error, self.observed + z * self.error)
    }

    /// The bin as the reliability picture draws it, with that interval.
    pub fn reliable(&self, z: f64) -> Reliable {
        let (low, high) = self.interval(z);
        Reliable { stated: self.stated, observed: self.observed, low, high }
    }

    /// Whether the mean stated chance lies inside that interval.
    pub fn holds(&self, z: f64) -> bool {
        self.reliable(z).holds()
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

/// The calibration measured on the shipped weights, as `examples/board_calibration.rs` writes it.
const SHIPPED: &str = include_str!("calibration.csv");

/// The shipped weights' calibration table, as measured: on how many games and which seed, of which
/// weights (the SHA-256 of their `evaluation.csv` text), and the bins.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub weights: String,
    pub games: u64,
    pub seed: u64,
    pub bins: Vec<Bin>,
}

crate::refusal! {
    /// Why a calibration file cannot be read: which line, and what was expected.
    BadCalibration
}

/// The first and third lines of a calibration file.
const HEAD: &str = "weights_sha256,games,seed";
const COLUMNS: &str = "positions,lowest,highest,stated,observed,error";

impl Measured {
    /// The calibration table shipped with the program, of the shipped weights (a test checks the digest).
    pub fn shipped() -> Measured {
        Measured::read(SHIPPED).expect("calibration.csv is board_calibration's own output")
    }

    /// The table as `calibration.csv` holds it.
    pub fn csv(&self) -> String {
        let rows: String = self
            .bins
            .iter()
            .map(|b| {
                format!(
                    "{},{:.6},{:.6},{:.6},{:.6},{:.6}\n",
                    b.positions, b.lowest, b.highest, b.stated, b.observed, b.error
                )
            })
            .collect();
        format!("{HEAD}\n{},{},{}\n{COLUMNS}\n{rows}", self.weights, self.games, self.seed)
    }

    /// Reads a table written by [`Measured::csv`], strictly: every line as written there.
    pub fn read(text: &str) -> Result<Measured, BadCalibration> {
        let mut lines = text.lines();
        if lines.next() != Some(HEAD) {
            return Err(BadCalibration(format!("the first line is not {HEAD:?}")));
        }
        let [weights, games, seed] = fields::<3>(lines.next().unwrap_or_default())?;
        let hex = weights.len() == 64 && weights.bytes().all(|b| b.is_ascii_hexdigit());
        if !hex {
            return Err(BadCalibration(format!("{weights:?}: not a SHA-256 in hex")));
        }
        if lines.next() != Some(COLUMNS) {
            return Err(BadCalibration(format!("the third line is not {COLUMNS:?}")));
        }
        let bins = lines.filter(|l| !l.trim().is_empty()).map(bin_row).collect::<Result<Vec<_>, _>>()?;
        if bins.is_empty() {
            return Err(BadCalibration::from("no bins".to_owned()));
        }
        Ok(Measured { weights: weights.to_owned(), games: number(games)?, seed: number(seed)?, bins })
    }
}

/// A line's `N` comma-separated fields, or why not.
fn fields<const N: usize>(line: &str) -> Result<[&str; N], BadCalibration> {
    let parts: Vec<&str> = line.split(',').collect();
    parts.try_into().map_err(|p: Vec<&str>| BadCalibration(format!("{line:?}: {} fields, expected {N}", p.len())))
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, BadCalibration> {
    text.parse().map_err(|_| BadCalibration(format!("{text:?}: not a number")))
}

fn bin_row(line: &str) -> Result<Bin, BadCalibration> {
    let [positions, lowest, highest, stated, observed, error] = fields::<6>(line)?;
    let share = |text: &str| {
        let x: f64 = number(text)?;
        // NaN is in no range, so it is refused here too.
        if (0.0..=1.0).contains(&x) { Ok(x) } else { Err(BadCalibration(format!("{text:?}: not a share from 0 to 1"))) }
    };
    let positions = number(positions)?;
    Ok(Bin {
        positions,
        lowest: share(lowest)?,
        highest: share(highest)?,
        stated: share(stated)?,
        observed: share(observed)?,
        error: share(error)?,
    })
}

impl Measured {
    /// The report's section on the evaluation a seat plays by: the table, the reliability picture, and the
    /// bins as `calibration.parquet`.
    pub fn extra(&self) -> Extra {
        let holding = self.bins.iter().filter(|b| b.holds(Z95)).count();
        let text = format!(
            "The expert player searches by an evaluation of the position: the chance that the side to move wins, \
             fitted by self-play. Is it a chance? On {} fresh self-play games (seed {}), one position of each \
             was sorted by its stated chance into {} bins of equal count; in {holding} of them the mean stated \
             chance lies inside the 95% interval of the score the side to move went on to make (a win 1, a draw \
             ½, a loss 0). examples/board_calibration.rs measures it again.",
            thousands(self.games),
            self.seed,
            self.bins.len()
        );
        let mut table =
            Table::new(&["stated chance", "positions", "mean stated", "observed score", "95% interval", "holds"])
                .with_id("calibration");
        for b in &self.bins {
            let (low, high) = b.interval(Z95);
            table.push(Row::new(vec![
                Cell::text(format!("{:.3} to {:.3}", b.lowest, b.highest)),
                Cell::number(b.positions.to_string()),
                Cell::number(format!("{:.3}", b.stated)),
                Cell::number(format!("{:.3}", b.observed)),
                Cell::text(format!("{low:.3} to {high:.3}")),
                Cell::text(if b.holds(Z95) { "yes" } else { "no" }),
            ]));
        }
        let caption = format!(
            "{holding} of {} bins hold: the evaluation's stated chance against the score observed",
            self.bins.len()
        );
        Extra {
            name: "calibration".to_owned(),
            placement: Placement::Results("The evaluation's calibration".to_owned()),
            text,
            data: Some(self.data()),
            picture: Some(Picture::Reliability(self.picture())),
            caption,
            table: Some(table),
        }
    }

    fn picture(&self) -> Reliability {
        let bins = self.bins.iter().map(|b| b.reliable(Z95));
        Reliability {
            title: "Calibration of the evaluation".to_owned(),
            x_desc: "stated chance that the side to move wins".to_owned(),
            y_desc: "score it went on to make".to_owned(),
            bins: bins.collect(),
        }
    }

    fn data(&self) -> DataTable {
        let of = |f: fn(&Bin) -> f64| Values::F64(self.bins.iter().map(f).collect());
        DataTable::default()
            .column("positions", Values::U64(self.bins.iter().map(|b| b.positions as u64).collect()))
            .column("lowest", of(|b| b.lowest))
            .column("highest", of(|b| b.highest))
            .column("stated", of(|b| b.stated))
            .column("observed", of(|b| b.observed))
            .column("ci_low", of(|b| b.interval(Z95).0))
            .column("ci_high", of(|b| b.interval(Z95).1))
    }
}
