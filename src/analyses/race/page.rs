//! The race's results contract and page blocks.

use super::game::Outcome;
use super::lists::{Counts, Totals};
use super::search::{optimise, MixedLists, Optimum, Rated};
use super::{residues, solo, Params};
use crate::engine::{exact_string, ratio, to_f64, Exact};
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, ScenarioPage, Series, Table};
use crate::layout::cells::fraction;
use num_bigint::BigUint;
use num_traits::Zero;
use rayon::prelude::*;
use serde_json::{json, Value};

/// Solo distributions run until this share of games has ended.
const SOLO_COVERAGE: f64 = 0.999;

/// Longest solo distribution shown, in rolls.
const SOLO_MAX_ROLLS: usize = 400;

/// One list alone, exactly.
struct Solo {
    list: Counts,
    expected_rolls: Exact,
    /// `finished[n]`: sequences of n rolls that have emptied the list.
    finished: Vec<BigUint>,
}

impl Solo {
    /// P(done within n rolls).
    fn cumulative(&self, totals: &Totals, n: usize) -> Exact {
        ratio(
            &self.finished[n],
            &BigUint::from(totals.outcomes).pow(n as u32),
        )
    }

    /// The fewest rolls that finish at least half of all games.
    fn median(&self, totals: &Totals) -> Option<usize> {
        (0..self.finished.len())
            .find(|&n| &self.finished[n] * 2u32 >= BigUint::from(totals.outcomes).pow(n as u32))
    }
}

/// Compute and lay out everything a race scenario asks for.
pub fn build(params: &Params) -> ScenarioPage {
    let totals = params.totals();
    let matchups: Vec<(Counts, Counts, Outcome<Exact>)> = params
        .matchups
        .par_iter()
        .map(|(a, b)| {
            let (a, b) = (totals.counts(a), totals.counts(b));
            let outcome = residues::game(&totals, &a, &b);
            (a, b, outcome)
        })
        .collect();
    let optimum = params.optimize.then(|| optimise(&totals, params.picks));
    let solos = solos(&totals, &solo_lists(&matchups, optimum.as_ref()));
    let results = json!({
        "dice": { "count": totals.min, "sides": params.dice.sides },
        "picks": params.picks,
        "sums": sums_json(&totals),
        "matchups": matchups.iter().map(|(a, b, o)| matchup_json(&totals, a, b, o)).collect::<Vec<_>>(),
        "solo": solos.iter().map(|s| solo_json(&totals, s)).collect::<Vec<_>>(),
        "optimizer": optimum.as_ref().map(|o| optimizer_json(&totals, o)),
    });
    let mut blocks = vec![
        Block::Table(sums_table(&totals)),
        Block::Table(matchups_table(&totals, &matchups)),
        Block::Table(solo_table(&totals, &solos)),
        Block::Chart(solo_chart(&totals, &solos)),
        Block::Table(solo_distribution_table(&totals, &solos)),
    ];
    if matchups.is_empty() {
        blocks.remove(1);
    }
    if let Some(o) = &optimum {
        blocks.extend(optimizer_blocks(&totals, o));
    }
    ScenarioPage { results, blocks }
}

/// Every list the scenario names or the optimizer reports, first mention first.
fn solo_lists(
    matchups: &[(Counts, Counts, Outcome<Exact>)],
    optimum: Option<&Optimum>,
) -> Vec<Counts> {
    let mut lists: Vec<Counts> = matchups
        .iter()
        .flat_map(|(a, b, _)| [a.clone(), b.clone()])
        .collect();
    if let Some(o) = optimum {
        lists.push(o.greedy.list.clone());
        lists.extend(o.unbeaten.iter().chain(&o.maximin).map(|r| r.list.clone()));
        lists.extend(o.fastest.iter().cloned());
        if let Some(c) = &o.cycle {
            lists.extend(c.lists.iter().cloned());
        }
        if let Some(m) = &o.mixed {
            lists.extend(m.support.iter().cloned());
        }
    }
    let mut seen = Vec::new();
    lists.retain(|l| {
        let new = !seen.contains(l);
        if new {
            seen.push(l.clone());
        }
        new
    });
    lists
}

fn solos(totals: &Totals, lists: &[Counts]) -> Vec<Solo> {
    // Each list until most of its sequences finish, then every list on to
    // the slowest one's horizon, so the chart's curves share one axis.
    let mut runs: Vec<(solo::Finishing, Vec<BigUint>)> = lists
        .par_iter()
        .map(|list| solo::finished_by(totals, list, SOLO_COVERAGE, SOLO_MAX_ROLLS))
        .collect();
    let horizon = runs.iter().map(|(_, f)| f.len() - 1).max().unwrap_or(0);
    runs.par_iter_mut()
        .for_each(|(finishing, finished)| finishing.extend(finished, f64::INFINITY, horizon));
    lists
        .par_iter()
        .zip(runs)
        .map(|(list, (_, finished))| Solo {
            list: list.clone(),
            expected_rolls: residues::solo_rolls(totals, list),
            finished,
        })
        .collect()
}

fn list_json(totals: &Totals, list: &[u8]) -> Value {
    json!(totals.sums(list))
}

fn list_text(totals: &Totals, list: &[u8]) -> String {
    let sums: Vec<String> = totals.sums(list).iter().map(u64::to_string).collect();
    format!("[{}]", sums.join(", "))
}

fn sums_json(totals: &Totals) -> Value {
    let all = BigUint::from(totals.outcomes);
    json!((0..totals.kinds())
        .map(|i| json!({
            "total": totals.total(i),
            "ways": totals.ways[i].to_string(),
            "probability": exact_string(&ratio(&totals.ways[i].into(), &all)),
        }))
        .collect::<Vec<_>>())
}

fn matchup_json(totals: &Totals, a: &[u8], b: &[u8], o: &Outcome<Exact>) -> Value {
    json!({
        "a": list_json(totals, a),
        "b": list_json(totals, b),
        "p_a_wins": exact_string(&o.a_wins),
        "p_b_wins": exact_string(&o.b_wins),
        "p_tie": exact_string(&o.tie),
        "expected_rolls": exact_string(&o.expected_rolls),
    })
}

fn solo_json(totals: &Totals, s: &Solo) -> Value {
    json!({
        "list": list_json(totals, &s.list),
        "expected_rolls": exact_string(&s.expected_rolls),
        "median_rolls": s.median(totals),
    })
}

fn rated_json(totals: &Totals, r: &Rated) -> Value {
    json!({ "list": list_json(totals, &r.list), "min_margin": exact_string(&r.worst_margin) })
}

fn optimizer_json(totals: &Totals, o: &Optimum) -> Value {
    let leader = &o.maximin[0].list;
    let is_unbeaten = |l: &Counts| o.unbeaten.iter().any(|r| &r.list == l);
    let is_maximin = |l: &Counts| o.maximin.iter().any(|r| &r.list == l);
    let against_leader =
        |l: &Counts| matchup_json(totals, l, leader, &residues::game(totals, l, leader));
    json!({
        "lists": o.lists,
        "rows_evaluated": o.rows_evaluated,
        "exact_games": o.exact_games,
        "greedy": {
            "list": list_json(totals, &o.greedy.list),
            "steps": o.greedy.steps.iter().map(|s| json!({
                "position": s.position,
                "incumbent": s.incumbent,
                "challenger": s.challenger,
                "p_challenger_wins": exact_string(&s.challenger_wins),
                "p_incumbent_wins": exact_string(&s.incumbent_wins),
                "accepted": s.accepted,
            })).collect::<Vec<_>>(),
            "min_margin": exact_string(&o.greedy_worst_margin),
            "is_unbeaten": is_unbeaten(&o.greedy.list),
            "is_maximin": is_maximin(&o.greedy.list),
            "against_maximin": against_leader(&o.greedy.list),
        },
        "unbeaten": o.unbeaten.iter().map(|r| rated_json(totals, r)).collect::<Vec<_>>(),
        "maximin": o.maximin.iter().map(|r| rated_json(totals, r)).collect::<Vec<_>>(),
        "fastest_solo": {
            "lists": o.fastest.iter().map(|l| list_json(totals, l)).collect::<Vec<_>>(),
            "expected_rolls": exact_string(&o.fastest_rolls),
            "is_unbeaten": o.fastest.iter().any(is_unbeaten),
            "is_maximin": o.fastest.iter().any(is_maximin),
            "against_maximin": against_leader(&o.fastest[0]),
        },
        "cycle": o.cycle.as_ref().map(|c| json!({
            "lists": c.lists.iter().map(|l| list_json(totals, l)).collect::<Vec<_>>(),
            "margins": c.margins.iter().map(exact_string).collect::<Vec<_>>(),
        })),
        "strongest": o.strongest.iter().map(|l| list_json(totals, l)).collect::<Vec<_>>(),
        "mixed": o.mixed.as_ref().map(|m| mixed_json(totals, m)),
    })
}

/// The optimal mix of lists: its support, exact weights, the restricted
/// game's value and the mix's exact worst margin over every list.
fn mixed_json(totals: &Totals, m: &MixedLists) -> Value {
    json!({
        "support": m.support.iter().map(|l| list_json(totals, l)).collect::<Vec<_>>(),
        "weights": m.mix.weights.iter().map(exact_string).collect::<Vec<_>>(),
        "value": exact_string(&m.mix.value),
        "worst_margin": exact_string(&m.mix.worst_margin),
    })
}

fn sums_table(totals: &Totals) -> Table {
    let all = BigUint::from(totals.outcomes);
    Table {
        id: "sums".into(),
        caption: "Totals: ways and probability per roll".into(),
        columns: vec!["total".into(), "ways".into(), "probability".into()],
        rows: (0..totals.kinds())
            .map(|i| {
                vec![
                    Cell::plain(totals.total(i).to_string()),
                    Cell::plain(totals.ways[i].to_string()),
                    fraction(&ratio(&totals.ways[i].into(), &all)),
                ]
            })
            .collect(),
    }
}

fn matchups_table(totals: &Totals, matchups: &[(Counts, Counts, Outcome<Exact>)]) -> Table {
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
            .map(|(a, b, o)| {
                vec![
                    Cell::plain(list_text(totals, a)),
                    Cell::plain(list_text(totals, b)),
                    fraction(&o.a_wins),
                    fraction(&o.b_wins),
                    fraction(&o.tie),
                    fraction(&o.expected_rolls),
                ]
            })
            .collect(),
    }
}

fn solo_table(totals: &Totals, solos: &[Solo]) -> Table {
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
                    Cell::plain(list_text(totals, &s.list)),
                    fraction(&s.expected_rolls),
                    Cell::plain(s.median(totals).map_or("—".into(), |m| m.to_string())),
                ]
            })
            .collect(),
    }
}

fn solo_chart(totals: &Totals, solos: &[Solo]) -> Chart {
    Chart {
        id: "solo-distribution".into(),
        title: "Rolls to finish a list alone".into(),
        description: "Probability that one player alone has crossed off the whole list within n rolls, one line per list.".into(),
        kind: ChartKind::Lines,
        x_label: "rolls n".into(),
        y_label: "P(finished within n rolls)".into(),
        log_y: false,
        series: solos
            .iter()
            .map(|s| Series {
                name: list_text(totals, &s.list),
                points: (0..s.finished.len())
                    .map(|n| (n as f64, to_f64(&s.cumulative(totals, n))))
                    .collect(),
            })
            .collect(),
        reference: None,
        table_id: Some("solo-distribution".into()),
    }
}

fn solo_distribution_table(totals: &Totals, solos: &[Solo]) -> Table {
    let horizon = solos.iter().map(|s| s.finished.len()).max().unwrap_or(0);
    let mut columns = vec!["rolls".to_string()];
    columns.extend(
        solos
            .iter()
            .map(|s| format!("P(done) {}", list_text(totals, &s.list))),
    );
    Table {
        id: "solo-distribution".into(),
        caption: "Cumulative probability of having finished alone within n rolls".into(),
        columns,
        rows: (1..horizon)
            .map(|n| {
                std::iter::once(Cell::plain(n.to_string()))
                    .chain(solos.iter().map(|s| fraction(&s.cumulative(totals, n))))
                    .collect()
            })
            .collect(),
    }
}

fn optimizer_blocks(totals: &Totals, o: &Optimum) -> Vec<Block> {
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mut blocks = vec![
        Block::Heading {
            text: "The strongest lists".into(),
        },
        Block::Facts {
            items: vec![
                ("Lists".into(), o.lists.to_string()),
                (
                    "Rows of the margin table computed".into(),
                    o.rows_evaluated.to_string(),
                ),
                (
                    "Games played exactly to prove the answer".into(),
                    o.exact_games.to_string(),
                ),
                (
                    "Greedy search ends at".into(),
                    list_text(totals, &o.greedy.list),
                ),
                (
                    "Unbeaten lists".into(),
                    if o.unbeaten.is_empty() {
                        "none".into()
                    } else {
                        o.unbeaten
                            .iter()
                            .map(|r| list_text(totals, &r.list))
                            .collect::<Vec<_>>()
                            .join("; ")
                    },
                ),
                (
                    "Greedy list is unbeaten".into(),
                    yes_no(o.unbeaten.iter().any(|r| r.list == o.greedy.list)),
                ),
                (
                    "Fastest solo list".into(),
                    o.fastest
                        .iter()
                        .map(|l| list_text(totals, l))
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
                (
                    "Fastest solo list is unbeaten".into(),
                    yes_no(
                        o.fastest
                            .iter()
                            .any(|l| o.unbeaten.iter().any(|r| &r.list == l)),
                    ),
                ),
            ],
        },
        Block::Table(greedy_table(o)),
        Block::Table(Table {
            id: "maximin".into(),
            caption: "Lists with the best worst margin over every opponent".into(),
            columns: ["list", "worst margin", "unbeaten"]
                .map(String::from)
                .to_vec(),
            rows: o
                .maximin
                .iter()
                .map(|r| {
                    vec![
                        Cell::plain(list_text(totals, &r.list)),
                        fraction(&r.worst_margin),
                        Cell::plain(yes_no(r.worst_margin.is_zero())),
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
                        Cell::plain(list_text(totals, &c.lists[i])),
                        Cell::plain(list_text(totals, &c.lists[(i + 1) % 3])),
                        fraction(&c.margins[i]),
                    ]
                })
                .collect(),
        }));
    }
    if let Some(m) = &o.mixed {
        blocks.push(Block::Table(mixed_table(totals, m)));
    }
    blocks.push(Block::Chart(margins_heatmap(totals, o)));
    blocks.push(Block::Table(margins_table(totals, o)));
    blocks
}

/// The margins table as a heatmap: row list against column list.
fn margins_heatmap(totals: &Totals, o: &Optimum) -> Chart {
    Chart {
        id: "margins".into(),
        title: "Margins among the strongest lists".into(),
        description: "Each cell is P(row list wins) minus P(column list wins): \
                      blue where the row list is favoured, vermilion where the column list is, \
                      white for an even game; columns are numbered like the rows."
            .into(),
        kind: ChartKind::Heatmap,
        x_label: "opponent (column), numbered as the rows".into(),
        y_label: "list (row)".into(),
        log_y: false,
        series: o
            .strongest
            .iter()
            .zip(&o.strongest_margins)
            .map(|(l, row)| Series {
                name: list_text(totals, l),
                points: row
                    .iter()
                    .enumerate()
                    .map(|(j, m)| (j as f64, to_f64(m)))
                    .collect(),
            })
            .collect(),
        reference: None,
        table_id: Some("margins".into()),
    }
}

fn mixed_table(totals: &Totals, m: &MixedLists) -> Table {
    Table {
        id: "mixed".into(),
        caption: "No list is unbeaten: the optimal random choice of lists".into(),
        columns: ["list", "probability"].map(String::from).to_vec(),
        rows: m
            .support
            .iter()
            .zip(&m.mix.weights)
            .map(|(l, w)| vec![Cell::plain(list_text(totals, l)), fraction(w)])
            .collect(),
    }
}

fn greedy_table(o: &Optimum) -> Table {
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
                    Cell::plain(if s.accepted { "yes" } else { "no" }),
                ]
            })
            .collect(),
    }
}

/// The heatmap of margins among the strongest lists, as a table: the cell
/// in row A, column B is P(A wins) - P(B wins).
fn margins_table(totals: &Totals, o: &Optimum) -> Table {
    let mut columns = vec!["list".to_string()];
    columns.extend(o.strongest.iter().map(|l| list_text(totals, l)));
    Table {
        id: "margins".into(),
        caption: "Margins P(row wins) − P(column wins) among the strongest lists".into(),
        columns,
        rows: o
            .strongest
            .iter()
            .zip(&o.strongest_margins)
            .map(|(l, row)| {
                std::iter::once(Cell::plain(list_text(totals, l)))
                    .chain(row.iter().map(fraction))
                    .collect()
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Signed;

    fn report(yaml: &str) -> ScenarioPage {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        params.validate().unwrap();
        build(&params)
    }

    fn exact(value: &Value) -> Exact {
        let text = value.as_str().expect("a fraction");
        let (p, q) = text.split_once('/').expect("p/q");
        Exact::new(p.parse().unwrap(), q.parse().unwrap())
    }

    #[test]
    fn the_seeds_matchup_in_the_contract() {
        let r = report("dice: 2d6\npicks: 5\nmatchups:\n  - [[5, 6, 7, 8, 9], [5, 6, 7, 8, 7]]\n");
        let m = &r.results["matchups"][0];
        assert_eq!(m["b"], json!([5, 6, 7, 7, 8]), "lists are reported sorted");
        let sum = exact(&m["p_a_wins"]) + exact(&m["p_b_wins"]) + exact(&m["p_tie"]);
        assert_eq!(sum, Exact::from_integer(1.into()));
        // The seed's simulation favoured the five distinct totals.
        assert!(exact(&m["p_a_wins"]) > exact(&m["p_b_wins"]));
        assert_eq!(
            r.results["sums"][5],
            json!({"total": 7, "ways": "6", "probability": "1/6"})
        );
        assert_eq!(r.results["solo"].as_array().unwrap().len(), 2);
        assert!(r.results["optimizer"].is_null());
        assert!(r.table("matchups").is_some() && r.chart("solo-distribution").is_some());
    }

    #[test]
    fn optimizer_contract_on_a_small_game() {
        let r = report("dice: 2d6\npicks: 2\noptimize: true\n");
        let o = &r.results["optimizer"];
        assert_eq!(o["lists"], 66);
        let leader = &o["maximin"][0];
        assert_eq!(
            exact(&leader["min_margin"]),
            exact(&o["unbeaten"][0]["min_margin"])
        );
        assert_eq!(o["fastest_solo"]["lists"], json!([[6, 7], [7, 8]]));
        // Every reported list has its solo time.
        let solo: Vec<&Value> = r.results["solo"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| &s["list"])
            .collect();
        assert!(solo.contains(&&o["greedy"]["list"]));
        assert!(solo.contains(&&leader["list"]));
        let table = r.table("margins").unwrap();
        assert_eq!(table.rows.len(), table.columns.len() - 1);
        let heatmap = r.chart("margins").unwrap();
        assert_eq!(heatmap.kind, ChartKind::Heatmap);
        assert_eq!(heatmap.table_id.as_deref(), Some("margins"));
        assert_eq!(heatmap.series.len(), table.rows.len());
        assert_eq!(heatmap.series[0].name, table.rows[0][0].shown);
        assert!(o["mixed"].is_null(), "an unbeaten list needs no mix");
        assert!(r.table("mixed").is_none());
    }

    #[test]
    fn mixed_contract_when_no_list_is_unbeaten() {
        let r = report("dice: 3d2\npicks: 6\noptimize: true\n");
        let o = &r.results["optimizer"];
        assert_eq!(o["unbeaten"], json!([]));
        let mixed = &o["mixed"];
        let weights: Vec<Exact> = mixed["weights"]
            .as_array()
            .unwrap()
            .iter()
            .map(exact)
            .collect();
        assert_eq!(weights.len(), mixed["support"].as_array().unwrap().len());
        assert_eq!(weights.iter().sum::<Exact>(), Exact::from_integer(1.into()));
        assert_eq!(mixed["value"], "0/1");
        assert!(!exact(&mixed["worst_margin"]).is_negative());
        assert_eq!(r.table("mixed").unwrap().rows.len(), weights.len());
    }
}
