//! The [`Board`] picture kind: a square board with lettered columns and numbered rows, shaded squares, each
//! disc black or white with its label (a white disc with a black rim), and the marked square as an orange dot.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Chart, FONT};
use intercept_core::present::{Board, Disc};

const SHADED: RGBColor = RGBColor(200, 230, 200);
const MARK: RGBColor = RGBColor(245, 130, 20);
const LINE: RGBColor = RGBColor(170, 170, 170);

impl Chart for Board {
    fn size(&self) -> (u32, u32) {
        (720, 760)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let n = f64::from(self.size);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.caption, (FONT, 20))
            .margin(16)
            .x_label_area_size(36)
            .y_label_area_size(36)
            .build_cartesian_2d(-0.5f64..n - 0.5, -0.5f64..n - 0.5)?;
        let size = usize::from(self.size);
        chart
            .configure_mesh()
            .x_labels(size)
            .y_labels(size)
            // Large enough to read a cell's name off the board drawn at a phone's width.
            .label_style((FONT, 22))
            .x_label_formatter(&|x| column(*x))
            .y_label_formatter(&|y| row(*y))
            .disable_mesh()
            .draw()?;
        let squares = || self.squares.iter().enumerate().map(|(c, s)| (xy(self, c), s));
        chart.draw_series(
            squares().map(|(at, s)| square(at, if s.shaded { SHADED.filled() } else { WHITE.filled() })),
        )?;
        chart.draw_series(squares().map(|(at, _)| square(at, LINE.stroke_width(1))))?;
        chart.draw_series(squares().filter_map(|(at, s)| s.disc.as_ref().map(|d| disc(at, d, true))))?;
        chart.draw_series(squares().filter_map(|(at, s)| s.disc.as_ref().map(|d| disc(at, d, false))))?;
        chart.draw_series(squares().filter_map(|(at, s)| s.disc.as_ref().map(|d| label(at, d))))?;
        if let Some(m) = self.marked {
            chart.draw_series(std::iter::once(Circle::new(xy(self, m as usize), 7, MARK.filled())))?;
        }
        Ok(())
    }
}

/// Where square `c` of `board` is drawn: its column and row.
fn xy(board: &Board, c: usize) -> (f64, f64) {
    let n = usize::from(board.size).max(1);
    ((c % n) as f64, (c / n) as f64)
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

fn square((x, y): (f64, f64), style: ShapeStyle) -> Rectangle<(f64, f64)> {
    Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], style)
}

/// A disc, filled in its colour, or (`filled` false) its black rim, which a white disc needs.
fn disc(at: (f64, f64), d: &Disc, filled: bool) -> Circle<(f64, f64), i32> {
    let style = match (filled, d.dark) {
        (true, false) => WHITE.filled(),
        (true, true) => BLACK.filled(),
        (false, _) => BLACK.stroke_width(2),
    };
    Circle::new(at, 20, style)
}

fn label(at: (f64, f64), d: &Disc) -> Text<'static, (f64, f64), String> {
    let colour = if d.dark { WHITE } else { BLACK };
    let style = (FONT, 14).into_font().color(&colour).pos(Pos::new(HPos::Center, VPos::Center));
    Text::new(d.label.clone(), at, style)
}
