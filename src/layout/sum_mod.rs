//! The `sum-mod` page: a fairness table over every target count, a bias
//! trend, then each case's totals and bins.

use crate::analyses::sum_mod::{Case, Params, Results, SumMod};
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Reference, Series, Table, ValueFormat};
use crate::layout::{cells, format, Layout};
use num_bigint::BigUint;

/// Scenarios with more cases than this show the per-case charts only for a
/// summary; their tables are still complete.
const MAX_CASES_WITH_CHARTS: usize = 12;

impl Layout for SumMod {
    fn layout(_: &Params, results: &Results) -> Vec<Block> {
        let cases = &results.cases;
        let mut blocks = vec![
            Block::Verdict {
                text: verdict(cases),
            },
            fairness_table(cases),
        ];
        // A trend needs a few biased cases to draw (uniform ones sit at 0,
        // off a log scale).
        if cases.iter().filter(|c| !c.fairness.uniform).count() >= 3 {
            blocks.push(bias_chart(cases));
        }
        let with_charts = cases.len() <= MAX_CASES_WITH_CHARTS;
        for case in cases {
            blocks.extend(case_blocks(case, with_charts));
        }
        blocks
    }
}

/// Which target counts are exactly fair, and how far off the worst is.
fn verdict(cases: &[Case]) -> String {
    let fair: Vec<String> = cases
        .iter()
        .filter(|c| c.fairness.uniform)
        .map(|c| c.targets.to_string())
        .collect();
    let worst = cases.iter().filter(|c| !c.fairness.uniform).max_by(|a, b| {
        a.fairness
            .max_abs_deviation
            .cmp(&b.fairness.max_abs_deviation)
    });
    let points = |c: &Case| format::points(&c.fairness.max_abs_deviation);
    // "2, 3 and 6" (target counts are at least 2: always "targets").
    let fair = format::in_words(&fair);
    match (fair.is_empty(), worst) {
        (_, None) => format!(
            "Exactly fair: with {fair} targets, every target has exactly its fair share 1/n."
        ),
        (true, Some(w)) => format!(
            "Not exactly fair for any target count here; the worst is {} targets, where a \
             target's chance is off its fair share 1/{} by {}.",
            w.targets,
            w.targets,
            points(w)
        ),
        (false, Some(w)) => format!(
            "Exactly fair with {fair} targets; the others are not, the worst being {} targets, \
             where a target's chance is off its fair share 1/{} by {}.",
            w.targets,
            w.targets,
            points(w)
        ),
    }
}

fn label(case: &Case) -> String {
    format!(
        "{} targets, {}d{}",
        case.targets, case.dice.count, case.dice.sides
    )
}

fn case_blocks(case: &Case, with_charts: bool) -> Vec<Block> {
    let n = case.targets;
    let ways_row = |label: u64, ways: &BigUint, p| {
        vec![
            Cell::plain(label.to_string()),
            cells::count(ways),
            cells::fraction(p),
        ]
    };
    let sums = Table {
        id: format!("sums-{n}"),
        caption: format!(
            "Totals of {}d{}: ways and probability",
            case.dice.count, case.dice.sides
        ),
        columns: vec!["total".into(), "ways".into(), "probability".into()],
        rows: case
            .sums
            .iter()
            .map(|t| ways_row(t.total, &t.ways, &t.probability))
            .collect(),
    };
    let bins = Table {
        id: format!("bins-{n}"),
        caption: format!("Bins v = total mod {n}: ways and probability"),
        columns: vec!["bin".into(), "ways".into(), "probability".into()],
        rows: case
            .bins
            .iter()
            .map(|b| ways_row(b.bin, &b.ways, &b.probability))
            .collect(),
    };
    let mut blocks = vec![
        Block::Heading { text: label(case) },
        Block::Facts { items: facts(case) },
    ];
    if with_charts {
        blocks.push(Block::Chart(sums_chart(case)));
    }
    blocks.push(Block::Table(sums));
    if with_charts {
        blocks.push(Block::Chart(bins_chart(case)));
        if close_to_fair(case) {
            blocks.push(Block::Chart(deviation_chart(case)));
        }
    }
    blocks.push(Block::Table(bins));
    blocks
}

fn facts(case: &Case) -> Vec<(String, Cell)> {
    let f = &case.fairness;
    vec![
        ("Total outcomes".into(), cells::count(&case.total_outcomes)),
        ("Exactly uniform".into(), cells::yes_no(f.uniform)),
        (
            "Largest gap from the fair share 1/n".into(),
            cells::points(&f.max_abs_deviation),
        ),
        ("Total variation distance".into(), cells::fraction(&f.tvd)),
        (
            "Chance of the likeliest bin ÷ the least likely".into(),
            f.max_min_ratio
                .as_ref()
                .map_or(Cell::plain("a bin is empty"), cells::fraction),
        ),
    ]
}

/// The sum distribution, each bar in the colour of its bin while the
/// palette has a colour for every bin.
fn sums_chart(case: &Case) -> Chart {
    let n = case.targets;
    let dice = format!("{}d{}", case.dice.count, case.dice.sides);
    let by_bin = n as usize <= crate::layout::blocks::MAX_SERIES;
    let series_of = |name: String, keep: &dyn Fn(u64) -> bool| Series {
        name,
        points: case
            .sums
            .iter()
            .filter(|t| keep(t.total))
            .map(|t| (t.total as f64, to_f64(&t.probability)))
            .collect(),
        titles: case
            .sums
            .iter()
            .filter(|t| keep(t.total))
            .map(|t| {
                let label = format!("total {} (bin {})", t.total, t.total % n);
                format::exact_title(&label, &t.probability, true)
            })
            .collect(),
        ..Series::default()
    };
    let series = if by_bin {
        (0..n)
            .map(|v| series_of(format!("bin {v}"), &|total| total % n == v))
            .filter(|s| !s.points.is_empty())
            .collect()
    } else {
        vec![series_of("probability".into(), &|_| true)]
    };
    Chart {
        id: format!("sums-{n}"),
        title: format!("Distribution of the total of {dice}"),
        description: format!(
            "Probability of each total of {dice}{}.",
            if by_bin {
                format!(", each bar coloured by its bin (total mod {n})")
            } else {
                String::new()
            }
        ),
        kind: ChartKind::Bars,
        x_label: "total".into(),
        y_label: "probability".into(),
        y_format: ValueFormat::Probability,
        series,
        table_id: Some(format!("sums-{n}")),
        ..Chart::default()
    }
}

/// Each bin's probability against the fair share 1/n.
fn bins_chart(case: &Case) -> Chart {
    let n = case.targets;
    let fair = Exact::new(1.into(), n.into());
    let note = if case.fairness.uniform {
        format!("Every bin has exactly the fair share 1/{n}.")
    } else if close_to_fair(case) {
        format!(
            "The bins differ from 1/{n} by at most {}, too little to see at this scale: the \
             next chart draws the differences.",
            format::points(&case.fairness.max_abs_deviation)
        )
    } else {
        format!(
            "The largest difference from 1/{n} is {}.",
            format::points(&case.fairness.max_abs_deviation)
        )
    };
    Chart {
        id: format!("bins-{n}"),
        title: format!("Bins of {}d{} mod {n}", case.dice.count, case.dice.sides),
        description: format!("Probability of each bin beside the fair share 1/{n}."),
        kind: ChartKind::Bars,
        x_label: "bin (total mod n)".into(),
        y_label: "probability".into(),
        y_format: ValueFormat::Probability,
        x_ticks: case
            .bins
            .iter()
            .map(|b| (b.bin as f64, b.bin.to_string()))
            .collect(),
        series: vec![Series {
            name: "probability of the bin".into(),
            points: case
                .bins
                .iter()
                .map(|b| (b.bin as f64, to_f64(&b.probability)))
                .collect(),
            titles: case
                .bins
                .iter()
                .map(|b| format::exact_title(&format!("bin {}", b.bin), &b.probability, true))
                .collect(),
            ..Series::default()
        }],
        reference: Some(Reference {
            label: format!("fair share 1/{n}"),
            y: to_f64(&fair),
        }),
        note: Some(note),
        table_id: Some(format!("bins-{n}")),
        ..Chart::default()
    }
}

/// Bins within a quarter of the fair share of it: bars look equal.
fn close_to_fair(case: &Case) -> bool {
    let n = Exact::from_integer(case.targets.into());
    !case.fairness.uniform
        && &case.fairness.max_abs_deviation * n * Exact::from_integer(4.into())
            < Exact::from_integer(1.into())
}

/// Each bin's difference from the fair share, around a zero line.
fn deviation_chart(case: &Case) -> Chart {
    let n = case.targets;
    let fair = Exact::new(1.into(), n.into());
    let differences: Vec<Exact> = case.bins.iter().map(|b| &b.probability - &fair).collect();
    Chart {
        id: format!("deviation-{n}"),
        title: format!(
            "Bins of {}d{} mod {n}: difference from the fair share",
            case.dice.count, case.dice.sides
        ),
        description: format!(
            "Each bin's probability minus the fair share 1/{n}, in percentage points: \
             above the line a bin comes up more often than its share, below it less."
        ),
        kind: ChartKind::Deviation,
        x_label: "bin (total mod n)".into(),
        y_label: format!("P(bin) − 1/{n}, in percentage points"),
        y_format: ValueFormat::Probability,
        x_ticks: case
            .bins
            .iter()
            .map(|b| (b.bin as f64, b.bin.to_string()))
            .collect(),
        series: vec![Series {
            name: "difference from 1/n".into(),
            points: case
                .bins
                .iter()
                .zip(&differences)
                .map(|(b, d)| (b.bin as f64, to_f64(d)))
                .collect(),
            titles: case
                .bins
                .iter()
                .zip(&differences)
                .map(|(b, d)| {
                    format!(
                        "bin {}: {} − 1/{n} = {} ({})",
                        b.bin,
                        format::exact(&b.probability),
                        format::exact(d),
                        format::points(d)
                    )
                })
                .collect(),
            ..Series::default()
        }],
        reference: Some(Reference {
            label: format!("fair share 1/{n} (zero line)"),
            y: 0.0,
        }),
        table_id: Some(format!("bins-{n}")),
        ..Chart::default()
    }
}

fn fairness_table(cases: &[Case]) -> Block {
    Block::Table(Table {
        id: "fairness".into(),
        caption: "Fairness of each target count".into(),
        columns: vec![
            "targets".into(),
            "dice".into(),
            "total outcomes".into(),
            "uniform".into(),
            "max |P(v) − 1/n|".into(),
            "total variation distance".into(),
            "max P / min P".into(),
        ],
        rows: cases
            .iter()
            .map(|case| {
                let f = &case.fairness;
                vec![
                    Cell::plain(case.targets.to_string()),
                    Cell::plain(format!("{}d{}", case.dice.count, case.dice.sides)),
                    cells::count(&case.total_outcomes),
                    cells::yes_no(f.uniform),
                    cells::points(&f.max_abs_deviation),
                    cells::fraction(&f.tvd),
                    cells::optional_fraction(f.max_min_ratio.as_ref()),
                ]
            })
            .collect(),
    })
}

/// How the largest deviation shrinks (or not) as the number of targets
/// grows; exactly fair counts sit on the chart's "0" line.
fn bias_chart(cases: &[Case]) -> Block {
    let uniform: Vec<String> = cases
        .iter()
        .filter(|c| c.fairness.uniform)
        .map(|c| c.targets.to_string())
        .collect();
    let note = (!uniform.is_empty()).then(|| {
        format!(
            "Exactly fair (a difference of 0, drawn as hollow points on the 0 line under \
             the log scale): n = {}.",
            uniform.join(", ")
        )
    });
    Block::Chart(Chart {
        id: "bias".into(),
        title: "Bias against the number of targets".into(),
        description: "Largest difference of a bin from the fair share 1/n for each number \
                      of targets, on a log scale."
            .into(),
        kind: ChartKind::Lines,
        x_label: "targets n".into(),
        y_label: "largest |P(bin) − 1/n| (log scale)".into(),
        log_y: true,
        series: vec![Series {
            name: "largest |P(bin) − 1/n|".into(),
            points: cases
                .iter()
                .map(|c| (c.targets as f64, to_f64(&c.fairness.max_abs_deviation)))
                .collect(),
            titles: cases
                .iter()
                .map(|c| {
                    format::points_title(
                        &format!("n = {}", c.targets),
                        &c.fairness.max_abs_deviation,
                    )
                })
                .collect(),
            ..Series::default()
        }],
        note,
        table_id: Some("fairness".into()),
        ..Chart::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::Analysis;
    use crate::progress::Progress;

    fn verdict_of(yaml: &str) -> String {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        verdict(&SumMod::analyse(&params, &Progress::hidden()).cases)
    }

    #[test]
    fn the_verdict_lists_the_fair_target_counts_in_words() {
        // n d6 mod n is exactly fair for n = 2, 3 and 6 only (seed 000).
        assert_eq!(
            verdict_of("dice: d6\ntargets: [2, 3, 6]"),
            "Exactly fair: with 2, 3 and 6 targets, every target has exactly its fair share 1/n."
        );
        let mixed = verdict_of("dice: d6\ntargets: [2, 4]");
        assert!(
            mixed.starts_with(
                "Exactly fair with 2 targets; the others are not, the worst being 4 targets"
            ),
            "{mixed}"
        );
        let none = verdict_of("dice: d6\ntargets: [4, 5]");
        assert!(
            none.starts_with("Not exactly fair for any target count here"),
            "{none}"
        );
    }
}
