//! The `fairdice` command line: parse arguments, run the library, report
//! errors on stderr with exit code 1.

use clap::{Parser, Subcommand};
use fairdice::analyses::Budget;
use fairdice::build::{self, Project};
use fairdice::site::scenario_json;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "fairdice",
    version,
    about = "Exact fairness analyses of dice procedures, as a static site"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render content/ and templates/ into site/.
    Build {
        /// The project folder (holding content/ and templates/).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Where to write the site (default: ROOT/site).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Build in memory and compare with the site on disk; exit 1 if it differs.
        #[arg(long)]
        check: bool,
        /// Multiply the per-scenario time and memory budget by this factor.
        #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
        budget: f64,
    },
    /// Compute scenario files and print their exact results.
    Eval {
        /// Scenario YAML files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the results as one JSON document (the stable contract).
        #[arg(long)]
        json: bool,
        /// Multiply the per-scenario time and memory budget by this factor.
        #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
        budget: f64,
    },
    /// Write one scenario as a single self-contained HTML file.
    Report {
        /// The scenario YAML file.
        file: PathBuf,
        /// The HTML file to write.
        #[arg(short, long)]
        output: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> fairdice::error::Result<ExitCode> {
    match command {
        Command::Report { file, output } => {
            fairdice::site::standalone::write_report(&file, &output)?;
            eprintln!("wrote {}", output.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Build {
            root,
            out,
            check,
            budget,
        } => {
            let mut project = Project::at(root);
            project.budget = Budget { factor: budget };
            if let Some(out) = out {
                project.out = out;
            }
            if check {
                let diff = build::check(&project)?;
                if diff.is_clean() {
                    eprintln!("{} is up to date", project.out.display());
                    return Ok(ExitCode::SUCCESS);
                }
                for (label, paths) in [
                    ("stale", &diff.stale),
                    ("missing", &diff.missing),
                    ("extra", &diff.extra),
                ] {
                    for path in paths {
                        eprintln!("{label}: {}", project.out.join(path).display());
                    }
                }
                eprintln!(
                    "error: {} differs from a fresh build: run `fairdice build`",
                    project.out.display()
                );
                return Ok(ExitCode::FAILURE);
            }
            let summary = build::build(&project)?;
            eprintln!(
                "built {}: {} pages, {} scenarios, {} files in {:.2} s",
                project.out.display(),
                summary.pages,
                summary.scenarios,
                summary.files,
                summary.elapsed.as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Eval {
            files,
            json,
            budget,
        } => {
            let scenarios = build::load_scenarios(&files, &Budget { factor: budget })?;
            let reports = build::compute(&scenarios);
            let documents: Vec<serde_json::Value> = scenarios
                .iter()
                .zip(&reports)
                .map(|(s, r)| scenario_json(s, r))
                .collect();
            if json {
                let doc = serde_json::json!({ "scenarios": documents });
                println!(
                    "{}",
                    serde_json::to_string_pretty(&doc).expect("JSON values serialise")
                );
            } else {
                for (scenario, report) in scenarios.iter().zip(&reports) {
                    println!("{} [{}]", scenario, scenario.params.kind());
                    for table in report.tables() {
                        println!(
                            "  table {}: {} ({} rows)",
                            table.id,
                            table.caption,
                            table.rows.len()
                        );
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A positive, finite budget factor.
fn parse_budget(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 => Ok(f),
        _ => Err(format!(
            "expected a positive number such as 4, found {text:?}"
        )),
    }
}
