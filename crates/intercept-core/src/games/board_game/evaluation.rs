//! The evaluation of a position of Intercept (issue 41): the chance that the side to move wins, read off
//! a few [`features`] of the board and weighed by [`Weights`] fitted from self-play ([`super::fit`]).
//!
//! The features are what a player looks at: how near the goal it attacks the side to move can bring the
//! ball this turn through a chain of transfers (I-13, I-15), and how near its own goal the opponent could
//! bring it were it to move now; where the ball lies against each goal; whose stone carries it (I-14); the
//! passers and the stacks around it on each side. The chance is the logistic function of their weighed sum,
//! so a weight reads as log-odds. The shipped weights are `evaluation.csv` beside this file, compiled in
//! ([`Weights::shipped`]); `examples/board_fit.rs` writes them again from the same seed.

use std::sync::OnceLock;

use super::generate::Generator;
use super::position::{Cell, Colour, Position};
use super::turns::{Turn, Variant};
use crate::ruleset::Evaluation;

/// How many features a position has; [`NAMES`] names them in order.
pub const FEATURES: usize = 12;

/// The features' names, in the order of [`features`] and of `evaluation.csv`.
pub const NAMES: [&str; FEATURES] = [
    "bias",
    "reach",
    "threat",
    "ball_to_target",
    "ball_to_own_goal",
    "scores_now",
    "scored_on_next",
    "ball_holder",
    "passers_at_ball",
    "enemy_passers_at_ball",
    "stacks_near_ball",
    "enemy_stacks_near_ball",
];

crate::refusal! {
    /// Why a weights file cannot be read: which line, and what was expected.
    BadWeights
}

/// The weight of each feature, in log-odds of a win for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights(pub [f64; FEATURES]);

/// The shipped weights, as `examples/board_fit.rs` writes them: a header line, then `name,weight` a feature.
const SHIPPED: &str = include_str!("evaluation.csv");

impl Weights {
    /// The weights fitted from self-play and shipped with the program.
    pub fn shipped() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| Weights::read(SHIPPED).expect("evaluation.csv is the fit's own output"))
    }

    /// Reads weights written by [`Weights::csv`]: every feature of [`NAMES`], in order, and nothing else.
    pub fn read(text: &str) -> Result<Weights, BadWeights> {
        let mut lines = text.lines();
        if lines.next() != Some("feature,weight") {
            return Err(BadWeights::from("the first line is not \"feature,weight\""));
        }
        let mut w = [0.0; FEATURES];
        let rows: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
        if rows.len() != FEATURES {
            return Err(BadWeights(format!("{} weights; the evaluation has {FEATURES} features", rows.len())));
        }
        for ((row, name), weight) in rows.iter().zip(NAMES).zip(&mut w) {
            let value = row.strip_prefix(name).and_then(|r| r.strip_prefix(','));
            let value = value.ok_or_else(|| format!("{row:?}: expected the weight of {name}"))?;
            *weight =
                value.parse().ok().filter(|x: &f64| x.is_finite()).ok_or_else(|| format!("{row:?}: not a number"))?;
        }
        Ok(Weights(w))
    }

    /// The weights as `evaluation.csv` holds them.
    pub fn csv(&self) -> String {
        let rows: String = NAMES.iter().zip(self.0).map(|(n, w)| format!("{n},{w:.6}\n")).collect();
        format!("feature,weight\n{rows}")
    }

    /// The SHA-256 of the weights as `evaluation.csv` holds them, in hex: what a calibration table names
    /// as the weights it measured.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        crate::seal::hex(&Sha256::digest(self.csv()))
    }

    /// The chance that the side to move wins `p`, by the weighed features; 0.5 on a board without goals.
    pub fn win_chance(&self, p: &Position, v: Variant, scratch: &mut Vec<Turn>) -> f64 {
        features(p, v, scratch).map_or(0.5, |f| self.chance_of(&f))
    }

    /// The chance the weights give a position with features `f`.
    pub fn chance_of(&self, f: &[f64; FEATURES]) -> f64 {
        logistic(self.0.iter().zip(f).map(|(w, x)| w * x).sum())
    }
}

/// `1 / (1 + e^-x)`: log-odds to a chance.
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The features of `p` for the side to move, distances as shares of the board's side; `None` on a board
/// without goals (the test diagrams), where nothing is aimed at. `scratch` holds the turns listed on the way.
pub fn features(p: &Position, v: Variant, scratch: &mut Vec<Turn>) -> Option<[f64; FEATURES]> {
    let me = p.to_move;
    let (target, own) = (p.target()?, p.goal_of(me)?);
    let size = f64::from(p.size);
    let here = |goal: Cell| f64::from(p.distance(p.ball, goal)) / size;
    let (reach, _) = nearest(p, v, scratch, target);
    let (threat, _) = nearest(&p.passed(), v, scratch, own);
    let holder = match p.at(p.ball) {
        Some(piece) if piece.top.colour == me => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    };
    let [mine, enemy] = around_ball(p, me);
    Some([
        1.0,
        f64::from(reach) / size,
        f64::from(threat) / size,
        here(target),
        here(own),
        f64::from(u8::from(reach == 0)),
        f64::from(u8::from(threat == 0)),
        holder,
        f64::from(mine.passers) / 3.0,
        f64::from(enemy.passers) / 3.0,
        f64::from(mine.stacks) / 8.0,
        f64::from(enemy.stacks) / 8.0,
    ])
}

/// The nearest to `goal` the side to move of `p` can bring the ball this turn (0: it scores), by the turns
/// that end in a transfer, and the cell; where the ball lies when none brings it nearer.
fn nearest(p: &Position, v: Variant, scratch: &mut Vec<Turn>, goal: Cell) -> (u8, Cell) {
    let here = (p.distance(p.ball, goal), p.ball);
    if p.no_transfer() {
        return here;
    }
    scratch.clear();
    Generator::new(p, v, scratch).transfers_only().all();
    scratch
        .iter()
        .filter_map(|t| t.ball_to)
        .map(|to| (p.distance(to, goal), to))
        .fold(here, |a, b| if b.0 < a.0 { b } else { a })
}

/// Why the evaluation says what it says, in one line: how near each side's goal each side can bring the
/// ball this turn, counted in transfers (each moves it two squares, I-13), and who holds it; `None` on a
/// board without goals.
pub fn why(p: &Position, v: Variant) -> Option<String> {
    let scratch = &mut Vec::new();
    let (me, them) = (p.to_move, p.to_move.other());
    let (target, own) = (p.target()?, p.goal_of(me)?);
    let (reach, to) = nearest(p, v, scratch, target);
    let (threat, their_to) = nearest(&p.passed(), v, scratch, own);
    let (mine, theirs) = (me.title(), them.title());
    if reach == 0 {
        return Some(format!("{mine} scores this turn: a chain of transfers reaches {}.", p.name(target)));
    }
    let holder = match p.at(p.ball) {
        Some(piece) => format!("on a {} stone", piece.top.colour.title().to_lowercase()),
        None => "on no stone".to_owned(),
    };
    let lies = format!(
        "The ball lies on {} {holder}, {} from {theirs}'s goal",
        p.name(p.ball),
        transfers(p.distance(p.ball, target))
    );
    let mine_line = if to == p.ball {
        format!("{mine} cannot bring it nearer this turn")
    } else {
        format!("{mine} can bring it to {}, {} from {theirs}'s goal", p.name(to), transfers(reach))
    };
    let their_line = match threat {
        0 => format!("{theirs} threatens to score at {}", p.name(own)),
        _ if their_to == p.ball => format!("{theirs} could not bring it nearer {mine}'s goal"),
        _ => format!("{theirs} could bring it to {}, {} from {mine}'s goal", p.name(their_to), transfers(threat)),
    };
    Some(format!("{lies}; {mine_line}; {their_line}."))
}

/// The shipped evaluation of `p` for the page and the API: the side to move's win chance and why.
pub fn judge(p: &Position, v: Variant) -> Option<Evaluation> {
    let why = why(p, v)?;
    Some(Evaluation { win_chance: Weights::shipped().win_chance(p, v, &mut Vec::new()), why })
}

/// The transfers that cover `distance` squares at two a transfer (I-13), in words.
fn transfers(distance: u8) -> String {
    const WORDS: [&str; 7] = ["no", "one", "two", "three", "four", "five", "six"];
    let n = usize::from(distance.div_ceil(2));
    let count = WORDS.get(n).map_or_else(|| n.to_string(), |w| (*w).to_owned());
    format!("{count} transfer{}", if n == 1 { "" } else { "s" })
}

/// One side's pieces around the ball: passage-type stacks next to it (I-13), stacks within two squares.
#[derive(Clone, Copy, Default)]
struct AroundBall {
    passers: u8,
    stacks: u8,
}

/// The pieces around the ball of `me`, then of the other side.
fn around_ball(p: &Position, me: Colour) -> [AroundBall; 2] {
    let mut sides = [AroundBall::default(); 2];
    if p.ball >= p.size * p.size {
        return sides;
    }
    let (col, row) = (i16::from(p.ball % p.size), i16::from(p.ball / p.size));
    for dr in -2..=2i16 {
        for dc in -2..=2i16 {
            let (c, r) = (col + dc, row + dr);
            let on_board = (0..i16::from(p.size)).contains(&c) && (0..i16::from(p.size)).contains(&r);
            let Some(piece) = on_board.then(|| p.at((c + r * i16::from(p.size)) as Cell)).flatten() else { continue };
            if (dc, dr) == (0, 0) {
                continue;
            }
            let side = &mut sides[usize::from(piece.top.colour != me)];
            side.stacks += 1;
            side.passers += u8::from(dc.abs() <= 1 && dr.abs() <= 1 && piece.top.is_passage_type());
        }
    }
    sides
}
