//! The `race` page: the totals, the head-to-head games, each list alone,
//! then what the search for the strongest lists found.

use crate::analyses::race::results::{List, Matchup, Mix, Optimizer, Solo};
use crate::analyses::race::{Analysed, Params, Race, Results};
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Series, Table, ValueFormat};
use crate::layout::cells::{fraction, yes_no};
use crate::layout::{cells, format, Layout};
use num_traits::{Signed, Zero};

impl Layout for Race {
    fn layout(_: &Params, analysed: &Analysed) -> Vec<Block> {
        let (results, figures) = (&analysed.results, &analysed.page);
        let mut blocks = vec![
            Block::Verdict {
                text: verdict(results),
            },
            Block::Table(sums_table(results)),
            Block::Table(matchups_table(&results.matchups)),
            Block::Table(solo_table(&results.solo)),
            Block::Table(solo_distribution_table(&results.solo, &figures.solo_within)),
        ];
        // A chart has a colour per list up to its palette; beyond, the table.
        if results.solo.len() <= crate::layout::blocks::MAX_SERIES {
            blocks.insert(
                4,
                Block::Chart(solo_chart(&results.solo, &figures.solo_within)),
            );
        }
        if results.matchups.is_empty() {
            blocks.remove(2);
        }
        if let Some(o) = &results.optimizer {
            blocks.extend(optimizer_blocks(o, &figures.strongest_margins));
        }
        blocks
    }
}

/// Who is unbeaten, or the first head-to-head game's result.
fn verdict(results: &Results) -> String {
    if let Some(o) = &results.optimizer {
        return match o.unbeaten.as_slice() {
            [] => "No list is unbeaten: every list loses more often than it wins against \
                   some other list, so the best play is a random choice (below)."
                .into(),
            [one] => format!(
                "{} is unbeaten: no other list wins against it more often than it loses.",
                list_text(&one.list)
            ),
            many => format!(
                "Unbeaten: {}; no other list wins against them more often than it loses.",
                lists_text(many.iter().map(|r| &r.list))
            ),
        };
    }
    match results.matchups.first() {
        Some(m) => format!(
            "{} against {}: {} wins with chance {}, {} with {}, a tie {}.",
            list_text(&m.a),
            list_text(&m.b),
            list_text(&m.a),
            format::percent(&m.p_a_wins),
            list_text(&m.b),
            format::percent(&m.p_b_wins),
            format::percent(&m.p_tie),
        ),
        None => "Each list's rolls to finish alone are below.".into(),
    }
}

fn list_text(list: &List) -> String {
    let sums: Vec<String> = list.iter().map(u64::to_string).collect();
    format!("[{}]", sums.join(", "))
}

fn lists_text<'a>(lists: impl Iterator<Item = &'a List>) -> String {
    lists.map(list_text).collect::<Vec<_>>().join("; ")
}

fn sums_table(results: &Results) -> Table {
    Table {
        id: "sums".into(),
        caption: "Totals: ways and probability per roll".into(),
        columns: vec!["total".into(), "ways".into(), "probability".into()],
        rows: results
            .sums
            .iter()
            .map(|t| {
                vec![
                    Cell::plain(t.total.to_string()),
                    cells::count(&t.ways),
                    fraction(&t.probability),
                ]
            })
            .collect(),
    }
}

fn matchups_table(matchups: &[Matchup]) -> Table {
    Table {
        id: "matchups".into(),
        caption: "Head-to-head games, exact".into(),
        columns: [
            "list A",
            "list B",
            "P(A wins)",
            "P(B wins)",
            "P(tie)",
            "expected rolls",
        ]
        .map(String::from)
        .to_vec(),
        rows: matchups
            .iter()
            .map(|m| {
                vec![
                    Cell::plain(list_text(&m.a)),
                    Cell::plain(list_text(&m.b)),
                    fraction(&m.p_a_wins),
                    fraction(&m.p_b_wins),
                    fraction(&m.p_tie),
                    fraction(&m.expected_rolls),
                ]
            })
            .collect(),
    }
}

fn solo_table(solos: &[Solo]) -> Table {
    Table {
        id: "solo".into(),
        caption: "One player alone: rolls to cross off the whole list".into(),
        columns: ["list", "expected rolls", "median rolls"]
            .map(String::from)
            .to_vec(),
        rows: solos
            .iter()
            .map(|s| {
                vec![
                    Cell::plain(list_text(&s.list)),
                    fraction(&s.expected_rolls),
                    s.median_rolls.map_or(Cell::plain("—"), cells::integer),
                ]
            })
            .collect(),
    }
}

/// `within[i][n]`: P(list i finished alone within n rolls).
fn solo_chart(solos: &[Solo], within: &[Vec<Exact>]) -> Chart {
    Chart {
        id: "solo-distribution".into(),
        title: "Rolls to finish a list alone".into(),
        description: "Probability that one player alone has crossed off the whole list within n rolls, one line per list.".into(),
        kind: ChartKind::Lines,
        x_label: "rolls n".into(),
        y_label: "P(finished within n rolls)".into(),
        y_format: ValueFormat::Probability,
        series: solos
            .iter()
            .zip(within)
            .map(|(s, within)| Series {
                name: list_text(&s.list),
                points: within
                    .iter()
                    .enumerate()
                    .map(|(n, p)| (n as f64, to_f64(p)))
                    .collect(),
                titles: within
                    .iter()
                    .enumerate()
                    .map(|(n, p)| {
                        let label = format!("{} within {n} rolls", list_text(&s.list));
                        format::exact_title(&label, p, true)
                    })
                    .collect(),
                ..Series::default()
            })
            .collect(),
        table_id: Some("solo-distribution".into()),
        ..Chart::default()
    }
}

fn solo_distribution_table(solos: &[Solo], within: &[Vec<Exact>]) -> Table {
    let horizon = within.iter().map(Vec::len).max().unwrap_or(0);
    let mut columns = vec!["rolls".to_string()];
    columns.extend(
        solos
            .iter()
            .map(|s| format!("P(done) {}", list_text(&s.list))),
    );
    Table {
        id: "solo-distribution".into(),
        caption: "Cumulative probability of having finished alone within n rolls".into(),
        columns,
        rows: (1..horizon)
            .map(|n| {
                std::iter::once(cells::integer(n))
                    .chain(within.iter().map(|p| fraction(&p[n])))
                    .collect()
            })
            .collect(),
    }
}

fn optimizer_blocks(o: &Optimizer, strongest_margins: &[Vec<Exact>]) -> Vec<Block> {
    let mut blocks = vec![
        Block::Heading {
            text: "The strongest lists".into(),
        },
        Block::Facts {
            items: vec![
                ("Lists".into(), cells::integer(o.lists)),
                (
                    "Lists compared against every other".into(),
                    cells::integer(o.rows_evaluated),
                ),
                (
                    "Games computed exactly to prove it".into(),
                    cells::integer(o.exact_games),
                ),
                (
                    "Greedy search ends at".into(),
                    Cell::plain(list_text(&o.greedy.list)),
                ),
                (
                    "Unbeaten lists".into(),
                    Cell::plain(if o.unbeaten.is_empty() {
                        "none".into()
                    } else {
                        lists_text(o.unbeaten.iter().map(|r| &r.list))
                    }),
                ),
                (
                    "Greedy list is unbeaten".into(),
                    yes_no(o.greedy.is_unbeaten),
                ),
                (
                    "Greedy list's smallest margin over the other lists".into(),
                    {
                        let margin = cells::points(&o.greedy.min_margin);
                        let rival = list_text(&o.greedy.closest_rival);
                        Cell {
                            shown: format!("{} (closest rival {rival})", margin.shown),
                            exact: format!("{} (closest rival {rival})", margin.exact),
                        }
                    },
                ),
                (
                    "Fastest solo list".into(),
                    Cell::plain(lists_text(o.fastest_solo.lists.iter())),
                ),
                (
                    "Fastest solo list is unbeaten".into(),
                    yes_no(o.fastest_solo.is_unbeaten),
                ),
            ],
        },
        Block::Table(greedy_table(o)),
        Block::Table(Table {
            id: "maximin".into(),
            caption: "Lists with the best worst margin, and how safe each is: its smallest \
                      margin over every other list"
                .into(),
            columns: ["list", "smallest margin", "closest rival", "unbeaten"]
                .map(String::from)
                .to_vec(),
            rows: o
                .maximin
                .iter()
                .map(|r| {
                    vec![
                        Cell::plain(list_text(&r.list)),
                        cells::points(&r.min_margin),
                        Cell::plain(list_text(&r.closest_rival)),
                        yes_no(!r.min_margin.is_negative()),
                    ]
                })
                .collect(),
        }),
    ];
    if let Some(c) = &o.cycle {
        blocks.push(Block::Table(Table {
            id: "cycle".into(),
            caption: "A non-transitive cycle: each list beats the next".into(),
            columns: ["list", "beats", "margin"].map(String::from).to_vec(),
            rows: (0..3)
                .map(|i| {
                    vec![
                        Cell::plain(list_text(&c.lists[i])),
                        Cell::plain(list_text(&c.lists[(i + 1) % 3])),
                        cells::points(&c.margins[i]),
                    ]
                })
                .collect(),
        }));
    }
    if let Some(m) = &o.mixed {
        blocks.push(Block::Table(mixed_table(m)));
    }
    blocks.push(Block::Chart(margins_heatmap(o, strongest_margins)));
    blocks.push(Block::Table(margins_table(o, strongest_margins)));
    blocks
}

/// The margins table as a heatmap: row list against column list.
fn margins_heatmap(o: &Optimizer, margins: &[Vec<Exact>]) -> Chart {
    // The colour bar reads like the table: its ends are the widest margin.
    let widest = margins
        .iter()
        .flatten()
        .map(Signed::abs)
        .max()
        .unwrap_or_else(Exact::zero);
    let half = &widest / Exact::from_integer(2.into());
    let y_ticks = [widest.clone(), half.clone(), Exact::zero(), -half, -widest]
        .iter()
        .map(|m| (to_f64(m), format::points(m)))
        .collect();
    Chart {
        id: "margins".into(),
        title: "Margins among the strongest lists".into(),
        description: "Each cell is P(row list wins) minus P(column list wins): \
                      blue where the row list is favoured, vermilion where the column list is, \
                      the background colour for an even game, the shade in proportion to the margin; \
                      columns are numbered like the rows."
            .into(),
        kind: ChartKind::Heatmap,
        x_label: "opponent (column), numbered as the rows".into(),
        y_label: "list (row)".into(),
        series: o
            .strongest
            .iter()
            .zip(margins)
            .map(|(l, row)| Series {
                name: list_text(l),
                points: row
                    .iter()
                    .enumerate()
                    .map(|(j, m)| (j as f64, to_f64(m)))
                    .collect(),
                titles: row
                    .iter()
                    .zip(&o.strongest)
                    .map(|(m, opponent)| {
                        let label = format!("{} against {}", list_text(l), list_text(opponent));
                        format::points_title(&label, m)
                    })
                    .collect(),
                ..Series::default()
            })
            .collect(),
        table_id: Some("margins".into()),
        y_ticks,
        ..Chart::default()
    }
}

fn mixed_table(m: &Mix) -> Table {
    Table {
        id: "mixed".into(),
        caption: "No list is unbeaten: the optimal random choice of lists".into(),
        columns: ["list", "probability"].map(String::from).to_vec(),
        rows: m
            .support
            .iter()
            .zip(&m.weights)
            .map(|(l, w)| vec![Cell::plain(list_text(l)), fraction(w)])
            .collect(),
    }
}

fn greedy_table(o: &Optimizer) -> Table {
    Table {
        id: "greedy-steps".into(),
        caption: "The greedy substitution search, every comparison exact".into(),
        columns: [
            "position",
            "incumbent",
            "challenger",
            "P(challenger wins)",
            "P(incumbent wins)",
            "accepted",
        ]
        .map(String::from)
        .to_vec(),
        rows: o
            .greedy
            .steps
            .iter()
            .map(|s| {
                vec![
                    Cell::plain(s.position.to_string()),
                    Cell::plain(s.incumbent.to_string()),
                    Cell::plain(s.challenger.to_string()),
                    fraction(&s.challenger_wins),
                    fraction(&s.incumbent_wins),
                    yes_no(s.accepted),
                ]
            })
            .collect(),
    }
}

/// The heatmap of margins among the strongest lists, as a table: the cell
/// in row A, column B is P(A wins) - P(B wins).
fn margins_table(o: &Optimizer, margins: &[Vec<Exact>]) -> Table {
    let mut columns = vec!["list".to_string()];
    columns.extend(o.strongest.iter().map(list_text));
    Table {
        id: "margins".into(),
        caption: "Margins P(row wins) − P(column wins) among the strongest lists".into(),
        columns,
        rows: o
            .strongest
            .iter()
            .zip(margins)
            .map(|(l, row)| {
                std::iter::once(Cell::plain(list_text(l)))
                    .chain(row.iter().map(cells::points))
                    .collect()
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

    fn page(yaml: &str) -> (Results, ScenarioPage) {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        Race::validate(&params).unwrap();
        let analysed = Race::analyse(&params, &Progress::hidden());
        let page = ScenarioPage {
            results: Race::contract(&analysed, serde_json::value::Serializer).unwrap(),
            blocks: Race::layout(&params, &analysed),
        };
        (analysed.results, page)
    }

    #[test]
    fn the_seeds_matchup_on_the_page() {
        let (_, r) =
            page("dice: 2d6\npicks: 5\nmatchups:\n  - [[5, 6, 7, 8, 9], [5, 6, 7, 8, 7]]\n");
        assert!(r.table("matchups").is_some() && r.chart("solo-distribution").is_some());
        assert_eq!(r.table("solo").unwrap().rows.len(), 2);
    }

    #[test]
    fn optimizer_blocks_on_a_small_game() {
        let (_, r) = page("dice: 2d6\npicks: 2\noptimize: true\n");
        assert!(r.table("matchups").is_none(), "no matchups, no table");
        let table = r.table("margins").unwrap();
        assert_eq!(table.rows.len(), table.columns.len() - 1);
        let heatmap = r.chart("margins").unwrap();
        assert_eq!(heatmap.kind, ChartKind::Heatmap);
        assert_eq!(heatmap.table_id.as_deref(), Some("margins"));
        assert_eq!(heatmap.series.len(), table.rows.len());
        assert_eq!(heatmap.series[0].name, table.rows[0][0].shown);
        assert!(r.table("mixed").is_none());
    }

    #[test]
    fn mixed_table_when_no_list_is_unbeaten() {
        let (results, r) = page("dice: 3d2\npicks: 6\noptimize: true\n");
        let mixed = results.optimizer.unwrap().mixed.unwrap();
        assert_eq!(r.table("mixed").unwrap().rows.len(), mixed.weights.len());
    }

    /// A margin reads one way in the table, the tooltip and the colour
    /// bar: a difference of two chances in points by `format::points`,
    /// the bar's ends the widest.
    #[test]
    fn margins_read_alike_in_the_table_the_tooltips_and_the_legend() {
        let (_, r) = page("dice: 2d6\npicks: 2\noptimize: true\n");
        let table = r.table("margins").unwrap();
        let heatmap = r.chart("margins").unwrap();
        let (mut widest, mut at) = (0.0, (0, 0));
        for (i, series) in heatmap.series.iter().enumerate() {
            for (j, &(_, v)) in series.points.iter().enumerate() {
                if v.abs() > widest {
                    (widest, at) = (v.abs(), (i, j));
                }
            }
        }
        let cell = &table.rows[at.0][at.1 + 1];
        assert!(cell.shown.ends_with("\u{a0}points"), "{cell:?}");
        assert!(heatmap.series[at.0].titles[at.1].ends_with(&cell.shown));
        let labels: Vec<&str> = heatmap.y_ticks.iter().map(|t| t.1.as_str()).collect();
        let magnitude = cell.shown.trim_start_matches('−');
        assert_eq!(labels[0], magnitude, "{labels:?}");
        assert_eq!(labels[4], format!("−{magnitude}"), "{labels:?}");
        assert_eq!(labels[2], "0\u{a0}points");
        assert!(
            labels.iter().all(|l| l.ends_with("\u{a0}points")),
            "{labels:?}"
        );
    }
}
