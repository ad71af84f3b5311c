//! The search index: built with the site, written as a script that assigns
//! a global, so it loads through `<script src>` even from `file://`, where
//! browsers refuse to fetch JSON.
//!
//! It is an inverted index (word -> pages and counts) plus one short line
//! per page, so it stays smaller than the text it indexes.

use rayon::prelude::*;
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;

/// What the index knows of one page.
#[derive(Debug, Clone)]
pub struct SearchDoc {
    /// Page title, matched with extra weight.
    pub title: String,
    /// The page's link from the site root, encoded.
    pub href: String,
    /// Shown under the title in results.
    pub summary: String,
    /// The page's readable text.
    pub text: String,
}

/// Characters of summary kept when a page has no description.
const SUMMARY_CHARS: usize = 140;

/// Words too common to help find a page.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "in", "is", "it", "its",
    "of", "on", "or", "that", "the", "this", "to", "was", "with",
];

/// The index as `search-index.js`: `window.FAIRDICE_SEARCH = {pages, terms}`
/// where `pages[i] = [title, href, summary, word count]` and `terms[word]` lists page
/// numbers and counts alternately.
pub fn index_js(docs: &[SearchDoc]) -> String {
    let counted: Vec<BTreeMap<String, u32>> = docs
        .par_iter()
        .map(|doc| {
            let mut counts = BTreeMap::new();
            for word in words(&doc.title).chain(words(&doc.text)) {
                *counts.entry(word).or_default() += 1;
            }
            counts
        })
        .collect();
    let mut terms: BTreeMap<String, BTreeMap<usize, u32>> = BTreeMap::new();
    for (page, counts) in counted.iter().enumerate() {
        for (word, &count) in counts {
            terms.entry(word.clone()).or_default().insert(page, count);
        }
    }
    let pages: Vec<serde_json::Value> = docs
        .iter()
        .zip(&counted)
        .map(|(d, counts)| json!([d.title, d.href, d.summary, counts.values().sum::<u32>()]))
        .collect();
    let postings: BTreeMap<String, Vec<u32>> = terms
        .into_iter()
        .map(|(word, hits)| {
            let flat = hits
                .into_iter()
                .flat_map(|(page, count)| [page as u32, count])
                .collect();
            (word, flat)
        })
        .collect();
    format!(
        "window.FAIRDICE_SEARCH={};\n",
        json_compact(&json!({"pages": pages, "terms": postings}))
    )
}

fn json_compact(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("JSON values serialise")
}

/// The words a page is found by: lowercase, letters or digits, at least two
/// characters, not only digits, not a stop word. The search script splits
/// queries the same way.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2 && !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_lowercase)
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
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

/// The readable text of an HTML fragment: tags dropped, charts and formulas
/// left out, entities decoded, runs of white space collapsed.
pub fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len() / 2);
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        push_decoded(&mut text, &rest[..open]);
        text.push(' ');
        let after = &rest[open..];
        let skipped = ["svg", "math", "script", "style"]
            .iter()
            .find(|name| starts_element(after, name))
            .and_then(|name| {
                after
                    .find(&format!("</{name}>"))
                    .map(|i| i + name.len() + 3)
            });
        let end = skipped.or_else(|| after.find('>').map(|i| i + 1));
        rest = end.map_or("", |i| &after[i..]);
    }
    push_decoded(&mut text, rest);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
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
                    <svg class=\"chart\"><text>tick 0.1</text></svg><p>Done</p>";
        assert_eq!(plain_text(html), "Fair & square Roll dice. Done");
    }

    #[test]
    fn words_skip_numbers_and_stop_words() {
        let found: Vec<String> = words("The 2d6 total of 12 is FAIR; a d6-die").collect();
        assert_eq!(found, ["2d6", "total", "fair", "d6", "die"]);
    }

    #[test]
    fn index_maps_words_to_pages_with_counts() {
        let docs = [
            SearchDoc {
                title: "Dice".into(),
                href: "a.html".into(),
                summary: "s".into(),
                text: "roll roll dice".into(),
            },
            SearchDoc {
                title: "Cards".into(),
                href: "b/c.html".into(),
                summary: "t".into(),
                text: "banish roll".into(),
            },
        ];
        let js = index_js(&docs);
        let json = js
            .strip_prefix("window.FAIRDICE_SEARCH=")
            .and_then(|j| j.strip_suffix(";\n"))
            .unwrap();
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(value["pages"][1], json!(["Cards", "b/c.html", "t", 3]));
        assert_eq!(value["terms"]["roll"], json!([0, 2, 1, 1]));
        assert_eq!(value["terms"]["dice"], json!([0, 2]));
        assert_eq!(value["terms"]["banish"], json!([1, 1]));
    }

    #[test]
    fn summaries_cut_at_a_word() {
        assert_eq!(summary(Some(" Given "), "text"), "Given");
        let long = "word ".repeat(100);
        let cut = summary(None, &long);
        assert!(cut.ends_with("word…") && cut.chars().count() <= SUMMARY_CHARS + 1);
    }
}
