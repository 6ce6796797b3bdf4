//! The tree-search player's choices pinned: the turn, the playout score (to the bit), the visits and playouts of
//! searches from the start and from positions deep in seeded random games, and whole seeded games of the
//! search against the greedy player, so that a change for speed that changes a choice shows here.
//!
//! First pinned before the search's rewrite for speed (issue 20), and kept bit for bit through it; pinned
//! anew when the playout policy went from one draw per tied turn to one draw a turn and stopped playing a
//! last turn that cannot move the ball (`mcts.rs`, `forward` and `Mcts::simulate`): the same chances,
//! different draws. The turns chosen at 50 playouts from the pinned positions stayed the same.

use intercept_core::chance::{Sampler, chunk_rng};
use intercept_core::games::board_game::mcts::{Leaf, Mcts};
use intercept_core::games::board_game::players::{Greedy, play_game};
use intercept_core::games::board_game::position::Position;
use intercept_core::games::board_game::turns::Variant;
use rand::Rng;

fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h = (*h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
}

/// Positions `plies` random turns into seeded games (or the last before a win).
fn positions() -> Vec<Position> {
    let mut out = vec![Position::start()];
    for game in 0..4 {
        let mut rng = chunk_rng(31, game);
        let mut p = Position::start();
        for ply in 1..=90 {
            let turns = p.turns(Variant::default());
            let next = p.play(turns[(rng.next_u64() % turns.len() as u64) as usize]);
            if next.winner().is_some() {
                break;
            }
            p = next;
            if ply % 30 == 0 {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn searches_are_pinned() {
    let mut h = 0xcbf2_9ce4_8422_2325;
    let mut first = Vec::new();
    for (k, p) in positions().iter().enumerate() {
        for (budget, depth) in [(50, 6), (200, 8), (120, 3)] {
            let v = Variant { steal_requires_moved_piece: budget == 120, ..Variant::default() };
            let turns = p.turns(v);
            let f = Mcts { budget, depth, variant: v, leaf: Leaf::Lean }.search(
                p,
                &turns,
                &mut Sampler::at_trial(9, 4, k as u64),
            );
            fnv(&mut h, &(f.index as u64).to_le_bytes());
            fnv(&mut h, &f.score.to_bits().to_le_bytes());
            fnv(&mut h, &[f.visits, f.playouts].map(u32::to_le_bytes).concat());
            if budget == 50 {
                first.push(f.index);
            }
        }
    }
    assert_eq!((first, h), (vec![5, 11, 38, 7, 5, 5, 38, 15, 15, 5, 1, 1, 43], 15712220983975077212));
}

#[test]
fn games_against_greedy_are_pinned() {
    let v = Variant::default();
    let mcts = Mcts { budget: 50, depth: 6, variant: v, leaf: Leaf::Lean };
    let start = Position::start();
    let mut h = 0xcbf2_9ce4_8422_2325;
    let mut results = Vec::new();
    for g in 0..4 {
        let mut record = |p: &Position, t| fnv(&mut h, format!("{}|", p.notation(t)).as_bytes());
        let game = if g % 2 == 0 {
            play_game(&start, &mcts, &Greedy, v, 120, &mut Sampler::at_trial(3, 1, g), &mut record)
        } else {
            play_game(&start, &Greedy, &mcts, v, 120, &mut Sampler::at_trial(3, 1, g), &mut record)
        };
        results.push((game.winner.map(|w| w.index()), game.turns));
    }
    assert_eq!((results, h), (vec![(None, 120), (None, 120), (Some(0), 81), (Some(1), 120)], 9511238938538608149));
}
