//! Translations of the rule book. A page of
//! `content/_translations/<lang>/` translates the page of the same path
//! below `content/`, from the release its front matter names
//! (`translated_from: "1.0.0"`); its rules carry the source's keys, so
//! each translated rule is compared, key by key, with the source's words
//! then (the release's snapshot) and now: a rule whose source words
//! changed since is outdated.
//!
//! This module checks translations against the site file, the pages and
//! the releases, renumbers a translation's rules with the source's numbers,
//! and says which rules are outdated or missing; `site::translated`
//! renders them.

use super::releases::Release;
use super::rules::Book;
use crate::config::Config;
use crate::content::{Content, Page, TRANSLATIONS};
use crate::error::Error;
use crate::markdown::{Numbered, Plan};
use crate::paths;
use std::collections::{BTreeMap, BTreeSet};

/// A translated page, checked: it names a declared language, a page that
/// exists and a release that exists.
#[derive(Debug)]
pub(crate) struct Translated<'c> {
    /// The translation as loaded (`source`: its own file below `content/`).
    pub page: &'c Page,
    /// Its language code (`fr`).
    pub lang: &'c str,
    /// The page it translates.
    pub source: &'c Page,
    /// The release its translator worked from.
    pub from: &'c Release,
}

impl Translated<'_> {
    /// Where the translation is published: `fr/rules/start.html`.
    pub(crate) fn output(&self) -> String {
        paths::page_output(&published(&self.page.source))
    }

    /// The source's words of each rule at the release translated from.
    fn texts_then(&self) -> BTreeMap<&str, &str> {
        let rules = &self.from.snapshot.rules;
        rules
            .iter()
            .map(|r| (r.key.as_str(), r.text.as_str()))
            .collect()
    }
}

/// `_translations/fr/rules/start.md` as published: `fr/rules/start.md`.
pub(crate) fn published(source: &str) -> String {
    source.strip_prefix(TRANSLATIONS).unwrap_or(source).into()
}

/// A language of the site: code and name in its own words.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct Language {
    pub code: String,
    pub name: String,
}

/// Every checked translation, and the languages of the site.
#[derive(Debug, Default)]
pub(crate) struct Translations<'c> {
    /// The site's own language first, then the declared translations.
    pub languages: Vec<Language>,
    /// Checked translated pages, sorted by file.
    pub pages: Vec<Translated<'c>>,
    /// Whether the site file loaded, so that its languages say which
    /// translations are declared.
    config_loaded: bool,
}

/// A link from one version of a page to another.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct Alternate {
    pub lang: String,
    pub name: String,
    /// Relative to the page, for the switcher.
    pub href: String,
    /// Absolute when the site has a `base_url`, else relative: for
    /// `<link rel="alternate" hreflang>`.
    pub url: String,
    pub current: bool,
}

impl<'c> Translations<'c> {
    /// The translations of `content`, each checked against the site file's
    /// languages, the pages and the releases; the errors of those that do
    /// not hold, each at its place.
    /// When the site file did not load (`config_loaded` false, `config`
    /// the defaults), no translation is said to be undeclared.
    pub(crate) fn new(
        content: &'c Content,
        config: &Config,
        config_loaded: bool,
    ) -> (Self, Vec<Error>) {
        let own = &config.language.0;
        let mut languages = vec![Language {
            code: own.clone(),
            name: own_name(own),
        }];
        languages.extend(config.translations.iter().map(|(code, name)| Language {
            code: code.0.clone(),
            name: name.clone(),
        }));
        let mut translations = Translations {
            languages,
            pages: Vec::new(),
            config_loaded,
        };
        let mut errors = Vec::new();
        for lang in content.translated_glossaries.keys() {
            if let Err(err) = translations.declared(lang, &format!("{lang}/_glossary.yaml")) {
                errors.push(err);
            }
        }
        for page in &content.translated {
            match translations.check(page, content) {
                Ok(translated) => translations.pages.push(translated),
                Err(err) => errors.push(err),
            }
        }
        (translations, errors)
    }

    fn check(&self, page: &'c Page, content: &'c Content) -> Result<Translated<'c>, Error> {
        let inside = page
            .source
            .strip_prefix(TRANSLATIONS)
            .unwrap_or(&page.source);
        let (lang, path) = inside.split_once('/').unwrap_or(("", inside));
        self.declared(lang, inside)?;
        let file = paths::content_file(&page.source);
        let source = content
            .pages
            .iter()
            .find(|p| p.source == path && p.made.is_none())
            .ok_or_else(|| {
                Error::file(
                    &file,
                    format!(
                        "translates content/{path}, which does not exist: a translation's path \
                         below content/{TRANSLATIONS}{lang}/ is the path of the page it \
                         translates below content/; rename it, or remove it"
                    ),
                )
            })?;
        let (version, line, column) = page.translated_from.clone().unwrap_or_default();
        let from = content
            .releases
            .iter()
            .find(|r| r.snapshot.version == version)
            .ok_or_else(|| {
                let known: Vec<&str> = content
                    .releases
                    .iter()
                    .map(|r| r.snapshot.version.as_str())
                    .collect();
                let known = if known.is_empty() {
                    "the site has no release yet (`fairdice release 1.0.0` records one)".into()
                } else {
                    format!("the releases are {}", known.join(", "))
                };
                Error::Source {
                    file: file.clone(),
                    line,
                    column,
                    message: format!(
                        "front matter: translated_from: {version:?} is not a release of \
                         content/releases/: name the release whose words the translator worked \
                         from; {known}"
                    ),
                }
            })?;
        Ok(Translated {
            page,
            lang,
            source,
            from,
        })
    }

    /// `lang` as declared in the site file (in the same capitals, since
    /// it names the folder published), or an error naming `inside` (the
    /// file's path below `_translations/`). Nothing is checked when the
    /// site file did not load: its own error says why.
    fn declared(&self, lang: &str, inside: &str) -> Result<(), Error> {
        if !self.config_loaded {
            return Ok(());
        }
        let own = &self.languages[0].code;
        let found = self
            .languages
            .iter()
            .skip(1)
            .find(|l| l.code.eq_ignore_ascii_case(lang));
        let why = match found {
            Some(language) if language.code == lang => return Ok(()),
            Some(language) => format!(
                "the folder {lang}/ is the language fairdice.yaml declares as {:?}: name the \
                 folder content/{TRANSLATIONS}{}/ as the language is declared",
                language.code, language.code
            ),
            None if lang.eq_ignore_ascii_case(own) => format!(
                "{lang:?} is the site's own language (`language: {own}`): its pages are the \
                 sources in content/"
            ),
            None => format!(
                "the language {lang:?} is not declared in fairdice.yaml: add it under \
                 `translations:` with its name in its own language (`translations:\\n  \
                 {lang}: <name>`), or move the file to a declared language's folder"
            ),
        };
        Err(Error::file(
            paths::content_file(&format!("{TRANSLATIONS}{inside}")),
            why,
        ))
    }

    /// The translations of the page `source`.
    pub(crate) fn of<'s>(
        &'s self,
        source: &'s str,
    ) -> impl Iterator<Item = &'s Translated<'c>> + 's {
        self.pages.iter().filter(move |t| t.source.source == source)
    }

    /// The versions of the page `source` (in the site's language first),
    /// linked from `from`; empty when the page has no translation.
    pub(crate) fn alternates(&self, source: &str, from: &str, config: &Config) -> Vec<Alternate> {
        let mut versions: Vec<(&Language, String)> = self
            .of(source)
            .filter_map(|t| {
                let language = self.languages.iter().find(|l| l.code == t.lang)?;
                Some((language, t.output()))
            })
            .collect();
        if versions.is_empty() {
            return Vec::new();
        }
        versions.insert(0, (&self.languages[0], paths::page_output(source)));
        versions
            .into_iter()
            .map(|(language, output)| {
                let href = paths::href(from, &output);
                Alternate {
                    lang: language.code.clone(),
                    name: language.name.clone(),
                    url: config.page_url(&output).unwrap_or_else(|| href.clone()),
                    href,
                    current: output == from,
                }
            })
            .collect()
    }
}

/// The site's own language by its name in its own words, for the
/// switcher: the common ones known, others by their code.
fn own_name(code: &str) -> String {
    let primary = code.split('-').next().unwrap_or(code);
    let name = match primary.to_ascii_lowercase().as_str() {
        "en" => "English",
        "fr" => "Français",
        "de" => "Deutsch",
        "es" => "Español",
        "it" => "Italiano",
        "pt" => "Português",
        "nl" => "Nederlands",
        "ja" => "日本語",
        "zh" => "中文",
        "ko" => "한국어",
        _ => code,
    };
    name.into()
}

/// The translated glossaries' entries that point at a rule no page has,
/// each at its line (as the source glossary's are).
pub(crate) fn glossary_errors(content: &Content, book: &Book) -> Vec<Error> {
    let glossaries = content.translated_glossaries.iter();
    let entries = glossaries.flat_map(|(lang, entries)| entries.iter().map(move |e| (lang, e)));
    entries
        .filter_map(|(lang, entry)| {
            let key = entry.rule.as_ref()?;
            (book.is_complete() && book.get(key).is_none()).then(|| Error::Source {
                file: paths::content_file(&format!("{TRANSLATIONS}{lang}/_glossary.yaml")),
                line: entry.line,
                column: 1,
                message: format!(
                    "glossary: {:?} points at rule {key:?}, which no rule has; {}",
                    entry.term,
                    book.known_keys()
                ),
            })
        })
        .collect()
}

/// Each rule of a translation and whether it is outdated: the source's
/// words now (`current`, by key) differ from its words at the release the
/// translator worked from (or that release did not hold the rule).
pub(crate) fn outdated(
    translated: &Translated,
    keys: &[String],
    current: &BTreeMap<String, String>,
) -> BTreeMap<String, bool> {
    let then = translated.texts_then();
    keys.iter()
        .map(|key| {
            let now = current.get(key).map(String::as_str);
            (
                key.clone(),
                now.is_none() || then.get(key.as_str()).copied() != now,
            )
        })
        .collect()
}

/// A translation's rules renumbered as the source's: the same key has the
/// same number in every language. A rule without a written key, with a
/// key the source page lacks, or with a key written twice, is an error at
/// its place.
pub(crate) struct Renumbered<'a> {
    /// The source page's numbering (chapter, and how rules open).
    pub inner: super::Numbering<'a>,
    /// The source page's rules: number by key.
    pub numbers: BTreeMap<String, String>,
    /// The source page, for errors.
    pub source: String,
}

impl Renumbered<'_> {
    /// The source page `page`'s rules as `book` numbers them.
    pub(crate) fn numbers_of(book: &Book, page: &Page) -> BTreeMap<String, String> {
        book.rules()
            .iter()
            .filter(|p| p.source == page.source)
            .map(|p| (p.rule.key.clone(), p.rule.number.clone()))
            .collect()
    }
}

impl Numbered for Renumbered<'_> {
    fn plan(
        &self,
        text: &str,
        options: pulldown_cmark::Options,
        single_mark: &dyn Fn(&str) -> bool,
    ) -> Plan {
        let mut plan = self.inner.plan(text, options, single_mark);
        let mut seen = BTreeSet::new();
        let mut errors = Vec::new();
        for planned in &mut plan.rules {
            let rule = &mut planned.rule;
            let known = |n: usize| {
                let keys: Vec<&str> = self.numbers.keys().take(n).map(String::as_str).collect();
                keys.join(", ")
            };
            if !rule.explicit {
                errors.push((
                    planned.at,
                    format!(
                        "this translated rule has no key: end it with the key of the rule it \
                         translates in content/{}, one of {}",
                        self.source,
                        known(12)
                    ),
                ));
            } else if !seen.insert(rule.key.clone()) {
                errors.push((
                    planned.at,
                    format!(
                        "the key {:?} is written twice in this translation: a key names one rule \
                         of content/{}; give this one the key of the rule it translates",
                        rule.key, self.source
                    ),
                ));
            } else if let Some(number) = self.numbers.get(&rule.key) {
                rule.number = number.clone();
            } else {
                errors.push((
                    planned.at,
                    format!(
                        "content/{} has no rule with the key {:?}: a translated rule carries the \
                         key of the rule it translates, one of {}",
                        self.source,
                        rule.key,
                        known(12)
                    ),
                ));
            }
        }
        plan.errors.extend(errors);
        plan
    }

    fn open(&self, opening: &crate::markdown::Opening) -> Result<String, String> {
        self.inner.open(opening)
    }
}

/// What `fairdice check` says of each language: its outdated rules (at
/// their place in the translation), the rules its translations lack, and
/// the pages of the rule book it has no translation of. `shown` holds each
/// translation's rules (key, line, column) as rendered; `current` the
/// source's words now, by key.
pub(crate) fn report(
    translations: &Translations,
    book: &Book,
    shown: &BTreeMap<String, Vec<(String, usize, usize)>>,
    current: &BTreeMap<String, String>,
) -> Vec<Error> {
    let mut found = Vec::new();
    for language in translations.languages.iter().skip(1) {
        let mut covered = BTreeSet::new();
        for translated in translations
            .pages
            .iter()
            .filter(|t| t.lang == language.code)
        {
            covered.insert(translated.source.source.as_str());
            let file = paths::content_file(&translated.page.source);
            let rules = shown
                .get(&translated.page.source)
                .map_or(&[][..], Vec::as_slice);
            let keys: Vec<String> = rules.iter().map(|(key, _, _)| key.clone()).collect();
            let outdated = outdated(translated, &keys, current);
            for (key, line, column) in rules {
                if outdated.get(key) == Some(&true) {
                    let number = book.get(key).map_or("", |p| p.rule.number.as_str());
                    found.push(Error::Source {
                        file: file.clone(),
                        line: *line,
                        column: *column,
                        message: format!(
                            "{}: rule {number} ({key}) is outdated: its source's words changed \
                             since release {}; translate them again from content/{}",
                            language.code,
                            translated.from.snapshot.version,
                            translated.source.source
                        ),
                    });
                }
            }
            let missing: Vec<String> = book
                .rules()
                .iter()
                .filter(|p| p.source == translated.source.source && !keys.contains(&p.rule.key))
                .map(|p| format!("{} ({})", p.rule.number, p.rule.key))
                .collect();
            if !missing.is_empty() {
                found.push(Error::file(
                    &file,
                    format!(
                        "{}: {} rule(s) of content/{} not translated, shown in the source's \
                         language: {}",
                        language.code,
                        missing.len(),
                        translated.source.source,
                        missing.join(", ")
                    ),
                ));
            }
        }
        let untranslated: BTreeSet<&str> = book
            .rules()
            .iter()
            .map(|p| p.source.as_str())
            .filter(|source| !covered.contains(source))
            .collect();
        for source in untranslated {
            let count = book.rules().iter().filter(|p| p.source == source).count();
            found.push(Error::file(
                paths::content_file(source),
                format!(
                    "{}: no translation ({count} rule(s) missing): add \
                     content/{TRANSLATIONS}{}/{source}",
                    language.code, language.code
                ),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translations_are_published_under_their_language() {
        assert_eq!(
            published("_translations/fr/rules/start.md"),
            "fr/rules/start.md"
        );
        assert_eq!(own_name("en-GB"), "English");
        assert_eq!(own_name("tlh"), "tlh");
    }
}
