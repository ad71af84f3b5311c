//! `dice`: any roll written in the dice language, with its exact
//! distribution, and every pair of rolls compared as two players rolling
//! once each.

use crate::engine::{complement, ratios, text, Denominator, Exact, Outcomes};
pub use crate::lang::dice::Notation;
use crate::lang::{
    self,
    dice::{Expr, Expression, Price, DEFAULT_EXPLODE_DEPTH},
};
use crate::progress::Progress;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

use super::simulate::{Event, Experiment, Simulate, Simulation, Trial};
use super::{Analysis, Cost, ParamError};
use std::cmp::Ordering;

mod replay;
pub(crate) use replay::SimulatedRoll;

/// The `dice` kind.
pub struct Dice;

/// The most rolls one scenario may name (pairs grow with the square).
pub(crate) const MAX_ROLLS: usize = 26;

/// Parameters of a `dice` scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "Written")]
pub struct Params {
    /// Named expressions, in the file's order.
    pub rolls: RollList,
    /// Extra rolls an exploding die may make.
    pub explode_depth: Option<u32>,
    /// What the page answers first; see [`Params::question`] for the
    /// default.
    pub question: Option<Question>,
    /// Whose meaning a letter takes where the families disagree (Roll20's
    /// `cs` marks a critical where Foundry's counts).
    pub notation: Notation,
}

/// The parameters as written, the rolls read in the standard notation.
#[derive(Deserialize)]
struct Written {
    rolls: RollList,
    #[serde(default)]
    explode_depth: Option<u32>,
    #[serde(default)]
    question: Option<Question>,
    #[serde(default)]
    notation: Notation,
}

impl TryFrom<Written> for Params {
    type Error = String;

    /// The rolls read again in the notation written, if another.
    fn try_from(written: Written) -> Result<Params, String> {
        let mut rolls = written.rolls;
        if written.notation != Notation::Standard {
            for roll in &mut rolls.0 {
                let text = roll.expression.text.clone();
                roll.expression = Expression::read_in(&text, written.notation)
                    .map_err(|e| format!("roll {:?}: {}", roll.name, e.describe(&text)))?;
            }
        }
        Ok(Params {
            rolls,
            explode_depth: written.explode_depth,
            question: written.question,
            notation: written.notation,
        })
    }
}

/// What a page of rolls answers first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Question {
    /// Which roll gives the better chance to reach each target number:
    /// rolls that are alternatives for one check (advantage or +5).
    Target,
    /// Two players, one roll each: who rolls higher.
    HeadToHead,
    /// Each roll's spread: rolls that never meet.
    Distribution,
}

impl Params {
    /// The explosion depth in force.
    pub fn depth(&self) -> u32 {
        self.explode_depth.unwrap_or(DEFAULT_EXPLODE_DEPTH)
    }

    /// The question in force: as written, else one roll's spread, two
    /// players when every roll is the same expression (a duel), and the
    /// chance to reach each target for different rolls.
    pub(crate) fn question(&self) -> Question {
        let rolls = &self.rolls.0;
        self.question.unwrap_or(match rolls.as_slice() {
            [_] => Question::Distribution,
            [first, rest @ ..]
                if rest
                    .iter()
                    .all(|r| r.expression.text == first.expression.text) =>
            {
                Question::HeadToHead
            }
            _ => Question::Target,
        })
    }
}

/// The rolls, as a YAML mapping of name to expression, order kept.
#[derive(Debug, Clone, PartialEq)]
pub struct RollList(pub Vec<NamedRoll>);

/// One named expression.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedRoll {
    /// As the author named it.
    pub name: String,
    /// The expression, parsed and checked.
    pub expression: Expression,
}

impl<'de> Deserialize<'de> for RollList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = RollList;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("named rolls, one per line, such as `standard: 4d6dl1`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RollList, A::Error> {
                let mut rolls: Vec<NamedRoll> = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    if rolls.iter().any(|r| r.name == name) {
                        return Err(de::Error::custom(format!(
                            "the roll {name:?} is named twice: give each roll its own name"
                        )));
                    }
                    if name.trim().is_empty() {
                        return Err(de::Error::custom("a roll needs a name"));
                    }
                    let expression = map.next_value::<Expression>()?;
                    rolls.push(NamedRoll { name, expression });
                    if rolls.len() > MAX_ROLLS {
                        return Err(de::Error::custom(format!(
                            "at most {MAX_ROLLS} rolls per scenario: split them over several"
                        )));
                    }
                }
                if rolls.is_empty() {
                    return Err(de::Error::custom(
                        "no rolls: name at least one, such as `standard: 4d6dl1`",
                    ));
                }
                Ok(RollList(rolls))
            }
        }
        deserializer.deserialize_map(ListVisitor)
    }
}

/// Every roll's distribution and every pair's comparison: the contract.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// In the file's order.
    pub rolls: Vec<Roll>,
    /// Each pair, a before b in the file's order.
    pub comparisons: Vec<Comparison>,
}

/// One roll's exact distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Roll {
    /// As named in the file.
    pub name: String,
    /// As written.
    pub expression: String,
    /// Equally likely outcomes in all.
    #[serde(with = "text")]
    pub total_outcomes: BigUint,
    /// Every possible value, lowest first.
    #[serde(serialize_with = "super::pool::in_parallel")]
    pub outcomes: Vec<Outcome>,
    /// The exact mean.
    #[serde(with = "text")]
    pub mean: Exact,
    /// The exact variance.
    #[serde(with = "text")]
    pub variance: Exact,
}

/// One value of a roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The value.
    pub value: i64,
    /// Outcomes giving it.
    #[serde(with = "text")]
    pub ways: BigUint,
    /// Its probability, reduced.
    #[serde(with = "text")]
    pub probability: Exact,
}

/// Two players, one roll each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The first roll's name.
    pub a: String,
    /// The second roll's name.
    pub b: String,
    /// P(a rolls higher).
    #[serde(with = "text")]
    pub p_a_higher: Exact,
    /// P(equal).
    #[serde(with = "text")]
    pub p_tie: Exact,
    /// P(b rolls higher).
    #[serde(with = "text")]
    pub p_b_higher: Exact,
}

/// The contract plus figures only the page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysed {
    /// The JSON contract.
    pub results: Results,
    /// The page's extra figures, one per roll.
    pub rolls: Vec<RollFigures>,
    /// For each comparison, in order, the distribution of a - b.
    pub differences: Vec<Vec<ValueProbability>>,
    /// With two or more rolls, the target numbers some roll reaches with a
    /// chance neither 0 nor 1, lowest first.
    pub targets: Vec<i64>,
    /// For each target, each roll's chance of at least it, in the file's
    /// order.
    #[serde(with = "text")]
    pub reach: Vec<Vec<Exact>>,
}

/// A roll's figures beyond the contract.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RollFigures {
    /// P(X >= value), per outcome in order.
    #[serde(with = "text")]
    pub at_least: Vec<Exact>,
    /// P(X <= value), per outcome in order.
    #[serde(with = "text")]
    pub at_most: Vec<Exact>,
    /// The most likely values, lowest first.
    pub modes: Vec<i64>,
    /// The lowest value with P(X <= value) at least one half.
    pub median: i64,
    /// The extra rolls an exploding die may make, when the roll has one.
    pub explode_depth: Option<u32>,
    /// The chance that some exploding die's chain was cut short (its last
    /// allowed roll would have exploded again), when known.
    #[serde(with = "text")]
    pub cut_short: Option<Exact>,
    /// Each Roll20 critical mark (`notation: roll20`) in words, with the
    /// exact chance that a kept die bears it.
    #[serde(default)]
    pub criticals: Vec<Marked>,
}

/// A Roll20 critical mark in words, and the chance a kept die bears it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Marked {
    /// "a die showing 20 a critical success".
    pub mark: String,
    /// Its exact chance.
    #[serde(with = "text")]
    pub chance: Exact,
}

/// A value and its exact probability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueProbability {
    /// The value.
    pub value: i64,
    /// Its probability.
    #[serde(with = "text")]
    pub probability: Exact,
}

impl Analysis for Dice {
    const NAME: &'static str = "dice";
    type Params = Params;
    type Results = Analysed;

    fn validate(params: &Params) -> Result<(), ParamError> {
        let depth = params.depth();
        if depth > lang::dice::MAX_EXPLODE_DEPTH {
            return Err(ParamError {
                key: "explode_depth",
                message: format!(
                    "{depth} extra rolls: at most {} are allowed",
                    lang::dice::MAX_EXPLODE_DEPTH
                ),
            });
        }
        for roll in &params.rolls.0 {
            let text = &roll.expression.text;
            lang::dice::check(&roll.expression.tree, depth).map_err(|e| ParamError {
                key: "rolls",
                message: format!("roll {:?}: {}", roll.name, e.describe(text)),
            })?;
        }
        Ok(())
    }

    fn cost(params: &Params) -> Cost {
        let (cost, _) = price(params);
        cost
    }

    fn cost_detail(params: &Params) -> Option<String> {
        price(params).1
    }

    fn analyse(params: &Params, progress: &Progress) -> Analysed {
        analyse_outcomes(&params.rolls.0, &evaluate(params, progress), params.depth())
    }

    fn contract<S: serde::Serializer>(
        analysed: &Analysed,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        analysed.results.serialize(serializer)
    }
}

/// The results for rolls already evaluated (shared with `fairdice roll`
/// and the playground, which evaluate outside a scenario file).
pub(crate) fn analyse_outcomes(rolls: &[NamedRoll], outcomes: &[Outcomes], depth: u32) -> Analysed {
    let named: Vec<(&str, &str)> = rolls
        .iter()
        .map(|r| (r.name.as_str(), r.expression.text.as_str()))
        .collect();
    let mut analysed = analyse_named(&named, outcomes);
    for (roll, extra) in rolls.iter().zip(&mut analysed.rolls) {
        let tree = &roll.expression.tree;
        // A roll explodes when deeper explosions roll more dice.
        if super::simulate::dice::dice_per_roll(tree, 0)
            < super::simulate::dice::dice_per_roll(tree, 1)
        {
            extra.explode_depth = Some(depth);
            extra.cut_short = lang::dice::uncut(tree, depth).map(|uncut| Exact::one() - uncut);
        }
        extra.criticals = lang::dice::criticals(tree, depth)
            .into_iter()
            .map(|(mark, chance)| Marked {
                mark: lang::dice::critical_words(mark),
                chance,
            })
            .collect();
    }
    analysed
}

/// Every roll's distribution, in order.
pub(crate) fn evaluate(params: &Params, progress: &Progress) -> Vec<Outcomes> {
    let depth = params.depth();
    params
        .rolls
        .0
        .iter()
        .map(|roll| {
            progress.with_spinner(&roll.name, |_| {
                lang::dice::evaluate(&roll.expression.tree, depth)
            })
        })
        .collect()
}

/// Which of two rolls is higher, and how often they tie.
pub(crate) fn comparison(names: [&str; 2], a: &Outcomes, b: &Outcomes) -> Comparison {
    let [higher, tie, lower] = a.compare(b);
    let all = a.total() * b.total();
    let [p_a_higher, p_tie, p_b_higher]: [Exact; 3] = ratios([higher, tie, lower].iter(), &all)
        .try_into()
        .expect("three chances");
    Comparison {
        a: names[0].to_string(),
        b: names[1].to_string(),
        p_a_higher,
        p_tie,
        p_b_higher,
    }
}

/// The results for distributions each with a name and the text that made
/// it, wherever they came from (an expression, an AnyDice program).
pub(crate) fn analyse_named(rolls: &[(&str, &str)], outcomes: &[Outcomes]) -> Analysed {
    let mut results = Results {
        rolls: Vec::new(),
        comparisons: Vec::new(),
    };
    let mut figures = Vec::new();
    for ((name, text), outcome) in rolls.iter().zip(outcomes) {
        let (summary, extra) = describe(name, text, outcome);
        results.rolls.push(summary);
        figures.push(extra);
    }
    let mut differences = Vec::new();
    for (i, a) in outcomes.iter().enumerate() {
        for (j, b) in outcomes.iter().enumerate().skip(i + 1) {
            results
                .comparisons
                .push(comparison([rolls[i].0, rolls[j].0], a, b));
            differences.push(
                a.add(&b.negate())
                    .probabilities()
                    .into_iter()
                    .map(|(value, probability)| ValueProbability { value, probability })
                    .collect(),
            );
        }
    }
    let (targets, reach) = if rolls.len() > 1 {
        reach_targets(outcomes)
    } else {
        (Vec::new(), Vec::new())
    };
    Analysed {
        results,
        rolls: figures,
        differences,
        targets,
        reach,
    }
}

/// The targets some roll reaches with a chance neither 0 nor 1, and each
/// roll's chance of at least each.
fn reach_targets(outcomes: &[Outcomes]) -> (Vec<i64>, Vec<Vec<Exact>>) {
    // Each roll's values, and the ways of at least each, from the top.
    let tails: Vec<(BigUint, Vec<(i64, BigUint)>)> = outcomes
        .iter()
        .map(|o| {
            let mut running = BigUint::zero();
            let mut tail: Vec<(i64, BigUint)> = o
                .iter()
                .rev()
                .map(|(v, w)| {
                    running += w;
                    (v, running.clone())
                })
                .collect();
            tail.reverse();
            (o.total(), tail)
        })
        .collect();
    // Chances change only at a value some roll takes: between two, every
    // target has the chances of the next. Counting every integer between
    // the lowest and the highest took 100000000 and d62 a hundred million
    // steps (found by the fuzzer).
    let values: std::collections::BTreeSet<i64> = outcomes
        .iter()
        .flat_map(|o| o.iter().map(|(v, _)| v))
        .collect();
    let (mut targets, mut reach) = (Vec::new(), Vec::new());
    for target in values {
        let chances: Vec<Exact> = tails
            .iter()
            .map(|(total, tail)| {
                // The first value at or above the target holds its ways.
                let at = tail.partition_point(|(v, _)| *v < target);
                tail.get(at)
                    .map_or_else(Exact::zero, |(_, ways)| crate::engine::ratio(ways, total))
            })
            .collect();
        if chances.iter().any(|p| !p.is_zero() && !p.is_one()) {
            targets.push(target);
            reach.push(chances);
        }
    }
    (targets, reach)
}

/// One roll's exact figures from its outcomes: the contract's summary and
/// the page's extras.
pub(crate) fn describe(name: &str, text: &str, outcomes: &Outcomes) -> (Roll, RollFigures) {
    let summary = summary(name, text, outcomes);
    let total = &summary.total_outcomes;
    let pairs: Vec<(i64, &BigUint)> = outcomes.iter().collect();
    // "At most" from a running sum; "at least" each value is one minus
    // "at most" the value below, which needs no reduction of its own.
    let mut running = BigUint::zero();
    let at_most_ways: Vec<BigUint> = pairs
        .iter()
        .map(|(_, w)| {
            running += *w;
            running.clone()
        })
        .collect();
    let at_most = Denominator::new(total).ratios(at_most_ways.iter());
    let at_least: Vec<Exact> = std::iter::once(Exact::one())
        .chain(at_most.iter().take(pairs.len() - 1).map(complement))
        .collect();
    let most = pairs
        .iter()
        .map(|(_, w)| *w)
        .max()
        .expect("a roll has a value");
    let modes = pairs
        .iter()
        .filter(|(_, w)| *w == most)
        .map(|(v, _)| *v)
        .collect();
    let median = pairs
        .iter()
        .zip(&at_most_ways)
        .find(|(_, below)| *below * 2u32 >= *total)
        .map(|((v, _), _)| *v)
        .expect("the last value reaches the total");
    let extra = RollFigures {
        at_least,
        at_most,
        modes,
        median,
        explode_depth: None,
        cut_short: None,
        criticals: Vec::new(),
    };
    (summary, extra)
}

/// One roll's summary alone, as the contract spells it: what `fairdice
/// anydice` prints of each output (the page's extras are not made).
pub(crate) fn summary(name: &str, text: &str, outcomes: &Outcomes) -> Roll {
    let total = outcomes.total();
    let probabilities = Denominator::new(&total).ratios(outcomes.iter().map(|(_, w)| w));
    Roll {
        name: name.to_string(),
        expression: text.to_string(),
        outcomes: outcomes
            .iter()
            .zip(probabilities)
            .map(|((value, ways), probability)| Outcome {
                value,
                ways: ways.clone(),
                probability,
            })
            .collect(),
        total_outcomes: total,
        mean: outcomes.mean(),
        variance: outcomes.variance(),
    }
}

/// The cost of evaluating every roll, comparing every pair and showing the
/// tables, and the costliest part in words when it is worth naming.
pub(crate) fn price(params: &Params) -> (Cost, Option<String>) {
    let depth = params.depth();
    let mut seconds = 0.0;
    let mut bytes: f64 = 0.0;
    let mut rows = 0.0;
    let mut digits: f64 = 0.0;
    let mut widths = Vec::new();
    let mut costliest: Option<(f64, String)> = None;
    for roll in &params.rolls.0 {
        let text = &roll.expression.text;
        let Ok(Price {
            seconds: s,
            bytes: b,
            costliest: part,
            costliest_seconds,
            width,
            bits,
        }) = lang::dice::check(&roll.expression.tree, depth)
        else {
            continue;
        };
        seconds += s;
        bytes = bytes.max(b);
        rows += width;
        digits = digits.max(bits * std::f64::consts::LOG10_2 + 1.0);
        widths.push((width, bits));
        if costliest
            .as_ref()
            .is_none_or(|(most, _)| costliest_seconds > *most)
        {
            costliest = Some((
                costliest_seconds,
                format!("`{}` in roll {:?}", part.text(text), roll.name),
            ));
        }
    }
    // The chances to reach each target: every roll at each, about the
    // widest roll's values.
    if widths.len() > 1 {
        rows += widths.iter().map(|w| w.0).fold(0.0, f64::max) * widths.len() as f64;
    }
    // Each pair: a comparison and the distribution of the difference.
    for (i, (wa, ba)) in widths.iter().enumerate() {
        for (wb, bb) in &widths[i + 1..] {
            let words = (ba + bb) / 64.0 + 1.0;
            seconds += wa * wb * words / 6.7e7;
            rows += wa + wb;
        }
    }
    let cost = Cost {
        seconds,
        bytes,
        key: "rolls",
        ..Cost::default()
    }
    .with_tables(rows, digits);
    let detail = costliest.map(|(s, part)| {
        format!(
            "the costliest part is {part} ({}): fewer or smaller dice, fewer kept \
             or a lower explode depth cost less",
            super::cost::estimated_time(s)
        )
    });
    (cost, detail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::exact_string;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).unwrap()
    }

    fn run(yaml: &str) -> Analysed {
        let params = params(yaml);
        Dice::validate(&params).unwrap();
        Dice::analyse(&params, &Progress::hidden())
    }

    #[test]
    fn simulated_rolls_agree_with_every_distribution_and_pair() {
        use crate::analyses::simulate::assert_agrees;
        let yaml = "rolls:\n  fate: 4dF\n  exploding: 2d4!kh1\n  best: 4d6ro1dl1\n";
        let params = params(yaml);
        let analysed = run(yaml);
        let simulation = Dice::simulation(&params, &analysed);
        assert_eq!(simulation.experiments.len(), 3 + 3);
        let values: usize = analysed
            .results
            .rolls
            .iter()
            .map(|r| r.outcomes.len())
            .sum();
        let differences: usize = analysed.differences.iter().map(Vec::len).sum();
        // Per roll: its values, the impossible one, the mean and the
        // variance; per pair: three chances, the differences, the
        // impossible one.
        assert_eq!(
            assert_agrees(&simulation, 20_000),
            values + 3 * 3 + 3 * 4 + differences
        );
        assert_eq!(simulation.experiments[3].label, "fate against exploding");
        assert_eq!(simulation.experiments[0].means[0].label, "value less -4");
    }

    #[test]
    fn rolls_keep_the_file_order_and_their_figures() {
        let analysed = run("rolls:\n  standard: 4d6dl1\n  heroic: 2d6+6\n");
        let names: Vec<&str> = analysed
            .results
            .rolls
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(names, ["standard", "heroic"]);
        let heroic = &analysed.results.rolls[1];
        assert_eq!(heroic.total_outcomes, BigUint::from(36u32));
        assert_eq!(exact_string(&heroic.mean), "13/1");
        assert_eq!(exact_string(&heroic.variance), "35/6");
        assert_eq!(heroic.outcomes[0].value, 8);
        assert_eq!(exact_string(&heroic.outcomes[5].probability), "1/6");
        let figures = &analysed.rolls[1];
        assert_eq!(figures.modes, vec![13]);
        assert_eq!(figures.median, 13);
        assert_eq!(exact_string(&figures.at_least[0]), "1/1");
        assert_eq!(exact_string(&figures.at_most[0]), "1/36");
        assert_eq!(exact_string(&figures.at_least[10]), "1/36");
        // 4d6 drop lowest: mean 15869/1296.
        assert_eq!(exact_string(&analysed.results.rolls[0].mean), "15869/1296");
    }

    #[test]
    fn pairs_are_compared_as_two_players() {
        let analysed = run("rolls:\n  a: 2d6\n  b: 2d6\n  c: d6+3\n");
        let names: Vec<(&str, &str)> = analysed
            .results
            .comparisons
            .iter()
            .map(|c| (c.a.as_str(), c.b.as_str()))
            .collect();
        assert_eq!(names, [("a", "b"), ("a", "c"), ("b", "c")]);
        // Two players each rolling 2d6: a tie is 146/1296 = 73/648.
        let first = &analysed.results.comparisons[0];
        assert_eq!(exact_string(&first.p_tie), "73/648");
        assert_eq!(first.p_a_higher, first.p_b_higher);
        let sum = &first.p_a_higher + &first.p_tie + &first.p_b_higher;
        assert_eq!(exact_string(&sum), "1/1");
        assert_eq!(analysed.differences[0].first().unwrap().value, -10);
    }

    #[test]
    fn bad_rolls_name_the_roll_and_the_column() {
        let error = serde_yaml::from_str::<Params>("rolls:\n  big: 4d6kh5\n").unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("`4d6kh5`, column 4: cannot keep 5 of 4 dice"),
            "{text}"
        );
        assert_eq!(error.location().unwrap().line(), 2);
        for (yaml, expected) in [
            ("rolls: {}\n", "no rolls"),
            ("rolls:\n  a: d6\n  a: d8\n", "named twice"),
            ("rolls: [d6]\n", "named rolls"),
            ("rolls:\n  a: 2d6rr<7\n", "every face is rerolled"),
        ] {
            let text = serde_yaml::from_str::<Params>(yaml)
                .unwrap_err()
                .to_string();
            assert!(text.contains(expected), "{yaml}: {text}");
        }
        let deep = params("rolls:\n  a: 3d6!\nexplode_depth: 50\n");
        assert!(Dice::validate(&deep)
            .unwrap_err()
            .message
            .contains("at most 20"));
    }

    #[test]
    fn the_budget_names_the_costliest_part() {
        let params = params("rolls:\n  small: d6\n  huge: 1d6 + 100000d1000\n");
        let (cost, detail) = price(&params);
        assert!(crate::limits::Budget::default().admit(&cost).is_err());
        let detail = detail.unwrap();
        assert!(
            detail.contains("`100000d1000` in roll \"huge\""),
            "{detail}"
        );
    }

    /// Brute force over every sequence of faces: each die rolls up to
    /// `depth + 1` times, stopping at the first face that does not explode;
    /// its chain is cut short when all `depth + 1` faces explode.
    fn cut_short_by_enumeration(
        faces: &[i64],
        explodes: fn(i64) -> bool,
        depth: u32,
        dice: u32,
    ) -> Exact {
        let rolls = (depth + 1) * dice;
        let sequences = (faces.len() as u64).pow(rolls);
        let cut = (0..sequences)
            .filter(|&k| {
                let mut k = k;
                let faces: Vec<i64> = (0..rolls)
                    .map(|_| {
                        let face = faces[(k % faces.len() as u64) as usize];
                        k /= faces.len() as u64;
                        face
                    })
                    .collect();
                faces
                    .chunks((depth + 1) as usize)
                    .any(|chain| chain.iter().all(|&f| explodes(f)))
            })
            .count();
        Exact::new(cut.into(), sequences.into())
    }

    /// "Explosions stop after N extra rolls": N is `explode_depth`, and the
    /// chance a chain was cut short agrees with a brute force over faces
    /// and, for a lone compounding die, with the engine's chance of its
    /// highest total (reached only by a chain of exploding faces).
    #[test]
    fn the_chance_a_chain_was_cut_short_by_brute_force() {
        let figures = |yaml: &str| run(yaml).rolls;
        let d3 = [1, 2, 3];
        let d4 = [1, 2, 3, 4];
        for depth in 0..=3 {
            let page = figures(&format!(
                "explode_depth: {depth}\nrolls:\n  a: 1d4!!\n  b: 2d3!\n  c: 2d4!>=3\n  d: 3d6\n"
            ));
            assert_eq!(page[0].explode_depth, Some(depth));
            let want = cut_short_by_enumeration(&d4, |f| f == 4, depth, 1);
            assert_eq!(
                page[0].cut_short.as_ref(),
                Some(&want),
                "1d4!! depth {depth}"
            );
            let want = cut_short_by_enumeration(&d3, |f| f == 3, depth, 2);
            assert_eq!(
                page[1].cut_short.as_ref(),
                Some(&want),
                "2d3! depth {depth}"
            );
            let want = cut_short_by_enumeration(&d4, |f| f >= 3, depth, 2);
            assert_eq!(
                page[2].cut_short.as_ref(),
                Some(&want),
                "2d4!>=3 depth {depth}"
            );
            assert_eq!(
                (page[3].explode_depth, page[3].cut_short.as_ref()),
                (None, None)
            );
        }
        // The engine: 1d4!! at depth 3 totals 16 only by four 4s.
        let analysed = run("rolls:\n  a: 1d4!!\n  b: 1d6ro1!!\n");
        let top = |i: usize| {
            analysed.results.rolls[i]
                .outcomes
                .last()
                .unwrap()
                .probability
                .clone()
        };
        assert_eq!(analysed.rolls[0].cut_short.as_ref(), Some(&top(0)));
        // Rerolling ones first: a 6 comes up 7/36 of the time.
        let six = Exact::new(7.into(), 36.into());
        assert_eq!(analysed.rolls[1].cut_short, Some(num_traits::pow(six, 4)));
        assert_eq!(analysed.rolls[1].cut_short.as_ref(), Some(&top(1)));
        // A rolled number of dice: 1 or 2 dice of 2d3!, half the time each.
        let rolled = run("explode_depth: 1\nrolls:\n  a: (1d2)d3!\n  b: d6\n");
        let one = cut_short_by_enumeration(&d3, |f| f == 3, 1, 1);
        let two = cut_short_by_enumeration(&d3, |f| f == 3, 1, 2);
        let half = Exact::new(1.into(), 2.into());
        assert_eq!(rolled.rolls[0].cut_short, Some(&half * one + &half * two));
    }

    /// Each roll's chance to reach each target, against an enumeration of
    /// 2d20kh1's 400 outcomes and 1d20+5's 20.
    #[test]
    fn chances_to_reach_each_target_by_enumeration() {
        let analysed = run("rolls:\n  advantage: 2d20kh1\n  plus five: 1d20+5\n");
        let reach = |values: &[i64], t: i64| {
            let hits = values.iter().filter(|&&v| v >= t).count();
            Exact::new(hits.into(), values.len().into())
        };
        let advantage: Vec<i64> = (1..=20)
            .flat_map(|a| (1..=20).map(move |b| i64::max(a, b)))
            .collect();
        let plus_five: Vec<i64> = (1..=20).map(|a| a + 5).collect();
        // Below 2 both are sure; above 25 neither can.
        assert_eq!(analysed.targets, (2..=25).collect::<Vec<i64>>());
        for (t, chances) in analysed.targets.iter().zip(&analysed.reach) {
            assert_eq!(
                chances,
                &vec![reach(&advantage, *t), reach(&plus_five, *t)],
                "{t}"
            );
        }
        assert!(run("rolls:\n  a: d6\n").targets.is_empty());
    }

    /// Targets are the values the rolls take, not every integer between:
    /// a constant of a hundred million beside d62 took 10^8 steps (found
    /// by the fuzzer); between two values the chances are the next one's.
    #[test]
    fn targets_are_the_values_rolled() {
        let analysed = run("rolls:\n  far: '100000000'\n  die: d62\n");
        assert_eq!(analysed.targets, (2..=62).collect::<Vec<i64>>());
        assert_eq!(analysed.reach[0][1], Exact::new(61.into(), 62.into()));
        let analysed = run("rolls:\n  sparse: d{1,10}\n  die: d6\n");
        assert_eq!(analysed.targets, [2, 3, 4, 5, 6, 10]);
        assert_eq!(
            analysed.reach[5],
            [Exact::new(1.into(), 2.into()), Exact::zero()]
        );
    }
}
