//! Charts described in a [`Chart`] drawn as accessible SVG with plotters.
//!
//! Layout decides what to chart; this module decides how it looks: the
//! palette and type scale ([`theme`]), ticks ([`axis`]), and the drawings
//! ([`plot`], [`heatmap`]). Each chart is drawn twice, 720 units wide for a
//! desktop column and 360 for a phone, and the stylesheet shows the one that
//! fits (a container query), so text stays readable at both. The SVG
//! backend writes text as `<text>` elements: no fonts are read, no script
//! runs, and the output is the same bytes on every build.

use crate::layout::blocks::{Chart, ChartKind};

mod axis;
mod canvas;
mod heatmap;
mod plot;
pub mod theme;

/// One drawing size.
pub(crate) struct Size {
    /// Name, used in ids and classes (`wide`, `narrow`).
    name: &'static str,
    /// Width in SVG units.
    width: i32,
    /// Height of the plot area.
    plot_height: f64,
    /// Legend right of the plot (else below it).
    legend_right: bool,
    /// About how many ticks on each axis.
    x_ticks: usize,
    y_ticks: usize,
}

/// For a desktop column (shown at most 720 px wide, so a unit is a pixel).
const WIDE: Size = Size {
    name: "wide",
    width: 720,
    plot_height: 270.0,
    legend_right: true,
    x_ticks: 12,
    y_ticks: 6,
};

/// For a phone's column of about 350 px.
const NARROW: Size = Size {
    name: "narrow",
    width: 360,
    plot_height: 210.0,
    legend_right: false,
    x_ticks: 6,
    y_ticks: 4,
};

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("chart {id:?}: {message}")]
pub(crate) struct ChartError {
    id: String,
    message: String,
}

/// The chart as two standalone `<svg>` elements (wide, then narrow), each
/// with a title and description.
pub(crate) fn render_svg(chart: &Chart) -> Result<String, ChartError> {
    let error = |message: String| ChartError {
        id: chart.id.clone(),
        message,
    };
    let colours = chart.series.len();
    if chart.kind != ChartKind::Heatmap && colours > theme::SERIES.len() {
        return Err(error(format!(
            "{colours} series, but a chart has at most {} colours: \
             show fewer series, or a table",
            theme::SERIES.len()
        )));
    }
    let mut out = String::new();
    for size in [&WIDE, &NARROW] {
        let canvas = match chart.kind {
            ChartKind::Heatmap => heatmap::draw(chart, size),
            _ => plot::draw(chart, size),
        };
        let (width, height) = (canvas.width, canvas.height);
        let body = canvas.finish().map_err(|e| error(e.to_string()))?;
        out.push_str(&svg_element(chart, size, width, height, &body));
    }
    Ok(out)
}

/// A link from a chart to its data: the address (`#table-bins-10`) and
/// the words that say it in the page's language ("Data table").
pub(crate) struct DataLink<'a> {
    pub href: &'a str,
    pub label: &'a str,
}

/// The chart in a `<figure>`: both drawings, its title, the note a reader
/// needs and a link to the data.
pub(crate) fn render_figure(chart: &Chart, data: Option<DataLink>) -> Result<String, ChartError> {
    let svg = render_svg(chart)?;
    let note = chart
        .note
        .as_ref()
        .map_or(String::new(), |n| format!(" {}", canvas::escape(n)));
    let data = data.map_or(String::new(), |link| {
        format!(
            "<span class=\"chart-data\"> <a href=\"{}\">{}</a>.</span>",
            canvas::escape(link.href),
            canvas::escape(link.label)
        )
    });
    Ok(format!(
        "<figure class=\"chart\">{svg}<figcaption><strong>{}.</strong>{note}{data}</figcaption></figure>",
        canvas::escape(&chart.title)
    ))
}

/// Scales with its container; title and description for screen readers.
fn svg_element(chart: &Chart, size: &Size, width: i32, height: i32, body: &str) -> String {
    let id = if size.name == "wide" {
        format!("chart-{}", chart.id)
    } else {
        format!("chart-{}-{}", chart.id, size.name)
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" \
         class=\"chart chart-{}\" data-kind=\"{}\" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\">\
         <title id=\"{id}-title\">{}</title><desc id=\"{id}-desc\">{}</desc>{body}</svg>\n",
        size.name,
        kind_name(chart.kind),
        canvas::escape(&chart.title),
        canvas::escape(&chart.description),
    )
}

fn kind_name(kind: ChartKind) -> &'static str {
    match kind {
        ChartKind::Bars => "bars",
        ChartKind::Deviation => "deviation",
        ChartKind::Intervals => "intervals",
        ChartKind::Lines => "lines",
        ChartKind::Heatmap => "heatmap",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::blocks::{Reference, Series, ValueFormat};

    fn chart(kind: ChartKind, log_y: bool) -> Chart {
        Chart {
            id: "c".into(),
            title: "A <title>".into(),
            description: "What it shows".into(),
            kind,
            x_label: "x".into(),
            y_label: "y".into(),
            log_y,
            y_format: ValueFormat::Probability,
            series: vec![
                Series {
                    name: "one".into(),
                    points: vec![(1.0, 0.5), (2.0, 0.25)],
                    titles: vec!["one: 1/2".into(), "one: 1/4".into()],
                    intervals: vec![(0.4, 0.6), (0.2, 0.3)],
                },
                Series {
                    name: "two".into(),
                    points: vec![(3.0, 0.125)],
                    ..Series::default()
                },
            ],
            reference: Some(Reference {
                label: "fair".into(),
                y: 0.3,
            }),
            ..Chart::default()
        }
    }

    /// The text of every element with this class, in order.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .map(|t| {
                let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
                body.trim().to_string()
            })
            .collect()
    }

    #[test]
    fn charts_are_accessible_deterministic_svg() {
        for kind in [
            ChartKind::Bars,
            ChartKind::Lines,
            ChartKind::Deviation,
            ChartKind::Intervals,
        ] {
            for log_y in [false, true] {
                let mut c = chart(kind, log_y);
                if kind == ChartKind::Deviation {
                    c.series[0].points[1].1 = -0.25;
                }
                let svg = render_svg(&c).unwrap();
                assert!(
                    svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 720 ")
                );
                assert_eq!(svg.matches("<svg ").count(), 2, "wide and narrow");
                assert!(svg.contains("<title id=\"chart-c-title\">A &lt;title&gt;</title>"));
                assert!(svg.contains("<title id=\"chart-c-narrow-title\">"));
                assert!(svg.contains("<desc id=\"chart-c-desc\">What it shows</desc>"));
                assert!(svg.contains("<title>one: 1/2</title>"), "exact titles");
                assert!(texts(&svg).iter().any(|t| t == "fair"), "legend");
                assert!(!svg.contains("#000000") && !svg.contains("#FFFFFF"));
                assert_eq!(svg, render_svg(&c).unwrap(), "deterministic");
            }
        }
    }

    #[test]
    fn bar_axes_start_at_zero_with_distinct_percentages() {
        // 10d6 mod 10: bins within 0.25 % of each other.
        let mut c = chart(ChartKind::Bars, false);
        c.series.truncate(1);
        c.series[0].points = (0..10)
            .map(|b| (b as f64, 0.0997 + b as f64 * 0.0001))
            .collect();
        c.series[0].titles.clear();
        c.reference = None;
        let svg = render_svg(&c).unwrap();
        let wide = &svg[..svg.find("</svg>").unwrap()];
        let labels = texts(wide);
        assert!(labels.contains(&"0 %".to_string()), "{labels:?}");
        assert!(labels.contains(&"10 %".to_string()), "{labels:?}");
        for pair in labels.windows(2) {
            assert_ne!(pair[0], pair[1], "{labels:?}");
        }
    }

    #[test]
    fn zeros_on_a_log_axis_are_drawn_not_dropped() {
        let mut c = chart(ChartKind::Lines, true);
        c.series = vec![Series {
            name: "bias".into(),
            points: vec![
                (2.0, 0.0),
                (3.0, 0.0),
                (4.0, 0.01),
                (5.0, 0.002),
                (6.0, 0.0),
                (7.0, 1e-4),
            ],
            ..Series::default()
        }];
        let svg = render_svg(&c).unwrap();
        let wide = &svg[..svg.find("</svg>").unwrap()];
        let series = &wide[wide.find("<g class=\"series\"").unwrap()..];
        let series = &series[..series.find("</g>").unwrap()];
        assert_eq!(series.matches("<circle").count(), 6, "every point drawn");
        assert_eq!(
            wide.matches("class=\"f-paper k-s1\"").count(),
            3,
            "zeros hollow"
        );
        // The line breaks at n = 6: two runs, 4-5 and 7 alone (not drawn).
        assert_eq!(series.matches("<polyline points=").count(), 1);
        assert!(
            texts(wide).contains(&"0".to_string()),
            "the zero line is labelled"
        );
    }

    #[test]
    fn identical_series_say_so_and_colours_never_repeat() {
        let mut c = chart(ChartKind::Lines, false);
        c.series[1].points = c.series[0].points.clone();
        let svg = render_svg(&c).unwrap();
        assert!(texts(&svg).iter().any(|t| t == "two (same as one)"));
        assert!(svg.contains("data-colour=\"s1\"") && svg.contains("data-colour=\"s2\""));
        c.series = (0..11)
            .map(|i| Series {
                name: format!("s{i}"),
                points: vec![(i as f64, 0.1)],
                ..Series::default()
            })
            .collect();
        assert!(render_svg(&c)
            .unwrap_err()
            .to_string()
            .contains("at most 10"));
    }

    /// Charts sharing one scale: the vertical axis reaches the page's
    /// highest bar, and the horizontal one covers the shared range and
    /// draws no point outside it. One vertical axis: its labels sit in one
    /// column at the left.
    #[test]
    fn charts_share_a_scale_and_a_range_on_one_axis() {
        let mut c = chart(ChartKind::Bars, false);
        c.series.truncate(1);
        c.reference = None;
        c.series[0].points = vec![(1.0, 0.05), (2.0, 0.05), (30.0, 0.05)];
        c.series[0].titles = vec!["a".into(), "b".into(), "far".into()];
        c.y_to = Some(0.1);
        c.x_range = Some((0.0, 8.0));
        let svg = render_svg(&c).unwrap();
        let wide = &svg[..svg.find("</svg>").unwrap()];
        let labels = texts(wide);
        assert!(labels.contains(&"10 %".to_string()), "{labels:?}");
        assert!(labels.contains(&"8".to_string()), "{labels:?}");
        assert!(!labels.contains(&"30".to_string()), "{labels:?}");
        assert!(!wide.contains("<title>far</title>") && wide.contains("<title>b</title>"));
        let percent_x: Vec<f64> = wide
            .split("<text")
            .skip(1)
            .filter(|t| {
                let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
                body.trim().ends_with(" %")
            })
            .map(|t| {
                let x = &t[t.find(" x=\"").unwrap() + 4..];
                x[..x.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        assert!(percent_x.len() >= 2);
        assert!(
            percent_x.iter().all(|&x| x == percent_x[0]),
            "{percent_x:?}"
        );
    }

    #[test]
    fn one_case_makes_sense() {
        // The issue: one dot on an axis from 3 to 4 with labels "1.0777".
        let mut c = chart(ChartKind::Lines, false);
        c.y_format = ValueFormat::Number;
        c.series = vec![Series {
            name: "d20".into(),
            points: vec![(3.0, 1.0777)],
            ..Series::default()
        }];
        c.reference = None;
        let svg = render_svg(&c).unwrap();
        let wide = &svg[..svg.find("</svg>").unwrap()];
        let labels = texts(wide);
        let mut unique = labels.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), labels.len(), "{labels:?}");
        assert!(labels.contains(&"3".to_string()) && labels.contains(&"0".to_string()));
    }

    /// The `y` of the `<text>` holding exactly `label`.
    fn text_y(svg: &str, label: &str) -> f64 {
        let piece = svg
            .split("<text")
            .skip(1)
            .find(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim() == label)
            .expect(label);
        let y = &piece[piece.find(" y=\"").unwrap() + 4..];
        y[..y.find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn lines_have_their_own_markers_and_are_named_at_their_ends() {
        // Eight lines from one point to ends 0.01 apart, as the
        // first-player page's expected rounds nearly are.
        let mut c = chart(ChartKind::Lines, false);
        c.y_format = ValueFormat::Number;
        c.y_from = Some(1.0);
        c.reference = None;
        c.series = (0..8)
            .map(|i| Series {
                name: format!("line {i}"),
                points: vec![(2.0, 1.1), (6.0, 1.3 + i as f64 * 0.01)],
                ..Series::default()
            })
            .collect();
        let svg = render_svg(&c).unwrap();
        let (wide, narrow) = svg.split_at(svg.find("</svg>").unwrap());
        // Every line's marker at the shared first point differs in shape
        // or fill, colour aside.
        let mut markers: Vec<String> = wide
            .split("<g class=\"series\"")
            .skip(1)
            .map(|group| {
                let mark = &group[group.find("/>").unwrap() + 2..];
                let mark = &mark[..mark.find("<title>").unwrap()];
                let hollow = mark.contains("f-paper");
                let shape: String = mark
                    .split(' ')
                    .filter(|a| {
                        !a.starts_with("class=")
                            && !a.starts_with("fill=")
                            && !a.starts_with("stroke=")
                    })
                    .collect();
                format!("{shape} {hollow}")
            })
            .collect();
        assert_eq!(markers.len(), 8);
        markers.sort();
        markers.dedup();
        assert_eq!(markers.len(), 8, "{markers:?}");
        // Wide: each name beside its line's end, at least a row apart.
        let mut ys: Vec<f64> = (0..8).map(|i| text_y(wide, &format!("line {i}"))).collect();
        ys.sort_by(f64::total_cmp);
        for pair in ys.windows(2) {
            assert!(pair[1] - pair[0] >= 17.5, "{ys:?}");
        }
        assert_eq!(wide.matches("stroke-width=\"1\"/>").count(), 8, "leaders");
        // Narrow: a key below the plot instead, no leaders.
        assert!(texts(narrow).contains(&"line 7".to_string()));
        assert_eq!(narrow.matches("stroke-width=\"1\"/>").count(), 0);
        // Two lines ending at one point: leaders could not tell them apart.
        let mut same_end = c.clone();
        same_end.series[1].points[1].1 = same_end.series[0].points[1].1;
        let svg = render_svg(&same_end).unwrap();
        let wide = &svg[..svg.find("</svg>").unwrap()];
        assert_eq!(wide.matches("stroke-width=\"1\"/>").count(), 0);
        // A line that stops short of the right edge: a key, as on a phone.
        c.series[0].points.pop();
        let svg = render_svg(&c).unwrap();
        let wide = &svg[..svg.find("</svg>").unwrap()];
        assert!(texts(wide).contains(&"line 0".to_string()));
        assert_eq!(wide.matches("stroke-width=\"1\"/>").count(), 0);
    }

    #[test]
    fn lines_may_start_at_their_floor_and_bars_never_do() {
        let mut c = chart(ChartKind::Lines, false);
        c.y_format = ValueFormat::Number;
        c.reference = None;
        c.series = vec![Series {
            name: "rounds".into(),
            points: vec![(2.0, 1.2), (3.0, 1.3), (4.0, 1.5)],
            ..Series::default()
        }];
        c.y_from = Some(1.0);
        let wide = render_svg(&c).unwrap();
        let labels = texts(&wide[..wide.find("</svg>").unwrap()]);
        assert!(labels.contains(&"1.0".to_string()), "{labels:?}");
        assert!(!labels.iter().any(|l| l == "0" || l == "0.0"), "{labels:?}");
        c.kind = ChartKind::Bars;
        let wide = render_svg(&c).unwrap();
        let labels = texts(&wide[..wide.find("</svg>").unwrap()]);
        assert!(labels.contains(&"0".to_string()), "{labels:?}");
    }

    /// Each `<text>`'s extent across the drawing, `(left, right, text)`,
    /// as [`axis::text_width`] estimates it (generously) from its anchor.
    fn extents(svg: &str) -> Vec<(f64, f64, String)> {
        svg.split("<text")
            .skip(1)
            .map(|t| {
                let attr = |name: &str| {
                    let at = &t[t.find(&format!(" {name}=\"")).unwrap() + name.len() + 3..];
                    at[..at.find('"').unwrap()].to_string()
                };
                let body = t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim();
                let size: f64 = attr("font-size").parse().unwrap();
                let width = axis::text_width(body, size);
                let x: f64 = attr("x").parse().unwrap();
                let left = match attr("text-anchor").as_str() {
                    "end" => x - width,
                    "middle" => x - width / 2.0,
                    _ => x,
                };
                (left, left + width, body.to_string())
            })
            .collect()
    }

    /// The match page's key: nine formats, six of them drawn on another's
    /// line. Every name is whole in the text of both drawings (wrapped
    /// between words where it must be), says which line it shares, and no
    /// text leaves the drawing's width.
    #[test]
    fn long_legend_labels_are_whole_and_inside_the_drawing() {
        let mut c = chart(ChartKind::Lines, false);
        c.reference = None;
        let long = "a series name of sixty characters, to be shown whole, always";
        assert_eq!(long.chars().count(), 60);
        let mut names = vec![long.to_string()];
        for length in ["single game", "best-of-three", "best-of-five"] {
            for rule in ["loser-chooses", "winner-chooses", "alternate"] {
                names.push(format!("{length}, {rule}"));
            }
        }
        c.series = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                // Every rule of one length on one line.
                let end = if i == 0 {
                    0.25
                } else {
                    0.2 / i.div_ceil(3) as f64
                };
                Series {
                    name: name.clone(),
                    points: vec![(0.0, 0.0), (20.0, end)],
                    ..Series::default()
                }
            })
            .collect();
        let svg = render_svg(&c).unwrap();
        let (wide, narrow) = svg.split_at(svg.find("</svg>").unwrap());
        for (drawing, width) in [(wide, 720.0), (narrow, 360.0)] {
            let all = texts(drawing).join(" ");
            assert!(all.contains(long), "{all}");
            assert!(
                all.contains(
                    "best-of-three, winner-chooses (same as best-of-three, loser-chooses)"
                ),
                "{all}"
            );
            assert!(all.contains("single game, alternate (same as single game, loser-chooses)"));
            for (left, right, text) in extents(drawing) {
                assert!(
                    left >= 0.0 && right <= width,
                    "{text:?} at {left}..{right} of {width}"
                );
            }
        }
        // The key wrapped on the phone's drawing: more lines than names.
        let narrow_texts = texts(narrow);
        assert!(
            !narrow_texts.iter().any(|t| t == long),
            "one line of 60 would not fit"
        );
        assert!(narrow_texts
            .iter()
            .any(|t| long.starts_with(t.as_str()) && t.len() > 20));
    }

    /// Axis titles too long for one line wrap, whole, inside the drawing,
    /// on axes and on a heatmap alike.
    #[test]
    fn long_axis_titles_wrap_inside_the_drawing() {
        for kind in [ChartKind::Bars, ChartKind::Lines, ChartKind::Heatmap] {
            let mut c = chart(kind, false);
            c.x_label =
                "the chance of the player who starts the first game winning the whole match".into();
            c.y_label =
                "match edge of the player who starts the first game, in points of percentage"
                    .into();
            let svg = render_svg(&c).unwrap();
            let (wide, narrow) = svg.split_at(svg.find("</svg>").unwrap());
            for (drawing, width) in [(wide, 720.0), (narrow, 360.0)] {
                let all = texts(drawing).join(" ");
                assert!(
                    all.contains(&c.x_label) && all.contains(&c.y_label),
                    "{all}"
                );
                for (left, right, text) in extents(drawing) {
                    assert!(
                        left >= 0.0 && right <= width,
                        "{kind:?}: {text:?} at {left}..{right} of {width}"
                    );
                }
            }
        }
    }

    #[test]
    fn figures_carry_the_note_and_the_data_link() {
        let mut c = chart(ChartKind::Bars, false);
        c.note = Some("n = 2 is exact & fair.".into());
        let link = DataLink {
            href: "#table-t",
            label: "Data table",
        };
        let figure = render_figure(&c, Some(link)).unwrap();
        assert!(figure.starts_with("<figure class=\"chart\"><svg"));
        assert!(figure.contains(
            "<figcaption><strong>A &lt;title&gt;.</strong> n = 2 is exact &amp; fair.\
             <span class=\"chart-data\"> <a href=\"#table-t\">Data table</a>.</span></figcaption></figure>"
        ));
    }
}
