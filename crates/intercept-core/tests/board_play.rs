//! The board game played from outside through [`Play`], as a web page drives it: JSON positions, turn ids,
//! the tree-search player's advice, and a replayed game of a run, reached from the registry's entry.

use std::path::Path;

use intercept_core::chance::{Chance, Sampler};
use intercept_core::config::{Overrides, Scenario, from_str};
use intercept_core::games::shipped;
use intercept_core::ruleset::{Play, PlayError};
use serde_json::Value;

const MATCH: &str = "[run]\ntrials = 4\nseed = 3\n\n[board]\nturn_limit = 60\n\n[board.white]\nplayer = \"greedy\"\n\n\
                     [board.black]\nplayer = \"random\"\n";

fn scenario() -> Scenario {
    from_str(&shipped(), MATCH, Path::new("match.toml"), Overrides::default()).expect("a config")
}

fn play() -> &'static dyn Play {
    shipped().find("board").and_then(|e| e.play()).expect("the board game plays")
}

fn opening() -> Value {
    play().opening(scenario().rules.as_ref()).expect("an opening")
}

#[test]
fn only_the_board_game_plays() {
    let others = shipped().sets().iter().filter(|e| e.table() != "board").filter(|e| e.play().is_some()).count();
    assert_eq!(others, 0);
    let naval = "[naval.mission]\nname = \"m\"\nactivity = \"raider\"\nfactors = 5\n\n[[naval.group]]\nname = \"g\"\n\
                 target = \"m\"\ndistance = 3\nfactors = 5\n";
    let other = from_str(&shipped(), naval, Path::new("n.toml"), Overrides::default()).unwrap();
    assert!(matches!(play().opening(other.rules.as_ref()), Err(PlayError::Refused(_))));
}

#[test]
fn the_opening_has_turns_and_a_turn_passes_the_move() {
    let start = opening();
    let turns = play().turns(&start).unwrap();
    assert!(!turns.is_empty());
    let status = play().status(&start).unwrap();
    assert_eq!((status.to_move.as_str(), status.over, status.turns_played), ("white", false, 0));
    let next = play().apply(&start, &turns[0].id).unwrap();
    let after = play().status(&next).unwrap();
    assert_eq!((after.to_move.as_str(), after.turns_played), ("black", 1));
    let ids: std::collections::BTreeSet<&str> = turns.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids.len(), turns.len(), "turn ids are unique");
}

#[test]
fn an_illegal_turn_and_a_bad_position_are_refused_in_one_line() {
    let start = opening();
    let err = play().apply(&start, "a1-m13").unwrap_err();
    assert!(matches!(err, PlayError::Illegal(_)) && !err.to_string().contains('\n'), "{err}");
    let mut bad = start.clone();
    bad["ball"] = "z99".into();
    let err = play().turns(&bad).unwrap_err();
    assert!(err.to_string().contains("z99"), "{err}");
    let mut bad = start;
    bad["stacks"][0]["size"] = 7.into();
    assert!(matches!(play().status(&bad), Err(PlayError::Position(_))));
}

#[test]
fn a_game_of_random_legal_turns_ends() {
    let mut position = opening();
    let mut chance = Sampler::at_trial(11, 1, 0);
    for _ in 0..=60 {
        let turns = play().turns(&position).unwrap();
        if turns.is_empty() {
            break;
        }
        position = play().apply(&position, &turns[chance.uniform(turns.len())].id).unwrap();
    }
    let status = play().status(&position).unwrap();
    assert!(status.over && status.turns_played <= 60, "{status:?}");
    assert!(play().turns(&position).unwrap().is_empty());
    assert!(matches!(play().advise(&position, 10, 1), Err(PlayError::Refused(_))));
}

#[test]
fn the_best_turn_is_legal_and_the_same_for_a_seed() {
    let start = opening();
    let advice = play().advise(&start, 40, 7).unwrap();
    assert!(play().turns(&start).unwrap().contains(&advice.turn));
    assert_eq!(advice, play().advise(&start, 40, 7).unwrap());
    assert!((0.0..=1.0).contains(&advice.playout_score) && advice.visits >= 1 && advice.playouts == 40, "{advice:?}");
}

#[test]
fn a_position_round_trips_through_json_text() {
    let start = opening();
    let next = play().apply(&start, &play().turns(&start).unwrap()[3].id).unwrap();
    let text = serde_json::to_string(&next).unwrap();
    let back: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, next);
    assert_eq!(play().turns(&back).unwrap(), play().turns(&next).unwrap());
    assert!(matches!(play().picture(&back).unwrap(), intercept_core::present::Picture::Board(_)));
}

#[test]
fn a_replayed_game_steps_through_legal_turns_to_its_end() {
    let replay = play().replay(&scenario(), 2).unwrap();
    let turns = replay["turns"].as_array().unwrap();
    assert!(!turns.is_empty());
    for step in turns {
        let legal = play().turns(&step["position"]).unwrap();
        assert!(legal.iter().any(|t| t.id == step["turn"]["id"]), "{step}");
    }
    let last = &turns[turns.len() - 1];
    let end = play().apply(&last["position"], last["turn"]["id"].as_str().unwrap()).unwrap();
    assert_eq!(end, replay["end"]);
    assert!(matches!(play().replay(&scenario(), 4), Err(PlayError::Refused(_))));
}
