//! The `dice` page: head-to-head odds first when there are several rolls,
//! then each roll's key figures, its distribution drawn and tabulated, and
//! the "at least" curves of every roll on one chart.

use crate::analyses::dice::{
    Analysed, Comparison, Dice, Params, Question, Results, Roll, RollFigures,
};
use crate::engine::{to_f64, Exact};
use crate::lang::{
    self,
    dice::{Expression, Node},
};
use crate::layout::blocks::{
    Block, Cell, Chart, ChartKind, Series, Table, ValueFormat, MAX_SERIES,
};
use crate::layout::{cells, format, Layout};
use num_traits::Zero;

mod head_to_head;
#[cfg(test)]
mod tests;

pub(crate) use head_to_head::{comparison_table, verdicts};

impl Layout for Dice {
    fn layout(params: &Params, analysed: &Analysed) -> Vec<Block> {
        let results = &analysed.results;
        let view = View::of(results);
        let mut blocks = Vec::new();
        let expressions: Vec<&Expression> = params.rolls.0.iter().map(|r| &r.expression).collect();
        let question = params.question();
        let several = results.rolls.len() > 1;
        let explosions = explosion_sentence(results, &analysed.rolls);
        let verdict = match (several, question) {
            (false, _) => match (results.rolls.first(), expressions.first()) {
                (Some(roll), Some(expression)) => match chance(expression, roll) {
                    Some(p) => format!(
                        "Rolled once, {} ({}) is true {}.",
                        roll.name,
                        roll.expression,
                        chance_words(&p)
                    ),
                    None => single_verdict(roll, &analysed.rolls[0]),
                },
                _ => String::new(),
            },
            (true, Question::Target) => target_sentence(results, analysed),
            (true, Question::HeadToHead) => {
                let names: Vec<String> = results.rolls.iter().map(|r| r.name.clone()).collect();
                verdicts(&names, &results.comparisons)
            }
            (true, Question::Distribution) => spread_sentence(results),
        };
        blocks.push(Block::Verdict {
            text: match explosions {
                Some(more) => format!("{verdict} {more}"),
                None => verdict,
            },
        });
        let targets =
            (several && !analysed.targets.is_empty()).then(|| target_table(results, analysed));
        let comparisons = several.then(|| comparison_table(&results.comparisons));
        let mut tables_after_rolls = Vec::new();
        match question {
            Question::Target => {
                blocks.extend(targets.map(Block::Table));
                tables_after_rolls.extend(comparisons.map(Block::Table));
            }
            Question::HeadToHead => {
                blocks.extend(comparisons.map(Block::Table));
                blocks.extend(targets.map(Block::Table));
            }
            Question::Distribution => {
                tables_after_rolls.extend(targets.map(Block::Table));
                tables_after_rolls.extend(comparisons.map(Block::Table));
            }
        }
        for (index, (roll, figures)) in results.rolls.iter().zip(&analysed.rolls).enumerate() {
            let expression = expressions[index];
            blocks.push(Block::Heading {
                text: format!("{}: {}", roll.name, roll.expression),
            });
            blocks.push(Block::Text {
                text: format!(
                    "In words: {}.",
                    lang::dice::describe(&expression.tree, &expression.text)
                ),
            });
            if let Some(depth) = figures.explode_depth {
                blocks.push(Block::Text {
                    text: explosion_words(depth, figures.cut_short.as_ref()),
                });
            }
            for marked in &figures.criticals {
                blocks.push(Block::Text {
                    text: format!(
                        "Roll20 marks {}, the total unchanged: a kept die bears it in {} of \
                         rolls (exactly {}).",
                        marked.mark,
                        format::percent(&marked.chance),
                        format::exact(&marked.chance)
                    ),
                });
            }
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
                None => blocks.extend(roll_blocks(index + 1, roll, figures, &view)),
            }
        }
        let rolls = results.rolls.len();
        blocks.extend(tables_after_rolls);
        if (1..=MAX_SERIES).contains(&rolls) {
            blocks.push(Block::Chart(at_least_chart(analysed, view.range)));
        } else if rolls > MAX_SERIES {
            blocks.push(Block::Text {
                text: format!(
                    "{rolls} rolls are more than one chart tells apart ({MAX_SERIES} colours): \
                     each roll's table above gives its chance of at least each value."
                ),
            });
        }
        let differences: Vec<(Points, (i64, i64))> = analysed
            .differences
            .iter()
            .map(|d| {
                let points: Vec<(i64, &Exact)> =
                    d.iter().map(|d| (d.value, &d.probability)).collect();
                let range = central(&points);
                (points, range)
            })
            .collect();
        // The differences share one scale too.
        let tallest = differences
            .iter()
            .map(|(points, range)| tallest(points, *range))
            .fold(0.0, f64::max);
        for (index, (comparison, (points, range))) in
            results.comparisons.iter().zip(&differences).enumerate()
        {
            blocks.push(Block::Chart(difference_chart(
                index, comparison, points, *range, tallest,
            )));
        }
        blocks
    }
}

fn difference_chart(
    index: usize,
    comparison: &Comparison,
    points: &[(i64, &Exact)],
    range: (i64, i64),
    tallest: f64,
) -> Chart {
    Chart {
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
            points: points.iter().map(|(v, p)| (*v as f64, to_f64(p))).collect(),
            titles: points
                .iter()
                .map(|(v, p)| {
                    format::exact_title(&format!("difference {}", format::signed(v)), p, true)
                })
                .collect(),
            ..Series::default()
        }],
        y_to: Some(tallest),
        x_range: Some((range.0 as f64, range.1 as f64)),
        note: left_out(points, range, "differences"),
        table_id: Some("comparisons".into()),
        ..Chart::default()
    }
}

/// What the charts of one page share: the values drawn (where every
/// roll's mass is) and the height of the tallest bar among them.
pub(crate) struct View {
    pub(crate) range: (i64, i64),
    tallest: f64,
}

impl View {
    pub(crate) fn of(results: &Results) -> View {
        let points: Vec<Vec<(i64, &Exact)>> = results.rolls.iter().map(points_of).collect();
        let ranges: Vec<(i64, i64)> = points.iter().map(|p| central(p)).collect();
        let range = (
            ranges.iter().map(|r| r.0).min().unwrap_or(0),
            ranges.iter().map(|r| r.1).max().unwrap_or(0),
        );
        let tallest = points.iter().map(|p| tallest(p, range)).fold(0.0, f64::max);
        View { range, tallest }
    }
}

/// A distribution's values and their exact chances, lowest first.
type Points<'a> = Vec<(i64, &'a Exact)>;

fn points_of(roll: &Roll) -> Points<'_> {
    roll.outcomes
        .iter()
        .map(|o| (o.value, &o.probability))
        .collect()
}

/// A tail this thin (one in a million) at either end is not drawn.
fn thin_tail() -> Exact {
    Exact::new(1.into(), 1_000_000.into())
}

/// The values a chart draws: from the first at which the chance of at
/// most it exceeds [`thin_tail`] to the last at which the chance of at
/// least it does, compared exactly; every value when those cover three
/// quarters of the span or more (cutting less would hide without helping).
fn central(points: &[(i64, &Exact)]) -> (i64, i64) {
    let tail = thin_tail();
    let first_past = |points: &mut dyn Iterator<Item = &(i64, &Exact)>| {
        let mut mass = Exact::zero();
        let mut last = 0;
        for (value, p) in points {
            mass += *p;
            last = *value;
            if mass > tail {
                break;
            }
        }
        last
    };
    let (lo, hi) = (
        first_past(&mut points.iter()),
        first_past(&mut points.iter().rev()),
    );
    let (min, max) = (points[0].0, points[points.len() - 1].0);
    if (hi - lo) * 4 >= (max - min) * 3 {
        (min, max)
    } else {
        (lo, hi)
    }
}

/// "below 3 and above 168": the ends of `range` some of `values` lie past.
fn ends_past(values: impl Iterator<Item = i64> + Clone, (lo, hi): (i64, i64)) -> Vec<String> {
    let mut ends = Vec::new();
    if values.clone().any(|v| v < lo) {
        ends.push(format!("below {}", format::signed(lo)));
    }
    if values.clone().any(|v| v > hi) {
        ends.push(format!("above {}", format::signed(hi)));
    }
    ends
}

/// The highest chance inside `range`, as drawn.
fn tallest(points: &[(i64, &Exact)], (lo, hi): (i64, i64)) -> f64 {
    points
        .iter()
        .filter(|(v, _)| (lo..=hi).contains(v))
        .map(|(_, p)| to_f64(p))
        .fold(0.0, f64::max)
}

/// "Not drawn: values below 260 and above 440, together 0.0001 % of
/// rolls.", for values outside `range`; none when there are none.
fn left_out(points: &[(i64, &Exact)], (lo, hi): (i64, i64), what: &str) -> Option<String> {
    let ends = ends_past(points.iter().map(|p| p.0), (lo, hi));
    let outside: Exact = points
        .iter()
        .filter(|(v, _)| *v < lo || *v > hi)
        .map(|(_, p)| *p)
        .sum();
    let together = if ends.len() > 1 { "together " } else { "" };
    (!ends.is_empty()).then(|| {
        format!(
            "Not drawn: {what} {}, {together}{} of rolls.",
            ends.join(" and "),
            format::percent(&outside)
        )
    })
}

/// "3 extra rolls", "1 extra roll".
fn extra_rolls(depth: u32) -> String {
    if depth == 1 {
        "1 extra roll".into()
    } else {
        format!("{depth} extra rolls")
    }
}

/// An exploding roll's limit, for its section: where explosions stop and
/// how often that cut a chain short.
fn explosion_words(depth: u32, cut_short: Option<&Exact>) -> String {
    let stop = format!("Explosions stop after {} per die", extra_rolls(depth));
    match cut_short {
        Some(p) => format!(
            "{stop}: a chain was cut short (its last roll would have exploded again) in {} \
             of rolls (exactly {}), so the highest values also stand for the longer chains cut \
             there.",
            format::percent(p),
            format::exact(p)
        ),
        None => {
            format!("{stop}, so the highest values also stand for the longer chains cut there.")
        }
    }
}

/// The page's exploding rolls' limit in one sentence, for the verdict.
fn explosion_sentence(results: &Results, figures: &[RollFigures]) -> Option<String> {
    let exploding: Vec<(&Roll, &RollFigures)> = results
        .rolls
        .iter()
        .zip(figures)
        .filter(|(_, f)| f.explode_depth.is_some())
        .collect();
    let depth = exploding.first()?.1.explode_depth?;
    let cuts: Vec<String> = exploding
        .iter()
        .filter_map(|(roll, f)| {
            let p = f.cut_short.as_ref()?;
            Some(format!("{} of rolls of {}", format::percent(p), roll.name))
        })
        .collect();
    let stop = format!("Explosions stop after {} per die", extra_rolls(depth));
    Some(if cuts.is_empty() {
        format!("{stop}.")
    } else {
        format!(
            "{stop}: a chain was cut short in {}.",
            format::in_words(&cuts)
        )
    })
}

/// Which rolls have the best chance in one row of the target table.
fn best_of(chances: &[Exact]) -> Vec<usize> {
    let best = chances.iter().max().expect("two or more rolls");
    (0..chances.len())
        .filter(|&i| chances[i] == *best)
        .collect()
}

/// Who is best for which targets, compared exactly: consecutive targets
/// with the same best rolls make one stretch.
fn stretches(analysed: &Analysed) -> Vec<(Vec<usize>, i64, i64)> {
    let mut stretches: Vec<(Vec<usize>, i64, i64)> = Vec::new();
    for (&target, chances) in analysed.targets.iter().zip(&analysed.reach) {
        let best = best_of(chances);
        match stretches.last_mut() {
            Some((who, _, last)) if *who == best && *last + 1 == target => *last = target,
            _ => stretches.push((best, target, target)),
        }
    }
    stretches
}

/// "To roll at least a target number: plus five is best from 2 to 10;
/// advantage and plus five tie at 11; plus five is best from 12 to 25."
fn target_sentence(results: &Results, analysed: &Analysed) -> String {
    let names: Vec<&str> = results.rolls.iter().map(|r| r.name.as_str()).collect();
    let parts: Vec<String> = stretches(analysed)
        .iter()
        .map(|(who, from, to)| {
            let at = if from == to {
                format!("at {}", format::signed(from))
            } else {
                format!("from {} to {}", format::signed(from), format::signed(to))
            };
            match who.as_slice() {
                [one] => format!("{} is best {at}", names[*one]),
                both if both.len() == 2 && names.len() == 2 => format!("they tie {at}"),
                all if all.len() == names.len() => format!("all tie {at}"),
                some => {
                    let tied: Vec<&str> = some.iter().map(|&i| names[i]).collect();
                    format!("{} tie for best {at}", format::in_words(&tied))
                }
            }
        })
        .collect();
    if parts.is_empty() {
        return "No target number tells these rolls apart: each is sure or impossible for all."
            .into();
    }
    format!(
        "To roll at least a target number: {}; each target's chances are in the table below.",
        parts.join("; ")
    )
}

/// Each roll's chance to reach each target, side by side, and the best.
fn target_table(results: &Results, analysed: &Analysed) -> Table {
    let names: Vec<&str> = results.rolls.iter().map(|r| r.name.as_str()).collect();
    let mut columns = vec!["target".to_string()];
    // The caption says "at least": the headers are the rolls' names alone,
    // so the table stays narrow enough to print whole.
    columns.extend(names.iter().map(|n| n.to_string()));
    columns.push("best".into());
    Table {
        id: "targets".into(),
        caption: "Chance to roll at least each target number, the best named in the last column"
            .into(),
        columns,
        rows: analysed
            .targets
            .iter()
            .zip(&analysed.reach)
            .map(|(target, chances)| {
                let best = best_of(chances);
                let named: Vec<&str> = best.iter().map(|&i| names[i]).collect();
                let best = match best.len() {
                    1 => named[0].to_string(),
                    n if n == names.len() => "tie: all".into(),
                    _ => format!("tie: {}", format::in_words(&named)),
                };
                std::iter::once(Cell::plain(format::signed(target)))
                    .chain(chances.iter().map(cells::percent))
                    .chain([Cell::plain(best)])
                    .collect()
            })
            .collect(),
    }
}

/// Rolls that never meet: each one's average and reach, in one sentence.
pub(crate) fn spread_sentence(results: &Results) -> String {
    let each: Vec<String> = results
        .rolls
        .iter()
        .map(|roll| {
            let (low, high) = ends(roll);
            format!(
                "{} averages {} (from {} to {})",
                roll.name,
                format::decimal(&roll.mean),
                format::signed(low),
                format::signed(high)
            )
        })
        .collect();
    format!("Rolled once each: {}.", format::in_words(&each))
}

/// A roll's lowest and highest values.
fn ends(roll: &Roll) -> (i64, i64) {
    (
        roll.outcomes.first().map_or(0, |o| o.value),
        roll.outcomes.last().map_or(0, |o| o.value),
    )
}

pub(crate) fn roll_blocks(
    index: usize,
    roll: &Roll,
    figures: &RollFigures,
    view: &View,
) -> Vec<Block> {
    let values = |list: &[i64]| {
        list.iter()
            .map(format::signed)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (low, high) = ends(roll);
    let cut_off = figures.explode_depth.map_or(String::new(), |d| {
        format!(", explosions stopping after {}", extra_rolls(d))
    });
    let exact_and_decimal = |value: &Exact| Cell {
        shown: format::exact_with_decimal(value),
        exact: format::exact(value),
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
                        "{} to {}{cut_off}",
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
            y_to: Some(view.tallest),
            x_range: Some((view.range.0 as f64, view.range.1 as f64)),
            note: left_out(&points_of(roll), view.range, "values"),
            table_id: Some(format!("roll-{index}")),
            ..Chart::default()
        }),
        Block::Table(Table {
            id: format!("roll-{index}"),
            caption: format!("{} ({}): every value{cut_off}", roll.name, roll.expression),
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

/// Every roll's chance of at least each value, on one chart to compare,
/// over the values the page's bars are drawn on and every target number
/// the verdict may name (those some roll reaches with a chance neither 0
/// nor 1): each roll's line runs over all of them.
pub(crate) fn at_least_chart(analysed: &Analysed, range: (i64, i64)) -> Chart {
    let rolls = analysed.results.rolls.as_slice();
    let (lo, hi) = match (analysed.targets.first(), analysed.targets.last()) {
        (Some(&first), Some(&last)) => (range.0.min(first), range.1.max(last)),
        _ => range,
    };
    let ends = ends_past(
        rolls
            .iter()
            .flat_map(|r| r.outcomes.iter().map(|o| o.value)),
        (lo, hi),
    );
    let percent = format::percent(&thin_tail());
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
            .enumerate()
            .map(|(i, roll)| at_least_series(i, roll, analysed))
            .collect(),
        x_range: Some((lo as f64, hi as f64)),
        note: (!ends.is_empty()).then(|| {
            format!(
                "Not drawn: values {}, where every roll's chance of at least the value is \
                 within {percent} of {}.",
                ends.join(" and "),
                format::in_words(
                    &ends
                        .iter()
                        .map(|e| if e.starts_with("below") {
                            "100\u{a0}%"
                        } else {
                            "0\u{a0}%"
                        })
                        .collect::<Vec<_>>()
                )
            )
        }),
        ..Chart::default()
    }
}

/// Roll `index`'s chance of at least each of its values and of each
/// target (100 % below its lowest value, 0 % above its highest, as the
/// analysis counted), in order, with exact tooltips.
fn at_least_series(index: usize, roll: &Roll, analysed: &Analysed) -> Series {
    let mut chances: std::collections::BTreeMap<i64, &Exact> = roll
        .outcomes
        .iter()
        .map(|o| o.value)
        .zip(&analysed.rolls[index].at_least)
        .collect();
    for (target, reach) in analysed.targets.iter().zip(&analysed.reach) {
        chances.entry(*target).or_insert(&reach[index]);
    }
    let name = &roll.name;
    Series {
        name: name.clone(),
        points: chances
            .iter()
            .map(|(v, p)| (*v as f64, to_f64(p)))
            .collect(),
        titles: chances
            .iter()
            .map(|(v, p)| {
                format::exact_title(&format!("{name}: {} or more", format::signed(v)), p, true)
            })
            .collect(),
        ..Series::default()
    }
}

/// "Rolled once, 4d6dl1 averages 12.24, from 3 to 18; 13 is the likeliest value." The
/// answer a reader of a single roll wants first.
pub(crate) fn single_verdict(roll: &Roll, figures: &RollFigures) -> String {
    let (low, high) = ends(roll);
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
