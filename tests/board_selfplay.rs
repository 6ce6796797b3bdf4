//! Self-play runs of the board game Intercept through the engine and the command line (issue 7): the shipped
//! matches' verdicts with 99% intervals, games replayed exactly as the run played them, the same counts
//! whatever the thread count, a sweep over a rule variant, and bad input refused with one line.

mod common;

use std::path::Path;

use assert_cmd::Command;
use intercept_sim::core::config::{self, Overrides, Scenario};
use intercept_sim::core::metrics::Tally;
use intercept_sim::core::runner::{self, SampleOptions};
use intercept_sim::core::stats::wilson;

const RANDOM: &str = "configs/board/random-vs-random.toml";
const GREEDY: &str = "configs/board/greedy-vs-random.toml";
const MCTS: &str = "configs/board/mcts-vs-greedy.toml";

/// z for a two-sided 99% interval.
const Z99: f64 = 2.576;

fn load(path: &str, trials: Option<u64>) -> Scenario {
    config::load(&intercept_sim::core::games::shipped(), Path::new(path), Overrides { trials, seed: None })
        .expect("a shipped config")
}

fn tally(scenario: &Scenario, threads: usize) -> Tally {
    let opts = SampleOptions { threads: Some(threads), ..SampleOptions::default() };
    let record = runner::sample(scenario, &opts, &|_| {});
    Tally { trials: record.trials, counts: record.counts }
}

/// How many games `metric` (a probability) counted.
fn count(scenario: &Scenario, tally: &Tally, metric: &str) -> u64 {
    let def = scenario.rules.metrics().defs().iter().find(|d| d.name == metric).expect("a metric");
    tally.counts[def.slot]
}

/// White's win rate over the shipped run has a 99% interval above one half.
fn white_wins_the_match(path: &str) {
    let scenario = load(path, None);
    let tally = tally(&scenario, 2);
    let wins = count(&scenario, &tally, "board.white.wins");
    let ci = wilson(wins, tally.trials, Z99);
    assert!(ci.low > 0.5, "{path}: White won {wins} of {}: 99% interval [{}, {}]", tally.trials, ci.low, ci.high);
}

#[test]
fn greedy_beats_random_in_the_shipped_match() {
    white_wins_the_match(GREEDY);
}

/// The tree search (White, 50 playouts a turn) against greedy, sides of the first move drawn by coin.
#[test]
fn mcts_beats_greedy_in_the_shipped_match() {
    white_wins_the_match(MCTS);
}

/// A match with an expert seat: its report shows the evaluation's calibration (the shipped table, at least
/// five bins holding), its answer says who wins the match, and `calibration.parquet` holds the bins; a match
/// without one has no such section.
#[test]
fn an_expert_match_reports_the_evaluation_calibration() {
    let dir = common::run_into_temp("configs/board/expert-vs-greedy.toml", 2);
    let report = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(report.contains("The evaluation&#39;s calibration") || report.contains("The evaluation's calibration"));
    assert!(report.contains("id=\"calibration\""), "the calibration table");
    assert!(report.contains("White (expert, 200 playouts, depth 2) wins"), "the match's answer");
    let stated = common::f64_column(&dir.path().join("calibration.parquet"), "stated");
    let (low, high) = (
        common::f64_column(&dir.path().join("calibration.parquet"), "ci_low"),
        common::f64_column(&dir.path().join("calibration.parquet"), "ci_high"),
    );
    let holding = (0..stated.len()).filter(|&i| low[i] <= stated[i] && stated[i] <= high[i]).count();
    assert!(stated.len() == 10 && holding >= 5, "{holding} of {} bins hold", stated.len());
    assert!(dir.path().join("calibration.svg").exists() && dir.path().join("calibration.png").exists());
    let plain = common::run_into_temp(MCTS, 2);
    assert!(!plain.path().join("calibration.parquet").exists(), "no expert seat, no calibration");
}

/// Random play almost never scores within the limit: most games are draws, and the first move is no edge
/// anyone can measure.
#[test]
fn random_against_random_mostly_draws() {
    let scenario = load(RANDOM, Some(300));
    let tally = tally(&scenario, 2);
    let draws = count(&scenario, &tally, "board.draws");
    assert!(wilson(draws, tally.trials, Z99).low > 0.9, "{draws} draws of {}", tally.trials);
}

#[test]
fn thread_count_does_not_change_a_self_play_run() {
    let scenario = load(GREEDY, Some(48));
    assert_eq!(tally(&scenario, 1), tally(&scenario, 3));
}

/// Value stability: these counts are part of the reproducibility contract, as for the other rule sets.
#[test]
fn greedy_against_random_seed_7_is_pinned() {
    let scenario = load(GREEDY, Some(48));
    let tally = tally(&scenario, 2);
    let got: Vec<u64> = ["board.white.wins", "board.first_player.wins", "board.draws"]
        .iter()
        .map(|m| count(&scenario, &tally, m))
        .collect();
    assert_eq!(got, PINNED_GREEDY_48);
}

const PINNED_GREEDY_48: [u64; 3] = [48, 27, 0];

/// `replay --game N` plays the run's game N: the same winner, length and steals as the run's per-trial row,
/// on both sides of a chunk boundary (16 games a chunk).
#[test]
fn replay_plays_the_game_the_run_played() {
    replays_match(GREEDY);
}

/// The same under `[run] draws = "packed"`: a replay draws with the run's sampler.
#[test]
fn replay_plays_the_game_a_packed_run_played() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("packed.toml");
    let text = std::fs::read_to_string(GREEDY).unwrap();
    assert!(text.contains("[run]\n"), "{GREEDY} has a [run] table");
    std::fs::write(&config, text.replace("[run]\n", "[run]\ndraws = \"packed\"\n")).unwrap();
    replays_match(config.to_str().unwrap());
}

fn replays_match(config: &str) {
    let dir = tempfile::tempdir().unwrap();
    let run = ["run", config, "--trials", "20", "--per-trial", "--out"];
    Command::cargo_bin("intercept-sim").unwrap().args(run).arg(dir.path()).assert().success();
    let trials = dir.path().join("trials.parquet");
    let turns = common::f64_column(&trials, "board.turns");
    let steals = common::f64_column(&trials, "board.steals");
    for game in [0usize, 15, 16, 19] {
        let out = Command::cargo_bin("intercept-sim")
            .unwrap()
            .args(["replay", config, "--moves-only", "--game", &game.to_string()])
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let last = text.lines().last().unwrap();
        assert!(last.contains(&format!("after {} turns", turns[game])), "game {game}: {last}");
        let (w, b) = steal_counts(last);
        assert_eq!(f64::from(w + b), steals[game], "game {game}: {last}");
        let numbered = text.lines().filter(|l| is_turn_line(l)).count();
        assert_eq!(numbered as f64, turns[game], "game {game}: one line per turn");
    }
}

/// A replay's line of one turn: `  7. White d1-c2`, not a board row such as `13  .   p`.
fn is_turn_line(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    digits > 0 && t[digits..].starts_with(". ")
}

/// The steals of a replay's last line: `...; steals: White 2, Black 1.`
fn steal_counts(line: &str) -> (u32, u32) {
    let tail = line.split("steals: White ").nth(1).unwrap();
    let (w, b) = tail.trim_end_matches('.').split_once(", Black ").unwrap();
    (w.parse().unwrap(), b.parse().unwrap())
}

#[test]
fn replay_prints_the_board_after_each_turn() {
    let out = Command::cargo_bin("intercept-sim").unwrap().args(["replay", GREEDY, "--game", "1"]).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.starts_with("Game 1: White (greedy) against Black (random);"), "{text}");
    assert!(text.contains("  1. "), "{text}");
    // The start board and one board per turn, each with its column letters.
    let boards = text.lines().filter(|l| l.trim_start().starts_with("a   b   c")).count();
    let turns = text.lines().filter(|l| is_turn_line(l)).count();
    assert_eq!(boards, turns + 1, "{text}");
}

#[test]
fn replay_refuses_what_it_cannot_replay() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["replay", GREEDY, "--game", "400"],
            "--game: the run has 400 games, numbered 0 to 399, so there is no game 400",
        ),
        (&["replay", "configs/cavalry/charge-on-pikes.toml"], "not a self-play config; replay needs a [board] table"),
        (&["replay", GREEDY, "--game", "-1"], "--game: \"-1\" is not allowed; allowed: a whole number from 0 to"),
    ];
    for (args, says) in cases {
        let out = Command::cargo_bin("intercept-sim").unwrap().args(args).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// A sweep over a rule variant (I-A7): both points run on the same seeds and the files are written.
#[test]
fn a_sweep_over_a_variant_runs() {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("intercept-sim")
        .unwrap()
        .args(["sweep", GREEDY, "--set", "board.variant.steal_requires_moved_piece=false,true", "--trials", "16"])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let values = common::f64_column(&dir.path().join("sweep.parquet"), "estimate");
    assert!(!values.is_empty());
}

/// An unknown player, a negative budget, a variant that does not exist and the other bad values each exit
/// 2 with one line naming the file, the line and the key, and write nothing.
#[test]
fn bad_self_play_configs_are_refused_with_one_line() {
    let cases = [
        (
            GREEDY,
            "player = \"greedy\"",
            "player = \"minimax\"",
            "board.white.player",
            "expected one of `random`, `greedy`, `mcts`, `expert`",
        ),
        (MCTS, "budget = 50 ", "budget = -5 ", "board.white.budget", "-5 is out of range; allowed: 1 to 100000"),
        (MCTS, "depth = 6 ", "depth = -1 ", "board.white.depth", "allowed: 0 to 1000"),
        (
            GREEDY,
            "steal_requires_moved_piece = false",
            "steal_needs_move = false",
            "board.variant.steal_needs_move",
            "unknown field `steal_needs_move`",
        ),
        (
            GREEDY,
            "first_player = \"random\"",
            "first_player = \"blue\"",
            "board.first_player",
            "expected one of `white`, `black`, `random`",
        ),
        (GREEDY, "turn_limit = 200", "turn_limit = 0", "board.turn_limit", "allowed: 1 to 2000"),
        (
            GREEDY,
            "[board.black]\nplayer = \"random\"",
            "[board.black]\nplayer = \"random\"\nbudget = 10",
            "board.black.budget",
            "applies to player = \"mcts\" or \"expert\" only",
        ),
    ];
    for (config, from, to, key, says) in cases {
        let stderr = common::refused_variant(config, from, to);
        assert!(stderr.contains(&format!("key '{key}'")) && stderr.contains(says), "{to}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{to}: one line: {stderr}");
    }
}

/// A run writes the start position as a board diagram, the outcome charts, and a report that shows both.
#[test]
fn a_run_writes_the_board_and_the_outcome_charts() {
    let dir = common::run_into_temp(GREEDY, 16);
    for file in ["board.svg", "board.png", "headline.svg", "dist-board.turns.svg", "dist-board.steals.svg"] {
        assert!(dir.path().join(file).is_file(), "{file} written");
    }
    let report = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(report.contains("aria-label=\"The start position (C.2)"), "the board is in the report");
    assert!(report.contains("the board game Intercept (self-play)"), "the rules are named");
    assert!(report.contains("White (greedy) against Black (random)"), "the match in plain words");
}
