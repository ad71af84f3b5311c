//! The flow reader's tests: every text checked against serde_yaml's own
//! answer. Apart because they are a quarter of the module.

use super::*;
use serde::Deserialize;

/// What serde_yaml makes of `text` as the value of a key in a file
/// (`key: text`, as a form's value is written), and what this module
/// makes of it, as serde_yaml's own value type.
fn both(text: &str) -> (Option<serde_yaml::Value>, Option<serde_yaml::Value>) {
    let theirs = serde_yaml::from_str::<serde_yaml::Mapping>(&format!("key: {text}"))
        .ok()
        .and_then(|mut file| file.remove("key"));
    let ours = read(text)
        .ok()
        .map(|node| to::<serde_yaml::Value>(&node).expect("every node is a YAML value"));
    (theirs, ours)
}

#[test]
fn one_line_values_read_as_serde_yaml_reads_them() {
    let accepted = [
        "5",
        "-3",
        "+7",
        "0x1f",
        "-0o17",
        "0b101",
        "0123",
        "1.5",
        "-2e3",
        ".inf",
        "-.Inf",
        "~",
        "null",
        "true",
        "False",
        "2..6",
        "2d6",
        "4d6kh3 + 2",
        "1d20+5 >= 15",
        "max(1d6 1d8)",
        "a:b",
        "a#b",
        "a # a comment",
        "\"11/20\"",
        "'it''s'",
        "\"tab\\there \\u00e9 \\x41 \\\\ \\\" \\/\"",
        "[2d6, 1d6]",
        "[]",
        "[a, b,]",
        "[ a ,b ]",
        "[[1, 2], [3]]",
        "[a: 1, b]",
        "{}",
        "{a: 1, b: [x, \"y: z\"]}",
        "{a}",
        "{a: }",
        "{a: , b: 2}",
        "{a:b}",
        "[a:1]",
        "{\"a\":1}",
        "{3: [33700, 33500, 32800]}",
        "{from: observed/games.yaml, seat: 1}",
        "{4d6kh3: 4d6kh3, \"max(1d6, 1d8) + 2\": \"max(1d6, 1d8) + 2\"}",
        "{a: {b: {c: [1, {d: e}]}}}",
        "  [1, 2]  ",
        "",
    ];
    for text in accepted {
        let (theirs, ours) = both(text);
        assert!(theirs.is_some(), "serde_yaml refuses {text:?}");
        assert_eq!(ours, theirs, "{text:?}");
    }
    let refused = [
        "[a, b",
        "{a: 1",
        "\"open",
        "'open",
        "[a] b",
        "a: b",
        "- a",
        "[a, , b]",
        "{a: 1, a: 2}",
        "[1 2]x",
        "\"\\q\"",
        "]",
        "}",
        "{a:}",
        "{a:, b: 2}",
        "[a:]",
        "{: a}",
        "[a,#]",
    ];
    for text in refused {
        assert!(read(text).is_err(), "{text:?} is read");
        let (theirs, _) = both(text);
        assert!(theirs.is_none(), "serde_yaml reads {text:?}: {theirs:?}");
    }
    // Tags, anchors and aliases are refused with the fix, as in files.
    for (text, says) in [
        ("!!binary aGk=", "YAML tags such as `!!binary`"),
        ("&a 2", "anchors and aliases"),
        ("[*a]", "anchors and aliases"),
        ("|", "block of text"),
    ] {
        let err = read(text).unwrap_err();
        assert!(err.message.contains(says), "{text:?}: {}", err.message);
    }
}

#[test]
fn mistakes_are_placed_where_the_fix_goes() {
    let err = read("[2d6, 1d6").unwrap_err();
    assert_eq!(err.column, 1);
    assert!(err
        .message
        .starts_with("this list in brackets is not closed"));
    let err = read("{a: \"x}").unwrap_err();
    assert_eq!(err.column, 5);
    assert!(err.message.contains("quote (\") is never closed"));
    let err = read("{a: 1, a: 2}").unwrap_err();
    assert_eq!(err.column, 8);
    assert_eq!(
        err.message,
        "the key `a` is written twice: keep one of them"
    );
    let deep = "[".repeat(10_000);
    assert!(read(&deep)
        .unwrap_err()
        .message
        .contains("nested more than"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
    /// Any short text of YAML's punctuation and words: what this module
    /// reads, serde_yaml reads as the same value. (It may refuse what
    /// serde_yaml reads only where the text holds a tag, anchor or
    /// alias, or a key that is not a single word.)
    #[test]
    fn never_reads_what_serde_yaml_reads_otherwise(
        text in "[a1 ,:\\[\\]{}\"'#.~-]{0,14}"
    ) {
        let (theirs, ours) = both(&text);
        if ours.is_some() {
            proptest::prop_assert_eq!(ours, theirs, "{:?}", text);
        }
    }

    /// Values made of lists, maps and words read back as themselves
    /// through [`text`] and the writer of lists and maps.
    #[test]
    fn written_words_read_back(words in proptest::collection::vec("[ -~]{0,8}", 0..4)) {
        let written: Vec<String> = words.iter().map(|w| text(w)).collect();
        let list = format!("[{}]", written.join(", "));
        let node = read(&list).unwrap();
        let read_back: Vec<String> = to(&node).unwrap();
        proptest::prop_assert_eq!(&read_back, &words);
        let theirs: Vec<String> = serde_yaml::from_str(&list).unwrap();
        proptest::prop_assert_eq!(&theirs, &words);
    }
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Shape {
    count: u32,
    name: String,
    #[serde(default)]
    ratio: Option<f64>,
    items: Vec<i64>,
    nested: std::collections::BTreeMap<String, Vec<u8>>,
}

/// A typed read takes what serde_yaml takes and refuses what it
/// refuses, with the same message and key path.
#[test]
fn typed_values_get_serde_yamls_answers_and_messages() {
    let cases = [
        "{count: 3, name: 7, items: [1, -2], nested: {a: [1]}}",
        "{count: 3, name: x, ratio: 0.5, items: [], nested: {}}",
        "{count: \"3\", name: x, items: [], nested: {}}",
        "{count: -1, name: x, items: [], nested: {}}",
        "{count: 4294967296, name: x, items: [], nested: {}}",
        "{count: 99999999999999999999999, name: x, items: [], nested: {}}",
        "{count: 3, name: [x], items: [], nested: {}}",
        "{count: 3, name: x, items: [1, b], nested: {}}",
        "{count: 3, name: x, items: [], nested: {a: [1, 300]}}",
        "{count: 3, name: x, items: []}",
        "{count: 3, name: x, items: [], nested: {}, extra: 1}",
        "{count: 3, name: x, items: 5, nested: {}}",
        "{count: true, name: x, items: [], nested: {}}",
        "{count: 1.5, name: x, items: [], nested: {}}",
        "{count: ~, name: x, items: [], nested: {}}",
        "[1, 2]",
    ];
    for text in cases {
        let theirs = serde_yaml::from_str::<Shape>(text).map_err(|e| {
            // Without the place serde_yaml adds (a form has no lines).
            let said = e.to_string();
            said.split(" at line ").next().unwrap_or(&said).to_string()
        });
        let ours = to::<Shape>(&read(text).unwrap()).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{text}");
    }
    let err =
        to::<Shape>(&read("{count: 3, name: x, items: [1, b], nested: {}}").unwrap()).unwrap_err();
    assert_eq!(err.key(), Some("items"));
    let err = to::<Shape>(&read("{count: 3, name: x, items: []}").unwrap()).unwrap_err();
    assert_eq!(err.key(), None);
}

#[test]
fn text_is_plain_only_where_it_reads_back() {
    for (written, expected) in [
        ("2d6", "2d6"),
        ("4d6kh3 + 2", "4d6kh3 + 2"),
        ("12", "\"12\""),
        ("true", "\"true\""),
        ("", "\"\""),
        ("a, b", "\"a, b\""),
        ("a: b", "\"a: b\""),
        ("-", "\"-\""),
        (" x", "\" x\""),
        ("it's", "\"it's\""),
    ] {
        assert_eq!(text(written), expected);
    }
}
