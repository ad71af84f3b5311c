//! The `deck` page: the chance of each question per hand size (drawn, then
//! tabulated with the kept hand after mulligans), each question in words,
//! what the hand sizes' names mean, the mulligan rule's steps, and every
//! group's copies in each hand.

use crate::analyses::deck::{
    Case, Count, Deck, GroupCopies, Method, Mulligan, MulliganSteps, Params, Results, Want,
};
use crate::engine::to_f64;
use crate::layout::blocks::{Block, Cell, Chart, ChartKind, Series, Table, ValueFormat};
use crate::layout::cells::{fraction, percent};
use crate::layout::{format, Layout};

impl Layout for Deck {
    fn layout(params: &Params, results: &Results) -> Vec<Block> {
        let mut blocks = vec![Block::Verdict {
            text: verdict(params, results),
        }];
        if let Some(text) = named_hands(params) {
            blocks.push(Block::Text { text });
        }
        if let Some(mulligan) = &params.mulligan {
            let text = match (&results.mulligan, mulligan.keep(&params.want)) {
                (Some(steps), Some(keep)) => rule_policy(mulligan, keep, steps),
                _ => mulligan_policy(mulligan.redraws),
            };
            blocks.push(Block::Text { text });
        }
        if params.draws.values().len() >= 2 {
            blocks.push(Block::Chart(questions_chart(params, &results.cases)));
        }
        blocks.push(Block::Table(questions_table(params, &results.cases)));
        if let (Some(steps), Some(mulligan)) = (&results.mulligan, &params.mulligan) {
            blocks.push(Block::Table(steps_table(mulligan, steps)));
        }
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

/// The first question in the first hand, and after mulligans if any: the
/// kept hand's chance to meet it, or the rule's keepable hand and size.
fn verdict(params: &Params, results: &Results) -> String {
    let Some(first) = results.cases.first() else {
        return String::new();
    };
    let asks = params.want.get(&first.question).map(want_in_words);
    let mut text = format!(
        "A hand of {} from {} meets \"{}\" ({}) {} of the time",
        hand_label(first.draw, first.hand.as_deref()),
        cards(params.deck.cards),
        first.question,
        asks.unwrap_or_default(),
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
    if let Some(steps) = &results.mulligan {
        text.push_str(&format!(
            " With the {} mulligan, a keepable hand is kept {} of the time, and the hand kept \
             holds {:.2} cards on average.",
            rule_name(steps.rule),
            format::rough_percent(&steps.keepable_kept),
            to_f64(&steps.expected_hand),
        ));
    }
    text
}

/// `London`, `Vancouver`, `Paris`, `redraw`.
fn rule_name(rule: Method) -> &'static str {
    match rule {
        Method::Redraw => "redraw",
        Method::London => "London",
        Method::Vancouver => "Vancouver",
        Method::Paris => "Paris",
    }
}

/// A question as players say it: `at least 1 key-card and 2 to 4 land`,
/// `no land`, `at least 3 land or searcher`, `(3 land) or (no key)`.
pub(crate) fn want_in_words(want: &Want) -> String {
    match want {
        Want::All(parts) | Want::Any(parts) if parts.len() == 1 => want_in_words(&parts[0]),
        Want::Copies { groups, count } => count_in_words(*count, &groups.join(" or ")),
        Want::All(parts) => format::in_words(&parts.iter().map(part_in_words).collect::<Vec<_>>()),
        Want::Any(parts) => (parts.iter())
            .map(part_in_words)
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

/// A part of a list: in brackets when it is itself a list of several.
fn part_in_words(part: &Want) -> String {
    match part {
        Want::All(parts) | Want::Any(parts) if parts.len() > 1 => {
            format!("({})", want_in_words(part))
        }
        _ => want_in_words(part),
    }
}

/// `at least 2 land`, `2 to 4 land`, `exactly 2 land`, `at most 3 land`,
/// `no land`.
fn count_in_words(count: Count, what: &str) -> String {
    match (count.at_least, count.at_most) {
        (0, Some(0)) => format!("no {what}"),
        (low, None) => format!("at least {low} {what}"),
        (0, Some(high)) => format!("at most {high} {what}"),
        (low, Some(high)) if low == high => format!("exactly {low} {what}"),
        (low, Some(high)) => format!("{low} to {high} {what}"),
    }
}

/// What a mulligan rule with `keep_if` does, in words, with the exact
/// decision rule for the cards a London hand puts on the bottom.
fn rule_policy(mulligan: &Mulligan, keep: &Want, steps: &MulliganSteps) -> String {
    let opening = cards(steps.opening);
    let up_to = match mulligan.redraws {
        1 => "once".to_string(),
        n => format!("up to {n} times"),
    };
    let keeps = format!(
        "A player keeps a hand that holds {}; otherwise it mulligans, {up_to}, and keeps the \
         last hand whatever it holds.",
        want_in_words(keep)
    );
    let how = match mulligan.rule {
        Method::Redraw => format!(
            "With the redraw mulligan, a hand that is not kept is shuffled back and a fresh \
             hand of {opening} drawn."
        ),
        Method::London => format!(
            "With the London mulligan, a hand that is not kept is shuffled back and {opening} \
             drawn again; after m mulligans the player then puts m of them on the bottom of the \
             deck. The hand counts as keepable when some choice of those m cards leaves a hand \
             that meets the rule, and the player bottoms such a choice (every split of the m \
             cards among the groups the rule names and the other cards is tried); when no \
             choice does, the player mulligans again. Which of the choices that work is taken \
             changes none of these figures."
        ),
        Method::Vancouver => format!(
            "With the Vancouver mulligan, a hand that is not kept is shuffled back and a fresh \
             hand drawn of one card fewer per mulligan, from {opening}; a player who keeps a \
             hand smaller than the opening one then scries 1 (looks at the top card of the \
             deck and may put it on the bottom). The scry comes after the hand is kept and \
             changes only the cards drawn later, so these figures are the Paris mulligan's."
        ),
        Method::Paris => format!(
            "With the Paris mulligan, a hand that is not kept is shuffled back and a fresh hand \
             drawn of one card fewer per mulligan, from {opening}."
        ),
    };
    format!("{how} {keeps}")
}

/// One row per hand a player may see under the mulligan rule.
fn steps_table(mulligan: &Mulligan, steps: &MulliganSteps) -> Table {
    let mut rows: Vec<Vec<Cell>> = (steps.steps.iter())
        .map(|step| {
            vec![
                Cell::plain(step.mulligans.to_string()),
                Cell::plain(cards(step.hand)),
                percent(&step.reached),
                percent(&step.keepable),
                percent(&step.kept_by),
            ]
        })
        .collect();
    rows.push(vec![
        Cell::plain("hand kept"),
        fraction(&steps.expected_hand),
        Cell::plain("—"),
        Cell::plain("—"),
        percent(&steps.keepable_kept),
    ]);
    Table {
        id: "mulligans".into(),
        caption: format!(
            "The {} mulligan, {}: each hand's chance to be seen and kept, and the mean \
             cards in the hand kept",
            rule_name(mulligan.rule),
            redraws_in_words(mulligan.redraws)
        ),
        columns: [
            "mulligans",
            "cards kept",
            "P(this hand is seen)",
            "P(keepable)",
            "P(kept by now)",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }
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
    let mut columns: Vec<String> = ["hand", "question", "asks for", "P(meets it)"]
        .map(String::from)
        .to_vec();
    // The per-question kept hand is the redraw rule's alone.
    let redraw = (params.mulligan.as_ref()).filter(|m| m.rule == Method::Redraw);
    if let Some(m) = redraw {
        columns.push(format!("kept hand, {}", redraws_in_words(m.redraws)));
    }
    Table {
        id: "questions".into(),
        caption: "Chance that a hand meets each question".into(),
        columns,
        rows: cases
            .iter()
            .map(|c| {
                let mut row = vec![
                    Cell::plain(hand_label(c.draw, c.hand.as_deref())),
                    Cell::plain(c.question.clone()),
                    Cell::plain(
                        params
                            .want
                            .get(&c.question)
                            .map(want_in_words)
                            .unwrap_or_default(),
                    ),
                    percent(&c.probability),
                ];
                if redraw.is_some() {
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
        description: "Exact chance that a hand of each size meets each question, one line \
                      per question."
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
                    .map(|h| h.exactly.get(c).map_or(Cell::plain("—"), percent)),
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

    /// The page of a deck scenario written as YAML.
    fn page_of(yaml: &str) -> ScenarioPage {
        let params: Params = serde_yaml::from_str(yaml).unwrap();
        let results = Deck::analyse(&params, &Progress::hidden());
        ScenarioPage {
            results: serde_json::to_value(&results).unwrap(),
            blocks: Deck::layout(&params, &results),
        }
    }

    #[test]
    fn the_page_has_questions_copies_and_the_policy() {
        let page = page_of(
            "deck: {cards: 60, groups: {land: 24, hero: 4}}\ndraws: [7, 8]\n\
             names: {7: on the play, 8: on the draw}\n\
             want: {a-hero: {hero: 1}, two-lands: {land: 2}}\nmulligan: {redraws: 1}",
        );
        let verdict = page.verdict().unwrap();
        assert!(
            verdict.starts_with("A hand of 7 cards (on the play)"),
            "{verdict}"
        );
        assert!(verdict.contains("up to 1 redraw,"), "{verdict}");
        let questions = page.table("questions").unwrap();
        assert_eq!(questions.rows.len(), 4);
        assert_eq!(questions.columns.len(), 5);
        assert_eq!(questions.rows[1][2].shown, "at least 2 land");
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

    #[test]
    fn questions_and_the_london_rule_read_in_words() {
        let page = page_of(
            "deck: {cards: 60, groups: {land: 22, searcher: 4, key: 4}}\ndraws: 7\n\
             want:\n  keep: {land: 2..4, key: 1}\n  \
             flood: {any: [{land: 5..}, {land or searcher: 6.., key: none}]}\n  \
             few: {land: ..1}\n  exact: {key: 2..2}\n\
             mulligan: {rule: london, redraws: 3, keep_if: keep}",
        );
        let verdict = page.verdict().unwrap();
        assert!(
            verdict.contains("meets \"keep\" (2 to 4 land and at least 1 key)"),
            "{verdict}"
        );
        assert!(
            verdict.contains("With the London mulligan, a keepable hand"),
            "{verdict}"
        );
        let asks: Vec<&str> = (page.table("questions").unwrap().rows.iter())
            .map(|row| row[2].shown.as_str())
            .collect();
        assert_eq!(
            asks,
            [
                "2 to 4 land and at least 1 key",
                "at least 5 land or (at least 6 land or searcher and no key)",
                "at most 1 land",
                "exactly 2 key"
            ]
        );
        let steps = page.table("mulligans").unwrap();
        assert_eq!(steps.rows.len(), 5);
        assert_eq!(steps.rows[3][1].shown, "4 cards");
        let policy = page.blocks.iter().any(|b| {
            matches!(b, Block::Text { text } if text.contains("some choice of those m cards leaves a hand"))
        });
        assert!(policy);
    }
}
