//! The search index: built with the site, written as a script that assigns
//! a global, so it loads through `<script src>` even from `file://`, where
//! browsers refuse to fetch JSON.
//!
//! Pages are cut into sections at their headings, so a result links to the
//! heading where the words are and shows them in context. Everything that
//! needs arithmetic is done here: each posting carries its finished weight
//! (BM25: rare words weigh more, repeats in a long section less), and the
//! script only adds weights up, ranks and displays.

use super::RenderedPage;
use crate::paths;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;

/// What the index knows of one page.
#[derive(Debug, Clone)]
pub(crate) struct SearchDoc {
    /// Page title, matched with extra weight.
    pub title: String,
    /// The page's link from the site root, encoded.
    pub href: String,
    /// Shown under the title when no snippet applies.
    pub summary: String,
    /// The page's sections, the text before its first heading first.
    pub sections: Vec<Section>,
}

/// A part of a page from one heading to the next.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Section {
    /// The heading's `id` (empty for the top of the page).
    pub anchor: String,
    /// The heading's text (empty for the top of the page).
    pub heading: String,
    /// The section's readable text, heading included.
    pub text: String,
}

/// Characters of summary kept when a page has no description.
const SUMMARY_CHARS: usize = 140;

/// Words too common to help find a page.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "in", "is", "it", "its",
    "of", "on", "or", "that", "the", "this", "to", "was", "with",
];

/// How often a page's title words count, against once for a word of text.
const TITLE_WEIGHT: u32 = 3;
/// BM25's saturation and length parameters.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The index as `search-index.js`: `window.FAIRDICE_SEARCH = {pages,
/// sections, terms}` where `pages[i] = [title, href, summary]`,
/// `sections[j] = [page, anchor (encoded), heading, text]` and
/// `terms[word]` lists section numbers and weights (in thousandths)
/// alternately.
pub(crate) fn index_js(docs: &[SearchDoc]) -> String {
    let mut sections: Vec<(usize, &Section)> = Vec::new();
    for (page, doc) in docs.iter().enumerate() {
        sections.extend(doc.sections.iter().map(|section| (page, section)));
    }
    let counted: Vec<BTreeMap<String, u32>> = sections
        .par_iter()
        .enumerate()
        .map(|(i, (page, section))| {
            let mut counts = BTreeMap::new();
            for word in words(&section.text) {
                *counts.entry(word).or_default() += 1;
            }
            // The title counts in the page's first section.
            let first = i == 0 || sections[i - 1].0 != *page;
            if first {
                for word in words(&docs[*page].title) {
                    *counts.entry(word).or_default() += TITLE_WEIGHT;
                }
            }
            counts
        })
        .collect();
    let lengths: Vec<f64> = counted
        .iter()
        .map(|c| f64::from(c.values().sum::<u32>()))
        .collect();
    let average = lengths.iter().sum::<f64>() / (lengths.len().max(1) as f64);
    let mut terms: BTreeMap<&str, Vec<(usize, u32)>> = BTreeMap::new();
    for (section, counts) in counted.iter().enumerate() {
        for (word, &count) in counts {
            terms.entry(word).or_default().push((section, count));
        }
    }
    let total = sections.len() as f64;
    let postings: BTreeMap<&str, Vec<u64>> = terms
        .into_iter()
        .map(|(word, hits)| {
            let rarity = (1.0 + total / hits.len() as f64).ln();
            let flat = hits
                .into_iter()
                .flat_map(|(section, count)| {
                    let count = f64::from(count);
                    let relative = lengths[section] / average.max(1.0);
                    let saturated = count * (K1 + 1.0) / (count + K1 * (1.0 - B + B * relative));
                    // Floats only for ranking; rounded so the file is plain integers.
                    [section as u64, (1000.0 * rarity * saturated).round() as u64]
                })
                .collect();
            (word, flat)
        })
        .collect();
    let pages: Vec<serde_json::Value> = docs
        .iter()
        .map(|d| json!([d.title, d.href, d.summary]))
        .collect();
    let sections: Vec<serde_json::Value> = sections
        .iter()
        .map(|(page, s)| {
            let mut anchor = String::new();
            crate::paths::encode_segment(&s.anchor, &mut anchor);
            json!([page, anchor, s.heading, s.text])
        })
        .collect();
    format!(
        "window.FAIRDICE_SEARCH={};\n",
        json_compact(&json!({"pages": pages, "sections": sections, "terms": postings}))
    )
}

/// The search index over `pages` and, in the site's own language, the
/// playground (its whole page), whose syntax guide answers notation
/// questions.
pub(super) fn index_of(pages: &[&RenderedPage], playground: Option<&str>) -> String {
    let doc = |title: &str, output: &str, description: Option<&str>, article: &str| {
        let sections = sections(article);
        let first = sections.first().map_or("", |s| s.text.as_str());
        SearchDoc {
            title: title.to_string(),
            href: paths::href("", output),
            summary: summary(description, first),
            sections,
        }
    };
    let mut docs: Vec<SearchDoc> = pages
        .par_iter()
        .map(|page| {
            let description = page.description.as_deref();
            doc(&page.title, &page.output, description, &page.article)
        })
        .collect();
    if let Some(playground) = playground {
        let article = super::article_of(playground);
        docs.push(doc(
            super::PLAYGROUND_TITLE,
            paths::PLAYGROUND_PAGE,
            None,
            article,
        ));
    }
    index_js(&docs)
}

fn json_compact(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("JSON values serialise")
}

/// The words of `text` as the index keeps them: runs of letters and
/// digits, with a `.` between two digits kept (`1.2.3`, `0.25`) and a
/// thousands separator read away (`3,084` is the word `3084`, so either
/// spelling finds the figure), lowercased; single letters and stop words dropped, numbers of any length
/// kept. Chinese and Japanese, written without spaces, are cut into
/// overlapping pairs of characters (a lone character kept as it is), so a
/// word of any length is found as the pairs it holds. `search.js` splits
/// queries the same way (the pattern
/// `(?:[\p{Alphabetic}\p{N}]|(?<=[0-9])\.(?=[0-9])|(?<=[0-9]),(?=[0-9]{3}(?![0-9])))+`,
/// then `UNSPACED`, then commas dropped).
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    tokens(text)
        .into_iter()
        .flat_map(pairs_where_unspaced)
        .map(|w| w.replace(',', "").to_lowercase())
        .filter(|w| {
            w.chars().count() >= 2
                || w.chars().all(|c| c.is_numeric())
                || w.chars().all(is_unspaced)
        })
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
}

/// Whether `c` belongs to a script written without spaces between words:
/// Chinese characters (Han) and Japanese kana. `search.js` holds the same
/// ranges (`UNSPACED`).
fn is_unspaced(c: char) -> bool {
    matches!(c,
        '\u{3005}'
        | '\u{3040}'..='\u{30FF}'
        | '\u{31F0}'..='\u{31FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF66}'..='\u{FF9F}'
        | '\u{20000}'..='\u{2FFFF}')
}

/// A token cut where its script changes: other letters stay whole, a run
/// of [`is_unspaced`] characters becomes its overlapping pairs (or the
/// character alone).
fn pairs_where_unspaced(token: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let chars: Vec<(usize, char)> = token.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map_or(token.len(), |&(at, _)| at);
    let mut i = 0;
    while i < chars.len() {
        let unspaced = is_unspaced(chars[i].1);
        let mut j = i;
        while j < chars.len() && is_unspaced(chars[j].1) == unspaced {
            j += 1;
        }
        if !unspaced || j - i == 1 {
            found.push(&token[chars[i].0..end_of(j)]);
        } else {
            found.extend((i..j - 1).map(|k| &token[chars[k].0..end_of(k + 2)]));
        }
        i = j;
    }
    found
}

/// The raw tokens of `text`, in order.
fn tokens(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let digit = |i: usize| chars.get(i).is_some_and(|(_, c)| c.is_ascii_digit());
    let inside = |i: usize| {
        let c = chars[i].1;
        let after_digit = i > 0 && digit(i - 1);
        c.is_alphanumeric()
            || (c == '.' && after_digit && digit(i + 1))
            // A thousands separator: a digit before, exactly three after.
            || (c == ',' && after_digit && (1..=3).all(|k| digit(i + k)) && !digit(i + 4))
    };
    let mut found = Vec::new();
    let mut start = None;
    for i in 0..chars.len() {
        match (inside(i), start) {
            (true, None) => start = Some(chars[i].0),
            (false, Some(from)) => {
                found.push(&text[from..chars[i].0]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(from) = start {
        found.push(&text[from..]);
    }
    found
}

/// A short summary: the description, else the start of the text cut at a word.
pub fn summary(description: Option<&str>, text: &str) -> String {
    if let Some(description) = description.filter(|d| !d.trim().is_empty()) {
        return description.trim().to_string();
    }
    let text = text.trim();
    if text.chars().count() <= SUMMARY_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(SUMMARY_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut}…")
}

/// Elements whose content is never readable text: charts, formulas,
/// scripts, styles.
const HIDDEN: [&str; 4] = ["svg", "math", "script", "style"];

/// The readable text of an HTML fragment: tags dropped, charts and formulas
/// left out, entities decoded, runs of white space collapsed.
pub fn plain_text(html: &str) -> String {
    walk(html, &HIDDEN, false)
        .iter()
        .map(|s| s.text.as_str())
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// An article cut at its headings with an `id`, as the index holds it:
/// tables' cells included (a reader looks for `4d6kh3` or "reroll once"),
/// charts and formulas left out.
pub fn sections(html: &str) -> Vec<Section> {
    let mut found = walk(html, &HIDDEN, true);
    if found.len() > 1 && found[0].text.is_empty() {
        found.remove(0);
    }
    found
}

/// The text of `html` by section, leaving out the elements named in `skip`,
/// and in tables, when `table_words`, the words without a letter.
fn walk(html: &str, skip: &[&str], table_words: bool) -> Vec<Section> {
    let mut sections = vec![Section::default()];
    let mut heading: Option<String> = None;
    let mut rest = html;
    // Inside a table only words with a letter count (`4d6kh3`, "reroll
    // once"): its figures, thousands of them in a sweep, are read on the
    // page, not searched for.
    let mut tables = 0usize;
    let push = |sections: &mut Vec<Section>, heading: &Option<String>, text: &str, tables| {
        let section = sections.last_mut().expect("one section at least");
        push_text(section, heading.is_some(), tables > 0, text);
    };
    while let Some(open) = rest.find('<') {
        push(&mut sections, &heading, &rest[..open], tables);
        sections.last_mut().expect("one section").text.push(' ');
        let after = &rest[open..];
        let tag_end = after.find('>').map_or(after.len(), |i| i + 1);
        let tag = &after[..tag_end];
        if !table_words {
        } else if starts_element(after, "table") {
            tables += 1;
        } else if tag == "</table>" {
            tables = tables.saturating_sub(1);
        }
        if let Some(level) = heading_level(tag) {
            if let Some(id) = attribute(tag, "id") {
                sections.push(Section {
                    anchor: id,
                    ..Section::default()
                });
                heading = Some(format!("</h{level}>"));
            }
        } else if heading.as_deref() == Some(tag) {
            heading = None;
        } else if let Some(end) = not_searched(tag, after) {
            rest = &after[end..];
            continue;
        }
        let skipped = skip
            .iter()
            .find(|name| starts_element(after, name))
            .and_then(|name| {
                after
                    .find(&format!("</{name}>"))
                    .map(|i| i + name.len() + 3)
            });
        let end = skipped.unwrap_or(tag_end);
        rest = &after[end..];
    }
    push(&mut sections, &heading, rest, tables);
    for section in &mut sections {
        section.text = collapse(&section.text);
        section.heading = collapse(&section.heading);
    }
    sections
}

/// Page text into its section (and its heading, when in one); in a
/// table, only the words with a letter.
fn push_text(section: &mut Section, in_heading: bool, in_table: bool, text: &str) {
    if in_table {
        let mut decoded = String::new();
        push_decoded(&mut decoded, text);
        for word in decoded.split_whitespace() {
            if word.chars().any(char::is_alphabetic) {
                section.text.push(' ');
                section.text.push_str(word);
            }
        }
        return;
    }
    push_decoded(&mut section.text, text);
    if in_heading {
        push_decoded(&mut section.heading, text);
    }
}

/// Where an element that `tag` opens ends in `after`, when it is no text
/// to search: a heading's own "#" link; a rule's "history" and "figures"
/// links, tools beside it ("history" would find every rule instead of the
/// history page); a glossary term's definition, which belongs to the
/// glossary page, not to every page that uses the term.
fn not_searched(tag: &str, after: &str) -> Option<usize> {
    let close = if tag.starts_with("<a ")
        && ["anchor", "rule-history", "rule-figures"]
            .iter()
            .any(|class| tag.contains(&format!("class=\"{class}\"")))
    {
        "</a>"
    } else if tag.starts_with("<span ") && tag.contains("class=\"term-definition\"") {
        "</span>"
    } else {
        return None;
    };
    Some(after.find(close).map_or(after.len(), |i| i + close.len()))
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `1` to `6` for an opening heading tag.
fn heading_level(tag: &str) -> Option<char> {
    let mut chars = tag.chars();
    (chars.next() == Some('<') && chars.next() == Some('h'))
        .then(|| chars.next())
        .flatten()
        .filter(|c| ('1'..='6').contains(c))
        .filter(|_| matches!(chars.next(), Some(' ' | '>')))
}

/// The value of `name="..."` in an opening tag, entities decoded.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = start + tag[start..].find('"')?;
    let mut value = String::new();
    push_decoded(&mut value, &tag[start..end]);
    Some(value)
}

fn starts_element(html: &str, name: &str) -> bool {
    html[1..].starts_with(name)
        && html[1 + name.len()..].starts_with(|c: char| c == '>' || c.is_whitespace())
}

fn push_decoded(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let entity = &rest[amp..];
        let decoded = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
            ("&#39;", '\''),
            ("&nbsp;", ' '),
        ]
        .iter()
        .find(|(name, _)| entity.starts_with(name));
        match decoded {
            Some((name, c)) => {
                out.push(*c);
                rest = &entity[name.len()..];
            }
            None => {
                out.push('&');
                rest = &entity[1..];
            }
        }
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_leaves_out_tags_charts_and_formulas() {
        let html = "<h2 id=\"x\">Fair &amp; square</h2><p>Roll <math><mi>n</mi></math> dice.</p>\
                    <svg class=\"chart\"><text>tick 0.1</text></svg><p>Done</p>\
                    <p>A <span class=\"term\"><button type=\"button\" class=\"term-word\" \
                    aria-describedby=\"g\">tie</button><span class=\"term-definition\" id=\"g\" \
                    role=\"tooltip\" hidden>Equal totals.</span></span> again</p>";
        assert_eq!(
            plain_text(html),
            "Fair & square Roll dice. Done A tie again"
        );
    }

    #[test]
    fn words_keep_numbers_and_drop_stop_words() {
        let found: Vec<String> =
            words("The 2d6 total of 12 is FAIR; a d6-die, rule 1.2.3. x 7 0.25 v1.2 1.").collect();
        assert_eq!(
            found,
            [
                "2d6", "total", "12", "fair", "d6", "die", "rule", "1.2.3", "7", "0.25", "v1.2",
                "1"
            ]
        );
        assert_eq!(
            words("Écarté, naïve").collect::<Vec<_>>(),
            ["écarté", "naïve"]
        );
    }

    /// Issue 41: a grouped figure and its plain digits are one word, so a
    /// search for either finds the page; a list of numbers stays a list.
    #[test]
    fn grouped_numbers_are_found_by_either_spelling() {
        let found: Vec<String> =
            words("about 3,084 matches, 1,234,567 rolls; faces 1,2,3 and 10,0000 or 12,345.")
                .collect();
        assert_eq!(
            found,
            [
                "about", "3084", "matches", "1234567", "rolls", "faces", "1", "2", "3", "10",
                "0000", "12345"
            ]
        );
        assert_eq!(words("3084").collect::<Vec<_>>(), ["3084"]);
    }

    #[test]
    fn articles_are_cut_at_headings_with_ids() {
        let html = "<h1>Title</h1><p>Intro 52 cards.</p>\
            <h2 id=\"the-rules\">The rules<a class=\"anchor\" href=\"#the-rules\">#</a></h2>\
            <p>Rule 1.2.3 <a class=\"rule-history\" href=\"h.html\">history</a>&lt;b&gt;</p>\
            <table><tr><td>7</td><td>4d6kh3</td><td>0.5 %</td><td>reroll &amp; once</td></tr>\
            </table><h3 id=\"a&amp;b\">A &amp; B</h3><p>Last.</p>";
        let found = sections(html);
        let summary: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|s| (s.anchor.as_str(), s.heading.as_str(), s.text.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                ("", "", "Title Intro 52 cards."),
                // A table's words, not its figures; no rule's "history".
                (
                    "the-rules",
                    "The rules",
                    "The rules Rule 1.2.3 <b> 4d6kh3 reroll once"
                ),
                ("a&b", "A & B", "A & B Last."),
            ]
        );
    }

    fn index(docs: &[SearchDoc]) -> serde_json::Value {
        let js = index_js(docs);
        let json = js
            .strip_prefix("window.FAIRDICE_SEARCH=")
            .and_then(|j| j.strip_suffix(";\n"))
            .unwrap();
        serde_json::from_str(json).unwrap()
    }

    fn doc(title: &str, href: &str, sections: &[(&str, &str)]) -> SearchDoc {
        SearchDoc {
            title: title.into(),
            href: href.into(),
            summary: "s".into(),
            sections: sections
                .iter()
                .map(|(anchor, text)| Section {
                    anchor: (*anchor).into(),
                    heading: anchor.replace('-', " "),
                    text: (*text).into(),
                })
                .collect(),
        }
    }

    #[test]
    fn chinese_and_japanese_are_indexed_by_pairs_of_characters() {
        let found: Vec<String> = words("掷骰子决定先手。Dé 子").collect();
        assert_eq!(
            found,
            ["掷骰", "骰子", "子决", "决定", "定先", "先手", "dé", "子"]
        );
        let japanese: Vec<String> = words("サイコロを振る2回").collect();
        assert_eq!(
            japanese,
            ["サイ", "イコ", "コロ", "ロを", "を振", "振る", "2", "回"]
        );
        // A word of the page is found as the pairs it holds: 骰子 ("dice")
        // and 先手 ("first player") in the Chinese page, not in the other.
        let docs = [
            doc(
                "规则",
                "zh/a.html",
                &[("", "每位玩家掷两个骰子，点数最高者先手。")],
            ),
            doc("Rules", "b.html", &[("", "Each player rolls two dice.")]),
        ];
        let value = index(&docs);
        for word in ["骰子", "先手", "规则"] {
            let postings: Vec<u64> = serde_json::from_value(value["terms"][word].clone())
                .unwrap_or_else(|_| panic!("{word} is not in the index"));
            assert_eq!(postings[0], 0, "{word}");
        }
        assert!(value["terms"]["掷两个骰子"].is_null());
    }

    #[test]
    fn index_maps_words_to_sections_with_weights() {
        let docs = [
            doc(
                "Dice",
                "a.html",
                &[("", "roll roll dice"), ("rule 7", "banish 52")],
            ),
            doc("Cards", "b/c.html", &[("", "banish roll 1.2.3")]),
        ];
        let value = index(&docs);
        assert_eq!(value["pages"][1], json!(["Cards", "b/c.html", "s"]));
        assert_eq!(
            value["sections"][1],
            json!([0, "rule%207", "rule 7", "banish 52"])
        );
        assert_eq!(value["sections"][2][0], json!(1));
        let postings = |word: &str| -> Vec<u64> {
            serde_json::from_value(value["terms"][word].clone()).unwrap()
        };
        // Sections 0 and 2 hold "roll"; 1 and 2 "banish"; 1 alone "52".
        let roll = postings("roll");
        assert_eq!((roll[0], roll[2]), (0, 2));
        assert_eq!(postings("52")[0], 1);
        assert_eq!(postings("1.2.3")[0], 2);
        // The title counts in the page's first section, three times over.
        assert_eq!(postings("dice")[0], 0);
        assert_eq!(postings("cards")[0], 2);
        // By hand, BM25 with k1 = 1.2, b = 0.75: section lengths 6 (3 words
        // plus the title's one word 3 times), 2 and 6 (3 words and the title
        // 3 times), average 14/3; "52" is in 1 of 3 sections, so its rarity
        // is ln(1 + 3), and its weight in section 1 (one of 2 words)
        // 1000 ln 4 x 2.2 / (1 + 1.2 (0.25 + 0.75 x 2 / (14/3))).
        let expected = 1000.0 * 4f64.ln() * 2.2 / (1.0 + 1.2 * (0.25 + 0.75 * 2.0 / (14.0 / 3.0)));
        assert_eq!(postings("52")[1], expected.round() as u64);
        // Repeats weigh more, but less than twice as much.
        let once = postings("banish")[3] as f64;
        assert!(roll[1] as f64 > postings("roll")[3] as f64);
        assert!(once > 0.0);
    }

    #[test]
    fn summaries_cut_at_a_word() {
        assert_eq!(summary(Some(" Given "), "text"), "Given");
        let long = "word ".repeat(100);
        let cut = summary(None, &long);
        assert!(cut.ends_with("word…") && cut.chars().count() <= SUMMARY_CHARS + 1);
    }
}
