//! The `die-test` page: the verdict in a sentence, the tests, observed
//! frequencies with their intervals against the fair chances, and the rolls
//! it takes to notice a bias.

use crate::analyses::die_test_kind::{DieTest, Face, Params, Results, ENUMERATION_LIMIT};
use crate::analyses::stats::ChiSquare;
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Reference, Series, Table, ValueFormat};
use crate::layout::cells::{self, fraction, yes_no};
use crate::layout::format;
use crate::layout::Layout;

impl Layout for DieTest {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        vec![
            Block::Verdict {
                text: verdict(params, results),
            },
            Block::Text {
                text: reading(results).into(),
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
                text: power_text(results),
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

/// One sentence a player understands: how often chance alone gives a
/// result this far from the die's chances, and what that says.
fn verdict(params: &Params, results: &Results) -> String {
    let p = headline_p_value(results);
    let how = if results.exact_p_value.is_some() {
        "exact multinomial test"
    } else {
        "chi-square approximation"
    };
    let answer = if p < 0.01 {
        "this die is likely biased"
    } else if p < 0.05 {
        "unusual, but not conclusive"
    } else {
        "no evidence of bias"
    };
    format!(
        "With {} rolls of this {}, a bias this large or larger would appear by chance in {} \
         of fair dice ({how}): {answer}.",
        format::count(&results.rolls.into()),
        params.die,
        match &results.exact_p_value {
            Some(exact) => format::rough_percent(exact),
            None => format::rough_percent_of(p),
        }
    )
}

/// How to read the verdict's p-value.
fn reading(results: &Results) -> &'static str {
    let p = headline_p_value(results);
    if p < 0.01 {
        "Such a result is rare for a fair die: this die is likely biased, or the rolls were not \
         recorded fairly."
    } else if p < 0.05 {
        "That is unusual for a fair die, but not conclusive: roll it more to be sure."
    } else {
        "That is ordinary for a fair die: these rolls show no evidence of bias (which does not \
         prove the die fair: see how many rolls it takes below)."
    }
}

/// A test's statistic, degrees of freedom and p-value: rounded as shown,
/// and in full as exact (the shortest text that reads back as the same
/// floating-point number).
fn test_line(test: &ChiSquare) -> Cell {
    Cell {
        shown: format!(
            "{} with {} degrees of freedom, p = {}",
            format::float(test.statistic),
            test.df,
            format::float(test.p_value)
        ),
        exact: format!(
            "{} with {} degrees of freedom, p = {}",
            test.statistic, test.df, test.p_value
        ),
    }
}

fn facts(params: &Params, results: &Results) -> Vec<(String, Cell)> {
    let exact = match &results.exact_p_value {
        Some(p) => Cell {
            shown: format!("{} ({})", format::decimal(p), format::exact(p)),
            exact: format::exact(p),
        },
        None => Cell::plain(format!(
            "not computed: more than {} outcomes to enumerate, so the verdict uses the \
             chi-square approximation",
            format::count(&ENUMERATION_LIMIT.into())
        )),
    };
    vec![
        ("die".into(), Cell::plain(params.die.to_string())),
        (
            "rolls".into(),
            crate::layout::cells::count(&results.rolls.into()),
        ),
        ("Pearson chi-square".into(), test_line(&results.chi_square)),
        ("G-test".into(), test_line(&results.g_test)),
        ("exact multinomial p-value".into(), exact),
    ]
}

fn faces_table(results: &Results) -> Table {
    let rolls = results.rolls;
    Table {
        id: "faces".into(),
        caption: "Each face: observed against expected, with its 95\u{a0}% exact \
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
                    cells::integer(face.observed),
                    fraction(&expected_count),
                    cells::percent(&share),
                    cells::percent(&face.expected),
                    cells::float_percent(face.interval[0]),
                    cells::float_percent(face.interval[1]),
                    yes_no(face.expected_in_interval),
                ]
            })
            .collect(),
    }
}

/// Observed shares with their exact intervals as error bars, and the fair
/// chance as a line (or as points of their own, when the faces' chances
/// differ). Every point's tooltip carries its exact fraction.
fn frequency_chart(params: &Params, results: &Results) -> Chart {
    let rolls = results.rolls.max(1);
    let observed = |f: &Face| crate::engine::ratio(&f.observed.into(), &rolls.into());
    let equal = results
        .faces
        .windows(2)
        .all(|w| w[0].expected == w[1].expected);
    let mut series = vec![Series {
        name: "observed share, with its 95\u{a0}% interval".into(),
        points: results
            .faces
            .iter()
            .map(|f| (f.face as f64, to_f64(&observed(f))))
            .collect(),
        titles: results
            .faces
            .iter()
            .map(|f| {
                let share = observed(f);
                format!(
                    "face {}: {} of {} rolls = {} ({}); 95\u{a0}% interval {} to {}",
                    f.face,
                    f.observed,
                    rolls,
                    format::exact(&share),
                    format::percent(&share),
                    format::float_percent(f.interval[0]),
                    format::float_percent(f.interval[1])
                )
            })
            .collect(),
        intervals: results
            .faces
            .iter()
            .map(|f| (f.interval[0], f.interval[1]))
            .collect(),
    }];
    let reference = match results.faces.first() {
        Some(face) if equal => Some(Reference {
            label: format!("fair share {}", format::exact(&face.expected)),
            y: to_f64(&face.expected),
        }),
        _ => {
            series.push(Series {
                name: "fair share".into(),
                points: results
                    .faces
                    .iter()
                    .map(|f| (f.face as f64, to_f64(&f.expected)))
                    .collect(),
                titles: results
                    .faces
                    .iter()
                    .map(|f| {
                        format!(
                            "face {}: fair share {} ({})",
                            f.face,
                            format::exact(&f.expected),
                            format::percent(&f.expected)
                        )
                    })
                    .collect(),
                ..Series::default()
            });
            None
        }
    };
    Chart {
        id: "frequencies".into(),
        title: format!("Observed share of each face of {}", params.die),
        description: "The share of rolls showing each face, with the 95\u{a0}% exact \
                      (Clopper-Pearson) interval of its true chance as an error bar, against \
                      the share a fair die gives."
            .into(),
        kind: ChartKind::Intervals,
        x_label: "face".into(),
        y_label: "share of rolls".into(),
        log_y: false,
        y_format: ValueFormat::Probability,
        x_ticks: results
            .faces
            .iter()
            .map(|f| (f.face as f64, f.face.to_string()))
            .collect(),
        series,
        reference,
        table_id: Some("faces".into()),
        ..Chart::default()
    }
}

/// What the power table gives, and how its rolls were found.
fn power_text(results: &Results) -> String {
    let mut text = String::from(
        "A biased die is only noticed with enough rolls. The table gives the least rolls for \
         the chi-square test at the 5\u{a0}% level to notice, 80\u{a0}% of the time, a face that comes up \
         more often than it should by each margin (the other faces sharing the rest in \
         proportion). They come from the test's own power: the chance, summed over every way \
         the rolls can fall, that its statistic passes the critical value.",
    );
    if results.power.iter().any(|row| row.approximation) {
        text.push_str(
            " Where that sum is too costly (many rolls or many faces), the table conditions on \
             the favoured face instead: its count is still summed exactly, and the other \
             faces, which then fall as a fair die's do, are read from their own chi-square \
             distribution. Where both were computed, the two powers differ by less than \
             0.002. Those rows are marked.",
        );
    }
    text
}

fn power_table(results: &Results) -> Table {
    Table {
        id: "power".into(),
        caption:
            "Rolls needed to notice a favoured face (chi-square test, 5\u{a0}% level, 80\u{a0}% \
                  power)"
                .into(),
        columns: [
            "face comes up more often by",
            "face",
            "rolls needed",
            "found by",
        ]
        .map(String::from)
        .to_vec(),
        rows: results
            .power
            .iter()
            .map(|row| {
                vec![
                    Cell {
                        shown: format::percent(&row.advantage),
                        exact: format::exact(&row.advantage),
                    },
                    Cell::plain(row.face.to_string()),
                    match row.rolls_needed {
                        Some(n) => Cell::plain(format::count(&n.into())),
                        None => Cell::plain("—"),
                    },
                    Cell::plain(match (row.rolls_needed, row.approximation) {
                        (None, _) => "no number of rolls under a billion",
                        (Some(_), false) => "the test's own power",
                        (Some(_), true) => "the power given the favoured face",
                    }),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::die_test_kind::{test, DieFaces};
    use crate::lang::dice::Expression;

    #[test]
    fn the_page_opens_with_its_verdict_and_charts_intervals_as_error_bars() {
        let die = DieFaces::of(&Expression::read("d6").unwrap()).unwrap();
        let observed = [5, 8, 9, 8, 10, 20];
        let params = Params {
            die: die.clone(),
            counts: None,
            rolls: None,
            tallied: Some(observed.to_vec()),
        };
        let results = test(&die, &observed);
        let blocks = DieTest::layout(&params, &results);
        let Block::Verdict { text } = &blocks[0] else {
            panic!("the verdict comes first")
        };
        // The exact multinomial p-value of the textbook die, rounded for a
        // reader: between 0.5 % and 5 %.
        assert!(
            text.starts_with(
                "With 60 rolls of this d6, a bias this large or larger would appear by chance in "
            ),
            "{text}"
        );
        assert!(
            text.ends_with("(exact multinomial test): unusual, but not conclusive."),
            "{text}"
        );
        let chart = blocks
            .iter()
            .find_map(|b| match b {
                Block::Chart(chart) => Some(chart),
                _ => None,
            })
            .unwrap();
        assert_eq!(chart.kind, ChartKind::Intervals);
        assert_eq!(chart.series.len(), 1);
        let series = &chart.series[0];
        assert_eq!(series.points[5], (6.0, 20.0 / 60.0));
        assert_eq!(
            series.intervals[5],
            (results.faces[5].interval[0], results.faces[5].interval[1])
        );
        assert!(
            series.titles[5].starts_with("face 6: 20 of 60 rolls = 1/3"),
            "{}",
            series.titles[5]
        );
        assert_eq!(chart.reference.as_ref().unwrap().label, "fair share 1/6");
        // Shares read as percentages, as chances do everywhere, in the
        // table and the tooltip alike (with the exact fraction beside).
        assert!(
            series.titles[5]
                .starts_with("face 6: 20 of 60 rolls = 1/3 (33.3333\u{a0}%); 95\u{a0}% interval "),
            "{}",
            series.titles[5]
        );
        let faces = blocks
            .iter()
            .find_map(|b| match b {
                Block::Table(t) if t.columns.iter().any(|c| c == "observed share") => Some(t),
                _ => None,
            })
            .unwrap();
        let row: Vec<&str> = faces.rows[5].iter().map(|c| c.shown.as_str()).collect();
        assert_eq!(&row[3..5], ["33.3333\u{a0}%", "16.6667\u{a0}%"]);
        assert!(
            row[5].ends_with("\u{a0}%") && row[6].ends_with("\u{a0}%"),
            "{row:?}"
        );
    }
}
