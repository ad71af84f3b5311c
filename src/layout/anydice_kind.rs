//! The `anydice` page: a verdict comparing the outputs, AnyDice's warnings,
//! then each output as the `dice` page shows a roll (key figures, its
//! distribution drawn and tabulated), the "at least" curves together and
//! the pairs' head-to-head odds.

use super::dice::{
    at_least_chart, comparison_table, roll_blocks, single_verdict, spread_sentence, verdicts, View,
};
use crate::analyses::anydice_kind::{Analysed, Anydice, Params};
use crate::layout::blocks::{Block, MAX_SERIES};
use crate::layout::Layout;

impl Layout for Anydice {
    fn layout(params: &Params, analysed: &Analysed) -> Vec<Block> {
        let results = &analysed.dice.results;
        let figures = &analysed.dice.rolls;
        let names: Vec<String> = results.rolls.iter().map(|r| r.name.clone()).collect();
        let empty: Vec<&str> = analysed
            .outputs
            .iter()
            .filter(|o| o.empty)
            .map(|o| o.name.as_str())
            .collect();
        let verdict = match (results.rolls.as_slice(), figures.as_slice()) {
            ([], _) => "Every output of the program is the empty die: it has no outcome to show."
                .to_string(),
            ([roll], [f]) => single_verdict(roll, f),
            // Two outputs are a contest; more are usually a series (one
            // per number of dice): each one's average and reach.
            ([_, _], _) => verdicts(&names, &results.comparisons),
            _ => spread_sentence(results),
        };
        let mut blocks = vec![
            Block::Verdict { text: verdict },
            // What the figures answer, as the author wrote it.
            Block::Code {
                caption: "The program, as written".into(),
                text: params.text().to_string(),
            },
        ];
        for warning in &analysed.warnings {
            blocks.push(Block::Text {
                text: format!("AnyDice's warning, which this program meets: {warning}"),
            });
        }
        if !empty.is_empty() {
            blocks.push(Block::Text {
                text: format!(
                    "The empty die (no outcome at all), as AnyDice shows it with no bars: {}.",
                    empty.join(", ")
                ),
            });
        }
        if results.rolls.len() > 1 {
            blocks.push(Block::Table(comparison_table(&results.comparisons)));
        }
        let view = View::of(results);
        for (index, (roll, f)) in results.rolls.iter().zip(figures).enumerate() {
            blocks.push(Block::Heading {
                text: roll.name.clone(),
            });
            blocks.extend(roll_blocks(index + 1, roll, f, &view));
        }
        if (2..=MAX_SERIES).contains(&results.rolls.len()) {
            blocks.push(Block::Chart(at_least_chart(&analysed.dice, view.range)));
        }
        blocks
    }
}
