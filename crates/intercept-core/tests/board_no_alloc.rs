//! The board game's random playouts allocate nothing a ply (issue 20): a counting global allocator, in a test
//! file of its own so that no other test's allocations are counted, sees no allocation during thousands of
//! plies of random games once the thread's turn buffer has grown.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use intercept_core::chance::Sampler;
use intercept_core::games::board_game::players::{Player, Random, play_game};
use intercept_core::games::board_game::position::Position;
use intercept_core::games::board_game::turns::{Variant, turns_into};

/// The system allocator, counting every allocation and reallocation.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made while `f` runs, and what it returned.
fn counted<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let out = f();
    (ALLOCATIONS.load(Ordering::SeqCst) - before, out)
}

#[test]
fn random_playouts_allocate_nothing_a_ply() {
    let (start, v) = (Position::start(), Variant::default());
    let game = |g| play_game(&start, &Random, &Random, v, 200, &mut Sampler::at_trial(4, 1, g), &mut |_, _| {});
    let plies = || (0..200).map(|g| game(g).turns).sum::<u32>();
    plies(); // warm-up: the thread's turn buffer grows to these games' longest list
    let (allocations, plies) = counted(plies);
    assert!(plies > 20_000, "{plies} plies");
    assert_eq!(allocations, 0, "allocations in {plies} plies of 200 random games");

    // The same plies by hand: a kept buffer, a position played in place.
    let mut turns = Vec::new();
    let mut p = start;
    let mut chance = Sampler::at_trial(5, 1, 0);
    turns_into(&p, v, &mut turns);
    turns.reserve(1000);
    let (allocations, ()) = counted(|| {
        for _ in 0..20_000 {
            if p.winner().is_some() {
                p = start;
            }
            turns_into(&p, v, &mut turns);
            let i = Random.choose(&p, &turns, &mut chance);
            p.play_in_place(turns[i]);
        }
    });
    assert_eq!(allocations, 0, "allocations in 20 000 plies played by hand");
}
