//! A trial's state between the rules that change it, which every file of the sequence of play reads: a
//! [`Trial`], one bit per group for each yes/no fact (rolled, reached, alive, fought, ...), so "did any group
//! of this combat reach?" or "who won?" is a mask operation rather than a loop, and a trial zeroes a few
//! hundred bytes and allocates nothing; the helpers over its masks ([`bit`], [`has`], [`set`], [`each`]);
//! why forces meet ([`Encounter`]); and what follows a delayed roll ([`Counter`]), which a combat's steps
//! ([`combat`](super::combat)) carry and the late groups' rules ([`late`](super::late)) settle.

use super::MAX_GROUPS;

/// A trial's state: bit `i` of each mask is group `i`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Trial {
    pub rolled: u32,
    /// Reached its hex with a roll of its own: its first roll, or for a counter-interceptor waiting on a
    /// delayed target, the roll after one of the target's rolls (N-8.4, N-15.3).
    pub reached: u32,
    /// At the place where it fights, to sail in when the combat there starts.
    pub there: u32,
    /// Still able to act: not defeated, not turned back by air.
    pub alive: u32,
    pub fought: u32,
    pub won: u32,
    /// Closed in after falling short and joined a combat between rounds (N-15).
    pub joined_late: u32,
    /// Deferred to a counter-interception combat that was fought (N-14).
    pub deferred: u32,
    /// Deferred and joined that combat (N-14).
    pub joined_deferred: u32,
    /// Gave up its delayed interception and went home (N-15.1).
    pub abandoned: u32,
    /// Reached its hex, but the force it was after had turned back (N-18.1b).
    pub target_gone: u32,
    /// Fell short with its last roll, and how far is not drawn yet ([`Naval::drawn`](super::Naval::drawn)).
    pub undrawn: u32,
    /// Of those, the ones whose roll was the first, whose `movement` is still to report.
    pub unreported: u32,
    /// Of those, the ones that rolled the small-force move (N-5.8).
    pub small: u32,
    /// Groups whose facts are reported: their part is over
    /// ([`Naval::report_groups`](super::Naval::report_groups)).
    pub reported: u32,
    /// Hexes moved with its first roll; meaningful once drawn.
    pub moved: [u8; MAX_GROUPS],
    /// Hexes still to go to its interception hex (N-15); meaningful once drawn.
    pub left: [u8; MAX_GROUPS],
    /// Hexes closed toward the combat a group defers to (N-14.3).
    pub defer_moved: [u8; MAX_GROUPS],
    /// Delayed rolls made (N-15), for the abandon policy.
    pub delayed_rolls: [u8; MAX_GROUPS],
    /// Naval factors now, after losses (N-5.8, N-16.4); kept only where a force can lose factors.
    pub factors: [u16; MAX_GROUPS],
    pub mission_factors: u16,
    pub mission_gone: bool,
    pub mission_engaged: bool,
    pub mission_caught_going_home: bool,
    pub mission_caught_further_on: bool,
    pub mission_attacked_going_home: bool,
    pub rounds: u32,
}

/// Why forces meet: the planned combats of the resolution phase, a combat fought at once after a delayed
/// roll (N-15.3), a retargeted interception further on, or an interception on the way home (N-17.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Encounter {
    Planned,
    Delayed,
    Further,
    Home,
}

pub(super) fn bit(i: usize) -> u32 {
    1 << i
}

pub(super) fn has(mask: u32, i: usize) -> bool {
    mask >> i & 1 != 0
}

/// Sets or clears bit `i` of `mask`.
pub(super) fn set(mask: &mut u32, i: usize, yes: bool) {
    *mask = (*mask & !bit(i)) | u32::from(yes) << i;
}

/// The groups in `mask`, in listed order (lowest index first).
pub(super) fn each(mask: u32) -> Each {
    Each(mask)
}

/// The iterator of [`each`]: tests for an empty mask before counting zeros, the one branch a loop over a
/// mask needs.
pub(super) struct Each(u32);

impl Iterator for Each {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        // Masked to tell the compiler what it cannot see: a set bit of a `u32` is below `MAX_GROUPS`, so a
        // table of `MAX_GROUPS` entries needs no bounds check.
        let i = self.0.trailing_zeros() as usize & (MAX_GROUPS - 1);
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// What follows a delayed roll (N-15.3): the chain of counter-interceptors that reached fights, deepest first,
/// then meets group `j`; then `j` joins the combat it closes on, if it `arrives`. Between two of the steps
/// of the exact interpreter it is the combat `next` in the resolve order is looked at next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Counter {
    pub j: u8,
    pub arrives: bool,
    /// The counter-interceptors that reached and the chains below them: 0 if none reached.
    pub chain: u32,
    pub next: u8,
}
