//! [`ChartKind::Heatmap`](crate::layout::blocks::ChartKind::Heatmap): a square
//! table of pairwise values drawn as coloured cells.
//!
//! Cells are laid out by hand rather than on axes: the rows need text
//! labels, not a numeric axis. The colour scale is linear and symmetric
//! around zero: a positive value is the positive hue at an opacity of
//! |value| / max |value| over the chart's background, a negative value the
//! negative hue the same way, so it follows the theme. The colour bar shows
//! the scale, labelled where layout chose ([`Chart::y_ticks`], formatted
//! as the tables format the same values, unit and all); the largest label
//! is the scale's end. Each cell carries its exact value as a `<title>`.

use super::canvas::{escape, line_height, num, title, Anchor, Canvas};
use super::theme::{self, size};
use super::{axis, Size};
use crate::layout::blocks::Chart;

const MARGIN: f64 = 10.0;
/// Column numbers and the horizontal axis label below the grid.
const BELOW_GRID: f64 = 52.0;
/// The colour bar and its labels right of the grid, at the least.
const LEGEND_WIDTH: f64 = 96.0;
/// From the grid's right edge to the colour bar's labels: 20 to the bar,
/// 20 across it.
const BAR_TO_LABELS: f64 = 40.0;
/// Cells smaller than this get no row and column numbers: they would overlap.
const MIN_LABELLED_CELL: f64 = 14.0;
/// Steps of the colour bar.
const BAR_STEPS: usize = 20;

/// Draw the heatmap at one size.
pub(crate) fn draw(chart: &Chart, size: &Size) -> Canvas {
    let rows = chart.series.len().max(1);
    // Narrow drawings number the rows; the names are in the data table.
    let row_labels: Vec<String> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if size.legend_right {
                format!("{}  {}", i + 1, s.name)
            } else {
                (i + 1).to_string()
            }
        })
        .collect();
    let widest = row_labels
        .iter()
        .map(|l| axis::text_width(l, size::TICK))
        .fold(0.0, f64::max);
    let width = size.width as f64;
    let left = MARGIN + widest + 8.0;
    // Axis titles too long for a line wrap between words, whole.
    let label_line = line_height(size::LABEL);
    let y_label = axis::wrap(&chart.y_label, width - 2.0 * MARGIN, size::LABEL);
    let x_label = axis::wrap(&chart.x_label, width - 2.0 * MARGIN, size::LABEL);
    let top = 34.0 + (y_label.len() - 1) as f64 * label_line;
    // The colour bar's labels, however long, stay inside the drawing.
    let legend_width = chart
        .y_ticks
        .iter()
        .map(|(_, label)| BAR_TO_LABELS + axis::text_width(label, size::TICK))
        .fold(LEGEND_WIDTH, f64::max);
    let room = (width - left - MARGIN - legend_width).min(size.plot_height + 60.0);
    let cell = (room / rows as f64).floor().max(1.0);
    let extent = cell * rows as f64;
    let height = top + extent + BELOW_GRID + (x_label.len() - 1) as f64 * label_line;
    let mut canvas = Canvas::new(size.width, height.ceil() as i32);
    let scale = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|&(_, v)| v.abs()))
        .chain(chart.y_ticks.iter().map(|t| t.0.abs()))
        .fold(0.0, f64::max);

    canvas.lines(
        &y_label,
        (MARGIN, top - 12.0),
        size::LABEL,
        Anchor::LeftAbove,
        theme::INK,
    );
    let labelled = cell >= MIN_LABELLED_CELL;
    for (row, series) in chart.series.iter().enumerate() {
        let y = top + row as f64 * cell;
        let mut group = format!(
            "<g class=\"cells\" data-series=\"{}\">",
            escape(&series.name)
        );
        for (k, &(column, value)) in series.points.iter().enumerate() {
            let column = column.round();
            if column < 0.0 || column as usize >= rows {
                continue;
            }
            let x = left + column * cell;
            group.push_str(&cell_rect(
                x,
                y,
                cell,
                cell,
                value,
                scale,
                series.titles.get(k),
            ));
        }
        group.push_str("</g>");
        canvas.mark(group);
        if labelled {
            canvas.text(
                &row_labels[row],
                (left - 6.0, y + cell / 2.0),
                size::TICK,
                Anchor::Right,
                theme::INK,
            );
        }
    }
    for column in (0..rows).filter(|_| labelled) {
        canvas.text(
            &(column + 1).to_string(),
            (left + column as f64 * cell + cell / 2.0, top + extent + 4.0),
            size::TICK,
            Anchor::Below,
            theme::INK,
        );
    }
    // Centred under the grid, unless a line that wide would leave the drawing.
    let x_centre = axis::centre_within(
        &x_label,
        left + extent / 2.0,
        size::LABEL,
        (MARGIN, width - MARGIN),
    );
    canvas.lines(
        &x_label,
        (x_centre, top + extent + 26.0),
        size::LABEL,
        Anchor::Below,
        theme::INK,
    );
    colour_bar(
        &mut canvas,
        (left + extent + 20.0, top),
        extent.max(80.0),
        scale,
        &chart.y_ticks,
    );
    canvas
}

/// One cell: the hue of its sign at the opacity of its size.
fn cell_rect(
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    value: f64,
    scale: f64,
    text: Option<&String>,
) -> String {
    let t = if scale > 0.0 {
        (value / scale).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let hue = if t >= 0.0 {
        theme::POSITIVE
    } else {
        theme::NEGATIVE
    };
    // Filled in the hue of its sign, outlined in the grid colour.
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"f-{} k-grid\" fill=\"{}\" fill-opacity=\"{}\" stroke=\"{}\" stroke-width=\"1\">{}</rect>",
        num(x),
        num(y),
        num(w),
        num(h),
        hue.name,
        theme::hex(hue.light),
        num(t.abs()),
        theme::hex(theme::GRID.light),
        title(text)
    )
}

/// A vertical bar from +scale (top) through 0 to -scale, with its labels
/// at their values.
fn colour_bar(
    canvas: &mut Canvas,
    (x, top): (f64, f64),
    height: f64,
    scale: f64,
    labels: &[(f64, String)],
) {
    let step = height / BAR_STEPS as f64;
    let mut bar = String::from("<g class=\"colour-bar\">");
    for k in 0..BAR_STEPS {
        let value = (1.0 - (2 * k + 1) as f64 / BAR_STEPS as f64) * scale;
        bar.push_str(&cell_rect(
            x,
            top + k as f64 * step,
            14.0,
            step,
            value,
            scale,
            None,
        ));
    }
    bar.push_str("</g>");
    canvas.mark(bar);
    for (value, label) in labels {
        let at = if scale > 0.0 {
            (1.0 - value / scale) / 2.0
        } else {
            0.5
        };
        canvas.text(
            label,
            (x + 20.0, top + at.clamp(0.0, 1.0) * height),
            size::TICK,
            Anchor::Left,
            theme::INK,
        );
    }
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
                    titles: row.iter().map(|v| format!("margin {v}")).collect(),
                    ..Series::default()
                })
                .collect(),
            table_id: Some("margins".into()),
            y_ticks: vec![
                (0.05, "5 %".into()),
                (0.0, "0 %".into()),
                (-0.05, "−5 %".into()),
            ],
            ..Chart::default()
        }
    }

    /// The colour bar's labels stay inside the drawing however long they
    /// are ("−71.4286 %" once left a phone's drawing by 3 px).
    #[test]
    fn colour_bar_labels_stay_inside_the_drawing() {
        let mut chart = margins();
        chart.y_ticks = vec![
            (0.714286, "71.4286 %".into()),
            (0.0, "0 %".into()),
            (-0.714286, "−71.4286 %".into()),
        ];
        let svg = render_svg(&chart).unwrap();
        let narrow = &svg[svg.find("</svg>").unwrap()..];
        let label = &narrow[..narrow.find("\n−71.4286 %\n").unwrap()];
        let x = &label[label.rfind(" x=\"").unwrap() + 4..];
        let x: f64 = x[..x.find('"').unwrap()].parse().unwrap();
        let right = x + axis::text_width("−71.4286 %", size::TICK);
        assert!(right <= 360.0 - MARGIN, "label ends at {right}");
    }

    #[test]
    fn heatmaps_are_accessible_deterministic_svg() {
        let svg = render_svg(&margins()).unwrap();
        assert!(svg.contains("<title id=\"chart-h-title\">Margins &amp; more</title>"));
        assert_eq!(svg, render_svg(&margins()).unwrap(), "deterministic");
        assert!(svg.contains("2  [6, 7]"), "row label");
        assert!(
            svg.contains("\n5 %\n") && svg.contains("\n−5 %\n"),
            "bar ends"
        );
        assert!(svg.contains("<title>margin -0.05</title>"), "exact values");
        // The strongest cells take the full hues; colours go through classes.
        assert!(svg.contains("class=\"f-s1 k-grid\" fill=\"#0072B2\" fill-opacity=\"1\""));
        assert!(svg.contains("class=\"f-s2 k-grid\" fill=\"#D55E00\" fill-opacity=\"1\""));
        assert!(svg.contains("fill-opacity=\"0.4\""), "linear: 0.02 of 0.05");
    }
}
