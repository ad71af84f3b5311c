//! Markdown to HTML with pulldown-cmark: shortcodes expanded, headings given
//! stable anchors, links to `.md` files rewritten to the pages they become,
//! `$...$` and `$$...$$` turned into MathML, `> [!NOTE]` quotes into callouts.

mod math;
mod numbered;
mod offsets;
mod rules;
#[cfg(test)]
pub(crate) mod tests;

use offsets::{Marked, Piece, Places};
use rules::Rules;

use crate::html::anchors::{self, slugify, Anchors};
use crate::html::Heading;
pub use numbered::{Block, Glossary, Holder, MarkTerms, Numbered, Opening, Plan, Planned, Rule};

use crate::paths::{self, is_relative};
use crate::shortcodes::{self, Expand, Expansion};
use pulldown_cmark::{
    html, BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};
use std::ops::Range;

/// A rendered page body and what the site needs to know about it.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// The HTML.
    pub html: String,
    /// Headings in order, for the "on this page" list and anchor checks.
    pub headings: Vec<Heading>,
    /// Relative links, for the link checker.
    pub links: Vec<Link>,
    /// The rules of a numbered page, in order (empty otherwise).
    pub rules: Vec<Rule>,
}

/// A relative link found in the markdown (after rewriting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The target as written into the HTML, such as `../rules/index.html#ties`.
    pub target: String,
    /// The target as the author wrote it, such as `../rules/_index.md#ties`:
    /// what an error names, so the author finds it in the file.
    pub written: String,
    /// 1-based line in the source file.
    pub line: usize,
    /// 1-based column of the link's first character.
    pub column: usize,
}

/// A problem at a place of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkdownError {
    /// 1-based line in the source file.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What went wrong.
    pub message: String,
}

pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_MATH
        | Options::ENABLE_GFM
}

/// Stands where a shortcode was, so that markdown never reads its
/// arguments. A mark is known by its offset, not by its character: the same
/// character written by the author is text like any other.
const MARK: char = '\u{E000}';

/// Stands for the id in a glossary term's mark: each mark on a page gets
/// its own, which ties the words to their definition.
pub(crate) const TERM_ID: &str = "\u{E002}";

/// The scheme of a link that marks a glossary term: `[words](term:NAME)`.
const TERM_LINK: &str = "term:";

/// Render `body`, whose first line is line `first_line` of its file.
pub fn render(
    body: &str,
    first_line: usize,
    expand: &dyn Expand,
) -> Result<Rendered, Vec<MarkdownError>> {
    whole(render_page(body, first_line, expand, None, None))
}

/// The page a body of one block shortcode alone renders to, given what
/// it expands to: the same HTML, with no markdown read. For the pages the
/// rule book makes, which are data.
pub fn lone_block(html: &str) -> Rendered {
    Rendered {
        html: aligned_by_class(&format!("{html}\n")),
        ..Rendered::default()
    }
}

/// The rules of a numbered page, numbered and keyed but without their text,
/// before any page is rendered: cross-references need every rule's number.
pub(crate) fn plan_rules(
    body: &str,
    first_line: usize,
    numbering: &dyn Numbered,
) -> Result<Vec<Rule>, Vec<MarkdownError>> {
    let found = shortcodes::find(body, first_line, &literal_ranges(body));
    let marked = Marked::new(body, &found);
    let plan = numbering.plan(&marked.text, options(), &is_single_mark);
    let mut places = Places::new(body, first_line);
    let mut errors = Vec::new();
    for (at, message) in &plan.errors {
        let (line, column) = places.locate(marked.to_body(*at));
        errors.push(MarkdownError {
            line,
            column,
            message: message.clone(),
        });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(plan
        .rules
        .into_iter()
        .map(|planned| {
            let (line, column) = places.locate(marked.to_body(planned.at));
            Rule {
                line,
                column,
                ..planned.rule
            }
        })
        .collect())
}

/// Render a page of a numbered section: every rule numbered, keyed and
/// anchored, its `{#key}` taken out of the text.
#[cfg(test)]
pub(crate) fn render_numbered(
    body: &str,
    first_line: usize,
    expand: &dyn Expand,
    numbering: &dyn Numbered,
) -> Result<Rendered, Vec<MarkdownError>> {
    whole(render_page(body, first_line, expand, Some(numbering), None))
}

/// The page when it rendered without an error, else its errors.
fn whole(
    (rendered, errors): (Rendered, Vec<MarkdownError>),
) -> Result<Rendered, Vec<MarkdownError>> {
    if errors.is_empty() {
        Ok(rendered)
    } else {
        Err(errors)
    }
}

/// A paragraph made of one shortcode alone (a table, a chart) is no rule.
fn is_single_mark(source: &str) -> bool {
    let mut chars = source.chars();
    chars.next() == Some(MARK) && chars.next().is_none()
}

/// Render a page, numbered when `numbering` says so, marking the first use
/// of each glossary term when `terms` are given. It renders past its
/// errors: the page as far as it goes (a reference that failed leaves
/// nothing) and every error of the page, sorted by place, so a build can
/// still check the page's links.
pub fn render_page(
    body: &str,
    first_line: usize,
    expand: &dyn Expand,
    numbering: Option<&dyn Numbered>,
    terms: Option<Box<dyn MarkTerms + '_>>,
) -> (Rendered, Vec<MarkdownError>) {
    let mut page = Page {
        rules: None,
        terms,
        term_link: None,
        in_link: 0,
        places: Places::new(body, first_line),
        errors: Vec::new(),
        events: Vec::new(),
        heading: None,
        in_paragraph: false,
        in_code: false,
        dollar_line: 0,
        anchors: Anchors::for_page(),
        math: math::Allowance::default(),
        rendered: Rendered::default(),
        callouts: Callouts::of(expand),
    };
    let found = shortcodes::find(body, first_line, &literal_ranges(body));
    let mut marked = Marked::new(body, &found);
    let mut expansions: Vec<Option<Expansion>> = Vec::with_capacity(found.len());
    for found in found {
        let expansion = found.call.and_then(|call| expand.expand(&call));
        expansions.push(expansion.map_err(|m| page.error(found.start, m)).ok());
    }
    if let Some(numbering) = numbering {
        page.rules = Some(Rules::plan(&mut marked, &expansions, numbering, &mut page));
    }
    for (event, range) in Parser::new_ext(&marked.text, options()).into_offset_iter() {
        let at = marked.to_body(range.start);
        let source = &marked.text[range.clone()];
        if matches!(event, Event::Start(Tag::Heading { .. })) {
            page.heading_rule(range.start);
        }
        let event = match page.event(event, source, at) {
            // Marks are only looked for where the text is the source as it
            // is (no entity or escape in between), so offsets hold.
            Event::Text(text) if *text == *source => {
                for piece in marked.split(source, range.start) {
                    match piece {
                        Piece::Text(text) => page.push_text(text),
                        Piece::Mark(i) => match expansions.get_mut(i).and_then(Option::take) {
                            Some(Expansion::Inline(value)) => page.push(Event::Text(value.into())),
                            Some(Expansion::Link { text, href }) => page.push(Event::InlineHtml(
                                format!(
                                    "<a href=\"{}\">{}</a>",
                                    crate::html::escape(&href),
                                    crate::html::escape(&text)
                                )
                                .into(),
                            )),
                            Some(Expansion::Block(html)) => {
                                page.push_block(html, marked.body_start(i));
                            }
                            None => {}
                        },
                    }
                }
                continue;
            }
            other => page.dress(other, range.start),
        };
        page.push(event);
    }
    for (i, unused) in expansions.iter().enumerate() {
        if unused.is_some() {
            page.error(
                marked.body_start(i),
                "a shortcode cannot stand here (in a link or image address, a heading id or \
                 a reference definition): put it in the text"
                    .into(),
            );
        }
    }
    let Page {
        events,
        mut errors,
        mut rendered,
        rules,
        ..
    } = page;
    rendered.rules = rules.map(|r| r.done()).unwrap_or_default();
    html::push_html(&mut rendered.html, events.into_iter());
    rendered.html = aligned_by_class(&rendered.html);
    errors.sort_by_key(|e| (e.line, e.column));
    (rendered, errors)
}

/// A markdown table's column alignment as a class (`align-right`) instead
/// of the inline style pulldown-cmark writes: the site has no inline
/// styles (html-validate's `no-inline-style`). Authors' raw HTML is shown as
/// text, so these exact strings only come from the renderer.
fn aligned_by_class(html: &str) -> String {
    if !html.contains(" style=\"text-align: ") {
        return html.to_string();
    }
    let mut out = html.to_string();
    for cell in ["th", "td"] {
        for side in ["left", "center", "right"] {
            out = out.replace(
                &format!("<{cell} style=\"text-align: {side}\">"),
                &format!("<{cell} class=\"align-{side}\">"),
            );
        }
    }
    out
}

/// Byte ranges of code and math, where `{{` is text, not a shortcode: read
/// by the same parser, with the same options, as the page itself.
fn literal_ranges(body: &str) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Parser::new_ext(body, options())
        .into_offset_iter()
        .filter(|(event, _)| {
            matches!(
                event,
                Event::Start(Tag::CodeBlock(_))
                    | Event::Code(_)
                    | Event::InlineMath(_)
                    | Event::DisplayMath(_)
            )
        })
        .map(|(_, range)| range)
        .collect();
    ranges.sort_by_key(|r| r.start);
    ranges
}

/// A page being rendered: events so far and what was found on the way.
struct Page<'a, 'b> {
    /// The rules of a numbered page and the state of their rendering.
    rules: Option<Rules<'b>>,
    /// Glossary terms still to mark on the page.
    terms: Option<Box<dyn MarkTerms + 'b>>,
    /// The end of the glossary mark an author's `term:` link opened, until
    /// the link closes.
    term_link: Option<String>,
    /// How many links and images are open (no term is marked inside one).
    in_link: usize,
    places: Places<'b>,
    errors: Vec<MarkdownError>,
    events: Vec<Event<'a>>,
    heading: Option<OpenHeading<'a>>,
    /// Inside a paragraph: a block shortcode there is lifted out of it.
    in_paragraph: bool,
    /// Inside a code block, where a `$` is only a character.
    in_code: bool,
    /// The line of the last stray `$` reported: one error per line.
    dollar_line: usize,
    anchors: Anchors,
    math: math::Allowance,
    rendered: Rendered,
    /// The callouts' titles in the page's language.
    callouts: Callouts,
}

struct OpenHeading<'a> {
    level: HeadingLevel,
    id: Option<String>,
    inner: Vec<Event<'a>>,
    /// The heading's rule, on a numbered page.
    rule: Option<usize>,
}

impl<'a> Page<'a, '_> {
    fn error(&mut self, offset: usize, message: String) {
        let (line, column) = self.places.locate(offset);
        self.errors.push(MarkdownError {
            line,
            column,
            message,
        });
    }

    /// A `$` left in the text is a formula markdown did not take as one:
    /// its braces do not balance (`$\frac{1}{6}}$`) or its `$$` is never
    /// closed. Passed through, the reader would see raw TeX, so it is an
    /// error; a dollar that is money is written `\$`.
    fn stray_dollar(&mut self, source: &str, at: usize) {
        let body = self.places.body;
        let Some(offset) = source
            .match_indices('$')
            .map(|(i, _)| at + i)
            .find(|&offset| !body[..offset.min(body.len())].ends_with('\\'))
        else {
            return;
        };
        let line = self.places.first_line + self.places.line_index(offset);
        if line == self.dollar_line {
            return;
        }
        self.dollar_line = line;
        let message = if body[offset..].starts_with("$$") {
            "a `$$` formula that is never closed: end it with `$$`, or write a dollar sign as `\\$`"
        } else {
            "a `$` formula that does not parse (are its braces balanced?) or is never \
             closed: fix it, or write a dollar sign as `\\$`"
        };
        self.error(offset, message.to_string());
    }

    /// Note a relative link for the link check, with where it stands.
    fn link(&mut self, target: &str, written: String, at: usize) {
        let (line, column) = self.places.locate(at);
        self.rendered.links.push(Link {
            target: target.to_string(),
            written,
            line,
            column,
        });
    }

    /// One event as the page shows it: `source` is its text in the marked
    /// body and `at` its offset in the body.
    fn event(&mut self, event: Event<'a>, source: &str, at: usize) -> Event<'a> {
        match &event {
            Event::Start(Tag::CodeBlock(_)) => self.in_code = true,
            Event::End(TagEnd::CodeBlock) => self.in_code = false,
            Event::Text(_) if !self.in_code => self.stray_dollar(source, at),
            _ => {}
        }
        match event {
            // A code block may scroll sideways on a phone: it is made
            // reachable by keyboard, as tables are (axe's
            // scrollable-region-focusable).
            Event::Start(Tag::CodeBlock(kind)) => {
                let language: String = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .chars()
                        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                        .collect(),
                    CodeBlockKind::Indented => String::new(),
                };
                let class = if language.is_empty() {
                    String::new()
                } else {
                    format!(" class=\"language-{language}\"")
                };
                // `pre code` is the box that scrolls (style.css).
                Event::Html(format!("<pre><code tabindex=\"0\"{class}>").into())
            }
            Event::End(TagEnd::CodeBlock) => Event::Html("</code></pre>\n".into()),
            Event::Start(Tag::Link { ref dest_url, .. }) if term_name(dest_url).is_some() => {
                self.open_term(dest_url, source, at)
            }
            Event::End(TagEnd::Link) if self.term_link.is_some() => {
                self.in_link = self.in_link.saturating_sub(1);
                Event::InlineHtml(self.term_link.take().unwrap_or_default().into())
            }
            Event::Start(Tag::Link { ref dest_url, .. } | Tag::Image { ref dest_url, .. })
                if !is_allowed_url(dest_url) =>
            {
                let message = format!(
                    "link {:?}: only http, https and mailto links and paths inside the site \
                     are allowed",
                    &**dest_url
                );
                self.error(at, message);
                Event::Text("".into())
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let written = dest_url.to_string();
                let dest_url = paths::source_link(&dest_url).map_or(dest_url, CowStr::from);
                if is_relative(&dest_url) {
                    self.link(&dest_url, written, at);
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                })
            }
            Event::Start(Tag::Image { ref dest_url, .. }) if is_relative(dest_url) => {
                // Reported like links, so a broken image is located exactly.
                self.link(dest_url, dest_url.to_string(), at);
                event
            }
            Event::InlineMath(latex) | Event::DisplayMath(latex) if latex.trim().is_empty() => {
                Event::Text(latex)
            }
            Event::InlineMath(latex) => self.formula(&latex, false, at),
            Event::DisplayMath(latex) => self.formula(&latex, true, at),
            Event::Html(raw) => Event::Text(raw),
            Event::InlineHtml(raw) if !is_allowed_inline_tag(&raw) => Event::Text(raw),
            Event::Start(Tag::BlockQuote(Some(kind))) => {
                Event::Html(self.callouts.open(kind).into())
            }
            Event::End(TagEnd::BlockQuote(Some(_))) => Event::Html("</aside>\n".into()),
            Event::FootnoteReference(ref label)
            | Event::Start(Tag::FootnoteDefinition(ref label)) => match anchors::check_id(label) {
                Ok(()) => event,
                Err(reason) => {
                    let offset = source.find(&**label).unwrap_or(0);
                    let fix = slugify(label);
                    self.error(
                        at + offset,
                        format!("footnote label {reason}; write it as [^{fix}] for example"),
                    );
                    Event::Text("".into())
                }
            },
            Event::Start(Tag::Heading { level, id, .. }) => {
                let rule = self.rules.as_mut().and_then(|r| r.heading.take());
                let id = id.filter(|_| rule.is_none());
                let id = id.and_then(|id| match anchors::check_id(&id) {
                    Ok(()) => Some(id.to_string()),
                    Err(reason) => {
                        let offset = source.rfind(&*id).unwrap_or(0);
                        let fix = slugify(&id);
                        self.error(
                            at + offset,
                            format!("heading id {reason}; write it as {{#{fix}}} for example"),
                        );
                        None
                    }
                });
                self.heading = Some(OpenHeading {
                    level,
                    id,
                    inner: Vec::new(),
                    rule,
                });
                Event::Text("".into())
            }
            Event::End(TagEnd::Heading(_)) => match self.heading.take() {
                Some(heading) => self.heading_html(heading),
                None => Event::Text("".into()),
            },
            other => other,
        }
    }

    /// A formula as MathML, or an error at its place (and nothing on the
    /// page).
    fn formula(&mut self, latex: &str, display: bool, at: usize) -> Event<'a> {
        if self.math.is_spent() {
            return Event::Text("".into());
        }
        match math::to_mathml(latex, display, &mut self.math) {
            Ok(mathml) => Event::InlineHtml(mathml.into()),
            Err(message) => {
                self.error(at, message);
                Event::Text("".into())
            }
        }
    }

    fn heading_html(&mut self, heading: OpenHeading) -> Event<'a> {
        let mut text = plain_text(&heading.inner);
        let mut inner_html = String::new();
        let mut marks = String::new();
        let id = match (heading.rule, &self.rules) {
            (Some(index), Some(rules)) => {
                let rule = &rules.rules[index];
                text = format!("{} {text}", rule.number);
                let number = rules.opening(index, Holder::Heading, &mut self.errors);
                let after = number
                    .is_some()
                    .then(|| rules.opening(index, Holder::Marks, &mut self.errors))
                    .flatten();
                inner_html = number.unwrap_or_default();
                if let Some(after) = after.filter(|m| !m.trim().is_empty()) {
                    marks = format!("<p class=\"rule-marks\">{}</p>\n", after.trim());
                }
                let key = rule.key.clone();
                self.rule_anchor(index);
                key
            }
            _ => self
                .anchors
                .unique(heading.id.unwrap_or_else(|| slugify(&text))),
        };
        html::push_html(&mut inner_html, heading.inner.into_iter());
        let n = heading.level as u8;
        let escaped = crate::html::escape(&id);
        self.rendered.headings.push(Heading { level: n, text, id });
        Event::Html(
            // The "#" link is for the mouse: out of the tab order and of the
            // heading's accessible name (the contents link every heading).
            format!("<h{n} id=\"{escaped}\">{inner_html}<a class=\"anchor\" href=\"#{escaped}\" aria-hidden=\"true\" tabindex=\"-1\">#</a></h{n}>\n{marks}").into(),
        )
    }

    /// Text of the page, with the first use of each glossary term marked
    /// (not in headings, links or images' alt text).
    fn push_text(&mut self, text: &'a str) {
        let marker = match &mut self.terms {
            Some(marker) if self.heading.is_none() && self.in_link == 0 => marker,
            _ => return self.push(Event::Text(text.into())),
        };
        for piece in marker.mark(text) {
            match piece {
                Ok(text) => self.push(Event::Text(text.into())),
                Err(html) => {
                    let html = self.with_term_id(html);
                    self.push(Event::InlineHtml(html.into()))
                }
            }
        }
    }

    /// A glossary mark with the page's next free id in place of
    /// [`TERM_ID`].
    fn with_term_id(&mut self, html: String) -> String {
        if !html.contains(TERM_ID) {
            return html;
        }
        let id = self.next_term_id();
        html.replace(TERM_ID, &id)
    }

    /// The page's next free id for a glossary mark.
    fn next_term_id(&mut self) -> String {
        self.anchors.unique("glossary-term".into())
    }

    /// An author's `[words](term:NAME)`: the words marked as the glossary
    /// term NAME, or an error at the link naming the nearest terms (the
    /// words then stand plain).
    fn open_term(&mut self, dest_url: &str, source: &str, at: usize) -> Event<'a> {
        let name = term_name(dest_url).unwrap_or_default();
        let marked = match (&mut self.terms, self.heading.is_some() || self.in_link > 0) {
            (_, true) => Err(
                "a glossary term is marked in running text, not in a heading or \
                 another link: move it out, or write the words plain"
                    .to_string(),
            ),
            (None, false) => Err(
                "there is no glossary here to take the term from: terms are \
                 marked in the pages of a site with content/_glossary.yaml"
                    .to_string(),
            ),
            (Some(marker), false) => marker.linked(name),
        };
        self.in_link += 1;
        match marked {
            Ok((before, after)) => {
                let id = self.next_term_id();
                self.term_link = Some(after.replace(TERM_ID, &id));
                Event::InlineHtml(before.replace(TERM_ID, &id).into())
            }
            Err(why) => {
                let written = source.split(')').next().unwrap_or(source);
                self.error(at, format!("{written}) marks no glossary term: {why}"));
                self.term_link = Some(String::new());
                Event::Text("".into())
            }
        }
    }

    fn push(&mut self, event: Event<'a>) {
        if matches!(&event, Event::Text(t) if t.is_empty()) {
            return;
        }
        // Prose keeps a number with its unit (`5 %`), as figures do.
        let event = match event {
            Event::Text(text) if !self.in_code => {
                match crate::layout::format::units_joined(&text) {
                    std::borrow::Cow::Owned(joined) => Event::Text(joined.into()),
                    std::borrow::Cow::Borrowed(_) => Event::Text(text),
                }
            }
            other => other,
        };
        match &event {
            // An image's text is its alt attribute: no mark may go there.
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => self.in_link += 1,
            Event::End(TagEnd::Link | TagEnd::Image) => {
                self.in_link = self.in_link.saturating_sub(1)
            }
            _ => {}
        }
        if let Some(heading) = &mut self.heading {
            heading.inner.push(event);
            return;
        }
        // A markdown table scrolls in its own box on a narrow screen, which
        // the keyboard can reach, instead of pushing the page sideways.
        match &event {
            Event::Start(Tag::Table(_)) => self.events.push(Event::Html(
                "<section class=\"md-table\" tabindex=\"0\">\n".into(),
            )),
            Event::End(TagEnd::Table) => {
                self.events.push(event);
                self.events.push(Event::Html("</section>\n".into()));
                return;
            }
            _ => {}
        }
        match event {
            Event::Start(Tag::Paragraph) => self.in_paragraph = true,
            Event::End(TagEnd::Paragraph) => {
                self.in_paragraph = false;
                // Left empty by a block lifted out of it: no `<p></p>`.
                if matches!(self.events.last(), Some(Event::Start(Tag::Paragraph))) {
                    self.events.pop();
                    return;
                }
            }
            _ => {}
        }
        self.events.push(event);
    }

    /// A table or chart where a shortcode stood (`at` in the body). HTML has
    /// no block inside a paragraph, so one written in a line of text is
    /// lifted out of it: the paragraph closes before it and reopens after.
    /// Inside a heading, emphasis or a link it cannot be lifted whole, so it
    /// is an error.
    fn push_block(&mut self, html: String, at: usize) {
        if self.heading.is_some() || self.open_inline() {
            let message = "a table or chart cannot stand inside a heading, emphasis or a \
                           link: put its shortcode on a line of its own"
                .to_string();
            self.error(at, message);
            return;
        }
        // A rule's paragraph opens as HTML of its own (with its number), so
        // it is not seen as `in_paragraph`; its block is lifted the same way.
        let in_rule = self.rules.as_ref().is_some_and(|rules| rules.paragraph);
        let lifted = self.in_paragraph || in_rule;
        if lifted {
            if matches!(self.events.last(), Some(Event::Start(Tag::Paragraph))) {
                self.events.pop();
            } else {
                self.events.push(Event::End(TagEnd::Paragraph));
            }
        }
        self.events.push(Event::Html(format!("{html}\n").into()));
        if lifted {
            self.events.push(Event::Start(Tag::Paragraph));
        }
    }

    /// Whether an inline element (emphasis, a link...) of the current
    /// paragraph is still open.
    fn open_inline(&self) -> bool {
        if !self.in_paragraph {
            return false;
        }
        let mut depth = 0i32;
        for event in self.events.iter().rev() {
            match event {
                Event::Start(Tag::Paragraph) => break,
                Event::Start(_) => depth += 1,
                Event::End(_) => depth -= 1,
                _ => {}
            }
        }
        depth > 0
    }
}

/// The titles of callout boxes (GitHub's `> [!NOTE]` quotes and their
/// kin), English unless the page's words say otherwise.
struct Callouts {
    /// By kind, in [`CALLOUTS`]' order.
    titles: [String; 5],
}

/// Each callout's class (also its key among the site's words) and English
/// title.
const CALLOUTS: [(&str, &str); 5] = [
    ("note", "Note"),
    ("tip", "Tip"),
    ("important", "Important"),
    ("warning", "Warning"),
    ("caution", "Caution"),
];

impl Callouts {
    fn of(expand: &dyn Expand) -> Callouts {
        Callouts {
            titles: CALLOUTS.map(|(key, english)| expand.word(key).unwrap_or(english.into())),
        }
    }

    /// The opening of a callout box.
    fn open(&self, kind: BlockQuoteKind) -> String {
        let at = match kind {
            BlockQuoteKind::Note => 0,
            BlockQuoteKind::Tip => 1,
            BlockQuoteKind::Important => 2,
            BlockQuoteKind::Warning => 3,
            BlockQuoteKind::Caution => 4,
        };
        let class = CALLOUTS[at].0;
        let label = crate::html::escape(&self.titles[at]);
        format!(
            "<aside class=\"callout {class}\" role=\"note\" aria-label=\"{label}\">\n<p class=\"callout-title\">{label}</p>\n"
        )
    }
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
/// The term a `term:NAME` link names, spaces trimmed; `None` for other
/// links.
fn term_name(url: &str) -> Option<&str> {
    let head = url.trim_start().get(..TERM_LINK.len())?;
    head.eq_ignore_ascii_case(TERM_LINK)
        .then(|| url.trim_start()[TERM_LINK.len()..].trim())
}

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
