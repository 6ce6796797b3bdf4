//! Fitting the evaluation's weights from self-play (issue 41): [`fit`] plays [`FitPlan::games`] seeded games
//! of the tree search against itself, records every position with its features and how the game ended for
//! the side to move there (a win 1, a loss 0, a draw at the turn limit ½), and finds the weights of the
//! logistic model that best predict those endings (maximum likelihood with a small ridge, by Newton's
//! method). Game `g` draws from `Sampler::at_trial(seed, 1, g)` and the sums run in game order, so the same
//! plan gives the same weights on any number of threads: [`SHIPPED`] gives `evaluation.csv`.

use rayon::prelude::*;

use crate::chance::{Chance, Sampler};

use super::evaluation::{FEATURES, Weights, features};
use super::mcts::{Leaf, Mcts};
use super::players::play_game;
use super::position::{Colour, Position};
use super::turns::{Turn, Variant, turns_into};

/// What a fit plays and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FitPlan {
    pub games: u64,
    pub seed: u64,
    /// The tree search that plays both sides: playouts a turn and turns a playout.
    pub budget: u32,
    pub depth: u32,
    pub turn_limit: u32,
    /// Game `g` opens with `g % openings` uniformly random turns, so the games do not all run alike.
    pub openings: u64,
}

/// The plan the shipped weights were fitted with.
pub const SHIPPED: FitPlan = FitPlan { games: 300, seed: 41, budget: 50, depth: 6, turn_limit: 200, openings: 9 };

/// A fit's weights and what they were fitted on.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub weights: Weights,
    pub positions: usize,
    /// Games won by White, by Black, and drawn at the turn limit.
    pub results: [u64; 3],
    /// The mean log-loss of the fitted chances over the positions (ln 2 = 0.693 for a coin).
    pub log_loss: f64,
}

/// One recorded position: its features, and the ending for its side to move.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub features: [f64; FEATURES],
    pub outcome: f64,
}

/// Plays the plan's games and fits the weights to them.
pub fn fit(plan: &FitPlan) -> Fitted {
    let games: Vec<(Option<Colour>, Vec<Sample>)> = (0..plan.games).into_par_iter().map(|g| game(plan, g)).collect();
    let mut results = [0; 3];
    for (winner, _) in &games {
        results[winner.map_or(2, Colour::index)] += 1;
    }
    let samples: Vec<Sample> = games.into_iter().flat_map(|(_, s)| s).collect();
    let weights = regress(&samples);
    Fitted { weights, positions: samples.len(), results, log_loss: log_loss(&weights, &samples) }
}

/// Game `g` of the plan: its random opening, then the search against itself; every position after the
/// opening with a side to move, labelled with the game's ending for that side.
pub fn game(plan: &FitPlan, g: u64) -> (Option<Colour>, Vec<Sample>) {
    let v = Variant::default();
    let chance = &mut Sampler::at_trial(plan.seed, 1, g);
    let mut start = Position::start();
    let mut turns = Vec::new();
    for _ in 0..g % plan.openings.max(1) {
        turns_into(&start, v, &mut turns);
        if start.winner().is_some() || turns.is_empty() {
            break;
        }
        start.play_in_place(turns[chance.uniform(turns.len())]);
    }
    let search = Mcts { budget: plan.budget, depth: plan.depth, variant: v, leaf: Leaf::Lean };
    let mut seen: Vec<(Colour, [f64; FEATURES])> = Vec::new();
    let mut scratch: Vec<Turn> = Vec::new();
    let mut record = |p: &Position, _: Turn| {
        if let Some(f) = features(p, v, &mut scratch) {
            seen.push((p.to_move, f));
        }
    };
    let played = play_game(&start, &search, &search, v, plan.turn_limit, chance, &mut record);
    let outcome = |side: Colour| match played.winner {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let samples = seen.into_iter().map(|(side, features)| Sample { features, outcome: outcome(side) }).collect();
    (played.winner, samples)
}

/// The ridge that keeps Newton's steps finite when a feature never varies (a weight with no evidence
/// stays near 0).
const RIDGE: f64 = 1e-3;

/// The weights of the logistic model that maximise the likelihood of the samples' endings (a draw counts
/// half a win), less a small ridge: Newton's method from all zeros until no weight moves by 10^-12.
pub fn regress(samples: &[Sample]) -> Weights {
    let mut w = [0.0; FEATURES];
    for _ in 0..100 {
        let mut gradient = [0.0; FEATURES];
        let mut hessian = [[0.0; FEATURES]; FEATURES];
        for s in samples {
            let p = Weights(w).chance_of(&s.features);
            let spread = p * (1.0 - p);
            for (i, row) in hessian.iter_mut().enumerate() {
                gradient[i] += (p - s.outcome) * s.features[i];
                for (h, x) in row.iter_mut().zip(&s.features) {
                    *h += spread * s.features[i] * x;
                }
            }
        }
        for i in 0..FEATURES {
            gradient[i] += RIDGE * w[i];
            hessian[i][i] += RIDGE;
        }
        let step = solve(hessian, gradient);
        w.iter_mut().zip(&step).for_each(|(w, s)| *w -= s);
        if step.iter().all(|s| s.abs() < 1e-12) {
            break;
        }
    }
    Weights(w)
}

/// `x` with `a x = b`, by Gaussian elimination with partial pivoting (`a` is positive definite here).
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..FEATURES {
            let f = a[row][col] / pivot_row[col];
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let known: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - known) / a[row][row];
    }
    x
}

/// The mean log-loss of the weights' chances against the samples' endings.
pub fn log_loss(w: &Weights, samples: &[Sample]) -> f64 {
    let loss = |s: &Sample| {
        let p = w.chance_of(&s.features).clamp(1e-12, 1.0 - 1e-12);
        -(s.outcome * p.ln() + (1.0 - s.outcome) * (1.0 - p).ln())
    };
    samples.iter().map(loss).sum::<f64>() / samples.len().max(1) as f64
}
