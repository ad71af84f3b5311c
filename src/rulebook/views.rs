//! The rule book's HTML: plain data handed to the templates in
//! `templates/rulebook/`, so a site restyles its releases, history,
//! glossary and rule marks without touching Rust.

use super::changes::{diffable, Change, History};
use super::glossary::Entry;
use super::releases::{Figure, FiguresAt, RuleAt, Snapshot, FOLDER};
use super::rules::Book;
use crate::html::anchors::{slugify, Anchors};
use crate::markdown::Opening;
use crate::paths;
use serde::Serialize;
use similar::{capture_diff_slices, Algorithm, DiffTag};
use std::collections::{BTreeMap, HashSet};
use tera::{Context, Tera};

/// A piece of a rule's words: plain (`tag` empty), removed (`del`) or
/// added (`ins`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Piece {
    tag: &'static str,
    text: String,
}

impl Piece {
    fn new(tag: &'static str, text: impl Into<String>) -> Piece {
        Piece {
            tag,
            text: text.into(),
        }
    }
}

/// A rule's change on the "what changed" page.
#[derive(Serialize)]
struct ChangeView<'a> {
    key: &'a str,
    /// Where the rule stands now, if it still does.
    href: Option<String>,
    /// `added`, `removed`, `renumbered`, `reworded`...
    kind: &'static str,
    number: &'a str,
    /// The old number, when it changed.
    was: Option<&'a str>,
    words: Vec<Piece>,
}

/// A headline figure that changed.
#[derive(Serialize)]
struct FigureView<'a> {
    title: &'a str,
    href: Option<String>,
    label: &'a str,
    was: Option<&'a str>,
    now: &'a str,
}

/// One release's entry in a rule's history.
#[derive(Serialize)]
struct EntryView<'a> {
    version: &'a str,
    kind: &'static str,
    number: &'a str,
    was: Option<&'a str>,
    words: Vec<Piece>,
}

fn render(tera: &Tera, name: &str, context: &Context) -> Result<String, String> {
    tera.render(name, context)
        .map_err(|e| format!("template {name}: {e}"))
}

/// The new words with the removed and added ones marked; the text alone
/// when the words did not change; past [`super::changes::MOST_DIFF_WORDS`],
/// the whole old text removed and the new one added.
pub(crate) fn words(old: &RuleAt, new: &RuleAt) -> Vec<Piece> {
    if old.text == new.text {
        return vec![Piece::new("", &new.text)];
    }
    if !diffable(old, new) {
        return vec![
            Piece::new("", "Rewritten (too long to compare word by word): "),
            Piece::new("del", &old.text),
            Piece::new("", " "),
            Piece::new("ins", &new.text),
        ];
    }
    let (before, after) = (tokens(&old.text), tokens(&new.text));
    // One piece per run of tokens with the same tag, not one per word and
    // space: a rewritten paragraph is a handful of pieces for the
    // templates, where it was one map per word (hundreds of MB over a long
    // history).
    let mut pieces: Vec<Piece> = Vec::new();
    let mut push = |tag: &'static str, text: &str| {
        if text.is_empty() {
            return;
        }
        match pieces.last_mut() {
            Some(last) if last.tag == tag => last.text.push_str(text),
            _ => pieces.push(Piece::new(tag, text)),
        }
    };
    for op in capture_diff_slices(Algorithm::Myers, &before, &after) {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        let (removed, added) = (before[old_range].concat(), after[new_range].concat());
        if tag == DiffTag::Equal {
            push("", &added);
            continue;
        }
        // A space both sides end with is not part of the change.
        let kept = if removed.is_empty() || added.is_empty() {
            0
        } else {
            common_trailing_space(&removed, &added)
        };
        push("del", &removed[..removed.len() - kept]);
        push("ins", &added[..added.len() - kept]);
        push("", &added[added.len() - kept..]);
    }
    pieces
}

/// The length in bytes of the whitespace both texts end with.
fn common_trailing_space(a: &str, b: &str) -> usize {
    a.chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y && x.is_whitespace())
        .map(|(x, _)| x.len_utf8())
        .sum()
}

/// A text cut into words, each with the spaces after it, so a diff never
/// matches a lone space between two changed words and the words read as
/// one change.
fn tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = 0;
    let mut after_space = false;
    for (at, c) in text.char_indices() {
        if after_space && !c.is_whitespace() {
            tokens.push(&text[start..at]);
            start = at;
        }
        after_space = c.is_whitespace();
    }
    if start < text.len() {
        tokens.push(&text[start..]);
    }
    tokens
}

/// The old number when a rule was renumbered.
fn was<'a>(old: &'a RuleAt, new: &RuleAt) -> Option<&'a str> {
    (old.number != new.number).then_some(old.number.as_str())
}

fn change_view<'a>(change: &Change<'a>, live: &dyn Fn(&str) -> Option<String>) -> ChangeView<'a> {
    let view = |rule: &'a RuleAt, kind, was, words| ChangeView {
        key: &rule.key,
        href: live(&rule.key),
        kind,
        number: &rule.number,
        was,
        words,
    };
    match *change {
        Change::Added(rule) => view(rule, "added", None, vec![Piece::new("", &rule.text)]),
        Change::Removed(rule) => view(rule, "removed", None, vec![Piece::new("del", &rule.text)]),
        Change::Changed { old, new } => {
            let kind = match (
                was(old, new).is_some(),
                old.text != new.text,
                diffable(old, new),
            ) {
                (true, true, true) => "renumbered and reworded",
                (true, true, false) => "renumbered and rewritten",
                (true, false, _) => "renumbered",
                (false, _, true) => "reworded",
                (false, _, false) => "rewritten",
            };
            view(new, kind, was(old, new), words(old, new))
        }
    }
}

/// Each figure keyed by its label and how many figures before it share it.
fn occurrences(figures: &[Figure]) -> impl Iterator<Item = ((&str, usize), &Figure)> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    figures.iter().map(move |figure| {
        let n = seen.entry(figure.label()).or_default();
        *n += 1;
        ((figure.label(), *n - 1), figure)
    })
}

/// The headline figures that differ between two releases, old and new.
fn figure_views<'a>(
    old: &'a Snapshot,
    new: &'a Snapshot,
    scenario_href: &dyn Fn(&str) -> Option<String>,
) -> Vec<FigureView<'a>> {
    let old_by_name: BTreeMap<&str, &FiguresAt> = old
        .figures
        .iter()
        .map(|f| (f.scenario.as_str(), f))
        .collect();
    let mut rows = Vec::new();
    for scenario in &new.figures {
        // A label repeats once a case: the nth figure of a label is
        // compared with the nth it had.
        let before: BTreeMap<(&str, usize), &Figure> = old_by_name
            .get(scenario.scenario.as_str())
            .map(|f| occurrences(&f.figures).collect())
            .unwrap_or_default();
        for (at, figure) in occurrences(&scenario.figures) {
            let was = before.get(&at).copied();
            if !was.is_some_and(|was| was.same_as(figure)) {
                rows.push(FigureView {
                    title: &scenario.title,
                    // A scenario removed since the release stays unlinked.
                    href: scenario_href(&scenario.scenario),
                    label: figure.label(),
                    was: was.map(Figure::shown),
                    now: figure.shown(),
                });
            }
        }
    }
    rows
}

impl History<'_> {
    /// The "what changed" page of `version`: each changed rule linked
    /// (`live`) to where it stands now, its changed words marked; then the
    /// figures that changed, linked (`scenario_href`) to the scenarios the
    /// site still has.
    pub(crate) fn changes_html(
        &self,
        tera: &Tera,
        version: &str,
        live: &dyn Fn(&str) -> Option<String>,
        scenario_href: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        let index = self.find(version).ok_or_else(|| {
            format!(
                "changes(...): no release {version:?}; releases are the files of content/{FOLDER}/"
            )
        })?;
        let release = &self.release(index).snapshot;
        let mut context = Context::new();
        context.insert(
            "release",
            &serde_json::json!({
                "version": release.version,
                "effective": release.effective,
                "rules": release.rules.len(),
                "scenarios": release.figures.len(),
            }),
        );
        if let Some(previous) = index.checked_sub(1).map(|i| &self.release(i).snapshot) {
            let changes: Vec<ChangeView> = self
                .changes(index)
                .iter()
                .map(|change| change_view(change, live))
                .collect();
            context.insert("previous", &previous.version);
            context.insert("changes", &changes);
            context.insert("figures", &figure_views(previous, release, scenario_href));
        }
        render(tera, "rulebook/changes.html", &context)
    }

    /// The list of releases, newest first, linked to their pages.
    pub(crate) fn releases_html(&self, tera: &Tera, from: &str) -> Result<String, String> {
        let releases: Vec<serde_json::Value> = self
            .releases()
            .iter()
            .rev()
            .map(|release| {
                let s = &release.snapshot;
                serde_json::json!({
                    "href": paths::href(from, &super::change_page(&s.version)),
                    "version": s.version,
                    "effective": s.effective,
                    "rules": s.rules.len(),
                })
            })
            .collect();
        let mut context = Context::new();
        context.insert("releases", &releases);
        render(tera, "rulebook/releases.html", &context)
    }

    /// Every rule that any release held, with its number and words at each
    /// release where it was added, renumbered, reworded or removed.
    pub(crate) fn history_html(
        &self,
        tera: &Tera,
        live: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        let mut order: Vec<&str> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for release in self.releases().iter().rev() {
            for rule in &release.snapshot.rules {
                if seen.insert(&rule.key) {
                    order.push(&rule.key);
                }
            }
        }
        /// One rule's history, serialized once (not through a JSON value).
        #[derive(Serialize)]
        struct RuleHistory<'a> {
            key: &'a str,
            href: Option<String>,
            entries: Vec<EntryView<'a>>,
        }
        let rules: Vec<RuleHistory> = order
            .into_iter()
            .map(|key| RuleHistory {
                key,
                href: live(key),
                entries: self.entries(key),
            })
            .collect();
        let mut context = Context::new();
        context.insert("rules", &rules);
        render(tera, "rulebook/history.html", &context)
    }

    /// Rule `key` at each release where it was added, renumbered,
    /// reworded or removed.
    fn entries(&self, key: &str) -> Vec<EntryView<'_>> {
        let mut entries = Vec::new();
        let mut before: Option<&RuleAt> = None;
        for (index, release) in self.releases().iter().enumerate() {
            let now = self.rule_at(index, key);
            let version = release.snapshot.version.as_str();
            let entry = |kind, number, was, words| EntryView {
                version,
                kind,
                number,
                was,
                words,
            };
            match (before, now) {
                (None, Some(now)) => entries.push(entry(
                    "added",
                    &now.number,
                    None,
                    vec![Piece::new("", &now.text)],
                )),
                (Some(old), None) => entries.push(entry("removed", &old.number, None, Vec::new())),
                (Some(old), Some(now)) if old != now => entries.push(entry(
                    "changed",
                    &now.number,
                    was(old, now),
                    words(old, now),
                )),
                _ => {}
            }
            before = now;
        }
        entries
    }

    /// A rule's opening on its page (`from`), with its marks: the latest
    /// release's changes and edits not yet released (`unreleased`), and
    /// links to its history and to the scenarios that give its figures.
    pub(crate) fn opening_html(
        &self,
        tera: &Tera,
        book: &Book,
        opening: &Opening,
        (from, unreleased): (&str, bool),
        words: &crate::words::Words,
    ) -> Result<String, String> {
        let key = opening.key;
        let mut context = Context::new();
        context.insert("t", &words.words);
        if let Some(latest) = self.latest() {
            let version = &latest.snapshot.version;
            context.insert("version", version);
            if self.changed_in_latest(key) {
                context.insert("changed", &paths::href(from, &super::change_page(version)));
            }
            if unreleased {
                context.insert("unreleased", if self.knows(key) { "edited" } else { "new" });
            }
            if self.knows(key) {
                context.insert("history", &paths::href(from, &super::history_page()));
            }
        }
        let figures: Vec<serde_json::Value> = book
            .figures(key)
            .iter()
            .map(|(name, title)| {
                serde_json::json!({
                    "href": paths::href(from, &paths::scenario_output(name)),
                    "title": title,
                })
            })
            .collect();
        context.insert("figures", &figures);
        super::numbering::opening_html(tera, opening, context)
    }
}

/// The glossary as a definition list in the alphabetical order of `lang`,
/// each term linked to its rule.
pub(crate) fn glossary_html(
    tera: &Tera,
    entries: &[Entry],
    book: &Book,
    (from, lang): (&str, &str),
) -> Result<String, String> {
    // Terms `a b`, `a-b` and `A_B` all slug to `a-b`.
    let mut ids = Anchors::for_page();
    let entries: Vec<serde_json::Value> = super::glossary::alphabetical(entries, lang)
        .into_iter()
        .map(|entry| {
            let rule = entry.rule.as_deref().and_then(|k| book.get(k)).map(|placed| {
                serde_json::json!({"href": placed.href(from), "number": placed.rule.number})
            });
            serde_json::json!({
                "id": ids.unique(format!("term-{}", slugify(&entry.term))),
                "term": entry.term,
                "definition": entry.definition,
                "aliases": entry.aliases.join(", "),
                "rule": rule,
            })
        })
        .collect();
    let mut context = Context::new();
    context.insert("entries", &entries);
    render(tera, "rulebook/glossary.html", &context)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rulebook::changes::MOST_DIFF_WORDS;
    use crate::rulebook::releases::Release;

    /// The rule book's templates alone, as the site loads them.
    fn templates() -> Tera {
        let mut tera = Tera::new();
        tera.autoescape_on(vec![".html"]);
        tera.add_raw_templates([
            (
                "rulebook/changes.html",
                include_str!("../../templates/rulebook/changes.html"),
            ),
            (
                "rulebook/history.html",
                include_str!("../../templates/rulebook/history.html"),
            ),
        ])
        .unwrap();
        tera
    }

    fn rule(key: &str, number: &str, text: &str) -> RuleAt {
        RuleAt {
            key: key.into(),
            number: number.into(),
            title: None,
            text: text.into(),
            url: format!("rules/a.html#{key}"),
        }
    }

    /// A release of `rules`, for tests here and in the rest of the book.
    pub(in crate::rulebook) fn release(version: &str, rules: Vec<RuleAt>) -> Release {
        Release {
            source: format!("releases/{version}.json"),
            version: crate::rulebook::releases::Version::parse(version).unwrap(),
            snapshot: crate::rulebook::releases::Snapshot {
                version: version.into(),
                effective: "2026-01-15".into(),
                rules,
                figures: Vec::new(),
            },
            text: String::new(),
        }
    }

    /// The "what changed" page of a release holding `new` after one
    /// holding `old`.
    fn changed(old: RuleAt, new: RuleAt) -> String {
        let releases = [release("1.0.0", vec![old]), release("1.1.0", vec![new])];
        History::new(&releases)
            .changes_html(&templates(), "1.1.0", &|_| None, &|_| None)
            .unwrap()
    }

    #[test]
    fn changed_words_are_marked() {
        let old = rule("roll", "1.1", "Roll two dice & add them.");
        let new = rule("roll", "1.2", "Roll three dice & add them.");
        let html = changed(old, new);
        assert!(
            html.contains(
                "<dd>was rule 1.1, now rule 1.2. Roll <del class=\"word\">two</del>\
                 <ins class=\"word\">three</ins> dice &amp; add them.</dd>"
            ),
            "{html}"
        );
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
            "<dd>{}<del class=\"word\">two</del><ins class=\"word\">three</ins></dd>",
            "roll ".repeat(half - 1)
        );
        assert!(changed(old.clone(), new).contains(&expected));
        // One word past it: rewritten, both texts whole.
        let new = rule("long", "1.2", &text(half + 1, "three"));
        let html = changed(old.clone(), new.clone());
        assert!(
            html.contains(&format!(
                "Rewritten (too long to compare word by word): <del class=\"word\">{}</del> \
                 <ins class=\"word\">{}</ins>",
                old.text, new.text
            )),
            "{html:.200}"
        );
        assert!(
            html.contains("<dt id=\"long\">Rule 1.2 (renumbered and rewritten) <code>long</code>"),
            "{html:.200}"
        );
    }

    #[test]
    fn the_history_gives_each_rule_once_with_its_versions() {
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
        let html = history.history_html(&templates(), &|_| None).unwrap();
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
    #[test]
    fn a_diff_keeps_both_texts_in_few_pieces() {
        let read = |pieces: &[Piece], skip: &str| -> String {
            pieces
                .iter()
                .filter(|p| p.tag != skip)
                .map(|p| p.text.as_str())
                .collect()
        };
        let cases = [
            ("Roll two dice & add them.", "Roll three dice & add them."),
            ("a b c d e f", "u v w x y z"),
            ("  lead and  double  spaces ", "lead and double spaces"),
            ("one", ""),
            ("", "one two"),
            ("keep this keep that", "keep these and keep those"),
        ];
        for (old, new) in cases {
            let pieces = words(&rule("k", "1", old), &rule("k", "1", new));
            // Removed plus plain words read the old text, added plus plain
            // the new one.
            assert_eq!(read(&pieces, "ins"), old, "{pieces:?}");
            assert_eq!(read(&pieces, "del"), new, "{pieces:?}");
            // No two neighbours share a tag.
            assert!(
                pieces.windows(2).all(|w| w[0].tag != w[1].tag),
                "{pieces:?}"
            );
        }
        // A whole rewrite is one removal and one addition, however long.
        let pieces = words(
            &rule("k", "1", "a b c d e f"),
            &rule("k", "1", "u v w x y z"),
        );
        assert_eq!(pieces.len(), 2, "{pieces:?}");
        assert_eq!(tokens(" a  b c"), [" ", "a  ", "b ", "c"]);
    }
}
