//! The `dice` page: head-to-head odds first when there are several rolls,
//! then each roll's key figures, its distribution drawn and tabulated, and
//! the "at least" curves of every roll on one chart.

use crate::analyses::dice::{Analysed, Comparison, Dice, Params, Roll, RollFigures};
use crate::analyses::dice_lang::{self, Expression, Node};
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{
    Block, Cell, Chart, ChartKind, Series, Table, ValueFormat, MAX_SERIES,
};
use crate::layout::{cells, format, Layout};
use num_traits::Zero;

impl Layout for Dice {
    fn layout(params: &Params, analysed: &Analysed) -> Vec<Block> {
        let results = &analysed.results;
        let mut blocks = Vec::new();
        let expressions: Vec<&Expression> = params.rolls.0.iter().map(|r| &r.expression).collect();
        if results.comparisons.is_empty() {
            if let (Some(roll), Some(expression)) = (results.rolls.first(), expressions.first()) {
                blocks.push(Block::Verdict {
                    text: match chance(expression, roll) {
                        Some(p) => format!(
                            "Rolled once, {} ({}) is true {}.",
                            roll.name,
                            roll.expression,
                            chance_words(&p)
                        ),
                        None => single_verdict(roll, &analysed.rolls[0]),
                    },
                });
            }
        } else {
            let names: Vec<String> = results.rolls.iter().map(|r| r.name.clone()).collect();
            blocks.push(Block::Verdict {
                text: verdicts(&names, &results.comparisons),
            });
            blocks.push(Block::Table(comparison_table(&results.comparisons)));
        }
        for (index, (roll, figures)) in results.rolls.iter().zip(&analysed.rolls).enumerate() {
            let expression = expressions[index];
            blocks.push(Block::Heading {
                text: format!("{}: {}", roll.name, roll.expression),
            });
            blocks.push(Block::Text {
                text: format!(
                    "In words: {}.",
                    dice_lang::describe(&expression.tree, &expression.text)
                ),
            });
            match chance(expression, roll) {
                Some(p) => blocks.push(Block::Facts {
                    items: vec![
                        (
                            "chance".into(),
                            Cell {
                                shown: chance_words(&p),
                                exact: format::exact(&p),
                            },
                        ),
                        (
                            "equally likely outcomes".into(),
                            cells::count(&roll.total_outcomes),
                        ),
                    ],
                }),
                None => blocks.extend(roll_blocks(index + 1, roll, figures)),
            }
        }
        let rolls = results.rolls.len();
        if (2..=MAX_SERIES).contains(&rolls) {
            blocks.push(Block::Chart(at_least_chart(
                results.rolls.as_slice(),
                &analysed.rolls,
            )));
        } else if rolls > MAX_SERIES {
            blocks.push(Block::Text {
                text: format!(
                    "{rolls} rolls are more than one chart tells apart ({MAX_SERIES} colours): \
                     each roll's table above gives its chance of at least each value."
                ),
            });
        }
        for (index, (comparison, difference)) in results
            .comparisons
            .iter()
            .zip(&analysed.differences)
            .enumerate()
        {
            blocks.push(Block::Chart(Chart {
                id: format!("difference-{}", index + 1),
                title: format!("{} minus {}", comparison.a, comparison.b),
                description: format!(
                    "Exact probability of each difference between one roll of {} and one of {}; \
                     bars right of zero are rolls {} wins.",
                    comparison.a, comparison.b, comparison.a
                ),
                kind: ChartKind::Bars,
                x_label: format!("{} - {}", comparison.a, comparison.b),
                y_label: "probability".into(),
                y_format: ValueFormat::Probability,
                series: vec![Series {
                    name: "probability".into(),
                    points: difference
                        .iter()
                        .map(|d| (d.value as f64, to_f64(&d.probability)))
                        .collect(),
                    titles: difference
                        .iter()
                        .map(|d| {
                            format::exact_title(
                                &format!("difference {}", format::signed(d.value)),
                                &d.probability,
                                true,
                            )
                        })
                        .collect(),
                    ..Series::default()
                }],
                table_id: Some("comparisons".into()),
                ..Chart::default()
            }));
        }
        blocks
    }
}

/// The head-to-head answer in one sentence: for one pair, who rolls higher
/// how often; for more, the roll that beats every other (and its closest
/// contest), or that none does.
fn verdicts(names: &[String], comparisons: &[Comparison]) -> String {
    // Sentences open with words of ours, not a roll's name (which the
    // author may write in lower case).
    if let [only] = comparisons {
        return format!("Head to head, {}", pair_sentence(only));
    }
    let beats = |winner: &str, c: &Comparison| {
        (c.a == winner && c.p_a_higher > c.p_b_higher)
            || (c.b == winner && c.p_b_higher > c.p_a_higher)
    };
    let champion = names.iter().find(|name| {
        comparisons
            .iter()
            .filter(|c| &c.a == *name || &c.b == *name)
            .all(|c| beats(name, c))
    });
    let Some(champion) = champion else {
        return "No roll beats every other head to head: each pair's odds are in the table \
                below."
            .into();
    };
    // The closest contest: the pair where the champion's lead is smallest.
    let lead = |c: &Comparison| {
        if &c.a == champion {
            &c.p_a_higher - &c.p_b_higher
        } else {
            &c.p_b_higher - &c.p_a_higher
        }
    };
    let closest = comparisons
        .iter()
        .filter(|c| &c.a == champion || &c.b == champion)
        .min_by(|x, y| lead(x).cmp(&lead(y)))
        .expect("two or more rolls give the champion a pair");
    format!(
        "Of these rolls, {champion} beats every other head to head; its closest contest: {}",
        pair_sentence(closest)
    )
}

/// "heroic rolls higher than standard 61.3 % of the time, standard 33.9 %,
/// and they tie 4.8 %."
fn pair_sentence(c: &Comparison) -> String {
    let (leader, trailer, p_lead, p_trail) = if c.p_b_higher > c.p_a_higher {
        (&c.b, &c.a, &c.p_b_higher, &c.p_a_higher)
    } else {
        (&c.a, &c.b, &c.p_a_higher, &c.p_b_higher)
    };
    if p_lead == p_trail {
        format!(
            "{} and {} are even: each rolls higher {} of the time, and they tie {}.",
            c.a,
            c.b,
            format::percent(p_lead),
            format::percent(&c.p_tie)
        )
    } else {
        format!(
            "{leader} rolls higher than {trailer} {} of the time, {trailer} higher {}, \
             and they tie {}.",
            format::percent(p_lead),
            format::percent(p_trail),
            format::percent(&c.p_tie)
        )
    }
}

fn comparison_table(comparisons: &[Comparison]) -> Table {
    Table {
        id: "comparisons".into(),
        caption: "Two players, one roll each: who rolls higher".into(),
        columns: ["a", "b", "a higher", "tie", "b higher"]
            .map(String::from)
            .to_vec(),
        rows: comparisons
            .iter()
            .map(|c| {
                vec![
                    Cell::plain(&c.a),
                    Cell::plain(&c.b),
                    cells::percent(&c.p_a_higher),
                    cells::percent(&c.p_tie),
                    cells::percent(&c.p_b_higher),
                ]
            })
            .collect(),
    }
}

fn roll_blocks(index: usize, roll: &Roll, figures: &RollFigures) -> Vec<Block> {
    let values = |list: &[i64]| {
        list.iter()
            .map(format::signed)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (low, high) = (
        roll.outcomes.first().map_or(0, |o| o.value),
        roll.outcomes.last().map_or(0, |o| o.value),
    );
    let exact_and_decimal = |value: &Exact| {
        let exact = format::exact(value);
        let shown = match exact.strip_suffix("/1") {
            Some(whole) => whole.to_string(),
            None => format!("{exact} ≈ {}", format::decimal(value)),
        };
        Cell { shown, exact }
    };
    vec![
        Block::Facts {
            items: vec![
                ("mean".into(), exact_and_decimal(&roll.mean)),
                ("variance".into(), exact_and_decimal(&roll.variance)),
                most_likely(roll, &figures.modes, values),
                ("median".into(), Cell::plain(format::signed(figures.median))),
                (
                    "from".into(),
                    Cell::plain(format!(
                        "{} to {}",
                        format::signed(low),
                        format::signed(high)
                    )),
                ),
                (
                    "equally likely outcomes".into(),
                    cells::count(&roll.total_outcomes),
                ),
            ],
        },
        Block::Chart(Chart {
            id: format!("roll-{index}"),
            title: format!("{}: {}", roll.name, roll.expression),
            description: format!(
                "Exact probability of each value of {} ({}).",
                roll.name, roll.expression
            ),
            kind: ChartKind::Bars,
            x_label: "value".into(),
            y_label: "probability".into(),
            y_format: ValueFormat::Probability,
            series: vec![Series {
                name: roll.name.clone(),
                points: roll
                    .outcomes
                    .iter()
                    .map(|o| (o.value as f64, to_f64(&o.probability)))
                    .collect(),
                titles: roll
                    .outcomes
                    .iter()
                    .map(|o| format::exact_title(&format::signed(o.value), &o.probability, true))
                    .collect(),
                ..Series::default()
            }],
            at_least: Some(at_least_series("at least", roll, figures)),
            table_id: Some(format!("roll-{index}")),
            ..Chart::default()
        }),
        Block::Table(Table {
            id: format!("roll-{index}"),
            caption: format!("{} ({}): every value", roll.name, roll.expression),
            columns: ["value", "ways", "probability", "at least", "at most"]
                .map(String::from)
                .to_vec(),
            rows: roll
                .outcomes
                .iter()
                .zip(figures.at_least.iter().zip(&figures.at_most))
                .map(|(o, (at_least, at_most))| {
                    vec![
                        Cell::plain(format::signed(o.value)),
                        cells::count(&o.ways),
                        cells::percent(&o.probability),
                        cells::percent(at_least),
                        cells::percent(at_most),
                    ]
                })
                .collect(),
        }),
    ]
}

/// A comparison of totals (`1d20+5 >= 15`) is a chance, not a spread of
/// 0 and 1: the chance it is true, if `expression` is one.
fn chance(expression: &Expression, roll: &Roll) -> Option<Exact> {
    matches!(expression.tree.node, Node::Compare(..)).then(|| {
        roll.outcomes
            .iter()
            .find(|o| o.value == 1)
            .map_or_else(Exact::zero, |o| o.probability.clone())
    })
}

/// "55 %, exactly 11/20" (a whole chance alone: "100 %").
fn chance_words(p: &Exact) -> String {
    if p.is_integer() {
        format::percent(p)
    } else {
        format!("{}, exactly {}", format::percent(p), format::exact(p))
    }
}

/// Every roll's chance of at least each value, on one chart to compare.
fn at_least_chart(rolls: &[Roll], figures: &[RollFigures]) -> Chart {
    Chart {
        id: "at-least".into(),
        title: "Chance of rolling at least each value".into(),
        description: "For each roll, the exact probability of a value at least as high as \
                      each value on the axis."
            .into(),
        kind: ChartKind::Lines,
        x_label: "value".into(),
        y_label: "probability of at least".into(),
        y_format: ValueFormat::Probability,
        series: rolls
            .iter()
            .zip(figures)
            .map(|(roll, f)| at_least_series(&roll.name, roll, f))
            .collect(),
        ..Chart::default()
    }
}

/// A roll's chance of at least each of its values, with exact tooltips.
fn at_least_series(name: &str, roll: &Roll, figures: &RollFigures) -> Series {
    let pairs = || roll.outcomes.iter().zip(&figures.at_least);
    Series {
        name: name.into(),
        points: pairs().map(|(o, p)| (o.value as f64, to_f64(p))).collect(),
        titles: pairs()
            .map(|(o, p)| {
                format::exact_title(
                    &format!("{name}: {} or more", format::signed(o.value)),
                    p,
                    true,
                )
            })
            .collect(),
        ..Series::default()
    }
}

/// "Rolled once, 4d6dl1 averages 12.24, from 3 to 18; 13 is the likeliest value." The
/// answer a reader of a single roll wants first.
fn single_verdict(roll: &Roll, figures: &RollFigures) -> String {
    let (low, high) = (
        roll.outcomes.first().map_or(0, |o| o.value),
        roll.outcomes.last().map_or(0, |o| o.value),
    );
    let likeliest = match figures.modes.as_slice() {
        all if all.len() == roll.outcomes.len() => "every value is equally likely".into(),
        [one] => format!("{} is the likeliest value", format::signed(one)),
        many => format!(
            "{} are equally the likeliest values",
            many.iter()
                .map(format::signed)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!(
        "Rolled once, {} ({}) averages {}, from {} to {}; {likeliest}.",
        roll.name,
        roll.expression,
        format::decimal(&roll.mean),
        format::signed(low),
        format::signed(high)
    )
}

/// The "most likely" fact: the value, the tied values, or, when every
/// possible value is as likely as the others (a uniform die), that, rather
/// than a list of every value.
fn most_likely(roll: &Roll, modes: &[i64], values: impl Fn(&[i64]) -> String) -> (String, Cell) {
    let possible = roll
        .outcomes
        .iter()
        .filter(|o| !o.probability.is_zero())
        .count();
    match modes.len() {
        1 => ("most likely".into(), Cell::plain(values(modes))),
        n if n == possible => (
            "most likely".into(),
            Cell::plain(format!("none: all {n} values are equally likely")),
        ),
        _ => ("most likely (tied)".into(), Cell::plain(values(modes))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::Analysis;
    use crate::progress::Progress;

    /// Negative values read with the minus sign (U+2212) everywhere a
    /// reader sees them: verdict, facts, table cells and tooltips.
    #[test]
    fn negative_values_read_with_one_minus_sign() {
        let params: Params = serde_yaml::from_str("rolls:\n  low: 1d6-4\n").unwrap();
        let analysed = Dice::analyse(&params, &Progress::hidden());
        let shown = format!("{:?}", Dice::layout(&params, &analysed));
        assert!(shown.contains("from −3 to 2"), "{shown}");
        assert!(shown.contains("−1/2 ≈ −0.5"), "{shown}");
        assert!(shown.contains("shown: \"−3\""), "{shown}");
        assert!(shown.contains("at least: −3 or more"), "{shown}");
        // (The charts' points are numbers, not text: (-3.0, …).)
        for ascii in ["-1/2", "\"-3\"", "\"-1\"", "from -3", ": -", "\"-2:"] {
            assert!(!shown.contains(ascii), "{ascii:?} in {shown}");
        }
    }

    fn verdict_of(yaml: &str) -> String {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        let analysed = Dice::analyse(&params, &Progress::hidden());
        match Dice::layout(&params, &analysed).remove(0) {
            Block::Verdict { text } => text,
            other => panic!("{other:?}"),
        }
    }

    /// The "most likely" fact of each roll on a page of `yaml`.
    fn most_likely_of(yaml: &str) -> Vec<(String, String)> {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        let analysed = Dice::analyse(&params, &Progress::hidden());
        Dice::layout(&params, &analysed)
            .into_iter()
            .filter_map(|block| match block {
                Block::Facts { items } => items
                    .into_iter()
                    .find(|(label, _)| label.starts_with("most likely"))
                    .map(|(label, cell)| (label, cell.shown)),
                _ => None,
            })
            .collect()
    }

    /// A uniform roll has no most likely value: it says so rather than
    /// listing every value as tied; a real tie still lists its values.
    #[test]
    fn a_uniform_roll_has_no_most_likely_value() {
        let got =
            most_likely_of("rolls:\n  a: d20\n  b: 2d6\n  c: d{1,1,2,2,3}\n  d: d{0,0,5}*0+d2\n");
        let want = [
            ("most likely", "none: all 20 values are equally likely"),
            ("most likely", "7"),
            ("most likely (tied)", "1, 2"),
            ("most likely", "none: all 2 values are equally likely"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(l, v)| (l.to_string(), v.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn the_verdict_names_the_roll_that_beats_every_other_or_says_none_does() {
        // From the ability-score page: rerolling ones beats 4d6dl1 (55.08% to
        // 34.75%), 3d6 and 2d6+6 (48.06% to 40.76%, the closest).
        let text = verdict_of(
            "rolls:\n  4d6 drop lowest: 4d6dl1\n  3d6 straight: 3d6\n  \
             reroll ones: 4d6ro1dl1\n  heroic: 2d6+6\n",
        );
        assert!(
            text.starts_with(
                "Of these rolls, reroll ones beats every other head to head; its closest \
                 contest: reroll ones rolls higher than heroic 48.0571 %"
            ),
            "{text}"
        );
        // Efron's dice go round in a circle, each beating the next 2/3 of
        // the time: no roll beats every other.
        let text = verdict_of(
            "rolls:\n  A: d{4,4,4,4,0,0}\n  B: d{3,3,3,3,3,3}\n  C: d{6,6,2,2,2,2}\n  \
             D: d{5,5,5,1,1,1}\n",
        );
        assert!(text.starts_with("No roll beats every other"), "{text}");
        assert_eq!(
            verdict_of("rolls:\n  one die: d6\n"),
            "Rolled once, one die (d6) averages 3.5, from 1 to 6; every value is equally likely."
        );
        assert_eq!(
            verdict_of("rolls:\n  two dice: 2d6\n"),
            "Rolled once, two dice (2d6) averages 7, from 2 to 12; 7 is the likeliest value."
        );
    }

    #[test]
    fn the_page_leads_with_the_head_to_head() {
        let params: Params =
            serde_yaml::from_str("rolls:\n  standard: 4d6dl1\n  heroic: 2d6+6\n").unwrap();
        let analysed = Dice::analyse(&params, &Progress::hidden());
        let blocks = Dice::layout(&params, &analysed);
        let Block::Verdict { text } = &blocks[0] else {
            panic!("{:?}", blocks[0])
        };
        // heroic (2d6+6, mean 13) against standard (4d6dl1, mean 12.24).
        assert!(
            text.starts_with("Head to head, heroic rolls higher than standard"),
            "{text}"
        );
        let page = crate::layout::ScenarioPage {
            results: Dice::contract(&analysed, serde_json::value::Serializer).unwrap(),
            blocks,
        };
        let table = page.table("roll-1").unwrap();
        assert_eq!(table.rows.len(), 16);
        assert_eq!(table.rows[15][0].shown, "18");
        assert_eq!(table.rows[15][1].exact, "21");
        assert_eq!(table.rows[15][2].exact, "7/432");
        assert!(page.chart("at-least").is_some() && page.chart("difference-1").is_some());
    }

    #[test]
    fn more_rolls_than_colours_get_a_sentence_not_a_chart_that_cannot_draw() {
        // Eleven to 26 rolls passed `eval` and failed the build: "chart
        // at-least: 11 series" (issue 27).
        for count in [10, 11, 26] {
            let rolls: String = (1..=count)
                .map(|i| format!("  r{i}: d{}\n", i + 1))
                .collect();
            let params: Params = serde_yaml::from_str(&format!("rolls:\n{rolls}")).unwrap();
            let analysed = Dice::analyse(&params, &Progress::hidden());
            let blocks = Dice::layout(&params, &analysed);
            let chart = blocks
                .iter()
                .find(|b| matches!(b, Block::Chart(c) if c.id == "at-least"));
            let said = blocks.iter().any(
                |b| matches!(b, Block::Text { text } if text.starts_with(&format!("{count} rolls are more"))),
            );
            assert_eq!(
                (chart.is_some(), said),
                (count <= MAX_SERIES, count > MAX_SERIES)
            );
            if let Some(Block::Chart(chart)) = chart {
                // The charts refuse more series than colours (plus the
                // at-least line, which this chart does not have).
                assert!(chart.series.len() <= MAX_SERIES && chart.at_least.is_none());
            }
        }
    }
}
