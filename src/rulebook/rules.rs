//! The rule book: every numbered rule of the site with its number, key and
//! page, read before any page renders so that cross-references
//! (`{{ rule(key="ties") }}`) can name any rule with the number it has now;
//! the scenarios that measure each rule; and `rules.json`.

use super::numbering::{Numbering, Opener};
use super::releases::RuleAt;
use crate::content::{Content, Page};
use crate::error::Error;
use crate::markdown::{self, Rule};
use crate::paths::{self, page_output};
use crate::scenario::Scenario;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The machine-readable rules, at the site's root.
pub const RULES_JSON: &str = "rules.json";

/// A rule as the whole site sees it.
#[derive(Debug, Clone)]
pub(crate) struct Placed {
    /// The rule as planned on its page.
    pub rule: Rule,
    /// The page's content file (`rules/start.md`).
    pub source: String,
    /// The page's output path.
    pub output: String,
}

impl Placed {
    /// The rule's address from the page at `from`.
    pub fn href(&self, from: &str) -> String {
        let page = if from == self.output {
            String::new()
        } else {
            paths::href(from, &self.output)
        };
        format!("{page}#{}", self.rule.key)
    }
}

/// The most numbered rules a site may have: Magic: The Gathering's
/// comprehensive rules, among the longest rule books, number about 3,000
/// rules and 6,000 subrules.
pub(crate) const MAX_RULES: usize = 50_000;

/// Every rule of the site, in reading order.
#[derive(Debug, Default)]
pub(crate) struct Book {
    /// Numbered pages: source -> (chapter, stem).
    chapters: BTreeMap<String, (usize, String)>,
    /// The folders of the numbered sections.
    roots: Vec<String>,
    rules: Vec<Placed>,
    by_key: BTreeMap<String, usize>,
    /// Per rule key, the scenarios that give its figures: (name, title).
    figures: BTreeMap<String, Vec<(String, String)>>,
    /// A page failed to load or to number its rules, so a key not found
    /// may be one of its rules: not an error of its own (the page's error
    /// is reported), so a build lists no follow-on errors.
    incomplete: bool,
    /// [`MAX_RULES`] were reached: later rules are dropped, unreported.
    full: bool,
}

impl Book {
    /// Plan every numbered page (in reading order) and every scenario's
    /// `rules:`; problems come back located, all together. The reading
    /// order (page outputs) sets each page's chapter.
    pub fn new<'s>(
        content: &Content,
        reading_order: &[&str],
        scenarios: impl IntoIterator<Item = &'s Scenario>,
    ) -> (Book, Vec<Error>) {
        let mut book = Book {
            incomplete: content.failed.iter().any(|source| source.ends_with(".md")),
            ..Book::default()
        };
        let mut errors = Vec::new();
        book.number_pages(content, reading_order, &mut errors);
        for scenario in scenarios {
            for key in &scenario.header.rules {
                if book.by_key.contains_key(key) {
                    book.figures
                        .entry(key.clone())
                        .or_default()
                        .push((scenario.name.clone(), scenario.header.title.clone()));
                } else if !book.incomplete {
                    let (line, column) = place_of(&scenario.text, key);
                    errors.push(Error::Source {
                        file: crate::paths::content_file(&scenario.source),
                        line,
                        column,
                        message: format!(
                            "rules: no rule has the key {key:?}; {}",
                            book.known_keys()
                        ),
                    });
                }
            }
        }
        for entry in content.glossary.iter().flatten() {
            if let Some(key) = entry
                .rule
                .as_ref()
                .filter(|k| !book.incomplete && !book.by_key.contains_key(*k))
            {
                errors.push(Error::Source {
                    file: crate::paths::content_file(super::glossary::SOURCE),
                    line: entry.line,
                    column: 1,
                    message: format!(
                        "glossary: {:?} points at rule {key:?}, which no rule has; {}",
                        entry.term,
                        book.known_keys()
                    ),
                });
            }
        }
        (book, errors)
    }

    /// Plan every page of a numbered section, in reading order: a page's
    /// chapter is its place among its section's pages.
    fn number_pages(&mut self, content: &Content, reading_order: &[&str], errors: &mut Vec<Error>) {
        let book = self;
        // A numbered section numbers every page below it, subfolders
        // included; a numbered folder inside another belongs to the outer one.
        let roots: Vec<&str> = content
            .pages
            .iter()
            .filter(|p| p.is_section_index() && p.numbered)
            .map(Page::folder)
            .collect();
        book.roots = roots.iter().map(|r| r.to_string()).collect();
        let root_of = |page: &Page| {
            roots
                .iter()
                .copied()
                .filter(|root| paths::is_within(page.folder(), root))
                .min_by_key(|root| root.len())
        };
        let by_output: BTreeMap<String, (&Page, &str)> = content
            .pages
            .iter()
            .filter(|p| !p.is_section_index())
            .filter_map(|p| root_of(p).map(|root| (page_output(&p.source), (p, root))))
            .collect();
        let mut chapter_of_root: BTreeMap<&str, usize> = BTreeMap::new();
        for output in reading_order {
            let Some(&(page, root)) = by_output.get(*output) else {
                continue;
            };
            let chapter = chapter_of_root.entry(root).or_insert(0);
            *chapter += 1;
            // The page's path inside its section, so that two pages of one
            // name in different subfolders derive different keys.
            let inside = page
                .source
                .strip_prefix(root)
                .unwrap_or(&page.source)
                .trim_start_matches('/');
            let stem = inside.trim_end_matches(".md").replace('/', "-");
            book.chapters
                .insert(page.source.clone(), (*chapter, stem.clone()));
            let numbering = Numbering {
                chapter: *chapter,
                stem,
                // Planning writes no HTML.
                open: &|_| Ok(String::new()),
            };
            let phase =
                crate::limits::content(format!("numbering the rules of content/{}", page.source));
            let planned = markdown::plan_rules(&page.body, page.body_line, &numbering);
            drop(phase);
            match planned {
                Ok(rules) => {
                    for rule in rules {
                        book.add(rule, page, errors);
                    }
                }
                Err(found) => {
                    book.incomplete = true;
                    errors.extend(found.into_iter().map(|e| Error::Source {
                        file: crate::paths::content_file(&page.source),
                        line: e.line,
                        column: e.column,
                        message: e.message,
                    }))
                }
            }
        }
    }

    fn add(&mut self, rule: Rule, page: &Page, errors: &mut Vec<Error>) {
        if self.rules.len() >= MAX_RULES {
            if self.full {
                return;
            }
            // Said once, at the first rule past the limit.
            self.full = true;
            self.incomplete = true;
            errors.push(Error::Source {
                file: crate::paths::content_file(&page.source),
                line: rule.line,
                column: rule.column,
                message: format!(
                    "a rule book has at most {MAX_RULES} numbered rules (each gets an anchor, \
                     a history and a place in the search: 2 MB of list items made a 67 MB \
                     site): number fewer items, or move some into a section without \
                     `numbered: true`"
                ),
            });
            return;
        }
        if let Some(&first) = self.by_key.get(&rule.key) {
            let first = &self.rules[first];
            let how = |r: &Rule| if r.explicit { "" } else { " (derived)" };
            errors.push(Error::Source {
                file: crate::paths::content_file(&page.source),
                line: rule.line,
                column: rule.column,
                message: format!(
                    "rule {} has the key {:?}{}, which rule {} already has{} \
                     (content/{}:{}:{}): a key names one rule; give this one another key",
                    rule.number,
                    rule.key,
                    how(&rule),
                    first.rule.number,
                    how(&first.rule),
                    first.source,
                    first.rule.line,
                    first.rule.column
                ),
            });
            return;
        }
        self.by_key.insert(rule.key.clone(), self.rules.len());
        self.rules.push(Placed {
            rule,
            source: page.source.clone(),
            output: page_output(&page.source),
        });
    }

    /// How a page is numbered, if it is.
    pub fn numbering<'d>(&self, page: &Page, open: &'d Opener<'d>) -> Option<Numbering<'d>> {
        self.chapters
            .get(&page.source)
            .map(|(chapter, stem)| Numbering {
                chapter: *chapter,
                stem: stem.clone(),
                open,
            })
    }

    /// The chapter of a numbered page, by its source; a translation's is
    /// the page it translates (`_translations/fr/rules/a.md`: `rules/a.md`).
    /// The number its rules start with, so the printed contents cite it.
    pub(crate) fn chapter(&self, source: &str) -> Option<usize> {
        let own = source
            .strip_prefix(crate::content::TRANSLATIONS)
            .and_then(|rest| rest.split_once('/'))
            .map_or(source, |(_, inside)| inside);
        self.chapters.get(own).map(|(chapter, _)| *chapter)
    }

    /// Whether the page written to `output` belongs to a numbered section
    /// (its index, its pages and its scenarios, subfolders included).
    pub(crate) fn in_book(&self, output: &str) -> bool {
        let folder = output.rsplit_once('/').map_or("", |(dir, _)| dir);
        self.roots.iter().any(|root| paths::is_within(folder, root))
    }

    /// The rule named `key`.
    pub fn get(&self, key: &str) -> Option<&Placed> {
        self.by_key.get(key).map(|&i| &self.rules[i])
    }

    /// Every rule, in reading order.
    pub fn rules(&self) -> &[Placed] {
        &self.rules
    }

    /// A hint listing some keys, for errors.
    /// Whether an unknown key is the author's mistake rather than a rule
    /// of a page that failed (see `incomplete`).
    pub(crate) fn is_complete(&self) -> bool {
        !self.incomplete
    }

    pub(crate) fn known_keys(&self) -> String {
        if self.rules.is_empty() {
            return "the site has no numbered rules (a section's _index.md says \
                    `numbered: true`)"
                .into();
        }
        let keys: Vec<&str> = self
            .rules
            .iter()
            .filter(|p| p.rule.explicit)
            .take(12)
            .map(|p| p.rule.key.as_str())
            .collect();
        format!(
            "keys are written {{#key}} at the end of a rule: {}",
            keys.join(", ")
        )
    }

    /// The scenarios that measure the rule `key`: (name, title).
    pub fn figures(&self, key: &str) -> &[(String, String)] {
        self.figures.get(key).map_or(&[], Vec::as_slice)
    }

    /// The rules a scenario measures, as links from its page.
    pub(crate) fn measured_by(&self, scenario: &Scenario, from: &str) -> Vec<Value> {
        scenario
            .header
            .rules
            .iter()
            .filter_map(|key| self.get(key))
            .map(|p| json!({"number": p.rule.number, "href": p.href(from)}))
            .collect()
    }

    /// Rules whose key was derived: a later edit above them renumbers them
    /// and so changes their key, breaking links and release history.
    pub fn warnings(&self) -> Vec<Error> {
        self.rules
            .iter()
            .filter(|p| !p.rule.explicit)
            .map(|p| Error::Source {
                file: crate::paths::content_file(&p.source),
                line: p.rule.line,
                column: p.rule.column,
                message: format!(
                    "rule {} has no key, so it is known as {:?}, which changes when a rule \
                     above it is added or removed: end it with {{#a-name}} to give it one",
                    p.rule.number, p.rule.key
                ),
            })
            .collect()
    }
}

/// Where `key` is first written in a scenario's text, for errors.
fn place_of(text: &str, key: &str) -> (usize, usize) {
    let rules_at = text.find("rules:").unwrap_or(0);
    let at = text[rules_at..]
        .find(key)
        .map_or(rules_at, |i| rules_at + i);
    let line = text[..at].matches('\n').count() + 1;
    let column = text[..at].rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// Every rule as the site shows it, in reading order: its title (the
/// heading it stands under), its words and its address. `texts` holds each
/// rule's rendered text by key. A release records these, typed, so it
/// never reads back the `rules.json` made from them.
pub(crate) fn rules_shown(book: &Book, texts: &BTreeMap<String, String>) -> Vec<RuleAt> {
    let mut titles: Vec<(String, String)> = Vec::new();
    let mut shown = Vec::new();
    for placed in book.rules() {
        let rule = &placed.rule;
        let text = texts.get(&rule.key).cloned().unwrap_or_default();
        if rule.heading.is_some() {
            titles.retain(|(number, _)| is_ancestor(number, &rule.number));
            titles.push((rule.number.clone(), text.clone()));
        }
        let title = titles
            .iter()
            .rev()
            .find(|(number, _)| is_ancestor(number, &rule.number) || *number == rule.number)
            .map(|(_, title)| title.clone());
        shown.push(RuleAt {
            key: rule.key.clone(),
            number: rule.number.clone(),
            title,
            text,
            url: placed.href(""),
        });
    }
    shown
}

/// `rules.json`: every rule shown (see [`rules_shown`]) by number and by
/// key, with the release that last changed it (`changed_in`); in a
/// language's, whether each rule is translated and outdated (`status`).
pub(crate) fn rules_json(
    shown: &[RuleAt],
    changed_in: &dyn Fn(&str) -> Option<String>,
    release: Value,
    status: &dyn Fn(&str) -> Option<(bool, bool)>,
) -> String {
    let mut by_key = Map::new();
    let mut by_number = Map::new();
    for rule in shown {
        let mut entry = json!({
            "number": rule.number,
            "key": rule.key,
            "title": rule.title,
            "text": rule.text,
            "url": rule.url,
            "changed_in": changed_in(&rule.key),
        });
        if let Some((translated, outdated)) = status(&rule.key) {
            entry["translated"] = json!(translated);
            entry["outdated"] = json!(outdated);
        }
        by_number.insert(rule.number.clone(), entry.clone());
        by_key.insert(rule.key.clone(), entry);
    }
    let doc = json!({"release": release, "by_number": by_number, "by_key": by_key});
    let mut text = serde_json::to_string_pretty(&doc).expect("JSON values serialise");
    text.push('\n');
    text
}

/// Whether rule `a` contains rule `b` (`3.2` contains `3.2.1` and `3.2.1a`).
fn is_ancestor(a: &str, b: &str) -> bool {
    b.len() > a.len()
        && b.starts_with(a)
        && (b.as_bytes()[a.len()] == b'.' || b.as_bytes()[a.len()].is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestry_follows_the_numbers() {
        assert!(is_ancestor("3.2", "3.2.1"));
        assert!(is_ancestor("3.2.1", "3.2.1a"));
        assert!(!is_ancestor("3.2", "3.21"));
        assert!(!is_ancestor("3.2", "3.2"));
    }

    #[test]
    fn scenario_keys_are_located() {
        assert_eq!(place_of("title: x\nrules: [a, ties]\n", "ties"), (2, 12));
    }
}
