//! The `reroll` page: expected rolls per die and the best die, banishing
//! several cards, the mod shortcut's bias, then every scheme.

use crate::analyses::reroll::{
    die_name, Banishing, BestDie, Case, Params, Reroll, Results, Scheme, StageDie,
};
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Reference, Series, Table, ValueFormat};
use crate::layout::cells::{fraction, optional_fraction, yes_no};
use crate::layout::{cells, format, Layout};

impl Layout for Reroll {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        let mut blocks = vec![
            Block::Verdict {
                text: verdict(&results.cases),
            },
            Block::Heading {
                text: "Expected rolls per die".into(),
            },
            Block::Chart(rolls_chart(&params.dice, &results.cases)),
            Block::Table(rolls_table(&params.dice, &results.cases)),
            Block::Table(best_table(&results.best_die)),
        ];
        if params.cards.values().contains(&1) {
            blocks.push(Block::Text {
                text: "With one card there is nothing to choose: no die is rolled, \
                       so its expected rolls are 0."
                    .into(),
            });
        }
        if let Some(banishings) = results.banish.as_ref().filter(|rows| !rows.is_empty()) {
            blocks.push(Block::Heading {
                text: "Banishing several cards".into(),
            });
            blocks.push(Block::Table(banish_table(banishings)));
            blocks.push(Block::Text {
                text: "Die per stage: the die rolled to banish each card in turn. \
                       \"no roll\": one card is left, so it is chosen without rolling; \
                       \"none\": no die of the list has enough faces for the cards left, \
                       and the total is not given."
                    .into(),
            });
        }
        blocks.push(Block::Heading {
            text: "The mod shortcut".into(),
        });
        for case in mod_examples(&params.dice, &results.cases) {
            blocks.extend(mod_blocks(case));
        }
        blocks.push(Block::Heading {
            text: "Every scheme".into(),
        });
        blocks.push(Block::Table(cases_table(&results.cases)));
        blocks
    }
}

/// Which schemes are exactly fair wherever they can be used.
fn verdict(cases: &[Case]) -> String {
    let mut fair = Vec::new();
    let mut unfair = Vec::new();
    for scheme in [Scheme::OneFace, Scheme::MultiFace, Scheme::Mod] {
        let usable: Vec<&Case> = cases
            .iter()
            .filter(|c| c.scheme == scheme && c.feasible)
            .collect();
        if usable.is_empty() {
            continue;
        }
        if usable.iter().all(|c| c.uniform) {
            fair.push(scheme.name());
        } else {
            unfair.push(scheme.name());
        }
    }
    let list = |names: &[&str]| names.join(", ");
    // "the one-face and multi-face schemes are" / "the mod scheme is"
    let schemes = |names: &[&str]| match names {
        [one] => format!("the {one} scheme is"),
        many => format!("the {} schemes are", format::in_words(many)),
    };
    match (fair.is_empty(), unfair.is_empty()) {
        (false, true) => format!("Every scheme here is exactly fair: {}.", list(&fair)),
        (true, false) => format!("No scheme here is always fair: {}.", list(&unfair)),
        _ => {
            let fair = schemes(&fair);
            format!(
                "{}{} exactly fair whenever usable; {} not always fair (it gives some \
                 cards more faces than others).",
                fair[..1].to_uppercase(),
                &fair[1..],
                schemes(&unfair)
            )
        }
    }
}

/// The `multi-face` cases, cards first then the dice as listed (the order
/// of the results).
fn multi_face(cases: &[Case]) -> impl Iterator<Item = &Case> {
    cases.iter().filter(|c| c.scheme == Scheme::MultiFace)
}

fn rolls_table(dice: &[u64], cases: &[Case]) -> Table {
    let mut columns = vec!["cards".to_string()];
    columns.extend(dice.iter().map(|&sides| die_name(sides)));
    let multi_face: Vec<&Case> = multi_face(cases).collect();
    Table {
        id: "expected-rolls".into(),
        caption: "Expected rolls to pick a card, several faces per card (multi-face)".into(),
        columns,
        // One row per number of cards: one case per die.
        rows: multi_face
            .chunks(dice.len())
            .map(|row| {
                let mut cells = vec![Cell::plain(row[0].cards.to_string())];
                cells.extend(
                    row.iter()
                        .map(|c| optional_fraction(c.expected_rolls.as_ref())),
                );
                cells
            })
            .collect(),
    }
}

fn rolls_chart(dice: &[u64], cases: &[Case]) -> Chart {
    Chart {
        id: "expected-rolls".into(),
        title: "Expected rolls against the number of cards".into(),
        description: "Mean number of rolls until a face names a card, each card owning \
                      as many faces as the die allows; a die appears once it has enough faces."
            .into(),
        kind: ChartKind::Lines,
        x_label: "cards n".into(),
        y_label: "expected rolls".into(),
        series: dice
            .iter()
            .map(|&sides| {
                let d = die_name(sides);
                let rolls: Vec<(u64, &Exact)> = multi_face(cases)
                    .filter(|c| c.die == sides)
                    .filter_map(|c| Some((c.cards, c.expected_rolls.as_ref()?)))
                    .collect();
                Series {
                    name: d.clone(),
                    points: rolls
                        .iter()
                        .map(|&(cards, r)| (cards as f64, to_f64(r)))
                        .collect(),
                    titles: rolls
                        .iter()
                        .map(|&(cards, r)| {
                            format::exact_title(&format!("{cards} cards, {d}"), r, false)
                        })
                        .collect(),
                    ..Series::default()
                }
            })
            .collect(),
        reference: Some(Reference {
            label: "a single roll".into(),
            y: 1.0,
        }),
        table_id: Some("expected-rolls".into()),
        ..Chart::default()
    }
}

fn best_table(best: &[BestDie]) -> Table {
    Table {
        id: "best-die".into(),
        caption: "The die with the fewest expected rolls (multi-face), fewer faces on ties".into(),
        columns: vec!["cards".into(), "die".into(), "expected rolls".into()],
        rows: best
            .iter()
            .map(|row| {
                let die = match (row.cards, row.die) {
                    (1, _) => "no roll needed".into(),
                    (_, Some(sides)) => die_name(sides),
                    (_, None) => "none".into(),
                };
                vec![
                    Cell::plain(row.cards.to_string()),
                    Cell::plain(die),
                    optional_fraction(row.expected_rolls.as_ref()),
                ]
            })
            .collect(),
    }
}

/// For each die, the `mod` case of the last card count it does not divide:
/// there the mod shortcut favours the low cards most visibly.
fn mod_examples<'a>(dice: &'a [u64], cases: &'a [Case]) -> impl Iterator<Item = &'a Case> {
    dice.iter().filter_map(|&sides| {
        cases.iter().rev().find(|c| {
            c.scheme == Scheme::Mod && c.die == sides && c.cards <= sides && sides % c.cards != 0
        })
    })
}

fn mod_blocks(case: &Case) -> [Block; 2] {
    let id = format!("mod-d{}-{}", case.die, case.cards);
    let probabilities = case.card_probabilities.as_ref().expect("mod always ends");
    let faces = case.faces_of_card().expect("mod always ends");
    let n = case.cards;
    let chart = Chart {
        id: id.clone(),
        title: format!("d{} mod {n}: each card's chance", case.die),
        description: format!(
            "Probability of each of {n} cards when a d{} is read mod {n}, \
             beside the fair share 1/{n}.",
            case.die
        ),
        kind: ChartKind::Bars,
        x_label: "card".into(),
        y_label: "probability".into(),
        y_format: ValueFormat::Probability,
        x_ticks: (1..=n)
            .map(|card| (card as f64, card.to_string()))
            .collect(),
        series: vec![Series {
            name: "probability of the card".into(),
            points: probabilities
                .iter()
                .enumerate()
                .map(|(i, p)| ((i + 1) as f64, to_f64(p)))
                .collect(),
            titles: probabilities
                .iter()
                .enumerate()
                .map(|(i, p)| format::exact_title(&format!("card {}", i + 1), p, true))
                .collect(),
            ..Series::default()
        }],
        reference: Some(Reference {
            label: format!("fair share 1/{n}"),
            y: 1.0 / n as f64,
        }),
        table_id: Some(id.clone()),
        ..Chart::default()
    };
    let table = Table {
        id,
        caption: format!("d{} mod {n}: faces and probability per card", case.die),
        columns: vec!["card".into(), "faces".into(), "probability".into()],
        rows: probabilities
            .iter()
            .zip(&faces)
            .enumerate()
            .map(|(i, (p, faces))| {
                vec![
                    Cell::plain((i + 1).to_string()),
                    Cell::plain(faces.to_string()),
                    fraction(p),
                ]
            })
            .collect(),
    };
    [Block::Chart(chart), Block::Table(table)]
}

fn cases_table(cases: &[Case]) -> Table {
    Table {
        id: "cases".into(),
        caption: "Every number of cards, die and scheme".into(),
        columns: [
            "cards",
            "die",
            "scheme",
            "every card possible",
            "faces per card (fewest)",
            "rerolled faces",
            "expected rolls",
            "uniform",
            "max |P(card) − 1/n|",
        ]
        .map(String::from)
        .to_vec(),
        rows: cases
            .iter()
            .map(|case| {
                vec![
                    Cell::plain(case.cards.to_string()),
                    Cell::plain(die_name(case.die)),
                    Cell::plain(case.scheme.name()),
                    yes_no(case.feasible),
                    Cell::plain(case.faces_per_card.to_string()),
                    Cell::plain(case.rerolled_faces.to_string()),
                    optional_fraction(case.expected_rolls.as_ref()),
                    yes_no(case.uniform),
                    case.max_abs_deviation
                        .as_ref()
                        .map_or(Cell::plain("—"), cells::points),
                ]
            })
            .collect(),
    }
}

fn banish_table(banishings: &[Banishing]) -> Table {
    Table {
        id: "banish".into(),
        caption: "Expected rolls to banish several cards one after another (multi-face)".into(),
        columns: ["cards", "die", "die per stage", "expected total rolls"]
            .map(String::from)
            .to_vec(),
        rows: banishings
            .iter()
            .map(|row| {
                let rule = match row.die {
                    StageDie::Fixed(sides) => die_name(sides),
                    StageDie::Best => "best".into(),
                };
                // Stage i leaves cards - i to choose from.
                let stages: Vec<String> = (0..)
                    .zip(&row.stage_dice)
                    .map(|(stage, sides)| match (row.cards - stage, sides) {
                        (1, _) => "no roll".into(),
                        (_, Some(sides)) => die_name(*sides),
                        (_, None) => "none".into(),
                    })
                    .collect();
                vec![
                    Cell::plain(row.cards.to_string()),
                    Cell::plain(rule),
                    Cell::plain(stages.join(", ")),
                    optional_fraction(row.expected_total_rolls.as_ref()),
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

    fn page(yaml: &str) -> ScenarioPage {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        let results = Reroll::analyse(&params, &Progress::hidden());
        ScenarioPage {
            results: serde_json::to_value(&results).unwrap(),
            blocks: Reroll::layout(&params, &results),
        }
    }

    #[test]
    fn the_verdict_names_the_fair_schemes_and_the_unfair_one_in_a_sentence() {
        // d8 mod 7 gives card 1 two faces of eight: mod is not fair there.
        let report = page("cards: [5, 7]\ndice: [d6, d8]\nbanish: 2");
        let Some(Block::Verdict { text }) = report.blocks.first() else {
            panic!("{:?}", report.blocks.first())
        };
        assert_eq!(
            text,
            "The one-face and multi-face schemes are exactly fair whenever usable; \
             the mod scheme is not always fair (it gives some cards more faces than others)."
        );
    }

    #[test]
    fn the_page_charts_the_rolls_and_the_mod_shortcut() {
        let report = page("cards: [5, 7]\ndice: [d6, d8]\nbanish: 2");
        assert!(report.chart("expected-rolls").is_some());
        assert!(report.table("mod-d8-7").is_some());
        // d8 mod 7: card 1 owns faces 1 and 8.
        let faces: Vec<&str> = report.table("mod-d8-7").unwrap().rows[..2]
            .iter()
            .map(|row| row[1].shown.as_str())
            .collect();
        assert_eq!(faces, ["2", "1"]);
        let rolls = report.table("expected-rolls").unwrap();
        assert_eq!(rolls.rows.len(), 2);
        assert_eq!(rolls.rows[1][2].exact, "8/7");
        assert_eq!(rolls.rows[1][1].shown, "—");
        assert!(page("cards: 3\ndice: [d6]").table("banish").is_none());
    }

    #[test]
    fn one_card_and_the_last_stage_say_no_roll_is_needed() {
        let report = page("cards: [1, 2, 9]\ndice: [d6, d8]\nbanish: 2");
        let best = report.table("best-die").unwrap();
        assert_eq!(best.rows[0][1].shown, "no roll needed");
        assert_eq!(best.rows[0][2].exact, "0/1");
        let banish = report.table("banish").unwrap();
        // Two cards, banish two: the d6 names one of two, then one is left.
        assert_eq!(banish.rows[0][2].shown, "d6, no roll");
        assert_eq!(banish.rows[0][3].exact, "1/1");
        // Nine cards: the d6 has too few faces for the first stage.
        assert_eq!(banish.rows[3][2].shown, "d6, d6");
        assert_eq!(banish.rows[3][3].shown, "—");
        assert_eq!(banish.rows[5][2].shown, "none, d8");
        let texts: Vec<&str> = report
            .blocks
            .iter()
            .filter_map(|block| match block {
                Block::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert!(texts
            .iter()
            .any(|t| t.contains("With one card there is nothing to choose")));
        assert!(texts
            .iter()
            .any(|t| t.contains("\"no roll\": one card is left")));
    }
}
