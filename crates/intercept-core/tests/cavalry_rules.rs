//! The statements of `docs/rules/cavalry.md` that name a default, a metric or an order of events and that
//! the other cavalry tests do not reach (issue 36): one roll per unit and the `attempts` choice, every
//! arrival a trigger of its own, and movement by formation. Every expected value is worked out by hand from
//! the rule in the comment above it. A Charge interceptor succeeds with 6/10 (C-2).

mod solve;

use intercept_core::config::Scenario;
use solve::{close, exact, load};

/// Charge interceptors `first` and `second`, each 2 hexes away and ending in the target's front, against
/// `target`; `extra` adds `[cavalry]` keys.
fn two(target: &str, extra: &str) -> Scenario {
    let unit = |name: &str| {
        format!("[[cavalry.interceptor]]\nname = \"{name}\"\norder = \"charge\"\ndistance = 2\nends_in = \"front\"\n")
    };
    load(&format!("[cavalry]\n{extra}\n{}{}[cavalry.target]\n{target}\n", unit("first"), unit("second")))
}

/// C-3.2, A-14, C-4.10, A-15: each eligible unit rolls once, so its chance is the table's 6/10 however many
/// hexes of the move qualify. Under `attempts = "all"` (the default) both roll: the second succeeds with
/// 6/10. Under `"until_success"` the rolls stop at the first success, where the mover stops: the second
/// rolls only when the first missed, 4/10 x 6/10 = 6/25. Either way the target is intercepted with
/// 1 - (4/10)^2 = 21/25.
#[test]
fn each_unit_rolls_once_and_until_success_stops_at_the_first() {
    let target = "kind = \"artillery\"\nmorale = 6";
    let all = two(target, "");
    assert!(close(exact(&all, "cavalry.interceptor.first.succeeded"), 0.6));
    assert!(close(exact(&all, "cavalry.interceptor.second.succeeded"), 0.6));
    assert!(close(exact(&all, "cavalry.intercepted"), 0.84));
    let until = two(target, "attempts = \"until_success\"");
    assert!(close(exact(&until, "cavalry.interceptor.second.succeeded"), 0.24));
    assert!(close(exact(&until, "cavalry.intercepted"), 0.84));
}

/// C-5.1, C-5.2: every interceptor arriving next to the target is a trigger, and the target reacts to each:
/// light infantry fires at horse in its front (C-6) as each of the two arrives, so each draws fire with the
/// 6/10 of its own interception, not only the first.
#[test]
fn every_arrival_is_a_trigger_of_its_own() {
    let s = two("kind = \"light_infantry\"\nmorale = 9", "");
    assert!(close(exact(&s, "cavalry.interceptor.first.drew_fire"), 0.6));
    assert!(close(exact(&s, "cavalry.interceptor.second.drew_fire"), 0.6));
}

/// C-7.1, C-7.2, C-7.3, C-5.7: movement by formation. Light infantry (allowance 4) with horse of
/// allowance 4 ending in its rear turns to face it when its allowance is at least the horse's: in FN, with
/// its full 4, whenever the horse arrives (6/10); shaken, halved to 2, never; broken, with no movement
/// points at all, never.
#[test]
fn a_unit_turns_only_with_the_movement_its_formation_leaves_it() {
    let turns = |formation: &str| {
        let s = load(&format!(
            "[[cavalry.interceptor]]\nname = \"horse\"\norder = \"charge\"\ndistance = 2\nends_in = \"rear\"\n\
             movement = 4\n[cavalry.target]\nkind = \"light_infantry\"\nmorale = 6\nformation = \"{formation}\"\n"
        ));
        exact(&s, "target.facing_changed")
    };
    assert!(close(turns("normal"), 0.6));
    assert!(close(turns("shaken"), 0.0));
    assert!(close(turns("broken"), 0.0));
}
