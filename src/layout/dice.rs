//! The `dice` page: head-to-head odds first when there are several rolls,
//! then each roll's key figures, its distribution drawn and tabulated, and
//! the "at least" curves of every roll on one chart.

use crate::analyses::dice::{
    Analysed, Comparison, Dice, Params, Question, Results, Roll, RollFigures,
};
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
                    dice_lang::describe(&expression.tree, &expression.text)
                ),
            });
            if let Some(depth) = figures.explode_depth {
                blocks.push(Block::Text {
                    text: explosion_words(depth, figures.cut_short.as_ref()),
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
            blocks.push(Block::Chart(at_least_chart(
                results.rolls.as_slice(),
                &analysed.rolls,
                view.range,
            )));
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
    format!("Rolled once each, {}.", format::in_words(&each))
}

/// A roll's lowest and highest values.
fn ends(roll: &Roll) -> (i64, i64) {
    (
        roll.outcomes.first().map_or(0, |o| o.value),
        roll.outcomes.last().map_or(0, |o| o.value),
    )
}

/// The head-to-head answer in one sentence: for one pair, who rolls higher
/// how often; for more, the roll that beats every other (and its closest
/// contest), or that none does.
pub(crate) fn verdicts(names: &[String], comparisons: &[Comparison]) -> String {
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

pub(crate) fn comparison_table(comparisons: &[Comparison]) -> Table {
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
/// over the values the page's bars are drawn on.
pub(crate) fn at_least_chart(
    rolls: &[Roll],
    figures: &[RollFigures],
    (lo, hi): (i64, i64),
) -> Chart {
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
            .zip(figures)
            .map(|(roll, f)| at_least_series(&roll.name, roll, f))
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
                            "100 %"
                        } else {
                            "0 %"
                        })
                        .collect::<Vec<_>>()
                )
            )
        }),
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
        assert!(shown.contains("low: −3 or more"), "{shown}");
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
            "question: head-to-head\nrolls:\n  4d6 drop lowest: 4d6dl1\n  3d6 straight: 3d6\n  \
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
            "question: head-to-head\nrolls:\n  A: d{4,4,4,4,0,0}\n  B: d{3,3,3,3,3,3}\n  C: d{6,6,2,2,2,2}\n  \
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
    fn the_page_leads_with_the_head_to_head_when_asked() {
        let params: Params = serde_yaml::from_str(
            "question: head-to-head\nrolls:\n  standard: 4d6dl1\n  heroic: 2d6+6\n",
        )
        .unwrap();
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
                // The charts refuse more series than colours.
                assert!(chart.series.len() <= MAX_SERIES);
            }
        }
    }

    fn page_of(yaml: &str) -> crate::layout::ScenarioPage {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        let analysed = Dice::analyse(&params, &Progress::hidden());
        crate::layout::ScenarioPage {
            results: Dice::contract(&analysed, serde_json::value::Serializer).unwrap(),
            blocks: Dice::layout(&params, &analysed),
        }
    }

    /// The rolls of one page are drawn on one scale: one height (the
    /// tallest bar of any of them) and one range of values, so a d20's
    /// 5 % bars stand half as tall as advantage's 9.75 %, and 2d6's 7
    /// sets the height of all three.
    #[test]
    fn rolls_on_one_page_share_one_scale() {
        let page = page_of("rolls:\n  advantage: 2d20kh1\n  normal: d20\n  two: 2d6\n");
        let charts: Vec<&Chart> = (1..=3)
            .map(|i| page.chart(&format!("roll-{i}")).unwrap())
            .collect();
        for chart in &charts {
            // 2d6 rolls 7 with 1/6, the tallest bar of the three.
            assert_eq!(chart.y_to, Some(1.0 / 6.0), "{}", chart.id);
            assert_eq!(chart.x_range, Some((1.0, 20.0)), "{}", chart.id);
            assert_eq!(chart.note, None);
        }
        assert_eq!(page.chart("at-least").unwrap().x_range, Some((1.0, 20.0)));
        // The difference charts share theirs.
        let tops: Vec<Option<f64>> = (1..=3)
            .map(|i| page.chart(&format!("difference-{i}")).unwrap().y_to)
            .collect();
        assert!(
            tops.iter().all(|t| *t == tops[0] && t.is_some()),
            "{tops:?}"
        );
    }

    /// 100d6 is drawn where its mass is, and the chart says what it leaves
    /// out: the tails cut are the widest each holding at most one in a
    /// million, checked against the exact "at most" and "at least" columns.
    #[test]
    fn axes_cover_the_mass_and_say_what_they_leave_out() {
        let page = page_of("rolls:\n  many: 100d6\n");
        let chart = page.chart("roll-1").unwrap();
        let (lo, hi) = chart.x_range.unwrap();
        assert!(
            (250.0..300.0).contains(&lo) && (400.0..450.0).contains(&hi),
            "{lo} {hi}"
        );
        let table = page.table("roll-1").unwrap();
        let column = |value: f64, col: usize| {
            let row = table
                .rows
                .iter()
                .find(|r| r[0].shown == value.to_string())
                .unwrap();
            crate::engine::parse_fraction(&row[col].exact).unwrap()
        };
        let million = Exact::new(1.into(), 1_000_000.into());
        // P(X <= lo - 1) <= 1e-6 < P(X <= lo); the same from the top.
        assert!(column(lo - 1.0, 4) <= million && column(lo, 4) > million);
        assert!(column(hi + 1.0, 3) <= million && column(hi, 3) > million);
        let left_out = column(lo - 1.0, 4) + column(hi + 1.0, 3);
        assert_eq!(
            chart.note.as_deref().unwrap(),
            format!(
                "Not drawn: values below {lo} and above {hi}, together {} of rolls.",
                format::percent(&left_out)
            )
        );
        let at_least = page.chart("at-least").unwrap();
        assert_eq!(at_least.x_range, Some((lo, hi)));
        assert!(at_least
            .note
            .as_deref()
            .unwrap()
            .contains("within 0.0001 %"));
    }

    /// The opening answer fits the question: rolls that are alternatives
    /// for one check (different expressions) are compared target by
    /// target; the same expression twice is a duel; rolls that never meet
    /// are each described. Head to head leads only when asked or a duel.
    #[test]
    fn the_verdict_answers_the_page_question() {
        let targets = verdict_of("rolls:\n  advantage: 2d20kh1\n  plus five: 1d20+5\n");
        assert!(
            targets.starts_with("To roll at least a target number: "),
            "{targets}"
        );
        let duel = verdict_of("rolls:\n  first seat: 2d6\n  second seat: 2d6\n");
        assert!(
            duel.starts_with("Head to head, first seat and second seat are even"),
            "{duel}"
        );
        let spread = verdict_of("question: distribution\nrolls:\n  pool: 5d10>=7\n  sum: 3d6\n");
        assert_eq!(
            spread,
            "Rolled once each, pool averages 2 (from 0 to 5) and sum averages 10.5 (from 3 to 18)."
        );
        for text in [&targets, &spread] {
            assert!(!text.contains("head to head") && !text.contains("Head to head"));
        }
    }

    /// 2d20kh1 against 1d20+5, by enumeration of their 400 and 20
    /// outcomes: the table gives each target's chances and marks the best
    /// in words, ties as ties; the sentence's stretches break exactly where
    /// the winner changes.
    #[test]
    fn targets_side_by_side_with_the_best_and_the_crossovers() {
        let page = page_of("rolls:\n  advantage: 2d20kh1\n  plus five: 1d20+5\n");
        let reach = |values: &[i64], t: i64| {
            let hits = values.iter().filter(|&&v| v >= t).count();
            Exact::new(hits.into(), values.len().into())
        };
        let advantage: Vec<i64> = (1..=20)
            .flat_map(|a| (1..=20).map(move |b| i64::max(a, b)))
            .collect();
        let plus_five: Vec<i64> = (6..=25).collect();
        let table = page.table("targets").unwrap();
        assert_eq!(table.columns, ["target", "advantage", "plus five", "best"]);
        let mut winners = Vec::new();
        for row in &table.rows {
            let t: i64 = row[0].shown.parse().unwrap();
            let (a, b) = (reach(&advantage, t), reach(&plus_five, t));
            assert_eq!(row[1], cells::percent(&a), "{t}");
            assert_eq!(row[2], cells::percent(&b), "{t}");
            let best = match a.cmp(&b) {
                std::cmp::Ordering::Greater => "advantage",
                std::cmp::Ordering::Less => "plus five",
                std::cmp::Ordering::Equal => "tie: all",
            };
            assert_eq!(row[3].shown, best, "{t}");
            winners.push((t, best));
        }
        assert_eq!(winners.first().unwrap().0, 2);
        assert_eq!(winners.last().unwrap().0, 25);
        // By enumeration, +5 is never behind and ties only at 11 (75 %).
        let ties: Vec<i64> = winners
            .iter()
            .filter(|w| w.1 == "tie: all")
            .map(|w| w.0)
            .collect();
        assert_eq!(ties, [11]);
        assert!(winners.iter().all(|w| w.1 != "advantage"));
        assert_eq!(
            page.verdict().unwrap(),
            "To roll at least a target number: plus five is best from 2 to 10; they tie at 11; \
             plus five is best from 12 to 25; each target's chances are in the table below."
        );
        // Three rolls: a tie of two of them is named.
        let page = page_of("rolls:\n  a: d6\n  b: d6\n  c: d4\n");
        let row = &page.table("targets").unwrap().rows[0];
        assert_eq!(
            (row[0].shown.as_str(), row[4].shown.as_str()),
            ("2", "tie: a and b")
        );
        assert!(page
            .verdict()
            .unwrap()
            .contains("a and b tie for best from 2 to 6"));
    }

    /// Every place an exploding roll is shown says where explosions stop
    /// and how often that cut a chain short: the verdict, its section,
    /// its facts and its table's caption.
    #[test]
    fn exploding_rolls_say_where_explosions_stop() {
        let page = page_of("explode_depth: 2\nrolls:\n  boom: 1d4!!\n  flat: d6\n");
        // Three 4s in a row: 1/64.
        assert!(
            page.verdict().unwrap().ends_with(
                "Explosions stop after 2 extra rolls per die: a chain was cut short in \
                 1.5625 % of rolls of boom."
            ),
            "{:?}",
            page.verdict()
        );
        let texts: Vec<&str> = page
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert!(texts.contains(
            &"Explosions stop after 2 extra rolls per die: a chain was cut short (its last roll \
              would have exploded again) in 1.5625 % of rolls (exactly 1/64), so the highest \
              values also stand for the longer chains cut there."
        ), "{texts:?}");
        assert_eq!(
            texts.iter().filter(|t| t.starts_with("Explosions")).count(),
            1
        );
        assert_eq!(
            page.table("roll-1").unwrap().caption,
            "boom (1d4!!): every value, explosions stopping after 2 extra rolls"
        );
        assert_eq!(
            page.table("roll-2").unwrap().caption,
            "flat (d6): every value"
        );
        let shown = format!("{:?}", page.blocks);
        assert!(
            shown.contains("1 to 12, explosions stopping after 2 extra rolls"),
            "{shown}"
        );
    }
}
