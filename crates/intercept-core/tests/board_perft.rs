//! The legal turns of Intercept pinned before the engine was rewritten for speed (issue 20): perft-style
//! counts (the turns of every position reachable in 0..=3 plies, summed over every path) from the start and
//! from the seed's test diagrams under every combination of the rule variants, and a hash of the turn lists,
//! in order, along seeded random games of 200 turns. A seeded game picks turns by index, so the same lists
//! in the same order keep every game, replay and self-play output byte-identical.

use intercept_core::chance::chunk_rng;
use intercept_core::games::board_game::position::{Colour, Position};
use intercept_core::games::board_game::turns::{Action, Turn, Variant};
use rand::Rng;

const J1: &str = "6,6,...1../.71.../.6..../...3../..9..1/.12...";
const T1: &str = "6,6,..7.../..6[eeerww]../.7..../.6..../..9.../......";
const W1: &str = "6,6,..[eEeEeE].../..16../.7..../.6..../..[eeerww].../......";
const STEAL: &str = "6,6,....../..6[eeerxx]../.7..../....../....../.....6";

/// The eight combinations of the three variant flags, the rules' reading first.
fn variants() -> Vec<Variant> {
    (0..8)
        .map(|bits| Variant {
            size_change_allows_transfer: bits & 1 == 0,
            steal_requires_moved_piece: bits & 2 != 0,
            action_mandatory: bits & 4 == 0,
        })
        .collect()
}

/// `counts[k]`: the legal turns of the positions `k` plies from `p`, summed over every path; a won position
/// has none.
fn perft(p: &Position, v: Variant, depth: usize, counts: &mut [u64]) {
    if p.winner().is_some() {
        return;
    }
    let turns = p.turns(v);
    counts[depth] += turns.len() as u64;
    if depth + 1 < counts.len() {
        for t in turns {
            perft(&p.play(t), v, depth + 1, counts);
        }
    }
}

fn counts(p: &Position, v: Variant, plies: usize) -> Vec<u64> {
    let mut c = vec![0; plies + 1];
    perft(p, v, 0, &mut c);
    c
}

/// FNV-1a over a turn's fields, so the hash needs no `Hash` implementation that might change.
fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h = (*h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
}

fn hash_turn(h: &mut u64, t: Turn) {
    match t.action {
        Action::Move { from, to, cover } => fnv(h, &[1, from, to, u8::from(cover)]),
        Action::Resize { at } => fnv(h, &[2, at]),
        Action::Pass => fnv(h, &[3]),
    }
    fnv(h, &t.ball_to.map_or([0, 0], |c| [1, c]));
}

/// The hash of every turn list, in order, along game `game` of 200 random turns from `start`.
fn game_hash(start: &Position, v: Variant, game: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325;
    let mut rng = chunk_rng(20, game);
    let mut p = *start;
    for _ in 0..200 {
        if p.winner().is_some() {
            break;
        }
        let turns = p.turns(v);
        fnv(&mut h, &(turns.len() as u32).to_le_bytes());
        turns.iter().for_each(|&t| hash_turn(&mut h, t));
        p = p.play(turns[(rng.next_u64() % turns.len() as u64) as usize]);
    }
    fnv(&mut h, p.to_string().as_bytes());
    h
}

fn white(diagram: &str) -> Position {
    Position::from_diagram(diagram, Colour::White).expect("a diagram")
}

#[test]
fn perft_from_the_start() {
    let start = Position::start();
    let got: Vec<Vec<u64>> = variants().into_iter().map(|v| counts(&start, v, 3)).collect();
    let default = [38, 1444, 64290, 2863297];
    let optional = [39, 1521, 68984, 3129736];
    let want = [default, default, default, default, optional, optional, optional, optional];
    assert_eq!(got, want, "start, ply 0..=3, variants in order");
}

#[test]
fn perft_from_black_to_move() {
    let start = Position::start_with(Colour::Black);
    let got = counts(&start, Variant::default(), 3);
    assert_eq!(got, [38, 1444, 64290, 2863297], "start with Black to move");
}

#[test]
fn perft_from_the_test_diagrams() {
    let mut got = Vec::new();
    for (name, d, plies) in [("J-1", J1, 3), ("T-1", T1, 2), ("W-1", W1, 3), ("steal", STEAL, 3)] {
        for v in variants() {
            got.push((name, counts(&white(d), v, plies)));
        }
    }
    let want: Vec<(&str, Vec<u64>)> = [
        ("J-1", [29, 1073, 26767, 995871].as_slice(), 4),
        ("J-1", &[30, 1140, 29688, 1133967], 4),
        ("T-1", &[104, 104, 9106], 1),
        ("T-1", &[102, 102, 8781], 1),
        ("T-1", &[104, 104, 9106], 1),
        ("T-1", &[102, 102, 8781], 1),
        ("T-1", &[108, 108, 9862], 1),
        ("T-1", &[106, 106, 9525], 1),
        ("T-1", &[108, 108, 9862], 1),
        ("T-1", &[106, 106, 9525], 1),
        ("W-1", &[41, 258, 7720, 46251], 4),
        ("W-1", &[43, 310, 9978, 69468], 4),
        ("steal", &[23, 57, 824, 3767], 2),
        ("steal", &[20, 33, 493, 1565], 2),
        ("steal", &[25, 72, 1072, 6021], 2),
        ("steal", &[21, 36, 569, 2108], 2),
    ]
    .into_iter()
    .flat_map(|(name, c, times)| std::iter::repeat_n((name, c.to_vec()), times))
    .collect();
    assert_eq!(got, want);
}

/// Positions deep in random games, where covers, doubles of 4 and transfer chains occur.
#[test]
fn perft_from_midgame_positions() {
    let mut got = Vec::new();
    for game in 0..6 {
        let mut rng = chunk_rng(77, game);
        let mut p = Position::start();
        for _ in 0..(40 + 20 * game) {
            let turns = p.turns(Variant::default());
            if p.winner().is_some() {
                break;
            }
            p = p.play(turns[(rng.next_u64() % turns.len() as u64) as usize]);
        }
        for v in [variants()[0], variants()[1], variants()[2], variants()[4]] {
            got.push(counts(&p, v, 2));
        }
    }
    let want: Vec<Vec<u64>> = [
        [[74, 5039, 370735], [74, 5039, 370735], [74, 5039, 370735], [75, 5182, 386467]],
        [[70, 5235, 371905], [70, 5235, 371905], [70, 5235, 371905], [71, 5381, 387578]],
        [[73, 4413, 327345], [73, 4413, 327345], [73, 4413, 327345], [74, 4547, 341757]],
        [[77, 6294, 482774], [77, 6294, 482774], [77, 6294, 482774], [78, 6454, 501526]],
        [[85, 6476, 548841], [85, 6476, 548689], [85, 6476, 548841], [86, 6638, 569230]],
        [[80, 6853, 551837], [80, 6853, 551837], [80, 6853, 551837], [81, 7020, 572251]],
    ]
    .iter()
    .flatten()
    .map(|c| c.to_vec())
    .collect();
    assert_eq!(got, want);
}

#[test]
fn turn_lists_along_seeded_games() {
    let start = Position::start();
    let mut got = Vec::new();
    for v in variants() {
        got.push((0..12).map(|g| game_hash(&start, v, g)).fold(0u64, |a, h| a.rotate_left(7) ^ h));
    }
    let want = [
        5669348704968372570,
        7623998777049198549,
        16928790789095035797,
        7623998777049198549,
        16368658106401903117,
        13989332186731396232,
        16368658106401903117,
        8149574416580167546,
    ];
    assert_eq!(got, want);
}
