//! The rules of a numbered page while it renders: planned from the body,
//! each rule's block opened with its id and number, its key reserved as
//! an id. Apart because plain pages have none of it.

use super::offsets::Marked;
use super::{is_single_mark, numbered, options, MarkdownError, Page};
use super::{Block, Holder, Numbered, Opening, Rule};
use crate::shortcodes::Expansion;
use pulldown_cmark::{Event, Tag, TagEnd};

/// The rules of a numbered page while it renders.
pub(super) struct Rules<'n> {
    pub(super) rules: Vec<Rule>,
    starts: std::collections::HashMap<(usize, Block), usize>,
    /// Paragraphs and items of commentary, by start and kind.
    commentary: std::collections::HashSet<(usize, Block)>,
    numbering: &'n dyn Numbered,
    /// Whether the open top-level paragraph is a rule.
    pub(super) paragraph: bool,
    /// For each open list item, whether it is a rule.
    items: Vec<bool>,
    /// The rule of the heading being opened.
    pub(super) heading: Option<usize>,
}

impl<'n> Rules<'n> {
    /// Plan the rules, report bad keys, take the `{#key}` texts out of
    /// `marked` (as spaces, so offsets hold) and read each rule's text.
    pub(super) fn plan(
        marked: &mut Marked,
        expansions: &[Option<Expansion>],
        numbering: &'n dyn Numbered,
        page: &mut Page,
    ) -> Self {
        let plan = numbering.plan(&marked.text, options(), &is_single_mark);
        for (at, message) in &plan.errors {
            page.error(marked.to_body(*at), message.clone());
        }
        for blank in &plan.blanks {
            marked
                .text
                .replace_range(blank.clone(), &" ".repeat(blank.len()));
        }
        let rules = plan
            .rules
            .into_iter()
            .map(|planned| {
                let (line, column) = page.places.locate(marked.to_body(planned.at));
                let own = marked.with_inline_expansions(planned.own, expansions);
                Rule {
                    line,
                    column,
                    text: numbered::plain_text(&own, options()),
                    ..planned.rule
                }
            })
            .collect();
        Rules {
            rules,
            starts: plan.starts,
            commentary: plan.commentary,
            numbering,
            paragraph: false,
            items: Vec::new(),
            heading: None,
        }
    }

    /// The HTML that opens a rule in `holder`; a failure is the rule's
    /// error, and the rule opens as a plain block.
    pub(super) fn opening(
        &self,
        index: usize,
        holder: Holder,
        errors: &mut Vec<MarkdownError>,
    ) -> Option<String> {
        let rule = &self.rules[index];
        let opening = Opening {
            holder,
            number: &rule.number,
            key: &rule.key,
        };
        self.numbering
            .open(&opening)
            .map_err(|message| {
                errors.push(MarkdownError {
                    line: rule.line,
                    column: rule.column,
                    message,
                })
            })
            .ok()
    }

    pub(super) fn done(self) -> Vec<Rule> {
        self.rules
    }
}

impl<'a> Page<'a, '_> {
    /// On a numbered page, the opening and closing of each rule's block
    /// carry its id and number.
    pub(super) fn dress(&mut self, event: Event<'a>, start: usize) -> Event<'a> {
        let Some(rules) = &mut self.rules else {
            return event;
        };
        let rule_at = |block| rules.starts.get(&(start, block)).copied();
        let commentary = |block| rules.commentary.contains(&(start, block));
        match event {
            Event::Start(Tag::Paragraph) if commentary(Block::Paragraph) => {
                Event::Html("<p class=\"commentary\">".into())
            }
            Event::Start(Tag::Item) if commentary(Block::Item) => {
                rules.items.push(false);
                Event::Html("<li class=\"commentary\">".into())
            }
            Event::Start(Tag::Paragraph) => match rule_at(Block::Paragraph) {
                Some(index) => {
                    let html = rules.opening(index, Holder::Paragraph, &mut self.errors);
                    rules.paragraph = html.is_some();
                    self.rule_anchor(index);
                    html.map_or(event, |html| Event::Html(html.into()))
                }
                None => event,
            },
            Event::End(TagEnd::Paragraph) if std::mem::take(&mut rules.paragraph) => {
                if matches!(self.events.last(), Some(Event::Start(Tag::Paragraph))) {
                    // Reopened after a table or chart lifted out of the rule,
                    // and left empty: no `<p></p>`.
                    self.events.pop();
                    Event::Html("".into())
                } else {
                    Event::Html("</p>\n".into())
                }
            }
            Event::Start(Tag::Item) => {
                let index = rule_at(Block::Item);
                let html = index.and_then(|i| rules.opening(i, Holder::Item, &mut self.errors));
                rules.items.push(html.is_some());
                if let Some(index) = index {
                    self.rule_anchor(index);
                }
                html.map_or(event, |html| Event::Html(html.into()))
            }
            Event::End(TagEnd::Item) if rules.items.pop() == Some(true) => {
                Event::Html("</li>\n".into())
            }
            other => other,
        }
    }

    /// Note the rule of a heading about to open, if it is one.
    pub(super) fn heading_rule(&mut self, start: usize) {
        if let Some(rules) = &mut self.rules {
            rules.heading = rules.starts.get(&(start, Block::Heading)).copied();
        }
    }

    /// Reserve a rule's key as an id of the page: it must be free.
    pub(super) fn rule_anchor(&mut self, index: usize) {
        let Some(rules) = &self.rules else { return };
        let rule = &rules.rules[index];
        if self.anchors.unique(rule.key.clone()) != rule.key {
            let message = format!(
                "rule key {:?} is already an id on this page (a heading's, another rule's or \
                 the page template's): give this rule another key",
                rule.key
            );
            let (line, column) = (rule.line, rule.column);
            self.errors.push(MarkdownError {
                line,
                column,
                message,
            });
        }
    }
}
