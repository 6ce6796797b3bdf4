//! The game API and the calculator and game pages of the workbench over real HTTP, against a server started
//! in-process on a free port: the opening, its legal turns and its squares in words, a turn played and one
//! refused, the search player's advice (legal, the same for the same seed, its expected line starting with
//! it, the evaluation's chance for the side to move under both names, and why in a line), a whole game of
//! random legal turns to its end, a replay equal in result to the command line's, a position set up by hand
//! (the palette, edits, a legal set-up played from, an illegal one refused in one line), the pages (the game
//! page with its board's legend) and their assets, and the errors as JSON.

mod web;

use serde_json::{Value, json};
use web::{cli, get, post, shipped};

const TABLE: &str = "board";
const CONFIG: &str = "configs/board/greedy-vs-random.toml";

fn play(base: &str, what: &str, body: &Value) -> web::Reply {
    post(&format!("{base}/api/play/{TABLE}/{what}"), &body.to_string())
}

fn opening(base: &str) -> Value {
    let reply = post(&format!("{base}/api/play/{TABLE}/opening"), "");
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.json()
}

fn turn_ids(shown: &Value) -> Vec<String> {
    shown["turns"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn the_list_names_the_rule_sets_with_a_game() {
    let games = get(&format!("{}/api/play", shipped())).json();
    let tables: Vec<&str> = games["games"].as_array().unwrap().iter().map(|g| g["table"].as_str().unwrap()).collect();
    assert_eq!(tables, [TABLE]);
}

#[test]
fn the_opening_has_legal_turns_a_status_and_a_picture() {
    let base = shipped();
    let shown = opening(&base);
    assert!(!turn_ids(&shown).is_empty());
    assert_eq!(shown["status"]["over"], false);
    assert_eq!(shown["status"]["turns_played"], 0);
    assert!(shown["svg"].as_str().unwrap().starts_with("<svg"));
    let config = std::fs::read_to_string(CONFIG).unwrap();
    let from_config = post(&format!("{base}/api/play/{TABLE}/opening"), &config);
    assert_eq!(from_config.status, 200, "{}", from_config.body);
    let shown_again = play(&base, "position", &json!({ "position": shown["position"] })).json();
    assert_eq!(shown_again, shown);
}

/// Each square of the picture in words, for the page's accessible names: the start position of C.2 (White's
/// double of three on g2, its goal g1, the ball alone on g7, Black's rest stones on row 13).
#[test]
fn the_opening_names_every_square_and_what_it_holds() {
    let shown = opening(&shipped());
    let squares = shown["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 13 * 13);
    let text = |name: &str| squares.iter().find(|s| s["name"] == name).map(|s| s["text"].as_str().unwrap().to_owned());
    assert_eq!(squares[0]["name"], "a1", "the picture's order: row by row from the bottom");
    assert_eq!(text("g2").as_deref(), Some("white stack of 3 (double, D3)"));
    assert_eq!(text("g1").as_deref(), Some("White's goal"));
    assert_eq!(text("g7").as_deref(), Some("the ball"));
    assert_eq!(text("c13").as_deref(), Some("black stack of 2 (rest stone, R)"));
    assert_eq!(text("a1").as_deref(), Some("empty"));
}

#[test]
fn a_legal_turn_passes_the_move_and_an_illegal_one_is_422() {
    let base = shipped();
    let shown = opening(&base);
    let first = &turn_ids(&shown)[0];
    let next = play(&base, "turn", &json!({ "position": shown["position"], "turn": first })).json();
    assert_ne!(next["status"]["to_move"], shown["status"]["to_move"]);
    assert_eq!(next["status"]["turns_played"], 1);
    assert_eq!(&next["played"], first);
    let refused = play(&base, "turn", &json!({ "position": shown["position"], "turn": "z9-z10" }));
    assert_eq!(refused.status, 422);
    let line = refused.error();
    assert!(line.starts_with("illegal turn: \"z9-z10\"") && !line.contains('\n'), "{line}");
}

#[test]
fn advice_is_a_legal_turn_and_the_same_for_the_same_seed() {
    let base = shipped();
    let shown = opening(&base);
    let ask = |seed: u64| play(&base, "advice", &json!({ "position": shown["position"], "seed": seed, "budget": 300 }));
    let (a, b) = (ask(5), ask(5));
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json(), b.json());
    let advice = a.json();
    assert!(turn_ids(&shown).contains(&advice["turn"]["id"].as_str().unwrap().to_owned()));
    let score = advice["playout_score"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&score));
    assert_eq!((advice["playouts"].as_u64(), advice["budget"].as_u64()), (Some(300), Some(300)));
    // The evaluation: the side to move's chance, also under the top-level name that once held the score.
    let chance = advice["evaluation"]["win_chance"].as_f64().expect("the board game evaluates every position");
    assert!((0.0..=1.0).contains(&chance), "{chance}");
    assert_eq!(advice["win_chance"], advice["evaluation"]["win_chance"], "win_chance is the evaluation's");
    let why = advice["evaluation"]["why"].as_str().unwrap();
    assert!(!why.trim().is_empty() && !why.contains('\n'), "{why:?}");
    // The expected line starts with the advised turn, each turn named as the turns are.
    let line = advice["line"].as_array().unwrap();
    assert!(!line.is_empty() && line[0] == advice["turn"], "{line:?}");
    assert!(line.iter().all(|t| t["id"].is_string() && t["text"].is_string()), "{line:?}");
    let too_much = play(&base, "advice", &json!({ "position": shown["position"], "budget": 1_000_000 }));
    assert_eq!(too_much.status, 400);
    assert!(too_much.error().starts_with("budget: 1000000 is not allowed; allowed: 1 to "), "{}", too_much.body);
}

/// Random legal turns (a fixed little generator) until the game is over, within the turn limit.
#[test]
fn a_game_of_random_legal_turns_ends() {
    let base = shipped();
    let mut shown = opening(&base);
    let limit = shown["position"]["turn_limit"].as_u64().unwrap_or(400).min(600);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut played = 0;
    while shown["status"]["over"] == false {
        assert!(played <= limit, "the game went past its turn limit");
        let ids = turn_ids(&shown);
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let pick = &ids[(state >> 33) as usize % ids.len()];
        let reply = play(&base, "turn", &json!({ "position": shown["position"], "turn": pick }));
        assert_eq!(reply.status, 200, "{}", reply.body);
        shown = reply.json();
        played += 1;
    }
    assert!(turn_ids(&shown).is_empty());
    let over = play(&base, "advice", &json!({ "position": shown["position"] }));
    assert_eq!(over.status, 422, "{}", over.body);
    let late = play(&base, "turn", &json!({ "position": shown["position"], "turn": "pass" }));
    assert_eq!(late.status, 422, "{}", late.body);
}

#[test]
fn a_replay_is_the_game_the_command_line_replays() {
    let base = shipped();
    let toml = std::fs::read_to_string(CONFIG).unwrap();
    let reply = play(&base, "replay", &json!({ "toml": toml, "game": 3 }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    let game = reply.json();
    let (code, stdout, stderr) = cli(std::path::Path::new("."), &["replay", CONFIG, "--game", "3", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let cli: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(game["result"], cli["result"]["text"]);
    assert_eq!(game["turns"].as_array().unwrap().len(), cli["turns"].as_array().unwrap().len());
    let positions = game["turns"].as_array().unwrap();
    for (step, next) in positions.iter().zip(positions.iter().skip(1).map(|s| &s["position"]).chain([&game["end"]])) {
        let played = play(&base, "turn", &json!({ "position": step["position"], "turn": step["turn"]["id"] })).json();
        assert_eq!(&played["position"], next);
    }
    let past = play(&base, "replay", &json!({ "toml": toml, "game": 1_000_000 }));
    assert_eq!((past.status, past.error()), (422, "game 1000000: the run has 400 games, 0 to 399".to_owned()));
}

fn edit(base: &str, position: &Value, edit: Value) -> web::Reply {
    play(base, "edit", &json!({ "position": position, "edit": edit }))
}

#[test]
fn the_palette_lists_the_pieces_and_the_sides() {
    let base = shipped();
    let palette = get(&format!("{base}/api/play/{TABLE}/palette"));
    assert_eq!(palette.status, 200, "{}", palette.body);
    let palette = palette.json();
    let pieces = palette["pieces"].as_array().unwrap();
    assert!(pieces.iter().all(|p| p["id"].is_string() && p["text"].is_string()));
    assert!(pieces.iter().any(|p| p["side"] == "white") && pieces.iter().any(|p| p["side"] == "black"));
    assert_eq!(palette["sides"], json!(["white", "black"]));
    assert_eq!(get(&format!("{base}/api/play/naval/palette")).status, 404);
}

#[test]
fn an_edited_position_is_shown_and_a_legal_set_up_plays() {
    let base = shipped();
    let start = opening(&base);
    let placed = edit(&base, &start["position"], json!({ "edit": "place", "square": "e5", "piece": "white-1" }));
    assert_eq!(placed.status, 200, "{}", placed.body);
    let placed = placed.json();
    assert!(placed["svg"].as_str().unwrap().starts_with("<svg"));
    let black = edit(&base, &placed["position"], json!({ "edit": "to_move", "side": "black" })).json();
    assert_eq!(black["status"]["to_move"], "black");
    let white = edit(&base, &black["position"], json!({ "edit": "to_move", "side": "white" })).json();
    let set_up = play(&base, "setup", &json!({ "position": white["position"] }));
    assert_eq!(set_up.status, 200, "{}", set_up.body);
    let set_up = set_up.json();
    assert_eq!(set_up["status"]["turns_played"], 0);
    let from_e5 = turn_ids(&set_up).into_iter().find(|t| t.starts_with("e5-")).expect("the placed stone moves");
    let next = play(&base, "turn", &json!({ "position": set_up["position"], "turn": from_e5 }));
    assert_eq!(next.status, 200, "{}", next.body);
    assert_eq!(next.json()["status"]["turns_played"], 1);
}

#[test]
fn an_illegal_edit_or_set_up_is_422_in_one_line() {
    let base = shipped();
    let start = opening(&base)["position"].clone();
    let on_goal = edit(&base, &start, json!({ "edit": "place", "square": "g1", "piece": "black-2" }));
    assert_eq!((on_goal.status, on_goal.error()), (422, "g1 is a goal: no stone stands on a goal (I-17)".to_owned()));
    let empty = edit(&base, &start, json!({ "edit": "clear" })).json();
    let refused = play(&base, "setup", &json!({ "position": empty["position"] }));
    assert_eq!((refused.status, refused.error()), (422, "white has no stack on the board".to_owned()));
    let scored = edit(&base, &start, json!({ "edit": "place", "square": "g13", "piece": "ball" })).json();
    let over = play(&base, "setup", &json!({ "position": scored["position"] }));
    assert_eq!(over.status, 422, "{}", over.body);
    assert!(!over.error().contains('\n') && over.error().contains("over already"), "{}", over.body);
    let no_such = edit(&base, &start, json!({ "edit": "paint", "square": "e5" }));
    assert_eq!(no_such.status, 400, "{}", no_such.body);
    assert!(no_such.error().starts_with("the request body: unknown variant `paint`"), "{}", no_such.body);
    let not_a_position = play(&base, "setup", &json!({ "position": { "size": 2 } }));
    assert_eq!(not_a_position.status, 422, "{}", not_a_position.body);
}

#[test]
fn errors_are_json_with_their_status() {
    let base = shipped();
    let nowhere = post(&format!("{base}/api/play/nowhere/opening"), "");
    assert_eq!(nowhere.status, 404);
    assert!(nowhere.error().starts_with("no rule set has the table [nowhere]; allowed: "), "{}", nowhere.body);
    let no_game = post(&format!("{base}/api/play/naval/opening"), "");
    assert_eq!((no_game.status, no_game.error()), (404, "the rule set [naval] has no game to play".to_owned()));
    let naval = std::fs::read_to_string("configs/naval/three-level-chain.toml").unwrap();
    let other = post(&format!("{base}/api/play/{TABLE}/opening"), &naval);
    assert_eq!(other.status, 422, "{}", other.body);
    let not_json = post(&format!("{base}/api/play/{TABLE}/turn"), "{position");
    assert_eq!(not_json.status, 400, "{}", not_json.body);
    let not_a_position = play(&base, "turn", &json!({ "position": { "size": 2 }, "turn": "pass" }));
    assert_eq!(not_a_position.status, 422);
    assert!(not_a_position.error().starts_with("not a position: "), "{}", not_a_position.body);
    assert_eq!(get(&format!("{base}/play/nowhere")).status, 404);
    assert_eq!(get(&format!("{base}/play/naval")).json()["error"], "the rule set [naval] has no game to play");
}

/// The game page's difficulties are budgets of playouts: each one the advice accepts, the one chosen at first
/// the server's default.
fn difficulties_are_budgets_the_server_takes(base: &str, page: &str) {
    let select = &page[page.find("<select id=\"difficulty\">").expect("a difficulty choice")..];
    let select = &select[..select.find("</select>").unwrap()];
    let options: Vec<(u64, bool)> = select
        .split("<option value=\"")
        .skip(1)
        .map(|o| (o[..o.find('"').unwrap()].parse().unwrap(), o[..o.find('>').unwrap()].contains("selected")))
        .collect();
    assert!(options.len() >= 2, "{select}");
    let position = opening(base)["position"].clone();
    for (budget, _) in &options {
        let advice = play(base, "advice", &json!({ "position": position, "budget": budget }));
        assert_eq!((advice.status, advice.json()["budget"].as_u64()), (200, Some(*budget)), "{}", advice.body);
    }
    let default = play(base, "advice", &json!({ "position": position })).json()["budget"].as_u64().unwrap();
    let chosen: Vec<u64> = options.iter().filter(|(_, selected)| *selected).map(|(b, _)| *b).collect();
    assert_eq!(chosen, [default], "the difficulty chosen at first is the default budget");
}

#[test]
fn the_pages_and_their_assets_are_served() {
    let base = shipped();
    let calc = get(&format!("{base}/calc"));
    assert_eq!((calc.status, calc.content_type.as_str()), (200, "text/html; charset=utf-8"));
    assert!(calc.body.contains("src=\"/assets/calc.js\""));
    let page = get(&format!("{base}/play/{TABLE}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("src=\"/assets/play.js\"") && page.body.contains(&format!("data-rule-set=\"{TABLE}\"")));
    assert!(page.body.contains("<dt>Orange dot</dt><dd>the ball</dd>"), "the board's legend, from the rule set");
    assert!(!page.body.contains("{{"), "every placeholder of the page filled");
    difficulties_are_budgets_the_server_takes(&base, &page.body);
    for (asset, kind) in [("calc.js", "text/javascript"), ("play.js", "text/javascript"), ("tools.css", "text/css")] {
        let reply = get(&format!("{base}/assets/{asset}"));
        assert_eq!(reply.status, 200, "{asset}");
        assert_eq!(reply.content_type, format!("{kind}; charset=utf-8"), "{asset}");
        assert!(reply.body.len() > 200, "{asset}");
    }
    assert_eq!(get(&format!("{base}/assets/style.css")).status, 200, "the start page's assets are still served");
    assert_eq!(get(&format!("{base}/assets/nothing.js")).status, 404);
}
