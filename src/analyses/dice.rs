//! `dice`: any roll written in the dice language, with its exact
//! distribution, and every pair of rolls compared as two players rolling
//! once each.

use crate::analyses::dice_lang::{self, Expr, Expression, Price, DEFAULT_EXPLODE_DEPTH};
use crate::engine::{ratios, text, Exact, Outcomes};
use crate::progress::Progress;
use num_bigint::BigUint;
use num_traits::Zero;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

use super::simulate::{Event, Experiment, Simulate, Simulation};
use super::{Analysis, Cost, ParamError};
use std::cmp::Ordering;

/// The `dice` kind.
pub struct Dice;

/// The most rolls one scenario may name (pairs grow with the square).
pub(crate) const MAX_ROLLS: usize = 26;

/// Parameters of a `dice` scenario.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// Named expressions, in the file's order.
    pub rolls: RollList,
    /// Extra rolls an exploding die may make.
    #[serde(default)]
    pub explode_depth: Option<u32>,
}

impl Params {
    /// The explosion depth in force.
    pub fn depth(&self) -> u32 {
        self.explode_depth.unwrap_or(DEFAULT_EXPLODE_DEPTH)
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
        if depth > dice_lang::MAX_EXPLODE_DEPTH {
            return Err(ParamError {
                key: "explode_depth",
                message: format!(
                    "{depth} extra rolls: at most {} are allowed",
                    dice_lang::MAX_EXPLODE_DEPTH
                ),
            });
        }
        for roll in &params.rolls.0 {
            let text = &roll.expression.text;
            dice_lang::check(&roll.expression.tree, depth).map_err(|e| ParamError {
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
        let depth = params.depth();
        let outcomes: Vec<Outcomes> = params
            .rolls
            .0
            .iter()
            .map(|roll| {
                progress.with_spinner(&roll.name, |_| {
                    dice_lang::evaluate(&roll.expression.tree, depth)
                })
            })
            .collect();
        analyse_outcomes(&params.rolls.0, &outcomes)
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
pub(crate) fn analyse_outcomes(rolls: &[NamedRoll], outcomes: &[Outcomes]) -> Analysed {
    let mut results = Results {
        rolls: Vec::new(),
        comparisons: Vec::new(),
    };
    let mut figures = Vec::new();
    for (roll, outcome) in rolls.iter().zip(outcomes) {
        let (summary, extra) = describe(roll, outcome);
        results.rolls.push(summary);
        figures.push(extra);
    }
    let mut differences = Vec::new();
    for (i, a) in outcomes.iter().enumerate() {
        for (j, b) in outcomes.iter().enumerate().skip(i + 1) {
            let [higher, tie, lower] = a.compare(b);
            let all = a.total() * b.total();
            let p = ratios([higher, tie, lower].iter(), &all);
            results.comparisons.push(Comparison {
                a: rolls[i].name.clone(),
                b: rolls[j].name.clone(),
                p_a_higher: p[0].clone(),
                p_tie: p[1].clone(),
                p_b_higher: p[2].clone(),
            });
            differences.push(
                a.add(&b.negate())
                    .probabilities()
                    .into_iter()
                    .map(|(value, probability)| ValueProbability { value, probability })
                    .collect(),
            );
        }
    }
    Analysed {
        results,
        rolls: figures,
        differences,
    }
}

fn describe(roll: &NamedRoll, outcomes: &Outcomes) -> (Roll, RollFigures) {
    let total = outcomes.total();
    let pairs: Vec<(i64, &BigUint)> = outcomes.iter().collect();
    let probabilities = outcomes.probabilities();
    // Running sums from each end give "at most" and "at least".
    let mut running = BigUint::zero();
    let at_most_ways: Vec<BigUint> = pairs
        .iter()
        .map(|(_, w)| {
            running += *w;
            running.clone()
        })
        .collect();
    let at_least_ways: Vec<BigUint> = at_most_ways
        .iter()
        .zip(&pairs)
        .map(|(below_or_at, (_, w))| &total - below_or_at + *w)
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
        .find(|(_, below)| *below * 2u32 >= total)
        .map(|((v, _), _)| *v)
        .expect("the last value reaches the total");
    let summary = Roll {
        name: roll.name.clone(),
        expression: roll.expression.text.clone(),
        total_outcomes: total.clone(),
        outcomes: pairs
            .iter()
            .zip(probabilities)
            .map(|((value, ways), (_, probability))| Outcome {
                value: *value,
                ways: (*ways).clone(),
                probability,
            })
            .collect(),
        mean: outcomes.mean(),
        variance: outcomes.variance(),
    };
    let extra = RollFigures {
        at_least: ratios(at_least_ways.iter(), &total),
        at_most: ratios(at_most_ways.iter(), &total),
        modes,
        median,
    };
    (summary, extra)
}

/// The cost of evaluating every roll, comparing every pair and showing the
/// tables, and the costliest part in words when it is worth naming.
pub fn price(params: &Params) -> (Cost, Option<String>) {
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
        }) = dice_lang::check(&roll.expression.tree, depth)
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
            "the costliest part is {part} ({})",
            super::cost::estimated_time(s)
        )
    });
    (cost, detail)
}

/// Each roll rolled die by die from its syntax tree (`dice_lang::simulate`,
/// written from the language's rules, not from the exact engine) against
/// its exact distribution, mean and variance; each pair rolled once each
/// against `p_a_higher`, `p_tie`, `p_b_higher` and the distribution of the
/// difference. A value the engine calls impossible fails the run.
impl Simulate for Dice {
    fn simulation(params: &Params, analysed: &Analysed) -> Simulation {
        let depth = params.depth();
        let named = &params.rolls.0;
        let mut experiments: Vec<Experiment> = named
            .iter()
            .zip(&analysed.results.rolls)
            .map(|(roll, figures)| roll_experiment(&roll.expression.tree, figures, depth))
            .collect();
        let pairs = (0..named.len()).flat_map(|i| (i + 1..named.len()).map(move |j| (i, j)));
        for (((i, j), comparison), difference) in pairs
            .zip(&analysed.results.comparisons)
            .zip(&analysed.differences)
        {
            let trees = [&named[i].expression.tree, &named[j].expression.tree];
            experiments.push(pair_experiment(trees, comparison, difference, depth));
        }
        Simulation::of(experiments)
    }
}

/// Events for every value of a distribution, in order, then one for any
/// other value (exact chance 0); and the index a value hits.
struct Values(Vec<i64>);

impl Values {
    fn events<'a>(
        &self,
        label: impl Fn(i64) -> String,
        chances: impl Iterator<Item = &'a Exact>,
    ) -> Vec<Event> {
        self.0
            .iter()
            .zip(chances)
            .map(|(&v, p)| Event::new(label(v), p.clone()))
            .chain([Event::new(
                "a value the engine calls impossible",
                Exact::zero(),
            )])
            .collect()
    }

    fn index(&self, value: i64) -> usize {
        self.0.binary_search(&value).unwrap_or(self.0.len())
    }
}

/// Widest roll whose variance is checked: the fourth powers of the values'
/// distances from the lowest must add up within 128 bits.
const MAX_WIDTH_FOR_VARIANCE: i64 = 1 << 12;

fn roll_experiment(tree: &Expr, roll: &Roll, depth: u32) -> Experiment {
    let values = Values(roll.outcomes.iter().map(|o| o.value).collect());
    let lowest = values.0[0];
    let width = values.0[values.0.len() - 1] - lowest;
    let events = values.events(
        |v| format!("value {v}"),
        roll.outcomes.iter().map(|o| &o.probability),
    );
    // Means of non-negative measures: the distance from the lowest value,
    // and its square (the variance plus the squared mean distance).
    let above = &roll.mean - Exact::from_integer(lowest.into());
    let mut means = vec![Event::new(format!("value less {lowest}"), above.clone())];
    if width <= MAX_WIDTH_FOR_VARIANCE {
        let square = &roll.variance + &above * &above;
        means.push(Event::new(
            format!("square of the value less {lowest}"),
            square,
        ));
    }
    let tree = tree.clone();
    let squares = means.len() > 1;
    Experiment {
        label: format!("{}: {}", roll.name, roll.expression),
        events,
        means,
        steps_per_trial: dice_lang::simulate::dice_per_roll(&tree, depth).max(1.0),
        trial: Box::new(move |sampler, trial| {
            let value = dice_lang::simulate::roll(&tree, depth, sampler);
            trial.hit(values.index(value));
            let distance = value.abs_diff(lowest);
            trial.measure(0, distance);
            if squares {
                trial.measure(1, distance * distance);
            }
        }),
    }
}

fn pair_experiment(
    trees: [&Expr; 2],
    comparison: &Comparison,
    difference: &[ValueProbability],
    depth: u32,
) -> Experiment {
    let differences = Values(difference.iter().map(|d| d.value).collect());
    let mut events = vec![
        Event::new(
            format!("{} higher", comparison.a),
            comparison.p_a_higher.clone(),
        ),
        Event::new("tie", comparison.p_tie.clone()),
        Event::new(
            format!("{} higher", comparison.b),
            comparison.p_b_higher.clone(),
        ),
    ];
    events.extend(differences.events(
        |d| format!("difference {d}"),
        difference.iter().map(|d| &d.probability),
    ));
    let [a, b] = trees.map(Expr::clone);
    let steps = dice_lang::simulate::dice_per_roll(&a, depth)
        + dice_lang::simulate::dice_per_roll(&b, depth);
    Experiment {
        label: format!("{} against {}", comparison.a, comparison.b),
        events,
        means: Vec::new(),
        steps_per_trial: steps.max(1.0),
        trial: Box::new(move |sampler, trial| {
            let x = dice_lang::simulate::roll(&a, depth, sampler);
            let y = dice_lang::simulate::roll(&b, depth, sampler);
            trial.hit(match x.cmp(&y) {
                Ordering::Greater => 0,
                Ordering::Equal => 1,
                Ordering::Less => 2,
            });
            trial.hit(3 + differences.index(x - y));
        }),
    }
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
}
