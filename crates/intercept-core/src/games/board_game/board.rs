//! The board of a [`super::position::Position`] as the move generator reads it: a [`Board`], a fixed array of
//! one byte a square laid out 16 squares a row with a ring of off-board squares around the playing area, so a
//! step, jump or slide (I-5..I-10) is one addition and a bounds check is one byte compare, and a position is
//! `Copy` with no heap behind it.
//!
//! Board index `i` holds the cell at column `i % 16 - 1`, row `i / 16 - 1`; a board is at most 15 squares a
//! side (C.0), so column 0 of each row is the ring on both sides, and rows 0 and `size + 1` are the ring
//! above and below. A square's byte is [`EMPTY`], [`OFF`] (off the board) or a piece: its top stack's size
//! (bits 0-2) and colour (bit 3, Black), and the covered stack's size (bits 4-6, 0 none) and colour (bit 7).

use super::types::{Colour, Piece, Stack};

/// Board squares a row: 15 cells and the ring's one column.
pub const STRIDE: usize = 16;
/// Board squares in all: rows 0 to 16 of 16, and the last row's diagonal neighbours.
pub const SQUARES: usize = STRIDE * 17 + 2;
/// A square with nothing on it.
pub const EMPTY: u8 = 0;
/// A square off the board (never a piece: no stack has 7 stones).
pub const OFF: u8 = 0xFF;

/// The eight directions (I-1) as board offsets, in the order the turns are listed: (-1,-1), (0,-1), (1,-1),
/// (-1,0), (1,0), (-1,1), (0,1), (1,1) as (column, row).
pub const DIRECTIONS: [isize; 8] = [-17, -16, -15, -1, 1, 15, 16, 17];

/// The board of a position: one byte a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board(pub [u8; SQUARES]);

/// The board index of the cell at `col`, `row`.
pub fn index(col: u8, row: u8) -> usize {
    (usize::from(row) + 1) * STRIDE + usize::from(col) + 1
}

/// The column and row of the board index `i` (on the board).
pub fn col_row(i: usize) -> (u8, u8) {
    ((i % STRIDE) as u8 - 1, (i / STRIDE) as u8 - 1)
}

/// A byte's top stack's size (0 on an empty square).
#[inline]
pub fn size(b: u8) -> u8 {
    b & 7
}

/// Whether a piece's top stack is Black's.
#[inline]
pub fn black(b: u8) -> bool {
    b & 8 != 0
}

/// Whether a piece covers another (I-19).
#[inline]
pub fn covers(b: u8) -> bool {
    b & 0x70 != 0
}

/// A piece's byte, its colour bit for `c`.
pub fn colour_bit(c: Colour) -> u8 {
    if c == Colour::Black { 8 } else { 0 }
}

fn encode(s: Stack) -> u8 {
    s.size | colour_bit(s.colour)
}

fn decode(b: u8) -> Stack {
    Stack { colour: if black(b) { Colour::Black } else { Colour::White }, size: size(b) }
}

impl Board {
    /// An empty board of `size` cells a side inside its ring.
    pub fn empty(size: u8) -> Board {
        let mut b = [OFF; SQUARES];
        for row in 0..size {
            for col in 0..size {
                b[index(col, row)] = EMPTY;
            }
        }
        Board(b)
    }

    /// What stands on board index `i`.
    pub fn piece(&self, i: usize) -> Option<Piece> {
        match self.0[i] {
            EMPTY | OFF => None,
            b => Some(Piece { top: decode(b), under: covers(b).then(|| decode(b >> 4)) }),
        }
    }

    pub fn set(&mut self, i: usize, piece: Option<Piece>) {
        self.0[i] = piece.map_or(EMPTY, |p| encode(p.top) | p.under.map_or(0, |u| encode(u) << 4));
    }
}

/// Moves the stack on `from` to `to`, covering the stack there when `cover` (I-19); a coverer leaves the
/// stack it covered behind, free again (I-21).
pub fn apply_move(b: &mut [u8; SQUARES], from: usize, to: usize, cover: bool) {
    let moving = b[from];
    b[from] = if covers(moving) { moving >> 4 } else { EMPTY };
    b[to] = (moving & 0xF) | if cover { (b[to] & 0xF) << 4 } else { 0 };
}

/// The double on `i` changes between 3 and 4 stones (I-11).
pub fn apply_resize(b: &mut [u8; SQUARES], i: usize) {
    b[i] = (b[i] & !7) | (7 - size(b[i]));
}

/// The 16 squares from `at` (a row of the board and its ring square) as one number: square `at + k` is
/// byte `k`.
#[inline]
pub fn row(b: &[u8; SQUARES], at: usize) -> u128 {
    u128::from_le_bytes(b[at..at + 16].try_into().expect("a row of 16 squares"))
}

/// Bit 7 of the bytes of the first `size` cells of a row read by [`row`] (columns 1 to `size` of 16).
pub fn cells_in_row(size: u8) -> u128 {
    u128::from_le_bytes([0x80; 16]) & (((1u128 << (8 * usize::from(size))) - 1) << 8)
}

/// The stacks of the colour with bit `colour` among the squares of `w` (a [`row`]), as a byte mask: bit 7 of
/// byte `k` when square `k` holds one. Ring squares read as Black stacks; `cells_in_row` masks them.
#[inline]
pub fn stacks_in_row(w: u128, colour: u8) -> u128 {
    const LOW: u128 = u128::from_le_bytes([0x7F; 16]);
    // Bit 7 of each byte: set when the byte is not 0, then when its colour bit (3) is `colour`.
    let occupied = ((w & LOW) + LOW) | w;
    let colour = if colour == 0 { !(w << 4) } else { w << 4 };
    occupied & colour & !LOW
}

/// Each board index's cell number (`col + size * row`), for every board size up to 15; 0 off the board.
pub static CELL_OF: [[u8; SQUARES]; 16] = {
    let mut t = [[0; SQUARES]; 16];
    let mut size = 1;
    while size < 16 {
        let mut row = 0;
        while row < size {
            let mut col = 0;
            while col < size {
                t[size][(row + 1) * STRIDE + col + 1] = (col + size * row) as u8;
                col += 1;
            }
            row += 1;
        }
        size += 1;
    }
    t
};

/// Whether two board indices of cells are neighbours (I-1): on a padded board the difference of two cells'
/// indices is one of the eight directions exactly when they touch.
#[inline]
pub fn adjacent(a: usize, b: usize) -> bool {
    const NEAR: u64 = 1 | 1 << 1 | 1 << 2 | 1 << 16 | 1 << 18 | 1 << 32 | 1 << 33 | 1 << 34;
    let d = a.wrapping_sub(b).wrapping_add(17);
    d < 64 && NEAR & (1 << d) != 0
}

/// Whether no piece stands within two squares of `i` (on the board) but on `i` itself.
pub fn alone(b: &[u8; SQUARES], i: usize) -> bool {
    let (col, row) = (i % STRIDE, i / STRIDE);
    let cols = col.saturating_sub(2)..=(col + 2).min(STRIDE - 1);
    let near = (row.saturating_sub(2)..=(row + 2).min(SQUARES / STRIDE - 1))
        .flat_map(|r| cols.clone().map(move |c| r * STRIDE + c));
    near.filter(|&k| k != i).all(|k| matches!(b[k], EMPTY | OFF))
}

/// A set of board indices, one bit a square.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Squares([u64; SQUARES.div_ceil(64)]);

impl Squares {
    #[inline]
    pub fn has(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    #[inline]
    pub fn add(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
}
