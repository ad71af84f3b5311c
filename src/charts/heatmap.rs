//! [`ChartKind::Heatmap`](crate::layout::blocks::ChartKind::Heatmap): a square
//! table of pairwise values drawn as coloured cells.
//!
//! Cells are laid out by hand in pixels rather than on a plotters chart:
//! the rows need text labels, not a numeric axis. The colour scale is
//! symmetric around zero (white), blue for positive and vermilion for
//! negative values: two hues from Okabe and Ito's palette that stay apart
//! under every common colour-vision deficiency, with lightness carrying the
//! size, so the map reads in greyscale too. Intensity grows with the square
//! root of |value| / max |value|: one lopsided pairing would otherwise
//! wash every close game out to white. The colour bar shows the same
//! scale, labelled at its ends, half way to zero and at zero.

use super::{DrawResult, HEIGHT, WIDTH};
use crate::layout::blocks::Chart;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Positive values shade towards this blue.
const POSITIVE: RGBColor = RGBColor(0, 114, 178);
/// Negative values shade towards this vermilion.
const NEGATIVE: RGBColor = RGBColor(213, 94, 0);
const GRID_LINE: RGBColor = RGBColor(200, 200, 200);

const MARGIN: i32 = 12;
const TITLE_HEIGHT: i32 = 44;
/// Column numbers and the horizontal axis label below the grid.
const BELOW_GRID: i32 = 48;
/// The colour bar and its labels right of the grid.
const LEGEND_WIDTH: i32 = 96;
const LABEL_FONT: u32 = 12;
/// Average width of a label character at [`LABEL_FONT`], for the layout.
const CHAR_WIDTH: f64 = 6.8;
/// Cells smaller than this get no row and column labels: they would overlap.
const MIN_LABELLED_CELL: i32 = 9;
/// Steps of the colour bar.
const BAR_STEPS: i32 = 40;

/// Where the grid sits on the canvas.
struct Layout {
    left: i32,
    top: i32,
    cell: i32,
    size: usize,
}

impl Layout {
    fn of(row_labels: &[String]) -> Layout {
        let size = row_labels.len().max(1);
        let widest = row_labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        let left = MARGIN + (widest as f64 * CHAR_WIDTH) as i32 + 8;
        let width = WIDTH as i32 - left - MARGIN - LEGEND_WIDTH;
        let height = HEIGHT as i32 - TITLE_HEIGHT - BELOW_GRID;
        Layout {
            left,
            top: TITLE_HEIGHT,
            cell: (width.min(height) / size as i32).max(1),
            size,
        }
    }

    fn extent(&self) -> i32 {
        self.cell * self.size as i32
    }

    fn corner(&self, row: usize, column: usize) -> (i32, i32) {
        (
            self.left + column as i32 * self.cell,
            self.top + row as i32 * self.cell,
        )
    }
}

/// Draw the heatmap on the whole canvas.
pub fn draw(root: &DrawingArea<SVGBackend, Shift>, chart: &Chart) -> DrawResult {
    root.fill(&WHITE)?;
    let title =
        TextStyle::from(("sans-serif", 20).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    root.draw_text(&chart.title, &title, (WIDTH as i32 / 2, MARGIN))?;
    let row_labels: Vec<String> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}  {}", i + 1, s.name))
        .collect();
    let layout = Layout::of(&row_labels);
    let scale = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|&(_, v)| v.abs()))
        .fold(0.0, f64::max);
    draw_cells(root, chart, &layout, scale)?;
    if layout.cell >= MIN_LABELLED_CELL {
        draw_labels(root, chart, &layout, &row_labels)?;
    }
    draw_colour_bar(root, &layout, scale)
}

fn draw_cells(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &Chart,
    layout: &Layout,
    scale: f64,
) -> DrawResult {
    for (row, series) in chart.series.iter().enumerate() {
        for &(column, value) in &series.points {
            let column = column.round();
            if column < 0.0 || column as usize >= layout.size {
                continue;
            }
            let (x, y) = layout.corner(row, column as usize);
            let corners = [(x, y), (x + layout.cell, y + layout.cell)];
            root.draw(&Rectangle::new(corners, shade(value, scale).filled()))?;
            root.draw(&Rectangle::new(corners, GRID_LINE.stroke_width(1)))?;
        }
    }
    Ok(())
}

fn draw_labels(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &Chart,
    layout: &Layout,
    row_labels: &[String],
) -> DrawResult {
    let font = ("sans-serif", LABEL_FONT).into_font();
    let right = TextStyle::from(font.clone()).pos(Pos::new(HPos::Right, VPos::Center));
    let below = TextStyle::from(font.clone()).pos(Pos::new(HPos::Center, VPos::Top));
    let half = layout.cell / 2;
    for (i, label) in row_labels.iter().enumerate() {
        let (x, y) = layout.corner(i, 0);
        root.draw_text(label, &right, (x - 6, y + half))?;
        let (x, y) = layout.corner(layout.size, i);
        root.draw_text(&(i + 1).to_string(), &below, (x + half, y + 4))?;
    }
    let axis =
        TextStyle::from(("sans-serif", 14).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    let bottom = layout.top + layout.extent();
    root.draw_text(
        &chart.x_label,
        &axis,
        (layout.left + layout.extent() / 2, bottom + 24),
    )?;
    let corner =
        TextStyle::from(("sans-serif", 14).into_font()).pos(Pos::new(HPos::Right, VPos::Bottom));
    root.draw_text(&chart.y_label, &corner, (layout.left - 6, layout.top - 4))?;
    Ok(())
}

/// A vertical bar from +scale (top) through 0 to -scale, labelled at
/// both ends, half way to zero (a quarter of the value, on this scale)
/// and at zero.
fn draw_colour_bar(
    root: &DrawingArea<SVGBackend, Shift>,
    layout: &Layout,
    scale: f64,
) -> DrawResult {
    let x = layout.left + layout.extent() + 24;
    let height = layout.extent().max(BAR_STEPS);
    let step = |k: i32| layout.top + k * height / BAR_STEPS;
    for k in 0..BAR_STEPS {
        let intensity = 1.0 - (2 * k + 1) as f64 / BAR_STEPS as f64;
        let value = intensity.signum() * intensity * intensity * scale;
        root.draw(&Rectangle::new(
            [(x, step(k)), (x + 14, step(k + 1))],
            shade(value, scale).filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(x, step(0)), (x + 14, step(BAR_STEPS))],
        BLACK.stroke_width(1),
    ))?;
    let label = TextStyle::from(("sans-serif", LABEL_FONT).into_font())
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (text, y) in [
        (value_label(scale), step(0)),
        (value_label(scale / 4.0), step(BAR_STEPS / 4)),
        ("0".to_string(), step(BAR_STEPS / 2)),
        (value_label(-scale / 4.0), step(3 * BAR_STEPS / 4)),
        (value_label(-scale), step(BAR_STEPS)),
    ] {
        root.draw_text(&text, &label, (x + 20, y))?;
    }
    Ok(())
}

/// White at zero, the full hue at ±scale, by the square root in between.
fn shade(value: f64, scale: f64) -> RGBColor {
    let t = if scale > 0.0 {
        (value / scale).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let t = t.signum() * t.abs().sqrt();
    let hue = if t >= 0.0 { POSITIVE } else { NEGATIVE };
    let mix = |c: u8| (255.0 + (c as f64 - 255.0) * t.abs()).round() as u8;
    RGBColor(mix(hue.0), mix(hue.1), mix(hue.2))
}

/// Three significant figures with a sign, "0" for zero.
fn value_label(value: f64) -> String {
    if value == 0.0 {
        return "0".into();
    }
    let decimals = (2 - value.abs().log10().floor() as i32).max(0) as usize;
    format!("{value:+.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::super::render_svg;
    use super::*;
    use crate::layout::blocks::{ChartKind, Series};

    fn margins() -> Chart {
        let values = [[0.0, 0.02, -0.05], [-0.02, 0.0, 0.01], [0.05, -0.01, 0.0]];
        Chart {
            id: "h".into(),
            title: "Margins & more".into(),
            description: "Row against column".into(),
            kind: ChartKind::Heatmap,
            x_label: "column list".into(),
            y_label: "row list".into(),
            log_y: false,
            series: ["[5, 6]", "[6, 7]", "[7, 8]"]
                .iter()
                .zip(values)
                .map(|(name, row)| Series {
                    name: name.to_string(),
                    points: row
                        .iter()
                        .enumerate()
                        .map(|(j, &v)| (j as f64, v))
                        .collect(),
                })
                .collect(),
            reference: None,
            table_id: Some("margins".into()),
        }
    }

    #[test]
    fn heatmaps_are_accessible_deterministic_svg() {
        let svg = render_svg(&margins()).unwrap();
        assert!(svg.contains("<title id=\"chart-h-title\">Margins &amp; more</title>"));
        assert!(svg.contains("<desc id=\"chart-h-desc\">Row against column</desc>"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg, render_svg(&margins()).unwrap(), "deterministic");
        // Row labels with their numbers, and the colour bar's ends.
        assert!(svg.contains("2  [6, 7]"), "row label");
        assert!(
            svg.contains("+0.0500") && svg.contains("-0.0500"),
            "colour bar ends"
        );
        assert!(
            svg.contains("+0.0125") && svg.contains("-0.0125"),
            "quarter points"
        );
        // The strongest positive and negative cells take the full hues.
        assert!(svg.contains("#0072B2") && svg.contains("#D55E00"));
        // Nine cells, each filled and outlined, plus the bar's steps and frame.
        let rects = svg.matches("<rect").count();
        assert!(rects >= 2 * 9 + BAR_STEPS as usize, "{rects} rectangles");
    }

    #[test]
    fn the_colour_scale_is_centred_on_white() {
        assert_eq!(shade(0.0, 1.0), WHITE);
        assert_eq!(shade(0.3, 0.0), WHITE, "an all-zero map stays white");
        assert_eq!(shade(2.0, 2.0), POSITIVE);
        assert_eq!(shade(-2.0, 2.0), NEGATIVE);
        // A quarter of the largest value is half the full intensity.
        let quarter = shade(-0.25, 1.0);
        let halfway = |c: u8| ((255.0 + c as f64) / 2.0).round() as u8;
        assert_eq!(
            quarter,
            RGBColor(
                halfway(NEGATIVE.0),
                halfway(NEGATIVE.1),
                halfway(NEGATIVE.2)
            )
        );
    }

    #[test]
    fn colour_bar_labels_keep_three_figures() {
        assert_eq!(value_label(0.0123456), "+0.0123");
        assert_eq!(value_label(-0.5), "-0.500");
        assert_eq!(value_label(123.4), "+123");
        assert_eq!(value_label(0.0), "0");
    }
}
