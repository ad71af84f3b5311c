//! The build, top to bottom: load, compute, render, write.

use crate::content::{self, Content};
use crate::error::{Error, Result};
use crate::output::{self, Diff};
use crate::report::Report;
use crate::scenario::Scenario;
use crate::site::{self, Computed, SiteFiles};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where a build reads from and writes to.
#[derive(Debug, Clone)]
pub struct Project {
    /// Holds `content/` and `templates/`.
    pub root: PathBuf,
    /// The site folder (default `<root>/site`).
    pub out: PathBuf,
}

impl Project {
    /// The usual layout under `root`.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        Project {
            out: root.join("site"),
            root,
        }
    }
}

/// What a build did, for the summary line.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Markdown pages rendered.
    pub pages: usize,
    /// Scenarios computed.
    pub scenarios: usize,
    /// Files in the site.
    pub files: usize,
    /// Wall time.
    pub elapsed: Duration,
}

/// Load, compute and render, all in memory.
pub fn render_site(project: &Project) -> Result<(SiteFiles, Summary)> {
    let started = Instant::now();
    // Load.
    let content = content::load(&project.root.join("content"))?;
    let (tera, assets) = site::load_templates(&project.root.join("templates"))?;
    // Compute.
    let reports = compute(&content.scenarios);
    let computed: Vec<Computed> = content
        .scenarios
        .iter()
        .zip(reports)
        .map(|(scenario, report)| Computed { scenario, report })
        .collect();
    // Render.
    let files = site::render(&content, &computed, &tera, &assets)?;
    let summary = summary(&content, &files, started);
    Ok((files, summary))
}

/// Build the site and swap it into place.
pub fn build(project: &Project) -> Result<Summary> {
    output::check_out_dir(&project.out, &project.root)?;
    let (files, summary) = render_site(project)?;
    // Write.
    output::write_site(&project.out, &files)?;
    Ok(summary)
}

/// Build in memory and compare with the site on disk.
pub fn check(project: &Project) -> Result<Diff> {
    let (files, _) = render_site(project)?;
    output::diff(&project.out, &files)
}

/// Run every analysis, in parallel, with a progress bar on a terminal.
/// Scenarios were validated when loaded, so analyses cannot fail here.
pub fn compute(scenarios: &[Scenario]) -> Vec<Report> {
    let progress = ProgressBar::new(scenarios.len() as u64);
    progress.set_style(
        ProgressStyle::with_template("{spinner} computing {pos}/{len} scenarios {wide_msg}")
            .expect("valid template"),
    );
    if scenarios.len() > 1 {
        progress.enable_steady_tick(Duration::from_millis(200));
    }
    let reports = scenarios
        .par_iter()
        .map(|scenario| {
            let report = scenario.params.analyse();
            progress.inc(1);
            report
        })
        .collect();
    progress.finish_and_clear();
    reports
}

/// Parse scenario files given on the command line (outside any site).
pub fn load_scenarios(files: &[PathBuf]) -> Result<Vec<Scenario>> {
    let mut scenarios = Vec::new();
    let mut errors = Vec::new();
    for file in files {
        let name = file.to_string_lossy().replace('\\', "/");
        match std::fs::read(file) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => match crate::scenario::parse(&name, &text) {
                    Ok(s) => scenarios.push(s),
                    Err(e) => errors.push(Error::from_scenario(e, "")),
                },
                Err(_) => errors.push(Error::Source {
                    file: name,
                    line: 1,
                    column: 1,
                    message: "the file is not valid UTF-8 text".into(),
                }),
            },
            Err(e) => errors.push(Error::io(file, e)),
        }
    }
    match Error::from_list(errors) {
        Some(err) => Err(err),
        None => Ok(scenarios),
    }
}

fn summary(content: &Content, files: &SiteFiles, started: Instant) -> Summary {
    Summary {
        pages: content.pages.len(),
        scenarios: content.scenarios.len(),
        files: files.len(),
        elapsed: started.elapsed(),
    }
}

/// Where the project is when no `--root` is given: the current folder.
pub fn default_root() -> PathBuf {
    Path::new(".").to_path_buf()
}
