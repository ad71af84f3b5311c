//! The link check: every relative `href` and `src` a page's article holds
//! (markdown links, images, shortcode output) must name a file the site
//! writes, and its `#fragment` an id on that page. A link that climbs out of
//! the site, or to a file that is not published, fails the build with its
//! file and line: a browser would otherwise read the reader's own files
//! through `file://`.

use super::RenderedPage;
use crate::error::Error;
use crate::markdown::Link;
use crate::paths::{self, Target};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

/// What the check needs of one rendered page.
pub struct Checked<'a> {
    /// The content file, for error messages (`content/` + this).
    pub source: &'a str,
    /// The page's output path.
    pub output: &'a str,
    /// The markdown body and its first line, to locate links the renderer
    /// did not report (images); `None` for scenario pages.
    pub body: Option<(&'a str, usize)>,
    /// Links the renderer reported, with their lines.
    pub links: &'a [Link],
    /// Every `href` and `src` in the article, entities decoded.
    pub refs: &'a [Ref],
}

/// One `href` or `src` value of an article.
pub(crate) struct Ref {
    /// `true` for `src` (an image), `false` for `href`.
    pub(crate) is_source: bool,
    /// The value with HTML entities decoded.
    pub value: String,
}

/// Broken links located past this many per page are reported without
/// searching the page for their line, so a page of broken images costs no
/// more than its length.
const LOCATED_PER_PAGE: usize = 20;

/// The `id`s, `href`s and `src`s of an article, in one pass.
pub fn scan(article: &str) -> (BTreeSet<String>, Vec<Ref>) {
    let mut ids = BTreeSet::new();
    let mut refs = Vec::new();
    for (name, range) in attributes(article, &[ID, HREF, SRC]) {
        let value = decode_entities(&article[range]);
        if name == ID {
            ids.insert(value);
        } else {
            refs.push(Ref {
                is_source: name == SRC,
                value,
            });
        }
    }
    (ids, refs)
}

/// Every id given more than once in `html`, once each, in order.
pub(crate) fn duplicate_ids(html: &str) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut twice = BTreeSet::new();
    for (_, range) in attributes(html, &[ID]) {
        let id = decode_entities(&html[range]);
        if !seen.insert(id.clone()) {
            twice.insert(id);
        }
    }
    twice.into_iter().collect()
}

pub(crate) const ID: &str = " id=\"";
pub(crate) const HREF: &str = " href=\"";
pub(crate) const SRC: &str = " src=\"";

/// Check every page's links against the files of the site and the ids of
/// each page.
pub fn check(
    pages: &[Checked],
    files: &Files,
    ids: &BTreeMap<&str, &BTreeSet<String>>,
    errors: &mut Vec<Error>,
) {
    for page in pages {
        let mut located = 0;
        let mut reported: BTreeMap<Target, &Link> = BTreeMap::new();
        for link in page.links {
            reported
                .entry(paths::link_target(page.output, &link.target))
                .or_insert(link);
        }
        for reference in page.refs {
            let target = paths::link_target(page.output, &reference.value);
            let Some(problem) = problem(&target, files, ids) else {
                continue;
            };
            let what = if reference.is_source { "image" } else { "link" };
            // Named as the author wrote it, where it stands; the address it
            // became only when that differs (`rules.md` is `rules.html`).
            let (line, column, message) = match reported.get(&target) {
                Some(link) if link.written != reference.value => (
                    link.line,
                    link.column,
                    format!(
                        "broken {what} {:?} (in the site {:?}): {problem}",
                        link.written, reference.value
                    ),
                ),
                Some(link) => (
                    link.line,
                    link.column,
                    format!("broken {what} {:?}: {problem}", link.written),
                ),
                None => {
                    located += 1;
                    let line = page.body.map_or(1, |(body, first)| {
                        if located > LOCATED_PER_PAGE {
                            first
                        } else {
                            line_of(body, first, &reference.value)
                        }
                    });
                    let message = format!("broken {what} {:?}: {problem}", reference.value);
                    (line, 1, message)
                }
            };
            errors.push(Error::Source {
                file: crate::paths::content_file(page.source),
                line,
                column,
                message,
            });
        }
    }
}

/// What a link may point at: the site's files, and the table CSVs of
/// scenarios that were not built (their own errors say why; their table
/// ids are unknown, so any is taken).
pub struct Files<'a> {
    pub paths: &'a BTreeSet<&'a str>,
    pub unbuilt: &'a BTreeSet<String>,
}

impl Files<'_> {
    fn contains(&self, path: &str) -> bool {
        self.paths.contains(path)
            || self
                .unbuilt
                .iter()
                .any(|name| paths::is_table_csv_of(path, name))
    }
}

fn problem(
    target: &Target,
    files: &Files,
    ids: &BTreeMap<&str, &BTreeSet<String>>,
) -> Option<String> {
    let (path, fragment) =
        match target {
            Target::External => return None,
            Target::Outside => return Some(
                "points outside the site: link only to files of the site (pages, scenarios and \
                 files in content/)"
                    .into(),
            ),
            Target::File { path, fragment } => (path, fragment),
        };
    if !files.contains(path.as_str()) {
        return Some(format!(
            "no file {path} in the site: link to a page's .md or a scenario's .yaml, or to a \
             file in content/"
        ));
    }
    let fragment = fragment.as_deref().map(paths::percent_decode);
    match (fragment, ids.get(path.as_str())) {
        (Some(f), Some(on_page)) if !f.is_empty() && !on_page.contains(&f) => {
            Some(format!("{path} has no heading #{f}"))
        }
        _ => None,
    }
}

/// The line of the body where `value` (or its decoded form) is written, or
/// the body's first line.
fn line_of(body: &str, first: usize, value: &str) -> usize {
    [value.to_string(), paths::percent_decode(value)]
        .iter()
        .find_map(|v| body.find(v.as_str()))
        .map_or(first, |at| first + body[..at].matches('\n').count())
}

/// Each attribute of `html` written as one of `names` (` name="`), with the
/// range of its value: one pass over the `="` in the text, so long pages
/// cost no more than their length.
pub fn attributes<'h>(
    html: &'h str,
    names: &'h [&'static str],
) -> impl Iterator<Item = (&'static str, Range<usize>)> + 'h {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(at) = html[from..].find("=\"").map(|i| from + i) {
            let start = at + 2;
            from = start;
            if let Some(name) = names.iter().find(|n| html[..start].ends_with(*n)) {
                let end = html[start..].find('"').map_or(html.len(), |i| start + i);
                from = end;
                return Some((*name, start..end));
            }
        }
        None
    })
}

/// HTML character references decoded: the named ones templates and
/// markdown write, and numeric ones.
pub(crate) fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        // A reference is short: look no further, so a run of `&` costs no
        // more than its length.
        let decoded = rest
            .bytes()
            .take(12)
            .position(|b| b == b';')
            .and_then(|end| Some((entity(&rest[1..end])?, end)));
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    let number = |digits: &str, radix| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(char::from_u32)
    };
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => match name.strip_prefix('#') {
            Some(hex) if hex.starts_with(['x', 'X']) => number(&hex[1..], 16),
            Some(decimal) => number(decimal, 10),
            None => None,
        },
    }
}

/// Every relative link and image of every page must reach a file of the
/// site, and its `#anchor` an id on that page.
pub(super) fn check_pages(pages: &[RenderedPage], files: &Files, errors: &mut Vec<Error>) {
    // Ids by page; a page two sources write (an error of its own) has no
    // ids to check links against.
    let mut ids: BTreeMap<&str, Option<&BTreeSet<String>>> = BTreeMap::new();
    for page in pages {
        ids.entry(page.output.as_str())
            .and_modify(|seen| *seen = None)
            .or_insert(Some(&page.anchors));
    }
    let ids: BTreeMap<&str, &BTreeSet<String>> = ids
        .into_iter()
        .filter_map(|(output, anchors)| Some((output, anchors?)))
        .collect();
    let checked: Vec<Checked> = pages
        .iter()
        .map(|p| Checked {
            source: &p.source,
            output: &p.output,
            body: p.body,
            links: &p.links,
            refs: &p.refs,
        })
        .collect();
    check(&checked, files, &ids, errors);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_are_scanned_for_ids_and_links() {
        let (ids, refs) = scan(
            "<h2 id=\"a&amp;b\">x</h2><a href=\"p.html?x=1&amp;y=2\">l</a><img src=\"i.png\" alt=\"\">\
             <p>not an href=&quot;x&quot; in text</p>",
        );
        assert_eq!(ids, BTreeSet::from(["a&b".to_string()]));
        let values: Vec<(bool, &str)> = refs
            .iter()
            .map(|r| (r.is_source, r.value.as_str()))
            .collect();
        assert_eq!(values, [(false, "p.html?x=1&y=2"), (true, "i.png")]);
    }

    #[test]
    fn entities_decode_and_odd_ampersands_stay() {
        assert_eq!(
            decode_entities("a&amp;b&#x27;c&#39;d&#x2F;&bogus;&"),
            "a&b'c'd/&bogus;&"
        );
        assert_eq!(decode_entities("&#xFFFFFFFF;&#;"), "&#xFFFFFFFF;&#;");
        assert_eq!(decode_entities("&abcdefghijklmnop;"), "&abcdefghijklmnop;");
    }

    #[test]
    fn broken_links_are_found_with_their_lines() {
        let files = BTreeSet::from(["index.html", "data.csv"]);
        let index_ids = BTreeSet::from(["top".to_string()]);
        let ids = BTreeMap::from([("index.html", &index_ids)]);
        let body = "# Home\n\n![x](../../etc/passwd)\n[d](data.csv) [t](#top) [n](#none)\n";
        let refs = [
            "../../etc/passwd",
            "data.csv",
            "#top",
            "#none",
            "https://e.org/x.png",
        ]
        .map(|v| Ref {
            is_source: v.contains("passwd"),
            value: v.into(),
        });
        let page = Checked {
            source: "_index.md",
            output: "index.html",
            body: Some((body, 3)),
            links: &[Link {
                target: "#none".into(),
                written: "#none".into(),
                line: 40,
                column: 7,
            }],
            refs: &refs,
        };
        let mut errors = Vec::new();
        let unbuilt = BTreeSet::new();
        let files = Files {
            paths: &files,
            unbuilt: &unbuilt,
        };
        check(&[page], &files, &ids, &mut errors);
        let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0].starts_with(
                "content/_index.md:5:1: broken image \"../../etc/passwd\": points outside the site"
            ),
            "{messages:?}"
        );
        assert!(
            messages[1].starts_with(
                "content/_index.md:40:7: broken link \"#none\": index.html has no heading #none"
            ),
            "{messages:?}"
        );
    }
}
