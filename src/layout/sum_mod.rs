//! The `sum-mod` page: a fairness table over every target count, a bias
//! trend, then each case's totals and bins.

use crate::analyses::sum_mod::{Case, Params, Results, SumMod};
use crate::engine::to_f64;
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Reference, Series, Table};
use crate::layout::{cells, format, Layout};
use num_bigint::BigUint;

/// Scenarios with more cases than this show the per-case charts only for a
/// summary; their tables are still complete.
const MAX_CASES_WITH_CHARTS: usize = 12;

impl Layout for SumMod {
    fn layout(_: &Params, results: &Results) -> Vec<Block> {
        let cases = &results.cases;
        let mut blocks = vec![fairness_table(cases)];
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
    }
    blocks.push(Block::Table(bins));
    blocks
}

fn facts(case: &Case) -> Vec<(String, String)> {
    let f = &case.fairness;
    vec![
        ("Total outcomes".into(), format::count(&case.total_outcomes)),
        (
            "Exactly uniform".into(),
            if f.uniform { "yes" } else { "no" }.into(),
        ),
        (
            "Largest |P(v) − 1/n|".into(),
            format::decimal(&f.max_abs_deviation),
        ),
        ("Total variation distance".into(), format::decimal(&f.tvd)),
        (
            "Most likely / least likely bin".into(),
            f.max_min_ratio
                .as_ref()
                .map_or("a bin is empty".into(), format::decimal),
        ),
    ]
}

/// The sum distribution with each bar in the colour of its bin.
fn sums_chart(case: &Case) -> Chart {
    let n = case.targets;
    let series = (0..n)
        .map(|v| Series {
            name: format!("bin {v}"),
            points: case
                .sums
                .iter()
                .filter(|t| t.total % n == v)
                .map(|t| (t.total as f64, to_f64(&t.probability)))
                .collect(),
        })
        .filter(|s| !s.points.is_empty())
        .collect();
    Chart {
        id: format!("sums-{n}"),
        title: format!(
            "Distribution of the total of {}d{}",
            case.dice.count, case.dice.sides
        ),
        description: format!(
            "Probability of each total, each bar coloured by the bin (total mod {n}) it falls in."
        ),
        kind: ChartKind::Bars,
        x_label: "total".into(),
        y_label: "probability".into(),
        log_y: false,
        series,
        reference: None,
        table_id: Some(format!("sums-{n}")),
    }
}

/// Each bin's probability against the fair share 1/n.
fn bins_chart(case: &Case) -> Chart {
    let n = case.targets;
    Chart {
        id: format!("bins-{n}"),
        title: format!("Bins of {}d{} mod {n}", case.dice.count, case.dice.sides),
        description: format!("Probability of each bin beside the fair share 1/{n}."),
        kind: ChartKind::Bars,
        x_label: "bin".into(),
        y_label: "probability".into(),
        log_y: false,
        series: vec![Series {
            name: "probability of the bin".into(),
            points: case
                .bins
                .iter()
                .map(|b| (b.bin as f64, to_f64(&b.probability)))
                .collect(),
        }],
        reference: Some(Reference {
            label: format!("fair share 1/{n}"),
            y: 1.0 / n as f64,
        }),
        table_id: Some(format!("bins-{n}")),
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
                    cells::fraction(&f.max_abs_deviation),
                    cells::fraction(&f.tvd),
                    cells::optional_fraction(f.max_min_ratio.as_ref()),
                ]
            })
            .collect(),
    })
}

/// How the largest deviation shrinks (or not) as the number of targets grows.
fn bias_chart(cases: &[Case]) -> Block {
    let biased: Vec<(f64, f64)> = cases
        .iter()
        .filter(|c| !c.fairness.uniform)
        .map(|c| (c.targets as f64, to_f64(&c.fairness.max_abs_deviation)))
        .collect();
    let uniform: Vec<String> = cases
        .iter()
        .filter(|c| c.fairness.uniform)
        .map(|c| c.targets.to_string())
        .collect();
    let mut description =
        "Largest deviation of a bin from 1/n for each number of targets, on a log scale."
            .to_string();
    if !uniform.is_empty() {
        description.push_str(&format!(
            " Exactly uniform (deviation 0, not drawn): n = {}.",
            uniform.join(", ")
        ));
    }
    Block::Chart(Chart {
        id: "bias".into(),
        title: "Bias against the number of targets".into(),
        description,
        kind: ChartKind::Lines,
        x_label: "targets n".into(),
        y_label: "max |P(v) − 1/n|".into(),
        log_y: true,
        series: vec![Series {
            name: "max |P(v) − 1/n|".into(),
            points: biased,
        }],
        reference: None,
        table_id: Some("fairness".into()),
    })
}
