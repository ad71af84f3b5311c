//! The whole site on one page, in reading order, for printing or saving as
//! PDF. Each page's article is copied in with its ids prefixed, so anchors
//! stay unique, and its links pointed inside the print page where they can.

use crate::paths::{is_relative, resolve};
use std::collections::BTreeSet;

/// The anchor a page gets in the print page: `targets/method.html` ->
/// `page-targets-method`.
pub fn page_anchor(output: &str) -> String {
    let stem = output.strip_suffix(".html").unwrap_or(output);
    format!("page-{}", stem.replace(['/', '.'], "-"))
}

/// A page's article made fit for the print page at the site root: ids
/// prefixed, links to printed pages turned into in-page links, other
/// relative links and sources made relative to the root.
pub fn rewrite(article: &str, output: &str, printed: &BTreeSet<&str>) -> String {
    let prefix = page_anchor(output);
    let mut out = String::with_capacity(article.len() + article.len() / 16);
    let mut rest = article;
    while let Some((at, attribute)) = next_attribute(rest) {
        let value_start = at + attribute.len();
        let Some(value_len) = rest[value_start..].find('"') else {
            break;
        };
        out.push_str(&rest[..value_start]);
        let value = &rest[value_start..value_start + value_len];
        let new_value = match attribute {
            " id=\"" => format!("{prefix}--{value}"),
            " aria-labelledby=\"" | " aria-describedby=\"" => value
                .split_whitespace()
                .map(|id| format!("{prefix}--{id}"))
                .collect::<Vec<_>>()
                .join(" "),
            _ => link(value, output, &prefix, printed),
        };
        out.push_str(&new_value);
        rest = &rest[value_start + value_len..];
    }
    out.push_str(rest);
    out
}

const ATTRIBUTES: [&str; 5] = [
    " id=\"",
    " href=\"",
    " src=\"",
    " aria-labelledby=\"",
    " aria-describedby=\"",
];

/// The first attribute to rewrite in `html`, with its offset: one pass over
/// the `="` in the text, so long pages cost no more than their length.
fn next_attribute(html: &str) -> Option<(usize, &'static str)> {
    let mut from = 0;
    while let Some(at) = html[from..].find("=\"").map(|i| from + i) {
        let end = at + 2;
        if let Some(attribute) = ATTRIBUTES.iter().find(|a| html[..end].ends_with(*a)) {
            return Some((end - attribute.len(), attribute));
        }
        from = end;
    }
    None
}

fn link(value: &str, output: &str, prefix: &str, printed: &BTreeSet<&str>) -> String {
    if let Some(fragment) = value.strip_prefix('#') {
        return format!("#{prefix}--{fragment}");
    }
    if !is_relative(value) {
        return value.to_string();
    }
    let (path, fragment) = value
        .split_once('#')
        .map_or((value, None), |(p, f)| (p, Some(f)));
    let Some(target) = resolve(output, path) else {
        return value.to_string();
    };
    match (printed.contains(target.as_str()), fragment) {
        (true, Some(fragment)) => format!("#{}--{fragment}", page_anchor(&target)),
        (true, None) => format!("#{}", page_anchor(&target)),
        (false, Some(fragment)) => format!("{target}#{fragment}"),
        (false, None) => target,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_links_point_inside_the_print_page() {
        let printed = BTreeSet::from(["index.html", "rules/dice.html", "rules/odd.html"]);
        let article = "<h2 id=\"ties\">Ties<a class=\"anchor\" href=\"#ties\">#</a></h2>\
            <a href=\"odd.html#roll\">x</a><a href=\"../index.html\">h</a>\
            <a href=\"dice.json\">j</a><a href=\"https://e.org/a\">e</a>\
            <svg aria-labelledby=\"c-t c-d\"><title id=\"c-t\">t</title></svg>";
        let out = rewrite(article, "rules/dice.html", &printed);
        assert_eq!(
            out,
            "<h2 id=\"page-rules-dice--ties\">Ties<a class=\"anchor\" href=\"#page-rules-dice--ties\">#</a></h2>\
            <a href=\"#page-rules-odd--roll\">x</a><a href=\"#page-index\">h</a>\
            <a href=\"rules/dice.json\">j</a><a href=\"https://e.org/a\">e</a>\
            <svg aria-labelledby=\"page-rules-dice--c-t page-rules-dice--c-d\"><title id=\"page-rules-dice--c-t\">t</title></svg>"
        );
    }
}
