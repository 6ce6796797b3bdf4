//! The legal-turn generator behind [`super::turns`]: every distinct turn of a position (I-2), listed in one
//! fixed order, written into a buffer the caller keeps, so a playout allocates nothing a ply.
//!
//! A [`Generator`] works on a copy of the position's [`super::board::Board`] by board index. For each square
//! in cell order it lists the stack's moves ([`Generator::moves`]: steps, then the landings of its jump
//! sequences depth first, then the double's slides and jumps, each destination once, I-5..I-10,
//! I-19..I-23), then the double's size change (I-11); then, for each action, it plays the action in place,
//! lists the cells the transfer chains can leave the ball on ([`Generator::chains`], I-13..I-18), and takes
//! the action back. The order is the turns' order everywhere (a seeded game picks turns by index), pinned by
//! `tests/board_perft.rs`.

use super::board::{self, CELL_OF, DIRECTIONS, EMPTY, OFF, SQUARES, Squares, covers, size};
use super::position::{Cell, Colour, Position};
use super::types::{Action, Turn, Variant};

/// The board index standing for "none" (no ball, no goal): a ring square, never a cell.
const NONE: usize = 0;

/// The most destinations of one stack: every cell of the largest board.
const MOST_MOVES: usize = 15 * 15;

/// One position's turn generator.
pub(super) struct Generator<'a> {
    b: [u8; SQUARES],
    /// The board as a stack's moves read it: `b` with the ball's square and the empty goals marked [`OFF`],
    /// so a stone may enter a square when its byte is [`EMPTY`], and may jump it only when it holds a stack
    /// (I-8, I-17); the stacks the side to move may cover carry the [`COVERABLE`] mark.
    m: [u8; SQUARES],
    /// Bit 7 of the bytes of a row's cells (columns 1 to `size` of 16).
    cells_row: u128,
    /// Each board index's cell number on this board's size.
    cell_of: &'static [u8; SQUARES],
    size: u8,
    /// The colour bit of the side to move.
    me: u8,
    ball: usize,
    goals: [usize; 2],
    /// The goal the side to move attacks (I-18).
    target: usize,
    /// Whether there is an enemy stack the side to move may cover (I-19, I-22), marked in `m`.
    coverable: bool,
    /// The square of the stack the side to move covers with, if any (I-21).
    covering: usize,
    /// Whether a passer of the side to move stands next to the ball before any action (I-13).
    passer_near: bool,
    /// Whether a first transfer off an enemy stone must use the stack that moved (I-16, I-A7).
    strict: bool,
    /// The transfer chains with no action taken.
    shared: Shared,
    v: Variant,
    /// Whether to list each action's transfers (false lists the actions alone).
    with_transfers: bool,
    /// Whether to leave out the moves no transfer can follow ([`Generator::transfers_only`]).
    transfers_only: bool,
    out: &'a mut Vec<Turn>,
    /// The action whose transfer chains are being listed.
    action: Action,
    /// One stack's destinations, in the order found.
    moves: [u8; MOST_MOVES],
}

impl<'a> Generator<'a> {
    #[inline(always)]
    pub(super) fn new(p: &Position, v: Variant, out: &'a mut Vec<Turn>) -> Generator<'a> {
        let on_board = |c: Option<Cell>| c.filter(|&c| c < p.size * p.size).map_or(NONE, |c| p.board_index(c));
        let goals = [on_board(p.goal_of(Colour::White)), on_board(p.goal_of(Colour::Black))];
        let mut g = Generator {
            b: p.board.0,
            m: p.board.0,
            cell_of: &CELL_OF[usize::from(p.size)],
            cells_row: board::cells_in_row(p.size),
            size: p.size,
            me: board::colour_bit(p.to_move),
            ball: on_board(Some(p.ball)),
            goals,
            target: goals[p.to_move.other().index()],
            coverable: false,
            covering: NONE,
            passer_near: false,
            strict: false,
            shared: Shared::new(),
            v,
            with_transfers: true,
            transfers_only: false,
            out,
            action: Action::Pass,
            moves: [0; MOST_MOVES],
        };
        g.survey();
        g
    }

    /// The actions alone, without their transfers.
    pub(super) fn actions_only(mut self) -> Self {
        self.with_transfers = false;
        self
    }

    /// What every stack's moves share: the cover in place, the stacks that may be covered, a passer by the
    /// ball.
    fn survey(&mut self) {
        for i in [self.ball, self.goals[0], self.goals[1]] {
            if i == self.ball || self.m[i] == EMPTY {
                self.m[i] = OFF;
            }
        }
        if self.target != NONE {
            for d in DIRECTIONS {
                let c = self.target.wrapping_add_signed(d);
                let x = self.b[c];
                // An enemy stack, not covered, not carrying the ball, next to its owner's goal (I-19, I-22).
                if x != EMPTY && x != OFF && x & 8 != self.me && !covers(x) && c != self.ball {
                    self.coverable = true;
                    self.m[c] |= COVERABLE;
                }
            }
        }
        if self.coverable {
            // Which stack covers matters only when there is a stack to cover (I-21).
            self.covering = self.covering_stack();
        }
        self.passer_near =
            self.ball != NONE && DIRECTIONS.iter().any(|&d| self.passer(self.ball.wrapping_add_signed(d)));
        let carrier = self.b[self.ball];
        let stolen = self.ball != NONE && carrier != EMPTY && carrier & 8 != self.me;
        self.strict = self.v.steal_requires_moved_piece && stolen;
    }

    /// The square of the side to move's covering stack, [`NONE`] if none (I-21): each row's cells read 16 at
    /// a time, a covering stack's byte the one with covered-stack bits.
    fn covering_stack(&self) -> usize {
        // The covered-stack bits (4 to 6) of each square on the board, from the board's bit 7 mask.
        let cells = (self.cells_row >> 7) * 0x70;
        let rows = (1..=usize::from(self.size)).map(|r| r * board::STRIDE);
        // Most boards have no covering stack at all: one pass without branches tells.
        if rows.clone().fold(0, |any, at| any | self.row(at)) & cells == 0 {
            return NONE;
        }
        for at in rows {
            let mut t = self.row(at) & cells;
            while t != 0 {
                let k = t.trailing_zeros() as usize / 8;
                if self.b[at + k] & 8 == self.me {
                    return at + k;
                }
                t &= !(0xFF << (8 * k));
            }
        }
        NONE
    }

    #[inline]
    fn cell(&self, i: usize) -> Cell {
        self.cell_of[i]
    }

    /// Whether the side to move's stack on `i` may pass the ball: a passage stone or a size-3 double (I-4,
    /// I-13).
    #[inline]
    fn passer(&self, i: usize) -> bool {
        // The top stack's low nibble, its colour bit made 0 for the mover's: 1 or 3 (bit 1 free).
        (self.b[i] ^ self.me) & 0xD == 1
    }

    /// Whether the ball may be passed to `i`: a rest stone or size-4 double of the side to move, or the goal
    /// it attacks, the only empty cell a transfer reaches (I-13, I-17).
    #[inline]
    fn receives(&self, i: usize) -> bool {
        match self.b[i] {
            EMPTY => i == self.target,
            x => {
                let low = x & 0xF;
                low == self.me | 2 || low == self.me | 4
            }
        }
    }

    /// Whether a stone may enter `i`: on the board, no stone, no goal (I-17), and not the ball lying alone.
    #[inline]
    fn open(&self, i: usize) -> bool {
        self.m[i] == EMPTY
    }

    /// Whether the stack on `i` may be covered by the side to move (I-19, I-22): marked in `m`.
    #[inline]
    fn coverable(&self, i: usize) -> bool {
        self.m[i] & 0xF0 == COVERABLE
    }

    /// Whether a stack, a double or not, may jump the piece on `over` (I-6, I-8, I-9, I-23).
    #[inline]
    fn jumpable(&self, jumper: u8, over: usize) -> bool {
        JUMPABLE[usize::from(self.m[over])] & jumper != 0
    }
}

impl Generator<'_> {
    /// Every turn of the side to move, in order (I-2): each stack's moves then its size change, a pass when
    /// there is no action (or always, I-A2 switched), each action followed by its transfer chains' ends.
    pub(super) fn all(&mut self) {
        let start = self.out.len();
        for row in 1..=usize::from(self.size) {
            let at = row * board::STRIDE;
            let mut mine = self.own_stacks(at);
            while mine != 0 {
                let i = at + mine.trailing_zeros() as usize / 8;
                mine &= mine - 1;
                if self.transfers_only && !self.may_pass(i) {
                    self.resize(i);
                } else {
                    self.stack_actions(i);
                }
            }
        }
        if self.out.len() == start && self.transfers_only {
            // A stack passed over may have moves: whether a pass is legal is not known, so list every turn.
            self.transfers_only = false;
            self.all();
        } else if self.out.len() == start || !self.v.action_mandatory {
            self.action(Action::Pass, [NONE, NONE]);
        }
    }

    /// The turns a transfer may end (I-13..I-18), [`Generator::all`]'s, and others, but not the moves of a
    /// stack that no transfer can follow (with no passer by the ball, a stack that passes nothing).
    pub(super) fn transfers_only(mut self) -> Self {
        self.transfers_only = true;
        self
    }

    /// The 16 squares from `at` (a row and its margin) as one number ([`board::row`]).
    #[inline]
    fn row(&self, at: usize) -> u128 {
        board::row(&self.b, at)
    }

    /// The side to move's stacks on the row of squares from `at`, but the ball carrier (I-12: it stays put;
    /// a covered stack never moves, I-20), as a byte mask read 16 squares at a time: bit 7 of byte `k` for
    /// square `at + k`.
    #[inline]
    fn own_stacks(&self, at: usize) -> u128 {
        let mut mine = board::stacks_in_row(self.row(at), self.me) & self.cells_row;
        if (at..at + 16).contains(&self.ball) {
            mine &= !(0x80 << (8 * (self.ball - at)));
        }
        mine
    }

    /// The actions of the stack on `i`: its moves, then its size change (I-11; I-12: a size-4 double
    /// carrying the ball keeps its size).
    fn stack_actions(&mut self, i: usize) {
        let n = self.moves(i);
        let from = self.cell(i);
        let may_pass = self.with_transfers && self.may_pass(i);
        if may_pass {
            self.out.reserve(n + 1);
            for k in 0..n {
                let to = usize::from(self.moves[k]);
                let action = Action::Move { from, to: self.cell(to), cover: self.b[to] != EMPTY };
                self.out.push(Turn { action, ball_to: None });
                // `may_transfer(to)`, less what `may_pass` has settled (the ball is on the board) and what a
                // move's square always is (on the board): asked of every move, and the two tests cost 2.5%
                // of a playout's instructions.
                if self.passer_near || board::adjacent(to, self.ball) {
                    self.transfers_after(action, [i, to]);
                }
            }
        } else {
            let (b, cell_of) = (&self.b, self.cell_of);
            self.out.extend(self.moves[..n].iter().map(|&to| {
                let to = usize::from(to);
                Turn { action: Action::Move { from, to: cell_of[to], cover: b[to] != EMPTY }, ball_to: None }
            }));
        }
        self.resize(i);
    }

    /// Whether a transfer may follow a move of the stack on `i`: with no passer by the ball, only this stack,
    /// moved next to it, could pass it on (I-13).
    #[inline]
    fn may_pass(&self, i: usize) -> bool {
        self.ball != NONE && (self.passer_near || self.passer(i))
    }

    /// The size change of the stack on `i`, if a double (I-11; I-12: a size-4 double carrying the ball keeps
    /// its size).
    #[inline]
    fn resize(&mut self, i: usize) {
        if size(self.b[i]) >= 3 && !covers(self.b[i]) {
            self.action(Action::Resize { at: self.cell(i) }, [NONE, i]);
        }
    }

    /// The stack on `from`'s destinations, each once, into `self.moves`: its steps, its jump sequences'
    /// landings, and the double's slides with a jump; returns how many.
    pub(super) fn moves(&mut self, from: usize) -> usize {
        let double = size(self.b[from]) >= 3;
        let mut s = Search {
            from,
            double,
            jumper: if !double {
                1
            } else if self.me == 0 {
                2
            } else {
                4
            },
            can_cover: self.covering == NONE || self.covering == from,
            found: Squares::default(),
            landed: Squares::default(),
            n: 0,
        };
        s.landed.add(from);
        for d in DIRECTIONS {
            if double {
                s.step(self, from.wrapping_add_signed(d));
            } else {
                s.stone_step(self, from.wrapping_add_signed(d));
            }
        }
        // The mover's own square reads as empty while it moves: it never jumps itself, and never lands
        // there (it has landed there already).
        let own = std::mem::replace(&mut self.m[from], EMPTY);
        s.jumps(self, from);
        if s.double {
            for d in DIRECTIONS {
                s.slide_then_jump(self, d);
            }
        }
        self.m[from] = own;
        s.n
    }

    /// The first `n` destinations found by [`Generator::moves`], as board indices.
    pub(super) fn destinations(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.moves[..n].iter().map(|&i| usize::from(i))
    }

    /// Lists `action`, then, when a transfer may follow it, each cell its transfer chains can leave the ball
    /// on. `squares` are the squares the action changes: where a stack leaves, and where it arrives or
    /// resizes (`NONE` for none).
    #[inline]
    fn action(&mut self, action: Action, squares: [usize; 2]) {
        self.out.push(Turn { action, ball_to: None });
        let resize = matches!(action, Action::Resize { .. });
        if self.with_transfers && (!resize || self.v.size_change_allows_transfer) && self.may_transfer(squares[1]) {
            self.transfers_after(action, squares);
        }
    }

    /// Lists the cells the transfer chains after `action` can leave the ball on (see [`Generator::action`]).
    #[inline(never)]
    fn transfers_after(&mut self, action: Action, squares: [usize; 2]) {
        let resize = matches!(action, Action::Resize { .. });
        self.action = action;
        if !self.strict && self.passer_near && self.unaffected(squares) {
            for k in 0..self.shared.n {
                self.out.push(Turn { action, ball_to: Some(self.shared.ends[k]) });
            }
            return;
        }
        let undo = squares.map(|i| self.b[i]);
        if let Action::Move { cover, .. } = action {
            board::apply_move(&mut self.b, squares[0], squares[1], cover);
        } else if resize {
            board::apply_resize(&mut self.b, squares[1]);
        }
        if !self.passer_near && !self.passer(squares[1]) {
            // No passer was next to the ball, and the one stack the action put there passes nothing.
            self.b[squares[1]] = undo[1];
            self.b[squares[0]] = undo[0];
            return;
        }
        let moved = if resize { NONE } else { squares[1] };
        self.chains(moved, false);
        self.b[squares[1]] = undo[1];
        self.b[squares[0]] = undo[0];
    }

    /// Whether a transfer may follow an action that moves to or resizes on `site`. A transfer needs a passer
    /// next to the ball (I-13), and an action changes only the cell it moves to or resizes, so with none
    /// beforehand only an action next to the ball can make one.
    fn may_transfer(&self, site: usize) -> bool {
        self.ball != NONE && (self.passer_near || (site != NONE && board::adjacent(site, self.ball)))
    }

    /// Whether an action changing `squares` leaves the transfer chains as they are without it: no square
    /// the chains read (within two of a cell they pass the ball from) changes. The chains without an action
    /// are worked out the first time they are asked for.
    fn unaffected(&mut self, squares: [usize; 2]) -> bool {
        if !self.shared.ready {
            self.shared.ready = true;
            let action = self.action;
            self.chains(NONE, true);
            self.action = action;
        }
        !squares.iter().any(|&i| self.shared.zone.has(i))
    }
}

/// The transfer chains of the position with no action taken: their ends, in order, and the squares they
/// read, shared by every action that changes none of those.
pub(super) struct Shared {
    ready: bool,
    ends: [Cell; MOST_MOVES],
    n: usize,
    /// Every square within two of a cell the ball is passed from.
    zone: Squares,
}

impl Shared {
    fn new() -> Shared {
        Shared { ready: false, ends: [0; MOST_MOVES], n: 0, zone: Squares::default() }
    }

    /// Marks the squares a transfer from `at` reads: passers next to it, receivers two away.
    fn read_around(&mut self, at: usize) {
        for dr in -2..=2isize {
            for dc in -2..=2isize {
                let i = at as isize + dr * board::STRIDE as isize + dc;
                if (0..SQUARES as isize).contains(&i) {
                    self.zone.add(i as usize);
                }
            }
        }
    }
}

/// The mark in `Generator::m` of a stack the side to move may cover: the covered-colour bit of a piece that
/// covers nothing, a byte no piece has.
const COVERABLE: u8 = 0x80;

/// Who may jump a square's byte (I-6, I-8, I-9, I-23): bit 0 a passage or rest stone, bit 1 White's double,
/// bit 2 Black's. Stones jump stones, the double jumps stones and the enemy double; nobody jumps an empty or
/// off-board square, and the ball carrier reads as off the board.
static JUMPABLE: [u8; 256] = {
    let mut t = [0; 256];
    let mut x = 1;
    while x < 255 {
        let top = x as u8 & 7;
        t[x] = match top {
            1 | 2 => 7,
            3 | 4 if x & 8 != 0 => 2,
            3 | 4 => 4,
            _ => 0,
        };
        x += 1;
    }
    t
};

/// One stack's moves being searched.
struct Search {
    from: usize,
    double: bool,
    /// The mover's bit in [`JUMPABLE`].
    jumper: u8,
    /// Whether the mover may still cover a stack (I-21).
    can_cover: bool,
    /// The double's destinations so far (a stone's need no set, see [`Search::add`]).
    found: Squares,
    /// The cells a jump sequence has landed on, which keeps it from looping (I-7).
    landed: Squares,
    n: usize,
}

impl Search {
    /// Whether the mover may end a step or a jump on `to`: an open cell (I-5, I-6), or a stack it may cover
    /// (I-19). Both tests are made, with no branch between them, so a stone's steps stay branch-free.
    #[inline(always)]
    fn may_enter(&self, g: &Generator, to: usize) -> bool {
        g.open(to) | (self.can_cover & g.coverable(to))
    }

    /// Records a jump's landing, once. `landed` keeps a landing from being found twice; only the double's
    /// may also be one of its steps (a slide can bring it back next to where it started), so only the
    /// double's are checked against `found`. A stone's landing lies an even number of squares away along
    /// both axes, and a step one square away along one of them: they never meet.
    #[inline]
    fn add(&mut self, g: &mut Generator, to: usize) {
        if self.double {
            if self.found.has(to) {
                return;
            }
            self.found.add(to);
        }
        g.moves[self.n] = to as u8;
        self.n += 1;
    }

    /// The double's step to `to`, an open cell (I-5), or onto a stack to cover it (I-19). Steps come first
    /// and reach eight different squares, so none is found twice; they are kept in `found` for its slides.
    #[inline]
    fn step(&mut self, g: &mut Generator, to: usize) {
        if self.may_enter(g, to) {
            self.found.add(to);
            g.moves[self.n] = to as u8;
            self.n += 1;
        }
    }

    /// A stone's step (see [`Search::step`]), with no set of destinations to keep (see [`Search::add`]):
    /// written whether or not it is one and kept only if it is, so that no branch depends on the square.
    #[inline]
    fn stone_step(&mut self, g: &mut Generator, to: usize) {
        g.moves[self.n] = to as u8;
        self.n += usize::from(self.may_enter(g, to));
    }

    /// Every landing of a jump sequence from `at` (I-6, I-7): each landing is a move; a covering landing
    /// ends the sequence (I-22).
    #[inline(always)]
    fn jumps(&mut self, g: &mut Generator, at: usize) {
        for d in DIRECTIONS {
            let over = at.wrapping_add_signed(d);
            if g.jumpable(self.jumper, over) {
                self.try_land(g, over.wrapping_add_signed(d));
            }
        }
    }

    /// Lands a jump on `to` if it may land there, and has not yet: an open cell or a stack it may cover.
    /// Most jumps tried would land on a stone, told here before any call.
    #[inline(always)]
    fn try_land(&mut self, g: &mut Generator, to: usize) {
        if self.may_enter(g, to) && !self.landed.has(to) {
            self.land(g, to);
        }
    }

    /// Lands a jump on `to` (see [`Search::try_land`]): an open cell continues the sequence, a coverable
    /// stack ends it, marked landed so that another sequence finds it no more.
    #[inline(never)]
    fn land(&mut self, g: &mut Generator, to: usize) {
        self.add(g, to);
        self.landed.add(to);
        if g.open(to) {
            self.jumps(g, to);
        }
    }

    /// The double's slide over one or more empty cells in direction `d`, then a jump the same way (I-9,
    /// I-10).
    fn slide_then_jump(&mut self, g: &mut Generator, d: isize) {
        let mut at = self.from.wrapping_add_signed(d);
        if !g.open(at) {
            return;
        }
        while g.open(at.wrapping_add_signed(d)) {
            at = at.wrapping_add_signed(d);
        }
        let over = at.wrapping_add_signed(d);
        if g.jumpable(self.jumper, over) {
            self.try_land(g, over.wrapping_add_signed(d));
        }
    }
}

/// For a passer in each of the eight directions from the ball, the steps from it to the squares two from the
/// ball (the receivers' squares, I-13), in [`DIRECTIONS`] order, 0 after the last: three from a side, five
/// from a corner.
const ONWARD: [[isize; 5]; 8] = {
    let mut t = [[0; 5]; 8];
    let mut a = 0;
    while a < 8 {
        let (mut b, mut n) = (0, 0);
        while b < 8 {
            let (d, e) = (DIRECTIONS[a], DIRECTIONS[b]);
            let (col, row) = (offset_col(d) + offset_col(e), offset_row(d) + offset_row(e));
            if col.abs() == 2 || row.abs() == 2 {
                t[a][n] = e;
                n += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// The column and row steps of a direction's board offset.
const fn offset_col(d: isize) -> isize {
    (d + 17) % 16 - 1
}

const fn offset_row(d: isize) -> isize {
    (d + 17) / 16 - 1
}

/// The single transfers from a ball on `at`: (passer, receiver) squares, receivers in `visited` skipped
/// (I-13..I-17, I-A6). At most 32: four passers on a side of `at` reach three cells two away, four on a
/// corner five.
pub(super) struct Transfers {
    pub pairs: [(u8, u8); 32],
    pub n: usize,
}

impl Generator<'_> {
    #[inline(always)]
    pub(super) fn transfers(&self, at: usize, visited: &Squares) -> Transfers {
        let mut t = Transfers { pairs: [(0, 0); 32], n: 0 };
        for (d, onward) in DIRECTIONS.iter().zip(&ONWARD) {
            let passer = at.wrapping_add_signed(*d);
            if !self.passer(passer) {
                continue;
            }
            for &e in onward.iter().take_while(|&&e| e != 0) {
                let r = passer.wrapping_add_signed(e);
                if !visited.has(r) && self.receives(r) {
                    t.pairs[t.n] = (passer as u8, r as u8);
                    t.n += 1;
                }
            }
        }
        t
    }

    /// Every cell a transfer chain can leave the ball on, each listed once as a turn of `self.action` in
    /// the order a depth-first walk of the chains first reaches it (I-15); a chain stops at the goal
    /// (I-18). Under `steal_requires_moved_piece`, a first transfer off an enemy stone must use the stack
    /// that moved (I-16, I-A7).
    #[inline(always)]
    fn chains(&mut self, moved: usize, shared: bool) {
        let mut visited = Squares::default();
        visited.add(self.ball);
        let mut ends = Squares::default();
        if shared {
            self.shared.read_around(self.ball);
        }
        let first = self.transfers(self.ball, &visited);
        for &(passer, to) in &first.pairs[..first.n] {
            let (passer, to) = (usize::from(passer), usize::from(to));
            if !self.strict || (moved != NONE && (moved == passer || moved == to)) {
                self.follow(to, &mut visited, &mut ends, shared);
            }
        }
    }

    /// Records the ball arriving on `to` and every chain that goes on from there (I-15).
    fn follow(&mut self, to: usize, visited: &mut Squares, ends: &mut Squares, shared: bool) {
        if !ends.has(to) {
            ends.add(to);
            let end = self.cell(to);
            if shared {
                self.shared.ends[self.shared.n] = end;
                self.shared.n += 1;
            } else {
                self.out.push(Turn { action: self.action, ball_to: Some(end) });
            }
        }
        if to != self.target {
            visited.add(to);
            if shared {
                self.shared.read_around(to);
            }
            let next = self.transfers(to, visited);
            for &(_, r) in &next.pairs[..next.n] {
                self.follow(usize::from(r), visited, ends, shared);
            }
            visited.remove(to);
        }
    }
}
