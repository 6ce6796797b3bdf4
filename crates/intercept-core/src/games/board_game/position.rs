//! A position of the board game Intercept (rules I-1..I-23 of `docs/rules/intercept-board-game.md`): the square
//! board, the stacks on it, the ball and the goal cells, and whose turn it is.
//!
//! A [`Stack`] is one player's stones on a cell, its role set by its size (I-4); a [`Piece`] is what stands
//! on a cell: a stack, possibly covering an enemy stack (I-19). Those, the side ([`Colour`]) and the [`Cell`]
//! are defined in `types`, which the board's encoding reads too, and re-exported here. Cells are numbered
//! `col + size * row`, written algebraically (`a1` bottom left, C.1). [`Position::from_diagram`] reads the
//! diagram strings of the seed's page (C.0), which is how the initial setup and the test positions are
//! written.

use super::types::BadPosition;
use std::fmt;

pub use super::types::{Cell, Colour, Piece, Stack};

use super::board::{self, Board};

/// The ball's cell in a test position that has none (the jump examples): never a cell of the board.
pub const NO_BALL: Cell = u8::MAX;

/// A position: the board, the ball, the goals, and the side to move. It is `Copy` (a few hundred bytes, no
/// heap), so a search or a playout plays a turn on a copy, or in place, without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub size: u8,
    /// The board as a [`Board`]: a padded mailbox of encoded pieces.
    pub(super) board: Board,
    pub ball: Cell,
    /// Each side's own goal, by [`Colour`]: the cell the other side scores in (C.2, I-18).
    goals: [Option<Cell>; 2],
    pub to_move: Colour,
}

impl Position {
    /// The 13×13 start position of C.2, decoded from the page's diagram, White to move (I-3).
    pub fn start() -> Position {
        Position::start_with(Colour::White)
    }

    /// The start position with `first` to move (I-A1).
    pub fn start_with(first: Colour) -> Position {
        let empty = "............./";
        let diagram = format!(
            "13,13,.12121[eEeEeE]12121./......3....../{}{}{}{}......[eeeeer]....../{}{}{}{}......8....../.67676[eEeEeE]67676.",
            empty, empty, empty, empty, empty, empty, empty, empty
        );
        Position::from_diagram(&diagram, first).expect("the start diagram")
    }

    /// Reads a diagram string (C.0): `rows,cols,` then rows top first separated by `/`; `.` empty; `1`-`5`
    /// Black stacks, `6`-`9`,`0` White stacks of 1-5; `[......]` six slots top to bottom, `r` the ball,
    /// `w` White, `x` Black, `E` the goal mark. A goal in the top half is Black's, in the bottom half White's.
    pub fn from_diagram(text: &str, to_move: Colour) -> Result<Position, BadPosition> {
        let mut parts = text.splitn(3, ',');
        let (rows, cols) = (parts.next(), parts.next());
        let size: u8 = rows.and_then(|r| r.parse().ok()).ok_or("no row count")?;
        if cols.and_then(|c| c.parse::<u8>().ok()) != Some(size) || !(3..=15).contains(&size) {
            return Err(BadPosition::from(format!("{text:?}: the board must be square, 3 to 15 cells")));
        }
        let mut p = Position::blank(size, [None; 2], 0, to_move);
        let mut ball = None;
        for (i, line) in parts.next().unwrap_or_default().split('/').enumerate() {
            let row = size.checked_sub(1 + i as u8).ok_or("too many rows")?;
            let mut col = 0u8;
            let mut chars = line.chars();
            while let Some(c) = chars.next() {
                let cell = p.cell(col, row).ok_or_else(|| format!("row {} is too long", row + 1))?;
                match c {
                    '.' => {}
                    '1'..='5' => p.set(cell, Some(plain(Colour::Black, c as u8 - b'0'))),
                    '6'..='9' => p.set(cell, Some(plain(Colour::White, c as u8 - b'5'))),
                    '0' => p.set(cell, Some(plain(Colour::White, 5))),
                    '[' => {
                        let slots: String = chars.by_ref().take_while(|&c| c != ']').collect();
                        if slots.contains('E') {
                            let owner = if row >= size / 2 { Colour::Black } else { Colour::White };
                            p.goals[owner.index()] = Some(cell);
                        }
                        if slots.contains('r') {
                            ball = Some(cell);
                        }
                        let count = |s: char| slots.chars().filter(|&c| c == s).count() as u8;
                        let stack = match (count('w'), count('x')) {
                            (0, 0) => None,
                            (w, 0) => Some(plain(Colour::White, w)),
                            (0, x) => Some(plain(Colour::Black, x)),
                            _ => {
                                return Err(BadPosition::from(format!(
                                    "[{slots}]: mixed stacks are not written this way"
                                )));
                            }
                        };
                        p.set(cell, stack);
                    }
                    _ => return Err(BadPosition::from(format!("{c:?} is not a diagram character"))),
                }
                col += 1;
            }
        }
        p.ball = ball.unwrap_or(NO_BALL);
        Ok(p)
    }

    /// An empty board of `size` cells a side with these goals (White's, then Black's) and the ball, `to_move`
    /// to move: what a position written out ([`super::wire`]) is read back onto.
    pub(crate) fn blank(size: u8, goals: [Option<Cell>; 2], ball: Cell, to_move: Colour) -> Position {
        Position { size, board: Board::empty(size), ball, goals, to_move }
    }

    /// The cell at `col`, `row`, if on the board.
    pub fn cell(&self, col: u8, row: u8) -> Option<Cell> {
        (col < self.size && row < self.size).then(|| col + self.size * row)
    }

    /// The cell one step from `c` in direction `(dc, dr)`, if on the board.
    pub fn towards(&self, c: Cell, (dc, dr): (i8, i8)) -> Option<Cell> {
        let (col, row) = ((c % self.size) as i8 + dc, (c / self.size) as i8 + dr);
        (col >= 0 && row >= 0).then(|| self.cell(col as u8, row as u8)).flatten()
    }

    /// Chebyshev distance between two cells (I-13).
    #[inline]
    pub fn distance(&self, a: Cell, b: Cell) -> u8 {
        let ((ac, ar), (bc, br)) = (self.col_row(a), self.col_row(b));
        ac.abs_diff(bc).max(ar.abs_diff(br))
    }

    /// The column and row of `c` (`c % size`, `c / size`), looked up rather than divided: the search
    /// measures distances for every turn it ranks.
    #[inline]
    fn col_row(&self, c: Cell) -> (u8, u8) {
        COL_ROW[usize::from(self.size)][usize::from(c)]
    }

    /// A cell by name: `a1` is bottom left (C.1).
    pub fn named(&self, name: &str) -> Option<Cell> {
        let mut chars = name.chars();
        let col = chars.next()?.to_ascii_lowercase() as u8;
        let row: u8 = chars.as_str().parse().ok()?;
        self.cell(col.checked_sub(b'a')?, row.checked_sub(1)?)
    }

    /// A cell's name.
    pub fn name(&self, c: Cell) -> String {
        format!("{}{}", (b'a' + c % self.size) as char, c / self.size + 1)
    }

    /// What stands on `c`; nothing off the board (such as [`NO_BALL`]).
    pub fn at(&self, c: Cell) -> Option<Piece> {
        if c >= self.size * self.size {
            return None;
        }
        self.board.piece(self.board_index(c))
    }

    pub(crate) fn set(&mut self, c: Cell, piece: Option<Piece>) {
        let i = self.board_index(c);
        self.board.set(i, piece);
    }

    /// The board's index of cell `c` (which must be on the board).
    pub(super) fn board_index(&self, c: Cell) -> usize {
        let (col, row) = self.col_row(c);
        board::index(col, row)
    }

    /// The cell at the board's index `i` (which must be on the board).
    pub(super) fn cell_at(&self, i: usize) -> Cell {
        let (col, row) = board::col_row(i);
        col + self.size * row
    }

    /// `side`'s own goal: the cell its opponent scores in.
    pub fn goal_of(&self, side: Colour) -> Option<Cell> {
        self.goals[side.index()]
    }

    /// The goal the side to move attacks: its opponent's own goal (I-18).
    pub fn target(&self) -> Option<Cell> {
        self.goal_of(self.to_move.other())
    }

    /// The same board with the other side to move: what the opponent could do were it its turn.
    pub fn passed(&self) -> Position {
        Position { to_move: self.to_move.other(), ..*self }
    }

    /// Whether the ball lies on an enemy stone of the side to move: taking it from there is a steal (I-14).
    pub fn ball_on_enemy(&self) -> bool {
        self.at(self.ball).is_some_and(|x| x.top.colour != self.to_move)
    }

    /// Whether the stack on `c` is one of the side to move's that may pass the ball (I-4, I-13).
    pub fn passer(&self, c: Cell) -> bool {
        self.at(c).is_some_and(|x| x.top.colour == self.to_move && x.top.is_passage_type())
    }

    pub fn is_goal(&self, c: Cell) -> bool {
        self.goals.contains(&Some(c))
    }

    /// Whether a stone may enter `c`: on the board, no stone, no goal (I-17), and not the ball lying alone.
    pub fn is_open(&self, c: Cell) -> bool {
        self.at(c).is_none() && !self.is_goal(c) && c != self.ball
    }

    /// Every cell, in order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        0..self.size * self.size
    }

    /// The cells of `side`'s stacks (covering stacks included), in cell order.
    pub fn stacks_of(&self, side: Colour) -> impl Iterator<Item = Cell> + '_ {
        let (bit, n, cells) = (board::colour_bit(side), self.size, board::cells_in_row(self.size));
        // Row by row, 16 squares at a time: byte k + 1 of a row is column k.
        (0..n).flat_map(move |row| {
            let mut mine = board::stacks_in_row(board::row(&self.board.0, board::index(0, row) - 1), bit) & cells;
            std::iter::from_fn(move || {
                let k = (mine != 0).then(|| mine.trailing_zeros() as u8 / 8)?;
                mine &= mine - 1;
                Some(k - 1 + n * row)
            })
        })
    }

    /// The cell of the stack `side` covers, if any (I-21).
    pub fn cover_of(&self, side: Colour) -> Option<Cell> {
        self.cells().find(|&c| self.at(c).is_some_and(|p| p.top.colour == side && p.under.is_some()))
    }

    /// The stones of each side on the board: White's, then Black's (covered stacks included).
    pub fn stones(&self) -> [u32; 2] {
        let mut n = [0; 2];
        for p in self.cells().filter_map(|c| self.at(c)) {
            for s in std::iter::once(p.top).chain(p.under) {
                n[s.colour.index()] += u32::from(s.size);
            }
        }
        n
    }
}

/// `(c % size, c / size)` for every board size up to 15 and every cell number.
static COL_ROW: [[(u8, u8); 256]; 16] = {
    let mut t = [[(0, 0); 256]; 16];
    let mut size = 1;
    while size < 16 {
        let mut c = 0;
        while c < 256 {
            t[size][c] = ((c % size) as u8, (c / size) as u8);
            c += 1;
        }
        size += 1;
    }
    t
};

fn plain(colour: Colour, size: u8) -> Piece {
    Piece { top: Stack { colour, size }, under: None }
}

/// The board as text, top row first: `P`/`R`/`D` White passage, rest, double (with its size), lower case
/// for Black, `*` the ball alone, `(..)` around the ball's carrier, `+` a covering stack, `G` a goal.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.size).rev() {
            write!(f, "{:>2} ", row + 1)?;
            for col in 0..self.size {
                let c = col + self.size * row;
                let text = match self.at(c) {
                    None if c == self.ball => " * ".to_owned(),
                    None if self.is_goal(c) => " G ".to_owned(),
                    None => " . ".to_owned(),
                    Some(p) => {
                        let mut t = glyph(p.top);
                        t.push(if p.under.is_some() { '+' } else { ' ' });
                        if c == self.ball { format!("({})", t.trim_end()) } else { format!(" {t}") }
                    }
                };
                write!(f, "{text:<4}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for col in 0..self.size {
            write!(f, " {}  ", (b'a' + col) as char)?;
        }
        writeln!(f)
    }
}

/// A stack's letters on a board: `P`, `R`, `D3`/`D4`, upper case for White, lower case for Black.
pub fn glyph(s: Stack) -> String {
    let g = match s.size {
        1 => "P".to_owned(),
        2 => "R".to_owned(),
        n => format!("D{n}"),
    };
    if s.colour == Colour::White { g } else { g.to_lowercase() }
}
