//! A position of the board game set up by hand through [`Play`]: the palette, one edit at a time, and the
//! check before a game is played from it, each refusal one line naming the cell and the rule.

use std::path::Path;

use intercept_core::config::{Overrides, from_str};
use intercept_core::games::shipped;
use intercept_core::ruleset::{Edit, Play, PlayError};
use serde_json::Value;

fn play() -> &'static dyn Play {
    shipped().find("board").and_then(|e| e.play()).expect("the board game plays")
}

fn opening() -> Value {
    let config =
        "[run]\ntrials = 4\n\n[board]\n\n[board.white]\nplayer = \"greedy\"\n\n[board.black]\nplayer = \"random\"\n";
    let scenario = from_str(&shipped(), config, Path::new("m.toml"), Overrides::default()).expect("a config");
    play().opening(scenario.rules.as_ref()).expect("an opening")
}

fn place(position: &Value, square: &str, piece: Option<&str>) -> Result<Value, PlayError> {
    play().edit(position, &Edit::Place { square: square.to_owned(), piece: piece.map(str::to_owned) })
}

fn refusal(result: Result<Value, PlayError>) -> String {
    let line = result.expect_err("refused").to_string();
    assert!(!line.contains('\n'), "{line}");
    line
}

#[test]
fn the_palette_has_each_sides_stacks_and_the_ball() {
    let palette = play().palette();
    let ids: Vec<_> = palette.pieces.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(ids, ["white-1", "white-2", "white-3", "white-4", "black-1", "black-2", "black-3", "black-4", "ball"]);
    assert_eq!(palette.sides, ["white", "black"]);
}

#[test]
fn edits_place_and_remove_stacks_move_the_ball_and_give_the_move() {
    let p = place(&opening(), "e5", Some("black-2")).unwrap();
    assert!(
        p["stacks"].as_array().unwrap().iter().any(|s| s["at"] == "e5" && s["colour"] == "black" && s["size"] == 2)
    );
    let p = place(&p, "e5", None).unwrap();
    assert!(!p["stacks"].as_array().unwrap().iter().any(|s| s["at"] == "e5"));
    let p = place(&p, "e6", Some("ball")).unwrap();
    assert_eq!(p["ball"], "e6");
    let p = play().edit(&p, &Edit::ToMove { side: "black".to_owned() }).unwrap();
    assert_eq!(play().status(&p).unwrap().to_move, "black");
    let p = play().edit(&p, &Edit::Clear).unwrap();
    assert!(p["stacks"].as_array().unwrap().is_empty());
}

#[test]
fn an_edit_no_position_holds_is_refused() {
    let start = opening();
    assert_eq!(refusal(place(&start, "g1", Some("white-1"))), "g1 is a goal: no stone stands on a goal (I-17)");
    assert!(refusal(place(&start, "z99", Some("white-1"))).contains("\"z99\" is not a cell of the board"));
    assert!(
        refusal(place(&start, "e5", Some("white-7"))).starts_with("piece \"white-7\" is not allowed; allowed: white-1")
    );
    let side = play().edit(&start, &Edit::ToMove { side: "red".to_owned() });
    assert_eq!(refusal(side), "side \"red\" is not allowed; allowed: white, black");
}

#[test]
fn a_set_up_starts_a_new_game_and_a_position_no_game_plays_from_is_refused() {
    let start = place(&opening(), "e5", Some("white-1")).unwrap();
    let played = play().apply(&start, "g2-g3").unwrap();
    let fresh = play().set_up(&played).unwrap();
    assert_eq!(play().status(&fresh).unwrap().to_move, "black");
    let fresh = play().set_up(&play().edit(&fresh, &Edit::ToMove { side: "white".to_owned() }).unwrap()).unwrap();
    assert_eq!(play().status(&fresh).unwrap().turns_played, 0);
    assert!(play().turns(&fresh).unwrap().iter().any(|t| t.id.starts_with("e5-")));

    let empty = play().edit(&start, &Edit::Clear).unwrap();
    assert_eq!(refusal(play().set_up(&empty)), "white has no stack on the board");
    let two = place(&start, "e5", Some("white-3")).unwrap();
    assert_eq!(refusal(play().set_up(&two)), "white has 2 doubles (g2, e5); a side has one double (I-4)");
    let on_passage = place(&place(&start, "e5", Some("ball")).unwrap(), "e5", Some("white-1")).unwrap();
    let line = refusal(play().set_up(&on_passage));
    assert_eq!(line, "the ball is on a stack of 1 on e5; only a rest stone or a double of 4 carries it (I-13)");
    let scored = place(&start, "g1", Some("ball")).unwrap();
    assert_eq!(refusal(play().set_up(&scored)), "the ball is on the goal g1: that game is over already (I-18)");
}
