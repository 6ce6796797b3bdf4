//! The Intercept rules engine on the seed's test positions (C.4 of `docs/rules/intercept-board-game.md`): the
//! jump examples J-1a..d, the transfer examples T-1a..c, the winning example W-1a..e, and the start
//! position INIT-a/b, each decoded from the page's diagram strings.

use intercept_core::games::board_game::position::{Colour, Position};
use intercept_core::games::board_game::turns::{
    Action, Turn, Variant, actions, can_score, cover_targets, moves_from, transfers,
};

const J1: &str = "6,6,...1../.71.../.6..../...3../..9..1/.12...";
const T1: &str = "6,6,..7.../..6[eeerww]../.7..../.6..../..9.../......";
const W1: &str = "6,6,..[eEeEeE].../..16../.7..../.6..../..[eeerww].../......";

fn white(diagram: &str) -> Position {
    Position::from_diagram(diagram, Colour::White).expect("a diagram")
}

/// The cells the stack on `from` may reach, by name.
fn reach(p: &Position, from: &str) -> Vec<String> {
    let from = p.named(from).unwrap();
    moves_from(p, from).into_iter().map(|(to, _)| p.name(to)).collect()
}

/// The transfers from the ball's cell, as (passer, receiver) names.
fn passes(p: &Position) -> Vec<(String, String)> {
    transfers(p, &[p.ball]).into_iter().map(|(a, b)| (p.name(a), p.name(b))).collect()
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_owned(), b.to_owned())
}

#[test]
fn j1_jumps() {
    let p = white(J1);
    let b4 = reach(&p, "b4");
    assert!(b4.contains(&"b6".into()), "J-1a: b4 jumps b5 to b6: {b4:?}");
    assert!(b4.contains(&"d4".into()), "J-1a: then c5 to d4: {b4:?}");
    assert!(!b4.contains(&"d2".into()), "J-1b: d3 is a double and cannot be jumped (I-8): {b4:?}");
    let c2 = reach(&p, "c2");
    assert!(c2.contains(&"c6".into()), "J-1c: the double slides c3, c4 and jumps c5 to c6 (I-9): {c2:?}");
    assert!(c2.contains(&"e6".into()), "J-1c: then jumps d6 to e6: {c2:?}");
    assert!(!c2.contains(&"f6".into()), "J-1d: a jump lands on the next cell, never beyond (I-9): {c2:?}");
}

#[test]
fn t1_transfers() {
    let p = white(T1);
    assert_eq!(p.name(p.ball), "d5");
    let from_d5 = passes(&p);
    assert!(from_d5.contains(&pair("c5", "b4")), "T-1a: d5 to b4 via c5: {from_d5:?}");
    assert!(!from_d5.iter().any(|(_, r)| r == "c6"), "T-1c: c6 is next to d5 (I-13): {from_d5:?}");
    let mut q = p;
    q.ball = p.named("b4").unwrap();
    let from_b4 = transfers(&q, &[p.ball, q.ball]);
    let named: Vec<_> = from_b4.iter().map(|&(a, b)| pair(&q.name(a), &q.name(b))).collect();
    assert!(named.contains(&pair("b3", "c2")), "T-1b: b4 to c2 via b3, the size-4 double receives: {named:?}");
}

#[test]
fn w1_the_winning_turn() {
    let p = white(W1);
    let cover = Action::Move { from: p.named("d5").unwrap(), to: p.named("c5").unwrap(), cover: true };
    assert!(actions(&p).contains(&cover), "W-1a: d5 covers c5, next to Black's goal c6 (I-19)");
    let mut q = p.acted(cover);
    assert!(passes(&q).contains(&pair("b3", "b4")), "W-1b: c2 to b4 via b3");
    q.ball = q.named("b4").unwrap();
    assert!(passes(&q).contains(&pair("c5", "c6")), "W-1c: b4 into the goal via the cover on c5");
    q.ball = q.named("c6").unwrap();
    assert_eq!(q.winner(), Some(Colour::White), "W-1c: White wins (I-18)");
    let mut uncovered = p;
    uncovered.ball = p.named("b4").unwrap();
    assert!(!passes(&uncovered).iter().any(|(_, r)| r == "c6"), "W-1d: c5 is an enemy passage stone");
    let to_c5 = reach(&p, "d5");
    assert!(to_c5.contains(&"c5".into()), "W-1a through moves_from");
    let e =
        Position::from_diagram("6,6,..[eEeEeE].../...6../..1.../.6..../..[eeerww].../......", Colour::White).unwrap();
    let onto = reach(&e, "d5");
    assert!(!onto.contains(&"c4".into()), "W-1e: c4 is not next to Black's goal: {onto:?}");
}

#[test]
fn the_whole_turn_of_w1_wins() {
    let p = white(W1);
    let win = p.turns(Variant::default()).into_iter().find(|t| {
        t.action == Action::Move { from: p.named("d5").unwrap(), to: p.named("c5").unwrap(), cover: true }
            && t.ball_to == p.named("c6")
    });
    let win = win.expect("the cover, then the chain c2 -> b4 -> c6, is one turn");
    assert_eq!(p.play(win).winner(), Some(Colour::White));
}

#[test]
fn init_the_start_position() {
    let p = Position::start();
    assert_eq!(p.name(p.ball), "g7", "the ball starts alone on the centre");
    assert_eq!(p.stones(), [17, 17], "6 passage, 4 rest and a double of 3 a side (C.2)");
    assert!(passes(&p).is_empty(), "INIT-a: no passage stone is next to g7");
    let names = |cells: Vec<u8>| -> Vec<String> { cells.into_iter().map(|c| p.name(c)).collect() };
    assert_eq!(names(cover_targets(&p, Colour::White)), ["g12", "f13", "h13"], "INIT-b: Black's stacks by g13");
    assert_eq!(names(cover_targets(&p, Colour::Black)), ["f1", "h1", "g2"], "INIT-b: White's stacks by g1");
    let first = actions(&p);
    assert!(!first.iter().any(|a| matches!(a, Action::Move { cover: true, .. })), "none is in reach at move 1");
}

/// The number of legal turns (distinct action and final ball cell) of each test position, recorded so that
/// any change in the rules engine shows up here.
#[test]
fn turn_counts_are_pinned() {
    let v = Variant::default();
    let counts: Vec<(&str, usize)> =
        [("start", Position::start()), ("J-1", white(J1)), ("T-1", white(T1)), ("W-1", white(W1))]
            .into_iter()
            .map(|(name, p)| (name, p.turns(v).len()))
            .collect();
    // The start's 38: 30 steps from row 1, 2 jumps along it (c1 over b1, k1 over l1), 5 steps of the
    // double and its size change; no transfer (INIT-a).
    assert_eq!(counts, [("start", 38), ("J-1", 29), ("T-1", 104), ("W-1", 41)]);
}

/// Thousands of uniformly random games from the start, with the invariants checked after every turn: each
/// side's stones (17, or 18 while its double is a 4), one ball, the ball carrier never moved, no stone on a
/// goal cell, at most one cover per side.
#[test]
fn random_games_keep_the_invariants() {
    const GAMES: u64 = 2_000;
    use intercept_core::chance::chunk_rng;
    use rand::Rng;
    let v = Variant::default();
    let (mut turns_played, mut won) = (0, 0);
    for game in 0..GAMES {
        let mut rng = chunk_rng(2026, game);
        let mut p = Position::start();
        for _ in 0..150 {
            let turns = p.turns(v);
            let turn = turns[(rng.next_u64() % turns.len() as u64) as usize];
            let next = p.play(turn);
            check_invariants(&p, &next, turn.action);
            turns_played += 1;
            p = next;
            if p.winner().is_some() {
                won += 1;
                break;
            }
        }
    }
    assert!(turns_played > GAMES * 50, "{turns_played} turns played");
    eprintln!("{won} of {GAMES} random games won within 150 turns, {turns_played} turns");
}

/// [`can_score`], which lists only the turns a transfer may end, answers as the whole list does: on the
/// seed's diagrams, along games of greedy players (who bring the ball near the goals) and one turn off
/// them (as the tree search asks it), under every combination of the variants.
#[test]
fn can_score_agrees_with_the_whole_list() {
    use intercept_core::chance::Sampler;
    use intercept_core::games::board_game::players::{Greedy, Player};
    let (mut scratch, mut scoring) = (Vec::new(), 0);
    for bits in 0..8 {
        let v = Variant {
            size_change_allows_transfer: bits & 1 == 0,
            steal_requires_moved_piece: bits & 2 != 0,
            action_mandatory: bits & 4 == 0,
        };
        let mut positions: Vec<Position> = [J1, T1, W1].iter().map(|d| white(d)).collect();
        for game in 0..10 {
            let mut chance = Sampler::at_trial(31, 1, game);
            let mut p = Position::start();
            for _ in 0..60 {
                if p.winner().is_some() {
                    break;
                }
                let turns = p.turns(v);
                positions.extend(turns.iter().map(|&t| p.play(t)));
                positions.push(p);
                p = p.play(turns[Greedy.choose(&p, &turns, &mut chance)]);
            }
        }
        for p in &positions {
            let whole = p.target().is_some_and(|goal| p.turns(v).iter().any(|t| t.ball_to == Some(goal)));
            assert_eq!(can_score(p, v, &mut scratch), whole, "{v:?}\n{p}");
            scoring += usize::from(whole);
        }
    }
    assert!(scoring > 50, "{scoring} positions with a scoring turn");
}

fn check_invariants(before: &Position, after: &Position, action: Action) {
    for side in [Colour::White, Colour::Black] {
        let double = after.cells().filter_map(|c| after.at(c)).flat_map(|x| [Some(x.top), x.under]).flatten();
        let size = double.filter(|s| s.colour == side && s.is_double()).map(|s| s.size).next();
        let stones = after.stones()[side as usize];
        assert_eq!(
            stones,
            14 + u32::from(size.expect("one double a side")),
            "{side:?}'s stones after {action:?}\n{after}"
        );
        let covering =
            after.cells().filter(|&c| after.at(c).is_some_and(|x| x.top.colour == side && x.under.is_some()));
        assert!(covering.count() <= 1, "{side:?} covers at most one stack (I-21)\n{after}");
        if let Some(goal) = after.goal_of(side) {
            assert!(after.at(goal).is_none(), "no stone on a goal cell (I-17)\n{after}");
        }
    }
    assert!((after.ball as usize) < after.cells().count(), "one ball, on the board");
    if before.at(before.ball).is_some() {
        assert_eq!(after.at(before.ball), before.at(before.ball), "the ball carrier never moves (I-12)\n{after}");
    }
}

/// I-16, I-A7: with `steal_requires_moved_piece`, the ball is taken off an enemy stone only by a passer or
/// receiver that moved this turn; by default any action may come before the steal.
#[test]
fn the_moved_piece_steal_variant() {
    // c5 White passage stone next to the ball on Black's rest stone d5, b4 a White rest stone, f1 far away.
    let p = white("6,6,....../..6[eeerxx]../.7..../....../....../.....6");
    let f1 = p.named("f1").unwrap();
    let from_f1 = |v: Variant| {
        let turns = p.turns(v);
        turns.iter().any(|t| matches!(t.action, Action::Move { from, .. } if from == f1) && t.ball_to.is_some())
    };
    assert!(from_f1(Variant::default()), "by default f1 may move and c5 steal to b4");
    let strict = Variant { steal_requires_moved_piece: true, ..Variant::default() };
    assert!(!from_f1(strict), "under the variant, neither c5 nor b4 moved");
    let b4 = p.named("b4").unwrap();
    let moved_receiver = p
        .turns(strict)
        .into_iter()
        .any(|t| matches!(t.action, Action::Move { from, to, .. } if from == b4 && Some(to) == t.ball_to));
    assert!(moved_receiver, "b4 may step to b5 or b6 and receive the stolen ball there");
}

/// I-A2 switched: a side may pass although it could act, and still transfer after the pass.
#[test]
fn the_optional_action_variant() {
    let optional = Variant { action_mandatory: false, ..Variant::default() };
    let start = Position::start();
    assert_eq!(start.turns(optional).len(), start.turns(Variant::default()).len() + 1, "the pass is one more");
    let p = white("6,6,....../..6[eeerxx]../.7..../....../....../.....6");
    let pass_and_steal = Turn { action: Action::Pass, ball_to: p.named("b4") };
    assert!(p.turns(optional).contains(&pass_and_steal), "c5 steals to b4 without a move first");
    assert!(!p.turns(Variant::default()).contains(&pass_and_steal), "by default White must act");
}

/// Greedy (White) beats uniform random with a 99% Wilson interval above one half.
#[test]
fn greedy_beats_random() {
    use intercept_core::chance::Sampler;
    use intercept_core::games::board_game::players::{Greedy, Random, play_game};
    use intercept_core::stats::wilson;
    const GAMES: u64 = 60;
    let start = Position::start();
    let wins = (0..GAMES)
        .map(|g| {
            play_game(
                &start,
                &Greedy,
                &Random,
                Variant::default(),
                200,
                &mut Sampler::at_trial(7, 1, g),
                &mut |_, _| {},
            )
        })
        .filter(|game| game.winner == Some(Colour::White))
        .count() as u64;
    let ci = wilson(wins, GAMES, 2.576);
    assert!(ci.low > 0.5, "greedy won {wins} of {GAMES}: 99% interval [{}, {}]", ci.low, ci.high);
}

/// The tree search takes the winning turn of W-1 (the cover, then the chain into the goal). It is found
/// before any search; the search itself is not yet tested against a deeper win.
#[test]
fn mcts_takes_the_win() {
    use intercept_core::chance::Sampler;
    use intercept_core::games::board_game::mcts::{Leaf, Mcts};
    use intercept_core::games::board_game::players::Player;
    let p = white(W1);
    let turns = p.turns(Variant::default());
    let mcts = Mcts { budget: 50, depth: 20, variant: Variant::default(), leaf: Leaf::Lean };
    let i = mcts.choose(&p, &turns, &mut Sampler::at_trial(3, 1, 0));
    assert_eq!(p.play(turns[i]).winner(), Some(Colour::White));
}

/// The tree search looks past its own turn: wherever White threatens to score next turn and Black has a
/// turn that stops it, the search (as Black) stops it, which the greedy player, looking at its own ball
/// only, does in 13 of these 20 positions. The positions are those Black faced in seeded games of greedy
/// against random. Widening from greedy's favourites alone, the search missed one (game 1, turn 77); it
/// now weighs only the turns that leave White no win at once, when there are any.
#[test]
fn mcts_stops_threatened_wins() {
    use intercept_core::chance::{Draws, Sampler};
    use intercept_core::games::board_game::mcts::{Leaf, Mcts};
    use intercept_core::games::board_game::players::{Greedy, Player};
    use intercept_core::games::board_game::replay::Replay;
    use intercept_core::games::board_game::{BoardGame, FirstPlayer, Seat};
    let v = Variant::default();
    let model = BoardGame::new([Seat::Greedy, Seat::Random], FirstPlayer::White, 200, v);
    let mcts = Mcts { budget: 100, depth: 4, variant: v, leaf: Leaf::Lean };
    let (mut threats, mut greedy_parries) = (0, 0);
    for game in 0..6 {
        for (k, (p, _)) in Replay::of(&model, 3, 1, game, Draws::Paired).turns.iter().enumerate() {
            let turns = p.turns(v);
            let lets_white_win = |t: &Turn| {
                let next = p.play(*t);
                next.turns(v).iter().any(|&w| next.play(w).winner() == Some(Colour::White))
            };
            let losing = turns.iter().filter(|t| lets_white_win(t)).count();
            if p.to_move != Colour::Black || losing == 0 || losing == turns.len() {
                continue;
            }
            threats += 1;
            let chance = &mut Sampler::at_trial(5, 1, k as u64);
            greedy_parries += usize::from(!lets_white_win(&turns[Greedy.choose(p, &turns, chance)]));
            let i = mcts.choose(p, &turns, chance);
            assert!(
                !lets_white_win(&turns[i]),
                "game {game} turn {k}: MCTS played {}, and White wins",
                p.notation(turns[i])
            );
        }
    }
    assert_eq!((threats, greedy_parries), (20, 13), "threatened positions, and those greedy parries");
}

/// `Position::no_transfer` never hides a transfer: over random games (the ball by the edges and in the
/// crowd), a position it clears has no turn with a transfer, and both kinds of position are met often.
#[test]
fn no_transfer_hides_no_transfer() {
    use intercept_core::chance::{Chance, Sampler};
    let (v, mut cleared, mut passing) = (Variant::default(), 0, 0);
    for game in 0..40 {
        let (mut chance, mut p) = (Sampler::at_trial(5, 1, game), Position::start());
        for _ in 0..200 {
            if p.winner().is_some() {
                break;
            }
            let (turns, none) = (p.turns(v), p.no_transfer());
            assert!(!none || turns.iter().all(|t| t.ball_to.is_none()), "{p}");
            cleared += usize::from(none);
            passing += usize::from(turns.iter().any(|t| t.ball_to.is_some()));
            p.play_in_place(turns[chance.uniform(turns.len())]);
        }
    }
    assert!(cleared > 500 && passing > 500, "{cleared} positions cleared, {passing} with a transfer");
}
