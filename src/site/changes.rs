//! What changed between releases of the rules: the pages the build writes
//! from the snapshots in `content/releases/` (one "what changed" page per
//! release, the list of releases, every rule's history), and the marks on
//! the rules that changed in the latest release.
//!
//! Rules are matched by key, never by number: a rule that moved from 3.2
//! to 3.3 is renumbered, not deleted and added. Changed words are marked
//! with a word diff (the `similar` crate).

use crate::content::{Content, Page};
use crate::markdown::escape_html;
use crate::paths;
use crate::releases::{Release, RuleAt, FOLDER};
use similar::{ChangeTag, TextDiff};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The releases of the site, oldest first.
#[derive(Debug, Default)]
pub struct History<'a> {
    releases: &'a [Release],
}

/// How a rule changed from one release to the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change<'r> {
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
pub fn change_page(version: &str) -> String {
    format!("{FOLDER}/{version}.html")
}

/// The output path of the rule history.
pub fn history_page() -> String {
    format!("{FOLDER}/history.html")
}

/// Add the pages the releases need, where the author wrote none: the list
/// (`releases/_index.md`), one page per release and the rule history. Each
/// is a shortcode the site expands, so they are pages like any other (in
/// the sidebar, the search and the print page).
pub fn add_pages(content: &mut Content) {
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
pub fn add_glossary_page(content: &mut Content) {
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
pub const GLOSSARY_PAGE: &str = "glossary.md";

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
        History { releases }
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
        for release in self.releases {
            let now = release.snapshot.rules.iter().find(|r| r.key == key);
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
        self.releases
            .iter()
            .any(|r| r.snapshot.rules.iter().any(|rule| rule.key == key))
    }

    /// Whether rule `key` was added or reworded in the latest release.
    pub fn changed_in_latest(&self, key: &str) -> bool {
        self.releases.len() > 1
            && self.latest().map(|r| r.snapshot.version.as_str()) == self.changed_in(key)
    }

    /// The "what changed" page of `version`: each changed rule linked
    /// (`live`) to where it stands now, its changed words marked; then the
    /// figures that changed, linked (`scenario_href`) to the scenarios the
    /// site still has.
    pub fn changes_html(
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
    pub fn releases_html(&self, from: &str) -> String {
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
    pub fn history_html(&self, live: &dyn Fn(&str) -> Option<String>) -> String {
        let mut order: Vec<&str> = Vec::new();
        for release in self.releases.iter().rev() {
            for rule in &release.snapshot.rules {
                if !order.contains(&rule.key.as_str()) {
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
            for release in self.releases {
                let now = release.snapshot.rules.iter().find(|r| r.key == key);
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
                match (old.number != new.number, old.text != new.text) {
                    (true, true) => "renumbered and reworded",
                    (true, false) => "renumbered",
                    _ => "reworded",
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

/// The new words with the removed and added ones marked; the text alone
/// when the words did not change.
pub fn words(old: &RuleAt, new: &RuleAt) -> String {
    if old.text == new.text {
        return escape_html(&new.text);
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
    old: &crate::releases::Snapshot,
    new: &crate::releases::Snapshot,
    scenario_href: &dyn Fn(&str) -> Option<String>,
) {
    let old_by_name: BTreeMap<&str, &crate::releases::FiguresAt> = old
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
}
