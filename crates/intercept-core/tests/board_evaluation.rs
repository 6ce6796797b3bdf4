//! The board game's evaluation (issue 41): the fit reproduces the shipped weights from its seed, the weights
//! file is read strictly, and the fitted chances predict the endings of fresh self-play games better than a
//! coin does.

use intercept_core::games::board_game::calibration::calibrate;
use intercept_core::games::board_game::evaluation::{NAMES, Weights};
use intercept_core::games::board_game::fit::{self, FitPlan};

const SHIPPED: &str = include_str!("../src/games/board_game/evaluation.csv");

/// `cargo run --release -p intercept-core --example board_fit` wrote `evaluation.csv`; the same plan gives
/// the same bytes here (the games are seeded one by one and summed in order, whatever the threads).
#[test]
fn the_fit_reproduces_the_shipped_weights() {
    let fitted = fit::fit(&fit::SHIPPED);
    assert_eq!(fitted.weights.csv(), SHIPPED);
    assert_eq!(Weights::read(SHIPPED).as_ref(), Ok(Weights::shipped()));
    assert!(fitted.log_loss < std::f64::consts::LN_2, "log-loss {} is no better than a coin", fitted.log_loss);
}

#[test]
fn a_weights_file_is_read_strictly() {
    let good = Weights::shipped().csv();
    assert_eq!(Weights::read(&good).as_ref(), Ok(Weights::shipped()));
    let without_header = good.replacen("feature,weight\n", "", 1);
    assert!(Weights::read(&without_header).unwrap_err().0.contains("first line"));
    let short: String = good.lines().take(NAMES.len()).map(|l| format!("{l}\n")).collect();
    assert!(Weights::read(&short).unwrap_err().0.contains("11 weights"));
    let renamed = good.replacen("reach,", "rich,", 1);
    assert!(Weights::read(&renamed).unwrap_err().0.contains("expected the weight of reach"));
    let not_a_number = good.replacen("threat,", "threat,x", 1);
    assert!(Weights::read(&not_a_number).unwrap_err().0.contains("not a number"));
}

/// Positions of 40 games the fit never saw (another seed): the shipped weights' chances have a lower
/// log-loss against how the games ended than the coin's ln 2.
#[test]
fn the_evaluation_predicts_fresh_games_better_than_a_coin() {
    let plan = FitPlan { games: 40, seed: 7, ..fit::SHIPPED };
    let samples: Vec<fit::Sample> = (0..plan.games).flat_map(|g| fit::game(&plan, g).1).collect();
    let loss = fit::log_loss(Weights::shipped(), &samples);
    assert!(loss < std::f64::consts::LN_2, "log-loss {loss} over {} positions", samples.len());
}

/// The calibration table's bins (`board_calibration` prints it over 1,000 games): one position of each of
/// 100 fresh games (seed 42) in five bins of equal count, in order of stated chance, and the positions the
/// evaluation rates highest went on to score more than those it rates lowest. Whether each bin's stated
/// chance lies in its interval is measured there, not asserted here: over 1,000 games 8 of 10 bins hold
/// (see the board guide), which is not yet the calibration issue 41 asks for.
#[test]
fn the_calibration_bins_positions_by_stated_chance() {
    let plan = FitPlan { games: 100, seed: 42, ..fit::SHIPPED };
    let bins = calibrate(Weights::shipped(), &plan, 5);
    assert_eq!(bins.iter().map(|b| b.positions).collect::<Vec<_>>(), [20; 5]);
    assert!(bins.windows(2).all(|w| w[0].highest <= w[1].lowest), "bins in order of stated chance");
    assert!(bins.iter().all(|b| b.lowest <= b.stated && b.stated <= b.highest));
    let (bottom, top) = (&bins[0], &bins[4]);
    assert!(top.observed > bottom.observed, "top {:.3} against bottom {:.3}", top.observed, bottom.observed);
    assert_eq!(calibrate(Weights::shipped(), &plan, 5), bins, "the same games and positions every time");
}
