//! "Last updated" dates: in a git checkout, the author date of the last
//! commit that touched each file of `content/`.
//!
//! Never a file's modification time: a fresh clone gives every file a new
//! one, so the committed site could never match a fresh build. The author
//! date is kept through rebases and cherry-picks, and is the same in every
//! clone of a commit. A file with changes not yet committed gets the date
//! git would give it if committed now (`git var GIT_AUTHOR_IDENT`), so a
//! site rebuilt and committed together with its content the same day
//! matches what a fresh clone builds.
//!
//! Outside a git checkout, or without git, there are no dates (front matter
//! may still give one). A shallow clone lacks the history the dates come
//! from, so it is refused with the fix rather than giving wrong dates.

use crate::error::{Error, Result};
use serde::de::{self, Deserializer};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

/// A calendar date written `YYYY-MM-DD`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Date(pub String);

impl Date {
    /// Check `YYYY-MM-DD` with a real month and day.
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
/// path relative to it. Empty outside git.
pub fn dates(content: &Path) -> Result<BTreeMap<String, String>> {
    let Some(state) = git(
        content,
        &[
            "rev-parse",
            "--is-inside-work-tree",
            "--is-shallow-repository",
        ],
    ) else {
        return Ok(BTreeMap::new());
    };
    let mut lines = state.lines();
    if lines.next() != Some("true") {
        return Ok(BTreeMap::new());
    }
    if lines.next() == Some("true") {
        return Err(Error::Refused(format!(
            "{}: a shallow git clone: the \"last updated\" dates need the history of content/; \
             fetch it with `git fetch --unshallow` (in GitHub Actions: `fetch-depth: 0`)",
            content.display()
        )));
    }
    let log = git(
        content,
        &[
            "log",
            "--format=%x01%as",
            "-z",
            "--name-only",
            "--no-renames",
            "--relative",
            "--",
            ".",
        ],
    )
    .unwrap_or_default();
    let mut dates = last_dates(&log);
    let changed = git(
        content,
        &[
            "diff",
            "--name-only",
            "-z",
            "--no-renames",
            "--relative",
            "HEAD",
            "--",
            ".",
        ],
    );
    let untracked = git(content, &["ls-files", "--others", "-z", "--", "."]);
    let uncommitted: BTreeSet<&str> = [&changed, &untracked]
        .into_iter()
        .flatten()
        .flat_map(|out| out.split('\0'))
        .filter(|name| !name.is_empty())
        .collect();
    if !uncommitted.is_empty() {
        if let Some(today) = git(content, &["var", "GIT_AUTHOR_IDENT"]).and_then(|i| ident_date(&i))
        {
            for name in uncommitted {
                dates.insert(name.to_string(), today.clone());
            }
        }
    }
    Ok(dates)
}

/// Each file's first (most recent) date in `git log --format=%x01%as -z
/// --name-only` output.
fn last_dates(log: &str) -> BTreeMap<String, String> {
    let mut dates = BTreeMap::new();
    let mut date = None;
    for token in log.split('\0') {
        let token = token.trim_start_matches('\n');
        if let Some(d) = token.strip_prefix('\u{1}') {
            date = Some(d.to_string());
        } else if let (false, Some(d)) = (token.is_empty(), &date) {
            dates.entry(token.to_string()).or_insert_with(|| d.clone());
        }
    }
    dates
}

/// The date of `Name <email> SECONDS +HHMM`, in its own time zone.
fn ident_date(ident: &str) -> Option<String> {
    let mut fields = ident.trim().rsplitn(3, ' ');
    let zone = fields.next()?;
    let seconds: i64 = fields.next()?.parse().ok()?;
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let hours: i64 = zone.get(1..3)?.parse().ok()?;
    let minutes: i64 = zone.get(3..5)?.parse().ok()?;
    let local = seconds + sign * (hours * 3600 + minutes * 60);
    Some(civil_date(local.div_euclid(86_400)))
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `git ARGS` run in `dir`, its output when it succeeds. Nothing is
/// written: these are reading commands only, and no pager or prompt runs.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "core.quotePath=false", "-c", "core.fsmonitor=false"])
        .args(args)
        .env("GIT_PAGER", "cat")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
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
        ] {
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_most_recent_commit_of_each_file_wins() {
        let log =
            "\u{1}2026-11-23\0\na.md\0\0\u{1}2026-11-20\0\0\u{1}2026-11-01\0\na.md\0b c.yaml\0";
        let dates = last_dates(log);
        assert_eq!(dates["a.md"], "2026-11-23");
        assert_eq!(dates["b c.yaml"], "2026-11-01");
        assert_eq!(dates.len(), 2);
    }

    #[test]
    fn commit_dates_are_read_in_their_own_time_zone() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(19_782), "2024-02-29");
        assert_eq!(civil_date(-1), "1969-12-31");
        // 1795447073 is 2026-11-23 15:17:53 UTC; 1795400000 is 02:13:20 UTC.
        assert_eq!(
            ident_date("A <a@b> 1795447073 +0000").as_deref(),
            Some("2026-11-23")
        );
        assert_eq!(
            ident_date("A B <a@b> 1795447073 +0900").as_deref(),
            Some("2026-11-24")
        );
        assert_eq!(
            ident_date("A <a@b> 1795400000 -0300").as_deref(),
            Some("2026-11-22")
        );
        assert_eq!(
            ident_date("A <a@b> 1795400000 +0530").as_deref(),
            Some("2026-11-23")
        );
        assert_eq!(ident_date("nonsense"), None);
    }
}
