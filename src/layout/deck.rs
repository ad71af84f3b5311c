//! The `deck` page: the chance of each question per hand size (drawn, then
//! tabulated with the kept hand after mulligans), what the hand sizes'
//! names mean, and every group's copies in each hand.

use crate::analyses::deck::{Case, Deck, GroupCopies, Params, Results};
use crate::engine::to_f64;
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Series, Table, ValueFormat};
use crate::layout::cells::{fraction, optional_fraction, percent};
use crate::layout::{format, Layout};

impl Layout for Deck {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        let mut blocks = vec![Block::Verdict {
            text: verdict(params, &results.cases),
        }];
        if let Some(text) = named_hands(params) {
            blocks.push(Block::Text { text });
        }
        if let Some(mulligan) = &params.mulligan {
            blocks.push(Block::Text {
                text: mulligan_policy(mulligan.redraws),
            });
        }
        if params.draws.values().len() >= 2 {
            blocks.push(Block::Chart(questions_chart(params, &results.cases)));
        }
        blocks.push(Block::Table(questions_table(params, &results.cases)));
        for (i, group) in results.groups.iter().enumerate() {
            blocks.push(Block::Table(copies_table(params, i, group)));
        }
        blocks
    }
}

/// What the mulligan's figures assume, in words.
fn mulligan_policy(redraws: u64) -> String {
    let (times, hands) = match redraws {
        0 => {
            return "With no redraws (`redraws: 0`), a player keeps the first hand drawn: the \
                    kept hand meets each question as often as the first hand does."
                .into()
        }
        1 => ("once".to_string(), "both".to_string()),
        n => (
            format!("up to {n} times"),
            format!("all {}", u128::from(n) + 1),
        ),
    };
    format!(
        "With a mulligan, a player whose hand fails the question shuffles it back and draws \
         a fresh hand of the same size, {times}, and keeps the first hand that meets it (or \
         the last one drawn). Each hand is a new draw from the full deck, so the kept hand \
         fails only when {hands} fail."
    )
}

/// `1 card`, `7 cards`.
fn cards(count: u64) -> String {
    match count {
        1 => "1 card".into(),
        n => format!("{n} cards"),
    }
}

/// `with no redraws`, `with up to 1 redraw`, `with up to 3 redraws`.
fn redraws_in_words(redraws: u64) -> String {
    match redraws {
        0 => "no redraws".into(),
        1 => "up to 1 redraw".into(),
        n => format!("up to {n} redraws"),
    }
}

/// `7 cards (on the play)`, or `7 cards`.
fn hand_label(draw: u64, hand: Option<&str>) -> String {
    match hand {
        Some(name) => format!("{} ({name})", cards(draw)),
        None => cards(draw),
    }
}

/// The first question in the first hand, and after mulligans if any.
fn verdict(params: &Params, cases: &[Case]) -> String {
    let Some(first) = cases.first() else {
        return String::new();
    };
    let mut text = format!(
        "A hand of {} from {} meets \"{}\" {} of the time",
        hand_label(first.draw, first.hand.as_deref()),
        cards(params.deck.cards),
        first.question,
        format::rough_percent(&first.probability),
    );
    match (&first.with_mulligans, &params.mulligan) {
        (Some(kept), Some(m)) => text.push_str(&format!(
            "; with {}, the kept hand meets it {} of the time.",
            redraws_in_words(m.redraws),
            format::rough_percent(kept)
        )),
        _ => text.push('.'),
    }
    text
}

/// What the author's names for hand sizes mean: the player going first
/// skips the first draw, so its hand on its first turn is one card
/// smaller than the other player's.
fn named_hands(params: &Params) -> Option<String> {
    if params.names.is_empty() {
        return None;
    }
    let names: Vec<String> = params
        .names
        .iter()
        .map(|(size, name)| format!("{name} is a hand of {}", cards(*size)))
        .collect();
    Some(format!(
        "On the play means going first: that player skips the first turn's draw, so on \
         its first turn it holds the opening hand alone. On the draw means going second: \
         that player draws before its first turn, one card more. Here {}.",
        format::in_words(&names)
    ))
}

fn questions_table(params: &Params, cases: &[Case]) -> Table {
    let mut columns: Vec<String> = ["hand", "question", "P(meets it)"]
        .map(String::from)
        .to_vec();
    if let Some(m) = &params.mulligan {
        columns.push(format!("kept hand, {}", redraws_in_words(m.redraws)));
    }
    Table {
        id: "questions".into(),
        caption: "Chance that a hand holds at least the copies each question needs".into(),
        columns,
        rows: cases
            .iter()
            .map(|c| {
                let mut row = vec![
                    Cell::plain(hand_label(c.draw, c.hand.as_deref())),
                    Cell::plain(c.question.clone()),
                    percent(&c.probability),
                ];
                if params.mulligan.is_some() {
                    row.push(c.with_mulligans.as_ref().map_or(Cell::plain("—"), percent));
                }
                row
            })
            .collect(),
    }
}

/// One line per question against the hand size.
fn questions_chart(params: &Params, cases: &[Case]) -> Chart {
    Chart {
        id: "questions".into(),
        title: "Chance to meet each question by hand size".into(),
        description: "Exact chance that a hand of each size holds at least the copies each \
                      question needs, one line per question."
            .into(),
        kind: ChartKind::Lines,
        x_label: "cards in hand".into(),
        y_label: "probability".into(),
        y_format: ValueFormat::Probability,
        series: params
            .want
            .0
            .iter()
            .map(|(question, _)| {
                let of = || cases.iter().filter(move |c| &c.question == question);
                Series {
                    name: question.clone(),
                    points: of()
                        .map(|c| (c.draw as f64, to_f64(&c.probability)))
                        .collect(),
                    titles: of()
                        .map(|c| {
                            let label = format!("{question}, {} cards", c.draw);
                            format::exact_title(&label, &c.probability, true)
                        })
                        .collect(),
                    ..Series::default()
                }
            })
            .collect(),
        table_id: Some("questions".into()),
        ..Chart::default()
    }
}

/// Copies down, hand sizes across, and the mean copies last.
fn copies_table(params: &Params, index: usize, group: &GroupCopies) -> Table {
    let mut columns = vec!["copies".to_string()];
    columns.extend(
        params
            .draws
            .values()
            .iter()
            .map(|&d| hand_label(d, params.names.get(&d).map(String::as_str))),
    );
    let most = group
        .draws
        .iter()
        .map(|h| h.exactly.len())
        .max()
        .unwrap_or(0);
    let mut rows: Vec<Vec<Cell>> = (0..most)
        .map(|c| {
            let mut row = vec![Cell::plain(format!("exactly {c}"))];
            row.extend(
                group
                    .draws
                    .iter()
                    .map(|h| optional_fraction(h.exactly.get(c))),
            );
            row
        })
        .collect();
    let mut mean = vec![Cell::plain("mean")];
    mean.extend(group.draws.iter().map(|h| fraction(&h.expected)));
    rows.push(mean);
    Table {
        id: format!("copies-{}", index + 1),
        caption: format!(
            "Copies of {} ({} in the deck) in each hand",
            group.group, group.copies
        ),
        columns,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::Analysis;
    use crate::layout::ScenarioPage;
    use crate::progress::Progress;

    #[test]
    fn the_page_has_questions_copies_and_the_policy() {
        let params: Params = serde_yaml::from_str(
            "deck: {cards: 60, groups: {land: 24, hero: 4}}\ndraws: [7, 8]\n\
             names: {7: on the play, 8: on the draw}\n\
             want: {a-hero: {hero: 1}, two-lands: {land: 2}}\nmulligan: {redraws: 1}",
        )
        .unwrap();
        let results = Deck::analyse(&params, &Progress::hidden());
        let page = ScenarioPage {
            results: serde_json::to_value(&results).unwrap(),
            blocks: Deck::layout(&params, &results),
        };
        let verdict = page.verdict().unwrap();
        assert!(
            verdict.starts_with("A hand of 7 cards (on the play)"),
            "{verdict}"
        );
        assert!(verdict.contains("up to 1 redraw,"), "{verdict}");
        let questions = page.table("questions").unwrap();
        assert_eq!(questions.rows.len(), 4);
        assert_eq!(questions.columns.len(), 4);
        assert_eq!(questions.rows[2][0].shown, "8 cards (on the draw)");
        // Copies of 4 heroes: 0..=4 and the mean.
        let heroes = page.table("copies-2").unwrap();
        assert_eq!(heroes.rows.len(), 6);
        assert_eq!(heroes.rows[5][1].exact, "7/15");
        assert!(page.chart("questions").is_some());
        let policy = page.blocks.iter().any(
            |b| matches!(b, Block::Text { text } if text.contains("On the play means going first")),
        );
        assert!(policy);
    }
}
