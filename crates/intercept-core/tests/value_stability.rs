//! Value stability: a published config and seed must keep giving the same counts, release after release.
//! If this test fails, every result a user has published with a seed no longer reproduces: change these
//! numbers only with a major version and a note in the changelog.

use std::path::Path;

use intercept_core::chance::Draws;
use intercept_core::config::{self, Overrides};
use intercept_core::games::cavalry::CavalryRules;
use intercept_core::games::naval::NavalRules;
use intercept_core::games::shipped;
use intercept_core::metrics::Tally;
use intercept_core::runner::{self, SampleOptions};

fn successes(trials: u64, threads: usize) -> Vec<(String, Option<u64>)> {
    successes_drawing(trials, threads, Draws::Paired)
}

fn successes_drawing(trials: u64, threads: usize, draws: Draws) -> Vec<(String, Option<u64>)> {
    let overrides = Overrides { trials: Some(trials), seed: Some(42) };
    let mut scenario = config::load(
        &shipped(),
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/cavalry/charge-on-pikes.toml")),
        overrides,
    )
    .expect("valid");
    scenario.run.draws = draws;
    let opts = SampleOptions { threads: Some(threads), ..SampleOptions::default() };
    let record = runner::sample(&scenario, &opts, &|_| {});
    record.summary.metrics.iter().map(|r| (r.metric.clone(), r.successes)).collect()
}

/// Each pinned metric's count in `got`.
fn assert_counts(got: &[(String, Option<u64>)], want: &[(&str, u64)]) {
    for &(metric, count) in want {
        let row = got.iter().find(|(m, _)| m == metric).unwrap_or_else(|| panic!("no {metric}"));
        assert_eq!(row.1, Some(count), "{metric}");
    }
}

#[test]
fn charge_on_pikes_seed_42_is_pinned() {
    // Renewed in issue 17: the fire that follows each interception (C-4.6) draws before the next unit's
    // roll, so Rupert's horse rolls on later numbers of each trial's stream.
    let got = successes(100_000, 2);
    let want = [
        ("cavalry.intercepted", 80_015),
        ("cavalry.interceptor.lifeguard.succeeded", 59_962),
        ("cavalry.interceptor.rupert-horse.succeeded", 49_924),
        ("target.hedgehog_formed", 42_250),
        ("target.morale_lost", 17_712),
    ];
    assert_counts(&got, &want);
}

/// The packed sampler ([run] draws = "packed") is part of what a seed means too: its own pinned counts.
#[test]
fn charge_on_pikes_seed_42_packed_is_pinned() {
    let got = successes_drawing(100_000, 2, Draws::Packed);
    let want = [
        ("cavalry.intercepted", 80_006),
        ("cavalry.interceptor.lifeguard.succeeded", 59_962),
        ("cavalry.interceptor.rupert-horse.succeeded", 49_810),
        ("target.hedgehog_formed", 41_907),
        ("target.morale_lost", 18_055),
    ];
    assert_counts(&got, &want);
}

#[test]
fn thread_count_does_not_change_counts() {
    assert_eq!(successes(200_000, 1), successes(200_000, 3));
    let packed = |threads| successes_drawing(200_000, threads, Draws::Packed);
    assert_eq!(packed(1), packed(3));
}

#[test]
fn chunks_merge_to_the_whole_run() {
    let scenario = config::load(
        &shipped(),
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/cavalry/hedgehog-under-pressure.toml")),
        Overrides::default(),
    )
    .unwrap();
    let plan = intercept_core::engine::Plan { trials: 150_000, seed: 5, chunk_size: 40_000, draws: Default::default() };
    let model = &scenario.resolved::<CavalryRules>().expect("a cavalry config").model;
    let whole = runner::tally(&scenario, &plan);
    let mut merged = Tally::new(scenario.rules.metrics());
    for i in 0..plan.chunks() {
        merged.merge(&intercept_core::engine::run_chunk(model, &plan, i));
    }
    assert_eq!(whole, merged);
    assert_eq!(whole.trials, 150_000);
    let (_, rows) = intercept_core::engine::run_chunk_rows(model, &plan, 3);
    assert_eq!(rows.first_trial, 120_000);
    assert_eq!(rows.columns[0].len(), 30_000, "the last chunk is short");
}

/// Per-trial rows made a slice at a time (each slice starting its chunk's generator part-way) are the rows
/// and counts of the whole chunk: the chunk size never changes what `trials.parquet` holds.
#[test]
fn slices_of_a_chunk_are_the_chunk() {
    use intercept_core::engine::{self, Plan, SLICE_TRIALS};
    let scenario = config::load(
        &shipped(),
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/naval/three-level-chain.toml")),
        Overrides::default(),
    )
    .unwrap();
    let model = &scenario.resolved::<NavalRules>().expect("a naval config").model;
    let plan = Plan { trials: 100_000, seed: 7, chunk_size: 3 * SLICE_TRIALS + 5, draws: Default::default() };
    for chunk in 0..plan.chunks() {
        let (whole_tally, whole) = engine::run_chunk_rows(model, &plan, chunk);
        let mut tally = Tally::new(scenario.rules.metrics());
        let mut columns = vec![Vec::new(); whole.columns.len()];
        for slice in plan.slices(chunk..chunk + 1) {
            let (t, rows) = engine::run_slice_rows(model, &plan, slice);
            assert_eq!(rows.first_trial, plan.first_trial(chunk) + slice.skip);
            tally.merge(&t);
            columns.iter_mut().zip(rows.columns).for_each(|(c, r)| c.extend(r));
        }
        assert_eq!((tally, columns), (whole_tally, whole.columns), "chunk {chunk}");
    }
}

/// The path memo replays the rules from memory: on every shipped config, a run through memos (roomy, tiny
/// and none) counts exactly what running the rules for every trial counts.
#[test]
fn the_path_memo_changes_no_count() {
    use intercept_core::config::Scenario;
    use intercept_core::engine::{self, Plan};
    use intercept_core::games::{card_game::CardGameRules, step_race::StepRaceRules};
    use intercept_core::memo::{BUDGET_BYTES, PathMemo};
    use intercept_core::ruleset::RuleSet;

    /// Compares the memo with the rules on `scenario` if its rule set is `S`; says whether it was.
    fn compare<S: RuleSet + std::fmt::Debug>(scenario: &Scenario, plan: &Plan) -> bool {
        let Some(resolved) = scenario.resolved::<S>() else { return false };
        for (budget, draws) in
            [BUDGET_BYTES, 2_000, 0].into_iter().flat_map(|b| [(b, Draws::Paired), (b, Draws::Packed)])
        {
            let (mut memo, plan) = (PathMemo::new(budget), Plan { draws, ..*plan });
            for i in 0..plan.chunks() {
                let direct = engine::run_chunk(&resolved.model, &plan, i);
                let memo = engine::run_chunk_memo(&resolved.model, &plan, i, &mut memo);
                assert_eq!(memo, direct, "budget {budget}, {draws:?}");
            }
        }
        true
    }
    for dir in [
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/cavalry"),
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/naval"),
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/step-race"),
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/card-game"),
    ] {
        for entry in std::fs::read_dir(dir).expect("configs") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue; // a map file beside the scenarios
            }
            let scenario = config::load(&shipped(), &path, Overrides::default()).expect("valid");
            let plan = Plan { trials: 30_000, seed: 9, chunk_size: 10_000, draws: Default::default() };
            let compared = compare::<CavalryRules>(&scenario, &plan)
                || compare::<NavalRules>(&scenario, &plan)
                || compare::<StepRaceRules>(&scenario, &plan)
                || compare::<CardGameRules>(&scenario, &plan);
            assert!(compared, "{}: a rule set this test knows", path.display());
        }
    }
}
