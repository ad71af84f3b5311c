//! The translated pages on the site: each published under its language's
//! folder (`fr/rules/start.html`) with the source's rule numbers, its
//! outdated rules marked beside the rule with a link to the source's words
//! now, and the source's rules it lacks shown in the source's language;
//! then, per language, `<lang>/rules.json`, `<lang>/search-index.js` and
//! the rule book's print page (`print-rules.<lang>.html`).

use super::{Attempt, RenderedPage, Renderer};
use crate::error::{Error, Result};
use crate::html::escape;
use crate::markdown::Rule;
use crate::output::SiteFiles;
use crate::paths;
use crate::rulebook::{self, Renumbered, Translated, Translations};
use rayon::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use tera::Tera;

/// How one translated page is rendered: where it goes, its rules'
/// numbers, which are outdated, and the glossary terms marked in it.
pub(super) struct Translating<'a> {
    pub translated: &'a Translated<'a>,
    pub output: String,
    /// The source page's rules: number by key.
    pub numbers: BTreeMap<String, String>,
    /// Whether each of the source page's rules is outdated, by key.
    pub outdated: BTreeMap<String, bool>,
    /// The source's words now, by key.
    pub current: &'a BTreeMap<String, String>,
    /// The language's glossary terms, when its glossary is translated.
    pub terms: Option<&'a rulebook::Terms>,
    /// The site's own language: code and name.
    pub own: &'a rulebook::Language,
}

impl Translating<'_> {
    /// The mark of an outdated rule, after its number: a link to the
    /// source's rule, whose words now it carries as its title.
    pub(crate) fn mark(&self, key: &str, book: &rulebook::Book) -> String {
        if self.outdated.get(key) != Some(&true) {
            return String::new();
        }
        let href = book
            .get(key)
            .map_or(String::new(), |p| p.href(&self.output));
        let now = self.current.get(key).map_or("", String::as_str);
        format!(
            "<a class=\"rule-outdated\" href=\"{href}\" hreflang=\"{own}\" lang=\"{own}\" \
             title=\"{now}\">outdated: the {name} rule changed since {version}</a> ",
            href = escape(&href),
            own = escape(&self.own.code),
            now = escape(now),
            name = escape(&self.own.name),
            version = escape(&self.translated.from.snapshot.version),
        )
    }

    /// The source page's rules the translation lacks, in the source's
    /// language and said so, each at its key's id so links to it hold.
    pub(crate) fn untranslated(&self, shown: &[Rule], book: &rulebook::Book) -> String {
        let missing: Vec<&rulebook::Placed> = book
            .rules()
            .iter()
            .filter(|p| p.source == self.translated.source.source)
            .filter(|p| !shown.iter().any(|r| r.key == p.rule.key))
            .collect();
        if missing.is_empty() {
            return String::new();
        }
        let own = escape(&self.own.code);
        let mut html = format!(
            "\n<section class=\"untranslated\" aria-labelledby=\"untranslated\">\n<h2 \
             id=\"untranslated\" lang=\"{own}\">Not yet translated: in {}</h2>\n",
            escape(&self.own.name)
        );
        for placed in missing {
            let key = escape(&placed.rule.key);
            let text = self
                .current
                .get(&placed.rule.key)
                .map_or("", String::as_str);
            html.push_str(&format!(
                "<p class=\"rule rule-untranslated\" id=\"{key}\" lang=\"{own}\"><a \
                 class=\"rule-number\" href=\"#{key}\">{}</a> {} <a href=\"{}\" \
                 hreflang=\"{own}\">source</a></p>\n",
                escape(&placed.rule.number),
                escape(text),
                escape(&placed.href(&self.output)),
            ));
        }
        html.push_str("</section>\n");
        html
    }
}

/// Every translated page, rendered once the source's pages are (their
/// rules' words now, `current`, tell which translated rules are outdated).
pub(super) fn pages<'p>(
    renderer: &Renderer,
    translations: &'p Translations<'p>,
    current: &BTreeMap<String, String>,
    glossaries: &BTreeMap<String, rulebook::Terms>,
) -> Vec<Attempt<'p>> {
    translations
        .pages
        .par_iter()
        .map(|translated| {
            let numbers = Renumbered::numbers_of(renderer.book, translated.source);
            let keys: Vec<String> = numbers.keys().cloned().collect();
            let translating = Translating {
                translated,
                output: translated.output(),
                outdated: rulebook::outdated(translated, &keys, current),
                numbers,
                current,
                terms: glossaries.get(translated.lang),
                own: &translations.languages[0],
            };
            let in_language = Renderer {
                lang: Some(translated.lang),
                ..*renderer
            };
            let source = translated.page.source.as_str();
            (
                source,
                in_language.page_in(translated.page, Some(&translating)),
            )
        })
        .collect()
}

/// What `fairdice check` says of the figures on translated pages: each
/// table or chart whose caption, headers, title, description or axis
/// labels the page's language has no words for (they are shown in
/// English), at the shortcode that shows it.
pub(super) fn figure_report(renderer: &Renderer, translations: &Translations) -> Vec<Error> {
    let mut found = Vec::new();
    for translated in &translations.pages {
        let in_language = Renderer {
            lang: Some(translated.lang),
            ..*renderer
        };
        let words = in_language.words();
        let page = translated.page;
        for call in crate::shortcodes::find(&page.body, page.body_line, &[]) {
            let Ok(call) = call.call else { continue };
            let (Ok(name), Ok(id)) = (call.arg("scenario"), call.arg("id")) else {
                continue;
            };
            let Some(computed) = renderer.scenarios.get(name) else {
                continue;
            };
            let missing = match call.name.as_str() {
                "table" => computed
                    .page
                    .table(id)
                    .map(|t| words.untranslated(std::iter::once(&t.caption).chain(&t.columns))),
                "chart" => computed.page.chart(id).map(|c| {
                    words.untranslated([&c.title, &c.description, &c.x_label, &c.y_label])
                }),
                _ => None,
            };
            let Some(missing) = missing.filter(|m| !m.is_empty()) else {
                continue;
            };
            let quoted: Vec<String> = missing.iter().map(|w| format!("{w:?}")).collect();
            found.push(Error::Source {
                file: paths::content_file(&page.source),
                line: call.line,
                column: 1,
                message: format!(
                    "{lang}: the {kind} {id:?} of {name} is shown with {count} English \
                     word(s): {words}; add them under figures: in templates/i18n/{lang}.yaml",
                    lang = translated.lang,
                    kind = call.name,
                    count = missing.len(),
                    words = quoted.join(", "),
                ),
            });
        }
    }
    found
}

/// Each language's glossary terms, from its translated glossary.
pub(super) fn glossaries(
    content: &crate::content::Content,
    tera: &Tera,
) -> Result<BTreeMap<String, rulebook::Terms>> {
    let mut terms = BTreeMap::new();
    for (lang, entries) in &content.translated_glossaries {
        if let Some(found) = super::terms_of(
            content,
            entries,
            &format!(
                "{}{lang}/{}",
                crate::content::TRANSLATIONS,
                rulebook::glossary::SOURCE
            ),
            tera,
        )? {
            terms.insert(lang.clone(), found);
        }
    }
    Ok(terms)
}

/// What each language publishes beside its pages: `rules.json`, the
/// search index and the rule book's print page.
pub(super) fn indexes(
    renderer: &Renderer,
    rendered: &[RenderedPage],
    translations: &Translations,
    current: &BTreeMap<String, String>,
) -> Result<SiteFiles> {
    let mut files = SiteFiles::new();
    for language in translations.languages.iter().skip(1) {
        let lang = language.code.as_str();
        let prefix = format!("{lang}/");
        let own: Vec<&RenderedPage> = rendered
            .iter()
            .filter(|p| p.output.starts_with(&prefix))
            .collect();
        let in_language = Renderer {
            lang: Some(lang),
            ..*renderer
        };
        files.insert(
            format!("{prefix}{}", paths::SEARCH_INDEX),
            super::search::index_of(&own, None).into_bytes(),
        );
        if renderer.book.rules().is_empty() {
            continue;
        }
        let mine: Vec<&Translated> = translations
            .pages
            .iter()
            .filter(|t| t.lang == lang)
            .collect();
        files.insert(
            format!("{prefix}{}", rulebook::RULES_JSON),
            rules_json(renderer, &mine, &own, current).into_bytes(),
        );
        let print = in_language.rulebook_print(rendered, &mine, lang)?;
        files.insert(print_page(lang), print.into_bytes());
    }
    Ok(files)
}

/// The files each language adds beside its pages, claimed before any
/// content file can write them.
pub(super) fn reserved(translations: &Translations) -> Vec<String> {
    let languages = translations.languages.iter().skip(1);
    languages
        .flat_map(|language| {
            let lang = &language.code;
            [
                format!("{lang}/{}", paths::SEARCH_INDEX),
                format!("{lang}/{}", rulebook::RULES_JSON),
                print_page(lang),
            ]
        })
        .collect()
}

/// The rule book's print page in `lang`, at the site root.
pub(crate) fn print_page(lang: &str) -> String {
    let stem = paths::RULEBOOK_PRINT_PAGE.trim_end_matches(".html");
    format!("{stem}.{lang}.html")
}

/// `<lang>/rules.json`: `rules.json`'s shape, each rule in the language
/// where translated (`translated`), and `outdated` when its source's
/// words changed since the release translated from.
fn rules_json(
    renderer: &Renderer,
    mine: &[&Translated],
    own: &[&RenderedPage],
    current: &BTreeMap<String, String>,
) -> String {
    let book = renderer.book;
    let mut texts = current.clone();
    let mut status: BTreeMap<String, bool> = BTreeMap::new();
    let mut pages: BTreeMap<&str, String> = BTreeMap::new();
    for translated in mine {
        let output = translated.output();
        let Some(page) = own.iter().find(|p| p.output == output) else {
            continue;
        };
        pages.insert(translated.source.source.as_str(), output);
        let keys: Vec<String> = page.rules.iter().map(|r| r.key.clone()).collect();
        status.extend(rulebook::outdated(translated, &keys, current));
        for rule in &page.rules {
            texts.insert(rule.key.clone(), rule.text.clone());
        }
    }
    let mut shown = rulebook::rules_shown(book, &texts);
    for rule in &mut shown {
        let page = book
            .get(&rule.key)
            .and_then(|p| pages.get(p.source.as_str()));
        if let Some(output) = page {
            rule.url = format!("{}#{}", paths::href("", output), rule.key);
        }
    }
    let history = renderer.history;
    let release = history.latest().map_or(
        serde_json::Value::Null,
        |r| json!({"version": r.snapshot.version, "effective": r.snapshot.effective}),
    );
    rulebook::rules_json(
        &shown,
        &|key| history.changed_in(key).map(str::to_string),
        release,
        &|key| Some((status.contains_key(key), status.get(key) == Some(&true))),
    )
}

impl Renderer<'_> {
    /// The rule book's print page in this renderer's language: each page of
    /// the rule book in reading order, its translation where there is one.
    fn rulebook_print(
        &self,
        rendered: &[RenderedPage],
        mine: &[&Translated],
        lang: &str,
    ) -> Result<String> {
        let by_output: BTreeMap<&str, &RenderedPage> =
            rendered.iter().map(|p| (p.output.as_str(), p)).collect();
        let glossary = paths::page_output(rulebook::GLOSSARY_PAGE);
        let order: Vec<&RenderedPage> = self
            .nav
            .reading_order()
            .into_iter()
            .filter(|output| self.book.in_book(output) && *output != glossary)
            .filter_map(|output| {
                let translation = mine
                    .iter()
                    .find(|t| paths::page_output(&t.source.source) == output)
                    .map(|t| t.output());
                by_output
                    .get(translation.as_deref().unwrap_or(output))
                    .copied()
            })
            .collect();
        self.print_of(&order, &print_page(lang), "The rule book")
            .map_err(|err| match err {
                Error::Template { name, message } => Error::Template {
                    name,
                    message: format!("{message} (the rule book in {lang})"),
                },
                other => other,
            })
    }
}
