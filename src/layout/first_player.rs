//! The `first-player` page: expected rounds and first-round ties against the
//! number of players, the fastest dice, then every case.

use crate::analyses::first_player::{
    Case, Fastest, FirstPlayer, Params, Results, TieRule, ROUNDS_SHOWN,
};
use crate::analyses::pool::IdenticalDice;
use crate::engine::{to_f64, Exact};
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Series, Table, ValueFormat};
use crate::layout::cells::{fraction, optional_fraction};
use crate::layout::{format, Layout};

impl Layout for FirstPlayer {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        let cases = &results.cases;
        // One number of players makes a point, not a line: the tables say it.
        let charted = params.players.values().len() >= 2;
        let mut blocks = vec![Block::Verdict {
            text: verdict(&results.fastest),
        }];
        for view in [View::Rounds, View::Tie] {
            if charted {
                blocks.push(Block::Chart(by_players_chart(params, cases, view)));
            }
            blocks.push(Block::Table(by_players_table(params, cases, view)));
        }
        blocks.push(Block::Table(fastest_table(&results.fastest)));
        blocks.push(Block::Table(cases_table(cases)));
        blocks
    }
}

/// A figure shown against the number of players, one line per choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    /// Expected rounds, per dice and tie rule.
    Rounds,
    /// P(tie in the first round), per dice: the first round ignores the rule.
    Tie,
}

impl View {
    fn id(self) -> &'static str {
        match self {
            View::Rounds => "rounds",
            View::Tie => "tie",
        }
    }

    fn value(self, case: &Case) -> &Exact {
        match self {
            View::Rounds => &case.expected_rounds,
            View::Tie => &case.p_tie_first_round,
        }
    }

    /// Title, description and vertical label of the chart; caption of the table.
    fn texts(self) -> [&'static str; 4] {
        match self {
            View::Rounds => [
                "Rounds until someone goes first",
                "Mean number of rounds until one player is alone on top, per dice and tie rule.",
                "expected rounds",
                "Expected rounds until one player is alone on top",
            ],
            View::Tie => [
                "Tie for the top in the first round",
                "Chance that two or more players share the highest total in the first round.",
                "probability of a tie",
                "Chance that the first round ends in a tie for the top",
            ],
        }
    }
}

/// `2d6`, with the count written even for one die.
fn dice_label(dice: &IdenticalDice) -> String {
    dice.to_string()
}

/// One line per dice choice, and per tie rule where it matters.
fn series<'a>(params: &Params, cases: &'a [Case], view: View) -> Vec<(String, Vec<&'a Case>)> {
    let rules = match view {
        View::Rounds => &params.ties[..],
        View::Tie => &params.ties[..1],
    };
    let mut series = Vec::new();
    for &dice in &params.dice {
        for &rule in rules {
            let members: Vec<&Case> = cases
                .iter()
                .filter(|c| c.dice == dice && c.ties == rule)
                .collect();
            series.push((series_name(&dice, rule, view), members));
        }
    }
    series
}

fn series_name(dice: &IdenticalDice, rule: TieRule, view: View) -> String {
    match view {
        View::Rounds => format!("{}, {}", dice_label(dice), rule.name()),
        View::Tie => dice_label(dice),
    }
}

fn by_players_table(params: &Params, cases: &[Case], view: View) -> Table {
    let series = series(params, cases, view);
    let mut columns = vec!["players".to_string()];
    columns.extend(series.iter().map(|(name, _)| name.clone()));
    let rows = params
        .players
        .values()
        .iter()
        .map(|&p| {
            let mut row = vec![Cell::plain(p.to_string())];
            row.extend(series.iter().map(|(_, members)| {
                let case = members.iter().find(|c| c.players == p);
                optional_fraction(case.map(|c| view.value(c)))
            }));
            row
        })
        .collect();
    Table {
        id: view.id().into(),
        caption: view.texts()[3].into(),
        columns,
        rows,
    }
}

fn by_players_chart(params: &Params, cases: &[Case], view: View) -> Chart {
    let [title, description, y_label, _] = view.texts();
    Chart {
        id: view.id().into(),
        title: title.into(),
        description: description.into(),
        kind: ChartKind::Lines,
        x_label: "players".into(),
        y_label: y_label.into(),
        y_format: match view {
            View::Rounds => ValueFormat::Number,
            View::Tie => ValueFormat::Probability,
        },
        // A game takes at least one round: the lines start there.
        y_from: (view == View::Rounds).then_some(1.0),
        series: series(params, cases, view)
            .into_iter()
            .map(|(name, members)| Series {
                points: members
                    .iter()
                    .map(|c| (c.players as f64, to_f64(view.value(c))))
                    .collect(),
                titles: members
                    .iter()
                    .map(|c| {
                        let label = format!("{} players, {name}", c.players);
                        format::exact_title(&label, view.value(c), view == View::Tie)
                    })
                    .collect(),
                name,
                ..Series::default()
            })
            .collect(),
        table_id: Some(view.id().into()),
        ..Chart::default()
    }
}

/// Every player rolls the same dice, so each has exactly 1/n; what the
/// choice of dice changes is how long it takes.
fn verdict(fastest: &[Fastest]) -> String {
    let mut text = "Every player has exactly a 1/n chance to go first: all roll the same dice \
                    and a tie for the top rolls again."
        .to_string();
    if let Some(slowest_case) = fastest.iter().max_by_key(|f| f.players) {
        text.push_str(&format!(
            " The fastest choice for {} players, {} with {}, settles it in {} rounds on average.",
            slowest_case.players,
            dice_label(&slowest_case.dice),
            slowest_case.ties.name(),
            crate::layout::format::decimal(&slowest_case.expected_rounds)
        ));
    }
    text
}

fn fastest_table(fastest: &[Fastest]) -> Table {
    Table {
        id: "fastest".into(),
        caption: "The dice that settle it in the fewest rounds".into(),
        columns: ["players", "ties", "dice", "expected rounds"]
            .map(String::from)
            .to_vec(),
        rows: fastest
            .iter()
            .map(|f| {
                vec![
                    Cell::plain(f.players.to_string()),
                    Cell::plain(f.ties.name()),
                    Cell::plain(dice_label(&f.dice)),
                    fraction(&f.expected_rounds),
                ]
            })
            .collect(),
    }
}

fn cases_table(cases: &[Case]) -> Table {
    let mut columns: Vec<String> = [
        "players",
        "dice",
        "ties",
        "tie in round 1",
        "expected rounds",
    ]
    .map(String::from)
    .to_vec();
    columns.extend(
        (1..=ROUNDS_SHOWN).map(|r| format!("more than {r} round{}", if r == 1 { "" } else { "s" })),
    );
    Table {
        id: "cases".into(),
        caption: "Every number of players, dice and tie rule".into(),
        columns,
        rows: cases.iter().map(case_row).collect(),
    }
}

fn case_row(case: &Case) -> Vec<Cell> {
    let mut row = vec![
        Cell::plain(case.players.to_string()),
        Cell::plain(dice_label(&case.dice)),
        Cell::plain(case.ties.name()),
        fraction(&case.p_tie_first_round),
        fraction(&case.expected_rounds),
    ];
    row.extend(case.rounds_more_than.iter().map(fraction));
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::Analysis;
    use crate::layout::ScenarioPage;
    use crate::progress::Progress;

    #[test]
    fn the_page_has_both_views_and_every_case() {
        let params: Params = serde_yaml::from_str(
            "players: [2, 3]\ndice: [2d6, d20]\nties: [reroll-all, reroll-tied]",
        )
        .unwrap();
        let results = FirstPlayer::analyse(&params, &Progress::hidden());
        let page = ScenarioPage {
            results: serde_json::to_value(&results).unwrap(),
            blocks: FirstPlayer::layout(&params, &results),
        };
        assert!(page.chart("rounds").is_some() && page.table("tie").is_some());
        // A game takes at least one round: the rounds chart starts at 1,
        // the chance of a tie at 0.
        assert_eq!(page.chart("rounds").unwrap().y_from, Some(1.0));
        assert_eq!(page.chart("tie").unwrap().y_from, None);
        let rounds = page.table("rounds").unwrap();
        assert_eq!(
            rounds.columns,
            [
                "players",
                "2d6, reroll-all",
                "2d6, reroll-tied",
                "1d20, reroll-all",
                "1d20, reroll-tied"
            ]
        );
        assert_eq!(
            page.table("tie").unwrap().columns,
            ["players", "2d6", "1d20"]
        );
        assert_eq!(page.table("cases").unwrap().rows.len(), 8);
        assert_eq!(page.table("fastest").unwrap().rows[0][2].shown, "1d20");
    }
}
