//! What changed between releases of the rules: the pages the build writes
//! from the snapshots in `content/releases/` (one "what changed" page per
//! release, the list of releases, every rule's history), and the marks on
//! the rules that changed in the latest release.
//!
//! Rules are matched by key, never by number: a rule that moved from 3.2
//! to 3.3 is renumbered, not deleted and added. Changed words are marked
//! with a word diff (the `similar` crate), up to [`MOST_DIFF_WORDS`].

use super::releases::{Release, RuleAt, FOLDER};
use crate::content::{Content, Page};
use crate::markdown::escape_html;
use crate::paths;
use similar::{ChangeTag, TextDiff};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

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
/// is a shortcode the site expands, so they are pages like any other (in
/// the sidebar, the search and the print page).
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
            "{{ releases() }}",
        ),
        page(
            "history.md",
            "Rule history",
            Some(-1),
            "Every rule across the releases.",
            "{{ history() }}",
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
            &format!("{{{{ changes(version=\"{version}\") }}}}"),
        ));
    }
    for page in pages {
        if !content.pages.iter().any(|p| p.source == page.source) {
            content.pages.push(page);
        }
    }
    content.pages.sort_by(|a, b| a.source.cmp(&b.source));
}

/// Add the glossary page (`glossary.md`, the `glossary()` shortcode) when
/// the site has a glossary and the author wrote no such page.
pub(crate) fn add_glossary_page(content: &mut Content) {
    if content.glossary.is_none() || content.pages.iter().any(|p| p.source == GLOSSARY_PAGE) {
        return;
    }
    content.pages.push(Page {
        source: GLOSSARY_PAGE.into(),
        title: "Glossary".into(),
        weight: None,
        description: Some("The terms the rules and the analyses use.".into()),
        updated: None,
        body: "{{ glossary() }}\n".into(),
        body_line: 1,
        numbered: false,
    });
    content.pages.sort_by(|a, b| a.source.cmp(&b.source));
}

/// The glossary page's source.
pub(crate) const GLOSSARY_PAGE: &str = "glossary.md";

fn page(name: &str, title: &str, weight: Option<i64>, description: &str, body: &str) -> Page {
    Page {
        source: format!("{FOLDER}/{name}"),
        title: title.into(),
        weight,
        description: Some(description.into()),
        updated: None,
        body: format!("{body}\n"),
        body_line: 1,
        numbered: false,
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
    fn rule_at(&self, index: usize, key: &str) -> Option<&'a RuleAt> {
        self.by_key[index].get(key).copied()
    }

    /// The latest release.
    pub fn latest(&self) -> Option<&'a Release> {
        self.releases.last()
    }

    fn find(&self, version: &str) -> Option<usize> {
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

    /// The "what changed" page of `version`: each changed rule linked
    /// (`live`) to where it stands now, its changed words marked; then the
    /// figures that changed, linked (`scenario_href`) to the scenarios the
    /// site still has.
    pub(crate) fn changes_html(
        &self,
        version: &str,
        live: &dyn Fn(&str) -> Option<String>,
        scenario_href: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        let index = self.find(version).ok_or_else(|| {
            format!(
                "changes(...): no release {version:?}; releases are the files of content/{FOLDER}/"
            )
        })?;
        let release = &self.releases[index].snapshot;
        let mut html = format!(
            "<p class=\"release-info\">Release {}, effective {}.",
            escape_html(&release.version),
            escape_html(&release.effective)
        );
        let Some(previous) = index.checked_sub(1).map(|i| &self.releases[i].snapshot) else {
            let scenarios = match release.figures.len() {
                1 => "1 scenario".to_string(),
                n => format!("{n} scenarios"),
            };
            let _ = writeln!(
                html,
                " The first release: {} rules and the headline figures of {scenarios}.</p>",
                release.rules.len(),
            );
            return Ok(html);
        };
        let _ = writeln!(
            html,
            " Changes since release {}, rule by rule (matched by key, so a rule that only \
             moved is shown as renumbered).</p>",
            escape_html(&previous.version)
        );
        let changes = self.changes(index);
        if changes.is_empty() {
            html.push_str("<p>No rule changed.</p>\n");
        } else {
            html.push_str("<dl class=\"changes\">\n");
            for change in &changes {
                change_html(&mut html, change, live);
            }
            html.push_str("</dl>\n");
        }
        figures_html(&mut html, previous, release, scenario_href);
        Ok(html)
    }

    /// The list of releases, newest first, linked to their pages.
    pub(crate) fn releases_html(&self, from: &str) -> String {
        let mut html = String::from("<ul class=\"releases\">\n");
        for release in self.releases.iter().rev() {
            let s = &release.snapshot;
            let _ = writeln!(
                html,
                "<li><a href=\"{}\">Release {}</a>, effective {}: {} rules.</li>",
                paths::href(from, &change_page(&s.version)),
                escape_html(&s.version),
                escape_html(&s.effective),
                s.rules.len()
            );
        }
        html.push_str("</ul>\n");
        html
    }

    /// Every rule that any release held, with its number and words at each
    /// release where it was added, renumbered, reworded or removed.
    pub(crate) fn history_html(&self, live: &dyn Fn(&str) -> Option<String>) -> String {
        let mut order: Vec<&str> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for release in self.releases.iter().rev() {
            for rule in &release.snapshot.rules {
                if seen.insert(&rule.key) {
                    order.push(&rule.key);
                }
            }
        }
        let mut html = String::from("<dl class=\"changes history\">\n");
        for key in order {
            let _ = writeln!(
                html,
                "<dt id=\"{}\">{}</dt>",
                escape_html(key),
                match live(key) {
                    Some(href) => format!(
                        "<a href=\"{}\">{}</a>",
                        escape_html(&href),
                        escape_html(key)
                    ),
                    None => format!("{} (no longer in the rules)", escape_html(key)),
                }
            );
            let mut before: Option<&RuleAt> = None;
            for (index, release) in self.releases.iter().enumerate() {
                let now = self.rule_at(index, key);
                let version = escape_html(&release.snapshot.version);
                match (before, now) {
                    (None, Some(now)) => {
                        let _ = writeln!(
                            html,
                            "<dd>{version}: added as rule {}: {}</dd>",
                            escape_html(&now.number),
                            escape_html(&now.text)
                        );
                    }
                    (Some(old), None) => {
                        let _ = writeln!(
                            html,
                            "<dd>{version}: removed (was rule {})</dd>",
                            escape_html(&old.number)
                        );
                    }
                    (Some(old), Some(now)) if old != now => {
                        let _ = writeln!(
                            html,
                            "<dd>{version}: {}{}</dd>",
                            renumbering(old, now),
                            words(old, now)
                        );
                    }
                    _ => {}
                }
                before = now;
            }
        }
        html.push_str("</dl>\n");
        html
    }
}

fn change_html(html: &mut String, change: &Change, live: &dyn Fn(&str) -> Option<String>) {
    let key = match change {
        Change::Added(rule) | Change::Removed(rule) => &rule.key,
        Change::Changed { new, .. } => &new.key,
    };
    let label = |number: &str| match live(key) {
        Some(href) => format!(
            "<a href=\"{}\">Rule {}</a>",
            escape_html(&href),
            escape_html(number)
        ),
        None => format!("Rule {}", escape_html(number)),
    };
    let (head, body) = match change {
        Change::Added(rule) => (
            format!("{} (added)", label(&rule.number)),
            escape_html(&rule.text),
        ),
        Change::Removed(rule) => (
            format!("Rule {} (removed)", escape_html(&rule.number)),
            format!("<del class=\"word\">{}</del>", escape_html(&rule.text)),
        ),
        Change::Changed { old, new } => (
            format!(
                "{} ({})",
                label(&new.number),
                match (
                    old.number != new.number,
                    old.text != new.text,
                    diffable(old, new)
                ) {
                    (true, true, true) => "renumbered and reworded",
                    (true, true, false) => "renumbered and rewritten",
                    (true, false, _) => "renumbered",
                    (false, _, true) => "reworded",
                    (false, _, false) => "rewritten",
                }
            ),
            format!("{}{}", renumbering(old, new), words(old, new)),
        ),
    };
    let _ = writeln!(
        html,
        "<dt id=\"{}\">{head} <code>{}</code></dt>\n<dd>{body}</dd>",
        escape_html(key),
        escape_html(key)
    );
}

/// "was 3.2, now 3.3: " when the number changed.
fn renumbering(old: &RuleAt, new: &RuleAt) -> String {
    if old.number == new.number {
        return String::new();
    }
    format!(
        "was rule {}, now rule {}. ",
        escape_html(&old.number),
        escape_html(&new.number)
    )
}

/// The most words (old and new together) a rule's change is diffed word
/// by word. The diff's time grows with the words times the words changed:
/// two texts of tens of thousands of words took minutes, two of 500 wholly
/// different words take 3 ms, and rules have a few hundred words at most.
/// Past this, the change is shown as rewritten: the old text struck, the
/// new one added.
pub(crate) const MOST_DIFF_WORDS: usize = 1_000;

/// Whether the change from `old` to `new` is diffed word by word.
fn diffable(old: &RuleAt, new: &RuleAt) -> bool {
    old.text.split_whitespace().count() + new.text.split_whitespace().count() <= MOST_DIFF_WORDS
}

/// The new words with the removed and added ones marked; the text alone
/// when the words did not change; past [`MOST_DIFF_WORDS`], the whole old
/// text removed and the new one added.
pub fn words(old: &RuleAt, new: &RuleAt) -> String {
    if old.text == new.text {
        return escape_html(&new.text);
    }
    if !diffable(old, new) {
        return format!(
            "Rewritten (too long to compare word by word): <del class=\"word\">{}</del> \
             <ins class=\"word\">{}</ins>",
            escape_html(&old.text),
            escape_html(&new.text)
        );
    }
    let diff = TextDiff::from_words(old.text.as_str(), new.text.as_str());
    let mut html = String::new();
    for change in diff.iter_all_changes() {
        let text = escape_html(change.value());
        match change.tag() {
            ChangeTag::Equal => html.push_str(&text),
            ChangeTag::Delete => {
                let _ = write!(html, "<del class=\"word\">{text}</del>");
            }
            ChangeTag::Insert => {
                let _ = write!(html, "<ins class=\"word\">{text}</ins>");
            }
        }
    }
    html
}

/// The headline figures that differ between two releases, old and new.
fn figures_html(
    html: &mut String,
    old: &super::releases::Snapshot,
    new: &super::releases::Snapshot,
    scenario_href: &dyn Fn(&str) -> Option<String>,
) {
    let old_by_name: BTreeMap<&str, &super::releases::FiguresAt> = old
        .figures
        .iter()
        .map(|f| (f.scenario.as_str(), f))
        .collect();
    let mut rows = String::new();
    for scenario in &new.figures {
        let before: BTreeMap<&str, &str> = old_by_name
            .get(scenario.scenario.as_str())
            .map(|f| {
                f.figures
                    .iter()
                    .map(|(l, v)| (l.as_str(), v.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        for (label, value) in &scenario.figures {
            let was = before.get(label.as_str()).copied();
            if was == Some(value.as_str()) {
                continue;
            }
            let title = escape_html(&scenario.title);
            // A scenario removed since the release stays in its history,
            // unlinked.
            let title = match scenario_href(&scenario.scenario) {
                Some(href) => format!("<a href=\"{href}\">{title}</a>"),
                None => title,
            };
            let _ = writeln!(
                rows,
                "<tr><td>{title}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape_html(label),
                was.map_or("(none)".to_string(), escape_html),
                escape_html(value)
            );
        }
    }
    if rows.is_empty() {
        html.push_str("<p>No headline figure changed.</p>\n");
    } else {
        let _ = write!(
            html,
            "<h2 id=\"figures\">Figures that changed</h2>\n<table>\n<thead><tr><th>Scenario</th>\
             <th>Figure</th><th>Was</th><th>Now</th></tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(key: &str, number: &str, text: &str) -> RuleAt {
        RuleAt {
            key: key.into(),
            number: number.into(),
            title: None,
            text: text.into(),
            url: format!("rules/a.html#{key}"),
        }
    }

    #[test]
    fn changed_words_are_marked() {
        let old = rule("roll", "1.1", "Roll two dice & add them.");
        let new = rule("roll", "1.2", "Roll three dice & add them.");
        assert_eq!(
            words(&old, &new),
            "Roll <del class=\"word\">two</del><ins class=\"word\">three</ins> dice &amp; add them."
        );
        assert_eq!(renumbering(&old, &new), "was rule 1.1, now rule 1.2. ");
    }

    #[test]
    fn long_rules_are_diffed_up_to_a_bound_then_shown_rewritten() {
        let text = |words: usize, last: &str| {
            let mut text = "roll ".repeat(words - 1);
            text.push_str(last);
            text
        };
        // Up to the bound: the exact word diff, one word changed.
        let half = MOST_DIFF_WORDS / 2;
        let old = rule("long", "1.1", &text(half, "two"));
        let new = rule("long", "1.1", &text(half, "three"));
        let expected = format!(
            "{}<del class=\"word\">two</del><ins class=\"word\">three</ins>",
            "roll ".repeat(half - 1)
        );
        assert_eq!(words(&old, &new), expected);
        // One word past it: rewritten, both texts whole.
        let new = rule("long", "1.2", &text(half + 1, "three"));
        assert_eq!(
            words(&old, &new),
            format!(
                "Rewritten (too long to compare word by word): <del class=\"word\">{}</del> \
                 <ins class=\"word\">{}</ins>",
                old.text, new.text
            )
        );
        let mut html = String::new();
        change_html(
            &mut html,
            &Change::Changed {
                old: &old,
                new: &new,
            },
            &|_| None,
        );
        assert!(
            html.starts_with(
                "<dt id=\"long\">Rule 1.2 (renumbered and rewritten) <code>long</code>"
            ),
            "{html:.200}"
        );
    }

    #[test]
    fn the_history_gives_each_rule_once_with_its_versions() {
        let release = |version: &str, rules: Vec<RuleAt>| Release {
            source: format!("releases/{version}.json"),
            version: crate::rulebook::releases::Version::parse(version).unwrap(),
            snapshot: crate::rulebook::releases::Snapshot {
                version: version.into(),
                effective: "2026-01-15".into(),
                rules,
                figures: Vec::new(),
            },
            text: String::new(),
        };
        let many = |n: usize, words: &str| -> Vec<RuleAt> {
            (0..n)
                .map(|i| rule(&format!("r{i}"), &format!("1.{i}"), words))
                .collect()
        };
        let mut second = many(3_000, "Roll one die");
        second[1] = rule("r1", "1.1", "Roll two die");
        second.pop();
        let releases = [
            release("1.0.0", many(3_000, "Roll one die")),
            release("1.1.0", second),
        ];
        let history = History::new(&releases);
        let html = history.history_html(&|_| None);
        assert_eq!(html.matches("<dt id=").count(), 3_000);
        assert!(
            html.contains(
                "<dt id=\"r1\">r1 (no longer in the rules)</dt>\n<dd>1.0.0: added as rule 1.1: \
             Roll one die</dd>\n<dd>1.1.0: Roll <del class=\"word\">one</del><ins class=\"word\">two</ins> \
             die</dd>"
            ),
            "{html:.300}"
        );
        assert!(html.contains("<dd>1.1.0: removed (was rule 1.2999)</dd>"));
        assert_eq!(history.changed_in("r1"), Some("1.1.0"));
        assert_eq!(history.changed_in("r2"), Some("1.0.0"));
        assert!(history.changed_in_latest("r1") && !history.changed_in_latest("r2"));
        assert!(history.knows("r2999") && !history.knows("r3000"));
    }
}
