//! One trial of the naval sequence of play, on the resolved [`Naval`] model.
//!
//! A trial has the phases the rules have: every level rolls, shallowest first (N-8..N-11); the combats are
//! resolved deepest first, "last to intercept, first to sail" (N-12), with delayed interceptions between
//! rounds ([`late`](super::late)); a delayed group may retarget a hex further on; forces going home may
//! be met on the way ([`home`](super::home), N-17). Each [`Meeting`](super::Meeting) is a place where forces
//! meet; what happens there is [`combat`](super::combat).
//!
//! The trial is [`Stepped`](crate::model::Stepped): a [`NavalState`] is a [`Trial`] (its facts, one bit per
//! group in each mask: [`trial`](super::trial)), the [`Stage`] it is at and the combat under way there
//! ([`Battle`], and the combats after a delayed roll, [`Counter`]). A step is one group's first roll, one
//! group sailing to a combat, one round, one delayed roll, one combat after it, the retargeting, the air
//! attacks on the way home, one group's report, or the trial's, so the exact interpreter merges trials that
//! reach equal states between them (issue 37). Three habits keep the states few: a roll draws whether it
//! reaches first and how far short only when a rule reads it ([`Naval::drawn`]); a group is reported as soon
//! as its part is over ([`Stage::ReportGroup`]); and [`Naval::forget`]s what no later step reads. The steps
//! make the picks of the sequence of play in its order, and the sampler takes the same steps straight through
//! ([`Naval::play`]).

use super::combat::{Battle, Next};
use super::trial::{Counter, Encounter, Trial, bit, each, has, set};
use super::{Force, Naval};
use crate::chance::Chance;
use crate::games::naval::config::HomeAfter;
use crate::metrics::Recorder;
use crate::model::Flow;

/// The units of [`Naval::progress_of`], settled with the scenario: the progress one combat can make, and
/// the progress of a combat's delayed roll with the combats it leads to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Progress {
    per_combat: u64,
    per_counter: u64,
}

impl Progress {
    /// For combats of at most `max_rounds` rounds and `resolves` planned combats, each of which a delayed
    /// roll's chain may fight at once, and the one with the group that rolled.
    pub(super) fn new(max_rounds: u32, resolves: usize) -> Progress {
        let per_combat = Battle::most_progress(max_rounds) + 1;
        Progress { per_combat, per_counter: (resolves as u64 + 2) * per_combat + 1 }
    }
}

/// Where a trial is in the sequence of play: the step it takes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The first roll of the `n`-th group in rolling order (level by level, N-10.1).
    Roll(u8),
    /// The `n`-th planned combat, deepest first (N-12).
    Resolve(u8),
    /// A-9's further hex.
    Retarget,
    /// Air attacks on the forces going home (N-13.1).
    AirHome,
    /// The `n`-th interception on the way home (N-17).
    Home(u8),
    /// Group `n`'s part is over, if it has rolled: its facts are reported, and how far its first roll fell
    /// short drawn if nothing has read it yet ([`Naval::report_groups`]). After its combat, and for every
    /// group before the report.
    ReportGroup(u8),
    Report,
}

/// A trial between two steps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NavalState {
    /// The next step, an index into [`Naval::stages`].
    at: u16,
    /// While a level rolls, its groups that may roll: settled as its first group's turn comes, since no
    /// roll of a level changes who else in it may roll; 0 between levels.
    free: u32,
    /// The combat under way at this stage, if any.
    battle: Option<Battle>,
    /// In that combat, the combats after a delayed roll (N-15.3), and the one of them under way.
    counter: Option<Counter>,
    inner: Option<Battle>,
    t: Trial,
}

impl Naval {
    /// The state a trial starts in.
    pub(super) fn start(&self) -> NavalState {
        let mut t = Trial { mission_factors: self.mission_factors, ..Trial::default() };
        if self.tracks_factors {
            for (i, g) in self.groups.iter().enumerate() {
                t.factors[i] = g.factors;
            }
        }
        NavalState { at: 0, free: 0, battle: None, counter: None, inner: None, t }
    }

    /// One trial for the sampler: the steps of [`Naval::take_step`] in the order of [`stages`], called
    /// straight through. Going through the step dispatcher cost the sampler an eighth of a trial on
    /// grand-armada (criterion `naval_rules_every_trial`); the exact interpreter, which takes the steps one
    /// by one, is checked against the leaf walk of this function (tests/states.rs), so the two orders cannot
    /// drift apart.
    pub(super) fn play<C: Chance, R: Recorder>(&self, chance: &mut C, rec: &mut R) {
        let mut s = self.start();
        let t = &mut s.t;
        // The rolls of `first_roll`, level by level as `roll_order` lists them (N-10.1).
        self.roll_among(t, u32::MAX, chance, rec);
        for &k in &self.resolve_order {
            self.resolve_one(t, k, Encounter::Planned, |_| true, chance, rec);
            self.report_groups(t, self.report_after[k], chance, rec);
        }
        if self.readings.retarget {
            self.retarget(t, chance, rec);
        }
        self.air_going_home(t, chance);
        for &k in &self.return_order {
            self.home_one(t, k, chance, rec);
            self.report_groups(t, self.report_after[k], chance, rec);
        }
        self.report_groups(t, u32::MAX, chance, rec);
        self.report(t, rec);
    }

    /// How far a trial in `s` has got: its stage; within a combat, its round and what it does next
    /// ([`Battle::progress`]); within the combats after a delayed roll, which and how far
    /// ([`Counter::progress`]).
    pub(super) fn progress_of(&self, s: &NavalState) -> u64 {
        let Progress { per_combat, per_counter } = self.progress;
        let counter = s.counter.map_or(0, |c| c.progress(s.inner.as_ref(), per_combat));
        let battle = s.battle.map_or(0, |b| b.progress());
        (u64::from(s.at) * per_combat + battle) * per_counter + counter
    }

    /// Takes the step `s` is at, and moves it on to the next. A planned combat or one on the way home is a
    /// step to its start and one for each group sailing to it, each round and each delayed roll; the combats
    /// a delayed roll leads to are steps of their own ([`Counter`]). The stage moves on once it is over.
    pub(super) fn take_step<C: Chance, R: Recorder>(&self, s: &mut NavalState, chance: &mut C, rec: &mut R) -> Flow {
        let t = &mut s.t;
        if let Some(mut inner) = s.inner.take() {
            if let Next::On = self.fight_on(t, &mut inner, chance, rec) {
                s.inner = Some(inner);
            } else {
                self.counter_next(s);
            }
            return Flow::Go;
        }
        if let Some(mut battle) = s.battle.take() {
            match self.fight_on(t, &mut battle, chance, rec) {
                Next::On => s.battle = Some(battle),
                Next::Counter(c) => {
                    (s.battle, s.counter) = (Some(battle), Some(c));
                    self.counter_next(s);
                }
                Next::Over => {
                    s.at += 1;
                    self.forget(s);
                }
            }
            return Flow::Go;
        }
        match self.stages[usize::from(s.at)] {
            Stage::Roll(n) => self.first_roll(t, &mut s.free, usize::from(n), chance, rec),
            Stage::Resolve(n) => {
                let k = self.resolve_order[usize::from(n)];
                s.battle = self.resolve_begin(t, k, Encounter::Planned, |_| true);
            }
            Stage::Retarget => self.retarget(t, chance, rec),
            Stage::AirHome => self.air_going_home(t, chance),
            Stage::Home(n) => s.battle = self.home_begin(t, self.return_order[usize::from(n)], chance, rec),
            Stage::ReportGroup(i) => self.report_groups(t, bit(usize::from(i)), chance, rec),
            Stage::Report => {
                self.report(t, rec);
                return Flow::End;
            }
        }
        if s.battle.is_none() {
            s.at += 1;
            self.forget(s);
        }
        Flow::Go
    }

    /// The next of the combats after a delayed roll, if any is left; else the combat it was made in goes on.
    fn counter_next(&self, s: &mut NavalState) {
        let (Some(mut c), Some(battle)) = (s.counter.take(), s.battle.as_mut()) else {
            unreachable!("the combats after a delayed roll belong to a combat")
        };
        match self.counter_on(&s.t, &mut c) {
            Some(inner) => (s.inner, s.counter) = (Some(inner), Some(c)),
            None => self.countered(&mut s.t, battle, &c),
        }
    }

    /// Clears what no later step of `s` reads, so that trials that differ only there merge (issue 37): what
    /// a group moved and has still to go once its combat is fought, what the report does not read once
    /// only the report is left. The sampler never calls it; the exact interpreter's agreement with the
    /// leaf walk, which never forgets, is what checks it (tests/states.rs).
    fn forget(&self, s: &mut NavalState) {
        let t = &mut s.t;
        let done = match self.stages[usize::from(s.at) - 1] {
            // A planned combat fought: its groups close in no more, and the groups that deferred to it know
            // where they stand (N-14.3).
            Stage::Resolve(n) => {
                let m = &self.meetings[self.resolve_order[usize::from(n)]];
                for i in each(m.deferring) {
                    (t.moved[i], t.defer_moved[i]) = (0, 0);
                }
                t.deferred &= !m.deferring;
                m.members
            }
            // A group reported: no later step reads its facts or where it stands, only whether it reached,
            // while a fellow's closing in (N-9.1) or the mission's report may still read that.
            Stage::ReportGroup(i) if has(t.reported, usize::from(i)) => {
                let i = usize::from(i);
                let gone = !bit(i);
                let facts = [&mut t.fought, &mut t.won, &mut t.joined_late, &mut t.joined_deferred, &mut t.abandoned];
                let places =
                    [&mut t.alive, &mut t.there, &mut t.target_gone, &mut t.undrawn, &mut t.unreported, &mut t.small];
                facts.into_iter().chain(places).for_each(|mask| *mask &= gone);
                // Unread, it is as if it had never rolled: nothing will roll it again (its target reached, or it
                // would have waited), and having rolled, it is not reported again.
                let read = has(self.mission_fellows, i) || self.groups[i].fellows & !bit(i) & !t.reported != 0;
                if !read || self.groups[i].submarine {
                    [&mut t.reached, &mut t.rolled, &mut t.reported].into_iter().for_each(|mask| *mask &= gone);
                }
                t.factors[i] = 0;
                bit(i)
            }
            _ => 0,
        };
        for i in each(done) {
            (t.left[i], t.moved[i], t.defer_moved[i], t.delayed_rolls[i]) = (0, 0, 0, 0);
        }
        match self.stages[usize::from(s.at)] {
            Stage::AirHome => self.forget_the_way_out(t),
            Stage::Report => self.forget_all_but_the_report(t),
            _ => {}
        }
    }

    /// Entering the way home: the out-leg combats are over. Only the return-leg groups and the forces they
    /// wait for sail again, so only their factors and places are read.
    fn forget_the_way_out(&self, t: &mut Trial) {
        let returning = self.return_order.iter().fold(0, |m, &k| m | self.meetings[k].members);
        for i in 0..self.groups.len() {
            (t.left[i], t.moved[i], t.defer_moved[i], t.delayed_rolls[i]) = (0, 0, 0, 0);
            if !has(returning | self.waited_for, i) {
                t.factors[i] = 0;
            }
        }
        t.there &= returning;
        t.deferred = 0;
    }

    /// Entering the report: keep what it reads.
    fn forget_all_but_the_report(&self, t: &mut Trial) {
        let kept = Trial {
            reached: t.reached & self.mission_fellows,
            mission_factors: if self.m.factors_left.is_some() { t.mission_factors } else { 0 },
            mission_gone: t.mission_gone,
            mission_engaged: t.mission_engaged,
            mission_caught_going_home: t.mission_caught_going_home,
            mission_caught_further_on: t.mission_caught_further_on,
            mission_attacked_going_home: t.mission_attacked_going_home,
            rounds: t.rounds,
            ..Trial::default()
        };
        *t = kept;
    }

    /// Phase 1, one group at a time: every level rolls, shallowest first; a group rolls only if its target
    /// is at sea (N-10.5), and a counter-interceptor whose target fell short waits for its delayed rolls
    /// (N-15.3). Who in a level may roll is settled as its first group's turn comes (`free`).
    fn first_roll<C: Chance, R: Recorder>(&self, t: &mut Trial, free: &mut u32, n: usize, chance: &mut C, rec: &mut R) {
        let (i, l) = self.roll_order[n];
        let level = &self.levels[l];
        if n == 0 || self.roll_order[n - 1].1 != l {
            *free = level.members & self.free_to_roll(t, level.targets);
        }
        if has(*free, i) {
            self.roll_group(t, i, chance, rec);
        }
        if self.roll_order.get(n + 1).is_none_or(|&(_, next)| next != l) {
            *free = 0;
        }
    }

    /// The groups of `among` roll level by level, each if its target is at sea and it does not wait. Within a
    /// level no roll changes whether another group of the level may roll: that depends on its target, a
    /// level up, so the level's rollers are one mask.
    pub(super) fn roll_among<C: Chance, R: Recorder>(&self, t: &mut Trial, among: u32, chance: &mut C, rec: &mut R) {
        for level in &self.levels {
            for i in each(level.members & among & self.free_to_roll(t, level.targets)) {
                self.roll_group(t, i, chance, rec);
            }
        }
    }

    /// The out-leg groups aimed at the mission or at a group of `targets` that is at sea (N-10.5), less the
    /// counter-interceptors aimed at one that fell short: they get their chance after each of its delayed
    /// rolls instead (N-15.3).
    fn free_to_roll(&self, t: &Trial, targets: u32) -> u32 {
        let mut free = self.mission_aimed;
        for j in each(targets & t.rolled) {
            if self.at_sea(t, j) {
                let waiting = if has(t.reached, j) { 0 } else { self.waits };
                free |= self.aimed_at[j] & !waiting;
            }
        }
        free
    }

    /// Group `i` rolls its move toward its hex (N-8), with the dice its target's present size gives
    /// (N-5.8). Its first roll is the one `movement` counts. Whether it reached is drawn now, how far short
    /// it fell when first read ([`Naval::drawn`]). Returns whether it reached. Inlined: it is the body of the
    /// rolling loops, and most of a call would be saving registers.
    #[inline(always)]
    pub(super) fn roll_group<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        i: usize,
        chance: &mut C,
        rec: &mut R,
    ) -> bool {
        let g = &self.groups[i];
        let small = g.first_move.small_against(|| self.factors_of(t, g.target), self.readings.small_force_threshold);
        let split = g.first_move.split(small);
        // The range is judged on the dice it would roll now (N-8.5 with N-5.8).
        if !split.attempts {
            return false;
        }
        // A first roll not yet drawn is drawn before another roll takes its place, for the report.
        if has(t.unreported, i) {
            self.drawn(t, i, chance, rec);
        }
        let reached = chance.happens(&split.reach);
        let first = !has(t.rolled, i);
        if first {
            rec.hit(g.m.rolled);
            if reached {
                rec.value(g.m.movement, g.distance);
                t.moved[i] = self.kept_move(i, g.distance);
            }
        }
        set(&mut t.undrawn, i, !reached);
        set(&mut t.unreported, i, !reached && first);
        set(&mut t.small, i, !reached && small);
        t.rolled |= bit(i);
        t.alive |= bit(i);
        set(&mut t.reached, i, reached);
        set(&mut t.there, i, reached);
        t.left[i] = 0;
        reached
    }

    /// What a trial keeps of group `i`'s first move of `moved` hexes: only a group that defers reads it
    /// (N-14.3), so the others keep nothing that would split states.
    fn kept_move(&self, i: usize, moved: u32) -> u8 {
        if self.groups[i].defer.is_some() { moved as u8 } else { 0 }
    }

    /// Reports the facts of each group of `among` that has rolled and is not yet reported, drawing for
    /// `movement` how far short its first roll fell where nothing has read it. Called where a group's part is
    /// over, as soon as it is (a group that does not wait on a delayed target or sail again is done once its
    /// combat is fought), so the exact interpreter need not carry its facts to the end; every group is
    /// reported before the trial's report.
    fn report_groups<C: Chance, R: Recorder>(&self, t: &mut Trial, among: u32, chance: &mut C, rec: &mut R) {
        let done = among & t.rolled & !t.reported;
        if done == 0 {
            return;
        }
        // Back in port, units that fought, or reached a force that had turned back, are inverted unless
        // withheld (N-18).
        let inverted = (t.fought | t.target_gone) & !self.withheld;
        let facts = [t.reached, t.fought, t.won, t.joined_late, t.joined_deferred, inverted, t.abandoned];
        // Fact by fact over the set bits: most facts of most groups are not set. Abandoned is last: a
        // scenario that cannot abandon registers no metric for it, and never sets it.
        for (mask, metrics) in facts.into_iter().zip(&self.facts.0) {
            for i in each(mask & done) {
                rec.hit(metrics[i]);
            }
        }
        // The draws come after the facts, which they do not change: so a group's facts are reported before
        // any draw of the groups reported with it, whether they are reported together (the sampler) or one
        // by one (the exact interpreter), as the check of merged states compares (exact::suffix).
        for i in each(done & t.unreported) {
            self.drawn(t, i, chance, rec);
        }
        t.reported |= done;
    }

    /// Draws how far short group `i`'s last roll fell, if that is not drawn yet: its hexes still to go, and
    /// for a first roll the `movement` it reports (N-8.4). Every rule that reads `left` or `moved` calls it
    /// first.
    pub(super) fn drawn<C: Chance, R: Recorder>(&self, t: &mut Trial, i: usize, chance: &mut C, rec: &mut R) {
        if !has(t.undrawn, i) {
            return;
        }
        let g = &self.groups[i];
        let short = g.first_move.split(has(t.small, i)).short.as_ref().expect("a roll that fell short can fall short");
        let moved = chance.pick(short) as u32;
        t.left[i] = (g.distance - moved) as u8;
        if has(t.unreported, i) {
            rec.value(g.m.movement, moved);
            t.moved[i] = self.kept_move(i, moved);
        }
        t.undrawn &= !bit(i);
        t.unreported &= !bit(i);
        t.small &= !bit(i);
    }

    /// The naval factors of `force` now.
    pub(super) fn factors_of(&self, t: &Trial, force: Force) -> u16 {
        match force {
            Force::Mission => t.mission_factors,
            Force::Group(i) => t.factors[i],
        }
    }

    /// Whether a non-submarine group aimed where group `i` is aimed reached: its target is intercepted (N-8.6).
    pub(super) fn intercepted(&self, t: &Trial, i: usize) -> bool {
        t.reached & self.groups[i].fellows != 0
    }

    /// Whether group `i` is at sea: it reached its hex, or fell short but closes in behind another group that
    /// reached (N-9.1, N-9.2). Settled once its level has rolled.
    pub(super) fn at_sea(&self, t: &Trial, i: usize) -> bool {
        let closes_in = has(self.closes_in, i) && self.intercepted(t, i);
        has(t.rolled, i) && (has(t.reached, i) || closes_in)
    }

    /// Whether `force` is on its way home: after a defeat, a turn-back, an abort or an abandoned delayed
    /// interception (N-17.2); with `way_home.after = "any"`, every force that was at sea (N-17.3).
    pub(super) fn going_home(&self, t: &Trial, force: Force) -> bool {
        let any = self.readings.home_after == HomeAfter::Any;
        let Force::Group(i) = force else { return t.mission_gone || any };
        let aborted = !has(self.closes_in, i) && !has(t.reached, i) && self.intercepted(t, i);
        let gave_up = aborted || has(t.abandoned, i);
        has(t.rolled, i) && (!has(t.alive, i) || gave_up || (any && self.at_sea(t, i)))
    }

    pub(super) fn present(&self, t: &Trial, force: Force) -> bool {
        match force {
            Force::Mission => !t.mission_gone,
            Force::Group(i) => self.at_sea(t, i) && has(t.alive, i),
        }
    }

    /// Meeting `k`, if its place `at` accepts, a member is there and the force it meets is present.
    fn resolve_one<C: Chance, R: Recorder>(
        &self,
        t: &mut Trial,
        k: usize,
        kind: Encounter,
        at: impl Fn(Force) -> bool,
        chance: &mut C,
        rec: &mut R,
    ) {
        if let Some(battle) = self.resolve_begin(t, k, kind, at) {
            self.fight(t, battle, chance, rec);
        }
    }

    /// The combat of [`Naval::resolve_one`], if there is one.
    pub(super) fn resolve_begin(
        &self,
        t: &Trial,
        k: usize,
        kind: Encounter,
        at: impl Fn(Force) -> bool,
    ) -> Option<Battle> {
        let m = &self.meetings[k];
        let arrivals = m.members & t.there & t.alive;
        let meets = at(m.place.force) && arrivals != 0 && self.present(t, m.place.force);
        meets.then(|| self.begin(k, arrivals, kind))
    }

    fn report<R: Recorder>(&self, t: &Trial, rec: &mut R) {
        rec.flag(self.m.intercepted, t.reached & self.mission_fellows != 0);
        rec.flag(self.m.engaged, t.mission_engaged);
        rec.flag(self.m.completed, !t.mission_gone);
        rec.flag(self.m.returned, t.mission_gone);
        rec.flag(self.m.caught_going_home, t.mission_caught_going_home);
        flag(rec, self.m.caught_further_on, t.mission_caught_further_on);
        flag(rec, self.m.attacked_going_home, t.mission_attacked_going_home);
        rec.value(self.m.rounds, t.rounds);
        if let Some(m) = self.m.factors_left {
            rec.value(m, u32::from(t.mission_factors));
        }
    }
}

/// The steps of every trial of a scenario, in order: they do not depend on what happens. `after[k]` are the
/// groups reported once meeting `k` is fought, if they have rolled by then; every group is, if not yet,
/// before the trial's report.
pub(super) fn stages(
    rolls: usize,
    resolves: &[usize],
    retarget: bool,
    homes: &[usize],
    after: &[u32],
    groups: usize,
) -> Vec<Stage> {
    let index = |n: usize| u8::try_from(n).expect("at most 32 groups and their meetings");
    let report = |mask: u32| each(mask).map(move |i| Stage::ReportGroup(index(i)));
    let mut out: Vec<Stage> = (0..rolls).map(|n| Stage::Roll(index(n))).collect();
    for (n, &k) in resolves.iter().enumerate() {
        out.push(Stage::Resolve(index(n)));
        out.extend(report(after[k]));
    }
    out.extend(retarget.then_some(Stage::Retarget));
    out.push(Stage::AirHome);
    for (n, &k) in homes.iter().enumerate() {
        out.push(Stage::Home(index(n)));
        out.extend(report(after[k]));
    }
    out.extend((0..groups).map(|i| Stage::ReportGroup(index(i))));
    out.push(Stage::Report);
    out
}

fn flag<R: Recorder>(rec: &mut R, metric: Option<crate::metrics::Metric>, yes: bool) {
    if let Some(m) = metric {
        rec.flag(m, yes);
    }
}
