//! The `shuffle` page: the distance against riffles, drawn then tabulated
//! (riffles down, pile sizes across), and the riffles each pile needs.

use crate::analyses::shuffle::{Case, Params, Results, RifflesNeeded, Shuffle};
use crate::engine::to_f64;
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Series, Table, ValueFormat};
use crate::layout::cells::fraction;
use crate::layout::{format, Layout};

impl Layout for Shuffle {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        let mut blocks = vec![
            Block::Verdict {
                text: verdict(&results.riffles_needed),
            },
            Block::Table(tvd_table(params, &results.cases)),
            Block::Table(needed_table(&results.riffles_needed)),
        ];
        // A line needs two numbers of riffles.
        if params.riffles.values().len() >= 2 {
            blocks.insert(1, Block::Chart(tvd_chart(params, &results.cases)));
        }
        blocks
    }
}

/// One row per number of riffles, one column per pile size.
fn tvd_table(params: &Params, cases: &[Case]) -> Table {
    let mut columns = vec!["riffles".to_string()];
    columns.extend(params.cards.values().iter().map(|n| format!("{n} cards")));
    Table {
        id: "tvd".into(),
        caption: "Total variation distance to a random order after r riffles".into(),
        columns,
        rows: params
            .riffles
            .values()
            .iter()
            .map(|&r| {
                let mut row = vec![Cell::plain(r.to_string())];
                row.extend(
                    cases
                        .iter()
                        .filter(|c| c.riffles == r)
                        .map(|c| fraction(&c.tvd)),
                );
                row
            })
            .collect(),
    }
}

/// One line per pile size.
fn tvd_chart(params: &Params, cases: &[Case]) -> Chart {
    Chart {
        id: "tvd".into(),
        title: "Distance to a random order against riffles".into(),
        description: "Exact total variation distance between the pile's order after r \
                      riffles and a uniformly random order, one line per pile size."
            .into(),
        kind: ChartKind::Lines,
        x_label: "riffles r".into(),
        y_label: "total variation distance".into(),
        y_format: ValueFormat::Probability,
        series: params
            .cards
            .values()
            .iter()
            .map(|&n| {
                let of_pile = || cases.iter().filter(move |c| c.cards == n);
                Series {
                    name: format!("{n} cards"),
                    points: of_pile()
                        .map(|c| (c.riffles as f64, to_f64(&c.tvd)))
                        .collect(),
                    titles: of_pile()
                        .map(|c| {
                            let label = format!("{n} cards, {} riffles", c.riffles);
                            format::exact_title(&label, &c.tvd, true)
                        })
                        .collect(),
                    ..Series::default()
                }
            })
            .collect(),
        table_id: Some("tvd".into()),
        ..Chart::default()
    }
}

/// How many riffles the largest pile needs to come close to random.
fn verdict(needed: &[RifflesNeeded]) -> String {
    let Some(largest) = needed.iter().map(|r| r.cards).max() else {
        return "No thresholds to reach.".into();
    };
    let rows: Vec<String> = needed
        .iter()
        .filter(|r| r.cards == largest)
        .map(|r| {
            let distance = crate::layout::format::decimal(&r.tvd_at_most);
            match r.riffles {
                Some(n) => format!("{n} riffles bring it within {distance} of a random order"),
                None => format!("no listed number of riffles brings it within {distance}"),
            }
        })
        .collect();
    format!("A pile of {largest} cards: {}.", rows.join("; "))
}

fn needed_table(needed: &[RifflesNeeded]) -> Table {
    Table {
        id: "riffles-needed".into(),
        caption: "Fewest listed riffles bringing the distance under each threshold".into(),
        columns: ["cards", "distance at most", "riffles"]
            .map(String::from)
            .to_vec(),
        rows: needed
            .iter()
            .map(|row| {
                vec![
                    Cell::plain(row.cards.to_string()),
                    fraction(&row.tvd_at_most),
                    Cell::plain(
                        row.riffles
                            .map_or("more than listed".into(), |r| r.to_string()),
                    ),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::Analysis;
    use crate::layout::ScenarioPage;
    use crate::progress::Progress;

    #[test]
    fn the_page_draws_and_tabulates_the_distance() {
        let params: Params = serde_yaml::from_str("cards: [1, 52]\nriffles: \"1..12\"").unwrap();
        let results = Shuffle::analyse(&params, &Progress::hidden());
        let page = ScenarioPage {
            results: serde_json::to_value(&results).unwrap(),
            blocks: Shuffle::layout(&params, &results),
        };
        assert!(page.chart("tvd").is_some() && page.table("tvd").is_some());
    }
}
