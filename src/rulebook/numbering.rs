//! Numbered rules. On a page of a numbered section every heading (below the
//! title), top-level paragraph and top-level list item is a rule with a
//! hierarchical number (`3`, `3.2`, `3.2.1`, `3.2.1a` for sub-items) and a
//! key that names it for good. The author writes the key once, at the end of
//! the rule: `## Ties {#ties}` for a heading (pulldown-cmark's own heading
//! attribute), `Roll again. {#reroll}` for a paragraph or list item. A rule
//! without one gets a key derived from its page and number, which a later
//! edit above it will change: `fairdice check` says so.
//!
//! What explains a rule rather than being one is commentary, unnumbered:
//! a paragraph or item ending `{.commentary}`, and a heading written
//! `## Notes {.commentary}` with everything under it (down to the next
//! heading of its level or above). Callouts, quotes, code, tables and a
//! chart standing alone are commentary too.
//!
//! Planning reads the page once with the same parser as the render, so both
//! agree on what a rule is; the render then blanks the `{#key}` texts (with
//! spaces, so every offset holds) and dresses each rule from the plan.

use crate::html::anchors::{check_id, slugify};
use crate::markdown::{Block, Numbered, Opening, Plan, Planned, Rule};
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::collections::HashMap;
use std::ops::Range;
use tera::{Context, Tera};

/// Writes the HTML that opens a rule, or says why it could not.
pub type Opener<'a> = dyn Fn(&Opening) -> Result<String, String> + Sync + 'a;

/// How one page is numbered.
pub struct Numbering<'a> {
    /// The page's own number in its section (1 for the first page).
    pub chapter: usize,
    /// The page's file name without `.md`, first part of derived keys.
    pub stem: String,
    /// The HTML that opens a rule (see `rulebook/rule.html`).
    pub open: &'a Opener<'a>,
}

/// A level of the numbering: the page, or a heading.
struct Node {
    level: u8,
    number: String,
    children: usize,
}

/// How the items of a top-level list are numbered.
#[derive(Clone, Copy)]
enum ListMode {
    /// Each item is a rule; its nested items are its sub-items.
    Rules,
    /// The list follows a paragraph ending with `:`: its items are that
    /// rule's sub-items (rule index).
    SubItemsOf(usize),
}

impl Numbered for Numbering<'_> {
    fn plan(
        &self,
        text: &str,
        options: pulldown_cmark::Options,
        single_mark: &dyn Fn(&str) -> bool,
    ) -> Plan {
        plan(text, options, self, single_mark)
    }

    fn open(&self, opening: &Opening) -> Result<String, String> {
        (self.open)(opening)
    }
}

/// Plan the rules of `text`. `single_mark` tells whether a paragraph's
/// source is one shortcode alone (a table or chart, not a rule).
fn plan(
    text: &str,
    options: pulldown_cmark::Options,
    numbering: &Numbering,
    single_mark: &dyn Fn(&str) -> bool,
) -> Plan {
    let events: Vec<(Event, Range<usize>)> =
        Parser::new_ext(text, options).into_offset_iter().collect();
    let next_list = list_starts_after(&events);
    let mut planner = Planner {
        text,
        numbering,
        single_mark,
        plan: Plan::default(),
        levels: vec![Node {
            level: 1,
            number: numbering.chapter.to_string(),
            children: 0,
        }],
        open: Vec::new(),
        list_modes: Vec::new(),
        lead_in: None,
        item_children: HashMap::new(),
        commentary_level: None,
    };
    for (i, (event, range)) in events.iter().enumerate() {
        match event {
            Event::Start(tag) => {
                let rule = planner.start(tag, range, next_list[i + 1]);
                planner.open.push((tag.clone(), rule));
            }
            Event::End(end) => {
                planner.open.pop();
                if matches!(end, TagEnd::List(_)) && planner.open.is_empty() {
                    planner.list_modes.pop();
                }
            }
            _ if planner.open.is_empty() => planner.lead_in = None,
            _ => {}
        }
    }
    planner.plan
}

/// A page being planned: the numbering so far and the open containers.
struct Planner<'t, 'n> {
    text: &'t str,
    numbering: &'n Numbering<'n>,
    single_mark: &'n dyn Fn(&str) -> bool,
    plan: Plan,
    levels: Vec<Node>,
    /// Open containers: for items, the rule they are (if any).
    open: Vec<(Tag<'t>, Option<usize>)>,
    list_modes: Vec<ListMode>,
    /// The last top-level block, when it was a rule paragraph ending in `:`.
    lead_in: Option<usize>,
    item_children: HashMap<usize, usize>,
    /// The level of the commentary heading the blocks stand under, if any.
    commentary_level: Option<u8>,
}

/// The mark that makes a paragraph or item commentary, at its end.
const COMMENTARY: &str = "{.commentary}";

impl Planner<'_, '_> {
    /// A block opens at `range`; `next_list` is where the next list starts.
    /// Returns the rule an item is, if it is one.
    fn start(
        &mut self,
        tag: &Tag,
        range: &Range<usize>,
        next_list: Option<usize>,
    ) -> Option<usize> {
        let top = self.open.is_empty();
        match tag {
            Tag::Heading {
                level, id, classes, ..
            } if top && (*level as u8) >= 2 => {
                let level = *level as u8;
                if self.commentary_level.is_some_and(|l| level <= l) {
                    self.commentary_level = None;
                }
                if classes.iter().any(|c| &**c == "commentary") {
                    self.commentary_level = Some(level);
                }
                if self.commentary_level.is_none() {
                    self.heading(level, id.as_deref(), range);
                } else {
                    self.lead_in = None;
                }
            }
            Tag::Paragraph if top => self.paragraph(range),
            Tag::List(_) if top => {
                let mode = self.lead_in.map_or(ListMode::Rules, ListMode::SubItemsOf);
                self.list_modes.push(mode);
                self.lead_in = None;
            }
            Tag::Item => return self.item(range, next_list),
            _ if top => self.lead_in = None,
            _ => {}
        }
        None
    }

    fn next_number(&mut self) -> String {
        next_child(self.levels.last_mut().expect("the page level"))
    }

    fn heading(&mut self, level: u8, id: Option<&str>, range: &Range<usize>) {
        while self.levels.last().is_some_and(|n| n.level >= level) && self.levels.len() > 1 {
            self.levels.pop();
        }
        let number = self.next_number();
        self.levels.push(Node {
            level,
            number: number.clone(),
            children: 0,
        });
        let written = id.map(|id| {
            let at = self.text[range.clone()].rfind(id).unwrap_or(0);
            (id.to_string(), range.start + at)
        });
        let index = (self.plan).add(
            self.numbering,
            number,
            written,
            range.start,
            range.clone(),
            Some(level),
        );
        self.plan
            .starts
            .insert((range.start, Block::Heading), index);
        self.lead_in = None;
    }

    /// Whether the block at `range` (its own text `own`) is commentary: it
    /// ends with the mark (blanked, and an error if a key comes with it) or
    /// stands under a commentary heading. Commentary is noted for the render.
    fn commentary(&mut self, own: &Range<usize>, start: usize, block: Block) -> bool {
        let text = &self.text[own.clone()];
        let trimmed = text.trim_end();
        let marked = trimmed.ends_with(COMMENTARY);
        if !marked && self.commentary_level.is_none() {
            return false;
        }
        let end = if marked {
            let at = own.start + trimmed.len() - COMMENTARY.len();
            self.plan.blanks.push(at..at + COMMENTARY.len());
            at
        } else {
            own.start + trimmed.len()
        };
        if let Some(key) = trailing_key(&self.text[own.start..end]) {
            let why = if marked {
                format!("{COMMENTARY} makes this block commentary")
            } else {
                "this block stands under a {.commentary} heading, so it is commentary".into()
            };
            self.plan
                .blanks
                .push(own.start + key.blank.start..own.start + key.blank.end);
            self.plan.errors.push((
                own.start + key.blank.start + key.key_at,
                format!(
                    "{{#{}}} keys a rule, but {why}, which has no number or key: keep one of \
                     the two",
                    key.key
                ),
            ));
        }
        self.plan.commentary.insert((start, block));
        true
    }

    fn paragraph(&mut self, range: &Range<usize>) {
        self.lead_in = None;
        let source = &self.text[range.clone()];
        if (self.single_mark)(source.trim()) {
            return;
        }
        if self.commentary(range, range.start, Block::Paragraph) {
            return;
        }
        let number = self.next_number();
        let index = (self.plan).keyed(self.numbering, self.text, number, range.clone(), None);
        self.plan
            .starts
            .insert((range.start, Block::Paragraph), index);
        if without_key(source).ends_with(':') {
            self.lead_in = Some(index);
        }
    }

    /// An item is a rule in a top-level list of rules, a sub-item of the
    /// rule before the list, or a sub-item of an item rule.
    fn item(&mut self, range: &Range<usize>, next_list: Option<usize>) -> Option<usize> {
        let lists = (self.open.iter())
            .filter(|(t, _)| matches!(t, Tag::List(_)))
            .count();
        let parent_item = self.open.iter().rev().find_map(|(t, r)| match t {
            Tag::Item => Some(*r),
            _ => None,
        });
        let own_end = next_list.filter(|&s| s < range.end).unwrap_or(range.end);
        let own = range.start..own_end;
        let in_top = in_top_list(&self.open);
        if in_top && lists == 1 && self.commentary(&own, range.start, Block::Item) {
            return None;
        }
        let number = match (self.list_modes.last().copied(), lists, parent_item) {
            (Some(ListMode::Rules), 1, _) if in_top => self.next_number(),
            (Some(ListMode::SubItemsOf(parent)), 1, _) if in_top => {
                sub_number(&self.plan, &mut self.item_children, parent)
            }
            (Some(ListMode::Rules), 2, Some(Some(parent))) if in_top => {
                sub_number(&self.plan, &mut self.item_children, parent)
            }
            _ => return None,
        };
        let index = (self.plan).keyed(self.numbering, self.text, number, own, None);
        self.plan.starts.insert((range.start, Block::Item), index);
        Some(index)
    }
}

/// For each event, where the first list at or after it starts, so that an
/// item finds where its own text ends at once: looking ahead from each item
/// cost items x events, tens of seconds for a page of many items.
fn list_starts_after(events: &[(Event, Range<usize>)]) -> Vec<Option<usize>> {
    let mut next = vec![None; events.len() + 1];
    for (i, (event, range)) in events.iter().enumerate().rev() {
        next[i] = match event {
            Event::Start(Tag::List(_)) => Some(range.start),
            _ => next[i + 1],
        };
    }
    next
}

/// Whether the innermost list is inside no container other than lists and
/// items (not in a quote, a callout or a footnote).
fn in_top_list(open: &[(Tag, Option<usize>)]) -> bool {
    open.iter()
        .all(|(t, _)| matches!(t, Tag::List(_) | Tag::Item | Tag::Paragraph))
}

/// The next child number of a level: `3.2` -> `3.2.1`, `3.2.2`...
fn next_child(node: &mut Node) -> String {
    node.children += 1;
    format!("{}.{}", node.number, node.children)
}

/// The next sub-item number of rule `parent`: `3.2.1a`, `3.2.1b`...
fn sub_number(plan: &Plan, children: &mut HashMap<usize, usize>, parent: usize) -> String {
    let n = children.entry(parent).or_insert(0);
    *n += 1;
    format!("{}{}", plan.rules[parent].rule.number, letters(*n))
}

/// `1` -> `a`, `26` -> `z`, `27` -> `aa`.
fn letters(mut n: usize) -> String {
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

impl Plan {
    /// A paragraph or item rule, with its key read from the end of `own`.
    fn keyed(
        &mut self,
        numbering: &Numbering,
        text: &str,
        number: String,
        own: Range<usize>,
        heading: Option<u8>,
    ) -> usize {
        let written = match trailing_key(&text[own.clone()]) {
            None => None,
            Some(found) => {
                let blank = own.start + found.blank.start..own.start + found.blank.end;
                let at = blank.start + found.key_at;
                self.blanks.push(blank.clone());
                if let Some(other) = trailing_key(&text[own.start..blank.start]) {
                    self.errors.push((
                        own.start + other.blank.start + other.key_at,
                        format!(
                            "this rule has two keys, {{#{}}} and {{#{}}}: a rule has one key; \
                             keep one",
                            other.key, found.key
                        ),
                    ));
                }
                Some((found.key, at))
            }
        };
        self.add(numbering, number, written, own.start, own, heading)
    }

    fn add(
        &mut self,
        numbering: &Numbering,
        number: String,
        written: Option<(String, usize)>,
        start: usize,
        own: Range<usize>,
        heading: Option<u8>,
    ) -> usize {
        let (key, explicit, at) = match written {
            Some((key, at)) => {
                if let Err(reason) = check_id(&key) {
                    self.errors.push((
                        at,
                        format!(
                            "rule key {reason}; write it as {{#{}}} for example",
                            slugify(&key)
                        ),
                    ));
                }
                (key, true, at)
            }
            None => (derived_key(&numbering.stem, &number), false, start),
        };
        self.rules.push(Planned {
            rule: Rule {
                number,
                key,
                explicit,
                line: 0,
                column: 0,
                heading,
                text: String::new(),
            },
            at,
            own,
        });
        self.rules.len() - 1
    }
}

/// The key of a rule whose author gave none: its page and its number
/// within the page (`start-of-game.2.1` for rule 1.2.1 of that page).
pub(crate) fn derived_key(stem: &str, number: &str) -> String {
    let local = number.split_once('.').map_or("", |(_, rest)| rest);
    format!("{}.{local}", slugify(stem))
}

/// A `{#key}` written at the end of a rule's text.
struct TrailingKey {
    key: String,
    /// The range to blank: the key and the spaces before it.
    blank: Range<usize>,
    /// Where the key's name starts within `blank`.
    key_at: usize,
}

/// A rule's text without its trailing `{#key}`, trimmed at the end.
fn without_key(own: &str) -> &str {
    match trailing_key(own) {
        Some(found) => &own[..found.blank.start],
        None => own.trim_end(),
    }
}

fn trailing_key(own: &str) -> Option<TrailingKey> {
    let trimmed = own.trim_end();
    let inner = trimmed.strip_suffix('}')?;
    let open = inner.rfind("{#")?;
    let key = &inner[open + 2..];
    if key.contains(char::is_whitespace) || key.contains(['{', '}']) {
        return None;
    }
    let start = trimmed[..open].trim_end().len();
    Some(TrailingKey {
        key: key.to_string(),
        blank: start..trimmed.len(),
        key_at: open + 2 - start,
    })
}

/// The HTML that opens a rule (`rulebook/rule.html`): its element, its
/// number and the marks in `context` (no figures unless it names some).
pub(crate) fn opening_html(
    tera: &Tera,
    opening: &Opening,
    mut context: Context,
) -> Result<String, String> {
    if !context.contains_key("figures") {
        context.insert("figures", &Vec::<()>::new());
    }
    if !context.contains_key("t") {
        context.insert("t", &crate::words::Catalogues::builtin().words("en").words);
    }
    context.insert("holder", &opening.holder);
    context.insert("number", opening.number);
    context.insert("key", opening.key);
    tera.render(RULE_TEMPLATE, &context)
        .map_err(|e| format!("template {RULE_TEMPLATE}: {e}"))
}

/// The template that opens a rule.
pub(crate) const RULE_TEMPLATE: &str = "rulebook/rule.html";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::tests::Fake;
    use crate::markdown::{plan_rules, render_numbered};

    fn numbers(text: &str) -> Vec<(String, String, bool)> {
        let numbering = Numbering {
            chapter: 3,
            stem: "start-of-game".into(),
            open: &|_| Ok(String::new()),
        };
        let plan = plan(text, crate::markdown::options(), &numbering, &|s| {
            s == "\u{E000}"
        });
        assert!(plan.errors.is_empty(), "{:?}", plan.errors);
        plan.rules
            .into_iter()
            .map(|p| (p.rule.number, p.rule.key, p.rule.explicit))
            .collect()
    }

    #[test]
    fn headings_paragraphs_and_items_are_numbered() {
        let text = "Intro. {#intro}\n\n## Dice {#dice}\n\nRoll two dice. {#roll}\n\n\
                    Who goes first:\n\n- highest {#high}\n- ties\n  - again {#again}\n\n\
                    ### Ties\n\nReroll.\n\n- one\n  - sub\n\n> [!NOTE]\n> not a rule\n\n\u{E000}\n\n## Next\n\nLast.\n";
        let got = numbers(text);
        let expected = [
            ("3.1", "intro", true),
            ("3.2", "dice", true),
            ("3.2.1", "roll", true),
            ("3.2.2", "start-of-game.2.2", false),
            ("3.2.2a", "high", true),
            ("3.2.2b", "start-of-game.2.2b", false),
            ("3.2.3", "start-of-game.2.3", false),
            ("3.2.3.1", "start-of-game.2.3.1", false),
            ("3.2.3.2", "start-of-game.2.3.2", false),
            ("3.2.3.2a", "start-of-game.2.3.2a", false),
            ("3.3", "start-of-game.3", false),
            ("3.3.1", "start-of-game.3.1", false),
        ];
        let expected: Vec<(String, String, bool)> = expected
            .iter()
            .map(|(n, k, e)| (n.to_string(), k.to_string(), *e))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn keys_are_read_from_the_end_only() {
        let k = trailing_key("Roll {#not} again. {#roll}  \n").unwrap();
        assert_eq!(k.key, "roll");
        assert_eq!(
            &"Roll {#not} again. {#roll}  \n"[k.blank.clone()],
            " {#roll}"
        );
        assert!(trailing_key("A set {#a b}").is_none());
        assert!(trailing_key("Plain.").is_none());
        assert_eq!(letters(1), "a");
        assert_eq!(letters(26), "z");
        assert_eq!(letters(28), "ab");
    }

    #[test]
    fn bad_and_double_keys_are_errors() {
        let numbering = Numbering {
            chapter: 1,
            stem: "p".into(),
            open: &|_| Ok(String::new()),
        };
        let plan = plan(
            "One. {#a} {#b}\n\nTwo. {#x\"y}\n",
            crate::markdown::options(),
            &numbering,
            &|_| false,
        );
        let messages: Vec<&str> = plan.errors.iter().map(|(_, m)| m.as_str()).collect();
        assert!(
            messages[0].contains("two keys, {#a} and {#b}"),
            "{messages:?}"
        );
        assert!(
            messages[1].starts_with("rule key \"x\\\"y\" may only hold"),
            "{messages:?}"
        );
    }

    #[test]
    fn each_item_owns_its_text_up_to_its_own_sub_list() {
        let numbering = Numbering {
            chapter: 1,
            stem: "p".into(),
            open: &|_| Ok(String::new()),
        };
        let mut text = "- first\n".repeat(5_000);
        text.push_str("- last\n  - sub\n");
        let plan = plan(&text, crate::markdown::options(), &numbering, &|_| false);
        let owns: Vec<(&str, &str)> = plan
            .rules
            .iter()
            .map(|p| (p.rule.number.as_str(), text[p.own.clone()].trim_end()))
            .collect();
        assert_eq!(owns.len(), 5_002);
        assert_eq!(owns[0], ("1.1", "- first"));
        assert_eq!(owns[4_999], ("1.5000", "- first"));
        assert_eq!(owns[5_000], ("1.5001", "- last"));
        assert_eq!(owns[5_001], ("1.5001a", "- sub"));
    }

    /// The rule book's own opening template, as the site loads it.
    fn rule_template() -> tera::Tera {
        let mut tera = tera::Tera::default();
        tera.autoescape_on(vec![".html"]);
        tera.add_raw_template(
            RULE_TEMPLATE,
            include_str!("../../templates/rulebook/rule.html"),
        )
        .unwrap();
        tera
    }

    /// Openings from the rule book's template, each rule's marks a link to
    /// figures titled by its key.
    fn opener() -> impl Fn(&Opening) -> Result<String, String> + Sync {
        let tera = rule_template();
        move |opening| {
            let mut marks = tera::Context::new();
            let figures = serde_json::json!([{"href": "f.html", "title": opening.key}]);
            marks.insert("figures", &figures);
            opening_html(&tera, opening, marks)
        }
    }

    #[test]
    fn a_table_in_a_rule_is_lifted_out_of_its_paragraph() {
        let tera = rule_template();
        let numbering = Numbering {
            chapter: 1,
            stem: "start".into(),
            open: &|o| opening_html(&tera, o, tera::Context::new()),
        };
        let body = "Roll; the odds {{ table() }} as shown. {#roll}\n\n\
                    Then {{ table() }} {#then}\n\n- an item {{ table() }} inside {#item}\n";
        let out = render_numbered(body, 1, &Fake, &numbering).unwrap();
        assert!(
            out.html.starts_with(
                "<p class=\"rule\" id=\"roll\"><a class=\"rule-number\" href=\"#roll\">1.1</a> \
                 Roll; the odds </p>\n<table></table>\n<p> as shown.</p>\n"
            ),
            "{}",
            out.html
        );
        // A table ending a rule leaves no empty paragraph behind it.
        assert!(
            out.html
                .contains("1.2</a> Then </p>\n<table></table>\n<ul>"),
            "{}",
            out.html
        );
        assert!(
            !out.html.contains("<p></p>") && !out.html.contains("<p> </p>"),
            "{}",
            out.html
        );
        // A list item may hold a block: it stays where it was written.
        assert!(
            out.html.contains("1.3</a> an item <table></table>"),
            "{}",
            out.html
        );
        assert_eq!(out.rules[0].text, "Roll; the odds as shown.");
    }

    /// A rule whose opening cannot be made (a broken template, say) is
    /// an error at the rule's place, and its block opens plain, so the
    /// page stays well formed.
    #[test]
    fn a_rule_that_cannot_open_is_an_error_and_a_plain_block() {
        let numbering = Numbering {
            chapter: 1,
            stem: "p".into(),
            open: &|o| Err(format!("no opening for {}", o.key)),
        };
        let body = "## Head {#head}\n\nRoll. {#roll}\n\n- item {#item}\n";
        let errors = render_numbered(body, 1, &Fake, &numbering).unwrap_err();
        let got: Vec<(usize, &str)> = errors
            .iter()
            .map(|e| (e.line, e.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (1, "no opening for head"),
                (3, "no opening for roll"),
                (5, "no opening for item")
            ]
        );
    }

    #[test]
    fn commentary_is_marked_and_left_unnumbered() {
        let text = "## Dice {#dice}\n\nRoll two dice. {#roll}\n\n\
                    We study both readings: {.commentary}\n\n- all {#all}\n- tied {#tied}\n\
                    - an aside {.commentary}\n  - nested\n\n\
                    ## Costs {#costs .commentary}\n\nIt takes long.\n\n### Why\n\nMaths.\n\n\
                    ## Next\n\nLast.\n";
        let got: Vec<String> = numbers(text)
            .into_iter()
            .map(|(n, k, _)| format!("{n} {k}"))
            .collect();
        // The readings are rules of their own, not sub-items of the
        // commentary before them; nothing under "Costs" is numbered.
        assert_eq!(
            got,
            [
                "3.1 dice",
                "3.1.1 roll",
                "3.1.2 all",
                "3.1.3 tied",
                "3.2 start-of-game.2",
                "3.2.1 start-of-game.2.1"
            ]
        );
        let tera = rule_template();
        let numbering = Numbering {
            chapter: 1,
            stem: "s".into(),
            open: &|o| opening_html(&tera, o, tera::Context::new()),
        };
        let out = render_numbered(text, 1, &Fake, &numbering).unwrap();
        for expected in [
            "<p class=\"commentary\">We study both readings:</p>",
            "<li class=\"commentary\">an aside",
            "<h2 id=\"costs\">Costs<a class=\"anchor\"",
            "<p class=\"commentary\">It takes long.</p>",
            "<p class=\"commentary\">Maths.</p>",
            "<p class=\"rule\" id=\"s.2.1\">",
        ] {
            assert!(out.html.contains(expected), "{expected}\n{}", out.html);
        }
        assert!(!out.html.contains("{."), "{}", out.html);
        assert_eq!(out.rules.len(), 6);
        // A key on commentary is refused where it is written, and blanked.
        let errors = render_numbered(
            "Aside. {#aside} {.commentary}\n\n## C {.commentary}\n\nMore. {#more}\n",
            1,
            &Fake,
            &numbering,
        )
        .unwrap_err();
        let got: Vec<(usize, usize, &str)> = errors
            .iter()
            .map(|e| (e.line, e.column, &e.message[..e.message.find(',').unwrap()]))
            .collect();
        assert_eq!(
            got,
            [
                (1, 10, "{#aside} keys a rule"),
                (5, 9, "{#more} keys a rule")
            ]
        );
    }

    #[test]
    fn numbered_pages_carry_numbers_ids_and_plain_text() {
        let open = opener();
        let numbering = Numbering {
            chapter: 2,
            stem: "dice".into(),
            open: &open,
        };
        let body = "## Dice {#dice}\n\nRoll *two* dice: {{ value(x=\"1\") }}. {#roll}\n\n\
                    The readings:\n\n- all {#all}\n- tied\n\n{{ table() }}\n";
        let out = render_numbered(body, 1, &Fake, &numbering).unwrap();
        for expected in [
            // The heading's marks stand after it, out of its accessible name.
            "<h2 id=\"dice\"><span class=\"rule-number\">2.1</span> Dice<a class=\"anchor\" \
             href=\"#dice\" aria-hidden=\"true\" tabindex=\"-1\">#</a></h2>\n\
             <p class=\"rule-marks\"><a class=\"rule-figures\" href=\"f.html\" \
             title=\"dice\">figures</a></p>",
            "<p class=\"rule\" id=\"roll\"><a class=\"rule-number\" href=\"#roll\">2.1.1</a> \
             <a class=\"rule-figures\" href=\"f.html\" title=\"roll\">figures</a> \
             Roll <em>two</em> dice: &lt;1&gt;.</p>",
            "<li class=\"rule\" id=\"all\"><a class=\"rule-number\" href=\"#all\">2.1.2a</a> \
             <a class=\"rule-figures\" href=\"f.html\" title=\"all\">figures</a> all</li>",
            "id=\"dice.1.2b\"",
            "\n<table></table>",
        ] {
            assert!(out.html.contains(expected), "{expected}\n{}", out.html);
        }
        assert!(!out.html.contains("{#"), "{}", out.html);
        let texts: Vec<(&str, &str)> = out
            .rules
            .iter()
            .map(|r| (r.number.as_str(), r.text.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                ("2.1", "Dice"),
                ("2.1.1", "Roll two dice: <1>."),
                ("2.1.2", "The readings:"),
                ("2.1.2a", "all"),
                ("2.1.2b", "tied")
            ]
        );
        assert_eq!((out.rules[1].line, out.rules[1].column), (3, 40));
        assert_eq!(out.headings[0].text, "2.1 Dice");
        let planned = plan_rules(body, 1, &numbering).unwrap();
        let keys: Vec<&str> = planned.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, ["dice", "roll", "dice.1.2", "all", "dice.1.2b"]);
        let errors = render_numbered("## A {#x}\n\nB. {#x}\n", 1, &Fake, &numbering).unwrap_err();
        assert_eq!((errors[0].line, errors[0].column), (3, 6), "{errors:?}");
        assert!(errors[0].message.contains("already an id"), "{errors:?}");
    }
}
