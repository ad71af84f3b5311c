//! Head to head: which roll beats which, as one sentence and as a table,
//! for the `dice` page and AnyDice's. Apart because it answers a question
//! about pairs of rolls, where the rest of the page describes one roll.

use crate::analyses::dice::Comparison;
use crate::layout::blocks::{Cell, Table};
use crate::layout::{cells, format};

/// The head-to-head answer in one sentence: for one pair, who rolls higher
/// how often; for more, the roll that beats every other (and its closest
/// contest), or that none does.
pub(crate) fn verdicts(names: &[String], comparisons: &[Comparison]) -> String {
    // Sentences open with words of ours, not a roll's name (which the
    // author may write in lower case).
    if let [only] = comparisons {
        return format!("Head to head, {}", pair_sentence(only));
    }
    let beats = |winner: &str, c: &Comparison| {
        (c.a == winner && c.p_a_higher > c.p_b_higher)
            || (c.b == winner && c.p_b_higher > c.p_a_higher)
    };
    let champion = names.iter().find(|name| {
        comparisons
            .iter()
            .filter(|c| &c.a == *name || &c.b == *name)
            .all(|c| beats(name, c))
    });
    let Some(champion) = champion else {
        return "No roll beats every other head to head: each pair's odds are in the table \
                below."
            .into();
    };
    // The closest contest: the pair where the champion's lead is smallest.
    let lead = |c: &Comparison| {
        if &c.a == champion {
            &c.p_a_higher - &c.p_b_higher
        } else {
            &c.p_b_higher - &c.p_a_higher
        }
    };
    let closest = comparisons
        .iter()
        .filter(|c| &c.a == champion || &c.b == champion)
        .min_by(|x, y| lead(x).cmp(&lead(y)))
        .expect("two or more rolls give the champion a pair");
    format!(
        "Of these rolls, {champion} beats every other head to head; its closest contest: {}",
        pair_sentence(closest)
    )
}

/// "heroic rolls higher than standard 61.3 % of the time, standard 33.9 %,
/// and they tie 4.8 %."
fn pair_sentence(c: &Comparison) -> String {
    let (leader, trailer, p_lead, p_trail) = if c.p_b_higher > c.p_a_higher {
        (&c.b, &c.a, &c.p_b_higher, &c.p_a_higher)
    } else {
        (&c.a, &c.b, &c.p_a_higher, &c.p_b_higher)
    };
    if p_lead == p_trail {
        format!(
            "{} and {} are even: each rolls higher {} of the time, and they tie {}.",
            c.a,
            c.b,
            format::percent(p_lead),
            format::percent(&c.p_tie)
        )
    } else {
        format!(
            "{leader} rolls higher than {trailer} {} of the time, {trailer} higher {}, \
             and they tie {}.",
            format::percent(p_lead),
            format::percent(p_trail),
            format::percent(&c.p_tie)
        )
    }
}

pub(crate) fn comparison_table(comparisons: &[Comparison]) -> Table {
    Table {
        id: "comparisons".into(),
        caption: "Two players, one roll each: who rolls higher".into(),
        columns: ["a", "b", "a higher", "tie", "b higher"]
            .map(String::from)
            .to_vec(),
        rows: comparisons
            .iter()
            .map(|c| {
                vec![
                    Cell::plain(&c.a),
                    Cell::plain(&c.b),
                    cells::percent(&c.p_a_higher),
                    cells::percent(&c.p_tie),
                    cells::percent(&c.p_b_higher),
                ]
            })
            .collect(),
    }
}
