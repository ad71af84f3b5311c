//! The whole site on one page, in reading order, for printing or saving as
//! PDF. Each page's article is copied in with its ids prefixed, so anchors
//! stay unique, and its links pointed inside the print page where they can.
//! Forms (the what-if calculators) are left out: paper cannot use them.

use super::links::{self, HREF, ID, SRC};
use super::{RenderedPage, Renderer};
use crate::error::Result;
use crate::paths::{self, Target};
use crate::rulebook;
use rayon::prelude::*;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

/// Each page's anchor in the print page, by output path: `targets/method.html`
/// -> `page-targets-method`. Other characters than letters, digits and `_`
/// become one `-` (so no anchor holds the `--` that joins it to the ids
/// inside), and a name taken twice gets a number: every page keeps its own.
pub(crate) fn page_anchors<'a>(
    outputs: impl IntoIterator<Item = &'a str>,
) -> BTreeMap<&'a str, String> {
    let mut used = BTreeSet::new();
    // The next number to try per name, so many pages of one name cost no
    // more than their count.
    let mut next: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeMap::new();
    for output in outputs {
        let stem = output.strip_suffix(".html").unwrap_or(output);
        let mut base = String::from("page-");
        for c in stem.chars() {
            let c = if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            };
            if c != '-' || !base.ends_with('-') {
                base.push(c);
            }
        }
        let base = base.trim_end_matches('-').to_string();
        let mut anchor = base.clone();
        while !used.insert(anchor.clone()) {
            let n = next.entry(base.clone()).or_insert(1);
            *n += 1;
            anchor = format!("{base}-{n}");
        }
        anchors.insert(output, anchor);
    }
    anchors
}

const ARIA_LABELLEDBY: &str = " aria-labelledby=\"";
const ARIA_DESCRIBEDBY: &str = " aria-describedby=\"";
const ATTRIBUTES: [&str; 5] = [ID, HREF, SRC, ARIA_LABELLEDBY, ARIA_DESCRIBEDBY];

/// A page's article made fit for the print page at the site root: ids
/// prefixed, links to printed pages (`anchors`) turned into in-page links,
/// other relative links and sources made relative to the root.
pub fn rewrite(article: &str, output: &str, anchors: &BTreeMap<&str, String>) -> String {
    let article = &without_forms(article);
    let prefix = anchors.get(output).map_or("page", String::as_str);
    let mut out = String::with_capacity(article.len() + article.len() / 16);
    let mut last = 0;
    for (attribute, range) in links::attributes(article, &ATTRIBUTES) {
        out.push_str(&article[last..range.start]);
        let value = &article[range.clone()];
        match attribute {
            ID => out.push_str(&format!("{prefix}--{value}")),
            ARIA_LABELLEDBY | ARIA_DESCRIBEDBY => out.push_str(
                &value
                    .split_whitespace()
                    .map(|id| format!("{prefix}--{id}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => out.push_str(&link(value, output, prefix, anchors)),
        }
        last = range.end;
    }
    out.push_str(&article[last..]);
    out
}

/// The article without its `<form>` elements. Forms do not nest, and an
/// author's text cannot hold one (markdown escapes or drops raw `<form>`),
/// so each runs from `<form` to the next `</form>`.
fn without_forms(article: &str) -> String {
    const OPEN: &str = "<form";
    const CLOSE: &str = "</form>";
    let mut out = String::with_capacity(article.len());
    let mut rest = article;
    while let Some(start) = rest.find(OPEN) {
        let after = rest.as_bytes().get(start + OPEN.len());
        if !matches!(after, Some(b' ' | b'>' | b'\n')) {
            out.push_str(&rest[..start + OPEN.len()]);
            rest = &rest[start + OPEN.len()..];
            continue;
        }
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find(CLOSE)
            .map_or("", |end| &rest[start + end + CLOSE.len()..]);
        rest = rest.strip_prefix('\n').unwrap_or(rest);
    }
    out.push_str(rest);
    out
}

/// `value` is an attribute as written in HTML; what it returns is too.
fn link(value: &str, output: &str, prefix: &str, anchors: &BTreeMap<&str, String>) -> String {
    if let Some(fragment) = value.strip_prefix('#') {
        return format!("#{prefix}--{fragment}");
    }
    let Target::File { path, fragment } =
        paths::link_target(output, &links::decode_entities(value))
    else {
        return value.to_string();
    };
    let fragment = fragment.map(|f| crate::html::escape(&f));
    match (anchors.get(path.as_str()), fragment) {
        (Some(anchor), Some(fragment)) => format!("#{anchor}--{fragment}"),
        (Some(anchor), None) => format!("#{anchor}"),
        (None, Some(fragment)) => format!("{}#{fragment}", paths::href("", &path)),
        (None, None) => paths::href("", &path),
    }
}

impl Renderer<'_> {
    /// Every page in reading order on one page, for printing; and the rule
    /// book's (its numbered sections and the glossary) when it has rules.
    pub(super) fn print_page(&self, pages: &[RenderedPage]) -> Result<(String, Option<String>)> {
        let by_output: BTreeMap<&str, &RenderedPage> =
            pages.iter().map(|p| (p.output.as_str(), p)).collect();
        let order: Vec<&RenderedPage> = self
            .nav
            .reading_order()
            .into_iter()
            .filter_map(|output| by_output.get(output).copied())
            .collect();
        let whole = self.print_of(&order, paths::PRINT_PAGE, "The whole site")?;
        if self.book.rules().is_empty() {
            return Ok((whole, None));
        }
        let glossary = paths::page_output(rulebook::GLOSSARY_PAGE);
        // The rules in reading order, then the glossary.
        let book: Vec<&RenderedPage> = order
            .iter()
            .copied()
            .filter(|p| self.book.in_book(&p.output) && p.output != glossary)
            .chain(order.iter().copied().filter(|p| p.output == glossary))
            .collect();
        let rules = self.print_of(&book, paths::RULEBOOK_PRINT_PAGE, "The rule book")?;
        Ok((whole, Some(rules)))
    }

    /// `order`'s pages on one page, `output`, for printing. Each contents
    /// entry has an empty page number (`data-at`) and each page an empty
    /// mark (`data-mark`), which `fairdice pdf` fills in.
    pub(super) fn print_of(
        &self,
        order: &[&RenderedPage],
        output: &str,
        title: &str,
    ) -> Result<String> {
        let anchors = page_anchors(order.iter().map(|p| p.output.as_str()));
        let sections: Vec<serde_json::Value> = order
            .par_iter()
            .map(|page| {
                // A page not translated keeps the site's language.
                let translated = page.source.starts_with(crate::content::TRANSLATIONS);
                let lang = self.lang.filter(|_| translated);
                json!({
                    "anchor": anchors[page.output.as_str()],
                    "lang": lang.unwrap_or(&self.meta.config.language.0),
                    "title": page.title,
                    // Its rule number (a page outside the rules has none).
                    "number": self.book.chapter(&page.source),
                    "output": page.output,
                    "html": rewrite(&page.article, &page.output, &anchors),
                })
            })
            .collect();
        let mut context = self.context(output, title, None, &[]);
        context.insert("sections", &sections);
        context.insert("whole", &(output == paths::PRINT_PAGE));
        self.render_template("print.html", &context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_links_point_inside_the_print_page() {
        let anchors = page_anchors(["index.html", "rules/dice.html", "rules/odd.html"]);
        let article = "<h2 id=\"ties\">Ties<a class=\"anchor\" href=\"#ties\">#</a></h2>\
            <a href=\"odd.html#roll\">x</a><a href=\"../index.html\">h</a>\
            <a href=\"dice.json\">j</a><a href=\"https://e.org/a\">e</a>\
            <svg aria-labelledby=\"c-t c-d\"><title id=\"c-t\">t</title></svg>";
        let out = rewrite(article, "rules/dice.html", &anchors);
        assert_eq!(
            out,
            "<h2 id=\"page-rules-dice--ties\">Ties<a class=\"anchor\" href=\"#page-rules-dice--ties\">#</a></h2>\
            <a href=\"#page-rules-odd--roll\">x</a><a href=\"#page-index\">h</a>\
            <a href=\"rules/dice.json\">j</a><a href=\"https://e.org/a\">e</a>\
            <svg aria-labelledby=\"page-rules-dice--c-t page-rules-dice--c-d\"><title id=\"page-rules-dice--c-t\">t</title></svg>"
        );
    }

    #[test]
    fn forms_are_left_out_of_print() {
        let article = "<p>a</p>\n<form class=\"calculator\" hidden>\n<input id=\"x\">\n\
                       <p><button type=\"submit\">Compute</button></p>\n</form>\n<p>b</p>\
                       <formula>c</formula><form>d</form>";
        let out = rewrite(article, "a.html", &page_anchors(["a.html"]));
        assert_eq!(out, "<p>a</p>\n<p>b</p><formula>c</formula>");
    }

    #[test]
    fn every_page_gets_its_own_anchor() {
        let anchors = page_anchors(["a/b.html", "a-b.html", "a b#?.html", "x:été.html"]);
        let values: Vec<&str> = anchors.values().map(String::as_str).collect();
        assert_eq!(
            values,
            ["page-a-b-3", "page-a-b-2", "page-a-b", "page-x-été"]
        );
    }
}
