//! Shortcodes: `{{ value(scenario="targets", path="cases.0.fairness.tvd") }}`
//! in markdown, replaced by computed results so that prose never holds a
//! number typed by hand.
//!
//! This module only finds and parses calls; what a call expands to is up to
//! the site (see [`Expand`]).

use std::collections::BTreeMap;
use std::ops::Range;

/// A parsed shortcode call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// `value`, `table`, `chart`...
    pub name: String,
    /// Keyword arguments, values unquoted.
    pub args: BTreeMap<String, String>,
    /// 1-based line in the page's source file.
    pub line: usize,
}

impl Call {
    /// A required argument, or an error naming the call.
    pub fn arg(&self, key: &str) -> Result<&str, String> {
        self.args
            .get(key)
            .map(String::as_str)
            .ok_or_else(|| format!("{}(...) needs the argument {key}=\"...\"", self.name))
    }
}

/// What a call turns into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expansion {
    /// Text within a sentence; escaped when written.
    Inline(String),
    /// Ready HTML that stands as its own block.
    Block(String),
    /// A link within a sentence (`rule 3.2.1`); both escaped when written.
    Link {
        /// What the reader sees.
        text: String,
        /// Where it leads, relative to the page.
        href: String,
    },
}

/// The site's side of shortcodes: resolve one call.
pub trait Expand {
    /// The call's expansion, or what went wrong (without location: the
    /// caller adds it).
    fn expand(&self, call: &Call) -> Result<Expansion, String>;

    /// The page's word for `key` (`tip`, `note`…) where the site's
    /// catalogue has one; `None` keeps the markdown's English.
    fn word(&self, _key: &str) -> Option<String> {
        None
    }
}

/// A shortcode found in the text, with its byte range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Byte offset of `{{`.
    pub start: usize,
    /// Byte offset just past `}}`.
    pub end: usize,
    /// The parsed call, or a message saying why it does not parse.
    pub call: Result<Call, String>,
}

/// Every `{{ name(...) }}` in order, except those starting inside one of
/// `literal` (sorted, disjoint byte ranges: code and math, where `{{` is
/// text). `first_line` is the line of the text's first character in its
/// file. One pass over the text: every search starts where the last ended.
pub fn find(text: &str, first_line: usize, literal: &[Range<usize>]) -> Vec<Found> {
    let mut found = Vec::new();
    let mut literal = literal.iter().peekable();
    let (mut line, mut counted) = (first_line, 0);
    let (mut from, mut line_end) = (0, 0);
    while let Some(open) = text[from..].find("{{").map(|i| from + i) {
        while literal.next_if(|r| r.end <= open).is_some() {}
        if let Some(r) = literal.peek().filter(|r| r.start <= open) {
            from = r.end;
            continue;
        }
        line += newlines(&text[counted..open]);
        counted = open;
        if line_end <= open {
            line_end = text[open..].find('\n').map_or(text.len(), |i| open + i);
        }
        let Some(close) = text[open..line_end].find("}}").map(|i| open + i) else {
            found.push(Found {
                start: open,
                end: line_end,
                call: Err(
                    "a shortcode opened with {{ is not closed with }} on the same line".into(),
                ),
            });
            from = line_end;
            continue;
        };
        found.push(Found {
            start: open,
            end: close + 2,
            call: parse_call(text[open + 2..close].trim(), line),
        });
        from = close + 2;
    }
    found
}

fn newlines(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}

/// The quotes a value may stand in, opening and closing: straight double
/// or single quotes, and the curly ones an editor may put in their place.
const QUOTES: [(char, char); 4] = [('"', '"'), ('\'', '\''), ('“', '”'), ('‘', '’')];

/// Parse `name(key="value", other=3)`; `'value'` and curly quotes too.
fn parse_call(text: &str, line: usize) -> Result<Call, String> {
    let expected = || {
        format!("expected a shortcode like value(scenario=\"...\", path=\"...\"), found {{{{ {text} }}}}")
    };
    let (name, rest) = text.split_once('(').ok_or_else(expected)?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(expected());
    }
    let inner = rest.trim_end().strip_suffix(')').ok_or_else(expected)?;
    let mut args = BTreeMap::new();
    let mut rest = inner.trim();
    while !rest.is_empty() {
        let (key, after) = rest.split_once('=').ok_or_else(expected)?;
        let key = key.trim().to_string();
        let after = after.trim_start();
        let quote = QUOTES.iter().find(|(open, _)| after.starts_with(*open));
        let (value, remaining) = if let Some(&(open, close)) = quote {
            let quoted = &after[open.len_utf8()..];
            let end = quoted.find(close).ok_or_else(expected)?;
            (quoted[..end].to_string(), &quoted[end + close.len_utf8()..])
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim().to_string(), &after[end..])
        };
        if key.is_empty() || args.insert(key.clone(), value).is_some() {
            return Err(format!(
                "{expected}: argument {key:?} is empty or repeated",
                expected = expected()
            ));
        }
        rest = remaining.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Ok(Call {
        name: name.to_string(),
        args,
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_found_with_their_lines() {
        let text = "Intro\nThe bias is {{ value(scenario=\"t\", path=\"cases.2.fairness.tvd\") }}.\n\n{{ chart(scenario=\"t\", id=bias) }}\n";
        let found = find(text, 10, &[]);
        assert_eq!(found.len(), 2);
        let first = found[0].call.as_ref().unwrap();
        assert_eq!(first.name, "value");
        assert_eq!(first.line, 11);
        assert_eq!(first.arg("path"), Ok("cases.2.fairness.tvd"));
        assert_eq!(
            &text[found[0].start..found[0].end],
            "{{ value(scenario=\"t\", path=\"cases.2.fairness.tvd\") }}"
        );
        let second = found[1].call.as_ref().unwrap();
        assert_eq!((second.name.as_str(), second.line), ("chart", 13));
        assert_eq!(second.arg("id"), Ok("bias"));
        assert!(second
            .arg("path")
            .unwrap_err()
            .contains("needs the argument path"));
    }

    #[test]
    fn literal_ranges_are_left_alone() {
        let text =
            "```\n{{ value(a=1) }}\n```\nUse `{{ value(a=1) }}` to embed {{ value(b=2) }}.\n";
        let fence = 0..text.find("Use").unwrap();
        let span = text.find("`{{").unwrap()..text.find("}}`").unwrap() + 3;
        let found = find(text, 1, &[fence, span]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].call.as_ref().unwrap().arg("b"), Ok("2"));
        assert_eq!(found[0].call.as_ref().unwrap().line, 4);
    }

    #[test]
    fn one_pass_over_long_lines() {
        // Each `{{` used to recount the backticks before it and the lines
        // above it: quadratic, minutes at these sizes.
        let line = "`a` {{ v(x=1) }} ".repeat(60_000);
        let page = format!("{line}\n").repeat(4);
        let start = std::time::Instant::now();
        let found = find(&page, 1, &[]);
        assert_eq!(found.len(), 240_000);
        assert_eq!(found[239_999].call.as_ref().unwrap().line, 4);
        let unclosed = "{{ ".repeat(500_000);
        assert_eq!(find(&unclosed, 1, &[]).len(), 1);
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }

    #[test]
    fn single_and_curly_quotes_hold_a_value_as_straight_ones_do() {
        for text in [
            "{{ value(scenario=\"g/t\", path=\"a, b\") }}",
            "{{ value(scenario='g/t', path='a, b') }}",
            "{{ value(scenario=“g/t”, path=‘a, b’) }}",
        ] {
            let call = find(text, 1, &[]).remove(0).call.unwrap();
            assert_eq!(call.arg("scenario"), Ok("g/t"), "{text}");
            assert_eq!(call.arg("path"), Ok("a, b"), "{text}");
        }
        // Each quote closes only its own kind.
        let call = find("{{ v(a='say \"hi\"') }}", 1, &[])
            .remove(0)
            .call
            .unwrap();
        assert_eq!(call.arg("a"), Ok("say \"hi\""));
        assert!(find("{{ v(a='open) }}", 1, &[])[0].call.is_err());
    }

    #[test]
    fn malformed_calls_are_reported() {
        for text in [
            "{{ value }}",
            "{{ value(scenario=\"x) }}",
            "{{ value(a=1, a=2) }}",
            "{{ value(a=1)",
        ] {
            let found = find(text, 1, &[]);
            assert_eq!(found.len(), 1, "{text}");
            assert!(found[0].call.is_err(), "{text}");
        }
    }
}
