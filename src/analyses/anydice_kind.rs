//! The `anydice` kind: an AnyDice program (`program: |`, or
//! `program_file:` beside the scenario) run exactly by the front end in
//! `lang::anydice`; each output is a named distribution, analysed as the
//! `dice` kind analyses its rolls.

use super::dice::{self, analyse_named};
use super::observations::DataError;
use super::simulate::{Simulate, Simulation};
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

impl Simulate for Anydice {
    fn simulation(_params: &Params, _analysed: &Analysed) -> Simulation {
        Simulation {
            experiments: Vec::new(),
            not_replayed: vec![
                "every output: an AnyDice program is not replayed yet (fairdice has no sampling interpreter for the language; its figures are checked against AnyDice's own answers instead)".into(),
            ],
        }
    }
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
}
