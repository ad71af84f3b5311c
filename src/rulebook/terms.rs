//! Glossary terms in a page: the first use of each term (or one of its
//! other spellings) is marked with its definition, shown on hover, focus
//! and tap. The mark is a button described by the definition, so screen
//! readers say it; the definition is hidden until shown, and the search
//! index and print leave it out.
//!
//! A word can have several senses and a glossary entry defines one, so an
//! entry may be scoped to the pages and folders where its sense is the
//! one meant; elsewhere (or for an entry that is never found by itself)
//! the author marks a use with `[words](term:NAME)`.

use crate::html;
use crate::markdown::{Glossary, MarkTerms};
use aho_corasick::{AhoCorasick, Input, MatchKind};
use tera::{Context, Tera};

/// The template that marks a term where a page first uses it.
pub(crate) const TERM_TEMPLATE: &str = "rulebook/term.html";

/// Stands for the marked words while a term's mark is rendered, once per
/// term; each use then puts its own words in its place.
const WORDS: &str = "\u{E001}";

/// Stands for the id that ties a mark to its definition; the page gives
/// each mark its own (see [`crate::markdown::TERM_ID`]).
const ID: &str = crate::markdown::TERM_ID;

/// A term to mark: every spelling and the definition.
pub struct Term {
    /// The term and its aliases.
    pub spellings: Vec<String>,
    /// Plain text.
    pub definition: String,
    /// Pages and folders of `content/` where uses are found by themselves;
    /// empty: every page.
    pub scope: Vec<String>,
    /// Whether uses are found by themselves at all.
    pub auto: bool,
}

/// The terms of the glossary, ready to look for.
///
/// One automaton finds every spelling in one pass over a text, whatever
/// the number of spellings: looking for each in turn cost spellings × page
/// bytes, tens of seconds for a term with a hundred thousand aliases.
#[derive(Default)]
pub struct Terms {
    /// Every spelling in lower case (texts are searched in lower case too,
    /// so "Élan" finds "élan"), the longest at a place first so that
    /// "memory zone" wins over "zone". `None` without spellings.
    finder: Option<AhoCorasick>,
    /// By the finder's pattern number.
    spellings: Vec<Spelling>,
    /// Each term's mark (from [`TERM_TEMPLATE`]) before and after its words.
    marks: Vec<(String, String)>,
    /// Each term's scope and whether it is found by itself.
    found: Vec<(Vec<String>, bool)>,
    /// Each term's names an author may link (`term:NAME`), normalised by
    /// [`name_key`], with the term's number.
    names: Vec<(String, usize)>,
}

/// One spelling, in lower case, as the finder knows it.
struct Spelling {
    /// Its length in bytes, in lower case.
    len: usize,
    /// The terms spelled so, in the order they are tried: one unless two
    /// terms share a spelling (the glossary refuses that, `Terms` need not).
    terms: Vec<usize>,
    /// The longest other spelling that starts this one: the next candidate
    /// at a place where this one cannot be marked (its term is used, or a
    /// word goes on after it).
    shorter: Option<usize>,
}

impl Terms {
    /// The terms, in the glossary's order.
    pub fn new(terms: Vec<Term>, tera: &Tera) -> Result<Terms, String> {
        let mut all: Vec<(String, String, usize)> = Vec::new();
        let mut definitions = Vec::new();
        let mut found = Vec::new();
        let mut names = Vec::new();
        for (i, term) in terms.into_iter().enumerate() {
            names.extend(term.spellings.iter().map(|s| (name_key(s), i)));
            found.push((term.scope, term.auto));
            all.extend(
                term.spellings
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .map(|s| (s.to_lowercase(), s, i)),
            );
            definitions.push(term.definition);
        }
        let (patterns, mut spellings) = grouped(all);
        link_shorter(&patterns, &mut spellings);
        let finder = (!patterns.is_empty()).then(|| automaton(&patterns));
        let marks = definitions
            .iter()
            .map(|definition| mark(tera, definition))
            .collect::<Result<_, _>>()?;
        names.sort();
        Ok(Terms {
            finder,
            spellings,
            marks,
            found,
            names,
        })
    }
}

/// Each spelling `(lower case, as written, term)` once in lower case, with
/// the terms spelled so, sorted: a spelling comes right after those that
/// start it. Terms of one spelling keep the order the spelling-by-spelling
/// search tried them in (as written, then the glossary's).
/// A term's mark, before and after its words.
fn mark(tera: &Tera, definition: &str) -> Result<(String, String), String> {
    let mut context = Context::new();
    context.insert("definition", definition);
    context.insert("words", WORDS);
    context.insert("id", ID);
    let html = tera
        .render(TERM_TEMPLATE, &context)
        .map_err(|e| format!("template {TERM_TEMPLATE}: {e}"))?;
    match html.split(WORDS).collect::<Vec<_>>()[..] {
        [before, after] => Ok((before.to_string(), after.to_string())),
        _ => Err(format!(
            "template {TERM_TEMPLATE} must show {{{{ words }}}} once, unfiltered: \
             it is where each page's own words for the term go"
        )),
    }
}

/// A stand-in character as an HTML character reference, which reads as
/// the same character but is no stand-in.
fn reference(stand_in: &str) -> String {
    stand_in
        .chars()
        .map(|c| format!("&#x{:X};", c as u32))
        .collect()
}

fn grouped(mut all: Vec<(String, String, usize)>) -> (Vec<String>, Vec<Spelling>) {
    all.sort();
    let mut patterns: Vec<String> = Vec::new();
    let mut spellings: Vec<Spelling> = Vec::new();
    for (lower, _, term) in all {
        match spellings.last_mut() {
            Some(last) if patterns.last() == Some(&lower) => last.terms.push(term),
            _ => {
                spellings.push(Spelling {
                    len: lower.len(),
                    terms: vec![term],
                    shorter: None,
                });
                patterns.push(lower);
            }
        }
    }
    (patterns, spellings)
}

/// The automaton of `patterns`: its pattern `i + 1` is `patterns[i]`.
///
/// Its pattern 0 is ballast, a run of 0xFF bytes (one per spelling) that no
/// text holds, since no UTF-8 does: its states come first, and they keep
/// the build linear. Once built, aho-corasick (1.1) moves every state that
/// ends a spelling ahead of those that end none, one swap at a time, and a
/// state that ends none followed by many that do (the `w` of `w0` to
/// `w99999`) is moved past each in turn, for time that grows with the
/// square of the spellings: 2.7 s for 100,000. With as many states ahead
/// as there are spellings, each state is moved about once.
fn automaton(patterns: &[String]) -> AhoCorasick {
    let ballast = vec![0xFF_u8; patterns.len()];
    let all = std::iter::once(ballast.as_slice()).chain(patterns.iter().map(|p| p.as_bytes()));
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .build(all)
        .expect("a glossary of at most 1 MB fits an automaton")
}

/// Give each spelling the longest other one that starts it. `patterns` is
/// sorted, so those that start a spelling are on a stack of prefixes of the
/// one before: linear in the patterns' bytes.
fn link_shorter(patterns: &[String], spellings: &mut [Spelling]) {
    let mut stack: Vec<usize> = Vec::new();
    for (i, pattern) in patterns.iter().enumerate() {
        while stack
            .last()
            .is_some_and(|&top| !pattern.starts_with(patterns[top].as_str()))
        {
            stack.pop();
        }
        spellings[i].shorter = stack.last().copied();
        stack.push(i);
    }
}

/// A term's name as an author may link it: lower case, runs of spaces,
/// hyphens and underscores as one space (`memory-zone`, `Memory zone`).
fn name_key(name: &str) -> String {
    name.to_lowercase()
        .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Glossary for Terms {
    fn marker(&self, page: &str) -> Box<dyn MarkTerms + '_> {
        Box::new(Marker::new(self, page))
    }
}

impl MarkTerms for Marker<'_> {
    fn mark<'a>(&mut self, text: &'a str) -> Vec<Result<&'a str, String>> {
        Marker::mark(self, text)
    }

    fn linked(&mut self, name: &str) -> Result<(String, String), String> {
        let terms = self.terms;
        let key = name_key(name);
        let at = terms.names.partition_point(|(n, _)| *n < key);
        match terms.names.get(at) {
            Some((n, term)) if *n == key => {
                if !self.used[*term] {
                    self.used[*term] = true;
                    self.left -= 1;
                }
                Ok(terms.marks[*term].clone())
            }
            _ => {
                let known: Vec<&str> = terms.names.iter().map(|(n, _)| n.as_str()).collect();
                let near = crate::engine::nearest::nearest(&key, &known, 3);
                Err(match near.as_slice() {
                    [] => "the glossary has no terms".to_string(),
                    names => format!("the nearest terms are {}", names.join(", ")),
                })
            }
        }
    }
}

/// The terms not yet marked on one page.
struct Marker<'t> {
    terms: &'t Terms,
    used: Vec<bool>,
    /// Terms not yet used: once none is left, texts are not searched.
    left: usize,
}

impl<'t> Marker<'t> {
    /// The marker of the page `page` (its path in `content/`): a term out
    /// of its scope there, or never found by itself, counts as used.
    pub fn new(terms: &'t Terms, page: &str) -> Self {
        let glossary = page == super::changes::GLOSSARY_PAGE;
        let used: Vec<bool> = (terms.found.iter())
            .map(|(scope, auto)| glossary || !auto || !super::glossary::in_scope(scope, page))
            .collect();
        Marker {
            terms,
            left: used.iter().filter(|u| !**u).count(),
            used,
        }
    }

    /// `text` cut into plain pieces and marked terms (as HTML), the first
    /// use of each term only.
    fn mark<'a>(&mut self, text: &'a str) -> Vec<Result<&'a str, String>> {
        let mut pieces = Vec::new();
        let mut done = 0;
        if self.left > 0 {
            let folded = Folded::of(text);
            let mut from = 0;
            while let Some((start, end, term)) = self.first(&folded, from) {
                self.used[term] = true;
                self.left -= 1;
                let (start_in_text, end_in_text) = (folded.origin(start), folded.origin(end));
                if start_in_text > done {
                    pieces.push(Ok(&text[done..start_in_text]));
                }
                let (before, after) = &self.terms.marks[term];
                // The page's words never hold the mark's stand-ins (a
                // private-use character is written as its reference), so
                // only the template's own parts get the page's id.
                let words = html::escape(&text[start_in_text..end_in_text])
                    .replace(ID, &reference(ID))
                    .replace(WORDS, &reference(WORDS));
                pieces.push(Err(format!("{before}{words}{after}")));
                done = end_in_text;
                from = end;
            }
        }
        if done < text.len() || pieces.is_empty() {
            pieces.push(Ok(&text[done..]));
        }
        pieces
    }

    /// The earliest use of a term not yet marked at or after `from` (in the
    /// lower-case text): whole words, the longest spelling at a place
    /// first. The finder gives the leftmost place any spelling starts; when
    /// none there can be marked, the search goes on from the next character.
    fn first(&self, folded: &Folded, from: usize) -> Option<(usize, usize, usize)> {
        if self.left == 0 {
            return None;
        }
        let finder = self.terms.finder.as_ref()?;
        let text = folded.text.as_str();
        let floor = from;
        let mut from = from;
        while from < text.len() {
            let found = finder.find(Input::new(text).range(from..))?;
            let start = found.start();
            // The ballast, pattern 0, is never found.
            let longest = found.pattern().as_usize().checked_sub(1);
            let hit = longest.and_then(|longest| self.at(folded, floor, start, longest));
            if let Some(hit) = hit {
                return Some(hit);
            }
            from = start + text[start..].chars().next().map_or(1, char::len_utf8);
        }
        None
    }

    /// The longest spelling found at `start`, or a shorter one that starts
    /// it, that is a whole word of a term not yet used, and begins and ends
    /// where a character of the text does. What comes before `floor` (the
    /// end of the last mark) is not looked at.
    fn at(
        &self,
        folded: &Folded,
        floor: usize,
        start: usize,
        longest: usize,
    ) -> Option<(usize, usize, usize)> {
        let text = folded.text.as_str();
        let word_before = text[floor..start]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
        if word_before || !folded.is_boundary(start) {
            return None;
        }
        let mut candidate = Some(longest);
        while let Some(i) = candidate {
            let spelling = &self.terms.spellings[i];
            let end = start + spelling.len;
            let whole = folded.is_boundary(end)
                && !text[end..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric);
            let term = spelling.terms.iter().find(|&&t| !self.used[t]);
            if let (true, Some(&term)) = (whole, term) {
                return Some((start, end, term));
            }
            candidate = spelling.shorter;
        }
        None
    }
}

/// A text in lower case, with where each of its bytes came from: one
/// letter may lower to several bytes ("İ" to "i̇"), so offsets differ.
struct Folded {
    text: String,
    /// Per byte of `text`, and one past its end, the offset of the original
    /// character it lowers from.
    origins: Vec<usize>,
}

impl Folded {
    fn of(original: &str) -> Folded {
        let mut text = String::with_capacity(original.len());
        let mut origins = Vec::with_capacity(original.len() + 1);
        for (at, c) in original.char_indices() {
            let before = text.len();
            text.extend(c.to_lowercase());
            origins.resize(origins.len() + text.len() - before, at);
        }
        origins.push(original.len());
        Folded { text, origins }
    }

    /// The original offset of lower-case offset `at`.
    fn origin(&self, at: usize) -> usize {
        self.origins[at]
    }

    /// Whether `at` starts (or ends) a whole original character.
    fn is_boundary(&self, at: usize) -> bool {
        at == 0 || at == self.text.len() || self.origins[at] != self.origins[at - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The terms, marked by the rule book's own template.
    pub(crate) fn terms_of(terms: Vec<Term>) -> Terms {
        let mut tera = Tera::default();
        tera.autoescape_on(vec![".html"]);
        tera.add_raw_template(
            TERM_TEMPLATE,
            include_str!("../../templates/rulebook/term.html"),
        )
        .unwrap();
        Terms::new(terms, &tera).unwrap()
    }

    #[test]
    fn the_first_use_of_each_term_is_marked_once() {
        let terms = terms_of(vec![
            term(&["memory zone", "zone"], "Where banished <cards> go."),
            term(&["banish", "banished"], "Remove."),
        ]);
        let mut marker = Marker::new(&terms, "rules/a.md");
        let pieces = marker.mark("Banished cards leave the Memory Zone; banish again, zoned.");
        let mark = |words: &str, definition: &str| {
            format!(
                "<span class=\"term\"><button type=\"button\" class=\"term-word\" \
                 aria-describedby=\"{ID}\">{words}</button><span class=\"term-definition\" \
                 id=\"{ID}\" role=\"tooltip\" hidden>{definition}</span></span>"
            )
        };
        assert_eq!(
            pieces,
            vec![
                Err(mark("Banished", "Remove.")),
                Ok(" cards leave the "),
                Err(mark("Memory Zone", "Where banished &lt;cards&gt; go.")),
                Ok("; banish again, zoned."),
            ]
        );
        assert_eq!(marker.mark("zone banish"), vec![Ok("zone banish")]);
    }

    /// A page's words inside a mark keep a private-use stand-in of their
    /// own as a character reference: only the template's parts hold the
    /// stand-in the page replaces with the mark's id.
    #[test]
    fn the_pages_words_never_hold_the_marks_stand_ins() {
        let spelling = format!("odd{ID}word{WORDS}");
        let terms = terms_of(vec![term(&[spelling.as_str()], "Odd.")]);
        let mut marker = Marker::new(&terms, "rules/a.md");
        let pieces = marker.mark(&spelling);
        let Err(html) = &pieces[0] else {
            panic!("not marked: {pieces:?}")
        };
        assert!(html.contains(">odd&#xE002;word&#xE001;</button>"), "{html}");
        assert_eq!(html.matches(ID).count(), 2, "the template's two ids only");
        assert!(!html.contains(WORDS));
    }

    fn term(spellings: &[&str], definition: &str) -> Term {
        Term {
            spellings: spellings.iter().map(|s| s.to_string()).collect(),
            definition: definition.into(),
            scope: Vec::new(),
            auto: true,
        }
    }

    /// A mark's words and definition.
    fn parts(html: &str) -> (&str, &str) {
        let words = html.split("</button>").next().unwrap().rsplit('>').next();
        let definition = html
            .split("hidden>")
            .nth(1)
            .unwrap()
            .split("</span>")
            .next();
        (words.unwrap(), definition.unwrap())
    }

    /// Marked words of `text`, as `definition:words`.
    fn marked(terms: &Terms, text: &str) -> Vec<String> {
        Marker::new(terms, "page.md")
            .mark(text)
            .into_iter()
            .filter_map(Result::err)
            .map(|html| {
                let (words, definition) = parts(&html);
                format!("{definition}:{words}")
            })
            .collect()
    }

    #[test]
    fn a_term_is_found_in_its_scope_and_marked_elsewhere_where_linked() {
        let mut tie = term(&["tie", "ties"], "Equal top totals.");
        tie.scope = vec!["rules/start.md".into(), "guide/".into()];
        let mut stage = term(&["stage"], "One banishment.");
        stage.auto = false;
        let terms = terms_of(vec![tie, stage]);
        let found = |page: &str| {
            Marker::new(&terms, page)
                .mark("a tie at this stage")
                .into_iter()
                .filter_map(Result::err)
                .map(|html| parts(&html).0.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(found("rules/start.md"), ["tie"]);
        assert_eq!(found("guide/deep/read.md"), ["tie"]);
        assert!(found("rules/start-of-game.md").is_empty());
        assert!(found("guidebook.md").is_empty());
        assert!(found(crate::rulebook::changes::GLOSSARY_PAGE).is_empty());
        // Linked by the author: marked anywhere, by any spelling, then used.
        let mut marker = Marker::new(&terms, "games/race.md");
        let (before, after) = marker.linked("Stage").unwrap();
        assert_eq!(
            parts(&format!("{before}x{after}")),
            ("x", "One banishment.")
        );
        assert!(marker.linked("TIES").is_ok());
        assert!(marker.linked("memory_zone").is_err());
        let mut marker = Marker::new(&terms, "rules/start.md");
        assert!(marker.linked("tie").is_ok());
        assert_eq!(marker.mark("a tie"), vec![Ok("a tie")]);
        let why = marker.linked("stag").unwrap_err();
        assert_eq!(why, "the nearest terms are stage, tie, ties");
    }

    #[test]
    fn a_shorter_spelling_is_marked_where_the_longest_cannot_be() {
        let terms = terms_of(vec![
            term(&["a b c"], "X"),
            term(&["a b", "memory"], "Y"),
            term(&["memory zone"], "Z"),
            term(&["zone"], "W"),
        ]);
        // "a b c" goes on into "cd": "a b" is the whole words there.
        assert_eq!(marked(&terms, "a b cd"), ["Y:a b"]);
        // Once Z is used, its spelling gives way to Y's shorter one.
        assert_eq!(
            marked(&terms, "Memory Zone, then memory zone."),
            ["Z:Memory Zone", "Y:memory", "W:zone"]
        );
        // Inside a word nothing is marked; the next whole word is.
        assert_eq!(marked(&terms, "ozone zoned zone"), ["W:zone"]);
        assert_eq!(marked(&terms, "nothing here"), Vec::<String>::new());
        assert_eq!(marked(&terms_of(Vec::new()), "zone"), Vec::<String>::new());
    }

    #[test]
    fn many_spellings_are_found_in_one_pass() {
        let aliases: Vec<String> = (0..50_000).map(|i| format!("w{i}")).collect();
        let mut spellings = vec!["banish".to_string()];
        spellings.extend(aliases);
        let terms = terms_of(vec![
            Term {
                spellings,
                definition: "Remove.".into(),
                scope: Vec::new(),
                auto: true,
            },
            term(&["zone", "ZONE"], "A place."),
        ]);
        let text = "w1x w49999 and w2 zone Zone ".repeat(1000);
        assert_eq!(marked(&terms, &text), ["Remove.:w49999", "A place.:zone"]);
    }

    /// The search as it was before the automaton, spelling by spelling, to
    /// check that the automaton marks exactly the same words.
    fn reference(terms: &[Term], text: &str) -> Vec<(usize, usize, usize)> {
        let mut phrases: Vec<(&str, usize)> = Vec::new();
        for (i, term) in terms.iter().enumerate() {
            phrases.extend(term.spellings.iter().map(|s| (s.as_str(), i)));
        }
        phrases.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(b.0)));
        let mut used = vec![false; terms.len()];
        let (mut marks, mut offset, mut rest) = (Vec::new(), 0, text);
        loop {
            let mut best: Option<(usize, usize, usize)> = None;
            for &(phrase, term) in &phrases {
                if used[term] || phrase.is_empty() {
                    continue;
                }
                let (bytes, p) = (rest.as_bytes(), phrase.as_bytes());
                let mut from = 0;
                while from + p.len() <= bytes.len() && best.is_none_or(|(s, _, _)| from < s) {
                    let end = from + p.len();
                    if rest.is_char_boundary(from)
                        && rest.is_char_boundary(end)
                        && rest[from..end].to_lowercase() == phrase.to_lowercase()
                        && !rest[..from]
                            .chars()
                            .next_back()
                            .is_some_and(char::is_alphanumeric)
                        && !rest[end..]
                            .chars()
                            .next()
                            .is_some_and(char::is_alphanumeric)
                    {
                        best = Some((from, end, term));
                        break;
                    }
                    from += 1;
                }
            }
            let Some((start, end, term)) = best else {
                return marks;
            };
            used[term] = true;
            marks.push((offset + start, offset + end, term));
            offset += end;
            rest = &rest[end..];
        }
    }

    #[test]
    fn the_automaton_marks_what_the_spelling_by_spelling_search_did() {
        let words = [
            "a", "A", "ab", "b", "é", "É", "a b", "a-b", "ab a", "b é", " a", "ba",
        ];
        let mut seed: u64 = 27;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..2000 {
            let terms: Vec<Term> = (0..1 + next(4))
                .map(|t| Term {
                    spellings: (0..1 + next(3))
                        .map(|_| words[next(words.len())].into())
                        .collect(),
                    definition: t.to_string(),
                    scope: Vec::new(),
                    auto: true,
                })
                .collect();
            let text: String = (0..next(12))
                .map(|_| ["a", "A", "b", "é", " ", "-", "x", "ab"][next(8)])
                .collect();
            let expected = reference(&terms, &text);
            let built = terms_of(
                terms
                    .iter()
                    .map(|t| {
                        term(
                            &t.spellings.iter().map(String::as_str).collect::<Vec<_>>(),
                            &t.definition,
                        )
                    })
                    .collect(),
            );
            let mut marker = Marker::new(&built, "page.md");
            let (mut got, mut offset) = (Vec::new(), 0);
            for piece in marker.mark(&text) {
                match piece {
                    Ok(plain) => offset += plain.len(),
                    Err(html) => {
                        let (words, term) = parts(&html);
                        let term: usize = term.parse().unwrap();
                        got.push((offset, offset + words.len(), term));
                        offset += words.len();
                    }
                }
            }
            assert_eq!(got, expected, "{text:?}");
        }
    }

    #[test]
    fn letter_case_is_ignored_beyond_ascii() {
        let terms = terms_of(vec![
            term(&["élan"], "Dash."),
            term(&["ÆON"], "Age."),
            term(&["i"], "Eye."),
        ]);
        let mut marker = Marker::new(&terms, "page.md");
        let marked = |pieces: Vec<Result<&str, String>>| -> Vec<String> {
            pieces
                .into_iter()
                .filter_map(Result::err)
                .map(|html| parts(&html).0.to_string())
                .collect()
        };
        assert_eq!(
            marked(marker.mark("With Élan, an æon passed.")),
            ["Élan", "æon"]
        );
        // "İ" lowers to "i" and a combining dot: no term starts or ends
        // inside one letter of the text.
        assert!(marked(marker.mark("İ")).is_empty());
        assert_eq!(marked(marker.mark("İ I")), ["I"]);
    }
}
