//! The `die-test` page: the verdict in a sentence, the tests, observed
//! frequencies with their intervals against the fair chances, and the rolls
//! it takes to notice a bias.

use crate::analyses::die_test::{DieTest, Params, Results, ENUMERATION_LIMIT};
use crate::analyses::stats::ChiSquare;
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Reference, Series, Table};
use crate::layout::cells::{fraction, yes_no};
use crate::layout::format;
use crate::layout::Layout;

impl Layout for DieTest {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        vec![
            Block::Text {
                text: verdict(params, results),
            },
            Block::Facts {
                items: facts(params, results),
            },
            Block::Chart(frequency_chart(params, results)),
            Block::Table(faces_table(results)),
            Block::Heading {
                text: "How many rolls it takes".into(),
            },
            Block::Text {
                text: "A biased die is only noticed with enough rolls. The table gives the \
                       rolls for the chi-square test at the 5 % level to notice, 80 % of the \
                       time, a face that comes up more often than it should by each margin \
                       (the other faces sharing the rest in proportion)."
                    .into(),
            },
            Block::Table(power_table(results)),
        ]
    }
}

/// The p-value the verdict rests on: exact when computed, else chi-square's.
fn headline_p_value(results: &Results) -> f64 {
    results
        .exact_p_value
        .as_ref()
        .map_or(results.chi_square.p_value, to_f64)
}

/// One sentence a player understands.
fn verdict(params: &Params, results: &Results) -> String {
    let p = headline_p_value(results);
    let how = if results.exact_p_value.is_some() {
        "exact multinomial test"
    } else {
        "chi-square approximation"
    };
    let reading = if p < 0.01 {
        "Such a result is rare for a fair die: this die is likely biased, or the rolls were not \
         recorded fairly."
    } else if p < 0.05 {
        "That is unusual for a fair die, but not conclusive: roll it more to be sure."
    } else {
        "That is ordinary for a fair die: these rolls show no evidence of bias (which does not \
         prove the die fair: see how many rolls it takes below)."
    };
    format!(
        "With {} rolls of this {}, a departure from the expected counts this large or larger \
         would appear by chance in {} of fair dice ({how}). {reading}",
        format::count(&results.rolls.into()),
        params.die,
        percent(p)
    )
}

fn percent(p: f64) -> String {
    format!("{} %", format::float(p * 100.0))
}

fn test_line(test: &ChiSquare) -> String {
    format!(
        "{} with {} degrees of freedom, p = {}",
        format::float(test.statistic),
        test.df,
        format::float(test.p_value)
    )
}

fn facts(params: &Params, results: &Results) -> Vec<(String, String)> {
    let exact = match &results.exact_p_value {
        Some(p) => format!(
            "{} ({})",
            format::decimal(p),
            crate::engine::exact_string(p)
        ),
        None => format!(
            "not computed: more than {} outcomes to enumerate, so the verdict uses the \
             chi-square approximation",
            format::count(&ENUMERATION_LIMIT.into())
        ),
    };
    vec![
        ("die".into(), params.die.to_string()),
        ("rolls".into(), format::count(&results.rolls.into())),
        ("Pearson chi-square".into(), test_line(&results.chi_square)),
        ("G-test".into(), test_line(&results.g_test)),
        ("exact multinomial p-value".into(), exact),
    ]
}

fn faces_table(results: &Results) -> Table {
    let rolls = results.rolls;
    Table {
        id: "faces".into(),
        caption: "Each face: observed against expected, with its 95 % exact \
                  (Clopper-Pearson) interval"
            .into(),
        columns: [
            "face",
            "observed",
            "expected",
            "observed share",
            "expected share",
            "interval low",
            "interval high",
            "expected in interval",
        ]
        .map(String::from)
        .to_vec(),
        rows: results
            .faces
            .iter()
            .map(|face| {
                let expected_count = &face.expected * Exact::from_integer(rolls.into());
                let share = crate::engine::ratio(&face.observed.into(), &rolls.into());
                vec![
                    Cell::plain(face.face.to_string()),
                    Cell::plain(face.observed.to_string()),
                    fraction(&expected_count),
                    fraction(&share),
                    fraction(&face.expected),
                    Cell::plain(format::float(face.interval[0])),
                    Cell::plain(format::float(face.interval[1])),
                    yes_no(face.expected_in_interval),
                ]
            })
            .collect(),
    }
}

/// Observed shares with their intervals, and the fair chance as a line
/// (or a series, when the faces' chances differ).
fn frequency_chart(params: &Params, results: &Results) -> Chart {
    let rolls = results.rolls.max(1) as f64;
    let points = |value: &dyn Fn(&crate::analyses::die_test::Face) -> f64| {
        results
            .faces
            .iter()
            .map(|f| (f.face as f64, value(f)))
            .collect::<Vec<_>>()
    };
    let equal = results
        .faces
        .windows(2)
        .all(|w| w[0].expected == w[1].expected);
    let mut series = vec![
        Series {
            name: "observed share".into(),
            points: points(&|f| f.observed as f64 / rolls),
            ..Series::default()
        },
        Series {
            name: "95 % interval, low".into(),
            points: points(&|f| f.interval[0]),
            ..Series::default()
        },
        Series {
            name: "95 % interval, high".into(),
            points: points(&|f| f.interval[1]),
            ..Series::default()
        },
    ];
    let reference = match results.faces.first() {
        Some(face) if equal => Some(Reference {
            label: format!("fair share {}", crate::engine::exact_string(&face.expected)),
            y: to_f64(&face.expected),
        }),
        _ => {
            series.push(Series {
                name: "fair share".into(),
                points: points(&|f| to_f64(&f.expected)),
                ..Series::default()
            });
            None
        }
    };
    Chart {
        id: "frequencies".into(),
        title: format!("Observed share of each face of {}", params.die),
        description: "The share of rolls showing each face, with the 95 % exact interval of \
                      its true chance, against the share a fair die gives."
            .into(),
        kind: ChartKind::Lines,
        x_label: "face".into(),
        y_label: "share of rolls".into(),
        log_y: false,
        series,
        reference,
        table_id: Some("faces".into()),
        ..Chart::default()
    }
}

fn power_table(results: &Results) -> Table {
    Table {
        id: "power".into(),
        caption: "Rolls needed to notice a favoured face (chi-square test, 5 % level, 80 % \
                  power)"
            .into(),
        columns: ["face comes up more often by", "face", "rolls needed"]
            .map(String::from)
            .to_vec(),
        rows: results
            .power
            .iter()
            .map(|row| {
                let percent = &row.advantage * Exact::from_integer(100.into());
                vec![
                    Cell {
                        shown: format!("{} %", format::decimal(&percent)),
                        exact: crate::engine::exact_string(&row.advantage),
                    },
                    Cell::plain(row.face.to_string()),
                    match row.rolls_needed {
                        Some(n) => Cell::plain(format::count(&n.into())),
                        None => Cell::plain("—"),
                    },
                ]
            })
            .collect(),
    }
}
