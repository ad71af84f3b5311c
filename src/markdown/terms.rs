//! Glossary terms in a page: the first use of each term (or one of its
//! other spellings) is marked with its definition, shown on hover and, for
//! phones, on tap (the mark takes focus). The definition sits in an
//! attribute shown by CSS, so the search index and print never hold it.

use super::escape_html;

/// A term to mark: every spelling and the definition.
pub struct Term {
    /// The term and its aliases.
    pub spellings: Vec<String>,
    /// Plain text.
    pub definition: String,
}

/// The terms of the glossary, ready to look for.
#[derive(Default)]
pub struct Terms {
    /// Every spelling with its term's index, longest first so that
    /// "memory zone" wins over "zone".
    phrases: Vec<(String, usize)>,
    definitions: Vec<String>,
}

impl Terms {
    /// The terms, in the glossary's order.
    pub fn new(terms: Vec<Term>) -> Terms {
        let mut phrases = Vec::new();
        let mut definitions = Vec::new();
        for (i, term) in terms.into_iter().enumerate() {
            phrases.extend(term.spellings.into_iter().map(|s| (s, i)));
            definitions.push(term.definition);
        }
        phrases.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        Terms {
            phrases,
            definitions,
        }
    }
}

/// The terms not yet marked on one page.
pub(super) struct Marker<'t> {
    terms: &'t Terms,
    used: Vec<bool>,
}

impl<'t> Marker<'t> {
    pub fn new(terms: &'t Terms) -> Self {
        Marker {
            terms,
            used: vec![false; terms.definitions.len()],
        }
    }

    /// `text` cut into plain pieces and marked terms (as HTML), the first
    /// use of each term only.
    pub fn mark<'a>(&mut self, text: &'a str) -> Vec<Result<&'a str, String>> {
        let mut pieces = Vec::new();
        let mut rest = text;
        while let Some((start, end, term)) = self.first(rest) {
            self.used[term] = true;
            if start > 0 {
                pieces.push(Ok(&rest[..start]));
            }
            pieces.push(Err(format!(
                "<span class=\"term\" tabindex=\"0\" data-definition=\"{}\">{}</span>",
                escape_html(&self.terms.definitions[term]),
                escape_html(&rest[start..end])
            )));
            rest = &rest[end..];
        }
        if !rest.is_empty() || pieces.is_empty() {
            pieces.push(Ok(rest));
        }
        pieces
    }

    /// The earliest use of a term not yet marked: whole words, letter case
    /// ignored.
    fn first(&self, text: &str) -> Option<(usize, usize, usize)> {
        if self.used.iter().all(|&u| u) {
            return None;
        }
        let bytes = text.as_bytes();
        let mut best: Option<(usize, usize, usize)> = None;
        for (phrase, term) in &self.terms.phrases {
            if self.used[*term] || phrase.is_empty() {
                continue;
            }
            let p = phrase.as_bytes();
            let mut from = 0;
            while from + p.len() <= bytes.len() {
                if best.is_some_and(|(s, _, _)| from >= s) {
                    break;
                }
                let end = from + p.len();
                if text.is_char_boundary(from)
                    && text.is_char_boundary(end)
                    && bytes[from..end].eq_ignore_ascii_case(p)
                    && !text[..from]
                        .chars()
                        .next_back()
                        .is_some_and(char::is_alphanumeric)
                    && !text[end..]
                        .chars()
                        .next()
                        .is_some_and(char::is_alphanumeric)
                {
                    best = Some((from, end, *term));
                    break;
                }
                from += 1;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_use_of_each_term_is_marked_once() {
        let terms = Terms::new(vec![
            Term {
                spellings: vec!["memory zone".into(), "zone".into()],
                definition: "Where banished <cards> go.".into(),
            },
            Term {
                spellings: vec!["banish".into(), "banished".into()],
                definition: "Remove.".into(),
            },
        ]);
        let mut marker = Marker::new(&terms);
        let pieces = marker.mark("Banished cards leave the Memory Zone; banish again, zoned.");
        assert_eq!(
            pieces,
            vec![
                Err("<span class=\"term\" tabindex=\"0\" data-definition=\"Remove.\">Banished</span>".into()),
                Ok(" cards leave the "),
                Err("<span class=\"term\" tabindex=\"0\" data-definition=\"Where banished &lt;cards&gt; go.\">Memory Zone</span>".into()),
                Ok("; banish again, zoned."),
            ]
        );
        assert_eq!(marker.mark("zone banish"), vec![Ok("zone banish")]);
    }
}
