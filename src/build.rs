//! The build, top to bottom: load, compute (or reuse), check the gates,
//! render, write.

use crate::analyses::Budget;
use crate::cache::{self, Cache, Origin};
use crate::config;
use crate::content::{self, Content};
use crate::error::{Error, Result};
use crate::gates;
use crate::history;
use crate::kinds::Results;
use crate::layout::Others;
use crate::limits::{self, Watch};
use crate::output::{self, Diff, SiteFiles};
use crate::progress::Progress;
use crate::scenario::Scenario;
use crate::site::{self, Computed};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where a build reads from and writes to, and how it behaves.
#[derive(Debug, Clone)]
pub struct Project {
    /// Holds `content/` and, optionally, `templates/`.
    pub root: PathBuf,
    /// The site folder (default `<root>/site`).
    pub out: PathBuf,
    /// Where computed results are kept between builds.
    pub cache: Cache,
    /// Where progress bars for slow work are drawn, if anywhere.
    pub progress: Progress,
    /// How much each scenario may cost (`--budget`).
    pub budget: Budget,
    /// Compute nothing: every scenario's results must be in the cache
    /// (`build --require-cached`, the last step of a sharded build).
    pub require_cached: bool,
}

impl Project {
    /// The usual layout under `root`, with the cache in
    /// `<root>/.fairdice-cache`.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        Project {
            out: root.join("site"),
            cache: Cache::at(root.join(cache::FOLDER)),
            progress: Progress::new(true),
            budget: Budget::default(),
            require_cached: false,
            root,
        }
    }
}

/// What a build did, for the summary line, and what it warns about.
#[derive(Debug)]
pub struct Summary {
    /// Markdown pages rendered.
    pub pages: usize,
    /// Scenarios in the site.
    pub scenarios: usize,
    /// Scenarios computed in this build.
    pub computed: usize,
    /// Scenarios whose results came from the cache.
    pub cached: usize,
    /// Files in the site.
    pub files: usize,
    /// Whether the site on disk was rewritten (false when already current).
    pub written: bool,
    /// Per scenario: source, where its results came from, time taken.
    pub timings: Vec<(String, Origin, Duration)>,
    /// Wall time.
    pub elapsed: Duration,
    /// Problems that do not fail the build: folders without `_index.md`,
    /// numbered rules without a key.
    pub warnings: Vec<Error>,
    /// Per language, the translated rules outdated and the rules missing,
    /// which `fairdice check` lists.
    pub translations: Vec<Error>,
}

/// A site rendered in memory, with the gates that did not hold.
#[derive(Debug)]
pub struct Built {
    /// Every output file.
    pub files: SiteFiles,
    /// Counts and timings.
    pub summary: Summary,
    /// One error per failed gate and case, located in its scenario file.
    pub gate_failures: Vec<Error>,
    /// Every scenario's headline figures, for release snapshots.
    pub figures: Vec<crate::rulebook::releases::FiguresAt>,
    /// Every numbered rule as the site shows it, in reading order: what a
    /// release records, typed, not read back from `rules.json`.
    pub rules: Vec<crate::rulebook::releases::RuleAt>,
}

/// The result of `fairdice check`: the gates and the stale-site comparison.
#[derive(Debug)]
pub struct Verification {
    /// How the site on disk differs from a fresh build.
    pub diff: Diff,
    /// Gates that did not hold.
    pub gate_failures: Vec<Error>,
    /// Counts and timings, and the warnings.
    pub summary: Summary,
}

impl Verification {
    /// Everything holds and the site is current.
    pub fn passed(&self) -> bool {
        self.diff.is_clean() && self.gate_failures.is_empty()
    }
}

/// Load, compute and render, all in memory. A build that fails reports
/// every problem it finds, grouped by file: a file that does not load is
/// left out and the rest is still computed, rendered, link-checked and
/// gated, so one build lists them all (failed gates included).
pub fn render_site(project: &Project) -> Result<Built> {
    render_with(project, Gates::Apply, None)
}

/// [`render_site`] for `fairdice release VERSION`: the translations made
/// from VERSION, which has no snapshot yet, are set aside (the build after
/// the release checks them against the snapshot it writes). The rules
/// and figures a release records are the source pages' alone.
pub(crate) fn render_for_release(project: &Project, version: &str) -> Result<Built> {
    render_with(project, Gates::Apply, Some(version))
}

/// The value of `result`, or `None` with its error kept among `problems`.
fn keep<T>(result: Result<T>, problems: &mut Vec<Error>) -> Option<T> {
    result.map_err(|err| problems.push(err)).ok()
}

/// Whether a failed build lists its failed gates with its other problems
/// (`build --check` applies no gates).
#[derive(Clone, Copy, PartialEq)]
enum Gates {
    Apply,
    Skip,
}

fn render_with(project: &Project, gates: Gates, releasing: Option<&str>) -> Result<Built> {
    let started = Instant::now();
    let _watch = watch(&project.budget, "the build")?;
    let mut problems = Vec::new();
    // Load.
    let stage = limits::stage("loading content/ and templates/");
    let (mut content, errors) =
        content::load_partial(&project.root.join("content"), &project.budget)?;
    problems.extend(errors);
    if let Some(version) = releasing {
        let from_it = |page: &content::Page| {
            (page.translated_from.as_ref()).is_some_and(|(from, _, _)| from == version)
        };
        content.translated.retain(|page| !from_it(page));
    }
    let config = keep(config::load(&project.root), &mut problems);
    let config_loaded = config.is_some();
    let config = config.unwrap_or_default();
    site::add_release_pages(&mut content);
    let updated = keep(
        history::dates(&project.root.join("content"), &project.out),
        &mut problems,
    )
    .unwrap_or_default();
    let meta = site::Meta {
        config,
        config_loaded,
        updated,
    };
    if let Err(err) = admit_all(&content.scenarios, crate::paths::CONTENT, &project.budget) {
        // Nothing is computed over budget; pages are still checked.
        problems.push(err);
        let refused = content.scenarios.drain(..).map(|s| s.source);
        content.failed.extend(refused);
    }
    let templates = keep(
        site::load_templates(&project.root.join("templates")),
        &mut problems,
    );
    drop(stage);
    // Compute, or reuse.
    let stage = limits::stage("computing the scenarios");
    let evaluated = if project.require_cached {
        match load_cached(&content.scenarios, &project.cache) {
            Ok(evaluated) => evaluated,
            Err(missing) => {
                problems.extend(missing);
                return Err(Error::grouped(problems).expect("missing results are problems"));
            }
        }
    } else {
        compute_cached(&content.scenarios, &project.cache, &project.progress)
    };
    let timings = content
        .scenarios
        .iter()
        .zip(&evaluated)
        .map(|(s, e)| (s.source.clone(), e.origin, e.elapsed))
        .collect();
    // Lay out, once every result exists.
    let computed = lay_out(&content.scenarios, &evaluated);
    let gate_failures = check_gates(&computed, crate::paths::CONTENT);
    let figures = headline_figures(&computed);
    drop(stage);
    // Render.
    let _stage = limits::stage("rendering the site");
    let files = templates.and_then(|templates| {
        keep(
            site::render(&content, &computed, &templates, &meta),
            &mut problems,
        )
    });
    let Some((files, rules, translations)) = files.filter(|_| problems.is_empty()) else {
        if gates == Gates::Apply {
            problems.extend(gate_failures);
        }
        return Err(Error::grouped(problems).expect("a build without files has problems"));
    };
    let mut summary = summary(&content, &files, timings, started);
    summary.warnings = site::warnings(&content, &computed);
    summary.translations = translations;
    Ok(Built {
        files,
        summary,
        gate_failures,
        figures,
        rules,
    })
}

/// Build the site and swap it into place; gates that fail stop the build
/// before anything is written. A site already identical is left alone.
/// The watchdog guards everything but the write itself.
pub fn build(project: &Project) -> Result<Summary> {
    let started = Instant::now();
    output::check_out_dir(&project.out, &project.root)?;
    let watch = watch(&project.budget, "the build")?;
    let built = render_site(project)?;
    if let Some(err) = Error::grouped(built.gate_failures) {
        return Err(err);
    }
    let mut summary = built.summary;
    if !compare_with_disk(&project.out, &built.files)?.is_clean() {
        drop(watch);
        output::write_site(&project.out, &built.files)?;
        summary.written = true;
    }
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// `fairdice build --check`: build in memory and compare with the site on
/// disk (gates not applied; no cache, as for [`check`]).
pub fn compare(project: &Project) -> Result<Diff> {
    let _watch = watch(&project.budget, "the build")?;
    let built = render_with(
        &Project {
            cache: Cache::disabled(),
            require_cached: false,
            ..project.clone()
        },
        Gates::Skip,
        None,
    )?;
    compare_with_disk(&project.out, &built.files)
}

/// `fairdice check`: build in memory, run the gates, and compare with the
/// site on disk. Every scenario is computed afresh: a CI check never trusts
/// a cache that a pull request can write.
pub fn check(project: &Project) -> Result<Verification> {
    let _watch = watch(&project.budget, "the check")?;
    let built = render_site(&Project {
        cache: Cache::disabled(),
        require_cached: false,
        ..project.clone()
    })?;
    Ok(Verification {
        diff: compare_with_disk(&project.out, &built.files)?,
        gate_failures: built.gate_failures,
        summary: built.summary,
    })
}

/// One scenario's exact results and how they were obtained.
#[derive(Debug, Clone)]
pub struct Evaluated {
    /// The exact results.
    pub results: Results,
    /// Computed now or read from the cache.
    pub origin: Origin,
    /// Time spent on it.
    pub elapsed: Duration,
}

/// Every scenario's results, from the cache when it holds a valid entry,
/// otherwise computed in parallel (with a progress bar for slow work).
pub fn compute_cached(
    scenarios: &[Scenario],
    cache: &Cache,
    progress: &Progress,
) -> Vec<Evaluated> {
    progress.with_bar(scenarios.len(), "computing", |bar| {
        let one = |scenario: &Scenario| {
            let started = Instant::now();
            let (results, origin) = cache.results(scenario, progress);
            bar.inc(1);
            Evaluated {
                results,
                origin,
                elapsed: started.elapsed(),
            }
        };
        // One scenario (an `eval` of one file) starts no thread pool.
        if scenarios.len() == 1 {
            scenarios.iter().map(one).collect()
        } else {
            scenarios.par_iter().map(one).collect()
        }
    })
}

/// Every scenario's results read from the cache, computing nothing; or,
/// when any is missing, an error for each scenario without a valid entry.
fn load_cached(
    scenarios: &[Scenario],
    cache: &Cache,
) -> std::result::Result<Vec<Evaluated>, Vec<Error>> {
    let found: Vec<_> = scenarios
        .par_iter()
        .map(|scenario| {
            let started = Instant::now();
            let key = cache::Key::of(scenario);
            cache
                .lookup(&key, scenario)
                .map(|results| Evaluated {
                    results,
                    origin: Origin::Cached,
                    elapsed: started.elapsed(),
                })
                .map_err(|miss| not_cached(scenario, cache, &key, &miss))
        })
        .collect();
    let mut evaluated = Vec::with_capacity(found.len());
    let mut missing = Vec::new();
    for one in found {
        match one {
            Ok(one) => evaluated.push(one),
            Err(err) => missing.push(err),
        }
    }
    if missing.is_empty() {
        Ok(evaluated)
    } else {
        Err(missing)
    }
}

/// The error of a scenario whose results `--require-cached` did not find.
fn not_cached(scenario: &Scenario, cache: &Cache, key: &cache::Key, miss: &cache::Miss) -> Error {
    let entry = match cache.dir() {
        Some(dir) => dir.join(key.file_name()).display().to_string(),
        None => "no cache: --no-cache".to_string(),
    };
    Error::File {
        file: format!("{}{}", crate::paths::CONTENT, scenario.source),
        message: format!(
            "--require-cached: its results are not in the cache ({miss}: {entry}); \
             run the build's shards into the cache first, or build without --require-cached"
        ),
    }
}

/// Every scenario laid out from fresh results (no cache).
pub fn compute<'a>(scenarios: &'a [Scenario], progress: &Progress) -> Vec<Computed<'a>> {
    lay_out(
        scenarios,
        &compute_cached(scenarios, &Cache::disabled(), progress),
    )
}

/// Each scenario's page from its results, quoting the others' where the
/// page does.
fn lay_out<'a>(scenarios: &'a [Scenario], evaluated: &[Evaluated]) -> Vec<Computed<'a>> {
    let all = AllResults(
        scenarios
            .iter()
            .zip(evaluated)
            .map(|(scenario, e)| (scenario.name.as_str(), &e.results))
            .collect(),
    );
    scenarios
        .par_iter()
        .zip(evaluated)
        .map(|(scenario, evaluated)| Computed {
            scenario,
            page: evaluated.results.page(&all),
        })
        .collect()
}

/// Every scenario's results by name.
struct AllResults<'a>(BTreeMap<&'a str, &'a Results>);

impl Others for AllResults<'_> {
    fn results(&self, name: &str) -> Option<&dyn std::any::Any> {
        self.0.get(name).map(|results| results.as_any())
    }
}

/// Check each scenario's gates against its results. Files are named
/// `prefix` + source.
pub fn check_gates(computed: &[Computed], prefix: &str) -> Vec<Error> {
    computed
        .iter()
        .flat_map(|computed| gate_errors(computed, prefix))
        .collect()
}

/// The failed gates of one scenario, as errors located in its source text
/// (read once, however many gates fail).
pub(crate) fn gate_errors(computed: &Computed, prefix: &str) -> Vec<Error> {
    let scenario = computed.scenario;
    let failures = gates::check(&scenario.header.expect, &computed.page.results);
    if failures.is_empty() {
        return Vec::new();
    }
    let places = gates::Places::of(&scenario.text);
    failures
        .into_iter()
        .map(|failure| {
            let (line, column) = places.of_figure(&failure.figure);
            Error::Source {
                file: format!("{prefix}{}", scenario.source),
                line,
                column,
                message: format!("expect: {}", failure.message),
            }
        })
        .collect()
}

/// The key figures (label and value) that each scenario's page shows first.
fn headline_figures(computed: &[Computed]) -> Vec<crate::rulebook::releases::FiguresAt> {
    use crate::rulebook::releases::Figure;
    computed
        .iter()
        .filter_map(|c| {
            let figures: Vec<Figure> = c
                .page
                .blocks
                .iter()
                .filter_map(|block| match block {
                    crate::layout::blocks::Block::Facts { items } => Some(items),
                    _ => None,
                })
                .flatten()
                .map(|(label, value)| Figure::Exact {
                    label: label.clone(),
                    shown: value.shown.clone(),
                    exact: value.exact.clone(),
                })
                .collect();
            (!figures.is_empty()).then(|| crate::rulebook::releases::FiguresAt {
                scenario: c.scenario.name.clone(),
                title: c.scenario.header.title.clone(),
                figures,
            })
        })
        .collect()
}

/// Parse scenario files given on the command line (outside any site),
/// under the same limits as the content loader, for `eval`: the watchdog
/// holds the rest of the process to `budget` (it only prints).
pub fn load_scenarios(files: &[PathBuf], budget: &Budget) -> Result<Vec<Scenario>> {
    watch(budget, "eval")?.keep();
    read_scenarios(files, budget)
}

/// The scenario files, each under `budget` and all together under the
/// whole-build budget.
fn read_scenarios(files: &[PathBuf], budget: &Budget) -> Result<Vec<Scenario>> {
    let _stage = limits::stage("loading the scenario files");
    let mut scenarios = Vec::new();
    let mut errors = Vec::new();
    for file in files {
        match read_scenario(file, budget) {
            Ok(scenario) => scenarios.push(scenario),
            Err(err) => errors.push(err),
        }
    }
    if let Some(err) = Error::from_list(errors) {
        return Err(err);
    }
    let given: Vec<String> = scenarios.iter().map(|s| s.source.clone()).collect();
    read_referenced(&mut scenarios, budget)?;
    let (resolved, unresolved) = crate::scenario::resolve(scenarios, budget, true);
    let errors = unresolved.into_iter().map(|e| Error::from_scenario(e, ""));
    if let Some(err) = Error::from_list(errors.collect()) {
        return Err(err);
    }
    let scenarios: Vec<Scenario> = resolved
        .into_iter()
        .filter(|s| given.contains(&s.source))
        .collect();
    admit_all(&scenarios, "", budget)?;
    Ok(scenarios)
}

/// One scenario file given on the command line, its data files read from
/// its folder.
fn read_scenario(file: &Path, budget: &Budget) -> Result<Scenario> {
    let name = file.to_string_lossy().replace('\\', "/");
    let shown = match name.rsplit_once('/') {
        Some((folder, _)) => format!("{folder}/"),
        None => String::new(),
    };
    let folder = file.parent().filter(|p| !p.as_os_str().is_empty());
    let data = content::DataFolder::new(folder.unwrap_or(Path::new(".")), &shown);
    content::read_text(file, &name).and_then(|text| {
        crate::scenario::parse_with_data(&name, &text, budget, &data)
            .map_err(|e| Error::from_scenario(e, ""))
    })
}

/// Add the scenarios that `scenarios` take values from (`p_first: {from:
/// cards/log}`) and that were not given: a name is a path under a content
/// folder, so it is looked for from the naming file's folder up
/// (`content/cards/` then `content/`...), never above its project
/// ([`reference_folders`]). Those are read only to resolve the names; one
/// not found is left for [`crate::scenario::resolve`] to report at its key.
fn read_referenced(scenarios: &mut Vec<Scenario>, budget: &Budget) -> Result<()> {
    let mut next = 0;
    while next < scenarios.len() {
        let folders = reference_folders(&scenarios[next].source);
        let references = scenarios[next].params.references();
        next += 1;
        let Some(top) = folders.last() else {
            continue;
        };
        for (_, name, _) in references {
            // The name was checked as the kind's (no `..`, not absolute).
            let known = |s: &Scenario| s.name == name || s.name.ends_with(&format!("/{name}"));
            if scenarios.iter().any(known) {
                continue;
            }
            // Nor may a link lead out of the project.
            let within = |path: &PathBuf| {
                path.is_file() && path.canonicalize().is_ok_and(|real| real.starts_with(top))
            };
            let found = (folders.iter())
                .map(|dir| dir.join(format!("{name}.yaml")))
                .find(within);
            if let Some(path) = found {
                scenarios.push(read_scenario(&as_shown(&path), budget)?);
            }
        }
    }
    Ok(())
}

/// The folders where a `{from: NAME}` in the scenario file `source` is
/// looked for, nearest first, as real paths (no `..`, no link): the file's
/// own folder, then each above it up to its project's root (the nearest
/// holding `content/` or `fairdice.yaml`), never above; a file in no
/// project looks in its own folder only. No name reads a file outside.
fn reference_folders(source: &str) -> Vec<PathBuf> {
    let folder = Path::new(source)
        .parent()
        .filter(|p| !p.as_os_str().is_empty());
    let Ok(real) = folder.unwrap_or(Path::new(".")).canonicalize() else {
        return Vec::new();
    };
    let is_root = |dir: &Path| dir.join("content").is_dir() || dir.join(config::FILE).is_file();
    match real.ancestors().position(is_root) {
        Some(at) => real
            .ancestors()
            .take(at + 1)
            .map(Path::to_path_buf)
            .collect(),
        None => vec![real],
    }
}

/// `path` relative to the working folder when it lies inside it (as a
/// file given on the command line is named), else as it is.
fn as_shown(path: &Path) -> PathBuf {
    let here = std::env::current_dir().and_then(|dir| dir.canonicalize());
    here.ok()
        .and_then(|here| path.strip_prefix(here).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
}

/// Arm the watchdog for `command` ("the build"), refusing a budget out of
/// range first.
pub(crate) fn watch(budget: &Budget, command: &'static str) -> Result<Watch> {
    budget.check().map_err(Error::Usage)?;
    Ok(limits::watch(budget, command))
}

/// Refuse scenarios that each fit the budget but not all together: every
/// one's results stay in memory until the site is written.
pub fn admit_all(scenarios: &[Scenario], prefix: &str, budget: &Budget) -> Result<()> {
    let costs: Vec<_> = scenarios
        .iter()
        .map(|s| (format!("{prefix}{}", s.source), s.params.cost()))
        .collect();
    budget.admit_all(&costs).map_err(Error::Usage)
}

/// [`output::diff`], named for the watchdog: it reads the old site.
fn compare_with_disk(out: &Path, files: &SiteFiles) -> Result<Diff> {
    let _stage = limits::stage(format!("comparing with {}", out.display()));
    output::diff(out, files)
}

fn summary(
    content: &Content,
    files: &SiteFiles,
    timings: Vec<(String, Origin, Duration)>,
    started: Instant,
) -> Summary {
    let cached = timings
        .iter()
        .filter(|(_, origin, _)| *origin == Origin::Cached)
        .count();
    Summary {
        pages: content.pages.len(),
        scenarios: content.scenarios.len(),
        computed: timings.len() - cached,
        cached,
        files: files.len(),
        written: false,
        timings,
        elapsed: started.elapsed(),
        warnings: Vec::new(),
        translations: Vec::new(),
    }
}

/// `fairdice report`: load one scenario, compute it, and make it one
/// self-contained HTML page (the command writes it where `-o` says).
pub fn report(file: &Path, budget: &Budget, progress: &Progress) -> Result<String> {
    let watch = watch(budget, "the report")?;
    let mut scenarios = read_scenarios(&[file.to_path_buf()], budget)?;
    // A report is mailed: it names the scenario by its file name only, never
    // by the folders of the machine that wrote it.
    for scenario in &mut scenarios {
        scenario.source = crate::paths::file_name(&scenario.source).to_string();
        scenario.name = crate::paths::scenario_name(&scenario.source);
    }
    let _stage = limits::stage("computing and rendering the report");
    let Some(computed) = compute(&scenarios, progress).into_iter().next() else {
        return Err(Error::file(file.display(), "no scenario"));
    };
    let html = site::standalone::report_html(&computed)?;
    drop(watch);
    Ok(html)
}
