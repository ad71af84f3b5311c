//! "Last updated" dates: in a git checkout, the author date of the last
//! commit that changed each file of `content/` without changing the site.
//!
//! The dates must be the same wherever a commit is checked out, since the
//! committed site must match what a fresh clone builds (`fairdice check`
//! in CI). So, never a file's modification time (a clone gives every file
//! a new one), never the clock, and never uncommitted changes: only the
//! author date, which is the same in every clone and is kept through
//! rebases and cherry-picks. And a commit that changes the site folder is
//! not counted: the site built before that commit cannot know its date,
//! so a page's date would change when the site is committed with it.
//!
//! Outside a git checkout, or without git, there are no dates (front matter
//! may still give one). A shallow clone lacks the history the dates come
//! from, so it is refused with the fix rather than giving wrong dates.

use crate::error::{Error, Result};
use serde::de::{self, Deserializer};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A calendar date written `YYYY-MM-DD`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Date(pub String);

impl Date {
    /// Check `YYYY-MM-DD`, ASCII digits only (no sign or space that
    /// Rust's number parsing would take), with a real month and day: the one
    /// owner of date parsing, for front matter and release snapshots alike.
    pub fn parse(text: &str) -> std::result::Result<Date, String> {
        let expected =
            || format!("{text:?} is not a date: expected YYYY-MM-DD, such as 2026-11-23");
        let parts: Vec<&str> = text.split('-').collect();
        let [year, month, day] = parts[..] else {
            return Err(expected());
        };
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        if !(digits(year, 4) && digits(month, 2) && digits(day, 2)) {
            return Err(expected());
        }
        let (y, m, d): (u32, u32, u32) = (
            year.parse().map_err(|_| expected())?,
            month.parse().map_err(|_| expected())?,
            day.parse().map_err(|_| expected())?,
        );
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let days = [
            31,
            if leap { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ];
        if !(1..=12).contains(&m) || d == 0 || d > days[m as usize - 1] {
            return Err(expected());
        }
        Ok(Date(text.to_string()))
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Date::parse(&text).map_err(de::Error::custom)
    }
}

/// The date of every file of `content` (a folder of a git checkout), by
/// path relative to it, from the commits that do not touch `site` (the
/// site folder, which need not exist). Empty outside git, and in a checkout
/// with no commits yet.
pub fn dates(content: &Path, site: &Path) -> Result<BTreeMap<String, String>> {
    let Some(repo) = checkout(content)? else {
        return Ok(BTreeMap::new());
    };
    let site_prefix = prefix_in(&repo.top, site);
    let mut args = vec![
        "log",
        "--format=%x01%as",
        "-z",
        "--name-only",
        "--no-renames",
        // An unborn branch (no commit yet) is no history, not a failure.
        "--ignore-missing",
        "HEAD",
        "--",
    ];
    let content_spec = format!(":(top,literal){}", repo.content_prefix);
    let site_spec = site_prefix.as_deref().map(|p| format!(":(top,literal){p}"));
    args.push(&content_spec);
    if let Some(spec) = &site_spec {
        args.push(spec);
    }
    let log = git(&repo.top, &args).map_err(|e| refused(content, &e))?;
    Ok(last_dates(
        &log,
        &repo.content_prefix,
        site_prefix.as_deref(),
    ))
}

/// Where `content` sits in its git checkout.
struct Checkout {
    /// The checkout's top folder.
    top: PathBuf,
    /// `content`'s path from there, `/`-separated, ending in `/` (empty at
    /// the top).
    content_prefix: String,
}

/// The checkout holding `content`; `None` outside git or without git, an
/// error for a shallow clone or a git that fails otherwise (such as a
/// checkout owned by another user).
fn checkout(content: &Path) -> Result<Option<Checkout>> {
    let state = match git(
        content,
        &[
            "rev-parse",
            "--is-inside-work-tree",
            "--is-shallow-repository",
            "--show-toplevel",
            "--show-prefix",
        ],
    ) {
        Ok(state) => state,
        Err(Failure::NoGit) => return Ok(None),
        Err(Failure::Failed(message)) if message.contains("not a git repository") => {
            return Ok(None)
        }
        Err(e) => return Err(refused(content, &e)),
    };
    let lines: Vec<&str> = state.lines().collect();
    let [inside, shallow, top, prefix] = lines[..] else {
        // Inside `.git`, git prints no top folder.
        return Ok(None);
    };
    if inside != "true" {
        return Ok(None);
    }
    if shallow == "true" {
        return Err(Error::Refused(format!(
            "{}: a shallow git clone: the \"last updated\" dates need the history of content/; \
             fetch it with `git fetch --unshallow` (in GitHub Actions: `fetch-depth: 0`)",
            content.display()
        )));
    }
    Ok(Some(Checkout {
        top: PathBuf::from(top),
        content_prefix: prefix.to_string(),
    }))
}

/// `folder`'s path inside the checkout at `top`, ending in `/`; `None` when
/// it lies outside. The folder may not exist yet (a first build).
fn prefix_in(top: &Path, folder: &Path) -> Option<String> {
    let name = folder.file_name()?;
    let parent = match folder.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let full = parent.canonicalize().ok()?.join(name);
    let full = full.canonicalize().unwrap_or(full);
    let top = top.canonicalize().ok()?;
    let relative = full.strip_prefix(&top).ok()?;
    let parts: Option<Vec<&str>> = relative.iter().map(|p| p.to_str()).collect();
    let parts = parts?;
    (!parts.is_empty()).then(|| format!("{}/", parts.join("/")))
}

fn refused(content: &Path, failure: &Failure) -> Error {
    let why = match failure {
        Failure::NoGit => "git could not be run".to_string(),
        Failure::Failed(message) => message.trim().to_string(),
    };
    Error::Refused(format!(
        "{}: the \"last updated\" dates come from git, which failed: {why}",
        content.display()
    ))
}

/// Each content file's first (most recent) date in `git log
/// --format=%x01%as -z --name-only` output, by path below `content_prefix`,
/// skipping every commit that touches a path below `site_prefix`.
fn last_dates(
    log: &str,
    content_prefix: &str,
    site_prefix: Option<&str>,
) -> BTreeMap<String, String> {
    let mut dates = BTreeMap::new();
    for commit in log.split('\u{1}').filter(|c| !c.is_empty()) {
        let mut tokens = commit.split('\0');
        let Some(date) = tokens.next() else { continue };
        let files: Vec<&str> = tokens
            .map(|t| t.trim_start_matches('\n'))
            .filter(|t| !t.is_empty())
            .collect();
        if site_prefix.is_some_and(|site| files.iter().any(|f| f.starts_with(site))) {
            continue;
        }
        for file in files {
            if let Some(name) = file.strip_prefix(content_prefix) {
                dates
                    .entry(name.to_string())
                    .or_insert_with(|| date.trim().to_string());
            }
        }
    }
    dates
}

/// Why a git command gave no output.
#[derive(Debug)]
enum Failure {
    /// git is not installed (or cannot be started).
    NoGit,
    /// git ran and failed, saying this.
    Failed(String),
}

/// `git ARGS` run in `dir`, its output when it succeeds. Nothing is
/// written: these are reading commands only, and no pager or prompt runs.
fn git(dir: &Path, args: &[&str]) -> std::result::Result<String, Failure> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "core.quotePath=false", "-c", "core.fsmonitor=false"])
        .args(args)
        .env("GIT_PAGER", "cat")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .stdin(Stdio::null())
        .output()
        .map_err(|_| Failure::NoGit)?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(Failure::Failed(
            String::from_utf8_lossy(&output.stderr).into_owned(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_must_be_real_days() {
        assert_eq!(Date::parse("2024-02-29").unwrap().0, "2024-02-29");
        for bad in [
            "2023-02-29",
            "2026-13-01",
            "2026-1-05",
            "26-01-05",
            "2026-01-00",
            "yesterday",
            "+202-+1-+1",
            "２０２６-01-01",
        ] {
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_most_recent_commit_of_each_file_wins_unless_it_touches_the_site() {
        // As `git log --format=%x01%as -z --name-only` prints it, newest
        // first: the site rebuilt with a.md (not counted), a merge (no
        // files), b c.yaml alone, then both files.
        let log = "\u{1}2026-11-24\0\ncontent/a.md\0site/a.html\0\0\
                   \u{1}2026-11-23\0\0\
                   \u{1}2026-11-20\0\ncontent/b c.yaml\0\0\
                   \u{1}2026-11-01\0\ncontent/a.md\0content/b c.yaml\0other/x.md\0";
        let dates = last_dates(log, "content/", Some("site/"));
        assert_eq!(dates["a.md"], "2026-11-01");
        assert_eq!(dates["b c.yaml"], "2026-11-20");
        assert_eq!(dates.len(), 2);
        // A site kept elsewhere excludes nothing.
        let dates = last_dates(log, "content/", None);
        assert_eq!(dates["a.md"], "2026-11-24");
        // content/ at the checkout's top.
        let dates = last_dates(log, "", Some("site/"));
        assert_eq!(dates["other/x.md"], "2026-11-01");
    }
    /// A new git checkout with `content/`, or `None` (with a notice)
    /// without git.
    fn checkout_with_content() -> Option<tempfile::TempDir> {
        let dir = tempfile::tempdir().unwrap();
        let ran = Command::new("git")
            .args(["init", "-q"])
            .arg(dir.path())
            .status();
        if !ran.is_ok_and(|s| s.success()) {
            eprintln!("skipped: git is not available");
            return None;
        }
        std::fs::create_dir(dir.path().join("content")).unwrap();
        Some(dir)
    }

    #[test]
    fn a_checkout_without_commits_has_no_dates() {
        let Some(dir) = checkout_with_content() else {
            return;
        };
        let content = dir.path().join("content");
        std::fs::write(content.join("a.md"), "# A\n").unwrap();
        let dates = dates(&content, &dir.path().join("site")).unwrap();
        assert!(dates.is_empty(), "{dates:?}");
    }
}
