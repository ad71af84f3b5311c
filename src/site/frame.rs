//! The frame every page shares: the template context of title, language,
//! interface words, navigation and links about the page.

use super::{Renderer, TocEntry};
use crate::html::Heading;
use crate::paths::{self, root_prefix};
use crate::rulebook;
use crate::words::Words;
use serde_json::json;
use tera::Context;

impl Renderer<'_> {
    /// The interface's words in the language of the pages rendered.
    pub(super) fn words(&self) -> Words<'_> {
        self.words
            .words(self.lang.unwrap_or(&self.meta.config.language.0))
    }

    /// Where a page stands in the site's navigation: a translation
    /// (`fr/rules/start.html`) in its source's place (`rules/start.html`).
    fn place_of<'o>(&self, output: &'o str) -> &'o str {
        self.lang
            .and_then(|lang| output.strip_prefix(lang)?.strip_prefix('/'))
            .unwrap_or(output)
    }

    /// The context every template receives for the page at `output`.
    pub(super) fn context(
        &self,
        output: &str,
        title: &str,
        description: Option<&str>,
        headings: &[Heading],
    ) -> Context {
        let root = root_prefix(output);
        let mut context = Context::new();
        context.insert("site_title", self.site_title);
        let lang = self.lang.unwrap_or(&self.meta.config.language.0);
        context.insert("lang", lang);
        // The frame around a page (menus, tools, footer) is in the page's
        // language when it has a catalogue (English filling the words it
        // lacks, which `fairdice check` names); else all in the site's.
        let words = self.words();
        if self.lang.is_some() && !words.own {
            context.insert("frame_lang", &self.meta.config.language.0);
        }
        context.insert("t", &words.words);
        context.insert("script_words", &words.for_scripts());
        // Each language searches its own pages.
        let prefix = self.lang.map_or(String::new(), |lang| format!("{lang}/"));
        context.insert(
            "search_index",
            &format!("{root}{prefix}{}", paths::SEARCH_INDEX),
        );
        context.insert("alternates", &Vec::<rulebook::Language>::new());
        context.insert("page_url", &self.meta.config.page_url(output));
        context.insert("base_href", &None::<&str>);
        context.insert("updated", &None::<&str>);
        context.insert("updated_shown", &None::<&str>);
        context.insert("edit_url", &None::<&str>);
        context.insert("lead", &None::<&str>);
        context.insert("title", title);
        context.insert("description", &description.unwrap_or(""));
        context.insert("root", &root);
        // A translation stands in its source's place in the site's order.
        let place = self.place_of(output);
        let more = words
            .words
            .get("more_pages")
            .copied()
            .unwrap_or("… {count} more");
        context.insert("nav", &self.nav.view(place, output, more));
        context.insert("breadcrumbs", &self.nav.breadcrumbs(place, output));
        context.insert("prev", &self.nav.neighbour(place, output, -1));
        context.insert("next", &self.nav.neighbour(place, output, 1));
        let toc: Vec<TocEntry> = headings
            .iter()
            .filter(|h| h.level >= 2 && h.level <= 3)
            .map(|h| TocEntry {
                level: h.level,
                text: &h.text,
                id: &h.id,
            })
            .collect();
        context.insert("toc", &toc);
        if let Some(latest) = self.history.latest() {
            context.insert(
                "release",
                &json!({
                    "version": latest.snapshot.version,
                    "effective": latest.snapshot.effective,
                    "href": paths::href(output, &rulebook::change_page(&latest.snapshot.version)),
                    "line": words
                        .word("release")
                        .replace("{version}", &latest.snapshot.version)
                        .replace("{effective}", &words.date(&latest.snapshot.effective)),
                }),
            );
        }
        context
    }

    /// A page's "last updated" date (front matter first, else the source's
    /// history) and its "edit this page" address, into `context`; the date
    /// is returned for the sitemap.
    pub(super) fn source_links(
        &self,
        context: &mut Context,
        source: &str,
        front_matter: Option<&str>,
    ) -> Option<String> {
        let updated = front_matter
            .or_else(|| self.meta.updated.get(source).map(String::as_str))
            .map(str::to_string);
        context.insert("updated", &updated);
        let shown = updated.as_deref().map(|date| self.words().date(date));
        context.insert("updated_shown", &shown);
        context.insert("edit_url", &self.meta.config.edit_url(source));
        updated
    }
}
