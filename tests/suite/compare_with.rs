//! `compare_with` on a seat-advantage scenario: the page links to the
//! first-player scenario by its title, and a name that leads nowhere, or to
//! another kind, fails the build with the file and key, the site untouched.

use crate::common::{broken_links, fairdice, fixture, write};
use std::fs;

fn site(compare_with: &str) -> tempfile::TempDir {
    fixture(&[
        ("content/_index.md", "---\ntitle: Home\n---\nHi.\n"),
        (
            "content/rules/start.yaml",
            "title: Who starts\nkind: first-player\nplayers: 3\ndice: [d6]\nties: [reroll-tied]\n",
        ),
        (
            "content/rules/sum.yaml",
            "title: Sum\nkind: sum-mod\ndice: d6\ntargets: 2\n",
        ),
        (
            "content/logs/games.yaml",
            &format!(
                "title: Games\nkind: seat-advantage\nwins: {{3: [12, 7, 5]}}\ncompare_with: {compare_with}\n"
            ),
        ),
    ])
}

#[test]
fn the_page_links_to_the_first_player_scenario() {
    let dir = site("rules/start");
    let run = fairdice(&["build"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    let page = fs::read_to_string(dir.path().join("site/logs/games.html")).unwrap();
    assert!(
        page.contains(
            "decided by the procedure on the page <a href=\"../rules/start.html\">Who starts</a>, \
             which gives each player&#39;s exact chance"
        ),
        "{page}"
    );
    assert_eq!(broken_links(&dir.path().join("site")), Vec::<String>::new());
}

// Item: the rule's expected share against what the games show. The
// first-player page's exact chance to go first is quoted for each number
// of players it models; a number of players it does not model is said so.
#[test]
fn the_page_quotes_the_rules_chance_against_the_games() {
    let dir = site("rules/start");
    write(
        dir.path(),
        "content/logs/games.yaml",
        "title: Games\nkind: seat-advantage\nwins: {3: [12, 7, 5], 5: [3, 2, 2, 2, 1]}\n\
         compare_with: rules/start\n",
    );
    write(
        dir.path(),
        "content/rules/start.yaml",
        "title: Who starts\nkind: first-player\nplayers: [2, 3]\ndice: [d6, 2d6]\n\
         ties: [reroll-tied, reroll-all]\n",
    );
    let run = fairdice(&["build"], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    let page = fs::read_to_string(dir.path().join("site/logs/games.html")).unwrap();
    // Four cases of 3 players, all quoting 1/3 for each player.
    assert!(
        page.contains(
            "<p>Games of 3 players: the rule gives each player the same chance to go first, \
             1/3, so over many games each player holds each place in turn order equally often \
             and can expect 1/3 of the wins, however much going first is worth. In these games \
             the player who went first won 50\u{a0}% (12 of 24) against the 1/3 every player can \
             expect under the rule.</p>"
        ),
        "{page}"
    );
    assert!(
        page.contains(
            "<p>Games of 5 players: the rule&#39;s page does not model 5 players, so it says \
             nothing of these games.</p>"
        ),
        "{page}"
    );
    // What the rule's own page says: every player of every 3-player case
    // 1/3, so the quote is the rule's figure, not this page's fair share.
    let rule: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(dir.path().join("site/rules/start.json")).unwrap(),
    )
    .unwrap();
    let threes: Vec<&serde_json::Value> = rule["results"]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|case| case["players"] == 3)
        .collect();
    assert_eq!(threes.len(), 4);
    for case in threes {
        assert_eq!(case["p_first"], serde_json::json!(["1/3", "1/3", "1/3"]));
    }
}

#[test]
fn a_name_that_leads_nowhere_fails_the_build() {
    for (name, message) in [
        (
            "rules/nowhere",
            "content/logs/games.yaml:4:15: compare_with: no scenario \"rules/nowhere\" in content/",
        ),
        (
            "rules/sum",
            "content/logs/games.yaml:4:15: compare_with: \"rules/sum\" is a sum-mod scenario; \
             name a first-player one",
        ),
        (
            "rules/start.yaml",
            "name the first-player scenario by its path under content/ without .yaml",
        ),
    ] {
        // Built once with a good name, then broken: the site stays as it was.
        let dir = site("rules/start");
        assert_eq!(fairdice(&["build"], dir.path()).status.code(), Some(0));
        let page = dir.path().join("site/logs/games.html");
        let before = fs::read_to_string(&page).unwrap();
        let scenario = fs::read_to_string(dir.path().join("content/logs/games.yaml")).unwrap();
        let broken = scenario.replace(
            "compare_with: rules/start",
            &format!("compare_with: {name}"),
        );
        write(dir.path(), "content/logs/games.yaml", &broken);
        let run = fairdice(&["build"], dir.path());
        assert_eq!(run.status.code(), Some(1), "{name}: {}", run.stderr_text());
        assert!(
            run.stderr_text().contains(message),
            "{name}: {}",
            run.stderr_text()
        );
        assert_eq!(fs::read_to_string(&page).unwrap(), before);
    }
    // A bad name is reported at its line.
    let dir = site("rules/start.yaml");
    let run = fairdice(&["build"], dir.path());
    assert!(
        run.stderr_text().contains("content/logs/games.yaml:4:"),
        "{}",
        run.stderr_text()
    );
}

// A single-file report has no other scenario to link or quote: it names
// the rule's scenario and is written (it failed with "no scenario").
#[test]
fn a_report_names_the_rule_it_cannot_link() {
    let dir = site("rules/start");
    let run = fairdice(
        &["report", "content/logs/games.yaml", "-o", "games.html"],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr_text());
    let report = fs::read_to_string(dir.path().join("games.html")).unwrap();
    assert!(
        report.contains("decided by the procedure on the page “rules/start”, which gives"),
        "{report}"
    );
    assert!(!report.contains("Games of 3 players"), "{report}");
}
