//! Translations (issue 31): a page of `content/_translations/<lang>/`
//! published under `<lang>/` with the source's numbers, its rules whose
//! source words changed since `translated_from` marked outdated on the page
//! and in `<lang>/rules.json`, the rules it lacks shown in the source's
//! language, `check` listing both; and every bad input refused at its place.

use crate::common::{fairdice, fixture, write};
use fairdice::build::{build, Project};
use serde_json::Value;
use std::fs;
use std::path::Path;

const SITE_FILE: &str = "language: en\ntranslations:\n  fr: Français\n";

const SOURCE: &str = "---\ntitle: Start\n---\n\
## The procedure {#procedure}\n\n\
Each player rolls two dice. {#roll}\n\n\
Players who tie roll again. {#ties}\n\n\
A round ends when one player is highest. {#rounds}\n";

const TRANSLATION: &str = "---\ntitle: Début\ntranslated_from: \"1.0.0\"\n---\n\
## La procédure {#procedure}\n\n\
Chaque joueur lance deux dés. {#roll}\n\n\
Les joueurs à égalité relancent. {#ties}\n";

/// A site with one numbered page, the French translation declared, no
/// release and no translation yet.
fn source_site() -> tempfile::TempDir {
    fixture(&[
        ("fairdice.yaml", SITE_FILE),
        ("content/_index.md", "---\ntitle: Home\n---\nHello.\n"),
        (
            "content/rules/_index.md",
            "---\ntitle: Rules\nnumbered: true\n---\n",
        ),
        ("content/rules/start.md", SOURCE),
    ])
}

/// A site with one numbered page, released as 1.0.0; then the source's
/// rule `roll` is edited, and the French translation (from 1.0.0) lacks
/// the rule `rounds`.
fn translated_site() -> tempfile::TempDir {
    let dir = source_site();
    let project = Project::at(dir.path());
    fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-15").unwrap();
    write(
        dir.path(),
        "content/rules/start.md",
        &SOURCE.replace("rolls two dice", "rolls three dice"),
    );
    write(
        dir.path(),
        "content/_translations/fr/rules/start.md",
        TRANSLATION,
    );
    build(&project).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn read(dir: &Path, path: &str) -> String {
    fs::read_to_string(dir.join("site").join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn an_edited_source_rule_is_outdated_in_rules_json_and_the_others_are_not() {
    let dir = translated_site();
    let json: Value = serde_json::from_str(&read(dir.path(), "fr/rules.json")).unwrap();
    let rule = |key: &str| &json["by_key"][key];
    assert_eq!(rule("roll")["outdated"], true);
    assert_eq!(rule("ties")["outdated"], false);
    assert_eq!(rule("procedure")["outdated"], false);
    assert_eq!(rule("rounds")["outdated"], false);
    assert_eq!(rule("rounds")["translated"], false);
    assert_eq!(rule("ties")["translated"], true);
    // The same numbers, the translated words, the French page's address.
    let english: Value = serde_json::from_str(&read(dir.path(), "rules.json")).unwrap();
    for key in ["procedure", "roll", "ties", "rounds"] {
        assert_eq!(
            rule(key)["number"],
            english["by_key"][key]["number"],
            "{key}"
        );
    }
    assert_eq!(rule("ties")["number"], "1.1.2");
    assert_eq!(rule("ties")["text"], "Les joueurs à égalité relancent.");
    assert_eq!(rule("ties")["url"], "fr/rules/start.html#ties");
    assert_eq!(json["by_number"]["1.1.2"]["key"], "ties");
    // The source's own rules.json keeps its shape and its words.
    assert!(english["by_key"]["ties"].get("outdated").is_none());
    assert_eq!(
        english["by_key"]["roll"]["text"],
        "Each player rolls three dice."
    );
}

#[test]
fn the_page_marks_the_outdated_rule_and_shows_the_missing_one_in_english() {
    let dir = translated_site();
    let page = read(dir.path(), "fr/rules/start.html");
    assert!(
        page.starts_with("<!DOCTYPE html>\n<html lang=\"fr\""),
        "{page}"
    );
    let rule = |key: &str| {
        let start = page.find(&format!("id=\"{key}\"")).unwrap();
        let end = start + page[start..].find("</p>").unwrap();
        page[start..end].to_string()
    };
    let roll = rule("roll");
    assert!(roll.contains(">1.1.1</a>"), "{roll}");
    assert!(
        roll.contains(
            "<a class=\"rule-outdated\" href=\"../../rules/start.html#roll\" hreflang=\"en\" \
             lang=\"en\" title=\"Each player rolls three dice.\">outdated: the English rule changed since \
             1.0.0</a> Chaque"
        ),
        "{roll}"
    );
    assert!(!rule("ties").contains("rule-outdated"));
    let rounds = rule("rounds");
    assert!(
        rounds.contains("lang=\"en\"")
            && rounds.contains("A round ends when one player is highest."),
        "{rounds}"
    );
    assert!(page.contains("Not yet translated: in English"));
    // hreflang both ways, and the switcher.
    let english = read(dir.path(), "rules/start.html");
    assert!(english
        .contains("<link rel=\"alternate\" hreflang=\"fr\" href=\"../fr/rules/start.html\">"));
    assert!(
        page.contains("<link rel=\"alternate\" hreflang=\"en\" href=\"../../rules/start.html\">")
    );
    assert!(
        page.contains("<a href=\"../../rules/start.html\" hreflang=\"en\" lang=\"en\">English</a>")
    );
    assert!(english
        .contains("<a href=\"../fr/rules/start.html\" hreflang=\"fr\" lang=\"fr\">Français</a>"));
    // Pages without a translation have no switcher.
    assert!(!read(dir.path(), "index.html").contains("hreflang"));
    // Each language searches its own pages.
    assert!(page.contains("<script src=\"../../fr/search-index.js\"></script>"));
    let french_index = read(dir.path(), "fr/search-index.js");
    assert!(french_index.contains("\"relancent\""), "{french_index}");
    assert!(!read(dir.path(), "search-index.js").contains("relancent"));
    assert!(crate::common::broken_links(&dir.path().join("site")).is_empty());
}

#[test]
fn a_cross_reference_in_a_translation_leads_to_the_rule_in_its_language() {
    let dir = translated_site();
    write(
        dir.path(),
        "content/rules/more.md",
        "---\ntitle: More\n---\nSee {{ rule(key=\"ties\") }}. {#more}\n",
    );
    write(
        dir.path(),
        "content/_translations/fr/rules/more.md",
        "---\ntitle: Plus\ntranslated_from: \"1.0.0\"\n---\nVoir {{ rule(key=\"ties\") }}. {#more}\n",
    );
    build(&Project::at(dir.path())).unwrap_or_else(|e| panic!("{e}"));
    let page = read(dir.path(), "fr/rules/more.html");
    assert!(
        page.contains("<a href=\"../../fr/rules/start.html#ties\">règle 2.1.2</a>"),
        "{page}"
    );
    let english = read(dir.path(), "rules/more.html");
    assert!(
        english.contains("<a href=\"../rules/start.html#ties\">rule 2.1.2</a>"),
        "{english}"
    );
    assert!(crate::common::broken_links(&dir.path().join("site")).is_empty());
}

#[test]
fn a_translated_glossary_marks_its_terms_in_its_language_only() {
    let dir = translated_site();
    write(
        dir.path(),
        "content/_translations/fr/_glossary.yaml",
        "- term: égalité\n  definition: Deux joueurs ou plus au même total.\n  rule: ties\n",
    );
    build(&Project::at(dir.path())).unwrap_or_else(|e| panic!("{e}"));
    let page = read(dir.path(), "fr/rules/start.html");
    assert!(
        page.contains(
            "aria-describedby=\"glossary-term\">égalité</button><span class=\"term-definition\" \
             id=\"glossary-term\" role=\"tooltip\" hidden>Deux joueurs ou plus au même total.</span>"
        ),
        "{page}"
    );
    assert!(!read(dir.path(), "rules/start.html").contains("class=\"term\""));
    write(
        dir.path(),
        "content/_translations/fr/_glossary.yaml",
        "- term: égalité\n  definition: x\n  rule: tie\n",
    );
    let said = build(&Project::at(dir.path())).unwrap_err().to_string();
    assert!(
        said.contains(
            "content/_translations/fr/_glossary.yaml:1:1: glossary: \"égalité\" points at rule \"tie\""
        ),
        "{said}"
    );
}

#[test]
fn with_a_base_url_hreflang_links_are_absolute() {
    let dir = translated_site();
    write(
        dir.path(),
        "fairdice.yaml",
        &format!("base_url: https://example.org/\n{SITE_FILE}"),
    );
    build(&Project::at(dir.path())).unwrap();
    let page = read(dir.path(), "fr/rules/start.html");
    assert!(page.contains(
        "<link rel=\"alternate\" hreflang=\"en\" href=\"https://example.org/rules/start.html\">"
    ));
}

#[test]
fn check_lists_outdated_and_missing_rules_and_fails_only_when_strict() {
    let dir = translated_site();
    let run = fairdice(&["check"], dir.path());
    let said = run.stderr_text();
    assert!(run.status.success(), "{said}");
    assert!(
        said.contains(
            "content/_translations/fr/rules/start.md:7:33: fr: rule 1.1.1 (roll) is outdated: \
             its source's words changed since release 1.0.0"
        ),
        "{said}"
    );
    assert!(
        said.contains("fr: 1 rule(s) of content/rules/start.md not translated, shown in the source's language: 1.1.3 (rounds)"),
        "{said}"
    );
    assert!(!said.contains("(ties) is outdated"), "{said}");
    let strict = fairdice(&["check", "--translations-strict"], dir.path());
    assert_eq!(strict.status.code(), Some(1), "{}", strict.stderr_text());
    assert!(strict
        .stderr_text()
        .contains("--translations-strict: 2 outdated or missing"));
}

/// The error a build of the translated site gives once `path` holds `text`.
fn refused(path: &str, text: &str) -> String {
    let dir = translated_site();
    write(dir.path(), path, text);
    match build(&Project::at(dir.path())) {
        Ok(_) => panic!("{path} was accepted"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn bad_translations_are_refused_at_their_place() {
    let said = refused("content/_translations/fr/rules/nope.md", TRANSLATION);
    assert!(
        said.contains(
            "content/_translations/fr/rules/nope.md: translates content/rules/nope.md, which does not exist"
        ),
        "{said}"
    );
    let said = refused(
        "content/_translations/fr/rules/start.md",
        &TRANSLATION.replace("{#ties}", "{#tie}"),
    );
    assert!(
        said.contains("content/_translations/fr/rules/start.md:9:")
            && said.contains("content/rules/start.md has no rule with the key \"tie\""),
        "{said}"
    );
    let said = refused(
        "content/_translations/fr/rules/start.md",
        &TRANSLATION.replace("1.0.0", "0.9.0"),
    );
    assert!(
        said.contains(
            "content/_translations/fr/rules/start.md:3:18: front matter: translated_from: \"0.9.0\" \
             is not a release of content/releases/"
        ) && said.contains("the releases are 1.0.0"),
        "{said}"
    );
    let said = refused("content/_translations/de/rules/start.md", TRANSLATION);
    assert!(
        said.contains(
            "content/_translations/de/rules/start.md: the language \"de\" is not declared in fairdice.yaml"
        ),
        "{said}"
    );
}

#[test]
fn sibling_bad_inputs_are_refused_too() {
    // A key written twice.
    let said = refused(
        "content/_translations/fr/rules/start.md",
        &TRANSLATION.replace("{#ties}", "{#roll}"),
    );
    assert!(
        said.contains("content/_translations/fr/rules/start.md:9:")
            && said.contains("the key \"roll\" is written twice in this translation"),
        "{said}"
    );
    // A rule without the source's key.
    let said = refused(
        "content/_translations/fr/rules/start.md",
        &TRANSLATION.replace(" {#ties}", ""),
    );
    assert!(said.contains("this translated rule has no key"), "{said}");
    // No front matter, so no release translated from.
    let said = refused(
        "content/_translations/fr/rules/start.md",
        "Bonjour. {#roll}\n",
    );
    assert!(
        said.contains(
            "content/_translations/fr/rules/start.md:1:1: a translation says which release"
        ),
        "{said}"
    );
    // A glossary for a language not declared.
    let said = refused(
        "content/_translations/es/_glossary.yaml",
        "- term: dado\n  definition: x\n",
    );
    assert!(
        said.contains("the language \"es\" is not declared"),
        "{said}"
    );
    // A scenario in a translation: numbers are never translated by hand.
    let said = refused(
        "content/_translations/fr/rules/roll.yaml",
        "title: x\nkind: sum-mod\ndice: d6\ntargets: [2]\n",
    );
    assert!(said.contains("only pages (.md) and the glossary"), "{said}");
    // translated_from on a page that is not a translation.
    let said = refused(
        "content/rules/start.md",
        &SOURCE.replace(
            "title: Start\n",
            "title: Start\ntranslated_from: \"1.0.0\"\n",
        ),
    );
    assert!(
        said.contains(
            "content/rules/start.md:3:18: front matter: translated_from: only a translation"
        ),
        "{said}"
    );
    // A content file where a language's index goes.
    let said = refused("content/fr/rules.json", "{}\n");
    assert!(
        said.contains("content/fr/rules.json:1:1: writes the same file fr/rules.json")
            && said.contains("a name the build keeps for itself: rename content/fr/rules.json"),
        "{said}"
    );
    // The site's own language as a translation.
    let said = refused(
        "fairdice.yaml",
        "language: en\ntranslations:\n  en: English\n",
    );
    assert!(
        said.contains("fairdice.yaml:3:3: translations: \"en\" is the site's own language"),
        "{said}"
    );
}

// Issue 39: language codes are one language in any capitals, listed once
// and never the site's own; a bad site file is its own error alone; a
// translations folder inside another is said to be one.
#[test]
fn language_codes_are_compared_case_aside_and_listed_once() {
    for (site_file, said) in [
        (
            "translations:\n  fr: Français\n  FR: Français\n",
            "fairdice.yaml:3:3: translations: \"FR\" is listed twice (as \"fr\" above; capitals \
             aside, a tag names one language): list each language once",
        ),
        (
            "translations:\n  fr: Français\n  de: Deutsch\n  fr: Franglais\n",
            "fairdice.yaml:4:3: translations: \"fr\" is listed twice (as \"fr\" above; capitals \
             aside, a tag names one language): list each language once",
        ),
        (
            "language: en\ntranslations:\n  EN: English\n",
            "fairdice.yaml:3:3: translations: \"EN\" is the site's own language (`language: \
             en`): list only the languages the pages are translated into",
        ),
        (
            "language: en\ntranslations:\n  fr: Français\ncolour: red\n",
            "fairdice.yaml:4:1: unknown field `colour`, expected one of `title`, `base_url`, \
             `language`, `repository`, `branch`, `translations`",
        ),
    ] {
        // The whole error: no translation is said to be undeclared
        // because the site file did not load.
        assert_eq!(refused("fairdice.yaml", site_file), said, "{site_file}");
    }
    assert_eq!(
        refused("content/_translations/FR/rules/start.md", TRANSLATION),
        "content/_translations/FR/rules/start.md: the folder FR/ is the language fairdice.yaml \
         declares as \"fr\": name the folder content/_translations/fr/ as the language is \
         declared"
    );
    assert_eq!(
        refused("content/_translations/EN/rules/start.md", TRANSLATION),
        "content/_translations/EN/rules/start.md: \"EN\" is the site's own language (`language: \
         en`): its pages are the sources in content/"
    );
    assert_eq!(
        refused(
            "content/_translations/fr/_translations/fr/rules/start.md",
            TRANSLATION
        ),
        "content/_translations/fr/_translations/fr/rules/start.md:1:1: a translations folder \
         inside another: content/_translations/fr/ holds the pages of content/ in fr, each at \
         its own path, and no page of content/ is below _translations/; move this file into its \
         language's folder, content/_translations/<lang>/, or remove it"
    );
}

// Issue 39: the first release can be made with translations in place that
// name it; they are checked against its snapshot by the build after it.
#[test]
fn a_translation_from_the_release_being_made_does_not_block_it() {
    let dir = source_site();
    write(
        dir.path(),
        "content/_translations/fr/rules/start.md",
        TRANSLATION,
    );
    let run = fairdice(
        &["release", "1.0.0", "--effective", "2026-01-15", "-q"],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    let snapshot = fs::read_to_string(dir.path().join("content/releases/1.0.0.json")).unwrap();
    let snapshot: Value = serde_json::from_str(&snapshot).unwrap();
    let keys: Vec<&str> = (snapshot["rules"].as_array().unwrap().iter())
        .map(|rule| rule["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["procedure", "roll", "ties", "rounds"]);
    build(&Project::at(dir.path())).unwrap_or_else(|e| panic!("{e}"));
    assert!(read(dir.path(), "fr/rules/start.html").contains("Chaque joueur lance deux dés."));
    // A translation from a release still to come is refused as before.
    write(
        dir.path(),
        "content/_translations/fr/rules/start.md",
        &TRANSLATION.replace("1.0.0", "1.1.0"),
    );
    let run = fairdice(&["release", "1.0.1", "-q"], dir.path());
    assert_eq!(run.status.code(), Some(1), "{}", run.stderr_text());
    assert!(
        run.stderr_text().contains(
            "content/_translations/fr/rules/start.md:3:18: front matter: translated_from: \
             \"1.1.0\" is not a release of content/releases/"
        ),
        "{}",
        run.stderr_text()
    );
}

/// Loads `search.js` in node with a stand-in document, and prints how it
/// splits the query given.
const QUERY_HARNESS: &str = r#"const fs = require("fs");
const src = fs.readFileSync(process.argv[2], "utf8");
function el() { return { hidden: true, children: [], textContent: "", className: "", style: {},
  addEventListener() {}, appendChild(c) { this.children.push(c); return c; }, setAttribute() {}, getAttribute() { return ""; },
  removeAttribute() {}, querySelectorAll() { return []; }, focus() {}, classList: { add() {}, remove() {} } }; }
const els = {};
global.document = { getElementById(id) { return els[id] || (els[id] = el()); }, createElement: el,
  createTextNode(t) { return { text: t }; }, documentElement: el(), addEventListener() {} };
global.window = { FAIRDICE_SEARCH: JSON.parse(process.argv[3]), location: { search: "" }, addEventListener() {} };
global.location = window.location;
const wrapped = src.replace(/^\(function \(\) \{/m, "(function () { global.__t = function (q) { return queryWords(q); };");
eval(wrapped);
console.log(JSON.stringify(global.__t(process.argv[4])));
"#;

/// search.js cuts Chinese and Japanese queries into the pairs of
/// characters the index holds (search.rs's `words`, unit-tested on the
/// same text). Skipped without node.
#[test]
fn search_js_cuts_queries_as_the_index_does() {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("node not found: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let harness = dir.path().join("harness.js");
    fs::write(&harness, QUERY_HARNESS).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/assets/search.js");
    let out = std::process::Command::new("node")
        .arg(&harness)
        .arg(&script)
        .arg(r#"{"pages":[],"sections":[],"terms":{}}"#)
        .arg("掷骰子决定先手。Dé 子 サイコロを振る2回")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let words: Vec<String> = serde_json::from_str(said.trim())
        .unwrap_or_else(|_| panic!("{said}{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(
        words,
        [
            "掷骰", "骰子", "子决", "决定", "定先", "先手", "dé", "子", "サイ", "イコ", "コロ",
            "ロを", "を振", "振る", "2", "回"
        ]
    );
}

#[test]
fn a_translated_page_frames_its_words_in_its_own_language() {
    let dir = translated_site();
    build(&Project::at(dir.path())).unwrap_or_else(|e| panic!("{e}"));
    let page = read(dir.path(), "fr/rules/start.html");
    // The page and the menus, tools and footer around it are French (from
    // templates/i18n/fr.yaml), so nothing in the frame is marked English.
    assert!(page.contains("<html lang=\"fr\""), "{page:.400}");
    for frame in [
        "<header class=\"top\">",
        "<nav class=\"sidebar\" id=\"site-nav\" aria-label=\"Site\">",
        "<footer class=\"bottom\">Fait avec fairdice",
    ] {
        assert!(page.contains(frame), "{frame}");
    }
    let english = read(dir.path(), "rules/start.html");
    assert!(english.contains("<header class=\"top\">"), "{english:.400}");
    assert!(english.contains("<footer class=\"bottom\">Built with fairdice"));
}
