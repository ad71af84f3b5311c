//! `fairdice anydice FILE`: an AnyDice program run exactly, each output
//! printed as `roll` prints a roll, or as JSON.

use crate::analyses::dice::{self, Roll};
use crate::engine::{exact_string, to_f64};
use crate::error::Error;
use crate::lang::anydice::{self, Refusal, Report};
use crate::layout::format;
use serde::Serialize;
use std::path::Path;

/// The most bytes of program read: AnyDice's own form takes far less.
pub const MAX_PROGRAM_BYTES: u64 = 1 << 20;

/// The program's text from `path`, or standard input for `-`.
pub fn read(path: &Path) -> Result<String, Error> {
    use std::io::Read;
    let mut text = String::new();
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    if path == Path::new("-") {
        std::io::stdin()
            .take(MAX_PROGRAM_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(io)?;
    } else {
        std::fs::File::open(path)
            .map_err(io)?
            .take(MAX_PROGRAM_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(io)?;
    }
    if text.len() as u64 > MAX_PROGRAM_BYTES {
        return Err(Error::Usage(format!(
            "{}: longer than {MAX_PROGRAM_BYTES} bytes: an AnyDice program is a page of text",
            path.display()
        )));
    }
    Ok(text)
}

/// Runs `source` (read from `file`, as messages name it) within `seconds`.
pub fn run(file: &str, source: &str, seconds: f64) -> Result<Report, Error> {
    // The static estimate refuses what is far over the budget; the steps
    // charged while running are the next guard; the watchdog holds the
    // process to the budget whatever they said.
    let _phase = crate::limits::compute(format!("running the AnyDice program {file}"));
    // Estimated far over the budget before running: refused at once.
    if let Ok(estimate) = anydice::price::estimate(source) {
        if let Some(message) = estimate.far_over(seconds) {
            let at = estimate.dearest.map(|(_, at)| at).unwrap_or_default();
            return Err(Error::Source {
                file: file.to_string(),
                line: at.line.max(1),
                column: at.column.max(1),
                message,
            });
        }
    }
    anydice::run(source, seconds).map_err(|refusal| {
        let problems = match refusal {
            Refusal::Syntax(problems) => problems,
            Refusal::Calculation(problem) => vec![problem],
        };
        let mut errors: Vec<Error> = problems
            .into_iter()
            .map(|p| Error::Source {
                file: file.to_string(),
                line: p.at.line.max(1),
                column: p.at.column.max(1),
                message: p.message,
            })
            .collect();
        if errors.len() == 1 {
            errors.pop().expect("one")
        } else {
            Error::Many(errors)
        }
    })
}

/// Each output's exact figures, computed as the `dice` kind computes a
/// roll's; `None` for the empty die.
fn summaries(report: &Report) -> Vec<(&str, Option<Roll>)> {
    report
        .outputs
        .iter()
        .map(|output| {
            let roll = output
                .outcomes
                .as_ref()
                .map(|o| dice::summary(&output.name, "", o));
            (output.name.as_str(), roll)
        })
        .collect()
}

/// `{"outputs": [{"name", "outcomes": [{"value", "probability", "percent"}]}], "warnings"}`;
/// `probability` is exact, `percent` a float for plotting. Written
/// straight to the output by serde (a program's outputs may hold tens of
/// thousands of values: no tree of JSON values is built first).
pub fn json(report: &Report) -> Json<'_> {
    let outputs = summaries(report)
        .into_iter()
        .map(|(name, roll)| {
            let Some(roll) = roll else {
                return JsonOutput {
                    name,
                    outcomes: Vec::new(),
                    mean: None,
                    variance: None,
                };
            };
            JsonOutput {
                name,
                outcomes: roll
                    .outcomes
                    .iter()
                    .map(|o| JsonOutcome {
                        value: o.value,
                        probability: exact_string(&o.probability),
                        percent: to_f64(&o.probability) * 100.0,
                    })
                    .collect(),
                mean: Some(exact_string(&roll.mean)),
                variance: Some(exact_string(&roll.variance)),
            }
        })
        .collect();
    Json {
        outputs,
        warnings: &report.warnings,
    }
}

/// See [`json`].
#[derive(Serialize)]
pub struct Json<'a> {
    outputs: Vec<JsonOutput<'a>>,
    warnings: &'a [String],
}

#[derive(Serialize)]
struct JsonOutput<'a> {
    name: &'a str,
    outcomes: Vec<JsonOutcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variance: Option<String>,
}

#[derive(Serialize)]
struct JsonOutcome {
    value: i64,
    probability: String,
    percent: f64,
}

/// Each output's name, mean and standard deviation, and its table with a
/// bar per value.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    for warning in &report.warnings {
        out.push_str(&format!("warning: {warning}\n"));
    }
    for (name, roll) in summaries(report) {
        let Some(roll) = roll else {
            out.push_str(&format!("{name}: the empty die (no outcome)\n\n"));
            continue;
        };
        // The standard deviation is irrational in general: a float, said so.
        out.push_str(&format!(
            "{name}: mean {}, standard deviation ≈ {:.4}\n",
            format::decimal(&roll.mean),
            to_f64(&roll.variance).sqrt()
        ));
        let width = roll
            .outcomes
            .iter()
            .map(|o| o.value.to_string().len())
            .max()
            .unwrap_or(1);
        for (o, bar) in roll
            .outcomes
            .iter()
            .zip(crate::roll_command::bars(&roll.outcomes))
        {
            out.push_str(&format!(
                "{:>width$}  {:>12}  {bar}\n",
                o.value,
                format::percent(&o.probability)
            ));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(program: &str) -> Report {
        anydice::run(program, 2.0).unwrap()
    }

    #[test]
    fn json_names_each_output_with_its_exact_figures() {
        let r = report("output 2d6 named \"two\"\noutput d{}\noutput d4");
        let j = serde_json::to_value(json(&r)).unwrap();
        let outputs = j["outputs"].as_array().unwrap();
        assert_eq!(outputs.len(), 3);
        assert_eq!(outputs[0]["name"], "two");
        // 2d6: 7 in 6 of 36 ways; mean 7, variance 35/6.
        assert_eq!(outputs[0]["outcomes"][5]["value"], 7);
        assert_eq!(outputs[0]["outcomes"][5]["probability"], "1/6");
        assert_eq!(outputs[0]["mean"], "7/1");
        assert_eq!(outputs[0]["variance"], "35/6");
        // The empty die has no outcomes, and no mean.
        assert_eq!(outputs[1]["name"], "output 2");
        assert_eq!(outputs[1]["outcomes"], serde_json::json!([]));
        assert!(outputs[1].get("mean").is_none());
        assert_eq!(outputs[2]["outcomes"][0]["probability"], "1/4");
        assert_eq!(outputs[2]["outcomes"][0]["percent"], 25.0);
    }

    #[test]
    fn text_has_a_table_with_a_bar_per_value() {
        let t = text(&report("output 2d6 named \"two\"\noutput d{}"));
        assert!(
            t.starts_with("two: mean 7, standard deviation ≈ 2.4152\n"),
            "{t}"
        );
        // The mode's bar is the widest, the ends' a sixth of it.
        let seven = t
            .lines()
            .find(|l| l.trim_start().starts_with("7 "))
            .unwrap();
        let two = t
            .lines()
            .find(|l| l.trim_start().starts_with("2 "))
            .unwrap();
        assert_eq!(seven.matches('█').count(), 30, "{seven}");
        assert_eq!(two.matches('█').count(), 5, "{two}");
        assert!(t.contains("output 2: the empty die (no outcome)"), "{t}");
    }
}
