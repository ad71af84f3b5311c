//! The render phase: pages, scenario pages, data files and the navigation,
//! laid out by Tera templates into an in-memory site.
//!
//! Nothing here computes a result: numbers arrive formatted in the laid-out pages,
//! and templates only place them.

mod basics;
mod claims;
pub mod defaults;
mod document;
mod expand;
mod frame;
mod links;
mod made;
mod nav;
mod print;
mod search;
pub mod standalone;
mod translated;

use crate::config::Config;
use crate::content::{Content, Page};
use crate::error::{Error, Result};
use crate::html;
use crate::layout::blocks::{ScenarioPage, Table};
use crate::layout::csv::csv;
use crate::markdown::{self, Link};
use crate::output::{SiteFiles, MARKER, MARKER_TEXT};
use crate::paths::{self, page_output};
use crate::rulebook::{self, releases::RuleAt, Renumbered};
use crate::scenario::Scenario;
use crate::words::Catalogues;
use nav::Nav;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use tera::{Context, Tera};

pub use crate::rulebook::RULES_JSON;
pub use document::scenario_json;
#[cfg(not(feature = "browser"))]
pub use document::write_scenarios_json;
pub use expand::Expander;
pub(crate) use translated::print_page as translated_print_page;

/// A scenario with its laid-out page, as the site receives it.
pub struct Computed<'a> {
    /// The scenario as loaded.
    pub scenario: &'a Scenario,
    /// Its exact results and page blocks.
    pub page: ScenarioPage,
}

/// Templates earlier versions read, whose work [`crate::html`] now does.
const RETIRED_TEMPLATES: [(&str, &str); 3] = [
    ("blocks.html", BLOCKS_RETIRED),
    ("table.html", BLOCKS_RETIRED),
    (
        "rulebook/marks.html",
        "its place is taken by templates/rulebook/rule.html, which writes a rule's whole \
         opening (its element, number and marks): move your changes there and remove this file",
    ),
];

/// The browser's engines (`assets/engine-NAME.js`, and `assets/engine.js`
/// of earlier versions): a site may hold a copy only if it is this
/// program's own, so that the what-if forms and the playground compute
/// what the build computed.
fn is_engine(relative: &str) -> bool {
    relative.starts_with("assets/engine") && relative.ends_with(".js")
}

/// Why `blocks.html` and `table.html` are no longer read.
const BLOCKS_RETIRED: &str = "a scenario's blocks and tables are written by fairdice itself, so \
     the calculators in the page show what the build wrote; remove the file (style tables in \
     templates/assets/style.css, place the blocks with {{ blocks_html | safe }})";

/// The templates, the assets they publish and the interface's words.
pub struct Templates {
    pub tera: Tera,
    pub assets: SiteFiles,
    pub words: Catalogues,
}

/// Load the default templates, overridden file by file by those in `dir`
/// (which may be missing: the defaults are compiled in).
pub fn load_templates(dir: &Path) -> Result<Templates> {
    let mut files: BTreeMap<String, Vec<u8>> = defaults::templates()
        .map(|(name, bytes)| (name.to_string(), bytes.to_vec()))
        .collect();
    if dir.is_dir() || dir.is_symlink() {
        let mut errors = Vec::new();
        crate::content::read_folder(dir, "templates/", &mut errors, |relative, bytes| {
            if let Some((_, why)) = RETIRED_TEMPLATES.iter().find(|(name, _)| *name == relative) {
                return Err(Error::file(
                    format!("templates/{relative}"),
                    format!("fairdice no longer reads templates/{relative}: {why}"),
                ));
            }
            if is_engine(&relative) && files.get(&relative) != Some(&bytes) {
                return Err(Error::file(
                    format!("templates/{relative}"),
                    "differs from this fairdice's browser engine, which is compiled from the \
                     code the build runs, so that the what-if forms and the playground compute \
                     what the pages show: remove the file (an older `fairdice init` copied it)",
                ));
            }
            files.insert(relative, bytes);
            Ok(())
        })?;
        if let Some(err) = Error::from_list(errors) {
            return Err(err);
        }
    }
    let words = Catalogues::read(files.iter().map(|(n, b)| (n.as_str(), b.as_slice())))?;
    let mut tera = Tera::new();
    tera.autoescape_on(vec![".html"]);
    let mut assets = SiteFiles::new();
    let mut sources = Vec::new();
    for (relative, bytes) in files {
        if relative.starts_with("assets/") {
            assets.insert(relative, bytes);
        } else if relative.ends_with(".html") {
            let text = String::from_utf8(bytes).map_err(|_| Error::Template {
                name: relative.clone(),
                message: "not valid UTF-8".into(),
            })?;
            sources.push((relative, text));
        }
    }
    tera.add_raw_templates(sources.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .map_err(|e| Error::Template {
            name: dir.display().to_string(),
            message: e.to_string(),
        })?;
    Ok(Templates {
        tera,
        assets,
        words,
    })
}

/// What the site knows about itself beyond its content: the site file and
/// each source's "last updated" date.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    /// The site file, `fairdice.yaml` (the defaults when it did not load).
    pub config: Config,
    /// Whether it loaded (if not, no translation is said to be undeclared).
    pub config_loaded: bool,
    /// `YYYY-MM-DD` by source path (relative to `content/`).
    pub updated: BTreeMap<String, String>,
}

/// Render the whole site into memory, with the rules it shows (what a
/// release records) and what `fairdice check` says of its translations
/// (outdated and missing rules, per language).
pub fn render(
    content: &Content,
    computed: &[Computed],
    templates: &Templates,
    meta: &Meta,
) -> Result<(SiteFiles, Vec<RuleAt>, Vec<Error>)> {
    let (tera, assets) = (&templates.tera, &templates.assets);
    let nav = Nav::new(content, computed);
    let site_title = site_title(content, meta);
    let scenarios = computed
        .iter()
        .map(|c| (c.scenario.name.as_str(), c))
        .collect();
    let scenario_sources = computed.iter().map(|c| c.scenario);
    let (book, mut book_errors) =
        rulebook::Book::new(content, &nav.reading_order(), scenario_sources);
    let (translations, translation_errors) =
        rulebook::Translations::new(content, &meta.config, meta.config_loaded);
    book_errors.extend(translation_errors);
    book_errors.extend(rulebook::glossary_errors(content, &book));
    let glossaries = translated::glossaries(content, tera)?;
    let history = rulebook::History::new(&content.releases);
    let terms = glossary_terms(content, tera)?;
    let failed = failed_scenarios(content);
    let renderer = Renderer {
        tera,
        nav: &nav,
        site_title: &site_title,
        scenarios: &scenarios,
        book: &book,
        history: &history,
        terms: terms.as_ref(),
        glossary: content.glossary.as_deref().unwrap_or(&[]),
        meta,
        failed: &failed,
        unreleased: &BTreeSet::new(),
        translations: &translations,
        lang: None,
        words: &templates.words,
    };
    // Every page is rendered, whatever the others' errors, and a page with
    // errors still has its links checked: a build reports all it can find.
    let pages = renderer.pages(content);
    let scenario_pages = renderer.scenario_pages(computed);
    // The source's words now tell which translated rules are outdated.
    let current = rule_texts(&pages);
    let translated_pages = translated::pages(&renderer, &translations, &current, &glossaries);
    let attempts = pages
        .into_iter()
        .chain(scenario_pages)
        .chain(translated_pages);
    let reserved = translated::reserved(&translations);
    let rendered = checked(attempts, book_errors, content, (assets, &reserved), &failed)?;
    let (mut files, rules) = renderer.indexes(&rendered)?;
    files.extend(translated::indexes(
        &renderer,
        &rendered,
        &translations,
        &current,
    )?);
    let shown = rendered
        .iter()
        .filter(|p| p.source.starts_with(crate::content::TRANSLATIONS))
        .map(|p| {
            let rules = p.rules.iter();
            let at = rules.map(|r| (r.key.clone(), r.line, r.column)).collect();
            (p.source.clone(), at)
        })
        .collect();
    let mut report = rulebook::report(&translations, &book, &shown, &current);
    let languages: Vec<&str> = translations
        .languages
        .iter()
        .skip(1)
        .map(|l| l.code.as_str())
        .collect();
    report.extend(templates.words.report(&languages));
    report.extend(translated::figure_report(&renderer, &translations));
    for page in rendered {
        files.extend(page.files);
    }
    for (path, bytes) in content.assets.iter().chain(assets) {
        files.insert(path.clone(), bytes.clone());
    }
    files.insert(MARKER.into(), MARKER_TEXT.as_bytes().to_vec());
    Ok((files, rules, report))
}

/// The words of every rule rendered, by key.
fn rule_texts(pages: &[Attempt]) -> BTreeMap<String, String> {
    pages
        .iter()
        .filter_map(|(_, attempt)| attempt.as_ref().ok())
        .flat_map(|(page, _)| &page.rules)
        .map(|rule| (rule.key.clone(), rule.text.clone()))
        .collect()
}

/// The site's title: the site file's, else the home page's.
fn site_title(content: &Content, meta: &Meta) -> String {
    meta.config.title.as_ref().map_or_else(
        || {
            content
                .pages
                .iter()
                .find(|p| p.source == "_index.md" || p.source == "index.md")
                .map_or("fairdice".to_string(), |p| p.title.clone())
        },
        |title| title.0.clone(),
    )
}

/// The glossary's terms, each with its spellings and its mark, for
/// marking in pages.
fn glossary_terms(content: &Content, tera: &Tera) -> Result<Option<rulebook::Terms>> {
    match &content.glossary {
        Some(entries) => terms_of(content, entries, rulebook::glossary::SOURCE, tera),
        None => Ok(None),
    }
}

/// The terms of a glossary's `entries` (from `file` in `content/`), for
/// marking in pages; their scopes are checked against the site's pages.
fn terms_of(
    content: &Content,
    entries: &[rulebook::glossary::Entry],
    file: &str,
    tera: &Tera,
) -> Result<Option<rulebook::Terms>> {
    let _phase = crate::limits::content("preparing the glossary's terms");
    let sources: Vec<&str> = (content.pages.iter().map(|p| p.source.as_str()))
        .chain(content.scenarios.iter().map(|s| s.source.as_str()))
        .chain(content.failed.iter().map(String::as_str))
        .collect();
    rulebook::glossary::check_scopes(entries, &sources, &format!("content/{file}"))?;
    rulebook::Terms::new(
        entries
            .iter()
            .map(|e| rulebook::Term {
                spellings: std::iter::once(&e.term)
                    .chain(&e.aliases)
                    .cloned()
                    .collect(),
                definition: e.definition.clone(),
                scope: e.scope.clone(),
                auto: e.auto,
            })
            .collect(),
        tera,
    )
    .map(Some)
    .map_err(|message| Error::file(format!("templates/{}", rulebook::TERM_TEMPLATE), message))
}

/// Names of the scenarios that failed to load.
fn failed_scenarios(content: &Content) -> BTreeSet<String> {
    content
        .failed
        .iter()
        .filter(|source| !source.ends_with(".md"))
        .map(|source| paths::scenario_name(source))
        .collect()
}

/// The pages that rendered, once every check passed over all of them:
/// each failure, the book's errors, outputs two sources claim, and
/// broken links, reported together.
/// `generated`: the template assets, and the files each language's
/// translations add (see `translated::reserved`).
fn checked<'p>(
    attempts: impl Iterator<Item = Attempt<'p>>,
    book_errors: Vec<Error>,
    content: &Content,
    generated: (&SiteFiles, &[String]),
    failed: &BTreeSet<String>,
) -> Result<Vec<RenderedPage<'p>>> {
    let (assets, reserved) = generated;
    let mut errors = book_errors;
    let mut rendered = Vec::new();
    // What the sources that failed would have written: links to them are
    // not broken, their own errors say what is wrong.
    let mut unwritten: Vec<String> = content
        .failed
        .iter()
        .flat_map(|source| paths::source_outputs(source))
        .collect();
    let mut unbuilt = failed.clone();
    for (source, result) in attempts {
        match result {
            Ok((page, page_errors)) => {
                errors.extend(page_errors);
                rendered.push(page);
            }
            Err(err) => {
                errors.push(err);
                unwritten.extend(paths::source_outputs(source));
                if !source.ends_with(".md") {
                    unbuilt.insert(paths::scenario_name(source));
                }
            }
        }
    }
    let claims = claim_outputs(&rendered, content, assets, reserved);
    errors.extend(claims.errors);
    let mut reachable = claims.paths;
    reachable.extend(unwritten.iter().map(String::as_str));
    let files = links::Files {
        paths: &reachable,
        unbuilt: &unbuilt,
    };
    links::check_pages(&rendered, &files, &mut errors);
    match Error::grouped(errors) {
        Some(err) => Err(err),
        None => Ok(rendered),
    }
}

/// Add the pages that the release snapshots need (the list of releases,
/// what changed in each, the rules' history) where the author wrote none.
pub fn add_release_pages(content: &mut Content) {
    rulebook::add_pages(content);
    rulebook::add_glossary_page(content);
}

/// What the build and `fairdice check` warn about without failing:
/// folders shown as sections without an `_index.md`, and numbered rules
/// without a written key.
pub fn warnings(content: &Content, computed: &[Computed]) -> Vec<Error> {
    let nav = Nav::new(content, computed);
    let untitled = nav.untitled().iter().map(|folder| {
        let name = folder
            .rsplit('/')
            .next()
            .unwrap_or(folder)
            .replace(['-', '_'], " ");
        Error::file(
            format!("content/{folder}/"),
            format!(
                "has no _index.md, so its section shows in the menu as {name:?}, with no page \
                 of its own: add content/{folder}/_index.md with a title (`---\\ntitle: \
                 ...\\n---`) and a few words on what the section holds"
            ),
        )
    });
    let rules = rulebook::Book::new(
        content,
        &nav.reading_order(),
        computed.iter().map(|c| c.scenario),
    )
    .0
    .warnings();
    untitled.chain(rules).collect()
}

/// Every path the site will hold, each claimed by who writes it: the
/// build's own files first, so a content file is the one named in a clash.
struct Planned<'a> {
    paths: BTreeSet<&'a str>,
    errors: Vec<Error>,
}

fn claim_outputs<'a>(
    rendered: &'a [RenderedPage],
    content: &'a Content,
    assets: &'a SiteFiles,
    reserved: &'a [String],
) -> Planned<'a> {
    use claims::Owner::{Content as From, Generated};
    let mut claims = claims::Claims::default();
    let mut planned: Vec<(&str, claims::Owner)> = vec![
        (MARKER, Generated("the site marker")),
        (paths::PRINT_PAGE, Generated("the print page")),
        (
            paths::RULEBOOK_PRINT_PAGE,
            Generated("the rule book's print page"),
        ),
        (paths::PLAYGROUND_PAGE, Generated("the playground")),
        (paths::SEARCH_INDEX, Generated("the search index")),
        (rulebook::RULES_JSON, Generated("the rules in JSON")),
        (paths::NOT_FOUND, Generated("the page-not-found page")),
        (paths::SITEMAP, Generated("the sitemap")),
    ];
    claims.folder(
        paths::ASSETS,
        Generated("the template assets (templates/assets/)"),
    );
    planned.extend(assets.keys().map(|path| {
        (
            path.as_str(),
            Generated("the template assets (templates/assets/)"),
        )
    }));
    for page in rendered {
        planned.extend(page.files.keys().map(|p| (p.as_str(), From(&page.source))));
    }
    planned.extend(content.assets.keys().map(|p| (p.as_str(), From(p))));
    // Last, so that a language's folder belongs to its pages.
    planned.extend(
        reserved
            .iter()
            .map(|path| (path.as_str(), Generated("a translation's index"))),
    );
    for (path, owner) in &planned {
        claims.file(path, *owner);
    }
    Planned {
        paths: planned.into_iter().map(|(path, _)| path).collect(),
        errors: claims.errors,
    }
}

/// The playground's title, in its page and in search results.
const PLAYGROUND_TITLE: &str = "Playground";

/// The `<article>` of a rendered page: what the print page and the search
/// index take from it.
fn article_of(html: &str) -> &str {
    let start = html.find("<article>").map_or(0, |i| i + "<article>".len());
    let end = html.rfind("</article>").unwrap_or(html.len()).max(start);
    html[start..end].trim()
}

/// A source and its rendered page with the page's own errors, or the error
/// that kept it from being rendered.
type Attempt<'a> = (&'a str, Result<(RenderedPage<'a>, Vec<Error>)>);

/// Keys of the rendered rules whose words are not those of the latest
/// release, or that it does not hold (none without a release).
fn unreleased_rules(pages: &[Attempt], history: &rulebook::History) -> BTreeSet<String> {
    let Some(latest) = history.latest() else {
        return BTreeSet::new();
    };
    let released: BTreeMap<&str, &str> = latest
        .snapshot
        .rules
        .iter()
        .map(|r| (r.key.as_str(), r.text.as_str()))
        .collect();
    pages
        .iter()
        .filter_map(|(_, attempt)| attempt.as_ref().ok())
        .flat_map(|(page, _)| &page.rules)
        .filter(|rule| released.get(rule.key.as_str()) != Some(&rule.text.as_str()))
        .map(|rule| rule.key.clone())
        .collect()
}

/// One rendered page with the files it produces and what links need.
struct RenderedPage<'a> {
    /// The content file, for error messages.
    source: String,
    /// The page's own output path.
    output: String,
    /// Its title and description, for search results.
    title: String,
    /// Its "last updated" date, for the sitemap.
    updated: Option<String>,
    description: Option<String>,
    /// The body inside `<article>`.
    article: String,
    /// The markdown body and its first line, to locate broken links.
    body: Option<(&'a str, usize)>,
    /// The ids in the article.
    anchors: BTreeSet<String>,
    /// Every `href` and `src` in the article.
    refs: Vec<links::Ref>,
    /// Relative links written in its markdown, with their lines.
    links: Vec<Link>,
    /// Output files: the page, and for scenarios their JSON and CSVs.
    files: SiteFiles,
    /// The numbered rules of the page, with their text.
    rules: Vec<markdown::Rule>,
}

struct Renderer<'a> {
    tera: &'a Tera,
    nav: &'a Nav,
    site_title: &'a str,
    scenarios: &'a BTreeMap<&'a str, &'a Computed<'a>>,
    book: &'a rulebook::Book,
    history: &'a rulebook::History<'a>,
    terms: Option<&'a rulebook::Terms>,
    glossary: &'a [crate::rulebook::glossary::Entry],
    meta: &'a Meta,
    /// Names of the scenarios that failed to load: a shortcode naming one
    /// expands to nothing, its own error being reported.
    failed: &'a BTreeSet<String>,
    /// Keys of the rules whose words differ from the latest release (or
    /// that it lacks): marked as edited since, not yet released.
    unreleased: &'a BTreeSet<String>,
    /// The site's translations, for the language switcher.
    translations: &'a rulebook::Translations<'a>,
    /// The language of the pages rendered, when not the site's own.
    lang: Option<&'a str>,
    /// The interface's words in every language.
    words: &'a Catalogues,
}

#[derive(Serialize)]
struct TocEntry<'a> {
    level: u8,
    text: &'a str,
    id: &'a str,
}

impl Renderer<'_> {
    /// Every page of content/. A rule's words are known once its page is
    /// rendered (cross-references give numbers): pages with rules edited
    /// since the latest release are rendered again, their rules marked.
    fn pages<'p>(&self, content: &'p Content) -> Vec<Attempt<'p>> {
        let pages: Vec<Attempt> = content
            .pages
            .par_iter()
            .map(|page| (page.source.as_str(), self.page(page)))
            .collect();
        let unreleased = unreleased_rules(&pages, self.history);
        if unreleased.is_empty() {
            return pages;
        }
        let marked = Renderer {
            unreleased: &unreleased,
            ..*self
        };
        content
            .pages
            .par_iter()
            .zip(pages)
            .map(|(page, first)| match &first.1 {
                Ok((rendered, _)) if !rendered.rules.is_empty() => {
                    (page.source.as_str(), marked.page(page))
                }
                _ => first,
            })
            .collect()
    }

    /// Every scenario's page.
    fn scenario_pages<'p>(&self, computed: &'p [Computed]) -> Vec<Attempt<'p>> {
        computed
            .par_iter()
            .map(|c| {
                let page = self.scenario(c).map(|page| (page, Vec::new()));
                (c.scenario.source.as_str(), page)
            })
            .collect()
    }

    /// What is made from every page: the rules (and `rules.json`), the
    /// search index, the print page, the not-found page, the sitemap and
    /// the playground.
    fn indexes(&self, rendered: &[RenderedPage]) -> Result<(SiteFiles, Vec<RuleAt>)> {
        // Each language has its own index (see `translated`).
        let own: Vec<&RenderedPage> = rendered
            .iter()
            .filter(|p| !p.source.starts_with(crate::content::TRANSLATIONS))
            .collect();
        let playground = self.playground_page()?;
        let (index, print) = rayon::join(
            || search::index_of(&own, Some(&playground)),
            || self.print_page(rendered),
        );
        let mut files = SiteFiles::new();
        let texts = own
            .iter()
            .flat_map(|page| &page.rules)
            .map(|rule| (rule.key.clone(), rule.text.clone()))
            .collect();
        let rules = rulebook::rules_shown(self.book, &texts);
        if !self.book.rules().is_empty() {
            let history = self.history;
            let release = history.latest().map_or(
                serde_json::Value::Null,
                |r| json!({"version": r.snapshot.version, "effective": r.snapshot.effective}),
            );
            let json = rulebook::rules_json(
                &rules,
                &|key| history.changed_in(key).map(str::to_string),
                release,
                &|_| None,
            );
            files.insert(rulebook::RULES_JSON.into(), json.into_bytes());
        }
        files.insert(paths::SEARCH_INDEX.into(), index.into_bytes());
        let (print, rulebook_print) = print?;
        files.insert(paths::PRINT_PAGE.into(), print.into_bytes());
        if let Some(page) = rulebook_print {
            files.insert(paths::RULEBOOK_PRINT_PAGE.into(), page.into_bytes());
        }
        files.insert(paths::NOT_FOUND.into(), self.not_found_page()?.into_bytes());
        if let Some(sitemap) = basics::sitemap(&self.meta.config, rendered) {
            files.insert(paths::SITEMAP.into(), sitemap.into_bytes());
        }
        files.insert(paths::PLAYGROUND_PAGE.into(), playground.into_bytes());
        Ok((files, rules))
    }

    /// `404.html`: served by hosts for any missing address, at any depth, so
    /// with a base address its links resolve from the site's root.
    fn not_found_page(&self) -> Result<String> {
        let mut context = self.context(paths::NOT_FOUND, "Page not found", None, &[]);
        let base = self.meta.config.base_url.as_ref().map(|b| b.path());
        context.insert("base_href", &base);
        context.insert("page_url", &None::<String>);
        self.render_template("404.html", &context)
    }

    fn render_template(&self, name: &str, context: &Context) -> Result<String> {
        let _phase = crate::limits::template(name, context.get("title").and_then(|t| t.as_str()));
        self.tera
            .render(name, context)
            .map_err(|e| Error::Template {
                name: name.into(),
                message: e.to_string(),
            })
    }

    /// A page and the errors of its markdown (rendered past them); an
    /// error only when its template fails.
    fn page<'p>(&self, page: &'p Page) -> Result<(RenderedPage<'p>, Vec<Error>)> {
        self.page_in(page, None)
    }

    /// A page, or a translation of one (`translating`).
    fn page_in<'p>(
        &self,
        page: &'p Page,
        translating: Option<&translated::Translating>,
    ) -> Result<(RenderedPage<'p>, Vec<Error>)> {
        let output = translating.map_or_else(|| page_output(&page.source), |t| t.output.clone());
        let phase = crate::limits::content(format!("rendering content/{}", page.source));
        let (mut body, errors) = match &page.made {
            Some(made) => self.made_body(made, page, &output),
            None => self.markdown_body(page, &output, translating),
        };
        drop(phase);
        if let Some(translating) = translating {
            let untranslated = translating.untranslated(&body.rules, self.book);
            body.html.push_str(&untranslated);
        }
        let mut errors: Vec<Error> = errors
            .into_iter()
            .map(|e| Error::Source {
                file: crate::paths::content_file(&page.source),
                line: e.line,
                column: e.column,
                message: e.message,
            })
            .collect();
        // Ids from different writers (headings, rules, a shortcode's
        // glossary or tables) that still meet.
        for id in links::duplicate_ids(&body.html) {
            errors.push(Error::Source {
                file: crate::paths::content_file(&page.source),
                line: page.body_line,
                column: 1,
                message: format!(
                    "the id {id:?} is given twice on this page (a heading and a glossary term, \
                     say): give the heading another id with {{#another-id}}"
                ),
            });
        }
        let description =
            search::summary(page.description.as_deref(), &search::plain_text(&body.html));
        let mut context = self.context(&output, &page.title, Some(&description), &body.headings);
        let updated = self.source_links(&mut context, &page.source, page.updated.as_deref());
        let of = translating.map_or(page.source.as_str(), |t| &t.translated.source.source);
        let alternates = self.translations.alternates(of, &output, &self.meta.config);
        context.insert("alternates", &alternates);
        context.insert("content", &body.html);
        context.insert("has_h1", &body.headings.iter().any(|h| h.level == 1));
        context.insert("children", &self.nav.children_of(&output));
        let html = self.render_template("page.html", &context)?;
        let article = article_of(&html).to_string();
        let (anchors, refs) = links::scan(&article);
        let rendered = RenderedPage {
            source: page.source.clone(),
            title: page.title.clone(),
            updated,
            description: page.description.clone(),
            article,
            body: page.made.is_none().then_some((&page.body, page.body_line)),
            anchors,
            refs,
            links: body.links,
            files: BTreeMap::from([
                (output.clone(), html.into_bytes()),
                (
                    paths::page_markdown(&rulebook::published(&page.source)),
                    basics::markdown_export(page),
                ),
            ]),
            output,
            rules: body.rules,
        };
        Ok((rendered, errors))
    }

    /// A page's markdown rendered, numbered on a page of numbered rules,
    /// glossary terms marked.
    /// A translation (`translating`) is numbered as its source, its
    /// outdated rules marked, its own language's glossary terms marked.
    fn markdown_body(
        &self,
        page: &Page,
        output: &str,
        translating: Option<&translated::Translating>,
    ) -> (markdown::Rendered, Vec<markdown::MarkdownError>) {
        let expander = Expander {
            renderer: self,
            output: output.to_string(),
            table_ids: Default::default(),
        };
        let words = self.words();
        let open = |opening: &markdown::Opening| {
            let unreleased = translating.is_none() && self.unreleased.contains(opening.key);
            let html = (self.history).opening_html(
                self.tera,
                self.book,
                opening,
                (output, unreleased),
                &words,
            )?;
            // The outdated mark stands with the other marks (after a
            // heading, not in it).
            let mark = translating
                .filter(|_| opening.holder != markdown::Holder::Heading)
                .map(|t| t.mark(opening.key, self.book));
            Ok(html + mark.as_deref().unwrap_or(""))
        };
        let numbered_page = translating.map_or(page, |t| t.translated.source);
        let numbering = self.book.numbering(numbered_page, &open);
        let renumbered = translating
            .zip(numbering.as_ref())
            .map(|(t, inner)| Renumbered {
                inner: rulebook::Numbering {
                    chapter: inner.chapter,
                    stem: inner.stem.clone(),
                    open: inner.open,
                },
                numbers: t.numbers.clone(),
                source: t.translated.source.source.clone(),
            });
        let numbered: Option<&dyn markdown::Numbered> = match &renumbered {
            Some(renumbered) => Some(renumbered),
            None => numbering.as_ref().map(|n| n as &dyn markdown::Numbered),
        };
        // A translation's terms are its language's; scopes name the
        // source pages, which a translation stands for.
        let terms = translating.map_or(self.terms, |t| t.terms);
        let scoped = translating.map_or(&page.source, |t| &t.translated.source.source);
        markdown::render_page(
            &page.body,
            page.body_line,
            &expander,
            numbered,
            terms.map(|t| markdown::Glossary::marker(t, scoped)),
        )
    }

    fn scenario(&self, computed: &Computed) -> Result<RenderedPage<'static>> {
        let scenario = computed.scenario;
        let output = paths::scenario_output(&scenario.name);
        let mut files: SiteFiles = computed
            .page
            .tables()
            .map(|t| (paths::table_csv(&scenario.name, &t.id), csv(t).into_bytes()))
            .collect();
        let (answer, rest, headings) = html::answer_and_blocks(
            &computed.page.blocks,
            &SiteLinks {
                renderer: self,
                computed,
            },
            &scenario.source,
        )?;
        let mut json_text = scenario_json(scenario, &computed.page.results);
        json_text.push('\n');
        let json_path = paths::scenario_json(&scenario.name);
        let json_href = paths::sibling_href(&json_path);
        files.insert(json_path, json_text.into_bytes());

        let description = scenario
            .header
            .description
            .as_deref()
            .or(computed.page.verdict());
        let mut context = self.context(&output, &scenario.header.title, description, &headings);
        context.insert("lead", &scenario.header.description);
        let updated = self.source_links(&mut context, &scenario.source, None);
        // The answer stands before the form, the rest after it;
        // `blocks_html`, all of them, is kept for templates written for it.
        context.insert("answer_html", &answer);
        context.insert("rest_html", &rest);
        context.insert("blocks_html", &format!("{answer}{rest}"));
        context.insert("kind", scenario.params.kind());
        context.insert("json_href", &json_href);
        context.insert("source", &scenario.source);
        context.insert(
            "measures",
            &self.book.measured_by(computed.scenario, &output),
        );
        context.insert("calculator", &crate::calculator::form(scenario));
        let html = self.render_template("scenario.html", &context)?;
        let article = article_of(&html).to_string();
        files.insert(output.clone(), html.into_bytes());
        let (anchors, refs) = links::scan(&article);
        Ok(RenderedPage {
            source: scenario.source.clone(),
            title: scenario.header.title.clone(),
            updated,
            description: scenario.header.description.clone(),
            article,
            body: None,
            output,
            anchors,
            refs,
            links: Vec::new(),
            files,
            rules: Vec::new(),
        })
    }

    /// The title of the scenario `name` and the link to its page from
    /// `computed`'s page; an error naming the key when there is no such
    /// scenario or it is of another kind.
    fn scenario_link(
        &self,
        computed: &Computed,
        name: &str,
        kind: &str,
    ) -> Result<(String, String)> {
        let at_key = |message: String| {
            let (line, column) = computed.scenario.key_position("compare_with");
            Error::Source {
                file: crate::paths::content_file(&computed.scenario.source),
                line,
                column,
                message: format!("compare_with: {message}"),
            }
        };
        let target = self.scenarios.get(name).ok_or_else(|| {
            at_key(format!(
                "no scenario {name:?} in content/ (name a {kind} scenario by its path \
                 without .yaml, such as rules/first-player)"
            ))
        })?;
        let found = target.scenario.params.kind();
        if found != kind {
            return Err(at_key(format!(
                "{name:?} is a {found} scenario; name a {kind} one"
            )));
        }
        let from = paths::scenario_output(&computed.scenario.name);
        let to = paths::scenario_output(name);
        Ok((
            target.scenario.header.title.clone(),
            paths::href(&from, &to),
        ))
    }

    /// The playground: rolls typed in, computed in the reader's browser.
    fn playground_page(&self) -> Result<String> {
        let mut context = self.context(paths::PLAYGROUND_PAGE, PLAYGROUND_TITLE, None, &[]);
        context.insert("engine", crate::kinds::PLAYGROUND_ENGINE);
        self.render_template("playground.html", &context)
    }
}

/// Links from a scenario's page on the site: each CSV beside the page, and
/// other scenarios' pages with their figures quoted.
struct SiteLinks<'r, 'a> {
    renderer: &'r Renderer<'a>,
    computed: &'r Computed<'r>,
}

impl html::Links for SiteLinks<'_, '_> {
    fn csv(&self, table: &Table) -> html::CsvLink {
        let name = &self.computed.scenario.name;
        html::CsvLink {
            href: paths::sibling_href(&paths::table_csv(name, &table.id)),
            download: None,
        }
    }

    fn scenario(&self, name: &str, kind: &str) -> Result<html::Linked> {
        let (title, href) = self.renderer.scenario_link(self.computed, name, kind)?;
        Ok(html::Linked {
            title,
            href: Some(href),
        })
    }
}
