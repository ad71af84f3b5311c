//! Charts described in a [`Chart`] drawn as accessible SVG with plotters.
//!
//! The SVG backend writes text as `<text>` elements, so no font files are
//! read: the build needs no system fonts.

use crate::layout::blocks::{Chart, ChartKind};
use plotters::coord::Shift;
use plotters::prelude::*;

mod heatmap;

/// Colours that stay distinct under the common colour-vision deficiencies
/// (Okabe and Ito's palette), cycled when a chart has more series.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

/// Legends longer than this are left out: the colours repeat anyway.
const MAX_LEGEND_ENTRIES: usize = 12;

const WIDTH: u32 = 720;
const HEIGHT: u32 = 400;

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("chart {id:?}: {message}")]
pub struct ChartError {
    id: String,
    message: String,
}

/// The chart as a standalone `<svg>` element with a title and description.
pub fn render_svg(chart: &Chart) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, chart).map_err(|e| ChartError {
            id: chart.id.clone(),
            message: e.to_string(),
        })?;
        root.present().map_err(|e| ChartError {
            id: chart.id.clone(),
            message: e.to_string(),
        })?;
    }
    Ok(make_accessible(&svg, chart))
}

/// The vertical range of a linear chart: from zero, unless every value sits
/// in a narrow band far from zero (bins near 1/n), where starting at zero
/// would hide the differences the chart is about.
fn linear_y_range(y_min: f64, y_max: f64) -> std::ops::Range<f64> {
    let spread = y_max - y_min;
    if y_min > 0.0 && spread < 0.2 * y_max {
        let margin = (spread * 0.25).max(y_max * 1e-9);
        (y_min - margin)..(y_max + margin)
    } else {
        0.0f64.min(y_min)..(y_max * 1.08).max(f64::MIN_POSITIVE)
    }
}

/// Whole numbers without a trailing `.0`; the rest as plotters would.
fn x_tick(x: f64, integral: bool) -> String {
    if integral {
        if x.fract() == 0.0 {
            format!("{x:.0}")
        } else {
            String::new()
        }
    } else {
        format!("{x}")
    }
}

/// A chart area with a linear x axis and a linear or logarithmic y axis.
type Plot<'a, Y> =
    ChartContext<'a, SVGBackend<'a>, Cartesian2d<plotters::coord::types::RangedCoordf64, Y>>;

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(root: &DrawingArea<SVGBackend, Shift>, chart: &Chart) -> DrawResult {
    if chart.kind == ChartKind::Heatmap {
        return heatmap::draw(root, chart);
    }
    root.fill(&WHITE)?;
    let points = chart.series.iter().flat_map(|s| s.points.iter());
    let (mut x_min, mut x_max, mut y_min, mut y_max) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points {
        x_min = x_min.min(x);
        x_max = x_max.max(x);
        if !chart.log_y || y > 0.0 {
            y_min = y_min.min(y);
            y_max = y_max.max(y);
        }
    }
    if let Some(reference) = &chart.reference {
        y_max = y_max.max(reference.y);
        y_min = y_min.min(reference.y);
    }
    if x_min > x_max {
        (x_min, x_max) = (0.0, 1.0);
    }
    if y_min > y_max {
        (y_min, y_max) = (if chart.log_y { 1e-6 } else { 0.0 }, 1.0);
    }
    let integral_x = chart
        .series
        .iter()
        .flat_map(|s| &s.points)
        .all(|(x, _)| x.fract() == 0.0);
    let pad = if chart.kind == ChartKind::Bars {
        0.6
    } else {
        0.0
    };
    let x_range = (x_min - pad)..(x_max + pad).max(x_min - pad + 1.0);
    let mut builder = ChartBuilder::on(root);
    builder
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(78)
        .caption(&chart.title, ("sans-serif", 20));
    if chart.log_y {
        let y_range = (y_min / 2.0)..(y_max * 2.0);
        let mut ctx = builder.build_cartesian_2d(x_range, y_range.log_scale())?;
        ctx.configure_mesh()
            .x_desc(&chart.x_label)
            .y_desc(&chart.y_label)
            .x_label_formatter(&|x| x_tick(*x, integral_x))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .draw()?;
        draw_series(&mut ctx, chart)?;
        legend(&mut ctx, chart)?;
    } else {
        let y_range = linear_y_range(y_min, y_max);
        let mut ctx = builder.build_cartesian_2d(x_range, y_range)?;
        ctx.configure_mesh()
            .x_desc(&chart.x_label)
            .y_desc(&chart.y_label)
            .x_label_formatter(&|x| x_tick(*x, integral_x))
            .draw()?;
        draw_series(&mut ctx, chart)?;
        legend(&mut ctx, chart)?;
    }
    Ok(())
}

fn draw_series<'a, Y>(ctx: &mut Plot<'a, Y>, chart: &Chart) -> DrawResult
where
    Y: Ranged<ValueType = f64>,
{
    let (x_lo, x_hi) = {
        let range = ctx.x_range();
        (range.start, range.end)
    };
    let y_floor = ctx.y_range().start;
    for (i, series) in chart.series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let drawn = match chart.kind {
            ChartKind::Bars => ctx.draw_series(series.points.iter().map(|&(x, y)| {
                Rectangle::new([(x - 0.4, y_floor.max(0.0)), (x + 0.4, y)], colour.filled())
            }))?,
            ChartKind::Lines => {
                let points: Vec<(f64, f64)> = series
                    .points
                    .iter()
                    .copied()
                    .filter(|&(_, y)| !chart.log_y || y > 0.0)
                    .collect();
                ctx.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
                ctx.draw_series(LineSeries::new(points, colour.stroke_width(2)))?
            }
            ChartKind::Heatmap => unreachable!("heatmaps have no axes; `draw` hands them over"),
        };
        drawn
            .label(series.name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled()));
    }
    if let Some(reference) = &chart.reference {
        let grey = RGBColor(90, 90, 90);
        ctx.draw_series(DashedLineSeries::new(
            [(x_lo, reference.y), (x_hi, reference.y)],
            6,
            4,
            grey.stroke_width(2),
        ))?
        .label(reference.label.clone())
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], grey.stroke_width(2)));
    }
    Ok(())
}

fn legend<'a, Y>(ctx: &mut Plot<'a, Y>, chart: &Chart) -> DrawResult
where
    Y: Ranged<ValueType = f64>,
{
    let entries = chart.series.len() + usize::from(chart.reference.is_some());
    if entries > 1 && entries <= MAX_LEGEND_ENTRIES {
        ctx.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
    }
    Ok(())
}

/// Scales with its container and carries a title and description for
/// screen readers.
fn make_accessible(svg: &str, chart: &Chart) -> String {
    let open_end = svg.find('>').unwrap_or(0);
    let body = &svg[open_end + 1..];
    let id = &chart.id;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         class=\"chart\" role=\"img\" aria-labelledby=\"chart-{id}-title chart-{id}-desc\">\
         <title id=\"chart-{id}-title\">{}</title><desc id=\"chart-{id}-desc\">{}</desc>{}",
        escape_xml(&chart.title),
        escape_xml(&chart.description),
        body
    )
}

fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::blocks::{Reference, Series};

    fn chart(kind: ChartKind, log_y: bool) -> Chart {
        Chart {
            id: "c".into(),
            title: "A <title>".into(),
            description: "What it shows".into(),
            kind,
            x_label: "x".into(),
            y_label: "y".into(),
            log_y,
            series: vec![
                Series {
                    name: "one".into(),
                    points: vec![(1.0, 0.5), (2.0, 0.25)],
                },
                Series {
                    name: "two".into(),
                    points: vec![(3.0, 0.125)],
                },
            ],
            reference: Some(Reference {
                label: "fair".into(),
                y: 0.3,
            }),
            table_id: None,
        }
    }

    #[test]
    fn charts_are_accessible_svg() {
        for (kind, log_y) in [
            (ChartKind::Bars, false),
            (ChartKind::Lines, true),
            (ChartKind::Lines, false),
        ] {
            let svg = render_svg(&chart(kind, log_y)).unwrap();
            assert!(svg
                .starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 720 400\""));
            assert!(svg.contains("<title id=\"chart-c-title\">A &lt;title&gt;</title>"));
            assert!(svg.contains("<desc id=\"chart-c-desc\">What it shows</desc>"));
            assert!(svg.trim_end().ends_with("</svg>"));
            assert!(
                svg.contains("\nfair\n</text>"),
                "legend names the reference line"
            );
            assert_eq!(
                svg,
                render_svg(&chart(kind, log_y)).unwrap(),
                "deterministic"
            );
        }
    }

    #[test]
    fn empty_charts_still_draw() {
        let mut empty = chart(ChartKind::Lines, true);
        empty.series.clear();
        empty.reference = None;
        assert!(render_svg(&empty).unwrap().contains("</svg>"));
    }
}
