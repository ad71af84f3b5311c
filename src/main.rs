//! The `fairdice` command line.
//!
//! Exit codes: 0 success, 1 a build or gate failure, 2 a usage error (clap's
//! own, or a folder argument that cannot be used). Everything but `eval`'s
//! results goes to stderr; one summary line closes each build.

use clap::{Args, Parser, Subcommand};
use fairdice::analyses::dice::Notation;
use fairdice::analyses::Budget;
use fairdice::build::{self, Project, Summary};
use fairdice::cache::Cache;
use fairdice::error::Error;
use fairdice::progress::Progress;
use fairdice::shard::Shard;
use fairdice::site::Computed;
use fairdice::ui::Ui;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One request for more memory than the budget stops the command with the
/// watchdog's message, where the system's allocator would abort.
#[global_allocator]
static ALLOCATOR: fairdice::limits::Guarded = fairdice::limits::Guarded;

#[derive(Parser)]
#[command(
    name = "fairdice",
    version,
    about = "Exact fairness analyses of dice procedures, as a static site"
)]
struct Cli {
    /// Print errors only.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Also print what happened to each scenario.
    #[arg(long, short, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

/// Where the project is and where its site goes.
#[derive(Args)]
struct SiteArgs {
    /// The project folder (holding content/ and optionally templates/).
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Where to write the site (default: ROOT/site).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Compute every scenario afresh, without reading or writing the cache.
    #[arg(long)]
    no_cache: bool,
    /// Multiply the time and memory budgets by this factor (0.001 to 1000).
    #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
    budget: f64,
}

/// Each subcommand's arguments are defined only when it is the one run
/// (or its help is asked for): the parser is built afresh at every start,
/// and a short command (an AnyDice program, a roll) spent a tenth of its
/// time building the arguments of commands it does not run.
#[derive(Subcommand)]
#[command(defer = true)]
enum Command {
    /// Render content/ and templates/ into site/.
    Build {
        #[command(flatten)]
        site: SiteArgs,
        /// Build in memory and compare with the site on disk; exit 1 if it
        /// differs. Every scenario is computed afresh: the cache is not read.
        #[arg(long)]
        check: bool,
        /// Compute only share I of N of the scenarios into the result cache
        /// (.fairdice-cache/) and write no site: one machine's part of a
        /// build split across N (a CI matrix). The shares are decided by a
        /// stable hash of each computation, balanced by estimated cost, so
        /// every machine running the same fairdice on the same content
        /// agrees. Copy the shards' cache files into one .fairdice-cache/,
        /// then run `fairdice build --require-cached` to render the site.
        #[arg(
            long,
            value_name = "I/N",
            value_parser = parse_shard,
            conflicts_with_all = ["check", "require_cached", "no_cache"],
        )]
        shard: Option<Shard>,
        /// Compute nothing: fail, naming each scenario whose results are not
        /// in the result cache (as after merging the caches of a sharded
        /// build). Entries are checked against each scenario's whole key
        /// (kind, parameters, fairdice version and engine digest) as always.
        #[arg(long, conflicts_with_all = ["check", "no_cache"])]
        require_cached: bool,
    },
    /// For CI: run every scenario's gates and check that the site on disk is
    /// current, computing every scenario afresh (the cache is never read).
    Check {
        #[command(flatten)]
        site: SiteArgs,
        /// Fail when a translation has outdated or missing rules (they are
        /// listed, per language, as warnings either way).
        #[arg(long)]
        translations_strict: bool,
    },
    /// Compute scenario files and print their exact results.
    Eval {
        /// Scenario YAML files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the results as one JSON document (the stable contract).
        #[arg(long)]
        json: bool,
        /// Multiply the time and memory budgets by this factor (0.001 to 1000).
        #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
        budget: f64,
    },
    /// Build, serve the site on 127.0.0.1, and rebuild and reload on every change.
    Serve {
        #[command(flatten)]
        site: SiteArgs,
        /// The port to listen on (0 picks a free one).
        #[arg(long, default_value_t = 8000)]
        port: u16,
    },
    /// Write one scenario as a single self-contained HTML file.
    Report {
        /// The scenario YAML file.
        file: PathBuf,
        /// The HTML file to write (`-` for standard output); an existing
        /// file is refused unless --force.
        #[arg(short, long)]
        output: PathBuf,
        /// Replace an existing regular file OUTPUT (never the scenario file,
        /// a link, a folder, a FIFO or a device).
        #[arg(long)]
        force: bool,
        /// Multiply the time and memory budgets by this factor (0.001 to 1000).
        #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
        budget: f64,
    },
    /// Record the rules and figures as release VERSION in content/releases/.
    Release {
        /// MAJOR.MINOR.PATCH, newer than the latest release.
        version: String,
        /// The day the release takes effect, YYYY-MM-DD (default: today, UTC).
        #[arg(long)]
        effective: Option<String>,
        #[command(flatten)]
        site: SiteArgs,
    },
    /// Print the rule book (the numbered sections and the glossary), or with
    /// --all the whole site, to a PDF with headless Chromium: contents with
    /// page numbers, bookmarks, and the rules' release on every page.
    Pdf {
        /// The PDF file to write: a new file, or an earlier PDF (never a
        /// source, a folder, a link, a FIFO or a device); `-` for standard
        /// output.
        #[arg(short, long)]
        output: PathBuf,
        /// Replace an existing regular file that is not a PDF.
        #[arg(long)]
        force: bool,
        /// Print every page of the site, in reading order, not only the
        /// rule book.
        #[arg(long)]
        all: bool,
        /// Print the rule book in this language (one of `translations:` in
        /// fairdice.yaml), each page's translation where there is one.
        #[arg(long, conflicts_with = "all")]
        lang: Option<String>,
        #[command(flatten)]
        site: SiteArgs,
    },
    /// Roll dice expressions without a scenario file: exact tables and
    /// head-to-head odds (see "The dice language" in docs/reference.md).
    Roll {
        /// Expressions such as 4d6dl1, 2d20kh1 or "8d10>=7" (quote them for
        /// the shell).
        #[arg(required = true)]
        expressions: Vec<String>,
        /// Print the results as JSON, as `eval --json` prints under `results`.
        #[arg(long)]
        json: bool,
        /// Extra rolls an exploding die may make (default 3, at most 20).
        #[arg(long)]
        explode_depth: Option<u32>,
        /// Whose meaning `cs` and `cf` take: standard counts the dice
        /// (Foundry); roll20 marks critical successes and failures and
        /// reports their chances.
        #[arg(long, value_enum, default_value_t = NotationArg::Standard)]
        notation: NotationArg,
        /// Multiply the time and memory budgets by this factor (0.001 to 1000).
        #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
        budget: f64,
    },
    /// Run an AnyDice program exactly: each output's table, or JSON (see
    /// "AnyDice programs" in docs/reference.md).
    Anydice {
        /// The program's file, or - for standard input.
        file: PathBuf,
        /// Print `{"outputs": [...], "warnings": [...]}` with exact probabilities.
        #[arg(long)]
        json: bool,
        /// Multiply the time and memory budgets by this factor (0.001 to 1000).
        #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
        budget: f64,
    },
    /// serve's child for one playground roll (not for users): the status
    /// code on the first line of standard output, then the body.
    #[command(name = "__serve-roll", hide = true)]
    ServeRoll {
        /// The playground's query (`roll=2d6&depth=3`).
        query: String,
        /// Answer with the scenario's YAML instead of a page.
        #[arg(long)]
        yaml: bool,
        #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
        budget: f64,
    },
    /// Replay every scenario by seeded simulation and compare each exact
    /// figure with its simulated value; exit 1 if one strays too far.
    Verify {
        /// The project folder (holding content/).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Trials of every procedure (at least 1).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        simulate: u64,
        /// The generator's seed: the same seed gives the same output.
        #[arg(long, value_name = "S", default_value_t = fairdice::analyses::simulate::DEFAULT_SEED)]
        seed: u64,
        /// Record a passing run's summary as content/guide/verification.md.
        #[arg(long)]
        write: bool,
        /// Multiply the time and memory budgets by this factor (0.001 to 1000).
        #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
        budget: f64,
    },
    /// Create a new site in DIR: a page, a scenario of each kind, the page templates (no assets: the built-in ones stay current).
    Init {
        /// A new or empty folder.
        dir: PathBuf,
    },
}

/// How a command ended: its exit status (0, 1, 2).
enum Exit {
    Success,
    Failure,
    Usage,
}

fn main() -> ExitCode {
    let cli = arguments();
    let ui = Ui::new(cli.quiet, cli.verbose);
    let outcome = match cli.command {
        Command::Build {
            site,
            check,
            shard,
            require_cached,
        } => project(&site, ui).map_or_else(
            |o| o,
            |mut p| {
                p.require_cached = require_cached;
                match (check, shard) {
                    (true, _) => stale_check(&p, ui),
                    (false, Some(shard)) => build_shard(&p, shard, ui),
                    (false, None) => build(&p, ui),
                }
            },
        ),
        Command::Check {
            site,
            translations_strict,
        } => project(&site, ui).map_or_else(|o| o, |p| check(&p, translations_strict, ui)),
        Command::Eval {
            files,
            json,
            budget,
        } => eval(&files, json, &Budget::new(budget).printing(json), ui),
        Command::Serve { site, port } => {
            project(&site, ui).map_or_else(|o| o, |p| serve(p, port, ui))
        }
        Command::Init { dir } => init(&dir, ui),
        Command::Release {
            version,
            effective,
            site,
        } => project(&site, ui).map_or_else(|o| o, |p| release(&p, &version, effective, ui)),
        Command::Pdf {
            output,
            force,
            all,
            lang,
            site,
        } => project(&site, ui).map_or_else(
            |o| o,
            |p| pdf(&p, &output, force, (all, lang.as_deref()), ui),
        ),
        Command::ServeRoll {
            query,
            yaml,
            budget,
        } => {
            let mut out = std::io::stdout().lock();
            match fairdice::serve::answer_roll(&query, yaml, &Budget::new(budget), &mut out) {
                Ok(()) => Exit::Success,
                Err(err) => failed(&Error::Usage(format!("cannot write the answer: {err}")), ui),
            }
        }
        Command::Anydice { file, json, budget } => {
            anydice(&file, json, &Budget::new(budget).printing(json), ui)
        }
        Command::Roll {
            expressions,
            json,
            explode_depth,
            notation,
            budget,
        } => roll(
            &expressions,
            json,
            (explode_depth, notation.into()),
            &Budget::new(budget).streaming(json),
            ui,
        ),
        Command::Verify {
            root,
            simulate,
            seed,
            write,
            budget,
        } => verify(
            &fairdice::verify::Options {
                root,
                trials: simulate,
                seed,
                budget: Budget::new(budget),
                progress: Progress::new(!ui.quiet),
            },
            write,
            ui,
        ),
        Command::Report {
            file,
            output,
            force,
            budget,
        } => report(&file, &output, force, &Budget::new(budget), ui),
    };
    match outcome {
        Exit::Success => ExitCode::SUCCESS,
        Exit::Failure => ExitCode::from(1),
        Exit::Usage => ExitCode::from(2),
    }
}

/// The project named by the arguments; a usage error when the folders
/// cannot be used.
fn project(args: &SiteArgs, ui: Ui) -> Result<Project, Exit> {
    let mut project = Project::at(&args.root);
    if let Some(out) = &args.out {
        project.out = out.clone();
    }
    if args.no_cache {
        project.cache = Cache::disabled();
    }
    project.budget = Budget::new(args.budget);
    project.progress = Progress::new(!ui.quiet);
    let usage = |err: Error| {
        ui.error(&err);
        Exit::Usage
    };
    if !args.root.join("content").is_dir() {
        return Err(usage(Error::Usage(format!(
            "{}: no content/ folder here: pass --root, or start a site with `fairdice init DIR`",
            args.root.display()
        ))));
    }
    fairdice::output::check_out_dir(&project.out, &project.root).map_err(usage)?;
    Ok(project)
}

/// An error ends the command with exit code 1.
fn failed(err: &Error, ui: Ui) -> Exit {
    ui.error(err);
    Exit::Failure
}

fn build(project: &Project, ui: Ui) -> Exit {
    project.cache.remove_stale_temporaries();
    match build::build(project) {
        Ok(summary) => {
            for warning in &summary.warnings {
                ui.warning(warning);
            }
            ui.summary("built", &project.out, &summary);
            Exit::Success
        }
        Err(err) => failed(&err, ui),
    }
}

/// `build --shard I/N`: this shard's scenarios into the cache, no site.
fn build_shard(project: &Project, shard: Shard, ui: Ui) -> Exit {
    project.cache.remove_stale_temporaries();
    let summary = match fairdice::shard::build_shard(project, shard) {
        Ok(summary) => summary,
        Err(err) => return failed(&err, ui),
    };
    let cache = project.cache.dir().unwrap_or(Path::new(".fairdice-cache"));
    ui.shard_summary(cache, &summary);
    Exit::Success
}

/// `build --check`: the stale-site comparison alone.
fn stale_check(project: &Project, ui: Ui) -> Exit {
    match build::compare(project) {
        Ok(diff) if diff.is_clean() => {
            ui.note(&format!("{} is up to date", project.out.display()));
            Exit::Success
        }
        Ok(diff) => {
            print_diff(&diff, &project.out, ui);
            Exit::Failure
        }
        Err(err) => failed(&err, ui),
    }
}

/// `check`: the gates and the stale-site comparison together.
fn check(project: &Project, translations_strict: bool, ui: Ui) -> Exit {
    let verification = match build::check(project) {
        Ok(v) => v,
        Err(err) => return failed(&err, ui),
    };
    for warning in &verification.summary.warnings {
        ui.warning(warning);
    }
    let translations = &verification.summary.translations;
    for found in translations {
        ui.warning(found);
    }
    for err in &verification.gate_failures {
        ui.error(err);
    }
    if translations_strict && !translations.is_empty() {
        ui.error(&Error::Usage(format!(
            "--translations-strict: {} outdated or missing translation(s) listed above",
            translations.len()
        )));
        return Exit::Failure;
    }
    if !verification.diff.is_clean() {
        print_diff(&verification.diff, &project.out, ui);
    }
    let summary: &Summary = &verification.summary;
    if verification.passed() {
        ui.summary("checked", &project.out, summary);
        Exit::Success
    } else {
        Exit::Failure
    }
}

fn print_diff(diff: &fairdice::output::Diff, out: &Path, ui: Ui) {
    for (label, paths) in [
        ("stale", &diff.stale),
        ("missing", &diff.missing),
        ("extra", &diff.extra),
        ("not a regular file", &diff.irregular),
    ] {
        for path in paths {
            ui.always(&format!("{label}: {}", out.join(path).display()));
        }
    }
    ui.error(&Error::Usage(format!(
        "{} differs from a fresh build: run `fairdice build`",
        out.display()
    )));
}

fn eval(files: &[PathBuf], json: bool, budget: &Budget, ui: Ui) -> Exit {
    let scenarios = match build::load_scenarios(files, budget) {
        Ok(s) => s,
        Err(err) => return failed(&err, ui),
    };
    let progress = Progress::new(!ui.quiet);
    let computed = if json {
        // The contract alone, streamed; no page is laid out, and only a
        // scenario with gates has its contract made a value to check them.
        let evaluated = build::compute_cached(&scenarios, &Cache::disabled(), &progress);
        let results: Vec<&fairdice::kinds::Results> =
            evaluated.iter().map(|e| &e.results).collect();
        if let Err(err) = print_json(&scenarios, &results) {
            return failed(
                &Error::Usage(format!("cannot write the results: {err}")),
                ui,
            );
        }
        evaluated
            .into_iter()
            .zip(&scenarios)
            .map(|(evaluated, scenario)| Computed {
                scenario,
                page: fairdice::layout::blocks::ScenarioPage {
                    results: if scenario.header.expect.is_empty() {
                        serde_json::Value::Null
                    } else {
                        evaluated.results.to_json()
                    },
                    blocks: Vec::new(),
                },
            })
            .collect()
    } else {
        let computed = build::compute(&scenarios, &progress);
        let width = fairdice::terminal::width();
        let text: Vec<String> = computed
            .iter()
            .map(|Computed { scenario, page }| {
                scenario_text(&scenario.to_string(), scenario.params.kind(), page, width)
            })
            .collect();
        ui.results(&text.join("\n"));
        computed
    };
    let mut exit = Exit::Success;
    for err in build::check_gates(&computed, "") {
        exit = failed(&err, ui);
    }
    exit
}

/// Standard output for a JSON document, buffered: 64 kB is few writes
/// even for the 10 MB of 1000d6, and (unlike a megabyte) comes from the
/// heap without a mapping of its own to set up and tear down.
fn json_out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock())
}

/// Every scenario's JSON document, as the library frames it, through one
/// buffered writer.
fn print_json(
    scenarios: &[fairdice::scenario::Scenario],
    results: &[&fairdice::kinds::Results],
) -> std::io::Result<()> {
    use std::io::Write;
    let documents: Vec<_> = scenarios.iter().zip(results.iter().copied()).collect();
    let mut out = json_out();
    fairdice::site::write_scenarios_json(&mut out, &documents)?;
    out.flush()
}

/// One scenario for the terminal: its name and kind, then its key figures
/// and tables in page order (charts are drawn from tables shown here too).
fn scenario_text(
    name: &str,
    kind: &str,
    page: &fairdice::layout::blocks::ScenarioPage,
    width: usize,
) -> String {
    let blocks = fairdice::terminal::render_blocks(&page.blocks, width);
    format!("{name} [{kind}]\n\n{blocks}")
}

/// The command line as clap reads it; its own messages (a usage error,
/// `--help`, `--version`) are printed as every other line is, since a
/// bad argument is echoed in them.
fn arguments() -> Cli {
    Cli::try_parse().unwrap_or_else(|err| {
        let text = err.render().to_string();
        let text = fairdice::printable::printable(&text);
        if err.use_stderr() {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
        std::process::exit(err.exit_code())
    })
}

fn anydice(file: &Path, json: bool, budget: &Budget, ui: Ui) -> Exit {
    use fairdice::anydice_command as command;
    let shown = if file == Path::new("-") {
        "<stdin>".to_string()
    } else {
        file.display().to_string()
    };
    let report = command::read(file).and_then(|source| {
        fairdice::roll_command::watch_process(budget);
        command::run(&shown, &source, budget.seconds())
    });
    match report {
        Err(err) => failed(&err, ui),
        Ok(report) if json => {
            use std::io::Write;
            let mut out = json_out();
            let written = serde_json::to_writer_pretty(&mut out, &command::json(&report))
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(out))
                .and_then(|()| out.flush());
            match written {
                Ok(()) => Exit::Success,
                Err(err) => failed(
                    &Error::Usage(format!("cannot write the results: {err}")),
                    ui,
                ),
            }
        }
        Ok(report) => {
            ui.results(&command::text(&report));
            Exit::Success
        }
    }
}

fn roll(
    expressions: &[String],
    json: bool,
    (depth, notation): (Option<u32>, Notation),
    budget: &Budget,
    ui: Ui,
) -> Exit {
    let params = match fairdice::roll_command::prepare_in(expressions, depth, notation, budget) {
        Ok(params) => params,
        Err(message) => return failed(&Error::Usage(message), ui),
    };
    fairdice::roll_command::watch_process(budget);
    let progress = Progress::new(!ui.quiet);
    if json {
        use std::io::Write;
        let mut out = json_out();
        let written = fairdice::roll_command::write_json(&params, &progress, &mut out)
            .and_then(|()| writeln!(out))
            .and_then(|()| out.flush());
        if let Err(err) = written {
            return failed(
                &Error::Usage(format!("cannot write the results: {err}")),
                ui,
            );
        }
    } else {
        let width = fairdice::terminal::width();
        ui.results(&fairdice::roll_command::text(&params, width, &progress));
    }
    Exit::Success
}

fn report(file: &Path, output: &Path, force: bool, budget: &Budget, ui: Ui) -> Exit {
    let target = fairdice::output::Target {
        what: "report",
        out: output,
        sources: &[("scenario file", file)],
        source_folders: &[],
        earlier_output: None,
        force,
    };
    if let Err(err) = target.check() {
        ui.error(&err);
        return Exit::Usage;
    }
    let written = build::report(file, budget, &Progress::new(!ui.quiet))
        .and_then(|html| target.write(html.as_bytes()));
    wrote(&target, written, ui)
}

/// The end of a command that writes one `-o` file.
fn wrote(target: &fairdice::output::Target, written: Result<(), Error>, ui: Ui) -> Exit {
    match written {
        Ok(()) => {
            ui.note(&format!("wrote the {} to {}", target.what, target.shown()));
            Exit::Success
        }
        Err(err) => failed(&err, ui),
    }
}

fn serve(project: Project, port: u16, ui: Ui) -> Exit {
    project.cache.remove_stale_temporaries();
    let server = match fairdice::serve::Server::start(project, port, ui) {
        Ok(server) => server,
        Err(err) => return failed(&err, ui),
    };
    // The address goes to stdout, so scripts can find a port picked with --port 0.
    ui.results(&format!("serving http://{}/\n", server.addr()));
    ui.note("watching content/ and templates/; press Ctrl-C to stop");
    server.wait();
    Exit::Success
}

fn release(project: &Project, version: &str, effective: Option<String>, ui: Ui) -> Exit {
    let effective = effective.unwrap_or_else(fairdice::rulebook::publish::today);
    if let Err(err) = fairdice::rulebook::publish::check_request(version, &effective) {
        ui.error(&err);
        return Exit::Usage;
    }
    match fairdice::rulebook::publish::release(project, version, &effective) {
        Ok(path) => {
            ui.note(&format!(
                "wrote {} (release {version}, effective {effective}): commit it, then build",
                path.display()
            ));
            Exit::Success
        }
        Err(err) => failed(&err, ui),
    }
}

/// `what`: the whole site (`--all`), or the rule book in a language.
fn pdf(project: &Project, output: &Path, force: bool, what: (bool, Option<&str>), ui: Ui) -> Exit {
    if let Some(lang) = what.1 {
        match fairdice::rulebook::publish::check_language(project, lang) {
            Ok(_) => {}
            Err(err @ Error::Usage(_)) => {
                ui.error(&err);
                return Exit::Usage;
            }
            Err(err) => return failed(&err, ui),
        }
    }
    let folders = [
        project.root.join("content"),
        project.root.join("templates"),
        project.out.clone(),
    ];
    let target = fairdice::output::Target {
        what: "PDF",
        out: output,
        sources: &[],
        source_folders: &folders.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
        earlier_output: Some(b"%PDF-"),
        force,
    };
    if let Err(err) = target.check() {
        ui.error(&err);
        return Exit::Usage;
    }
    let written =
        fairdice::rulebook::publish::pdf(project, what).and_then(|pdf| target.write(&pdf));
    wrote(&target, written, ui)
}

fn init(dir: &Path, ui: Ui) -> Exit {
    match fairdice::init::init(dir) {
        Ok(files) => {
            for file in &files {
                ui.detail(&format!("  wrote {}", dir.join(file).display()));
            }
            ui.note(&format!(
                "created a site in {} ({} files): next, `cd {0} && fairdice serve`",
                dir.display(),
                files.len()
            ));
            Exit::Success
        }
        Err(err @ Error::Usage(_)) => {
            ui.error(&err);
            Exit::Usage
        }
        Err(err) => failed(&err, ui),
    }
}

/// `verify`: one line per scenario on stdout, failures on stderr, and the
/// page written only when every figure is within its limit.
fn verify(options: &fairdice::verify::Options, write: bool, ui: Ui) -> Exit {
    if !options.root.join("content").is_dir() {
        ui.error(&Error::Usage(format!(
            "{}: no content/ folder here: pass --root",
            options.root.display()
        )));
        return Exit::Usage;
    }
    let report = match fairdice::verify::run(options) {
        Ok(report) => report,
        Err(err) => return failed(&err, ui),
    };
    for checked in &report.scenarios {
        ui.results(&format!("{checked}\n"));
    }
    let failures = report.failures();
    for (checked, comparison) in &failures {
        ui.error(&Error::Usage(format!(
            "content/{}: {comparison}: beyond its limit",
            checked.source
        )));
    }
    let what = format!(
        "{} figures of {} scenarios, {} trials each, seed {}",
        report.figures(),
        report.scenarios.len(),
        report.trials,
        report.seed
    );
    if !failures.is_empty() {
        ui.error(&Error::Usage(format!(
            "verify: {} of {what} beyond their limits",
            failures.len()
        )));
        return Exit::Failure;
    }
    ui.note(&format!("verified {what}: all within their limits"));
    if write {
        match fairdice::verify::summary::write(&options.root, &report) {
            Ok(path) => ui.note(&format!("wrote {}", path.display())),
            // A page there that verify did not write: the user's to move.
            Err(err @ Error::File { .. }) => {
                ui.error(&err);
                return Exit::Usage;
            }
            Err(err) => return failed(&err, ui),
        }
    }
    Exit::Success
}

/// A `--shard I/N` value.
fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
        .map_err(|err: fairdice::shard::ShardError| err.to_string())
}

/// `--notation`: whose meaning letters take where families disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum NotationArg {
    /// Foundry's `cs` and `cf`: count the dice meeting them.
    Standard,
    /// Roll20's `cs` and `cf`: mark critical successes and failures.
    Roll20,
}

impl From<NotationArg> for Notation {
    fn from(arg: NotationArg) -> Notation {
        match arg {
            NotationArg::Standard => Notation::Standard,
            NotationArg::Roll20 => Notation::Roll20,
        }
    }
}

/// A budget factor within the range `limits::Budget` allows.
fn parse_budget(text: &str) -> Result<f64, String> {
    fairdice::limits::Budget::parse(text).map(|budget| budget.factor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every subcommand's arguments, deferred until it runs, still make a
    /// well-formed parser (clap's own checks, over the whole tree).
    #[test]
    fn every_subcommand_is_well_formed() {
        Cli::command().debug_assert();
    }
}
