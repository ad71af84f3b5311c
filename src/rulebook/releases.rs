//! Release snapshots: `content/releases/VERSION.json`, written by
//! `fairdice release` and committed by the author. Each records every rule
//! (key, number, title, text) and every scenario's headline figures as they
//! stood at that release, so the build can say what changed between two
//! releases without any history but these files.

use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// The folder of `content/` that holds the snapshots.
pub const FOLDER: &str = "releases";

/// A `MAJOR.MINOR.PATCH` version, compared number by number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u64, pub u64, pub u64);

impl Version {
    /// Read `1.2.3`; anything else is an error saying what was expected.
    pub fn parse(text: &str) -> Result<Version, String> {
        let parts: Vec<&str> = text.split('.').collect();
        let number = |part: &str| {
            (!part.is_empty()
                && part.bytes().all(|b| b.is_ascii_digit())
                && (part == "0" || !part.starts_with('0')))
            .then(|| part.parse::<u64>().ok())
            .flatten()
        };
        match parts.as_slice() {
            [a, b, c] => match (number(a), number(b), number(c)) {
                (Some(a), Some(b), Some(c)) => Ok(Version(a, b, c)),
                _ => Err(bad_version(text)),
            },
            _ => Err(bad_version(text)),
        }
    }

    /// The smallest version after this one worth suggesting: the next
    /// patch, else the next minor, else the next major; `None` past the
    /// last (checked, since a number may be `u64::MAX` and must not wrap).
    pub fn next(self) -> Option<Version> {
        let Version(major, minor, patch) = self;
        patch
            .checked_add(1)
            .map(|p| Version(major, minor, p))
            .or_else(|| minor.checked_add(1).map(|m| Version(major, m, 0)))
            .or_else(|| major.checked_add(1).map(|m| Version(m, 0, 0)))
    }
}

fn bad_version(text: &str) -> String {
    format!("version {text:?} is not MAJOR.MINOR.PATCH: write three whole numbers such as 1.0.0")
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// One rule as it stood at a release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleAt {
    /// The rule's stable key.
    pub key: String,
    /// Its number then.
    pub number: String,
    /// The heading it stood under.
    #[serde(default)]
    pub title: Option<String>,
    /// Its words as plain text.
    pub text: String,
    /// Its address from the site root, then.
    pub url: String,
}

/// One scenario's headline figures at a release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FiguresAt {
    /// The scenario's name (`rules/banishing`).
    pub scenario: String,
    /// Its title then.
    pub title: String,
    /// Its figures in page order.
    pub figures: Vec<Figure>,
}

/// One headline figure at a release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Figure {
    /// As snapshots hold it since 1.1: the exact value beside the one
    /// shown, so a change in rounding or wording is never a changed figure.
    Exact {
        /// The figure's label on its page.
        label: String,
        /// The value as its page showed it.
        shown: String,
        /// The exact value: a reduced fraction `p/q`, every digit of a
        /// count, or the shown text where a figure is words.
        exact: String,
    },
    /// As the first snapshots hold it: `[label, value]`, the value as its
    /// page showed it and nothing more.
    Shown(String, String),
}

impl Figure {
    /// The figure's label.
    pub fn label(&self) -> &str {
        match self {
            Figure::Exact { label, .. } | Figure::Shown(label, _) => label,
        }
    }

    /// The value as its page showed it.
    pub fn shown(&self) -> &str {
        match self {
            Figure::Exact { shown, .. } | Figure::Shown(_, shown) => shown,
        }
    }

    /// Whether two releases' figures say the same: compared exactly where
    /// both hold the exact value, else (an older snapshot) as shown.
    pub fn same_as(&self, other: &Figure) -> bool {
        match (self, other) {
            (Figure::Exact { exact: a, .. }, Figure::Exact { exact: b, .. }) => a == b,
            _ => self.shown() == other.shown(),
        }
    }
}

/// A release snapshot as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// `MAJOR.MINOR.PATCH`, the file's name.
    pub version: String,
    /// The day the release takes effect, `YYYY-MM-DD`.
    pub effective: String,
    /// Every rule, in reading order.
    pub rules: Vec<RuleAt>,
    /// Every scenario's headline figures, by name.
    pub figures: Vec<FiguresAt>,
}

/// A snapshot read from `content/releases/`, with its parsed version.
#[derive(Debug, Clone)]
pub struct Release {
    /// The file, relative to `content/`.
    pub source: String,
    /// The parsed version.
    pub version: Version,
    /// What the file holds.
    pub snapshot: Snapshot,
    /// The file's text, to locate errors.
    pub text: String,
}

impl Snapshot {
    /// The snapshot as its file holds it: pretty JSON, one trailing newline,
    /// the same bytes for the same rules.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("snapshots serialise");
        text.push('\n');
        text
    }
}

/// Whether `relative` (to `content/`) is a release snapshot.
pub fn is_snapshot(relative: &str) -> bool {
    relative
        .strip_prefix(FOLDER)
        .and_then(|rest| rest.strip_prefix('/'))
        .is_some_and(|name| !name.contains('/') && name.ends_with(".json"))
}

/// Whether `relative` (to `content/`) is a temporary that `fairdice
/// release` writes before renaming it to a snapshot: never a page's file to
/// publish, though an interrupted release may leave one (the next sweeps it).
pub fn is_temporary(relative: &str) -> bool {
    relative
        .strip_prefix(FOLDER)
        .and_then(|rest| rest.strip_prefix('/'))
        .and_then(crate::paths::temporary_of)
        .is_some_and(|(base, _)| is_snapshot(&format!("{FOLDER}/{base}")))
}

/// Parse the snapshot `relative` (`releases/1.0.0.json`); `prefix` names
/// the content folder in errors.
pub fn parse(relative: &str, text: &str, prefix: &str) -> Result<Release, Error> {
    let file = format!("{prefix}{relative}");
    let at = |line: usize, column: usize, message: String| Error::Source {
        file: file.clone(),
        line,
        column,
        message,
    };
    let snapshot: Snapshot = serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = crate::yaml::without_place(&message);
        at(
            e.line().max(1),
            e.column().max(1),
            format!(
                "release snapshot does not parse: {message}; snapshots are written by \
                 `fairdice release`"
            ),
        )
    })?;
    let (line, column) = place_of(text, "\"version\"");
    let version = Version::parse(&snapshot.version).map_err(|m| at(line, column, m))?;
    let stem = relative
        .rsplit('/')
        .next()
        .unwrap_or(relative)
        .trim_end_matches(".json");
    if stem != snapshot.version {
        return Err(at(
            line,
            column,
            format!(
                "the file holds release {} but is named {stem}.json: name it {}.json",
                snapshot.version, snapshot.version
            ),
        ));
    }
    if let Err(message) = check_date(&snapshot.effective) {
        let (line, column) = place_of(text, "\"effective\"");
        return Err(at(line, column, message));
    }
    if let Err((needle, message)) = check_scenarios(&snapshot) {
        let (line, column) = place_after(text, "\"figures\"", &needle);
        return Err(at(line, column, message));
    }
    Ok(Release {
        source: relative.to_string(),
        version,
        snapshot,
        text: text.to_string(),
    })
}

/// Every scenario a snapshot names must be a name a scenario could have,
/// since the release's page links to it: else the JSON string to locate
/// and what is wrong. (A scenario removed since the release is history,
/// not an error: its page shows it unlinked.)
fn check_scenarios(snapshot: &Snapshot) -> Result<(), (String, String)> {
    for (i, figures) in snapshot.figures.iter().enumerate() {
        let name = &figures.scenario;
        if !crate::paths::is_source_name(name) {
            let needle = serde_json::to_string(name).expect("strings serialise");
            return Err((
                needle,
                format!(
                    "figures[{i}].scenario {name:?} is not a scenario's name: write its path \
                     in content/ without .yaml, such as rules/dice"
                ),
            ));
        }
    }
    Ok(())
}

/// An effective date: a calendar day `YYYY-MM-DD`, checked by the one
/// owner of date parsing ([`crate::history::Date::parse`]), so a release and
/// a page's "last updated" accept the same days.
pub fn check_date(date: &str) -> Result<(), String> {
    crate::history::Date::parse(date)
        .map(|_| ())
        .map_err(|message| format!("effective date {message}"))
}

/// Line and column of the first `needle` in `text` (1, 1 when absent).
fn place_of(text: &str, needle: &str) -> (usize, usize) {
    place_after(text, "", needle)
}

/// Line and column of the first `needle` after the first `anchor` (of the
/// anchor when the needle is not there; 1, 1 when neither is).
fn place_after(text: &str, anchor: &str, needle: &str) -> (usize, usize) {
    let from = text.find(anchor).unwrap_or(0);
    let at = text[from..].find(needle).map_or(from, |i| from + i);
    let line = text[..at].matches('\n').count() + 1;
    let column = text[..at].rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// Order releases oldest first; two files of one version cannot exist (the
/// name is the version).
pub fn sort(releases: &mut [Release]) {
    releases.sort_by_key(|r| r.version);
}

/// Refuse a new version that is not newer than the latest release, naming
/// that release's file and line.
pub fn check_newer(new: Version, latest: Option<&Release>, prefix: &str) -> Result<(), Error> {
    let Some(latest) = latest else {
        return Ok(());
    };
    if new.cmp(&latest.version) == Ordering::Greater {
        return Ok(());
    }
    let (line, column) = place_of(&latest.text, "\"version\"");
    let fix = match latest.version.next() {
        Some(next) => format!("pick a version after it (such as {next})"),
        None => "no version comes after it: its numbers are the largest there are".to_string(),
    };
    Err(Error::Source {
        file: format!("{prefix}{}", latest.source),
        line,
        column,
        message: format!(
            "release {new} is not newer than the latest release, {}: {fix}",
            latest.version,
        ),
    })
}

/// Refuse an effective date before the latest release's (a release takes
/// effect on or after the one before it), naming that release's file and
/// line. Dates are `YYYY-MM-DD`, checked, so their text sorts as they do.
pub fn check_effective(
    (new, effective): (Version, &str),
    latest: Option<&Release>,
    prefix: &str,
) -> Result<(), Error> {
    let Some(latest) = latest else {
        return Ok(());
    };
    let before = latest.snapshot.effective.as_str();
    if effective >= before {
        return Ok(());
    }
    let (line, column) = place_of(&latest.text, "\"effective\"");
    Err(Error::Source {
        file: format!("{prefix}{}", latest.source),
        line,
        column,
        message: format!(
            "release {new} would take effect on {effective}, before the latest release, {}, \
             effective {before}: a release takes effect on or after the one before it; pass \
             --effective {before} or a later day",
            latest.version
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(version: &str) -> String {
        Snapshot {
            version: version.into(),
            effective: "2026-02-28".into(),
            rules: vec![RuleAt {
                key: "roll".into(),
                number: "1.1".into(),
                title: None,
                text: "Roll.".into(),
                url: "rules/a.html#roll".into(),
            }],
            figures: Vec::new(),
        }
        .to_text()
    }

    #[test]
    fn versions_compare_by_number() {
        let v = |t| Version::parse(t).unwrap();
        assert!(v("1.10.0") > v("1.9.3"));
        assert!(v("2.0.0") > v("1.99.99"));
        assert_eq!(v("0.1.0").to_string(), "0.1.0");
        for bad in ["1.0", "1.0.0.0", "1.a.0", "01.0.0", "1..0", "-1.0.0", ""] {
            assert!(
                Version::parse(bad)
                    .unwrap_err()
                    .contains("MAJOR.MINOR.PATCH"),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_next_version_never_wraps() {
        let max = u64::MAX;
        assert_eq!(Version(1, 2, 3).next(), Some(Version(1, 2, 4)));
        assert_eq!(Version(1, 2, max).next(), Some(Version(1, 3, 0)));
        assert_eq!(Version(1, max, max).next(), Some(Version(2, 0, 0)));
        assert_eq!(Version(max, max, max).next(), None);
        let text = snapshot(&format!("1.0.{max}"));
        let latest = parse(&format!("releases/1.0.{max}.json"), &text, "content/").unwrap();
        let err = check_newer(Version(1, 0, 0), Some(&latest), "content/").unwrap_err();
        assert!(err.to_string().ends_with("(such as 1.1.0)"), "{err}");
        let last = format!("{max}.{max}.{max}");
        let latest = parse(
            &format!("releases/{last}.json"),
            &snapshot(&last),
            "content/",
        )
        .unwrap();
        let err = check_newer(Version(1, 0, 0), Some(&latest), "content/").unwrap_err();
        assert!(
            err.to_string()
                .ends_with("no version comes after it: its numbers are the largest there are"),
            "{err}"
        );
    }

    #[test]
    fn dates_are_real_days() {
        for good in ["2026-01-31", "2024-02-29", "2000-02-29"] {
            assert_eq!(check_date(good), Ok(()), "{good}");
        }
        for bad in [
            "2026-02-29",
            "1900-02-29",
            "2026-13-01",
            "2026-1-01",
            "today",
            "2026-04-31",
            "+202-+1-+1",
            "2026-+1-01",
            "2026-01-+1",
            " 2026-01-01",
        ] {
            assert!(check_date(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_committed_first_format_snapshot_reads_and_compares_as_shown() {
        let text = include_str!("../../content/releases/1.0.0.json");
        let release = parse("releases/1.0.0.json", text, "content/").unwrap();
        assert_eq!(release.snapshot.to_text(), text, "it writes back unchanged");
        let figures = &release.snapshot.figures[0].figures;
        assert!(figures.iter().all(|f| matches!(f, Figure::Shown(..))));
        let shown = Figure::Shown("mean".into(), "7".into());
        let exact = |shown: &str, exact: &str| Figure::Exact {
            label: "mean".into(),
            shown: shown.into(),
            exact: exact.into(),
        };
        assert!(exact("7", "7/1").same_as(&exact("7.0", "7/1")));
        assert!(!exact("7", "7/1").same_as(&exact("7", "15/2")));
        assert!(shown.same_as(&exact("7", "7/1")));
        assert!(!shown.same_as(&exact("7.0", "7/1")));
        assert_eq!(
            serde_json::to_string(&exact("3.5", "7/2")).unwrap(),
            r#"{"label":"mean","shown":"3.5","exact":"7/2"}"#
        );
        assert_eq!(serde_json::to_string(&shown).unwrap(), r#"["mean","7"]"#);
    }

    #[test]
    fn snapshots_round_trip_and_bad_ones_are_located() {
        let text = snapshot("1.0.0");
        let release = parse("releases/1.0.0.json", &text, "content/").unwrap();
        assert_eq!(release.version, Version(1, 0, 0));
        assert_eq!(release.snapshot.to_text(), text);
        let err = parse("releases/1.0.1.json", &text, "content/").unwrap_err();
        assert_eq!(
            err.to_string(),
            "content/releases/1.0.1.json:2:3: the file holds release 1.0.0 but is named \
             1.0.1.json: name it 1.0.0.json"
        );
        let err = parse("releases/1.0.0.json", "{\n  \"version\": 1,\n}", "content/")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("content/releases/1.0.0.json:2:14: release snapshot does not parse"),
            "{err}"
        );
        let err = check_newer(Version(1, 0, 0), Some(&release), "content/").unwrap_err();
        assert_eq!(
            err.to_string(),
            "content/releases/1.0.0.json:2:3: release 1.0.0 is not newer than the latest \
             release, 1.0.0: pick a version after it (such as 1.0.1)"
        );
        assert!(check_newer(Version(1, 1, 0), Some(&release), "content/").is_ok());
        assert!(is_snapshot("releases/1.0.0.json"));
        assert!(!is_snapshot("releases/old/1.0.0.json"));
        assert!(!is_snapshot("data/1.0.0.json"));
        assert!(is_temporary("releases/1.0.0.json.tmp-12-0"));
        assert!(!is_temporary("releases/1.0.0.json"));
        assert!(!is_temporary("releases/notes.txt.tmp-12-0"));
        assert!(!is_temporary("data/1.0.0.json.tmp-12-0"));
    }
}
