//! Every CSV the site writes reads back through a real CSV reader: each
//! row as long as its header, text cells that could be formulas
//! neutralised, fractions exact (issue 27, item 2).

use crate::common::{fairdice, fixture, snapshot};
use fairdice::paths::percent_decode;
use std::fs;

/// A dice scenario whose roll names carry a slash, a comma, a quote and
/// the four characters that start a spreadsheet formula.
const HOSTILE_ROLLS: &str = "title: Names\nkind: dice\nrolls:\n  \"d20 w/ advantage\": 2d20kh1\n  \"=HYPERLINK(\\\"http://x\\\",\\\"y\\\")\": d20\n  \"+1, \\\"quoted\\\"\": d4\n  \"-2\": d6\n  \"@SUM(A1)\": d8\n";

/// Every record of `text`, read as a spreadsheet would, checked to be as
/// long as the header and free of formulas.
fn check(name: &str, text: &str) -> Vec<Vec<String>> {
    let records: Vec<Vec<String>> = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let width = records[0].len();
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record.len(), width, "{name}: row {i} {record:?}");
        for field in record {
            let number = field.parse::<f64>().is_ok()
                || field
                    .split_once('/')
                    .is_some_and(|(a, b)| a.parse::<i128>().is_ok() && b.parse::<u128>().is_ok());
            assert!(
                number || !field.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{name}: a formula {field:?}"
            );
        }
    }
    records
}

#[test]
fn every_csv_of_the_site_reads_back_with_its_header_length_and_no_formula() {
    let dir = fixture(&[
        (
            "content/_index.md",
            "---\ntitle: Home\n---\n[names](names.yaml)\n",
        ),
        ("content/names.yaml", HOSTILE_ROLLS),
    ]);
    let run = fairdice(&["build"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let mut names = Vec::new();
    for (path, bytes) in snapshot(&dir.path().join("site")) {
        if path.extension().and_then(|e| e.to_str()) == Some("csv") {
            let records = check(
                &path.display().to_string(),
                &String::from_utf8(bytes).unwrap(),
            );
            names.extend(records.into_iter().flatten());
        }
    }
    for neutralised in [
        "'=HYPERLINK(\"http://x\",\"y\")",
        "'+1, \"quoted\"",
        "'@SUM(A1)",
    ] {
        assert!(
            names.iter().any(|n| n == neutralised),
            "{neutralised} in {names:?}"
        );
    }
    assert!(names.iter().any(|n| n == "d20 w/ advantage"));
}

#[test]
fn a_reports_data_links_read_back_the_same() {
    let dir = fixture(&[("names.yaml", HOSTILE_ROLLS)]);
    let run = fairdice(&["report", "names.yaml", "-o", "names.html"], dir.path());
    assert!(run.status.success(), "{}", run.stderr_text());
    let html = fs::read_to_string(dir.path().join("names.html")).unwrap();
    let prefix = "href=\"data:text/csv;charset=utf-8,";
    let links: Vec<String> = html
        .match_indices(prefix)
        .map(|(i, _)| {
            let start = i + prefix.len();
            let end = start + html[start..].find('"').unwrap();
            percent_decode(&html[start..end].replace("&amp;", "&"))
        })
        .collect();
    assert!(links.len() >= 2, "{} data links", links.len());
    for (i, text) in links.iter().enumerate() {
        check(&format!("data link {i}"), text);
    }
}

#[test]
fn the_what_if_forms_data_links_read_back_the_same() {
    use fairdice::calculator::{answer, Call, Playground, Response};
    let call = Call::Playground(Playground {
        rolls: "2d20kh1\n-1+d6\n".into(),
        explode_depth: String::new(),
        notation: String::new(),
    });
    let Response::Done { html, .. } = answer(&call) else {
        panic!("the playground refused");
    };
    let prefix = "href=\"data:text/csv;charset=utf-8,";
    let mut seen = 0;
    for (i, _) in html.match_indices(prefix) {
        let start = i + prefix.len();
        let end = start + html[start..].find('"').unwrap();
        let text = percent_decode(&html[start..end].replace("&amp;", "&"));
        check("playground", &text);
        seen += 1;
    }
    assert!(seen >= 1);
}
