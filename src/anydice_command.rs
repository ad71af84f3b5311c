//! `fairdice anydice FILE`: an AnyDice program run exactly, each output
//! printed as `roll` prints a roll, or as JSON.

use crate::engine::{exact_string, ratio, to_f64, Outcomes};
use crate::error::Error;
use crate::lang::anydice::{self, Refusal, Report};
use crate::layout::format;
use serde_json::{json, Value};
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
    // The steps priced are the first guard; the watchdog holds the process
    // to the budget whatever they said.
    let _phase = crate::limits::compute(format!("running the AnyDice program {file}"));
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

/// `{"outputs": [{"name", "outcomes": [{"value", "probability", "percent"}]}], "warnings"}`;
/// `probability` is exact, `percent` a float for plotting.
pub fn json(report: &Report) -> Value {
    let outputs: Vec<Value> = report
        .outputs
        .iter()
        .map(|output| {
            let outcomes: Vec<Value> = output.outcomes.as_ref().map_or_else(Vec::new, |o| {
                let total = o.total();
                o.iter()
                    .map(|(value, ways)| {
                        let p = ratio(ways, &total);
                        json!({"value": value, "probability": exact_string(&p), "percent": to_f64(&p) * 100.0})
                    })
                    .collect()
            });
            let mut entry = json!({"name": output.name, "outcomes": outcomes});
            if let Some(o) = &output.outcomes {
                entry["mean"] = json!(exact_string(&o.mean()));
                entry["variance"] = json!(exact_string(&o.variance()));
            }
            entry
        })
        .collect();
    json!({"outputs": outputs, "warnings": report.warnings})
}

/// Each output's name, mean and standard deviation, and its table with a
/// bar per value.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    for warning in &report.warnings {
        out.push_str(&format!("warning: {warning}\n"));
    }
    for output in &report.outputs {
        let Some(o) = &output.outcomes else {
            out.push_str(&format!("{}: the empty die (no outcome)\n\n", output.name));
            continue;
        };
        out.push_str(&format!(
            "{}: mean {}, standard deviation {}\n",
            output.name,
            format::decimal(&o.mean()),
            deviation(o)
        ));
        let total = o.total();
        let highest = o.iter().map(|(_, w)| w).max().cloned().unwrap_or_default();
        let width = o
            .iter()
            .map(|(v, _)| v.to_string().len())
            .max()
            .unwrap_or(1);
        for (value, ways) in o.iter() {
            let p = ratio(ways, &total);
            let share = to_f64(&ratio(ways, &highest));
            out.push_str(&format!(
                "{value:>width$}  {:>12}  {}\n",
                format::percent(&p),
                crate::roll_command::bar(share)
            ));
        }
        out.push('\n');
    }
    out
}

/// The standard deviation, which is irrational in general: a float, said so.
fn deviation(o: &Outcomes) -> String {
    format!("≈ {:.4}", to_f64(&o.variance()).sqrt())
}
