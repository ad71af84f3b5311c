//! The `anydice` kind: an AnyDice program (`program: |`, or
//! `program_file:` beside the scenario) run exactly by the front end in
//! `lang::anydice`; each output is a named distribution, analysed as the
//! `dice` kind analyses its rolls.

use super::dice::SimulatedRoll;
use super::dice::{self, analyse_named};
use super::observations::DataError;
use super::simulate::anydice as sampling;
use super::simulate::{Event, Experiment, Sampler, Simulate, Simulation, TrialFn, DEFAULT_SEED};
use super::{Analysis, Cost, ParamError};
use crate::engine::Outcomes;
use crate::lang::anydice::price::{self, Estimate};
use crate::lang::anydice::{self, work::STEPS_PER_SECOND, Refusal, Report};
use crate::progress::Progress;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The `anydice` kind.
pub struct Anydice;

/// Parameters of an `anydice` scenario: the program, written in the file
/// or read from a file beside it.
#[derive(Debug, Clone, Deserialize)]
pub struct Params {
    /// The program's text.
    #[serde(default)]
    pub program: Option<String>,
    /// A file beside the scenario holding the program (read into `program`).
    #[serde(default)]
    pub program_file: Option<String>,
    /// The static estimate of the program's work, made once: a program
    /// far over the budget is refused by it, without a run.
    #[serde(skip)]
    estimated: Kept<Option<Estimate>>,
    /// The pricing run, made once and used by the check, the price and the
    /// analysis (a program within reach of the budget is priced by running
    /// it).
    #[serde(skip)]
    priced: Kept<Result<Report, Refusal>>,
}

/// Something worked out from the program once, when first needed. Its
/// `Debug` says nothing, so the cache key (the parameters' `Debug`) never
/// depends on whether it has been made yet.
#[derive(Clone)]
struct Kept<T>(OnceLock<T>);

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept(OnceLock::new())
    }
}

impl<T> std::fmt::Debug for Kept<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("_")
    }
}

impl Params {
    /// The program's text (read from `program_file` when the scenario
    /// names one).
    pub fn text(&self) -> &str {
        self.program.as_deref().unwrap_or("")
    }

    /// The static estimate, made on first use (`None` for a program
    /// whose text has problems).
    fn estimate(&self) -> Option<&Estimate> {
        // The browser's engine leaves the estimate out, for its size: a
        // page's run is still held to its step budget.
        if cfg!(feature = "browser") {
            return None;
        }
        self.estimated
            .0
            .get_or_init(|| price::estimate(self.text()).ok())
            .as_ref()
    }

    /// Why the program is refused without running it: its estimate is far
    /// over the pricing budget.
    fn far_over(&self) -> Option<String> {
        self.estimate()?.far_over(PRICING_SECONDS)
    }

    /// The program run within the pricing limit, made on first use.
    fn priced(&self) -> &Result<Report, Refusal> {
        self.priced
            .0
            .get_or_init(|| anydice::run(self.text(), PRICING_SECONDS))
    }
}

/// The outputs' exact distributions, and what the page shows of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysed {
    /// Every output's name, in order, and whether it is the empty die.
    pub outputs: Vec<OutputName>,
    /// The outputs that have outcomes, analysed as `dice` rolls.
    pub dice: dice::Analysed,
    /// AnyDice's warnings, each once.
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutputName {
    pub name: String,
    /// The empty die `d{}`: no outcome at all.
    pub empty: bool,
}

/// The JSON contract: each output with outcomes is a case (its name,
/// outcomes, mean and variance, as `dice` writes a roll), then the pairs'
/// comparisons, the empty outputs' names and the warnings.
#[derive(Serialize)]
struct Contract<'a> {
    cases: &'a [dice::Roll],
    comparisons: &'a [dice::Comparison],
    empty: Vec<&'a str>,
    warnings: &'a [String],
}

/// The most steps a program may take while it is priced: the default
/// budget's 30 seconds. A longer one is refused with the price reached.
const PRICING_SECONDS: f64 = 30.0;

fn problem(refusal: &Refusal) -> ParamError {
    let first = match refusal {
        Refusal::Syntax(problems) => problems.first().cloned(),
        Refusal::Calculation(problem) => Some(problem.clone()),
    };
    let message = match (refusal, first) {
        (Refusal::Syntax(problems), Some(p)) if problems.len() > 1 => {
            let rest: Vec<String> = problems[1..].iter().map(ToString::to_string).collect();
            format!(
                "line {} of the program: {} (and: {})",
                p.at.line,
                p.message,
                rest.join("; ")
            )
        }
        (_, Some(p)) if p.at.line > 0 => format!(
            "line {}, column {} of the program: {}",
            p.at.line, p.at.column, p.message
        ),
        (_, Some(p)) => p.message,
        (_, None) => "the program was refused".to_string(),
    };
    ParamError {
        key: "program",
        message,
    }
}

impl Analysis for Anydice {
    const NAME: &'static str = "anydice";
    type Params = Params;
    type Results = Analysed;

    fn validate(params: &Params) -> Result<(), ParamError> {
        if params.program.is_none() {
            return Err(ParamError {
                key: "program",
                message: "no program: write it under `program: |`, or name a file beside the scenario with `program_file:`".into(),
            });
        }
        anydice::check(params.text()).map_err(|r| problem(&r))?;
        // Estimated far over the budget: refused by its price, unrun.
        if params.far_over().is_some() {
            return Ok(());
        }
        // Else priced by a run held to the default budget (the estimate
        // is within 10x; the run's count is exact), refused with its place
        // if it fails.
        match params.priced() {
            Err(r @ Refusal::Calculation(_)) if !is_over_budget(r) => Err(problem(r)),
            _ => Ok(()),
        }
    }

    fn cost(params: &Params) -> Cost {
        if params.far_over().is_some() {
            let seconds = params.estimate().map_or(f64::INFINITY, Estimate::seconds);
            return Cost {
                seconds,
                key: "program",
                ..Cost::default()
            };
        }
        let (seconds, values) = match params.priced() {
            Ok(report) => (
                report.steps / STEPS_PER_SECOND,
                report
                    .outputs
                    .iter()
                    .filter_map(|o| o.outcomes.as_ref())
                    .map(|o| o.iter().count() as f64)
                    .sum(),
            ),
            // Past the pricing run: at least twice the default budget.
            Err(_) => (PRICING_SECONDS * 2.0, 0.0),
        };
        Cost {
            seconds,
            bytes: values * 400.0,
            key: "program",
            ..Cost::default()
        }
        .with_tables(values, 40.0)
    }

    fn cost_detail(params: &Params) -> Option<String> {
        params.far_over()
    }

    fn analyse(params: &Params, _: &Progress) -> Analysed {
        // Validated and admitted: the watchdog holds it to the budget. A
        // program whose pricing run was cut short may still fail later:
        // that stops the command with the program's place, as a refusal.
        // A program admitted past its estimate (a raised budget) runs once,
        // unpriced.
        let finished = match params.far_over() {
            Some(_) => None,
            None => params.priced().as_ref().ok().cloned(),
        };
        let report = match finished.map_or_else(|| anydice::run(params.text(), f64::INFINITY), Ok) {
            Ok(report) => report,
            Err(refusal) => {
                let problem = problem(&refusal);
                crate::limits::stop_failed(&format!("{}: {}", problem.key, problem.message))
            }
        };
        // Each output is named as AnyDice labels it; its "expression" is
        // its place among the program's outputs.
        let places: Vec<String> = (1..=report.outputs.len())
            .map(|i| format!("output {i}"))
            .collect();
        let named: Vec<(&str, &str)> = report
            .outputs
            .iter()
            .zip(&places)
            .filter(|(o, _)| o.outcomes.is_some())
            .map(|(o, place)| (o.name.as_str(), place.as_str()))
            .collect();
        let outcomes: Vec<Outcomes> = report
            .outputs
            .iter()
            .filter_map(|o| o.outcomes.clone())
            .collect();
        Analysed {
            outputs: report
                .outputs
                .iter()
                .map(|o| OutputName {
                    name: o.name.clone(),
                    empty: o.outcomes.is_none(),
                })
                .collect(),
            dice: analyse_named(&named, &outcomes),
            warnings: report.warnings,
        }
    }

    fn contract<S: serde::Serializer>(
        analysed: &Analysed,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        Contract {
            cases: &analysed.dice.results.rolls,
            comparisons: &analysed.dice.results.comparisons,
            empty: analysed
                .outputs
                .iter()
                .filter(|o| o.empty)
                .map(|o| o.name.as_str())
                .collect(),
            warnings: &analysed.warnings,
        }
        .serialize(serializer)
    }

    const FILE_KEYS: &'static [&'static str] = &["program_file"];

    /// A program read from its file is the What if? form's `program` (the
    /// form leaves the file out: see [`Analysis::FILE_KEYS`]).
    fn resolved_value(params: &Params, key: &str) -> Option<String> {
        params.program_file.as_ref()?;
        match key {
            "program" => params.program.as_deref().map(crate::flow::quoted),
            _ => None,
        }
    }

    fn data_files(params: &Params) -> Vec<(&'static str, String)> {
        params
            .program_file
            .iter()
            .map(|f| ("program_file", f.clone()))
            .collect()
    }

    fn read_data(
        params: &mut Params,
        _key: &'static str,
        rows: &mut dyn std::io::BufRead,
    ) -> Result<(), DataError> {
        if params.program.is_some() {
            return Err(DataError {
                line: 1,
                column: 1,
                message: "the scenario has both `program:` and `program_file:`: keep one".into(),
            });
        }
        let mut text = String::new();
        rows.read_to_string(&mut text).map_err(|e| DataError {
            line: 1,
            column: 1,
            message: format!("cannot read the program: {e}"),
        })?;
        params.program = Some(text);
        Ok(())
    }
}

fn is_over_budget(refusal: &Refusal) -> bool {
    matches!(refusal, Refusal::Calculation(p) if p.message.contains("over its budget"))
}

/// The most values an output may have for its simulation to count each
/// one; a wider output is named among the figures not replayed.
const MAX_VALUES: usize = 10_000;

/// What one step of the replay (an expression evaluated or a die rolled)
/// costs in `verify`'s steps (5 × 10⁷ a second): measured at about 60 ns
/// (the crit-on-twenty scenario, some 70 steps a run, runs 250,000 times a
/// second on one thread).
const VERIFY_STEPS_PER_STEP: f64 = 3.0;

/// Runs of the program made to price a trial and to find, before any
/// trial, what the replay cannot do.
const PILOT_RUNS: u64 = 32;

/// The program run again and again by the sampling interpreter
/// (`simulate::anydice`: every die rolled, from the language's rules, never
/// through the exact distributions); each run sets every output's value
/// beside its exact distribution, mean and variance (as `dice` checks a
/// roll). The empty outputs, outputs of more than [`MAX_VALUES`] values,
/// and a program the replay cannot run (found by [`PILOT_RUNS`] runs made
/// first, which also price a trial) are named as not replayed.
impl Simulate for Anydice {
    fn simulation(params: &Params, analysed: &Analysed) -> Simulation {
        let mut simulation = Simulation::of(Vec::new());
        // `verify` runs natively: the browser's engine leaves the replay out.
        if cfg!(feature = "browser") {
            return simulation;
        }
        let program = match anydice::read(params.text()) {
            Ok(statements) => std::sync::Arc::new(statements),
            Err(refusal) => {
                simulation.not_replayed.push(format!(
                    "every output: the program does not read ({refusal})"
                ));
                return simulation;
            }
        };
        if let Some(reads) = sampling::carried(&program) {
            simulation.not_replayed.push(format!(
                "every output: the function {reads} before it surely sets it, so a case of one call may see what an earlier case set (the cases share the function's variables); the replay runs each call afresh"
            ));
            return simulation;
        }
        let (mut events, mut means) = (Vec::new(), Vec::new());
        let mut rolls = analysed.dice.results.rolls.iter();
        let mut figures: Vec<Option<SimulatedRoll>> = Vec::new();
        for output in &analysed.outputs {
            let roll = match output.empty {
                true => None,
                false => rolls.next(),
            };
            figures.push(match roll {
                None => {
                    simulation.not_replayed.push(format!(
                        "{}: the empty die, which has no value to roll",
                        output.name
                    ));
                    None
                }
                Some(roll) if roll.outcomes.len() > MAX_VALUES => {
                    simulation.not_replayed.push(format!(
                        "{}: {} values, more than the {MAX_VALUES} a simulation counts one by one",
                        output.name,
                        roll.outcomes.len()
                    ));
                    None
                }
                Some(roll) => Some(SimulatedRoll::add(
                    roll,
                    &format!("{}: ", output.name),
                    &mut events,
                    &mut means,
                )),
            });
        }
        if figures.iter().all(Option::is_none) {
            return simulation;
        }
        let failed = events.len();
        events.push(Event::new("a run that failed", num_traits::Zero::zero()));
        let wanted: Vec<bool> = figures.iter().map(Option::is_some).collect();
        let is_wanted = move |i: usize| wanted.get(i).copied().unwrap_or(false);
        let names: Vec<&str> = analysed.outputs.iter().map(|o| o.name.as_str()).collect();
        match pilot(&program, &names, &is_wanted) {
            Ok(steps) => {
                let trial: TrialFn = Box::new(move |sampler, trial| {
                    match sampling::run(&program, &is_wanted, sampler) {
                        Ok(run) => {
                            for (i, figures) in figures.iter().enumerate() {
                                let Some(figures) = figures else { continue };
                                match run.outputs.get(i).and_then(|o| o.value) {
                                    Some(value) => figures.record(trial, value),
                                    None => figures.record_impossible(trial),
                                }
                            }
                        }
                        Err(_) => trial.hit(failed),
                    }
                });
                simulation.experiments.push(Experiment {
                    label: "the program".into(),
                    events,
                    means,
                    steps_per_trial: (steps * VERIFY_STEPS_PER_STEP).max(1.0),
                    trial,
                });
            }
            Err(why) => simulation
                .not_replayed
                .push(format!("every output: the replay cannot run it: {why}")),
        }
        simulation
    }
}

/// Runs the program [`PILOT_RUNS`] times: the mean steps of a run, or why
/// the replay cannot run it (a feature it does not roll, outputs that do
/// not line up with the exact run's).
fn pilot(
    program: &[anydice::syntax::Statement],
    names: &[&str],
    wanted: &dyn Fn(usize) -> bool,
) -> Result<f64, String> {
    let mut sampler = Sampler::new(DEFAULT_SEED, "anydice pilot");
    let mut steps = 0;
    for _ in 0..PILOT_RUNS {
        let run = sampling::run(program, wanted, &mut sampler)?;
        if run.outputs.len() != names.len() {
            return Err(format!(
                "it showed {} outputs where the exact run shows {}",
                run.outputs.len(),
                names.len()
            ));
        }
        for (shown, name) in run.outputs.iter().zip(names) {
            if shown.name.as_ref().is_some_and(|n| n != name) {
                return Err(format!(
                    "it named an output {:?} where the exact run names it {name:?}",
                    shown.name.as_deref().unwrap_or("")
                ));
            }
        }
        steps += run.steps;
    }
    Ok(steps as f64 / PILOT_RUNS as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(program: &str) -> Params {
        Params {
            program: Some(program.into()),
            program_file: None,
            estimated: Kept::default(),
            priced: Kept::default(),
        }
    }

    #[test]
    fn outputs_become_cases_with_exact_figures() {
        let p = params("output 2d6 named \"two dice\"\noutput d{}\noutput [highest 1 of 2d20] named \"advantage\"");
        Anydice::validate(&p).unwrap();
        let a = Anydice::analyse(&p, &Progress::new(false));
        assert_eq!(a.outputs.len(), 3);
        assert!(a.outputs[1].empty);
        let rolls = &a.dice.results.rolls;
        assert_eq!(rolls.len(), 2);
        assert_eq!(rolls[0].name, "two dice");
        assert_eq!(crate::engine::exact_string(&rolls[0].mean), "7/1");
        // Advantage: P(max of 2d20 = 20) = 39/400.
        assert_eq!(
            crate::engine::exact_string(&rolls[1].outcomes.last().unwrap().probability),
            "39/400"
        );
        assert_eq!(a.dice.results.comparisons.len(), 1);
    }

    #[test]
    fn bad_programs_are_refused_with_their_line() {
        let e = Anydice::validate(&params("output 1\noutput [nope]")).unwrap_err();
        assert!(
            e.message
                .starts_with("line 2, column 8 of the program: there is no function"),
            "{}",
            e.message
        );
        let e = Anydice::validate(&params("X: d6\nif X { output 1 }")).unwrap_err();
        assert!(e.message.contains("Boolean values"), "{}", e.message);
        let mut none = params("");
        none.program = None;
        let e = Anydice::validate(&none).unwrap_err();
        assert!(e.message.starts_with("no program"), "{}", e.message);
    }

    #[test]
    fn a_runaway_program_is_priced_over_the_default_budget() {
        // A sequence of 10^11 numbers is priced at once, not built.
        let p = params("loop A over {1..100000000000} { X: A }");
        Anydice::validate(&p).unwrap();
        assert!(Anydice::cost(&p).seconds >= PRICING_SECONDS);
        assert!(Anydice::cost(&params("output 3d6")).seconds < 0.01);
    }

    #[test]
    fn a_program_estimated_far_over_is_refused_without_a_run() {
        let p = params("output 1\nfunction: f X:n { result: X }\noutput [f d1000000 * d1000000]");
        Anydice::validate(&p).unwrap();
        let cost = Anydice::cost(&p);
        assert!(cost.seconds > 10.0 * PRICING_SECONDS, "{cost:?}");
        let e = crate::limits::Budget::default()
            .admit_explained(&cost, Anydice::cost_detail(&p))
            .unwrap_err();
        assert!(
            e.message.contains("estimated before running at about")
                && e.message
                    .contains("the dearest part is the call [f _] at line 3"),
            "{}",
            e.message
        );
        // Refused by the estimate alone: the program never ran.
        assert!(p.priced.0.get().is_none());
        // Within reach of the budget, the run prices it as before.
        let near = params("output 3d6");
        assert!(Anydice::cost_detail(&near).is_none());
        assert!(Anydice::cost(&near).seconds < 0.01);
        assert!(near.priced.0.get().is_some());
    }

    #[test]
    fn the_pricing_run_is_made_once_and_kept_out_of_the_cache_key() {
        let p = params("output 3d6");
        let before = format!("{p:?}");
        Anydice::validate(&p).unwrap();
        let first = p.priced() as *const _;
        let _ = Anydice::cost(&p);
        let _ = Anydice::analyse(&p, &Progress::new(false));
        // The same run served all three, and the key did not move.
        assert!(std::ptr::eq(first, p.priced()));
        assert!(p.priced.0.get().is_some_and(|r| r.is_ok()));
        assert_eq!(format!("{p:?}"), before);
    }

    /// The program validated, computed exactly and set up for simulation.
    fn simulated(program: &str) -> (Analysed, Simulation) {
        let p = params(program);
        Anydice::validate(&p).unwrap();
        let analysed = Anydice::analyse(&p, &Progress::new(false));
        let simulation = Anydice::simulation(&p, &analysed);
        (analysed, simulation)
    }

    /// Every output replayed and within its limits at 20,000 runs; the
    /// exact figures checked.
    fn agrees(program: &str) -> usize {
        let (_, simulation) = simulated(program);
        assert!(
            simulation.not_replayed.is_empty(),
            "{:?}",
            simulation.not_replayed
        );
        assert_agrees(&simulation, 20_000)
    }

    use crate::analyses::simulate::assert_agrees;

    #[test]
    fn three_dice_replay_with_every_value_the_mean_and_the_variance() {
        // 16 values, the impossible one, the failed run, two means.
        assert_eq!(agrees("output 3d6"), 16 + 1 + 1 + 2);
        // Priced by its pilot runs: three expressions and three dice, at
        // three of verify's steps each.
        let (_, simulation) = simulated("output 3d6");
        assert_eq!(simulation.experiments[0].steps_per_trial, 18.0);
    }

    #[test]
    fn every_use_of_a_die_is_a_roll_of_its_own() {
        // X + X is 2d6 (11 values), not 2 × d6 (6 values, all even).
        let (analysed, _) = simulated("X: d6\noutput X + X");
        assert_eq!(analysed.dice.results.rolls[0].outcomes.len(), 11);
        assert_eq!(agrees("X: d6\noutput X + X"), 11 + 1 + 1 + 2);
        // The same through a die parameter, and a collection bound to a name.
        agrees("function: twice D:d { result: D + D }\noutput [twice d6]\nP: 2d4\noutput P + P");
    }

    #[test]
    fn a_crit_on_twenty_over_a_number_parameter_replays() {
        agrees(
            "function: attack ROLL:n {\n  if ROLL = 20 { result: 2d8 + 3 }\n  if ROLL + 5 >= 16 { result: 1d8 + 3 }\n  result: 0\n}\noutput [attack d20] named \"one attack\"\noutput [attack [highest 1 of 2d20]]\noutput [attack [lowest 1 of 2d20]]",
        );
    }

    #[test]
    fn a_collection_passed_to_a_sequence_parameter_replays() {
        agrees(
            "function: successes ROLL:s {\n  if ROLL = 1 { result: 0 }\n  result: [count {5,6} in ROLL]\n}\noutput [successes 5d6]\noutput [count {5,6} in 5d6]\nfunction: top R:s { result: 1@R * 10 + 3@R }\noutput [top 3d4]",
        );
    }

    #[test]
    fn highest_lowest_and_picked_places_replay_in_both_orders() {
        agrees("output [highest 2 of 4d6]\noutput [lowest 1 of d6 and d8]\noutput [middle 1 of 3d6]\noutput 1@3d6\noutput {1,3}@4d4");
        agrees("set \"position order\" to \"lowest first\"\noutput 1@3d6\noutput [highest 2 of 4d6]\nfunction: first R:s { result: 1@R }\noutput [first 3d6]");
    }

    #[test]
    fn an_explosion_rolls_again_on_the_highest_face_up_to_the_depth() {
        let program = "set \"explode depth\" to 2\noutput [explode d6]\nX: 2d4\noutput [explode X]\noutput [maximum of X - d3]";
        let (analysed, _) = simulated(program);
        // d6 exploding twice reaches 18, and no further.
        assert_eq!(
            analysed.dice.results.rolls[0]
                .outcomes
                .last()
                .unwrap()
                .value,
            18
        );
        agrees(program);
    }

    #[test]
    fn loops_conditions_and_named_outputs_replay() {
        let program = "function: f X:n {\n  if X > 4 { result: 10 } else if X = 1 { result: -1 } else { result: X }\n}\nloop N over {1..3} {\n  output Nd4 + [f d6] named \"[N]d4 and f\"\n}\nS: {2, 4}\noutput d6 + S named \"d6 plus [S]\"";
        let (analysed, simulation) = simulated(program);
        assert_eq!(analysed.outputs[1].name, "2d4 and f");
        assert_eq!(analysed.outputs[3].name, "d6 plus {?}");
        assert_eq!(simulation.experiments.len(), 1);
        agrees(program);
    }

    #[test]
    fn a_case_that_gives_the_empty_die_is_dropped_by_rolling_again() {
        // Ones rerolled until they are not: 2 to 6, a fifth each.
        let program = "function: no ones R:n { if R = 1 { result: d{} } result: R }\noutput [no ones d6]\noutput [no ones 2d6]";
        let (analysed, _) = simulated(program);
        assert_eq!(
            crate::engine::exact_string(&analysed.dice.results.rolls[0].outcomes[0].probability),
            "1/5"
        );
        agrees(program);
    }

    #[test]
    fn recursion_is_cut_at_the_maximum_function_depth() {
        // A 6 rolls again, three calls deep: the fourth call is the empty
        // die, which is 0 beside `+` (the first output reaches 6 + 6 + 6)
        // and, passed on as the result of a case, drops that case (the
        // second output never shows a 6).
        let program = "set \"maximum function depth\" to 3\nfunction: again N:n {\n  if N = 6 { result: 6 + [again d6] }\n  result: N\n}\noutput [again d6]\nfunction: deeper N:n {\n  if N = 6 { result: [deeper d6] }\n  result: N\n}\noutput [deeper d6]";
        let (analysed, _) = simulated(program);
        assert_eq!(analysed.warnings.len(), 1);
        let rolls = &analysed.dice.results.rolls;
        assert_eq!(rolls[0].outcomes.last().unwrap().value, 18);
        assert_eq!(rolls[1].outcomes.last().unwrap().value, 5);
        agrees(program);
    }

    #[test]
    fn an_argument_is_rolled_only_where_it_is_used() {
        // Both branches are arguments: read at their use, one a level, the
        // walk costs a dozen calls, not 2^12 (the exact run's count).
        let program = "function: if C:n then A else B {\n  if C { result: A } else { result: B }\n}\nfunction: walk N:n {\n  if N <= 0 { result: 0 }\n  result: [if d2 = 2 then 1 + [walk N - 1] else [walk N - 1]]\n}\nset \"maximum function depth\" to 40\noutput [walk 12]\noutput [maximum of d{}] + d2";
        let (analysed, simulation) = simulated(program);
        assert_eq!(analysed.dice.results.rolls[0].outcomes.len(), 13);
        assert!(
            simulation.experiments[0].steps_per_trial < 3000.0,
            "{}",
            simulation.experiments[0].steps_per_trial
        );
        agrees(program);
    }

    #[test]
    fn rolled_counts_faces_and_coercions_replay() {
        agrees(
            "output d4d6\noutput 3d{1,1,2}\noutput -2d4\noutput 2d(d4)\noutput (d6 > 3) + (d6 = 2)\noutput {1,2,3}\noutput #(4d6) + d2\noutput 2@{4,5,6} + d{}\noutput d6 * d4 - 3\noutput [absolute d6 - 4]\noutput [sort 3d6]\noutput d6 / 2 + [highest of d4 and 2]",
        );
    }

    #[test]
    fn wrong_exact_figures_fail_the_check() {
        // 3d6 rolled against 2d6's figures: the check must notice.
        let three = params("output 3d6");
        let two = params("output 2d6");
        Anydice::validate(&two).unwrap();
        let wrong = Anydice::analyse(&two, &Progress::new(false));
        let simulation = Anydice::simulation(&three, &wrong);
        assert_eq!(simulation.experiments.len(), 1);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            assert_agrees(&simulation, 20_000)
        }));
        assert!(caught.is_err(), "2d6's figures passed for 3d6");
    }

    #[test]
    fn what_cannot_be_replayed_is_named_with_the_reason() {
        let (_, simulation) = simulated("output d{}\noutput 2d6");
        assert_eq!(simulation.experiments.len(), 1);
        assert_eq!(
            simulation.not_replayed,
            ["output 1: the empty die, which has no value to roll"]
        );
        // A die's faces listed in a sequence: a roll cannot tell them.
        let (_, simulation) = simulated("output d{2d6}");
        assert!(simulation.experiments.is_empty());
        assert!(
            simulation.not_replayed[0].contains("a die inside a sequence"),
            "{:?}",
            simulation.not_replayed
        );
        // The highest face of a function's result.
        let (_, simulation) =
            simulated("function: f N:n { result: N + 1 }\noutput [explode [f d6]]");
        assert!(simulation.experiments.is_empty());
        assert!(
            simulation.not_replayed[0].contains("needs the highest face of D"),
            "{:?}",
            simulation.not_replayed
        );
    }
}
