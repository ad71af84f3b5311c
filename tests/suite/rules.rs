//! Numbered rules end to end: numbers, keys and anchors on the pages,
//! cross-references, rules linked to the scenarios that measure them,
//! `rules.json`, and the bad inputs that must fail with file and line while
//! the site stays as it was.

use crate::common::{fairdice, fixture, snapshot, write};
use fairdice::build::{self, Project};
use serde_json::Value;
use std::fs;
use std::path::Path;

const INDEX: &str = "---\ntitle: Rules\nnumbered: true\n---\nThe rules.\n";
const START: &str = "---\ntitle: Start\nweight: 1\n---\n\
## Dice {#dice}\n\n\
Each player rolls two dice. {#roll}\n\n\
Ties are settled so:\n\n\
- everyone rolls again {#reroll-all}\n\
- only the tied roll again\n";
const CARDS: &str = "---\ntitle: Cards\nweight: 2\n---\n\
## Banishing {#banish}\n\n\
Banish with one die, as {{ rule(key=\"roll\") }} says. {#banish-die}\n";
const SCENARIO: &str =
    "title: Sums\nkind: sum-mod\ndice: d6\ntargets: [2, 3]\nrules: [roll, banish-die]\n";

fn rules_site() -> tempfile::TempDir {
    fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHome.\n"),
        ("content/rules/_index.md", INDEX),
        ("content/rules/start.md", START),
        ("content/rules/cards.md", CARDS),
        ("content/rules/sums.yaml", SCENARIO),
    ])
}

fn read(dir: &Path, path: &str) -> String {
    fs::read_to_string(dir.join("site").join(path)).unwrap()
}

#[test]
fn rules_are_numbered_keyed_and_cross_referenced() {
    let dir = rules_site();
    build::build(&Project::at(dir.path())).unwrap();
    let start = read(dir.path(), "rules/start.html");
    for expected in [
        "<h2 id=\"dice\"><span class=\"rule-number\">1.1</span>",
        "<p class=\"rule\" id=\"roll\"><a class=\"rule-number\" href=\"#roll\">1.1.1</a>",
        "<p class=\"rule\" id=\"start.1.2\"><a class=\"rule-number\" href=\"#start.1.2\">1.1.2</a>",
        "<li class=\"rule\" id=\"reroll-all\"><a class=\"rule-number\" href=\"#reroll-all\">1.1.2a</a>",
        "<li class=\"rule\" id=\"start.1.2b\">",
        "title=\"Sums\">figures</a>",
    ] {
        assert!(start.contains(expected), "{expected}\n{start}");
    }
    assert!(!start.contains("{#"), "{start}");
    let cards = read(dir.path(), "rules/cards.html");
    assert!(
        cards.contains("as <a href=\"../rules/start.html#roll\">rule 1.1.1</a> says."),
        "{cards}"
    );
    assert!(cards.contains("<h2 id=\"banish\"><span class=\"rule-number\">2.1</span>"));
    let scenario = read(dir.path(), "rules/sums.html");
    assert!(
        scenario.contains("<a href=\"../rules/start.html#roll\">rule 1.1.1</a>, <a href=\"../rules/cards.html#banish-die\">rule 2.1.1</a>"),
        "{scenario}"
    );
    let json: Value = serde_json::from_str(&read(dir.path(), "rules.json")).unwrap();
    let rule = &json["by_number"]["2.1.1"];
    assert_eq!(rule["key"], "banish-die");
    assert_eq!(rule["title"], "Banishing");
    assert_eq!(rule["text"], "Banish with one die, as rule 1.1.1 says.");
    assert_eq!(rule["url"], "rules/cards.html#banish-die");
    assert_eq!(json["by_key"]["reroll-all"]["number"], "1.1.2a");
    assert_eq!(json["by_key"]["reroll-all"]["title"], "Dice");
    assert_eq!(
        read(dir.path(), "rules/start.md"),
        START.split("---\n").nth(2).unwrap()
    );
    assert!(crate::common::broken_links(&dir.path().join("site")).is_empty());
}

#[test]
fn inserting_a_rule_renumbers_but_keeps_keys_and_references() {
    let dir = rules_site();
    write(
        dir.path(),
        "content/rules/start.md",
        &START.replace(
            "## Dice {#dice}\n\n",
            "## Dice {#dice}\n\nA new first rule. {#new}\n\n",
        ),
    );
    build::build(&Project::at(dir.path())).unwrap();
    let cards = read(dir.path(), "rules/cards.html");
    assert!(
        cards.contains("<a href=\"../rules/start.html#roll\">rule 1.1.2</a>"),
        "{cards}"
    );
    let json: Value = serde_json::from_str(&read(dir.path(), "rules.json")).unwrap();
    assert_eq!(json["by_key"]["roll"]["number"], "1.1.2");
    assert_eq!(json["by_key"]["reroll-all"]["number"], "1.1.3a");
}

#[test]
fn check_warns_about_rules_without_keys() {
    let dir = rules_site();
    build::build(&Project::at(dir.path())).unwrap();
    let run = fairdice(&["check"], dir.path());
    let stderr = run.stderr_text();
    assert!(run.status.success(), "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 2, "{stderr}");
    assert!(
        warnings[0].starts_with(
            "warning: content/rules/start.md:9:1: rule 1.1.2 has no key, so it is known as \"start.1.2\""
        ),
        "{stderr}"
    );
}

/// Each bad input fails the build with its place, and leaves the site as
/// it was.
#[test]
fn bad_rules_fail_with_their_place_and_leave_the_site() {
    let cases: [(&str, &str, &str); 5] = [
        (
            "content/rules/cards.md",
            "---\ntitle: Cards\n---\nSee {{ rule(key=\"nope\") }}.\n",
            "content/rules/cards.md:4:5: rule(...): no rule has the key \"nope\"",
        ),
        (
            "content/rules/cards.md",
            "---\ntitle: Cards\n---\nAgain. {#roll}\n",
            "content/rules/cards.md:4:10: rule 2.1 has the key \"roll\", which rule 1.1.1 already has (content/rules/start.md:7:31)",
        ),
        (
            "content/rules/cards.md",
            "---\ntitle: Cards\n---\nTwo keys. {#a} {#b}\n",
            "content/rules/cards.md:4:13: this rule has two keys, {#a} and {#b}",
        ),
        (
            "content/rules/cards.md",
            "---\ntitle: Cards\n---\nBad. {#a<b}\n",
            "content/rules/cards.md:4:8: rule key \"a<b\" may only hold",
        ),
        (
            "content/rules/sums.yaml",
            "title: Sums\nkind: sum-mod\ndice: d6\ntargets: [2]\nrules: [roll, gone]\n",
            "content/rules/sums.yaml:5:15: rules: no rule has the key \"gone\"",
        ),
    ];
    let dir = rules_site();
    build::build(&Project::at(dir.path())).unwrap();
    let before = snapshot(&dir.path().join("site"));
    for (file, text, expected) in cases {
        let original = fs::read_to_string(dir.path().join(file)).unwrap();
        write(dir.path(), file, text);
        let err = build::build(&Project::at(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(err.contains(expected), "{expected}\n{err}");
        assert!(snapshot(&dir.path().join("site")) == before, "{file}");
        write(dir.path(), file, &original);
    }
}
