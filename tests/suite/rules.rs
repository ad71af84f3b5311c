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

/// Issue 41, item 7a: a rule whose figures two scenarios give has two
/// links a reader tells apart, each labelled by its scenario's title; a
/// rule with one keeps the short "figures".
#[test]
fn a_rules_figures_links_each_say_which_figures() {
    let dir = rules_site();
    write(
        dir.path(),
        "content/rules/more.yaml",
        &SCENARIO
            .replace("Sums", "More sums")
            .replace(", banish-die", ""),
    );
    build::build(&Project::at(dir.path())).unwrap();
    let start = read(dir.path(), "rules/start.html");
    let opening = start
        .split("id=\"roll\">")
        .nth(1)
        .and_then(|rest| rest.split("Each player").next())
        .unwrap();
    let labels: Vec<&str> = opening
        .split("class=\"rule-figures\"")
        .skip(1)
        .map(|link| &link[link.find('>').unwrap() + 1..link.find("</a>").unwrap()])
        .collect();
    assert_eq!(labels, ["figures: More sums", "figures: Sums"], "{opening}");
    let cards = read(dir.path(), "rules/cards.html");
    assert!(cards.contains("title=\"Sums\">figures</a>"), "{cards}");
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

/// Two `release` commands at once (issue 27): the project's lock makes
/// the second read what the first wrote, so exactly one records 1.0.0 and
/// the other is told it is not newer; before, both checked the same latest
/// release and both wrote.
#[test]
fn two_releases_at_once_do_not_both_write() {
    let dir = rules_site();
    let project = Project::at(dir.path());
    let results: Vec<_> = std::thread::scope(|scope| {
        let runs: Vec<_> = (0..2)
            .map(|_| {
                scope
                    .spawn(|| fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-15"))
            })
            .collect();
        runs.into_iter().map(|run| run.join().unwrap()).collect()
    });
    let refused: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().err().map(ToString::to_string))
        .collect();
    assert_eq!(refused.len(), 1, "{results:?}");
    assert!(
        refused[0].contains("release 1.0.0 is not newer than the latest release, 1.0.0"),
        "{}",
        refused[0]
    );
}

/// Temporaries of a release (issue 27): one left by a killed release and
/// one a running release is writing are never published; the next release
/// removes the stale one and leaves the running one's alone.
#[test]
fn release_temporaries_are_never_published_and_stale_ones_are_swept() {
    let dir = rules_site();
    let project = Project::at(dir.path());
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let ended = child.id();
    child.wait().unwrap();
    let stale = format!("content/releases/1.0.0.json.tmp-{ended}-0");
    let running = "content/releases/1.0.0.json.tmp-1-0";
    write(dir.path(), &stale, "{\"half\": ");
    write(dir.path(), running, "{\"half\": ");
    build::build(&project).unwrap();
    let published: Vec<_> = snapshot(&dir.path().join("site"))
        .into_iter()
        .filter(|(path, _)| path.to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(published.is_empty(), "{published:?}");
    fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-15").unwrap();
    assert!(!dir.path().join(&stale).exists());
    assert!(dir.path().join(running).exists());
    build::build(&project).unwrap();
    assert!(dir.path().join("site/releases/1.0.0.json").is_file());
    assert!(!dir.path().join("site/releases/1.0.0.json.tmp-1-0").exists());
}

/// A scenario a release names that the site no longer has (issue 27): the
/// release's page shows its figures unlinked; before, the build failed with
/// a broken link at content/releases/1.1.0.md, a file that does not exist.
#[test]
fn a_scenario_removed_since_a_release_is_shown_unlinked() {
    let dir = rules_site();
    let project = Project::at(dir.path());
    fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-15").unwrap();
    let first = fs::read_to_string(dir.path().join("content/releases/1.0.0.json")).unwrap();
    let mut second: Value = serde_json::from_str(&first).unwrap();
    second["version"] = "1.1.0".into();
    second["figures"][0]["scenario"] = "rules/gone".into();
    second["figures"][0]["title"] = "Gone".into();
    write(
        dir.path(),
        "content/releases/1.1.0.json",
        &serde_json::to_string_pretty(&second).unwrap(),
    );
    build::build(&project).unwrap();
    let page = read(dir.path(), "releases/1.1.0.html");
    assert!(page.contains("<tr><td>Gone</td>"), "{page}");
    assert!(!page.contains("gone.html"), "{page}");
}

/// Two releases of a fixture's rules: the second inserts a rule above
/// others (renumbering them), rewords one and deletes one. The change page
/// says so rule by rule, matched by key; the history keeps every version.
#[test]
fn two_releases_show_what_changed_rule_by_rule() {
    let dir = rules_site();
    let project = Project::at(dir.path());
    fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-15").unwrap();
    let first = fs::read_to_string(dir.path().join("content/releases/1.0.0.json")).unwrap();
    // The snapshot is deterministic: a second run writes the same bytes.
    fs::remove_file(dir.path().join("content/releases/1.0.0.json")).unwrap();
    fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-15").unwrap();
    assert_eq!(
        fs::read_to_string(dir.path().join("content/releases/1.0.0.json")).unwrap(),
        first
    );
    let edited = START
        .replace(
            "## Dice {#dice}\n\n",
            "## Dice {#dice}\n\nBring your own dice. {#own-dice}\n\n",
        )
        .replace("rolls two dice", "rolls three dice")
        .replace("- everyone rolls again {#reroll-all}\n", "");
    write(dir.path(), "content/rules/start.md", &edited);
    // Before the next release, the edited and the new rules say so, and
    // nothing else does.
    build::build(&project).unwrap();
    let start = read(dir.path(), "rules/start.html");
    let unreleased = |what: &str| {
        format!(
            "<span class=\"rule-unreleased\" title=\"Not in a release yet: the words differ \
             from release 1.0.0\">{what} since 1.0.0</span>"
        )
    };
    assert_eq!(start.matches(&unreleased("edited")).count(), 1, "{start}");
    // New: own-dice, and the two keyless rules below it, whose derived
    // keys followed their numbers (start.1.3, start.1.3a).
    assert_eq!(start.matches(&unreleased("new")).count(), 3, "{start}");
    let roll = &start[start.find("id=\"roll\"").unwrap()..];
    assert!(
        roll[..roll.find("</p>").unwrap()].contains(&unreleased("edited")),
        "{roll}"
    );
    // A rule whose cross-reference now reads another number has other
    // words too, as the release's changes will say.
    let cards = read(dir.path(), "rules/cards.html");
    assert_eq!(cards.matches("rule-unreleased").count(), 1, "{cards}");
    let banish = &cards[cards.find("id=\"banish-die\"").unwrap()..];
    assert!(banish.contains(&unreleased("edited")), "{banish}");
    fairdice::rulebook::publish::release(&project, "1.1.0", "2026-03-01").unwrap();
    build::build(&project).unwrap();

    let page = read(dir.path(), "releases/1.1.0.html");
    for expected in [
        "Release 1.1.0, effective 2026-03-01. Changes since release 1.0.0",
        "<dt id=\"own-dice\"><a href=\"../rules/start.html#own-dice\">Rule 1.1.1</a> (added)",
        "<dt id=\"roll\"><a href=\"../rules/start.html#roll\">Rule 1.1.2</a> (renumbered and reworded)",
        "was rule 1.1.1, now rule 1.1.2. Each player rolls <del class=\"word\">two</del><ins class=\"word\">three</ins> dice.",
        "<dt id=\"reroll-all\">Rule 1.1.2a (removed)",
        // A rule without a key is known by its number: it cannot be followed.
        "Rule 1.1.3</a> (added) <code>start.1.3</code>",
        "<dt id=\"start.1.2\">Rule 1.1.2 (removed) <code>start.1.2</code>",
    ] {
        assert!(page.contains(expected), "{expected}\n{page}");
    }
    assert!(
        !page.contains("<dt id=\"dice\""),
        "unchanged rules are not listed\n{page}"
    );
    let first_page = read(dir.path(), "releases/1.0.0.html");
    assert!(
        first_page.contains("The first release: 7 rules and the headline figures of 1 scenario."),
        "{first_page}"
    );

    let history = read(dir.path(), "releases/history.html");
    for expected in [
        "<dd>1.0.0: added as rule 1.1.1: Each player rolls two dice.</dd>\n<dd>1.1.0: was rule 1.1.1, now rule 1.1.2. ",
        "<dt id=\"reroll-all\">reroll-all (no longer in the rules)</dt>\n<dd>1.0.0: added as rule 1.1.2a: everyone rolls again</dd>\n<dd>1.1.0: removed (was rule 1.1.2a)</dd>",
    ] {
        assert!(history.contains(expected), "{expected}\n{history}");
    }
    let start = read(dir.path(), "rules/start.html");
    assert!(
        start.contains(
            "<a class=\"rule-changed\" href=\"../releases/1.1.0.html#roll\">changed in 1.1.0</a>"
        ),
        "{start}"
    );
    assert!(!start.contains("releases/1.1.0.html#dice\""), "{start}");
    assert!(!start.contains("rule-unreleased"), "{start}");
    assert!(read(dir.path(), "index.html").contains("Rules 1.1.0, effective 2026-03-01</a>"));
    let json: Value = serde_json::from_str(&read(dir.path(), "rules.json")).unwrap();
    assert_eq!(json["release"]["version"], "1.1.0");
    assert_eq!(json["by_key"]["roll"]["changed_in"], "1.1.0");
    assert_eq!(json["by_key"]["dice"]["changed_in"], "1.0.0");
    assert!(crate::common::broken_links(&dir.path().join("site")).is_empty());

    // Not newer than the latest: refused, naming the latest's file and line.
    let err = fairdice::rulebook::publish::release(&project, "1.0.9", "2026-03-02")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "content/releases/1.1.0.json:2:3: release 1.0.9 is not newer than the latest release, \
         1.1.0: pick a version after it (such as 1.1.1)"
    );
}

#[test]
fn a_snapshot_that_does_not_parse_fails_and_leaves_the_site() {
    let dir = rules_site();
    let project = Project::at(dir.path());
    fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-15").unwrap();
    build::build(&project).unwrap();
    let before = snapshot(&dir.path().join("site"));
    for (text, expected) in [
        (
            "{\n  \"version\": \"1.0.0\",\n  \"effective\": 5\n}\n",
            "content/releases/1.0.0.json:3:16: release snapshot does not parse: invalid type: integer `5`, expected a string; snapshots",
        ),
        (
            "{\"version\": \"1.0\", \"effective\": \"2026-01-01\", \"rules\": [], \"figures\": []}",
            "content/releases/1.0.0.json:1:2: version \"1.0\" is not MAJOR.MINOR.PATCH",
        ),
        (
            "{\"version\": \"1.0.0\", \"effective\": \"2026-02-30\", \"rules\": [], \"figures\": []}",
            "content/releases/1.0.0.json:1:22: effective date \"2026-02-30\" is not a date",
        ),
        (
            "{\"version\": \"1.0.0\", \"effective\": \"+202-+1-+1\", \"rules\": [], \"figures\": []}",
            "content/releases/1.0.0.json:1:22: effective date \"+202-+1-+1\" is not a date",
        ),
    ] {
        write(dir.path(), "content/releases/1.0.0.json", text);
        let err = build::build(&project).unwrap_err().to_string();
        assert!(err.starts_with(expected), "{expected}\n{err}");
        assert!(snapshot(&dir.path().join("site")) == before);
    }
}

/// Whether `tool` is on the PATH; when it is not, the test is skipped with
/// a notice, except under CI=true, where a missing tool is a failure.
fn have(tool: &str, package: &str) -> bool {
    let found = std::process::Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{tool} is missing: install Debian's {package}"
        );
        eprintln!("notice: {tool} not found (Debian package {package}); skipping the PDF test");
    }
    found
}

/// The text of `pdf` in `dir`, one string per page (`pdftotext -layout`).
fn pdf_pages(dir: &Path, pdf: &str) -> Vec<String> {
    let text = std::process::Command::new("pdftotext")
        .args(["-layout", pdf, "-"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(text.status.success(), "{text:?}");
    let text = String::from_utf8_lossy(&text.stdout);
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_string).collect();
    // pdftotext ends the last page with a form feed too.
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    pages
}

// Issue 29, item 8: `fairdice pdf` prints the rule book (rules and
// glossary), `--all` the whole site; contents with the pages where the
// pages really start, bookmarks, the release on every page, nothing
// screen-only.
#[test]
fn the_pdf_prints_the_rule_book_with_page_numbers_bookmarks_and_the_release() {
    if !have("chromium", "chromium") || !have("pdftotext", "poppler-utils") {
        return;
    }
    let dir = rules_site();
    write(
        dir.path(),
        "content/_glossary.yaml",
        "- term: die\n  definition: A cube with pips on its faces.\n  rule: roll\n",
    );
    write(
        dir.path(),
        "content/elsewhere.md",
        "---\ntitle: Elsewhere\n---\nPress / on any page to search. Words of no rule.\n",
    );
    fairdice::rulebook::publish::release(&Project::at(dir.path()), "1.0.0", "2026-01-15").unwrap();
    let run = fairdice(&["pdf", "-o", "rules.pdf", "--quiet"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let pages = pdf_pages(dir.path(), "rules.pdf");
    let text = pages.join("\n");
    for expected in [
        "Contents",
        "1.1 Dice",
        "1.1.1 ",
        "Each player rolls two dice.",
        "1.1.2a ",
        "2.1.1 ",
        "A cube with pips on its faces.",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    // Nothing screen-only: the scenario's links to its data.
    for absent in [
        "Words of no rule",
        "Press /",
        "Data table",
        "rules/start.html",
        "each table links its CSV",
        "Scenario rules/sums.yaml",
    ] {
        assert!(!text.contains(absent), "{absent}\n{text}");
    }
    // The release and the page number on every page.
    let count = pages.len();
    for (i, page) in pages.iter().enumerate() {
        for expected in [
            "Rules 1.0.0, effective 2026-01-15".to_string(),
            format!("Page {} of {count}", i + 1),
        ] {
            assert!(
                page.contains(&expected),
                "page {}: {expected}\n{page}",
                i + 1
            );
        }
    }
    // Issue 41, item 3: each page in the contents carries its rule number
    // (the number its rules start with; none for a page without rules, not
    // its place in the list) and starts on the page the contents give it.
    let mut listed = 0;
    for (rule, title) in [
        (None, "Rules"),
        (Some("1"), "Start"),
        (Some("2"), "Cards"),
        (None, "Sums"),
        (None, "Glossary"),
    ] {
        let line = pages[0]
            .lines()
            .find(|l| {
                let words: Vec<&str> = l.split_whitespace().rev().take(2).collect();
                words.len() == 2 && words[1] == title && words[0].parse::<usize>().is_ok()
            })
            .unwrap_or_else(|| panic!("{title} not in the contents\n{}", pages[0]));
        let words: Vec<&str> = line.split_whitespace().collect();
        let expected: Vec<&str> = rule.into_iter().chain([title]).collect();
        assert_eq!(words[..words.len() - 1], expected, "{line}");
        let number: usize = words.last().unwrap().parse().unwrap();
        let page = &pages[number - 1];
        let first = page.lines().find(|l| !l.trim().is_empty()).unwrap();
        assert_eq!(first.trim(), title, "page {number}\n{page}");
        listed += 1;
    }
    assert_eq!(listed, 5);
    // Bookmarks, made from the headings.
    let bytes = fs::read(dir.path().join("rules.pdf")).unwrap();
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    for bookmark in [&b"/Outlines"[..], b"/Title (Start)", b"/Title (Glossary)"] {
        assert!(has(bookmark), "{}", String::from_utf8_lossy(bookmark));
    }

    let run = fairdice(&["pdf", "--all", "-o", "all.pdf", "--quiet"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let all = pdf_pages(dir.path(), "all.pdf").join("\n");
    for expected in ["Words of no rule", "Each player rolls two dice.", "Home."] {
        assert!(all.contains(expected), "{expected}\n{all}");
    }
    assert!(pages.len() < pdf_pages(dir.path(), "all.pdf").len());
}

#[test]
fn a_site_without_rules_prints_only_with_all() {
    if !have("chromium", "chromium") || !have("pdftotext", "poppler-utils") {
        return;
    }
    let dir = fixture(&[("content/_index.md", "---\ntitle: Home\n---\nHome.\n")]);
    let run = fairdice(&["pdf", "-o", "site.pdf"], dir.path());
    assert_eq!(run.status.code(), Some(1), "{}", run.stderr_text());
    assert!(
        run.stderr_text().contains("fairdice pdf --all"),
        "{}",
        run.stderr_text()
    );
    assert!(!dir.path().join("site.pdf").exists());
    let run = fairdice(&["pdf", "--all", "-o", "site.pdf", "--quiet"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let text = pdf_pages(dir.path(), "site.pdf").join("\n");
    assert!(text.contains("Rules not yet released"), "{text}");
}

#[test]
fn glossary_terms_are_defined_on_first_use_and_listed() {
    let dir = rules_site();
    write(
        dir.path(),
        "content/_glossary.yaml",
        "- term: die\n  definition: A cube <with> faces & pips.\n  aliases: [dice]\n  rule: roll\n\
         - term: tie\n  definition: Equal top totals.\n  aliases: [ties, tied]\n",
    );
    build::build(&Project::at(dir.path())).unwrap();
    let start = read(dir.path(), "rules/start.html");
    // A button described by the definition: screen readers say both.
    let mark = "<span class=\"term\"><button type=\"button\" class=\"term-word\" \
                aria-describedby=\"glossary-term\">dice</button><span class=\"term-definition\" \
                id=\"glossary-term\" role=\"tooltip\" hidden>A cube &lt;with&gt; faces &amp; \
                pips.</span></span>";
    assert_eq!(start.matches("class=\"term\"").count(), 2, "{start}");
    assert!(
        start.contains(&format!("Each player rolls two {mark}.")),
        "{start}"
    );
    assert!(
        start.contains(
            "aria-describedby=\"glossary-term-2\">Ties</button><span class=\"term-definition\" \
             id=\"glossary-term-2\" role=\"tooltip\" hidden>Equal top totals.</span></span> are \
             settled"
        ),
        "{start}"
    );
    // Not in headings: "Dice" stays plain there.
    assert!(start.contains("</span> Dice<a class=\"anchor\""), "{start}");
    let glossary = read(dir.path(), "glossary.html");
    assert!(
        glossary.contains("<dt id=\"term-die\"><dfn>die</dfn></dt>\n<dd>A cube &lt;with&gt; faces &amp; pips. Also: dice. See <a href=\"rules/start.html#roll\">rule 1.1.1</a>.</dd>"),
        "{glossary}"
    );
    // The search index holds the words of the page, not the definitions:
    // those are found once, on the glossary page (page 1 of the index).
    let index = read(dir.path(), "search-index.js");
    assert!(index.contains("Each player rolls two dice"), "{index}");
    assert_eq!(index.matches("A cube").count(), 1, "{index}");
    assert!(
        index.contains("[1,\"\",\"\",\"Glossary die A cube"),
        "{index}"
    );

    let before = snapshot(&dir.path().join("site"));
    write(
        dir.path(),
        "content/_glossary.yaml",
        "- term: die\n  definition: A cube.\n- term: tie\n  definition: Equal.\n  rule: nope\n",
    );
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("content/_glossary.yaml:3:1: glossary: \"tie\" points at rule \"nope\", which no rule has"),
        "{err}"
    );
    assert!(snapshot(&dir.path().join("site")) == before);
}

/// The glossary terms marked on a page, as `words=definition`.
fn marks(html: &str) -> Vec<String> {
    html.split("class=\"term-word\"")
        .skip(1)
        .map(|m| {
            let words = &m[m.find('>').unwrap() + 1..m.find("</button>").unwrap()];
            let definition = m.split(" hidden>").nth(1).unwrap().split("</span>").next();
            format!("{words}={}", definition.unwrap())
        })
        .collect()
}

#[test]
fn a_term_is_marked_where_it_carries_its_sense_or_where_the_author_links_it() {
    let dir = rules_site();
    write(
        dir.path(),
        "content/_glossary.yaml",
        "- term: reroll\n  definition: Rolling again on a face that names no card.\n  \
         scope: [rules/cards.md]\n\
         - term: tie\n  definition: Equal top totals.\n  aliases: [ties]\n  scope: [rules/]\n\
         - term: stage\n  definition: One banishment of several.\n  auto: false\n",
    );
    write(
        dir.path(),
        "content/games.md",
        "---\ntitle: Games\n---\nA game may end in a tie; a reroll of the dice, one stage \
         after another. Here [a reroll](term:Reroll) means the card sense, and \
         [the second stage](term:stage) too.\n",
    );
    build::build(&Project::at(dir.path())).unwrap();
    // Out of their scope "tie" and "reroll" are left plain; the linked
    // words are marked, "stage" only where linked.
    assert_eq!(
        marks(&read(dir.path(), "games.html")),
        [
            "a reroll=Rolling again on a face that names no card.",
            "the second stage=One banishment of several."
        ]
    );
    assert_eq!(
        marks(&read(dir.path(), "rules/start.html")),
        ["Ties=Equal top totals."]
    );
    let ids = read(dir.path(), "games.html");
    assert!(ids.contains("id=\"glossary-term-2\""), "{ids}");

    // A link to no term, in a heading, and a scope of no page: each an
    // error at its place, and the site is left as it was.
    let before = snapshot(&dir.path().join("site"));
    write(
        dir.path(),
        "content/games.md",
        "---\ntitle: Games\n---\n## A [tie](term:tie)\n\nThe [stages](term:stag) go.\n",
    );
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "content/games.md:4:6: [tie](term:tie) marks no glossary term: a glossary term is \
             marked in running text, not in a heading"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "content/games.md:6:5: [stages](term:stag) marks no glossary term: the nearest terms \
             are stage, tie, ties"
        ),
        "{err}"
    );
    assert!(snapshot(&dir.path().join("site")) == before);
    write(
        dir.path(),
        "content/games.md",
        "---\ntitle: Games\n---\nFine.\n",
    );
    write(
        dir.path(),
        "content/_glossary.yaml",
        "- term: tie\n  definition: Equal.\n  scope: [rules/start.md, rule/]\n",
    );
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "content/_glossary.yaml:1:1: glossary: the scope of \"tie\" names \"rule/\", which is \
             no page or folder of content/"
        ),
        "{err}"
    );
    assert!(snapshot(&dir.path().join("site")) == before);
}

#[test]
fn pdf_without_chromium_names_the_package() {
    let dir = rules_site();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_fairdice"))
        .args(["pdf", "-o", "rules.pdf"])
        .current_dir(dir.path())
        .env("PATH", dir.path())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("install Debian's `chromium` package"),
        "{stderr}"
    );
    assert!(!dir.path().join("rules.pdf").exists());
}

#[test]
fn subfolders_of_a_numbered_section_are_numbered_on_from_its_pages() {
    let dir = fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHome.\n"),
        ("content/rules/_index.md", INDEX),
        ("content/rules/start.md", START),
        ("content/rules/cards.md", CARDS),
        (
            "content/rules/advanced/_index.md",
            "---\ntitle: Advanced\nweight: 3\n---\nMore rules.\n",
        ),
        (
            "content/rules/advanced/timing.md",
            "---\ntitle: Timing\n---\nPlay in turn order.\n",
        ),
        // A numbered folder inside a numbered section belongs to it: no
        // second chapter 1.
        (
            "content/rules/variants/_index.md",
            "---\ntitle: Variants\nweight: 4\nnumbered: true\n---\nVariants.\n",
        ),
        (
            "content/rules/variants/timing.md",
            "---\ntitle: Timing\n---\nPlay in any order.\n",
        ),
        // A folder whose name merely starts like the section's is not in it.
        (
            "content/rules-old/old.md",
            "---\ntitle: Old\n---\nNot a rule.\n",
        ),
    ]);
    build::build(&Project::at(dir.path())).unwrap();
    let json: Value = serde_json::from_str(&read(dir.path(), "rules.json")).unwrap();
    let advanced = &json["by_key"]["advanced-timing.1"];
    let variants = &json["by_key"]["variants-timing.1"];
    assert_eq!(advanced["text"], "Play in turn order.", "{json}");
    assert_eq!(variants["text"], "Play in any order.", "{json}");
    let mut numbers = [
        advanced["number"].as_str().unwrap(),
        variants["number"].as_str().unwrap(),
    ];
    numbers.sort();
    assert_eq!(numbers, ["3.1", "4.1"], "{json}");
    assert_eq!(json["by_key"]["roll"]["number"], "1.1.1");
    let keys = json["by_key"].as_object().unwrap();
    assert!(keys.keys().all(|k| !k.starts_with("old")), "{json}");
    let timing = read(dir.path(), "rules/advanced/timing.html");
    assert!(
        timing.contains("<p class=\"rule\" id=\"advanced-timing.1\">"),
        "{timing}"
    );
}

/// Issue 27: ids that slug alike, or that the templates already use, never
/// meet on a page: glossary terms and a scenario's roll headings are told
/// apart, a rule key of the template's is refused, and a heading that
/// meets a glossary term is an error with its place.
#[test]
fn ids_that_slug_alike_or_belong_to_the_template_never_meet() {
    let dir = rules_site();
    write(
        dir.path(),
        "content/_glossary.yaml",
        "- term: a b\n  definition: One.\n- term: a-b\n  definition: Two.\n- term: A_B\n  definition: Three.\n",
    );
    write(
        dir.path(),
        "content/rolls.yaml",
        "title: Rolls\nkind: dice\nrolls:\n  a: d6\n  A: d6\n  \"a \": d6\n  a!: d6\n",
    );
    build::build(&Project::at(dir.path())).unwrap();
    let glossary = read(dir.path(), "glossary.html");
    for id in ["term-a-b", "term-a-b-2", "term-a-b-3"] {
        assert!(
            glossary.contains(&format!("<dt id=\"{id}\">")),
            "{id}: {glossary}"
        );
    }
    let rolls = read(dir.path(), "rolls.html");
    for id in ["\"a-d6\"", "\"a-d6-2\"", "\"a-d6-3\"", "\"a-d6-4\""] {
        assert_eq!(rolls.matches(&format!(" id={id}")).count(), 1, "{id}");
    }

    let before = snapshot(&dir.path().join("site"));
    for (key, text) in [
        ("main", "main"),
        ("theme-toggle", "theme-toggle"),
        ("search-input", "search-input"),
    ] {
        write(
            dir.path(),
            "content/rules/extra.md",
            &format!("---\ntitle: Extra\nnumbered: true\n---\n## Extra\n\nA rule. {{#{key}}}\n"),
        );
        let err = build::build(&Project::at(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!(
                "rule key \"{text}\" is already an id on this page"
            )),
            "{err}"
        );
    }
    fs::remove_file(dir.path().join("content/rules/extra.md")).unwrap();
    write(
        dir.path(),
        "content/glossary.md",
        "---\ntitle: Glossary\n---\n## Term a b\n\n{{ glossary() }}\n",
    );
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("content/glossary.md:4:1: the id \"term-a-b\" is given twice on this page"),
        "{err}"
    );
    assert!(snapshot(&dir.path().join("site")) == before);
}

/// Issue 27: a term's first use in an image's alt text put markup into
/// `alt`; letter case was ignored for ASCII only; `{{ glossary() }}`
/// without a glossary rendered nothing, without a word.
#[test]
fn terms_skip_alt_text_fold_any_letter_case_and_need_a_glossary_to_list() {
    let dir = rules_site();
    write(
        dir.path(),
        "content/_glossary.yaml",
        "- term: élan\n  definition: Dash.\n- term: die\n  definition: A cube.\n",
    );
    write(
        dir.path(),
        "content/style.md",
        "---\ntitle: Style\n---\n![a die with Élan](pic.png)\n\nPlayed with Élan and a die.\n",
    );
    write(dir.path(), "content/pic.png", "\u{89}PNG");
    build::build(&Project::at(dir.path())).unwrap();
    let page = read(dir.path(), "style.html");
    assert!(page.contains("alt=\"a die with Élan\""), "{page}");
    assert!(
        page.contains("Played with <span class=\"term\"><button type=\"button\" class=\"term-word\" aria-describedby=\"glossary-term\">Élan</button>"),
        "{page}"
    );

    fs::remove_file(dir.path().join("content/_glossary.yaml")).unwrap();
    write(
        dir.path(),
        "content/terms.md",
        "---\ntitle: Terms\n---\nAll of them:\n\n{{ glossary() }}\n",
    );
    let before = snapshot(&dir.path().join("site"));
    let err = build::build(&Project::at(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("content/terms.md:6:1: glossary(): this site has no glossary to list"),
        "{err}"
    );
    assert!(snapshot(&dir.path().join("site")) == before);
}

/// Release snapshots hold each figure's exact value beside the one shown
/// (issue 26, item 3): a change in rounding or wording is no changed
/// figure, a changed exact value is; and a snapshot of the first format,
/// `[label, shown]` only, still reads and compares by what it showed.
#[test]
fn releases_compare_figures_by_their_exact_values() {
    let dir = rules_site();
    let project = Project::at(dir.path());
    fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-15").unwrap();
    fairdice::rulebook::publish::release(&project, "1.1.0", "2026-03-01").unwrap();
    let path = dir.path().join("content/releases/1.0.0.json");
    let first: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let figures = &first["figures"][0]["figures"];
    // The first case's distance, and the second case's outcomes: each
    // case repeats the labels.
    let exact =
        serde_json::json!({"label": "Total variation distance", "shown": "0", "exact": "0/1"});
    assert_eq!(figures[3], exact);
    assert_eq!(
        figures[5],
        serde_json::json!({"label": "Total outcomes", "shown": "216", "exact": "216"})
    );
    let changed = |edit: &dyn Fn(&mut Value)| {
        let mut old = first.clone();
        edit(&mut old["figures"][0]["figures"]);
        fs::write(&path, serde_json::to_string_pretty(&old).unwrap()).unwrap();
        build::build(&project).unwrap();
        let page = read(dir.path(), "releases/1.1.0.html");
        page.find("<tbody>\n<tr>")
            .map(|at| page[at..page.find("</tbody>").unwrap()].to_string())
    };
    // Shown otherwise, the same exact values: nothing changed.
    let reshown = |figures: &mut Value| {
        for figure in figures.as_array_mut().unwrap() {
            figure["shown"] = format!("about {}", figure["shown"].as_str().unwrap()).into();
        }
    };
    assert_eq!(changed(&reshown), None);
    // The same figures in the first format, shown strings only: as they
    // showed, nothing changed.
    let first_format = |figures: &mut Value| {
        for figure in figures.as_array_mut().unwrap() {
            *figure = serde_json::json!([figure["label"], figure["shown"]]);
        }
    };
    assert_eq!(changed(&first_format), None);
    // A changed exact value is a changed figure, shown as it showed.
    let rival = |figures: &mut Value| {
        figures[3]["exact"] = "1/2".into();
        figures[3]["shown"] = "0.5".into();
    };
    assert_eq!(
        changed(&rival).unwrap(),
        "<tbody>\n<tr><td><a href=\"../rules/sums.html\">Sums</a></td>\
         <td>Total variation distance</td><td>0.5</td><td>0</td></tr>\n"
    );
}

/// Issue 39: a rule book is bounded; the first rule past the limit is
/// named, and the site is left as it was.
#[test]
fn a_rule_book_past_its_limit_is_refused_at_the_first_rule_over() {
    let dir = rules_site();
    let mut many = String::from("---\ntitle: Many\nweight: 3\n---\n");
    for i in 0..50_000 {
        many.push_str(&format!("- item {i}\n"));
    }
    write(dir.path(), "content/rules/many.md", &many);
    let run = fairdice(&["build"], dir.path());
    let stderr = run.stderr_text();
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("content/rules/many.md:")
            && stderr.contains("a rule book has at most 50000 numbered rules"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("at most 50000").count(), 1, "{stderr}");
    assert!(!dir.path().join("site").exists());
}
