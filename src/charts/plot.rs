//! Charts on two axes, one of each: bars, deviation bars around zero,
//! points with intervals, and lines.
//!
//! Honest by construction: a bar's value axis always includes zero; a
//! deviation chart is symmetric around its zero line; zeros on a log axis
//! are drawn as hollow points on a "0" line of their own, never dropped;
//! series with identical points say so in the legend ("b (same as a)").
//!
//! No label is cut: the key sits beside the plot when every name fits
//! there on one line, else below it, each name wrapped between words to
//! the drawing's width; long axis titles wrap the same way.
//!
//! Lines are told apart three ways, not by colour alone: each series has
//! its own marker shape ([`MARKERS`]), and on a wide drawing its name sits
//! at the end of its line (labels pushed apart where lines end close
//! together, with a leader to the line's last point) instead of in a
//! separate legend.

use super::axis::{self, Scale};
use super::canvas::{escape, fill, line_height, num, stroke, title, Anchor, Canvas};
use super::theme::{self, size, Role};
use super::Size;
use crate::layout::blocks::{Chart, ChartKind, Series, ValueFormat};

/// Space for the zero line under a log axis.
const ZERO_BAND: f64 = 28.0;
const LEGEND_ROW: f64 = 20.0;
const LEGEND_SWATCH: f64 = 22.0;
/// The most of a drawing's width a key beside the plot may take.
const LEGEND_SHARE: f64 = 0.4;

/// A point's shape on a line chart, by series: filled, then hollow.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
    TriangleDown,
}

const MARKERS: [Shape; 5] = [
    Shape::Circle,
    Shape::Square,
    Shape::Triangle,
    Shape::Diamond,
    Shape::TriangleDown,
];

/// Series `i`'s marker: its shape, and whether it is hollow.
fn marker(i: usize) -> (Shape, bool) {
    (MARKERS[i % MARKERS.len()], i >= MARKERS.len())
}

/// What a legend entry looks like.
#[derive(Clone, Copy, PartialEq)]
enum Swatch {
    Block,
    Line,
    Dashed,
}

struct Entry {
    text: String,
    /// Its text as drawn: one line beside the plot, wrapped below it.
    lines: Vec<String>,
    role: Role,
    swatch: Swatch,
    /// The series' marker on a line chart (its index).
    marker: Option<usize>,
    /// Where its line ends (SVG units), for a label at the line's end.
    end: Option<f64>,
}

/// The vertical scale and its ticks.
struct YAxis {
    scale: Scale,
    ticks: Vec<axis::Tick>,
    /// The pixel of the "0" line under a log axis, when zeros are drawn.
    zero_line: Option<f64>,
}

fn values(chart: &Chart) -> Vec<f64> {
    let mut values: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.1)
                .chain(s.intervals.iter().flat_map(|i| [i.0, i.1]))
        })
        .filter(|v| v.is_finite())
        .collect();
    if let Some(r) = &chart.reference {
        if chart.kind != ChartKind::Deviation {
            values.push(r.y);
        }
    }
    values.extend(chart.y_to.filter(|_| !chart.log_y));
    values
}

fn y_axis(chart: &Chart, top: f64, bottom: f64, count: usize) -> YAxis {
    let values = values(chart);
    let signed = chart.kind == ChartKind::Deviation;
    if chart.log_y {
        let positive: Vec<f64> = values.iter().copied().filter(|&v| v > 0.0).collect();
        let has_zero = values.iter().any(|&v| v <= 0.0);
        let lo = positive.iter().copied().fold(f64::MAX, f64::min);
        let hi = positive.iter().copied().fold(f64::MIN, f64::max);
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (1e-6, 1.0) };
        let (first, last, exponents) = axis::log_decades(lo, hi, count);
        let floor = if has_zero { bottom - ZERO_BAND } else { bottom };
        let scale = Scale {
            lo: first as f64,
            hi: last as f64,
            from: floor,
            to: top,
            log: true,
        };
        let ticks = exponents
            .into_iter()
            .map(|e| axis::Tick {
                value: 10f64.powi(e),
                label: axis::power_label(e),
            })
            .collect();
        return YAxis {
            scale,
            ticks,
            zero_line: has_zero.then_some(bottom - 6.0),
        };
    }
    // Bars stand on zero; lines may start where their quantity does.
    let floor = match chart.kind {
        ChartKind::Lines => chart.y_from.unwrap_or(0.0),
        _ => 0.0,
    };
    let lo = values.iter().copied().fold(floor, f64::min);
    let hi = values.iter().copied().fold(floor, f64::max);
    let (lo, hi) = if signed {
        let m = lo.abs().max(hi.abs());
        (-m, m)
    } else {
        (lo, hi)
    };
    let (lo, hi, ticks) = axis::linear(lo, hi, count, false);
    let step = if ticks.len() > 1 {
        ticks[1] - ticks[0]
    } else {
        1.0
    };
    let ticks = ticks
        .into_iter()
        .map(|value| axis::Tick {
            value,
            label: axis::label(value, step, chart.y_format, signed),
        })
        .collect();
    YAxis {
        scale: Scale {
            lo,
            hi,
            from: bottom,
            to: top,
            log: false,
        },
        ticks,
        zero_line: None,
    }
}

/// Categories (bars, deviations, intervals) sit half a step inside the axis.
fn categorical(kind: ChartKind) -> bool {
    matches!(
        kind,
        ChartKind::Bars | ChartKind::Deviation | ChartKind::Intervals
    )
}

fn x_values(chart: &Chart) -> Vec<f64> {
    let mut xs: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .chain(chart.x_ticks.iter().map(|t| t.0))
        .chain(chart.x_range.iter().flat_map(|&(lo, hi)| [lo, hi]))
        .filter(|x| x.is_finite())
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    xs
}

/// The smallest gap between neighbouring x values: one category's width.
fn unit(xs: &[f64]) -> f64 {
    xs.windows(2)
        .map(|w| w[1] - w[0])
        .fold(None, |m: Option<f64>, gap| {
            Some(m.map_or(gap, |m| m.min(gap)))
        })
        .unwrap_or(1.0)
}

fn x_ticks(chart: &Chart, xs: &[f64], lo: f64, hi: f64, count: usize) -> Vec<axis::Tick> {
    if !chart.x_ticks.is_empty() {
        return chart
            .x_ticks
            .iter()
            .map(|(value, label)| axis::Tick {
                value: *value,
                label: label.clone(),
            })
            .collect();
    }
    let integral = xs.iter().all(|x| x.fract() == 0.0);
    let (_, _, ticks) = axis::linear(lo, hi, count, integral);
    let step = if ticks.len() > 1 {
        ticks[1] - ticks[0]
    } else {
        1.0
    };
    ticks
        .into_iter()
        .filter(|t| *t >= lo - 1e-9 && *t <= hi + 1e-9)
        .map(|value| axis::Tick {
            value,
            label: axis::label(value, step, ValueFormat::Number, false),
        })
        .collect()
}

/// For each series, the earlier series with exactly the same points.
fn duplicates(series: &[Series]) -> Vec<Option<usize>> {
    series
        .iter()
        .enumerate()
        .map(|(j, s)| {
            series[..j]
                .iter()
                .position(|t| !s.points.is_empty() && t.points == s.points)
        })
        .collect()
}

fn legend(chart: &Chart) -> Vec<Entry> {
    let same = duplicates(&chart.series);
    let swatch = if chart.kind == ChartKind::Lines {
        Swatch::Line
    } else {
        Swatch::Block
    };
    let mut entries: Vec<Entry> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| Entry {
            text: match same[i] {
                Some(j) => format!("{} (same as {})", s.name, chart.series[j].name),
                None => s.name.clone(),
            },
            lines: Vec::new(),
            role: theme::SERIES[i],
            swatch: if same[i].is_some() {
                Swatch::Dashed
            } else {
                swatch
            },
            marker: (chart.kind == ChartKind::Lines).then_some(i),
            end: None,
        })
        .collect();
    if let Some(r) = &chart.reference {
        entries.push(Entry {
            text: r.label.clone(),
            lines: Vec::new(),
            role: theme::REFERENCE,
            swatch: Swatch::Dashed,
            marker: None,
            end: None,
        });
    }
    // One series alone needs no key: the axis title says what it is.
    if entries.len() == 1 && chart.reference.is_none() {
        entries.clear();
    }
    entries
}

/// The chart with only the points inside its [`Chart::x_range`] (with
/// their tooltips and intervals).
fn clipped(chart: &Chart) -> std::borrow::Cow<'_, Chart> {
    let Some((lo, hi)) = chart.x_range else {
        return std::borrow::Cow::Borrowed(chart);
    };
    let mut chart = chart.clone();
    for series in &mut chart.series {
        let inside: Vec<bool> = series
            .points
            .iter()
            .map(|p| p.0 >= lo && p.0 <= hi)
            .collect();
        let keep = |k: &mut usize| {
            *k += 1;
            inside.get(*k - 1).copied().unwrap_or(false)
        };
        let mut k = 0;
        series.points.retain(|_| keep(&mut k));
        k = 0;
        series.titles.retain(|_| keep(&mut k));
        k = 0;
        series.intervals.retain(|_| keep(&mut k));
    }
    std::borrow::Cow::Owned(chart)
}

/// Draw the chart at one size; returns the canvas.
pub(crate) fn draw(chart: &Chart, size: &Size) -> Canvas {
    let chart = &*clipped(chart);
    let mut entries = legend(chart);
    let width = size.width as f64;
    let legend_width = entries
        .iter()
        .map(|e| axis::text_width(&e.text, size::TICK) + LEGEND_SWATCH + 8.0)
        .fold(0.0, f64::max);
    // Beside the plot every name fits on one line in its share of the
    // width; else the key goes below, its names wrapped to the width.
    let legend_right =
        size.legend_right && !entries.is_empty() && legend_width <= width * LEGEND_SHARE;
    for entry in &mut entries {
        entry.lines = if legend_right {
            vec![entry.text.clone()]
        } else {
            axis::wrap(&entry.text, width - 20.0 - LEGEND_SWATCH, size::TICK)
        };
    }
    // Wide line charts name each line at its end rather than in a key,
    // when every line runs to the right edge.
    let x_max = x_values(chart).last().copied();
    let at_ends = legend_right
        && chart.kind == ChartKind::Lines
        && chart
            .series
            .iter()
            .all(|s| last_point(chart, s).is_some_and(|(px, _)| Some(px) == x_max));
    let legend_height = if legend_right {
        0.0
    } else {
        entries.iter().map(entry_height).sum::<f64>() + LEGEND_ROW / 2.0
    };
    let label_line = line_height(size::LABEL);
    let y_label = axis::wrap(&chart.y_label, width - 20.0, size::LABEL);
    let x_label = axis::wrap(&chart.x_label, width - 20.0, size::LABEL);
    let top = 34.0 + (y_label.len() - 1) as f64 * label_line;
    let bottom = top + size.plot_height;
    let below_x_label = (x_label.len() - 1) as f64 * label_line;
    let height = bottom + 50.0 + below_x_label + legend_height;
    let mut canvas = Canvas::new(size.width, height.ceil() as i32);

    let y = y_axis(chart, top, bottom, size.y_ticks);
    let y_label_width = y
        .ticks
        .iter()
        .map(|t| axis::text_width(&t.label, size::TICK))
        .fold(axis::text_width("0", size::TICK), f64::max);
    let left = 10.0 + y_label_width + 8.0;
    let mut right = width - 10.0;
    if legend_right {
        right -= legend_width + if at_ends { LEADER } else { 12.0 };
    }

    let xs = x_values(chart);
    let step = unit(&xs);
    let (mut x_lo, mut x_hi) = match (xs.first(), xs.last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => (0.0, 1.0),
    };
    if categorical(chart.kind) || x_lo == x_hi {
        x_lo -= step * 0.6;
        x_hi += step * 0.6;
    }
    let ticks = x_ticks(chart, &xs, x_lo, x_hi, size.x_ticks);
    // The last tick's label is centred on the plot's right end: room for
    // its right half inside the drawing.
    if let Some(last) = ticks.last().filter(|t| t.value >= x_hi - 1e-9) {
        right = right.min(width - 2.0 - axis::text_width(&last.label, size::TICK) / 2.0);
    }
    let x = Scale {
        lo: x_lo,
        hi: x_hi,
        from: left,
        to: right,
        log: false,
    };

    // Grid, axes and ticks.
    for tick in &y.ticks {
        let py = y.scale.at(tick.value);
        canvas.line((left, py), (right, py), theme::GRID);
        canvas.line((left - 4.0, py), (left, py), theme::AXIS);
        canvas.text(
            &tick.label,
            (left - 7.0, py),
            size::TICK,
            Anchor::Right,
            theme::INK,
        );
    }
    if let Some(zero) = y.zero_line {
        canvas.line((left, zero), (right, zero), theme::GRID);
        canvas.text(
            "0",
            (left - 7.0, zero),
            size::TICK,
            Anchor::Right,
            theme::INK,
        );
        canvas.line(
            (left - 4.0, y.scale.from + 6.0),
            (left + 4.0, y.scale.from + 2.0),
            theme::AXIS,
        );
        canvas.line(
            (left - 4.0, y.scale.from + 10.0),
            (left + 4.0, y.scale.from + 6.0),
            theme::AXIS,
        );
    }
    canvas.line((left, top), (left, bottom), theme::AXIS);
    canvas.line((left, bottom), (right, bottom), theme::AXIS);
    let widest = ticks
        .iter()
        .map(|t| axis::text_width(&t.label, size::TICK))
        .fold(0.0, f64::max);
    let per_tick = if ticks.len() > 1 {
        (x.at(ticks[1].value) - x.at(ticks[0].value)).abs()
    } else {
        f64::MAX
    };
    for tick in axis::thin(&ticks, widest, per_tick) {
        let px = x.at(tick.value);
        canvas.line((px, bottom), (px, bottom + 4.0), theme::AXIS);
        canvas.text(
            &tick.label,
            (px, bottom + 7.0),
            size::TICK,
            Anchor::Below,
            theme::INK,
        );
    }
    // Centred under the plot, unless a line that wide would leave the drawing.
    let x_centre = axis::centre_within(
        &x_label,
        (left + right) / 2.0,
        size::LABEL,
        (10.0, width - 10.0),
    );
    canvas.lines(
        &x_label,
        (x_centre, bottom + 28.0),
        size::LABEL,
        Anchor::Below,
        theme::INK,
    );
    canvas.lines(
        &y_label,
        (10.0, top - 12.0),
        size::LABEL,
        Anchor::LeftAbove,
        theme::INK,
    );

    let unit_px = (x.at(x_lo + step) - x.at(x_lo)).abs();
    draw_marks(&mut canvas, chart, &x, &y, unit_px);
    if let Some(r) = &chart.reference {
        let py = if chart.kind == ChartKind::Deviation {
            y.scale.at(0.0)
        } else {
            y.scale.at(r.y)
        };
        canvas.mark(format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {} stroke-width=\"2\" stroke-dasharray=\"7 4\">{}</line>",
            num(left),
            num(py),
            num(right),
            num(py),
            stroke(theme::REFERENCE),
            title(Some(&r.label)),
        ));
    }
    if at_ends {
        for (entry, series) in entries.iter_mut().zip(&chart.series) {
            entry.end = last_point(chart, series).map(|(_, py)| y.scale.at(py));
        }
        if let (Some(r), Some(entry)) = (&chart.reference, entries.last_mut()) {
            entry.end = Some(y.scale.at(r.y));
        }
        if draw_at_ends(&mut canvas, &entries, right, top, bottom) {
            return canvas;
        }
    }
    let origin = if legend_right {
        (right + 12.0, top)
    } else {
        (10.0, bottom + 54.0 + below_x_label)
    };
    draw_legend(&mut canvas, &entries, origin);
    canvas
}

/// Room between a line's end and its label, for the leader.
const LEADER: f64 = 22.0;

/// Line ends closer than this (SVG units) get a key instead of end labels.
const MIN_END_GAP: f64 = 2.0;

/// A series' last point that is drawn on its line (not a zero under a log
/// axis, not missing).
fn last_point(chart: &Chart, series: &Series) -> Option<(f64, f64)> {
    series
        .points
        .iter()
        .copied()
        .filter(|&(_, py)| py.is_finite() && !(chart.log_y && py <= 0.0))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Label heights as near `wanted` (in order, top down) as they can be while
/// at least `gap` apart and inside `lo..=hi`; `None` when they cannot all fit.
fn spread(wanted: &[f64], gap: f64, lo: f64, hi: f64) -> Option<Vec<f64>> {
    if wanted.len().saturating_sub(1) as f64 * gap > hi - lo {
        return None;
    }
    let mut at: Vec<f64> = wanted.iter().map(|w| w.clamp(lo, hi)).collect();
    for k in 1..at.len() {
        at[k] = at[k].max(at[k - 1] + gap);
    }
    if let Some(last) = at.last_mut() {
        *last = last.min(hi);
    }
    for k in (0..at.len().saturating_sub(1)).rev() {
        at[k] = at[k].min(at[k + 1] - gap);
    }
    Some(at)
}

/// Each entry's name beside the end of its line, pushed apart where lines
/// end close together, with a leader from the line's end; false (nothing
/// drawn) when they do not fit beside the plot or two lines end at one
/// point.
fn draw_at_ends(canvas: &mut Canvas, entries: &[Entry], right: f64, top: f64, bottom: f64) -> bool {
    let mut order: Vec<&Entry> = entries.iter().collect();
    if order.iter().any(|e| e.end.is_none()) {
        return false;
    }
    order.sort_by(|a, b| a.end.unwrap_or(0.0).total_cmp(&b.end.unwrap_or(0.0)));
    let wanted: Vec<f64> = order.iter().map(|e| e.end.unwrap_or(0.0)).collect();
    // Leaders from one point cannot say which line is which.
    if wanted.windows(2).any(|w| w[1] - w[0] < MIN_END_GAP) {
        return false;
    }
    let Some(at) = spread(&wanted, LEGEND_ROW - 2.0, top, bottom) else {
        return false;
    };
    let x0 = right + LEADER;
    for ((entry, &end), &y0) in order.iter().zip(&wanted).zip(&at) {
        canvas.mark(format!(
            "<polyline points=\"{},{} {},{} {},{}\" fill=\"none\" {} stroke-width=\"1\"/>",
            num(right + 3.0),
            num(end),
            num(x0 - 10.0),
            num(y0),
            num(x0 - 3.0),
            num(y0),
            stroke(entry.role)
        ));
        draw_entry(canvas, entry, (x0, y0));
    }
    true
}

fn point_title(chart: &Chart, series: &Series, k: usize) -> String {
    series.titles.get(k).cloned().unwrap_or_else(|| {
        let (px, py) = series.points[k];
        format!("{}: {} {}, {}", series.name, chart.x_label, px, py)
    })
}

fn draw_marks(canvas: &mut Canvas, chart: &Chart, x: &Scale, y: &YAxis, unit_px: f64) {
    let same = duplicates(&chart.series);
    for (i, series) in chart.series.iter().enumerate() {
        let role = theme::SERIES[i];
        let mut group = format!(
            "<g class=\"series\" data-series=\"{}\" data-colour=\"{}\">",
            escape(&series.name),
            role.name
        );
        match chart.kind {
            ChartKind::Bars | ChartKind::Deviation | ChartKind::Heatmap => {
                let base = y.scale.at(0.0);
                let w = (unit_px * 0.8).max(1.0);
                for (k, &(px, py)) in series.points.iter().enumerate() {
                    let cx = x.at(px);
                    let top = y.scale.at(py);
                    let (y0, h) = if top < base {
                        (top, base - top)
                    } else {
                        (base, top - base)
                    };
                    group.push_str(&format!(
                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {}>{}</rect>",
                        num(cx - w / 2.0),
                        num(y0),
                        num(w),
                        num(h.max(0.5)),
                        fill(role),
                        title(Some(&point_title(chart, series, k)))
                    ));
                }
            }
            ChartKind::Intervals => {
                for (k, &(px, py)) in series.points.iter().enumerate() {
                    let cx = x.at(px);
                    if let Some(&(lo, hi)) = series.intervals.get(k) {
                        let (a, b) = (y.scale.at(lo), y.scale.at(hi));
                        let cap = (unit_px * 0.2).clamp(3.0, 8.0);
                        group.push_str(&format!(
                            "<path d=\"M{} {}V{}M{} {}H{}M{} {}H{}\" fill=\"none\" {} stroke-width=\"2\"/>",
                            num(cx), num(a), num(b),
                            num(cx - cap), num(a), num(cx + cap),
                            num(cx - cap), num(b), num(cx + cap),
                            stroke(role)
                        ));
                    }
                    group.push_str(&format!(
                        "<circle cx=\"{}\" cy=\"{}\" r=\"4.5\" {}>{}</circle>",
                        num(cx),
                        num(y.scale.at(py)),
                        fill(role),
                        title(Some(&point_title(chart, series, k)))
                    ));
                }
            }
            ChartKind::Lines => {
                let dashed = if same[i].is_some() {
                    " stroke-dasharray=\"8 5\""
                } else {
                    ""
                };
                let mut run: Vec<String> = Vec::new();
                let mut runs = Vec::new();
                for &(px, py) in &series.points {
                    if chart.log_y && py <= 0.0 || !py.is_finite() {
                        runs.push(std::mem::take(&mut run));
                    } else {
                        run.push(format!("{},{}", num(x.at(px)), num(y.scale.at(py))));
                    }
                }
                runs.push(run);
                for run in runs.into_iter().filter(|r| r.len() > 1) {
                    group.push_str(&format!(
                        "<polyline points=\"{}\" fill=\"none\" {} stroke-width=\"2.5\"{dashed}/>",
                        run.join(" "),
                        stroke(role)
                    ));
                }
                // Many points on one line: smaller marks, so the line shows.
                let size = if series.points.len() > 30 { 2.5 } else { 4.5 };
                for (k, &(px, py)) in series.points.iter().enumerate() {
                    let on_zero_line = chart.log_y && py <= 0.0;
                    let cy = match (on_zero_line, y.zero_line) {
                        (true, Some(zero)) => zero,
                        _ => y.scale.at(py),
                    };
                    let tip = title(Some(&point_title(chart, series, k)));
                    if on_zero_line {
                        group.push_str(&format!(
                            "<circle cx=\"{}\" cy=\"{}\" r=\"5\" {}>{tip}</circle>",
                            num(x.at(px)),
                            num(cy),
                            hollow(role)
                        ));
                    } else {
                        group.push_str(&marker_svg(i, (x.at(px), cy), size, role, &tip));
                    }
                }
            }
        }
        group.push_str("</g>");
        canvas.mark(group);
    }
}

/// Paper inside, the series' colour around.
fn hollow(role: Role) -> String {
    format!(
        "{} stroke-width=\"2\" class=\"f-paper k-{}\" fill=\"{}\"",
        strip_class(&stroke(role)),
        role.name,
        theme::hex(theme::PAPER.light)
    )
}

/// Series `i`'s marker centred on `(cx, cy)`, about `r` from centre to
/// edge, holding `inner` (its `<title>`).
fn marker_svg(i: usize, (cx, cy): (f64, f64), r: f64, role: Role, inner: &str) -> String {
    let (shape, open) = marker(i);
    let look = if open { hollow(role) } else { fill(role) };
    let polygon = |corners: &[(f64, f64)]| {
        let points: Vec<String> = corners
            .iter()
            .map(|(dx, dy)| format!("{},{}", num(cx + dx * r), num(cy + dy * r)))
            .collect();
        format!(
            "<polygon points=\"{}\" {look}>{inner}</polygon>",
            points.join(" ")
        )
    };
    match shape {
        Shape::Circle => format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {look}>{inner}</circle>",
            num(cx),
            num(cy),
            num(r * 0.85)
        ),
        Shape::Square => format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {look}>{inner}</rect>",
            num(cx - r * 0.75),
            num(cy - r * 0.75),
            num(r * 1.5),
            num(r * 1.5)
        ),
        Shape::Triangle => polygon(&[(0.0, -1.1), (1.0, 0.7), (-1.0, 0.7)]),
        Shape::TriangleDown => polygon(&[(0.0, 1.1), (1.0, -0.7), (-1.0, -0.7)]),
        Shape::Diamond => polygon(&[(0.0, -1.15), (1.0, 0.0), (0.0, 1.15), (-1.0, 0.0)]),
    }
}

/// `stroke="#..."` without its class, to combine two classes on one element.
fn strip_class(attrs: &str) -> String {
    attrs
        .split_once(' ')
        .map_or(attrs.to_string(), |(_, rest)| rest.to_string())
}

/// The key, one entry under the other from `origin` down.
fn draw_legend(canvas: &mut Canvas, entries: &[Entry], origin: (f64, f64)) {
    let mut y = origin.1;
    for entry in entries {
        draw_entry(canvas, entry, (origin.0, y + LEGEND_ROW / 2.0));
        y += entry_height(entry);
    }
}

/// An entry's height in the key: a row, and a line more per wrapped line.
fn entry_height(entry: &Entry) -> f64 {
    LEGEND_ROW + entry.lines.len().saturating_sub(1) as f64 * line_height(size::TICK)
}

/// One key entry: its swatch (with the series' marker on a line chart)
/// and its text, vertically centred on `y0`.
fn draw_entry(canvas: &mut Canvas, entry: &Entry, (x0, y0): (f64, f64)) {
    let mut swatch = match entry.swatch {
        Swatch::Block => format!(
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"12\" {}/>",
            num(x0 + 2.0),
            num(y0 - 6.0),
            fill(entry.role)
        ),
        Swatch::Line | Swatch::Dashed => format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {} stroke-width=\"2.5\"{}/>",
            num(x0),
            num(y0),
            num(x0 + 18.0),
            num(y0),
            stroke(entry.role),
            if entry.swatch == Swatch::Dashed {
                " stroke-dasharray=\"5 3\""
            } else {
                ""
            }
        ),
    };
    if let Some(i) = entry.marker {
        swatch.push_str(&marker_svg(i, (x0 + 9.0, y0), 4.0, entry.role, ""));
    }
    canvas.mark(format!("<g class=\"legend\">{swatch}</g>"));
    canvas.lines(
        &entry.lines,
        (x0 + LEGEND_SWATCH, y0),
        size::TICK,
        Anchor::Left,
        theme::INK,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_spread_apart_inside_their_band() {
        assert_eq!(
            spread(&[10.0, 11.0, 12.0], 5.0, 0.0, 100.0),
            Some(vec![10.0, 15.0, 20.0])
        );
        assert_eq!(
            spread(&[98.0, 99.0, 100.0], 5.0, 0.0, 100.0),
            Some(vec![90.0, 95.0, 100.0])
        );
        assert_eq!(
            spread(&[-5.0, 50.0], 5.0, 0.0, 100.0),
            Some(vec![0.0, 50.0])
        );
        assert_eq!(spread(&[50.0; 22], 5.0, 0.0, 100.0), None);
    }

    #[test]
    fn ten_series_get_ten_markers() {
        for i in 0..crate::layout::blocks::MAX_SERIES {
            for j in 0..i {
                assert_ne!(marker(i), marker(j), "series {i} and {j}");
            }
        }
        assert_eq!(marker(0), (Shape::Circle, false));
        assert_eq!(marker(5), (Shape::Circle, true));
    }
}
