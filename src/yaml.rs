//! What every YAML file an author writes shares (scenarios, front matter,
//! the glossary, `fairdice.yaml`): errors with their place in the author's
//! words, no YAML tags, and titles that are not blank.

use serde::{de, Deserialize, Deserializer};
use std::fmt;

/// A problem at a place: 1-based line and column, and what is wrong.
pub(crate) type Problem = (usize, usize, String);

/// `text` read as `T`, refusing YAML tags first (serde_yaml drops `!!binary`
/// and the like without a word, or keeps an unknown tag where a plain value
/// was meant).
pub fn read<T: de::DeserializeOwned>(text: &str) -> Result<T, Problem> {
    refuse_tags(text)?;
    serde_yaml::from_str(text).map_err(|err| problem(&err, text))
}

/// Where a YAML error in `text` is (1:1 when serde_yaml cannot say) and
/// what it says, without the place repeated and in the author's words.
pub fn problem(err: &serde_yaml::Error, text: &str) -> Problem {
    let (line, column) = err
        .location()
        .map_or((1, 1), |loc| (loc.line(), loc.column()));
    let said = err.to_string();
    syntax(&said, text, (line, column))
        .unwrap_or_else(|| (line, column, in_words(without_place(&said))))
}

/// The parser's message for a mistake in YAML's syntax (a tab, a quote
/// or bracket never closed, a key without its colon, a line indented out
/// of step, a key written twice) said as what to write, at the place
/// where the fix goes. `None` for any other message.
fn syntax(said: &str, text: &str, (line, column): (usize, usize)) -> Option<Problem> {
    let message = without_place(said);
    // Where the construct the parser was reading began ("while scanning a
    // quoted scalar at line 1 column 8"): an unclosed quote or bracket is
    // fixed where it opens.
    let opened = said.split_once(", while ").and_then(|(_, rest)| {
        let (_, place) = rest.split_once(" at line ")?;
        let (l, c) = place.split_once(" column ")?;
        Some((l.parse::<usize>().ok()?, c.trim().parse::<usize>().ok()?))
    });
    let line_text = |n: usize| text.lines().nth(n.saturating_sub(1)).unwrap_or("");
    let found = if message.contains("tab character") || line_text(line).starts_with('\t') {
        let tab = line_text(line).find('\t').map_or(column, |at| at + 1);
        (
            line,
            tab,
            "a tab: YAML indents with spaces only; replace the tab with spaces".to_string(),
        )
    } else if said.contains("while scanning a quoted scalar") {
        let (l, c) = opened.unwrap_or((line, column));
        let quote = line_text(l).chars().nth(c.saturating_sub(1)).unwrap_or('"');
        let message = format!(
            "this quote ({quote}) is never closed: end the value with {quote} on the same line"
        );
        (l, c, message)
    } else if let Some(close) = ["flow sequence", "flow mapping"]
        .iter()
        .position(|what| said.contains(&format!("while parsing a {what}")))
    {
        let (l, c) = opened.unwrap_or((line, column));
        let (what, end) = [("list", ']'), ("mapping", '}')][close];
        let message = format!(
            "this {what} in brackets is not closed: end it with `{end}` on the same line, its \
             items separated by `, `"
        );
        (l, c, message)
    } else if message.starts_with("could not find expected ':'") {
        let (l, c) = opened.unwrap_or((line, column));
        let written = line_text(l).trim();
        let message = format!("`{written}` is a key without its colon: write it as `key: value`");
        (l, c, message)
    } else if message.starts_with("mapping values are not allowed") {
        indented_or_colon(text, line, column)
    } else if message.starts_with("did not find expected key") {
        let message = "expected a key here (`key: value`), lined up with the keys above it: \
                       check this line's indentation, and that nothing follows a value that \
                       is already closed"
            .to_string();
        (line, column, message)
    } else if let Some(key) = message.strip_prefix("duplicate entry with key ") {
        let key = key.trim_matches('"');
        let (l, c) = second_top_level_key(text, key).unwrap_or((line, column));
        let message = format!("the key `{key}` is written twice: keep one of them");
        (l, c, message)
    } else {
        return None;
    };
    Some(found)
}

/// "mapping values are not allowed in this context": either a line
/// indented under a key that already has its value, or a `: ` inside a
/// plain value.
fn indented_or_colon(text: &str, line: usize, column: usize) -> Problem {
    let lines: Vec<&str> = text.lines().collect();
    // The parser's place may be past the last line (at the end of input).
    let before = line.saturating_sub(1).min(lines.len());
    let here = lines.get(before).copied().unwrap_or("");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let above = lines[..before]
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    if let Some(above) = above.filter(|a| indent(here) > indent(a) && !a.trim_end().ends_with(':'))
    {
        let key = here.trim().split(':').next().unwrap_or("");
        let message = format!(
            "`{key}` is indented under `{}`, which already has its value: line it up with \
             the keys above it",
            above.trim()
        );
        return (line, indent(here) + 1, message);
    }
    let (key, value) = here.split_once(": ").unwrap_or(("key", here));
    let message = format!(
        "a value holding `: ` must be quoted: write `{}: \"{}\"`",
        key.trim(),
        value.trim()
    );
    (line, column, message)
}

/// Where the second top-level `key:` of `text` is.
fn second_top_level_key(text: &str, key: &str) -> Option<(usize, usize)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .nth(1)
        .map(|(i, _)| (i + 1, 1))
}

/// A serde message without the " at line L column C" that serde appends:
/// errors here name their place themselves, as file:line:column.
pub(crate) fn without_place(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

/// Serde's names of Rust types ("integer `20` as u128, expected u32")
/// said as an author reads them.
pub(crate) fn in_words(message: &str) -> String {
    let numbers = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number from 0 to 18446744073709551615"),
        ("usize", "a whole number from 0 to 18446744073709551615"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        (
            "i64",
            "a whole number from -9223372036854775808 to 9223372036854775807",
        ),
        ("any YAML value", "a smaller number"),
    ];
    // A key path (`players[1]: `) may come first: it is kept.
    let start = ["invalid type: ", "invalid value: "]
        .iter()
        .filter_map(|head| message.find(head))
        .min()
        .unwrap_or(0);
    let (path, message) = message.split_at(start);
    let Some((found, expected)) = message.split_once(", expected ") else {
        return format!("{path}{message}");
    };
    let Some(&(_, words)) = numbers.iter().find(|(name, _)| *name == expected) else {
        return format!("{path}{message}");
    };
    let value = found
        .split_once('`')
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(value, _)| value);
    let said = match value {
        Some(value) if found.ends_with("as u128") || found.ends_with("as i128") => {
            format!("{value} is too large: expected {words}")
        }
        Some(value) => format!("expected {words}, found {value}"),
        None => format!("{found}, expected {words}"),
    };
    format!("{path}{said}")
}

/// The first YAML tag (`!!binary`, `!custom`) in `text`, refused with its
/// place. A plain value can never start with `!` in YAML, so a `!` where a
/// value starts (after indentation, `- `, `: `, `[`, `{` or `, `) outside
/// quotes, comments and block scalars is a tag.
pub(crate) fn refuse_tags(text: &str) -> Result<(), Problem> {
    let mut block: Option<usize> = None;
    for (index, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        if let Some(parent) = block {
            if line.trim().is_empty() || indent > parent {
                continue;
            }
            block = None;
        }
        if let Some(column) = tag_in(line) {
            let tag: String = line[column..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !",]}".contains(*c))
                .collect();
            let message = format!(
                "YAML tags such as `{tag}` are not read: write the value itself, without \
                 the tag (quote it if it starts with `!`)"
            );
            return Err((index + 1, line[..column].chars().count() + 1, message));
        }
        let value = line.split(" #").next().unwrap_or(line).trim_end();
        let opens_block = value
            .trim_end_matches(|c: char| c == '-' || c == '+' || c.is_ascii_digit())
            .ends_with(['|', '>']);
        if opens_block {
            block = Some(indent);
        }
    }
    Ok(())
}

/// The byte column of a tag in one line, if any.
fn tag_in(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut value_starts = true;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '#' if previous.is_whitespace() => return None,
                '\'' | '"' if value_starts => quote = Some(c),
                '!' if value_starts => return Some(i),
                '[' | '{' | ',' => value_starts = true,
                '-' | '?' if value_starts => {}
                ':' => value_starts = line[i + 1..].starts_with(char::is_whitespace),
                c if c.is_whitespace() => {}
                _ => value_starts = false,
            },
        }
        previous = c;
    }
    None
}

/// Text that must say something (a title): for `deserialize_with`. Blank
/// text is refused where it is written.
pub(crate) fn non_blank<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    NonBlank::deserialize(deserializer).map(|text| text.0)
}

/// [`non_blank`] for a key that may be left out (with `#[serde(default)]`).
pub(crate) fn some_non_blank<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    non_blank(deserializer).map(Some)
}

struct NonBlank(String);

impl<'de> Deserialize<'de> for NonBlank {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl de::Visitor<'_> for Visitor {
            type Value = NonBlank;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<NonBlank, E> {
                if text.trim().is_empty() {
                    return Err(E::custom(
                        "it is empty: write some text, or leave the key out",
                    ));
                }
                Ok(NonBlank(text.to_string()))
            }
        }
        // Checking in the visitor lets serde_yaml attach the value's place.
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each syntax mistake an author makes is said as what to write, at
    /// the place the fix goes, never in the parser's words.
    #[test]
    fn syntax_mistakes_are_said_in_our_words_where_the_fix_goes() {
        let cases = [
            (
                "title: A\n\tkind: dice\n",
                (2, 1),
                "a tab: YAML indents with spaces only",
            ),
            (
                "title: a: b\n",
                (1, 9),
                "must be quoted: write `title: \"a: b\"`",
            ),
            (
                "title: A\n  kind: dice\n",
                (2, 3),
                "`kind` is indented under `title: A`",
            ),
            (
                "title: A\nkind dice\nx: 1\n",
                (2, 1),
                "`kind dice` is a key without its colon",
            ),
            (
                "title: \"A\nkind: dice\n",
                (1, 8),
                "this quote (\") is never closed",
            ),
            (
                "title: 'A\nkind: dice\n",
                (1, 8),
                "this quote (') is never closed",
            ),
            (
                "rolls: [1, 2\nkind: dice\n",
                (1, 8),
                "this list in brackets is not closed: end it with `]`",
            ),
            (
                "rolls: {a: 1\nkind: dice\n",
                (1, 8),
                "this mapping in brackets is not closed: end it with `}`",
            ),
            (
                "a:\n  b: 1\n c: 2\n",
                (3, 2),
                "expected a key here (`key: value`), lined up",
            ),
            ("title: A\n- b\n", (2, 1), "expected a key here"),
            (
                "title: A\nkind: x\ntitle: B\n",
                (3, 1),
                "the key `title` is written twice",
            ),
        ];
        // The translation never panics, wherever the parser says it is.
        for line in 0..5 {
            for column in 0..5 {
                for said in [
                    "mapping values are not allowed in this context",
                    "found unexpected end of stream, while scanning a quoted scalar at line 9 column 0",
                    "did not find expected ',' or ']', while parsing a flow sequence",
                    "could not find expected ':', while scanning a simple key at line 0 column 0",
                    "duplicate entry with key \"a\"",
                ] {
                    for text in ["", "a: 1", "a: 1\n  b: 2\n", "\t"] {
                        let _ = syntax(said, text, (line, column));
                    }
                }
            }
        }
        for (text, place, says) in cases {
            let err = serde_yaml::from_str::<serde_yaml::Value>(text).unwrap_err();
            let (line, column, message) = problem(&err, text);
            assert_eq!((line, column), place, "{text:?}: {message}");
            assert!(message.contains(says), "{text:?}: {message}");
            for parser_words in [
                "not allowed in this context",
                "while scanning",
                "while parsing",
                "stream",
            ] {
                assert!(!message.contains(parser_words), "{text:?}: {message}");
            }
        }
    }

    #[test]
    fn tags_are_refused_where_they_stand() {
        let cases = [
            ("title: !!binary aGVsbG8=\n", (1, 8, "!!binary")),
            ("a: 1\ntitle: !custom H\n", (2, 8, "!custom")),
            ("targets: [2, !x 3]\n", (1, 14, "!x")),
            ("rolls:\n  - !!str d6\n", (2, 5, "!!str")),
            ("!t\ntitle: x\n", (1, 1, "!t")),
            ("a: {b: !c d}\n", (1, 8, "!c")),
        ];
        for (text, (line, column, tag)) in cases {
            let (l, c, message) = refuse_tags(text).unwrap_err();
            assert_eq!((l, c), (line, column), "{text:?}");
            assert!(message.contains(&format!("`{tag}`")), "{message}");
        }
    }

    #[test]
    fn an_exclamation_mark_inside_a_value_is_no_tag() {
        for text in [
            "rolls: {a: 2d6!}\n",
            "a: 'x!y'\n",
            "a: \"!quoted\"\n",
            "a: '!quoted'\n",
            "a: x # comment !tag\n",
            "d: 6d10!10>=8\n",
            "text: |\n  !not a tag\n  - !still text\nnext: 1\n",
            "text: >-\n  !folded\n",
            "a: b!c\n",
        ] {
            assert_eq!(refuse_tags(text), Ok(()), "{text:?}");
        }
        // A tag after a block scalar ends is found.
        assert_eq!(refuse_tags("t: |\n  x\nu: !y z\n").unwrap_err().0, 3);
    }

    #[test]
    fn serdes_type_names_are_said_in_words() {
        let cases = [
            (
                "invalid type: integer `99999999999999999999` as u128, expected any YAML value",
                "99999999999999999999 is too large: expected a smaller number",
            ),
            (
                "invalid type: integer `-2`, expected u32",
                "expected a whole number from 0 to 4294967295, found -2",
            ),
            (
                "invalid value: integer `99999999999`, expected u32",
                "expected a whole number from 0 to 4294967295, found 99999999999",
            ),
            (
                "invalid type: floating point `-1.5`, expected i64",
                "expected a whole number from -9223372036854775808 to 9223372036854775807, \
                 found -1.5",
            ),
            ("unknown field `colour`", "unknown field `colour`"),
            (
                "players[1]: invalid type: integer `99999999999999999999` as u128, expected \
                 any YAML value",
                "players[1]: 99999999999999999999 is too large: expected a smaller number",
            ),
        ];
        for (serde, words) in cases {
            assert_eq!(in_words(serde), words);
        }
    }

    #[test]
    fn blank_text_is_refused_at_its_place() {
        #[derive(Deserialize, Debug)]
        struct T {
            #[serde(deserialize_with = "non_blank")]
            title: String,
        }
        let (line, column, message) = read::<T>("\ntitle: \"  \"\n").unwrap_err();
        assert_eq!((line, column), (2, 8));
        assert!(message.contains("it is empty"), "{message}");
        assert_eq!(read::<T>("title: x\n").unwrap().title, "x");
    }
}
