//! Markdown to HTML with pulldown-cmark: shortcodes expanded, headings given
//! stable anchors, links to `.md` files rewritten to the pages they become,
//! `$...$` and `$$...$$` turned into MathML, `> [!NOTE]` quotes into callouts.

mod math;

use crate::paths::{self, is_relative};
use crate::shortcodes::{self, Expand, Expansion};
use pulldown_cmark::{
    html, BlockQuoteKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};
use std::collections::BTreeSet;

/// A rendered page body and what the site needs to know about it.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// The HTML.
    pub html: String,
    /// Headings in order, for the "on this page" list and anchor checks.
    pub headings: Vec<Heading>,
    /// Relative links, for the link checker.
    pub links: Vec<Link>,
}

/// A heading with its anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// Plain text.
    pub text: String,
    /// The `id`, unique within the page.
    pub id: String,
}

/// A relative link found in the markdown (after rewriting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The target as written into the HTML, such as `../rules/index.html#ties`.
    pub target: String,
    /// 1-based line in the source file.
    pub line: usize,
}

/// A problem at a line of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkdownError {
    /// 1-based line in the source file.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

/// Private-use characters mark where a shortcode's output goes; markdown
/// passes them through untouched.
const MARK_OPEN: char = '\u{E000}';
const MARK_CLOSE: char = '\u{E001}';

/// Render `body`, whose first line is line `first_line` of its file.
pub fn render(
    body: &str,
    first_line: usize,
    expand: &dyn Expand,
) -> Result<Rendered, Vec<MarkdownError>> {
    let (marked, expansions, mut errors) = expand_shortcodes(body, first_line, expand);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(marked.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| first_line + line_starts.partition_point(|&s| s <= offset) - 1;

    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_MATH
        | Options::ENABLE_GFM;
    let mut events: Vec<Event> = Vec::new();
    let mut rendered = Rendered::default();
    let mut used_ids = BTreeSet::new();
    let mut heading: Option<(HeadingLevel, Option<CowStr>, Vec<Event>)> = None;
    for (event, range) in Parser::new_ext(&marked, options).into_offset_iter() {
        let event = match event {
            Event::Start(Tag::Link { ref dest_url, .. } | Tag::Image { ref dest_url, .. })
                if !is_allowed_url(dest_url) =>
            {
                errors.push(MarkdownError {
                    line: line_of(range.start),
                    message: format!(
                        "link {dest_url:?}: only http, https and mailto links and paths inside \
                         the site are allowed"
                    ),
                });
                Event::Text("".into())
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest_url = paths::source_link(&dest_url).map_or(dest_url, CowStr::from);
                if is_relative(&dest_url) {
                    rendered.links.push(Link {
                        target: dest_url.to_string(),
                        line: line_of(range.start),
                    });
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            }
            Event::InlineMath(latex) | Event::DisplayMath(latex) if latex.trim().is_empty() => {
                Event::Text(latex)
            }
            Event::InlineMath(latex) => formula(&latex, false, line_of(range.start), &mut errors),
            Event::DisplayMath(latex) => formula(&latex, true, line_of(range.start), &mut errors),
            Event::Html(raw) => Event::Text(raw),
            Event::InlineHtml(raw) if !is_allowed_inline_tag(&raw) => Event::Text(raw),
            Event::Start(Tag::BlockQuote(Some(kind))) => Event::Html(callout_open(kind).into()),
            Event::End(TagEnd::BlockQuote(Some(_))) => Event::Html("</aside>\n".into()),
            other => other,
        };
        match (event, &mut heading) {
            (Event::Start(Tag::Heading { level, id, .. }), None) => {
                heading = Some((level, id, Vec::new()))
            }
            (Event::End(TagEnd::Heading(_)), Some(_)) => {
                let (level, id, inner) = heading.take().expect("inside a heading");
                let text = plain_text(&inner);
                let id = unique_id(
                    id.map_or_else(|| slugify(&text), |id| id.to_string()),
                    &mut used_ids,
                );
                let mut inner_html = String::new();
                html::push_html(&mut inner_html, inner.into_iter());
                let n = level as u8;
                events.push(Event::Html(
                    format!("<h{n} id=\"{id}\">{inner_html}<a class=\"anchor\" href=\"#{id}\" aria-label=\"Link to this section\">#</a></h{n}>\n").into(),
                ));
                rendered.headings.push(Heading { level: n, text, id });
            }
            (event, Some((_, _, inner))) => inner.push(event),
            (event, None) => events.push(event),
        }
    }
    html::push_html(&mut rendered.html, events.into_iter());
    rendered.html = fill_in(&rendered.html, &expansions, &mut errors);
    if errors.is_empty() {
        Ok(rendered)
    } else {
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }
}

/// A formula as MathML, or an error at its line (and nothing on the page).
fn formula<'a>(
    latex: &str,
    display: bool,
    line: usize,
    errors: &mut Vec<MarkdownError>,
) -> Event<'a> {
    match math::to_mathml(latex, display) {
        Ok(mathml) => Event::InlineHtml(mathml.into()),
        Err(message) => {
            errors.push(MarkdownError { line, message });
            Event::Text("".into())
        }
    }
}

/// The opening of a callout box: GitHub's `> [!NOTE]` quotes and their kin.
fn callout_open(kind: BlockQuoteKind) -> String {
    let (class, label) = match kind {
        BlockQuoteKind::Note => ("note", "Note"),
        BlockQuoteKind::Tip => ("tip", "Tip"),
        BlockQuoteKind::Important => ("important", "Important"),
        BlockQuoteKind::Warning => ("warning", "Warning"),
        BlockQuoteKind::Caution => ("caution", "Caution"),
    };
    format!(
        "<aside class=\"callout {class}\" role=\"note\" aria-label=\"{label}\">\n<p class=\"callout-title\">{label}</p>\n"
    )
}

/// Replace each shortcode by a numbered mark, keeping what it expands to.
fn expand_shortcodes(
    body: &str,
    first_line: usize,
    expand: &dyn Expand,
) -> (String, Vec<Expansion>, Vec<MarkdownError>) {
    let mut marked = String::with_capacity(body.len());
    let mut expansions = Vec::new();
    let mut errors = Vec::new();
    let mut last = 0;
    for found in shortcodes::find(body, first_line) {
        marked.push_str(&body[last..found.start]);
        last = found.end;
        let line = first_line + body[..found.start].matches('\n').count();
        match found.call.and_then(|call| expand.expand(&call)) {
            Ok(expansion) => {
                marked.push(MARK_OPEN);
                marked.push_str(&expansions.len().to_string());
                marked.push(MARK_CLOSE);
                expansions.push(expansion);
            }
            Err(message) => errors.push(MarkdownError { line, message }),
        }
    }
    marked.push_str(&body[last..]);
    (marked, expansions, errors)
}

/// Put the expansions where their marks ended up in the HTML.
fn fill_in(html: &str, expansions: &[Expansion], errors: &mut Vec<MarkdownError>) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find(MARK_OPEN) {
        let Some(close) = rest[open..].find(MARK_CLOSE).map(|i| open + i) else {
            break;
        };
        let index: usize = rest[open + MARK_OPEN.len_utf8()..close]
            .parse()
            .unwrap_or(usize::MAX);
        let before = &rest[..open];
        let after = &rest[close + MARK_CLOSE.len_utf8()..];
        match expansions.get(index) {
            Some(Expansion::Inline(text)) => {
                out.push_str(before);
                out.push_str(&escape_html(text));
                rest = after;
            }
            Some(Expansion::Block(block)) => {
                // A block alone in its paragraph replaces the paragraph.
                match (before.strip_suffix("<p>"), after.strip_prefix("</p>")) {
                    (Some(b), Some(a)) => {
                        out.push_str(b);
                        out.push_str(block);
                        rest = a;
                    }
                    _ => {
                        out.push_str(before);
                        out.push_str(block);
                        rest = after;
                    }
                }
            }
            None => {
                errors.push(MarkdownError {
                    line: 0,
                    message: "internal: lost shortcode mark".into(),
                });
                out.push_str(before);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Raw HTML in markdown is shown as text, so a page from a stranger cannot
/// run a script or restyle the site; only these bare inline tags pass.
const ALLOWED_INLINE_TAGS: [&str; 6] = ["kbd", "sub", "sup", "br", "abbr", "mark"];

fn is_allowed_inline_tag(raw: &str) -> bool {
    let inner = raw
        .trim()
        .strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'));
    let name = inner.map(|i| i.trim_start_matches('/').trim_end_matches('/').trim());
    name.is_some_and(|n| ALLOWED_INLINE_TAGS.contains(&n))
}

/// Schemes a link may use; anything else (`javascript:`, `data:`, `file:`)
/// would run code or reach outside the site.
fn is_allowed_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    is_relative(url)
        || lower.starts_with('#')
        || ["http://", "https://", "mailto:"]
            .iter()
            .any(|s| lower.starts_with(s))
}

fn plain_text(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
            _ => None,
        })
        .collect()
}

/// A stable anchor from heading text: lowercase words joined by hyphens.
pub fn slugify(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            slug.extend(c.to_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-').to_string();
    if slug.is_empty() {
        "section".into()
    } else {
        slug
    }
}

fn unique_id(base: String, used: &mut BTreeSet<String>) -> String {
    let mut id = base.clone();
    let mut n = 1;
    while !used.insert(id.clone()) {
        n += 1;
        id = format!("{base}-{n}");
    }
    id
}

/// Escape text for HTML content and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shortcodes::Call;

    struct Fake;
    impl Expand for Fake {
        fn expand(&self, call: &Call) -> Result<Expansion, String> {
            match call.name.as_str() {
                "value" => Ok(Expansion::Inline(format!("<{}>", call.arg("x")?))),
                "table" => Ok(Expansion::Block("<table></table>".into())),
                other => Err(format!("unknown shortcode {other}")),
            }
        }
    }

    #[test]
    fn shortcodes_headings_and_links() {
        let body = "# Fair dice\n\nIt is {{ value(x=\"a&b\") }} fair.\n\n{{ table() }}\n\n## Fair dice\n\nSee [rules](rules/_index.md#ties) and [x](https://e.org).\n";
        let out = render(body, 5, &Fake).unwrap();
        assert!(
            out.html.contains("It is &lt;a&amp;b&gt; fair."),
            "{}",
            out.html
        );
        assert!(out.html.contains("\n<table></table>"), "{}", out.html);
        assert!(!out.html.contains("<p><table>"), "{}", out.html);
        assert!(out
            .html
            .contains("<h1 id=\"fair-dice\">Fair dice<a class=\"anchor\" href=\"#fair-dice\""));
        assert!(out.html.contains("<h2 id=\"fair-dice-2\">"));
        assert!(out.html.contains("href=\"rules/index.html#ties\""));
        assert_eq!(
            out.links,
            vec![Link {
                target: "rules/index.html#ties".into(),
                line: 13
            }]
        );
        assert_eq!(out.headings.len(), 2);
    }

    #[test]
    fn shortcode_errors_carry_their_line() {
        let errors = render("a\n\nb {{ nope() }}\n{{ value() }}", 10, &Fake).unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(
            (errors[0].line, errors[0].message.as_str()),
            (12, "unknown shortcode nope")
        );
        assert_eq!(errors[1].line, 13);
        assert!(errors[1].message.contains("needs the argument x"));
    }

    #[test]
    fn math_becomes_mathml_and_money_stays_text() {
        let body =
            "Fair when $P(v) = \\frac{1}{n}$.\n\n$$\nt \\mod n\n$$\n\nCosts \\$5 or \\$10.\n";
        let out = render(body, 1, &Fake).unwrap();
        assert!(out.html.contains("<math"), "{}", out.html);
        assert!(out.html.contains("<mfrac>"), "{}", out.html);
        assert!(out.html.contains("display=\"block\""), "{}", out.html);
        assert!(out.html.contains("Costs $5 or $10."), "{}", out.html);
        assert!(!out.html.contains("mtext mathcolor"), "{}", out.html);
    }

    #[test]
    fn a_formula_that_does_not_parse_fails_with_its_line() {
        let errors = render("Intro.\n\nBad: $x \\nosuch y$ here.\n", 4, &Fake).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, 6);
        assert!(
            errors[0].message.contains("does not parse"),
            "{}",
            errors[0].message
        );
    }

    #[test]
    fn alert_quotes_become_callouts() {
        let body = "> [!WARNING]\n> Do not reroll.\n\n> plain quote\n";
        let out = render(body, 1, &Fake).unwrap();
        assert!(
            out.html
                .contains("<aside class=\"callout warning\" role=\"note\" aria-label=\"Warning\">"),
            "{}",
            out.html
        );
        assert!(
            out.html.contains("<p>Do not reroll.</p>\n</aside>"),
            "{}",
            out.html
        );
        assert!(
            out.html.contains("<blockquote>\n<p>plain quote</p>"),
            "{}",
            out.html
        );
    }

    #[test]
    fn raw_html_is_text_and_links_are_limited() {
        let out = render(
            "<script>alert(1)</script>\n\nHi <b onclick=\"x()\">there</b>, press <kbd>/</kbd>.\n",
            1,
            &Fake,
        )
        .unwrap();
        assert!(!out.html.contains("<script>"), "{}", out.html);
        assert!(
            out.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{}",
            out.html
        );
        assert!(
            out.html
                .contains("&lt;b onclick=\"x()\"&gt;there&lt;/b&gt;"),
            "{}",
            out.html
        );
        assert!(out.html.contains("<kbd>/</kbd>"), "{}", out.html);
        for bad in [
            "[x](javascript:alert(1))",
            "[x](JavaScript:alert(1))",
            "![i](data:image/png;base64,AA)",
            "[f](file:///etc/passwd)",
        ] {
            let errors = render(&format!("text\n\n{bad}\n"), 1, &Fake).unwrap_err();
            assert_eq!(errors[0].line, 3, "{bad}");
            assert!(
                errors[0].message.contains("only http, https and mailto"),
                "{bad}"
            );
        }
        assert!(render(
            "[a](https://e.org) [b](mailto:x@e.org) [c](#here)\n",
            1,
            &Fake
        )
        .is_ok());
    }

    #[test]
    fn slugs_are_plain() {
        assert_eq!(slugify("Who goes first?"), "who-goes-first");
        assert_eq!(slugify("P(v) − 1/n"), "p-v-1-n");
        assert_eq!(slugify("!!!"), "section");
    }
}
