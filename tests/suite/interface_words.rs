//! The interface in the page's language (issue 41 item 4): a translated
//! page's frame (skip link, search, tools, navigation, footer), its rule
//! marks, callouts, tables and numbers come from `templates/i18n/<lang>.yaml`
//! and the language's number and date rules; its sidebar, breadcrumbs and
//! pager stand in its source's place; `check` names every interface word a
//! language lacks, and a language with no catalogue at all.

use crate::common::{fairdice, fixture, write};
use fairdice::build::{build, Project};
use std::fs;

const SITE_FILE: &str = "language: en\ntranslations:\n  fr: Français\n";

/// A site of two numbered pages with a scenario, released as 1.0.0 on
/// 2026-01-01; the first page translated into French, with a figure, a
/// table, a callout and a cross-reference.
fn site() -> tempfile::TempDir {
    let dir = fixture(&[
        ("fairdice.yaml", SITE_FILE),
        ("content/_index.md", "---\ntitle: Home\n---\nHello.\n"),
        (
            "content/rules/_index.md",
            "---\ntitle: Rules\nnumbered: true\n---\n",
        ),
        (
            "content/rules/start.md",
            "---\ntitle: Start\nweight: 1\n---\nEach player rolls two dice. {#roll}\n\n\
             ## The cost {#cost .commentary}\n\nTies cost time.\n",
        ),
        (
            "content/rules/end.md",
            "---\ntitle: End\nweight: 2\n---\nThe game ends. {#end}\n",
        ),
        (
            "content/w.yaml",
            "title: Who starts\nkind: first-player\nplayers: 2..3\ndice: [2d6]\nties: [reroll-all]\n",
        ),
    ]);
    let project = Project::at(dir.path());
    fairdice::rulebook::publish::release(&project, "1.0.0", "2026-01-01").unwrap();
    write(
        dir.path(),
        "content/_translations/fr/rules/start.md",
        "---\ntitle: Début\ntranslated_from: \"1.0.0\"\n---\n\
         Chaque joueur lance deux dés. {#roll}\n\n\
         ## Le coût {#cost .commentary}\n\n\
         Égalité avec une probabilité d'environ \
         {{ value(scenario=\"w\", path=\"cases.0.p_tie_first_round\") }}, \
         soit {{ value(scenario=\"w\", path=\"cases.0.p_tie_first_round\", format=\"fraction\") }} \
         ({{ rule(key=\"end\") }}).\n\n\
         > [!TIP]\n> Relancer est équitable.\n\n\
         {{ table(scenario=\"w\", id=\"fastest\") }}\n\n\
         {{ chart(scenario=\"w\", id=\"tie\") }}\n",
    );
    build(&project).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn read(dir: &tempfile::TempDir, path: &str) -> String {
    fs::read_to_string(dir.path().join("site").join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn a_french_page_is_french_around_its_words() {
    let dir = site();
    let page = read(&dir, "fr/rules/start.html");
    for french in [
        ">Aller au contenu</a>",
        "placeholder=\"Rechercher (touche /)\"",
        ">Tout imprimer</a>",
        ">Thème sombre</button>",
        "Règles 1.0.0, en vigueur le 1er janvier 2026",
        ">Sur cette page</h2>",
        "Fait avec fairdice",
        ">historique</a>",
        "<p class=\"callout-title\">Conseil</p>",
        "Afficher les fractions exactes",
        "CSV avec les valeurs exactes et décimales",
        ">Tableau des données</a>",
        // A point's tooltip, in the axis's words and the page's numbers.
        "<title>2 joueurs, 2d6: 73/648 ≈ 11,2654\u{202f}%</title>",
        "D&#39;après <a href=",
        ">règle 2.1</a>",
        // 73/648 ≈ 0.112654, with a decimal comma.
        "environ 0,112654, soit 73/648",
    ] {
        assert!(page.contains(french), "{french} not in the French page");
    }
    // No frame word left in English, and no frame marked as English.
    for english in [
        "Skip to the content",
        "Print all",
        "On this page",
        "Built with fairdice",
        ">history<",
        "Show exact fractions",
    ] {
        assert!(
            !page.contains(english),
            "{english} still in the French page"
        );
    }
    assert!(
        !page.contains("lang=\"en\"><a"),
        "a part of the frame is marked English"
    );
    // The scripts read the page's words.
    assert!(page.contains("data-words=\"{&quot;computed&quot;:&quot;Calculé exactement"));
    // The table's decimals (648/575 ≈ 1.12696) take the decimal comma,
    // their exact fractions and attributes are untouched.
    assert!(
        page.contains("<span class=\"shown\">1,12696</span><span class=\"exact\">648/575</span>")
    );
    // The English page keeps its words and its points.
    let english = read(&dir, "rules/start.html");
    assert!(english.contains(">Skip to the content</a>"));
    assert!(english.contains("Rules 1.0.0, effective 2026-01-01"));
}

#[test]
fn a_french_page_stands_in_its_sources_place_in_the_navigation() {
    let dir = site();
    let page = read(&dir, "fr/rules/start.html");
    // The sidebar marks it current, linking to itself.
    assert!(
        page.contains("<a href=\"start.html\" aria-current=\"page\">Start</a>"),
        "{}",
        &page[page.find("class=\"sidebar\"").unwrap_or(0)..]
    );
    // Breadcrumbs from the home page down to its section.
    assert!(page.contains("aria-label=\"Fil d&#39;Ariane\""));
    assert!(page.contains("<a href=\"../../rules/index.html\">Rules</a>"));
    // The pager leads on to the source's next page.
    assert!(
        page.contains("rel=\"next\"><span>Suivant</span>End</a>"),
        "no pager"
    );
}

#[test]
fn check_names_the_words_a_language_lacks() {
    let dir = site();
    // A project's own French catalogue that lacks two words.
    let french = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/i18n/fr.yaml"),
    )
    .unwrap();
    let lacking: String = french
        .lines()
        .filter(|l| {
            !["  next:", "  contents:", "  players:"]
                .iter()
                .any(|k| l.starts_with(k))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    write(dir.path(), "templates/i18n/fr.yaml", &lacking);
    let run = fairdice(&["build"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let run = fairdice(&["check"], dir.path());
    let said = run.stderr_text();
    assert!(
        said.contains("templates/i18n/fr.yaml: fr: 2 interface word(s) not translated, shown in English: contents, next"),
        "{said}"
    );
    // A figure's words the catalogue lacks, at the shortcode showing it.
    assert!(
        said.contains(
            "content/_translations/fr/rules/start.md:14:1: fr: the table \"fastest\" of w is \
             shown with 1 English word(s): \"players\"; add them under figures: in \
             templates/i18n/fr.yaml"
        ),
        "{said}"
    );
    // The missing word is shown in English, the others in French.
    let page = read(&dir, "fr/rules/start.html");
    assert!(
        page.contains("<span>Next</span>End"),
        "the English word is not shown"
    );
    assert!(page.contains(">Aller au contenu</a>"));
    // A language declared with no catalogue at all.
    write(
        dir.path(),
        "fairdice.yaml",
        "language: en\ntranslations:\n  fr: Français\n  de: Deutsch\n",
    );
    let said = fairdice(&["check"], dir.path()).stderr_text();
    assert!(
        said.contains("templates/i18n/de.yaml: de: no catalogue of the interface's words"),
        "{said}"
    );
}

#[test]
fn a_bad_catalogue_is_refused_at_its_place() {
    let dir = site();
    write(
        dir.path(),
        "templates/i18n/fr.yaml",
        "words:\n  next: [Suivant\n",
    );
    let run = fairdice(&["build"], dir.path());
    assert_eq!(run.status.code(), Some(1));
    let said = run.stderr_text();
    assert!(said.contains("templates/i18n/fr.yaml:"), "{said}");
}
