//! What changed between releases of the rules: the pages the build writes
//! from the snapshots in `content/releases/` (one "what changed" page per
//! release, the list of releases, every rule's history), and the marks on
//! the rules that changed in the latest release.
//!
//! Rules are matched by key, never by number: a rule that moved from 3.2
//! to 3.3 is renumbered, not deleted and added. Changed words are marked
//! with a word diff (the `similar` crate), up to [`MOST_DIFF_WORDS`].

use super::made::Made;
use super::releases::{Release, RuleAt, FOLDER};
use crate::content::{Content, Page};
use std::collections::{BTreeMap, HashMap};

/// The releases of the site, oldest first.
#[derive(Debug, Default)]
pub(crate) struct History<'a> {
    releases: &'a [Release],
    /// Each release's rules by key (the first of a key): what one rule was
    /// at each release is a look-up, not a walk through every rule, which
    /// cost rules x rules for the history and the marks on the rules.
    by_key: Vec<HashMap<&'a str, &'a RuleAt>>,
}

/// How a rule changed from one release to the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change<'r> {
    /// New in this release.
    Added(&'r RuleAt),
    /// Gone in this release.
    Removed(&'r RuleAt),
    /// Same key, other number or other words (or both).
    Changed {
        /// As it was.
        old: &'r RuleAt,
        /// As it is.
        new: &'r RuleAt,
    },
}

/// The output path of a release's "what changed" page.
pub(crate) fn change_page(version: &str) -> String {
    format!("{FOLDER}/{version}.html")
}

/// The output path of the rule history.
pub(crate) fn history_page() -> String {
    format!("{FOLDER}/history.html")
}

/// Add the pages the releases need, where the author wrote none: the list
/// (`releases/_index.md`), one page per release and the rule history. Each
/// is [`Made`] data the site renders through the rule book's templates, and
/// a page like any other (in the sidebar, the search and the print page).
pub(crate) fn add_pages(content: &mut Content) {
    if content.releases.is_empty() {
        return;
    }
    let mut pages = vec![
        page(
            "_index.md",
            "Releases",
            None,
            "The releases of the rules and what changed in each.",
            Made::Releases,
        ),
        page(
            "history.md",
            "Rule history",
            Some(-1),
            "Every rule across the releases.",
            Made::History,
        ),
    ];
    let count = content.releases.len() as i64;
    for (i, release) in content.releases.iter().enumerate() {
        let version = &release.snapshot.version;
        pages.push(page(
            &format!("{version}.md"),
            &format!("What changed in {version}"),
            Some(count - i as i64),
            &format!(
                "The rules of release {version}, effective {}.",
                release.snapshot.effective
            ),
            Made::Changes {
                version: version.clone(),
            },
        ));
    }
    for page in pages {
        if !content.pages.iter().any(|p| p.source == page.source) {
            content.pages.push(page);
        }
    }
    content.pages.sort_by(|a, b| a.source.cmp(&b.source));
}

/// Add the glossary page (`glossary.md`, [`Made::Glossary`]) when the site
/// has a glossary and the author wrote no such page.
pub(crate) fn add_glossary_page(content: &mut Content) {
    if content.glossary.is_none() || content.pages.iter().any(|p| p.source == GLOSSARY_PAGE) {
        return;
    }
    content.pages.push(made_page(
        GLOSSARY_PAGE.into(),
        "Glossary",
        None,
        "The terms the rules and the analyses use.",
        Made::Glossary,
    ));
    content.pages.sort_by(|a, b| a.source.cmp(&b.source));
}

/// The glossary page's source.
pub(crate) const GLOSSARY_PAGE: &str = "glossary.md";

/// A page of the releases' folder.
fn page(name: &str, title: &str, weight: Option<i64>, description: &str, made: Made) -> Page {
    made_page(format!("{FOLDER}/{name}"), title, weight, description, made)
}

/// A page the rule book made: data, with no markdown body.
fn made_page(
    source: String,
    title: &str,
    weight: Option<i64>,
    description: &str,
    made: Made,
) -> Page {
    Page {
        source,
        title: title.into(),
        weight,
        description: Some(description.into()),
        updated: None,
        body: String::new(),
        body_line: 1,
        numbered: false,
        made: Some(made),
        translated_from: None,
    }
}

impl<'a> History<'a> {
    /// The releases of `content`, already sorted oldest first.
    pub fn new(releases: &'a [Release]) -> Self {
        let by_key = releases
            .iter()
            .map(|release| {
                let mut rules = HashMap::new();
                for rule in &release.snapshot.rules {
                    rules.entry(rule.key.as_str()).or_insert(rule);
                }
                rules
            })
            .collect();
        History { releases, by_key }
    }

    /// Rule `key` as release `index` held it.
    pub(super) fn rule_at(&self, index: usize, key: &str) -> Option<&'a RuleAt> {
        self.by_key[index].get(key).copied()
    }

    /// The latest release.
    pub fn latest(&self) -> Option<&'a Release> {
        self.releases.last()
    }

    pub(super) fn find(&self, version: &str) -> Option<usize> {
        self.releases
            .iter()
            .position(|r| r.snapshot.version == version)
    }

    /// The changes of release `index` against the one before, in the new
    /// release's reading order, removed rules last.
    pub fn changes(&self, index: usize) -> Vec<Change<'a>> {
        let new = &self.releases[index].snapshot;
        let Some(old) = index.checked_sub(1).map(|i| &self.releases[i].snapshot) else {
            return new.rules.iter().map(Change::Added).collect();
        };
        let old_by_key: BTreeMap<&str, &RuleAt> =
            old.rules.iter().map(|r| (r.key.as_str(), r)).collect();
        let new_keys: BTreeMap<&str, &RuleAt> =
            new.rules.iter().map(|r| (r.key.as_str(), r)).collect();
        let mut changes: Vec<Change> = new
            .rules
            .iter()
            .filter_map(|rule| match old_by_key.get(rule.key.as_str()) {
                None => Some(Change::Added(rule)),
                Some(old) if old.number != rule.number || old.text != rule.text => {
                    Some(Change::Changed { old, new: rule })
                }
                Some(_) => None,
            })
            .collect();
        changes.extend(
            old.rules
                .iter()
                .filter(|r| !new_keys.contains_key(r.key.as_str()))
                .map(Change::Removed),
        );
        changes
    }

    /// The latest release in which rule `key` was added or reworded.
    pub fn changed_in(&self, key: &str) -> Option<&'a str> {
        let mut last = None;
        let mut before: Option<&RuleAt> = None;
        for (index, release) in self.releases.iter().enumerate() {
            let now = self.rule_at(index, key);
            if let Some(now) = now {
                if before.is_none_or(|b| b.text != now.text) {
                    last = Some(release.snapshot.version.as_str());
                }
            }
            before = now;
        }
        last
    }

    /// Whether any release holds rule `key` (so its history has an entry).
    pub fn knows(&self, key: &str) -> bool {
        self.by_key.iter().any(|rules| rules.contains_key(key))
    }

    /// Whether rule `key` was added or reworded in the latest release.
    pub(crate) fn changed_in_latest(&self, key: &str) -> bool {
        self.releases.len() > 1
            && self.latest().map(|r| r.snapshot.version.as_str()) == self.changed_in(key)
    }

    /// Release `index`, oldest first.
    pub(super) fn release(&self, index: usize) -> &'a Release {
        &self.releases[index]
    }

    /// Every release, oldest first.
    pub(super) fn releases(&self) -> &'a [Release] {
        self.releases
    }
}

/// The most words (old and new together) a rule's change is diffed word
/// by word. The diff's time grows with the words times the words changed:
/// two texts of tens of thousands of words took minutes, two of 500 wholly
/// different words take 3 ms, and rules have a few hundred words at most.
/// Past this, the change is shown as rewritten: the old text struck, the
/// new one added.
pub(crate) const MOST_DIFF_WORDS: usize = 1_000;

/// Whether the change from `old` to `new` is diffed word by word.
pub(super) fn diffable(old: &RuleAt, new: &RuleAt) -> bool {
    old.text.split_whitespace().count() + new.text.split_whitespace().count() <= MOST_DIFF_WORDS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_pages_are_made_as_data_not_markdown() {
        let mut content = Content {
            releases: vec![super::super::views::tests::release("1.0.0", Vec::new())],
            glossary: Some(Vec::new()),
            ..Content::default()
        };
        add_pages(&mut content);
        add_glossary_page(&mut content);
        let made: Vec<(&str, &Made)> = content
            .pages
            .iter()
            .map(|page| {
                assert_eq!(page.body, "", "{} has markdown", page.source);
                (page.source.as_str(), page.made.as_ref().unwrap())
            })
            .collect();
        let changes = Made::Changes {
            version: "1.0.0".into(),
        };
        assert_eq!(
            made,
            [
                ("glossary.md", &Made::Glossary),
                ("releases/1.0.0.md", &changes),
                ("releases/_index.md", &Made::Releases),
                ("releases/history.md", &Made::History),
            ]
        );
    }
}
