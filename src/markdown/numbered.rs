//! What the renderer needs to dress numbered rules and mark glossary
//! terms. The rule book plans the rules and holds the terms; markdown only
//! applies them, so it never depends on the rule book above it.

use pulldown_cmark::{Event, Options, Parser, TagEnd};
use serde::Serialize;
use std::collections::HashMap;
use std::ops::Range;

/// How a numbered page's rules are found and dressed.
pub trait Numbered: Sync {
    /// Plan the rules of `text`. `single_mark` tells whether a paragraph's
    /// source is one shortcode alone (a table or chart, not a rule).
    fn plan(&self, text: &str, options: Options, single_mark: &dyn Fn(&str) -> bool) -> Plan;
    /// The HTML that opens a rule (its element, number and marks), or why
    /// it could not be made.
    fn open(&self, opening: &Opening) -> Result<String, String>;
}

/// The block a rule is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Holder {
    /// A paragraph: the opening is the `<p>` itself.
    Paragraph,
    /// A list item: the opening is the `<li>` itself.
    Item,
    /// A heading: the opening goes inside it, before its text: the number
    /// alone, so the heading's accessible name is its number and words.
    Heading,
    /// A heading rule's marks (history, figures, changes), placed just
    /// after the heading.
    Marks,
}

/// What opens one rule on its page.
#[derive(Debug, Clone, Serialize)]
pub struct Opening<'r> {
    pub holder: Holder,
    pub number: &'r str,
    pub key: &'r str,
}

/// A glossary's terms, ready to mark on one page after another.
pub trait Glossary: Sync {
    /// A fresh marker for one page (its path in `content/`): each term is
    /// marked once a page, where its scope holds the page.
    fn marker(&self, page: &str) -> Box<dyn MarkTerms + '_>;
}

/// The terms not yet marked on one page.
pub trait MarkTerms {
    /// `text` cut into plain pieces and marked terms (as HTML), the first
    /// use of each term only.
    fn mark<'a>(&mut self, text: &'a str) -> Vec<Result<&'a str, String>>;

    /// The mark, before and after the words, of the term an author linked
    /// as `[words](term:NAME)`, wherever it stands; the term then counts
    /// as marked. An error names the nearest terms.
    fn linked(&mut self, name: &str) -> Result<(String, String), String>;
}

/// One rule of a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// `3.2.1a`: the page's number, then one part per level.
    pub number: String,
    /// The stable name, written by the author or derived.
    pub key: String,
    /// Whether the author wrote the key (`false`: derived from the number).
    pub explicit: bool,
    /// 1-based line and column of the rule (of its key when written).
    pub line: usize,
    /// See `line`.
    pub column: usize,
    /// The heading level, for a heading rule.
    pub heading: Option<u8>,
    /// The rule's own words as plain text (sub-items excluded); filled by
    /// the render, empty when only planned.
    pub text: String,
}

/// What kind of block a rule starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Block {
    Heading,
    Paragraph,
    Item,
}

/// A rule found by planning, with the places the render needs.
#[derive(Debug, Clone)]
pub struct Planned {
    pub rule: Rule,
    /// Offset (in the planned text) where the key was written, or the rule.
    pub at: usize,
    /// The rule's own text in the planned text (sub-items excluded).
    pub own: Range<usize>,
}

/// Every rule of a page, and the places where keys were written.
#[derive(Debug, Default)]
pub struct Plan {
    pub rules: Vec<Planned>,
    /// Rule index by the offset of its first event and its kind.
    pub starts: HashMap<(usize, Block), usize>,
    /// The `{#key}` and `{.commentary}` texts of paragraphs and items, to
    /// blank before rendering.
    pub blanks: Vec<Range<usize>>,
    /// Paragraphs and items of commentary, unnumbered: by the offset of
    /// their first event and their kind.
    pub(crate) commentary: std::collections::HashSet<(usize, Block)>,
    /// Problems with written keys: offset and message.
    pub errors: Vec<(usize, String)>,
}

/// The plain text of a rule's own markdown (marks already replaced).
pub(super) fn plain_text(markdown: &str, options: Options) -> String {
    let mut text = String::new();
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                text.push_str(&t)
            }
            Event::SoftBreak | Event::HardBreak | Event::End(TagEnd::Paragraph) => text.push(' '),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
