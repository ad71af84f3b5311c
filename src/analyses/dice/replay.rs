//! The `dice` kind replayed by `verify --simulate`: each roll and each
//! pair of rolls rolled die by die (`simulate::dice`), beside the exact
//! figures; [`SimulatedRoll`] also serves the `anydice` kind.

use super::*;

/// Each roll rolled die by die from its syntax tree (`lang::dice::simulate`,
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

/// The figures one roll's simulation must reproduce: an event per value
/// of its exact distribution, one for any other value, the mean (as the
/// mean distance from the lowest value, a non-negative measure) and, when
/// the values span at most [`MAX_WIDTH_FOR_VARIANCE`], the variance (as the
/// mean square of that distance). Shared by every kind whose results are
/// `dice` rolls (`dice`, `anydice`), which place them in an experiment at
/// their own indices.
pub(crate) struct SimulatedRoll {
    values: Values,
    lowest: i64,
    squares: bool,
    /// The first event's index in its experiment.
    first_event: usize,
    /// The first mean's index in its experiment.
    first_mean: usize,
}

impl SimulatedRoll {
    /// The figures of `roll`, each label behind `prefix`, appended to the
    /// experiment's `events` and `means`.
    pub(crate) fn add(
        roll: &Roll,
        prefix: &str,
        events: &mut Vec<Event>,
        means: &mut Vec<Event>,
    ) -> SimulatedRoll {
        let values = Values(roll.outcomes.iter().map(|o| o.value).collect());
        let lowest = values.0[0];
        let width = values.0[values.0.len() - 1] - lowest;
        let (first_event, first_mean) = (events.len(), means.len());
        events.extend(values.events(
            |v| format!("{prefix}value {v}"),
            roll.outcomes.iter().map(|o| &o.probability),
        ));
        // Means of non-negative measures: the distance from the lowest
        // value, and its square (the variance plus the squared mean
        // distance).
        let above = &roll.mean - Exact::from_integer(lowest.into());
        means.push(Event::new(
            format!("{prefix}value less {lowest}"),
            above.clone(),
        ));
        let squares = width <= MAX_WIDTH_FOR_VARIANCE;
        if squares {
            let square = &roll.variance + &above * &above;
            means.push(Event::new(
                format!("{prefix}square of the value less {lowest}"),
                square,
            ));
        }
        SimulatedRoll {
            values,
            lowest,
            squares,
            first_event,
            first_mean,
        }
    }

    /// This trial showed `value`.
    pub(crate) fn record(&self, trial: &mut Trial, value: i64) {
        trial.hit(self.first_event + self.values.index(value));
        let distance = value.abs_diff(self.lowest);
        trial.measure(self.first_mean, distance);
        if self.squares {
            trial.measure(self.first_mean + 1, distance.saturating_mul(distance));
        }
    }

    /// This trial showed no value the roll has (the empty die where the
    /// roll has values): the event "a value the engine calls impossible".
    pub(crate) fn record_impossible(&self, trial: &mut Trial) {
        trial.hit(self.first_event + self.values.0.len());
    }
}

fn roll_experiment(tree: &Expr, roll: &Roll, depth: u32) -> Experiment {
    let (mut events, mut means) = (Vec::new(), Vec::new());
    let figures = SimulatedRoll::add(roll, "", &mut events, &mut means);
    let tree = tree.clone();
    Experiment {
        label: format!("{}: {}", roll.name, roll.expression),
        events,
        means,
        steps_per_trial: crate::analyses::simulate::dice::dice_per_roll(&tree, depth).max(1.0),
        trial: Box::new(move |sampler, trial| {
            figures.record(
                trial,
                crate::analyses::simulate::dice::roll(&tree, depth, sampler),
            );
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
    let steps = crate::analyses::simulate::dice::dice_per_roll(&a, depth)
        + crate::analyses::simulate::dice::dice_per_roll(&b, depth);
    Experiment {
        label: format!("{} against {}", comparison.a, comparison.b),
        events,
        means: Vec::new(),
        steps_per_trial: steps.max(1.0),
        trial: Box::new(move |sampler, trial| {
            let x = crate::analyses::simulate::dice::roll(&a, depth, sampler);
            let y = crate::analyses::simulate::dice::roll(&b, depth, sampler);
            trial.hit(match x.cmp(&y) {
                Ordering::Greater => 0,
                Ordering::Equal => 1,
                Ordering::Less => 2,
            });
            trial.hit(3 + differences.index(x - y));
        }),
    }
}
