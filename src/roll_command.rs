//! Dice without a scenario file: `fairdice roll EXPR...` and the serve
//! playground read expressions from the command line or a form, check them
//! and the budget exactly as the build does, and lay them out as the
//! `dice` page would.

use crate::analyses::dice::{Dice, NamedRoll, Outcome, Params, RollList, MAX_ROLLS};
use crate::analyses::{Analysis, Budget};
use crate::engine::to_f64;
use crate::lang::dice::{Expression, Notation};
use crate::layout::blocks::{Block, Cell};
use crate::layout::Layout;
use crate::progress::Progress;
use crate::terminal;

/// The widest bar in the terminal table, in characters.
const BAR_WIDTH: usize = 30;

/// Expressions checked and priced; each is named by its own text.
pub fn prepare(
    expressions: &[String],
    explode_depth: Option<u32>,
    budget: &Budget,
) -> Result<Params, String> {
    prepare_in(expressions, explode_depth, Notation::Standard, budget)
}

/// [`prepare`] in a family's notation where families disagree.
pub fn prepare_in(
    expressions: &[String],
    explode_depth: Option<u32>,
    notation: Notation,
    budget: &Budget,
) -> Result<Params, String> {
    if expressions.is_empty() {
        return Err("no expression: write one such as 4d6kh3".into());
    }
    if expressions.len() > MAX_ROLLS {
        return Err(format!("at most {MAX_ROLLS} expressions at once"));
    }
    let mut rolls = Vec::new();
    for text in expressions {
        let expression = Expression::read_in(text, notation).map_err(|e| e.describe(text))?;
        if rolls.iter().any(|r: &NamedRoll| r.name == *text) {
            continue;
        }
        rolls.push(NamedRoll {
            name: text.clone(),
            expression,
        });
    }
    let params = Params {
        rolls: RollList(rolls),
        explode_depth,
        question: None,
        notation,
    };
    Dice::validate(&params).map_err(|e| e.message)?;
    budget
        .admit_explained(&Dice::cost(&params), Dice::cost_detail(&params))
        .map_err(|e| e.message)?;
    Ok(params)
}

/// Hold the rest of this process to `budget` (the command only prints):
/// the watchdog stops a roll that runs past the time or memory its price
/// promised. Not for `serve`, whose process must outlive any roll.
pub fn watch_process(budget: &Budget) {
    crate::limits::watch(budget, "the roll").keep();
}

/// The rolls' exact results, under the watchdog's time limit.
fn analyse(params: &Params, progress: &Progress) -> crate::analyses::dice::Analysed {
    let _phase = phase(params);
    Dice::analyse(params, progress)
}

/// The rolls' distributions alone, under the watchdog's time limit.
fn evaluate(params: &Params, progress: &Progress) -> Vec<crate::engine::Outcomes> {
    let _phase = phase(params);
    crate::analyses::dice::evaluate(params, progress)
}

/// The watchdog's phase that names the rolls.
fn phase(params: &Params) -> impl Drop {
    let rolls: Vec<&str> = params
        .rolls
        .0
        .iter()
        .map(|r| r.expression.text.as_str())
        .collect();
    crate::limits::compute(format!("rolling {}", rolls.join(", ")))
}

/// The results contract, as `eval --json` prints under `results`,
/// pretty-printed to `out` as it is spelled.
pub fn write_json(
    params: &Params,
    progress: &Progress,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    use serde::Serialize;
    let outcomes = evaluate(params, progress);
    let rolls = params
        .rolls
        .0
        .iter()
        .zip(&outcomes)
        .map(|(r, o)| (r.name.as_str(), r.expression.text.as_str(), o))
        .collect();
    crate::analyses::dice_contract::Streamed { rolls }
        .serialize(&mut serde_json::Serializer::pretty(out))
        .map_err(std::io::Error::from)
}

/// The page's blocks for a terminal `width` wide, each roll's table with
/// a bar per value.
pub fn text(params: &Params, width: usize, progress: &Progress) -> String {
    let analysed = analyse(params, progress);
    let mut blocks = Dice::layout(params, &analysed);
    for (index, roll) in analysed.results.rolls.iter().enumerate() {
        let id = format!("roll-{}", index + 1);
        let Some(table) = blocks.iter_mut().find_map(|b| match b {
            Block::Table(t) if t.id == id => Some(t),
            _ => None,
        }) else {
            continue;
        };
        table.columns.push(String::new());
        for (row, bar) in table.rows.iter_mut().zip(bars(&roll.outcomes)) {
            row.push(Cell::plain(bar));
        }
    }
    terminal::render_blocks(&blocks, width)
}

/// Each outcome's bar, the likeliest at full width: for `roll` and
/// `anydice` alike.
pub(crate) fn bars(outcomes: &[Outcome]) -> Vec<String> {
    let highest = outcomes
        .iter()
        .map(|o| to_f64(&o.probability))
        .fold(0.0, f64::max);
    outcomes
        .iter()
        .map(|o| bar(to_f64(&o.probability) / highest))
        .collect()
}

/// A bar of up to [`BAR_WIDTH`] eighth-blocks; any value above zero shows.
pub(crate) fn bar(share: f64) -> String {
    const EIGHTHS: [char; 8] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█'];
    let eighths = ((share * (BAR_WIDTH * 8) as f64).round() as usize).max(1);
    let mut text = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        text.push(EIGHTHS[eighths % 8 - 1]);
    }
    text
}

/// The scenario file that reproduces these rolls, for authors to copy.
pub(crate) fn scenario_yaml(params: &Params) -> String {
    let mut rolls = serde_yaml::Mapping::new();
    for roll in &params.rolls.0 {
        rolls.insert(
            roll.name.clone().into(),
            roll.expression.text.clone().into(),
        );
    }
    let mut file = serde_yaml::Mapping::new();
    file.insert("title".into(), "Playground".into());
    file.insert("kind".into(), "dice".into());
    file.insert("rolls".into(), rolls.into());
    if let Some(depth) = params.explode_depth {
        file.insert("explode_depth".into(), u64::from(depth).into());
    }
    serde_yaml::to_string(&file).expect("a mapping of strings serializes")
}

/// The rolls as a one-file report, as `fairdice report` writes it for
/// their scenario file: what the playground shows.
pub fn report(params: &Params, budget: &Budget, progress: &Progress) -> Result<String, String> {
    let yaml = scenario_yaml(params);
    let scenario = crate::scenario::parse_with_budget("playground.yaml", &yaml, budget)
        .map_err(|e| e.to_string())?;
    let scenarios = [scenario];
    let computed = crate::build::compute(&scenarios, progress);
    crate::site::standalone::report_html(&computed[0]).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::Analysis;
    use crate::progress::Progress;

    #[test]
    fn expressions_are_checked_as_in_a_scenario() {
        let budget = Budget::default();
        let error = prepare(&["4d6kh5".into()], None, &budget).unwrap_err();
        assert_eq!(error, "`4d6kh5`, column 4: cannot keep 5 of 4 dice");
        let error = prepare(&["1d6 + 100000d1000".into()], None, &budget).unwrap_err();
        assert!(
            error.contains("the costliest part is `100000d1000`"),
            "{error}"
        );
        assert!(prepare(&[], None, &budget).is_err());
        let error = prepare(&["3d6!".into()], Some(99), &budget).unwrap_err();
        assert!(error.contains("at most 20"), "{error}");
    }

    /// Issue 28, items 1 and 2: a comparison of totals reads as a chance,
    /// and every roll is said in words.
    #[test]
    fn a_comparison_is_a_chance_and_every_roll_is_in_words() {
        let budget = Budget::default();
        let params = prepare(&["1d20+5 >= 15".into()], None, &budget).unwrap();
        let text = text(&params, 120, &Progress::hidden());
        assert!(text.contains("is true 55\u{a0}%, exactly 11/20."), "{text}");
        assert!(
            text.contains("In words: 1 when the total of 1d20+5 is at least 15, else 0."),
            "{text}"
        );
        assert!(!text.contains("variance"), "{text}");
        let params = prepare(&["8d10>=7".into(), "4d6 dl1".into()], None, &budget).unwrap();
        let text = super::text(&params, 120, &Progress::hidden());
        assert!(
            text.contains("In words: the number of dice of 8d10 showing 7 or more."),
            "{text}"
        );
        assert!(
            text.contains("In words: the total of 4d6 dropping the lowest 1."),
            "{text}"
        );
        let error = prepare(&["2d6>=7".into()], None, &budget).unwrap_err();
        assert!(
            error.contains("to compare the total write (2d6) >= 7"),
            "{error}"
        );
    }

    #[test]
    fn the_terminal_table_has_a_bar_per_value() {
        let params = prepare(&["2d6".into(), "d12".into()], None, &Budget::default()).unwrap();
        let text = text(&params, 120, &Progress::hidden());
        assert!(text.contains("d12 is best from 9 to 12"), "{text}");
        // 2d6's row of 7 (the targets table has a row of 7 too).
        let seven = text
            .lines()
            .find(|l| l.trim_start().starts_with("7 ") && l.contains('█'))
            .unwrap();
        assert!(seven.ends_with(&"█".repeat(BAR_WIDTH)), "{seven}");
        let mut written = Vec::new();
        write_json(&params, &Progress::hidden(), &mut written).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&written).unwrap();
        assert_eq!(json["rolls"][0]["outcomes"][5]["probability"], "1/6");
        assert_eq!(bar(0.0001), "▏");
    }

    /// The streamed contract is byte for byte the contract `eval --json`
    /// writes from the whole results: short lists, lists spelled in
    /// parallel (over 1,000 values) and lists of several chunks (over
    /// 16,384), with comparisons between rolls.
    #[test]
    fn the_stream_spells_the_contract_exactly() {
        for rolls in [
            vec!["3d6", "4d6kh3", "1d20+5>=15"],
            vec!["1d2500", "3d6"],
            vec!["1d40000"],
        ] {
            let expressions: Vec<String> = rolls.iter().map(|r| r.to_string()).collect();
            let params = prepare(&expressions, None, &Budget::default()).unwrap();
            let progress = Progress::hidden();
            let analysed = Dice::analyse(&params, &progress);
            let mut whole = Vec::new();
            Dice::contract(&analysed, &mut serde_json::Serializer::pretty(&mut whole)).unwrap();
            let mut streamed = Vec::new();
            write_json(&params, &progress, &mut streamed).unwrap();
            assert_eq!(
                String::from_utf8(streamed).unwrap(),
                String::from_utf8(whole).unwrap(),
                "{rolls:?}"
            );
        }
    }

    /// Issue 42: a die of a million faces is answered under the default
    /// budget when the contract is streamed (it holds one chunk of
    /// fractions), and still refused where every row is held.
    #[test]
    fn a_million_faces_fit_the_default_budget_when_streamed() {
        let million = ["1d1000000".to_string()];
        let streamed = Budget::default().streaming(true);
        assert!(prepare(&million, None, &streamed).is_ok());
        let held = Budget::default().printing(true);
        let refusal = prepare(&million, None, &held).unwrap_err();
        assert!(refusal.contains("GB"), "{refusal}");
    }
}
