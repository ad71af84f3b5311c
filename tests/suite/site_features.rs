//! Site features end to end on fixture projects: math, callouts, the print
//! page, the search index and single-file reports.

use crate::common::{broken_links, fixture};
use fairdice::build::{self, Project};
use std::fs;
use std::path::Path;

const TEN_DICE: &str = "title: Ten targets\nkind: sum-mod\ndice: d6\ntargets: [2, 10]\n";

fn site_files() -> Vec<(&'static str, &'static str)> {
    vec![
        ("content/_index.md", "---\ntitle: Home\n---\nWelcome to the tables.\n"),
        ("content/dice/_index.md", "---\ntitle: Dice\nweight: 2\n---\nSection text.\n"),
        ("content/dice/ten.yaml", TEN_DICE),
        (
            "content/dice/method.md",
            "---\ntitle: Method\nweight: 1\n---\n# Method\n\nA bin is $t \\mod n$ and\n\n$$\nP(v) = \\frac{1}{n}\n$$\n\nA bet of \\$5 is money.\n\n> [!WARNING]\n> Zebras ahead.\n\n## Bins\n\nSee [the scenario](ten.yaml#table-bins-10), [reading](../guide/reading.md#tvd) and [bins](#bins).\n",
        ),
        (
            "content/guide/reading.md",
            "---\ntitle: Reading\n---\n# Reading\n\n## TVD\n\nHalf the sum of the gaps. Back to [method](../dice/method.md#bins).\n",
        ),
    ]
}

fn build_fixture(files: &[(&str, &str)]) -> (tempfile::TempDir, Result<(), String>) {
    let dir = fixture(files);
    let result = build::build(&Project::at(dir.path()))
        .map(|_| ())
        .map_err(|e| e.to_string());
    (dir, result)
}

#[test]
fn math_and_callouts_render_without_script() {
    let (dir, result) = build_fixture(&site_files());
    result.unwrap();
    let method = fs::read_to_string(dir.path().join("site/dice/method.html")).unwrap();
    assert!(method.contains("<math display=\"inline\">"), "{method}");
    assert!(
        method.contains("<mo>mod</mo>") || method.contains(">mod<"),
        "\\mod maps to \\bmod"
    );
    assert!(method.contains("<math display=\"block\">"));
    assert!(method.contains("<mfrac>"));
    assert!(method.contains("A bet of $5 is money."));
    assert!(method.contains("<aside class=\"callout warning\""));
    assert!(!method.contains("merror"), "no error box reaches a reader");
}

#[test]
fn a_bad_formula_fails_the_build_with_file_and_line() {
    let mut files = site_files();
    files.push((
        "content/dice/bad.md",
        "---\ntitle: Bad\n---\nFine.\n\nBroken $\\frac{1}{2} \\nosuch$ here.\n",
    ));
    let (_dir, result) = build_fixture(&files);
    let err = result.unwrap_err();
    assert!(
        err.contains("content/dice/bad.md:6:8: formula `\\frac{1}{2} \\nosuch` does not parse"),
        "{err}"
    );
}

/// Output paths in reading order, found by following the "next" links from
/// the home page.
fn pager_order(site: &Path) -> Vec<String> {
    let mut order = vec!["index.html".to_string()];
    loop {
        let current = order.last().unwrap().clone();
        let html = fs::read_to_string(site.join(&current)).unwrap();
        let Some(at) = html.find("rel=\"next\"") else {
            return order;
        };
        let tag_start = html[..at].rfind("<a ").unwrap();
        let href_start = tag_start + html[tag_start..].find("href=\"").unwrap() + 6;
        let href = &html[href_start..href_start + html[href_start..].find('"').unwrap()];
        let next = fairdice::paths::resolve(&current, href).unwrap();
        assert!(!order.contains(&next), "reading order loops at {next}");
        order.push(next);
    }
}

#[test]
fn the_print_page_holds_every_page_in_reading_order() {
    let (dir, result) = build_fixture(&site_files());
    result.unwrap();
    let site = dir.path().join("site");
    let order = pager_order(&site);
    assert_eq!(order.len(), 5, "{order:?}");
    let print = fs::read_to_string(site.join("print.html")).unwrap();
    let positions: Vec<usize> = order
        .iter()
        .map(|output| {
            let anchor = format!(
                "<section class=\"print-page\" id=\"page-{}\"",
                output.trim_end_matches(".html").replace('/', "-")
            );
            assert_eq!(print.matches(&anchor).count(), 1, "{anchor}");
            print.find(&anchor).unwrap()
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(print.contains("Zebras ahead."));
    assert!(print.contains("<math"));
    assert!(
        print.contains("href=\"#page-guide-reading--tvd\""),
        "links point inside"
    );
    assert!(print.contains("href=\"#page-dice-ten--table-bins-10\""));
    assert!(!print.contains("class=\"sidebar\""), "no chrome");
    // Every in-page link of the print page (and of every page) resolves.
    assert_eq!(broken_links(&site), Vec::<String>::new());
}

/// The visible text of every page's article, tags removed.
fn site_text(site: &Path) -> String {
    let mut text = String::new();
    for entry in walkdir::WalkDir::new(site) {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "html") && !path.ends_with("print.html") {
            let html = fs::read_to_string(path).unwrap();
            let start = html.find("<article>").unwrap();
            let end = html.rfind("</article>").unwrap();
            let mut inside_tag = false;
            for c in html[start..end].chars() {
                match c {
                    '<' => inside_tag = true,
                    '>' => inside_tag = false,
                    c if !inside_tag => text.push(c),
                    _ => {}
                }
            }
        }
    }
    text
}

#[test]
fn the_search_index_covers_every_page_and_is_smaller_than_the_text() {
    let (dir, result) = build_fixture(&site_files());
    result.unwrap();
    let site = dir.path().join("site");
    let js = fs::read_to_string(site.join("search-index.js")).unwrap();
    let json = js
        .strip_prefix("window.FAIRDICE_SEARCH=")
        .and_then(|j| j.trim_end().strip_suffix(';'))
        .expect("the index assigns one global");
    let index: serde_json::Value = serde_json::from_str(json).unwrap();
    let pages = index["pages"].as_array().unwrap();
    let mut outputs: Vec<&str> = pages.iter().map(|p| p[1].as_str().unwrap()).collect();
    outputs.sort();
    assert_eq!(
        outputs,
        [
            "dice/index.html",
            "dice/method.html",
            "dice/ten.html",
            "guide/reading.html",
            "index.html",
            "playground.html"
        ]
    );
    let page_of = |word: &str| -> Vec<&str> {
        index["terms"][word]
            .as_array()
            .unwrap_or_else(|| panic!("{word} is indexed"))
            .chunks(2)
            .map(|hit| {
                let section = &index["sections"][hit[0].as_u64().unwrap() as usize];
                pages[section[0].as_u64().unwrap() as usize][1]
                    .as_str()
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(page_of("zebras"), ["dice/method.html"]);
    assert_eq!(page_of("gaps"), ["guide/reading.html"]);
    assert!(index["terms"]["the"].is_null(), "stop words are left out");
    let text = site_text(&site);
    assert!(
        js.len() <= text.len(),
        "index {} bytes, text {} bytes",
        js.len(),
        text.len()
    );
}

#[test]
fn a_report_is_one_self_contained_file() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = dir.path().join("ten.yaml");
    fs::write(&yaml, TEN_DICE).unwrap();
    let html = fairdice::build::report(
        &yaml,
        &fairdice::analyses::Budget::default(),
        &fairdice::progress::Progress::hidden(),
    )
    .unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<style>") && !html.contains("<link"));
    assert!(!html.contains("src=\""), "nothing loaded from elsewhere");
    for (i, _) in html.match_indices("href=\"") {
        let link = &html[i + 6..];
        assert!(
            link.starts_with('#') || link.starts_with("data:"),
            "external reference: {}",
            &link[..link.find('"').unwrap()]
        );
    }
    assert!(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(html.contains("<p class=\"table-caption\""));
    assert!(
        html.contains("<span class=\"shown\">6,031,368</span>"),
        "bin 0 of 10d6 mod 10"
    );
    assert!(
        html.contains("&quot;ways&quot;: &quot;6031368&quot;"),
        "the exact data"
    );
    assert!(html.contains("download=\"ten.bins-10.csv\""));
    assert!(html.contains(
        "data:text/csv;charset=utf-8,bin,ways,probability,probability%20%28decimal%29%0A0,6031368,"
    ));
}
