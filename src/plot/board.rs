//! The board of a self-play run: the 13×13 start position of Intercept (C.2), drawn as a board diagram with
//! each stack as a disc (white or black, lettered P passage, R rest, D3 double as in the text board), the
//! goal cells shaded and the ball as an orange dot.
//!
//! [`BoardPicture`] is an [`Output`] writing `board.{png,svg}` for `[board]` configs and nothing otherwise;
//! the report embeds the same [`Board`] chart.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Chart, FONT, both, register_font};
use crate::export::{ExportError, Output, RunRecord};
use crate::models::board_game::position::{Colour, Position, glyph};

const GOAL: RGBColor = RGBColor(200, 230, 200);
const BALL: RGBColor = RGBColor(245, 130, 20);
const LINE: RGBColor = RGBColor(170, 170, 170);

/// `board.{png,svg}`.
pub struct BoardPicture;

impl Output for BoardPicture {
    fn write(&self, record: &RunRecord, dir: &Path) -> Result<Vec<PathBuf>, ExportError> {
        let Some(board) = Board::of(record) else { return Ok(Vec::new()) };
        register_font();
        both(dir, "board", &board)
    }
}

/// A position to draw, with its caption.
pub struct Board {
    pub position: Position,
    pub caption: String,
}

impl Board {
    /// The start position of a self-play run, if the run is one.
    pub fn of(record: &RunRecord) -> Option<Board> {
        let board = record.config.board.as_ref()?;
        let first = match board.first_player {
            crate::models::board_game::FirstPlayer::Black => "Black moves first",
            crate::models::board_game::FirstPlayer::White => "White moves first",
            crate::models::board_game::FirstPlayer::Random => "a coin toss decides who moves first",
        };
        let caption = format!("The start position (C.2); {first}");
        Some(Board { position: Position::start(), caption })
    }
}

impl Chart for Board {
    fn size(&self) -> (u32, u32) {
        (720, 760)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let n = f64::from(self.position.size);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.caption, (FONT, 20))
            .margin(16)
            .x_label_area_size(30)
            .y_label_area_size(30)
            .build_cartesian_2d(-0.5f64..n - 0.5, -0.5f64..n - 0.5)?;
        let size = usize::from(self.position.size);
        chart
            .configure_mesh()
            .x_labels(size)
            .y_labels(size)
            .label_style((FONT, 14))
            .x_label_formatter(&|x| column(*x))
            .y_label_formatter(&|y| row(*y))
            .disable_mesh()
            .draw()?;
        let p = &self.position;
        chart.draw_series(p.cells().map(|c| square(p, c, fill(p, c))))?;
        chart.draw_series(p.cells().map(|c| square(p, c, LINE.stroke_width(1))))?;
        chart.draw_series(p.cells().filter_map(|c| disc(p, c, true)))?;
        chart.draw_series(p.cells().filter_map(|c| disc(p, c, false)))?;
        chart.draw_series(p.cells().filter_map(|c| label(p, c)))?;
        let (x, y) = xy(p, p.ball);
        chart.draw_series(std::iter::once(Circle::new((x, y), 7, BALL.filled())))?;
        Ok(())
    }
}

/// `a`..`m` under whole columns.
fn column(x: f64) -> String {
    let on = (x - x.round()).abs() < 1e-6 && x >= 0.0;
    if on { ((b'a' + x.round() as u8) as char).to_string() } else { String::new() }
}

/// `1`..`13` beside whole rows.
fn row(y: f64) -> String {
    let on = (y - y.round()).abs() < 1e-6 && y >= 0.0;
    if on { format!("{}", y.round() as i64 + 1) } else { String::new() }
}

fn xy(p: &Position, c: u8) -> (f64, f64) {
    (f64::from(c % p.size), f64::from(c / p.size))
}

fn fill(p: &Position, c: u8) -> ShapeStyle {
    if p.is_goal(c) { GOAL.filled() } else { WHITE.filled() }
}

fn square(p: &Position, c: u8, style: ShapeStyle) -> Rectangle<(f64, f64)> {
    let (x, y) = xy(p, c);
    Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], style)
}

/// A stack's disc, filled in its colour, or (`filled` false) its black rim, which a white disc needs.
fn disc(p: &Position, c: u8, filled: bool) -> Option<Circle<(f64, f64), i32>> {
    let piece = p.at(c)?;
    let style = match (filled, piece.top.colour) {
        (true, Colour::White) => WHITE.filled(),
        (true, Colour::Black) => BLACK.filled(),
        (false, _) => BLACK.stroke_width(2),
    };
    Some(Circle::new(xy(p, c), 20, style))
}

fn label(p: &Position, c: u8) -> Option<Text<'static, (f64, f64), String>> {
    let piece = p.at(c)?;
    let colour = if piece.top.colour == Colour::White { BLACK } else { WHITE };
    let style = (FONT, 14).into_font().color(&colour).pos(Pos::new(HPos::Center, VPos::Center));
    let text = glyph(piece.top).to_uppercase() + if piece.under.is_some() { "+" } else { "" };
    Some(Text::new(text, xy(p, c), style))
}
