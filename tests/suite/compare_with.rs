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
