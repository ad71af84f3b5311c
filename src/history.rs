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
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A calendar date written `YYYY-MM-DD`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Date(pub String);

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
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = Date;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a date YYYY-MM-DD")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> std::result::Result<Date, E> {
                Date::parse(text).map_err(E::custom)
            }
        }
        // Checking in the visitor lets serde_yaml attach the value's place.
        d.deserialize_str(Visitor)
    }
}

/// The date of every file of `content` (a folder of a git checkout), by
/// path relative to it, from the commits that do not touch `site` (the
/// site folder, which need not exist). Empty outside git, and in a checkout
/// with no commits yet.
///
/// One `git log` limited to `content`, so its output grows with the
/// changes to content files only; then, for just those commits, which
/// also touch the site (one `git diff-tree`, one line per commit). Listing
/// the site's files in the log instead cost seconds per 20,000 rebuilds.
pub fn dates(content: &Path, site: &Path) -> Result<BTreeMap<String, String>> {
    let Some(repo) = checkout(content)? else {
        return Ok(BTreeMap::new());
    };
    let content_spec = format!(":(top,literal){}", repo.content_prefix);
    // `--ignore-missing HEAD`: an unborn branch (no commit yet) is no
    // history, not a failure.
    let args = [
        "log",
        LOG_FORMAT,
        "-z",
        "--name-only",
        "--no-renames",
        "--ignore-missing",
        "HEAD",
        "--",
        &content_spec,
    ];
    let log = git(&repo.top, &args, &[]).map_err(|e| refused(content, &e))?;
    let commits = commits(&log);
    let skipped = match prefix_in(&repo.top, site) {
        Some(site) => touching(&repo.top, &commits, &site).map_err(|e| refused(content, &e))?,
        None => BTreeSet::new(),
    };
    Ok(last_dates(&commits, &repo.content_prefix, &skipped))
}

/// Each commit of the log opens with a NUL, then its hash and author date.
/// Names end in a NUL and are never empty, so a header is always the token
/// after an empty one and no file name, whatever bytes it holds, can pass
/// for one.
const LOG_FORMAT: &str = "--format=%x00%H %as";

/// One commit of the log: its hash, its author date and the names it
/// changed, as bytes.
struct Commit<'a> {
    hash: &'a str,
    date: Date,
    files: Vec<&'a [u8]>,
}

/// Which of `commits` change something below `site_prefix`: `git
/// diff-tree` not recursing prints only the top folder, once a commit.
fn touching<'a>(
    top: &Path,
    commits: &[Commit<'a>],
    site_prefix: &str,
) -> std::result::Result<BTreeSet<&'a str>, Failure> {
    if commits.is_empty() {
        return Ok(BTreeSet::new());
    }
    let spec = format!(":(top,literal){site_prefix}");
    let args = [
        "diff-tree",
        "--stdin",
        "-z",
        "--name-only",
        "--root",
        "--",
        &spec,
    ];
    let input: String = commits.iter().map(|c| format!("{}\n", c.hash)).collect();
    let out = git(top, &args, input.as_bytes())?;
    let printed: BTreeSet<&[u8]> = out.split(|&b| b == 0).collect();
    Ok(commits
        .iter()
        .map(|c| c.hash)
        .filter(|hash| printed.contains(hash.as_bytes()))
        .collect())
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
        &[],
    ) {
        Ok(state) => String::from_utf8_lossy(&state).into_owned(),
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
        return Err(Error::file(
            content.display(),
            "a shallow git clone: the \"last updated\" dates need the history of content/; \
             fetch it with `git fetch --unshallow` (in GitHub Actions: `fetch-depth: 0`)",
        ));
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
    Error::file(
        content.display(),
        format!("the \"last updated\" dates come from git, which failed: {why}"),
    )
}

/// Each content file's first (most recent) date, by path below
/// `content_prefix`, skipping the commits in `skipped` (those that touch
/// the site).
fn last_dates(
    commits: &[Commit],
    content_prefix: &str,
    skipped: &BTreeSet<&str>,
) -> BTreeMap<String, String> {
    let mut dates = BTreeMap::new();
    for commit in commits.iter().filter(|c| !skipped.contains(c.hash)) {
        for name in commit.files.iter().filter_map(|f| trusted_name(f)) {
            if let Some(name) = name.strip_prefix(content_prefix) {
                dates
                    .entry(name.to_string())
                    .or_insert_with(|| commit.date.0.clone());
            }
        }
    }
    dates
}

/// The log's commits ([`LOG_FORMAT`], `-z --name-only`), newest first;
/// one whose header is not a hash and a date is dropped.
fn commits(log: &[u8]) -> Vec<Commit<'_>> {
    let mut commits: Vec<Option<Commit>> = Vec::new();
    let mut header_next = true;
    for token in log.split(|&b| b == 0) {
        if token.is_empty() {
            header_next = true;
        } else if header_next {
            header_next = false;
            commits.push(header(token));
        } else if let Some(Some(commit)) = commits.last_mut() {
            // The first name follows the header's line break.
            commit
                .files
                .push(token.strip_prefix(b"\n").unwrap_or(token));
        }
    }
    commits.into_iter().flatten().collect()
}

/// A commit's header, `HASH DATE`, as [`LOG_FORMAT`] writes it.
fn header(token: &[u8]) -> Option<Commit<'_>> {
    let (hash, date) = std::str::from_utf8(token).ok()?.split_once(' ')?;
    let hex = !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_hexdigit());
    Some(Commit {
        hash: hex.then_some(hash)?,
        date: Date::parse(date).ok()?,
        files: Vec::new(),
    })
}

/// A name as UTF-8 without control characters; `None` for any other,
/// which is never given a date (a line break or a git framing byte in a
/// name must not make it pass for another file, or for a date).
fn trusted_name(name: &[u8]) -> Option<&str> {
    let name = std::str::from_utf8(name).ok()?;
    (!name.chars().any(char::is_control)).then_some(name)
}

/// Why a git command gave no output.
#[derive(Debug)]
enum Failure {
    /// git is not installed (or cannot be started).
    NoGit,
    /// git ran and failed, saying this.
    Failed(String),
}

/// `git ARGS` run in `dir` with `input` on its standard input (written
/// from a thread, so a full output pipe never stalls it), its output when
/// it succeeds. Nothing is written: these are reading commands only, and no
/// pager or prompt runs.
fn git(dir: &Path, args: &[&str], input: &[u8]) -> std::result::Result<Vec<u8>, Failure> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "core.quotePath=false", "-c", "core.fsmonitor=false"])
        .args(args)
        .env("GIT_PAGER", "cat")
        .env("GIT_TERMINAL_PROMPT", "0")
        // Its messages in English, which `checkout` reads.
        .env("LC_ALL", "C")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|_| Failure::NoGit)?;
    let mut stdin = child.stdin.take().expect("piped");
    let output = std::thread::scope(|scope| {
        scope.spawn(move || {
            // A git that exits early closes the pipe: its status says why.
            let _ = stdin.write_all(input);
        });
        child.wait_with_output()
    })
    .map_err(|_| Failure::NoGit)?;
    if output.status.success() {
        Ok(output.stdout)
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
        // As `git log --format=%x00%H %as -z --name-only` prints it, newest
        // first: a.md with the site rebuilt (not counted), b c.yaml alone,
        // then both files.
        let log = b"\x00aa 2026-11-24\0\ncontent/a.md\0\
                    \x00bb 2026-11-20\0\ncontent/b c.yaml\0\
                    \x00cc 2026-11-01\0\ncontent/a.md\0content/b c.yaml\0other/x.md\0";
        let commits = commits(log);
        let site: BTreeSet<&str> = ["aa"].into();
        let dates = last_dates(&commits, "content/", &site);
        assert_eq!(dates["a.md"], "2026-11-01");
        assert_eq!(dates["b c.yaml"], "2026-11-20");
        assert_eq!(dates.len(), 2);
        // A site kept elsewhere excludes nothing.
        let dates = last_dates(&commits, "content/", &BTreeSet::new());
        assert_eq!(dates["a.md"], "2026-11-24");
        // content/ at the checkout's top.
        let dates = last_dates(&commits, "", &site);
        assert_eq!(dates["other/x.md"], "2026-11-01");
    }

    #[test]
    fn names_with_control_bytes_spoof_nothing() {
        // A name holding the old framing byte and a date, one holding a
        // line break and another file's name, and one not UTF-8: none
        // starts a commit or dates a file.
        let log = b"\x00aa 2026-11-24\0\ncontent/x\x01bb 2030-01-01\0content/y\n\ncontent/a.md\0\
                    content/\xff.md\0\
                    \x00cc 2026-11-01\0\ncontent/a.md\0";
        let dates = last_dates(&commits(log), "content/", &BTreeSet::new());
        assert_eq!(dates.len(), 1, "{dates:?}");
        assert_eq!(dates["a.md"], "2026-11-01");
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

    /// Commit everything in `dir` as written on `date`.
    fn commit_all(dir: &Path, date: &str) {
        let run = |args: &[&str]| {
            let status = Command::new("git")
                .arg("-C")
                .arg(dir)
                .args(["-c", "user.name=A", "-c", "user.email=a@example.com"])
                .args(args)
                .env("GIT_AUTHOR_DATE", format!("{date}T12:00:00Z"))
                .status()
                .unwrap();
            assert!(status.success(), "git {args:?}");
        };
        run(&["add", "-A"]);
        run(&["commit", "-q", "-m", "x"]);
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

    #[test]
    fn a_name_holding_a_date_after_a_control_byte_dates_nothing() {
        let Some(dir) = checkout_with_content() else {
            return;
        };
        let content = dir.path().join("content");
        std::fs::write(content.join("a.md"), "# A\n").unwrap();
        std::fs::write(content.join("0\u{1}2030-01-01"), "").unwrap();
        std::fs::write(content.join("0\n2031-01-01"), "").unwrap();
        commit_all(dir.path(), "2026-11-24");
        let dates = dates(&content, &dir.path().join("site")).unwrap();
        assert_eq!(dates.len(), 1, "{dates:?}");
        assert_eq!(dates["a.md"], "2026-11-24");
    }
}
